/* test_tui_plot.c — log axes in whole decades, SI tick labels, and the
 * roofline plot's content: roofs, ridge value, labelled points, ASCII mode. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "chips.h"
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
    struct plot_points pts = {placed, 2, 0.0, 0.0};
    static char text[65536];
    struct grid g;
    assert_int_equal(grid_init(&g, 80, 24), 0);
    struct rect all = {0, 0, 80, 24};
    plot_draw_state(view_make(&g, all), &a, NULL, NULL, NULL, &pts, true, NULL, &scratch);
    grid_to_text(&g, text, sizeof text);
    grid_free(&g);
    assert_non_null(strstr(text, "gemm"));
    assert_non_null(strstr(text, "wrong"));
    const char *bang = strstr(text, "!");
    if (!bang)
        fail_msg("no '!' for the point above the roof:\n%s", text);
}

/* The y labels of a rendered plot (its first 5 columns, row by row). */
static void y_labels(const char *text, char *out, size_t size)
{
    size_t k = 0;
    for (const char *line = text; *line && k + 7 < size;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        for (size_t i = 0; i < 5 && i < n; i++)
            out[k++] = line[i];
        out[k++] = '|';
        if (!nl)
            break;
        line = nl + 1;
    }
    out[k] = '\0';
}

/* The default scenario on an H100, analysed once: the measured-point tests' roof. */
static const struct analysis *h100(struct scenario *s)
{
    static struct analysis a;
    scenario_default(s);
    s->chip = *chip_find("h100");
    char err[256];
    assert_int_equal(analyze(s, &a, err, sizeof err), 0);
    return &a;
}

/* The ASCII plot of a with pts at w x h, into text (size bytes). */
static const char *points_frame(const struct analysis *a, const struct plot_points *pts, int w, int h, char *text,
                                size_t size)
{
    struct grid g;
    assert_int_equal(grid_init(&g, w, h), 0);
    plot_draw_state(view_make(&g, (struct rect){0, 0, w, h}), a, NULL, NULL, NULL, pts, true, NULL, &scratch);
    grid_to_text(&g, text, size);
    grid_free(&g);
    return text;
}

/* A kernel without FLOPs (a copy at 1 TB/s) is drawn at the plot's left
 * edge with its label, and neither it nor a units error (1e18 FLOP/s) nor
 * a copy of a few bytes stretches the axes: the y labels are the same as
 * with the GEMM alone. */
static void test_plot_copies_and_outliers(void **state)
{
    (void)state;
    struct scenario s;
    const struct analysis *a = h100(&s);
    struct measured_point items[4] = {{.label = "gemm", .flops = 1.1e12, .bytes = 4e8, .seconds = 0.00142},
                                      {.label = "copy", .bytes = 1e9, .seconds = 1e-3},
                                      {.label = "wrong", .flops = 1e12, .bytes = 1e9, .seconds = 1e-6},
                                      {.label = "tiny", .bytes = 4, .seconds = 1e-6}};
    struct plot_point placed[4];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(point_place(&items[i], &s, &placed[i].at), 0);
        placed[i].label = items[i].label;
        placed[i].roof_name = NULL;
    }
    static char alone[65536], all[65536];
    char la[4096], lb[4096];
    struct plot_points one = {placed, 1, 0.0, 0.0}, four = {placed, 4, 0.0, 0.0};
    points_frame(a, &one, 100, 30, alone, sizeof alone);
    points_frame(a, &four, 100, 30, all, sizeof all);
    y_labels(alone, la, sizeof la);
    y_labels(all, lb, sizeof lb);
    assert_string_equal(la, lb);
    if (!strstr(all, "copy") || !strstr(all, "!"))
        fail_msg("the copy or the pinned units error is not drawn:\n%s", all);
    /* the copy sits in the plot's first column, right of the y axis */
    const char *c = strstr(all, "x copy");
    assert_non_null(c);
    const char *line = c;
    while (line > all && line[-1] != '\n')
        line--;
    assert_true(c - line <= 6);
}

/* A kernel whose cell a phase's label took is still drawn (at 80x24 the
 * H100's "prefill/training" label lies along the roof where a 500 TFLOP/s
 * GEMM of 1000 FLOP/byte sits): the label gives way, not the kernel. */
static void test_plot_point_over_label(void **state)
{
    (void)state;
    struct scenario s;
    const struct analysis *a = h100(&s);
    struct measured_point m = {.label = "gemm", .flops = 1e12, .bytes = 1e9, .seconds = 0.002};
    struct plot_point p = {.label = "gemm"};
    assert_int_equal(point_place(&m, &s, &p.at), 0);
    struct plot_points pts = {&p, 1, 0.0, 0.0};
    static char text[65536];
    points_frame(a, &pts, 45, 14, text, sizeof text);
    if (!strchr(text, 'x') || !strstr(text, "gemm"))
        fail_msg("the kernel under the phase label is not drawn:\n%s", text);
}

/* The hierarchical roofline on the plot: with the caches' bandwidths (here
 * 5 and 19 TB/s, a test's figures, over the H100's 3.35 TB/s HBM) and a
 * kernel's L2 and L1 intensities, the caches' dotted roofs are drawn and
 * named and the kernel shows again as '2' and '1' at the same FLOP/s;
 * without the bandwidths, neither. */
static void test_plot_cache_levels(void **state)
{
    (void)state;
    struct scenario s;
    const struct analysis *a = h100(&s);
    struct measured_point m = {.label = "k", .flops = 1e11, .bytes = 1e9, .seconds = 0.01, .l2_bytes = 2e10,
                               .l1_bytes = 1e11};
    struct plot_point p = {.label = "k"};
    assert_int_equal(point_place(&m, &s, &p.at), 0);
    ASSERT_NEAR(p.at.l2_intensity, 5.0, 0); /* 1e11 FLOPs over 2e10 L2 bytes */
    ASSERT_NEAR(p.at.l1_intensity, 1.0, 0);
    static char text[65536];
    struct plot_points pts = {&p, 1, 5e12, 19e12};
    points_frame(a, &pts, 120, 40, text, sizeof text);
    if (!strstr(text, "L2 roof") || !strstr(text, "L1 roof") || !strchr(text, '2') || !strchr(text, '1'))
        fail_msg("the caches' roofs or the kernel's levels are not drawn:\n%s", text);
    struct plot_points bare = {&p, 1, 0.0, 0.0};
    points_frame(a, &bare, 120, 40, text, sizeof text);
    assert_null(strstr(text, "L2 roof"));
}

/* A kernel placed against another roof than the plot's gets that roof
 * drawn and named: FP32 CUDA-core work under the vector unit's (H100 67.0
 * TFLOP/s), an fp8 kernel on a bf16 plot under the fp8 peak (1.98
 * PFLOP/s). Without such points neither shows (the default phases only). */
static void test_plot_point_roofs(void **state)
{
    (void)state;
    struct scenario s;
    const struct analysis *a = h100(&s);
    struct measured_point items[2] = {
        {.label = "sgemm", .flops = 1e12, .bytes = 1e9, .seconds = 0.05, .vector_unit = true},
        {.label = "fp8 gemm", .flops = 1e13, .bytes = 1e9, .seconds = 0.01, .precision = RT_FP8}};
    struct plot_point placed[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(point_place(&items[i], &s, &placed[i].at), 0);
        placed[i].label = items[i].label;
        placed[i].roof_name = placed[i].at.on_vector_roof ? "vector" : precision_name(items[i].precision);
    }
    assert_true(placed[0].at.on_vector_roof);
    ASSERT_NEAR(placed[0].at.peak_flops_per_s, 67e12, 0);
    ASSERT_NEAR(placed[1].at.peak_flops_per_s, 1978.9e12, 1e3);
    static char text[65536];
    struct plot_points pts = {placed, 2, 0.0, 0.0};
    points_frame(a, &pts, 120, 40, text, sizeof text);
    if (!strstr(text, "vector 67.0 TFLOP/s") || !strstr(text, "fp8 1.98 PFLOP/s"))
        fail_msg("the points' roofs are not drawn and named:\n%s", strstr(text, "vector") ? strstr(text, "vector") : text);
    struct plot_points none = {placed, 0, 0.0, 0.0};
    points_frame(a, &none, 120, 40, text, sizeof text);
    assert_null(strstr(text, "vector"));
    assert_null(strstr(text, "fp8 1.98"));
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


/* Ticks on equal cell intervals: five decades on ten rows tick every other
 * decade three rows apart (one a row would fill 5 of 9 rows); six decades on
 * 43 columns with labels 6 apart tick every decade 7 columns apart. */
static void test_even_ticks(void **state)
{
    (void)state;
    int step = 0, gap = 0;
    assert_int_equal(log_axis_ticks(5, 10, 1, &step, &gap), 0);
    assert_int_equal(step, 2);
    assert_int_equal(gap, 3);
    assert_int_equal(log_axis_ticks(6, 43, 6, &step, &gap), 0);
    assert_int_equal(step, 1);
    assert_int_equal(gap, 7);
    assert_int_equal(log_axis_ticks(4, 33, 1, &step, &gap), 0); /* 8 rows a decade fill 32 of 32 */
    assert_int_equal(step, 1);
    assert_int_equal(gap, 8);
    step = gap = 77;
    assert_int_equal(log_axis_ticks(5, 4, 4, &step, &gap), -1); /* 3 cells cannot hold a gap of 4 */
    assert_int_equal(log_axis_ticks(0, 10, 1, &step, &gap), -1);
    assert_int_equal(log_axis_ticks(3, 1, 1, &step, &gap), -1);
    assert_int_equal(step, 77);
}

/* Renders analysis a with view state st (may be NULL) at w x h into g's text. */
static const char *render_state(const struct analysis *a, const char *ops, struct plot_state *st, int w, int h,
                                bool ascii)
{
    static char text[65536];
    struct grid g;
    assert_int_equal(grid_init(&g, w, h), 0);
    plot_draw_state(view_make(&g, (struct rect){0, 0, w, h}), a, NULL, NULL, ops, NULL, ascii, st, &scratch);
    grid_to_text(&g, text, sizeof text);
    grid_free(&g);
    return text;
}

/* Line y of text (static copy). */
static const char *line_of(const char *text, int y)
{
    static char line[4096];
    const char *p = text;
    for (int i = 0; i < y && p; i++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return "";
    size_t n = strcspn(p, "\n");
    n = n < sizeof line - 1 ? n : sizeof line - 1;
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

/* The y ticks ('+' in the axis column) sit on rows a constant distance
 * apart, and so do the x ticks on the axis line, at 80 x 24 and 120 x 40. */
static void test_ticks_evenly_spaced(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    static struct analysis a;
    char err[256];
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    const int sizes[][2] = {{44, 14}, {70, 24}, {120, 40}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        const char *t = render_state(&a, NULL, NULL, w, h, true);
        int rows[32], nr = 0, axis_col = -1, axis_row = -1;
        for (int y = 1; y < h; y++) {
            const char *l = line_of(t, y);
            if (l[0] == ' ' && strstr(l, "++-")) {
                axis_row = y;
                axis_col = (int)(strstr(l, "++-") - l);
            }
        }
        assert_true(axis_row > 0);
        for (int y = 1; y < axis_row; y++)
            if ((int)strlen(line_of(t, y)) > axis_col && line_of(t, y)[axis_col] == '+')
                rows[nr++] = y;
        if (nr < 3)
            fail_msg("%dx%d: %d y ticks:\n%s", w, h, nr, t);
        for (int i = 2; i < nr; i++)
            if (rows[i] - rows[i - 1] != rows[1] - rows[0])
                fail_msg("%dx%d: y tick rows %d %d %d not evenly spaced:\n%s", w, h, rows[i - 2], rows[i - 1], rows[i], t);
        const char *axis = line_of(t, axis_row);
        int cols[64], nc = 0;
        for (int x = axis_col + 1; axis[x]; x++)
            if (axis[x] == '+')
                cols[nc++] = x;
        assert_true(nc >= 3);
        for (int i = 2; i < nc; i++)
            if (cols[i] - cols[i - 1] != cols[1] - cols[0])
                fail_msg("%dx%d: x ticks at %d %d %d not evenly spaced:\n%s", w, h, cols[i - 2], cols[i - 1], cols[i], t);
    }
}

/* Axes fitted at batch 1 stay put at batch 1024: the x labels line is the
 * same, and prefill and training (8192 x 1024 = 8.4M FLOP/byte, beyond the
 * last decade) are pinned to the right edge with an arrow and their value.
 * A cleared state re-fits. */
static void test_steady_axes_pin(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    static struct analysis a1, a2;
    static struct plot_state st;
    char err[256], xl1[4096];
    assert_int_equal(analyze(&s, &a1, err, sizeof err), 0);
    s.batch = 1024;
    assert_int_equal(analyze(&s, &a2, err, sizeof err), 0);
    memset(&st, 0, sizeof st);
    const char *t = render_state(&a1, NULL, &st, 70, 24, false);
    assert_true(st.fitted);
    snprintf(xl1, sizeof xl1, "%s", line_of(t, 23));
    t = render_state(&a2, NULL, &st, 70, 24, false);
    assert_string_equal(line_of(t, 23), xl1);
    /* Training's tokens grow with the batch too: both pinned, one label. */
    if (!strstr(t, "prefill/training 8.4M"))
        fail_msg("no pinned prefill:\n%s", t);
    assert_non_null(strstr(t, "\xe2\x86\x92\n")); /* the arrow on the right edge */
    t = render_state(&a2, NULL, &st, 70, 24, true); /* ASCII: '>' */
    assert_non_null(strstr(t, ">\n"));
    assert_non_null(strstr(t, "prefill/training 8.4M"));
    plot_state_clear(&st, true);
    t = render_state(&a2, NULL, &st, 70, 24, false);
    assert_null(strstr(t, "\xe2\x86\x92"));
    assert_string_not_equal(line_of(t, 23), xl1);

    /* The roof is never hidden: from TPU v5e (197 TFLOP/s) to a B200
     * (2.25 PFLOP/s dense bf16) the peak leaves the fitted top decade, so
     * the axes re-fit and the peak's decade is on the axis. */
    s.batch = 1;
    assert_int_equal(analyze(&s, &a1, err, sizeof err), 0);
    memset(&st, 0, sizeof st);
    render_state(&a1, NULL, &st, 70, 24, false);
    int top = st.y_hi;
    assert_true(top < 16); /* 1P: 197 TFLOP/s fits under it */
    s.chip = *chip_find("b200");
    assert_int_equal(analyze(&s, &a2, err, sizeof err), 0);
    assert_true(log10(a2.peak_flops_per_s) > top);
    render_state(&a2, NULL, &st, 70, 24, false);
    assert_true(st.y_hi >= log10(a2.peak_flops_per_s));
}

/* A step leaves the old position in the trail (newest first, at most
 * PLOT_TRAIL_LEN); the dots show where decode was. Another set of
 * placements clears the trails. */
static void test_trails(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    static struct analysis a[5];
    static struct plot_state st;
    char err[256];
    memset(&st, 0, sizeof st);
    const int64_t batches[] = {1, 8, 64, 256, 1024};
    for (int i = 0; i < 5; i++) {
        s.batch = batches[i];
        assert_int_equal(analyze(&s, &a[i], err, sizeof err), 0);
        if (i > 0)
            plot_state_step(&st, &a[i - 1], &a[i]);
    }
    int d = -1;
    for (int i = 0; i < a[4].placement_count; i++)
        if (strcmp(a[4].placements[i].name, "decode") == 0)
            d = i;
    assert_true(d >= 0);
    assert_int_equal(st.trail[d].count, PLOT_TRAIL_LEN);
    ASSERT_NEAR(st.trail[d].intensity_flop_per_byte[0], a[3].placements[d].roof.intensity_flop_per_byte, 1e-9);
    ASSERT_NEAR(st.trail[d].intensity_flop_per_byte[2], a[1].placements[d].roof.intensity_flop_per_byte, 1e-9);
    const char *t = render_state(&a[4], NULL, &st, 70, 24, true);
    int dots = 0;
    for (int y = 1; y < 21; y++)
        for (const char *p = line_of(t, y); *p; p++)
            dots += *p == '.';
    if (dots < 2)
        fail_msg("%d trail dots:\n%s", dots, t);
    /* The newest dot in the decode point's colour, the older ones dim. */
    struct grid g;
    assert_int_equal(grid_init(&g, 70, 24), 0);
    plot_draw_state(view_make(&g, (struct rect){0, 0, 70, 24}), &a[4], NULL, NULL, NULL, NULL, true, &st, &scratch);
    int decode_dots = 0, dim_dots = 0;
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 70; x++) {
            const struct cell *c = grid_cell(&g, x, y);
            if (c->ch == '.') {
                decode_dots += c->role == ROLE_DECODE;
                dim_dots += c->role == ROLE_DIM;
            }
        }
    grid_free(&g);
    assert_true(decode_dots >= 1);
    assert_true(dim_dots >= 1);
    static struct analysis other;
    other = a[4];
    other.placement_count--;
    plot_state_step(&st, &a[4], &other);
    assert_int_equal(st.trail[d].count, 0);
}

/* Points in one cell share one label ("prefill/training"), and no two
 * labels run together. */
static void test_labels_merge(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    static struct analysis a;
    char err[256];
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    for (int w = 40; w <= 120; w += 8) {
        const char *t = render_state(&a, NULL, NULL, w, 24, false);
        assert_non_null(strstr(t, "prefill/training"));
        assert_null(strstr(t, "trainingprefill"));
        assert_null(strstr(t, "prefilltraining"));
        assert_null(strstr(t, "decodeprefill"));
        assert_null(strstr(t, "241ridge"));
    }
    const char *t = render_state(&a, NULL, NULL, 120, 40, false);
    assert_non_null(strstr(t, "ridge 241 FLOP/B"));
}

/* The operations view shows every operation of the phase, a to k: the
 * embedding (no FLOPs) pinned left, softmax (on chip) pinned right. */
static void test_ops_all_letters(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    static struct analysis a;
    char err[256];
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    const char *phases[] = {"prefill", "decode", "training"};
    for (int k = 0; k < 3; k++) {
        const char *t = render_state(&a, phases[k], NULL, 44, 14, true);
        int n = plot_op_count(&a, phases[k]);
        assert_int_equal(n, 11);
        char plotted[4096] = "";
        for (int y = 1; y < 12; y++) { /* the canvas rows, after the y labels */
            const char *l = line_of(t, y);
            strncat(plotted, strlen(l) > 5 ? l + 5 : "", sizeof plotted - strlen(plotted) - 1);
        }
        for (int i = 0; i < n; i++)
            if (!strchr(plotted, plot_op_marker(i)))
                fail_msg("%s: no '%c':\n%s", phases[k], plot_op_marker(i), t);
        assert_non_null(strstr(t, "<j"));
        assert_non_null(strstr(t, "c>"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decades),       cmocka_unit_test(test_positions),
        cmocka_unit_test(test_decade_labels), cmocka_unit_test(test_plot_content),
        cmocka_unit_test(test_plot_ascii_only), cmocka_unit_test(test_plot_measured_points), cmocka_unit_test(test_plot_point_roofs),
        cmocka_unit_test(test_plot_copies_and_outliers), cmocka_unit_test(test_plot_cache_levels),
        cmocka_unit_test(test_plot_point_over_label), cmocka_unit_test(test_compare_overlay),
        cmocka_unit_test(test_small_views),   cmocka_unit_test(test_even_ticks),
        cmocka_unit_test(test_ticks_evenly_spaced), cmocka_unit_test(test_steady_axes_pin),
        cmocka_unit_test(test_trails),        cmocka_unit_test(test_labels_merge),
        cmocka_unit_test(test_ops_all_letters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
