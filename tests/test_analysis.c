/* test_analysis.c — analyze() on the guide's scenarios, its properties, and
 * its refusals. Figures from the guide (../shared/seeds/002_*.txt, ch. 6-8)
 * and DESIGN.md's reference table. */
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "chips.h"
#include "sweep.h"

/* The phase row of a phase ("prefill", "decode", "training"): core's
 * lookup, which must find the phase row, never one of its operations. */
static const struct placement *phase(const struct analysis *a, const char *name)
{
    const struct placement *p = analysis_phase_placement(a, name);
    if (!p || p->operation || strcmp(p->phase, name) != 0)
        fail_msg("no %s phase row", name);
    return p;
}

/* The default scenario is the guide's napkin: 27.952 s on one v5e, 64 chips
 * for the budget, 9 to hold the weights (with the napkin giving the
 * verdict; by default the realistic estimate gives it, and says it is far
 * from the napkin's). */
static void test_default_scenario_is_the_guides_napkin(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    struct analysis a = must_analyze(&s);
    ASSERT_PRINTED("%.3f", a.latency.prefill_s, "5.822");
    ASSERT_PRINTED("%.3f", a.latency.decode_s, "21.880");
    ASSERT_PRINTED("%.3f", a.latency.total_s, "27.952");
    assert_false(a.latency.ok);
    assert_int_equal(a.latency.chips_for_budget, 64);
    assert_int_equal(a.memory.weights_fit_chips, 9);
    ASSERT_PRINTED("%.0f", a.ridge_flop_per_byte, "241");
    struct scenario real;
    scenario_default(&real);
    assert_int_equal(real.latency_model, RT_LATENCY_REALISTIC);
    struct analysis r = must_analyze(&real);
    ASSERT_NEAR(r.napkin.total_s, a.latency.total_s, 0); /* the napkin beside it, unchanged */
    ASSERT_NEAR(r.latency.total_s, r.realistic.total_s, 0);
    assert_true(r.realistic.total_s >= r.detailed.total_s); /* never below the floor */
    assert_int_equal(phase(&a, "prefill")->roof.bound, RT_COMPUTE_BOUND);
    assert_int_equal(phase(&a, "decode")->roof.bound, RT_MEMORY_BOUND);
    assert_int_equal(phase(&a, "training")->roof.bound, RT_COMPUTE_BOUND);
    ASSERT_NEAR(a.params, 70e9, 0);
    assert_int_equal(a.params_source, RT_PARAMS_STATED);
}

/* Stepping chips from 16 to 64 turns the verdict from MISS to OK. */
static void test_chips_16_miss_64_ok(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.chips = 16;
    struct analysis a = must_analyze(&s);
    ASSERT_PRINTED("%.3f", a.latency.total_s, "1.981");
    assert_false(a.latency.ok);
    s.chips = 64;
    a = must_analyze(&s);
    ASSERT_PRINTED("%.3f", a.latency.total_s, "0.683");
    assert_true(a.latency.ok);
    s.chips = 128;
    a = must_analyze(&s);
    ASSERT_PRINTED("%.3f", a.latency.total_s, "0.466");
}

/* Concurrent 8k requests, 70B bf16 on 8 x H100 80 GB: 23 MHA / 186 GQA-8 with
 * nothing reserved; 22 / 182 with 10 GB held back (the guide's figures). */
static void test_concurrent_requests_on_eight_h100(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    s.model.kv_heads = 64;
    assert_int_equal(must_analyze(&s).memory.max_concurrent_requests, 23);
    s.model.kv_heads = 8;
    assert_int_equal(must_analyze(&s).memory.max_concurrent_requests, 186);
    s.reserve_bytes = 10e9;
    assert_int_equal(must_analyze(&s).memory.max_concurrent_requests, 182);
    s.model.kv_heads = 64;
    assert_int_equal(must_analyze(&s).memory.max_concurrent_requests, 22);
}

/* The decode placement is ch. 8's decode batch intensity, and the batch sweep
 * reproduces the guide's column with the guide's H100 figures. */
static void test_batch_sweep_reproduces_the_decode_wall(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.chip = *chip_find("h100");
    s.peak_flops_override = 990e12;
    double values[RT_SWEEP_MAX_VALUES];
    size_t n = sweep_default_values(RT_SWEEP_BATCH, &s, values, RT_SWEEP_MAX_VALUES);
    assert_int_equal(n, 5);
    struct analysis rows[5];
    char err[256];
    assert_int_equal(sweep_run(RT_SWEEP_BATCH, &s, values, n, rows, err, sizeof err), 0);
    const char *want[] = {"1.0", "6.9", "28.7", "43.3", "49.6"};
    for (size_t i = 0; i < n; i++) {
        ASSERT_PRINTED("%.1f", rows[i].decode_batch_intensity_flop_per_byte, want[i]);
        ASSERT_NEAR(rows[i].decode_batch_intensity_flop_per_byte,
                    decode_batch_intensity(70e9, 80, 8, 128, 8192, values[i], 2, 2), 1e-12);
        assert_int_equal(phase(&rows[i], "decode")->roof.bound, RT_MEMORY_BOUND);
    }
    ASSERT_PRINTED("%.0f", rows[0].ridge_flop_per_byte, "296");
}

/* The params sweep gives the guide's chips-for-budget table. */
static void test_params_sweep(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    double values[] = {70e9, 35e9, 17e9, 8e9};
    struct analysis rows[4];
    char err[256];
    assert_int_equal(sweep_run(RT_SWEEP_PARAMS, &s, values, 4, rows, err, sizeof err), 0);
    const int64_t chips[] = {64, 32, 16, 8}, hold[] = {9, 5, 3, 1};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(rows[i].latency.chips_for_budget, chips[i]);
        assert_int_equal(rows[i].memory.weights_fit_chips, hold[i]);
    }
}

/* Decode time has no peak in it: changing only the peak leaves decode alone;
 * prefill is 2N per token, not 6N. */
static void test_decode_ignores_peak_and_prefill_is_2n(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    struct analysis a = must_analyze(&s);
    s.peak_flops_override = 10 * 197e12;
    struct analysis b = must_analyze(&s);
    ASSERT_NEAR(b.latency.decode_s, a.latency.decode_s, 0);
    ASSERT_NEAR(b.latency.prefill_s, a.latency.prefill_s / 10, 1e-12);
    ASSERT_NEAR(a.latency.prefill_flops, 2 * 70e9 * 8192, 0);
}

/* HFU >= MFU across a sweep of step times and recompute factors, and full
 * recompute is MFU x 8/6. */
static void test_hfu_at_least_mfu_across_a_sweep(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.has_step_times = true;
    for (double f = 0.0; f <= 1.0; f += 1.0 / 6.0) {
        for (double matmul = 0.01; matmul <= 1.0; matmul *= 3) {
            const double t[RT_PART_COUNT] = {matmul, 0.045, 0.06, 0.05, 0.025};
            memcpy(s.step_times_s, t, sizeof t);
            s.recompute = RT_RECOMPUTE_FRACTION;
            s.recompute_fraction = f;
            struct analysis a = must_analyze(&s);
            assert_true(a.has_mfu_budget);
            assert_true(a.hfu >= a.mfu_budget.mfu);
        }
    }
    const double guide[RT_PART_COUNT] = {0.100, 0.045, 0.060, 0.050, 0.025};
    memcpy(s.step_times_s, guide, sizeof guide);
    s.recompute = RT_RECOMPUTE_FULL;
    struct analysis a = must_analyze(&s);
    ASSERT_PRINTED("%.1f", a.mfu_budget.mfu * 100, "35.7");
    ASSERT_NEAR(a.hfu, a.mfu_budget.mfu * 8 / 6, 1e-15);
    ASSERT_PRINTED("%.1f", 0.118 * a.recompute_factor * 100, "15.7"); /* the guide's 11.8% -> 15.7% */
    assert_int_equal(a.mfu_budget_source, RT_BUDGET_STEP_TIMES);
    assert_int_equal(a.mfu_budget.biggest_lever, RT_PART_MEMORY);
}

/* Precision: int8 halves the bytes and uses the chip's int8 peak; fp8 on a
 * chip without fp8 is weight-only quantization at the bf16 peak. */
static void test_precision_changes_bytes_and_peak(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    struct analysis bf16 = must_analyze(&s);
    s.precision = RT_INT8;
    struct analysis int8 = must_analyze(&s);
    ASSERT_NEAR(int8.latency.decode_s, bf16.latency.decode_s / 2, 1e-12);
    ASSERT_NEAR(int8.peak_flops_per_s, 394e12, 0);
    assert_false(int8.weight_only_quantization);
    s.precision = RT_FP8;
    struct analysis fp8 = must_analyze(&s);
    assert_true(fp8.weight_only_quantization);
    assert_int_equal(fp8.compute_precision, RT_BF16);
    ASSERT_NEAR(fp8.peak_flops_per_s, 197e12, 0);
    assert_true(fp8.note_count >= 2);
    s.precision = RT_INT4;
    s.chip = *chip_find("a100-80"); /* int4 tensor cores, and still weight-only: W4A16, as serving runs it */
    struct analysis int4 = must_analyze(&s);
    ASSERT_NEAR(int4.memory.weights_bytes, 35e9, 0);
    assert_true(int4.weight_only_quantization);
    ASSERT_NEAR(int4.peak_flops_per_s, 312e12, 0);
    s.chip = *chip_find("tpu-v5e");
    s.precision = RT_BF16;
    s.kv_precision = RT_FP8;
    ASSERT_NEAR(must_analyze(&s).memory.kv_cache_bytes_per_token, bf16.memory.kv_cache_bytes_per_token / 2, 0);
}

/* Mixture of experts: memory holds every expert, FLOPs pay the active ones. */
static void test_moe_total_for_memory_active_for_flops(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    scenario_set_model(&s, model_find("mixtral-8x7b"));
    struct analysis a = must_analyze(&s);
    assert_true(a.active_params < a.params);
    ASSERT_NEAR(a.memory.weights_bytes, a.params * 2, 0);
    ASSERT_NEAR(a.latency.prefill_flops, 2 * a.active_params * 8192, 1);
    /* --params makes it dense. */
    s.params = 50e9;
    a = must_analyze(&s);
    ASSERT_NEAR(a.active_params, 50e9, 0);
    assert_int_equal(a.params_source, RT_PARAMS_GIVEN);
}

/* Very large values compute without overflow and without NaN. */
static void test_huge_values_stay_finite(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.params = 1e13;
    s.context_tokens = 1 << 20;
    s.chips = 65536;
    s.batch = 1 << 20;
    s.prefill_tokens = 1 << 20;
    struct analysis a = must_analyze(&s);
    assert_true(isfinite(a.latency.total_s));
    assert_true(a.memory.max_concurrent_requests >= 0);
    s.max_chips = RT_MAX_CHIPS;
    s.chips = RT_MAX_CHIPS;
    s.batch = RT_MAX_BATCH;
    s.context_tokens = RT_MAX_TOKENS;
    s.params = RT_MAX_PARAMS;
    a = must_analyze(&s);
    assert_true(isfinite(a.memory.kv_cache_bytes));
}

/* Every built-in chip x precision x model gives finite figures. */
static void test_every_builtin_combination_is_finite(void **state)
{
    (void)state;
    for (size_t c = 0; c < chip_builtin_count(); c++)
        for (size_t m = 0; m < model_builtin_count(); m++)
            for (int p = 0; p < RT_PRECISION_COUNT; p++) {
                struct scenario s;
                guide_napkin(&s);
                s.chip = *chip_builtin(c);
                scenario_set_model(&s, model_builtin(m));
                s.precision = (enum rt_precision)p;
                s.chips = p == 3 ? 64 : 1;
                s.params = p == 2 ? 123e9 : 0;
                s.measured_tpot_s = p == 1 ? 1e-6 : 0;
                struct analysis a = must_analyze(&s);
                assert_true(a.placement_count >= 3 && !a.placements[2].operation && a.placements[3].operation);
                /* Every assumption is said whole: none is cut at the note's size, none dropped. */
                assert_true(a.note_count < RT_MAX_NOTES);
                for (int i = 0; i < a.note_count; i++)
                    if (strlen(test_note(&a, i)) >= RT_NOTE_MAX - 1)
                        fail_msg("note cut off: %s", test_note(&a, i));
                assert_true(a.ridge_flop_per_byte > 0);
                /* The same with every serving knob on: a pipeline, expert groups where the model has
                 * experts, speculative decoding from a long-named draft, targets and a prefill pool. */
                s.chips = 16;
                s.pp = 2;
                s.ep = s.model.experts % 4 == 0 ? 4 : 1;
                s.batch = 8;
                s.spec_tokens = 4;
                s.spec_accept = 0.7;
                s.spec_draft_params = 1e9;
                snprintf(s.spec_draft_name, sizeof s.spec_draft_name, "%s",
                         "a-draft-model-with-a-name-as-long-as-the-field-holds-0123456789");
                s.ttft_target_s = 0.5;
                s.tpot_target_s = 0.05;
                s.disagg_prefill_chips = 8;
                s.ep_imbalance = 1.5;
                a = must_analyze(&s);
                assert_true(a.note_count < RT_MAX_NOTES);
                for (int i = 0; i < a.note_count; i++)
                    if (strlen(test_note(&a, i)) >= RT_NOTE_MAX - 1)
                        fail_msg("note cut off: %s", test_note(&a, i));
                assert_true(isfinite(a.serving.ttft_s) && isfinite(a.serving.tokens_per_s_per_chip));
            }
}

/* Invalid scenarios are refused with a message naming the knob. */
static void test_invalid_scenarios_name_the_knob(void **state)
{
    (void)state;
    char err[256];
    struct analysis a;
    struct scenario s;
#define REFUSED(mutation, needle)                                                                                      \
    do {                                                                                                               \
        guide_napkin(&s);                                                                                          \
        mutation;                                                                                                      \
        assert_int_equal(analyze(&s, &a, err, sizeof err), -1);                                                        \
        if (!strstr(err, needle))                                                                                      \
            fail_msg("message '%s' does not name %s", err, needle);                                                    \
    } while (0)
    REFUSED(s.chips = 0, "--chips");
    REFUSED(s.batch = -4, "--batch");
    REFUSED(s.model.kv_heads = 3, "kv_heads");
    REFUSED(s.budget_s = 0.25, "--budget");
    REFUSED(s.budget_s = 0.1, "--overhead");
    REFUSED(s.mfu = 0, "--mfu");
    REFUSED(s.mfu = 1.5, "--mfu");
    REFUSED(s.context_tokens = 0, "--context");
    REFUSED(s.params = 1e17, "--params");
    REFUSED(s.params = NAN, "--params");
    REFUSED(s.reserve_bytes = -1, "--reserve");
    REFUSED(s.overhead_s = INFINITY, "--overhead");
    REFUSED(s.chips = RT_MAX_CHIPS + 1, "--chips");
    REFUSED(s.peak_flops_override = -1, "--peak-flops");
#undef REFUSED
}

/* The built-in chips include the contract's 14 short names, each with dense
 * figures and a source; the v5e carries the guide's figures. */
static void test_builtin_chips(void **state)
{
    (void)state;
    const char *keys[] = {"a100-40", "a100-80", "h100",   "h100-pcie", "h200",    "b200",    "l4",
                          "mi300x",  "mi325x",  "tpu-v4", "tpu-v5e",   "tpu-v5p", "tpu-v6e", "gaudi3"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct chip_spec *c = chip_find(keys[i]);
        assert_non_null(c);
        assert_string_equal(c->key, keys[i]);
        assert_true(c->peak_flops_per_s[RT_BF16] > 0);
        assert_true(c->hbm_bytes > 0 && c->hbm_bytes_per_s > 0 && c->interconnect_bytes_per_s > 0);
        assert_true(strlen(c->source) > 20);
    }
    assert_ptr_equal(chip_find("TPU v5e"), chip_find("tpu-v5e"));
    assert_ptr_equal(chip_find("tpuv5e"), chip_find("tpu-v5e"));
    assert_ptr_equal(chip_find("H100"), chip_find("h100"));
    assert_ptr_equal(chip_find("NVIDIA H100 SXM5 80GB"), chip_find("h100"));
    assert_null(chip_find("h1000"));
    const struct chip_spec *v5e = chip_find("tpu-v5e");
    ASSERT_NEAR(v5e->peak_flops_per_s[RT_BF16], 197e12, 0);
    ASSERT_NEAR(v5e->hbm_bytes, 16e9, 0);
    ASSERT_NEAR(v5e->hbm_bytes_per_s, 819e9, 0);
    /* Dense datasheet figures (Hopper whitepaper: 989.4 bf16), not sparse ones. */
    ASSERT_NEAR(chip_find("h100")->peak_flops_per_s[RT_BF16], 989.4e12, 0);
    ASSERT_PRINTED("%.0f", ridge_point(989.4e12, 3.35e12), "295");
}

static bool has_note(const struct analysis *a, const char *text);

/* At a 1M-token context the PaLM MFU of llama-3.1-8b on an H100 passes
 * 100% (its 12 L H Q T counts attention over the whole context; the step
 * runs causal attention): the analysis says so in a note. At 8k it does
 * not, and there is no note; on one chip the step cannot run (no MFU is
 * given), and there is none either. */
static void test_palm_mfu_above_100_is_explained(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    scenario_set_model(&s, model_find("llama-3.1-8b"));
    s.prefill_tokens = 512;
    s.chips = 2; /* Adam's 16 bytes a parameter, 64 GB a chip, fit an H100's 80 GB */
    for (int k = 0; k < 3; k++) {
        s.context_tokens = k == 0 ? 8192 : 1000000;
        if (k == 2)
            s.chips = 1; /* 128 GB a chip: the step cannot run, no MFU is given, so none is explained */
        struct analysis a = must_analyze(&s);
        bool noted = has_note(&a, "MFU and HFU above 100%");
        if (k == 0) {
            assert_true(a.training.mfu < 1.0);
            assert_false(noted);
        } else {
            assert_true(a.training.mfu > 1.0);
            assert_int_equal(noted, k == 1);
            assert_int_equal(a.training.state_fits, k == 1);
        }
    }
}

/* Cost and energy per output token from the steady-state throughput:
 * $/Mtok = price / 3600 / (tokens/s per chip) x 1e6, J/token = power x PUE
 * / (tokens/s per chip), tokens/kWh = 3.6e6 / J. Eight H100s serving
 * llama-3.1-70b at batch 64, at the built-in AWS price (98.32 / 8 =
 * 12.29 USD per chip-hour), its 700 W TDP and a PUE of 1.2. */
static void test_cost_and_energy_per_token(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.chips = 8;
    s.batch = 64;
    s.pue = 1.2;
    struct analysis a = must_analyze(&s);
    double t = a.serving.tokens_per_s_per_chip;
    assert_true(t > 0.0);
    assert_true(a.cost.known && a.cost.priced);
    ASSERT_NEAR(a.cost.usd_per_chip_hour, 12.29, 1e-12);
    ASSERT_NEAR(a.cost.usd_per_million_output_tokens, 12.29 / 3600.0 / t * 1e6, 1e-9);
    ASSERT_NEAR(a.cost.usd_per_million_output_tokens * t, 12.29 / 3600.0 * 1e6, 1e-6); /* 3413.888... */
    assert_non_null(strstr(a.cost.source, "p5.48xlarge"));
    assert_true(a.energy.known && a.energy.measured);
    ASSERT_NEAR(a.energy.power_w, 700.0, 0);
    ASSERT_NEAR(a.energy.pue, 1.2, 0);
    ASSERT_NEAR(a.energy.joules_per_output_token * t, 840.0, 1e-9);
    ASSERT_NEAR(a.energy.tokens_per_kwh, 3.6e6 * t / 840.0, 1e-6);
    assert_string_equal(a.energy.power_source, "the chip's TDP");

    /* Overrides: $2 per chip-hour and 500 W at 1000 tokens/s would be
     * $0.5556 and 0.5 J; here scaled by the read-back throughput. */
    s.price_usd_per_chip_hour = 2.0;
    s.power_w = 500.0;
    s.pue = 0.0; /* unset: 1.0 */
    a = must_analyze(&s);
    t = a.serving.tokens_per_s_per_chip;
    ASSERT_NEAR(a.cost.usd_per_million_output_tokens, 2.0 / 3600.0 / t * 1e6, 1e-9);
    assert_string_equal(a.cost.source, "--price-per-chip-hour");
    ASSERT_NEAR(a.energy.pue, 1.0, 0);
    ASSERT_NEAR(a.energy.joules_per_output_token, 500.0 / t, 1e-12);
    assert_string_equal(a.energy.power_source, "--power-w");

    /* Unpublished: the v5e lists a price but no power, the B200 a power
     * but no price; either is "not known", never 0 as if free. */
    scenario_default(&s);
    a = must_analyze(&s);
    assert_true(a.cost.known);
    ASSERT_NEAR(a.cost.usd_per_chip_hour, 1.20, 0);
    /* 140 GB of weights on one 16 GB v5e: a design that cannot run has no
     * cost per token; 16 chips hold it and are priced. */
    assert_false(a.memory.batch_fits);
    assert_false(a.cost.fits);
    assert_false(a.cost.priced);
    ASSERT_NEAR(a.cost.usd_per_million_output_tokens, 0.0, 0);
    s.chips = 16;
    a = must_analyze(&s);
    assert_true(a.cost.fits && a.cost.priced);
    ASSERT_NEAR(a.cost.usd_per_million_output_tokens, 1.20 / 3600.0 / a.serving.tokens_per_s_per_chip * 1e6, 1e-9);
    s.chips = 1;
    a = must_analyze(&s);
    assert_false(a.energy.known);
    assert_false(a.energy.measured);
    assert_string_equal(a.energy.power_source, "unpublished");
    s.chip = *chip_find("b200");
    a = must_analyze(&s);
    assert_false(a.cost.known);
    assert_false(a.cost.priced);
    assert_string_equal(a.cost.source, "unpublished");
    assert_true(a.energy.known); /* 1000 W TDP */
    /* No output tokens: a price, but nothing to price. */
    s.chip = *chip_find("h100");
    s.decode_tokens = 0;
    a = must_analyze(&s);
    assert_true(a.cost.known);
    assert_false(a.cost.priced);
    assert_false(a.energy.measured);
}

/* The textbook memory-bound decode step of the guide's scenario (70B, bf16,
 * one TPU v5e, batch 1, 8192-token context): weights 70e9 x 2 = 140e9 bytes,
 * KV 80 layers x 8 kv heads x 128 x 2 (K, V) x 2 bytes = 327,680 bytes a
 * token x 8192 = 2,684,354,560 bytes; (140e9 + 2,684,354,560) / 819e9 =
 * 0.174218 s. Sixteen chips: a sixteenth. */
static void test_decode_memory_step(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    struct analysis a = must_analyze(&s);
    ASSERT_NEAR(a.decode_memory_step_s, 142684354560.0 / 819e9, 1e-15);
    ASSERT_NEAR(a.decode_memory_step_s, 0.174218, 5e-7);
    s.chips = 16;
    a = must_analyze(&s);
    ASSERT_NEAR(a.decode_memory_step_s, 142684354560.0 / (16.0 * 819e9), 1e-15);
}

/* True when one of a's notes contains text. */
static bool has_note(const struct analysis *a, const char *text)
{
    for (int i = 0; i < a->note_count; i++)
        if (strstr(test_note(a, i), text))
            return true;
    return false;
}

/* Issue 21 item 3: decode's intensity levels off as the batch grows, since
 * each request brings its own KV. By hand, the guide's 70B at 8192 tokens
 * (bf16, 8 KV heads): a request reads 2,684,354,560 bytes of KV for 2 x 70e9
 * FLOPs, so the ceiling is 1.4e11 / 2,684,354,560 = 52.154 FLOP/byte, under
 * H100's ridge of 989.4e12 / 3.35e12 = 295.34 however large the batch: no
 * ridge batch, and a note with the levers (8192 / (295.34 / 52.154) = 1446
 * tokens; 8 / 5.66 KV heads rounds down to one; fp8 KV doubles it to 104).
 * At 1024 tokens a request reads 335,544,320 bytes: the ceiling is 417.2,
 * and decode reaches the ridge at batch 295.34 x 140e9 / (1.4e11 - 295.34 x
 * 335,544,320) = 1010.97, so 1011. */
static void test_decode_intensity_ceiling(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    for (int64_t batch = 1; batch <= 4096; batch *= 64) { /* the ceiling does not move with the batch */
        s.batch = batch;
        struct analysis a = must_analyze(&s);
        ASSERT_NEAR(a.decode_intensity_ceiling_flop_per_byte, 1.4e11 / 2684354560.0, 1e-9);
        assert_true(a.decode_batch_intensity_flop_per_byte < a.decode_intensity_ceiling_flop_per_byte);
        assert_true(a.decode_ridge_batch == 0.0);
        assert_true(has_note(&a, "Decode's intensity levels off at 52.2 FLOP/byte at 8192 tokens, however large the "
                                 "batch: each request brings 2.68 GB of KV to read for 140 GFLOP of work. The ridge "
                                 "is 295; reaching it takes 5.7x less KV a request: 1446 tokens of context at most, "
                                 "one KV head (MQA, of 8), fp8 KV (104 FLOP/byte, not enough alone), or latent "
                                 "attention."));
    }
    s.batch = 1;
    s.context_tokens = 1024;
    s.prefill_tokens = 512;
    struct analysis a = must_analyze(&s);
    ASSERT_NEAR(a.decode_intensity_ceiling_flop_per_byte, 1.4e11 / 335544320.0, 1e-9);
    assert_true(a.decode_ridge_batch == 1011.0);
    assert_false(has_note(&a, "levels off"));
    s.batch = 1011; /* the batch it names is past the ridge, the one before is not */
    a = must_analyze(&s);
    assert_true(a.decode_batch_intensity_flop_per_byte >= a.ridge_flop_per_byte);
    s.batch = 1010;
    a = must_analyze(&s);
    assert_true(a.decode_batch_intensity_flop_per_byte < a.ridge_flop_per_byte);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_scenario_is_the_guides_napkin),
        cmocka_unit_test(test_chips_16_miss_64_ok),
        cmocka_unit_test(test_concurrent_requests_on_eight_h100),
        cmocka_unit_test(test_batch_sweep_reproduces_the_decode_wall),
        cmocka_unit_test(test_params_sweep),
        cmocka_unit_test(test_decode_ignores_peak_and_prefill_is_2n),
        cmocka_unit_test(test_decode_intensity_ceiling),
        cmocka_unit_test(test_hfu_at_least_mfu_across_a_sweep),
        cmocka_unit_test(test_precision_changes_bytes_and_peak),
        cmocka_unit_test(test_moe_total_for_memory_active_for_flops),
        cmocka_unit_test(test_huge_values_stay_finite),
        cmocka_unit_test(test_every_builtin_combination_is_finite),
        cmocka_unit_test(test_invalid_scenarios_name_the_knob),
        cmocka_unit_test(test_builtin_chips),
        cmocka_unit_test(test_palm_mfu_above_100_is_explained),
        cmocka_unit_test(test_cost_and_energy_per_token),
        cmocka_unit_test(test_decode_memory_step),
    };
    return cmocka_run_group_tests_name("analysis", tests, NULL, NULL);
}
