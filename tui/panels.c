/* panels.c — title, sliders, placement, MFU, latency, memory, operations, help, work. */
#include "panels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "notewords.h"
#include "plot.h"

static const struct glyphs unicode_glyphs = {
    " \xc2\xb7 ", "\xc3\x97", "\xe2\x86\x91\xe2\x86\x93", "\xe2\x86\x90\xe2\x86\x92",
    0x25B8, 0x2501, 0x2500, 0x25CF, 0x2026,
    {0x2588, 0x2593, 0x2592, 0x2591, 0x2584, 0x00B7},
    0x2503,
    0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518,
    "\xe2\x89\xa0",
    "\xe2\x86\x91", "\xe2\x86\x93",
    "\xce\x94",
    "\xc2\xb1",
    "\xe2\x89\xa4",
};
static const struct glyphs ascii_glyphs = {
    " | ", "x", "j/k", "h/l",
    '>', '=', '-', 'O', '~',
    {'#', '=', ':', '.', '+', '_'},
    '|',
    '-', '|', '+', '+', '+', '+',
    "vs",
    "^", "v",
    "d",
    "+/-",
    "<=",
};

const struct glyphs *glyphs_for(bool ascii)
{
    return ascii ? &ascii_glyphs : &unicode_glyphs;
}

/* What a drawn figure gives away, as view_conceals tags (--report=json key
 * prefixes): a tour question about any of them hides the figure until the
 * guess is in. The turn's times tell one another (the total less decode and
 * overhead is prefill), and the serving and budget lines are the same
 * times per request. */
static const char FIG_TURN[] = "latency.prefill_s latency.decode_s latency.overhead_s latency.total_s "
                               "latency.verdict latency.chips_for_budget latency.napkin latency.detailed "
                               "latency.realistic latency.estimates latency.verdicts serving. decode.memory_step_s";
/* The turn's times, each telling the others beside the shown ones (the total less prefill and overhead is
 * decode): the first is the figure's own key (view_conceals_later). */
static const char FIG_TURN_TIMES[] = "latency.total_s latency.decode_s latency.prefill_s";
static const char FIG_MFU[] = "mfu_budget. training.mfu training.hfu training.step_s prefill.mfu";

/* Seconds as the guide prints them: "1.981 s", "0.683 s", "27.952 s"; under
 * 0.01 s in ms or us ("4.5 ms"), never "0.000 s". */
static void secs(char *buf, size_t size, double s)
{
    format_turn_seconds(buf, size, s);
}

/* An arithmetic intensity in the screen's number style: "1.0", "241",
 * "8192", "1.20M". */
static void intensity(char *buf, size_t size, double ai)
{
    format_number(buf, size, ai, 1);
}

/* A change in seconds with its sign: "+0.123 s", "-2.151 s", "+45.3 ms". */
static void delta_secs(char *buf, size_t size, double now, double base)
{
    char t[20];
    format_turn_seconds(t, sizeof t, now - base);
    snprintf(buf, size, "%s%s", now - base >= 0.0 ? "+" : "", t);
}

/* A change in percent of the baseline: "+12.3%"; "" when the baseline is 0. */
static void delta_pct(char *buf, size_t size, double now, double base)
{
    if (base > 0.0 && isfinite(now / base))
        snprintf(buf, size, "%+.1f%%", (now - base) / base * 100.0);
    else
        buf[0] = '\0';
}

/* A change of a size in bytes with its sign: "+70.0 GB" (format_si of the
 * difference's magnitude). */
static void delta_bytes(char *buf, size_t size, double now, double base)
{
    char t[24];
    format_si(t, sizeof t, fabs(now - base), "B");
    snprintf(buf, size, "%s%s", now < base ? "-" : "+", t);
}

/* The role of a change by its meaning: more is better (more_is_better) or
 * worse; no change is dim. */
static enum role change_role(double now, double base, bool more_is_better)
{
    if (now == base)
        return ROLE_DIM;
    return (now > base) == more_is_better ? ROLE_OK : ROLE_MISS;
}

/* The verdict (when verdict), total and name (when name) of estimate m,
 * as the title shows them. */
static void estimate_text(const struct analysis *a, enum rt_latency_model m, bool verdict, bool name, char *buf,
                          size_t size)
{
    const bool *oks = a->estimate_ok;
    char t[24];
    secs(t, sizeof t, a->estimate_total_s[m]);
    /* "realistic?": the chip's kernels were not measured on it (borrowed fits, or none). */
    bool unsure = m == RT_LATENCY_REALISTIC && !a->realistic.chip_calibrated;
    snprintf(buf, size, "%s%s%s%s%s", verdict ? (oks[m] ? "OK " : "MISS ") : "", t, name ? " " : "",
             name ? latency_model_name(m) : "", name && unsure ? "?" : "");
}

/* The title's right part when serving targets are set, fullest first:
 * their verdict word, TTFT and TPOT against their targets, then the turn
 * budget's verdict second ("OK TTFT 356.4 ms <= 500 ms, TPOT 11.5 ms <= 50
 * ms; turn MISS 2.083 s"). A target not set shows its figure alone. */
static void serving_verdict_forms(const struct analysis *a, char right[5][256], const struct glyphs *g)
{
    const struct serving_figures *sv = &a->serving;
    char tt[24], tp[24], ttt[24], tpt[24], turn[24], ttft[48], tpot[48];
    if (sv->loop.overloaded)
        snprintf(tt, sizeof tt, "unbounded");
    else
        format_seconds(tt, sizeof tt, sv->ttft_s);
    format_seconds(tp, sizeof tp, sv->tpot_s);
    format_turn_seconds(turn, sizeof turn, a->latency.total_s);
    if (sv->ttft_target_s > 0.0)
        snprintf(ttft, sizeof ttft, "TTFT %s %s %s", tt, sv->ttft_ok ? g->at_most : ">",
                 format_seconds(ttt, sizeof ttt, sv->ttft_target_s));
    else
        snprintf(ttft, sizeof ttft, "TTFT %s", tt);
    if (sv->tpot_target_s > 0.0)
        snprintf(tpot, sizeof tpot, "TPOT %s %s %s", tp, sv->tpot_ok ? g->at_most : ">",
                 format_seconds(tpt, sizeof tpt, sv->tpot_target_s));
    else
        snprintf(tpot, sizeof tpot, "TPOT %s", tp);
    /* A MISS whose two rows read met says what fails instead ("MISS (weights do not fit) TTFT ...") */
    const char *blocker = serving_blocker(a);
    char word[64];
    snprintf(word, sizeof word, "%s%s%s", sv->ok ? "OK " : "MISS ", blocker ? blocker : "", blocker ? ": " : "");
    const char *turn_word = a->latency.ok ? "OK" : "MISS";
    snprintf(right[0], 256, "%s%s, %s; turn %s %s  ? help ", word, ttft, tpot, turn_word, turn);
    snprintf(right[1], 256, "%s%s, %s; turn %s %s ", word, ttft, tpot, turn_word, turn);
    snprintf(right[2], 256, "%s%s, %s; turn %s ", word, ttft, tpot, turn_word);
    snprintf(right[3], 256, "%s%s, %s ", word, ttft, tpot);
    snprintf(right[4], 256, "%s%s ", sv->ok ? "OK " : "MISS ", blocker ? blocker : "targets");
}

void panel_title(struct view v, const struct scenario *s, const struct analysis *a, const struct analysis *base,
                    const struct glyphs *g)
{
    char model[96], mine[48], named[64], other[48], other_short[48], t1[24];
    view_fill(v, 0, 0, v.r.w, 1, ' ', ROLE_TITLE);
    bool counted = model_stated_dropped(&s->model); /* a changed shape: the name's stated count no longer holds */
    if (s->params > 0.0)
        snprintf(model, sizeof model, "N=%s", format_count(t1, sizeof t1, s->params));
    else if (counted)
        snprintf(model, sizeof model, "%s (%s)", s->model.name, format_count(t1, sizeof t1, a->params));
    else
        snprintf(model, sizeof model, "%s", s->model.name);
    /* Left: fullest first; precision and batch are on the knobs too. A
     * disaggregated prefill pool counts beside the replica: "2+4 x h100". */
    char chips[48], n1[16], n2[16], nb[16];
    format_number(n1, sizeof n1, (double)s->chips, 0);
    format_number(nb, sizeof nb, (double)s->batch, 0);
    if (s->disagg_prefill_chips > 0)
        snprintf(chips, sizeof chips, "%s+%s", n1, format_number(n2, sizeof n2, (double)s->disagg_prefill_chips, 0));
    else
        snprintf(chips, sizeof chips, "%s", n1);
    /* The weights' precision, with the W/A label when the matmuls run at another (W4A16, W4A8). */
    char prec[40];
    if (a->compute_precision != s->precision)
        snprintf(prec, sizeof prec, "%s (W%dA%d)", precision_name(s->precision), precision_nominal_bits(s->precision),
                 precision_nominal_bits(a->compute_precision));
    else
        snprintf(prec, sizeof prec, "%s", precision_name(s->precision));
    char left[4][320];
    snprintf(left[0], sizeof left[0], " rooftop%s%s%s%s %s %s%s%s%sbatch %s", g->sep, model, g->sep, chips, g->times,
             s->chip.key, g->sep, prec, g->sep, nb);
    snprintf(left[1], sizeof left[1], " rooftop%s%s%s%s %s %s%s%s", g->sep, model, g->sep, chips, g->times,
             s->chip.key, g->sep, prec);
    snprintf(left[2], sizeof left[2], " rooftop%s%s%s%s %s %s", g->sep, model, g->sep, chips, g->times, s->chip.key);
    snprintf(left[3], sizeof left[3], " %s%s%s %s %s", model, g->sep, chips, g->times, s->chip.key);
    /* Right: the verdict always; when the estimates disagree, the one
     * furthest from it too, at every width: the headline is never alone in
     * being wrong. */
    estimate_text(a, a->latency_model, true, false, mine, sizeof mine);
    estimate_text(a, a->latency_model, true, true, named, sizeof named);
    estimate_text(a, a->other_model, true, true, other, sizeof other);
    /* The other estimate without its verdict word, when the verdicts agree
     * (only the totals differ): room to keep the headline's name. */
    bool same_verdict = a->estimate_ok[a->other_model] == a->latency.ok;
    estimate_text(a, a->other_model, !same_verdict, true, other_short, sizeof other_short);
    char right[5][256];
    /* a tour question about the turn, or a coming one about its parts (the total less the prefill
     * and the overhead is the decode) */
    bool hide = view_asks(v, FIG_TURN) || view_conceals_later(v, FIG_TURN_TIMES);
    if (hide) {
        snprintf(right[0], sizeof right[0], "turn ? (guess first)  ? help ");
        snprintf(right[1], sizeof right[1], "turn ? (guess first) ");
        snprintf(right[2], sizeof right[2], "turn ? ");
        snprintf(right[3], sizeof right[3], "? ");
        snprintf(right[4], sizeof right[4], "? ");
        base = NULL;
    } else if (a->serving.targets_set) {
        /* Serving targets set: their verdict leads, the turn budget's comes second. */
        serving_verdict_forms(a, right, g);
    } else {
        /* A turn that does not fit in HBM says so where the title has room (the fullest form): its
         * times are on paper; the memory panel says it at every size */
        const char *fit = !a->memory.weights_fit  ? " (weights do not fit)"
                          : !a->memory.batch_fits ? " (batch does not fit)"
                                                  : "";
        if (a->estimates_disagree) {
            snprintf(right[0], sizeof right[0], "%s %s %s%s  ? help ", named, g->unequal, other, fit);
            snprintf(right[1], sizeof right[1], "%s %s %s ", named, g->unequal, other);
            snprintf(right[2], sizeof right[2], "%s %s %s ", named, g->unequal, other_short);
            snprintf(right[3], sizeof right[3], "%s %s %s ", mine, g->unequal, other);
            snprintf(right[4], sizeof right[4], "%s %s%s ", mine, g->unequal, latency_model_name(a->other_model));
        } else {
            snprintf(right[0], sizeof right[0], "%s%s  ? help ", named, fit);
            snprintf(right[1], sizeof right[1], "%s ", named);
            snprintf(right[2], sizeof right[2], "%s ", named);
            snprintf(right[3], sizeof right[3], "%s ", mine);
            snprintf(right[4], sizeof right[4], "%s ", mine);
        }
    }
    /* The first pairing that fits whole, in order of what matters most: the
     * headline's verdict, then that another estimate disagrees, then the
     * headline's name, then the chip count and chip, then the word rooftop. */
    static const int order[][2] = {{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 2}};
    /* With a baseline, the headline's change sits left of the right part,
     * its longest form that leaves the verdict and the chip in place. */
    char vs[3][96] = {"", "", ""};
    int vi = 3;
    if (base) {
        char bt[24], dt[24], dp[24];
        secs(bt, sizeof bt, base->latency.total_s);
        delta_secs(dt, sizeof dt, a->latency.total_s, base->latency.total_s);
        delta_pct(dp, sizeof dp, a->latency.total_s, base->latency.total_s);
        if (a->latency.total_s == base->latency.total_s) { /* just pinned: no "+0.000 s" */
            snprintf(vs[0], sizeof vs[0], "= base %s ", bt);
            snprintf(vs[1], sizeof vs[1], "= base ");
            snprintf(vs[2], sizeof vs[2], "= ");
        } else {
            snprintf(vs[0], sizeof vs[0], "base %s %s %s %s ", bt, g->delta, dt, dp);
            snprintf(vs[1], sizeof vs[1], "%s %s %s ", g->delta, dt, dp);
            snprintf(vs[2], sizeof vs[2], "%s %s ", g->delta, dt);
        }
    }
    int ri = 4, li = 3;
    for (int f = base ? 0 : 3; f <= 3; f++) {
        int extra = f < 3 ? text_width(vs[f]) : 0;
        size_t last = f < 3 ? 7 : sizeof order / sizeof order[0]; /* keep the chip, never cut the change */
        for (size_t k = 0; k < last; k++) {
            if (text_width(right[order[k][0]]) + text_width(left[order[k][1]]) + 1 + extra <= v.r.w) {
                ri = order[k][0];
                li = order[k][1];
                vi = f;
                break;
            }
        }
        if (vi == f)
            break;
    }
    int rw = text_width(right[ri]);
    int room = v.r.w - rw - 1;
    if (vi < 3) {
        int vw = text_width(vs[vi]);
        view_text_right(v, v.r.w - rw, 0, vs[vi],
                        change_role(base->latency.total_s, a->latency.total_s, true)); /* less time is better */
        room -= vw;
    }
    view_text(v, 0, 0, room > 0 ? room : v.r.w, left[li], ROLE_TITLE);
    if (room > 0) {
        int x = view_text_right(v, v.r.w, 0, right[ri], ROLE_TITLE);
        bool ok = a->serving.targets_set ? a->serving.ok : a->latency.ok;
        if (!hide)
            view_text(v, x, 0, ok ? 2 : 4, ok ? "OK" : "MISS", ok ? ROLE_OK_BIG : ROLE_MISS_BIG);
    }
}

void slider_track_geometry(int panel_w, int *track_x, int *track_w)
{
    /* marker(1) name(9) gap(1) value(8 to 15) gap(1) track: the value
     * gives way first, so that a narrow panel keeps a track of 9 cells or
     * more (17 notches of chips: the thumb moves at least every second
     * step), and 80 columns keep 12 for the value ("latent (MLA)",
     * "deepseek-v3" whole) */
    int value_w = panel_w - 1 - 9 - 1 - 1 - 10;
    value_w = value_w > 15 ? 15 : value_w < 8 ? 8 : value_w;
    *track_x = 1 + 9 + 1 + value_w + 1;
    *track_w = panel_w - *track_x - 1;
    if (*track_w < 4) {
        *track_w = 0;
        *track_x = panel_w;
    }
}

void panel_sliders(struct view v, const struct scenario *s, int selected, struct chip_list chips,
                   const struct glyphs *g)
{
    view_text(v, 0, 0, -1, "Knobs", ROLE_HEADER);
    view_text_right(v, v.r.w, 0, "Enter: type a value ", ROLE_DIM);
    int rows = v.r.h - 1, first = slider_first_visible(selected, rows);
    if (rows < SLIDER_COUNT && rows >= 1) { /* say which way the hidden knobs are */
        char more[32];
        int above = first, below = SLIDER_COUNT - rows - first;
        snprintf(more, sizeof more, "%s%s%s", above > 0 ? g->arrow_up : "", above > 0 && below > 0 ? " " : "",
                 below > 0 ? g->arrow_down : "");
        view_text(v, 6, 0, -1, more, ROLE_DIM);
    }
    for (int i = first; i < SLIDER_COUNT && 1 + i - first < v.r.h; i++) {
        char val[64];
        slider_value_text(s, (enum slider_id)i, val, sizeof val);
        panel_knob_row(v, 1 + i - first, slider_name((enum slider_id)i), val,
                       slider_fraction_in(s, (enum slider_id)i, chips), i == selected, g);
    }
}

void panel_knob_row(struct view v, int y, const char *name, const char *val, double frac, bool sel,
                    const struct glyphs *g)
{
    int track_x, track_w;
    slider_track_geometry(v.r.w, &track_x, &track_w);
    int value_w = track_x - 1 - 11;
    enum role base = sel ? ROLE_SELECTED : ROLE_TEXT;
    if (sel)
        view_fill(v, 0, y, v.r.w, 1, ' ', ROLE_SELECTED);
    view_put(v, 0, y, sel ? g->selected : ' ', base);
    view_text(v, 1, y, 9, name, base);
    int w = text_width(val);
    if (w > value_w) { /* keep the end of a long name: it tells presets apart */
        const char *tail = val;
        uint32_t cp;
        for (int skip = w - (value_w - 1); skip > 0 && *tail;) { /* by columns: a wide character is two */
            tail += utf8_decode(tail, &cp);
            skip -= char_width(cp);
        }
        view_put(v, 11, y, g->ellipsis, sel ? ROLE_SELECTED : ROLE_DIM);
        view_text(v, 12, y, value_w - 1, tail, sel ? ROLE_SELECTED : ROLE_ACCENT);
    } else
        view_text(v, 11 + value_w - w, y, value_w, val, sel ? ROLE_SELECTED : ROLE_ACCENT);
    if (track_w > 0) {
        int knob = slider_thumb_column(frac, track_w);
        for (int k = 0; k < track_w; k++) {
            uint32_t ch = k < knob ? g->track_full : g->track_empty;
            view_put(v, track_x + k, y, ch, k < knob ? ROLE_TRACK : (sel ? ROLE_SELECTED : ROLE_DIM));
        }
        view_put(v, track_x + knob, y, g->knob, ROLE_KNOB);
    }
}

void panel_placement(struct view v, const struct analysis *a, const struct analysis *base)
{
    /* Columns: phase 8, intensity 7, bound 8, the roof at that intensity
     * in %% of peak 6 ("roof": not an MFU), lever 10, then attainable
     * FLOP/s when the panel is wide enough. */
    bool wide = v.r.w >= 52;
    view_text(v, 0, 0, -1, "Placement", ROLE_HEADER);
    view_text(v, 9, 0, -1, "    AI bound     roof lever", ROLE_DIM);
    if (wide)
        view_text(v, 39, 0, -1, "  attains", ROLE_DIM);
    int row = 1;
    for (int i = 0; i < a->placement_count && row < v.r.h; i++) {
        const struct placement *p = &a->placements[i];
        if (p->operation) /* the phases here; their operations are the detailed model's */
            continue;
        char ai[24], pc[16], at[32];
        intensity(ai, sizeof ai, p->roof.intensity_flop_per_byte);
        format_percent(pc, sizeof pc, p->roof.fraction_of_peak);
        bool mem = p->roof.bound == RT_MEMORY_BOUND;
        /* A tour question about this row (or decode's intensity): its name only. */
        char tags[96];
        if (view_asks(v, phase_tags(p->phase, tags, sizeof tags))) {
            int x = view_printf(v, 0, row, 8, ROLE_TEXT, "%-8s", p->phase);
            view_text(v, x, row++, -1, "      ?  (your guess first)", ROLE_DIM);
            continue;
        }
        /* A coming step's answer on this row, figure by figure: the intensity, or the bound with
         * what gives it away (the share of the roof, the lever). */
        char bound_tag[64];
        snprintf(bound_tag, sizeof bound_tag, "placement[%s]%s", p->phase,
                 strcmp(p->phase, "training") == 0 ? " placement[prefill]" : "");
        bool later_bound = view_conceals_later(v, bound_tag);
        /* the intensity beside the ridge tells the bound too: hidden with it, unless it is what this
         * step revealed (decode's is a figure of its own) */
        bool decode = strcmp(p->phase, "decode") == 0;
        bool later_ai = !(decode && view_reveals(v, "decode_batch_intensity")) &&
                        ((decode && view_conceals_later(v, "decode_batch_intensity")) || later_bound);
        enum role pr = strcmp(p->phase, "prefill") == 0  ? ROLE_PREFILL
                       : strcmp(p->phase, "decode") == 0 ? ROLE_DECODE
                                                         : ROLE_TRAIN;
        int x = view_printf(v, 0, row, 8, pr, "%-8s", p->phase);
        x += view_printf(v, x, row, -1, ROLE_ACCENT, "%7s", later_ai ? "?" : ai);
        if (later_bound) {
            const char *wait = " ?       (a later step asks)";
            view_text(v, x, row++, -1, x + text_width(wait) <= v.r.w ? wait : " ?       (later)", ROLE_DIM);
            continue;
        }
        x += view_printf(v, x, row, -1, mem ? ROLE_MEMORY : ROLE_COMPUTE, " %-7s", bound_name(p->roof.bound));
        x += view_printf(v, x, row, -1, ROLE_ACCENT, "%6s", pc);
        x += view_printf(v, x, row, -1, ROLE_TEXT, " %-9s", p->roof.lever ? p->roof.lever : "");
        const struct placement *bp = analysis_phase_placement(base, p->phase);
        bool row_wide = wide;
        format_si(at, sizeof at, p->roof.attainable_flops_per_s, "FLOP/s");
        if (bp && bp->roof.fraction_of_peak != p->roof.fraction_of_peak) {
            /* The baseline's % of peak, before the FLOP/s: more of the peak is better. */
            char was[32], bpc[16];
            format_percent(bpc, sizeof bpc, bp->roof.fraction_of_peak);
            snprintf(was, sizeof was, " was %s", bpc);
            if (x + text_width(was) > v.r.w)
                snprintf(was, sizeof was, " %s", bpc);
            row_wide = false;
            if (x + text_width(was) <= v.r.w) {
                x += view_text(v, x, row, -1, was,
                               change_role(p->roof.fraction_of_peak, bp->roof.fraction_of_peak, true));
                row_wide = wide && x + 1 + text_width(at) <= v.r.w;
            }
        }
        if (row_wide)
            view_printf(v, x, row, -1, ROLE_DIM, " %s", at);
        row++;
    }
}

/* The colour of a step part's fill: the theme's five bar roles, the
 * pipeline bubble (idle time) dim. */
static enum role step_part_role(int p)
{
    return p < RT_PART_BUBBLE ? (enum role)(ROLE_BAR1 + p) : ROLE_DIM;
}

void panel_mfu(struct view v, const struct scenario *s, const struct analysis *a, const struct analysis *base,
                  const struct glyphs *g)
{
    char m[16], h[16];
    view_text(v, 0, 0, -1, "MFU budget", ROLE_HEADER);
    if (!a->has_mfu_budget) {
        view_text(v, 0, 1, -1, "No step times given (--step-times): the", ROLE_DIM);
        view_text(v, 0, 2, -1, "split of a training step's time into", ROLE_DIM);
        view_text(v, 0, 3, -1, "matmul/vector/memory/comms/optimizer.", ROLE_DIM);
        format_percent(m, sizeof m, s->mfu);
        view_printf(v, 0, 4, -1, ROLE_TEXT, "Prefill assumes MFU %s (prefl MFU knob).", m);
        return;
    }
    if (view_asks(v, FIG_MFU)) { /* a tour question about the MFU: the bar and its legend answer it */
        view_text(v, 0, 1, -1, "hidden until the tour's guess is in", ROLE_DIM);
        return;
    }
    enum rt_mfu_shown shown = analysis_mfu_shown(a, false);
    if (shown == RT_MFU_NONE) { /* no MFU for a step that cannot run: why, and what would run it */
        char st[24], hb[24], line[3][2][96];
        format_si(st, sizeof st, a->training.state_bytes_per_chip, "B");
        format_si(hb, sizeof hb, a->hbm_bytes, "B");
        snprintf(line[0][0], sizeof line[0][0], "No MFU: this training step cannot run.");
        snprintf(line[0][1], sizeof line[0][1], "No MFU: the step cannot run.");
        snprintf(line[1][0], sizeof line[1][0], "Adam state %s a chip > HBM %s", st, hb);
        snprintf(line[1][1], sizeof line[1][1], "state %s/chip > HBM %s", st, hb);
        snprintf(line[2][0], sizeof line[2][0], "It needs %.0f chips or more (or ZeRO).", a->training.state_fit_chips);
        snprintf(line[2][1], sizeof line[2][1], "needs %.0f+ chips", a->training.state_fit_chips);
        for (int i = 0; i < 3; i++) { /* the longest form that fits whole: never a cut figure */
            const char *t = text_width(line[i][0]) <= v.r.w ? line[i][0] : line[i][1];
            if (text_width(t) <= v.r.w)
                view_text(v, 0, 1 + i, -1, t, i == 0 ? ROLE_MISS : ROLE_TEXT);
        }
        return;
    }
    const struct mfu_budget *b = &a->mfu_budget;
    if (a->mfu_budget_source == RT_BUDGET_SHAPE && 11 + 17 <= v.r.w - 22)
        view_text(v, 11, 0, -1, "(from the shape)", ROLE_DIM);
    else if (a->mfu_budget_source == RT_BUDGET_STEP_TIMES && 11 + 18 <= v.r.w - 22)
        view_text(v, 11, 0, -1, "(from step times)", ROLE_DIM);
    format_percent(m, sizeof m, b->mfu);
    format_percent(h, sizeof h, a->hfu);
    char lever[48];
    snprintf(lever, sizeof lever, "%% of step; lever: %s", step_part_name(b->biggest_lever));
    if (11 + text_width(lever) <= v.r.w)
        view_text_right(v, v.r.w, 0, lever, ROLE_ACCENT);
    /* The stacked bar: widths from cumulative fractions so that they sum to the width. */
    int w = v.r.w;
    double cum = 0.0;
    int x = 0;
    for (int p = 0; p < RT_PART_COUNT; p++) {
        cum += b->fraction[p];
        int end = (int)lround(cum * w);
        if (p == RT_PART_COUNT - 1)
            end = w;
        for (; x < end; x++)
            view_put(v, x, 1, g->bar[p], step_part_role(p));
    }
    int x2 = view_text(v, 0, 2, -1, "MFU ", ROLE_TEXT);
    if (shown == RT_MFU_CAUSAL) {
        /* The convention counts attention whole: the causal figure first, the convention's named beside it. */
        char cm[16], ch[16], conv[64];
        format_percent(cm, sizeof cm, a->budget_causal_mfu);
        format_percent(ch, sizeof ch, a->budget_causal_hfu);
        x2 += view_text(v, x2, 2, -1, cm, ROLE_ACCENT);
        x2 += view_text(v, x2, 2, -1, " causal", ROLE_TEXT);
        const char *label = flops_convention_label(a->training.convention);
        snprintf(conv, sizeof conv, "  (%s counts %s)", label, m);
        if (x2 + text_width(conv) > v.r.w)
            snprintf(conv, sizeof conv, " (%s %s)", label, m);
        if (x2 + text_width(conv) <= v.r.w)
            x2 += view_text(v, x2, 2, -1, conv, ROLE_DIM);
        char hf[32];
        snprintf(hf, sizeof hf, "  HFU %s", ch);
        if (x2 + text_width(hf) <= v.r.w)
            view_text(v, x2, 2, -1, hf, ROLE_TEXT);
    } else
        x2 += view_text(v, x2, 2, -1, m, b->mfu > 1.0 ? ROLE_MISS : ROLE_ACCENT);
    if (shown == RT_MFU_CAUSAL) {
        /* said above */
    } else if (b->mfu > 1.0 || a->hfu > 1.0) {
        /* Above 100% is no achievement: say why it can happen, in the recompute factor's place. */
        char why[64];
        x2 += view_text(v, x2, 2, -1, "!", ROLE_MISS);
        snprintf(why, sizeof why, "  HFU %s!  %s", h, analysis_over_peak_reason(a, false));
        if (x2 + text_width(why) > v.r.w)
            snprintf(why, sizeof why, "  %s", analysis_over_peak_reason(a, false));
        if (x2 + text_width(why) > v.r.w)
            snprintf(why, sizeof why, "  %s", analysis_over_peak_reason(a, true));
        if (x2 + text_width(why) <= v.r.w)
            view_text(v, x2, 2, -1, why, ROLE_MISS);
    } else if (base && base->has_mfu_budget && base->mfu_budget.mfu != b->mfu) {
        /* The baseline's MFU beside this one, the recompute factor's place when short of room. */
        char bm[16], was[40];
        format_percent(bm, sizeof bm, base->mfu_budget.mfu);
        snprintf(was, sizeof was, " (was %s)", bm);
        if (x2 + text_width(was) + 6 + text_width(h) > v.r.w)
            snprintf(was, sizeof was, " was %s", bm);
        if (x2 + text_width(was) <= v.r.w)
            x2 += view_text(v, x2, 2, -1, was, change_role(b->mfu, base->mfu_budget.mfu, true));
        char rest[48];
        snprintf(rest, sizeof rest, "  HFU %s", h);
        if (x2 + text_width(rest) <= v.r.w) {
            x2 += view_text(v, x2, 2, -1, "  HFU ", ROLE_TEXT);
            x2 += view_text(v, x2, 2, -1, h, ROLE_ACCENT);
        }
        snprintf(rest, sizeof rest, "  (recompute x%.2f)", a->recompute_factor);
        if (x2 + text_width(rest) <= v.r.w)
            view_text(v, x2, 2, -1, rest, ROLE_DIM);
    } else {
        x2 += view_text(v, x2, 2, -1, "  HFU ", ROLE_TEXT);
        x2 += view_text(v, x2, 2, -1, h, ROLE_ACCENT);
        view_printf(v, x2, 2, -1, ROLE_DIM, "  (recompute x%.2f)", a->recompute_factor);
    }
    int row = 3;
    int lx = 0;
    for (int p = 0; p < RT_PART_COUNT; p++) {
        /* Legend: the fill, the part, its share of the step in percent (a
         * bubble only where there are pipeline stages). */
        if (p == RT_PART_BUBBLE && !(b->seconds[p] > 0.0))
            continue;
        char item[48];
        snprintf(item, sizeof item, "%s %.1f", step_part_name((enum rt_step_part)p), b->fraction[p] * 100.0);
        int iw = text_width(item) + 1;
        if (lx > 0 && lx + iw > w) {
            row++;
            lx = 0;
        }
        view_put(v, lx, row, g->bar[p], step_part_role(p));
        view_text(v, lx + 1, row, -1, item, ROLE_TEXT);
        lx += iw + 1;
    }
}

/* The 3-row OK / MISS banner at (x, y), 8 columns wide. */
static void banner(struct view v, int x, int y, bool ok)
{
    enum role r = ok ? ROLE_OK_BIG : ROLE_MISS_BIG;
    view_fill(v, x, y, 8, 3, ' ', r);
    view_text(v, x + (ok ? 3 : 2), y + 1, -1, ok ? "OK" : "MISS", r);
}

int wrap_text(struct view v, int y, const char *text, enum role role, bool centre)
{
    int w = v.r.w;
    const char *p = text;
    while (*p && y < v.r.h && w > 0) {
        /* Take up to w columns, back to the last blank when the rest is longer. */
        int cut = 0, cols = 0, i = 0;
        while (p[i]) {
            uint32_t cp;
            int k = utf8_decode(p + i, &cp);
            if (cols + char_width(cp) > w) /* a wide character whole, on this line or the next */
                break;
            if (cp == ' ')
                cut = i;
            i += k;
            cols += char_width(cp);
        }
        int n = p[i] == '\0' || cut == 0 ? i : cut;
        if (n == 0) { /* not one character fits (a wide one in one column): pass over it */
            uint32_t cp;
            int k = utf8_decode(p, &cp);
            n = k > 0 ? k : 1;
        }
        char line[512];
        snprintf(line, sizeof line, "%.*s", n < 511 ? n : 511, p);
        const char *rest = p + n;
        while (*rest == ' ')
            rest++;
        if (y == v.r.h - 1 && *rest && w > 8) {
            /* The panel's last row and more to say: end on a whole word and " ...", never on half a
             * figure ("fp8 KV (13" of "(13.0 FLOP/byte)") that reads as the whole. */
            while (text_width(line) + 4 > w) {
                char *sp = strrchr(line, ' ');
                if (!sp)
                    break;
                *sp = '\0';
            }
            if (text_width(line) + 4 <= w)
                strcat(line, " ...");
        }
        int x = centre ? (w - text_width(line)) / 2 : 0;
        view_text(v, x > 0 ? x : 0, y++, -1, line, role);
        p += n;
        while (*p == ' ')
            p++;
    }
    return y;
}

/* The latency panel's baseline line at row y: the baseline's total and the
 * change, in seconds and percent; words go first, then the percentage. */
static void latency_baseline_line(struct view v, int y, const struct analysis *a, const struct analysis *base,
                                  const struct glyphs *g)
{
    char bt[24], dt[24], dp[24];
    double now = a->latency.total_s, was = base->latency.total_s;
    secs(bt, sizeof bt, was);
    delta_secs(dt, sizeof dt, now, was);
    delta_pct(dp, sizeof dp, now, was);
    enum role r = change_role(was, now, true); /* less time is better */
    if (now == was) { /* just pinned, or back where it was: no "+0.000 s" */
        char same[3][64];
        snprintf(same[0], sizeof same[0], "baseline %s  unchanged", bt);
        snprintf(same[1], sizeof same[1], "base %s  =", bt);
        snprintf(same[2], sizeof same[2], "= base");
        for (int f = 0; f < 3; f++)
            if (text_width(same[f]) <= v.r.w) {
                view_text(v, 0, y, -1, same[f], ROLE_TEXT);
                return;
            }
        return;
    }
    /* Forms: word, baseline total, Δ seconds, percent. */
    static const struct {
        const char *word;
        bool total, pct;
    } forms[] = {{"baseline ", true, true}, {"base ", true, true}, {"base ", true, false}, {"", false, true},
                 {"", false, false}};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        char line[128];
        snprintf(line, sizeof line, "%s%s%s%s %s%s%s", forms[f].word, forms[f].total ? bt : "",
                 forms[f].total ? "  " : "", g->delta, dt, forms[f].pct && dp[0] ? " " : "", forms[f].pct ? dp : "");
        if (text_width(line) > v.r.w)
            continue;
        int x = view_text(v, 0, y, -1, forms[f].word, ROLE_TEXT);
        if (forms[f].total) {
            x += view_text(v, x, y, -1, bt, ROLE_ACCENT);
            x += view_text(v, x, y, -1, "  ", ROLE_TEXT);
        }
        x += view_printf(v, x, y, -1, r, "%s %s", g->delta, dt);
        if (forms[f].pct && dp[0])
            view_printf(v, x, y, -1, r, " %s", dp);
        return;
    }
}

static void latency_tail(struct view v, int row, const struct analysis *a, const struct glyphs *g);

/* One target's row at (x, y): "TTFT 332.8 ms <= 500.0 ms", in the colour
 * of its verdict; a target not set is the figure alone. */
static void target_row(struct view v, int x, int y, const char *name, double s, double target, bool ok, bool unbounded,
                       const struct glyphs *g)
{
    char fig[24], tg[24], line[80];
    if (unbounded)
        snprintf(fig, sizeof fig, "unbounded");
    else
        format_seconds(fig, sizeof fig, s);
    if (target > 0.0)
        snprintf(line, sizeof line, "%s %9s %s %s", name, fig, ok ? g->at_most : ">",
                 format_seconds(tg, sizeof tg, target));
    else
        snprintf(line, sizeof line, "%s %9s  no target", name, fig);
    if (x + text_width(line) <= v.r.w)
        view_text(v, x, y, -1, line, target > 0.0 ? (ok ? ROLE_OK : ROLE_MISS) : ROLE_TEXT);
}

/* With serving targets set, the latency panel leads with their verdict:
 * TTFT and TPOT against the targets in the banner's rows, tokens/s per user
 * and per chip, then the turn against its budget, second, in one line, and
 * the rest of the panel (latency_tail). */
static void panel_latency_targets(struct view v, const struct analysis *a, const struct glyphs *g)
{
    const struct serving_figures *sv = &a->serving;
    const struct latency_verdict *l = &a->latency;
    int x = view_text(v, 0, 0, -1, "Serving targets", ROLE_HEADER);
    x += view_text(v, x, 0, -1, sv->ok ? "  met" : "  missed", sv->ok ? ROLE_OK : ROLE_MISS);
    const char *blocker = serving_blocker(a); /* both rows met, yet a MISS: say what fails */
    if (blocker && x + 2 + text_width(blocker) <= v.r.w) {
        view_text(v, x, 0, -1, ": ", ROLE_MISS);
        view_text(v, x + 2, 0, -1, blocker, ROLE_MISS);
    }
    banner(v, 0, 1, sv->ok);
    target_row(v, 9, 1, "TTFT", sv->ttft_s, sv->ttft_target_s, sv->ttft_ok, sv->loop.overloaded, g);
    target_row(v, 9, 2, "TPOT", sv->tpot_s, sv->tpot_target_s, sv->tpot_ok, false, g);
    char rate[64];
    snprintf(rate, sizeof rate, "%.1f tok/s/user, %.1f/chip", sv->tokens_per_s_per_user, sv->tokens_per_s_per_chip);
    if (9 + text_width(rate) <= v.r.w)
        view_text(v, 9, 3, -1, rate, ROLE_TEXT);
    /* The turn budget's verdict, second: the longest form that fits whole. */
    char t[24], b[24], forms[3][96];
    secs(t, sizeof t, l->total_s);
    secs(b, sizeof b, l->budget_s);
    snprintf(forms[0], sizeof forms[0], "turn %s %s budget %s: %s (the targets decide)", t,
             l->total_s <= l->budget_s ? "<=" : ">", b, l->ok ? "OK" : "MISS");
    snprintf(forms[1], sizeof forms[1], "turn %s %s budget %s: %s", t, l->total_s <= l->budget_s ? "<=" : ">", b,
             l->ok ? "OK" : "MISS");
    snprintf(forms[2], sizeof forms[2], "turn %s: %s", t, l->ok ? "OK" : "MISS");
    for (int f = 0; f < 3; f++)
        if (text_width(forms[f]) <= v.r.w) {
            view_text(v, 0, 4, -1, forms[f], ROLE_DIM);
            break;
        }
    latency_tail(v, 5, a, g);
}

void panel_latency(struct view v, const struct analysis *a, const struct analysis *base, const struct glyphs *g)
{
    const struct latency_verdict *l = &a->latency;
    if (view_asks(v, FIG_TURN)) { /* a tour question about the turn: every time here answers it */
        view_text(v, 0, 0, -1, "Latency", ROLE_HEADER);
        view_text(v, 0, 1, -1, "hidden until the tour's guess is in", ROLE_DIM);
        return;
    }
    if (a->serving.targets_set) { /* their verdict is the explorer's, the turn budget's second */
        panel_latency_targets(v, a, g);
        return;
    }
    char total[24], t[24], b[24], p[24], d[24], o[24];
    /* A coming tour step's answer shown here is a "?" (the total tells prefill and decode too) */
    secs(total, sizeof total, l->total_s);
    snprintf(t, sizeof t, "%s", view_figure(v, FIG_TURN_TIMES, total));
    secs(b, sizeof b, l->budget_s);
    /* The comparison is the time's; a turn within budget can still miss by not fitting in HBM. */
    char rest[64];
    bool in_time = l->total_s <= l->budget_s;
    if (in_time && !a->memory.batch_fits)
        snprintf(rest, sizeof rest, ": batch exceeds HBM");
    else
        snprintf(rest, sizeof rest, " %s budget %s", in_time ? "<=" : ">", b);
    bool room = 7 + 8 + text_width(t) + text_width(rest) <= v.r.w; /* else drop "total" */
    int x = view_text(v, 0, 0, -1, "Latency", ROLE_HEADER);
    /* Not the realistic estimate (the tour's napkin steps, --estimate): the panel says whose times */
    const char *model = a->latency_model != RT_LATENCY_REALISTIC ? latency_model_name(a->latency_model) : NULL;
    if (model && x + 1 + text_width(model) + 8 + text_width(t) + text_width(rest) <= v.r.w) {
        x += view_text(v, x, 0, -1, " ", ROLE_HEADER);
        x += view_text(v, x, 0, -1, model, ROLE_HEADER);
    }
    x += view_text(v, x, 0, -1, room ? "  total " : "  ", ROLE_TEXT);
    x += view_text(v, x, 0, -1, t, l->ok ? ROLE_OK : ROLE_MISS);
    view_text(v, x, 0, -1, rest, ROLE_TEXT);

    /* The bar: prefill, decode, overhead on a scale that shows the budget line; none while a tour
     * hides one of the times (its length against a shown one's tells it). */
    int w = v.r.w;
    double scale = fmax(l->total_s, l->budget_s);
    if (w > 0 && scale > 0.0 && !view_conceals(v, "latency.decode_s") && !view_conceals(v, "latency.prefill_s")) {
        double parts[3] = {l->prefill_s, l->decode_s, l->overhead_s};
        double cum = 0.0;
        int bx = 0;
        for (int i = 0; i < 3; i++) {
            cum += parts[i];
            int end = (int)lround(cum / scale * w);
            if (end > w)
                end = w;
            for (; bx < end; bx++)
                view_put(v, bx, 1, g->bar[i], (enum role)(ROLE_BAR1 + i));
        }
        int mark = (int)lround(l->budget_s / scale * w) - 1;
        if (mark < 0)
            mark = 0;
        view_put(v, mark, 1, g->budget_mark, l->ok ? ROLE_OK : ROLE_MISS);
    }

    banner(v, 0, 2, l->ok);
    secs(p, sizeof p, l->prefill_s);
    secs(d, sizeof d, l->decode_s);
    secs(o, sizeof o, l->overhead_s);
    const char *labels[3] = {"prefill ", "decode  ", "overhead"};
    const char *vals[3] = {view_figure(v, "latency.prefill_s", p), view_figure(v, "latency.decode_s", d), o};
    for (int i = 0; i < 3; i++) {
        view_put(v, 9, 2 + i, g->bar[i], (enum role)(ROLE_BAR1 + i));
        int x3 = 11 + view_printf(v, 11, 2 + i, -1, ROLE_TEXT, "%s %10s", labels[i], vals[i]);
        if (base && i < 2) { /* prefill and decode against the baseline's */
            double now = i == 0 ? l->prefill_s : l->decode_s;
            double was = i == 0 ? base->latency.prefill_s : base->latency.decode_s;
            char dt[24], dp[24], both[56];
            delta_secs(dt, sizeof dt, now, was);
            delta_pct(dp, sizeof dp, now, was);
            snprintf(both, sizeof both, " %s %s", dt, dp);
            const char *shown = x3 + text_width(both) <= v.r.w ? both : NULL;
            char only[32];
            snprintf(only, sizeof only, " %s", dp[0] ? dp : dt);
            if (!shown && x3 + text_width(only) <= v.r.w)
                shown = only;
            if (shown)
                view_text(v, x3, 2 + i, -1, shown, change_role(was, now, true));
        }
    }
    int row = 5;
    if (base) { /* the baseline's total takes the row under the banner */
        latency_baseline_line(v, row, a, base, g);
        row++;
    }
    latency_tail(v, row, a, g);
}

/* The latency panel from row on: the chips for the budget and to hold the
 * weights, the other estimates with their verdicts, the prefill FLOPs and
 * decode bytes, then the notes, while rows last. */
static void latency_tail(struct view v, int row, const struct analysis *a, const struct glyphs *g)
{
    const struct latency_verdict *l = &a->latency;
    int x = view_text(v, 0, row, -1, "chips for budget ", ROLE_TEXT);
    if (view_conceals(v, "latency.chips_for_budget")) /* a coming tour step asks it */
        x += view_text(v, x, row, -1, "?", ROLE_ACCENT);
    else if (l->chips_for_budget > 0)
        x += view_printf(v, x, row, -1, ROLE_ACCENT, "%lld", (long long)l->chips_for_budget);
    else
        x += view_printf(v, x, row, -1, ROLE_MISS, "none up to %lld", (long long)l->max_chips);
    char hold[48];
    snprintf(hold, sizeof hold, "%shold weights %lld", g->sep, (long long)a->memory.weights_fit_chips);
    if (x + text_width(hold) <= v.r.w) {
        x += view_text(v, x, row, -1, g->sep, ROLE_DIM);
        x += view_text(v, x, row, -1, "hold weights ", ROLE_TEXT);
        view_printf(v, x, row, -1, ROLE_ACCENT, "%lld", (long long)a->memory.weights_fit_chips);
    }

    row++;
    /* A coming tour step's turn time: the other estimates' totals and the work tell it too */
    bool later_turn = view_conceals_later(v, FIG_TURN_TIMES);
    if (row < v.r.h && !later_turn) {
        /* The other two estimates, each with its verdict. */
        x = view_printf(v, 0, row, -1, ROLE_TEXT, "%s; ", latency_model_name(a->latency_model));
        const double *totals = a->estimate_total_s;
        const bool *oks = a->estimate_ok;
        for (int m = 0; m < RT_LATENCY_COUNT; m++) {
            if (m == (int)a->latency_model)
                continue;
            char os[24], item[64];
            secs(os, sizeof os, totals[m]);
            snprintf(item, sizeof item, "%s %s ", latency_model_name((enum rt_latency_model)m), os);
            if (x + text_width(item) + 4 > v.r.w)
                break; /* an estimate whole or not at all: never a cut figure */
            x += view_text(v, x, row, -1, item, ROLE_DIM);
            x += view_text(v, x, row, -1, oks[m] ? "OK" : "MISS", oks[m] ? ROLE_OK : ROLE_MISS);
            x += view_text(v, x, row, -1, " ", ROLE_DIM);
        }
        view_text(v, x, row++, -1, "(m)", ROLE_DIM);
    }
    if (row < v.r.h && !later_turn) {
        char f[32], by[32];
        format_si(f, sizeof f, l->prefill_flops, "FLOP");
        format_si(by, sizeof by, l->decode_bytes, "B");
        char line[128];
        snprintf(line, sizeof line, "prefill %s of compute; decode reads %s", f, by);
        if (text_width(line) > v.r.w) /* never a cut figure: the short form, or nothing */
            snprintf(line, sizeof line, "prefill %s; decode %s", f, by);
        if (text_width(line) <= v.r.w)
            view_text(v, 0, row++, -1, line, ROLE_DIM);
    }
    /* The notes carry figures of every kind: none while a tour question waits. */
    /* No notes in the tour while an answer is hidden, this step's or a coming one's: they carry
     * figures of every kind (decode's ceiling answers the batch-1024 step). */
    char note[RT_NOTE_MAX];
    for (int i = 0; i < a->note_count && row < v.r.h && !(v.g && (v.g->asking || v.g->conceal_later)); i++)
        row = wrap_text(v, row, note_text(note, sizeof note, &a->notes[i]), ROLE_DIM, false);
}

/* Appends at (x, y) the change of a byte size from the baseline's, " was W
 * +D", else " +D", where it fits whole; less memory is better. */
static void memory_change(struct view v, int x, int y, double now, double was)
{
    if (now == was)
        return;
    char d[32], w[24], text[72];
    delta_bytes(d, sizeof d, now, was);
    format_si(w, sizeof w, was, "B");
    snprintf(text, sizeof text, " was %s %s", w, d);
    if (x + text_width(text) > v.r.w)
        snprintf(text, sizeof text, " %s", d);
    if (x + text_width(text) <= v.r.w)
        view_text(v, x, y, -1, text, change_role(was, now, true));
}

/* The mixers whose state is fixed a request, in words: "linear/Mamba",
 * "conv", "encoder KV" (a model's own mix of them). */
static const char *fixed_state_mixers(const struct model_shape *m)
{
    static char words[64];
    bool lin = false, ssm = false, conv = false, cross = false;
    for (int i = 0; i < m->kind_count; i++) {
        enum rt_mixer x = m->kinds[i].mixer;
        lin = lin || x == RT_MIXER_LINEAR;
        ssm = ssm || x == RT_MIXER_MAMBA || x == RT_MIXER_MAMBA2;
        conv = conv || x == RT_MIXER_CONV;
        cross = cross || x == RT_MIXER_CROSS;
    }
    snprintf(words, sizeof words, "%s%s%s%s%s%s%s", lin ? "linear" : "", lin && ssm ? "/" : "", ssm ? "Mamba" : "",
             (lin || ssm) && conv ? "/" : "", conv ? "conv" : "", (lin || ssm || conv) && cross ? "/" : "",
             cross ? "encoder KV" : "");
    return words;
}

/* One line on a model's sparse or compressed attention ("sparse: 78 latent
 * + indexer, top-2048"; "compressed: 21 CSA 1/4 top-512, 20 HCA 1/128,
 * +128 window"); false when it has none. */
static bool sparse_words(const struct model_shape *m, char *buf, size_t size)
{
    double sparse = 0.0, csa = 0.0, hca = 0.0;
    int64_t topk = 0, csa_r = 0, csa_k = 0, hca_r = 0, window = 0;
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *k = &m->kinds[i];
        if (k->mixer == RT_MIXER_SPARSE) {
            sparse += (double)k->count;
            topk = k->window;
        } else if (k->mixer == RT_MIXER_COMPRESSED && k->topk > 0) {
            csa += (double)k->count;
            csa_r = k->ratio, csa_k = k->topk, window = k->window;
        } else if (k->mixer == RT_MIXER_COMPRESSED) {
            hca += (double)k->count;
            hca_r = k->ratio, window = k->window;
        }
    }
    if (sparse > 0.0)
        snprintf(buf, size, "sparse: %.0f %s + indexer, top-%lld", sparse, m->kv_lora_rank > 0 ? "latent" : "layers",
                 (long long)topk);
    else if (csa + hca > 0.0)
        snprintf(buf, size, "compressed: %.0f CSA 1/%lld top-%lld, %.0f HCA 1/%lld, +%lld window", csa,
                 (long long)csa_r, (long long)csa_k, hca, (long long)hca_r, (long long)window);
    else
        return false;
    return true;
}

void panel_memory(struct view v, const struct scenario *s, const struct analysis *a, const struct analysis *base,
                     int64_t largest_ok_batch)
{
    const struct memory_verdict *m = &a->memory;
    char w[24], r[24], k[24], f[24], h[24], t[24];
    format_si(w, sizeof w, m->weights_bytes, "B");
    format_si(r, sizeof r, m->kv_cache_bytes_per_request, "B");
    format_si(k, sizeof k, m->kv_cache_bytes, "B");
    format_si(f, sizeof f, m->free_bytes, "B");
    format_si(h, sizeof h, m->hbm_total_bytes, "B");
    format_si(t, sizeof t, m->kv_cache_bytes_per_token, "B");
    int x = view_text(v, 0, 0, -1, "Memory", ROLE_HEADER);
    x += view_text(v, x, 0, -1, "  weights ", ROLE_TEXT);
    x += view_text(v, x, 0, -1, w, ROLE_ACCENT);
    char needs[48];
    snprintf(needs, sizeof needs, ", needs %lld chip%s", (long long)m->weights_fit_chips,
             m->weights_fit_chips == 1 ? "" : "s");
    if (base && m->weights_bytes != base->memory.weights_bytes) {
        /* The change before the chip count: the count is on the latency panel too. */
        memory_change(v, x, 0, m->weights_bytes, base->memory.weights_bytes);
    } else {
        view_text(v, x, 0, -1, needs, ROLE_TEXT);
    }
    x = view_text(v, 0, 1, -1, "KV ", ROLE_TEXT);
    x += view_text(v, x, 1, -1, r, ROLE_ACCENT);
    x += view_text(v, x, 1, -1, "/request", ROLE_TEXT);
    /* The batch's figure with its label, or not at all: a bare "2.75 TB" reads as something else. */
    char batch[48];
    char nb[16];
    snprintf(batch, sizeof batch, " for batch %s", format_number(nb, sizeof nb, (double)s->batch, 0));
    bool kv_changed = base && m->kv_cache_bytes != base->memory.kv_cache_bytes;
    bool whole = x + 2 + text_width(k) + text_width(batch) <= v.r.w;
    if (kv_changed || whole) {
        x += view_text(v, x, 1, -1, ", ", ROLE_TEXT);
        x += view_text(v, x, 1, -1, k, ROLE_ACCENT);
    }
    if (kv_changed)
        memory_change(v, x, 1, m->kv_cache_bytes, base->memory.kv_cache_bytes);
    else if (whole)
        view_text(v, x, 1, -1, batch, ROLE_TEXT);
    if (!m->weights_fit) {
        x = view_printf(v, 0, 2, -1, ROLE_TEXT, "HBM %s: ", h);
        /* the weights alone, or beside them the activation workspace */
        view_text(v, x, 2, -1, m->free_bytes < 0.0 ? "weights do not fit" : "workspace does not fit", ROLE_MISS);
    } else if (!m->batch_fits) {
        x = view_printf(v, 0, 2, -1, ROLE_TEXT, "HBM %s: ", h);
        view_text(v, x, 2, -1, "batch does not fit", ROLE_MISS);
    } else {
        /* The request count whole: drop "free" first, then the capacity, never digits. */
        char lead[96], count[24], nc0[24];
        snprintf(count, sizeof count, "%s",
                 view_figure(v, "memory.max_concurrent_requests",
                             format_number(nc0, sizeof nc0, (double)m->max_concurrent_requests, 0)));
        /* "after weights": the guide's rule counts the requests in what the weights leave, before
         * the batch's own KV and the activations the per-chip line takes too */
        snprintf(lead, sizeof lead, "HBM %s, %s after weights: ", h, f);
        if (text_width(lead) + text_width(count) + 9 > v.r.w)
            snprintf(lead, sizeof lead, "HBM %s, free %s: ", h, f);
        if (view_conceals(v, "memory.max_concurrent_requests")) /* free / KV a request is the count */
            snprintf(lead, sizeof lead, "HBM %s: ", h);
        if (text_width(lead) + text_width(count) + 9 > v.r.w)
            snprintf(lead, sizeof lead, "HBM %s: ", h);
        if (text_width(lead) + text_width(count) + 9 > v.r.w)
            lead[0] = '\0';
        /* With a baseline, its count and the change take the place of "free". */
        char was[64] = "";
        const struct memory_verdict *bm = base ? &base->memory : NULL;
        bool changed = bm && bm->max_concurrent_requests != m->max_concurrent_requests &&
                       !view_conceals(v, "memory.max_concurrent_requests");
        if (changed) {
            snprintf(was, sizeof was, " was %lld, %+lld", (long long)bm->max_concurrent_requests,
                     (long long)(m->max_concurrent_requests - bm->max_concurrent_requests));
            for (int drop = 0; drop < 2 && text_width(lead) + text_width(count) + 9 + text_width(was) > v.r.w; drop++)
                snprintf(lead, sizeof lead, drop == 0 ? "HBM %s: " : "%s", drop == 0 ? h : "");
            if (text_width(lead) + text_width(count) + 9 + text_width(was) > v.r.w)
                snprintf(was, sizeof was, " %+lld",
                         (long long)(m->max_concurrent_requests - bm->max_concurrent_requests));
        }
        x = view_text(v, 0, 2, -1, lead, ROLE_TEXT);
        x += view_text(v, x, 2, -1, count, ROLE_ACCENT);
        x += view_text(v, x, 2, -1, " req. fit", ROLE_TEXT);
        if (changed && x + text_width(was) <= v.r.w)
            view_text(v, x, 2, -1, was,
                      change_role((double)m->max_concurrent_requests, (double)bm->max_concurrent_requests, true));
    }
    int row = 3;
    if (row < v.r.h) {
        char pattern[160];
        view_printf(v, 0, row++, -1, ROLE_TEXT, "%s", model_schedule_summary(&s->model, pattern, sizeof pattern));
    }
    if (row < v.r.h) { /* the busiest chip of the layout */
        const struct chip_memory *c = &m->per_chip;
        char cw[24], ck[24], ca[24], cf[24];
        format_si(cw, sizeof cw, c->weights_bytes, "B");
        format_si(ck, sizeof ck, c->kv_cache_bytes + c->state_bytes, "B");
        format_si(ca, sizeof ca, c->activation_bytes, "B");
        format_si(cf, sizeof cf, fabs(c->free_bytes), "B");
        /* Words drop before numbers do: the longest form that fits. Every form keeps the
         * activations, so that its terms add up to the chip's HBM; past it, "over by". */
        const char *fw = c->free_bytes < 0.0 ? "over by" : "free";
        char sw[24], sk[24], sa[24], sf[24]; /* "140G": the byte sizes without their space and B */
        const char *full[4] = {cw, ck, ca, cf};
        char *tight[4] = {sw, sk, sa, sf};
        for (int i = 0; i < 4; i++) {
            size_t n = 0;
            for (const char *p = full[i]; *p && n + 1 < sizeof sw; p++)
                if (*p != ' ' && !(*p == 'B' && p[1] == '\0'))
                    tight[i][n++] = *p;
            tight[i][n] = '\0';
        }
        char forms[4][160];
        snprintf(forms[0], sizeof forms[0], "per chip: weights %s, KV %s, act. %s, %s %s", cw, ck, ca, fw, cf);
        snprintf(forms[1], sizeof forms[1], "per chip: W %s KV %s act %s %s %s", cw, ck, ca, fw, cf);
        snprintf(forms[2], sizeof forms[2], "chip: W %s KV %s act %s %s %s", sw, sk, sa, fw, sf);
        snprintf(forms[3], sizeof forms[3], "W %s KV %s act %s %s %s", sw, sk, sa, c->free_bytes < 0.0 ? "over" : "free",
                 sf);
        int pick = 0;
        while (pick < 3 && text_width(forms[pick]) > v.r.w)
            pick++;
        if (text_width(forms[pick]) <= v.r.w)
            view_text(v, 0, row, -1, forms[pick], c->free_bytes < 0.0 ? ROLE_MISS : ROLE_TEXT);
        row++;
    }
    if (row < v.r.h && m->kv_replication > 1.0 && model_mixed_geometry(&s->model))
        view_printf(v, 0, row++, -1, ROLE_TEXT, "KV %.2fx an even split: tp %lld > some kv heads", m->kv_replication,
                    (long long)a->parallel.tp);
    else if (row < v.r.h && m->kv_replication > 1.0)
        view_printf(v, 0, row++, -1, ROLE_TEXT, "KV copied %.0fx: tp %lld > %s", m->kv_replication,
                    (long long)a->parallel.tp, s->model.kv_lora_rank > 0 ? "one latent" : "kv heads");
    if (row < v.r.h && largest_ok_batch >= 0 && !view_asks(v, FIG_TURN)) {
        if (largest_ok_batch > 0)
            view_printf(v, 0, row++, -1, ROLE_TEXT, "largest batch meeting the budget: %lld",
                        (long long)largest_ok_batch);
        else
            view_text(v, 0, row++, -1, "no batch meets the budget here", ROLE_MISS);
    }
    if (row < v.r.h && !view_asks(v, FIG_TURN)) { /* steady-state serving: what the Pareto view ranks */
        const struct serving_figures *sv = &a->serving;
        char tt[24], tp[24], pool[48] = "";
        if (sv->loop.overloaded) /* no steady state: say so, not 0 */
            snprintf(tt, sizeof tt, "unbounded");
        else
            format_seconds(tt, sizeof tt, sv->ttft_s);
        format_seconds(tp, sizeof tp, sv->tpot_s);
        if (s->disagg_prefill_chips > 0)
            snprintf(pool, sizeof pool, ", prefill pool %lld", (long long)s->disagg_prefill_chips);
        /* Served as an engine serves (a request's wait and prefill among the others'), not the turn's
         * prefill above: the words say so, and the rates their unit, in every form. */
        char line[3][200];
        snprintf(line[0], sizeof line[0], "served: TTFT %s, TPOT %s, %.1f tok/s/user, %.1f/chip%s", tt, tp,
                 sv->tokens_per_s_per_user, sv->tokens_per_s_per_chip, pool);
        snprintf(line[1], sizeof line[1], "served: TTFT %s TPOT %s %.1f tok/s/user %.1f/chip", tt, tp,
                 sv->tokens_per_s_per_user, sv->tokens_per_s_per_chip);
        snprintf(line[2], sizeof line[2], "TTFT %s TPOT %s %.1f/user %.1f/chip", tt, tp, sv->tokens_per_s_per_user,
                 sv->tokens_per_s_per_chip); /* the narrowest: one row still, the others' words dropped */
        int pick = 0;
        while (pick < 2 && text_width(line[pick]) > v.r.w)
            pick++;
        if (text_width(line[pick]) <= v.r.w)
            view_text(v, 0, row, -1, line[pick], sv->ok ? ROLE_TEXT : ROLE_MISS);
        row++;
    }
    if (row < v.r.h && (a->cost.priced || a->energy.measured)) {
        /* What an output token costs, at the serving throughput above;
         * a figure the chip data lacks is named as missing, never 0. */
        const struct cost_figures *c = &a->cost;
        const struct energy_figures *e = &a->energy;
        char usd[2][48] = {"no price", "no price"}, energy[2][64] = {"no power figure", "no power"}, kwh[24];
        if (c->priced) {
            snprintf(usd[0], sizeof usd[0], "$%.3g per M output tokens", c->usd_per_million_output_tokens);
            snprintf(usd[1], sizeof usd[1], "$%.3g/M tok", c->usd_per_million_output_tokens);
        }
        if (e->measured) {
            format_count(kwh, sizeof kwh, e->tokens_per_kwh);
            snprintf(energy[0], sizeof energy[0], "%.3g J/token, %s tokens/kWh", e->joules_per_output_token, kwh);
            snprintf(energy[1], sizeof energy[1], "%.3g J/tok", e->joules_per_output_token);
        }
        char line[3][200];
        snprintf(line[0], sizeof line[0], "cost: %s; %s", usd[0], energy[0]);
        snprintf(line[1], sizeof line[1], "%s; %s", usd[1], energy[0]);
        snprintf(line[2], sizeof line[2], "%s; %s", usd[1], energy[1]);
        int pick = 0;
        while (pick < 2 && text_width(line[pick]) > v.r.w)
            pick++;
        if (text_width(line[pick]) <= v.r.w)
            view_text(v, 0, row, -1, line[pick], ROLE_DIM);
        row++;
    }
    if (row < v.r.h && m->state_bytes_per_request > 0.0) {
        char st[24];
        view_printf(v, 0, row++, -1, ROLE_TEXT, "+ fixed state %s/request (%s)",
                    format_si(st, sizeof st, m->state_bytes_per_request, "B"), fixed_state_mixers(&s->model));
    }
    if (row < v.r.h)
        view_printf(v, 0, row++, -1, ROLE_TEXT, "batch of %s %s", nb,
                    m->batch_fits ? "fits beside the weights" : "does not fit");
    char nc[16];
    if (row < v.r.h)
        view_printf(v, 0, row++, -1, ROLE_DIM, "KV per token %s; context %s tokens", t,
                    format_number(nc, sizeof nc, (double)s->context_tokens, 0));
    const struct model_shape *ms = &s->model;
    char sparse[96];
    if (row < v.r.h && sparse_words(ms, sparse, sizeof sparse))
        view_printf(v, 0, row++, -1, ROLE_DIM, "%s", sparse);
    if (row < v.r.h && ms->kv_lora_rank > 0) {
        view_printf(v, 0, row++, -1, ROLE_DIM, "MLA: a %lld-wide latent per token, %.0fx smaller KV than MHA",
                    (long long)(ms->kv_lora_rank + ms->qk_rope_head_dim), a->kv_saving);
    } else if (row < v.r.h && model_attention_layers(ms) > 0.0 && ms->kv_heads >= ms->heads) {
        /* every query head has its own K and V: nothing smaller to say */
        view_printf(v, 0, row++, -1, ROLE_DIM, "MHA: %lld kv heads, one a query head (no GQA)", (long long)ms->kv_heads);
    } else if (row < v.r.h && model_attention_layers(ms) > 0.0) {
        view_printf(v, 0, row++, -1, ROLE_DIM, "%s: %lld kv heads of %lld, %.1fx smaller KV than MHA",
                    ms->kv_heads == 1 ? "MQA" : "GQA", (long long)ms->kv_heads, (long long)ms->heads, a->gqa_saving);
    }
    /* Widths that waste tiles (ch. 7): said where one does, the tour's tile step among them */
    double te[3] = {a->tile_efficiency_d_model, a->tile_efficiency_d_ff, a->tile_efficiency_d_head};
    if (row < v.r.h && (te[0] < 0.9995 || te[1] < 0.9995 || te[2] < 0.9995)) {
        char pc[3][16], line[2][96];
        for (int i = 0; i < 3; i++)
            format_percent(pc[i], sizeof pc[i], te[i]);
        const char *f0 = view_figure(v, "tile_efficiency.d_model", pc[0]),
                   *f1 = view_figure(v, "tile_efficiency.d_ff", pc[1]),
                   *f2 = view_figure(v, "tile_efficiency.d_head", pc[2]);
        snprintf(line[0], sizeof line[0], "tiles of %lld: d_model %s, d_ff %s, d_head %s", (long long)s->tile, f0,
                 f1, f2);
        snprintf(line[1], sizeof line[1], "tile %lld: d_model %s d_ff %s d_head %s", (long long)s->tile, f0, f1,
                 f2);
        int pick = text_width(line[0]) <= v.r.w ? 0 : 1;
        if (text_width(line[pick]) <= v.r.w)
            view_text(v, 0, row++, -1, line[pick], ROLE_DIM);
    }
    if (row < v.r.h) {
        /* The decode row's intensity, as the placement table shows it (a
         * mixture of experts' row counts the experts a step reads). */
        const struct placement *dec = analysis_phase_placement(a, "decode");
        double ai = dec ? dec->roof.intensity_flop_per_byte : a->decode_batch_intensity_flop_per_byte;
        char line[160], ais[24], rs[24], cv[24], cs[48] = "";
        snprintf(ais, sizeof ais, "%.1f", ai);
        snprintf(rs, sizeof rs, "%.0f", a->ridge_flop_per_byte);
        const char *ait = view_figure(v, "decode_batch_intensity placement[decode]", ais);
        const char *rt = view_figure(v, "ridge_flop_per_byte", rs); /* as the plot labels it: no answer alone */
        /* Where it levels off as the batch grows, when that is short of the ridge. */
        double c = a->decode_intensity_ceiling_flop_per_byte;
        if (c > 0.0 && c < a->ridge_flop_per_byte) {
            snprintf(cv, sizeof cv, "%.0f", c);
            snprintf(cs, sizeof cs, " (max %s)", view_figure(v, "decode.intensity decode_batch_intensity placement[decode]", cv));
        }
        snprintf(line, sizeof line, "decode AI at batch %s: %s FLOP/B%s; ridge %s", nb, ait, cs, rt);
        if (text_width(line) > v.r.w) /* never a cut figure: shorter forms, or nothing */
            snprintf(line, sizeof line, "decode AI %s%s; ridge %s", ait, cs, rt);
        if (text_width(line) > v.r.w)
            snprintf(line, sizeof line, "decode AI %s; ridge %s", ait, rt);
        if (text_width(line) <= v.r.w)
            view_text(v, 0, row++, -1, line, ROLE_DIM);
    }
    if (row < v.r.h) {
        char pa[24], ac[24];
        format_count(pa, sizeof pa, a->params);
        format_count(ac, sizeof ac, a->active_params);
        view_printf(v, 0, row++, -1, ROLE_DIM, "params %s total, %s active (%s)", pa, ac,
                    params_source_name(a->params_source));
    }
}

void panel_too_small(struct view v, int cols, int rows, int min_cols, int min_rows)
{
    char msg[160], size[64];
    if (v.r.w <= 0 || v.r.h <= 0)
        return;
    snprintf(msg, sizeof msg, "rooftop needs a terminal of at least %dx%d.", min_cols, min_rows);
    snprintf(size, sizeof size, "This one is %dx%d.", cols, rows);
    int lines = 4;
    int y = (v.r.h - lines) / 2;
    if (y < 0)
        y = 0;
    y = wrap_text(v, y, msg, ROLE_TEXT, true);
    y = wrap_text(v, y, size, ROLE_ACCENT, true);
    wrap_text(v, y, "Make it larger, or press q to quit.", ROLE_DIM, true);
}

/* Draws an empty bordered box of bw x bh centred in v, with title in its top
 * border, and returns it as a view. */
static struct view draw_box(struct view v, int bw, int bh, const char *title, const struct glyphs *g)
{
    int bx = (v.r.w - bw) / 2, by = (v.r.h - bh) / 2;
    struct view box = view_sub(v, bx, by, bw, bh);
    view_fill(box, 0, 0, bw, bh, ' ', ROLE_TEXT);
    view_put(box, 0, 0, g->box_tl, ROLE_HEADER);
    view_put(box, bw - 1, 0, g->box_tr, ROLE_HEADER);
    view_put(box, 0, bh - 1, g->box_bl, ROLE_HEADER);
    view_put(box, bw - 1, bh - 1, g->box_br, ROLE_HEADER);
    view_fill(box, 1, 0, bw - 2, 1, g->box_h, ROLE_HEADER);
    view_fill(box, 1, bh - 1, bw - 2, 1, g->box_h, ROLE_HEADER);
    view_fill(box, 0, 1, 1, bh - 2, g->box_v, ROLE_HEADER);
    view_fill(box, bw - 1, 1, 1, bh - 2, g->box_v, ROLE_HEADER);
    view_text(box, 2, 0, bw - 4, title, ROLE_HEADER);
    return box;
}

int panel_help(struct view v, const struct glyphs *g, int scroll)
{
    static const char *const lines[][2] = {
        {"", "Select a knob, then step it; every figure is recomputed."},
        {"", ""},
        {"UP/DOWN, k/j", "select a knob (also Tab / Shift-Tab)"},
        {"LEFT/RIGHT, h/l", "step it (powers of two, list entries)"},
        {"PgUp/PgDn, H/L", "coarse step (also Shift-Left/Right)"},
        {"Enter or =", "type an exact value (Esc cancels)"},
        {"", "chip, model: or a file's path (config.json)"},
        {"u", "undo the last change"},
        {"r / a", "reset the scenario / re-fit the plot's axes"},
        {"c / C", "overlay the next / previous chip's roof"},
        {"R", "every precision's roof, the vector unit's"},
        {"b", "pin/clear a baseline: panels show changes"},
        {"m", "verdict: napkin, roofline floor, realistic"},
        {"o / O", "a phase's operations on the plot (cycles)"},
        {"v", "the operation view (--op) and back"},
        {"w", "show your work: formulas with the numbers"},
        {"p", "Pareto view: search layouts; Enter loads one"},
        {"T", "guided tour: guess a figure, then see it"},
        {"P", "presentation view (P or Esc returns)"},
        PANEL_HELP_SHARED_ROWS
        {"dots", "filled: on the roof; hollow: realistic"},
        {"x, !", "a --points kernel; ! one above its roof"},
        {"realistic?", "kernels not measured on this chip (borrowed)"},
    };
    return panel_help_lines(v, g, scroll, " rooftop keys ", lines, (int)(sizeof lines / sizeof lines[0]));
}

int panel_help_lines(struct view v, const struct glyphs *g, int scroll, const char *title, const char *const (*lines)[2],
                     int n)
{
    int bw = v.r.w - 4 < 66 ? v.r.w - 4 : 66;
    int bh = v.r.h - 2 < n + 4 ? v.r.h - 2 : n + 4;
    if (bw < 20 || bh < 5)
        return 0;
    struct view box = draw_box(v, bw, bh, title, g);
    struct view in = view_sub(box, 2, 2, bw - 4, bh - 3);
    int max_scroll = n > in.r.h ? n - in.r.h : 0;
    scroll = scroll < 0 ? 0 : scroll > max_scroll ? max_scroll : scroll;
    for (int k = 0; k < in.r.h && scroll + k < n; k++) {
        int i = scroll + k;
        view_text(in, 0, k, 17, lines[i][0], ROLE_KEY);
        view_text(in, i < 2 ? 0 : 18, k, -1, lines[i][1], ROLE_TEXT);
    }
    if (max_scroll > 0) { /* what is hidden, on the box's bottom edge */
        char more[48];
        snprintf(more, sizeof more, " %s%s more: %s ", scroll > 0 ? g->arrow_up : "",
                 scroll < max_scroll ? g->arrow_down : "", g->up_down);
        view_text(box, bw - 2 - text_width(more), bh - 1, -1, more, ROLE_DIM);
    }
    return max_scroll;
}

/* A short name for an operation, for the narrow legend: "qkv proj". */
static const char *op_short_name(const char *name)
{
    static const char *const names[][2] = {
        {"qkv projection", "qkv proj"},  {"attention scores", "attn score"}, {"attention x V", "attn x V"},
        {"output projection", "out proj"}, {"mlp (experts)", "mlp expert"},  {"residual adds", "residual"},
        {"embedding lookup", "embedding"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i][0]) == 0)
            return names[i][1];
    return name;
}

/* The legend's notes, from row y while rows are left. */
static void ops_notes(struct view v, int y, const struct analysis *a, bool wide)
{
    char vs[32];
    if (y < v.r.h)
        view_printf(v, 0, y++, -1, ROLE_DIM, "%s under the vector roof, %s", wide ? "vector:" : "v:",
                    format_si(vs, sizeof vs, a->hw.vector_flops_per_s, "FLOP/s"));
    if (y < v.r.h)
        view_text(v, 0, y++, -1, "%: share of the phase's detailed time", ROLE_DIM);
    if (y < v.r.h)
        view_text(v, 0, y++, -1, "o: next phase (off: the MFU budget)", ROLE_DIM);
}

int panel_ops_legend(struct view v, int y, const struct analysis *a, const char *phase, int max_rows)
{
    if (!phase || max_rows < 1 || v.r.w < 12)
        return 0;
    enum role pr = phase_role(phase);
    int k = 0, x = 0, rows = 1;
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        if (!p->operation || strcmp(p->phase, phase) != 0)
            continue;
        const char *name = op_short_name(p->name);
        int w = 2 + text_width(name);
        if (x > 0 && x + 2 + w > v.r.w) { /* the next row, or stop */
            if (rows == max_rows)
                break;
            rows++, x = 0;
        }
        x += x > 0 ? 2 : 0;
        view_put(v, x, y + rows - 1, (uint32_t)(unsigned char)plot_op_marker(k), pr);
        view_text(v, x + 2, y + rows - 1, v.r.w - x - 2, name, ROLE_DIM);
        x += w;
        k++;
    }
    return k > 0 ? rows : 0;
}

void panel_ops(struct view v, const struct analysis *a, const char *phase)
{
    const struct placement *ops[RT_MAX_PLACEMENTS];
    int n = 0;
    for (int i = 0; phase && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (a->placements[i].operation && strcmp(a->placements[i].phase, phase) == 0)
            ops[n++] = &a->placements[i];
    enum role pr = phase ? phase_role(phase) : ROLE_TEXT;
    int x = view_text(v, 0, 0, -1, "Operations ", ROLE_HEADER);
    x += view_text(v, x, 0, -1, phase ? phase : "", pr);
    if (n == 0) {
        view_text(v, 0, 1, -1, "No operations in this phase (no tokens).", ROLE_DIM);
        return;
    }
    int rows = v.r.h - 1;
    bool wide = v.r.w >= 56 && n <= rows;
    if (wide) {
        /* letter(1) name(17) AI(7) bound(8) time(9) share(6) unit(7) */
        view_text(v, 19, 0, -1, " FLOP/B bound       time  share", ROLE_DIM);
        for (int k = 0; k < n; k++) {
            const struct placement *p = ops[k];
            char ai[24], pc[16], t[24];
            intensity(ai, sizeof ai, p->roof.intensity_flop_per_byte);
            format_percent(pc, sizeof pc, p->share);
            format_seconds(t, sizeof t, p->time_s);
            bool on_plot = p->roof.intensity_flop_per_byte > 0.0;
            bool mem = p->roof.bound == RT_MEMORY_BOUND;
            int y = 1 + k;
            view_put(v, 0, y, (uint32_t)(unsigned char)plot_op_marker(k), on_plot ? pr : ROLE_DIM);
            int cx = 2 + view_printf(v, 2, y, 17, ROLE_TEXT, "%-17s", p->name);
            cx += view_printf(v, cx, y, -1, ROLE_ACCENT, "%7s", ai);
            cx += view_printf(v, cx, y, -1, mem ? ROLE_MEMORY : ROLE_COMPUTE, " %-7s", bound_name(p->roof.bound));
            cx += view_printf(v, cx, y, -1, ROLE_TEXT, "%9s", t);
            cx += view_printf(v, cx, y, -1, ROLE_ACCENT, "%7s", pc);
            if (p->vector)
                view_text(v, cx, y, -1, " vector", ROLE_DIM);
        }
        ops_notes(v, 1 + n, a, true);
        return;
    }
    /* Columns of 19 cells: letter, short name (10), 'v' for the vector unit, share (5). */
    const char *key = "v: vector unit, %: of time";
    if (x + 2 + text_width(key) <= v.r.w)
        view_text_right(v, v.r.w, 0, key, ROLE_DIM);
    int cols = (v.r.w + 1) / 20;
    if (cols < 1)
        cols = 1;
    int per_col = rows > 0 ? (n + cols - 1) / cols : 0;
    if (per_col > rows)
        per_col = rows;
    for (int k = 0; k < n && per_col > 0; k++) {
        int col = k / per_col, y = 1 + k % per_col;
        if (col >= cols)
            break;
        const struct placement *p = ops[k];
        char pc[16];
        format_percent(pc, sizeof pc, p->share);
        int cx = col * 20;
        bool on_plot = p->roof.intensity_flop_per_byte > 0.0;
        view_put(v, cx, y, (uint32_t)(unsigned char)plot_op_marker(k), on_plot ? pr : ROLE_DIM);
        view_printf(v, cx + 2, y, 10, ROLE_TEXT, "%-10.10s", op_short_name(p->name));
        if (p->vector)
            view_put(v, cx + 13, y, 'v', ROLE_DIM);
        view_printf(v, cx + 14, y, 5, ROLE_ACCENT, "%5s", pc);
    }
    ops_notes(v, 1 + per_col, a, false);
}

/* One line of the work overlay as drawn: a piece of an explanation line. */
struct work_row {
    short line;     /* index into the explanation */
    short indent;   /* columns before the text */
    short start, len; /* bytes of the line's text */
    bool cut;       /* shortened: an ellipsis follows */
};

#define WORK_MAX_ROWS 1024

/* Breaks the lines of e into rows of at most w columns; returns the count. */
static int work_rows(const struct explanation *e, int w, struct work_row *rows, int max)
{
    int n = 0;
    for (int i = 0; i < e->count && n < max; i++) {
        const char *t = e->entry[i].text;
        int len = (int)strlen(t), lead = 0;
        while (lead < len && t[lead] == ' ')
            lead++;
        if (e->entry[i].kind == RT_EXPLAIN_SOURCE || len <= w) {
            bool cut = len > w;
            rows[n++] = (struct work_row){(short)i, 0, 0, (short)(cut ? w - 1 : len), cut};
            continue;
        }
        int hang = lead + 4 < w / 2 ? lead + 4 : w / 2; /* continuation rows sit under the text */
        int pos = 0, indent = 0;
        while (pos < len && n < max) {
            int room = w - indent, take = len - pos;
            if (take > room) {
                take = room;
                for (int k = room; k > 0; k--) /* back to a blank when there is one */
                    if (t[pos + k] == ' ') {
                        take = k;
                        break;
                    }
            }
            rows[n++] = (struct work_row){(short)i, (short)indent, (short)pos, (short)take, false};
            pos += take;
            while (pos < len && t[pos] == ' ')
                pos++;
            indent = hang;
        }
    }
    return n;
}

void panel_work(struct view v, const struct explanation *e, const char *title, int *scroll, int *page,
                const struct glyphs *g)
{
    struct work_row rows[WORK_MAX_ROWS]; /* 12 KB: on the stack, so drawing keeps no state */
    *page = 0;
    int bw = v.r.w - 4 < 88 ? v.r.w - 4 : 88;
    if (bw < 24 || v.r.h < 5)
        return;
    int w = bw - 4;
    int n = work_rows(e, w, rows, WORK_MAX_ROWS);
    int bh = v.r.h - 2 < n + 2 ? v.r.h - 2 : n + 2;
    if (bh < 3)
        bh = 3;
    int visible = bh - 2;
    int top = *scroll > n - visible ? n - visible : *scroll;
    if (top < 0)
        top = 0;
    *scroll = top;
    *page = visible;
    struct view box = draw_box(v, bw, bh, title, g);
    static const enum role roles[] = {ROLE_HEADER, ROLE_TEXT, ROLE_ACCENT, ROLE_DIM, ROLE_OK, ROLE_MISS};
    for (int r = 0; r < visible && top + r < n; r++) {
        const struct work_row *row = &rows[top + r];
        const struct explain_line *l = &e->entry[row->line];
        enum role role = (unsigned)l->kind < sizeof roles / sizeof roles[0] ? roles[l->kind] : ROLE_TEXT;
        char piece[RT_EXPLAIN_LINE_MAX];
        snprintf(piece, sizeof piece, "%.*s", row->len, l->text + row->start);
        int x = 2 + row->indent;
        x += view_text(box, x, 1 + r, w - row->indent, piece, role);
        if (row->cut)
            view_put(box, x, 1 + r, g->ellipsis, role);
    }
    char foot[96];
    if (n > visible)
        snprintf(foot, sizeof foot, " %s PgUp/PgDn scroll, other keys close: %d-%d of %d ", g->up_down, top + 1,
                 top + visible, n);
    else
        snprintf(foot, sizeof foot, " any key closes ");
    int fw = text_width(foot);
    if (fw <= bw - 4)
        view_text(box, bw - 2 - fw, bh - 1, fw, foot, ROLE_DIM);
}
