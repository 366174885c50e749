/* test_explain.c — "show your work": the formulas with the guide's numbers,
 * to the printed digit, for the default scenario (70e9 params on one TPU v5e,
 * 8192 prefill + 128 decode tokens, 0.25 s overhead); the latent KV form; the
 * MFU of --step-times; sources; and that no scenario prints nonsense. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "analysis.h"
#include "explain.h"

static struct analysis a;
static struct explanation e;

/* Analyzes s into a and explains it into e; returns the line count. */
static int explain_of(const struct scenario *s)
{
    char err[256];
    if (analyze(s, &a, err, sizeof err) != 0)
        fail_msg("analyze refused: %s", err);
    int n = explain_analysis(s, &a, &e);
    assert_int_equal(n, e.count);
    return n;
}

/* Index of the first line from index `from` that starts with prefix, or fails. */
static int find_after(int from, const char *prefix)
{
    for (int i = from; i < e.count; i++)
        if (strncmp(e.entry[i].text, prefix, strlen(prefix)) == 0)
            return i;
    fail_msg("no line starts with '%s'", prefix);
    return -1;
}

/* Index of the first line that starts with prefix, or fails. */
static int find(const char *prefix)
{
    return find_after(0, prefix);
}

/* Asserts that the lines from index `from` are exactly want[0..n). */
static void expect_lines(int from, const struct explain_line *want, int n)
{
    for (int i = 0; i < n; i++) {
        if (from + i >= e.count)
            fail_msg("line %d missing, want '%s'", from + i, want[i].text);
        if (strcmp(e.entry[from + i].text, want[i].text) != 0 || e.entry[from + i].kind != want[i].kind)
            fail_msg("line %d: got [%d] '%s', want [%d] '%s'", from + i, e.entry[from + i].kind,
                     e.entry[from + i].text, want[i].kind, want[i].text);
    }
}

/* The guide's napkin, ch. 3-8, as the overlay shows it: every figure the
 * seed prints for this scenario (ridge 241, prefill 5.822 s, decode
 * 21.880 s, total 27.952 s MISS, 64 chips for the budget, 9 to hold the
 * weights, KV 328 kB per token and 2.68 GB per request, decode AI 1.0). */
static void test_default_napkin_exact(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    explain_of(&s);
    static const struct explain_line want[] = {
        {RT_EXPLAIN_HEADING, "Ridge point (the guide, ch. 3: roofline)"},
        {RT_EXPLAIN_FORMULA, "  ridge = peak / bandwidth"},
        {RT_EXPLAIN_NUMBERS, "        = 197 TFLOP/s / 819 GB/s = 241 FLOP/byte"},
        {RT_EXPLAIN_SOURCE, "  Google TPU v5e (bf16 peak): Cloud TPU v5e documentation (197 TFLOP/s bf16, 394 TOP/s "
                            "int8; 16 GB HBM2; 819 GB/s; 400 GB/s bidirectional ICI)"},
        {RT_EXPLAIN_HEADING, "Napkin prefill (the guide, ch. 5: 2N FLOPs per token)"},
        {RT_EXPLAIN_FORMULA, "  prefill = 2 x N x tokens x batch / (chips x peak x MFU)"},
        {RT_EXPLAIN_NUMBERS, "          = 2 x 70.0B x 8192 x 1 / (1 x 197 TFLOP/s x 100%) = 5.822 s"},
        {RT_EXPLAIN_SOURCE, "  N = 70.0B: guide-70b's stated count; MFU: the prefill MFU the napkin assumes (knob prefl MFU, --mfu)"},
        {RT_EXPLAIN_HEADING, "Napkin decode (the guide, ch. 5: every token re-reads every weight)"},
        {RT_EXPLAIN_FORMULA, "  decode = tokens x N x bytes / (chips x bandwidth)"},
        {RT_EXPLAIN_NUMBERS, "         = 128 x 70.0B x 2 B / (1 x 819 GB/s) = 21.880 s"},
        {RT_EXPLAIN_SOURCE, "  bytes per weight: bf16 = 2 B (its width); the napkin skips the KV read"},
        {RT_EXPLAIN_HEADING, "Turn and verdict (the guide, ch. 6)"},
        {RT_EXPLAIN_FORMULA, "  total = prefill + decode + overhead"},
        {RT_EXPLAIN_NUMBERS, "        = 5.822 s + 21.880 s + 0.250 s = 27.952 s"},
        {RT_EXPLAIN_MISS, "  27.952 s > budget 1.000 s: MISS (napkin model, the verdict shown)"},
        {RT_EXPLAIN_FORMULA, "  chips for the budget: the smallest power of two whose total fits: 64"},
        {RT_EXPLAIN_SOURCE, "  budget and overhead: the knobs (the guide's 1.0 s and 0.25 s)"},
        {RT_EXPLAIN_HEADING, "Chips to hold the weights (the guide, ch. 6)"},
        {RT_EXPLAIN_FORMULA, "  chips = ceil(N x bytes / HBM)"},
        {RT_EXPLAIN_NUMBERS, "        = ceil(70.0B x 2 B / 16.0 GB) = ceil(8.75) = 9"},
        {RT_EXPLAIN_SOURCE, "  HBM per chip: the chip's datasheet"},
        {RT_EXPLAIN_HEADING, "KV cache (the guide, ch. 7)"},
        {RT_EXPLAIN_FORMULA, "  per token = 2 x layers x kv_heads x d_head x bytes"},
        {RT_EXPLAIN_NUMBERS, "            = 2 x 80 x 8 x 128 x 2 B = 328 kB"},
        {RT_EXPLAIN_NUMBERS, "  per request = per token x context = 328 kB x 8192 = 2.68 GB"},
        {RT_EXPLAIN_FORMULA, "  GQA saving = heads / kv_heads = 64 / 8 = 8.0x"},
        {RT_EXPLAIN_SOURCE, "  KV elements: bf16 = 2 B (--kv-precision); K and V: the factor 2"},
        {RT_EXPLAIN_HEADING, "Decode batch intensity (the guide, ch. 8: the decode wall)"},
        {RT_EXPLAIN_FORMULA, "  AI = 2 x N x batch / (N x bytes + batch x KV per request)"},
        {RT_EXPLAIN_NUMBERS, "     = 2 x 70.0B x 1 / (140 GB + 1 x 2.68 GB) = 1.0 FLOP/byte"},
        {RT_EXPLAIN_FORMULA, "  attains min(peak, bw x AI) = 804 GFLOP/s, 0.4% of peak: memory-bound"},
        {RT_EXPLAIN_HEADING, "Detailed model (beyond the napkin: every operation)"},
        {RT_EXPLAIN_FORMULA, "  each operation takes max(FLOPs / its unit's peak, bytes / bandwidth)"},
        {RT_EXPLAIN_SOURCE, "  vector unit 3.94 TFLOP/s: peak / 50 (none published; the guide, ch. 2)"},
    };
    expect_lines(0, want, (int)(sizeof want / sizeof want[0]));
}

/* Writes the text "%.3f s" of seconds into buf (the guide's turn format). */
static const char *s3(char *buf, size_t size, double seconds)
{
    snprintf(buf, size, "%.3f s", seconds);
    return buf;
}

/* The detailed model's lines carry the analysis' own figures (the screen's),
 * one line per term, and the verdict and chips of the detailed model. These
 * figures move when the detailed model is refined, so they are compared with
 * the analysis rather than with constants. */
static void test_default_detailed_terms(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    explain_of(&s);
    char want[160], t1[32], t2[32], t3[32];
    int i = find("  prefill = napkin + terms = 5.822 s + ");
    snprintf(want, sizeof want, "= %s", s3(t1, sizeof t1, a.detailed.prefill_s));
    assert_non_null(strstr(e.entry[i].text, want));
    assert_int_equal(e.entry[i].kind, RT_EXPLAIN_NUMBERS);
    for (int k = 0; k < a.detailed.prefill_term_count; k++) {
        assert_int_equal(e.entry[i + 1 + k].kind, RT_EXPLAIN_FORMULA);
        const char *name = strstr(e.entry[i + 1 + k].text, a.detailed.prefill_terms[k].name);
        assert_non_null(name);
    }
    i = find("  decode step = napkin + terms = 170.9 ms ");
    for (int k = 0; k < a.detailed.decode_term_count; k++)
        assert_non_null(strstr(e.entry[i + 1 + k].text, a.detailed.decode_terms[k].name));
    i = find_after(find("Detailed model"), "  total = ");
    snprintf(want, sizeof want, "  total = %s + %s + 0.250 s = %s", s3(t1, sizeof t1, a.detailed.prefill_s),
             s3(t2, sizeof t2, a.detailed.decode_s), s3(t3, sizeof t3, a.detailed.total_s));
    assert_string_equal(e.entry[i].text, want);
    assert_int_equal(e.entry[i + 1].kind, a.detailed.ok ? RT_EXPLAIN_OK : RT_EXPLAIN_MISS);
    snprintf(want, sizeof want, "(detailed model); chips for it: %lld", (long long)a.detailed.chips_for_budget);
    assert_non_null(strstr(e.entry[i + 1].text, want));
    /* The zero terms read "0", never "+0.0 us" or "-0.0 us". */
    assert_non_null(strstr(e.entry[find("            0  tile padding")].text, "tile"));
}

/* MFU from the shape: PaLM's 6N + 12 L H Q T per token with the numbers, and
 * the MFU and HFU the MFU panel shows. */
static void test_default_mfu_palm(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    explain_of(&s);
    int i = find("MFU of a training step from the shape (ch. 4; PaLM, app. B)");
    assert_string_equal(e.entry[i + 1].text, "  FLOPs per token = 6N + 12 x L x H x Q x T");
    assert_string_equal(e.entry[i + 2].text, "                  = 6 x 70.0B + 12 x 80 x 64 x 128 x 8192 = 484 GFLOP");
    assert_string_equal(e.entry[i + 3].text, "  MFU = FLOPs per token x tokens / (step x chips x peak)");
    char want[160], m[16];
    snprintf(m, sizeof m, "%.1f%%", a.mfu_budget.mfu * 100.0);
    snprintf(want, sizeof want, "      = 484 GFLOP x 8192 / (%.3f s x 1 x 197 TFLOP/s) = %s", a.training.step_s, m);
    assert_string_equal(e.entry[i + 4].text, want);
    snprintf(want, sizeof want, "  HFU = MFU x hardware / model FLOPs = %s x 1.00 = %s", m, m);
    assert_string_equal(e.entry[i + 5].text, want);
    assert_string_equal(e.entry[e.count - 1].text, "  PaLM: Chowdhery et al. 2022, app. B (attention FLOPs not halved)");
    assert_int_equal(e.entry[e.count - 1].kind, RT_EXPLAIN_SOURCE);

    /* --flops-convention 6n: the overlay shows the count the MFU was made
     * with, 6 x 70e9 = 420 GFLOP per token, and names it; never PaLM's. */
    s.flops_convention = RT_FLOPS_6N;
    explain_of(&s);
    i = find("MFU of a training step from the shape (ch. 4; 6N count)");
    assert_string_equal(e.entry[i + 1].text, "  FLOPs per token = 6N, attention not counted");
    assert_string_equal(e.entry[i + 2].text, "                  = 420 GFLOP");
    snprintf(m, sizeof m, "%.1f%%", a.mfu_budget.mfu * 100.0);
    snprintf(want, sizeof want, "      = 420 GFLOP x 8192 / (%.3f s x 1 x 197 TFLOP/s) = %s", a.training.step_s, m);
    assert_string_equal(e.entry[i + 4].text, want);
    assert_string_equal(e.entry[e.count - 1].text, "  --flops-convention 6n; PaLM's count is the default");
}

/* The guide's MFU budget (ch. 4): 100/45/60/50/25 ms is MFU 35.7%, lever
 * memory; full recompute gives HFU = MFU x 8/6. */
static void test_step_times(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.has_step_times = true;
    const double ms[RT_PART_COUNT] = {0.100, 0.045, 0.060, 0.050, 0.025};
    memcpy(s.step_times_s, ms, sizeof ms);
    s.recompute = RT_RECOMPUTE_FULL;
    explain_of(&s);
    static const struct explain_line want[] = {
        {RT_EXPLAIN_HEADING, "MFU budget from step times (the guide, ch. 4)"},
        {RT_EXPLAIN_FORMULA, "  MFU = matmul time / step time"},
        {RT_EXPLAIN_NUMBERS, "      = 100.0 ms / 280.0 ms = 35.7%"},
        {RT_EXPLAIN_NUMBERS, "  HFU = MFU x recompute = 35.7% x 1.33 = 47.6%"},
        {RT_EXPLAIN_FORMULA, "  lost: vector 16.1%, memory 21.4%, comms 17.9%, optimizer 8.9%"},
        {RT_EXPLAIN_FORMULA, "  biggest lever: memory"},
        {RT_EXPLAIN_SOURCE, "  step times: --step-times; recompute: hardware / model FLOPs (ch. 4)"},
    };
    expect_lines(find("MFU budget from step times"), want, (int)(sizeof want / sizeof want[0]));
    assert_int_equal(e.count, find("MFU budget from step times") + (int)(sizeof want / sizeof want[0]));
}

/* The 64-chip row of the guide's sweep meets the budget: 0.683 s OK. */
static void test_chips_64_ok(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.chips = 64;
    explain_of(&s);
    static const struct explain_line want[] = {
        {RT_EXPLAIN_HEADING, "Turn and verdict (the guide, ch. 6)"},
        {RT_EXPLAIN_FORMULA, "  total = prefill + decode + overhead"},
        {RT_EXPLAIN_NUMBERS, "        = 0.091 s + 0.342 s + 0.250 s = 0.683 s"},
        {RT_EXPLAIN_OK, "  0.683 s <= budget 1.000 s: OK (napkin model, the verdict shown)"},
        {RT_EXPLAIN_FORMULA, "  chips for the budget: the smallest power of two whose total fits: 64"},
    };
    expect_lines(find("Turn and verdict"), want, (int)(sizeof want / sizeof want[0]));
    assert_string_equal(e.entry[find("          = 2 x")].text,
                        "          = 2 x 70.0B x 8192 x 1 / (64 x 197 TFLOP/s x 100%) = 0.091 s");
    assert_string_equal(e.entry[find("         = 128 x")].text, "         = 128 x 70.0B x 2 B / (64 x 819 GB/s) = 0.342 s");
}

/* Latent attention caches kv_lora_rank + the rotary key per layer (DeepSeek
 * V3: 61 x (512 + 64) x 2 B = 70.3 kB per token); MoE prefill pays the
 * active parameters. */
static void test_latent_kv_and_moe(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    scenario_set_model(&s, model_find("deepseek-v3"));
    explain_of(&s);
    static const struct explain_line want[] = {
        {RT_EXPLAIN_HEADING, "KV cache (the guide, ch. 7)"},
        {RT_EXPLAIN_FORMULA, "  per token = layers x (kv_lora_rank + rope_dim) x bytes (MLA latent)"},
        {RT_EXPLAIN_NUMBERS, "            = 61 x (512 + 64) x 2 B = 70.3 kB"},
        {RT_EXPLAIN_NUMBERS, "  per request = per token x context = 70.3 kB x 8192 = 576 MB"},
        {RT_EXPLAIN_SOURCE, "  KV elements: bf16 = 2 B (--kv-precision); MLA: DeepSeek-V2, sec. 2.1"},
    };
    expect_lines(find("KV cache"), want, (int)(sizeof want / sizeof want[0]));
    assert_string_equal(e.entry[find("  prefill = 2 x")].text,
                        "  prefill = 2 x N_active x tokens x batch / (chips x peak x MFU)");
    assert_non_null(strstr(e.entry[find("  N_active = ")].text, "of 671B"));
}

/* Overrides and weight-only quantization name their source. */
static void test_overrides_named(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.peak_flops_override = 990e12;
    s.precision = RT_FP8;
    explain_of(&s);
    assert_string_equal(e.entry[2].text, "        = 990 TFLOP/s / 819 GB/s = 1209 FLOP/byte");
    assert_string_equal(e.entry[find("  overridden")].text, "  overridden (flags or a scenario): peak (--peak-flops)");
    assert_string_equal(e.entry[find("  tpu-v5e has no")].text,
                        "  tpu-v5e has no native fp8 peak: the matmuls run at the bf16 peak");
}

/* Helpers: the ceiling's ratio and the sum of terms, with invalid input. */
static void test_helpers(void **state)
{
    (void)state;
    ASSERT_NEAR(explain_weights_ratio(140e9, 16e9), 8.75, 1e-12);
    assert_true(isnan(explain_weights_ratio(140e9, 0.0)));
    assert_true(isnan(explain_weights_ratio(INFINITY, 16e9)));
    struct latency_term t[2] = {{"a", 0.25}, {"b", -0.05}};
    ASSERT_NEAR(explain_terms_sum(t, 2), 0.20, 1e-15);
    assert_true(explain_terms_sum(NULL, 2) == 0.0);
    assert_true(explain_terms_sum(t, -1) == 0.0);
    struct scenario s;
    guide_napkin(&s);
    assert_int_equal(explain_analysis(NULL, &a, &e), -1);
    assert_int_equal(e.count, 0);
    assert_int_equal(explain_analysis(&s, NULL, &e), -1);
    assert_int_equal(explain_analysis(&s, &a, NULL), -1);
}

/* True when word occurs in t with no letter on either side ("inf", not "inference"). */
static bool has_word(const char *t, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(t, word); p; p = strstr(p + 1, word)) {
        bool before = p > t && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
        bool after = (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z');
        if (!before && !after)
            return true;
    }
    return false;
}

/* Every built-in model on every built-in chip, at 1 and 64 chips: ASCII
 * text, no nan or inf, every line within its buffer and a heading first. */
static void test_every_preset_is_clean(void **state)
{
    (void)state;
    for (size_t m = 0; m < model_builtin_count(); m++)
        for (size_t c = 0; c < chip_builtin_count(); c++)
            for (int chips = 1; chips <= 64; chips *= 64) {
                struct scenario s;
                guide_napkin(&s);
                scenario_set_model(&s, model_builtin(m));
                s.chip = *chip_builtin(c);
                s.chips = chips;
                char err[256];
                if (analyze(&s, &a, err, sizeof err) != 0)
                    continue;
                assert_true(explain_analysis(&s, &a, &e) > 20);
                assert_int_equal(e.entry[0].kind, RT_EXPLAIN_HEADING);
                for (int i = 0; i < e.count; i++) {
                    const char *t = e.entry[i].text;
                    assert_true(strlen(t) < RT_EXPLAIN_LINE_MAX);
                    for (const char *p = t; *p; p++)
                        if ((unsigned char)*p >= 0x80 || (unsigned char)*p < 0x20)
                            fail_msg("%s on %s: byte 0x%02x in '%s'", s.model.name, s.chip.key, (unsigned char)*p, t);
                    if (has_word(t, "nan") || has_word(t, "inf") || strstr(t, "n/a"))
                        fail_msg("%s on %s: '%s'", s.model.name, s.chip.key, t);
                }
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_napkin_exact), cmocka_unit_test(test_default_detailed_terms),
        cmocka_unit_test(test_default_mfu_palm),     cmocka_unit_test(test_step_times),
        cmocka_unit_test(test_chips_64_ok),          cmocka_unit_test(test_latent_kv_and_moe),
        cmocka_unit_test(test_overrides_named),      cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_every_preset_is_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
