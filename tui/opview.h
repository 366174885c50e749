/* opview.h — the operation view's screen (rooftop --op): where its parts
 * go, its title, knobs, the "Operation" panel, the time its parts take, a
 * collective's link figures in the plot's place, and its help.
 *
 * The plot itself is plot_draw_operation (plot.h). Every figure comes from
 * the analysis (analysis.operation, filled by analyze()) or the scenario's
 * own knobs, formatted, never computed here. Each panel clips to its view
 * and leaves out what does not fit whole, the least important first: a
 * number is never cut.
 */
#ifndef ROOFTOP_OPVIEW_H
#define ROOFTOP_OPVIEW_H

#include <stdbool.h>

#include "analysis.h"
#include "layout.h"
#include "opknobs.h"
#include "panels.h"

/* Where the operation view's parts go, from the explorer's layout. */
struct op_layout {
    bool too_small;     /* the layout is below the minimum: nothing else is set */
    struct rect title, status;
    struct rect plot;   /* the layout's plot */
    struct rect knobs;  /* the layout's sliders, as tall as the knobs need (a heading and one row each) */
    struct rect time;   /* under the knobs, down to the plot's last row, when four rows or more are left;
                           else empty (the Operation panel shows the parts then) */
    struct rect op;     /* the Operation panel: the whole width under the plot */
};

/* The operation view's layout on l for an operation with knob_count knobs.
 * Pure; any layout gives a valid answer (empty rectangles when l is too
 * small). */
struct op_layout op_layout_compute(const struct layout *l, int knob_count);

/* The title bar: the operation's shape and chip, and its realistic time
 * with its error band, the fullest form that fits ("rooftop · gemm 8192 x
 * 8192 x 8192 (bfloat16) · h100 ... realistic 1.4 ms ±12%  ? help"), down
 * to the kind, the chip and the time. */
void panel_op_title(struct view v, const struct scenario *s, const struct analysis *a, const struct glyphs *g);

/* The knobs: a heading, then one row per knob of knobs[0..n) (opknobs.h),
 * values from the resolved shape (a->operation.shape); knob `selected`
 * highlighted. When fewer rows than knobs fit, the list scrolls so that
 * the selected one shows. */
void panel_op_knobs(struct view v, const struct scenario *s, const struct analysis *a, const enum op_knob *knobs,
                    int n, int selected, struct chip_list chips, const struct glyphs *g);

/* The first knob panel_op_knobs draws when only rows of n fit and
 * selected must show: 0 while all fit. */
int op_knobs_first_visible(int selected, int n, int rows);

/* The Operation panel: the shape and chip; the roofline floor, its bound,
 * intensity and the ridge; the realistic time, "±N%" and where its
 * constants come from (op_profile_text) and whose kernels; the achieved
 * FLOP/s and fraction of the peak (a collective: the bytes over the link
 * and its bandwidth); then the reasons (kernel_reason_text) as many as fit;
 * then, where rows are left, what the constants were fitted on (measured
 * rows, engine, format, kernel library) and, with_parts, the compute,
 * memory and fixed parts on the last row. */
void panel_op(struct view v, const struct scenario *s, const struct analysis *a, bool with_parts,
              const struct glyphs *g);

/* Where the realistic time goes: compute, memory (a collective: link) and
 * fixed parts, and the floor beside them, each with its time and a bar on
 * one scale. */
void panel_op_time(struct view v, const struct analysis *a, const struct glyphs *g);

/* A collective in the plot's place: it has no FLOPs, so no point on a
 * roofline; the message, the bytes it moves over the link, the link's
 * bandwidth and its floor and realistic times. */
void panel_op_link(struct view v, const struct analysis *a, const struct glyphs *g);

/* The help overlay of the operation view, as panel_help draws the
 * explorer's. Returns the largest scroll. */
int panel_op_help(struct view v, const struct glyphs *g, int scroll);

#endif
