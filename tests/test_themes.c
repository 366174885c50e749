/* test_themes.c — theme files: colours, fallbacks, the shipped themes, and
 * errors that name the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "fileio.h"
#include "themefile.h"

/* Colours: "#rrggbb" to the nearest of the 256 standard colours, names,
 * indices, "default". */
static void test_color_parsing(void **state)
{
    (void)state;
    short c = 0;
    assert_int_equal(theme_color_parse("#E69F00", &c), 0); /* Okabe-Ito orange -> #d7af00 */
    assert_int_equal(c, 178);
    assert_int_equal(theme_color_parse("#000000", &c), 0);
    assert_int_equal(c, 16);
    assert_int_equal(theme_color_parse("#ffffff", &c), 0);
    assert_int_equal(c, 231);
    assert_int_equal(theme_color_parse("#808080", &c), 0);
    assert_int_equal(c, 244);
    assert_int_equal(theme_color_parse("red", &c), 0);
    assert_int_equal(c, 1);
    assert_int_equal(theme_color_parse("bright-blue", &c), 0);
    assert_int_equal(c, 12);
    assert_int_equal(theme_color_parse("default", &c), 0);
    assert_int_equal(c, -1);
    const char *bad[] = {"#12345", "#gg0000", "purple", "", "bright-", NULL};
    for (int i = 0; bad[i]; i++)
        assert_int_equal(theme_color_parse(bad[i], &c), -1);
    assert_int_equal(theme_color_parse(NULL, &c), -1);
    /* 8-colour fallbacks. */
    assert_int_equal(theme_color_to_8(-1), -1);
    assert_int_equal(theme_color_to_8(3), 3);
    assert_int_equal(theme_color_to_8(11), 3);
    assert_int_equal(theme_color_to_8(196), 1); /* pure red */
    assert_int_equal(theme_color_to_8(21), 4);  /* pure blue */
    assert_int_equal(theme_color_to_8(46), 2);  /* pure green */
}

/* The five shipped files load cleanly; each differs from the default; mono
 * has no colour at all; names are unique. */
static void test_shipped_themes(void **state)
{
    (void)state;
    static struct theme_set set;
    theme_set_init(&set);
    struct load_warnings w = {0};
    theme_set_add_dir(&set, "themes", &w);
    for (int i = 0; i < w.count; i++)
        fail_msg("warning: %s", w.text[i]);
    assert_int_equal(set.count, 6);
    const char *names[] = {"dark", "light", "high-contrast", "okabe-ito", "mono", "projector"};
    for (int i = 0; i < 6; i++) {
        int at = theme_set_find(&set, names[i]);
        if (at < 0)
            fail_msg("theme %s missing", names[i]);
        assert_string_equal(set.items[at].name, names[i]);
        if (i > 0 && memcmp(set.items[at].style, theme_default()->style, sizeof theme_default()->style) == 0)
            fail_msg("theme %s is the default", names[i]);
    }
    const struct theme *mono = &set.items[theme_set_find(&set, "MONO")];
    for (int r = 0; r < ROLE_COUNT; r++) {
        assert_int_equal(mono->style[r].fg256, -1);
        assert_int_equal(mono->style[r].bg256, -1);
        assert_int_equal(mono->style[r].fg8, -1);
    }
    /* Meaning survives without colour: selection and verdicts are marked. */
    assert_true(mono->style[ROLE_SELECTED].attr & THEME_REVERSE);
    assert_true(mono->style[ROLE_MISS_BIG].attr & THEME_REVERSE);
}

/* A partial theme inherits the default; fg8 derives from fg unless given. */
static void test_partial_theme_and_fallbacks(void **state)
{
    (void)state;
    static struct theme_set set;
    theme_set_init(&set);
    struct load_warnings w = {0};
    char err[300];
    const char text[] = "{\"name\": \"mine\", \"roles\": {\"roof\": {\"fg\": 196}, \"ridge\": {\"fg\": 196, \"fg8\": "
                        "\"cyan\", \"attr\": [\"underline\"]}}}";
    int at = theme_set_add_text(&set, text, strlen(text), "mine.json", &w, err, sizeof err);
    assert_int_equal(at, 1);
    const struct theme *t = &set.items[at];
    assert_int_equal(t->style[ROLE_ROOF].fg256, 196);
    assert_int_equal(t->style[ROLE_ROOF].fg8, 1);
    assert_int_equal(t->style[ROLE_RIDGE].fg8, 6);
    assert_int_equal(t->style[ROLE_RIDGE].attr, THEME_UNDERLINE);
    assert_memory_equal(&t->style[ROLE_TEXT], &theme_default()->style[ROLE_TEXT], sizeof t->style[0]);
    /* Loading a theme of the same name replaces it. */
    assert_int_equal(theme_set_add_text(&set, text, strlen(text), "again.json", &w, err, sizeof err), 1);
    assert_int_equal(set.count, 2);
}

/* Errors name the file, the role and the key. */
static void test_theme_errors(void **state)
{
    (void)state;
    static struct theme_set set;
    theme_set_init(&set);
    struct load_warnings w = {0};
    char err[300];
    static const struct { const char *text, *want; } cases[] = {
        {"{\"name\": \"x\", \"roles\": {\"roof\": {\"fg\": \"purple\"}}}", "'roles.roof.fg' must be"},
        {"{\"name\": \"x\", \"roles\": {\"roof\": {\"fg\": 300}}}", "'roles.roof.fg' must be"},
        {"{\"name\": \"x\", \"roles\": {\"roof\": {\"attr\": [\"blink\"]}}}", "'roles.roof.attr' takes bold"},
        {"{\"name\": \"x\", \"roles\": {\"roof\": \"red\"}}", "'roles.roof' must be an object"},
        {"{\"roles\": {}}", "missing key 'name'"},
        {"{\"name\": \"x\"}", "'roles' must be an object"},
        {"{\"name\": \"x\", \"roles\": {},}", "t.json:1:27: expected a value after ','"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(theme_set_add_text(&set, cases[i].text, strlen(cases[i].text), "t.json", &w, err, sizeof err),
                         -1);
        if (!strstr(err, cases[i].want))
            fail_msg("'%s' does not contain '%s'", err, cases[i].want);
    }
    assert_int_equal(set.count, 1);
    /* An unknown role is a warning, not an error: the theme still loads. */
    const char typo[] = "{\"name\": \"typo\", \"roles\": {\"rooof\": {\"fg\": 1}}}";
    w.count = 0;
    assert_int_equal(theme_set_add_text(&set, typo, strlen(typo), "t.json", &w, err, sizeof err), 1);
    assert_int_equal(w.count, 1);
    if (!strstr(w.text[0], "unknown role 'roles.rooof' ignored"))
        fail_msg("warning was '%s'", w.text[0]);
}

/* WCAG 2 contrast, checked against figures worked by hand: black on white
 * 21:1; bright white (#ffffff) on white 1:1; the dark theme's roof (214,
 * #ffaf00, L = 0.2126 + 0.7152 x 0.4287 = 0.5192) on white
 * 1.05 / 0.5692 = 1.84:1; xterm's red (#cd0000, L = 0.2126 x 0.6105 =
 * 0.1298) on black 0.1798 / 0.05 = 3.60:1. */
static void test_wcag_contrast(void **state)
{
    (void)state;
    const int black[3] = {0, 0, 0}, white[3] = {255, 255, 255};
    int c[3];
    ASSERT_NEAR(wcag_contrast(black, white), 21.0, 1e-9);
    ASSERT_NEAR(wcag_contrast(white, black), 21.0, 1e-9);
    theme_color_rgb(15, c);
    ASSERT_NEAR(wcag_contrast(c, white), 1.0, 1e-9);
    theme_color_rgb(214, c);
    assert_int_equal(c[0], 255);
    assert_int_equal(c[1], 175);
    assert_int_equal(c[2], 0);
    ASSERT_PRINTED("%.2f", wcag_contrast(c, white), "1.84");
    theme_color_rgb(1, c);
    ASSERT_PRINTED("%.2f", wcag_contrast(c, black), "3.60");
    theme_color_rgb(300, c); /* out of range: black */
    ASSERT_NEAR(wcag_luminance(c), 0.0, 1e-12);
    /* Drawn for the wrong background, a theme scores low: the dark theme on
     * white draws its training point (120, #87ff87, L = 0.784) at 1.26:1. */
    struct theme t = *theme_default();
    t.background = THEME_BG_LIGHT;
    enum role worst = ROLE_TEXT;
    ASSERT_PRINTED("%.2f", theme_plot_contrast(&t, false, &worst), "1.26");
    assert_int_equal(worst, ROLE_TRAIN);
}

/* Every shipped theme (the built-in dark and each file in themes/) draws its
 * plot (axes, roofs, ridge, points, labels) at >= 3:1 against the
 * background it declares, WCAG 2.1's threshold for graphics (1.4.11), in
 * 256 colours and in 8. Indexed colours are xterm's palette, the basic 16
 * at xterm's default resources; "default" is the terminal's foreground,
 * taken as white on dark and black on light. */
static void test_theme_contrast(void **state)
{
    (void)state;
    static struct theme_set set;
    theme_set_init(&set);
    struct load_warnings w = {0};
    theme_set_add_dir(&set, "themes", &w);
    assert_true(set.count >= 6);
    for (size_t i = 0; i < set.count; i++) {
        for (int eight = 0; eight < 2; eight++) {
            enum role worst = ROLE_TEXT;
            double c = theme_plot_contrast(&set.items[i], eight, &worst);
            printf("  %-14s %-5s %3s colours: lowest plot contrast %5.2f:1 (%s)\n", set.names[i],
                   set.items[i].background == THEME_BG_LIGHT ? "light" : "dark", eight ? "8" : "256", c,
                   role_name(worst));
            if (c < 3.0)
                fail_msg("theme %s (%s colours) draws %s at %.2f:1 on its %s background", set.names[i],
                         eight ? "8" : "256", role_name(worst), c,
                         set.items[i].background == THEME_BG_LIGHT ? "light" : "dark");
        }
    }
    /* And the measurement bites: high-contrast on white draws its axes at 1:1. */
    struct theme hc = set.items[theme_set_find(&set, "high-contrast")];
    hc.background = THEME_BG_LIGHT;
    enum role worst = ROLE_TEXT;
    ASSERT_NEAR(theme_plot_contrast(&hc, false, &worst), 1.0, 1e-9);
    assert_int_equal(worst, ROLE_AXIS);
}

/* "background" is "dark" or "light"; anything else names the key. */
static void test_theme_background_key(void **state)
{
    (void)state;
    static struct theme_set set;
    theme_set_init(&set);
    struct load_warnings w = {0};
    char err[256];
    const char *light = "{\"name\": \"paper\", \"background\": \"light\", \"roles\": {}}";
    int at = theme_set_add_text(&set, light, strlen(light), "p.json", &w, err, sizeof err);
    assert_int_equal(at, 1);
    assert_int_equal(set.items[at].background, THEME_BG_LIGHT);
    assert_int_equal(set.items[0].background, THEME_BG_DARK);
    const char *bad = "{\"name\": \"x\", \"background\": \"grey\", \"roles\": {}}";
    assert_int_equal(theme_set_add_text(&set, bad, strlen(bad), "x.json", &w, err, sizeof err), -1);
    assert_string_equal(err, "x.json: 'background' must be \"dark\" or \"light\" (the background it is drawn for)");
    assert_int_equal(w.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_color_parsing),
        cmocka_unit_test(test_shipped_themes),
        cmocka_unit_test(test_partial_theme_and_fallbacks),
        cmocka_unit_test(test_theme_errors),
        cmocka_unit_test(test_wcag_contrast),
        cmocka_unit_test(test_theme_contrast),
        cmocka_unit_test(test_theme_background_key),
    };
    return cmocka_run_group_tests_name("themes", tests, NULL, NULL);
}
