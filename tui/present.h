/* present.h — the presentation view ('P', --present): for a room full of
 * people. The roofline fills the screen under a headline of the verdict and
 * three figures: the turn's latency against its budget, the decode's bound
 * and share of peak, and the MFU. At 40 rows and more, and when it fits
 * the width, the headline is drawn in block letters three rows tall; else
 * as one line of bold text.
 *
 * Pure: draws into a view; every figure comes from a struct analysis.
 */
#ifndef ROOFTOP_PRESENT_H
#define ROOFTOP_PRESENT_H

#include <stdbool.h>

#include "analysis.h"
#include "grid.h"
#include "plot.h"

/* Rows from which the headline is drawn in block letters. */
#define PRESENT_BIG_ROWS 40

/* Columns text takes in block letters: 4 a character (3 wide and a gap),
 * less the last gap; 0 for "". */
int big_text_width(const char *text);

/* Rows block letters take: 3, or 5 with ascii (no half blocks). */
int big_text_rows(bool ascii);

/* Draws ASCII text in block letters at (x, y) of v: each character a 3 x 5
 * pixel glyph, two pixel rows to a cell with half blocks (▀ ▄ █), 3 rows
 * tall; with ascii, one pixel a cell as '#', 5 rows tall. Digits, . % / : - and the letters of
 * OK, MISS, s, ms and k have glyphs; any other character is drawn as
 * itself on the middle row. Returns the columns taken (big_text_width). */
int big_text_draw(struct view v, int x, int y, const char *text, enum role role, bool ascii);

/* The plot and what it draws: present_draw passes them to plot_draw_state. */
struct present_plot {
    const struct analysis *base;      /* pinned baseline, or NULL */
    const struct plot_compare *cmp;   /* comparison roof, or NULL */
    const char *ops_phase;            /* a phase's operations, or NULL */
    const struct plot_points *pts;    /* measured kernels, or NULL */
    struct plot_state *state;         /* the explorer's steady axes and trails, or NULL */
};

/* Draws the headline and, under it, the roofline filling the rest of v. The
 * figures: a->latency (verdict, total_s, budget_s), the decode phase's
 * placement (bound, fraction_of_peak) and a->mfu_budget.mfu; a figure a
 * lacks (no decode placement) is left out. scratch is the plot's working
 * memory. */
void present_draw(struct view v, const struct analysis *a, const struct present_plot *p, bool ascii,
                  struct plot_scratch *scratch);

#endif
