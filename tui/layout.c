/* layout.c — the explorer's geometry from (columns, rows). */
#include "layout.h"

/* Clamps v into [lo, hi] (lo wins when lo > hi). */
static int clampi(int v, int lo, int hi)
{
    if (v > hi)
        v = hi;
    return v < lo ? lo : v;
}

bool rect_contains(struct rect r, int x, int y)
{
    return x >= r.x && y >= r.y && (long)x < (long)r.x + r.w && (long)y < (long)r.y + r.h;
}

/* A rectangle, as a value. */
static struct rect mk(int x, int y, int w, int h)
{
    struct rect r = {x, y, w > 0 ? w : 0, h > 0 ? h : 0};
    return r;
}

struct layout layout_compute(int cols, int rows)
{
    struct layout l = {0};
    cols = clampi(cols, 0, 100000);
    rows = clampi(rows, 0, 100000);
    l.cols = cols;
    l.rows = rows;
    l.whole = mk(0, 0, cols, rows);
    if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
        l.too_small = true;
        return l;
    }
    l.title = mk(0, 0, cols, 1);
    l.status = mk(0, rows - 1, cols, 1);

    int body_h = rows - 2;
    int side_w = clampi(cols * 2 / 5, 34, 56);
    int bottom_h = clampi(rows / 3, 9, 14);
    int top_h = body_h - bottom_h;
    int plot_w = cols - side_w;

    /* One blank column between side-by-side panels keeps them readable. */
    l.plot = mk(0, 1, plot_w - 1, top_h);
    int slider_h = top_h - LAYOUT_SLIDER_ROWS_ALL >= 10 ? LAYOUT_SLIDER_ROWS_ALL : clampi(LAYOUT_SLIDER_ROWS, 0, top_h);
    l.sliders = mk(plot_w, 1, side_w, slider_h);

    int bottom_y = 1 + top_h;
    int left_w = cols / 2;
    int right_w = cols - left_w;
    int placement_h = bottom_h >= 11 ? 5 : 4;
    l.placement = mk(0, bottom_y, left_w - 1, placement_h);
    l.mfu = mk(0, bottom_y + placement_h, left_w - 1, bottom_h - placement_h);

    if (top_h - slider_h >= 5) {
        /* Room under the sliders: memory moves up, latency takes the corner. */
        l.memory = mk(plot_w, 1 + slider_h, side_w, top_h - slider_h);
        l.latency = mk(left_w, bottom_y, right_w, bottom_h);
    } else {
        int memory_h = 3;
        l.latency = mk(left_w, bottom_y, right_w, bottom_h - memory_h);
        l.memory = mk(left_w, bottom_y + bottom_h - memory_h, right_w, memory_h);
    }
    return l;
}
