/* test_diff.c — two JSON trees and two scenarios compared key by key (diff.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "diff.h"
#include "units.h"

/* The entry of list with key, or a failure. */
static const cJSON *entry(const cJSON *list, const char *key)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring, key) == 0)
            return e;
    }
    fail_msg("no entry '%s'", key);
    return NULL;
}

static double num(const cJSON *e, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, field);
    if (!cJSON_IsNumber(v))
        fail_msg("'%s' is not a number", field);
    return v->valuedouble;
}

static void test_trees_flatten_and_compare(void **state)
{
    (void)state;
    cJSON *a = cJSON_Parse("{\"n\": 2, \"same\": 1, \"s\": \"x\", \"o\": {\"k\": [1, {\"z\": 0}]}, \"gone\": true,"
                           " \"e\": {}}");
    cJSON *b = cJSON_Parse("{\"n\": 5, \"same\": 1, \"s\": \"y\", \"o\": {\"k\": [1, {\"z\": 3}]}, \"new\": null,"
                           " \"e\": {}}");
    cJSON *d = diff_trees(a, b);
    assert_non_null(d);
    /* n, s, o.k[1].z, gone (a only), new (b only): the same leaves are left out. */
    assert_int_equal(cJSON_GetArraySize(d), 5);
    assert_string_equal(cJSON_GetArrayItem(d, 0)->child->valuestring, "n");
    assert_string_equal(cJSON_GetArrayItem(d, 4)->child->valuestring, "new"); /* b's extra keys last */
    const cJSON *n = entry(d, "n");
    ASSERT_NEAR(num(n, "change"), 3.0, 0.0);
    ASSERT_NEAR(num(n, "relative"), 1.5, 1e-15);
    const cJSON *z = entry(d, "o.k[1].z");
    ASSERT_NEAR(num(z, "change"), 3.0, 0.0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(z, "relative"))); /* from 0: no ratio */
    const cJSON *s = entry(d, "s");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(s, "b")->valuestring, "y");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(s, "change")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(entry(d, "gone"), "absent")->valuestring, "b");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(entry(d, "new"), "absent")->valuestring, "a");
    cJSON_Delete(d);
    /* A tree against itself: nothing differs. */
    d = diff_trees(a, a);
    assert_int_equal(cJSON_GetArraySize(d), 0);
    cJSON_Delete(d);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void test_render_names_inputs_and_figures(void **state)
{
    (void)state;
    struct scenario sa, sb;
    struct analysis aa, ab;
    char err[300];
    scenario_default(&sa);
    sb = sa;
    sb.batch = 8;
    assert_int_equal(analyze(&sa, &aa, err, sizeof err), 0);
    assert_int_equal(analyze(&sb, &ab, err, sizeof err), 0);
    char *json = diff_render(RT_FORMAT_JSON, "a.json", &sa, &aa, "b.json", &sb, &ab);
    assert_non_null(json);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(root, "inputs");
    assert_int_equal(cJSON_GetArraySize(inputs), 1);
    ASSERT_NEAR(num(entry(inputs, "batch"), "change"), 7.0, 0.0);
    const cJSON *figures = cJSON_GetObjectItemCaseSensitive(root, "figures");
    const cJSON *total = entry(figures, "latency.total_s");
    ASSERT_NEAR(num(total, "change"), num(total, "b") - num(total, "a"), 1e-12);
    cJSON_Delete(root);
    free(json);

    char *text = diff_render(RT_FORMAT_TEXT, NULL, &sa, &aa, NULL, &sb, &ab);
    assert_non_null(strstr(text, "\nInputs that differ\n  batch: 1 -> 8  (+7, +700.0%)\n\nFigures that differ\n"));
    free(text);
    char *md = diff_render(RT_FORMAT_MARKDOWN, NULL, &sa, &aa, NULL, &sb, &ab);
    assert_non_null(strstr(md, "| input | A | B | change |\n| --- | ---: | ---: | ---: |\n| batch | 1 | 8 | +7 (+700.0%) |\n"));
    free(md);
    /* The same scenario twice: nothing differs, and the text says so. */
    text = diff_render(RT_FORMAT_TEXT, NULL, &sa, &aa, NULL, &sa, &aa);
    assert_non_null(strstr(text, "0 inputs and 0 figures differ"));
    assert_non_null(strstr(text, "Inputs that differ\n  none\n"));
    free(text);
    assert_null(diff_render(RT_FORMAT_CSV, NULL, &sa, &aa, NULL, &sb, &ab));
}

/* Rows are matched by name, notes as a set, an object against null is one
 * entry, and text shows numbers in the unit their key names. Speculative
 * decoding on in B only: B gains decode.speculative (an object where A has
 * null) and notes; the placements keep their names ("decode:decode"). */
static void test_named_rows_sets_and_units(void **state)
{
    (void)state;
    struct scenario sa, sb;
    struct analysis aa, ab;
    char err[300];
    scenario_default(&sa);
    sb = sa;
    sb.spec_tokens = 4;
    sb.spec_accept = 0.7;
    assert_int_equal(analyze(&sa, &aa, err, sizeof err), 0);
    assert_int_equal(analyze(&sb, &ab, err, sizeof err), 0);
    char *json = diff_render(RT_FORMAT_JSON, NULL, &sa, &aa, NULL, &sb, &ab);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    const cJSON *figures = cJSON_GetObjectItemCaseSensitive(root, "figures");
    const cJSON *spec = entry(figures, "decode.speculative");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(spec, "a")));
    assert_true(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(spec, "b")));
    assert_null(cJSON_GetObjectItemCaseSensitive(spec, "absent")); /* both sides have the key */
    int added_notes = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, figures)
    {
        const char *key = cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring;
        assert_null(strstr(key, "notes[0]")); /* never by position */
        if (strcmp(key, "notes[]") == 0) {
            assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "absent")->valuestring, "a");
            added_notes++;
        }
        assert_null(strstr(key, "placement[1]"));
    }
    assert_int_equal(added_notes, ab.note_count - aa.note_count);
    cJSON_Delete(root);
    free(json);

    char *text = diff_render(RT_FORMAT_TEXT, NULL, &sa, &aa, NULL, &sb, &ab);
    assert_non_null(strstr(text, "\n  decode.speculative: null -> {"));
    char want[200], t1[32], t2[32], t3[32];
    snprintf(want, sizeof want, "\n  latency.decode_s: %s -> %s  (-%s, ", format_seconds(t1, sizeof t1, aa.latency.decode_s),
             format_seconds(t2, sizeof t2, ab.latency.decode_s),
             format_seconds(t3, sizeof t3, aa.latency.decode_s - ab.latency.decode_s));
    assert_true(ab.latency.decode_s < aa.latency.decode_s);
    if (!strstr(text, want))
        fail_msg("no '%s' in the text diff", want + 1);
    free(text);

    /* Text lists no change that prints as nothing ("0.0 us -> 0.0 us
     * (+0.0 us, +700.0%)": floating-point residue of a zero term); it
     * counts them, and JSON keeps them. */
    sb = sa;
    sb.batch = 8;
    assert_int_equal(analyze(&sb, &ab, err, sizeof err), 0);
    text = diff_render(RT_FORMAT_TEXT, NULL, &sa, &aa, NULL, &sb, &ab);
    assert_null(strstr(text, "(+0.0 us,"));
    assert_null(strstr(text, "(-0.0 us,"));
    assert_non_null(strstr(text, " more differ only below the digits shown; --format=json lists them)\n"));
    free(text);

    /* One input: singular. */
    sb = sa;
    sb.batch = 2;
    assert_int_equal(analyze(&sb, &ab, err, sizeof err), 0);
    text = diff_render(RT_FORMAT_TEXT, NULL, &sa, &aa, NULL, &sb, &ab);
    assert_non_null(strstr(text, "; 1 input and "));
    assert_non_null(strstr(text, "\n  placement[decode:decode].intensity_flop_per_byte: "));
    free(text);
    /* A share in percent, its change in points: MFU a -> b, on 16 H100s (on one
     * TPU v5e the training state does not fit: no MFU on either side). */
    sa.chip = *chip_find("h100");
    sa.chips = 16;
    sb = sa;
    sb.batch = 2;
    assert_int_equal(analyze(&sa, &aa, err, sizeof err), 0);
    assert_int_equal(analyze(&sb, &ab, err, sizeof err), 0);
    text = diff_render(RT_FORMAT_TEXT, NULL, &sa, &aa, NULL, &sb, &ab);
    char mfu[120];
    snprintf(mfu, sizeof mfu, "\n  training.mfu: %.1f%% -> %.1f%%  (%+.1f pts, ", aa.training.mfu * 100.0,
             ab.training.mfu * 100.0, (ab.training.mfu - aa.training.mfu) * 100.0);
    assert_true(aa.training.mfu != ab.training.mfu);
    if (!strstr(text, mfu))
        fail_msg("no '%s' in the diff", mfu + 1);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trees_flatten_and_compare),
        cmocka_unit_test(test_render_names_inputs_and_figures),
        cmocka_unit_test(test_named_rows_sets_and_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
