/* pareto.c — the Pareto view of a design search (pareto.h). */
#include "pareto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plotmath.h"

size_t pareto_frontier_order(const struct search_result *r, size_t *out, size_t max)
{
    size_t n = search_frontier_order(r, out, max); /* highest first: the view walks it lowest first */
    for (size_t i = 0; i < n / 2; i++) {
        size_t t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

char *pareto_describe(char *buf, size_t size, const struct search_candidate *c)
{
    char pool[48] = "";
    if (c->prefill_chips > 0)
        snprintf(pool, sizeof pool, " pool %lld", (long long)c->prefill_chips);
    snprintf(buf, size, "tp%lld pp%lld ep%lld b%lld %s%s: %.1f tok/s/user, %.1f/chip, %lld chips", (long long)c->tp,
             (long long)c->pp, (long long)c->ep, (long long)c->batch, precision_name(c->precision), pool,
             c->tokens_per_s_per_user, c->tokens_per_s_per_chip, (long long)c->chips);
    return buf;
}

/* The axes' decades and the canvas geometry. */
struct frame {
    int x_lo, x_hi, y_lo, y_hi;
    int pw, ph, sx, sy;
};

static int px(const struct frame *f, double v)
{
    double p = log_axis_position(v, f->x_lo, f->x_hi, f->pw - 1);
    return isfinite(p) ? (int)lround(fmax(fmin(p, 1e6), -1e6)) : -1;
}

static int py(const struct frame *f, double v)
{
    double p = log_axis_position(v, f->y_lo, f->y_hi, f->ph - 1);
    return isfinite(p) ? f->ph - 1 - (int)lround(fmax(fmin(p, 1e6), -1e6)) : f->ph;
}

static void widen(double *lo, double *hi, double v)
{
    if (isfinite(v) && v > 0.0) {
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
    }
}

/* Puts a marker at (x, y) of the canvas area and a label right of it, or
 * left of it when the right has no room. */
static void mark(struct view area, int x, int y, uint32_t glyph, const char *label, enum role role)
{
    if (x < 0 || y < 0 || x >= area.r.w || y >= area.r.h)
        return;
    view_put(area, x, y, glyph, role);
    int w = text_width(label);
    if (x + 2 + w <= area.r.w)
        view_text(area, x + 2, y, w, label, role);
    else if (x - 1 - w >= 0)
        view_text(area, x - 1 - w, y, w, label, role);
}

void pareto_draw(struct view v, const struct search_result *r, const size_t *order, size_t n, size_t pick,
                 const struct analysis *current, bool ascii, struct canvas *canvas)
{
    int hx = view_text(v, 0, 0, -1, "Pareto", ROLE_HEADER);
    char buf[160];
    /* The counts whole: fewer words, never fewer digits. */
    char forms[3][112];
    snprintf(forms[0], sizeof forms[0], "  tok/s per chip vs per user: %zu of %zu designs%s", r->accepted, r->count,
             r->truncated ? " (cut)" : "");
    snprintf(forms[1], sizeof forms[1], "  %zu of %zu%s: per chip vs user", r->accepted, r->count,
             r->truncated ? " (cut)" : "");
    snprintf(forms[2], sizeof forms[2], " %zu/%zu", r->accepted, r->count);
    for (int i = 0; i < 3; i++) {
        if (hx + text_width(forms[i]) <= v.r.w) {
            view_text(v, hx, 0, -1, forms[i], ROLE_DIM);
            break;
        }
    }
    if (r->accepted == 0) {
        view_text(v, 0, 2, -1, "No design fits and meets the targets: nothing to draw.", ROLE_MISS);
        return;
    }
    double x_lo = INFINITY, x_hi = 0.0, y_lo = INFINITY, y_hi = 0.0;
    for (size_t i = 0; i < r->count; i++) {
        const struct search_candidate *c = &r->candidates[i];
        if (!c->accepted)
            continue;
        widen(&x_lo, &x_hi, c->tokens_per_s_per_user);
        widen(&y_lo, &y_hi, c->tokens_per_s_per_chip);
    }
    bool show_now = current && current->memory.batch_fits;
    if (show_now) {
        widen(&x_lo, &x_hi, current->serving.tokens_per_s_per_user);
        widen(&y_lo, &y_hi, current->serving.tokens_per_s_per_chip);
    }
    struct frame f;
    if (log_axis_decades(x_lo, x_hi, 1, &f.x_lo, &f.x_hi) != 0 || log_axis_decades(y_lo, y_hi, 1, &f.y_lo, &f.y_hi) != 0)
        return;
    int ylw = 0;
    for (int d = f.y_lo; d <= f.y_hi; d++) {
        int w = text_width(decade_label(buf, sizeof buf, d));
        ylw = w > ylw ? w : ylw;
    }
    int cw = v.r.w - ylw - 2, ch = v.r.h - 3;
    if (cw < 4 || ch < 2)
        return;
    canvas_init(canvas, cw, ch, ascii);
    cw = canvas->cols;
    ch = canvas->rows;
    f.pw = canvas->px_w;
    f.ph = canvas->px_h;
    f.sx = ascii ? 1 : 2;
    f.sy = ascii ? 1 : 4;
    struct view area = view_sub(v, ylw + 1, 1, cw, ch);

    /* Axes: decades on both, "per user" under the x axis. */
    uint32_t vline = ascii ? '|' : 0x2502, hline = ascii ? '-' : 0x2500, corner = ascii ? '+' : 0x2514;
    for (int y = 1; y <= ch; y++)
        view_put(v, ylw, y, vline, ROLE_AXIS);
    view_put(v, ylw, ch + 1, corner, ROLE_AXIS);
    view_fill(v, ylw + 1, ch + 1, cw, 1, hline, ROLE_AXIS);
    int last_row = -2;
    for (int d = f.y_hi; d >= f.y_lo; d--) {
        int row = py(&f, pow(10.0, d)) / f.sy;
        if (row < 0 || row >= ch || row - last_row < 2)
            continue;
        view_text_right(v, ylw, 1 + row, decade_label(buf, sizeof buf, d), ROLE_AXIS);
        last_row = row;
    }
    int last_end = -1;
    for (int d = f.x_lo; d <= f.x_hi; d++) {
        int col = px(&f, pow(10.0, d)) / f.sx;
        decade_label(buf, sizeof buf, d);
        int w = text_width(buf), x = ylw + 1 + col - w / 2;
        if (x + w > v.r.w)
            x = v.r.w - w;
        if (col < 0 || x <= last_end)
            continue;
        view_text(v, x, ch + 2, w, buf, ROLE_AXIS);
        last_end = x + w;
    }
    const char *xname = "tok/s per user";
    if (last_end + 2 + text_width(xname) <= v.r.w)
        view_text_right(v, v.r.w, ch + 2, xname, ROLE_DIM);

    /* Every accepted design, then the frontier's line over them. */
    for (size_t i = 0; i < r->count; i++) {
        const struct search_candidate *c = &r->candidates[i];
        if (c->accepted && !c->frontier)
            canvas_set(canvas, px(&f, c->tokens_per_s_per_user), py(&f, c->tokens_per_s_per_chip), ROLE_DIM, '.');
    }
    for (size_t k = 0; k + 1 < n; k++) {
        const struct search_candidate *a = &r->candidates[order[k]], *b = &r->candidates[order[k + 1]];
        canvas_line(canvas, px(&f, a->tokens_per_s_per_user), py(&f, a->tokens_per_s_per_chip),
                    px(&f, b->tokens_per_s_per_user), py(&f, b->tokens_per_s_per_chip), ROLE_ROOF, '*');
    }
    if (n == 1)
        canvas_set(canvas, px(&f, r->candidates[order[0]].tokens_per_s_per_user),
                   py(&f, r->candidates[order[0]].tokens_per_s_per_chip), ROLE_ROOF, '*');
    canvas_blit(canvas, area, 0, 0);

    /* The picked frontier point, then the current design on top (when they
     * are the same design, "now" says so). */
    if (n > 0 && pick < n) {
        const struct search_candidate *c = &r->candidates[order[pick]];
        char label[64];
        snprintf(label, sizeof label, "tp%lld pp%lld ep%lld b%lld %s%s", (long long)c->tp, (long long)c->pp,
                 (long long)c->ep, (long long)c->batch, precision_name(c->precision),
                 c->prefill_chips > 0 ? " +pool" : "");
        mark(area, px(&f, c->tokens_per_s_per_user) / f.sx, py(&f, c->tokens_per_s_per_chip) / f.sy,
             ascii ? 'O' : 0x25CF, label, ROLE_ACCENT);
    }
    if (show_now)
        mark(area, px(&f, current->serving.tokens_per_s_per_user) / f.sx,
             py(&f, current->serving.tokens_per_s_per_chip) / f.sy, ascii ? 'x' : 0x00D7, "now", ROLE_PREFILL);
}
