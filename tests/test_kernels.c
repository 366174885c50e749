/* test_kernels.c — the measured kernel models (kernels.h): the --op spec,
 * the roofline floors worked by hand, the block formats' bytes, the fit
 * recovering constants it was given, the tables read as written, and the
 * compiled-in fits held to error bounds on a sample of measured rows
 * (tests/fixtures/kernels, from AIConfigurator's measured tables). */
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "fileio.h"
#include "kernelfile.h"
#include "kernelfit.h"
#include "kernels.h"
#include "kerneltable.h"
#include "opspec.h"
#include "realistic.h"

static void test_op_spec_round_trip(void **state)
{
    (void)state;
    struct op_spec spec;
    char err[300], buf[RT_OP_SPEC_MAX];
    assert_int_equal(op_spec_parse("gemm:m=1,n=8k,k=8192,format=fp8_block,cache=warm", &spec, err, sizeof err), 0);
    assert_int_equal(spec.shape.kind, RT_KERNEL_GEMM);
    assert_true(spec.shape.m == 1 && spec.shape.n == 8000 && spec.shape.k == 8192);
    assert_int_equal(spec.shape.format, RT_KF_FP8_BLOCK);
    assert_true(spec.shape.warm_cache);
    assert_string_equal(op_spec_format(buf, sizeof buf, &spec), "gemm:m=1,n=8000,k=8192,format=fp8_block,cache=warm");
    struct op_spec again;
    assert_int_equal(op_spec_parse(buf, &again, err, sizeof err), 0);
    assert_memory_equal(&again.shape, &spec.shape, sizeof spec.shape);

    assert_int_equal(op_spec_parse("decode-attention:batch=64,kv_len=8192,kv=fp8,kernel=fa3", &spec, err, sizeof err), 0);
    assert_true(spec.shape.kv_fp8 && spec.shape.family == RT_KFAM_FA3 && spec.shape.kv_len == 8192);
    assert_int_equal(op_spec_parse("all-gather:bytes=16M,gpus=8", &spec, err, sizeof err), 0);
    assert_int_equal(spec.shape.kind, RT_KERNEL_NCCL_ALLGATHER);
}

static void test_op_spec_refusals_name_the_fault(void **state)
{
    (void)state;
    struct op_spec spec;
    char err[300];
    assert_int_equal(op_spec_parse("conv:m=1", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown operation 'conv'"));
    assert_int_equal(op_spec_parse("gemm:q=3", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key 'q' (m, n, k, format"));
    assert_int_equal(op_spec_parse("gemm:m=0", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "'m' must be a whole number from 1"));
    assert_int_equal(op_spec_parse("gemm:m=1.5", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "'m' must be a whole number from 1 to 2^40 (got '1.5')"));
    assert_int_equal(op_spec_parse("gemm:m=2,m=4", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "'m' is given twice"));
    assert_int_equal(op_spec_parse("gemm:kernel=nope", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown kernel 'nope' (default, deepgemm, cutlass"));
    assert_int_equal(op_spec_parse("moe:skew=0.5", &spec, err, sizeof err), 0); /* an exponent, not a count */
    assert_int_equal(op_spec_parse("gemm:m", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "'m' is not KEY=VALUE"));
    assert_int_equal(op_spec_parse("moe:format=fp5", &spec, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown format 'fp5'"));
}

/* The block formats' bytes: NVFP4 is e2m1 plus an e4m3 scale per 16
 * elements (4.5 bits; NVIDIA's NVFP4 format), MXFP4 e2m1 plus an e8m0 scale
 * per 32 (4.25 bits; OCP Microscaling Formats v1.0), fp8_block an fp32 scale
 * per 128 x 128 weights (DeepSeek-V3 report, 3.3) and per 1 x 128
 * activations. */
static void test_block_format_bytes(void **state)
{
    (void)state;
    assert_true(kernel_format_weight_bytes(RT_KF_NVFP4) == 0.5625);
    assert_true(kernel_format_weight_bytes(RT_KF_MXFP4) == 0.53125);
    assert_true(kernel_format_weight_bytes(RT_KF_FP8_BLOCK) == 1.0 + 4.0 / 16384.0);
    assert_true(kernel_format_act_bytes(RT_KF_FP8_BLOCK) == 1.0 + 4.0 / 128.0);
    assert_true(kernel_format_act_bytes(RT_KF_INT4_WO) == 2.0); /* W4A16: bf16 activations */
    assert_int_equal(kernel_format_rate(RT_KF_MXFP4_A8), RT_RATE_FP8);
    assert_int_equal(kernel_format_rate(RT_KF_NVFP4), RT_RATE_FP4);
    assert_int_equal(kernel_format_rate(RT_KF_MXFP4_WO), RT_RATE_BF16);
}

static struct kernel_chip h100_chip(void)
{
    struct kernel_chip c = {.peak_flops_per_s = {989.4e12, 1978.9e12, 1978.9e12, 0}, .hbm_bytes_per_s = 3.35e12,
                            .l2_bytes = 50e6, .sm_count = 132, .link_bytes_per_s = 450e9};
    return c;
}

/* The guide's ch. 3: the 8192^3 bf16 matmul is compute-bound (intensity
 * 2730.7) and its floor is 2 x 8192^3 / 989.4e12 s; at M = 1 it is memory-
 * bound at about 1 FLOP/byte. */
static void test_floors_by_hand(void **state)
{
    (void)state;
    struct kernel_chip c = h100_chip();
    struct kernel_shape g = {.kind = RT_KERNEL_GEMM, .format = RT_KF_BF16, .m = 8192, .n = 8192, .k = 8192};
    double flops, bytes, t = kernel_floor(&g, &c, &flops, &bytes);
    assert_true(flops == 2.0 * 8192.0 * 8192.0 * 8192.0);
    assert_true(bytes == 3.0 * 8192.0 * 8192.0 * 2.0);
    ASSERT_PRINTED("%.1f", flops / bytes, "2730.7");
    ASSERT_NEAR(t, flops / 989.4e12, 1e-15);
    g.m = 1;
    t = kernel_floor(&g, &c, &flops, &bytes);
    ASSERT_NEAR(flops / bytes, 8192.0 / 8194.0, 1e-12); /* 2 x 8192^2 FLOPs over 2 x (8192^2 + 2 x 8192) bytes */
    ASSERT_NEAR(t, bytes / 3.35e12, 1e-15);
    /* Decode attention: 64 sequences x 8192 cached tokens x 8 kv heads x 128 x (K and V) x 2 bytes, plus
     * the queries and outputs of 32 heads. */
    struct kernel_shape d = {.kind = RT_KERNEL_DECODE_ATTENTION, .format = RT_KF_BF16, .batch = 64, .kv_len = 8192,
                             .heads = 32, .kv_heads = 8, .head_dim = 128};
    kernel_floor(&d, &c, &flops, &bytes);
    assert_true(bytes == 64.0 * 8192.0 * 2.0 * 8.0 * 128.0 * 2.0 + 64.0 * 32.0 * 256.0 * 2.0);
    assert_true(flops == 2.0 * 64.0 * 32.0 * 256.0 * 8192.0);
    /* A ring all-reduce moves 2(n-1)/n of the message per chip (Thakur et al. 2005). */
    struct kernel_shape ar = {.kind = RT_KERNEL_NCCL_ALLREDUCE, .gpus = 8, .message_bytes = 16e6};
    t = kernel_floor(&ar, &c, &flops, &bytes);
    assert_true(bytes == 16e6 * 2.0 * 7.0 / 8.0);
    ASSERT_NEAR(t, bytes / 450e9, 1e-15);
}

/* The fit finds constants it was given: rows made by the GEMM model itself
 * from known constants, fitted from the defaults. */
static void test_fit_recovers_its_constants(void **state)
{
    (void)state;
    struct kernel_chip c = h100_chip();
    float truth[RT_KERNEL_PARAMS];
    kernel_default_params(RT_KERNEL_GEMM, truth);
    truth[kernel_param_index(RT_KERNEL_GEMM, "peak_fraction")] = 0.62f;
    truth[kernel_param_index(RT_KERNEL_GEMM, "hbm_fraction")] = 0.71f;
    truth[kernel_param_index(RT_KERNEL_GEMM, "launch_s")] = 6.5e-6f;
    static struct kernel_obs rows[400];
    size_t n = 0;
    for (double m = 1; m <= 16384; m *= 4)
        for (double nn = 256; nn <= 16384; nn *= 4)
            for (double k = 256; k <= 16384; k *= 4) {
                struct kernel_shape s = {.kind = RT_KERNEL_GEMM, .format = RT_KF_BF16, .m = m, .n = nn, .k = k};
                rows[n].shape = s;
                rows[n].measured_s = kernel_time(&s, &c, truth, 1, 1, NULL);
                n++;
            }
    float p[RT_KERNEL_PARAMS];
    kernel_default_params(RT_KERNEL_GEMM, p);
    double mape = kernel_fit_params(rows, n, &c, RT_KERNEL_GEMM, p, 60);
    assert_true(mape < 0.01);
    ASSERT_NEAR(p[kernel_param_index(RT_KERNEL_GEMM, "peak_fraction")], 0.62, 0.02);
    ASSERT_NEAR(p[kernel_param_index(RT_KERNEL_GEMM, "hbm_fraction")], 0.71, 0.02);
    /* Cross-validation is seeded: the same figure twice. */
    double a = kernel_fit_cv(rows, n, &c, RT_KERNEL_GEMM, p, 5, 7, 20);
    double b = kernel_fit_cv(rows, n, &c, RT_KERNEL_GEMM, p, 5, 7, 20);
    assert_true(a == b && a < 0.02);
}

static struct kernel_row *read_table(const char *path, size_t *n)
{
    char *text, err[600];
    size_t len;
    struct kernel_row *rows = NULL;
    if (read_file(path, &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (kernel_table_read(path, text, len, &rows, n, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(text);
    return rows;
}

/* The tables as the collectors write them: the system's folder names the
 * chip; a generation step attends to isl + step tokens; power_law_A is
 * skew A; latency is in milliseconds. */
static void test_tables_read_as_written(void **state)
{
    (void)state;
    size_t n;
    struct kernel_row *r = read_table("tests/fixtures/kernels/h100_sxm/trtllm/generation_attention_perf.csv", &n);
    assert_int_equal(n, 40);
    assert_string_equal(r[0].chip, "h100");
    assert_int_equal(r[0].engine, RT_KE_TRTLLM);
    /* its first row as written: batch 128, isl 1, step 1, 0.15211199720700583 ms: one token cached, and the
     * one being decoded (isl + step), in seconds */
    ASSERT_NEAR(r[0].obs.measured_s, 0.15211199720700583e-3, 1e-18);
    assert_true(r[0].obs.shape.kv_len == 2.0 && r[0].obs.shape.batch == 128.0);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r[i].obs.shape.kind, RT_KERNEL_DECODE_ATTENTION);
        assert_true(r[i].obs.shape.kv_len >= 2 && r[i].obs.measured_s > 1e-7 && r[i].obs.measured_s < 1.0);
        assert_true(r[i].obs.shape.warm_cache);
    }
    free(r);
    r = read_table("tests/fixtures/kernels/h100_sxm/vllm/moe_perf.csv", &n);
    bool skewed = false;
    for (size_t i = 0; i < n; i++)
        skewed |= r[i].obs.shape.skew == 1.01 || r[i].obs.shape.skew == 1.2;
    assert_true(skewed);
    free(r);
    r = read_table("tests/fixtures/kernels/h100_sxm/nccl/nccl_perf.csv", &n);
    for (size_t i = 0; i < n; i++)
        assert_true(r[i].obs.shape.kind >= RT_KERNEL_NCCL_ALLREDUCE && r[i].obs.shape.kind <= RT_KERNEL_NCCL_ALLTOALL);
    free(r);
}

/* The compiled-in fits on measured rows: each sample's MAPE within about
 * 1.6x of what `rooftop --validate` gives on it today (these rows are among
 * those the fits were made on, so this guards the fits and the table reader,
 * not the accuracy: the cross-validated figures are the README's). */
static void test_compiled_fits_on_measured_rows(void **state)
{
    (void)state;
    static const struct { const char *path; double bound; } tables[] = {
        {"tests/fixtures/kernels/h100_sxm/trtllm/gemm_perf.csv", 0.13},                 /* 7.9% */
        {"tests/fixtures/kernels/h100_sxm/vllm/gemm_perf.csv", 0.13},                   /* 8.0% */
        {"tests/fixtures/kernels/b200_sxm/trtllm/gemm_perf.csv", 0.16},                 /* 10.2% */
        {"tests/fixtures/kernels/l40s/vllm/gemm_perf.csv", 0.21},                       /* 13.0% */
        {"tests/fixtures/kernels/h100_sxm/trtllm/context_attention_perf.csv", 0.19},    /* 11.9% */
        {"tests/fixtures/kernels/a100_sxm/trtllm/context_attention_perf.csv", 0.11},    /* 6.5% */
        {"tests/fixtures/kernels/h100_sxm/trtllm/generation_attention_perf.csv", 0.25}, /* 15.3% */
        {"tests/fixtures/kernels/h200_sxm/sglang/generation_attention_perf.csv", 0.19}, /* 11.9% */
        {"tests/fixtures/kernels/h100_sxm/trtllm/context_mla_perf.csv", 0.11},          /* 6.4% */
        {"tests/fixtures/kernels/h100_sxm/trtllm/generation_mla_perf.csv", 0.15},       /* 9.2% */
        {"tests/fixtures/kernels/h100_sxm/vllm/moe_perf.csv", 0.20},                    /* 12.6% */
        {"tests/fixtures/kernels/b200_sxm/trtllm/moe_perf.csv", 0.30},                  /* 18.9% */
        {"tests/fixtures/kernels/h100_sxm/vllm/custom_allreduce_perf.csv", 0.10},       /* 6.0% */
        {"tests/fixtures/kernels/h100_sxm/nccl/nccl_perf.csv", 0.09},                   /* 5.4% */
    };
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        size_t n;
        struct kernel_row *r = read_table(tables[t].path, &n);
        const struct chip_spec *spec = chip_find(r[0].chip);
        assert_non_null(spec);
        struct kernel_view v;
        struct kernel_chip c;
        kernel_view_for(spec->key, &spec->kernels, &v);
        kernel_chip_of(spec, &v, &c);
        double sum = 0.0;
        size_t used = 0;
        for (size_t i = 0; i < n; i++) {
            if (r[i].skipped[0])
                continue;
            struct kernel_estimate e;
            double p = kernel_estimate(&r[i].obs.shape, &c, &v, r[i].engine, &e);
            assert_int_equal(e.source, RT_KSRC_MEASURED);
            sum += fabs(p - r[i].obs.measured_s) / r[i].obs.measured_s;
            used++;
        }
        assert_true(used > 30);
        double mape = sum / (double)used;
        if (mape > tables[t].bound)
            fail_msg("%s: MAPE %.1f%% over %zu rows, bound %.0f%%", tables[t].path, 100 * mape, used,
                     100 * tables[t].bound);
        free(r);
    }
}

/* An --op scenario is an ordinary scenario: analyze() times the kernel and
 * its floor never exceeds its estimate when the operands are cold. */
static void test_operation_in_analyze(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    char err[300];
    assert_int_equal(op_spec_parse("gemm:m=8192,n=8192,k=8192", &s.op, err, sizeof err), 0);
    static struct analysis a;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_true(a.operation.set);
    ASSERT_NEAR(a.operation.estimate.floor_s, 2.0 * 8192.0 * 8192.0 * 8192.0 / 989.4e12, 1e-12);
    assert_true(a.operation.estimate.realistic_s >= a.operation.estimate.floor_s);
    /* the H100 bf16 fit's peak fraction 0.9135 (kernel_profiles.inc) x 2048 tiles over 16 waves of 132 SMs
     * (2048 / 2112 = 0.970) = 0.886, less its launch and per-wave times: 0.869 */
    ASSERT_NEAR(a.operation.fraction_of_peak, 0.869, 0.005);
    assert_int_equal(a.operation.estimate.source, RT_KSRC_MEASURED);
    /* The scenario's model fills what the spec leaves out: decode attention of llama-3.1-8b. */
    assert_int_equal(op_spec_parse("decode-attention:batch=8", &s.op, err, sizeof err), 0);
    const struct model_shape *m = model_find("llama-3.1-8b");
    assert_non_null(m);
    scenario_set_model(&s, m);
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_true(a.operation.shape.heads == 32 && a.operation.shape.kv_heads == 8 && a.operation.shape.head_dim == 128);
    assert_true(a.operation.shape.kv_len == (double)s.context_tokens);
    /* A TPU borrows a GPU's fits, and says so. */
    s.chip = *chip_find("tpu-v5e");
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_int_equal(a.operation.estimate.source, RT_KSRC_BORROWED);
    assert_true(a.operation.estimate.error_fraction >= RT_KERNEL_FOREIGN_ERROR); /* another architecture's */
    s.chip = *chip_find("h800"); /* an H100 die: a sibling's band */
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_int_equal(a.operation.estimate.source, RT_KSRC_BORROWED);
    ASSERT_NEAR(a.operation.estimate.error_fraction, fmax(RT_KERNEL_SIBLING_ERROR, kernel_fit_error(a.operation.estimate.fit)), 1e-12);
}


/* Collectives past the 2-8 GPUs they were measured on: the engines' own
 * all-reduce gives way to NCCL's (vLLM's custom all-reduce takes world sizes
 * 2-8 on one node), whose latency steps grow by a tree level (two steps) a
 * doubling: 7 at 8 GPUs, 9 at 16, 13 at 64; a small message over 4096 GPUs
 * costs a few times what it costs over 8, not 585 times. */
static void test_collectives_past_one_node(void **state)
{
    (void)state;
    ASSERT_NEAR(kernel_collective_latency_steps(RT_KERNEL_NCCL_ALLREDUCE, 8), 7.0, 1e-12);
    ASSERT_NEAR(kernel_collective_latency_steps(RT_KERNEL_NCCL_ALLREDUCE, 16), 9.0, 1e-12);
    ASSERT_NEAR(kernel_collective_latency_steps(RT_KERNEL_ALLREDUCE, 64), 13.0, 1e-12);
    ASSERT_NEAR(kernel_collective_latency_steps(RT_KERNEL_NCCL_ALLGATHER, 64), 63.0, 1e-12); /* a ring */
    assert_int_equal(kernel_collective_kind(RT_KERNEL_ALLREDUCE, 8), RT_KERNEL_ALLREDUCE);
    assert_int_equal(kernel_collective_kind(RT_KERNEL_ALLREDUCE, 16), RT_KERNEL_NCCL_ALLREDUCE);

    const struct chip_spec *h100 = chip_find("h100");
    struct kernel_view v;
    struct kernel_chip c;
    kernel_view_for(h100->key, &h100->kernels, &v);
    kernel_chip_of(h100, &v, &c);
    struct kernel_shape ar = {.kind = RT_KERNEL_ALLREDUCE, .format = RT_KF_BF16, .engine = RT_KE_TRTLLM,
                              .gpus = 16, .message_bytes = 16384};
    struct kernel_shape nccl = ar;
    nccl.kind = RT_KERNEL_NCCL_ALLREDUCE;
    struct kernel_estimate e;
    double t16 = kernel_estimate(&ar, &c, &v, RT_KE_TRTLLM, &e);
    ASSERT_NEAR(t16, kernel_estimate(&nccl, &c, &v, RT_KE_TRTLLM, NULL), 1e-15);
    char buf[160];
    assert_int_equal(e.why[e.why_count - 1].code, RT_KWHY_NCCL_BEYOND);
    assert_string_equal(kernel_reason_text(buf, sizeof buf, &e.why[e.why_count - 1]),
                        "16 GPUs: NCCL's all-reduce (the engines' own is one node's, 2-8 GPUs)");
    ar.gpus = nccl.gpus = 8;
    double t8 = kernel_estimate(&nccl, &c, &v, RT_KE_TRTLLM, NULL);
    ar.gpus = 4096;
    double t4096 = kernel_estimate(&ar, &c, &v, RT_KE_TRTLLM, NULL);
    assert_true(t4096 > t8 && t4096 < 5.0 * t8);

    /* --op over 16 H100s leaves the 8-GPU NVLink domain as a model's tensor parallel does: its floor is the
     * ring's 2 x 15/16 of 128 MiB over the scale-out link's 25 GB/s one way (400 Gb/s InfiniBand a GPU,
     * the chip table's scale_out 50 GB/s bidirectional), its band the extrapolation's */
    struct scenario sc;
    scenario_default(&sc);
    sc.chip = *h100;
    char err[300];
    assert_int_equal(op_spec_parse("all-reduce:bytes=134217728,gpus=16", &sc.op, err, sizeof err), 0);
    static struct analysis an;
    assert_int_equal(analyze(&sc, &an, err, sizeof err), 0);
    ASSERT_NEAR(an.operation.estimate.floor_s, 2.0 * 15.0 / 16.0 * 134217728.0 / (h100->scale_out_bytes_per_s / 2.0),
                1e-9);
    assert_true(an.operation.estimate.realistic_s >= an.operation.estimate.floor_s);
    assert_true(an.operation.estimate.error_fraction >= RT_KERNEL_EXTRAPOLATED_ERROR);
}


/* The realistic estimate is never below the roofline floor, operation by
 * operation and phase by phase, on a grid of chips (measured, sibling,
 * derated, foreign), models (dense, MoE), precisions and layouts inside
 * and past one scale-up domain (the prefill all-reduce of 64 H100s once
 * came out faster than its bytes over the scale-out link). */
static void test_realistic_never_below_floor(void **state)
{
    (void)state;
    static const char *chips[] = {"h100", "b200", "mi300x", "tpu-v5e"};
    static const char *models[] = {"llama-3.1-70b", "mixtral-8x7b"};
    static const enum rt_precision precs[] = {RT_BF16, RT_FP8, RT_NVFP4};
    static const int64_t counts[] = {1, 8, 16, 64};
    static const int64_t batches[] = {1, 256};
    static struct analysis a;
    char err[300];
    int checked = 0;
    for (size_t c = 0; c < 4; c++)
        for (size_t m = 0; m < 2; m++)
            for (size_t p = 0; p < 3; p++)
                for (size_t n = 0; n < 4; n++)
                    for (size_t b = 0; b < 2; b++) {
                        struct scenario s;
                        scenario_default(&s);
                        s.chip = *chip_find(chips[c]);
                        scenario_set_model(&s, model_find(models[m]));
                        s.precision = precs[p];
                        s.chips = counts[n];
                        s.batch = batches[b];
                        if (analyze(&s, &a, err, sizeof err) != 0)
                            continue; /* a precision the chip has no peak for */
                        checked++;
                        for (int ph = RT_PHASE_PREFILL; ph <= RT_PHASE_DECODE; ph++)
                            for (int i = 0; i < a.phases[ph].count; i++) {
                                const struct op_cost *o = &a.phases[ph].ops[i];
                                if (o->realistic_s < o->time_s * (1.0 - 1e-12))
                                    fail_msg("%s %s x%d b%d %s: %s realistic %g s below its floor %g s", chips[c],
                                             models[m], (int)counts[n], (int)batches[b], precision_name(precs[p]),
                                             o->name, o->realistic_s, o->time_s);
                            }
                        if (a.realistic.prefill_s < a.detailed.prefill_s * (1.0 - 1e-12) ||
                            a.realistic.tpot_s < a.detailed.tpot_s * (1.0 - 1e-12))
                            fail_msg("%s %s x%d b%d %s: realistic prefill %g / tpot %g s below the floor's %g / %g s",
                                     chips[c], models[m], (int)counts[n], (int)batches[b], precision_name(precs[p]),
                                     a.realistic.prefill_s, a.realistic.tpot_s, a.detailed.prefill_s, a.detailed.tpot_s);
                    }
    assert_true(checked >= 150);
}

/* Half the weight bytes make a memory-bound decode faster: fp8 weights
 * beat bf16 on a batch-1 decode of a 70B model on 8 H100s and on 8 B200s
 * (the quantised GEMMs' fitted launch carries the collector's Python-side
 * dynamic-scale kernels, which a CUDA graph does not replay). */
static void test_fp8_decode_beats_bf16(void **state)
{
    (void)state;
    static const char *chips[] = {"h100", "b200"};
    static struct analysis a;
    char err[300];
    for (size_t c = 0; c < 2; c++) {
        struct scenario s;
        scenario_default(&s);
        s.chip = *chip_find(chips[c]);
        scenario_set_model(&s, model_find("llama-3.1-70b"));
        s.chips = 8;
        assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
        double bf16 = a.realistic.tpot_s;
        s.precision = RT_FP8;
        assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
        if (!(a.realistic.tpot_s < 0.95 * bf16))
            fail_msg("%s: fp8 decode step %g s, bf16 %g s", chips[c], a.realistic.tpot_s, bf16);
    }
}


/* A chip's own efficiency block (a chip file's, or --calibrate's from a
 * profiler's kernels) moves the measured kernel models: the H100's bf16
 * GEMM fit reaches 0.9135 of the peak (kernel_profiles.inc), so a profile
 * of 0.45 slows a compute-bound 8192^3 GEMM by about 0.9135 / 0.45 = 2.03x
 * (a little less: its launch and wave costs do not scale), in an --op and
 * in a model's prefill alike. */
static void test_efficiency_block_derates_the_kernels(void **state)
{
    (void)state;
    static struct analysis a;
    char err[300];
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    assert_int_equal(op_spec_parse("gemm:m=8192,n=8192,k=8192", &s.op, err, sizeof err), 0);
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    double fitted = a.operation.estimate.realistic_s;
    struct scenario model = s;
    model.op.set = false;
    scenario_set_model(&model, model_find("llama-3.1-70b"));
    model.chips = 8;
    assert_int_equal(analyze(&model, &a, err, sizeof err), 0);
    double prefill = a.realistic.prefill_s;
    int64_t sms = s.chip.efficiency.sm_count;
    s.chip.efficiency = *efficiency_generic();
    s.chip.efficiency.sm_count = sms;
    s.chip.efficiency.present = true;
    s.chip.efficiency.matmul[RT_BF16] = 0.45;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    double ratio = a.operation.estimate.realistic_s / fitted;
    if (!(ratio > 1.9 && ratio < 2.04))
        fail_msg("a 0.45 matmul share made the GEMM %.3fx slower, want about 2.03x", ratio);
    model.chip.efficiency = s.chip.efficiency;
    assert_int_equal(analyze(&model, &a, err, sizeof err), 0);
    ratio = a.realistic.prefill_s / prefill; /* GEMMs and attention slower; all-reduces and norms not */
    if (!(ratio > 1.3 && ratio < 2.04))
        fail_msg("a 0.45 matmul share made the prefill %.3fx slower", ratio);
}


/* A chip file's kernels block overlays the built-in chip's row: a block of
 * a derate alone keeps the H100's own fits and applies it; one with a bad
 * KV format or kernel library is refused, naming the key. */
static void test_kernels_block_overlays_the_builtin_row(void **state)
{
    (void)state;
    char err[300];
    struct kernel_profile *prof = calloc(1, sizeof *prof);
    assert_non_null(prof);
    cJSON *obj = cJSON_Parse("{\"compute_derate\": 0.5, \"source\": \"a lab's derate\"}");
    struct load_warnings w = {0};
    assert_int_equal(kernels_from_json(obj, "lab.json", prof, &w, err, sizeof err), 0);
    cJSON_Delete(obj);
    struct kernel_view v;
    kernel_view_for("h100", prof, &v);
    assert_true(v.count > 0 && v.measured);
    assert_string_equal(v.from, "h100");
    ASSERT_NEAR(v.compute_derate, 0.5, 1e-7);
    ASSERT_NEAR(v.l2_bytes, 50e6, 0); /* the H100 whitepaper's 50 MB, from the built-in row */
    assert_string_equal(v.source, "a lab's derate");

    obj = cJSON_Parse("{\"fits\": [{\"kind\": \"attention\", \"kv\": \"int8\"}]}");
    assert_int_equal(kernels_from_json(obj, "lab.json", prof, &w, err, sizeof err), -1);
    if (!strstr(err, "kv' must be bf16 or fp8 (got 'int8')"))
        fail_msg("%s", err);
    cJSON_Delete(obj);
    obj = cJSON_Parse("{\"fits\": [{\"kind\": \"gemm\", \"kernel\": \"cublas9\"}]}");
    assert_int_equal(kernels_from_json(obj, "lab.json", prof, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "kernel' is not a kernel library rooftop knows (got 'cublas9')"));
    cJSON_Delete(obj);
    free(prof);
}

/* The compiled-in fits were made for the kernel models as they are: a
 * model changed without `make profiles` would read constants meant for
 * another formula. */
static void test_compiled_fits_are_this_model_version(void **state)
{
    (void)state;
    assert_int_equal(kernel_builtin_version(), RT_KERNEL_MODEL_VERSION);
    int count;
    assert_non_null(kernel_builtin_fits("h100", &count));
    assert_true(count > 40 && count <= RT_KERNEL_FITS_MAX);
    const char *measured[] = {"a100-80", "h100", "h200", "b200", "gb200", "b300", "l40s"};
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
        assert_non_null(kernel_builtin_fits(measured[i], &count));
}

/* A borrowed profile must not invert a published ordering: MLPerf
 * Inference v4.1's Llama 2 70B (offline, fp8, 8 GPUs) has an H200 about
 * 1.33x an MI300X per GPU. The MI300X borrows the H200's fits, derated to
 * AMD's published achieved fractions (kernel_profiles.c); on its own spec
 * sheet alone (2.6 PFLOP/s fp8, 5.3 TB/s against 1.98 and 4.8) it would come
 * out ahead. Llama 2 70B is Llama 3.1 70B's shape with a 32000-token
 * vocabulary; prompts of 1024 and 256 output tokens. */
static void test_borrowed_mi300x_stays_behind_h200(void **state)
{
    (void)state;
    double tokens[2];
    const char *chips[2] = {"h200", "mi300x"};
    for (int i = 0; i < 2; i++) {
        struct scenario s;
        scenario_default(&s);
        s.chip = *chip_find(chips[i]);
        s.chips = 8;
        scenario_set_model(&s, model_find("llama-3.1-70b"));
        s.model.vocab = 32000;
        scenario_set_model(&s, &s.model);
        s.precision = RT_FP8;
        s.batch = 256;
        s.prefill_tokens = 1024;
        s.decode_tokens = 256;
        s.context_tokens = 1280;
        s.engine = *engine_find("trtllm");
        struct analysis a = must_analyze(&s);
        tokens[i] = a.serving.tokens_per_s_per_chip;
        if (i == 1) {
            assert_false(a.realistic.profile_measured);
            assert_string_equal(a.realistic.profile_from, "h200");
        }
    }
    if (!(tokens[0] > tokens[1]))
        fail_msg("h200 %.1f tokens/s a chip, mi300x %.1f: the borrowed profile inverts MLPerf's order", tokens[0],
                 tokens[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_spec_round_trip),
        cmocka_unit_test(test_op_spec_refusals_name_the_fault),
        cmocka_unit_test(test_block_format_bytes),
        cmocka_unit_test(test_floors_by_hand),
        cmocka_unit_test(test_fit_recovers_its_constants),
        cmocka_unit_test(test_tables_read_as_written),
        cmocka_unit_test(test_compiled_fits_on_measured_rows),
        cmocka_unit_test(test_operation_in_analyze),
        cmocka_unit_test(test_borrowed_mi300x_stays_behind_h200),
        cmocka_unit_test(test_collectives_past_one_node),
        cmocka_unit_test(test_realistic_never_below_floor),
        cmocka_unit_test(test_fp8_decode_beats_bf16),
        cmocka_unit_test(test_efficiency_block_derates_the_kernels),
        cmocka_unit_test(test_kernels_block_overlays_the_builtin_row),
        cmocka_unit_test(test_compiled_fits_are_this_model_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
