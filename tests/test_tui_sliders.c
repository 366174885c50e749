/* test_tui_sliders.c — stepping, typed values and track positions of the
 * explorer's knobs. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "analysis.h"
#include "sliders.h"

/* The slider's value as shown. */
static const char *shown(const struct scenario *s, enum slider_id id)
{
    static char buf[64];
    return slider_value_text(s, id, buf, sizeof buf);
}

/* Order and names: the order, batch first. */
static void test_order_and_names(void **state)
{
    (void)state;
    const char *want[] = {"batch",   "model",   "kv heads", "chips",  "pp",       "ep",        "precision",
                          "act prec", "chip",   "context",  "prefill", "decode",  "budget",    "overhead",
                          "prefl MFU", "kv prec", "reserve"};
    assert_int_equal(SLIDER_COUNT, 17);
    for (int i = 0; i < SLIDER_COUNT; i++) {
        assert_string_equal(slider_name((enum slider_id)i), want[i]);
        assert_true(strlen(slider_hint((enum slider_id)i)) > 0);
    }
    assert_string_equal(slider_name(SLIDER_COUNT), "?");
}

/* Batch and chips step through powers of two; coarse is x4; ends hold. */
static void test_powers_of_two(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    assert_false(slider_step(&s, SLIDER_BATCH, -1, false)); /* already 1 */
    assert_true(slider_step(&s, SLIDER_BATCH, 1, false));
    assert_int_equal(s.batch, 2);
    assert_true(slider_step(&s, SLIDER_BATCH, 1, true));
    assert_int_equal(s.batch, 8);
    s.batch = 3; /* off the grid, from the command line */
    slider_step(&s, SLIDER_BATCH, 1, false);
    assert_int_equal(s.batch, 4);
    s.batch = 3;
    slider_step(&s, SLIDER_BATCH, -1, false);
    assert_int_equal(s.batch, 2);
    s.chips = 16;
    assert_true(slider_step(&s, SLIDER_CHIPS, 1, false));
    assert_int_equal(s.chips, 32);
    assert_true(slider_step(&s, SLIDER_CHIPS, 1, false));
    assert_int_equal(s.chips, 64);
    s.chips = 16;
    slider_step(&s, SLIDER_CHIPS, 1, true);
    assert_int_equal(s.chips, 64);
    s.chips = RT_MAX_CHIPS;
    assert_false(slider_step(&s, SLIDER_CHIPS, 1, false));
    assert_int_equal(s.chips, RT_MAX_CHIPS);
}

/* kv heads step through the divisors of the head count (64: 1 2 4 8 16 32 64). */
static void test_kv_heads_divisors(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    assert_int_equal(s.model.heads, 64);
    assert_int_equal(s.model.kv_heads, 8);
    slider_step(&s, SLIDER_KV_HEADS, 1, false);
    assert_int_equal(s.model.kv_heads, 16);
    slider_step(&s, SLIDER_KV_HEADS, -1, false);
    slider_step(&s, SLIDER_KV_HEADS, -1, false);
    assert_int_equal(s.model.kv_heads, 4);
    s.model.heads = 12;
    s.model.kv_heads = 4;
    slider_step(&s, SLIDER_KV_HEADS, 1, false);
    assert_int_equal(s.model.kv_heads, 6);
    slider_step(&s, SLIDER_KV_HEADS, 1, false);
    assert_int_equal(s.model.kv_heads, 12);
    assert_false(slider_step(&s, SLIDER_KV_HEADS, 1, false));
    assert_string_equal(shown(&s, SLIDER_KV_HEADS), "12 of 12");
}

/* The kv-heads knob of a model without attention layers (state space)
 * shows why it does nothing and does not move; ep of a dense model too. */
static void test_inert_knobs(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    char why[300];
    assert_null(slider_inert(&s, SLIDER_KV_HEADS, why, sizeof why));
    assert_string_equal(slider_inert(&s, SLIDER_EP, why, sizeof why),
                        "ep: guide-70b is dense; expert parallelism needs a mixture-of-experts model");
    model_schedule_fix(&s.model);
    s.model.kinds[0].mixer = RT_MIXER_MAMBA; /* every layer state space */
    assert_string_equal(shown(&s, SLIDER_KV_HEADS), "state space");
    assert_string_equal(slider_inert(&s, SLIDER_KV_HEADS, why, sizeof why),
                        "kv heads: guide-70b has no attention layers: its state-space layers keep a fixed state per "
                        "request, not a KV cache, so this knob changes nothing");
    struct scenario before = s;
    assert_false(slider_step(&s, SLIDER_KV_HEADS, 1, false));
    assert_false(slider_set_fraction(&s, SLIDER_KV_HEADS, 1.0));
    char err[300];
    assert_int_equal(slider_set_text(&s, SLIDER_KV_HEADS, "4", err, sizeof err), -1);
    assert_string_equal(err, why);
    assert_memory_equal(&s, &before, sizeof s);
}

/* The core's messages, in the knobs' names: every flag that has a knob is
 * renamed, as a whole word; others are kept. */
static void test_messages_in_knob_names(void **state)
{
    (void)state;
    char out[300];
    assert_string_equal(slider_message("--chips 6 is not a multiple of --pp 4 x --ep 1: a replica is tp x pp x ep "
                                       "chips", out, sizeof out),
                        "chips 6 is not a multiple of pp 4 x ep 1: a replica is tp x pp x ep chips");
    assert_string_equal(slider_message("--batch 2 is below --ep 4", out, sizeof out), "batch 2 is below ep 4");
    assert_string_equal(slider_message("--prefill-tokens 5 and --decode-tokens 0 and --mfu 2", out, sizeof out),
                        "prefill 5 and decode 0 and prefl MFU 2");
    assert_string_equal(slider_message("--reserve 1e22 or --kv-precision x", out, sizeof out),
                        "reserve 1e22 or kv prec x");
    /* No knob: kept; a flag inside a word or a longer flag: kept. */
    assert_string_equal(slider_message("--spec-accept 2; x--batch; --batches; chip h100 needs --peak-flops", out,
                                       sizeof out),
                        "--spec-accept 2; x--batch; --batches; chip h100 needs --peak-flops");
    char small[8];
    assert_string_equal(slider_message("--budget 0.2 s", small, sizeof small), "budget ");
}

/* kv precision walks the seven precisions in the shown order (a coarse
 * step is three of them); the reserve 0, 1 GB, 2 GB, 5 GB, 10 GB ... and
 * back to 0; both take typed values as the flags do. */
static void test_kv_precision_and_reserve(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    assert_string_equal(shown(&s, SLIDER_KV_PRECISION), "bf16");
    assert_true(slider_step(&s, SLIDER_KV_PRECISION, 1, true));
    assert_string_equal(shown(&s, SLIDER_KV_PRECISION), "int8");
    assert_true(slider_step(&s, SLIDER_KV_PRECISION, 1, true));
    assert_string_equal(shown(&s, SLIDER_KV_PRECISION), "int4");
    assert_false(slider_step(&s, SLIDER_KV_PRECISION, 1, false));
    assert_string_equal(shown(&s, SLIDER_RESERVE), "none");
    const double up[] = {1e9, 2e9, 5e9, 10e9};
    for (int i = 0; i < 4; i++) {
        assert_true(slider_step(&s, SLIDER_RESERVE, 1, false));
        assert_true(s.reserve_bytes == up[i]);
    }
    assert_string_equal(shown(&s, SLIDER_RESERVE), "10.0 GB");
    assert_true(slider_step(&s, SLIDER_RESERVE, -1, true)); /* three notches: 10 -> 5 -> 2 -> 1 GB */
    assert_true(s.reserve_bytes == 1e9);
    assert_true(slider_step(&s, SLIDER_RESERVE, -1, false));
    assert_true(s.reserve_bytes == 0.0);
    assert_false(slider_step(&s, SLIDER_RESERVE, -1, false));
    char err[200];
    assert_int_equal(slider_set_text(&s, SLIDER_RESERVE, "10GB", err, sizeof err), 0);
    assert_true(s.reserve_bytes == 10e9);
    assert_int_equal(slider_set_text(&s, SLIDER_RESERVE, "2e21", err, sizeof err), -1);
    assert_string_equal(err, "reserve: 2e21 is out of range: give 0 to 1e21 bytes");
    assert_int_equal(slider_set_text(&s, SLIDER_KV_PRECISION, "fp8", err, sizeof err), 0);
    assert_int_equal(s.kv_precision, RT_FP8);
    assert_int_equal(slider_set_text(&s, SLIDER_KV_PRECISION, "fp16", err, sizeof err), -1);
    assert_string_equal(err, "kv prec: 'fp16': give bf16, fp8, fp8-block, int8, nvfp4, mxfp4 or int4");
    assert_int_equal(slider_set_text(&s, SLIDER_KV_PRECISION, "NVFP4", err, sizeof err), 0);
    assert_int_equal(s.kv_precision, RT_NVFP4);
}

/* Precision walks the shown order, widest first, each plain format
 * before its block-scaled sibling and the weight-only int4 last (units.h,
 * precision_ordered), and stops at the ends; its track puts them evenly. */
static void test_precision_list(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    const char *want[] = {"fp8", "fp8-block", "int8", "nvfp4", "mxfp4", "int4"};
    for (int i = 0; i < 6; i++) {
        assert_true(slider_step(&s, SLIDER_PRECISION, 1, false));
        assert_string_equal(shown(&s, SLIDER_PRECISION), want[i]);
        ASSERT_NEAR(slider_fraction(&s, SLIDER_PRECISION), (i + 1) / 6.0, 1e-12);
    }
    assert_false(slider_step(&s, SLIDER_PRECISION, 1, false));
    assert_true(slider_set_fraction(&s, SLIDER_PRECISION, 4.0 / 6.0));
    assert_int_equal(s.precision, RT_NVFP4);
}

/* The act precision knob: auto shows what it resolves to; stepping passes
 * over precisions the chip has no peak for (MI355X has mxfp4, not nvfp4);
 * a chip change drops an act precision the new chip cannot run. */
static void test_act_precision_knob(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("mi355x");
    s.precision = RT_MXFP4;
    assert_string_equal(shown(&s, SLIDER_ACT_PRECISION), "auto (mxfp4)");
    s.precision = RT_NVFP4; /* no nvfp4 on CDNA 4: weight-only */
    assert_string_equal(shown(&s, SLIDER_ACT_PRECISION), "auto (bf16)");
    s.precision = RT_MXFP4;
    const char *want[] = {"bf16", "fp8", "fp8-block", "int8", "mxfp4"}; /* nvfp4 passed over */
    for (int i = 0; i < 5; i++) {
        assert_true(slider_step(&s, SLIDER_ACT_PRECISION, 1, false));
        assert_string_equal(shown(&s, SLIDER_ACT_PRECISION), want[i]);
    }
    assert_false(slider_step(&s, SLIDER_ACT_PRECISION, 1, false));
    assert_true(slider_step(&s, SLIDER_ACT_PRECISION, -1, false));
    assert_int_equal(s.act_precision, RT_INT8);
    assert_true(slider_step(&s, SLIDER_ACT_PRECISION, 1, false));
    slider_use_chip(&s, chip_find("h100")); /* no mxfp4 there: back to auto */
    assert_int_equal(s.act_precision, RT_PRECISION_AUTO);
    s.act_precision = RT_FP8;
    slider_use_chip(&s, chip_find("h200")); /* fp8 there: kept */
    assert_int_equal(s.act_precision, RT_FP8);
    char err[300];
    assert_int_equal(slider_set_text(&s, SLIDER_ACT_PRECISION, "int4", err, sizeof err), -1);
    assert_string_equal(err, "act prec: 'int4' is not auto, bf16, fp8, fp8-block, int8, nvfp4 or mxfp4");
    assert_int_equal(slider_set_text(&s, SLIDER_ACT_PRECISION, "nvfp4", err, sizeof err), -1);
    assert_string_equal(err, "act prec nvfp4: h200 has no native nvfp4 peak; its precisions are bf16, fp8, fp8-block, "
                             "int8 (or give act prec auto)");
    assert_int_equal(slider_set_text(&s, SLIDER_ACT_PRECISION, "auto", err, sizeof err), 0);
    assert_int_equal(s.act_precision, RT_PRECISION_AUTO);
}

/* Models go by size; the guide's sizes appear on the 70B shape as N. */
static void test_model_list(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    double last = 0.0;
    /* Walk down to the smallest, then up to the largest, checking sizes grow. */
    while (slider_step(&s, SLIDER_MODEL, -1, false))
        ;
    int steps = 0;
    do {
        struct analysis a;
        char err[256];
        assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
        assert_true(a.params >= last);
        last = a.params;
        steps++;
    } while (slider_step(&s, SLIDER_MODEL, 1, false));
    assert_true(steps >= 8);
    assert_true(last > 400e9); /* llama 405B at the top */
    scenario_default(&s);
    slider_step(&s, SLIDER_MODEL, -1, false);
    assert_string_equal(shown(&s, SLIDER_MODEL), "mixtral-8x7b"); /* 46.7B total */
    slider_step(&s, SLIDER_MODEL, -1, false);
    assert_string_equal(shown(&s, SLIDER_MODEL), "N=35.0B");
    assert_string_equal(s.model.name, "guide-70b");
    slider_step(&s, SLIDER_MODEL, 1, false);
    slider_step(&s, SLIDER_MODEL, 1, false);
    assert_string_equal(shown(&s, SLIDER_MODEL), "guide-70b");
}

/* Changing the chip drops the overrides that described the old one. */
static void test_chip_change_clears_overrides(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.peak_flops_override = 990e12;
    assert_true(slider_step(&s, SLIDER_CHIP, 1, false));
    assert_true(s.peak_flops_override == 0.0);
    assert_string_not_equal(s.chip.key, "tpu-v5e");
}

/* Budget: 1-2-5 series, a decade when coarse; overhead and MFU: 0.05 steps. */
static void test_times_and_mfu(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    slider_step(&s, SLIDER_BUDGET, 1, false);
    ASSERT_NEAR(s.budget_s, 2.0, 1e-12);
    slider_step(&s, SLIDER_BUDGET, -1, false);
    slider_step(&s, SLIDER_BUDGET, -1, false);
    ASSERT_NEAR(s.budget_s, 0.5, 1e-12);
    slider_step(&s, SLIDER_BUDGET, 1, true);
    ASSERT_NEAR(s.budget_s, 5.0, 1e-12);
    slider_step(&s, SLIDER_OVERHEAD, 1, false);
    ASSERT_NEAR(s.overhead_s, 0.30, 1e-12);
    s.overhead_s = 0.0;
    assert_false(slider_step(&s, SLIDER_OVERHEAD, -1, false));
    assert_false(slider_step(&s, SLIDER_MFU, 1, false)); /* at 100% */
    slider_step(&s, SLIDER_MFU, -1, true);
    ASSERT_NEAR(s.mfu, 0.75, 1e-12);
    s.mfu = 0.05;
    assert_false(slider_step(&s, SLIDER_MFU, -1, false));
    s.prefill_tokens = 1;
    slider_step(&s, SLIDER_PREFILL, -1, false);
    assert_int_equal(s.prefill_tokens, 0);
    slider_step(&s, SLIDER_PREFILL, 1, false);
    assert_int_equal(s.prefill_tokens, 1);
}

/* Typed values: numbers with SI suffixes, names, units; bad text refused
 * with a message and the scenario untouched. */
static void test_typed_values(void **state)
{
    (void)state;
    struct scenario s, before;
    char err[256];
    scenario_default(&s);
    assert_int_equal(slider_set_text(&s, SLIDER_CHIPS, " 64 ", err, sizeof err), 0);
    assert_int_equal(s.chips, 64);
    /* Token counts are written in powers of two (issue 21 item 8): 32k is 32768, the step above 16k. */
    assert_int_equal(slider_set_text(&s, SLIDER_CONTEXT, "32k", err, sizeof err), 0);
    assert_int_equal(s.context_tokens, 32768);
    assert_int_equal(slider_set_text(&s, SLIDER_PREFILL, "2k", err, sizeof err), 0);
    assert_int_equal(s.prefill_tokens, 2048);
    assert_int_equal(slider_set_text(&s, SLIDER_DECODE, "1k", err, sizeof err), 0);
    assert_int_equal(s.decode_tokens, 1024);
    assert_int_equal(slider_set_text(&s, SLIDER_PREFILL, "2000", err, sizeof err), 0);
    assert_int_equal(s.prefill_tokens, 2000);
    assert_int_equal(slider_set_text(&s, SLIDER_CONTEXT, "32k", err, sizeof err), 0);
    assert_int_equal(slider_set_text(&s, SLIDER_BUDGET, "500ms", err, sizeof err), 0);
    ASSERT_NEAR(s.budget_s, 0.5, 1e-12);
    assert_int_equal(slider_set_text(&s, SLIDER_OVERHEAD, "0.1 s", err, sizeof err), 0);
    ASSERT_NEAR(s.overhead_s, 0.1, 1e-12);
    assert_int_equal(slider_set_text(&s, SLIDER_MFU, "40%", err, sizeof err), 0);
    ASSERT_NEAR(s.mfu, 0.4, 1e-12);
    assert_int_equal(slider_set_text(&s, SLIDER_MFU, "0.5", err, sizeof err), 0);
    ASSERT_NEAR(s.mfu, 0.5, 1e-12);
    assert_int_equal(slider_set_text(&s, SLIDER_CHIP, "H100", err, sizeof err), 0);
    assert_string_equal(s.chip.key, "h100");
    assert_int_equal(slider_set_text(&s, SLIDER_PRECISION, "FP8", err, sizeof err), 0);
    assert_int_equal(s.precision, RT_FP8);
    assert_int_equal(slider_set_text(&s, SLIDER_MODEL, "llama-3.1-8b", err, sizeof err), 0);
    assert_string_equal(s.model.name, "llama-3.1-8b");
    assert_int_equal(slider_set_text(&s, SLIDER_MODEL, "17B", err, sizeof err), 0);
    ASSERT_NEAR(s.params, 17e9, 1);

    const struct {
        enum slider_id id;
        const char *text;
        const char *in_message;
    } bad[] = {
        {SLIDER_CHIPS, "abc", "not a number"},      {SLIDER_CHIPS, "1.5", "not a whole number"},
        {SLIDER_CHIPS, "-3", "out of range"},        {SLIDER_CHIPS, "1e300", "out of range"},
        {SLIDER_BATCH, "", "nothing typed"},         {SLIDER_KV_HEADS, "7", "kv heads 7: kv heads must divide 32 heads: 1, 2, 4, 8, 16, 32"},
        {SLIDER_PRECISION, "fp16", "bf16, fp8"},     {SLIDER_CHIP, "tpu-v9z", "no chip 'tpu-v9z'"},
        {SLIDER_MODEL, "gpt-17", "no preset"},       {SLIDER_BUDGET, "soon", "not a time"},
        {SLIDER_BUDGET, "0", "out of range"},        {SLIDER_MFU, "150%", "out of range"},
        {SLIDER_MFU, "nan", "not a number"},         {SLIDER_CONTEXT, "inf", "not a number"},
        {SLIDER_DECODE, "0x10", "not a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        before = s;
        err[0] = '\0';
        assert_int_equal(slider_set_text(&s, bad[i].id, bad[i].text, err, sizeof err), -1);
        if (strstr(err, bad[i].in_message) == NULL)
            fail_msg("'%s' for %s gave '%s', want it to mention '%s'", bad[i].text, slider_name(bad[i].id), err,
                     bad[i].in_message);
        assert_memory_equal(&s, &before, sizeof s);
    }
}

/* Track positions stay in [0, 1] and setting a position snaps to a notch
 * that maps back to (nearly) the same position. */
static void test_fractions_round_trip(void **state)
{
    (void)state;
    for (int id = 0; id < SLIDER_COUNT; id++) {
        for (int k = 0; k <= 20; k++) {
            struct scenario s;
            scenario_default(&s);
            if (id == SLIDER_EP) /* the default model is dense: its ep knob cannot move */
                scenario_set_model(&s, model_find("deepseek-v3"));
            double f = k / 20.0;
            slider_set_fraction(&s, (enum slider_id)id, f);
            double back = slider_fraction(&s, (enum slider_id)id);
            assert_true(back >= 0.0 && back <= 1.0);
            if (fabs(back - f) > 0.2)
                fail_msg("%s: set %.2f, knob at %.2f", slider_name((enum slider_id)id), f, back);
        }
        struct scenario s;
        scenario_default(&s);
        slider_set_fraction(&s, (enum slider_id)id, NAN); /* treated as 0, no crash */
        slider_set_fraction(&s, (enum slider_id)id, -5.0);
        slider_set_fraction(&s, (enum slider_id)id, 5.0);
    }
}

/* The layout knobs: chips steps tp and keeps pp and ep; pp and ep multiply
 * the chips; a dense model's ep knob does not move and says why when typed;
 * a model change drops a layout the new model cannot take; the knob list
 * scrolls so that the selected knob is always drawn. */
static void test_layout_knobs(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chips = 8;
    assert_true(slider_step(&s, SLIDER_PP, 1, false));
    assert_int_equal(s.pp, 2);
    assert_int_equal(s.chips, 16); /* tp 8 x pp 2 */
    assert_true(slider_step(&s, SLIDER_CHIPS, 1, false));
    assert_int_equal(s.chips, 32); /* tp 16 x pp 2 */
    assert_int_equal(scenario_tp(&s), 16);
    assert_false(slider_step(&s, SLIDER_EP, 1, false));
    char err[160];
    assert_int_equal(slider_set_text(&s, SLIDER_EP, "4", err, sizeof err), -1);
    assert_non_null(strstr(err, "dense"));
    assert_string_equal(shown(&s, SLIDER_EP), "dense");
    assert_int_equal(slider_set_text(&s, SLIDER_CHIPS, "33", err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of pp 2"));
    scenario_set_model(&s, model_find("mixtral-8x7b"));
    assert_true(slider_step(&s, SLIDER_EP, 1, false));
    assert_int_equal(s.ep, 2);
    assert_int_equal(s.chips, 64); /* tp 16 x pp 2 x ep 2 */
    assert_int_equal(slider_set_text(&s, SLIDER_EP, "3", err, sizeof err), -1);
    assert_non_null(strstr(err, "does not divide the 8 experts"));
    /* What the knobs share with the command line is the core's check, in
     * the knobs' names: 8 expert groups need 8 sequences. */
    s.batch = 1;
    assert_int_equal(slider_set_text(&s, SLIDER_EP, "8", err, sizeof err), -1);
    assert_int_equal(s.ep, 2); /* refused: the scenario is as it was */
    if (!strstr(err, "batch 1") || strstr(err, "--"))
        fail_msg("not the core's check in knob names: %s", err);
    s.batch = 8;
    assert_int_equal(slider_set_text(&s, SLIDER_EP, "8", err, sizeof err), 0);
    assert_false(slider_step(&s, SLIDER_EP, 1, false)); /* 16 does not divide 8 */
    /* Back to a dense preset: ep drops to 1, tp and pp stay. */
    while (strcmp(s.model.name, "mistral-7b") != 0)
        assert_true(slider_step(&s, SLIDER_MODEL, -1, false));
    assert_int_equal(s.ep, 1);
    assert_int_equal(s.pp, 2);
    assert_int_equal(s.chips, 32);
    assert_int_equal(slider_first_visible(0, 12), 0);
    assert_int_equal(slider_first_visible(11, 12), 0);
    assert_int_equal(slider_first_visible(13, 12), 2);
    assert_int_equal(slider_first_visible(13, 20), 0);
    assert_int_equal(slider_first_visible(13, 1), 13);
}

/* Walks knob id of *s from its smallest value up, one fine step at a time,
 * while its knob is inside the track (fraction < 1, and the step reaching
 * 1); stores each notch's column on a track of w cells in cols[] and
 * returns the notch count. */
static int walk_columns(struct scenario *s, enum slider_id id, int w, int *cols, int max)
{
    while (slider_step(s, id, -1, true))
        ;
    int n = 0;
    cols[n++] = slider_thumb_column(slider_fraction(s, id), w);
    while (n < max && slider_fraction(s, id) < 1.0 && slider_step(s, id, 1, false))
        cols[n++] = slider_thumb_column(slider_fraction(s, id), w);
    return n;
}

/* The thumb moves on every step: on a track of w cells, a knob of n <= w
 * notches changes column at every step; one of more notches than cells
 * changes column at least every ceil((n - 1) / (w - 1)) steps, and never
 * goes back. Chips 16 and 64 sit on different columns of the 80x24 track
 * (7 cells) and the 120x40 one. */
static void test_thumb_moves_on_every_step(void **state)
{
    (void)state;
    static const int widths[] = {7, 12, 19, 40};
    const struct model_shape *moe = NULL;
    for (size_t i = 0; i < model_builtin_count() && !moe; i++)
        if (model_builtin(i)->experts > 1)
            moe = model_builtin(i);
    assert_non_null(moe);
    for (int id = 0; id < SLIDER_COUNT; id++) {
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            int w = widths[k], cols[256];
            struct scenario s;
            scenario_default(&s);
            if (id == SLIDER_EP)
                scenario_set_model(&s, moe);
            int n = walk_columns(&s, (enum slider_id)id, w, cols, 256);
            if (n < 2 || cols[0] != 0)
                fail_msg("%s: %d notches, the smallest on column %d", slider_name((enum slider_id)id), n, cols[0]);
            int most = n <= w ? 1 : (n - 1 + w - 2) / (w - 1); /* ceil((n - 1) / (w - 1)) */
            int run = 1;
            for (int j = 1; j < n; j++) {
                if (cols[j] < cols[j - 1])
                    fail_msg("%s: the thumb went back at step %d (w %d)", slider_name((enum slider_id)id), j, w);
                run = cols[j] == cols[j - 1] ? run + 1 : 1;
                if (run > most)
                    fail_msg("%s: %d notches on %d cells, the thumb stayed on column %d for %d steps (at most %d)",
                             slider_name((enum slider_id)id), n, w, cols[j], run, most);
            }
        }
    }
    /* The newcomer's case: chips 16 and 64. */
    struct scenario a, b;
    scenario_default(&a);
    scenario_default(&b);
    a.chips = 16;
    b.chips = 64;
    /* 17 notches (1 to 65536) on 7 cells may share a column for up to 3
     * steps, and 16 -> 64 is two: they must differ at 19 cells and more. */
    for (int w = 19; w <= 60; w++)
        assert_true(slider_thumb_column(slider_fraction(&a, SLIDER_CHIPS), w) !=
                    slider_thumb_column(slider_fraction(&b, SLIDER_CHIPS), w));
    /* 0 and 1 prompt tokens, and pipeline 64 and 80 on an 80-layer model, are different notches. */
    a.prefill_tokens = 0;
    b.prefill_tokens = 1;
    assert_true(slider_fraction(&a, SLIDER_PREFILL) < slider_fraction(&b, SLIDER_PREFILL));
    a.pp = 64;
    b.pp = 80;
    assert_int_equal(a.model.layers, 80);
    assert_true(slider_fraction(&a, SLIDER_PP) < slider_fraction(&b, SLIDER_PP));
    assert_int_equal(slider_thumb_column(1.0, 7), 6);
    assert_int_equal(slider_thumb_column(-1.0, 7), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_names),
        cmocka_unit_test(test_powers_of_two),
        cmocka_unit_test(test_kv_heads_divisors),
        cmocka_unit_test(test_precision_list),
        cmocka_unit_test(test_act_precision_knob),
        cmocka_unit_test(test_inert_knobs),
        cmocka_unit_test(test_messages_in_knob_names),
        cmocka_unit_test(test_kv_precision_and_reserve),
        cmocka_unit_test(test_model_list),
        cmocka_unit_test(test_chip_change_clears_overrides),
        cmocka_unit_test(test_times_and_mfu),
        cmocka_unit_test(test_typed_values),
        cmocka_unit_test(test_fractions_round_trip),
        cmocka_unit_test(test_layout_knobs),
        cmocka_unit_test(test_thumb_moves_on_every_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
