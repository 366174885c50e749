/* test_kineto.c — PyTorch profiler (Kineto) traces read as measured
 * kernels, against the figures read by hand in each fixture's .source.txt
 * (tests/fixtures/profiles/kineto/, copied byte for byte from
 * ../shared/fixtures/profiles/kineto/ with their sources), and the same
 * trace's TraceLens tables (tests/fixtures/profiles/tracelens/, which
 * TraceLens made from the H100 trace): today's categories and 2021's, ROCm,
 * CUPTI range counters; and small traces written here for the shapes none
 * of them has (a bare event array, with_flops, Inductor's counts, a
 * truncated file, gzip from memory). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "testutil.h"

#include "calibrate.h"
#include "chips.h"
#include "measured.h"
#include "profile_kineto.h"

#define KINETO "tests/fixtures/profiles/kineto/"

static void read_fixture(const char *file, struct kineto_trace *t)
{
    char path[256], err[400];
    snprintf(path, sizeof path, KINETO "%s", file);
    assert_true(kineto_file_looks_like(path));
    if (kineto_read_path(path, file, t, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static const struct kineto_group *group(const struct kineto_trace *t, const char *label)
{
    for (size_t i = 0; i < t->group_count; i++)
        if (strcmp(t->groups[i].label, label) == 0)
            return &t->groups[i];
    fail_msg("no group '%s'", label);
    return NULL;
}

/* H100, Qwen1.5-0.5B prefill, bf16 (torch 2.x categories; kernels joined
 * through correlation -> cuda_runtime -> External id -> cpu_op):
 * 1,465 kernels, 45,432.698 us; 241 memsets 212.234 us + 1 memcpy 2.368 us;
 * ProfilerStep#6 on the GPU 34,892.421 us, with the 1,029 linked kernels
 * (31,760.058 us), 168 memsets (143.047 us) and the memcpy inside it. */
static void test_h100_totals(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("h100_qwen1.5-0.5b_bf16_prefill.json.gz", &t);
    assert_string_equal(t.device, "NVIDIA H100 80GB HBM3");
    assert_int_equal(t.events, 18221);
    assert_int_equal(t.kernel_events, 1465);
    ASSERT_NEAR(t.kernel_s, 45432.698e-6, 1e-9);
    assert_int_equal(t.copy_events, 242);
    ASSERT_NEAR(t.copy_s, (212.234 + 2.368) * 1e-6, 1e-9);
    assert_int_equal(t.steps, 1);
    assert_true(t.steps_on_gpu);
    ASSERT_NEAR(t.step_s, 34892.421e-6, 1e-9);
    ASSERT_NEAR(t.step_busy_s, (31760.058 + 143.047 + 2.368) * 1e-6, 1e-9);
    /* 436 kernels (13,672.640 us) and 73 memsets (212.234 - 143.047 us) were launched before the CPU window */
    ASSERT_NEAR(t.unlinked_s, (13672.640 + 212.234 - 143.047) * 1e-6, 1e-9);
    kineto_free(&t);
}

/* The same trace's GEMMs and attention against TraceLens's tables of it:
 * aten::mm 8944 x 1024 @ 1024 x 2816: 48 calls, 2*8944*1024*2816 =
 * 51,581,550,592 FLOPs and (8944*1024 + 1024*2816 + 8944*2816) * 2 =
 * 74,457,088 bytes a call; 48 GEMM kernels + 48 memsets = 4,055.251 us
 * (TraceLens: Kernel Time sum 4055.25244, memsets included);
 * aten::addmm with bias: 2MKN + MN = 18,766,086,144 FLOPs, 36.939453125 MiB;
 * flash attention B16 S559 H16 d64 causal: 10,239,377,408 FLOPs, 69.875 MiB,
 * 24 kernels 2,722.705 us. */
static void test_h100_against_tracelens(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("h100_qwen1.5-0.5b_bf16_prefill.json.gz", &t);
    const struct kineto_group *mm = group(&t, "mm M8944 K1024 N2816 bf16");
    assert_int_equal(mm->calls, 48);
    assert_int_equal(mm->kernels, 96);
    ASSERT_NEAR(mm->flops, 48 * 51581550592.0, 0);
    ASSERT_NEAR(mm->bytes, 48 * 74457088.0, 0);
    ASSERT_NEAR(mm->seconds, 4055.251e-6, 1e-9);
    assert_int_equal(mm->flops_source, KINETO_SHAPES);
    assert_int_equal(mm->precision, RT_BF16);
    assert_false(mm->vector_unit);
    const struct kineto_group *addmm = group(&t, "addmm M8944 K1024 N1024 bf16");
    assert_int_equal(addmm->calls, 72);
    ASSERT_NEAR(addmm->flops / 72, 18766086144.0, 0);
    ASSERT_NEAR(addmm->bytes / 72, 36.939453125 * 1048576.0, 0);
    const struct kineto_group *attn = group(&t, "attn B16 H16 S559/559 d64 causal bf16");
    assert_int_equal(attn->calls, 24);
    assert_int_equal(attn->kernels, 24);
    ASSERT_NEAR(attn->flops / 24, 10239377408.0, 0);
    ASSERT_NEAR(attn->bytes / 24, 69.875 * 1048576.0, 0);
    ASSERT_NEAR(attn->seconds, 2722.705e-6, 1e-9);
    assert_false(attn->causal_unknown);
    kineto_free(&t);
}

/* Element-wise work by its bytes at its dtype: aten::mul [16,16,559,64] x
 * [1,1,559,64] bf16 writes the broadcast [16,16,559,64]: (9,158,656 +
 * 35,776 + 9,158,656) x 2 bytes a call, 96 calls; aten::pow in fp32
 * [16,559,1024]: read and write 4 bytes each; aten::copy_ float <- bf16
 * reads 2 and writes 4. */
static void test_h100_elementwise(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("h100_qwen1.5-0.5b_bf16_prefill.json.gz", &t);
    const struct kineto_group *mul = group(&t, "mul 16x16x559x64 bf16");
    assert_int_equal(mul->calls, 96);
    ASSERT_NEAR(mul->bytes, 96 * (9158656.0 + 35776.0 + 9158656.0) * 2.0, 0);
    ASSERT_NEAR(mul->flops, 0, 0);
    ASSERT_NEAR(mul->seconds, 2679.732e-6, 1e-9);
    const struct kineto_group *pow = group(&t, "pow 16x559x1024 fp32");
    ASSERT_NEAR(pow->bytes / pow->calls, 2 * 16 * 559 * 1024 * 4.0, 0);
    /* copy_ (float dst, bf16 src) and (bf16 dst, float src) share a label: 49 + 49 calls */
    const struct kineto_group *copy = group(&t, "copy_ 16x559x1024 fp32");
    ASSERT_NEAR(copy->bytes / copy->calls, 16 * 559 * 1024 * 6.0, 0);
    kineto_free(&t);
}

/* As points: the longest first, FLOP-less groups placed by their bytes, and
 * what is left off said: cat (a TensorList, whose dtype the trace does not
 * give), 436 kernels launched before the CPU window. */
static void test_h100_points(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("h100_qwen1.5-0.5b_bf16_prefill.json.gz", &t);
    struct measured_point p[64];
    size_t n;
    struct load_warnings w = {0};
    char err[400];
    assert_int_equal(kineto_points("h100", &t, p, 64, &n, NULL, &w, err, sizeof err), 0);
    assert_int_equal(n, 31);
    assert_string_equal(p[0].label, "mm M8944 K1024 N2816 bf16");
    for (size_t i = 1; i < n; i++)
        assert_true(p[i].seconds <= p[i - 1].seconds);
    bool said_rule = false, said_unlinked = false, said_step = false;
    for (int i = 0; i < w.count; i++) {
        said_rule |= strstr(w.text[i], "without a FLOP or byte rule") && strstr(w.text[i], "cat 2.018 ms");
        said_unlinked |= strstr(w.text[i], "with no launching operator (") && strstr(w.text[i], "13.673 ms, 30%");
        said_step |= strstr(w.text[i], "1 ProfilerStep span on the GPU, 34.892 ms") != NULL;
    }
    assert_true(said_rule);
    assert_true(said_unlinked);
    assert_true(said_step);
    /* on the H100's roof: the GEMM at 51.58 GFLOP x 48 / 4,055.25 us = 610.5 TFLOP/s
       (TraceLens's 610.54 from the same figures) */
    struct scenario s;
    scenario_default(&s);
    struct point_placement pp;
    assert_int_equal(point_place(&p[0], &s, &pp), 0);
    ASSERT_NEAR(pp.achieved_flops_per_s / 1e12, 610.54, 0.01);
    assert_false(pp.by_bytes);
    /* a cap: the rest is said */
    struct load_warnings w2 = {0};
    assert_int_equal(kineto_points("h100", &t, p, 4, &n, NULL, &w2, err, sizeof err), 0);
    assert_int_equal(n, 4);
    bool said_cap = false;
    for (int i = 0; i < w2.count; i++)
        said_cap |= strstr(w2.text[i], "27 more groups") && strstr(w2.text[i], "at most 4 points");
    assert_true(said_cap);
    kineto_free(&t);
}

/* HFU and MBU of the profiled step by count, on the H100 of the scenario
 * (989.4 TFLOP/s bf16, 67 TFLOP/s fp32 vector, 3.35 TB/s): the GEMMs and
 * attention in bf16, 48 x 51,581,550,592 + 24 x 51,581,550,592 + 24 x
 * 18,756,927,488 + 72 x 18,766,086,144 + 24 x 10,239,377,408 =
 * 5,760,941,162,496 FLOPs, and the fp32 bmm [1,32,1] @ [1,1,559] 2 x 32 x
 * 559 = 35,776 on the vector unit, over ProfilerStep#6's 34,892.421 us. */
static void test_h100_utilization(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("h100_qwen1.5-0.5b_bf16_prefill.json.gz", &t);
    struct measured_point p[64];
    size_t n;
    struct points_context ctx;
    char err[400];
    assert_int_equal(kineto_points("h100", &t, p, 64, &n, &ctx, NULL, err, sizeof err), 0);
    assert_string_equal(ctx.device, "NVIDIA H100 80GB HBM3");
    assert_true(ctx.steps_on_gpu);
    ASSERT_NEAR(ctx.all_s, (45432.698 + 212.234 + 2.368) * 1e-6, 1e-9);
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    struct points_utilization u;
    assert_int_equal(points_utilization(p, n, &ctx, &s, &u), 0);
    ASSERT_NEAR(u.flops, 5760941162496.0 + 35776.0, 0);
    assert_true(u.window_is_step);
    ASSERT_NEAR(u.window_s, 34892.421e-6, 1e-12);
    ASSERT_NEAR(u.hfu, (5760941162496.0 / 989.4e12 + 35776.0 / 67e12) / 34892.421e-6, 1e-12);
    ASSERT_NEAR(u.mbu, u.bytes / (34892.421e-6 * 3350e9), 1e-12);
    /* a kernel above its roof (1 ns for a TFLOP) is left out of HFU and MBU, and counted as left out */
    double hfu = u.hfu;
    p[n] = (struct measured_point){.label = "bogus", .flops = 1e12, .bytes = 1e9, .seconds = 1e-9};
    assert_int_equal(points_utilization(p, n + 1, &ctx, &s, &u), 0);
    assert_int_equal(u.above_left_out, 1);
    ASSERT_NEAR(u.hfu, hfu, 0);
    /* without the steps: over the points' own kernel time */
    assert_int_equal(points_utilization(p, n, NULL, &s, &u), 0);
    assert_false(u.window_is_step);
    ASSERT_NEAR(u.window_s, u.seconds, 0);
    kineto_free(&t);
}

/* A100 with CUPTI range counters and no kernel events: the FLOPs are
 * there, the kernel times are not (every range lasts 121,431 us, back to
 * back): FP32 79,679,454,712, FP16 551,583,744, FP64 0, over 77 ranges. */
static void test_a100_counters_only(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("a100_cupti_profiler_flop_counters.json.gz", &t);
    assert_int_equal(t.ranges, 77);
    ASSERT_NEAR(t.range_flops_fp32, 79679454712.0, 0);
    ASSERT_NEAR(t.range_flops_fp16, 551583744.0, 0);
    ASSERT_NEAR(t.range_flops_fp64, 0, 0);
    assert_int_equal(t.kernel_events, 0);
    struct measured_point p[8];
    size_t n;
    char err[500];
    assert_int_equal(kineto_points("a100", &t, p, 8, &n, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "77 kernels' CUPTI range counters (79.68 GFLOP FP32, 0.55 GFLOP FP16, 0.00 GFLOP FP64)"));
    assert_non_null(strstr(err, "no kernel events"));
    kineto_free(&t);
}

/* V100, ResNet-50 training, the 2021 layout: cat "Kernel", "Operator",
 * "Runtime", "Memcpy", "Memset", lower-case "external id" on kernels,
 * integer microseconds, ProfilerStep#N as CPU operators. 8,772 kernels,
 * 591,532 us; 12 memcpy 11,492 us + 312 memset 534 us; six steps 176,078 +
 * 173,992 + 176,918 + 181,259 + 176,468 + 164,261 = 1,048,976 us. Its
 * convolutions have no rule (their output size is not in the trace). */
static void test_v100_old_categories(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("v100_resnet50_kineto2021_oldcats.json.gz", &t);
    assert_string_equal(t.device, "Tesla V100-DGXS-32GB");
    assert_int_equal(t.events, 75718);
    assert_int_equal(t.kernel_events, 8772);
    ASSERT_NEAR(t.kernel_s, 0.591532, 1e-9);
    assert_int_equal(t.copy_events, 324);
    ASSERT_NEAR(t.copy_s, (11492.0 + 534.0) * 1e-6, 1e-9);
    assert_int_equal(t.steps, 6);
    assert_false(t.steps_on_gpu);
    ASSERT_NEAR(t.step_s, 1.048976, 1e-9);
    /* batch norm's output is its input's shape; its weights and statistics [C] are read once */
    const struct kineto_group *bn = group(&t, "cudnn_batch_norm 32x64x112x112 fp32");
    ASSERT_NEAR(bn->bytes / bn->calls, (2.0 * 32 * 64 * 112 * 112 + 4 * 64) * 4.0, 0);
    const struct kineto_group *conv = group(&t, "cudnn_convolution");
    assert_int_equal(conv->flops_source, KINETO_NONE);
    ASSERT_NEAR(conv->bytes, 0, 0);
    kineto_free(&t);
}

/* MI300X under SGLang, replayed from HIP graphs: 555 kernels, 9,765.437 us,
 * only 8 with an External id; 3 memcpys 13.177 us; aten::argmax
 * [32, 151936] fp32 one kernel of 53.840 us, reading 19,447,808 bytes. */
static void test_mi300x_graph_replay(void **state)
{
    (void)state;
    struct kineto_trace t;
    read_fixture("mi300x_sglang_qwen3-8b_decode.json.gz", &t);
    assert_string_equal(t.device, "AMD Instinct MI300X");
    assert_int_equal(t.kernel_events, 555);
    ASSERT_NEAR(t.kernel_s, 9765.437e-6, 1e-9);
    assert_int_equal(t.copy_events, 3);
    ASSERT_NEAR(t.copy_s, 13.177e-6, 1e-9);
    const struct kineto_group *argmax = group(&t, "argmax 32x151936 fp32");
    ASSERT_NEAR(argmax->bytes, 32 * 151936 * 4.0, 0);
    ASSERT_NEAR(argmax->seconds, 53.840e-6, 1e-12);
    struct measured_point p[64];
    size_t n;
    struct load_warnings w = {0};
    char err[400];
    assert_int_equal(kineto_points("mi300x", &t, p, 64, &n, NULL, &w, err, sizeof err), 0);
    bool said = false;
    for (int i = 0; i < w.count; i++)
        said |= strstr(w.text[i], "no launching operator") && strstr(w.text[i], "99%");
    assert_true(said);
    kineto_free(&t);
}

/* Reads text (a trace written here) from memory. */
static int read_text(const char *text, struct kineto_trace *t, char *err, size_t errsize)
{
    return kineto_read_memory("t.json", text, strlen(text), t, err, errsize);
}

/* A bare event array; with_flops's args.flops wins over the shapes;
 * Inductor's kernel_flop / kernel_num_gb on a kernel that no operator
 * launched; a bmm batched; attention whose is_causal is not given (counted
 * full, and said); a kernel with its own External id. */
static void test_written_traces(void **state)
{
    (void)state;
    const char *text =
        "[\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"ts\":0,\"dur\":5,\"args\":{\"External id\":1,"
        "\"Input Dims\":[[128,256],[256,512]],\"Input type\":[\"c10::Half\",\"c10::Half\"],\"flops\":1000}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"ts\":1,\"dur\":2.5,\"args\":{\"External id\":1}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"triton_poi_fused_add_0\",\"ts\":4,\"dur\":10,"
        "\"args\":{\"kernel_flop\":2e6,\"kernel_num_gb\":0.004}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"triton_poi_fused_add_0\",\"ts\":20,\"dur\":10,"
        "\"args\":{\"kernel_flop\":2e6,\"kernel_num_gb\":0.004}},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::bmm\",\"ts\":30,\"dur\":5,\"args\":{\"External id\":2,"
        "\"Input Dims\":[[8,64,32],[8,32,16]],\"Input type\":[\"float\",\"float\"]}},\n"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"ts\":31,\"dur\":1,"
        "\"args\":{\"correlation\":77,\"External id\":2}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void sgemm<float>(int)\",\"ts\":40,\"dur\":1,"
        "\"args\":{\"correlation\":77}},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::scaled_dot_product_attention\",\"ts\":50,\"dur\":5,"
        "\"args\":{\"External id\":3,\"Input Dims\":[[2,8,100,64],[2,2,300,64],[2,2,300,64]],"
        "\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fmha\",\"ts\":60,\"dur\":4,\"args\":{\"External id\":3}},\n"
        "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"name\":\"[memory]\",\"ts\":61}\n"
        "]";
    struct kineto_trace t;
    char err[400];
    if (read_text(text, &t, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.events, 10);
    assert_int_equal(t.kernel_events, 5);
    /* with_flops's count wins; the bytes are still the shapes': (128*256 + 256*512 + 128*512) * 2 */
    const struct kineto_group *mm = group(&t, "mm M128 K256 N512 fp16");
    ASSERT_NEAR(mm->flops, 1000, 0);
    assert_int_equal(mm->flops_source, KINETO_WITH_FLOPS);
    ASSERT_NEAR(mm->bytes, 458752, 0);
    ASSERT_NEAR(mm->seconds, 2.5e-6, 1e-15);
    /* Inductor's counts, per kernel: 2 x 2e6 FLOPs, 2 x 0.004 GB (decimal) */
    const struct kineto_group *tri = group(&t, "triton_poi_fused_add_0");
    ASSERT_NEAR(tri->flops, 4e6, 0);
    ASSERT_NEAR(tri->bytes, 8e6, 1e-6);
    assert_int_equal(tri->flops_source, KINETO_INDUCTOR);
    assert_int_equal(tri->kernels, 2);
    /* fp32 bmm joined through its launch's correlation: 2*8*64*32*16 FLOPs,
       (8*64*32 + 8*32*16 + 8*64*16) * 4 bytes, on the vector unit */
    const struct kineto_group *bmm = group(&t, "bmm B8 M64 K32 N16 fp32");
    ASSERT_NEAR(bmm->flops, 524288, 0);
    ASSERT_NEAR(bmm->bytes, 114688, 0);
    assert_true(bmm->vector_unit);
    ASSERT_NEAR(bmm->seconds, 1e-6, 1e-15);
    /* GQA attention, q [2,8,100,64], k and v [2,2,300,64]: 2*B*Hq*Sq*Sk*(64+64);
       is_causal not given: counted full, and said */
    const struct kineto_group *attn = group(&t, "attn B2 H8 S100/300 d64 bf16");
    ASSERT_NEAR(attn->flops, 2.0 * 2 * 8 * 100 * 300 * 128, 0);
    ASSERT_NEAR(attn->bytes, (2 * 8 * 100 * 64 * 2.0) * 2 + (2 * 2 * 300 * 64 * 2.0) * 2, 0);
    assert_true(attn->causal_unknown);
    struct measured_point p[8];
    size_t n;
    struct load_warnings w = {0};
    assert_int_equal(kineto_points("t.json", &t, p, 8, &n, NULL, &w, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_true(p[3].vector_unit); /* the bmm, last by time */
    bool said = false;
    for (int i = 0; i < w.count; i++)
        said |= strstr(w.text[i], "1 attention group does not say whether causal") != NULL;
    assert_true(said);
    kineto_free(&t);
}

/* Compresses text as gzip into out (cap bytes); returns its length. */
static size_t gzip_text(const char *text, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)(uintptr_t)text;
    z.avail_in = (uInt)strlen(text);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    return n;
}

/* The object form with deviceProperties after the events, gzip from
 * memory, and what is refused: a truncated trace (plain or gzip), JSON with
 * no traceEvents, an event that is not JSON, two values, bytes outside any
 * value; a CSV of another kind names the Kineto trace among what it looked
 * for. */
static void test_refusals(void **state)
{
    (void)state;
    const char *text = "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\":\"X\",\"cat\":\"gpu_memcpy\","
                       "\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"ts\":0,\"dur\":100,"
                       "\"args\":{\"bytes\":1000000}}], \"deviceProperties\": [{\"name\": \"Some GPU\"}]}";
    unsigned char gz[4096];
    size_t n = gzip_text(text, gz, sizeof gz);
    struct kineto_trace t;
    char err[400];
    assert_int_equal(kineto_read_memory("t.json.gz", gz, n, &t, err, sizeof err), 0);
    assert_string_equal(t.device, "Some GPU");
    const struct kineto_group *copy = group(&t, "Memcpy HtoD");
    ASSERT_NEAR(copy->bytes, 1e6, 0);
    ASSERT_NEAR(copy->seconds, 100e-6, 1e-15);
    kineto_free(&t);
    /* through measured_points_read, as --points reads a file in memory: a copy placed by its bytes */
    struct measured_point p[4];
    size_t count;
    assert_int_equal(measured_points_read("t.json.gz", (const char *)gz, n, p, 4, &count, NULL, err, sizeof err), 0);
    assert_int_equal(count, 1);
    ASSERT_NEAR(p[0].flops, 0, 0);
    assert_int_equal(kineto_read_memory("t.json.gz", gz, n - 9, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.json.gz: "));
    assert_int_equal(read_text("{\"traceEvents\": [{\"ph\":\"X\"}", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "ends early"));
    assert_int_equal(read_text("{\"events\": []}", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "no \"traceEvents\" array"));
    assert_int_equal(read_text("[{\"ph\": tru}]", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "trace event 1 is not valid JSON"));
    assert_int_equal(read_text("[] []", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than one JSON value"));
    assert_int_equal(read_text("[] x", &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside any JSON value"));
    assert_int_equal(read_text("", &t, err, sizeof err), -1);
    assert_int_equal(t.group_count, 0);
    assert_null(t.groups);
    const char *csv = "name,value\nx,1\n";
    assert_int_equal(measured_points_read("x.csv", csv, strlen(csv), p, 4, &count, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "a PyTorch profiler (Kineto) trace"));
    /* a kernel of negative or unreadable dur is left out and said; one of 0.1 ns is out of a kernel's range
       (not "no rule"); when every dur is bad, that is the refusal */
    const char *odd = "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"Memset\",\"ts\":0,\"dur\":-10,\"args\":{}},"
                      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":0,\"dur\":\"abc\",\"args\":{}},"
                      "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoD\",\"ts\":0,\"dur\":5,"
                      "\"args\":{\"bytes\":1000}},"
                      "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\",\"ts\":0,\"dur\":1e-4,"
                      "\"args\":{\"bytes\":4}}]";
    assert_int_equal(read_text(odd, &t, err, sizeof err), 0);
    assert_int_equal(t.bad_durations, 2);
    struct load_warnings w = {0};
    assert_int_equal(kineto_points("t.json", &t, p, 4, &count, NULL, &w, err, sizeof err), 0);
    assert_int_equal(count, 1);
    bool said_bad = false, said_range = false;
    for (int i = 0; i < w.count; i++) {
        said_bad |= strstr(w.text[i], "2 kernel or copy events without a usable dur") != NULL;
        said_range |= strstr(w.text[i], "1 group whose figures fall outside a kernel's range") != NULL;
    }
    assert_true(said_bad);
    assert_true(said_range);
    kineto_free(&t);
    assert_int_equal(read_text("[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"ts\":0,\"dur\":-1}]", &t, err,
                               sizeof err),
                     0);
    assert_int_equal(kineto_points("t.json", &t, p, 4, &count, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "its 1 kernel and copy event have no usable dur"));
    kineto_free(&t);
    /* no kernels at all */
    assert_int_equal(read_text("[]", &t, err, sizeof err), 0);
    assert_int_equal(kineto_points("t.json", &t, p, 4, &count, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no kernel events in the trace"));
    kineto_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_totals),         cmocka_unit_test(test_h100_against_tracelens),
        cmocka_unit_test(test_h100_elementwise),    cmocka_unit_test(test_h100_points),
        cmocka_unit_test(test_a100_counters_only),  cmocka_unit_test(test_v100_old_categories),
        cmocka_unit_test(test_mi300x_graph_replay), cmocka_unit_test(test_written_traces),
        cmocka_unit_test(test_refusals),           cmocka_unit_test(test_h100_utilization),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
