/* opview.c — the operation view's panels (opview.h). */
#include "opview.h"

#include <stdio.h>
#include <string.h>

#include "opreport.h"
#include "units.h"

struct op_layout op_layout_compute(const struct layout *l, int knob_count)
{
    struct op_layout o;
    memset(&o, 0, sizeof o);
    o.too_small = l->too_small;
    if (l->too_small)
        return o;
    o.title = l->title;
    o.status = l->status;
    o.plot = l->plot;
    int kh = knob_count + 1;
    kh = kh > l->sliders.h ? l->sliders.h : kh < 1 ? 1 : kh;
    o.knobs = (struct rect){l->sliders.x, l->sliders.y, l->sliders.w, kh};
    int ty = o.knobs.y + kh + 1, bottom = l->plot.y + l->plot.h;
    if (bottom - ty >= 4)
        o.time = (struct rect){l->sliders.x, ty, l->sliders.w, bottom - ty};
    int oy = l->placement.y;
    o.op = (struct rect){0, oy, l->cols, l->status.y - oy > 0 ? l->status.y - oy : 0};
    return o;
}

/* One piece of a panel row: text in a role. */
struct field {
    const char *text;
    enum role role;
};

/* Writes fields left to right from column x of row y while each fits
 * whole; the first that does not fit ends the row, so that a number is
 * never cut and no later field is read as belonging to an earlier one.
 * Returns the column reached. */
static int draw_fields(struct view v, int x, int y, const struct field *f, int n)
{
    for (int i = 0; i < n && y < v.r.h; i++) {
        int w = text_width(f[i].text);
        if (x + w > v.r.w)
            break;
        x += view_text(v, x, y, w, f[i].text, f[i].role);
    }
    return x;
}

/* True when the operation is a collective (no FLOPs, timed by its link). */
static bool is_collective(const struct operation_figures *o)
{
    return kernel_kind_is_collective(o->shape.kind);
}

/* The role of the operation's bound word. */
static enum role bound_role(const struct operation_figures *o)
{
    const char *b = op_bound_name(o);
    return strcmp(b, "memory") == 0 ? ROLE_MEMORY : strcmp(b, "compute") == 0 ? ROLE_COMPUTE : ROLE_ACCENT;
}

/* ---- title ---- */

void panel_op_title(struct view v, const struct scenario *s, const struct analysis *a, const struct glyphs *g)
{
    const struct operation_figures *o = &a->operation;
    char shape[200], t[24];
    op_shape_text(shape, sizeof shape, &o->shape);
    format_turn_seconds(t, sizeof t, o->estimate.realistic_s);
    int pct = (int)(100.0 * o->estimate.error_fraction + 0.5);
    const char *kind = kernel_kind_name(o->shape.kind);
    char left[4][320], right[4][96];
    snprintf(left[0], sizeof left[0], " rooftop%s%s%s%s", g->sep, shape, g->sep, s->chip.key);
    snprintf(left[1], sizeof left[1], " %s%s%s", shape, g->sep, s->chip.key);
    snprintf(left[2], sizeof left[2], " rooftop%s%s%s%s", g->sep, kind, g->sep, s->chip.key);
    snprintf(left[3], sizeof left[3], " %s%s%s", kind, g->sep, s->chip.key);
    snprintf(right[0], sizeof right[0], "realistic %s %s%d%%  ? help ", t, g->plus_minus, pct);
    snprintf(right[1], sizeof right[1], "realistic %s %s%d%% ", t, g->plus_minus, pct);
    snprintf(right[2], sizeof right[2], "%s %s%d%% ", t, g->plus_minus, pct);
    snprintf(right[3], sizeof right[3], "%s ", t);
    static const int order[][2] = {{0, 0}, {1, 0}, {1, 1}, {2, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 3}};
    int ri = 3, li = 3;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (text_width(right[order[k][0]]) + text_width(left[order[k][1]]) + 1 <= v.r.w) {
            ri = order[k][0];
            li = order[k][1];
            break;
        }
    view_fill(v, 0, 0, v.r.w, 1, ' ', ROLE_TITLE);
    int room = v.r.w - text_width(right[ri]) - 1;
    view_text(v, 0, 0, room > 0 ? room : v.r.w, left[li], ROLE_TITLE);
    if (room > 0)
        view_text_right(v, v.r.w, 0, right[ri], ROLE_TITLE);
}

/* ---- knobs ---- */

int op_knobs_first_visible(int selected, int n, int rows)
{
    if (rows < 1 || rows >= n)
        return 0;
    int first = selected - rows + 1;
    return first < 0 ? 0 : first > n - rows ? n - rows : first;
}

void panel_op_knobs(struct view v, const struct scenario *s, const struct analysis *a, const enum op_knob *knobs,
                    int n, int selected, struct chip_list chips, const struct glyphs *g)
{
    view_text(v, 0, 0, -1, "Knobs", ROLE_HEADER);
    view_text_right(v, v.r.w, 0, "Enter: type a value ", ROLE_DIM);
    const struct kernel_shape *r = &a->operation.shape;
    int rows = v.r.h - 1, first = op_knobs_first_visible(selected, n, rows);
    for (int i = first; i < n && 1 + i - first < v.r.h; i++) {
        char val[64];
        op_knob_value_text(s, r, knobs[i], val, sizeof val);
        panel_knob_row(v, 1 + i - first, op_knob_name(knobs[i]), val, op_knob_fraction(s, r, knobs[i], chips),
                       i == selected, g);
    }
}

/* ---- the Operation panel ---- */

/* Row 0 (and more when the shape is long): "Operation", the shape, the
 * chip. Returns the next free row. */
static int op_heading(struct view v, const struct scenario *s, const struct operation_figures *o)
{
    char shape[200], on[64];
    op_shape_text(shape, sizeof shape, &o->shape);
    snprintf(on, sizeof on, " on %s", s->chip.key);
    int x = view_text(v, 0, 0, -1, "Operation", ROLE_HEADER);
    if (x + 2 + text_width(shape) <= v.r.w) {
        x += 2 + view_text(v, x + 2, 0, -1, shape, ROLE_ACCENT);
        if (x + text_width(on) <= v.r.w)
            view_text(v, x, 0, -1, on, ROLE_DIM);
        return 1;
    }
    if (x + text_width(on) <= v.r.w)
        view_text(v, x, 0, -1, on, ROLE_DIM);
    return wrap_text(v, 1, shape, ROLE_ACCENT, false);
}

/* The floor's row: its time, the bound, the intensity and the ridge. */
static void op_floor_row(struct view v, int y, const struct operation_figures *o)
{
    char fl[24], bound[32], ai[48], ridge[40], num[24];
    format_turn_seconds(fl, sizeof fl, o->estimate.floor_s);
    snprintf(bound, sizeof bound, "  %s-bound", op_bound_name(o));
    snprintf(ai, sizeof ai, " at %s FLOP/byte", format_number(num, sizeof num, o->intensity_flop_per_byte, 1));
    double ridge_v = o->ridge_flop_per_byte;
    snprintf(ridge, sizeof ridge, "  (ridge %s)", format_number(num, sizeof num, ridge_v, 0));
    struct field f[] = {{"floor     ", ROLE_DIM}, {fl, ROLE_ACCENT}, {bound, bound_role(o)}, {ai, ROLE_TEXT},
                        {ridge, ROLE_DIM}};
    draw_fields(v, 0, y, f, is_collective(o) ? 3 : 5);
}

/* The realistic row: its time, the error band, the constants' source and
 * whose kernels. */
static void op_realistic_row(struct view v, int y, const struct scenario *s, const struct operation_figures *o,
                             const struct glyphs *g)
{
    char re[24], band[24], by[96], engine[64], standing[96];
    format_turn_seconds(re, sizeof re, o->estimate.realistic_s);
    snprintf(band, sizeof band, " %s%.0f%%", g->plus_minus, 100.0 * o->estimate.error_fraction);
    char src[80];
    snprintf(by, sizeof by, "  %s", op_profile_text(src, sizeof src, o));
    snprintf(engine, sizeof engine, ", %s kernels", kernel_engine_name(o->engine));
    snprintf(standing, sizeof standing, " standing in for %s", s->engine.name);
    struct field f[] = {{"realistic ", ROLE_DIM}, {re, ROLE_ACCENT}, {band, ROLE_ACCENT}, {by, ROLE_TEXT},
                        {engine, ROLE_DIM}, {standing, ROLE_DIM}};
    draw_fields(v, 0, y, f, o->engine_guessed ? 6 : 5);
}

/* The achieved row: FLOP/s and fraction of the peak; a collective's bytes
 * over the link and the link's bandwidth instead. */
static void op_achieved_row(struct view v, int y, const struct operation_figures *o)
{
    char rate[32], pc[24], peak[48], num[32];
    if (is_collective(o)) {
        char bw[40];
        format_si(rate, sizeof rate, o->estimate.bytes, "B");
        double link = o->chip.link_bytes_per_s > 0.0 ? o->chip.link_bytes_per_s : o->chip.hbm_bytes_per_s;
        snprintf(bw, sizeof bw, " at %s", format_si(num, sizeof num, link, "B/s"));
        struct field f[] = {{"link      ", ROLE_DIM}, {rate, ROLE_ACCENT}, {" over the link", ROLE_TEXT},
                            {bw, ROLE_ACCENT}, {o->chip.link_bytes_per_s > 0.0 ? " one way" : " (HBM's)", ROLE_DIM}};
        draw_fields(v, 0, y, f, 5);
        return;
    }
    format_si(rate, sizeof rate, o->realistic_flops_per_s, "FLOP/s");
    snprintf(pc, sizeof pc, ", %s", format_percent(num, sizeof num, o->fraction_of_peak));
    snprintf(peak, sizeof peak, " of the %s peak", format_si(num, sizeof num, o->estimate.peak_flops_per_s, "FLOP/s"));
    struct field f[] = {{"achieved  ", ROLE_DIM}, {rate, ROLE_ACCENT}, {pc, ROLE_ACCENT}, {peak, ROLE_DIM}};
    draw_fields(v, 0, y, f, 4);
}

/* Where the constants were fitted: how many measured kernels, whose and
 * in which format and library; or that none were. */
static void op_fit_row(struct view v, int y, const struct operation_figures *o)
{
    const struct kernel_fit *fit = o->estimate.fit;
    if (!fit) {
        struct field f[] = {{"fitted    ", ROLE_DIM}, {"nothing: the model's default constants", ROLE_TEXT}};
        draw_fields(v, 0, y, f, 2);
        return;
    }
    char rows[24], whose[120];
    snprintf(rows, sizeof rows, "%u", (unsigned)fit->rows);
    snprintf(whose, sizeof whose, " (%s, %s, %s kernels)",
             kernel_engine_label((enum rt_kernel_kind)fit->kind, (enum rt_kernel_engine)fit->engine),
             kernel_format_name((enum rt_kernel_format)fit->format),
             kernel_family_name((enum rt_kernel_family)fit->family));
    struct field f[] = {{"fitted    ", ROLE_DIM}, {"on ", ROLE_TEXT}, {rows, ROLE_ACCENT},
                        {" measured rows", ROLE_TEXT}, {whose, ROLE_DIM}};
    draw_fields(v, 0, y, f, 5);
}

/* The parts' row: compute, memory (link) and fixed times. */
static void op_parts_row(struct view v, int y, const struct operation_figures *o)
{
    const struct kernel_estimate *e = &o->estimate;
    char c[40], m[40], fx[40], t[24];
    snprintf(c, sizeof c, "compute %s", format_turn_seconds(t, sizeof t, e->compute_s));
    snprintf(m, sizeof m, "  %s %s", is_collective(o) ? "link" : "memory", format_turn_seconds(t, sizeof t, e->memory_s));
    snprintf(fx, sizeof fx, "  fixed %s", format_turn_seconds(t, sizeof t, e->fixed_s));
    struct field f[] = {{"parts     ", ROLE_DIM}, {c, ROLE_TEXT}, {m, ROLE_TEXT}, {fx, ROLE_TEXT}};
    if (is_collective(o)) {
        f[1] = f[0];
        draw_fields(v, 0, y, f + 1, 3);
    } else {
        draw_fields(v, 0, y, f, 4);
    }
}

void panel_op(struct view v, const struct scenario *s, const struct analysis *a, bool with_parts,
              const struct glyphs *g)
{
    const struct operation_figures *o = &a->operation;
    if (!o->set)
        return;
    int y = op_heading(v, s, o);
    op_floor_row(v, y++, o);
    op_realistic_row(v, y++, s, o, g);
    op_achieved_row(v, y++, o);
    int last = v.r.h - (with_parts ? 1 : 0); /* the parts keep the bottom row */
    char line[160];
    const struct kernel_estimate *e = &o->estimate;
    for (int i = 0; i < e->why_count && y < last; i++, y++) {
        view_text(v, 0, y, -1, i == 0 ? "why" : "", ROLE_DIM);
        kernel_reason_text(line, sizeof line, &e->why[i]);
        if (10 + text_width(line) <= v.r.w)
            view_text(v, 10, y, -1, line, ROLE_TEXT);
    }
    if (o->shape.warm_cache && y < last) {
        const char *warm = "timed alone and repeatedly (cache=warm): operands in L2 come from it";
        if (10 + text_width(warm) <= v.r.w)
            view_text(v, 10, y++, -1, warm, ROLE_DIM);
    }
    if (y < last)
        op_fit_row(v, y++, o);
    if (with_parts && y < v.r.h)
        op_parts_row(v, y, o);
}

/* ---- time ---- */

/* One part's row: name, time right-aligned, a bar of part / scale of the
 * width left, rounded (a part under half a cell has none). */
static void time_row(struct view v, int y, const char *name, double part_s, double scale_s, enum role role,
                     const struct glyphs *g)
{
    char t[24];
    format_turn_seconds(t, sizeof t, part_s);
    view_text(v, 0, y, 8, name, ROLE_TEXT);
    view_printf(v, 8, y, 9, ROLE_ACCENT, "%9s", t);
    int bar_x = 19, bar_w = v.r.w - bar_x - 1;
    if (bar_w < 1 || !(part_s > 0.0) || !(scale_s > 0.0))
        return;
    int n = (int)((double)bar_w * part_s / scale_s + 0.5);
    view_fill(v, bar_x, y, n > bar_w ? bar_w : n, 1, g->bar[0], role);
}

void panel_op_time(struct view v, const struct analysis *a, const struct glyphs *g)
{
    const struct operation_figures *o = &a->operation;
    const struct kernel_estimate *e = &o->estimate;
    if (!o->set)
        return;
    char t[24], head[48];
    snprintf(head, sizeof head, "realistic %s ", format_turn_seconds(t, sizeof t, e->realistic_s));
    int x = view_text(v, 0, 0, -1, "Time", ROLE_HEADER);
    if (x + 2 + text_width(head) <= v.r.w)
        view_text_right(v, v.r.w, 0, head, ROLE_DIM);
    double scale = e->realistic_s;
    const double parts[] = {e->compute_s, e->memory_s, e->fixed_s, e->floor_s};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        scale = parts[i] > scale ? parts[i] : scale;
    int y = 1;
    if (!is_collective(o))
        time_row(v, y++, "compute", e->compute_s, scale, ROLE_BAR1, g);
    time_row(v, y++, is_collective(o) ? "link" : "memory", e->memory_s, scale, ROLE_BAR2, g);
    time_row(v, y++, "fixed", e->fixed_s, scale, ROLE_BAR3, g);
    if (y < v.r.h)
        time_row(v, y++, "floor", e->floor_s, scale, ROLE_ROOF, g);
}

/* ---- a collective in the plot's place ---- */

void panel_op_link(struct view v, const struct analysis *a, const struct glyphs *g)
{
    const struct operation_figures *o = &a->operation;
    const struct kernel_estimate *e = &o->estimate;
    if (!o->set)
        return;
    char head[96], num[32], msg[48], moved[48], link[48], fl[24], re[24], band[24];
    snprintf(head, sizeof head, "  %s over %s chips", kernel_kind_name(o->shape.kind),
             format_number(num, sizeof num, o->shape.gpus, 0));
    struct field h[] = {{"Link", ROLE_HEADER}, {head, ROLE_DIM}};
    draw_fields(v, 0, 0, h, 2);
    int y = wrap_text(v, 2,
                      "A collective moves bytes between chips and does no arithmetic: with no FLOPs it has no "
                      "place on a roofline. Its ceiling is the link.",
                      ROLE_TEXT, false) + 1;
    snprintf(msg, sizeof msg, "%s a chip", format_si(num, sizeof num, o->shape.message_bytes, "B"));
    snprintf(moved, sizeof moved, "%s over the link", format_si(num, sizeof num, e->bytes, "B"));
    if (o->chip.link_bytes_per_s > 0.0)
        snprintf(link, sizeof link, "%s one way", format_si(num, sizeof num, o->chip.link_bytes_per_s, "B/s"));
    else
        snprintf(link, sizeof link, "%s (HBM's: no link figure)", format_si(num, sizeof num, o->chip.hbm_bytes_per_s, "B/s"));
    format_turn_seconds(fl, sizeof fl, e->floor_s);
    format_turn_seconds(re, sizeof re, e->realistic_s);
    snprintf(band, sizeof band, " %s%.0f%%", g->plus_minus, 100.0 * e->error_fraction);
    const struct field rows[][3] = {
        {{"message   ", ROLE_DIM}, {msg, ROLE_ACCENT}, {"", ROLE_DIM}},
        {{"moves     ", ROLE_DIM}, {moved, ROLE_ACCENT}, {"", ROLE_DIM}},
        {{"link      ", ROLE_DIM}, {link, ROLE_ACCENT}, {"", ROLE_DIM}},
        {{"floor     ", ROLE_DIM}, {fl, ROLE_ACCENT}, {"  bytes over the link", ROLE_DIM}},
        {{"realistic ", ROLE_DIM}, {re, ROLE_ACCENT}, {band, ROLE_ACCENT}},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && y < v.r.h; i++)
        draw_fields(v, 0, y++, rows[i], 3);
}

/* ---- help ---- */

int panel_op_help(struct view v, const struct glyphs *g, int scroll)
{
    static const char *const lines[][2] = {
        {"", "One operation on the roof: step its shape, watch it move."},
        {"", ""},
        {"UP/DOWN, k/j", "select a knob (also Tab / Shift-Tab)"},
        {"LEFT/RIGHT, h/l", "step it (dimensions by powers of two)"},
        {"PgUp/PgDn, H/L", "coarse step (x4; also Shift-Left/Right)"},
        {"Enter or =", "type a value: 8192, 8k, 16M (Esc cancels)"},
        {"u", "undo the last change"},
        {"r / a", "reset / re-fit the plot's axes"},
        {"v", "the model's view, and back"},
        PANEL_HELP_SHARED_ROWS
        {"dots", "filled: the floor on the roof; hollow: realistic"},
        {"", "the kernel fit's cross-validated error"}, /* the key: "±N%" in the glyphs' charset */
        {"bound", "the larger of the compute and memory parts"},
    };
    enum { N = (int)(sizeof lines / sizeof lines[0]) };
    const char *shown[N][2];
    char band[16];
    snprintf(band, sizeof band, "%sN%%", g->plus_minus);
    for (int i = 0; i < N; i++) {
        shown[i][0] = i >= 2 && lines[i][0][0] == '\0' ? band : lines[i][0];
        shown[i][1] = lines[i][1];
    }
    return panel_help_lines(v, g, scroll, " rooftop keys: one operation ", (const char *const (*)[2])shown, N);
}
