/* test_tui_layout.c — the explorer's geometry: clamps, minimum size, no
 * overlaps, at every size from 0 x 0 to 300 x 120. */
#include "testutil.h"

#include "layout.h"

/* The panels of a layout, for iteration. */
static void panels(const struct layout *l, struct rect out[9])
{
    out[0] = l->title;
    out[1] = l->plot;
    out[2] = l->sliders;
    out[3] = l->memory;
    out[4] = l->placement;
    out[5] = l->mfu;
    out[6] = l->latency;
    out[7] = l->status;
    out[8] = l->whole;
}

/* True when two non-empty rectangles share a cell. */
static int overlap(struct rect a, struct rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* At 80 x 24 every panel is there, inside the screen, and none overlap. */
static void test_minimum_size_has_every_panel(void **state)
{
    (void)state;
    struct layout l = layout_compute(80, 24);
    assert_false(l.too_small);
    struct rect r[9];
    panels(&l, r);
    for (int i = 0; i < 8; i++) {
        assert_true(r[i].w > 0 && r[i].h > 0);
        assert_true(r[i].x >= 0 && r[i].y >= 0 && r[i].x + r[i].w <= 80 && r[i].y + r[i].h <= 24);
        for (int j = 0; j < i; j++)
            assert_false(overlap(r[i], r[j]));
    }
    assert_int_equal(l.sliders.h, LAYOUT_SLIDER_ROWS); /* twelve knobs at the minimum; the list scrolls */
    /* A tall screen shows every knob, with ten rows of memory beneath. */
    struct layout tall = layout_compute(200, 60);
    assert_int_equal(tall.sliders.h, LAYOUT_SLIDER_ROWS_ALL);
    assert_true(tall.memory.h >= 10 && tall.memory.y == tall.sliders.y + tall.sliders.h);
    assert_int_equal(layout_compute(120, 40).sliders.h, LAYOUT_SLIDER_ROWS); /* 40 rows keep the memory panel */
    assert_true(l.latency.h >= 6);                     /* header, bar, banner (3), chips line */
    assert_int_equal(l.status.y, 23);
}

/* Below the minimum the layout says so and gives no panels. */
static void test_below_minimum_is_too_small(void **state)
{
    (void)state;
    const int sizes[][2] = {{79, 24}, {80, 23}, {40, 10}, {0, 0}, {1, 1}, {-5, -7}, {1000, 3}, {3, 1000}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct layout l = layout_compute(sizes[i][0], sizes[i][1]);
        assert_true(l.too_small);
        assert_true(l.whole.w >= 0 && l.whole.h >= 0);
        assert_int_equal(l.plot.w * l.plot.h, 0);
        assert_int_equal(l.sliders.w * l.sliders.h, 0);
    }
}

/* Every size from 80 x 24 to 300 x 120: panels inside the screen, disjoint,
 * the plot the largest panel. */
static void test_every_size_is_consistent(void **state)
{
    (void)state;
    for (int c = 80; c <= 300; c += 7) {
        for (int rws = 24; rws <= 120; rws += 5) {
            struct layout l = layout_compute(c, rws);
            assert_false(l.too_small);
            struct rect r[9];
            panels(&l, r);
            for (int i = 0; i < 8; i++) {
                assert_true(r[i].w > 0 && r[i].h > 0);
                assert_true(r[i].x >= 0 && r[i].y >= 0);
                assert_true(r[i].x + r[i].w <= c && r[i].y + r[i].h <= rws);
                for (int j = 0; j < i; j++)
                    assert_false(overlap(r[i], r[j]));
                if (i != 1 && i != 8)
                    assert_true(r[i].w * r[i].h <= l.plot.w * l.plot.h);
            }
        }
    }
}

/* Huge sizes are clamped, not overflowed. */
static void test_huge_sizes_clamp(void **state)
{
    (void)state;
    struct layout l = layout_compute(2147483647, 2147483647);
    assert_false(l.too_small);
    assert_true(l.plot.w > 0 && l.plot.h > 0);
    assert_true(l.whole.w <= 100000 && l.whole.h <= 100000);
}

/* The sizes the issue names fill sensibly: at 120 x 40 memory moves up beside the plot. */
static void test_larger_screens_use_the_room(void **state)
{
    (void)state;
    struct layout small = layout_compute(80, 24), big = layout_compute(120, 40), huge = layout_compute(200, 60);
    assert_true(big.plot.w > small.plot.w && big.plot.h > small.plot.h);
    assert_true(huge.plot.w > big.plot.w && huge.plot.h > big.plot.h);
    assert_int_equal(big.memory.x, big.sliders.x);
    assert_true(big.memory.y > big.sliders.y);
    assert_true(rect_contains(big.plot, 0, 1));
    assert_false(rect_contains(big.plot, big.plot.w, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum_size_has_every_panel),
        cmocka_unit_test(test_below_minimum_is_too_small),
        cmocka_unit_test(test_every_size_is_consistent),
        cmocka_unit_test(test_huge_sizes_clamp),
        cmocka_unit_test(test_larger_screens_use_the_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
