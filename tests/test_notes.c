/* test_notes.c — analyze()'s notes as codes (notes.h) and their wording
 * (notewords.h): every code's wording takes its signature's values, a
 * recorded note words itself as printf would have, and the wrong values
 * are caught. */
#include "testutil.h"

#include "chips.h"
#include "models.h"
#include "units.h"

/* The conversions of fmt as signature letters' classes: 'i' (%lld), 'n'
 * (%d), 'r' (floating), 's' (%s), in order; %% skipped. */
static void conversions_of(const char *fmt, char *out, size_t size)
{
    size_t n = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f != '%')
            continue;
        const char *c = f + 1;
        while (*c && strchr("-+ #0123456789.", *c))
            c++;
        bool ll = c[0] == 'l' && c[1] == 'l';
        while (*c == 'l' || *c == 'h' || *c == 'z')
            c++;
        if (*c == '%') {
            f = c;
            continue;
        }
        char k = *c == 's' ? 's' : *c == 'd' ? (ll ? 'i' : 'n') : strchr("eEfFgGaA", *c) ? 'r' : '?';
        if (n + 1 < size)
            out[n++] = k;
        f = c;
    }
    out[n] = '\0';
}

/* Every code: a wording, a name of its own, and conversions that take its
 * signature's values one for one (S, c and t are words, %s). */
static void test_every_wording_takes_its_signature(void **state)
{
    (void)state;
    for (int c = 0; c < RT_NOTE_CODE_COUNT; c++) {
        const char *w = note_wording((enum rt_note_code)c), *sig = note_code_signature((enum rt_note_code)c);
        assert_non_null(w);
        assert_true(strlen(w) > 10);
        char got[32], want[32];
        conversions_of(w, got, sizeof got);
        size_t k = 0;
        for (; sig[k] && k + 1 < sizeof want; k++)
            want[k] = strchr("sSct", sig[k]) ? 's' : sig[k];
        want[k] = '\0';
        if (strcmp(got, want) != 0)
            fail_msg("note %s: wording takes \"%s\", signature \"%s\"", note_code_name((enum rt_note_code)c), got, sig);
        assert_true(strlen(sig) <= RT_NOTE_ARGS_MAX);
        for (int d = 0; d < c; d++)
            assert_string_not_equal(note_code_name((enum rt_note_code)c), note_code_name((enum rt_note_code)d));
        for (const char *p = note_code_name((enum rt_note_code)c); *p; p++)
            assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_');
    }
    assert_string_equal(note_code_name(RT_NOTE_CODE_COUNT), "unknown");
    assert_null(note_wording(RT_NOTE_CODE_COUNT));
}

/* A note's sentence is its wording with the values put in as printf puts
 * them: whole numbers, reals by their conversion, SI values through
 * format_si. */
static void test_a_note_words_itself_as_printf(void **state)
{
    (void)state;
    struct rt_note n;
    const struct rt_note_arg two[] = {NOTE_INT(9000), NOTE_INT(8192)};
    assert_int_equal(note_record(&n, RT_NOTE_CONTEXT_PAST_MODEL, two, 2), 0);
    char buf[RT_NOTE_MAX];
    assert_string_equal(note_text(buf, sizeof buf, &n),
                        "The context (9000 tokens) is past the 8192 the model was built for (its "
                        "max_position_embeddings): the figures are the shape's, but the model itself would not run it.");
    /* reals at their conversion (%.3g), text copied: the vector-peak note of TPU v5e (197 TFLOP/s / 50) */
    const struct rt_note_arg vec[] = {NOTE_TEXT("tpu-v5e"), NOTE_TEXT(""), NOTE_REAL(197e12 / 50.0 / 1e12)};
    assert_int_equal(note_record(&n, RT_NOTE_VECTOR_PEAK_ASSUMED, vec, 3), 0);
    assert_string_equal(note_text(buf, sizeof buf, &n),
                        "tpu-v5e publishes no vector throughput: assumed 1/50 of the tensor peak, 3.94 TFLOP/s (the "
                        "guide, ch. 2: vector units are 50-100x slower than matmul).");
    /* an SI value is worded by format_si at the edge: 2.68e9 B is "2.68 GB" */
    const struct rt_note_arg dec[] = {NOTE_REAL(52.2),        NOTE_INT(8192),     NOTE_SI(2.68e9, "B"),
                                      NOTE_SI(140e9, "FLOP"), NOTE_REAL(240.5),   NOTE_REAL(4.6),
                                      NOTE_TEXT("a lever")};
    assert_int_equal(note_record(&n, RT_NOTE_DECODE_INTENSITY_LIMIT, dec, 7), 0);
    note_text(buf, sizeof buf, &n);
    assert_non_null(strstr(buf, "52.2 FLOP/byte at 8192 tokens"));
    assert_non_null(strstr(buf, "2.68 GB of KV"));
    assert_non_null(strstr(buf, "140 GFLOP"));
    /* a note with no values is its wording, %% as % */
    assert_int_equal(note_record(&n, RT_NOTE_MEASURED_TPOT_OVER_100, NULL, 0), 0);
    assert_string_equal(note_text(buf, sizeof buf, &n),
                        "The measured time per output token implies MBU above 100%: the time or the chip figures are off.");
}

/* Values of the wrong kind or count are refused and the note says it is a
 * bug; a short buffer is cut and terminated; long text is cut to the note. */
static void test_wrong_values_are_caught(void **state)
{
    (void)state;
    struct rt_note n;
    char buf[RT_NOTE_MAX];
    const struct rt_note_arg wrong_kind[] = {NOTE_REAL(9000), NOTE_INT(8192)};
    assert_int_equal(note_record(&n, RT_NOTE_CONTEXT_PAST_MODEL, wrong_kind, 2), -1);
    assert_non_null(strstr(note_text(buf, sizeof buf, &n), "rooftop bug: the note context_past_model"));
    const struct rt_note_arg one[] = {NOTE_INT(9000)};
    assert_int_equal(note_record(&n, RT_NOTE_CONTEXT_PAST_MODEL, one, 1), -1);
    assert_int_equal(note_record(&n, RT_NOTE_CODE_COUNT, NULL, 0), -1);
    assert_non_null(strstr(note_text(buf, sizeof buf, &n), "rooftop bug"));
    /* cut to a short buffer, terminated */
    const struct rt_note_arg two[] = {NOTE_INT(9000), NOTE_INT(8192)};
    note_record(&n, RT_NOTE_CONTEXT_PAST_MODEL, two, 2);
    char small[12];
    assert_string_equal(note_text(small, sizeof small, &n), "The context");
    /* text longer than the note holds: cut, the note still whole and terminated */
    char huge[2 * RT_NOTE_TEXT_MAX];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    const struct rt_note_arg big[] = {NOTE_TEXT(huge)};
    assert_int_equal(note_record(&n, RT_NOTE_LAYER_SCHEDULE, big, 1), 0);
    note_text(buf, sizeof buf, &n);
    /* "Layer schedule: " + the text cut to the pool (RT_NOTE_TEXT_MAX - 1 bytes) + "." */
    assert_int_equal(strlen(buf), strlen("Layer schedule: ") + RT_NOTE_TEXT_MAX - 1 + 1);
    assert_memory_equal(buf, "Layer schedule: xxx", 19);
    assert_int_equal(buf[strlen(buf) - 1], '.');
}

/* The notes of real scenarios: the default one's codes in order, and each
 * worded the way its sentence reads in the report. */
static void test_the_default_scenarios_codes(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    struct analysis a = must_analyze(&s);
    const char *want[] = {"decode_intensity_limit", "vector_peak_assumed", "frontend_time", "napkin_model",
                          "floor_model", "realistic_model", "mfu_palm", "batch_does_not_fit",
                          "training_state_does_not_fit"};
    assert_int_equal(a.note_count, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < a.note_count; i++)
        assert_string_equal(note_code_name(a.notes[i].code), want[i]);
    /* guide-70b on TPU v5e: 2 x 70e9 FLOPs a token over 8192 tokens' KV, 2.68 GB a request */
    assert_non_null(strstr(test_note(&a, 0), "each request brings 2.68 GB of KV to read for 140 GFLOP"));
    assert_non_null(strstr(test_note(&a, 1), "tpu-v5e publishes no vector throughput: assumed 1/50 of the tensor peak, "
                                             "3.94 TFLOP/s"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_wording_takes_its_signature),
        cmocka_unit_test(test_a_note_words_itself_as_printf),
        cmocka_unit_test(test_wrong_values_are_caught),
        cmocka_unit_test(test_the_default_scenarios_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
