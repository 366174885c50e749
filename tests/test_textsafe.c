/* test_textsafe.c — control bytes made visible: what passes, what is
 * escaped, and that a cut never splits an escape or a UTF-8 character. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "textsafe.h"

/* ESC, BEL, DEL, other C0 bytes and a newline (when asked) become \xNN;
 * printable ASCII and UTF-8 pass unchanged. */
static void test_controls_become_visible(void **state)
{
    (void)state;
    char out[256];
    assert_string_equal(text_safe(out, sizeof out, "Evil\x1b[2J\x1b]0;pwned\x07", false),
                        "Evil\\x1b[2J\\x1b]0;pwned\\x07");
    assert_string_equal(text_safe(out, sizeof out, "a\tb\rc\x7f" "d\x01", false), "a\\x09b\\x0dc\\x7fd\\x01");
    assert_string_equal(text_safe(out, sizeof out, "two\nlines", false), "two\\x0alines");
    assert_string_equal(text_safe(out, sizeof out, "two\nlines", true), "two\nlines");
    assert_string_equal(text_safe(out, sizeof out, "70 GB · 16 × tpu-v5e — ≠ ⠅ 中", false),
                        "70 GB · 16 × tpu-v5e — ≠ ⠅ 中");
    assert_string_equal(text_safe(out, sizeof out, NULL, false), "");
    assert_false(text_needs_escape("plain · text", false));
    assert_true(text_needs_escape("bell\a", false));
    assert_false(text_needs_escape("a\nb", true));
    assert_true(text_needs_escape("a\nb", false));
}

/* C1 controls in UTF-8 (U+009B is CSI to many terminals) and bytes that are
 * not UTF-8 (a lone 0x9B is CSI to an 8-bit terminal) are escaped; U+00A0
 * onwards is text. */
static void test_c1_and_invalid_bytes(void **state)
{
    (void)state;
    char out[256];
    assert_string_equal(text_safe(out, sizeof out, "x\xc2\x9b" "31m\xc2\x80y", false), "x\\xc2\\x9b31m\\xc2\\x80y");
    assert_string_equal(text_safe(out, sizeof out, "nb\xc2\xa0sp", false), "nb\xc2\xa0sp");
    assert_string_equal(text_safe(out, sizeof out, "lone\x9b" "31m", false), "lone\\x9b31m");
    assert_string_equal(text_safe(out, sizeof out, "cut\xe2\x80", false), "cut\\xe2\\x80");       /* truncated sequence */
    assert_string_equal(text_safe(out, sizeof out, "over\xc0\xaf", false), "over\\xc0\\xaf");     /* overlong '/' */
    assert_string_equal(text_safe(out, sizeof out, "sur\xed\xa0\x80", false), "sur\\xed\\xa0\\x80"); /* surrogate */
    assert_int_equal(text_safe_len("x\xc2\x9by", false), strlen("x\\xc2\\x9by"));
    /* Bidirectional overrides reorder what the terminal shows (found by a newcomer: U+202E printed raw);
     * other characters of the same blocks (an en dash, U+2013; U+2065, unassigned) pass. */
    assert_string_equal(text_safe(out, sizeof out, "a\xe2\x80\xae" "b", false), "a\\xe2\\x80\\xae" "b");
    assert_string_equal(text_safe(out, sizeof out, "a\xe2\x81\xa6" "b\xe2\x80\x8f" "c\xd8\x9c", false),
                        "a\\xe2\\x81\\xa6" "b\\xe2\\x80\\x8f" "c\\xd8\\x9c");
    assert_string_equal(text_safe(out, sizeof out, "1\xe2\x80\x93" "2\xe2\x81\xa5", false), "1\xe2\x80\x93" "2\xe2\x81\xa5");
    char *json = strdup("{\"name\": \"a\xe2\x80\xae" "b\"}");
    json = json_safe_take(json);
    assert_string_equal(json, "{\"name\": \"a\\u202e" "b\"}");
    free(json);
}

/* A buffer too small cuts before an escape or a character, never inside. */
static void test_truncation_keeps_escapes_whole(void **state)
{
    (void)state;
    char out[8];
    assert_string_equal(text_safe(out, sizeof out, "abcde\x1b", false), "abcde"); /* "\x1b" would not fit */
    assert_string_equal(text_safe(out, sizeof out, "abcdef×", false), "abcdef"); /* × is two bytes */
    char one[1] = {'z'};
    assert_string_equal(text_safe(one, sizeof one, "abc", false), "");
}

/* Whole texts: a clean one is handed back as it is; a dirty one is copied
 * with newlines kept. JSON: DEL and C1 become \u escapes, invalid bytes
 * \ufffd, cJSON's own layout stays. */
static void test_take(void **state)
{
    (void)state;
    char *clean = strdup("line one\nline two\n");
    char *same = text_safe_take(clean);
    assert_ptr_equal(same, clean);
    free(same);
    char *t = text_safe_take(strdup("chip \x1b[2J\nnext\n"));
    assert_string_equal(t, "chip \\x1b[2J\nnext\n");
    free(t);
    assert_null(text_safe_take(NULL));
    char *j = json_safe_take(strdup("{\n\t\"name\":\t\"a\x7f" "b\xc2\x9b" "c\xff" "d\\u001b\"\n}"));
    assert_string_equal(j, "{\n\t\"name\":\t\"a\\u007fb\\u009bc\\ufffdd\\u001b\"\n}");
    free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls_become_visible),
        cmocka_unit_test(test_c1_and_invalid_bytes),
        cmocka_unit_test(test_truncation_keeps_escapes_whole),
        cmocka_unit_test(test_take),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
