/* test_tui_ui.c — the explorer driven key by key without a terminal: the
 * guide's MISS -> OK as chips go 16 -> 64, refused values, undo, reset, help,
 * quitting, the mouse, and a fuzz of random keys and sizes that must never
 * crash or show NaN. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "panels.h"
#include "ui.h"

static struct ui *u;
static struct grid g;

/* Allocates the ui once per test on the default scenario with --chips 16,
 * the napkin giving the verdict. */
static int setup(void **state)
{
    (void)state;
    u = malloc(sizeof *u);
    struct scenario s;
    guide_napkin(&s); /* the guide's story, told with its napkin */
    s.chips = 16;
    char err[256];
    if (!u || ui_init(u, &s, false, 80, 24, err, sizeof err) != 0)
        return -1;
    return grid_init(&g, 0, 0);
}

static int teardown(void **state)
{
    (void)state;
    ui_free(u);
    free(u);
    grid_free(&g);
    return 0;
}

/* The current frame as text. */
static const char *frame(void)
{
    static char text[1 << 18];
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    return text;
}

/* Sends each character of keys; returns the OR of the results. */
static unsigned type(const char *keys)
{
    unsigned f = 0;
    for (const char *p = keys; *p; p++)
        f |= ui_key(u, *p == '\n' ? UI_KEY_ENTER : (unsigned char)*p);
    return f;
}

/* The memory panel's cost line at 120x40: dollars per million output
 * tokens and joules per token from a stated price and power, worked from
 * the panel's own serving throughput: $2/chip-hour at t tokens/s/chip is
 * 2 / 3600 / t x 1e6 dollars per million; 400 W at PUE 1 is 400 / t J. */
/* Issue 21 item 3: stepping the batch up while decode nears its ceiling
 * (52 FLOP/byte at 8192 tokens on the guide's 70B) under the ridge (241 on a
 * TPU v5e) says so on the status line, at 80 columns in its short form;
 * below half the ceiling nothing is said. */
static void test_batch_up_names_the_decode_ceiling(void **state)
{
    (void)state;
    u->selected = SLIDER_BATCH;
    ui_key(u, UI_KEY_RIGHT); /* batch 1 -> 2: far from the ceiling */
    assert_null(strstr(u->message, "tops out"));
    while (u->scenario.batch < 64)
        ui_key(u, UI_KEY_RIGHT);
    assert_string_equal(u->message, "decode AI tops out at 52, below the ridge (241): KV grows with the batch");
    ui_resize(u, 160, 40);
    ui_key(u, UI_KEY_RIGHT);
    assert_string_equal(u->message, "decode AI tops out at 52 FLOP/B, below the ridge (241): each request reads its own "
                                    "KV; cut context, KV heads or KV precision");
    const char *f = frame();
    if (!strstr(f, "(max 52); ridge 241"))
        fail_msg("no ceiling on the memory panel:\n%s", f);
}

/* Issue 21 item 5: a design the search accepts under TTFT <= 0.5 s and TPOT
 * <= 50 ms, loaded from the Pareto view with Enter, reads the targets'
 * verdict (OK) in the title and the latency panel; the 1 s turn budget's
 * MISS comes second. At 80 x 24 and 120 x 40. */
static void test_targets_lead_the_verdict(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    s.ttft_target_s = 0.5;
    s.tpot_target_s = 0.05;
    char err[256];
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 80, 24, err, sizeof err), 0);
    ui_key(u, 'p');
    assert_int_equal(u->mode, UI_MODE_PARETO);
    assert_true(u->pareto_n > 0);
    ui_key(u, UI_KEY_ENTER);
    assert_true(u->analysis.serving.targets_set);
    assert_true(u->analysis.serving.ok);
    ui_key(u, 'p'); /* close the Pareto view: the explorer's own frame */
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    const char *f = frame();
    const char *title_end = strchr(f, '\n');
    const char *ok = strstr(f, "OK TTFT ");
    if (!ok || ok > title_end)
        fail_msg("the title does not lead with the targets' OK:\n%s", f);
    assert_non_null(strstr(f, "Serving targets  met"));
    assert_null(strstr(f, "Latency  total")); /* the turn is second, in one line */
    ui_resize(u, 120, 40);
    f = frame();
    assert_non_null(strstr(f, u->analysis.latency.ok ? "; turn OK " : "; turn MISS "));
    assert_non_null(strstr(f, "(the targets decide)"));
}

/* A serving MISS whose TTFT and TPOT rows both read met says what fails (a newcomer planning
 * DeepSeek-V3 on one H200 read "MISS TTFT 1.153 s <= 2.000 s, TPOT 23.7 ms <= 50.0 ms" with no
 * reason): the weights, 671B of them, do not fit one 141 GB chip. At 120 x 40. */
static void test_targets_miss_says_why(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h200");
    scenario_set_model(&s, model_find("deepseek-v3"));
    s.ttft_target_s = 2.0;
    s.tpot_target_s = 0.05;
    char err[256];
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 120, 40, err, sizeof err), 0);
    assert_true(u->analysis.serving.ttft_ok && u->analysis.serving.tpot_ok);
    assert_false(u->analysis.serving.ok);
    assert_string_equal(serving_blocker(&u->analysis), "weights do not fit");
    const char *f = frame();
    const char *title_end = strchr(f, '\n');
    const char *miss = strstr(f, "MISS weights do not fit: TTFT ");
    if (!miss || miss > title_end)
        fail_msg("the title's MISS does not say why:\n%s", f);
    assert_non_null(strstr(f, "Serving targets  missed: weights do not fit"));
    /* On enough chips for the weights (671 GB at fp8 on 8 x 141 GB) the reason goes. */
    s.chips = 8;
    s.precision = RT_FP8;
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 120, 40, err, sizeof err), 0);
    assert_null(serving_blocker(&u->analysis));
    assert_null(strstr(frame(), "weights do not fit"));
}

/* In the tour, q quits only while nothing is typed (as n and p step only then): a half-typed
 * guess is not lost to a stray q. */
static void test_tour_q_types_into_a_begun_guess(void **state)
{
    (void)state;
    ui_key(u, 'T');
    assert_int_equal(u->mode, UI_MODE_TOUR);
    ui_key(u, '3');
    assert_int_equal(ui_key(u, 'q') & UI_QUIT, 0);
    assert_string_equal(u->tour_guess, "3q");
    assert_int_equal(u->mode, UI_MODE_TOUR);
    ui_key(u, 21); /* Ctrl-U clears */
    assert_string_equal(u->tour_guess, "");
    ui_key(u, '5'); /* Esc clears a begun guess and stays; a second Esc leaves */
    ui_key(u, UI_KEY_ESC);
    assert_string_equal(u->tour_guess, "");
    assert_int_equal(u->mode, UI_MODE_TOUR);
    ui_key(u, UI_KEY_ESC);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    ui_key(u, 'T');
    assert_int_equal(ui_key(u, 'q') & UI_QUIT, UI_QUIT);
}

/* The Pareto view keeps --search's limits from the line: with --precision given it tries the
 * scenario's precision alone (a planner's B200 fp8 view had counted nvfp4 designs too). */
static void test_pareto_keeps_the_lines_precision(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    s.precision = RT_FP8;
    s.ttft_target_s = 1.0;
    s.tpot_target_s = 0.05;
    char err[256];
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 120, 40, err, sizeof err), 0);
    u->pareto_one_precision = true; /* what the explorer sets from --precision */
    ui_key(u, 'p');
    assert_int_equal(u->mode, UI_MODE_PARETO);
    assert_true(u->pareto.count > 0);
    for (size_t i = 0; i < u->pareto.count; i++)
        assert_int_equal(u->pareto.candidates[i].precision, RT_FP8);
    ui_key(u, 'p');
    u->pareto_one_precision = false; /* without it, every precision the chip runs */
    ui_key(u, 'p');
    bool other = false;
    for (size_t i = 0; i < u->pareto.count; i++)
        other |= u->pareto.candidates[i].precision != RT_FP8;
    assert_true(other);
}

static void test_cost_line(void **state)
{
    (void)state;
    struct scenario s = u->scenario;
    s.price_usd_per_chip_hour = 2.0;
    s.power_w = 400.0;
    char err[256];
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 120, 40, err, sizeof err), 0);
    double t = u->analysis.serving.tokens_per_s_per_chip;
    assert_true(t > 0.0);
    char want[160];
    snprintf(want, sizeof want, "$%.3g/M tok; %.3g J/token, ", 2.0 / 3600.0 / t * 1e6, 400.0 / t);
    assert_non_null(strstr(frame(), want)); /* the panel's middle form at this width */
    /* Without a price or a power figure the line says so; no $0. */
    s.price_usd_per_chip_hour = 0.0;
    s.power_w = 0.0;
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 120, 40, err, sizeof err), 0);
    assert_non_null(strstr(frame(), " per M output tokens; no power figure")); /* v5e: a listed price, no TDP */
    assert_null(strstr(frame(), "$0 "));
}

/* With the operations on the plot (o), the presentation view names their
 * letters where the marker key was: nothing on the projector is unexplained. */
static void test_present_names_the_operation_letters(void **state)
{
    (void)state;
    ui_key(u, 'o');
    ui_key(u, 'P');
    assert_int_equal(u->mode, UI_MODE_PRESENT);
    const char *t = frame();
    assert_non_null(strstr(t, "a qkv proj  b attn score  c softmax"));
    assert_null(strstr(t, "a phase on its roof"));
    ui_key(u, 'P');
    ui_key(u, 'o'); /* the next phase ... */
    ui_key(u, 'o');
    ui_key(u, 'o'); /* ... and off */
    ui_key(u, 'P');
    assert_non_null(strstr(frame(), "a phase on its roof"));
}

/* The guide's sweep: chips 16 -> 32 -> 64 turns MISS (1.981 s) into OK (0.683 s). */
static void test_chips_16_to_64_turns_miss_into_ok(void **state)
{
    (void)state;
    assert_int_equal(u->selected, SLIDER_BATCH); /* the first slider is selected at start */
    const char *t = frame();
    assert_non_null(strstr(t, "1.981 s"));
    assert_non_null(strstr(t, "MISS"));
    for (int i = 0; i < SLIDER_CHIPS; i++)
        assert_true(ui_key(u, UI_KEY_DOWN) & UI_REDRAW);
    assert_int_equal(u->selected, SLIDER_CHIPS);
    ui_key(u, UI_KEY_RIGHT);
    assert_int_equal(u->scenario.chips, 32);
    ui_key(u, UI_KEY_RIGHT);
    assert_int_equal(u->scenario.chips, 64);
    t = frame();
    assert_non_null(strstr(t, "0.683 s"));
    assert_non_null(strstr(t, "OK 0.683 s napkin"));
    { /* the title says the realistic estimate disagrees (its figure read, not pinned: it moves with the fits) */
        struct scenario s64;
        scenario_default(&s64);
        s64.chips = 64;
        struct analysis a64 = must_analyze(&s64);
        char want[64], tt[24];
        snprintf(want, sizeof want, "MISS %s realistic?", format_turn_seconds(tt, sizeof tt, a64.realistic.total_s));
        assert_non_null(strstr(t, want));
    }
    assert_true(u->analysis.latency.ok);
    assert_int_equal(u->analysis.latency.chips_for_budget, 64);
}

/* b pins the scenario as a baseline; a knob step then shows the baseline's
 * total and the change in the latency panel; b again clears it. */
static void test_baseline_pin_step_clear(void **state)
{
    (void)state;
    assert_false(u->has_baseline);
    assert_null(strstr(frame(), "baseline 1.981 s"));
    assert_true(ui_key(u, 'b') & UI_REDRAW);
    assert_true(u->has_baseline);
    assert_int_equal(u->baseline.chips, 16);
    assert_non_null(strstr(frame(), "baseline pinned"));
    assert_null(strstr(frame(), "+0.000 s")); /* nothing has changed yet: the title says so plainly */
    assert_non_null(strstr(frame(), "= "));
    for (int i = 0; i < SLIDER_CHIPS; i++)
        ui_key(u, UI_KEY_DOWN);
    ui_key(u, UI_KEY_RIGHT);
    assert_int_equal(u->scenario.chips, 32);
    const char *t = frame();
    char want[128];
    snprintf(want, sizeof want, "baseline 1.981 s  \xce\x94 %+.3f s", u->analysis.latency.total_s - u->baseline_analysis.latency.total_s);
    assert_non_null(strstr(t, want)); /* the latency panel: the baseline's total and the change */
    assert_true(u->analysis.latency.total_s < u->baseline_analysis.latency.total_s);
    assert_true(ui_key(u, 'b') & UI_REDRAW);
    assert_false(u->has_baseline);
    t = frame();
    assert_non_null(strstr(t, "baseline cleared"));
    assert_null(strstr(t, "baseline 1.981 s"));
    assert_null(strstr(t, "\xce\x94"));
}

/* Measured kernels are placed on the scenario's roof when it changes, not
 * per frame: stepping the chip knob from tpu-v5e moves their roof. A
 * 1.1 TFLOP, 0.4 GB kernel (2750 FLOP/byte, compute-bound on every chip
 * here) has the chip's bf16 peak as its roof. */
static void test_points_follow_the_chip(void **state)
{
    (void)state;
    static const struct measured_point pts[] = {{.label = "gemm", .flops = 1.1e12, .bytes = 4e8, .seconds = 0.01}};
    ui_set_points(u, pts, 1, NULL);
    assert_int_equal(u->placed_count, 1);
    ASSERT_NEAR(u->placed[0].at.roof_flops_per_s, 197e12, 0);
    u->selected = SLIDER_CHIP;
    ui_key(u, UI_KEY_RIGHT);
    assert_true(strcmp(u->scenario.chip.key, "tpu-v5e") != 0);
    ASSERT_NEAR(u->placed[0].at.roof_flops_per_s, u->analysis.peak_flops_per_s, 0);
    assert_true(u->placed[0].at.roof_flops_per_s != 197e12);
    assert_non_null(strstr(frame(), "gemm"));
}

/* R draws every precision's roof the chip has, and the vector unit's, each
 * named (with its peak where there is room: not at 80x24); R again hides
 * them. An H100: bf16 989.4, fp8 and int8 1978.9 TFLOP/s, vector 67 (the
 * default scenario's chip is a TPU). */
static void test_every_precision_roof(void **state)
{
    (void)state;
    u->selected = SLIDER_CHIP;
    type("=h100\n");
    assert_string_equal(u->scenario.chip.key, "h100");
    assert_null(strstr(frame(), " fp8 "));
    int vectors = 0; /* the MFU panel names the vector unit too */
    for (const char *p = frame(); (p = strstr(p, "vector")) != NULL; p++)
        vectors++;
    ui_key(u, 'R');
    assert_true(u->all_roofs);
    const char *f = frame();
    int after = 0;
    for (const char *p = f; (p = strstr(p, "vector")) != NULL; p++)
        after++;
    if (!strstr(f, " fp8 ") || after != vectors + 2) /* the roof's label and the status line */
        fail_msg("R did not draw the fp8 and vector roofs:\n%s", f);
    assert_non_null(strstr(f, "every precision's roof shown"));
    ui_key(u, 'R');
    assert_false(u->all_roofs);
    assert_null(strstr(frame(), " fp8 "));
}

/* A chip typed as a file's path stays in the chip knob: stepping away and
 * back returns to it, not to the list's far end (issue 21 item 9). */
static void test_file_chip_stays_in_the_knob(void **state)
{
    (void)state;
    const char *path = "build/tests/knob-chip.json";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"key\": \"knob-chip\", \"name\": \"Knob chip\", \"peak_flops_per_s\": {\"bf16\": 500e12}, "
          "\"hbm_bytes\": 80e9, \"hbm_bytes_per_s\": 2e12}\n",
          f);
    fclose(f);
    u->selected = SLIDER_CHIP;
    char typed[128];
    snprintf(typed, sizeof typed, "=./%s\n", path);
    type(typed);
    assert_string_equal(u->scenario.chip.key, "knob-chip");
    ui_key(u, UI_KEY_LEFT);
    char left[32];
    snprintf(left, sizeof left, "%s", u->scenario.chip.key);
    assert_string_not_equal(left, "knob-chip");
    ui_key(u, UI_KEY_RIGHT);
    assert_string_equal(u->scenario.chip.key, "knob-chip");
    remove(path);
}

/* Issue 21 item 9, models: a model typed as a config's path keeps its
 * place in the model knob, by size among the presets: a step away and a
 * step back return to it, in both directions, without u. */
static void test_file_model_stays_in_the_knob(void **state)
{
    (void)state;
    u->selected = SLIDER_MODEL;
    type("=./tests/fixtures/hf/gemma-2-9b\n");
    assert_false(u->message_is_error);
    char name[64];
    snprintf(name, sizeof name, "%s", u->scenario.model.name);
    assert_null(model_find(name)); /* not a preset */
    for (int dir = -1; dir <= 1; dir += 2) {
        ui_key(u, dir < 0 ? UI_KEY_LEFT : UI_KEY_RIGHT);
        assert_string_not_equal(u->scenario.model.name, name);
        ui_key(u, dir < 0 ? UI_KEY_RIGHT : UI_KEY_LEFT);
        assert_string_equal(u->scenario.model.name, name);
        assert_false(u->scenario.params > 0.0);
    }
    /* Two steps away and two back, through a preset. */
    ui_key(u, UI_KEY_RIGHT);
    ui_key(u, UI_KEY_RIGHT);
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    assert_string_equal(u->scenario.model.name, name);
}

/* The MFU knob reads one rule: a bare number is a fraction (as --mfu), a
 * percent carries its sign; 1.0001 is refused rather than read as 1%, and
 * what is taken is echoed with its unit. */
static void test_mfu_fraction_or_percent(void **state)
{
    (void)state;
    u->selected = SLIDER_MFU;
    type("=0.4\n");
    ASSERT_NEAR(u->scenario.mfu, 0.4, 1e-12);
    assert_non_null(strstr(frame(), "set to 40%"));
    type("=37.5%\n");
    ASSERT_NEAR(u->scenario.mfu, 0.375, 1e-12);
    assert_non_null(strstr(frame(), "set to 37.5%"));
    type("=1.0001\n");
    ASSERT_NEAR(u->scenario.mfu, 0.375, 1e-12);
    assert_true(u->message_is_error);
    assert_non_null(strstr(frame(), "more than 1"));
}

/* A typed value that is not valid is refused, the old value stays and the
 * status line says why; a valid one is taken. */
static void test_typed_values(void **state)
{
    (void)state;
    u->selected = SLIDER_CHIPS;
    type("=abc\n");
    assert_int_equal(u->scenario.chips, 16);
    assert_true(u->message_is_error);
    assert_non_null(strstr(frame(), "not a number"));
    type("=64\n");
    assert_int_equal(u->scenario.chips, 64);
    assert_false(u->message_is_error);
    /* Backspace and Esc while typing. */
    type("=12");
    ui_key(u, UI_KEY_BACKSPACE);
    assert_string_equal(u->edit, "1");
    assert_non_null(strstr(frame(), "chips = 1_"));
    ui_key(u, UI_KEY_ESC);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_int_equal(u->scenario.chips, 64);
}

/* analyze() refuses a budget at or below the overhead: the scenario stays. */
static void test_refused_by_analyze(void **state)
{
    (void)state;
    u->selected = SLIDER_BUDGET;
    type("=0.2\n");
    assert_true(u->scenario.budget_s == 1.0);
    assert_true(u->message_is_error);
    assert_non_null(strstr(u->message, "overhead"));
    /* Stepping down the budget: 1 -> 0.5 -> 0.2 (refused) */
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    assert_true(u->scenario.budget_s == 0.5);
    assert_true(u->message_is_error);
    ui_key(u, UI_KEY_UP); /* the next key clears the message */
    assert_string_equal(u->message, "");
}

/* A path typed into the chip or model knob is read as --chip PATH and
 * --model PATH read it; a name that matches nothing gets suggestions. */
static void test_typed_paths_and_suggestions(void **state)
{
    (void)state;
    u->selected = SLIDER_CHIP;
    type("=tests/fixtures/chips/lab-chip.json\n");
    assert_false(u->message_is_error);
    assert_string_equal(u->message, "chip set to lab-chip from tests/fixtures/chips/lab-chip.json");
    assert_string_equal(u->scenario.chip.key, "lab-chip");
    assert_true(u->scenario.chip.peak_flops_per_s[RT_BF16] == 400e12);
    type("=tests/fixtures/chips/absent.json\n");
    assert_true(u->message_is_error);
    assert_non_null(strstr(u->message, "tests/fixtures/chips/absent.json: "));
    assert_string_equal(u->scenario.chip.key, "lab-chip");
    type("=h10\n");
    assert_true(u->message_is_error);
    assert_string_equal(u->message, "chip: no chip 'h10'; did you mean h100, h20, h200, h800? (or a chip file's path)");
    u->selected = SLIDER_MODEL;
    type("=tests/fixtures/hf/llama-3.1-8b\n");
    assert_false(u->message_is_error);
    assert_string_equal(u->message, "model set to llama-3.1-8b from tests/fixtures/hf/llama-3.1-8b");
    assert_string_equal(u->scenario.model.name, "llama-3.1-8b");
    assert_int_equal(u->scenario.model.layers, 32);
    type("=lama-3.1-70b\n");
    assert_true(u->message_is_error);
    assert_string_equal(u->message, "model: no preset 'lama-3.1-70b'; did you mean llama-3.1-70b? (or a size like 35B, "
                                    "or a config.json's path)");
}

/* The core's refusals name the explorer's knobs, not the command line's
 * flags (which the same messages name on the command line). */
static void test_messages_name_the_knobs(void **state)
{
    (void)state;
    u->selected = SLIDER_BUDGET;
    type("=0.2\n");
    assert_string_equal(u->message, "budget 0.2 s must exceed the overhead of 0.25 s: no hardware can meet it");
    u->selected = SLIDER_DECODE;
    type("=0\n");
    ui_key(u, 'p');
    assert_true(u->message_is_error);
    assert_string_equal(u->message, "the design search (p) needs decode above 0: designs are ranked by the output "
                                    "tokens they serve");
    u->selected = SLIDER_KV_HEADS;
    type("=7\n");
    assert_string_equal(u->message, "kv heads 7: kv heads must divide 64 heads: 1, 2, 4, 8, 16, 32, 64");
}

/* The kv-heads knob of a model with latent attention says why it does nothing. */
static void test_kv_heads_knob_under_mla(void **state)
{
    (void)state;
    u->selected = SLIDER_MODEL;
    type("=deepseek-v3\n");
    assert_string_equal(u->scenario.model.name, "deepseek-v3");
    u->selected = SLIDER_KV_HEADS;
    assert_non_null(strstr(frame(), "latent (MLA)"));
    const char *why = "kv heads: deepseek-v3 uses latent attention (MLA): each layer caches one compressed latent "
                      "per token, not kv heads, so this knob changes nothing";
    ui_key(u, UI_KEY_RIGHT);
    assert_string_equal(u->message, why);
    assert_false(u->message_is_error);
    type("=8\n");
    assert_string_equal(u->message, why);
    assert_true(u->message_is_error);
}

/* The kv-precision and reserve knobs step through what --kv-precision and
 * --reserve take, and the analysis follows. */
static void test_kv_precision_and_reserve_knobs(void **state)
{
    (void)state;
    double kv = u->analysis.memory.kv_cache_bytes_per_request;
    u->selected = SLIDER_KV_PRECISION;
    ui_key(u, UI_KEY_RIGHT);
    assert_int_equal(u->scenario.kv_precision, RT_FP8);
    ASSERT_NEAR(u->analysis.memory.kv_cache_bytes_per_request, kv / 2.0, 1.0);
    u->selected = SLIDER_RESERVE;
    ui_key(u, UI_KEY_RIGHT);
    assert_true(u->scenario.reserve_bytes == 1e9);
    ui_key(u, UI_KEY_RIGHT);
    assert_true(u->scenario.reserve_bytes == 2e9);
    type("=16GiB\n");
    assert_true(u->scenario.reserve_bytes == 16.0 * 1024 * 1024 * 1024);
    assert_non_null(strstr(frame(), "reserve"));
}

/* A prompt longer than the context puts a warning in the status line
 * while it lasts. */
static void test_prompt_longer_than_the_context_warns(void **state)
{
    (void)state;
    const char *warn = "prompt 8192 > context 4096 tokens: KV and decode undercounted; raise context";
    assert_null(strstr(frame(), "undercounted"));
    u->selected = SLIDER_CONTEXT;
    type("=4096\n");
    assert_true(u->analysis.prompt_exceeds_context);
    ui_key(u, UI_KEY_UP); /* clears the "set to" message */
    assert_non_null(strstr(frame(), warn));
    u->selected = SLIDER_CONTEXT;
    ui_key(u, UI_KEY_RIGHT);
    ui_key(u, UI_KEY_UP);
    assert_null(strstr(frame(), "undercounted"));
}

/* Undo walks back, reset returns to the start (and can be undone). */
static void test_undo_and_reset(void **state)
{
    (void)state;
    assert_true(ui_key(u, 'u') & UI_REDRAW);
    assert_non_null(strstr(u->message, "nothing to undo"));
    u->selected = SLIDER_BATCH;
    ui_key(u, 'l');
    ui_key(u, 'l');
    assert_int_equal(u->scenario.batch, 4);
    ui_key(u, 'u');
    assert_int_equal(u->scenario.batch, 2);
    ui_key(u, 'L');
    assert_int_equal(u->scenario.batch, 8);
    ui_key(u, 'r');
    assert_int_equal(u->scenario.batch, 1);
    ui_key(u, 'u');
    assert_int_equal(u->scenario.batch, 8);
    for (int i = 0; i < 200; i++) /* more changes than the ring holds */
        ui_key(u, i % 2 ? 'l' : 'h');
    for (int i = 0; i < 200; i++)
        ui_key(u, 'u');
    assert_non_null(strstr(u->message, "nothing to undo"));
}

/* Help opens with ?, any key closes it; q and Esc quit; Ctrl-L repaints. */
static void test_help_quit_repaint(void **state)
{
    (void)state;
    ui_key(u, '?');
    assert_int_equal(u->mode, UI_MODE_HELP);
    assert_non_null(strstr(frame(), "rooftop keys"));
    /* At 80x24 the help does not fit: its edge says so, and the arrows
     * scroll to the last line (the key that quits) without closing it. */
    const char *t = frame();
    assert_non_null(strstr(t, "\xe2\x86\x93 more: "));
    assert_null(strstr(t, "quit (Esc only closes or cancels)"));
    for (int i = 0; i < 20; i++)
        assert_int_equal(ui_key(u, UI_KEY_DOWN), UI_REDRAW);
    assert_int_equal(u->mode, UI_MODE_HELP);
    t = frame();
    assert_non_null(strstr(t, "quit (Esc only closes or cancels)"));
    assert_non_null(strstr(t, "kernels not measured on this chip (borrowed)"));
    assert_non_null(strstr(t, "\xe2\x86\x91 more: ")); /* only the lines above are hidden now */
    assert_int_equal(u->help_scroll, u->help_max_scroll);
    assert_true(u->help_max_scroll > 0);
    ui_key(u, UI_KEY_HOME);
    assert_int_equal(u->help_scroll, 0);
    assert_int_equal(ui_key(u, 'q') & UI_QUIT, 0); /* q closes the help first */
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_true(ui_key(u, 12) & UI_REPAINT);
    assert_true(ui_key(u, 'q') & UI_QUIT);
    /* Esc never quits: in the main view it says which key does. */
    assert_int_equal(ui_key(u, UI_KEY_ESC), UI_REDRAW);
    assert_string_equal(u->message, "q quits");
    assert_int_equal(ui_key(u, 0x1F600), 0); /* unknown keys do nothing */
    /* m cycles the verdict: napkin -> floor -> realistic -> napkin. */
    assert_int_equal(u->scenario.latency_model, RT_LATENCY_NAPKIN);
    ui_key(u, 'm');
    assert_int_equal(u->scenario.latency_model, RT_LATENCY_DETAILED);
    assert_int_equal(u->analysis.latency_model, RT_LATENCY_DETAILED);
    ui_key(u, 'm');
    assert_int_equal(u->scenario.latency_model, RT_LATENCY_REALISTIC);
    assert_non_null(strstr(frame(), "realistic"));
    ui_key(u, 'm');
    assert_int_equal(u->scenario.latency_model, RT_LATENCY_NAPKIN);
    /* t is for the terminal layer, which owns themes. s asks where to save,
     * offering the last path; Enter hands the save to the terminal layer,
     * Esc cancels, an empty path is refused. */
    assert_true(ui_key(u, 't') & UI_NEXT_THEME);
    assert_true(ui_key(u, 't') & UI_REPAINT);
    assert_int_equal(ui_key(u, 's') & UI_SAVE, 0);
    assert_int_equal(u->mode, UI_MODE_EDIT);
    assert_non_null(strstr(frame(), "save to: scenario.json"));
    ui_key(u, 21); /* Ctrl-U */
    const char *path = "tests/fixtures/no-such-dir/x.json";
    for (const char *c = path; *c; c++)
        ui_key(u, *c);
    assert_true(ui_key(u, UI_KEY_ENTER) & UI_SAVE);
    assert_string_equal(u->save_path, "tests/fixtures/no-such-dir/x.json");
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    ui_key(u, 's');
    assert_string_equal(u->edit, "tests/fixtures/no-such-dir/x.json");
    assert_int_equal(ui_key(u, UI_KEY_ESC) & UI_SAVE, 0);
    ui_key(u, 's');
    ui_key(u, 21);
    assert_int_equal(ui_key(u, UI_KEY_ENTER) & UI_SAVE, 0);
    assert_non_null(strstr(u->message, "not saved"));
    ui_set_message(u, true, "disk full");
    assert_non_null(strstr(frame(), "disk full"));
    /* An error wider than the screen keeps what (its start) and why (its end). */
    ui_set_message(u, true, "/a/very/long/path/to/some/folder/that/goes/on/and/on/scenario.json: not written: "
                            "cannot create a temporary file beside it (No such file or directory)");
    const char *f = frame();
    assert_non_null(strstr(f, "/a/very/long/path"));
    assert_non_null(strstr(f, "(No such file or directory)"));
}

/* Too small: the larger-terminal screen, keys still answered, q quits. */
static void test_too_small(void **state)
{
    (void)state;
    ui_resize(u, 40, 10);
    const char *t = frame();
    assert_non_null(strstr(t, "80x24"));
    assert_non_null(strstr(t, "Make it larger"));
    assert_non_null(strstr(t, "40x10"));
    assert_true(ui_key(u, 'j') & UI_REDRAW);
    assert_int_equal(ui_key(u, UI_KEY_ESC) & UI_QUIT, 0); /* Esc never quits */
    assert_true(ui_key(u, 'q') & UI_QUIT);
    ui_resize(u, 80, 24);
    assert_non_null(strstr(frame(), "Knobs"));
}

/* Mouse: a click on a slider row selects it; a click on its track sets it;
 * dragging moves it; wheel steps it. */
static void test_mouse(void **state)
{
    (void)state;
    struct rect r = u->layout.sliders;
    assert_true(ui_mouse(u, UI_MOUSE_PRESS, r.x + 2, r.y + 1 + SLIDER_CHIPS) & UI_REDRAW);
    ui_mouse(u, UI_MOUSE_RELEASE, r.x + 2, r.y + 1 + SLIDER_CHIPS);
    assert_int_equal(u->selected, SLIDER_CHIPS);
    assert_int_equal(u->scenario.chips, 16);
    int tx, tw;
    slider_track_geometry(r.w, &tx, &tw);
    ui_mouse(u, UI_MOUSE_PRESS, r.x + tx + tw - 1, r.y + 1 + SLIDER_PRECISION);
    assert_int_equal(u->selected, SLIDER_PRECISION);
    assert_int_equal(u->scenario.precision, RT_INT4);
    ui_mouse(u, UI_MOUSE_DRAG, r.x + tx, r.y + 5);
    assert_int_equal(u->scenario.precision, RT_BF16);
    ui_mouse(u, UI_MOUSE_RELEASE, r.x + tx, r.y + 5);
    ui_mouse(u, UI_MOUSE_DRAG, r.x + tx + tw - 1, r.y + 5); /* not dragging any more */
    assert_int_equal(u->scenario.precision, RT_BF16);
    ui_mouse(u, UI_MOUSE_WHEEL_UP, r.x + 2, r.y + 1 + SLIDER_CHIPS);
    assert_int_equal(u->scenario.chips, 32);
    assert_int_equal(ui_mouse(u, UI_MOUSE_PRESS, 0, 0), 0); /* outside the sliders */
}

/* The comparison roof cycles through chips other than the current one. */
static void test_compare_cycle(void **state)
{
    (void)state;
    ui_key(u, 'c');
    assert_true(u->compare_chip >= 0);
    assert_true(u->has_compare);
    assert_string_not_equal(u->chips.items[u->compare_chip].key, u->scenario.chip.key);
    assert_non_null(strstr(frame(), "ridge"));
    for (size_t i = 0; i < chip_builtin_count() + 2; i++)
        ui_key(u, 'c');
    ui_key(u, 'C');
    ui_key(u, 'C');
    frame();
}

/* The user's chip files join the chip knob, typing and the comparison
 * overlay when the explorer is given the whole chip set. */
static void test_user_chips_reach_the_explorer(void **state)
{
    (void)state;
    static struct chip_spec set[64];
    size_t n = chip_builtin_count();
    for (size_t i = 0; i < n; i++)
        set[i] = *chip_builtin(i);
    set[n] = *chip_find("h100");
    snprintf(set[n].key, sizeof set[n].key, "lab-chip");
    snprintf(set[n].name, sizeof set[n].name, "Lab Chip");
    set[n].peak_flops_per_s[RT_BF16] = 400e12;
    struct chip_list chips = {set, n + 1};
    ui_set_chips(u, chips);
    /* Type its name into the chip knob. */
    u->selected = SLIDER_CHIP;
    ui_key(u, '=');
    for (const char *c = "Lab Chip"; *c; c++)
        ui_key(u, *c);
    ui_key(u, UI_KEY_ENTER);
    assert_string_equal(u->scenario.chip.key, "lab-chip");
    ASSERT_NEAR(u->analysis.peak_flops_per_s, 400e12, 0);
    /* Step down to a built-in and up again: the last notch is the file's chip. */
    ui_key(u, UI_KEY_LEFT);
    assert_string_not_equal(u->scenario.chip.key, "lab-chip");
    ui_key(u, UI_KEY_RIGHT);
    assert_string_equal(u->scenario.chip.key, "lab-chip");
    /* The comparison overlay runs through it too (after the built-ins). */
    ui_key(u, UI_KEY_LEFT);
    bool seen = false;
    for (size_t i = 0; i < n + 2 && !seen; i++) {
        ui_key(u, 'c');
        seen = u->compare_chip == (int)n;
    }
    assert_true(seen);
    assert_true(u->has_compare);
}

/* A small deterministic random generator (the tests must not depend on rand()). */
static unsigned long long rng = 88172645463325252ull;
static unsigned long long next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Thousands of random keys (o, O and the work overlay among them), typed
 * values and sizes: never a crash, never NaN or inf on screen, always a
 * valid scenario. */
static void test_fuzz(void **state)
{
    (void)state;
    const int special[] = {UI_KEY_UP, UI_KEY_DOWN, UI_KEY_LEFT, UI_KEY_RIGHT, UI_KEY_PGUP, UI_KEY_PGDN,
                           UI_KEY_ENTER, UI_KEY_ESC, UI_KEY_BACKSPACE, UI_KEY_TAB, UI_KEY_BTAB, UI_KEY_HOME,
                           UI_KEY_END, UI_KEY_SLEFT, UI_KEY_SRIGHT};
    const char *chars = "hjklHLru=c?C0123456789.kMGTB%-e msoOwgG";
    for (int i = 0; i < 20000; i++) {
        unsigned long long r = next_random();
        int key;
        if (r % 3 == 0)
            key = special[(r >> 8) % (sizeof special / sizeof special[0])];
        else
            key = chars[(r >> 8) % strlen(chars)];
        if (key == 'q' || key == UI_KEY_ESC) {
            if (u->mode != UI_MODE_EDIT)
                continue;
        }
        ui_key(u, key);
        if (r % 97 == 0)
            ui_resize(u, (int)((r >> 16) % 260) - 10, (int)((r >> 24) % 90) - 5);
        if (r % 5 == 0) {
            const char *t = frame();
            if (strstr(t, "nan") || strstr(t, " inf") || strstr(t, "NaN"))
                fail_msg("NaN on screen after %d keys:\n%s", i, t);
        }
        char err[256];
        struct analysis a;
        assert_int_equal(analyze(&u->scenario, &a, err, sizeof err), 0);
    }
}

/* Cells of the plot panel that hold a letter a-j in role: the operations'
 * markers (the phase's own label adds at most the letters of its name). */
static int plot_letters(enum role role)
{
    frame();
    struct rect r = u->layout.plot;
    int n = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            const struct cell *c = grid_cell(&g, x, y);
            if (c && c->role == role && c->ch >= 'a' && c->ch <= 'k')
                n++;
        }
    return n;
}

/* o cycles off -> prefill -> decode -> training -> off, O the other way;
 * the plot shows the phase's operations as letters, the legend names them,
 * and a phase without operations (no prompt tokens) is skipped. */
static void test_operations_key(void **state)
{
    (void)state;
    assert_int_equal(u->ops_phase, -1);
    assert_true(plot_letters(ROLE_PREFILL) <= 7); /* "prefill/training" alone: e f i a i i g */
    const char *t = frame();
    assert_non_null(strstr(t, "Placement"));
    assert_null(strstr(t, "Operations"));
    assert_true(ui_key(u, 'o') & UI_REDRAW);
    assert_int_equal(u->ops_phase, RT_PHASE_PREFILL);
    t = frame();
    assert_non_null(strstr(t, "Operations prefill"));
    assert_non_null(strstr(t, "a qkv proj"));
    assert_non_null(strstr(t, "c softmax")); /* fused: on chip, listed but not on the plot */
    assert_non_null(strstr(t, "f mlp"));
    assert_non_null(strstr(t, "prefill ops a-k"));
    assert_null(strstr(t, "Placement")); /* the legend takes its place */
    assert_non_null(strstr(t, "vector"));   /* the vector roof's label */
    /* Nine operations have FLOPs (the embedding lookup has none): nine letters. */
    assert_true(plot_letters(ROLE_PREFILL) >= 9 + 3); /* and the "prefill" label's e, f, i */
    ui_key(u, 'o');
    assert_int_equal(u->ops_phase, RT_PHASE_DECODE);
    assert_non_null(strstr(frame(), "Operations decode"));
    assert_true(plot_letters(ROLE_DECODE) >= 9);
    ui_key(u, 'o');
    assert_int_equal(u->ops_phase, RT_PHASE_TRAINING);
    ui_key(u, 'o');
    assert_int_equal(u->ops_phase, -1);
    assert_non_null(strstr(frame(), "Placement"));
    assert_true(plot_letters(ROLE_DECODE) <= 5); /* only the "decode" label */
    ui_key(u, 'O');
    assert_int_equal(u->ops_phase, RT_PHASE_TRAINING);
    ui_key(u, 'O');
    assert_int_equal(u->ops_phase, RT_PHASE_DECODE);
    ui_key(u, 'o');
    ui_key(u, 'o');
    /* No prompt tokens: prefill has no operations and is skipped. */
    u->selected = SLIDER_PREFILL;
    type("=0\n");
    assert_int_equal(u->scenario.prefill_tokens, 0);
    ui_key(u, 'o');
    assert_int_equal(u->ops_phase, RT_PHASE_DECODE);
    assert_null(strstr(frame(), "nan"));
}

/* w opens "show your work"; arrows and pages scroll it (clamped), q and any
 * other key close it without quitting; the mouse wheel scrolls, a click
 * closes. */
static void test_work_overlay(void **state)
{
    (void)state;
    assert_true(ui_key(u, 'w') & UI_REDRAW);
    assert_int_equal(u->mode, UI_MODE_WORK);
    const char *t = frame();
    assert_non_null(strstr(t, "show your work"));
    assert_non_null(strstr(t, "ridge = peak / bandwidth"));
    assert_non_null(strstr(t, "= 197 TFLOP/s / 819 GB/s = 241 FLOP/byte"));
    assert_non_null(strstr(t, "/ (16 x 197 TFLOP/s x 100%) = 0.364 s")); /* --chips 16 */
    assert_non_null(strstr(t, "1-20 of"));
    assert_int_equal(u->work_page, 20);
    ui_key(u, UI_KEY_DOWN);
    ui_key(u, 'j');
    t = frame();
    assert_int_equal(u->work_scroll, 2);
    assert_null(strstr(t, "ridge = peak / bandwidth"));
    ui_key(u, UI_KEY_PGDN);
    frame();
    assert_int_equal(u->work_scroll, 21);
    ui_key(u, UI_KEY_END);
    frame();
    int last = u->work_scroll;
    assert_true(last > 21);
    ui_key(u, UI_KEY_DOWN); /* past the end: stays on the last page */
    frame();
    assert_int_equal(u->work_scroll, last);
    assert_non_null(strstr(frame(), "PaLM: Chowdhery et al. 2022"));
    ui_key(u, UI_KEY_HOME);
    frame();
    assert_int_equal(u->work_scroll, 0);
    ui_key(u, UI_KEY_UP); /* before the start: stays */
    frame();
    assert_int_equal(u->work_scroll, 0);
    assert_int_equal(ui_key(u, 'q') & UI_QUIT, 0); /* q closes the overlay first */
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_null(strstr(frame(), "show your work"));
    ui_key(u, 'w');
    assert_int_equal(u->work_scroll, 0);
    ui_mouse(u, UI_MOUSE_WHEEL_DOWN, 10, 10);
    assert_int_equal(u->work_scroll, 1);
    ui_mouse(u, UI_MOUSE_PRESS, 10, 10);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    /* Larger screens show more lines at once. */
    ui_resize(u, 120, 40);
    ui_key(u, 'w');
    frame();
    assert_int_equal(u->work_page, 36);
}

/* A chip and a model named with ESC sequences, BEL, DEL and a C1 CSI (as a
 * chip file can name them): every screen of the explorer draws them as
 * '?', so the frame sent to the terminal holds no control byte. */
static void test_control_bytes_are_drawn_visibly(void **state)
{
    (void)state;
    ui_free(u);
    struct scenario s;
    guide_napkin(&s);
    snprintf(s.chip.key, sizeof s.chip.key, "evil\x1b[2J");
    snprintf(s.chip.name, sizeof s.chip.name, "Evil\x1b]0;pwned\x07\x7f\xc2\x9b" "1m");
    snprintf(s.model.name, sizeof s.model.name, "m\x1b[31m");
    char err[256];
    assert_int_equal(ui_init(u, &s, false, 100, 30, err, sizeof err), 0);
    const char *screens[] = {"", "?", "w", "o", "c"};
    for (size_t i = 0; i < sizeof screens / sizeof screens[0]; i++) {
        type(screens[i]);
        const char *t = frame();
        for (const unsigned char *p = (const unsigned char *)t; *p; p++)
            if ((*p < 0x20 && *p != '\n') || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F))
                fail_msg("screen '%s': raw control byte 0x%02x", screens[i], *p);
        if (i == 0)
            assert_non_null(strstr(t, "evil?[2J"));
        type("q");
    }
}

/* s, like e, asks y/n before overwriting a file that exists: n keeps it,
 * y hands the save to the terminal layer. */
static void test_save_asks_before_overwriting(void **state)
{
    (void)state;
    ui_key(u, 's');
    ui_key(u, 21); /* Ctrl-U */
    const char *existing = "tests/fixtures/README.md";
    for (const char *c = existing; *c; c++)
        ui_key(u, *c);
    assert_int_equal(ui_key(u, UI_KEY_ENTER) & UI_SAVE, 0);
    assert_true(u->confirm_overwrite);
    assert_string_equal(u->message, "tests/fixtures/README.md exists: overwrite it? y/n");
    assert_int_equal(ui_key(u, 'n') & UI_SAVE, 0);
    assert_string_equal(u->message, "not saved: tests/fixtures/README.md kept");
    ui_key(u, 's');
    assert_string_equal(u->edit, existing);
    ui_key(u, UI_KEY_ENTER);
    assert_int_equal(ui_key(u, 'y') & (UI_SAVE | UI_EXPORT), UI_SAVE);
    assert_false(u->confirm_overwrite);
    /* "~/README.md" reaches $HOME/README.md when written: it is asked about
     * too (the check once looked at the text as typed, found no file named
     * "~", and the write overwrote without a word). */
    char cwd[4096], home[4200];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(home, sizeof home, "%s/tests/fixtures", cwd);
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", home, 1);
    ui_key(u, 's');
    ui_key(u, 21);
    for (const char *c = "~/README.md"; *c; c++)
        ui_key(u, *c);
    assert_int_equal(ui_key(u, UI_KEY_ENTER) & UI_SAVE, 0);
    assert_true(u->confirm_overwrite);
    assert_string_equal(u->message, "~/README.md exists: overwrite it? y/n");
    ui_key(u, 'n');
    if (old_home) {
        setenv("HOME", old_home, 1);
        free(old_home);
    } else {
        unsetenv("HOME");
    }
}

/* e asks where to export the markdown report, like s; a path that exists
 * asks y/n before it is overwritten (n, or any other key, keeps it); y
 * hands the clipboard copy to the terminal layer. */
static void test_export_asks_before_overwriting(void **state)
{
    (void)state;
    assert_int_equal(ui_key(u, 'e') & UI_EXPORT, 0);
    assert_int_equal(u->mode, UI_MODE_EDIT);
    assert_non_null(strstr(frame(), "export to: rooftop-report.md"));
    assert_int_equal(ui_key(u, UI_KEY_ESC) & UI_EXPORT, 0);
    assert_non_null(strstr(u->message, "not exported"));

    /* A new file: exported at once. */
    ui_key(u, 'e');
    ui_key(u, 21); /* Ctrl-U */
    const char *fresh = "tests/fixtures/no-such-dir/report.md";
    for (const char *c = fresh; *c; c++)
        ui_key(u, *c);
    assert_true(ui_key(u, UI_KEY_ENTER) & UI_EXPORT);
    assert_string_equal(u->export_path, fresh);
    assert_false(u->confirm_overwrite);

    /* A file that exists: asked first; n keeps it. */
    ui_key(u, 'e');
    assert_string_equal(u->edit, fresh); /* the last path is offered */
    ui_key(u, 21);
    const char *existing = "tests/fixtures/README.md";
    for (const char *c = existing; *c; c++)
        ui_key(u, *c);
    assert_int_equal(ui_key(u, UI_KEY_ENTER) & UI_EXPORT, 0);
    assert_true(u->confirm_overwrite);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_non_null(strstr(u->message, "tests/fixtures/README.md exists: overwrite it? y/n"));
    assert_non_null(strstr(frame(), "overwrite it? y/n"));
    assert_int_equal(ui_mouse(u, UI_MOUSE_PRESS, 1, 1), 0); /* the mouse cannot answer */
    assert_int_equal(ui_key(u, 'n') & UI_EXPORT, 0);
    assert_false(u->confirm_overwrite);
    assert_non_null(strstr(u->message, "not exported"));
    /* Any key other than y keeps it, and is not taken as a command. */
    ui_key(u, 'e');
    ui_key(u, UI_KEY_ENTER);
    assert_true(u->confirm_overwrite);
    assert_int_equal(ui_key(u, 'q') & (UI_EXPORT | UI_QUIT), 0);
    /* y overwrites. */
    ui_key(u, 'e');
    ui_key(u, UI_KEY_ENTER);
    assert_true(ui_key(u, 'y') & UI_EXPORT);
    assert_false(u->confirm_overwrite);
    /* A folder is not a file to overwrite: no y/n, a request for a name. */
    ui_key(u, 'e');
    ui_key(u, 21);
    for (const char *c = "tests/fixtures"; *c; c++)
        ui_key(u, *c);
    assert_int_equal(ui_key(u, UI_KEY_ENTER) & UI_EXPORT, 0);
    assert_false(u->confirm_overwrite);
    assert_true(u->message_is_error);
    assert_string_equal(u->message, "tests/fixtures is a folder: give a file name in it");
    /* An empty path is refused. */
    ui_key(u, 'e');
    ui_key(u, 21);
    assert_int_equal(ui_key(u, UI_KEY_ENTER) & UI_EXPORT, 0);
    assert_non_null(strstr(u->message, "not exported"));
    /* y in the knobs: the terminal layer copies. */
    assert_true(ui_key(u, 'y') & UI_COPY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_chips_16_to_64_turns_miss_into_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_baseline_pin_step_clear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batch_up_names_the_decode_ceiling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_targets_lead_the_verdict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_targets_miss_says_why, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tour_q_types_into_a_begun_guess, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pareto_keeps_the_lines_precision, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cost_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_present_names_the_operation_letters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_points_follow_the_chip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_precision_roof, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mfu_fraction_or_percent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_chip_stays_in_the_knob, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_model_stays_in_the_knob, setup, teardown),
        cmocka_unit_test_setup_teardown(test_typed_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_by_analyze, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undo_and_reset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_quit_repaint, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operations_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_work_overlay, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_small, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compare_cycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_chips_reach_the_explorer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuzz, setup, teardown),
        cmocka_unit_test_setup_teardown(test_control_bytes_are_drawn_visibly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_asks_before_overwriting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_asks_before_overwriting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_typed_paths_and_suggestions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_messages_name_the_knobs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kv_heads_knob_under_mla, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kv_precision_and_reserve_knobs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prompt_longer_than_the_context_warns, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
