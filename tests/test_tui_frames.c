/* test_tui_frames.c — whole explorer frames rendered in-process (no terminal)
 * and compared, as text, to the golden files in tests/golden/.
 *
 * After an intended change to the screen, regenerate the files with
 * `make golden` (ROOFTOP_UPDATE_GOLDEN=1) and review them with git diff;
 * ROOFTOP_TEST_FILTER (a cmocka pattern, e.g. "test_op_*") limits the run,
 * and so the rewrite, to the tests it matches. On
 * a mismatch the frame actually rendered is written beside the temp dir and
 * its path printed, so `diff` shows what changed.
 */
#include "testutil.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opknobs.h"
#include "opreport.h"
#include "tour.h"
#include "tourview.h"
#include "ui.h"
#include "units.h"

static struct ui *u;
static struct grid g;

/* Directory of the golden files. */
static const char *golden_dir(void)
{
    const char *d = getenv("ROOFTOP_GOLDEN_DIR");
    return d && *d ? d : "tests/golden";
}

/* Reads a whole file into a malloc'd string; NULL when it cannot. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 >= cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* Writes text to path through a temporary file and a rename. */
static int write_file(const char *path, const char *text)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Renders the current ui and compares it with golden file name. */
static void check_frame(const char *name)
{
    static char text[1 << 20];
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    if (strstr(name, "ascii")) /* an ASCII frame holds 7-bit bytes only */
        for (const char *p = text; *p; p++)
            if ((unsigned char)*p >= 0x80)
                fail_msg("frame %s has the non-ASCII byte 0x%02x", name, (unsigned char)*p);
    for (const char *bad = " nan\0-nan\0 inf\0"; *bad; bad += strlen(bad) + 1)
        if (strstr(text, bad))
            fail_msg("frame %s shows '%s'", name, bad);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.txt", golden_dir(), name);
    const char *update = getenv("ROOFTOP_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        if (write_file(path, text) != 0)
            fail_msg("cannot write %s: %s", path, strerror(errno));
        printf("wrote %s\n", path);
        return;
    }
    char *want = slurp(path);
    if (!want)
        fail_msg("no golden frame %s: run `make golden` and review it", path);
    if (strcmp(want, text) != 0) {
        char actual[1024];
        const char *tmpdir = getenv("TMPDIR");
        snprintf(actual, sizeof actual, "%s/rooftop-%s.txt", tmpdir && *tmpdir ? tmpdir : "/tmp", name);
        write_file(actual, text);
        /* Point at the first line that differs. */
        int line = 1;
        const char *a = want, *b = text;
        while (*a && *a == *b) {
            if (*a == '\n')
                line++;
            a++;
            b++;
        }
        free(want);
        fail_msg("frame %s differs from %s from line %d; rendered frame in %s (diff them; `make golden` "
                 "accepts it)",
                 name, path, line, actual);
    }
    free(want);
}

/* Starts a ui on scenario s at cols x rows. */
static void start(const struct scenario *s, bool ascii, int cols, int rows)
{
    char err[256];
    if (ui_init(u, s, ascii, cols, rows, err, sizeof err) != 0)
        fail_msg("ui_init: %s", err);
}

static int setup(void **state)
{
    (void)state;
    u = malloc(sizeof *u);
    return u ? grid_init(&g, 0, 0) : -1;
}

static int teardown(void **state)
{
    (void)state;
    ui_free(u);
    free(u);
    grid_free(&g);
    return 0;
}

/* The default scenario (the guide's napkin on one TPU v5e) at the two sizes,
 * in braille and in ASCII. */
static void test_default_frames(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    start(&s, false, 80, 24);
    check_frame("default_80x24_utf8");
    start(&s, true, 80, 24);
    check_frame("default_80x24_ascii");
    start(&s, false, 120, 40);
    check_frame("default_120x40_utf8");
    start(&s, true, 120, 40);
    check_frame("default_120x40_ascii");
}

/* The story: --chips 16 misses (1.981 s), two steps to 64 meet the
 * budget (0.683 s). */
static void test_chips_story(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chips = 16;
    start(&s, false, 80, 24);
    check_frame("chips16_80x24_utf8");
    for (int i = 0; i < SLIDER_CHIPS; i++)
        ui_key(u, UI_KEY_DOWN);
    ui_key(u, UI_KEY_RIGHT);
    ui_key(u, UI_KEY_RIGHT);
    check_frame("chips64_80x24_utf8");
    ui_resize(u, 120, 40);
    check_frame("chips64_120x40_utf8");
}

/* A design review: 16 chips pinned with b, then two steps to 64 and a
 * batch of 4; every panel shows the baseline and the change, the plot
 * where the decode point was. */
static void test_baseline_frames(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chips = 16;
    for (int ascii = 0; ascii < 2; ascii++) {
        start(&s, ascii, 80, 24);
        ui_key(u, 'b');
        for (int i = 0; i < SLIDER_CHIPS; i++)
            ui_key(u, UI_KEY_DOWN);
        ui_key(u, UI_KEY_RIGHT);
        ui_key(u, UI_KEY_RIGHT);
        u->selected = SLIDER_BATCH;
        ui_key(u, UI_KEY_RIGHT);
        ui_key(u, UI_KEY_RIGHT);
        check_frame(ascii ? "baseline_80x24_ascii" : "baseline_80x24_utf8");
        ui_resize(u, 120, 40);
        if (!ascii)
            check_frame("baseline_120x40_utf8");
        ui_free(u);
    }
}

/* A100 with H100's roof overlaid: the ridge moves right (153 -> 295). */
static void test_compare_frame(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("a100-80");
    s.chips = 8;
    start(&s, false, 120, 40);
    u->compare_chip = -1;
    while (u->compare_chip < 0 || strcmp(chip_builtin((size_t)u->compare_chip)->key, "h100") != 0)
        ui_key(u, 'c');
    check_frame("compare_a100_h100_120x40_utf8");
}

/* The MFU budget panel with the guide's 100/45/60/50/25 ms step and full
 * recompute (HFU = MFU x 8/6). */
static void test_mfu_frame(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.has_step_times = true;
    const double ms[RT_PART_COUNT] = {0.100, 0.045, 0.060, 0.050, 0.025};
    memcpy(s.step_times_s, ms, sizeof ms);
    s.recompute = RT_RECOMPUTE_FULL;
    start(&s, false, 120, 40);
    check_frame("mfu_budget_120x40_utf8");
    start(&s, true, 80, 24);
    check_frame("mfu_budget_80x24_ascii");
}

/* Help overlay, an error in the status line, the prompt, the small screen. */
static void test_overlays_and_states(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    start(&s, false, 80, 24);
    ui_key(u, '?');
    check_frame("help_80x24_utf8");
    start(&s, true, 80, 24);
    ui_key(u, UI_KEY_DOWN);
    ui_key(u, UI_KEY_DOWN);
    ui_key(u, UI_KEY_DOWN);
    ui_key(u, '=');
    ui_key(u, 'x');
    ui_key(u, '7');
    check_frame("prompt_80x24_ascii");
    ui_key(u, UI_KEY_ENTER);
    check_frame("error_80x24_ascii");
    start(&s, false, 40, 10);
    check_frame("too_small_40x10_utf8");
}

/* The last knobs (kv precision at fp8, reserve at 1 GB) scrolled into
 * view; a prompt longer than the context warns in the status line. */
static void test_last_knobs_and_prompt_warning(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    start(&s, false, 80, 24);
    ui_key(u, 'G');
    ui_key(u, UI_KEY_UP);
    ui_key(u, UI_KEY_RIGHT);
    ui_key(u, UI_KEY_DOWN);
    ui_key(u, UI_KEY_RIGHT);
    check_frame("last_knobs_80x24_utf8");
    start(&s, true, 80, 24);
    u->selected = SLIDER_CONTEXT;
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_DOWN); /* clears the step's message: the warning stays */
    check_frame("prompt_over_context_80x24_ascii");
}

/* Each operation of a phase as a lettered point, the vector roof and the
 * legend in place of the placement and MFU panels: prefill at 80x24 (two
 * legend columns), decode in ASCII, training at 120x40 (one row per
 * operation with intensity, bound and time). */
static void test_operations_frames(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    start(&s, false, 80, 24);
    ui_key(u, 'o');
    check_frame("ops_prefill_80x24_utf8");
    start(&s, true, 80, 24);
    ui_key(u, 'o');
    ui_key(u, 'o');
    check_frame("ops_decode_80x24_ascii");
    start(&s, false, 120, 40);
    ui_key(u, 'O');
    check_frame("ops_training_120x40_utf8");
}

/* "Show your work": the first page at 80x24, the last page in ASCII after
 * End, and the larger box at 120x40. */
static void test_work_frames(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    start(&s, false, 80, 24);
    ui_key(u, 'w');
    check_frame("work_80x24_utf8");
    start(&s, true, 80, 24);
    ui_key(u, 'w');
    ui_key(u, UI_KEY_END);
    check_frame("work_end_80x24_ascii");
    start(&s, false, 120, 40);
    ui_key(u, 'w');
    check_frame("work_120x40_utf8");
}

/* The honest headline (issue: a napkin OK beside a realistic MISS): the
 * title names the disagreeing estimate at every width from 80 (the least the
 * explorer draws at) to 250
 * columns, in Unicode and ASCII; and the default frame at 80x24 with the
 * realistic verdict. 70B fp8 on 8 H100s at batch 212, decode only. */
static void test_honest_headline(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.precision = RT_FP8;
    s.batch = 212;
    s.prefill_tokens = 0;
    struct analysis a = must_analyze(&s);
    assert_true(a.napkin.ok);
    assert_false(a.realistic.ok);
    assert_true(a.estimates_disagree);
    static char text[1 << 20];
    for (int ascii = 0; ascii < 2; ascii++) {
        for (int cols = LAYOUT_MIN_COLS; cols <= 250; cols++) {
            start(&s, ascii, cols, 24);
            assert_int_equal(ui_render(u, &g), 0);
            grid_to_text(&g, text, sizeof text);
            char *nl = strchr(text, '\n');
            if (nl)
                *nl = '\0';
            if (!strstr(text, "MISS") || !strstr(text, ascii ? "vs" : "\xe2\x89\xa0") || !strstr(text, "napkin"))
                fail_msg("%d columns (%s): the title hides the disagreement: '%s'", cols, ascii ? "ascii" : "utf8",
                         text);
        }
    }
    start(&s, false, 80, 24);
    check_frame("honest_headline_80x24_utf8");
    /* Where the verdicts agree and only the totals differ, the other
     * estimate drops its verdict word so the headline keeps its name at
     * 80 columns: the guide on 16 TPU v5e. */
    scenario_default(&s);
    s.chips = 16;
    start(&s, false, 80, 24);
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    char want[160], t[24];
    a = must_analyze(&s); /* the realistic figure moves with the fits: read it, do not pin it */
    snprintf(want, sizeof want, "MISS %s realistic? \xe2\x89\xa0 1.981 s napkin",
             format_turn_seconds(t, sizeof t, a.realistic.total_s));
    if (!strstr(text, want))
        fail_msg("the 80-column title does not name the headline estimate:\n%.200s", text);
    /* In ASCII, where "vs" is wider than the sign, the word rooftop goes before the headline's name. */
    s.chips = 64;
    start(&s, true, 80, 24);
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    a = must_analyze(&s);
    snprintf(want, sizeof want, "MISS %s realistic? vs OK 0.683 s napkin", format_turn_seconds(t, sizeof t, a.realistic.total_s));
    if (!strstr(text, want))
        fail_msg("the 80-column ASCII title does not name the headline estimate:\n%.200s", text);
}

/* A turn within its budget that misses because the batch does not fit in
 * HBM says so, not "> budget"; a batch number that does not fit its line is
 * left out whole, never cut (1024 shown as "10"). */
static void test_memory_miss_said_plainly(void **state)
{
    (void)state;
    static char text[1 << 20];
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    scenario_set_model(&s, model_find("llama-3.1-8b"));
    s.batch = 64;
    s.budget_s = 100.0;
    start(&s, false, 80, 24);
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    char want[80], t[24];
    struct analysis a = must_analyze(&s);
    snprintf(want, sizeof want, "%s: batch exceeds HBM", format_turn_seconds(t, sizeof t, a.realistic.total_s));
    if (!strstr(text, want) || !strstr(text, "HBM 80.0 GB: batch does not fit") ||
        strstr(text, "> budget"))
        fail_msg("the memory miss is not said plainly:\n%s", text);
    s.chips = 8;
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.batch = 1024;
    start(&s, false, 80, 24);
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    if (strstr(text, "for batch 10\n") || strstr(text, "for batch 10 "))
        fail_msg("a cut batch number:\n%s", text);
    /* 66,276 concurrent 128-token requests on 8 H200s: the count whole, "free" dropped for it. */
    s.chip = *chip_find("h200");
    s.chips = 8;
    scenario_set_model(&s, model_find("llama-3.1-8b"));
    s.batch = 1;
    s.context_tokens = 128;
    s.prefill_tokens = 128;
    start(&s, false, 80, 24);
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    if (!strstr(text, "HBM 1.13 TB: 66276 req. fit"))
        fail_msg("the request count is not whole:\n%s", text);
}

/* The Pareto view ('p'): a search from the scenario drawn in the plot's
 * place, the frontier walked with the arrows, Enter loading the picked
 * design into the knobs (its layout, batch and precision), p closing. */
static void test_pareto_view(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.chip = *chip_find("h100");
    s.chips = 8;
    s.decode_tokens = 256;
    s.context_tokens = 8192 + 256;
    s.ttft_target_s = 1.0;
    s.tpot_target_s = 0.05;
    start(&s, false, 80, 24);
    ui_key(u, 'p');
    assert_int_equal(u->mode, UI_MODE_PARETO);
    assert_true(u->pareto_n > 1);
    check_frame("pareto_80x24_utf8");
    ui_key(u, UI_KEY_LEFT);
    size_t pick = u->pareto_pick;
    const struct search_candidate c = u->pareto.candidates[u->pareto_order[pick]];
    ui_key(u, UI_KEY_ENTER);
    assert_int_equal(u->scenario.chips, c.tp * c.pp * c.ep);
    assert_int_equal(u->scenario.pp, c.pp);
    assert_int_equal(u->scenario.batch, c.batch);
    assert_int_equal((int)u->scenario.precision, (int)c.precision);
    assert_int_equal(u->scenario.disagg_prefill_chips, c.prefill_chips);
    /* The loaded design is where the search put it: the same serving figures. */
    ASSERT_NEAR(u->analysis.serving.tokens_per_s_per_chip, c.tokens_per_s_per_chip, 1e-9 * c.tokens_per_s_per_chip);
    assert_int_equal(u->mode, UI_MODE_PARETO);
    ui_key(u, 'p');
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_null(u->pareto.candidates);
    start(&s, true, 80, 24);
    ui_key(u, 'p');
    check_frame("pareto_80x24_ascii");
    ui_key(u, UI_KEY_ESC);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
}

/* The guided tour ('T'): each step sets its scenario and selects its knob;
 * a guess is scored against analyze() and the panel moves off the figure. */
static void test_tour_frames(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    start(&s, false, 80, 24);
    assert_int_equal(ui_key(u, 'T'), UI_REDRAW);
    assert_int_equal(u->mode, UI_MODE_TOUR);
    assert_int_equal(u->tour_step, 0);
    assert_int_equal(u->selected, SLIDER_CHIP);
    assert_string_equal(u->scenario.chip.key, "h100");
    while (strcmp(u->tour->steps[u->tour_step].title, "Chips against the budget") != 0) {
        size_t at = u->tour_step;
        ui_key(u, UI_KEY_RIGHT);
        assert_int_equal(u->tour_step, at + 1);
    }
    assert_int_equal(u->scenario.chips, 16);
    assert_string_equal(u->scenario.chip.key, "tpu-v5e");
    assert_int_equal(u->selected, SLIDER_CHIPS);
    ui_key(u, 'n'); /* nothing typed: n and p move */
    ui_key(u, 'p');
    assert_string_equal(u->tour->steps[u->tour_step].title, "Chips against the budget");
    for (const char *k = "0.5"; *k; k++)
        ui_key(u, *k);
    assert_string_equal(u->tour_guess, "0.5");
    ui_key(u, UI_KEY_ENTER);
    assert_true(u->tour_revealed);
    assert_string_equal(u->tour_result, "you said 0.5 s; it is 1.981 s (napkin): 4.0\u00d7 low");
    check_frame("tour_80x24_utf8");
    /* Esc leaves on the step's scenario; T comes back to the same step. */
    ui_key(u, UI_KEY_ESC);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_int_equal(u->scenario.chips, 16);
    ui_key(u, 'T');
    assert_string_equal(u->tour->steps[u->tour_step].title, "Chips against the budget");
    /* Typed letters that are also keys go into the guess once it has begun. */
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    ui_key(u, UI_KEY_LEFT);
    assert_string_equal(u->tour->steps[u->tour_step].title, "Where decode sits");
    for (const char *k = "comp"; *k; k++)
        ui_key(u, *k);
    assert_string_equal(u->tour_guess, "comp");
    ui_key(u, UI_KEY_ENTER);
    assert_string_equal(u->tour_result, "you said compute; it is memory-bound: wrong");
    assert_false(u->tour_right);
    for (const char *k = "fast"; *k; k++)
        ui_key(u, *k);
    ui_key(u, UI_KEY_ENTER);
    assert_true(u->message_is_error);
    assert_string_equal(u->message, "'fast': answer memory or compute");
    ui_key(u, 'q'); /* a begun guess takes q as a letter; cleared, q quits */
    assert_string_equal(u->tour_guess, "fastq");
    ui_key(u, 21);
    assert_int_equal(ui_key(u, 'q'), UI_QUIT);
    ui_free(u);
    start(&s, true, 80, 24);
    ui_key(u, 'T');
    ui_key(u, UI_KEY_RIGHT);
    ui_key(u, 'm');
    check_frame("tour_80x24_ascii");
}

/* True when needle occurs in hay as a figure of its own: not inside a
 * longer number (no digit or decimal point either side). */
static bool has_figure(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
        /* The memory panel's echo of the model's head counts is an input ("8 kv heads of 64"). */
        if (p >= hay + 12 && strncmp(p - 12, "kv heads of ", 12) == 0)
            continue;
        bool before = p > hay && (isdigit((unsigned char)p[-1]) || (p[-1] == '.' && p - 1 > hay && isdigit((unsigned char)p[-2])));
        bool after = isdigit((unsigned char)p[n]) || (p[n] == '.' && isdigit((unsigned char)p[n + 1]));
        if (!before && !after)
            return true;
    }
    return false;
}

/* True when a placement row of phase name says its bound in line: the
 * name, one figure (its intensity), then "memory" or "compute". */
static bool bound_word_after(const char *line, const char *name)
{
    for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
        const char *q = p + strlen(name);
        q += strspn(q, " ");
        q += strcspn(q, " ");
        q += strspn(q, " ");
        if (strncmp(q, "memory", 6) == 0 || strncmp(q, "compute", 7) == 0)
            return true;
    }
    return false;
}

/* The ways a step's figure could be written on screen: seconds as the
 * panels write them, fractions in percent, counts and intensities rounded,
 * to one decimal and with SI prefixes. */
static int figure_forms(const char *key, double v, char forms[][32])
{
    int n = 0;
    size_t kl = strlen(key);
    bool seconds = kl > 2 && strcmp(key + kl - 2, "_s") == 0;
    bool fraction = strstr(key, "mfu") || strstr(key, "efficiency") || strstr(key, "fraction");
    if (seconds) {
        format_turn_seconds(forms[n++], 32, v);
        format_seconds(forms[n++], 32, v);
        snprintf(forms[n++], 32, "%.3f", v);
        snprintf(forms[n++], 32, "%.2f", v);
        snprintf(forms[n++], 32, "%.1f ms", v * 1e3);
    } else if (fraction) {
        snprintf(forms[n++], 32, "%.1f%%", v * 100.0);
        snprintf(forms[n++], 32, "%.0f%%", v * 100.0);
        snprintf(forms[n++], 32, "%.3f", v);
    } else {
        snprintf(forms[n++], 32, "%.0f", v);
        snprintf(forms[n++], 32, "%.0f", floor(v));
        snprintf(forms[n++], 32, "%.1f", v);
        format_si(forms[n++], 32, v, "");
    }
    for (int i = 0; i < n; i++) /* "1.98 s" is looked for as "1.98": units vary */
        for (char *sp = strchr(forms[i], ' '); sp; sp = NULL)
            *sp = '\0';
    return n;
}

/* Issue 21 item 1: while a tour step waits for the guess, its figure shows
 * nowhere outside the tour's own panel and the knobs (which show inputs):
 * not in the title bar, another panel or a label, at any size from 80 x 24
 * to 250 x 80, in braille and in ASCII. A "bound" step's answer is the word
 * memory or compute (and the lever that gives it away) on no line that
 * names the phase. After the guess, the figure is shown again. */
static void test_tour_hides_answers(void **state)
{
    (void)state;
    static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {160, 50}, {200, 60}, {250, 80}};
    static char text[1 << 20];
    struct scenario s;
    scenario_default(&s);
    for (int ascii = 0; ascii < 2; ascii++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            start(&s, ascii, sizes[z][0], sizes[z][1]);
            ui_key(u, 'T');
            for (size_t i = 0; i < u->tour->count; i++, ui_key(u, UI_KEY_RIGHT)) {
                const struct tour_step *st = &u->tour->steps[i];
                assert_int_equal(u->tour_step, i);
                struct tour_value tv;
                char err[200];
                assert_int_equal(tour_figure(&st->scenario, &u->analysis, st->figure, &tv, err, sizeof err), 0);
                assert_int_equal(ui_render(u, &g), 0);
                if (strcmp(st->title, "Tile co-design") == 0) { /* item 2: the step says what its d_ff did to N */
                    grid_to_text(&g, text, sizeof text);
                    if (!strstr(text, "guide-70b (14.4B)"))
                        fail_msg("%dx%d: step 14 does not say that N is counted from the shape", sizes[z][0],
                                 sizes[z][1]);
                }
                /* The knobs and the tour's own panel are not looked at. */
                struct rect tr = tour_panel_rect(&u->layout, st->figure, false);
                view_fill(view_make(&g, tr), 0, 0, tr.w, tr.h, ' ', ROLE_TEXT);
                view_fill(view_make(&g, u->layout.sliders), 0, 0, u->layout.sliders.w, u->layout.sliders.h, ' ',
                          ROLE_TEXT);
                view_fill(view_make(&g, u->layout.status), 0, 0, u->layout.status.w, 1, ' ', ROLE_TEXT);
                grid_to_text(&g, text, sizeof text);
                if (tv.is_text) {
                    const char *phase = strchr(st->figure, '[') + 1; /* "placement[decode].bound" */
                    char name[32];
                    snprintf(name, sizeof name, "%.*s", (int)(strchr(phase, ']') - phase), phase);
                    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
                        if (strstr(line, name) && (bound_word_after(line, name) || strstr(line, "-bound") ||
                                                   strstr(line, "cut bytes") || strstr(line, "cut FLOPs")))
                            fail_msg("%dx%d %s step %zu (%s): the answer shows on \"%s\"", sizes[z][0], sizes[z][1],
                                     ascii ? "ascii" : "utf8", i + 1, st->figure, line);
                    continue;
                }
                char forms[8][32];
                int n = tv.is_null ? 0 : figure_forms(st->figure, tv.value, forms);
                for (int f = 0; f < n; f++)
                    if (has_figure(text, forms[f])) {
                        fprintf(stderr, "%s\n", text);
                        fail_msg("%dx%d %s step %zu (%s = %g): '%s' shows before the guess (the frame above)",
                                 sizes[z][0], sizes[z][1], ascii ? "ascii" : "utf8", i + 1, st->figure, tv.value,
                                 forms[f]);
                    }
                /* Once guessed, the figure is shown (the title's total, the memory panel's count). */
                if (strcmp(st->figure, "latency.total_s") == 0 || strcmp(st->figure, "memory.max_concurrent_requests") == 0) {
                    for (const char *k = "1"; *k; k++)
                        ui_key(u, *k);
                    ui_key(u, UI_KEY_ENTER);
                    assert_true(u->tour_revealed);
                    assert_int_equal(ui_render(u, &g), 0);
                    grid_to_text(&g, text, sizeof text);
                    bool shown = false;
                    for (int f = 0; f < n; f++)
                        shown = shown || has_figure(text, forms[f]);
                    if (!shown)
                        fail_msg("%dx%d step %zu: %s not shown after the guess", sizes[z][0], sizes[z][1], i + 1,
                                 st->figure);
                }
            }
            ui_free(u);
        }
    start(&s, false, 80, 24); /* teardown frees one ui */
}

/* A coming step's answer is no more on screen than the current one's (a student found step 11's
 * "chips for budget 64" on steps 3, 4, 5 and 10, and step 5's 21.880 s of decode on step 4): each
 * step hides, figure by figure, the answers of the steps after it that its own scenario shows,
 * before its guess and after; the step that asks shows it once guessed. At 80 x 24 to 200 x 60. */
static void test_tour_hides_coming_answers(void **state)
{
    (void)state;
    static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
    static char text[1 << 20];
    struct scenario s;
    scenario_default(&s);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        start(&s, false, sizes[z][0], sizes[z][1]);
        ui_key(u, 'T');
        for (size_t i = 0; i < u->tour->count; i++, ui_key(u, UI_KEY_RIGHT)) {
            const struct tour_step *st = &u->tour->steps[i];
            for (int guessed = 0; guessed < 2; guessed++) {
                if (guessed) {
                    ui_key(u, st->answer == TOUR_ANSWER_BOUND ? 'm' : '1');
                    ui_key(u, UI_KEY_ENTER);
                    assert_true(u->tour_revealed);
                }
                assert_int_equal(ui_render(u, &g), 0);
                grid_to_text(&g, text, sizeof text);
                bool budget = strstr(text, "chips for budget 64") != NULL, decode = strstr(text, "21.880 s") != NULL;
                bool asks_budget = strcmp(st->figure, "latency.chips_for_budget") == 0;
                bool asks_decode = strcmp(st->figure, "latency.decode_s") == 0;
                if (i < 10 && budget)
                    fail_msg("%dx%d step %zu%s shows step 11's answer, chips for budget 64:\n%s", sizes[z][0],
                             sizes[z][1], i + 1, guessed ? " (guessed)" : "", text);
                if (i < 4 && decode)
                    fail_msg("%dx%d step %zu%s shows step 5's answer, 21.880 s of decode:\n%s", sizes[z][0],
                             sizes[z][1], i + 1, guessed ? " (guessed)" : "", text);
                if (guessed && asks_budget && !budget)
                    fail_msg("%dx%d step 11 does not show its answer once guessed:\n%s", sizes[z][0], sizes[z][1],
                             text);
                if (guessed && asks_decode && !decode)
                    fail_msg("%dx%d step 5 does not show its answer once guessed:\n%s", sizes[z][0], sizes[z][1],
                             text);
                /* Step 4's turn, 27.952 s, less its 5.822 s prefill and 0.25 s overhead is step 5's decode. */
                if ((i == 2 || i == 3) && strstr(text, "27.952")) /* step 3 after its prefill is guessed too */
                    fail_msg("%dx%d step 4%s shows the turn that gives step 5's decode:\n%s", sizes[z][0],
                             sizes[z][1], guessed ? " (guessed)" : "", text);
                /* Step 6 asks decode's intensity (28.7) on the row whose bound step 7 asks: once guessed
                 * the intensity shows, the bound still waits. */
                if (i == 5 && guessed && !strstr(text, "28.7"))
                    fail_msg("%dx%d step 6 does not show its answer, 28.7, once guessed:\n%s", sizes[z][0],
                             sizes[z][1], text);
                /* Step 14's answer, d_ff 129 on 128-wide tiles, has a panel row to be checked against. */
                if (i == 13 && guessed && sizes[z][0] >= 120 && !strstr(text, "d_ff 50.4%"))
                    fail_msg("%dx%d step 14 shows its answer in no panel once guessed:\n%s", sizes[z][0],
                             sizes[z][1], text);
                if (i == 13 && !guessed && strstr(text, "50.4%"))
                    fail_msg("%dx%d step 14 shows its answer before the guess:\n%s", sizes[z][0], sizes[z][1], text);
                if ((i == 3 || i == 5) && guessed && strstr(text, "(max 52)")) /* a ceiling under the ridge answers step 7 */
                    fail_msg("%dx%d step 6 shows decode's ceiling, which answers step 7:\n%s", sizes[z][0],
                             sizes[z][1], text);
                if (i == 5 && strstr(text, "Decode's intensity levels off")) /* the note answers step 7 */
                    fail_msg("%dx%d step 6 shows decode's ceiling note:\n%s", sizes[z][0], sizes[z][1], text);
            }
        }
        ui_free(u);
    }
    start(&s, false, 80, 24); /* teardown frees one ui */
}

/* The presentation view ('P'): the 64-chip OK at 80 x 24 (one bold
 * headline line) and 200 x 60 (block letters); P and Esc return, the arrows
 * still step the knob and the headline follows. */
static void test_present_frames(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chips = 64;
    start(&s, false, 80, 24);
    assert_int_equal(ui_key(u, 'P') & UI_REDRAW, UI_REDRAW);
    assert_int_equal(u->mode, UI_MODE_PRESENT);
    check_frame("present_80x24_utf8");
    assert_int_equal(ui_key(u, 'P') & UI_REDRAW, UI_REDRAW);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    start(&s, false, 200, 60);
    ui_key(u, 'P');
    check_frame("present_200x60_utf8");
    /* Knob keys act on the scenario without leaving the view; others do nothing. */
    for (int i = 0; i < SLIDER_CHIPS; i++)
        ui_key(u, UI_KEY_DOWN);
    ui_key(u, UI_KEY_LEFT);
    assert_int_equal(u->scenario.chips, 32);
    assert_int_equal(u->mode, UI_MODE_PRESENT);
    assert_int_equal(ui_key(u, 'p'), 0);
    assert_int_equal(ui_key(u, 'w'), 0);
    assert_int_equal(u->mode, UI_MODE_PRESENT);
    assert_int_equal(ui_mouse(u, UI_MOUSE_PRESS, 150, 10), 0);
    ui_key(u, UI_KEY_ESC);
    assert_int_equal(u->mode, UI_MODE_KNOBS);
    assert_int_equal(ui_key(u, 'P') & UI_QUIT, 0);
    assert_int_equal(ui_key(u, 'q'), UI_QUIT);
    start(&s, true, 80, 24);
    ui_key(u, 'P');
    check_frame("present_80x24_ascii");
    ui_resize(u, 200, 60);
    check_frame("present_200x60_ascii");
}

/* FP4 in the explorer: nvfp4 weights on a B200 put the roof at the nvfp4
 * peak (9 PFLOP/s, ridge 1125) and the act knob reads auto (nvfp4); on an
 * H100, which has no FP4, the title says W4A16 (where it has room: 80
 * columns keep the model and the chip) and the roof is bf16's. */
static void test_fp4_frames(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("b200");
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.precision = RT_NVFP4;
    s.kv_precision = RT_FP8;
    start(&s, false, 80, 24);
    check_frame("fp4_b200_80x24_utf8");
    static char text[1 << 20];
    s.chip = *chip_find("h100");
    start(&s, true, 120, 40); /* wide enough for the title to name the precision */
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    assert_non_null(strstr(text, "nvfp4 (W4A16)"));
    assert_non_null(strstr(text, "FLOP/s (bf16)"));
    assert_non_null(strstr(text, "auto (bf16)"));
}


/* A scenario on chip key with the operation spec (rooftop --op SPEC). */
static void op_scenario(struct scenario *s, const char *chip, const char *spec)
{
    char err[256];
    scenario_default(s);
    s->chip = *chip_find(chip);
    if (op_spec_parse(spec, &s->op, err, sizeof err) != 0)
        fail_msg("op_spec_parse(%s): %s", spec, err);
}

/* The frame as text. */
static const char *frame_text(void)
{
    static char text[1 << 20];
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    return text;
}

/* Issue 17: --op opens the operation view. The guide's 8192^3 GEMM on an
 * H100 at 80x24 and 120x40 (and in ASCII), and the same GEMM at m = 1
 * (ch. 3: compute-bound at 8192^3, memory-bound at M=1). */
static void test_op_frames(void **state)
{
    (void)state;
    struct scenario s;
    op_scenario(&s, "h100", "gemm");
    start(&s, false, 80, 24);
    check_frame("op_gemm_h100_80x24_utf8");
    start(&s, true, 80, 24);
    check_frame("op_gemm_h100_80x24_ascii");
    start(&s, false, 120, 40);
    check_frame("op_gemm_h100_120x40_utf8");
    op_scenario(&s, "h100", "gemm:m=1,n=8192,k=8192");
    start(&s, false, 80, 24);
    check_frame("op_gemm_m1_h100_80x24_utf8");
    op_scenario(&s, "h100", "all-reduce:bytes=16M,gpus=8");
    start(&s, false, 80, 24);
    check_frame("op_allreduce_h100_80x24_utf8");
    op_scenario(&s, "h100", "moe:tokens=512,hidden=4096,inter=14336,topk=2,experts=8");
    start(&s, false, 80, 24);
    check_frame("op_moe_h100_80x24_utf8");
    op_scenario(&s, "h100", "gemm");
    start(&s, false, 80, 24);
    ui_key(u, '?');
    check_frame("op_help_80x24_utf8");
}

/* The demo: stepping m from 8192 down to 1 moves the GEMM from the flat
 * roof (compute-bound) to the slope (memory-bound), each step given in the
 * scenario's spec; the trail shows where it was. */
static void test_op_m_steps_to_memory_bound(void **state)
{
    (void)state;
    struct scenario s;
    op_scenario(&s, "h100", "gemm:m=8192,n=8192,k=8192");
    start(&s, false, 80, 24);
    assert_non_null(strstr(frame_text(), "compute-bound"));
    assert_string_equal(op_bound_name(&u->analysis.operation), "compute");
    assert_int_equal(u->op_selected, 0); /* m */
    for (int i = 0; i < 13; i++) {
        ui_key(u, UI_KEY_LEFT);
        assert_false(u->message_is_error);
    }
    assert_true(u->scenario.op.shape.m == 1.0);
    assert_true(u->analysis.operation.shape.m == 1.0);
    assert_true(u->analysis.operation.shape.n == 8192.0 && u->analysis.operation.shape.k == 8192.0);
    assert_string_equal(op_bound_name(&u->analysis.operation), "memory");
    const char *text = frame_text();
    assert_non_null(strstr(text, "memory-bound"));
    assert_null(strstr(text, "compute-bound"));
    assert_non_null(strstr(text, "gemm 1 x 8192 x 8192"));
    check_frame("op_gemm_m_stepped_80x24_utf8");
    ui_key(u, UI_KEY_LEFT); /* no smaller m */
    assert_non_null(strstr(u->message, "m is at its smallest"));
    /* Typed values take rooftop's suffixes; u undoes. */
    ui_key(u, '=');
    ui_key(u, '8');
    ui_key(u, 'k');
    ui_key(u, UI_KEY_ENTER);
    assert_true(u->scenario.op.shape.m == 8000.0);
    assert_string_equal(op_bound_name(&u->analysis.operation), "compute");
    ui_key(u, 'u');
    assert_true(u->scenario.op.shape.m == 1.0);
    ui_key(u, '=');
    ui_key(u, 'x');
    ui_key(u, UI_KEY_ENTER);
    assert_true(u->message_is_error);
    assert_non_null(strstr(u->message, "m: 'x' is not a number"));
}

/* v leaves the operation view for the model's and comes back; a scenario
 * without an operation says how to get one. */
static void test_op_view_toggle(void **state)
{
    (void)state;
    struct scenario s;
    op_scenario(&s, "h100", "gemm");
    start(&s, false, 80, 24);
    assert_non_null(strstr(frame_text(), "Operation"));
    ui_key(u, 'o'); /* the model's keys say where they work */
    assert_non_null(strstr(u->message, "model's view"));
    ui_key(u, 'v');
    const char *text = frame_text();
    assert_non_null(strstr(text, "Placement"));
    assert_null(strstr(text, "Operation"));
    ui_key(u, 'v');
    assert_non_null(strstr(frame_text(), "Operation"));
    scenario_default(&s);
    start(&s, false, 80, 24);
    ui_key(u, 'v');
    assert_non_null(strstr(u->message, "no operation to show"));
    assert_non_null(strstr(frame_text(), "Placement"));
}


/* True when text shows "nan" or "inf" as a word of its own (-inf, inf at
 * a line's start, NaN), the way printf writes a non-finite number. */
static bool shows_non_finite(const char *text)
{
    static const char *const words[] = {"nan", "inf", "NaN", "INF"};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (const char *p = strstr(text, words[w]); p; p = strstr(p + 1, words[w])) {
            bool before = p > text && isalpha((unsigned char)p[-1]), after = isalpha((unsigned char)p[3]);
            if (!before && !after)
                return true;
        }
    return false;
}

/* Every kind at every size from 80x24 to 250x80, in braille and ASCII:
 * no NaN or infinity, each knob stepped up and down once; below 80x24 the
 * larger-terminal screen. */
static void test_op_every_kind_and_size(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "gemm", "gemm:m=1,format=fp8", "attention", "attention:window=1024,kv=fp8", "decode-attention",
        "mla:heads=128", "decode-mla:batch=64,kv_len=8192,heads=128", "moe", "all-reduce", "all-gather:gpus=8",
        "reduce-scatter:bytes=1M,gpus=4", "all-to-all:bytes=16M,gpus=8",
    };
    static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {160, 50}, {200, 60}, {250, 80}};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct scenario s;
        op_scenario(&s, "h100", specs[i]);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            for (int ascii = 0; ascii < 2; ascii++) {
                start(&s, ascii, sizes[k][0], sizes[k][1]);
                const char *text = frame_text();
                if (shows_non_finite(text) || !strstr(text, "Operation"))
                    fail_msg("%s at %dx%d: %s", specs[i], sizes[k][0], sizes[k][1], text);
                for (int knob = 0; knob < OP_KNOBS_MAX; knob++) {
                    ui_key(u, UI_KEY_RIGHT);
                    ui_key(u, UI_KEY_LEFT);
                    text = frame_text();
                    if (shows_non_finite(text))
                        fail_msg("%s at %dx%d, knob %d: %s", specs[i], sizes[k][0], sizes[k][1], knob, text);
                    ui_key(u, UI_KEY_DOWN);
                }
            }
        }
        start(&s, false, 40, 10);
        assert_non_null(strstr(frame_text(), "larger"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_default_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chips_story, setup, teardown),
        cmocka_unit_test_setup_teardown(test_baseline_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compare_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mfu_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overlays_and_states, setup, teardown),
        cmocka_unit_test_setup_teardown(test_last_knobs_and_prompt_warning, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operations_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_work_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_honest_headline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_miss_said_plainly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pareto_view, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tour_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tour_hides_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tour_hides_coming_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_present_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp4_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_frames, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_m_steps_to_memory_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_view_toggle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_every_kind_and_size, setup, teardown),
    };
    /* ROOFTOP_TEST_FILTER=test_op_* runs (and, with ROOFTOP_UPDATE_GOLDEN=1,
     * rewrites the frames of) the matching tests alone. */
    const char *filter = getenv("ROOFTOP_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
