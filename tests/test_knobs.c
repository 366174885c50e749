/* test_knobs.c — the knob registry (core/estimate/knobs.h) against what it
 * promises: every row's flag is in --help and the man page, every file key
 * is written and read back, the explorer's knobs have their rows, and a
 * scenario file written and read back is the same scenario. */
#include <stdbool.h>

#include "testutil.h"

#include "cli.h"
#include "knobs.h"
#include "scenariofile.h"
#include "sliders.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    for (int ch; (ch = fgetc(f)) != EOF;)
        fputc(ch, mem);
    fclose(mem);
    fclose(f);
    return text;
}

/* The table is well formed: flags and keys unique, the numbers inside
 * struct scenario, and a plain flag a number. */
static void test_rows_are_well_formed(void **state)
{
    (void)state;
    size_t n;
    const struct knob *k = knob_table(&n);
    assert_true(n >= 60);
    for (size_t i = 0; i < n; i++) {
        assert_true(strncmp(k[i].flag, "--", 2) == 0);
        assert_ptr_equal(knob_by_flag(k[i].flag, 0), &k[i]);
        if (k[i].key)
            assert_ptr_equal(knob_by_key(k[i].key), &k[i]);
        if (k[i].explorer)
            assert_ptr_equal(knob_by_explorer(k[i].explorer), &k[i]);
        if (k[i].value != KNOB_OTHER)
            assert_true(k[i].offset + (k[i].value == KNOB_WHOLE ? sizeof(int64_t) : sizeof(double)) <=
                        sizeof(struct scenario));
        if (k[i].plain || k[i].positive)
            assert_true(k[i].value != KNOB_OTHER);
        assert_non_null(k[i].unit);
    }
    /* a flag's text is matched whole, not by a prefix ("--ep" is not "--ep-imbalance") */
    assert_string_equal(knob_by_flag("--ep-imbalance=2", 14)->flag, "--ep-imbalance");
    assert_string_equal(knob_by_flag("--ep", 0)->flag, "--ep");
    assert_null(knob_by_flag("--no-such-knob", 0));
}

/* Every row's flag is in --help and in the man page (as the man page
 * writes a dash: "\-"). */
static void test_every_flag_is_documented(void **state)
{
    (void)state;
    const char *usage = cli_usage();
    char *man = slurp("rooftop.1");
    size_t n;
    const struct knob *k = knob_table(&n);
    for (size_t i = 0; i < n; i++) {
        char want[80], roff[120];
        snprintf(want, sizeof want, "%s ", k[i].flag);
        const char *u = strstr(usage, k[i].flag);
        bool whole_word = false;
        for (; u && !whole_word; u = strstr(u + 1, k[i].flag)) {
            char after = u[strlen(k[i].flag)];
            whole_word = after == ' ' || after == '\n' || after == ',' || after == '=' || after == '\0';
        }
        if (!whole_word)
            fail_msg("--help does not list %s", k[i].flag);
        size_t w = 0;
        for (const char *c = k[i].flag; *c && w + 3 < sizeof roff; c++) {
            if (*c == '-')
                roff[w++] = '\\';
            roff[w++] = *c;
        }
        roff[w] = '\0';
        if (!strstr(man, roff))
            fail_msg("the man page does not list %s (as %s)", k[i].flag, roff);
    }
    free(man);
}

/* Every number with a file key is written to a scenario file, and the file
 * read back gives the same numbers; the written file read and written again
 * is the same text (tests/fixtures/scenarios/review-b.json: layouts,
 * speculative decoding, a prefill pool). */
static void test_scenario_file_round_trip(void **state)
{
    (void)state;
    char *text = slurp("tests/fixtures/scenarios/review-b.json");
    struct scenario s, back;
    struct load_warnings w = {0};
    char err[400];
    if (scenario_from_json(text, strlen(text), "review-b.json", &s, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(text);
    char *once = scenario_to_json(&s);
    size_t n;
    const struct knob *k = knob_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (!k[i].key)
            continue;
        char quoted[80];
        snprintf(quoted, sizeof quoted, "\"%s\":", k[i].key);
        if (!strstr(once, quoted))
            fail_msg("a written scenario has no key %s (%s)", k[i].key, k[i].flag);
    }
    if (scenario_from_json(once, strlen(once), "once.json", &back, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (size_t i = 0; i < n; i++) {
        if (!k[i].key || k[i].value == KNOB_OTHER)
            continue;
        const char *a = (const char *)&s + k[i].offset, *b = (const char *)&back + k[i].offset;
        if (memcmp(a, b, k[i].value == KNOB_WHOLE ? sizeof(int64_t) : sizeof(double)) != 0)
            fail_msg("%s (%s) did not come back the same", k[i].key, k[i].flag);
    }
    char *twice = scenario_to_json(&back);
    assert_string_equal(once, twice);
    free(once);
    free(twice);
}

/* The explorer's knobs each have a row, and its messages name the knob
 * for the flag (the model knob sets a whole model: no row of its own). */
static void test_explorer_knobs_have_rows(void **state)
{
    (void)state;
    for (int i = 0; i < SLIDER_COUNT; i++) {
        const char *name = slider_name((enum slider_id)i);
        if (strcmp(name, "model") == 0)
            continue;
        if (!knob_by_explorer(name))
            fail_msg("the explorer's knob '%s' has no row", name);
    }
    char out[200];
    assert_string_equal(slider_message("--kv-heads 3: kv heads must divide 64 heads", out, sizeof out),
                        "kv heads 3: kv heads must divide 64 heads");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_are_well_formed),
        cmocka_unit_test(test_every_flag_is_documented),
        cmocka_unit_test(test_scenario_file_round_trip),
        cmocka_unit_test(test_explorer_knobs_have_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
