/* test_tour.c — the guided tour: loading, each step's scenario, scoring (tour.h). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "tour.h"

static const char *const knobs[] = {"batch", "model", "kv heads", "chips", "pp", "ep", "precision", "chip",
                                    "context", "prefill", "decode", "budget", "overhead", "mfu", NULL};

/* The built-in tour, parsed; fails the test when it does not load. */
static struct tour *builtin(void)
{
    struct tour *t = malloc(sizeof *t);
    assert_non_null(t);
    char err[512] = "";
    const char *text = tour_builtin_text();
    if (tour_parse(text, strlen(text), "built-in", knobs, t, NULL, err, sizeof err) != 0)
        fail_msg("the built-in tour does not load: %s", err);
    return t;
}

/* The step whose title is title. */
static const struct tour_step *step(const struct tour *t, const char *title)
{
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->steps[i].title, title) == 0)
            return &t->steps[i];
    fail_msg("no step '%s'", title);
    return NULL;
}

/* The line tour_score gives, or a failure with its error. */
static const char *scored(const struct tour_step *st, const char *guess, struct tour_score *sc)
{
    char err[256];
    if (tour_score(st, guess, false, sc, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", guess, err);
    return sc->line;
}

static void test_builtin_tour_loads_and_every_step_analyses(void **state)
{
    (void)state;
    struct tour *t = builtin();
    assert_int_equal(t->count, 14);
    assert_string_equal(t->title, "The guide's roofline, MFU and co-design");
    for (size_t i = 0; i < t->count; i++) {
        struct analysis a = must_analyze(&t->steps[i].scenario);
        struct tour_value v;
        char err[256];
        if (tour_figure(&t->steps[i].scenario, &a, t->steps[i].figure, &v, err, sizeof err) != 0)
            fail_msg("step %zu: %s", i, err);
    }
    /* Only the keys a step names change from the default. */
    const struct tour_step *gqa = step(t, "The KV cache, with MHA");
    struct scenario def;
    scenario_default(&def);
    assert_int_equal(gqa->scenario.model.kv_heads, 64);
    assert_int_equal(gqa->scenario.chips, 8);
    assert_string_equal(gqa->scenario.chip.key, "h100");
    assert_int_equal(gqa->scenario.batch, def.batch);
    assert_true(gqa->scenario.model.stated_params == 70e9);
    assert_string_equal(gqa->knob, "kv heads");
    free(t);
}

static void test_the_guides_figures_come_out_of_the_steps(void **state)
{
    (void)state;
    struct tour *t = builtin();
    struct tour_score sc;
    assert_string_equal(scored(step(t, "The ridge point"), "300", &sc), "you said 300; it is 295.5: right");
    assert_string_equal(scored(step(t, "The prefill column"), "5.8", &sc), "you said 5.8 s; it is 5.822 s (napkin): right");
    assert_string_equal(scored(step(t, "The decode column"), "2", &sc), "you said 2 s; it is 21.880 s (napkin): 10.9\u00d7 low");
    assert_string_equal(scored(step(t, "Batch: toward the ridge"), "28.7", &sc),
                        "you said 28.7; it is 28.7: right");
    assert_string_equal(scored(step(t, "The KV cache, with MHA"), "22", &sc), "you said 22; it is 23: right");
    assert_string_equal(scored(step(t, "GQA: the one integer"), "23", &sc), "you said 23; it is 186: 8.1\u00d7 low");
    assert_string_equal(scored(step(t, "Chips for the budget"), "16", &sc), "you said 16; it is 64 (napkin): 4.0\u00d7 low");
    assert_string_equal(scored(step(t, "Precision"), "500ms", &sc), "you said 500ms; it is 1.116 s (napkin): 2.2\u00d7 low");
    assert_string_equal(scored(step(t, "The MFU budget"), "35%", &sc), "you said 35%; it is 35.7%: right");
    assert_string_equal(scored(step(t, "Tile co-design"), "99", &sc), "you said 99; it is 50.4%: 2.0\u00d7 high");
    free(t);
}

/* Issue 21 item 2: a step that changes the shape follows the command line's
 * rule. `rooftop --report=json --d-ff 129` gives model.params 14435885056
 * (counted from the shape, guide-70b's stated 70e9 dropped); step 14 sets
 * d_ff 129 and must give the same N and say why. A step changing only the
 * KV heads keeps the stated 70e9 and says so. */
static void test_a_shape_change_drops_the_stated_count_as_the_cli_does(void **state)
{
    (void)state;
    struct tour *t = builtin();
    const struct tour_step *tile = step(t, "Tile co-design");
    assert_int_equal(tile->scenario.model.d_ff, 129);
    assert_true(tile->scenario.model.stated_params == 0.0);
    struct analysis a = must_analyze(&tile->scenario);
    assert_true(a.params == 14435885056.0);
    assert_true(tile->params == a.params); /* the N the tour panel states */
    const struct model_assumption *said = NULL;
    for (int i = 0; i < tile->scenario.model.assumption_count; i++)
        if (strcmp(tile->scenario.model.assumptions[i].key, "stated_params") == 0)
            said = &tile->scenario.model.assumptions[i];
    assert_non_null(said);
    assert_string_equal(said->value, "dropped");
    assert_string_equal(said->why, "d_ff changed the shape: N is counted from the shape, not guide-70b's stated 70.0B");
    const struct tour_step *mha = step(t, "The KV cache, with MHA");
    struct analysis b = must_analyze(&mha->scenario);
    assert_true(b.params == 70e9);
    assert_string_equal(mha->scenario.model.assumptions[mha->scenario.model.assumption_count - 1].why,
                        "kv_heads changes the KV cache only: N stays guide-70b's stated 70.0B, as the guide's GQA "
                        "comparisons hold it");
    free(t);
}

static void test_a_bound_guess_is_right_or_wrong(void **state)
{
    (void)state;
    struct tour *t = builtin();
    struct tour_score sc;
    const struct tour_step *decode = step(t, "Where decode sits");
    assert_string_equal(scored(decode, "memory", &sc), "you said memory; it is memory-bound: right");
    assert_true(sc.right);
    assert_string_equal(scored(decode, " Compute ", &sc), "you said compute; it is memory-bound: wrong");
    assert_false(sc.right);
    assert_string_equal(scored(decode, "mem", &sc), "you said memory; it is memory-bound: right");
    assert_string_equal(scored(step(t, "Where prefill sits"), "c", &sc),
                        "you said compute; it is compute-bound: right");
    assert_string_equal(scored(step(t, "The decode wall"), "compute", &sc),
                        "you said compute; it is memory-bound: wrong");
    char err[256];
    assert_int_equal(tour_score(decode, "fast", false, &sc, err, sizeof err), -1);
    assert_string_equal(err, "'fast': answer memory or compute");
    assert_int_equal(tour_score(decode, "  ", false, &sc, err, sizeof err), -1);
    assert_string_equal(err, "type a guess first");
    free(t);
}

static void test_a_number_is_scored_by_its_ratio(void **state)
{
    (void)state;
    struct tour *t = builtin();
    struct tour_score sc;
    const struct tour_step *turn = step(t, "Chips against the budget");
    assert_string_equal(scored(turn, "0.5 s", &sc), "you said 0.5 s; it is 1.981 s (napkin): 4.0\u00d7 low");
    ASSERT_NEAR(sc.ratio, 1.9813792355416722 / 0.5, 1e-12);
    assert_false(sc.right);
    assert_string_equal(scored(turn, "0.5", &sc), "you said 0.5 s; it is 1.981 s (napkin): 4.0\u00d7 low");
    assert_string_equal(scored(turn, "8", &sc), "you said 8 s; it is 1.981 s (napkin): 4.0\u00d7 high");
    assert_string_equal(scored(turn, "2", &sc), "you said 2 s; it is 1.981 s (napkin): right");
    assert_true(sc.right);
    char err[256];
    assert_int_equal(tour_score(turn, "0.5", true, &sc, err, sizeof err), 0);
    assert_string_equal(sc.line, "you said 0.5 s; it is 1.981 s (napkin): 4.0x low");
    /* A guess three hundred orders off is a line, not three hundred digits of ratio. */
    assert_string_equal(scored(turn, "1e-300", &sc), "you said 1e-300 s; it is 1.981 s (napkin): over a million times low");
    assert_string_equal(scored(turn, "5e5", &sc), "you said 5e5 s; it is 1.981 s (napkin): 252349\u00d7 high");
    assert_int_equal(tour_score(turn, "soon", false, &sc, err, sizeof err), -1);
    assert_string_equal(err, "'soon' is not seconds, e.g. 0.5 or 500ms");
    assert_int_equal(tour_score(turn, "0", false, &sc, err, sizeof err), -1);
    assert_string_equal(err, "'0': give a number above zero");
    assert_string_equal(scored(turn, "none", &sc), "you said none; it is 1.981 s: wrong");
    free(t);
}

/* What tour_parse says about text. */
static const char *refused(const char *text)
{
    static char err[512];
    struct tour *t = malloc(sizeof *t);
    assert_non_null(t);
    err[0] = '\0';
    int rc = tour_parse(text, strlen(text), "my.json", knobs, t, NULL, err, sizeof err);
    free(t);
    if (rc == 0)
        fail_msg("accepted: %s", text);
    return err;
}

#define STEP(extra) "{\"title\": \"T\", \"steps\": [{\"title\": \"s\", \"question\": \"q?\", " extra "}]}"

static void test_bad_tours_are_refused_with_the_key_named(void **state)
{
    (void)state;
    assert_string_equal(refused("{\"title\": \"T\", \"steps\": [}"), "my.json:1:25: expected a closing '}' or ']': this bracket is still open at the end of the file");
    assert_string_equal(refused("{\"steps\": []}"), "my.json: missing key 'title'");
    assert_string_equal(refused("{\"title\": \"T\", \"steps\": []}"),
                        "my.json: 'steps' must be a list of at least one step");
    assert_string_equal(refused(STEP("\"answer\": \"figure\"")), "my.json: steps[0]: missing key 'figure'");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"guess\"")),
                        "my.json: steps[0]: 'answer' must be \"bound\" or \"figure\" (got \"guess\")");
    assert_string_equal(refused(STEP("\"figure\": \"latency.totl_s\", \"answer\": \"figure\"")),
                        "my.json: steps[0]: 'figure': 'latency.totl_s' is not a key of rooftop --report=json");
    assert_string_equal(refused(STEP("\"figure\": \"latency\", \"answer\": \"figure\"")),
                        "my.json: steps[0]: 'figure': 'latency' is not a single figure (an object or a list) of "
                        "rooftop --report=json");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"bound\"")),
                        "my.json: steps[0]: 'figure' 'latency.total_s' is a number, not a bound");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"set\": {\"bach\": 4}")),
                        "my.json: 'steps[0].set.bach' is not a scenario key; did you mean batch?");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"set\": {\"zzzz\": 4}")),
                        "my.json: 'steps[0].set.zzzz' is not a scenario key (see a file rooftop --write-scenario "
                        "writes)");
    assert_string_equal(
        refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"set\": {\"model\": {\"kv_head\": 4}}")),
        "my.json: 'steps[0].set.model.kv_head' is not a scenario key; did you mean kv_heads?");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"set\": {\"batch\": \"x\"}")),
                        "my.json: steps[0].set: 'batch' must be a number (got a string)");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"set\": 4")),
                        "my.json: steps[0]: 'set' must be an object of scenario keys, e.g. {\"batch\": 64}");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"knob\": \"bach\"")),
                        "my.json: steps[0]: 'knob' \"bach\" is not a knob of the explorer (batch, chips, kv heads ...)");
    assert_string_equal(refused(STEP("\"figure\": \"latency.total_s\", \"answer\": \"figure\", \"title\": 3")),
                        "my.json: steps[0]: 'title' must be a string (got a number)");
}

/* Every number of the report is a figure a tour can ask about, the chip
 * file's exact ones too: H100's calibrated memory share, 0.907 (its chip
 * data), was "not a single figure" while the report tree held it as raw
 * JSON text. */
static void test_a_chip_figure_can_be_asked(void **state)
{
    (void)state;
    const char *text = STEP("\"figure\": \"chip.efficiency.memory\", \"answer\": \"figure\", "
                            "\"set\": {\"chip\": \"h100\"}");
    struct tour *t = malloc(sizeof *t);
    assert_non_null(t);
    char err[256];
    if (tour_parse(text, strlen(text), "my.json", knobs, t, NULL, err, sizeof err) != 0)
        fail_msg("refused: %s", err);
    struct tour_score sc;
    assert_string_equal(scored(&t->steps[0], "0.907", &sc), "you said 0.907; it is 0.9: right");
    free(t);
}

/* A figure in bytes is answered in bytes: "2.68 GB", not 2684354560. */
static void test_a_bytes_figure_is_written_in_bytes(void **state)
{
    (void)state;
    const char *text = STEP("\"figure\": \"memory.kv_cache_bytes_per_request\", \"answer\": \"figure\"");
    struct tour *t = malloc(sizeof *t);
    assert_non_null(t);
    char err[256];
    assert_int_equal(tour_parse(text, strlen(text), "my.json", knobs, t, NULL, err, sizeof err), 0);
    struct tour_score sc;
    assert_string_equal(scored(&t->steps[0], "1GB", &sc), "you said 1GB; it is 2.68 GB: 2.7\u00d7 low");
    free(t);
}

static void test_a_user_tour_loads_with_array_selectors(void **state)
{
    (void)state;
    const char *text = STEP("\"figure\": \"placement[1].bound\", \"answer\": \"bound\", \"set\": {\"batch\": 8}, "
                            "\"knob\": \"batch\", \"extra\": 1");
    struct tour *t = malloc(sizeof *t);
    assert_non_null(t);
    struct load_warnings w = {0};
    char err[256];
    assert_int_equal(tour_parse(text, strlen(text), "my.json", knobs, t, &w, err, sizeof err), 0);
    assert_int_equal(t->count, 1);
    assert_int_equal(t->steps[0].scenario.batch, 8);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.text[0], "my.json: steps[0]: unknown key 'extra' ignored");
    struct tour_score sc;
    assert_string_equal(scored(&t->steps[0], "memory", &sc), "you said memory; it is memory-bound: right");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_tour_loads_and_every_step_analyses),
        cmocka_unit_test(test_the_guides_figures_come_out_of_the_steps),
        cmocka_unit_test(test_a_shape_change_drops_the_stated_count_as_the_cli_does),
        cmocka_unit_test(test_a_bound_guess_is_right_or_wrong),
        cmocka_unit_test(test_a_number_is_scored_by_its_ratio),
        cmocka_unit_test(test_bad_tours_are_refused_with_the_key_named),
        cmocka_unit_test(test_a_user_tour_loads_with_array_selectors),
        cmocka_unit_test(test_a_bytes_figure_is_written_in_bytes),
        cmocka_unit_test(test_a_chip_figure_can_be_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
