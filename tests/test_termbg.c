/* test_termbg.c — the terminal's background from COLORFGBG and OSC 11, the
 * terminals that get ASCII, and the theme a light background chooses. */
#include <string.h>

#include "testutil.h"

#include "termbg.h"

/* COLORFGBG: the last field is the background; 7 and 9-15 are light. */
static void test_colorfgbg(void **state)
{
    (void)state;
    assert_int_equal(background_from_colorfgbg("0;15"), EXPLORER_BG_LIGHT);
    assert_int_equal(background_from_colorfgbg("0;7"), EXPLORER_BG_LIGHT);
    assert_int_equal(background_from_colorfgbg("15;0"), EXPLORER_BG_DARK);
    assert_int_equal(background_from_colorfgbg("7;8"), EXPLORER_BG_DARK);
    assert_int_equal(background_from_colorfgbg("0;default;15"), EXPLORER_BG_LIGHT); /* rxvt with a pixmap */
    assert_int_equal(background_from_colorfgbg("15;default;0"), EXPLORER_BG_DARK);
    const char *unknown[] = {"15;default", "", "15", "0;16", "0;-1", "0;1x", ";", "0;", NULL};
    for (int i = 0; unknown[i]; i++)
        if (background_from_colorfgbg(unknown[i]) != EXPLORER_BG_AUTO)
            fail_msg("COLORFGBG '%s' was read as a background", unknown[i]);
    assert_int_equal(background_from_colorfgbg(NULL), EXPLORER_BG_AUTO);
}

/* OSC 11 answers: 4, 2 or 1 hex digits a component, BEL or ST, with the
 * device attributes' answer around them; light above luminance 0.179. */
static void test_osc11(void **state)
{
    (void)state;
    const struct {
        const char *reply;
        enum explorer_background want;
    } cases[] = {
        {"\033]11;rgb:ffff/ffff/ffff\033\\", EXPLORER_BG_LIGHT},
        {"\033]11;rgb:0000/0000/0000\a", EXPLORER_BG_DARK},
        {"\033]11;rgb:fd/f6/e3\033\\\033[?62;22c", EXPLORER_BG_LIGHT}, /* Solarized light */
        {"\033]11;rgb:1e1e/1e1e/1e1e\033\\", EXPLORER_BG_DARK},
        /* #767676 (L = 0.181) just light, #747474 (L = 0.178) just dark. */
        {"\033]11;rgb:76/76/76\a", EXPLORER_BG_LIGHT},
        {"\033]11;rgb:74/74/74\a", EXPLORER_BG_DARK},
        {"\033]11;rgb:f/f/f\a", EXPLORER_BG_LIGHT},
        {"\033[?1;2c", EXPLORER_BG_AUTO},                       /* no OSC 11: only the attributes */
        {"\033]11;rgb:ffff/ffff/ffff", EXPLORER_BG_AUTO},       /* not ended */
        {"\033]11;rgb:ffff/ffff\a", EXPLORER_BG_AUTO},          /* two components */
        {"\033]11;rgb:fffff/ffff/ffff\a", EXPLORER_BG_AUTO},    /* five digits */
        {"\033]11;rgba:ffff/ffff/ffff/ffff\a", EXPLORER_BG_AUTO},
        {"", EXPLORER_BG_AUTO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (background_from_osc11(cases[i].reply, strlen(cases[i].reply)) != cases[i].want)
            fail_msg("case %zu: read as %d, want %d", i,
                     (int)background_from_osc11(cases[i].reply, strlen(cases[i].reply)), (int)cases[i].want);
    /* Only len bytes are read: the answer cut short is not one. */
    const char *full = "\033]11;rgb:ffff/ffff/ffff\a";
    assert_int_equal(background_from_osc11(full, strlen(full) - 1), EXPLORER_BG_AUTO);
    const char *both = "\033]11;rgb:0/0/0\a\033[?62;22c";
    assert_true(reply_has_device_attributes(both, strlen(both)));
    assert_false(reply_has_device_attributes(both, strlen(both) - 1));
    assert_false(reply_has_device_attributes("\033[?62;22", 8));
    assert_false(reply_has_device_attributes("\033[62c", 5));
}

/* The Linux console and DEC terminals get ASCII; xterm, screen, tmux do not. */
static void test_term_lacks_braille(void **state)
{
    (void)state;
    const char *ascii[] = {"linux", "linux-16color", "vt100", "vt102", "vt220", "vt100-am", NULL};
    const char *braille[] = {"xterm", "xterm-256color", "screen", "tmux-256color", "linuxish", "vt52", "", NULL};
    for (int i = 0; ascii[i]; i++)
        if (!term_lacks_braille(ascii[i]))
            fail_msg("TERM=%s should get ASCII", ascii[i]);
    for (int i = 0; braille[i]; i++)
        if (term_lacks_braille(braille[i]))
            fail_msg("TERM=%s should keep braille", braille[i]);
    assert_false(term_lacks_braille(NULL));
}

/* A light background picks "light", else the first light theme; dark keeps
 * the fallback. */
static void test_theme_for_background(void **state)
{
    (void)state;
    static struct theme_set set;
    theme_set_init(&set);
    struct load_warnings w = {0};
    char err[256];
    assert_int_equal(theme_for_background(&set, EXPLORER_BG_LIGHT, 0), 0); /* no light theme: unchanged */
    const char *paper = "{\"name\": \"paper\", \"background\": \"light\", \"roles\": {}}";
    const char *light = "{\"name\": \"light\", \"background\": \"light\", \"roles\": {}}";
    assert_int_equal(theme_set_add_text(&set, paper, strlen(paper), "p.json", &w, err, sizeof err), 1);
    assert_int_equal(theme_for_background(&set, EXPLORER_BG_LIGHT, 0), 1);
    assert_int_equal(theme_set_add_text(&set, light, strlen(light), "l.json", &w, err, sizeof err), 2);
    assert_int_equal(theme_for_background(&set, EXPLORER_BG_LIGHT, 0), 2);
    assert_int_equal(theme_for_background(&set, EXPLORER_BG_DARK, 0), 0);
    assert_int_equal(theme_for_background(&set, EXPLORER_BG_AUTO, 0), 0);
    assert_int_equal(theme_for_background(NULL, EXPLORER_BG_LIGHT, 0), 0);
}

/* Feeds text to t at time at, one byte a code point; returns the bytes it
 * let through as keys. */
static const char *keys_through(struct reply_tail *t, const char *text, long long at)
{
    static char out[256];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof out; p++)
        if (!reply_tail_take(t, (unsigned char)*p, at))
            out[n++] = *p;
    out[n] = '\0';
    return out;
}

/* Issue 21 item 10: an answer to the background query cut by the 100 ms
 * wait, or by a pause inside it, has its rest dropped, never read as keys
 * ("e" opened the export prompt, "b" pinned a baseline); keys after its end
 * are keys; a terminal that never finishes gives its keys back after
 * REPLY_TAIL_MS or REPLY_TAIL_MAX code points. */
static void test_reply_tail(void **state)
{
    (void)state;
    struct reply_tail t = {0};
    assert_string_equal(keys_through(&t, "be", 0), "be"); /* nothing pending: keys */
    /* The wait ended inside the OSC 11 answer, after "rg". */
    const char head[] = "\033]11;rg";
    reply_tail_after(&t, head, sizeof head - 1, 1000);
    assert_int_equal(t.state, REPLY_TAIL_OSC);
    assert_string_equal(keys_through(&t, "b:1e1e/1e1e/1e1e\033\\", 1200), "");
    assert_int_equal(t.state, REPLY_TAIL_NONE);
    assert_string_equal(keys_through(&t, "q", 1300), "q");
    /* Ended by BEL; the device attributes cut after "ESC [ ?". */
    reply_tail_after(&t, "\033]11;rgb:0/0/0\a\033[?", strlen("\033]11;rgb:0/0/0\a\033[?"), 0);
    assert_int_equal(t.state, REPLY_TAIL_CSI);
    assert_string_equal(keys_through(&t, "62;cb", 10), "b");
    /* Cut between the ST's two bytes, and a lone ESC as the last byte read. */
    reply_tail_after(&t, "\033]11;rgb:0/0/0\033", strlen("\033]11;rgb:0/0/0\033"), 0);
    assert_int_equal(t.state, REPLY_TAIL_OSC_ESC);
    assert_string_equal(keys_through(&t, "\\e", 10), "e");
    reply_tail_after(&t, "\033", 1, 0);
    assert_int_equal(t.state, REPLY_TAIL_ESC);
    assert_string_equal(keys_through(&t, "[?62;ce", 10), "e");
    reply_tail_after(&t, "\033", 1, 0);
    assert_string_equal(keys_through(&t, "e", 10), "e"); /* ESC then a key: the key */
    /* Whole answers leave nothing pending. */
    reply_tail_after(&t, "\033]11;rgb:0/0/0\033\\\033[?62;c", strlen("\033]11;rgb:0/0/0\033\\\033[?62;c"), 0);
    assert_int_equal(t.state, REPLY_TAIL_NONE);
    /* Given up: after the time, and after the bound. */
    reply_tail_begin(&t, REPLY_TAIL_OSC, 0);
    assert_string_equal(keys_through(&t, "e", REPLY_TAIL_MS + 1), "e");
    assert_int_equal(t.state, REPLY_TAIL_NONE);
    reply_tail_begin(&t, REPLY_TAIL_OSC, 0);
    char many[REPLY_TAIL_MAX + 2];
    memset(many, 'x', REPLY_TAIL_MAX);
    many[REPLY_TAIL_MAX] = 'e';
    many[REPLY_TAIL_MAX + 1] = '\0';
    assert_string_equal(keys_through(&t, many, 5), "e");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colorfgbg),
        cmocka_unit_test(test_osc11),
        cmocka_unit_test(test_term_lacks_braille),
        cmocka_unit_test(test_theme_for_background),
        cmocka_unit_test(test_reply_tail),
    };
    return cmocka_run_group_tests_name("termbg", tests, NULL, NULL);
}
