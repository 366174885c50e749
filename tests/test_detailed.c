/* test_detailed.c — the detailed model: hand-computed operations for a small
 * shape, the PaLM MFU, the terms that explain detailed minus napkin, and the
 * properties it must keep. */
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "realistic.h"

#include "analysis.h"
#include "detailed.h"

/* A small shape whose every figure can be worked by hand: 2 layers, d 64,
 * 4 heads of 16, 2 KV heads, gated MLP of 128, vocabulary 100; batch 2,
 * prompts of 8, context 32, bf16, one chip. */
static struct scenario small(void)
{
    struct scenario s;
    scenario_default(&s);
    struct model_shape m = {.name = "small", .layers = 2, .d_model = 64, .heads = 4, .kv_heads = 2, .d_head = 16,
                            .d_ff = 128, .vocab = 100, .experts = 1, .experts_per_token = 1, .gated_mlp = true};
    scenario_set_model(&s, &m);
    s.chip = *chip_find("h100");
    s.batch = 2;
    s.prefill_tokens = 8;
    s.context_tokens = 32;
    s.decode_tokens = 4;
    s.budget_s = 10;
    return s;
}


/* Prefill of 2 x 8 = 16 tokens, worked by hand (2 FLOPs per multiply-add). */
static void test_prefill_operations_by_hand(void **state)
{
    (void)state;
    struct scenario s = small();
    struct analysis a = must_analyze(&s);
    const struct phase_cost *pc = &a.phases[RT_PHASE_PREFILL];
    ASSERT_NEAR(pc->tokens, 16, 0);
    /* QKV: 64 x (4 + 2 + 2) x 16 = 8192 weights per layer. */
    const struct op_cost *qkv = test_op(pc, "qkv projection");
    ASSERT_NEAR(qkv->flops, 2 * 2.0 * 16 * 8192, 0);
    ASSERT_NEAR(qkv->weight_bytes, 2 * 8192.0 * 2, 0);
    ASSERT_NEAR(qkv->kv_bytes, 2 * 16.0 * (2 * 2 * 16) * 2, 0);    /* the new K and V written */
    ASSERT_NEAR(qkv->act_bytes, 2 * (16.0 * 64 * 2 + 16.0 * 128 * 2), 0); /* x in, q k v out */
    /* Causal: 2 prompts x 8 x 9 / 2 = 72 pairs per head. */
    ASSERT_NEAR(test_op(pc, "attention scores")->flops, 2 * 2.0 * 4 * 16 * 72, 0);
    ASSERT_NEAR(test_op(pc, "attention x V")->flops, 2 * 2.0 * 4 * 16 * 72, 0);
    ASSERT_NEAR(test_op(pc, "softmax")->flops, 2 * 5.0 * 4 * 72, 0);
    ASSERT_NEAR(test_op(pc, "softmax")->act_bytes, 0, 0); /* fused: scores stay on chip */
    ASSERT_NEAR(test_op(pc, "output projection")->flops, 2 * 2.0 * 16 * 4096, 0);
    ASSERT_NEAR(test_op(pc, "mlp")->flops, 2 * 2.0 * 16 * 3 * 64 * 128, 0);
    ASSERT_NEAR(test_op(pc, "mlp")->weight_bytes, 2 * 3.0 * 64 * 128 * 2, 0);
    ASSERT_NEAR(test_op(pc, "activation")->flops, 2 * 5.0 * 16 * 128, 0);
    ASSERT_NEAR(test_op(pc, "norms")->flops, 2 * 2 * 5.0 * 16 * 64, 0);
    ASSERT_NEAR(test_op(pc, "residual adds")->flops, 2 * 2.0 * 16 * 64, 0);
    /* The LM head pays for the last position of each prompt only. */
    ASSERT_NEAR(test_op(pc, "lm head")->flops, 2 * 2.0 * 64 * 100, 0);
    ASSERT_NEAR(test_op(pc, "lm head")->weight_bytes, 100.0 * 64 * 2, 0);
    /* Unfused attention writes and reads the 8 x 8 score square per head. */
    s.unfused_attention = true;
    a = must_analyze(&s);
    pc = &a.phases[RT_PHASE_PREFILL];
    double square = 2 * 2.0 * 8 * 8 * 4 * 2; /* layers x batch x P x P x heads x bytes */
    ASSERT_NEAR(test_op(pc, "softmax")->act_bytes, 2 * square, 0);
}

/* A decode step: 2 tokens, each attending over a 32-token cache. */
static void test_decode_operations_by_hand(void **state)
{
    (void)state;
    struct scenario s = small();
    struct analysis a = must_analyze(&s);
    const struct phase_cost *pc = &a.phases[RT_PHASE_DECODE];
    ASSERT_NEAR(pc->tokens, 2, 0);
    ASSERT_NEAR(test_op(pc, "attention scores")->flops, 2 * 2.0 * 4 * 16 * 64, 0);
    /* K cache: layers x batch x context x kv heads x d_head x 2 bytes; V the same. */
    ASSERT_NEAR(test_op(pc, "attention scores")->kv_bytes, 2 * 2.0 * 32 * 2 * 16 * 2, 0);
    ASSERT_NEAR(test_op(pc, "attention x V")->kv_bytes, 2 * 2.0 * 32 * 2 * 16 * 2, 0);
    ASSERT_NEAR(test_op(pc, "lm head")->flops, 2 * 2.0 * 64 * 100, 0);
    /* Every operation is the larger of its compute and memory time. */
    for (int i = 0; i < pc->count; i++)
        ASSERT_NEAR(pc->ops[i].time_s, fmax(pc->ops[i].compute_s, pc->ops[i].memory_s), 0);
}

/* Tensor parallelism: per-chip work divides, two ring all-reduces per layer. */
static void test_tensor_parallel(void **state)
{
    (void)state;
    struct scenario s = small();
    s.chips = 4;
    struct analysis a = must_analyze(&s);
    const struct phase_cost *pc = &a.phases[RT_PHASE_PREFILL];
    ASSERT_NEAR(test_op(pc, "mlp")->flops, 2 * 2.0 * 16 * 3 * 64 * 128 / 4, 0);
    double bytes = 2 * 2 * 2.0 * 3 / 4 * 16 * 64 * 2; /* layers x 2 x 2(n-1)/n x T x d x bytes */
    ASSERT_NEAR(pc->comms_bytes, bytes, 1e-9);
    ASSERT_NEAR(pc->comms_s, bytes / (900e9 / 2), 1e-18); /* one direction of NVLink's 900 GB/s */
    s.chips = 1;
    assert_true(must_analyze(&s).phases[RT_PHASE_PREFILL].comms_s == 0);
}

/* MoE: E(1 - (1 - k/E)^T) distinct experts in expectation. */
static void test_experts_touched(void **state)
{
    (void)state;
    ASSERT_NEAR(experts_touched(8, 2, 1), 2, 1e-12);
    ASSERT_NEAR(experts_touched(8, 2, 2), 8 * (1 - 0.75 * 0.75), 1e-12);
    ASSERT_NEAR(experts_touched(8, 2, 1e6), 8, 1e-9);
    ASSERT_NEAR(experts_touched(256, 8, 0), 0, 0);
    /* Decode of Mixtral at batch 1 reads 2 of 8 experts; at batch 64 nearly all. */
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, model_find("mixtral-8x7b"));
    struct analysis one = must_analyze(&s);
    s.batch = 64;
    struct analysis many = must_analyze(&s);
    double w1 = test_op(&one.phases[RT_PHASE_DECODE], "mlp (experts)")->weight_bytes;
    double w64 = test_op(&many.phases[RT_PHASE_DECODE], "mlp (experts)")->weight_bytes;
    ASSERT_NEAR(w64 / w1, experts_touched(8, 2, 64) / 2.0, 1e-9);
}

/* PaLM 540B (Chowdhery et al. 2022, table 3 and app. B): 118 layers, 48
 * heads of 256, 2048-token sequences, 6144 TPU v4 at 275 TFLOP/s, 238.3k
 * tokens/s -> 46.2% MFU. */
static void test_palm_mfu(void **state)
{
    (void)state;
    ASSERT_NEAR(palm_model_flops_per_token(540e9, 118, 48, 256, 2048), 6 * 540e9 + 12.0 * 118 * 48 * 256 * 2048, 1);
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("tpu-v4");
    s.chips = 6144;
    s.params = 540e9;
    assert_int_equal(model_set_layers(&s.model, 118), 0);
    s.model.heads = 48;
    s.model.kv_heads = 1;
    s.model.d_head = 256;
    s.model.d_model = 18432;
    s.model.d_ff = 73728;
    s.context_tokens = 2048;
    s.measured_train_tokens_per_s = 238.3e3;
    struct analysis a = must_analyze(&s);
    assert_true(a.training.measured);
    ASSERT_PRINTED("%.1f", a.training.mfu * 100, "46.2");
    s.recompute = RT_RECOMPUTE_FULL;
    a = must_analyze(&s);
    ASSERT_NEAR(a.training.hfu, a.training.mfu * 4 / 3, 1e-12);
}

/* Each FLOP convention's model FLOPs per token for Llama 3.1 8B at an
 * 8192-token context, worked by hand from its config.json (32 layers, d
 * 4096, 32 heads of 128, 8 KV heads, gated MLP 14336, vocabulary 128256,
 * untied):
 *   embedding E = 128256 x 4096 = 525,336,576 (the LM head the same);
 *   a layer: Q, O 2 x 4096^2 = 33,554,432; K, V 2 x 4096 x 1024 = 8,388,608;
 *     MLP 3 x 4096 x 14336 = 176,160,768; two norms 8192: 218,112,000;
 *   N = 32 x 218,112,000 + 2E + 4096 (final norm) = 8,030,261,248 (Meta: 8.03B);
 *   attention 12 L H Q T = 12 x 32 x 32 x 128 x 8192 = 12,884,901,888.
 * palm     6N + 12LHQT      = 48,181,567,488 + 12,884,901,888 = 61,066,469,376
 * megatron 6(N - E) + 12LHQT = 45,029,548,032 + 12,884,901,888 = 57,914,449,920
 * 6n       6N               = 48,181,567,488
 * causal   6N + 6LHQT       = 48,181,567,488 + 6,442,450,944 = 54,624,018,432
 * (Chowdhery et al. 2022, app. B; Narayanan et al. 2021, eq. 3; Kaplan et al. 2020.) */
static void test_flops_conventions_llama3_8b(void **state)
{
    (void)state;
    const double want[RT_FLOPS_CONVENTION_COUNT] = {61066469376.0, 57914449920.0, 48181567488.0, 54624018432.0};
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, model_find("llama-3.1-8b"));
    s.chip = *chip_find("h100");
    s.context_tokens = 8192;
    for (int c = 0; c < RT_FLOPS_CONVENTION_COUNT; c++) {
        s.flops_convention = (enum rt_flops_convention)c;
        struct analysis a = must_analyze(&s);
        ASSERT_NEAR(a.training.model_flops_per_token, want[c], 1.0);
        assert_int_equal(a.training.convention, c);
    }
    assert_string_equal(flops_convention_name(RT_FLOPS_CAUSAL), "causal");
}

/* Training totals against published runs.
 * Llama 3.1 405B (Meta's model card: 15.6T tokens, 30.84M H100-80GB hours):
 *   6N x tokens = 6 x 405e9 x 15.6e12 = 3.7908e25 FLOPs (the paper's 3.8e25);
 *   implied MFU = 3.7908e25 / (30.84e6 x 3600 s x 989.4e12 FLOP/s) = 34.5%
 *   (the paper reports 38-43% while running; the card's hours include the rest).
 *   At MFU 40% on 16384 GPUs (8 x 2048): 3.7908e25 / (989.4e12 x 0.4) / 3600
 *   = 26.607M chip-hours, / 16384 / 24 = 67.67 days.
 * PaLM 540B (Chowdhery et al. 2022: 780B tokens at 238.3k tokens/s on 6144
 *   TPU v4): at the measured MFU the totals reduce to tokens / rate:
 *   780e9 / 238.3e3 / 86400 = 37.88 days, x 6144 chips x 24 = 5.586M chip-hours. */
static void test_training_totals_published(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, model_find("llama-3.1-405b"));
    s.params = 405e9;
    s.chip = *chip_find("h100");
    s.flops_convention = RT_FLOPS_6N;
    s.chips = 8;
    s.data_parallel = 2048;
    s.train_tokens = 15.6e12;
    s.train_mfu = 0.4;
    s.train_chip_hours = 30.84e6;
    struct analysis a = must_analyze(&s);
    assert_true(a.training.totals);
    ASSERT_NEAR(a.training.total_flops, 3.7908e25, 1e10);
    ASSERT_PRINTED("%.1f", a.training.implied_mfu * 100, "34.5");
    ASSERT_PRINTED("%.4g", a.training.chip_hours, "2.661e+07");
    ASSERT_PRINTED("%.2f", a.training.days, "67.67");
    for (int i = 0; i < a.note_count; i++)
        assert_null(strstr(test_note(&a, i), "above 100%"));
    /* 30.84k typed for 30.84M: an MFU of 34,510% is no MFU; a note says why. */
    s.train_chip_hours = 30.84e3;
    a = must_analyze(&s);
    ASSERT_PRINTED("%.0f", a.training.implied_mfu * 100, "34510");
    bool flagged = false;
    for (int i = 0; i < a.note_count; i++)
        flagged |= strstr(test_note(&a, i), "3.084e+04 chip-hours imply an MFU of 34510%, above 100%") != NULL;
    assert_true(flagged);

    scenario_default(&s);
    s.chip = *chip_find("tpu-v4");
    s.chips = 6144;
    s.params = 540e9;
    assert_int_equal(model_set_layers(&s.model, 118), 0);
    s.model.heads = 48;
    s.model.kv_heads = 1;
    s.model.d_head = 256;
    s.model.d_model = 18432;
    s.model.d_ff = 73728;
    s.context_tokens = 2048;
    s.measured_train_tokens_per_s = 238.3e3;
    s.train_tokens = 780e9;
    a = must_analyze(&s);
    ASSERT_NEAR(a.training.totals_mfu, a.training.mfu, 0.0);
    ASSERT_PRINTED("%.2f", a.training.days, "37.88");
    ASSERT_PRINTED("%.4g", a.training.chip_hours, "5.586e+06");
    assert_true(a.training.implied_mfu == 0.0);

    /* Not asked: no totals; a chip-hours figure without tokens is refused, naming the flag. */
    s.train_tokens = 0;
    a = must_analyze(&s);
    assert_false(a.training.totals);
    s.train_chip_hours = 1e6;
    char err[256];
    assert_int_equal(scenario_check(&s, err, sizeof err), -1);
    assert_non_null(strstr(err, "--train-chip-hours needs --train-tokens"));
}

/* The terms explain the difference exactly, in many scenarios. */
static void test_terms_add_up(void **state)
{
    (void)state;
    const char *models[] = {"guide-70b", "mixtral-8x7b", "deepseek-v3", "mistral-7b"};
    const int64_t chips[] = {1, 8, 64};
    for (int mi = 0; mi < 4; mi++)
        for (int ci = 0; ci < 3; ci++) {
            struct scenario s;
            scenario_default(&s);
            scenario_set_model(&s, model_find(models[mi]));
            s.chip = *chip_find("h100");
            s.chips = chips[ci];
            s.mfu = ci == 1 ? 0.6 : 1.0;
            s.batch = ci == 2 ? 16 : 1;
            s.unfused_attention = mi == 3;
            struct analysis a = must_analyze(&s);
            double sum = 0;
            for (int i = 0; i < a.detailed.prefill_term_count; i++)
                sum += a.detailed.prefill_terms[i].seconds;
            ASSERT_NEAR(a.detailed.prefill_s - a.napkin.prefill_s, sum, 1e-9 * a.napkin.prefill_s);
            sum = 0;
            for (int i = 0; i < a.detailed.decode_term_count; i++)
                sum += a.detailed.decode_terms[i].seconds;
            double napkin_step = a.napkin.decode_s / (double)s.decode_tokens;
            ASSERT_NEAR(a.detailed.decode_step_s - napkin_step, sum, 1e-9 * napkin_step);
        }
}

/* Properties: decode bytes grow with context and batch; more KV heads never
 * shrink the KV read; detailed time never beats the roofline bounds; MFU <=
 * HFU. */
static void test_properties(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.chip = *chip_find("h100");
    s.chips = 8;
    double last = 0;
    for (int64_t ctx = 1024; ctx <= 131072; ctx *= 2) {
        s.context_tokens = ctx;
        struct analysis a = must_analyze(&s);
        double bytes = 0;
        for (int i = 0; i < a.phases[RT_PHASE_DECODE].count; i++)
            bytes += a.phases[RT_PHASE_DECODE].ops[i].kv_bytes;
        assert_true(bytes > last);
        last = bytes;
    }
    s.context_tokens = 8192;
    last = 0;
    for (int64_t b = 1; b <= 512; b *= 2) {
        s.batch = b;
        struct analysis a = must_analyze(&s);
        double t = a.detailed.decode_step_s;
        assert_true(t >= last);
        last = t;
    }
    s.batch = 8;
    last = 0;
    const int64_t kv[] = {1, 2, 4, 8, 16, 32, 64};
    for (int i = 0; i < 7; i++) {
        s.model.kv_heads = kv[i];
        struct analysis a = must_analyze(&s);
        double read = test_op(&a.phases[RT_PHASE_DECODE], "attention scores")->kv_bytes;
        assert_true(read >= last);
        last = read;
        /* Never below the bounds: all bytes over bandwidth, matrix FLOPs over peak. */
        double bytes = 0, flops = 0;
        for (int p = 0; p < RT_PHASE_COUNT; p++) {
            const struct phase_cost *pc = &a.phases[p];
            bytes = flops = 0;
            for (int o = 0; o < pc->count; o++) {
                bytes += pc->ops[o].weight_bytes + pc->ops[o].kv_bytes + pc->ops[o].act_bytes;
                if (pc->ops[o].matrix)
                    flops += pc->ops[o].flops;
            }
            assert_true(pc->time_s >= bytes / a.hw.hbm_bytes_per_s * (1 - 1e-12));
            assert_true(pc->time_s >= flops / a.hw.peak_flops_per_s * (1 - 1e-12));
        }
        assert_true(a.training.mfu <= a.training.hfu);
        assert_true(a.mfu_budget.mfu <= a.hfu);
    }
    s.model.kv_heads = 8;
    const enum rt_recompute modes[] = {RT_RECOMPUTE_NONE, RT_RECOMPUTE_SELECTIVE, RT_RECOMPUTE_FULL};
    double previous = 0;
    for (int i = 0; i < 3; i++) { /* none < selective < full in hardware FLOPs */
        s.recompute = modes[i];
        struct analysis a = must_analyze(&s);
        assert_true(a.hfu >= a.mfu_budget.mfu);
        assert_true(a.training.hardware_flops_per_token > previous);
        previous = a.training.hardware_flops_per_token;
    }
}

/* The napkin is untouched by the detailed model, and --detailed moves the
 * verdict to it. */
static void test_napkin_unchanged_and_detailed_verdict(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.chips = 64;
    struct analysis a = must_analyze(&s);
    ASSERT_PRINTED("%.3f", a.latency.total_s, "0.683");
    ASSERT_PRINTED("%.3f", a.napkin.total_s, "0.683");
    assert_true(a.detailed.total_s > a.napkin.total_s);
    s.latency_model = RT_LATENCY_DETAILED;
    struct analysis d = must_analyze(&s);
    ASSERT_NEAR(d.latency.total_s, a.detailed.total_s, 0);
    ASSERT_PRINTED("%.3f", d.napkin.total_s, "0.683");
    assert_int_equal(d.latency.chips_for_budget, d.detailed.chips_for_budget);
    s.latency_model = RT_LATENCY_REALISTIC;
    struct analysis r = must_analyze(&s);
    ASSERT_NEAR(r.latency.total_s, r.realistic.total_s, 0);
    ASSERT_PRINTED("%.3f", r.napkin.total_s, "0.683");
    assert_true(r.realistic.total_s >= r.detailed.total_s);
    /* The comparison the views read: totals and verdicts by estimate, the spread, the split. */
    ASSERT_NEAR(r.estimate_total_s[RT_LATENCY_NAPKIN], r.napkin.total_s, 0);
    ASSERT_NEAR(r.estimate_total_s[RT_LATENCY_REALISTIC], r.realistic.total_s, 0);
    ASSERT_NEAR(r.estimate_min_s, r.napkin.total_s, 0);
    ASSERT_NEAR(r.estimate_max_s, r.realistic.total_s, 0);
    assert_true(r.estimate_ok[RT_LATENCY_NAPKIN]);
    assert_false(r.estimate_ok[RT_LATENCY_REALISTIC]);
    assert_true(r.verdicts_split);
    assert_true(r.estimates_disagree);
}

/* One layer of a Llama-like shape (d_model 4096, 32 heads / 8 kv heads x
 * 128, d_ff 4096) at batch 1 on one H100: the by-hand tests' scenario. */
static struct scenario one_layer_h100(void)
{
    struct scenario s = small();
    s.chip = *chip_find("h100");
    s.batch = 1;
    s.model.d_model = 4096;
    s.model.d_ff = 4096;
    s.model.heads = 32;
    s.model.kv_heads = 8;
    s.model.d_head = 128;
    s.model.layers = 1;
    s.model.kind_count = 0;
    scenario_set_model(&s, &s.model);
    return s;
}

/* An operation's realistic time is the measured kernel model's for its
 * shapes (kernels.h), worked again here through the public API: the
 * batch-1 decode QKV projection on one H100 is one M 1 x N 6144 x K 4096
 * bf16 GEMM a layer (32 + 2 x 8 heads of 128), the MLP's an up-and-gate
 * 1 x 8192 x 4096 and a down 1 x 4096 x 4096, TensorRT-LLM's kernels (the
 * generic engine's stand-in), timed cold as inside a forward pass. */
static void test_operations_are_the_kernel_models(void **state)
{
    (void)state;
    struct scenario s = one_layer_h100();
    s.prefill_tokens = 8192;
    s.context_tokens = 8192;
    struct analysis a = must_analyze(&s);
    struct kernel_view v;
    struct kernel_chip c;
    kernel_view_for("h100", NULL, &v);
    kernel_chip_of(chip_find("h100"), &v, &c);
    struct kernel_shape g = {.kind = RT_KERNEL_GEMM, .format = RT_KF_BF16, .engine = RT_KE_TRTLLM, .m = 1, .n = 6144,
                             .k = 4096};
    double qkv = kernel_estimate(&g, &c, &v, RT_KE_TRTLLM, NULL);
    ASSERT_NEAR(test_op(&a.phases[RT_PHASE_DECODE], "qkv projection")->realistic_s, qkv, qkv * 1e-12);
    g.n = 8192;
    double up = kernel_estimate(&g, &c, &v, RT_KE_TRTLLM, NULL);
    g.n = 4096;
    double down = kernel_estimate(&g, &c, &v, RT_KE_TRTLLM, NULL);
    ASSERT_NEAR(test_op(&a.phases[RT_PHASE_DECODE], "mlp")->realistic_s, up + down, (up + down) * 1e-12);
    /* Each carries its fit's cross-validated error, and the phase's error is their time-weighted mean. */
    const struct kernel_fit *fit = kernel_fit_lookup(&v, &g, RT_KE_TRTLLM, NULL);
    assert_non_null(fit);
    ASSERT_NEAR(test_op(&a.phases[RT_PHASE_DECODE], "mlp")->error_fraction, fit->cv_error, 1e-7);
    const struct phase_cost *dec = &a.phases[RT_PHASE_DECODE];
    assert_true(dec->realistic_comms_s == 0.0); /* one chip: no collectives */
    double weighted = dec->step_s * RT_STEP_ERROR, total = dec->step_s;
    for (int i = 0; i < dec->count; i++) {
        weighted += dec->ops[i].realistic_s * dec->ops[i].error_fraction;
        total += dec->ops[i].realistic_s;
    }
    ASSERT_NEAR(dec->error_fraction, weighted / total, 1e-12);
}

/* A phase row's time is the floor of the work it places: at batch 64 the
 * decode row's bytes include 172 GB of KV cache, so its time is at least
 * those bytes over the chips' bandwidth (the napkin's weights-only step
 * would be faster than its own row's roof). */
static void test_phase_rows_are_the_floor(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.batch = 64;
    struct analysis a = must_analyze(&s);
    for (int i = 0; i < a.placement_count; i++) {
        const struct placement *pl = &a.placements[i];
        if (pl->operation || strcmp(pl->phase, "training") == 0)
            continue;
        double want = strcmp(pl->phase, "prefill") == 0 ? a.detailed.prefill_s : a.detailed.decode_step_s;
        ASSERT_NEAR(pl->time_s, want, 0);
        assert_true(pl->time_s >= pl->bytes / 8.0 / 3.35e12);
        assert_true(pl->time_s >= pl->flops / 8.0 / 989.4e12);
    }
}

/* Steps *knob from 1 to last on scenario s and fails if the realistic
 * time to first token or time per output token ever falls by more than
 * 5%: the measured kernels have real steps of their own (TensorRT-LLM's
 * XQA splits the cache to fill whole waves, so 11 sequences can finish a
 * step about 3% sooner than 10), but no more than that. */
static void assert_never_faster(struct scenario *s, int64_t *knob, int64_t last, const char *knob_name,
                                const char *label)
{
    double last_tpot = 0.0, last_ttft = 0.0;
    for (int64_t v = 1; v <= last; v++) {
        *knob = v;
        struct analysis a = must_analyze(s);
        if (a.realistic.tpot_s < 0.95 * last_tpot || a.realistic.ttft_s < 0.95 * last_ttft)
            fail_msg("%s: %s %lld is faster than %lld", label, knob_name, (long long)v, (long long)(v - 1));
        last_tpot = a.realistic.tpot_s;
        last_ttft = a.realistic.ttft_s;
    }
}

static void test_realistic_monotone(void **state)
{
    (void)state;
    const char *chips[] = {"h100", "a100-80", "l40s", "tpu-v5e"};
    const char *models[] = {"llama-3.1-70b", "mixtral-8x7b", "llama-3.1-8b"};
    for (size_t c = 0; c < sizeof chips / sizeof chips[0]; c++)
        for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
            char label[80];
            snprintf(label, sizeof label, "%s on 8 %s", models[m], chips[c]);
            struct scenario s;
            scenario_default(&s);
            s.chip = *chip_find(chips[c]);
            scenario_set_model(&s, model_find(models[m]));
            s.chips = 8;
            s.prefill_tokens = 512;
            s.context_tokens = 4096;
            assert_never_faster(&s, &s.batch, 600, "batch", label);
            s.batch = 1;
            s.prefill_tokens = 1;
            assert_never_faster(&s, &s.context_tokens, 3000, "context", label);
            s.context_tokens = 4096;
            assert_never_faster(&s, &s.prefill_tokens, 1100, "prompt", label);
        }
}

/* The realistic all-reduce by hand: at 8 chips a decode step of one token
 * all-reduces 4096 bf16 elements twice a layer, each the engine's own
 * all-reduce over NVLink (one direction, 450 GB/s), captured in a CUDA
 * graph; vLLM's per-pass time is added once; plain PyTorch has none. */
static void test_realistic_by_hand(void **state)
{
    (void)state;
    struct scenario s = one_layer_h100();
    s.engine = *engine_find("pytorch");
    struct analysis a = must_analyze(&s);
    ASSERT_NEAR(a.phases[RT_PHASE_DECODE].step_s, 0.0, 0); /* pytorch: no serving loop */
    s.chips = 8;
    s.engine = *engine_find("vllm");
    a = must_analyze(&s);
    const struct phase_cost *dec = &a.phases[RT_PHASE_DECODE];
    struct kernel_view v;
    struct kernel_chip c;
    kernel_view_for("h100", NULL, &v);
    kernel_chip_of(chip_find("h100"), &v, &c);
    c.link_bytes_per_s = 900e9 / 2.0;
    struct kernel_shape ar = {.kind = RT_KERNEL_ALLREDUCE, .format = RT_KF_BF16, .engine = RT_KE_VLLM,
                              .family = RT_KFAM_GRAPH, .gpus = 8, .message_bytes = 4096.0 * 2.0};
    double one = kernel_estimate(&ar, &c, &v, RT_KE_VLLM, NULL);
    ASSERT_NEAR(dec->allreduces, 2, 0);
    ASSERT_NEAR(dec->realistic_comms_s, 2 * one, 1e-15);
    ASSERT_NEAR(dec->step_s, 0.5e-3, 0);
}

/* Measured mode: decode MBU and prefill MFU from observed times. */
static void test_measured_mbu_and_prefill_mfu(void **state)
{
    (void)state;
    struct scenario s = small();
    s.chip = *chip_find("h100");
    struct analysis a = must_analyze(&s);
    double bytes = 0;
    for (int i = 0; i < a.phases[RT_PHASE_DECODE].count; i++) {
        const struct op_cost *o = &a.phases[RT_PHASE_DECODE].ops[i];
        bytes += o->weight_bytes + o->kv_bytes + o->act_bytes;
    }
    s.measured_tpot_s = 0.001;
    a = must_analyze(&s);
    ASSERT_NEAR(a.decode_mbu, bytes / (0.001 * 3.35e12), 1e-15);
    s.measured_ttft_s = 0.002;
    a = must_analyze(&s);
    /* A TTFT is one request's: one 8-token prompt's 2N per token and its causal attention, 2 layers x
     * 36 query-key pairs x 4 heads x (16 + 16) wide, twice (multiply-add) -- the same at batch 2 as at 1. */
    double flops = 2 * a.active_params * 8 + 2.0 * 2 * 36 * 4 * (16 + 16);
    ASSERT_NEAR(a.prefill_mfu, flops / (0.002 * 989.4e12), 1e-15);
    s.batch = 1;
    double at_one = must_analyze(&s).prefill_mfu;
    ASSERT_NEAR(at_one, a.prefill_mfu, 1e-15);
}

/* No phase row claims to beat its own roof: where the realistic estimate
 * puts prefill or decode (its FLOPs over the realistic time) is at or below
 * the roof at the row's intensity, for every built-in model, dense or a
 * mixture of experts, on one and eight chips, at batch 1 and 64. A mixture
 * of experts' decode reads only the experts its batch routes to, so its row
 * places that step's bytes: DeepSeek-V3 at batch 1 on one v5e put its
 * realistic point 15x above the roof when the row counted every weight. */
static void test_phase_rows_under_their_roof(void **state)
{
    (void)state;
    static const char *const chips[] = {"tpu-v5e", "h100"};
    static const int64_t counts[] = {1, 8}, batches[] = {1, 64};
    int checked = 0;
    for (size_t i = 0; model_builtin(i); i++)
        for (size_t c = 0; c < 2; c++)
            for (size_t n = 0; n < 2; n++)
                for (size_t b = 0; b < 2; b++) {
                    struct scenario s;
                    scenario_default(&s);
                    scenario_set_model(&s, model_builtin(i));
                    s.chip = *chip_find(chips[c]);
                    s.chips = counts[n];
                    s.batch = batches[b];
                    struct analysis a;
                    char err[256];
                    if (analyze(&s, &a, err, sizeof err) != 0)
                        continue; /* a layout the model cannot take */
                    for (int k = 0; k < a.placement_count; k++) {
                        const struct placement *p = &a.placements[k];
                        if (p->operation || !(p->realistic_flops_per_s > 0.0))
                            continue;
                        if (p->realistic_flops_per_s > p->roof.attainable_flops_per_s * (1.0 + 1e-9))
                            fail_msg("%s on %lld x %s at batch %lld: %s at %.4g FLOP/s above its roof %.4g",
                                     model_builtin(i)->name, (long long)s.chips, chips[c], (long long)s.batch,
                                     p->name, p->realistic_flops_per_s, p->roof.attainable_flops_per_s);
                        checked++;
                    }
                }
    assert_true(checked > 40);
}

/* A training step whose Adam state does not fit says so: 70e9 x 16 bytes
 * = 1.12 TB on one 80 GB H100; over 128 chips (tp 8 x pp 16) 405B needs
 * 16 x 405.8e9 / 128 = 50.7 GB a chip, which fits. */
static void test_training_state_that_does_not_fit_is_named(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    struct analysis a = must_analyze(&s);
    bool said = false;
    for (int i = 0; i < a.note_count; i++)
        said |= strstr(test_note(&a, i), "Training state does not fit: mixed-precision Adam needs 16 bytes a parameter, "
                                   "1.12 TB a chip over 1 chip (activations on top), against 80.0 GB of HBM") != NULL;
    assert_true(said);
    scenario_set_model(&s, model_find("llama-3.1-405b"));
    s.pp = 16;
    s.chips = 128;
    a = must_analyze(&s);
    for (int i = 0; i < a.note_count; i++)
        assert_null(strstr(test_note(&a, i), "Training state does not fit"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefill_operations_by_hand),
        cmocka_unit_test(test_phase_rows_under_their_roof),
        cmocka_unit_test(test_training_state_that_does_not_fit_is_named),
        cmocka_unit_test(test_decode_operations_by_hand),
        cmocka_unit_test(test_tensor_parallel),
        cmocka_unit_test(test_experts_touched),
        cmocka_unit_test(test_palm_mfu),
        cmocka_unit_test(test_terms_add_up),
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_napkin_unchanged_and_detailed_verdict),
        cmocka_unit_test(test_realistic_by_hand),
        cmocka_unit_test(test_operations_are_the_kernel_models),
        cmocka_unit_test(test_realistic_monotone),
        cmocka_unit_test(test_phase_rows_are_the_floor),
        cmocka_unit_test(test_measured_mbu_and_prefill_mfu),
        cmocka_unit_test(test_flops_conventions_llama3_8b),
        cmocka_unit_test(test_training_totals_published),
    };
    return cmocka_run_group_tests_name("detailed", tests, NULL, NULL);
}
