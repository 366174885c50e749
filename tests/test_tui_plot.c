/* test_tui_plot.c — log axes in whole decades, SI tick labels, and the
 * roofline plot's content: roofs, ridge value, labelled points, ASCII mode. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "plot.h"
#include "plotmath.h"

/* Whole decades around the data, with headroom above the largest value. */
static void test_decades(void **state)
{
    (void)state;
    int lo, hi;
    assert_int_equal(log_axis_decades(1.0, 8192.0, 1, &lo, &hi), 0);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 4);
    assert_int_equal(log_axis_decades(0.98, 8192.0, 1, &lo, &hi), 0);
    assert_int_equal(lo, -1);
    assert_int_equal(log_axis_decades(1000.0, 1000.0, 1, &lo, &hi), 0); /* exact power of ten */
    assert_int_equal(lo, 3);
    assert_int_equal(hi, 4);
    assert_int_equal(log_axis_decades(8.19e11, 1.97e14, 2, &lo, &hi), 0);
    assert_int_equal(lo, 11);
    assert_int_equal(hi, 15);
    assert_int_equal(log_axis_decades(5.0, 6.0, 3, &lo, &hi), 0); /* widened */
    assert_int_equal(hi - lo, 3);
    assert_int_equal(log_axis_decades(8192.0, 1.0, 1, &lo, &hi), 0); /* swapped */
    assert_int_equal(lo, 0);
    assert_int_equal(log_axis_decades(1e-30, 1e30, 1, &lo, &hi), 0); /* narrowed */
    assert_int_equal(hi - lo, PLOT_MAX_DECADES);
    lo = hi = 77;
    assert_int_equal(log_axis_decades(0.0, 10.0, 1, &lo, &hi), -1);
    assert_int_equal(log_axis_decades(NAN, 10.0, 1, &lo, &hi), -1);
    assert_int_equal(log_axis_decades(1.0, INFINITY, 1, &lo, &hi), -1);
    assert_int_equal(lo, 77);
}

/* Positions and their inverse. */
static void test_positions(void **state)
{
    (void)state;
    ASSERT_NEAR(log_axis_position(1.0, 0, 4, 100.0), 0.0, 1e-12);
    ASSERT_NEAR(log_axis_position(100.0, 0, 4, 100.0), 50.0, 1e-12);
    ASSERT_NEAR(log_axis_position(1e5, 0, 4, 100.0), 125.0, 1e-9); /* not clamped */
    ASSERT_NEAR(log_axis_value(50.0, 0, 4, 100.0), 100.0, 1e-9);
    assert_true(isnan(log_axis_position(0.0, 0, 4, 100.0)));
    assert_true(isnan(log_axis_position(10.0, 4, 4, 100.0)));
    assert_true(isnan(log_axis_value(1.0, 0, 4, 0.0)));
}

/* Tick labels: ASCII SI, never superscripts. */
static void test_decade_labels(void **state)
{
    (void)state;
    const struct {
        int e;
        const char *want;
    } cases[] = {{0, "1"},     {1, "10"},   {2, "100"},  {3, "1k"},    {4, "10k"},  {5, "100k"},
                 {6, "1M"},    {9, "1G"},   {12, "1T"},  {13, "10T"},  {14, "100T"}, {15, "1P"},
                 {18, "1E"},   {-1, "0.1"}, {-2, "0.01"}, {-3, "0.001"}, {-4, "1e-4"}, {31, "?"}};
    char buf[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(decade_label(buf, sizeof buf, cases[i].e), cases[i].want);
}

/* Scratch memory is large; one for the file. */
static struct plot_scratch scratch;

/* Renders the plot of scenario s at w x h and returns the text (static). */
static const char *render(const struct scenario *s, const char *compare_chip, int w, int h, bool ascii)
{
    static char text[65536];
    static struct analysis a, b;
    char err[256];
    assert_int_equal(analyze(s, &a, err, sizeof err), 0);
    struct plot_compare cmp = {compare_chip, &b};
    if (compare_chip) {
        struct scenario t = *s;
        t.chip = *chip_find(compare_chip);
        assert_int_equal(analyze(&t, &b, err, sizeof err), 0);
    }
    struct grid g;
    assert_int_equal(grid_init(&g, w, h), 0);
    struct rect all = {0, 0, w, h};
    plot_draw(view_make(&g, all), &a, compare_chip ? &cmp : NULL, NULL, ascii, &scratch);
    grid_to_text(&g, text, sizeof text);
    grid_free(&g);
    return text;
}

/* The default scenario's plot names its decades, ridge and points. */
static void test_plot_content(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    const char *t = render(&s, NULL, 70, 24, false);
    const char *want[] = {"Roofline", "bf16", "1T", "10T", "100T", "1P", "1k", "10", "100", "ridge 241",
                          "prefill", "decode", "training", "FLOP/byte"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(t, want[i]))
            fail_msg("plot lacks '%s':\n%s", want[i], t);
    assert_non_null(strstr(t, "\xe2\xa0")); /* braille cells (U+28xx) */
    assert_null(strstr(t, "nan"));
}

/* Measured kernels (--points): one under the roof drawn as the measured
 * glyph with its label, one faster than the roof allows drawn as '!' so it
 * reads as wrong without colour too. */
static void test_plot_measured_points(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    static struct analysis a;
    char err[256];
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    struct measured_point items[2] = {{.label = "gemm", .flops = 1.1e12, .bytes = 4e8, .seconds = 0.00142},
                                      {.label = "wrong", .flops = 1e12, .bytes = 1e9, .seconds = 1e-6}};
    struct plot_point placed[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(point_place(&items[i], &s, &placed[i].at), 0);
        placed[i].label = items[i].label;
    }
    struct plot_points pts = {placed, 2};
    static char text[65536];
    struct grid g;
    assert_int_equal(grid_init(&g, 80, 24), 0);
    struct rect all = {0, 0, 80, 24};
    plot_draw_points(view_make(&g, all), &a, NULL, NULL, &pts, true, &scratch);
    grid_to_text(&g, text, sizeof text);
    grid_free(&g);
    assert_non_null(strstr(text, "gemm"));
    assert_non_null(strstr(text, "wrong"));
    const char *bang = strstr(text, "!");
    if (!bang)
        fail_msg("no '!' for the point above the roof:\n%s", text);
}

/* ASCII mode writes 7-bit bytes only. */
static void test_plot_ascii_only(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    const char *t = render(&s, "h100", 70, 24, true);
    for (const char *p = t; *p; p++)
        if ((unsigned char)*p >= 0x80)
            fail_msg("non-ASCII byte 0x%02x in ASCII plot:\n%s", (unsigned char)*p, t);
    assert_non_null(strstr(t, "ridge 241"));
    assert_non_null(strstr(t, "/"));
}

/* The comparison roof is labelled with the other chip's ridge; the ridge
 * moves right from A100 (153) to H100 (295). */
static void test_compare_overlay(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("a100-80");
    const char *t = render(&s, "h100", 100, 30, false);
    assert_non_null(strstr(t, "ridge 153"));
    assert_non_null(strstr(t, "h100 ridge 295"));
}

/* Any size, however small, is drawn without crashing. */
static void test_small_views(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    for (int w = 0; w < 20; w += 3)
        for (int h = 0; h < 8; h++)
            render(&s, "h100", w, h, (w + h) % 2 == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decades),       cmocka_unit_test(test_positions),
        cmocka_unit_test(test_decade_labels), cmocka_unit_test(test_plot_content),
        cmocka_unit_test(test_plot_ascii_only), cmocka_unit_test(test_plot_measured_points), cmocka_unit_test(test_compare_overlay),
        cmocka_unit_test(test_small_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
