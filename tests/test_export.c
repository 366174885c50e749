/* test_export.c — the report with its plot, and OSC 52 (export.h). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "export.h"

static void test_base64_known_values(void **state)
{
    (void)state;
    static const char *const cases[][2] = {{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
                                           {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *b = export_base64((const unsigned char *)cases[i][0], strlen(cases[i][0]));
        assert_string_equal(b, cases[i][1]);
        free(b);
    }
}

/* The OSC 52 bytes decode back to exactly the markdown the explorer exports. */
static void test_osc52_decodes_to_the_markdown(void **state)
{
    (void)state;
    struct scenario s;
    struct analysis a;
    char err[256];
    scenario_default(&s);
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    char *md = export_report(RT_FORMAT_MARKDOWN, &s, &a, true);
    assert_non_null(md);
    assert_non_null(strstr(md, "## Roofline"));
    bool too_long = true;
    char *seq = export_osc52(md, EXPORT_OSC52_MAX, &too_long);
    assert_non_null(seq);
    assert_false(too_long);
    size_t n = strlen(seq);
    assert_memory_equal(seq, "\033]52;c;", 7);
    assert_int_equal(seq[n - 1], '\a');
    char *back = test_base64_decode(seq + 7, n - 8);
    assert_non_null(back);
    assert_string_equal(back, md);
    free(back);
    free(seq);

    /* Over the limit: refused, and said so, never cut. */
    seq = export_osc52(md, strlen(md) / 2, &too_long);
    assert_null(seq);
    assert_true(too_long);
    free(md);
}

/* With a baseline pinned, the export carries the comparison: the report,
 * then every input and figure that differs with the baseline as A. */
static void test_review_carries_the_baseline(void **state)
{
    (void)state;
    struct scenario s, base;
    struct analysis a, ab;
    char err[256];
    scenario_default(&base);
    s = base;
    s.batch = 8;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_int_equal(analyze(&base, &ab, err, sizeof err), 0);
    char *plain = export_report(RT_FORMAT_MARKDOWN, &s, &a, true);
    char *alone = export_review(&s, &a, NULL, NULL);
    assert_string_equal(alone, plain); /* nothing pinned: the report with its plot */
    char *review = export_review(&s, &a, &base, &ab);
    assert_int_equal(strncmp(review, plain, strlen(plain)), 0);
    const char *tail = review + strlen(plain);
    assert_int_equal(strncmp(tail, "\n## Against the pinned baseline\n\nA: `the baseline`, B: `this scenario`; 1 input and ",
                             84), 0);
    assert_non_null(strstr(tail, "\n| batch | 1 | 8 | +7 (+700.0%) |\n"));
    assert_null(strstr(tail, "# rooftop diff"));
    free(plain);
    free(alone);
    free(review);
}

static void test_plot_text_is_ascii(void **state)
{
    (void)state;
    struct scenario s;
    struct analysis a;
    char err[256];
    scenario_default(&s);
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    char *pic = export_plot_text(&a, 72, 20);
    assert_non_null(pic);
    int lines = 0;
    for (const char *p = pic; *p; p++) {
        if ((unsigned char)*p >= 0x80)
            fail_msg("a non-ASCII byte in the plot:\n%s", pic);
        lines += *p == '\n';
    }
    assert_int_equal(lines, 20);
    assert_non_null(strstr(pic, "FLOP/byte"));
    free(pic);
}

/* Issue 21 item 11: 'y' says what was sent and where it may stop, never
 * that it arrived: inside tmux (its default set-clipboard external ignores
 * what programs send, tmux(1)), inside GNU screen (passes none on), and
 * elsewhere (the terminal must allow OSC 52); the long form where it fits. */
static void test_osc52_words_never_claim_arrival(void **state)
{
    (void)state;
    char b[256];
    assert_string_equal(export_osc52_words(b, sizeof b, 8658, "/tmp/tmux-1000/default,42,0", NULL, "screen", 200),
                        "sent the report (8658 bytes of markdown) as OSC 52; inside tmux it reaches a clipboard only "
                        "with set -g set-clipboard on");
    assert_string_equal(export_osc52_words(b, sizeof b, 8658, "/tmp/tmux-1000/default,42,0", NULL, "screen", 80),
                        "sent 8658 bytes as OSC 52; tmux passes it on only with set-clipboard on");
    assert_string_equal(export_osc52_words(b, sizeof b, 10, NULL, "1234.pts-0.host", "screen", 80),
                        "sent 10 bytes as OSC 52; screen passes none on: e exports");
    assert_string_equal(export_osc52_words(b, sizeof b, 10, "", NULL, "screen.xterm-256color", 200),
                        "sent the report (10 bytes of markdown) as OSC 52; GNU screen passes none on: e exports it "
                        "to a file");
    assert_string_equal(export_osc52_words(b, sizeof b, 10, NULL, NULL, "xterm-256color", 80),
                        "sent 10 bytes as OSC 52: copied if the terminal allows it");
    assert_string_equal(export_osc52_words(b, sizeof b, 10, NULL, NULL, NULL, 200),
                        "sent the report (10 bytes of markdown) to the terminal as OSC 52: on the clipboard if the "
                        "terminal allows OSC 52");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base64_known_values),
        cmocka_unit_test(test_osc52_decodes_to_the_markdown),
        cmocka_unit_test(test_osc52_words_never_claim_arrival),
        cmocka_unit_test(test_plot_text_is_ascii),
        cmocka_unit_test(test_review_carries_the_baseline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
