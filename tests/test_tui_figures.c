/* test_tui_figures.c — every figure on screen whole: digits are never cut
 * to fit (words go first), at every width from 80 to 250 columns, heights 24
 * and 40, with every knob at its smallest, default, largest and a large
 * value. Also: one time style (never "0.000 s" for a time that is not
 * zero), one number style (no exponents), and an MFU above 100% flagged
 * with its reason.
 *
 * Each figure is formatted the way its panel formats it (the same units
 * helpers) and looked for after its label in its panel: the token of
 * digits there must be the whole figure, never a prefix of it, and a label
 * must not stand at the panel's edge with its number dropped. Any token of
 * two or more digits ending in a panel's last column that is a cut-short
 * prefix of a figure fails too.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static struct ui *u;
static struct grid g;

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

/* Row y of rect r as ASCII ('?' for anything else), NUL-terminated. */
static void rect_row(struct rect r, int y, char *out, size_t size)
{
    size_t n = 0;
    for (int x = 0; x < r.w && n + 1 < size; x++) {
        uint32_t ch = grid_cell(&g, r.x + x, r.y + y)->ch;
        out[n++] = ch < 0x80 ? (char)ch : '?';
    }
    out[n] = '\0';
}

/* The leading number of a figure: "2.75" of "2.75 TB", "125.4" of "125.4%". */
static void numeric_part(const char *figure, char *out, size_t size)
{
    size_t n = 0;
    const char *p = figure;
    if (*p == '-' || *p == '+')
        out[n++] = *p++;
    while ((*p >= '0' && *p <= '9') || *p == '.') {
        if (n + 1 < size)
            out[n++] = *p;
        p++;
    }
    out[n] = '\0';
}

/* What went wrong, for the failure message. */
static char why[1024];

/* How often each check found its label with a whole figure after it, by
 * the check's name: a label renamed on screen would otherwise turn its
 * check off without a failure. */
static struct {
    const char *what;
    long hits;
} seen[32];

static void seen_hit(const char *what)
{
    for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++)
        if (!seen[i].what || strcmp(seen[i].what, what) == 0) {
            seen[i].what = what;
            seen[i].hits++;
            return;
        }
}

static long seen_hits(const char *what)
{
    for (size_t i = 0; i < sizeof seen / sizeof seen[0] && seen[i].what; i++)
        if (strcmp(seen[i].what, what) == 0)
            return seen[i].hits;
    return 0;
}

/* Checks the figure after each label in row y of rect r (when at_col0,
 * only a label at the row's start): the digits that follow must be the
 * whole figure; a label at the edge with nothing after it is a dropped
 * number. Returns false and fills why on a cut. */
static bool check_label(struct rect r, int y, const char *label, bool at_col0, const char *figure, const char *what)
{
    if (y < 0 || y >= r.h)
        return true;
    char row[512], want[64];
    rect_row(r, y, row, sizeof row);
    numeric_part(figure, want, sizeof want);
    size_t ll = strlen(label);
    for (const char *p = strstr(row, label); p; p = strstr(p + 1, label)) {
        if (at_col0 && p != row)
            break;
        bool word = (label[0] >= 'a' && label[0] <= 'z') || (label[0] >= 'A' && label[0] <= 'Z');
        if (word && p > row && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z')))
            continue; /* a word label inside a longer word ("/request, " follows "GB" by design) */
        const char *q = p + ll;
        while (*q == ' ')
            q++;
        if (*q == '\0') {
            snprintf(why, sizeof why, "%s: label '%s' at the panel's edge, its number %s dropped: [%s]", what, label,
                     figure, row);
            return false;
        }
        if (!((*q >= '0' && *q <= '9') || *q == '-' || *q == '+'))
            continue;
        char got[64];
        size_t n = 0;
        if (*q == '-' || *q == '+')
            got[n++] = *q++;
        while (((*q >= '0' && *q <= '9') || *q == '.') && n + 1 < sizeof got)
            got[n++] = *q++;
        got[n] = '\0';
        if (strcmp(got, want) != 0) {
            snprintf(why, sizeof why, "%s: after '%s' shows '%s', want '%s' (%s): [%s]", what, label, got, want, figure,
                     row);
            return false;
        }
        seen_hit(what);
    }
    return true;
}

/* Checks every token of digits in the last columns of rect r against the
 * figures: one of two or more characters that
 * a figure continues with a digit is a cut number. */
static bool check_edges(struct rect r, const char *const *figures, int nfig, const char *what)
{
    for (int y = 0; y < r.h; y++) {
        char row[512];
        rect_row(r, y, row, sizeof row);
        int end = (int)strlen(row); /* a cut at the edge ends in the panel's last column */
        int start = end;
        while (start > 0 && ((row[start - 1] >= '0' && row[start - 1] <= '9') || row[start - 1] == '.'))
            start--;
        int len = end - start;
        if (len < 2 || (start > 0 && row[start - 1] != ' '))
            continue;
        for (int f = 0; f < nfig; f++) {
            char want[64];
            numeric_part(figures[f], want, sizeof want);
            if (strtod(want, NULL) == 0.0)
                continue; /* "0.0" is whole, whatever "0.000 s" says */
            if ((int)strlen(want) > len && strncmp(want, row + start, (size_t)len) == 0 && want[len] >= '0' &&
                want[len] <= '9') {
                snprintf(why, sizeof why, "%s: '%.*s' at the edge of a panel is %s cut short: [%s]", what, len,
                         row + start, figures[f], row);
                return false;
            }
        }
    }
    return true;
}

/* Finds the knob named name in the sliders panel; returns its row or -1. */
static int knob_row(const char *name)
{
    struct rect r = u->layout.sliders;
    for (int y = 1; y < r.h; y++) {
        char row[512];
        rect_row(r, y, row, sizeof row);
        if (strncmp(row + 1, name, strlen(name)) == 0 && row[1 + strlen(name)] == ' ')
            return y;
    }
    return -1;
}

/* Checks the current frame's figures; returns false with why filled. */
static bool check_frame_figures(void)
{
    const struct analysis *a = &u->analysis;
    const struct scenario *s = &u->scenario;
    const struct layout *l = &u->layout;
    char total[24], prefill[24], decode[24], weights[24], kvreq[24], kv[24], batch[24], chips[24], mfu[24];
    format_turn_seconds(total, sizeof total, a->latency.total_s);
    format_turn_seconds(prefill, sizeof prefill, a->latency.prefill_s);
    format_turn_seconds(decode, sizeof decode, a->latency.decode_s);
    format_si(weights, sizeof weights, a->memory.weights_bytes, "B");
    format_si(kvreq, sizeof kvreq, a->memory.kv_cache_bytes_per_request, "B");
    format_si(kv, sizeof kv, a->memory.kv_cache_bytes, "B");
    format_number(batch, sizeof batch, (double)s->batch, 0);
    format_number(chips, sizeof chips, (double)s->chips, 0);
    format_percent(mfu, sizeof mfu, a->mfu_budget.mfu);
    const char *figs[] = {total, prefill, decode, weights, kvreq, kv, batch, chips, mfu};
    int nfig = a->has_mfu_budget ? 9 : 8;
    bool ok = check_label(l->title, 0, "batch ", false, batch, "title batch") &&
              check_label(l->latency, 0, "total ", false, total, "latency total") &&
              check_label(l->latency, 2, "prefill ", false, prefill, "latency prefill") &&
              check_label(l->latency, 3, "decode ", false, decode, "latency decode") &&
              check_label(l->memory, 0, "weights ", false, weights, "weights") &&
              check_label(l->memory, 1, "KV ", true, kvreq, "KV per request") &&
              check_label(l->memory, 1, "/request, ", false, kv, "KV") &&
              check_label(l->memory, 1, "batch ", false, batch, "memory batch") &&
              (!a->has_mfu_budget || check_label(l->mfu, 2, "MFU ", true, mfu, "MFU"));
    /* The placement rows: each phase's intensity after its name. */
    for (int i = 0, row = 1; ok && i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (p->operation)
            continue;
        char ai[24], label[24];
        format_number(ai, sizeof ai, p->roof.intensity_flop_per_byte, 1);
        snprintf(label, sizeof label, "%s", p->phase);
        ok = check_label(l->placement, row++, label, true, ai, "placement AI");
    }
    int br = knob_row("batch"), cr = knob_row("chips");
    if (ok && br > 0)
        ok = check_label(l->sliders, br, "batch ", false, batch, "batch knob"); /* the row starts with the marker */
    if (ok && cr > 0)
        ok = check_label(l->sliders, cr, "chips ", false, chips, "chips knob");
    const struct rect panels[] = {l->title, l->sliders, l->placement, l->mfu, l->latency, l->memory};
    for (size_t k = 0; ok && k < sizeof panels / sizeof panels[0]; k++)
        ok = check_edges(panels[k], figs, nfig, "edge");
    return ok;
}

/* The values a knob is checked at: smallest, default, largest and a large
 * one typed in ("" for knobs without one). */
static const char *const large_values[SLIDER_COUNT] = {
    [SLIDER_BATCH] = "1024",    [SLIDER_CHIPS] = "4096",    [SLIDER_PP] = "8",        [SLIDER_CONTEXT] = "131072",
    [SLIDER_PREFILL] = "131072", [SLIDER_DECODE] = "8192",   [SLIDER_BUDGET] = "100",  [SLIDER_OVERHEAD] = "0.9",
    [SLIDER_MFU] = "0.95",      [SLIDER_MODEL] = "",        [SLIDER_KV_HEADS] = "",   [SLIDER_EP] = "",
    [SLIDER_PRECISION] = "",    [SLIDER_CHIP] = "",
};

/* Sets *s to knob id's value number which (0 smallest, 1 default, 2
 * largest, 3 large); false when there is no such value. */
static bool knob_value(struct scenario *s, enum slider_id id, int which)
{
    struct chip_list chips = chip_builtin_list();
    int guard = 0;
    switch (which) {
    case 0:
        while (slider_step_in(s, id, -1, true, chips) && guard++ < 100)
            ;
        return true;
    case 1:
        return true;
    case 2:
        while (slider_step_in(s, id, 1, true, chips) && guard++ < 100)
            ;
        return true;
    default: {
        char err[256];
        return large_values[id] && large_values[id][0] &&
               slider_set_text_in(s, id, large_values[id], err, sizeof err, chips) == 0;
    }
    }
}

/* Renders every knob at each of its values at 80..250 columns and 24 and 40
 * rows; every figure is whole on every frame. */
static void test_no_figure_is_cut_at_any_width(void **state)
{
    (void)state;
    static const char *const which_name[] = {"smallest", "default", "largest", "large"};
    int frames = 0;
    for (int id = 0; id < SLIDER_COUNT; id++) {
        for (int which = 0; which < 4; which++) {
            struct scenario s;
            scenario_default(&s);
            if (!knob_value(&s, (enum slider_id)id, which))
                continue;
            char err[256];
            if (ui_init(u, &s, false, 80, 24, err, sizeof err) != 0)
                continue; /* a value analyze() refuses is not on screen */
            u->selected = id;
            for (int rows = 24; rows <= 40; rows += 16) {
                for (int cols = 80; cols <= 250; cols++) {
                    ui_resize(u, cols, rows);
                    assert_int_equal(ui_render(u, &g), 0);
                    frames++;
                    if (!check_frame_figures())
                        fail_msg("%s at its %s value, %dx%d: %s", slider_name((enum slider_id)id), which_name[which],
                                 cols, rows, why);
                }
            }
        }
    }
    assert_true(frames > 5000);
    /* Every check found its figure on screen, most on nearly every frame. */
    static const char *const checks[] = {"title batch", "latency total", "latency prefill", "latency decode",
                                         "weights", "KV per request", "KV", "memory batch", "MFU",
                                         "placement AI", "batch knob", "chips knob"};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (seen_hits(checks[i]) < 100)
            fail_msg("the '%s' check found its figure on %ld frames of %d", checks[i], seen_hits(checks[i]), frames);
}

/* The whole frame as text. */
static const char *frame(void)
{
    static char text[1 << 18];
    assert_int_equal(ui_render(u, &g), 0);
    grid_to_text(&g, text, sizeof text);
    return text;
}

/* A time under 1 ms reads in us, one under 0.01 s in ms; counts over 99999
 * in k or M, never with an exponent ("1e+06"). */
static void test_one_time_and_number_style(void **state)
{
    (void)state;
    struct scenario s;
    guide_napkin(&s);
    s.model = *model_find("llama-3.1-8b");
    s.params = 0.0;
    s.chip = *chip_find("h100");
    s.chips = 8;
    s.prefill_tokens = 16;
    s.decode_tokens = 1;
    s.context_tokens = 1 << 20;
    char err[256];
    assert_int_equal(ui_init(u, &s, false, 120, 40, err, sizeof err), 0);
    const char *f = frame();
    assert_null(strstr(f, "0.000 s"));
    assert_null(strstr(f, "e+0"));
    char want[24], line[64];
    snprintf(line, sizeof line, "prefill  %10s", format_turn_seconds(want, sizeof want, u->analysis.latency.prefill_s));
    assert_true(u->analysis.latency.prefill_s < 1e-3);
    assert_non_null(strstr(want, " us"));
    assert_non_null(strstr(f, line));
    char knob[32];
    assert_string_equal(slider_value_text(&u->scenario, SLIDER_CONTEXT, knob, sizeof knob), "1.05M");
    assert_non_null(strstr(f, "   1.05M ")); /* the knob, right-aligned */
    assert_non_null(strstr(f, "context 1.05M tokens"));  /* the memory panel */
}

/* Three figures were all "% of peak" for prefill: the placement's is the
 * roof at that intensity, the knob is the prefill MFU the napkin assumes,
 * the MFU panel's is the training step's MFU; one above 100% is flagged
 * with the reason on screen. */
static void test_mfu_above_100_is_flagged(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.model = *model_find("llama-3.1-8b");
    s.params = 0.0;
    s.batch = 1;
    s.context_tokens = 131072;
    s.chip = *chip_find("h200"); /* Adam's 16 bytes a parameter, 128 GB, fit its 141 GB */
    char err[256];
    assert_int_equal(ui_init(u, &s, false, 100, 30, err, sizeof err), 0);
    assert_true(u->analysis.mfu_budget.mfu > 1.0);
    /* Issue 21 item 4: never a bare figure over 100%: the causal count first, PaLM's named beside it. */
    char want[2][96], cm[16], pm[16], ch[16];
    format_percent(cm, sizeof cm, u->analysis.budget_causal_mfu);
    format_percent(ch, sizeof ch, u->analysis.budget_causal_hfu);
    format_percent(pm, sizeof pm, u->analysis.mfu_budget.mfu);
    assert_true(u->analysis.budget_causal_mfu < 1.0);
    snprintf(want[0], sizeof want[0], "MFU %s causal  (PaLM counts %s)  HFU %s", cm, pm, ch);
    snprintf(want[1], sizeof want[1], "MFU %s causal  (PaLM counts %s)", cm, pm);
    const char *f = frame();
    assert_non_null(strstr(f, "AI bound     roof lever"));
    if (!strstr(f, want[0]))
        fail_msg("no '%s' in\n%s", want[0], f);
    ui_resize(u, 80, 24);
    f = frame();
    if (!strstr(f, want[1]))
        fail_msg("no '%s' in\n%.3000s", want[1], strstr(f, "Placement") ? strstr(f, "Placement") : f);
    /* A step whose training state does not fit (one 16 GB TPU v5e) has no MFU at all. */
    s.chip = *chip_find("tpu-v5e");
    ui_free(u);
    assert_int_equal(ui_init(u, &s, false, 80, 24, err, sizeof err), 0);
    f = frame();
    assert_non_null(strstr(f, "No MFU: this training step cannot run."));
    assert_non_null(strstr(f, "Adam state 128 GB a chip > HBM 16.0 GB"));
    assert_non_null(strstr(f, "It needs 9 chips or more (or ZeRO)."));
    assert_null(strstr(f, "MFU 1"));
    u->selected = SLIDER_MFU;
    ui_resize(u, 120, 40);
    assert_non_null(strstr(frame(), "prefl MFU"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_no_figure_is_cut_at_any_width, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_time_and_number_style, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mfu_above_100_is_flagged, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
