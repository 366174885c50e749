/* plot.h — the log-log roofline: axes in whole decades, the current chip's
 * memory slope and flat compute roof, the ridge point with its value, the
 * operating points (prefill, decode, training step) with labels, an optional
 * second chip's roof for comparison, and optionally every operation of one
 * phase as a lettered point with the vector unit's lower roof. The explorer
 * keeps the axes steady between frames and the points' trails in a
 * struct plot_state (plot_draw_state).
 *
 * Decorations (axes, labels, legend) live here; pixels and their encoding
 * live in canvas.h. Every figure drawn comes from a struct analysis.
 */
#ifndef ROOFTOP_PLOT_H
#define ROOFTOP_PLOT_H

#include <stdbool.h>

#include "analysis.h"
#include "calibrate.h"
#include "canvas.h"
#include "grid.h"

/* The roof of a second chip, already analysed (analyze() on the same
 * scenario with the other chip), or NULL for none. */
struct plot_compare {
    const char *chip_key;         /* short name shown in the legend */
    const struct analysis *a;     /* its peak, bandwidth and ridge */
};

/* Working memory for one plot: the pixel canvas and the cells labels have
 * taken. About 160 KB; the caller owns it so that drawing never allocates. */
struct plot_scratch {
    struct canvas canvas;
    unsigned char taken[CANVAS_MAX_CELLS];
};

/* Draws the roofline panel of analysis a into v: a heading, the y axis in
 * FLOP/s (decades labelled 1T 10T 100T 1P …), the x axis in FLOP/byte (1 10
 * 100 1k …), the roofs, the ridge and the points. cmp may be NULL. ops_phase
 * NULL shows the three phases; a phase name ("prefill", "decode",
 * "training") shows that phase's point and each of its operations as the
 * letter plot_op_marker() gives it, with the vector unit's flat roof
 * (a->hw.vector_flops_per_s) dashed and labelled under the tensor peak;
 * operations with no place on a log axis (no FLOPs, or no HBM bytes) are
 * pinned to the left or right edge beside an arrow. Decades are spaced
 * evenly: ticks every y_step (x_step) decades on rows (columns) a constant
 * distance apart (log_axis_ticks). ascii selects ASCII characters only (no braille, no box drawing).
 * scratch is working memory (its contents are replaced). A view too small for
 * axes (under 12 x 5 cells) gets only the heading. */
void plot_draw(struct view v, const struct analysis *a, const struct plot_compare *cmp, const char *ops_phase,
               bool ascii, struct plot_scratch *scratch);

/* A measured kernel (--points) placed on the scenario's roof (point_place,
 * done when the scenario changes: the plot only draws it). */
struct plot_point {
    const char *label;
    const char *roof_name; /* its roof's name when not the plot's: "vector", "fp8" (NULL: the plot's) */
    struct point_placement at;
};

struct plot_points {
    const struct plot_point *items;
    size_t count;
    double l2_bytes_per_s, l1_bytes_per_s; /* the caches' roofs to draw (0 none): with them, each kernel also
                                              shows at its L2 ('2') and L1 ('1') intensities */
};

/* How many earlier positions a moving point leaves behind as a trail. */
#define PLOT_TRAIL_LEN 3

/* Where one point was, newest first. */
struct plot_trail {
    int count;                                /* positions held, [0, PLOT_TRAIL_LEN] */
    double intensity_flop_per_byte[PLOT_TRAIL_LEN];
    double flops_per_s[PLOT_TRAIL_LEN];
};

/* The plot's view state, kept by the explorer between frames: the axes'
 * decade ranges (fitted once, then steady while knobs move, so that a point
 * that moves is seen to move) and each placement's trail. */
struct plot_state {
    bool fitted;                /* false: the next plot_draw_state fits the axes and sets it */
    int x_lo, x_hi, y_lo, y_hi; /* decades of FLOP/byte and FLOP/s */
    /* Flat roofs to draw besides the plot's own (the explorer's R: every
     * precision's peak the chip has, and the vector unit's), named. */
    struct plot_roof {
        double peak_flops_per_s;
        char name[16];
    } roofs[RT_PRECISION_COUNT + 1];
    int roof_count;
    struct plot_trail trail[RT_MAX_PLACEMENTS]; /* by placement index */
    struct plot_trail op_trail; /* the operation view's point (--op): its realistic FLOP/s */
};

/* Clears every trail; refit also makes the next draw fit the axes again. */
void plot_state_clear(struct plot_state *st, bool refit);

/* Records a step from analysis from to analysis to: each placement that
 * moved (intensity or attainable FLOP/s) gets from's position at the head of
 * its trail (the oldest beyond PLOT_TRAIL_LEN is dropped). When to's
 * placements are not the same things as from's (another count, or another
 * name or phase at some index) the trails are cleared instead. The
 * operation (--op) likewise: its realistic point's trail, cleared when
 * either analysis has no operation or the kinds differ. */
void plot_state_step(struct plot_state *st, const struct analysis *from, const struct analysis *to);

/* The plot of plot_draw, with three additions, each optional:
 * - pts: measured kernels drawn as x at their intensity and achieved
 *   FLOP/s (a point above the roof in the miss colour: most likely a units
 *   error); NULL for none;
 * - base: a pinned baseline's phase points as hollow markers (◇, ASCII '#')
 *   with a dotted line to where each point moved; NULL for none;
 * - st: the explorer's view state: the axes are st's (fitted to this
 *   frame's points and stored when !st->fitted), points beyond them are
 *   pinned to the edge with an arrow (-> <- ^ v in ASCII) and their value,
 *   and each shown point's trail is drawn as dots. NULL fits the axes to
 *   this frame alone. */
void plot_draw_state(struct view v, const struct analysis *a, const struct analysis *base,
                     const struct plot_compare *cmp, const char *ops_phase, const struct plot_points *pts, bool ascii,
                     struct plot_state *st, struct plot_scratch *scratch);

/* The operation view's plot (rooftop --op, a->operation.set): the chip's
 * roof at the rate the operation's matmuls run at (its peak and the HBM
 * bandwidth it read), the ridge, the operation as a filled point at its
 * intensity and realistic FLOP/s, labelled with its kind, and its floor as
 * a hollow point on the roof at the same intensity ("floor"); the trail of
 * st->op_trail; steady axes in st as plot_draw_state keeps them (fitted to
 * the point, the ridge and 0.5 FLOP/byte, so that the memory-bound end of
 * a GEMM of m = 1 is on the plot; re-fitted when the roof leaves them), a
 * point beyond them pinned to the edge with an arrow and its value. The
 * point takes the compute or memory colour of its bound (op_bound_name).
 * st may be NULL (fit to this frame). A view too small for axes gets the
 * heading only; so does a collective, which has no FLOPs and so no place
 * on a roofline (the explorer draws its link figures instead), and an
 * analysis without an operation. */
void plot_draw_operation(struct view v, const struct analysis *a, bool ascii, struct plot_state *st,
                         struct plot_scratch *scratch);

/* Number of operation placements of phase name in a (0 when phase is NULL
 * or unknown). The k-th of them, in placement order, is drawn and listed as
 * plot_op_marker(k). */
int plot_op_count(const struct analysis *a, const char *phase);

/* The marker of the k-th operation of a phase: 'a' to 'z' for k in [0, 25],
 * '?' outside that range. */
char plot_op_marker(int k);

#endif
