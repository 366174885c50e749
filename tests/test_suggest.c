/* test_suggest.c — the weighted edit distance behind every "did you mean",
 * and which names it offers: each figure worked by hand from the weights
 * (insert 1, delete 3, substitute 2, transpose 1). */
#include "testutil.h"

#include <string.h>

#include "scenariofile.h"
#include "suggest.h"

static void test_distance_by_hand(void **state)
{
    (void)state;
    assert_int_equal(name_distance("chips", "chips"), 0);
    assert_int_equal(name_distance("chps", "chips"), 1);  /* the i left out: one insertion */
    assert_int_equal(name_distance("chps", "chip"), 4);   /* two substitutions (or insert i, delete s) */
    assert_int_equal(name_distance("h10", "h100"), 1);    /* a 0 left out */
    assert_int_equal(name_distance("h10", "h200"), 3);    /* 1 -> 2, then a 0 left out */
    assert_int_equal(name_distance("h10", "b200"), 5);
    assert_int_equal(name_distance("bacth", "batch"), 1); /* ct swapped: one transposition */
    assert_int_equal(name_distance("batchh", "batch"), 3); /* a letter too many: one deletion */
    assert_int_equal(name_distance("", "abc"), 3);
    assert_int_equal(name_distance("abc", ""), 9);
    assert_int_equal(name_distance(NULL, NULL), 0);
    assert_int_equal(name_distance("ab", "ba"), 1);
    assert_int_equal(name_distance("ca", "abc"), 5); /* two substitutions and an insertion */
}

/* Writes the suggestion for given among names. */
static const char *suggest(const char *given, const char *const *names)
{
    static char out[300];
    struct suggestions sg;
    suggest_init(&sg, given);
    for (; *names; names++)
        suggest_offer(&sg, *names);
    return suggest_text(&sg, "", out, sizeof out);
}

static void test_which_names_are_offered(void **state)
{
    (void)state;
    const char *chips[] = {"a100-40", "a100-80", "h100", "h100-pcie", "h100-nvl", "h200", "b200", "gb200", "l4",
                           "tpu-v5e", "tpu-v5p", NULL};
    assert_string_equal(suggest("h10", chips), "did you mean h100, h200?");
    assert_string_equal(suggest("H-10", chips), "did you mean h100, h200?"); /* case and dashes ignored */
    assert_string_equal(suggest("tpu-v5", chips), "did you mean tpu-v5e, tpu-v5p?");
    assert_string_equal(suggest("zzz", chips), "");
    assert_string_equal(suggest("", chips), "");
    const char *models[] = {"guide-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "mixtral-8x7b", NULL};
    /* None near: the names that start with it. */
    assert_string_equal(suggest("llama", models), "did you mean llama-3.1-8b, llama-3.1-70b, llama-3.1-405b?");
    assert_string_equal(suggest("mixtral", models), "did you mean mixtral-8x7b?");
    const char *flags[] = {"chip", "chips", "tp", "pp", "ep", NULL};
    assert_string_equal(suggest("chps", flags), "did you mean chips?");
    /* At most RT_SUGGEST_MAX, the closest first; a name offered twice counts once. */
    const char *many[] = {"ab", "abc", "abcd", "abx", "aby", "abz", "abc", NULL};
    assert_string_equal(suggest("abc", many), "did you mean abc, abcd, abx, aby?");
    char small[12];
    struct suggestions sg;
    suggest_init(&sg, "h10");
    suggest_offer(&sg, "h100");
    assert_string_equal(suggest_text(&sg, "--", small, sizeof small), "did you mea"); /* cut, terminated */
}

/* A scenario file's chip name is matched too. */
static void test_scenario_file_chip(void **state)
{
    (void)state;
    struct scenario s;
    char err[300];
    const char *text = "{\"version\": 1, \"chip\": \"h10\"}";
    assert_int_equal(scenario_from_json(text, strlen(text), "s.json", &s, NULL, err, sizeof err), -1);
    assert_string_equal(err, "s.json: 'chip' \"h10\" is not a built-in chip (did you mean h100, h20, h200, h800?); write the chip "
                             "out as an object");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_by_hand),
        cmocka_unit_test(test_which_names_are_offered),
        cmocka_unit_test(test_scenario_file_chip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
