/* plot.c — the roofline plot's axes, roofs, ridge and points. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "plotmath.h"

/* Characters of the decorations, per charset. */
struct plot_glyphs {
    uint32_t vline, hline, corner, ytick, xtick, point;
    uint32_t realistic; /* where the realistic estimate puts a phase, below its roof point */
    uint32_t measured;  /* a measured kernel (--points) */
    uint32_t baseline;  /* where a phase point was in the pinned baseline */
};
static const struct plot_glyphs utf8_glyphs = {0x2502, 0x2500, 0x2514, 0x2524, 0x252C, 0x25CF, 0x25CB, 0x00D7, 0x25C7};
static const struct plot_glyphs ascii_glyphs = {'|', '-', '+', '+', '+', 'o', '*', 'x', '#'};

/* The axes' decade ranges and the canvas's pixel geometry. */
struct plot_frame {
    int x_lo, x_hi, y_lo, y_hi; /* decades */
    int pw, ph;                 /* canvas pixels */
    int sx, sy;                 /* pixels per cell */
};

/* Pixel column of intensity i (FLOP/byte); may fall outside the canvas. */
static int px_of(const struct plot_frame *f, double intensity)
{
    double p = log_axis_position(intensity, f->x_lo, f->x_hi, f->pw - 1);
    return isfinite(p) ? (int)lround(fmax(fmin(p, 1e6), -1e6)) : -1;
}

/* Pixel row of throughput t (FLOP/s), 0 at the top; may fall outside. */
static int py_of(const struct plot_frame *f, double flops_per_s)
{
    double p = log_axis_position(flops_per_s, f->y_lo, f->y_hi, f->ph - 1);
    return isfinite(p) ? f->ph - 1 - (int)lround(fmax(fmin(p, 1e6), -1e6)) : f->ph;
}

/* Draws one chip's roof across the canvas: the sloped memory roof and the
 * flat compute roof, meeting at the ridge. flat_only draws just the flat
 * part, dashed cell by cell (the vector unit's roof under the tensor one).
 * Returns the first pixel column of the flat part, or -1 when none shows. */
static int draw_roof(struct canvas *c, const struct plot_frame *f, double peak, double bw, enum role role,
                     bool dotted, bool flat_only)
{
    int prev_y = 0, prev_cell_row = -1, flat_from = -1;
    for (int px = 0; px < f->pw; px++) {
        double intensity = log_axis_value(px, f->x_lo, f->x_hi, f->pw - 1);
        double t = roofline_throughput(peak, bw, intensity);
        if (!isfinite(t))
            continue;
        int py = py_of(f, t);
        bool flat = t >= peak;
        if (flat && flat_from < 0)
            flat_from = px;
        if (flat_only) {
            if (flat && (px / f->sx) % 2 == 0)
                canvas_set(c, px, py, role, '-');
            continue;
        }
        int cell_row = py / f->sy;
        char glyph = dotted ? '.' : flat ? '-' : (cell_row != prev_cell_row && px > 0 ? '/' : '_');
        if (dotted && (px % 2) == 1) {
            prev_y = py;
            prev_cell_row = cell_row;
            continue;
        }
        if (px == 0 || dotted)
            canvas_set(c, px, py, role, glyph);
        else
            canvas_line(c, px - 1, prev_y, px, py, role, glyph);
        prev_y = py;
        prev_cell_row = cell_row;
    }
    return flat_from;
}

/* Formats a ridge value: "241", "1.5k". */
static void format_ridge(char *buf, size_t size, double ridge)
{
    if (ridge < 10.0)
        snprintf(buf, size, "%.1f", ridge);
    else if (ridge < 10000.0)
        snprintf(buf, size, "%.0f", ridge);
    else
        snprintf(buf, size, "%.0fk", ridge / 1000.0);
}

/* Marks cells a label or marker has taken, so later labels avoid them; the
 * canvas, when set, is avoided too (labels should not hide the roofs). */
struct taken {
    int cols, rows;
    unsigned char *cell; /* rows x cols */
    const struct canvas *canvas;
};

/* True when cells [x, x+w) of row y are free and inside the area. */
static bool taken_free(const struct taken *t, int x, int y, int w)
{
    if (y < 0 || y >= t->rows || x < 0 || x + w > t->cols)
        return false;
    for (int i = 0; i < w; i++) {
        if (t->cell[(size_t)y * (size_t)t->cols + (size_t)(x + i)])
            return false;
        if (t->canvas && canvas_cell_used(t->canvas, x + i, y))
            return false;
    }
    return true;
}

/* Marks cells [x, x+w) of row y as taken. */
static void taken_mark(struct taken *t, int x, int y, int w)
{
    for (int i = 0; i < w; i++)
        if (y >= 0 && y < t->rows && x + i >= 0 && x + i < t->cols)
            t->cell[(size_t)y * (size_t)t->cols + (size_t)(x + i)] = 1;
}

/* True when cell (x, y) lies inside and a label or marker has taken it. */
static bool cell_marked(const struct taken *t, int x, int y)
{
    return x >= 0 && y >= 0 && x < t->cols && y < t->rows && t->cell[(size_t)y * (size_t)t->cols + (size_t)x];
}

/* Places text near cell (cx, cy) of the canvas area: right of it, left of
 * it, then on the rows above and below, first where it hides no pixel of the
 * roofs, then anywhere free; returns false when nothing fits. */
static bool place_label(struct view area, struct taken *t, int cx, int cy, const char *text, enum role role)
{
    int w = text_width(text);
    const int tries[][2] = {{2, 0},  {-1 - w, 0}, {1, 1},      {-w, 1},     {1, -1},
                            {-w, -1}, {-w / 2, 1}, {-w / 2, -1}, {2, 2},      {-w, 2}};
    const struct canvas *saved = t->canvas;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
            int x = cx + tries[i][0], y = cy + tries[i][1];
            if (taken_free(t, x, y, w)) {
                view_text(area, x, y, w, text, role);
                taken_mark(t, x, y, w);
                t->canvas = saved;
                return true;
            }
        }
        t->canvas = NULL; /* second pass: labels may cover the roof */
    }
    t->canvas = saved;
    return false;
}

/* Role and short name of a placement's phase. */
static enum role phase_role(const struct placement *p)
{
    if (strcmp(p->phase, "prefill") == 0)
        return ROLE_PREFILL;
    if (strcmp(p->phase, "decode") == 0)
        return ROLE_DECODE;
    return ROLE_TRAIN;
}

int plot_op_count(const struct analysis *a, const char *phase)
{
    int n = 0;
    for (int i = 0; phase && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (a->placements[i].operation && strcmp(a->placements[i].phase, phase) == 0)
            n++;
    return n;
}

char plot_op_marker(int k)
{
    return k >= 0 && k < 26 ? (char)('a' + k) : '?';
}

/* True when placement p is one of ops_phase's operations that a log-log plot
 * can hold (FLOPs and throughput above zero). */
static bool op_shown(const struct placement *p, const char *ops_phase)
{
    return p->operation && ops_phase && strcmp(p->phase, ops_phase) == 0 && p->roof.intensity_flop_per_byte > 0.0 &&
           p->roof.attainable_flops_per_s > 0.0;
}

/* True when placement p is a phase point on the plot: every phase, or only
 * ops_phase's own when its operations are shown. */
static bool phase_shown(const struct placement *p, const char *ops_phase)
{
    return !p->operation && (!ops_phase || strcmp(p->phase, ops_phase) == 0);
}

/* Draws ops_phase's operations as letters at their cells; operations sharing
 * a cell show their letters side by side ("ad"), beside the first. */
static void draw_ops(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                     const char *ops_phase)
{
    int n = a->placement_count < RT_MAX_PLACEMENTS ? a->placement_count : RT_MAX_PLACEMENTS;
    int cxs[RT_MAX_PLACEMENTS], cys[RT_MAX_PLACEMENTS];
    char marks[RT_MAX_PLACEMENTS];
    int k = 0;
    for (int i = 0; i < n; i++) {
        const struct placement *p = &a->placements[i];
        cxs[i] = cys[i] = -1;
        marks[i] = '?';
        if (!(p->operation && ops_phase && strcmp(p->phase, ops_phase) == 0))
            continue;
        marks[i] = plot_op_marker(k++);
        if (!op_shown(p, ops_phase))
            continue;
        int cx = px_of(f, p->roof.intensity_flop_per_byte) / f->sx;
        int cy = py_of(f, p->roof.attainable_flops_per_s) / f->sy;
        if (cx >= 0 && cy >= 0 && cx < t->cols && cy < t->rows) {
            cxs[i] = cx;
            cys[i] = cy;
        }
    }
    enum role role = ROLE_TRAIN;
    if (strcmp(ops_phase, "prefill") == 0)
        role = ROLE_PREFILL;
    else if (strcmp(ops_phase, "decode") == 0)
        role = ROLE_DECODE;
    /* The first letter of each cell on its point, before any label. */
    for (int i = 0; i < n; i++) {
        if (cxs[i] < 0)
            continue;
        bool first = true;
        for (int j = 0; j < i; j++)
            if (cxs[j] == cxs[i] && cys[j] == cys[i])
                first = false;
        if (!first)
            continue;
        view_put(area, cxs[i], cys[i], (uint32_t)(unsigned char)marks[i], role);
        taken_mark(t, cxs[i], cys[i], 1);
    }
    /* The others of a shared cell, right or left of it, else wherever free. */
    for (int i = 0; i < n; i++) {
        if (cxs[i] < 0)
            continue;
        char more[RT_MAX_PLACEMENTS + 1];
        int m = 0;
        bool first = true;
        for (int j = 0; j < i; j++)
            if (cxs[j] == cxs[i] && cys[j] == cys[i])
                first = false;
        if (!first)
            continue;
        for (int j = i + 1; j < n; j++)
            if (cxs[j] == cxs[i] && cys[j] == cys[i])
                more[m++] = marks[j];
        more[m] = '\0';
        if (m == 0)
            continue;
        const struct canvas *saved = t->canvas;
        t->canvas = NULL; /* beside a point on a roof, covering the roof is fine */
        if (taken_free(t, cxs[i] + 1, cys[i], m)) {
            view_text(area, cxs[i] + 1, cys[i], m, more, role);
            taken_mark(t, cxs[i] + 1, cys[i], m);
        } else if (taken_free(t, cxs[i] - m, cys[i], m)) {
            view_text(area, cxs[i] - m, cys[i], m, more, role);
            taken_mark(t, cxs[i] - m, cys[i], m);
        } else {
            t->canvas = saved;
            place_label(area, t, cxs[i], cys[i], more, role);
        }
        t->canvas = saved;
    }
}

/* Draws the phase points, merging those that land in one cell
 * ("prefill/training"); with ops_phase, only that phase's, where the
 * operations' letters left its cell free. */
static void draw_points(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                        const char *ops_phase, const struct plot_glyphs *gl)
{
    int n = a->placement_count < RT_MAX_PLACEMENTS ? a->placement_count : RT_MAX_PLACEMENTS;
    int cxs[RT_MAX_PLACEMENTS], cys[RT_MAX_PLACEMENTS];
    for (int i = 0; i < n; i++) {
        const struct placement *p = &a->placements[i];
        cxs[i] = px_of(f, p->roof.intensity_flop_per_byte) / f->sx;
        cys[i] = py_of(f, p->roof.attainable_flops_per_s) / f->sy;
        if (!phase_shown(p, ops_phase) || (ops_phase && cell_marked(t, cxs[i], cys[i])))
            cxs[i] = cys[i] = -1;
    }
    /* Markers first, so that no label covers a point. */
    for (int i = 0; i < n; i++) {
        if (cxs[i] < 0 || cys[i] < 0 || cxs[i] >= t->cols || cys[i] >= t->rows)
            continue;
        view_put(area, cxs[i], cys[i], gl->point, phase_role(&a->placements[i]));
        taken_mark(t, cxs[i], cys[i], 1);
    }
    /* Below each phase's roof point, where the realistic estimate puts it
     * (the FLOP/s its realistic time achieves), when that is another cell. */
    for (int i = 0; i < n; i++) {
        const struct placement *p = &a->placements[i];
        if (cxs[i] < 0 || !(p->realistic_flops_per_s > 0.0))
            continue;
        int ry = py_of(f, p->realistic_flops_per_s) / f->sy;
        if (ry == cys[i] || ry < 0 || ry >= t->rows || cell_marked(t, cxs[i], ry))
            continue;
        view_put(area, cxs[i], ry, gl->realistic, phase_role(p));
        taken_mark(t, cxs[i], ry, 1);
    }
    for (int i = 0; i < n; i++) {
        bool first = true;
        for (int j = 0; j < i; j++)
            if (cxs[j] == cxs[i] && cys[j] == cys[i])
                first = false;
        if (!first || cxs[i] < 0 || cys[i] < 0 || cxs[i] >= t->cols || cys[i] >= t->rows)
            continue;
        char label[96] = "";
        size_t used = 0;
        for (int j = i; j < n && used + 1 < sizeof label; j++) {
            if (cxs[j] != cxs[i] || cys[j] != cys[i])
                continue;
            int k = snprintf(label + used, sizeof label - used, "%s%s", used ? "/" : "", a->placements[j].phase);
            if (k < 0)
                break;
            used += (size_t)k;
            if (used >= sizeof label)
                used = sizeof label - 1;
        }
        place_label(area, t, cxs[i], cys[i], label, phase_role(&a->placements[i]));
    }
}

/* Widens [lo, hi] to include v when v is finite and > 0. */
static void widen(double *lo, double *hi, double v)
{
    if (!(isfinite(v) && v > 0.0))
        return;
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

void plot_draw(struct view v, const struct analysis *a, const struct plot_compare *cmp, const char *ops_phase,
               bool ascii, struct plot_scratch *ps)
{
    plot_draw_points(v, a, cmp, ops_phase, NULL, ascii, ps);
}

/* Draws the measured kernels as x, labelled where there is room. */
static void draw_measured(struct view area, struct taken *t, const struct plot_frame *f, const struct plot_points *pts,
                          const struct plot_glyphs *gl)
{
    for (size_t i = 0; pts && i < pts->count; i++) {
        const struct point_placement pp = pts->items[i].at;
        if (!(pp.achieved_flops_per_s > 0.0))
            continue;
        int cx = px_of(f, pp.intensity_flop_per_byte) / f->sx;
        int cy = py_of(f, pp.achieved_flops_per_s) / f->sy;
        if (cx < 0 || cy < 0 || cx >= t->cols || cy >= t->rows || cell_marked(t, cx, cy))
            continue;
        enum role role = pp.above_roof ? ROLE_MISS : ROLE_ACCENT;
        view_put(area, cx, cy, pp.above_roof ? '!' : gl->measured, role); /* '!' shows without colour too */
        taken_mark(t, cx, cy, 1);
        place_label(area, t, cx, cy, pts->items[i].label, role);
    }
}

/* The baseline's placement of a's phase placement p, or NULL. */
static const struct placement *base_of(const struct analysis *base, const struct placement *p)
{
    for (int i = 0; base && i < base->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (!base->placements[i].operation && strcmp(base->placements[i].phase, p->phase) == 0)
            return &base->placements[i];
    return NULL;
}

/* Draws on the canvas a dotted line from each shown phase point's baseline
 * position to its current one. */
static void draw_moves(struct canvas *c, const struct plot_frame *f, const struct analysis *a,
                       const struct analysis *base, const char *ops_phase)
{
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        const struct placement *bp = phase_shown(p, ops_phase) ? base_of(base, p) : NULL;
        if (!bp)
            continue;
        int x0 = px_of(f, bp->roof.intensity_flop_per_byte), y0 = py_of(f, bp->roof.attainable_flops_per_s);
        int x1 = px_of(f, p->roof.intensity_flop_per_byte), y1 = py_of(f, p->roof.attainable_flops_per_s);
        if (x0 == x1 && y0 == y1)
            continue;
        /* Every other pixel, so that the line reads as a path, not a roof. */
        int n = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
        for (int k = 0; k <= n && n <= 100000; k += 2)
            canvas_set(c, x0 + (int)lround((double)(x1 - x0) * k / n), y0 + (int)lround((double)(y1 - y0) * k / n),
                       ROLE_DIM, '.');
    }
}

/* Draws the baseline's phase points as hollow markers where no current point is. */
static void draw_base_points(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                             const struct analysis *base, const char *ops_phase, const struct plot_glyphs *gl)
{
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        const struct placement *bp = phase_shown(p, ops_phase) ? base_of(base, p) : NULL;
        if (!bp)
            continue;
        int cx = px_of(f, bp->roof.intensity_flop_per_byte) / f->sx;
        int cy = py_of(f, bp->roof.attainable_flops_per_s) / f->sy;
        if (cx < 0 || cy < 0 || cx >= t->cols || cy >= t->rows || cell_marked(t, cx, cy))
            continue;
        view_put(area, cx, cy, gl->baseline, phase_role(p));
        taken_mark(t, cx, cy, 1);
    }
}

void plot_draw_points(struct view v, const struct analysis *a, const struct plot_compare *cmp, const char *ops_phase,
                      const struct plot_points *pts, bool ascii, struct plot_scratch *ps)
{
    plot_draw_base(v, a, NULL, cmp, ops_phase, pts, ascii, ps);
}

void plot_draw_base(struct view v, const struct analysis *a, const struct analysis *base,
                    const struct plot_compare *cmp, const char *ops_phase, const struct plot_points *pts, bool ascii,
                    struct plot_scratch *ps)
{
    struct canvas *scratch = &ps->canvas;
    const struct plot_glyphs *gl = ascii ? &ascii_glyphs : &utf8_glyphs;
    const struct analysis *b = cmp && cmp->a ? cmp->a : NULL;
    char buf[160], peak_s[32], bw_s[32];

    format_si(peak_s, sizeof peak_s, a->peak_flops_per_s, "FLOP/s");
    format_si(bw_s, sizeof bw_s, a->hbm_bytes_per_s, "B/s");
    int n_ops = plot_op_count(a, ops_phase);
    if (n_ops == 0)
        ops_phase = NULL;
    int hx = view_printf(v, 0, 0, -1, ROLE_HEADER, "Roofline");
    if (ops_phase)
        hx += view_printf(v, hx, 0, -1, ROLE_DIM, "  %s ops %c-%c (o: next)", ops_phase,
                          plot_op_marker(0), plot_op_marker(n_ops - 1));
    else
        hx += view_printf(v, hx, 0, -1, ROLE_DIM, "  FLOP/s (%s) vs FLOP/byte", precision_name(a->compute_precision));
    snprintf(buf, sizeof buf, "peak %s  %s", peak_s, bw_s);
    if (hx + 3 + text_width(buf) <= v.r.w)
        view_text_right(v, v.r.w - 1, 0, buf, ROLE_DIM);

    /* Axis ranges: every point, both ridges with room right of them, the roofs. */
    double x_lo = INFINITY, x_hi = 0.0;
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (phase_shown(&a->placements[i], ops_phase) || op_shown(&a->placements[i], ops_phase))
            widen(&x_lo, &x_hi, a->placements[i].roof.intensity_flop_per_byte);
    widen(&x_lo, &x_hi, a->ridge_flop_per_byte);
    widen(&x_lo, &x_hi, a->ridge_flop_per_byte * 4.0);
    for (size_t i = 0; pts && i < pts->count; i++)
        widen(&x_lo, &x_hi, pts->items[i].at.intensity_flop_per_byte);
    for (int i = 0; base && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *bp = phase_shown(&a->placements[i], ops_phase) ? base_of(base, &a->placements[i]) : NULL;
        if (bp)
            widen(&x_lo, &x_hi, bp->roof.intensity_flop_per_byte);
    }
    if (b) {
        widen(&x_lo, &x_hi, b->ridge_flop_per_byte);
        widen(&x_lo, &x_hi, b->ridge_flop_per_byte * 4.0);
    }
    struct plot_frame f;
    if (log_axis_decades(x_lo, x_hi, 3, &f.x_lo, &f.x_hi) != 0)
        return;
    double y_lo = INFINITY, y_hi = 0.0;
    double edge = pow(10.0, f.x_lo);
    widen(&y_lo, &y_hi, a->peak_flops_per_s);
    widen(&y_lo, &y_hi, roofline_throughput(a->peak_flops_per_s, a->hbm_bytes_per_s, edge));
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        if (phase_shown(&a->placements[i], ops_phase) || op_shown(&a->placements[i], ops_phase))
            widen(&y_lo, &y_hi, a->placements[i].roof.attainable_flops_per_s);
        if (phase_shown(&a->placements[i], ops_phase))
            widen(&y_lo, &y_hi, a->placements[i].realistic_flops_per_s);
    }
    for (int i = 0; base && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *bp = phase_shown(&a->placements[i], ops_phase) ? base_of(base, &a->placements[i]) : NULL;
        if (bp)
            widen(&y_lo, &y_hi, bp->roof.attainable_flops_per_s);
    }
    if (ops_phase)
        widen(&y_lo, &y_hi, a->hw.vector_flops_per_s);
    for (size_t i = 0; pts && i < pts->count; i++)
        widen(&y_lo, &y_hi, pts->items[i].at.achieved_flops_per_s);
    if (b) {
        widen(&y_lo, &y_hi, b->peak_flops_per_s);
        widen(&y_lo, &y_hi, roofline_throughput(b->peak_flops_per_s, b->hbm_bytes_per_s, edge));
    }
    if (log_axis_decades(y_lo, y_hi, 2, &f.y_lo, &f.y_hi) != 0)
        return;

    /* Geometry: y labels, the axis column, the canvas, the x axis and labels. */
    int ylw = 0;
    for (int d = f.y_lo; d <= f.y_hi; d++) {
        int w = text_width(decade_label(buf, sizeof buf, d));
        if (w > ylw)
            ylw = w;
    }
    int cw = v.r.w - ylw - 1 - 1, ch = v.r.h - 3;
    if (v.r.w < 12 || v.r.h < 5 || cw < 4 || ch < 2)
        return;
    canvas_init(scratch, cw, ch, ascii);
    cw = scratch->cols; /* a huge view is capped to the canvas's capacity */
    ch = scratch->rows;
    struct view area = view_sub(v, ylw + 1, 1, cw, ch);
    f.pw = scratch->px_w;
    f.ph = scratch->px_h;
    f.sx = ascii ? 1 : 2;
    f.sy = ascii ? 1 : 4;

    /* Axes. */
    for (int y = 1; y <= ch; y++)
        view_put(v, ylw, y, gl->vline, ROLE_AXIS);
    view_put(v, ylw, ch + 1, gl->corner, ROLE_AXIS);
    view_fill(v, ylw + 1, ch + 1, cw + 1, 1, gl->hline, ROLE_AXIS);
    int y_step = 1;
    while (y_step < PLOT_MAX_DECADES && (double)ch / (f.y_hi - f.y_lo) * y_step < 1.5)
        y_step++;
    for (int d = f.y_lo; d <= f.y_hi; d += y_step) {
        int row = py_of(&f, pow(10.0, d)) / f.sy;
        if (row < 0 || row >= ch)
            continue;
        view_put(v, ylw, 1 + row, gl->ytick, ROLE_AXIS);
        view_text_right(v, ylw, 1 + row, decade_label(buf, sizeof buf, d), ROLE_AXIS);
    }
    int lab_w = 4;
    int x_step = 1;
    while (x_step < PLOT_MAX_DECADES && (double)cw / (f.x_hi - f.x_lo) * x_step < lab_w + 2)
        x_step++;
    int last_label_end = -1;
    for (int d = f.x_lo; d <= f.x_hi; d += x_step) {
        int col = px_of(&f, pow(10.0, d)) / f.sx;
        if (col < 0 || col > cw)
            continue;
        view_put(v, ylw + 1 + col, ch + 1, gl->xtick, ROLE_AXIS);
        decade_label(buf, sizeof buf, d);
        int w = text_width(buf);
        int x = ylw + 1 + col - w / 2;
        if (x + w > v.r.w)
            x = v.r.w - w;
        if (x <= last_label_end)
            continue;
        view_text(v, x, ch + 2, w, buf, ROLE_AXIS);
        last_label_end = x + w;
    }

    /* Roofs: the comparison chip under the current one. */
    if (b)
        draw_roof(scratch, &f, b->peak_flops_per_s, b->hbm_bytes_per_s, ROLE_ROOF2, true, false);
    int vector_px = -1;
    if (ops_phase && a->hw.vector_flops_per_s < a->peak_flops_per_s)
        vector_px = draw_roof(scratch, &f, a->hw.vector_flops_per_s, a->hbm_bytes_per_s, ROLE_ROOF, false, true);
    int ridge_px = px_of(&f, a->ridge_flop_per_byte);
    int roof_py = py_of(&f, a->peak_flops_per_s);
    for (int py = roof_py + 2; py < f.ph; py += 2)
        canvas_set(scratch, ridge_px, py, ROLE_RIDGE, ':');
    if (base) /* under the roof, which keeps its colour where a point moved along it */
        draw_moves(scratch, &f, a, base, ops_phase);
    draw_roof(scratch, &f, a->peak_flops_per_s, a->hbm_bytes_per_s, ROLE_ROOF, false, false);
    canvas_blit(scratch, area, 0, 0);

    /* Labels: points first (they matter most), then the ridges. */
    struct taken t = {cw, ch, ps->taken, scratch};
    memset(t.cell, 0, (size_t)cw * (size_t)ch);
    if (ops_phase)
        draw_ops(area, &t, &f, a, ops_phase);
    draw_points(area, &t, &f, a, ops_phase, gl);
    if (base)
        draw_base_points(area, &t, &f, a, base, ops_phase, gl);
    draw_measured(area, &t, &f, pts, gl);
    char ridge_s[32];
    format_ridge(ridge_s, sizeof ridge_s, a->ridge_flop_per_byte);
    snprintf(buf, sizeof buf, "ridge %s", ridge_s);
    int rcx = ridge_px / f.sx, rcy = roof_py / f.sy;
    int rw = text_width(buf);
    int rx = rcx - rw / 2;
    if (rx + rw > cw)
        rx = cw - rw;
    if (rx < 0)
        rx = 0;
    bool placed = false;
    for (int dy = 1; dy <= 2 && !placed; dy++) {
        if (taken_free(&t, rx, rcy - dy, rw)) {
            view_text(area, rx, rcy - dy, rw, buf, ROLE_RIDGE);
            taken_mark(&t, rx, rcy - dy, rw);
            placed = true;
        }
    }
    if (!placed)
        place_label(area, &t, rcx, rcy + 1, buf, ROLE_RIDGE);
    if (vector_px >= 0) {
        /* The vector roof's label, above its right end where the operations are fewest. */
        char vs[32];
        snprintf(buf, sizeof buf, "vector %s", format_si(vs, sizeof vs, a->hw.vector_flops_per_s, "FLOP/s"));
        int vy = py_of(&f, a->hw.vector_flops_per_s) / f.sy, x0 = vector_px / f.sx;
        bool done = false;
        for (int pass = 0; pass < 2 && !done; pass++) { /* the full label, else "vector" */
            if (pass == 1)
                snprintf(buf, sizeof buf, "vector");
            int vw = text_width(buf);
            for (int dy = -1; dy <= 1 && !done; dy += 2) /* just above the line, else just below */
                for (int x = cw - vw; x >= x0 && !done; x--)
                    if (taken_free(&t, x, vy + dy, vw)) {
                        view_text(area, x, vy + dy, vw, buf, ROLE_ROOF);
                        taken_mark(&t, x, vy + dy, vw);
                        done = true;
                    }
        }
        if (!done)
            place_label(area, &t, cw - 4, vy, "vector", ROLE_ROOF);
    }
    if (b) {
        format_ridge(ridge_s, sizeof ridge_s, b->ridge_flop_per_byte);
        snprintf(buf, sizeof buf, "%s ridge %s", cmp->chip_key ? cmp->chip_key : "other", ridge_s);
        int bcx = px_of(&f, b->ridge_flop_per_byte) / f.sx, bcy = py_of(&f, b->peak_flops_per_s) / f.sy;
        if (!place_label(area, &t, bcx, bcy - 1, buf, ROLE_ROOF2))
            place_label(area, &t, bcx, bcy + 1, buf, ROLE_ROOF2);
    }
}
