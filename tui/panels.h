/* panels.h — the explorer's text panels: title, sliders, placement, MFU
 * budget, latency verdict, memory, the legend of the operations on the plot,
 * the too-small screen, and the help and "show your work" overlays.
 *
 * Each panel draws into a view and clips to it; when the view is short, the
 * least important lines are the ones left out. Every number shown comes from
 * the struct analysis (or the scenario's own knobs), formatted, never
 * computed here.
 */
#ifndef ROOFTOP_PANELS_H
#define ROOFTOP_PANELS_H

#include <stdbool.h>

#include "analysis.h"
#include "explain.h"
#include "grid.h"
#include "sliders.h"

/* The characters panels draw with: Unicode box drawing and blocks, or ASCII. */
struct glyphs {
    const char *sep;        /* separator between title fields: " · " or " | " */
    const char *times;      /* "×" or "x" */
    const char *up_down;    /* "↑↓" or "j/k" */
    const char *left_right; /* "←→" or "h/l" */
    uint32_t selected;      /* marker of the selected slider: '▸' or '>' */
    uint32_t track_full, track_empty, knob;
    uint32_t ellipsis;      /* marks a value cut at the start: '…' or '~' */
    uint32_t bar[6];        /* stacked bar fills, parts 1-5, and the pipeline bubble's */
    uint32_t budget_mark;   /* the budget line on the latency bar */
    uint32_t box_h, box_v, box_tl, box_tr, box_bl, box_br;
    const char *unequal;    /* between estimates that disagree: "≠" or "vs" */
    const char *arrow_up, *arrow_down; /* more knobs above or below: "↑" "↓" or "^" "v" */
    const char *delta;      /* a change from the pinned baseline: "Δ" or "d" */
    const char *plus_minus; /* an error band: "±" or "+/-" */
    const char *at_most;    /* within a target: "≤" or "<=" */
};

/* The glyph set for ascii (true: 7-bit ASCII only) or Unicode. Never NULL. */
const struct glyphs *glyphs_for(bool ascii);

/* Top bar: program, model, chips x chip, precision, batch, the verdict. */
void panel_title(struct view v, const struct scenario *s, const struct analysis *a, const struct analysis *base,
                 const struct glyphs *g);

/* Where a slider row's track lies for a panel width: *track_x (column within
 * the panel) and *track_w (>= 0; 0 when there is no room for a track). */
void slider_track_geometry(int panel_w, int *track_x, int *track_w);

/* Sliders: a heading, then one row per slider (name, value, track with its
 * knob); row `selected` highlighted. Knob i is line 1 + i - first of the
 * view, first = slider_first_visible(selected, view height - 1); the heading
 * says with arrows which way hidden knobs lie. */
void panel_sliders(struct view v, const struct scenario *s, int selected, struct chip_list chips,
                   const struct glyphs *g);

/* One knob's row at line y of v, as panel_sliders draws it: the marker
 * when sel, name (9 columns), the value right-aligned (a long one keeps its
 * end after an ellipsis), the track (slider_track_geometry) with its thumb
 * at frac of the way. For the operation view's knobs too. */
void panel_knob_row(struct view v, int y, const char *name, const char *val, double frac, bool sel,
                    const struct glyphs *g);

/* Placement: each point's arithmetic intensity, bound, % of peak and lever. */
void panel_placement(struct view v, const struct analysis *a, const struct analysis *base);

/* MFU budget: a stacked bar of matmul / vector / memory / comms / optimizer
 * time, MFU and HFU side by side and the biggest lever, when the scenario
 * gave step times; otherwise how to get it and the MFU prefill assumes. */
void panel_mfu(struct view v, const struct scenario *s, const struct analysis *a, const struct analysis *base,
               const struct glyphs *g);

/* Latency verdict: prefill, decode and overhead against the budget, a large
 * OK / MISS, chips for the budget ("none up to N") and chips to hold the
 * weights. */
void panel_latency(struct view v, const struct analysis *a, const struct analysis *base, const struct glyphs *g);

/* Memory: weights, KV cache per request and for the batch, free HBM and the
 * concurrent requests that fit; below, where rows allow, the layer pattern,
 * the busiest chip's memory, KV copies past tp > kv heads, and
 * largest_ok_batch (analysis_largest_ok_batch: 0 none, -1 not shown). */
void panel_memory(struct view v, const struct scenario *s, const struct analysis *a, const struct analysis *base,
                  int64_t largest_ok_batch);

/* The screen shown below the minimum size: what size is needed, what size
 * the terminal is, and that q quits. Any size, even 1 x 1, is safe. */
void panel_too_small(struct view v, int cols, int rows, int min_cols, int min_rows);

/* Writes text from row y wrapped at blanks to v's width, each line
 * left-aligned or centred, in role; returns the row after the last one
 * written (rows past v's height are not written). */
int wrap_text(struct view v, int y, const char *text, enum role role, bool centre);

/* The help overlay, centred in v: every key and mouse action, from line
 * scroll (clamped to [0, the lines that do not fit]); when some do not fit,
 * the box's bottom edge says so ("↓ more: ↑↓"). Returns the largest scroll
 * (0 when everything fits). */
int panel_help(struct view v, const struct glyphs *g, int scroll);

/* The help rows every view shares (its own come before them), as
 * initializers of a {key, text} table. */
#define PANEL_HELP_SHARED_ROWS                                                                                      \
    {"t", "next colour theme (--theme, --list-themes)"}, {"s", "save the scenario to a file (asks where)"},          \
        {"e / y", "markdown report to a file / the clipboard"}, {"Ctrl-L", "repaint the screen"},                    \
        {"?", "this help (arrows scroll; other keys close)"}, {"q", "quit (Esc only closes or cancels)"},           \
        {"mouse", "click or drag a knob's track; wheel steps"},

/* panel_help's box with another title and other lines: n rows of a key
 * (17 columns) and what it does; the first two rows are text across the
 * box (an introduction and a blank). Returns the largest scroll. */
int panel_help_lines(struct view v, const struct glyphs *g, int scroll, const char *title, const char *const (*lines)[2],
                     int n);

/* The legend of the operations the plot shows for phase ("prefill",
 * "decode", "training"): each operation's letter (plot_op_marker, in the
 * phase's colour; dimmed when it has no FLOPs and so no place on the plot),
 * its name, whether it runs on the vector unit (under the vector roof) and
 * its share of the phase's time; with a wide and tall enough view, one row
 * each with its intensity, bound and time too. Otherwise as many columns as
 * fit, short names, and notes below when rows are left. A phase with no
 * operations gets a line saying so. Figures come from a's placements. */
void panel_ops(struct view v, const struct analysis *a, const char *phase);

/* The letters of phase's operations on the plot with their short names
 * ("a qkv proj  b attn score ..."), from row y of v, wrapping to at most
 * max_rows rows (what does not fit is left out). Returns the rows used (0
 * when phase is NULL or has no operations). */
int panel_ops_legend(struct view v, int y, const struct analysis *a, const char *phase, int max_rows);

/* The "show your work" overlay, centred in v: a box titled title holding the
 * lines of e, headings, formulas, numbers, sources and verdicts each in their
 * role. Long lines wrap under their indent; source lines are shortened to one
 * line with an ellipsis. *scroll is the first visual line shown: it is
 * clamped to [0, lines - visible] and written back; *page receives the
 * number of lines the box shows (0 when v is too small for a box, under
 * 24 x 5). The bottom border says how to scroll and which lines are shown. */
void panel_work(struct view v, const struct explanation *e, const char *title, int *scroll, int *page,
                const struct glyphs *g);

/* base, in the title, placement, MFU, latency and memory panels above: the
 * pinned baseline's analysis (ui's 'b'), or NULL for none. Each shows the
 * baseline's figure and the change where it has room, words dropped before
 * numbers; a change is coloured by meaning, not sign: faster, less memory,
 * more requests or more of the peak in the ok role, the opposite in miss.
 * The title puts the headline total's change beside the verdict; the
 * latency panel gives a line to the baseline's total (the chips for the
 * budget move one row down) and the change of prefill and decode on their
 * rows; memory, placement and MFU append theirs where a row has room. */

#endif
