/* layout.h — where each part of the explorer goes, as a pure function of the
 * terminal's size.
 *
 * One function computes every rectangle from (columns, rows) with signed,
 * clamped arithmetic, so any size — 0 x 0, 1 x 1000, 1000 x 1 — gives a valid
 * answer. Below LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS the explorer shows only the
 * "make the terminal larger" screen.
 */
#ifndef ROOFTOP_LAYOUT_H
#define ROOFTOP_LAYOUT_H

#include <stdbool.h>

#include "grid.h"

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24

/* Rows the slider panel takes at 80x24: a heading and twelve knobs (the
 * list scrolls for the rest). */
#define LAYOUT_SLIDER_ROWS 13

/* Rows that show every knob: a heading and one row per slider
 * (SLIDER_COUNT, checked where both are known: tui/ui.c). Taller screens
 * get them when the memory panel keeps ten rows beneath (44 rows and more). */
#define LAYOUT_SLIDER_ROWS_ALL 18

struct layout {
    int cols, rows;       /* the size it was computed for, clamped to >= 0 */
    bool too_small;       /* below the minimum: only `whole` is meaningful */
    struct rect whole;    /* the entire screen */
    struct rect title;    /* top row */
    struct rect plot;     /* the roofline, top left: the largest panel */
    struct rect sliders;  /* top right: heading + one row per slider */
    struct rect memory;   /* under the sliders when there is room, else bottom right */
    struct rect placement;/* bottom left, top */
    struct rect mfu;      /* bottom left, under placement */
    struct rect latency;  /* bottom right */
    struct rect status;   /* bottom row */
};

/* Computes the layout for a cols x rows screen. Negative sizes count as 0.
 * At 80 x 24 and above, every rectangle is non-empty, lies inside the screen
 * and no two of the panels overlap. Below that, too_small is set and every
 * panel is empty. */
struct layout layout_compute(int cols, int rows);

/* True when (x, y) lies inside r. */
bool rect_contains(struct rect r, int x, int y);

#endif
