/* test_tui_opknobs.c — the operation view's knobs (tui/opknobs.h): which
 * knobs each kind has, powers-of-two steps from the resolved shape into the
 * spec, typed values with rooftop's suffixes, lists, tracks. */
#include "testutil.h"

#include <math.h>

#include "opknobs.h"

/* A scenario on chip key with operation spec, and its analysis. */
static void op_start(struct scenario *s, struct analysis *a, const char *chip, const char *spec)
{
    char err[256];
    scenario_default(s);
    s->chip = *chip_find(chip);
    if (op_spec_parse(spec, &s->op, err, sizeof err) != 0)
        fail_msg("op_spec_parse(%s): %s", spec, err);
    *a = must_analyze(s);
}

/* True when list (n entries) holds id. */
static bool has(const enum op_knob *list, int n, enum op_knob id)
{
    for (int i = 0; i < n; i++)
        if (list[i] == id)
            return true;
    return false;
}

static void test_lists_by_kind(void **state)
{
    (void)state;
    enum op_knob k[OP_KNOBS_MAX];
    int n = op_knob_list(RT_KERNEL_GEMM, k);
    assert_int_equal(n, 6);
    assert_int_equal(k[0], OPK_M);
    assert_int_equal(k[1], OPK_N);
    assert_int_equal(k[2], OPK_K);
    assert_int_equal(k[3], OPK_FORMAT);
    assert_int_equal(k[4], OPK_CHIP);
    assert_int_equal(k[5], OPK_ENGINE);
    n = op_knob_list(RT_KERNEL_ATTENTION, k);
    assert_true(has(k, n, OPK_SEQ) && has(k, n, OPK_KV_HEADS) && has(k, n, OPK_WINDOW) && has(k, n, OPK_KV));
    assert_false(has(k, n, OPK_KV_LEN));
    n = op_knob_list(RT_KERNEL_DECODE_ATTENTION, k);
    assert_true(has(k, n, OPK_KV_LEN) && !has(k, n, OPK_SEQ) && !has(k, n, OPK_FORMAT));
    n = op_knob_list(RT_KERNEL_DECODE_MLA, k);
    assert_false(has(k, n, OPK_KV_HEADS) || has(k, n, OPK_HEAD_DIM)); /* a latent cache: the model's own */
    n = op_knob_list(RT_KERNEL_MOE, k);
    assert_true(has(k, n, OPK_TOKENS) && has(k, n, OPK_TOPK) && has(k, n, OPK_EP) && has(k, n, OPK_FORMAT));
    for (int kind = RT_KERNEL_ALLREDUCE; kind < RT_KERNEL_KIND_COUNT; kind++) {
        n = op_knob_list((enum rt_kernel_kind)kind, k);
        assert_int_equal(n, 4);
        assert_int_equal(k[0], OPK_BYTES);
        assert_int_equal(k[1], OPK_GPUS);
    }
    for (int kind = 0; kind < RT_KERNEL_KIND_COUNT; kind++) {
        n = op_knob_list((enum rt_kernel_kind)kind, k);
        assert_true(n <= OP_KNOBS_MAX);
        for (int i = 0; i < n; i++)
            assert_true(strlen(op_knob_name(k[i])) <= 9); /* the knobs' name column */
    }
}

/* m from 8192 to 1 in thirteen steps, each given in the spec; not below 1;
 * a value off the powers of two moves to the next one. */
static void test_dimension_steps(void **state)
{
    (void)state;
    struct scenario s;
    struct analysis a;
    op_start(&s, &a, "h100", "gemm");
    assert_true(s.op.shape.m == 0.0); /* left out: analyze() fills the guide's 8192 */
    assert_true(a.operation.shape.m == 8192.0);
    for (int i = 12; i >= 0; i--) {
        assert_true(op_knob_step(&s, &a.operation.shape, OPK_M, -1, false, chip_builtin_list()));
        assert_true(s.op.shape.m == ldexp(1.0, i));
        a = must_analyze(&s);
        assert_true(a.operation.shape.m == ldexp(1.0, i));
    }
    assert_false(op_knob_step(&s, &a.operation.shape, OPK_M, -1, false, chip_builtin_list()));
    char buf[32];
    assert_string_equal(op_knob_value_text(&s, &a.operation.shape, OPK_M, buf, sizeof buf), "1");
    assert_true(s.op.shape.n == 0.0); /* untouched knobs stay the scenario's */

    op_start(&s, &a, "h100", "moe:inter=14336");
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_INTER, 1, false, chip_builtin_list()));
    assert_true(s.op.shape.inter == 16384.0);
    op_start(&s, &a, "h100", "moe:inter=14336");
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_INTER, -1, true, chip_builtin_list())); /* x4 down */
    assert_true(s.op.shape.inter == 4096.0);
}

/* The window: powers of two, full past the prompt, and back. */
static void test_window_steps(void **state)
{
    (void)state;
    struct scenario s;
    struct analysis a;
    char buf[32];
    op_start(&s, &a, "h100", "attention:seq=8192");
    assert_string_equal(op_knob_value_text(&s, &a.operation.shape, OPK_WINDOW, buf, sizeof buf), "full");
    assert_false(op_knob_step(&s, &a.operation.shape, OPK_WINDOW, 1, false, chip_builtin_list()));
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_WINDOW, -1, false, chip_builtin_list()));
    assert_true(s.op.shape.window == 4096.0);
    a = must_analyze(&s);
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_WINDOW, 1, false, chip_builtin_list()));
    assert_true(s.op.shape.window == 0.0);
    a = must_analyze(&s); /* full attention sits at the track's far end */
    ASSERT_NEAR(op_knob_fraction(&s, &a.operation.shape, OPK_WINDOW, chip_builtin_list()), 1.0, 1e-12);
}

/* Typed values: suffixes, bytes, whole numbers, ranges, formats of the
 * kind, kv, engines; a refusal leaves the scenario as it was. */
static void test_typed_values(void **state)
{
    (void)state;
    struct scenario s, before;
    struct analysis a;
    char err[256];
    struct chip_list chips = chip_builtin_list();
    op_start(&s, &a, "h100", "gemm");
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_M, "8k", err, sizeof err, chips), 0);
    assert_true(s.op.shape.m == 8000.0);
    before = s;
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_M, "1.5", err, sizeof err, chips), -1);
    assert_non_null(strstr(err, "m: 1.5 is not a whole number"));
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_M, "0", err, sizeof err, chips), -1);
    assert_non_null(strstr(err, "out of range"));
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_M, "2P", err, sizeof err, chips), -1);
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_M, "", err, sizeof err, chips), -1);
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_FORMAT, "fp5", err, sizeof err, chips), -1);
    assert_non_null(strstr(err, "format: 'fp5'"));
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_ENGINE, "nginx", err, sizeof err, chips), -1);
    assert_non_null(strstr(err, "vllm"));
    assert_memory_equal(&s, &before, sizeof s);
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_FORMAT, "fp8", err, sizeof err, chips), 0);
    assert_true(s.op.format_given && s.op.shape.format == RT_KF_FP8);
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_ENGINE, "vLLM", err, sizeof err, chips), 0);
    assert_string_equal(s.engine.name, "vllm");
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_CHIP, "b200", err, sizeof err, chips), 0);
    assert_string_equal(s.chip.key, "b200");

    op_start(&s, &a, "h100", "all-reduce");
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_BYTES, "16MiB", err, sizeof err, chips), 0);
    assert_true(s.op.shape.message_bytes == 16777216.0);
    op_start(&s, &a, "h100", "attention");
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_FORMAT, "nvfp4", err, sizeof err, chips), -1);
    assert_non_null(strstr(err, "bfloat16, fp8"));
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_WINDOW, "full", err, sizeof err, chips), 0);
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_KV, "fp8", err, sizeof err, chips), 0);
    assert_true(s.op.kv_given && s.op.shape.kv_fp8);
    assert_int_equal(op_knob_set_text(&s, &a.operation.shape, OPK_KV, "int8", err, sizeof err, chips), -1);
}

/* Lists step through their entries and stop at the ends; the tracks sit in
 * [0, 1] and a track position sets the notch it shows. */
static void test_lists_and_tracks(void **state)
{
    (void)state;
    struct scenario s;
    struct analysis a;
    struct chip_list chips = chip_builtin_list();
    op_start(&s, &a, "h100", "attention");
    assert_false(op_knob_step(&s, &a.operation.shape, OPK_FORMAT, -1, false, chips)); /* bfloat16 first */
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_FORMAT, 1, false, chips));
    assert_true(s.op.shape.format == RT_KF_FP8);
    a = must_analyze(&s);
    assert_false(op_knob_step(&s, &a.operation.shape, OPK_FORMAT, 1, false, chips)); /* fp8 last */
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_KV, 1, false, chips));
    assert_true(op_knob_step(&s, &a.operation.shape, OPK_ENGINE, 1, false, chips));
    assert_string_equal(s.engine.name, engine_builtin(1)->name);

    enum op_knob k[OP_KNOBS_MAX];
    for (int kind = 0; kind < RT_KERNEL_KIND_COUNT; kind++) {
        static const char *const specs[RT_KERNEL_KIND_COUNT] = {
            "gemm", "attention", "decode-attention", "mla", "decode-mla", "moe", "all-reduce",
            "nccl-all-reduce", "all-gather", "reduce-scatter", "all-to-all"};
        op_start(&s, &a, "h100", specs[kind]);
        int n = op_knob_list(a.operation.shape.kind, k);
        for (int i = 0; i < n; i++) {
            double f = op_knob_fraction(&s, &a.operation.shape, k[i], chips);
            assert_true(f >= 0.0 && f <= 1.0);
            /* A position snaps to a notch (a value off the powers of two
             * to the nearest one), and that notch's position sets it again. */
            struct scenario t = s;
            op_knob_set_fraction(&t, &a.operation.shape, k[i], f, chips);
            struct analysis b = must_analyze(&t);
            double g = op_knob_fraction(&t, &b.operation.shape, k[i], chips);
            assert_true(fabs(f - g) <= 0.5 / 4.0 + 1e-9 || k[i] == OPK_CHIP || k[i] == OPK_ENGINE);
            if (op_knob_set_fraction(&t, &b.operation.shape, k[i], g, chips))
                fail_msg("%s %s: track %g moves a knob already there", specs[kind], op_knob_name(k[i]), g);
        }
    }
    op_start(&s, &a, "h100", "gemm");
    assert_true(op_knob_set_fraction(&s, &a.operation.shape, OPK_M, 0.0, chips));
    assert_true(s.op.shape.m == 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_by_kind),   cmocka_unit_test(test_dimension_steps),
        cmocka_unit_test(test_window_steps),    cmocka_unit_test(test_typed_values),
        cmocka_unit_test(test_lists_and_tracks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
