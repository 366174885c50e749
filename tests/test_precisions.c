/* test_precisions.c — the block formats (fp8-block, nvfp4, mxfp4), the
 * activation precision and the FP4 chip presets, through units, analyze(),
 * chip files, scenario files, the diff and the design search.
 *
 * Sources of the figures:
 * - fp8-block: DeepSeek-V3 technical report (arXiv:2412.19437), sec. 3.3:
 *   one fp32 scale per 128x128 weight block, per 1x128 activation tile.
 * - nvfp4: NVIDIA, "Introducing NVFP4 for efficient and accurate
 *   low-precision inference" (2025): e2m1 elements, one e4m3 scale per 16.
 * - mxfp4: OCP Microscaling Formats (MX) Specification v1.0 (2023): e2m1
 *   elements, one e8m0 scale per 32.
 * - chip figures: the rows of core/hardware/chips.c, each citing its datasheet. */
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "chipfile.h"
#include "chips.h"
#include "diff.h"
#include "scenariofile.h"
#include "search.h"

/* True when some note of a contains text. */
static bool has_note(const struct analysis *a, const char *text)
{
    for (int i = 0; i < a->note_count; i++)
        if (strstr(test_note(a, i), text))
            return true;
    return false;
}

/* The default scenario with N = 70e9 (the guide's round 70B) on chip key. */
static void seventy_b_on(struct scenario *s, const char *key)
{
    scenario_default(s);
    s->chip = *chip_find(key);
    s->params = 70e9;
}

/* Bytes per element, scales counted: nvfp4 4 bits + 8 per 16 = 4.5 bits,
 * mxfp4 4 + 8 per 32 = 4.25 bits, fp8-block 1 byte + 4 per 128 x 128
 * weights and + 4 per 128 activations; int4 keeps the guide's 0.5. */
static void test_bytes_per_element(void **state)
{
    (void)state;
    ASSERT_NEAR(precision_bytes(RT_NVFP4), 0.5625, 0);
    ASSERT_NEAR(precision_bytes(RT_MXFP4), 0.53125, 0);
    ASSERT_NEAR(precision_bytes(RT_FP8_BLOCK), 1.0 + 4.0 / 16384.0, 0);
    ASSERT_NEAR(precision_bytes(RT_INT4), 0.5, 0);
    ASSERT_NEAR(precision_activation_bytes(RT_FP8_BLOCK), 1.03125, 0);
    ASSERT_NEAR(precision_activation_bytes(RT_NVFP4), 0.5625, 0);
    ASSERT_NEAR(precision_activation_bytes(RT_FP8), 1.0, 0);
    ASSERT_NEAR(precision_bytes(RT_PRECISION_COUNT), 0, 0);
    assert_int_equal(precision_nominal_bits(RT_MXFP4), 4);
    assert_int_equal(precision_nominal_bits(RT_FP8_BLOCK), 8);
    /* Indices of the plain formats are unchanged; the new ones come after. */
    assert_int_equal(RT_INT4, 3);
    assert_int_equal(RT_FP8_BLOCK, 4);
    assert_int_equal(RT_PRECISION_COUNT, 7);
}

/* Names: case-insensitive, fp8_block as fp8-block, a bare fp4 refused
 * naming both formats; int4 is no activation precision. */
static void test_names(void **state)
{
    (void)state;
    enum rt_precision p = RT_BF16;
    assert_int_equal(precision_parse("NVFP4", &p), 0);
    assert_int_equal(p, RT_NVFP4);
    assert_int_equal(precision_parse("MxFp4", &p), 0);
    assert_int_equal(p, RT_MXFP4);
    assert_int_equal(precision_parse("fp8_block", &p), 0);
    assert_int_equal(p, RT_FP8_BLOCK);
    assert_int_equal(precision_parse("FP8-Block", &p), 0);
    assert_int_equal(p, RT_FP8_BLOCK);
    p = RT_BF16;
    assert_int_equal(precision_parse("fp4", &p), -1);
    assert_int_equal(p, RT_BF16);
    char why[200];
    precision_refusal(why, sizeof why, "FP4");
    assert_non_null(strstr(why, "nvfp4"));
    assert_non_null(strstr(why, "mxfp4"));
    assert_string_equal(precision_refusal(why, sizeof why, "fp16"),
                        "give bf16, fp8, fp8-block, int8, nvfp4, mxfp4 or int4");
    assert_string_equal(precision_name(RT_FP8_BLOCK), "fp8-block");
    assert_string_equal(precision_name(RT_PRECISION_AUTO), "auto");
    assert_int_equal(act_precision_parse("Auto", &p), 0);
    assert_int_equal(p, RT_PRECISION_AUTO);
    assert_int_equal(act_precision_parse("int4", &p), -1);
    assert_int_equal(act_precision_parse("fp8", &p), 0);
    assert_int_equal(p, RT_FP8);
    /* The shown order: widest first, int4 last. */
    const enum rt_precision order[] = {RT_BF16, RT_FP8, RT_FP8_BLOCK, RT_INT8, RT_NVFP4, RT_MXFP4, RT_INT4};
    for (int i = 0; i < RT_PRECISION_COUNT; i++) {
        assert_int_equal(precision_ordered(i), order[i]);
        assert_int_equal(precision_rank(order[i]), i);
    }
    /* A JSON key ending in a precision name takes its unit from the key before. */
    assert_int_equal(key_unit("chip.peak_flops_per_s.nvfp4"), RT_KEY_FLOPS_PER_S);
    assert_int_equal(key_unit("chip.peak_flops_per_s.fp8-block"), RT_KEY_FLOPS_PER_S);
}

/* 70B weights: 70e9 x 0.5625 = 39.375 GB (nvfp4), x 0.53125 = 37.1875 GB
 * (mxfp4), x (1 + 4/16384) = 70.01708984375 GB (fp8-block). */
static void test_seventy_b_weights(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b_on(&s, "b200");
    s.precision = RT_NVFP4;
    ASSERT_NEAR(must_analyze(&s).memory.weights_bytes, 39.375e9, 0);
    s.precision = RT_MXFP4;
    ASSERT_NEAR(must_analyze(&s).memory.weights_bytes, 37.1875e9, 0);
    s.precision = RT_FP8_BLOCK;
    struct analysis a = must_analyze(&s);
    ASSERT_NEAR(a.memory.weights_bytes, 70.01708984375e9, 0);
    /* fp8-block's activations carry their 1x128 tiles' scales. */
    ASSERT_NEAR(a.memory.per_chip.activation_bytes_per_element, 1.03125, 0);
    assert_int_equal(a.compute_precision, RT_FP8_BLOCK);
    ASSERT_NEAR(a.peak_flops_per_s, 4500e12, 0); /* DGX B200: the fp8 rate */
    /* The napkin decode reads every weight: nvfp4 moves 0.5625 / 2 of bf16's bytes. */
    s.latency_model = RT_LATENCY_NAPKIN;
    s.precision = RT_BF16;
    double bf16_decode = must_analyze(&s).latency.decode_s;
    s.precision = RT_NVFP4;
    ASSERT_NEAR(must_analyze(&s).latency.decode_s, bf16_decode * 0.5625 / 2.0, 1e-12);
}

/* nvfp4 on B200 runs at the dense FP4 peak: ridge 9e15 / 8e12 = 1125
 * FLOP/byte (DGX B200 datasheet: 72 PFLOPS FP4 dense over 8 GPUs, 8 TB/s);
 * its activations take 0.5625 bytes; the vector units stay at 1/50 of the
 * bf16 peak, 45 TFLOP/s, whatever the tensor cores' format. */
static void test_nvfp4_ridge_on_b200(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b_on(&s, "b200");
    s.precision = RT_NVFP4;
    struct analysis a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_NVFP4);
    assert_false(a.weight_only_quantization);
    ASSERT_NEAR(a.peak_flops_per_s, 9e15, 0);
    ASSERT_NEAR(a.ridge_flop_per_byte, 1125.0, 0);
    ASSERT_NEAR(a.memory.per_chip.activation_bytes_per_element, 0.5625, 0);
    ASSERT_NEAR(a.hw.bytes_per_act, 0.5625, 0);
    ASSERT_NEAR(a.hw.vector_flops_per_s, 45e12, 0);
    assert_true(has_note(&a, "bf16 tensor peak, 45 TFLOP/s"));
    assert_true(has_note(&a, "nvfp4 weights and activations (one e4m3 scale per 16 elements): 4.5 bits a weight"));
    /* The realistic estimate times nvfp4 GEMMs by the B200's own measured nvfp4 kernels (the shared
     * tables' b200_sxm/trtllm gemm_perf nvfp4 rows), and the profile's share is that fit's. */
    struct kernel_view v;
    kernel_view_for("b200", NULL, &v);
    struct kernel_shape g = {.kind = RT_KERNEL_GEMM, .format = RT_KF_NVFP4};
    enum rt_kernel_source src;
    const struct kernel_fit *fit = kernel_fit_lookup(&v, &g, RT_KE_TRTLLM, &src);
    assert_non_null(fit);
    assert_int_equal(src, RT_KSRC_MEASURED);
    ASSERT_NEAR(a.efficiency.matmul[RT_NVFP4], fit->p[kernel_param_index(RT_KERNEL_GEMM, "peak_fraction")], 1e-7);
    assert_true(a.realistic.total_s > a.detailed.total_s);
}

/* W4A8: mxfp4 weights with --act-precision fp8 run the matmuls at the fp8
 * peak (4.5 PFLOP/s on B200) with 4.25-bit weights and 1-byte activations. */
static void test_w4a8_runs_at_the_fp8_peak(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b_on(&s, "b200");
    s.precision = RT_MXFP4;
    s.act_precision = RT_FP8;
    struct analysis a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_FP8);
    assert_false(a.weight_only_quantization);
    ASSERT_NEAR(a.peak_flops_per_s, 4500e12, 0);
    ASSERT_NEAR(a.bytes_per_weight, 0.53125, 0);
    ASSERT_NEAR(a.memory.weights_bytes, 37.1875e9, 0);
    ASSERT_NEAR(a.memory.per_chip.activation_bytes_per_element, 1.0, 0);
    assert_true(has_note(&a, "W4A8: weights stored at 4.25 bits (mxfp4) and dequantized to fp8"));
    /* Asking for bf16 matmuls is W4A16 as asked. */
    s.act_precision = RT_BF16;
    a = must_analyze(&s);
    assert_true(a.weight_only_quantization);
    ASSERT_NEAR(a.peak_flops_per_s, 2250e12, 0);
    assert_true(has_note(&a, "W4A16 as asked (--act-precision bf16)"));
    /* The same weights on the fp8 rows of an int4 model: W4A8 with int4 weights. */
    s.precision = RT_INT4;
    s.act_precision = RT_FP8;
    a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_FP8);
    ASSERT_NEAR(a.memory.weights_bytes, 35e9, 0);
}

/* Hopper has no FP4 tensor cores: nvfp4 on an H100 is W4A16, weights at 4.5
 * bits and matmuls at the bf16 peak (989.4 TFLOP/s dense), with a note;
 * MI355X has MXFP4 but no NVFP4 (CDNA 4's block scales are e8m0 per 32). */
static void test_nvfp4_without_fp4_is_w4a16(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b_on(&s, "h100");
    s.precision = RT_NVFP4;
    struct analysis a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_BF16);
    assert_true(a.weight_only_quantization);
    ASSERT_NEAR(a.peak_flops_per_s, 989.4e12, 0);
    ASSERT_NEAR(a.memory.weights_bytes, 39.375e9, 0);
    ASSERT_NEAR(a.memory.per_chip.activation_bytes_per_element, 2.0, 0);
    assert_true(has_note(&a, "h100 has no native nvfp4 peak: W4A16, weights stored at 4.5 bits (nvfp4) and the "
                             "matmuls at the bf16 peak (weight-only quantization)."));
    seventy_b_on(&s, "mi355x");
    s.precision = RT_NVFP4;
    a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_BF16);
    assert_true(has_note(&a, "mi355x has no native nvfp4 peak"));
    s.precision = RT_MXFP4;
    a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_MXFP4);
    ASSERT_NEAR(a.peak_flops_per_s, 10100e12, 0); /* AMD MI355X: 10.1 PF MXFP4 dense */
    /* B300's int8 peak (150 TOPS) is below its bf16 peak: auto takes bf16. */
    seventy_b_on(&s, "b300");
    s.precision = RT_INT8;
    a = must_analyze(&s);
    assert_int_equal(a.compute_precision, RT_BF16);
    assert_true(a.weight_only_quantization);
    assert_true(has_note(&a, "b300's int8 peak (150 TFLOP/s) is below its bf16 peak (2.25 PFLOP/s): W8A16"));
    /* Asked for explicitly, the slow int8 peak is used. */
    s.act_precision = RT_INT8;
    ASSERT_NEAR(must_analyze(&s).peak_flops_per_s, 150e12, 0);
}

/* An act precision the chip has no peak for is refused naming the chip's
 * precisions; so is one narrower than the weights, and int4. */
static void test_act_precision_refusals(void **state)
{
    (void)state;
    struct scenario s;
    char err[300];
    struct analysis a;
    seventy_b_on(&s, "h100");
    s.precision = RT_NVFP4;
    s.act_precision = RT_NVFP4;
    assert_int_equal(analyze(&s, &a, err, sizeof err), -1);
    assert_string_equal(err, "--act-precision nvfp4: h100 has no native nvfp4 peak; its precisions are bf16, fp8, "
                             "fp8-block, int8 (or give --act-precision auto)");
    s.act_precision = RT_MXFP4;
    s.chip = *chip_find("tpu-v5e");
    assert_int_equal(analyze(&s, &a, err, sizeof err), -1);
    assert_string_equal(err, "--act-precision mxfp4: tpu-v5e has no native mxfp4 peak; its precisions are bf16, int8 "
                             "(or give --act-precision auto)");
    seventy_b_on(&s, "b200");
    s.act_precision = RT_FP8; /* bf16 weights */
    assert_int_equal(analyze(&s, &a, err, sizeof err), -1);
    assert_string_equal(err, "--act-precision fp8 is narrower than the bf16 weights (--precision): the matmuls would "
                             "quantize every weight on every pass; give weights at fp8 or narrower, or "
                             "--act-precision auto");
    s.precision = RT_FP8;
    s.act_precision = RT_NVFP4;
    assert_int_equal(analyze(&s, &a, err, sizeof err), -1);
    s.act_precision = RT_INT4;
    assert_int_equal(analyze(&s, &a, err, sizeof err), -1);
    assert_string_equal(err, "--act-precision must be auto, bf16, fp8, fp8-block, int8, nvfp4 or mxfp4");
    /* --peak-flops stands in for a peak the chip lacks. */
    seventy_b_on(&s, "h100");
    s.precision = RT_NVFP4;
    s.act_precision = RT_NVFP4;
    s.peak_flops_override = 3e15;
    a = must_analyze(&s);
    ASSERT_NEAR(a.peak_flops_per_s, 3e15, 0);
    assert_int_equal(a.compute_precision, RT_NVFP4);
}

/* KV cache at any precision, beside any weights: fp8 KV with nvfp4
 * weights halves the bf16 KV; nvfp4 KV takes 0.5625 bytes an element. */
static void test_kv_precision_beside_fp4_weights(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b_on(&s, "b200");
    struct analysis bf16 = must_analyze(&s);
    s.precision = RT_NVFP4;
    s.kv_precision = RT_FP8;
    struct analysis a = must_analyze(&s);
    ASSERT_NEAR(a.memory.kv_cache_bytes_per_token, bf16.memory.kv_cache_bytes_per_token / 2.0, 0);
    s.kv_precision = RT_NVFP4;
    a = must_analyze(&s);
    ASSERT_NEAR(a.memory.kv_cache_bytes_per_token, bf16.memory.kv_cache_bytes_per_token * 0.5625 / 2.0, 1e-9);
    ASSERT_NEAR(a.bytes_per_kv_element, 0.5625, 0);
}

/* The new presets' figures, dense, each as its row cites it. */
static void test_new_presets(void **state)
{
    (void)state;
    const double T = 1e12, G = 1e9;
    const struct {
        const char *key;
        double bf16, fp8, int8, nvfp4, mxfp4, hbm, bw, ic, tdp, vector, out;
        int64_t sms, domain;
    } want[] = {
        /* Blackwell Ultra datasheet (HGX B300 per GPU); HGX page; ConnectX-8 800 Gb/s. */
        {"b300", 2250 * T, 4500 * T, 150 * T, 14000 * T, 14000 * T, 288 * G, 7700 * G, 1800 * G, 1100, 75 * T,
         200 * G, 160, 8},
        /* GB300 NVL72 rack figures / 72, sparse / 2. */
        {"gb300", 2500 * T, 5000 * T, 165 * T, 15000 * T, 15000 * T, 288 * G, 8000 * G, 1800 * G, 1400, 80 * T,
         200 * G, 160, 72},
        /* RTX PRO 6000 Blackwell Server Edition datasheet: 4 PFLOPS FP4 sparse; PCIe Gen5 x16. */
        {"rtx-pro-6000", 500 * T, 1000 * T, 1000 * T, 2000 * T, 2000 * T, 96 * G, 1597 * G, 128 * G, 600, 120 * T,
         0, 188, 0},
        /* HGX H20 specification as reported (no NVIDIA datasheet). */
        {"h20", 148 * T, 296 * T, 296 * T, 0, 0, 96 * G, 4000 * G, 900 * G, 400, 44 * T, 0, 78, 8},
        /* H800 datasheet (sparse halved); DeepSeek-V3 sec. 3.1 for the node. */
        {"h800", 989.4 * T, 1978.9 * T, 1978.9 * T, 0, 0, 80 * G, 3350 * G, 400 * G, 700, 67 * T, 100 * G, 132, 8},
        /* FP4 added to the existing rows: DGX B200, GB200 NVL72, AMD MI355X (MXFP4 only). */
        {"b200", 2250 * T, 4500 * T, 4500 * T, 9000 * T, 9000 * T, 180 * G, 8000 * G, 1800 * G, 1000, 0, 100 * G, 148,
         8},
        {"gb200", 2500 * T, 5000 * T, 5000 * T, 10000 * T, 10000 * T, 186 * G, 8000 * G, 1800 * G, 1200, 0, 100 * G,
         148, 72},
        {"mi355x", 2500 * T, 5000 * T, 5000 * T, 0, 10100 * T, 288 * G, 8000 * G, 1075.2 * G, 1400, 0, 0, 256, 8},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct chip_spec *c = chip_find(want[i].key);
        assert_non_null(c);
        assert_string_equal(c->key, want[i].key);
        ASSERT_NEAR(c->peak_flops_per_s[RT_BF16], want[i].bf16, 0);
        ASSERT_NEAR(c->peak_flops_per_s[RT_FP8], want[i].fp8, 0);
        ASSERT_NEAR(c->peak_flops_per_s[RT_FP8_BLOCK], want[i].fp8, 0); /* fp8-block at the fp8 rate */
        ASSERT_NEAR(c->peak_flops_per_s[RT_INT8], want[i].int8, 0);
        ASSERT_NEAR(c->peak_flops_per_s[RT_INT4], 0, 0);
        ASSERT_NEAR(c->peak_flops_per_s[RT_NVFP4], want[i].nvfp4, 0);
        ASSERT_NEAR(c->peak_flops_per_s[RT_MXFP4], want[i].mxfp4, 0);
        ASSERT_NEAR(c->hbm_bytes, want[i].hbm, 0);
        ASSERT_NEAR(c->hbm_bytes_per_s, want[i].bw, 0);
        ASSERT_NEAR(c->interconnect_bytes_per_s, want[i].ic, 0);
        ASSERT_NEAR(c->tdp_w, want[i].tdp, 0);
        ASSERT_NEAR(c->vector_flops_per_s, want[i].vector, 0);
        ASSERT_NEAR(c->scale_out_bytes_per_s, want[i].out, 0);
        assert_int_equal(c->efficiency.sm_count, want[i].sms);
        assert_int_equal(c->scale_up_domain, want[i].domain);
        assert_true(strlen(c->source) > 40 && strlen(c->source) < RT_CHIP_SOURCE_MAX - 1);
        assert_true(strlen(c->notes) + strlen(c->conflicts) > 20 && strlen(c->notes) < RT_CHIP_NOTES_MAX - 1);
        assert_true(strlen(c->conflicts) < RT_CHIP_CONFLICTS_MAX - 1);
        char err[200];
        struct scenario s;
        scenario_default(&s);
        s.chip = *c;
        assert_int_equal(scenario_check(&s, err, sizeof err), 0);
    }
    assert_ptr_equal(chip_find("gb300-nvl72"), chip_find("gb300"));
    assert_ptr_equal(chip_find("rtx-pro-6000-server"), chip_find("rtx-pro-6000"));
    assert_ptr_equal(chip_find("rtxpro6000"), chip_find("rtx-pro-6000"));
    assert_ptr_equal(chip_find("RTX PRO 6000 Blackwell"), chip_find("rtx-pro-6000"));
    assert_ptr_equal(chip_find("hgx-b300"), chip_find("b300"));
    assert_ptr_equal(chip_find("h800-sxm"), chip_find("h800"));
    assert_ptr_equal(chip_find("gb200-nvl72"), chip_find("gb200"));
    /* The H20's bf16 ridge: 148 TFLOP/s over 4.0 TB/s. */
    ASSERT_NEAR(ridge_point(chip_find("h20")->peak_flops_per_s[RT_BF16], chip_find("h20")->hbm_bytes_per_s), 37.0,
                0);
}

/* A chip file's "fp4" gives nvfp4 and mxfp4 both; a format named on its own
 * wins (null: none); fp8-block left out runs at fp8's peak. Written back,
 * every precision is named and reads back the same. */
static void test_chip_file_fp4(void **state)
{
    (void)state;
    const char *text = "[{\"name\": \"Lab FP4\", \"peak_flops_per_s\": {\"bf16\": 1e15, \"fp8\": 2e15, \"fp4\": 4e15},"
                       " \"hbm_bytes\": 100e9, \"hbm_bytes_per_s\": 4e12,"
                       " \"efficiency\": {\"matmul\": {\"bf16\": 0.8, \"fp8\": 0.6}}},"
                       " {\"name\": \"Lab MX\", \"peak_flops_per_s\": {\"bf16\": 1e15, \"fp8\": 2e15, \"fp8-block\": 1.5e15,"
                       " \"fp4\": 4e15, \"nvfp4\": null}, \"hbm_bytes\": 100e9, \"hbm_bytes_per_s\": 4e12}]";
    struct chip_spec c[2];
    size_t n = 0;
    struct load_warnings w = {0};
    char err[300];
    assert_int_equal(chips_from_text(text, strlen(text), "lab.json", c, 2, &n, &w, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(w.count, 0); /* fp4, fp8-block and nvfp4 are known keys */
    ASSERT_NEAR(c[0].peak_flops_per_s[RT_NVFP4], 4e15, 0);
    ASSERT_NEAR(c[0].peak_flops_per_s[RT_MXFP4], 4e15, 0);
    ASSERT_NEAR(c[0].peak_flops_per_s[RT_FP8_BLOCK], 2e15, 0);
    ASSERT_NEAR(c[0].efficiency.matmul[RT_NVFP4], 0.6, 0); /* the file's fp8 share */
    ASSERT_NEAR(c[0].efficiency.matmul[RT_FP8_BLOCK], 0.6, 0);
    ASSERT_NEAR(c[1].peak_flops_per_s[RT_NVFP4], 0, 0);
    ASSERT_NEAR(c[1].peak_flops_per_s[RT_MXFP4], 4e15, 0);
    ASSERT_NEAR(c[1].peak_flops_per_s[RT_FP8_BLOCK], 1.5e15, 0);
    for (int k = 0; k < 2; k++) {
        cJSON *obj = cJSON_CreateObject();
        chip_to_json(obj, &c[k]);
        const cJSON *peaks = cJSON_GetObjectItem(obj, "peak_flops_per_s");
        for (int p = 0; p < RT_PRECISION_COUNT; p++)
            assert_non_null(cJSON_GetObjectItemCaseSensitive(peaks, precision_name((enum rt_precision)p)));
        char *back = cJSON_PrintUnformatted(obj);
        struct chip_spec again;
        assert_int_equal(chips_from_text(back, strlen(back), "again.json", &again, 1, &n, &w, err, sizeof err), 0);
        for (int p = 0; p < RT_PRECISION_COUNT; p++)
            ASSERT_NEAR(again.peak_flops_per_s[p], c[k].peak_flops_per_s[p], 0);
        cJSON_free(back);
        cJSON_Delete(obj);
    }
    /* A bad FP4 figure is named by its key. */
    const char *bad = "{\"name\": \"X\", \"peak_flops_per_s\": {\"bf16\": 1e15, \"fp4\": 1e30}, \"hbm_bytes\": 1e11,"
                      " \"hbm_bytes_per_s\": 1e12}";
    assert_int_equal(chips_from_text(bad, strlen(bad), "bad.json", c, 1, &n, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "peak_flops_per_s.fp4"));
    /* efficiency_check accepts the new precisions' shares and names a bad one. */
    struct efficiency_profile e = *efficiency_generic();
    assert_int_equal(efficiency_check(&e, err, sizeof err), 0);
    e.matmul[RT_MXFP4] = 1.5;
    assert_int_equal(efficiency_check(&e, err, sizeof err), -1);
    assert_non_null(strstr(err, "matmul.mxfp4"));
}

/* act_precision is saved and read back; a file without it is auto; a bad
 * one is refused naming the key; the diff names it among the inputs. */
static void test_scenario_file_act_precision(void **state)
{
    (void)state;
    struct scenario s, back;
    seventy_b_on(&s, "b200");
    s.precision = RT_MXFP4;
    s.act_precision = RT_FP8;
    s.kv_precision = RT_FP8_BLOCK;
    char *text = scenario_to_json(&s);
    assert_non_null(strstr(text, "\"act_precision\":\t\"fp8\""));
    struct load_warnings w = {0};
    char err[300];
    assert_int_equal(scenario_from_json(text, strlen(text), "s.json", &back, &w, err, sizeof err), 0);
    assert_int_equal(w.count, 0);
    assert_int_equal(back.act_precision, RT_FP8);
    assert_int_equal(back.precision, RT_MXFP4);
    assert_int_equal(back.kv_precision, RT_FP8_BLOCK);
    assert_memory_equal(&back.chip, &s.chip, sizeof s.chip); /* a built-in chip saved with its FP4 peaks */
    cJSON_free(text);
    s.act_precision = RT_PRECISION_AUTO;
    text = scenario_to_json(&s);
    assert_non_null(strstr(text, "\"act_precision\":\t\"auto\""));
    assert_int_equal(scenario_from_json(text, strlen(text), "s.json", &back, &w, err, sizeof err), 0);
    assert_int_equal(back.act_precision, RT_PRECISION_AUTO);
    cJSON_free(text);
    const char *old = "{\"version\": 1, \"chip\": \"b200\", \"precision\": \"nvfp4\"}";
    assert_int_equal(scenario_from_json(old, strlen(old), "old.json", &back, &w, err, sizeof err), 0);
    assert_int_equal(back.act_precision, RT_PRECISION_AUTO);
    assert_int_equal(back.precision, RT_NVFP4);
    const char *bad = "{\"version\": 1, \"chip\": \"b200\", \"act_precision\": \"int4\"}";
    assert_int_equal(scenario_from_json(bad, strlen(bad), "bad.json", &back, &w, err, sizeof err), -1);
    assert_string_equal(err, "bad.json: 'act_precision' must be auto, bf16, fp8, fp8-block, int8, nvfp4 or mxfp4 (got "
                             "\"int4\")");
    const char *fp4 = "{\"version\": 1, \"chip\": \"b200\", \"precision\": \"fp4\"}";
    assert_int_equal(scenario_from_json(fp4, strlen(fp4), "fp4.json", &back, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "fp4.json: 'precision' \"fp4\": 'fp4' is two formats"));
    const char *lacks = "{\"version\": 1, \"chip\": \"h100\", \"precision\": \"nvfp4\", \"act_precision\": \"nvfp4\"}";
    assert_int_equal(scenario_from_json(lacks, strlen(lacks), "h.json", &back, &w, err, sizeof err), -1);
    assert_string_equal(err, "h.json: 'act_precision' (--act-precision) nvfp4: h100 has no native nvfp4 peak; its "
                             "precisions are bf16, fp8, fp8-block, int8 (or give --act-precision auto)");
    /* The diff of W4A16 against W4A8 names the input and the compute precision. */
    struct scenario a = s, b = s;
    a.act_precision = RT_PRECISION_AUTO;
    a.precision = b.precision = RT_MXFP4;
    b.act_precision = RT_FP8;
    struct analysis aa = must_analyze(&a), ab = must_analyze(&b);
    char *d = diff_render(RT_FORMAT_JSON, "a.json", &a, &aa, "b.json", &b, &ab);
    assert_non_null(d);
    cJSON *root = cJSON_Parse(d);
    bool input = false, figure = false;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "inputs"))
        input |= strcmp(cJSON_GetObjectItem(e, "key")->valuestring, "act_precision") == 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "figures"))
        figure |= strcmp(cJSON_GetObjectItem(e, "key")->valuestring, "chip.compute_precision") == 0;
    assert_true(input);
    assert_true(figure);
    cJSON_Delete(root);
    free(d);
}

/* The search tries bf16, fp8 and one FP4 format where the chip runs them
 * natively: nvfp4 on B200, mxfp4 on MI355X, none on H100. */
static void test_search_precisions(void **state)
{
    (void)state;
    struct scenario s;
    struct search_options opt;
    seventy_b_on(&s, "b200");
    search_options_default(&s, &opt);
    assert_int_equal(opt.precisions, (1u << RT_BF16) | (1u << RT_FP8) | (1u << RT_NVFP4));
    s.chip = *chip_find("mi355x");
    search_options_default(&s, &opt);
    assert_int_equal(opt.precisions, (1u << RT_BF16) | (1u << RT_FP8) | (1u << RT_MXFP4));
    s.chip = *chip_find("h100");
    search_options_default(&s, &opt);
    assert_int_equal(opt.precisions, (1u << RT_BF16) | (1u << RT_FP8));
    /* A candidate says what its matmuls ran at. */
    s.chip = *chip_find("b200");
    scenario_set_model(&s, model_find("llama-3.1-8b"));
    s.ttft_target_s = 2.0;
    s.tpot_target_s = 0.05;
    opt.max_chips = 2;
    opt.max_batch = 4;
    opt.precisions = 1u << RT_NVFP4;
    struct search_candidate cands[256];
    struct search_result r = {.candidates = cands, .capacity = 256};
    char err[200];
    assert_int_equal(search_run(&s, &opt, &r, err, sizeof err), 0);
    assert_true(r.count > 0);
    for (size_t i = 0; i < r.count; i++) {
        assert_int_equal(cands[i].precision, RT_NVFP4);
        assert_int_equal(cands[i].compute_precision, RT_NVFP4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_per_element),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_seventy_b_weights),
        cmocka_unit_test(test_nvfp4_ridge_on_b200),
        cmocka_unit_test(test_w4a8_runs_at_the_fp8_peak),
        cmocka_unit_test(test_nvfp4_without_fp4_is_w4a16),
        cmocka_unit_test(test_act_precision_refusals),
        cmocka_unit_test(test_kv_precision_beside_fp4_weights),
        cmocka_unit_test(test_new_presets),
        cmocka_unit_test(test_chip_file_fp4),
        cmocka_unit_test(test_scenario_file_act_precision),
        cmocka_unit_test(test_search_precisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
