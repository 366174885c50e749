/* plot.c — the roofline plot's axes, roofs, ridge and points. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "opreport.h" /* op_bound_name */
#include "plotmath.h"

/* Characters of the decorations, per charset. */
struct plot_glyphs {
    uint32_t vline, hline, corner, ytick, xtick, point;
    uint32_t realistic; /* where the realistic estimate puts a phase, below its roof point */
    uint32_t measured;  /* a measured kernel (--points) */
    uint32_t baseline;  /* where a phase point was in the pinned baseline */
    uint32_t left, right, up, down; /* a point beyond the axes, pinned to their edge */
    uint32_t trail;     /* where a moving point was a step or three ago */
};
static const struct plot_glyphs utf8_glyphs = {0x2502, 0x2500, 0x2514, 0x2524, 0x252C, 0x25CF, 0x25CB,
                                               0x00D7, 0x25C7, 0x2190, 0x2192, 0x2191, 0x2193, 0x00B7};
static const struct plot_glyphs ascii_glyphs = {'|', '-', '+', '+', '+', 'o', '*', 'x', '#', '<', '>', '^', 'v', '.'};

/* The axes' decade ranges and the canvas's pixel geometry. The top decade
 * y_hi sits on the first row and x_lo on the first column; every decade
 * spans kx (ky) pixels, so that ticks land on whole cells, evenly. */
struct plot_frame {
    int x_lo, x_hi, y_lo, y_hi; /* decades */
    int pw, ph;                 /* canvas pixels */
    int sx, sy;                 /* pixels per cell */
    int cw, ch;                 /* canvas cells */
    int x_step, x_gap, y_step, y_gap; /* a tick every *_step decades, *_gap cells apart */
};

/* Pixels the x axis's fitted decades span. */
static double x_span(const struct plot_frame *f)
{
    return (double)(f->x_hi - f->x_lo) * f->x_gap * f->sx / f->x_step;
}

/* Pixels the y axis's fitted decades span. */
static double y_span(const struct plot_frame *f)
{
    return (double)(f->y_hi - f->y_lo) * f->y_gap * f->sy / f->y_step;
}

/* Pixel column of intensity i (FLOP/byte); may fall outside the canvas. */
static int px_of(const struct plot_frame *f, double intensity)
{
    double p = log_axis_position(intensity, f->x_lo, f->x_hi, x_span(f));
    return isfinite(p) ? (int)lround(fmax(fmin(p, 1e6), -1e6)) : -1;
}

/* Pixel row of throughput t (FLOP/s), 0 at the top; may fall outside. */
static int py_of(const struct plot_frame *f, double flops_per_s)
{
    double p = log_axis_position(flops_per_s, f->y_lo, f->y_hi, y_span(f));
    return isfinite(p) ? (int)lround(fmax(fmin(y_span(f) - p, 1e6), -1e6)) : f->ph;
}

/* a / b rounded toward minus infinity (b > 0): the cell of a pixel. */
static int floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Sides a point lies beyond the axes on. */
enum { PIN_LEFT = 1, PIN_RIGHT = 2, PIN_UP = 4, PIN_DOWN = 8 };

/* The cell of a point at intensity (FLOP/byte) and flops_per_s, pinned to
 * the canvas's edge when it lies beyond: returns the PIN_* sides it was
 * pinned on (0 inside). No intensity (<= 0) pins left, on_chip (no HBM
 * bytes: intensity without bound) right, no FLOP/s bottom. */
static int cell_of(const struct plot_frame *f, double intensity, double flops_per_s, bool on_chip, int *cx, int *cy)
{
    int pin = 0;
    int x = on_chip ? f->cw : intensity > 0.0 && isfinite(intensity) ? floor_div(px_of(f, intensity), f->sx) : -1;
    int y = flops_per_s > 0.0 && isfinite(flops_per_s) ? floor_div(py_of(f, flops_per_s), f->sy) : f->ch;
    if (x < 0) {
        pin |= PIN_LEFT;
        x = 0;
    } else if (x >= f->cw) {
        pin |= PIN_RIGHT;
        x = f->cw - 1;
    }
    if (y < 0) {
        pin |= PIN_UP;
        y = 0;
    } else if (y >= f->ch) {
        pin |= PIN_DOWN;
        y = f->ch - 1;
    }
    *cx = x;
    *cy = y;
    return pin;
}

/* The arrow of a pinned point: left or right first, else up or down. */
static uint32_t pin_arrow(const struct plot_glyphs *gl, int pin)
{
    return pin & PIN_LEFT ? gl->left : pin & PIN_RIGHT ? gl->right : pin & PIN_UP ? gl->up : gl->down;
}

/* Formats an axis value in two or three figures with an SI prefix and no
 * unit: "0.05", "2.5", "131", "8.4M", "2P". */
static void format_short(char *buf, size_t size, double v)
{
    static const char prefixes[] = " kMGTPE";
    int g = 0;
    while (g < 6 && fabs(v) >= 999.5) {
        v /= 1000.0;
        g++;
    }
    int digits = fabs(v) < 0.095 ? 2 : fabs(v) < 9.95 ? 1 : 0;
    snprintf(buf, size, "%.*f%.*s", digits, v, g > 0 ? 1 : 0, prefixes + g);
}

/* The value a pinned point's label carries: its intensity when pinned left
 * or right ("on chip" without one), else its FLOP/s. */
static void pin_value(char *buf, size_t size, const struct placement *p, int pin)
{
    if (pin & (PIN_LEFT | PIN_RIGHT)) {
        if (p->on_chip)
            snprintf(buf, size, "on chip");
        else
            format_short(buf, size, p->roof.intensity_flop_per_byte);
    } else {
        format_short(buf, size, p->roof.attainable_flops_per_s);
    }
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
        double intensity = log_axis_value(px, f->x_lo, f->x_hi, x_span(f));
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

/* Formats a ridge value: "241", "15k". */
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

/* True when cell (x, y) lies inside and a label or marker has taken it. */
static bool cell_marked(const struct taken *t, int x, int y)
{
    return x >= 0 && y >= 0 && x < t->cols && y < t->rows && t->cell[(size_t)y * (size_t)t->cols + (size_t)x];
}

/* What took a cell: a marker (point, letter, trail dot) or a label's text. */
enum { TAKEN_MARK = 1, TAKEN_LABEL = 2 };

/* Marks cells [x, x+w) of row y as taken by what (TAKEN_*). */
static void taken_set(struct taken *t, int x, int y, int w, unsigned char what)
{
    for (int i = 0; i < w; i++)
        if (y >= 0 && y < t->rows && x + i >= 0 && x + i < t->cols)
            t->cell[(size_t)y * (size_t)t->cols + (size_t)(x + i)] = what;
}

/* Marks cells [x, x+w) of row y as taken by a marker. */
static void taken_mark(struct taken *t, int x, int y, int w)
{
    taken_set(t, x, y, w, TAKEN_MARK);
}

/* taken_free, and nothing taken touches [x, x+w) on its row, so that a
 * label never runs into another ("trainingprefill") or into a marker. */
static bool label_free(const struct taken *t, int x, int y, int w)
{
    return taken_free(t, x, y, w) && !cell_marked(t, x - 1, y) && !cell_marked(t, x + w, y);
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
            if (label_free(t, x, y, w)) {
                view_text(area, x, y, w, text, role);
                taken_set(t, x, y, w, TAKEN_LABEL);
                t->canvas = saved;
                return true;
            }
        }
        t->canvas = NULL; /* second pass: labels may cover the roof */
    }
    t->canvas = saved;
    return false;
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

/* The cells of ops_phase's operations and their letters: every one of them
 * has a cell (cx >= 0); one beyond the axes (no FLOPs, or no HBM bytes) sits
 * one cell in from the edge, where its arrow is (pin != 0). */
static void op_cells(const struct plot_frame *f, const struct analysis *a, const char *ops_phase, int *cxs, int *cys,
                     int *pins, char *marks)
{
    int k = 0;
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        cxs[i] = cys[i] = -1;
        pins[i] = 0;
        marks[i] = '?';
        if (!(p->operation && ops_phase && strcmp(p->phase, ops_phase) == 0))
            continue;
        marks[i] = plot_op_marker(k++);
        pins[i] = cell_of(f, p->roof.intensity_flop_per_byte, p->roof.attainable_flops_per_s, p->on_chip, &cxs[i],
                          &cys[i]);
        if (pins[i]) /* the letter one cell in from its arrow */
            cxs[i] += pins[i] & PIN_RIGHT ? -1 : 1;
    }
}

/* True when operation i is the first (in placement order) in its cell. */
static bool op_first(const int *cxs, const int *cys, int i)
{
    for (int j = 0; j < i && cxs[i] >= 0; j++)
        if (cxs[j] == cxs[i] && cys[j] == cys[i])
            return false;
    return cxs[i] >= 0;
}

/* Draws ops_phase's operations as letters, the first of each cell on it
 * (with its arrow when pinned to an edge). */
static void draw_ops(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                     const char *ops_phase, const struct plot_glyphs *gl)
{
    int cxs[RT_MAX_PLACEMENTS], cys[RT_MAX_PLACEMENTS], pins[RT_MAX_PLACEMENTS];
    char marks[RT_MAX_PLACEMENTS];
    op_cells(f, a, ops_phase, cxs, cys, pins, marks);
    enum role role = phase_role(ops_phase);
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        if (!op_first(cxs, cys, i))
            continue;
        if (pins[i]) {
            int ax = cxs[i] + (pins[i] & PIN_RIGHT ? 1 : -1);
            view_put(area, ax, cys[i], pin_arrow(gl, pins[i]), role);
            taken_mark(t, ax, cys[i], 1);
        }
        view_put(area, cxs[i], cys[i], (uint32_t)(unsigned char)marks[i], role);
        taken_mark(t, cxs[i], cys[i], 1);
    }
}

/* Labels each cell several operations share with the letters of the others
 * ("+de"): joined to the first's letter where free ("a+de"), else near it,
 * so that letters never overlap and a run of them is not read as points. */
static void draw_op_groups(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                           const char *ops_phase)
{
    int n = a->placement_count < RT_MAX_PLACEMENTS ? a->placement_count : RT_MAX_PLACEMENTS;
    int cxs[RT_MAX_PLACEMENTS], cys[RT_MAX_PLACEMENTS], pins[RT_MAX_PLACEMENTS];
    char marks[RT_MAX_PLACEMENTS];
    op_cells(f, a, ops_phase, cxs, cys, pins, marks);
    enum role role = phase_role(ops_phase);
    for (int i = 0; i < n; i++) {
        if (!op_first(cxs, cys, i))
            continue;
        char more[RT_MAX_PLACEMENTS + 2] = "+";
        int m = 1;
        for (int j = i + 1; j < n; j++)
            if (cxs[j] == cxs[i] && cys[j] == cys[i])
                more[m++] = marks[j];
        more[m] = '\0';
        if (m == 1)
            continue;
        const struct canvas *saved = t->canvas;
        t->canvas = NULL; /* beside a point on a roof, covering the roof is fine */
        bool joined = taken_free(t, cxs[i] + 1, cys[i], m) && !cell_marked(t, cxs[i] + 1 + m, cys[i]);
        t->canvas = saved;
        if (joined) {
            view_text(area, cxs[i] + 1, cys[i], m, more, role);
            taken_set(t, cxs[i] + 1, cys[i], m, TAKEN_LABEL);
        } else {
            place_label(area, t, cxs[i], cys[i], more, role);
        }
    }
}

/* Draws, in cells no marker or label has taken, a faint dot where each
 * shown point was in its last PLOT_TRAIL_LEN steps (phases, and ops_phase's
 * operations when shown), the newest in the point's colour and the older
 * dim; positions beyond the axes leave no dot. */
static void draw_trails(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                        const char *ops_phase, const struct plot_state *st, const struct plot_glyphs *gl)
{
    for (int i = 0; st && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        bool shown = phase_shown(p, ops_phase) || (p->operation && ops_phase && strcmp(p->phase, ops_phase) == 0);
        for (int k = 0; shown && k < st->trail[i].count && k < PLOT_TRAIL_LEN; k++) {
            int cx, cy;
            if (cell_of(f, st->trail[i].intensity_flop_per_byte[k], st->trail[i].flops_per_s[k], false, &cx, &cy) ||
                cell_marked(t, cx, cy))
                continue;
            /* The last step's dot in the point's colour, older ones dim:
             * the order of the dots reads as the direction of travel. */
            view_put(area, cx, cy, gl->trail, k == 0 ? phase_role(p->phase) : ROLE_DIM);
            taken_mark(t, cx, cy, 1);
        }
    }
}

/* Draws the baseline's phase points as hollow markers where no current point is. */
static void draw_base_points(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                             const struct analysis *base, const char *ops_phase, const struct plot_glyphs *gl)
{
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        const struct placement *bp = phase_shown(p, ops_phase) ? analysis_phase_placement(base, p->phase) : NULL;
        if (!bp)
            continue;
        int cx = floor_div(px_of(f, bp->roof.intensity_flop_per_byte), f->sx);
        int cy = floor_div(py_of(f, bp->roof.attainable_flops_per_s), f->sy);
        if (cx < 0 || cy < 0 || cx >= t->cols || cy >= t->rows || cell_marked(t, cx, cy))
            continue;
        view_put(area, cx, cy, gl->baseline, phase_role(p->phase));
        taken_mark(t, cx, cy, 1);
    }
}

/* Draws the phase points, pinned to the edge with an arrow when beyond the
 * axes, then base's (may be NULL) hollow markers, then the trails, then one label per group of points in one cell or
 * side by side on a row ("prefill/training"), with the value of a pinned
 * point ("prefill 8.4M"). With ops_phase, only that phase's point, where
 * the operations' letters left its cell free. */
static void draw_points(struct view area, struct taken *t, const struct plot_frame *f, const struct analysis *a,
                        const struct analysis *base, const char *ops_phase, const struct plot_state *st,
                        const struct plot_glyphs *gl)
{
    int n = a->placement_count < RT_MAX_PLACEMENTS ? a->placement_count : RT_MAX_PLACEMENTS;
    int cxs[RT_MAX_PLACEMENTS], cys[RT_MAX_PLACEMENTS], pins[RT_MAX_PLACEMENTS];
    bool on[RT_MAX_PLACEMENTS];
    for (int i = 0; i < n; i++) {
        const struct placement *p = &a->placements[i];
        pins[i] = cell_of(f, p->roof.intensity_flop_per_byte, p->roof.attainable_flops_per_s, p->on_chip, &cxs[i],
                          &cys[i]);
        on[i] = phase_shown(p, ops_phase) && !(ops_phase && cell_marked(t, cxs[i], cys[i]));
        /* A tour question about this phase's bound or intensity: its point (left or right of the
         * ridge, on the slope or the flat) is the answer, so it waits for the guess. */
        char tags[96];
        if (!p->operation && view_conceals(area, phase_tags(p->phase, tags, sizeof tags))) /* now or to come */
            on[i] = false;
    }
    /* Markers first, so that no label covers a point. */
    for (int i = 0; i < n; i++) {
        if (!on[i])
            continue;
        view_put(area, cxs[i], cys[i], pins[i] ? pin_arrow(gl, pins[i]) : gl->point, phase_role(a->placements[i].phase));
        taken_mark(t, cxs[i], cys[i], 1);
    }
    /* Below each phase's roof point, where the realistic estimate puts it
     * (the FLOP/s its realistic time achieves), when that is another cell. */
    for (int i = 0; i < n; i++) {
        const struct placement *p = &a->placements[i];
        if (!on[i] || pins[i] || !(p->realistic_flops_per_s > 0.0))
            continue;
        int ry = floor_div(py_of(f, p->realistic_flops_per_s), f->sy);
        if (ry == cys[i] || ry < 0 || ry >= t->rows || cell_marked(t, cxs[i], ry))
            continue;
        view_put(area, cxs[i], ry, gl->realistic, phase_role(p->phase));
        taken_mark(t, cxs[i], ry, 1);
    }
    if (base) /* where the baseline had them, before the trails */
        draw_base_points(area, t, f, a, base, ops_phase, gl);
    draw_trails(area, t, f, a, ops_phase, st, gl);
    int lead[RT_MAX_PLACEMENTS];
    for (int i = 0; i < n; i++) {
        lead[i] = i;
        for (int j = 0; j < i && lead[i] == i; j++)
            if (on[j] && cys[j] == cys[i] && abs(cxs[j] - cxs[i]) <= 1)
                lead[i] = lead[j];
    }
    for (int i = 0; i < n; i++) {
        if (!on[i] || lead[i] != i)
            continue;
        char label[96] = "";
        size_t used = 0;
        for (int j = i; j < n; j++) {
            if (!on[j] || lead[j] != i)
                continue;
            bool again = false; /* a phase named twice (never today) is named once */
            for (int k = i; k < j; k++)
                again = again || (on[k] && lead[k] == i && strcmp(a->placements[k].phase, a->placements[j].phase) == 0);
            if (!again && used + 1 < sizeof label) {
                int w = snprintf(label + used, sizeof label - used, "%s%s", used ? "/" : "", a->placements[j].phase);
                used = w < 0 ? used : used + (size_t)w < sizeof label ? used + (size_t)w : sizeof label - 1;
            }
        }
        if (pins[i] && used + 1 < sizeof label) {
            label[used++] = ' ';
            pin_value(label + used, sizeof label - used, &a->placements[i], pins[i]);
        }
        place_label(area, t, cxs[i], cys[i], label, phase_role(a->placements[i].phase));
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

/* The flat roofs measured kernels need besides the plot's own and the
 * vector unit's: their precisions' peaks (a kernel at fp8 on a bf16 plot). */
#define MAX_POINT_ROOFS (RT_PRECISION_COUNT + 4)
struct point_roof {
    double peak;
    const char *name;
    int px;
};

/* True when a measured kernel is placed against the vector unit's roof. */
static bool points_need_vector(const struct plot_points *pts, const struct analysis *a)
{
    for (size_t i = 0; pts && i < pts->count; i++)
        if (pts->items[i].at.on_vector_roof && pts->items[i].at.achieved_flops_per_s > 0.0 &&
            a->hw.vector_flops_per_s > 0.0)
            return true;
    return false;
}

/* True when some measured kernel has an intensity at cache level (2: L2, 1: L1). */
static bool points_at_level(const struct plot_points *pts, int level)
{
    for (size_t i = 0; pts && i < pts->count; i++)
        if ((level == 2 ? pts->items[i].at.l2_intensity : pts->items[i].at.l1_intensity) > 0.0 &&
            pts->items[i].at.achieved_flops_per_s > 0.0)
            return true;
    return false;
}

/* The hierarchical roofline's other points: each kernel again at its L2
 * ('2') and L1 ('1') intensity, at the same FLOP/s, under the caches'
 * dotted roofs; and the roofs' names at their left end where they fit. */
static void draw_levels(struct view area, struct taken *t, const struct plot_frame *f, const struct plot_points *pts,
                        bool l2, bool l1)
{
    for (size_t i = 0; i < pts->count; i++) {
        const struct plot_point *p = &pts->items[i];
        for (int level = 2; level >= 1; level--) {
            double x = level == 2 ? p->at.l2_intensity : p->at.l1_intensity;
            if (!(x > 0.0) || !(p->at.achieved_flops_per_s > 0.0) || (level == 2 ? !l2 : !l1))
                continue;
            int cx = floor_div(px_of(f, x), f->sx), cy = floor_div(py_of(f, p->at.achieved_flops_per_s), f->sy);
            if (cx < 0 || cy < 0 || cx >= t->cols || cy >= t->rows || cell_marked(t, cx, cy))
                continue;
            view_put(area, cx, cy, level == 2 ? '2' : '1', ROLE_ROOF2);
            taken_mark(t, cx, cy, 1);
        }
    }
    static const char *const names[2] = {"L2 roof", "L1 roof"};
    const double bws[2] = {pts->l2_bytes_per_s, pts->l1_bytes_per_s};
    const bool on[2] = {l2, l1};
    for (int k = 0; k < 2; k++) {
        if (!on[k])
            continue;
        /* just above the roof a decade right of the plot's left edge */
        double x = pow(10.0, f->x_lo + 1);
        int cx = floor_div(px_of(f, x), f->sx), cy = floor_div(py_of(f, bws[k] * x), f->sy) - 1;
        place_label(area, t, cx, cy, names[k], ROLE_ROOF2);
    }
}

/* True when st asks for the vector unit's roof (R). */
static bool roofs_want_vector(const struct plot_state *st)
{
    for (int i = 0; st && i < st->roof_count; i++)
        if (strcmp(st->roofs[i].name, "vector") == 0)
            return true;
    return false;
}

/* Fills out[] with the distinct other peaks of the measured kernels and
 * of st's roofs (at most MAX_POINT_ROOFS); returns how many. */
static int point_roofs(const struct plot_points *pts, const struct analysis *a, const struct plot_state *st,
                       struct point_roof *out)
{
    int n = 0;
    for (int i = 0; st && i < st->roof_count && n < MAX_POINT_ROOFS; i++) {
        double peak = st->roofs[i].peak_flops_per_s;
        if (!(peak > 0.0) || fabs(peak - a->peak_flops_per_s) <= 1e-9 * a->peak_flops_per_s ||
            strcmp(st->roofs[i].name, "vector") == 0) /* the vector unit's roof is drawn on its own */
            continue;
        bool seen = false;
        for (int k = 0; k < n; k++)
            seen |= fabs(out[k].peak - peak) <= 1e-9 * peak;
        if (!seen)
            out[n++] = (struct point_roof){peak, st->roofs[i].name, -1};
    }
    for (size_t i = 0; pts && i < pts->count && n < MAX_POINT_ROOFS; i++) {
        const struct plot_point *p = &pts->items[i];
        double peak = p->at.peak_flops_per_s;
        if (p->at.on_vector_roof || p->at.by_bytes || !(peak > 0.0) || !p->roof_name ||
            fabs(peak - a->hw.vector_flops_per_s) <= 1e-9 * peak ||
            fabs(peak - a->peak_flops_per_s) <= 1e-9 * a->peak_flops_per_s)
            continue;
        bool seen = false;
        for (int k = 0; k < n; k++)
            seen |= fabs(out[k].peak - peak) <= 1e-9 * peak;
        if (!seen)
            out[n++] = (struct point_roof){peak, p->roof_name, -1};
    }
    return n;
}

void plot_draw(struct view v, const struct analysis *a, const struct plot_compare *cmp, const char *ops_phase,
               bool ascii, struct plot_scratch *ps)
{
    plot_draw_state(v, a, NULL, cmp, ops_phase, NULL, ascii, NULL, ps);
}

/* Where a measured kernel is drawn, in FLOP/byte and FLOP/s: at its
 * intensity and achieved rate; one without FLOPs (a copy) at the plot's
 * left edge, as far under the memory roof there as its bandwidth is under
 * the HBM's (the rate its bytes would give at that intensity). */
static void measured_at(const struct plot_frame *f, const struct point_placement *pp, double *x, double *y)
{
    if (pp->by_bytes) {
        *x = pow(10.0, f->x_lo);
        *y = pp->achieved_bytes_per_s * *x;
    } else {
        *x = pp->intensity_flop_per_byte;
        *y = pp->achieved_flops_per_s;
    }
}

/* Draws the measured kernels as x, labelled where there is room; one
 * beyond the axes (above the roof by a units error, or a copy of a few
 * bytes: the axes are not stretched for them) is pinned to the plot's
 * edge. */
static void draw_measured(struct view area, struct taken *t, const struct plot_frame *f, const struct plot_points *pts,
                          const struct plot_glyphs *gl)
{
    for (size_t i = 0; pts && i < pts->count; i++) {
        const struct point_placement pp = pts->items[i].at;
        double x, y;
        measured_at(f, &pp, &x, &y);
        if (!(x > 0.0) || !(y > 0.0))
            continue;
        int cx = floor_div(px_of(f, x), f->sx);
        int cy = floor_div(py_of(f, y), f->sy);
        cx = cx < 0 ? 0 : cx >= t->cols ? t->cols - 1 : cx;
        cy = cy < 0 ? 0 : cy >= t->rows ? t->rows - 1 : cy;
        /* another point's cell is left to it; a label's gives way: the kernel is what --points is for */
        if (t->cols <= 0 || t->rows <= 0 || t->cell[(size_t)cy * (size_t)t->cols + (size_t)cx] == TAKEN_MARK)
            continue;
        enum role role = pp.above_roof ? ROLE_MISS : ROLE_ACCENT;
        view_put(area, cx, cy, pp.above_roof ? '!' : gl->measured, role); /* '!' shows without colour too */
        taken_mark(t, cx, cy, 1);
        place_label(area, t, cx, cy, pts->items[i].label, role);
    }
}

/* Draws on the canvas a dotted line from each shown phase point's baseline
 * position to its current one. */
static void draw_moves(struct canvas *c, const struct plot_frame *f, const struct analysis *a,
                       const struct analysis *base, const char *ops_phase)
{
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        const struct placement *bp = phase_shown(p, ops_phase) ? analysis_phase_placement(base, p->phase) : NULL;
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


void plot_state_clear(struct plot_state *st, bool refit)
{
    for (int i = 0; i < RT_MAX_PLACEMENTS; i++)
        st->trail[i].count = 0;
    st->op_trail.count = 0;
    if (refit)
        st->fitted = false;
}

/* True when two analyses place the same things at each index. */
static bool same_points(const struct analysis *x, const struct analysis *y)
{
    if (x->placement_count != y->placement_count)
        return false;
    for (int i = 0; i < x->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (strcmp(x->placements[i].name, y->placements[i].name) != 0 ||
            strcmp(x->placements[i].phase, y->placements[i].phase) != 0 ||
            x->placements[i].operation != y->placements[i].operation)
            return false;
    return true;
}

/* True when a and b differ by more than rounding (relative 1e-9). */
static bool moved(double a, double b)
{
    return fabs(a - b) > 1e-9 * fmax(fabs(a), fabs(b));
}

/* Puts position (intensity, flops_per_s) at the head of trail tr. */
static void trail_push(struct plot_trail *tr, double intensity, double flops_per_s)
{
    for (int k = PLOT_TRAIL_LEN - 1; k > 0; k--) {
        tr->intensity_flop_per_byte[k] = tr->intensity_flop_per_byte[k - 1];
        tr->flops_per_s[k] = tr->flops_per_s[k - 1];
    }
    tr->intensity_flop_per_byte[0] = intensity;
    tr->flops_per_s[0] = flops_per_s;
    if (tr->count < PLOT_TRAIL_LEN)
        tr->count++;
}

/* The operation's part of plot_state_step: its realistic point's trail. */
static void op_trail_step(struct plot_state *st, const struct analysis *from, const struct analysis *to)
{
    const struct operation_figures *p = &from->operation, *q = &to->operation;
    if (!p->set || !q->set || p->shape.kind != q->shape.kind) {
        st->op_trail.count = 0;
        return;
    }
    if (moved(p->intensity_flop_per_byte, q->intensity_flop_per_byte) ||
        moved(p->realistic_flops_per_s, q->realistic_flops_per_s))
        trail_push(&st->op_trail, p->intensity_flop_per_byte, p->realistic_flops_per_s);
}

void plot_state_step(struct plot_state *st, const struct analysis *from, const struct analysis *to)
{
    op_trail_step(st, from, to);
    if (!same_points(from, to)) {
        struct plot_trail kept = st->op_trail;
        plot_state_clear(st, false);
        st->op_trail = kept;
        return;
    }
    for (int i = 0; i < from->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &from->placements[i], *q = &to->placements[i];
        if (moved(p->roof.intensity_flop_per_byte, q->roof.intensity_flop_per_byte) ||
            moved(p->roof.attainable_flops_per_s, q->roof.attainable_flops_per_s))
            trail_push(&st->trail[i], p->roof.intensity_flop_per_byte, p->roof.attainable_flops_per_s);
    }
}

/* The heading: "Roofline", what the axes are (or which operations), and
 * the chip's peak and bandwidth at the right where they fit. */
static void draw_heading(struct view v, const struct analysis *a, const char *ops_phase, int n_ops)
{
    char buf[160], peak_s[32], bw_s[32];
    format_si(peak_s, sizeof peak_s, a->peak_flops_per_s, "FLOP/s");
    format_si(bw_s, sizeof bw_s, a->hbm_bytes_per_s, "B/s");
    int hx = view_printf(v, 0, 0, -1, ROLE_HEADER, "Roofline");
    if (ops_phase)
        hx += view_printf(v, hx, 0, -1, ROLE_DIM, "  %s ops %c-%c (o: next)", ops_phase,
                          plot_op_marker(0), plot_op_marker(n_ops - 1));
    else
        hx += view_printf(v, hx, 0, -1, ROLE_DIM, "  FLOP/s (%s) vs FLOP/byte", precision_name(a->compute_precision));
    snprintf(buf, sizeof buf, "peak %s  %s", peak_s, bw_s);
    if (hx + 3 + text_width(buf) <= v.r.w)
        view_text_right(v, v.r.w - 1, 0, buf, ROLE_DIM);
}

/* Fits the axes' decades to what the frame shows: every point (the shown
 * operations, the baseline's and the measured ones), both ridges with room
 * right of them, the roofs down to the left edge. Returns 0, or -1 when
 * nothing has a place on a log axis. */
static int fit_axes(struct plot_frame *f, const struct plot_state *st, const struct analysis *a,
                    const struct analysis *base,
                    const struct analysis *b, const char *ops_phase, const struct plot_points *pts)
{
    double x_lo = INFINITY, x_hi = 0.0;
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (phase_shown(&a->placements[i], ops_phase) || op_shown(&a->placements[i], ops_phase))
            widen(&x_lo, &x_hi, a->placements[i].roof.intensity_flop_per_byte);
    widen(&x_lo, &x_hi, a->ridge_flop_per_byte);
    widen(&x_lo, &x_hi, a->ridge_flop_per_byte * 4.0);
    for (size_t i = 0; pts && i < pts->count; i++)
        widen(&x_lo, &x_hi, pts->items[i].at.intensity_flop_per_byte);
    for (int i = 0; base && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *bp = phase_shown(&a->placements[i], ops_phase) ? analysis_phase_placement(base, a->placements[i].phase) : NULL;
        if (bp)
            widen(&x_lo, &x_hi, bp->roof.intensity_flop_per_byte);
    }
    if (b) {
        widen(&x_lo, &x_hi, b->ridge_flop_per_byte);
        widen(&x_lo, &x_hi, b->ridge_flop_per_byte * 4.0);
    }
    if (log_axis_decades(x_lo, x_hi, 3, &f->x_lo, &f->x_hi) != 0)
        return -1;
    double y_lo = INFINITY, y_hi = 0.0;
    double edge = pow(10.0, f->x_lo);
    widen(&y_lo, &y_hi, a->peak_flops_per_s);
    widen(&y_lo, &y_hi, roofline_throughput(a->peak_flops_per_s, a->hbm_bytes_per_s, edge));
    for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        if (phase_shown(&a->placements[i], ops_phase) || op_shown(&a->placements[i], ops_phase))
            widen(&y_lo, &y_hi, a->placements[i].roof.attainable_flops_per_s);
        if (phase_shown(&a->placements[i], ops_phase))
            widen(&y_lo, &y_hi, a->placements[i].realistic_flops_per_s);
    }
    for (int i = 0; base && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *bp = phase_shown(&a->placements[i], ops_phase) ? analysis_phase_placement(base, a->placements[i].phase) : NULL;
        if (bp)
            widen(&y_lo, &y_hi, bp->roof.attainable_flops_per_s);
    }
    if (ops_phase)
        widen(&y_lo, &y_hi, a->hw.vector_flops_per_s);
    for (size_t i = 0; pts && i < pts->count; i++) {
        const struct point_placement *pp = &pts->items[i].at;
        /* a kernel far above its roof (a units error) is pinned to the edge, not given the axes */
        if (!pp->by_bytes && (!pp->above_roof || pp->fraction_of_roof < 10.0)) /* copies are pinned in */
            widen(&y_lo, &y_hi, pp->achieved_flops_per_s);
        if (pp->achieved_flops_per_s > 0.0) /* its own roof, when it is not the plot's */
            widen(&y_lo, &y_hi, pp->peak_flops_per_s);
    }
    if (b) {
        widen(&y_lo, &y_hi, b->peak_flops_per_s);
        widen(&y_lo, &y_hi, roofline_throughput(b->peak_flops_per_s, b->hbm_bytes_per_s, edge));
    }
    for (int i = 0; st && i < st->roof_count; i++) /* every precision's roof, when shown */
        widen(&y_lo, &y_hi, st->roofs[i].peak_flops_per_s);
    return log_axis_decades(y_lo, y_hi, 2, &f->y_lo, &f->y_hi);
}

/* Draws the axis lines, the ticks on equal cell intervals and their decade
 * labels: y from the top decade down, x from the left decade right. */
static void draw_axes(struct view v, const struct plot_frame *f, int ylw, const struct plot_glyphs *gl)
{
    char buf[32];
    int cw = f->cw, ch = f->ch;
    for (int y = 1; y <= ch; y++)
        view_put(v, ylw, y, gl->vline, ROLE_AXIS);
    view_put(v, ylw, ch + 1, gl->corner, ROLE_AXIS);
    view_fill(v, ylw + 1, ch + 1, cw + 1, 1, gl->hline, ROLE_AXIS);
    for (int j = 0; j * f->y_gap < ch; j++) {
        int row = j * f->y_gap;
        view_put(v, ylw, 1 + row, gl->ytick, ROLE_AXIS);
        view_text_right(v, ylw, 1 + row, decade_label(buf, sizeof buf, f->y_hi - j * f->y_step), ROLE_AXIS);
    }
    int last_label_end = -1;
    for (int j = 0; j * f->x_gap <= cw; j++) {
        int col = j * f->x_gap;
        view_put(v, ylw + 1 + col, ch + 1, gl->xtick, ROLE_AXIS);
        decade_label(buf, sizeof buf, f->x_lo + j * f->x_step);
        int w = text_width(buf);
        int x = ylw + 1 + col - w / 2;
        if (x + w > v.r.w)
            x = v.r.w - w;
        if (x <= last_label_end)
            continue;
        view_text(v, x, ch + 2, w, buf, ROLE_AXIS);
        last_label_end = x + w;
    }
}

/* Places text in the first of a list of wordings that fits on a row just
 * above (then just below) cell row cy: centred on cx, else starting right
 * of it, else ending left of it; else the last wording anywhere near. */
static void place_ridge_label(struct view area, struct taken *t, int cx, int cy, const char *const *texts, int n,
                              enum role role)
{
    const int rows[] = {-1, -2, 1, 2};
    for (int k = 0; k < n; k++) {
        int w = text_width(texts[k]);
        const int xs[] = {cx - w / 2, cx + 2, cx - 1 - w};
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
                int x = xs[i] + w > t->cols ? t->cols - w : xs[i];
                x = x < 0 ? 0 : x;
                if (label_free(t, x, cy + rows[r], w)) {
                    view_text(area, x, cy + rows[r], w, texts[k], role);
                    taken_set(t, x, cy + rows[r], w, TAKEN_LABEL);
                    return;
                }
            }
        }
    }
    place_label(area, t, cx, cy + 1, texts[n - 1], role);
}

/* Labels a flat roof (the vector unit's, a measured kernel's precision's)
 * above its right end, where the operations are fewest: "vector 3.94
 * TFLOP/s", else "vector". */
static void draw_flat_label(struct view area, struct taken *t, const struct plot_frame *f, const char *name,
                            double peak, int flat_px)
{
    char buf[64], vs[32];
    snprintf(buf, sizeof buf, "%s %s", name, format_si(vs, sizeof vs, peak, "FLOP/s"));
    int vy = floor_div(py_of(f, peak), f->sy), x0 = flat_px / f->sx;
    for (int pass = 0; pass < 2; pass++) { /* the full label, else the name */
        if (pass == 1)
            snprintf(buf, sizeof buf, "%s", name);
        int vw = text_width(buf);
        for (int dy = -1; dy <= 1; dy += 2) /* just above the line, else just below */
            for (int x = f->cw - vw; x >= x0; x--)
                if (label_free(t, x, vy + dy, vw)) {
                    view_text(area, x, vy + dy, vw, buf, ROLE_ROOF);
                    taken_set(t, x, vy + dy, vw, TAKEN_LABEL);
                    return;
                }
    }
    place_label(area, t, f->cw - 4, vy, name, ROLE_ROOF);
}

/* Labels a chip's ridge near cell (cx, cy) with its value and unit where
 * they fit: "<prefix>ridge 241 FLOP/B", else "<prefix>ridge 241". */
static void draw_ridge_label(struct view area, struct taken *t, int cx, int cy, const char *prefix, double ridge,
                             enum role role)
{
    char ridge_s[32], full[96], bare[96];
    format_ridge(ridge_s, sizeof ridge_s, ridge);
    snprintf(full, sizeof full, "%sridge %s FLOP/B", prefix, ridge_s);
    snprintf(bare, sizeof bare, "%sridge %s", prefix, ridge_s);
    const char *texts[] = {full, bare};
    place_ridge_label(area, t, cx, cy, texts, 2, role);
}

/* Takes st's decades into f while they are fitted and still show a roof
 * of peak (FLOP/s) and ridge (FLOP/byte): steady axes keep still while the
 * points move, but never hide the roof, so a chip or precision whose peak
 * or ridge leaves them clears st->fitted. Returns false when the axes must
 * be fitted (st NULL or not fitted). */
static bool steady_decades(struct plot_frame *f, struct plot_state *st, double peak, double ridge)
{
    if (st && st->fitted && peak > 0.0 && ridge > 0.0) {
        double lp = log10(peak), lr = log10(ridge);
        if (lp > st->y_hi || lp <= st->y_lo || lr < st->x_lo || lr > st->x_hi)
            st->fitted = false;
    }
    if (!st || !st->fitted)
        return false;
    f->x_lo = st->x_lo;
    f->x_hi = st->x_hi;
    f->y_lo = st->y_lo;
    f->y_hi = st->y_hi;
    return true;
}

/* Stores f's freshly fitted decades in st (NULL: nothing to keep). */
static void keep_decades(struct plot_state *st, const struct plot_frame *f)
{
    if (!st)
        return;
    st->x_lo = f->x_lo;
    st->x_hi = f->x_hi;
    st->y_lo = f->y_lo;
    st->y_hi = f->y_hi;
    st->fitted = true;
}

/* The canvas's geometry on view v for f's decades: even ticks for the
 * view's rows and columns, the y labels' width in *ylw, the canvas
 * prepared. Returns 0, or -1 when the view is too small for axes. */
static int frame_geometry(struct plot_frame *f, int *ylw, struct view v, bool ascii, struct canvas *scratch)
{
    char buf[32];
    f->sx = ascii ? 1 : 2;
    f->sy = ascii ? 1 : 4;
    int ch = v.r.h - 3;
    if (v.r.w < 12 || v.r.h < 5 || ch < 2 || log_axis_ticks(f->y_hi - f->y_lo, ch, 1, &f->y_step, &f->y_gap) != 0)
        return -1;
    *ylw = 0;
    for (int j = 0; j * f->y_gap < ch; j++) {
        int w = text_width(decade_label(buf, sizeof buf, f->y_hi - j * f->y_step));
        if (w > *ylw)
            *ylw = w;
    }
    int cw = v.r.w - *ylw - 1 - 1;
    if (cw < 4)
        return -1;
    canvas_init(scratch, cw, ch, ascii);
    f->cw = scratch->cols; /* a huge view is capped to the canvas's capacity */
    f->ch = scratch->rows;
    f->pw = scratch->px_w;
    f->ph = scratch->px_h;
    if (f->ch < 2 || (f->ch != ch && log_axis_ticks(f->y_hi - f->y_lo, f->ch, 1, &f->y_step, &f->y_gap) != 0))
        return -1;
    const int lab_w = 4; /* an x label and its gap: "100k" */
    if (log_axis_ticks(f->x_hi - f->x_lo, f->cw, lab_w + 2, &f->x_step, &f->x_gap) != 0 &&
        log_axis_ticks(f->x_hi - f->x_lo, f->cw, 1, &f->x_step, &f->x_gap) != 0)
        return -1;
    return 0;
}

/* The axes' geometry on view v: decades from st (fitting and storing them
 * first when st is NULL or not fitted), then frame_geometry. Returns 0, or
 * -1 when the view is too small for axes or nothing can be plotted. */
static int frame_setup(struct plot_frame *f, int *ylw, struct view v, const struct analysis *a,
                       const struct analysis *base, const struct analysis *b, const char *ops_phase,
                       const struct plot_points *pts, bool ascii, struct plot_state *st, struct canvas *scratch)
{
    if (!steady_decades(f, st, a->peak_flops_per_s, a->ridge_flop_per_byte)) {
        if (fit_axes(f, st, a, base, b, ops_phase, pts) != 0)
            return -1;
        keep_decades(st, f);
    }
    return frame_geometry(f, ylw, v, ascii, scratch);
}

void plot_draw_state(struct view v, const struct analysis *a, const struct analysis *base,
                     const struct plot_compare *cmp, const char *ops_phase, const struct plot_points *pts, bool ascii,
                     struct plot_state *st, struct plot_scratch *ps)
{
    struct canvas *scratch = &ps->canvas;
    const struct plot_glyphs *gl = ascii ? &ascii_glyphs : &utf8_glyphs;
    const struct analysis *b = cmp && cmp->a ? cmp->a : NULL;

    int n_ops = plot_op_count(a, ops_phase);
    if (n_ops == 0)
        ops_phase = NULL;
    draw_heading(v, a, ops_phase, n_ops);
    struct plot_frame f;
    int ylw;
    if (frame_setup(&f, &ylw, v, a, base, b, ops_phase, pts, ascii, st, scratch) != 0)
        return;
    int cw = f.cw, ch = f.ch;
    struct view area = view_sub(v, ylw + 1, 1, cw, ch);
    draw_axes(v, &f, ylw, gl);

    /* Roofs: the comparison chip under the current one. */
    if (b)
        draw_roof(scratch, &f, b->peak_flops_per_s, b->hbm_bytes_per_s, ROLE_ROOF2, true, false);
    int vector_px = -1;
    if ((ops_phase || points_need_vector(pts, a) || roofs_want_vector(st)) &&
        a->hw.vector_flops_per_s < a->peak_flops_per_s)
        vector_px = draw_roof(scratch, &f, a->hw.vector_flops_per_s, a->hbm_bytes_per_s, ROLE_ROOF, false, true);
    struct point_roof extra[MAX_POINT_ROOFS];
    int n_extra = point_roofs(pts, a, st, extra);
    for (int i = 0; i < n_extra; i++)
        extra[i].px = draw_roof(scratch, &f, extra[i].peak, a->hbm_bytes_per_s, ROLE_ROOF, false, true);
    int ridge_px = px_of(&f, a->ridge_flop_per_byte);
    int roof_py = py_of(&f, a->peak_flops_per_s);
    for (int py = roof_py + 2; py < f.ph; py += 2)
        canvas_set(scratch, ridge_px, py, ROLE_RIDGE, ':');
    if (base) /* under the roof, which keeps its colour where a point moved along it */
        draw_moves(scratch, &f, a, base, ops_phase);
    /* The caches' roofs, dotted, when a kernel shows at their intensities. */
    bool l2_roof = pts && pts->l2_bytes_per_s > a->hbm_bytes_per_s && points_at_level(pts, 2);
    bool l1_roof = pts && pts->l1_bytes_per_s > a->hbm_bytes_per_s && points_at_level(pts, 1);
    if (l2_roof)
        draw_roof(scratch, &f, a->peak_flops_per_s, pts->l2_bytes_per_s, ROLE_ROOF2, true, false);
    if (l1_roof)
        draw_roof(scratch, &f, a->peak_flops_per_s, pts->l1_bytes_per_s, ROLE_ROOF2, true, false);
    draw_roof(scratch, &f, a->peak_flops_per_s, a->hbm_bytes_per_s, ROLE_ROOF, false, false);
    canvas_blit(scratch, area, 0, 0);

    /* Labels: points first (they matter most), then the ridges. */
    struct taken t = {cw, ch, ps->taken, scratch};
    memset(t.cell, 0, (size_t)cw * (size_t)ch);
    if (ops_phase)
        draw_ops(area, &t, &f, a, ops_phase, gl);
    draw_points(area, &t, &f, a, base, ops_phase, st, gl);
    if (ops_phase)
        draw_op_groups(area, &t, &f, a, ops_phase);
    draw_measured(area, &t, &f, pts, gl);
    if (l2_roof || l1_roof)
        draw_levels(area, &t, &f, pts, l2_roof, l1_roof);
    if (!view_conceals(area, "ridge_flop_per_byte")) /* a tour question about the ridge */
        draw_ridge_label(area, &t, floor_div(ridge_px, f.sx), floor_div(roof_py, f.sy), "", a->ridge_flop_per_byte,
                         ROLE_RIDGE);
    if (vector_px >= 0)
        draw_flat_label(area, &t, &f, "vector", a->hw.vector_flops_per_s, vector_px);
    for (int i = 0; i < n_extra; i++)
        if (extra[i].px >= 0)
            draw_flat_label(area, &t, &f, extra[i].name, extra[i].peak, extra[i].px);
    if (b) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "%s ", cmp->chip_key ? cmp->chip_key : "other");
        draw_ridge_label(area, &t, floor_div(px_of(&f, b->ridge_flop_per_byte), f.sx),
                         floor_div(py_of(&f, b->peak_flops_per_s), f.sy), prefix, b->ridge_flop_per_byte, ROLE_ROOF2);
    }
}

/* ---- the operation view (rooftop --op) ---- */

/* The roof one operation runs under: the peak its matmuls run at and the
 * HBM bandwidth its estimate read, and their ridge. */
struct op_roof {
    double peak, bw, ridge;
};

/* The roof of operation o (its estimate's peak, its chip figures' bandwidth). */
static struct op_roof op_roof_of(const struct operation_figures *o)
{
    struct op_roof r = {o->estimate.peak_flops_per_s, o->chip.hbm_bytes_per_s, o->ridge_flop_per_byte};
    return r;
}

/* The intensity the operation's x axis always reaches down to (FLOP/byte):
 * below batch-1 decode's 1.0, so that a GEMM of m = 1 stays on the plot. */
#define OP_X_FLOOR 0.5

/* Fits the axes' decades to the operation: its point, the ridge with room
 * right of it, OP_X_FLOOR, the roof down to the left edge. */
static int fit_op_axes(struct plot_frame *f, const struct operation_figures *o, struct op_roof r)
{
    double x_lo = INFINITY, x_hi = 0.0;
    widen(&x_lo, &x_hi, o->intensity_flop_per_byte);
    widen(&x_lo, &x_hi, r.ridge);
    widen(&x_lo, &x_hi, r.ridge * 4.0);
    widen(&x_lo, &x_hi, OP_X_FLOOR);
    if (log_axis_decades(x_lo, x_hi, 3, &f->x_lo, &f->x_hi) != 0)
        return -1;
    double y_lo = INFINITY, y_hi = 0.0;
    widen(&y_lo, &y_hi, r.peak);
    widen(&y_lo, &y_hi, roofline_throughput(r.peak, r.bw, pow(10.0, f->x_lo)));
    widen(&y_lo, &y_hi, o->realistic_flops_per_s);
    return log_axis_decades(y_lo, y_hi, 2, &f->y_lo, &f->y_hi);
}

/* The heading: "Roofline", the format whose peak is the roof, and the peak
 * and bandwidth at the right where they fit. */
static void draw_op_heading(struct view v, const struct operation_figures *o, struct op_roof r)
{
    char buf[96], peak_s[32], bw_s[32];
    int hx = view_text(v, 0, 0, -1, "Roofline", ROLE_HEADER);
    hx += view_printf(v, hx, 0, -1, ROLE_DIM, "  FLOP/s (%s) vs FLOP/byte", kernel_format_name(o->shape.format));
    snprintf(buf, sizeof buf, "peak %s  %s", format_si(peak_s, sizeof peak_s, r.peak, "FLOP/s"),
             format_si(bw_s, sizeof bw_s, r.bw, "B/s"));
    if (hx + 3 + text_width(buf) <= v.r.w)
        view_text_right(v, v.r.w - 1, 0, buf, ROLE_DIM);
}

/* The operation's realistic point (hollow, in its bound's colour, as the
 * model's view draws a realistic estimate), its floor on the roof (filled,
 * as a phase on its roof) where that is another cell, the trail, then their
 * labels: the kind (with the value of a pinned point) and "floor". */
static void draw_op_points(struct view area, struct taken *t, const struct plot_frame *f,
                           const struct operation_figures *o, const struct plot_state *st,
                           const struct plot_glyphs *gl)
{
    double ai = o->intensity_flop_per_byte;
    enum role role = strcmp(op_bound_name(o), "memory") == 0 ? ROLE_MEMORY : ROLE_COMPUTE;
    int cx, cy, fx, fy;
    int pin = cell_of(f, ai, o->realistic_flops_per_s, false, &cx, &cy);
    int fpin = cell_of(f, ai, o->floor_flops_per_s, false, &fx, &fy);
    view_put(area, cx, cy, pin ? pin_arrow(gl, pin) : gl->realistic, role);
    taken_mark(t, cx, cy, 1);
    bool floor_shown = !fpin && !cell_marked(t, fx, fy);
    if (floor_shown) {
        view_put(area, fx, fy, gl->point, ROLE_ROOF);
        taken_mark(t, fx, fy, 1);
    }
    for (int k = 0; st && k < st->op_trail.count && k < PLOT_TRAIL_LEN; k++) {
        int tx, ty;
        if (cell_of(f, st->op_trail.intensity_flop_per_byte[k], st->op_trail.flops_per_s[k], false, &tx, &ty) ||
            cell_marked(t, tx, ty))
            continue;
        view_put(area, tx, ty, gl->trail, k == 0 ? role : ROLE_DIM);
        taken_mark(t, tx, ty, 1);
    }
    char label[64], value[24];
    snprintf(label, sizeof label, "%s", kernel_kind_name(o->shape.kind));
    if (pin) {
        format_short(value, sizeof value, pin & (PIN_LEFT | PIN_RIGHT) ? ai : o->realistic_flops_per_s);
        snprintf(label + strlen(label), sizeof label - strlen(label), " %s", value);
    }
    place_label(area, t, cx, cy, label, role);
    if (floor_shown)
        place_label(area, t, fx, fy, "floor", ROLE_ROOF);
}

void plot_draw_operation(struct view v, const struct analysis *a, bool ascii, struct plot_state *st,
                         struct plot_scratch *ps)
{
    const struct operation_figures *o = &a->operation;
    if (!o->set || kernel_kind_is_collective(o->shape.kind)) {
        view_text(v, 0, 0, -1, "Roofline", ROLE_HEADER);
        return;
    }
    struct op_roof r = op_roof_of(o);
    draw_op_heading(v, o, r);
    if (!(r.peak > 0.0 && r.bw > 0.0))
        return;
    struct plot_frame f;
    int ylw;
    if (!steady_decades(&f, st, r.peak, r.ridge)) {
        if (fit_op_axes(&f, o, r) != 0)
            return;
        keep_decades(st, &f);
    }
    struct canvas *scratch = &ps->canvas;
    if (frame_geometry(&f, &ylw, v, ascii, scratch) != 0)
        return;
    const struct plot_glyphs *gl = ascii ? &ascii_glyphs : &utf8_glyphs;
    struct view area = view_sub(v, ylw + 1, 1, f.cw, f.ch);
    draw_axes(v, &f, ylw, gl);
    int ridge_px = px_of(&f, r.ridge), roof_py = py_of(&f, r.peak);
    for (int py = roof_py + 2; py < f.ph; py += 2)
        canvas_set(scratch, ridge_px, py, ROLE_RIDGE, ':');
    draw_roof(scratch, &f, r.peak, r.bw, ROLE_ROOF, false, false);
    canvas_blit(scratch, area, 0, 0);
    struct taken t = {f.cw, f.ch, ps->taken, scratch};
    memset(t.cell, 0, (size_t)f.cw * (size_t)f.ch);
    draw_op_points(area, &t, &f, o, st, gl);
    draw_ridge_label(area, &t, floor_div(ridge_px, f.sx), floor_div(roof_py, f.sy), "", r.ridge, ROLE_RIDGE);
}
