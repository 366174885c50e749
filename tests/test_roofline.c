/* test_roofline.c — the guide's formulas against the guide's printed figures
 * (../shared/seeds/002_*.txt; the table in DESIGN.md "The reference figures"),
 * and the lab's traps. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "roofline.h"
#include "units.h"

/* The guide's rounded chip figures (ch. 2). */
#define H100_PEAK 990e12
#define H100_BW 3.35e12
#define V5E_PEAK 197e12
#define V5E_BW 819e9
#define V5E_HBM 16e9

/* Ch. 2: ridge points H100 296, A100-80 154, TPU v5e 241, TPU v5p 166. */
static void test_ridge_points_of_the_guide(void **state)
{
    (void)state;
    ASSERT_PRINTED("%.0f", ridge_point(990e12, 3.35e12), "296");
    ASSERT_PRINTED("%.0f", ridge_point(312e12, 2.03e12), "154");
    ASSERT_PRINTED("%.0f", ridge_point(197e12, 0.819e12), "241");
    ASSERT_PRINTED("%.0f", ridge_point(459e12, 2.77e12), "166");
    assert_true(isnan(ridge_point(0, 1)));
    assert_true(isnan(ridge_point(1, -1)));
}

/* Ch. 3: three operations placed on the H100 roof. */
static void test_three_operations_placed(void **state)
{
    (void)state;
    struct roofline_report r;
    double n = 8192.0;
    /* 8192^3 bf16 matmul: 2n^3 FLOPs over three n x n bf16 matrices. */
    assert_int_equal(roofline_report(2 * n * n * n, 3 * n * n * 2, H100_PEAK, H100_BW, &r), 0);
    ASSERT_PRINTED("%.1f", r.intensity_flop_per_byte, "2730.7");
    assert_int_equal(r.bound, RT_COMPUTE_BOUND);
    ASSERT_PRINTED("%.1f", r.fraction_of_peak * 100, "100.0");
    assert_string_equal(r.lever, "cut FLOPs");
    /* Batch-1 decode of 70B: 140 GFLOPs over 140 GB of weights. */
    assert_int_equal(roofline_report(2 * 70e9, 70e9 * 2, H100_PEAK, H100_BW, &r), 0);
    ASSERT_PRINTED("%.1f", r.intensity_flop_per_byte, "1.0");
    assert_int_equal(r.bound, RT_MEMORY_BOUND);
    ASSERT_PRINTED("%.1f", r.fraction_of_peak * 100, "0.3");
    assert_string_equal(r.lever, "cut bytes");
    /* Layernorm over 8k x 8k bf16: ~5 FLOPs per element, read + write 2 bytes each. */
    assert_int_equal(roofline_report(5 * n * n, 2 * n * n * 2, H100_PEAK, H100_BW, &r), 0);
    ASSERT_PRINTED("%.1f", r.intensity_flop_per_byte, "1.2");
    assert_int_equal(r.bound, RT_MEMORY_BOUND);
    ASSERT_PRINTED("%.1f", r.fraction_of_peak * 100, "0.4");
    /* Invalid input is refused, not divided by zero. */
    assert_int_equal(roofline_report(1, 0, H100_PEAK, H100_BW, &r), -1);
    assert_int_equal(roofline_report(-1, 1, H100_PEAK, H100_BW, &r), -1);
    assert_true(isnan(arithmetic_intensity(1, 0)));
}

/* The roofline is one min(): bandwidth x intensity below the ridge, peak above. */
static void test_roofline_throughput_is_the_min_of_two_roofs(void **state)
{
    (void)state;
    ASSERT_NEAR(roofline_throughput(H100_PEAK, H100_BW, 1.0), 3.35e12, 1.0);
    ASSERT_NEAR(roofline_throughput(H100_PEAK, H100_BW, 1e6), H100_PEAK, 1.0);
    double ridge = ridge_point(H100_PEAK, H100_BW);
    ASSERT_NEAR(roofline_throughput(H100_PEAK, H100_BW, ridge), H100_PEAK, 1e3);
    assert_true(isnan(roofline_throughput(H100_PEAK, H100_BW, -1)));
}

/* Ch. 4: 100/45/60/50/25 ms -> MFU 35.7%, lever memory. */
static void test_mfu_budget_of_the_guide(void **state)
{
    (void)state;
    const double ms[RT_PART_COUNT] = {0.100, 0.045, 0.060, 0.050, 0.025};
    struct mfu_budget b;
    assert_int_equal(mfu_budget(ms, &b), 0);
    ASSERT_PRINTED("%.1f", b.mfu * 100, "35.7");
    ASSERT_PRINTED("%.1f", b.fraction[RT_PART_VECTOR] * 100, "16.1");
    ASSERT_PRINTED("%.1f", b.fraction[RT_PART_MEMORY] * 100, "21.4");
    ASSERT_PRINTED("%.1f", b.fraction[RT_PART_COMMS] * 100, "17.9");
    ASSERT_PRINTED("%.1f", b.fraction[RT_PART_OPTIMIZER] * 100, "8.9");
    assert_int_equal(b.biggest_lever, RT_PART_MEMORY);
    assert_string_equal(step_part_name(b.biggest_lever), "memory");
    double sum = 0;
    for (int i = 0; i < RT_PART_COUNT; i++)
        sum += b.fraction[i];
    ASSERT_NEAR(sum, 1.0, 1e-12);
    const double zeros[RT_PART_COUNT] = {0};
    assert_int_equal(mfu_budget(zeros, &b), -1);
    const double negative[RT_PART_COUNT] = {1, -1, 0, 0, 0};
    assert_int_equal(mfu_budget(negative, &b), -1);
}

/* Ch. 4: HFU with full recompute is MFU x 8/6 (11.8% -> 15.7%), and never below MFU. */
static void test_hfu_is_always_at_least_mfu(void **state)
{
    (void)state;
    double seconds = 1.0, chips = 1.0;
    double model_flops = 0.118 * seconds * H100_PEAK * chips;
    ASSERT_PRINTED("%.1f", mfu(model_flops, seconds, H100_PEAK, chips) * 100, "11.8");
    ASSERT_PRINTED("%.1f", hfu(model_flops, seconds, H100_PEAK, chips, 8.0 / 6.0) * 100, "15.7");
    for (double f = 1.0; f <= 2.0; f += 0.125)
        for (double frac = 0.01; frac < 1.0; frac += 0.07) {
            double flops = frac * 10.0 * 275e12 * 64;
            assert_true(hfu(flops, 10.0, 275e12, 64, f) >= mfu(flops, 10.0, 275e12, 64));
        }
    assert_true(isnan(hfu(model_flops, seconds, H100_PEAK, chips, 0.5)));
    assert_true(isnan(mfu(model_flops, 0, H100_PEAK, chips)));
}

/* Ch. 6: the latency napkin table, 70B on TPU v5e, 8192 + 128 tokens, 0.25 s. */
static void test_latency_napkin_table(void **state)
{
    (void)state;
    static const struct { double chips; const char *prefill, *decode, *total, *verdict; } rows[] = {
        {1, "5.822", "21.880", "27.952", "MISS"}, {4, "1.455", "5.470", "7.176", "MISS"},
        {16, "0.364", "1.368", "1.981", "MISS"},  {64, "0.091", "0.342", "0.683", "OK"},
        {128, "0.045", "0.171", "0.466", "OK"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double p = prefill_seconds(8192, 70e9, V5E_PEAK, rows[i].chips, 1.0);
        double d = decode_seconds(128, 70e9, 2, V5E_BW, rows[i].chips);
        double t = interactive_latency(p, d, 0.25);
        ASSERT_PRINTED("%.3f", p, rows[i].prefill);
        ASSERT_PRINTED("%.3f", d, rows[i].decode);
        ASSERT_PRINTED("%.3f", t, rows[i].total);
        assert_string_equal(t <= 1.0 ? "OK" : "MISS", rows[i].verdict);
    }
}

/* Lab: prefill is 2N per token (forward only), not 6N. */
static void test_prefill_reproduces_the_talks_number(void **state)
{
    (void)state;
    double p = prefill_seconds(8192, 70e9, V5E_PEAK, 1, 1.0);
    ASSERT_NEAR(p, 2.0 * 70e9 * 8192 / V5E_PEAK, 1e-12);
    assert_true(p > 5.7 && p < 5.9); /* "5.7 seconds for 1 chip" */
    /* An achieved MFU below 1 stretches prefill proportionally. */
    ASSERT_NEAR(prefill_seconds(8192, 70e9, V5E_PEAK, 1, 0.5), 2 * p, 1e-9);
    assert_true(isnan(prefill_seconds(8192, 70e9, V5E_PEAK, 1, 0.0)));
    assert_true(isnan(prefill_seconds(8192, 70e9, V5E_PEAK, 0, 1.0)));
}

/* Lab: a 4x4 station brings prefill under the 0.5 s API limit. */
static void test_a_4x4_station_brings_prefill_under_the_half_second_limit(void **state)
{
    (void)state;
    assert_true(prefill_seconds(8192, 70e9, V5E_PEAK, 16, 1.0) < 0.5);
    assert_true(prefill_seconds(8192, 70e9, V5E_PEAK, 8, 1.0) > 0.5);
}

/* Lab: decode time is driven by bytes: its signature has no peak, and it
 * scales with bytes per parameter and inversely with bandwidth. */
static void test_decode_time_has_no_peak_in_it(void **state)
{
    (void)state;
    double bf16 = decode_seconds(128, 70e9, 2, V5E_BW, 1);
    double int8 = decode_seconds(128, 70e9, 1, V5E_BW, 1);
    ASSERT_NEAR(int8, bf16 / 2, 1e-12);
    ASSERT_NEAR(decode_seconds(128, 70e9, 2, 2 * V5E_BW, 1), bf16 / 2, 1e-12);
    /* 128 tokens at batch 1 is 17.9 TB of traffic, ~3.8x the prefill. */
    ASSERT_PRINTED("%.1f", 128 * 70e9 * 2 / 1e12, "17.9");
    ASSERT_PRINTED("%.1f", bf16 / prefill_seconds(8192, 70e9, V5E_PEAK, 1, 1.0), "3.8");
}

/* Builds the guide's napkin turn for n_params on TPU v5e. */
static struct napkin_turn guide_turn(double n_params)
{
    struct napkin_turn t = {.prefill_tokens = 8192, .decode_tokens = 128, .flop_params = n_params,
                            .byte_params = n_params, .bytes_per_param = 2, .peak_flops_per_s = V5E_PEAK,
                            .hbm_bytes_per_s = V5E_BW, .mfu_fraction = 1.0, .overhead_s = 0.25};
    return t;
}

/* Ch. 6: chips for a 1.0 s turn and chips to hold the weights: 70B 64/9,
 * 35B 32/5, 17B 16/3, 8B 8/1. */
static void test_chips_for_a_one_second_turn(void **state)
{
    (void)state;
    static const struct { double n; int64_t chips, hold; } rows[] = {
        {70e9, 64, 9}, {35e9, 32, 5}, {17e9, 16, 3}, {8e9, 8, 1}};
    char err[200];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct napkin_turn t = guide_turn(rows[i].n);
        int64_t chips = -1;
        assert_int_equal(chips_for_latency_budget(&t, 1.0, 65536, &chips, err, sizeof err), 0);
        assert_int_equal(chips, rows[i].chips);
        assert_int_equal(weights_fit_chips(rows[i].n, 2, V5E_HBM), rows[i].hold);
    }
}

/* Lab: a smaller model needs fewer chips (the whole economic argument). */
static void test_a_smaller_model_needs_fewer_chips(void **state)
{
    (void)state;
    char err[200];
    int64_t previous = INT64_MAX;
    for (double n = 400e9; n >= 1e9; n /= 2) {
        struct napkin_turn t = guide_turn(n);
        int64_t chips = 0;
        assert_int_equal(chips_for_latency_budget(&t, 1.0, 65536, &chips, err, sizeof err), 0);
        assert_true(chips > 0);
        assert_true(chips <= previous);
        previous = chips;
    }
}

/* Lab: "none" instead of an endless search; a budget at or below the
 * overhead is an error, not an answer. */
static void test_chips_for_budget_says_none_and_refuses_the_impossible(void **state)
{
    (void)state;
    char err[200] = "";
    struct napkin_turn t = guide_turn(70e9);
    int64_t chips = -1;
    assert_int_equal(chips_for_latency_budget(&t, 1.0, 32, &chips, err, sizeof err), 0);
    assert_int_equal(chips, 0); /* needs 64; none up to 32 */
    assert_int_equal(chips_for_latency_budget(&t, 0.25, 65536, &chips, err, sizeof err), -1);
    assert_non_null(strstr(err, "overhead"));
    assert_int_equal(chips_for_latency_budget(&t, 0.1, 65536, &chips, err, sizeof err), -1);
    assert_int_equal(chips_for_latency_budget(&t, 1.0, 0, &chips, err, sizeof err), -1);
    /* A huge maximum terminates too (doubling, at most 63 steps). */
    t.overhead_s = 0.999999;
    assert_int_equal(chips_for_latency_budget(&t, 1.0, INT64_MAX, &chips, err, sizeof err), 0);
}

/* Ch. 6 and 7: weights_fit_chips rounds up, exactly at whole ratios. */
static void test_weights_fit_chips_rounds_up_exactly(void **state)
{
    (void)state;
    assert_int_equal(weights_fit_chips(70e9, 2, 16e9), 9);
    assert_int_equal(weights_fit_chips(8e9, 2, 16e9), 1);
    assert_int_equal(weights_fit_chips(8e9 + 1, 2, 16e9), 2);
    assert_int_equal(weights_fit_chips(64e9, 2, 16e9), 8);
    assert_int_equal(weights_fit_chips(70e9, 2, 0), 0);
}

/* Ch. 7, lever 1: tile efficiency at tile 128. */
static void test_tile_efficiency_of_the_guide(void **state)
{
    (void)state;
    ASSERT_PRINTED("%.1f", tile_efficiency(11000, 128) * 100, "99.9");
    ASSERT_PRINTED("%.1f", tile_efficiency(11008, 128) * 100, "100.0");
    ASSERT_PRINTED("%.1f", tile_efficiency(8192, 128) * 100, "100.0");
    ASSERT_PRINTED("%.1f", tile_efficiency(4097, 128) * 100, "97.0");
    ASSERT_PRINTED("%.1f", tile_efficiency(4096, 128) * 100, "100.0");
    ASSERT_PRINTED("%.1f", tile_efficiency(129, 128) * 100, "50.4");
    assert_true(isnan(tile_efficiency(0, 128)));
    assert_true(isnan(tile_efficiency(128, 0)));
}

/* Ch. 7, lever 2: KV cache for 80 layers, d_head 128, 8192 tokens, batch 32. */
static void test_kv_cache_and_gqa_saving(void **state)
{
    (void)state;
    ASSERT_PRINTED("%.1f", kv_cache_bytes(80, 64, 128, 8192, 32, 2) / 1e9, "687.2");
    ASSERT_PRINTED("%.1f", kv_cache_bytes(80, 8, 128, 8192, 32, 2) / 1e9, "85.9");
    ASSERT_PRINTED("%.1f", kv_cache_bytes(80, 1, 128, 8192, 32, 2) / 1e9, "10.7");
    ASSERT_PRINTED("%.1f", gqa_saving(64, 64), "1.0");
    ASSERT_PRINTED("%.1f", gqa_saving(64, 8), "8.0");
    ASSERT_PRINTED("%.1f", gqa_saving(64, 1), "64.0");
    /* The cache shrinks by exactly the group factor. */
    ASSERT_NEAR(kv_cache_bytes(80, 64, 128, 8192, 32, 2) / kv_cache_bytes(80, 8, 128, 8192, 32, 2), 8.0, 1e-12);
    assert_true(isnan(gqa_saving(64, 0)));
    assert_true(isnan(gqa_saving(8, 64)));
    assert_true(isnan(kv_cache_bytes(80, 8, 128, 8192, 32, 0)));
}

/* Ch. 8: the decode wall, 70B, 80 layers, 8 kv heads, d_head 128, 8192 tokens. */
static void test_decode_batch_intensity_of_the_guide(void **state)
{
    (void)state;
    static const struct { double batch; const char *ai, *to_ridge; } rows[] = {
        {1, "1.0", "0.3"}, {8, "6.9", "2.3"}, {64, "28.7", "9.7"}, {256, "43.3", "14.7"}, {1024, "49.6", "16.8"}};
    double ridge = ridge_point(H100_PEAK, H100_BW);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double ai = decode_batch_intensity(70e9, 80, 8, 128, 8192, rows[i].batch, 2, 2);
        ASSERT_PRINTED("%.1f", ai, rows[i].ai);
        ASSERT_PRINTED("%.1f", 100 * ai / ridge, rows[i].to_ridge);
    }
}

/* Lab: decode stays memory-bound even at huge batch. */
static void test_decode_stays_memory_bound_even_at_huge_batch(void **state)
{
    (void)state;
    double ridge = ridge_point(H100_PEAK, H100_BW);
    for (double b = 1; b <= 1 << 20; b *= 2)
        assert_true(decode_batch_intensity(70e9, 80, 8, 128, 8192, b, 2, 2) < ridge);
    /* The curve saturates: 1 -> 8 gives ~6.9x, 256 -> 1024 only ~1.15x. */
    double r1 = decode_batch_intensity(70e9, 80, 8, 128, 8192, 8, 2, 2) /
                decode_batch_intensity(70e9, 80, 8, 128, 8192, 1, 2, 2);
    double r2 = decode_batch_intensity(70e9, 80, 8, 128, 8192, 1024, 2, 2) /
                decode_batch_intensity(70e9, 80, 8, 128, 8192, 256, 2, 2);
    ASSERT_PRINTED("%.2f", r2, "1.15");
    assert_true(r1 > 6.5);
}

/* Ch. 7, lever 3: at fixed N, doubling the width quarters the depth. */
static void test_depth_vs_width(void **state)
{
    (void)state;
    struct depth_width narrow, wide;
    assert_int_equal(depth_vs_width(70e9, 8192, 12, &narrow), 0);
    assert_int_equal(depth_vs_width(70e9, 16384, 12, &wide), 0);
    ASSERT_NEAR(narrow.layers, 70e9 / (12.0 * 8192 * 8192), 1e-9);
    ASSERT_NEAR(narrow.layers / wide.layers, 4.0, 1e-12);
    ASSERT_NEAR(wide.matmul_flops_per_token_per_layer, 2 * 12.0 * 16384 * 16384, 1);
    assert_int_equal(depth_vs_width(70e9, 0, 12, &wide), -1);
}

/* Token counts: k and M are powers of two (8k = 8192, 128k = 131072, 1M =
 * 1048576), a plain number is itself, other suffixes are parse_number's;
 * junk is refused as parse_number refuses it. */
static void test_parse_token_count(void **state)
{
    (void)state;
    double v = 0;
    const struct {
        const char *text;
        double want;
    } ok[] = {{"8k", 8192}, {"8K", 8192}, {"128k", 131072}, {"1M", 1048576}, {"1.5k", 1536}, {" 32k ", 32768},
              {"8Ki", 8192}, {"32000", 32000}, {"8192", 8192}, {"2e3", 2000}, {"0", 0}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        if (parse_token_count(ok[i].text, &v) != 0)
            fail_msg("'%s' refused", ok[i].text);
        ASSERT_NEAR(v, ok[i].want, 0);
    }
    const char *bad[] = {"", "k", "8kk", "8 k", "abc", "8k5", NULL};
    for (int i = 0; bad[i]; i++)
        if (parse_token_count(bad[i], &v) == 0)
            fail_msg("'%s' accepted as %g", bad[i], v);
    assert_int_equal(parse_token_count(NULL, &v), -1);
    assert_int_equal(parse_number("8k", &v), 0); /* parameters and bytes stay decimal */
    ASSERT_NEAR(v, 8000, 0);
}

/* Numbers on the command line: 70e9, 70B, 1.5T, 8k; junk is refused. */
static void test_parse_number(void **state)
{
    (void)state;
    double v = 0;
    assert_int_equal(parse_number("70e9", &v), 0);
    ASSERT_NEAR(v, 70e9, 0);
    assert_int_equal(parse_number("70B", &v), 0);
    ASSERT_NEAR(v, 70e9, 0);
    assert_int_equal(parse_number("1.5T", &v), 0);
    ASSERT_NEAR(v, 1.5e12, 0);
    assert_int_equal(parse_number("8k", &v), 0);
    ASSERT_NEAR(v, 8000, 0);
    assert_int_equal(parse_number("16GiB", &v), 0);
    ASSERT_NEAR(v, 17179869184.0, 0);
    assert_int_equal(parse_number("10GB", &v), 0);
    ASSERT_NEAR(v, 10e9, 0);
    assert_int_equal(parse_number("0.25", &v), 0);
    ASSERT_NEAR(v, 0.25, 0);
    assert_int_equal(parse_number("-3", &v), 0);
    ASSERT_NEAR(v, -3, 0);
    const char *bad[] = {"", "abc", "1x", "0x10", "inf", "nan", "1e", "1e400", "--1", "1.2.3", "8kk", "B"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 42;
        assert_int_equal(parse_number(bad[i], &v), -1);
        ASSERT_NEAR(v, 42, 0);
    }
}

/* Precision widths: bf16 2, fp8 1, int8 1, int4 0.5 bytes. */
/* One time style: the guide's "0.683 s" from 0.01 s, ms and us below it,
 * never "0.000 s" for a time that is not zero. */
static void test_format_turn_seconds(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(format_turn_seconds(b, sizeof b, 27.952), "27.952 s");
    assert_string_equal(format_turn_seconds(b, sizeof b, 0.683), "0.683 s");
    assert_string_equal(format_turn_seconds(b, sizeof b, 0.091), "0.091 s");
    assert_string_equal(format_turn_seconds(b, sizeof b, 0.01), "0.010 s");
    assert_string_equal(format_turn_seconds(b, sizeof b, 0.00453), "4.5 ms");
    assert_string_equal(format_turn_seconds(b, sizeof b, 0.0004), "400.0 us");
    assert_string_equal(format_turn_seconds(b, sizeof b, 1.25e-5), "12.5 us");
    assert_string_equal(format_turn_seconds(b, sizeof b, -0.00453), "-4.5 ms");
    assert_string_equal(format_turn_seconds(b, sizeof b, 0.0), "0.000 s");
    assert_string_equal(format_turn_seconds(b, sizeof b, 1.61e8), "161M s");
    /* Four significant figures in the unit that keeps the mantissa in [1, 1000): the calibration
     * table's measured, floor and realistic columns. */
    assert_string_equal(format_seconds_4sig(b, sizeof b, 24.6652), "24.67 s");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 4.992), "4.992 s");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 0.001689523), "1.690 ms");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 0.000346151), "346.2 us");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 1.686e-5), "16.86 us");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 4.2e-8), "42.00 ns");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 0.99999), "1.000 s"); /* rounds up into the next unit */
    assert_string_equal(format_seconds_4sig(b, sizeof b, 9.99996e-4), "1.000 ms");
    assert_string_equal(format_seconds_4sig(b, sizeof b, -0.0025), "-2.500 ms");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 0.0), "0.000 s");
    assert_string_equal(format_seconds_4sig(b, sizeof b, 1e-12), "0.0010 ns");
    assert_string_equal(format_seconds_4sig(b, sizeof b, NAN), "n/a");
}

/* The reference float_shortest_double must match: print at 1, 2, ... 9 digits, keep the first that
 * reads back as the float. */
static double shortest_by_printing(float f)
{
    char buf[32];
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, (double)f);
        if ((float)strtod(buf, NULL) == f)
            return strtod(buf, NULL);
    }
    return (double)f;
}

/* float_shortest_double is the printed-and-read reference, bit for bit: on the kernel fits' kind of
 * figures (0.7f, 1.2e-5f), on floats next to powers of ten, and on 300k floats drawn over every
 * exponent a float has (a fixed generator: the same floats each run). */
static void test_float_shortest_double(void **state)
{
    (void)state;
    assert_true(float_shortest_double(0.7f) == 0.7);
    assert_true(float_shortest_double(1.2e-5f) == 1.2e-5);
    assert_true(float_shortest_double(0.0f) == 0.0);
    assert_true(float_shortest_double(-3.25f) == -3.25);
    assert_true(isinf(float_shortest_double(INFINITY)));
    assert_true(isnan(float_shortest_double(NAN)));
    int checked = 0;
    for (int e = -44; e <= 38; e++) { /* each power of ten and the floats either side of it */
        float p = (float)pow(10.0, e);
        float around[5] = {p, nextafterf(p, 0.0f), nextafterf(p, INFINITY), nextafterf(nextafterf(p, 0.0f), 0.0f),
                           nextafterf(nextafterf(p, INFINITY), INFINITY)};
        for (int i = 0; i < 5; i++, checked++)
            if (float_shortest_double(around[i]) != shortest_by_printing(around[i]))
                fail_msg("float %.9g: %.17g, printing gives %.17g", (double)around[i],
                         float_shortest_double(around[i]), shortest_by_printing(around[i]));
    }
    uint32_t x = 2463534242u; /* xorshift32 */
    for (int i = 0; i < 300000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        float f;
        memcpy(&f, &x, sizeof f);
        if (!isfinite(f))
            continue;
        checked++;
        if (float_shortest_double(f) != shortest_by_printing(f))
            fail_msg("float %.9g (bits %08x): %.17g, printing gives %.17g", (double)f, x, float_shortest_double(f),
                     shortest_by_printing(f));
    }
    assert_true(checked > 290000);
}

/* The unit a figure's key names: the last segment decides, a precision
 * defers to the one before it, an index is ignored. */
static void test_key_unit(void **state)
{
    (void)state;
    assert_int_equal(key_unit("latency.total_s"), RT_KEY_SECONDS);
    assert_int_equal(key_unit("memory.kv_cache_bytes_per_request"), RT_KEY_BYTES);
    assert_int_equal(key_unit("placement[decode:decode].bytes"), RT_KEY_BYTES);
    assert_int_equal(key_unit("chip.hbm_bytes_per_s"), RT_KEY_BYTES_PER_S);
    assert_int_equal(key_unit("chip.peak_flops_per_s.bf16"), RT_KEY_FLOPS_PER_S);
    assert_int_equal(key_unit("training.model_flops_per_token"), RT_KEY_FLOPS);
    assert_int_equal(key_unit("active_params"), RT_KEY_PARAMS);
    assert_int_equal(key_unit("mfu_budget.mfu"), RT_KEY_FRACTION);
    assert_int_equal(key_unit("tile_efficiency.d_ff"), RT_KEY_FRACTION);
    assert_int_equal(key_unit("serving.tokens_per_s_per_chip"), RT_KEY_PLAIN); /* a rate of tokens */
    assert_int_equal(key_unit("memory.max_concurrent_requests"), RT_KEY_PLAIN);
    assert_int_equal(key_unit("latency.detailed.prefill_terms[tile padding].seconds"), RT_KEY_SECONDS);
    assert_int_equal(key_unit(NULL), RT_KEY_PLAIN);
}

/* One number style for counts and ratios: whole to 99999, then k M G with
 * three figures, never an exponent. */
static void test_format_number(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(format_number(b, sizeof b, 16384, 0), "16384");
    assert_string_equal(format_number(b, sizeof b, 99999, 0), "99999");
    assert_string_equal(format_number(b, sizeof b, 131072, 0), "131k");
    assert_string_equal(format_number(b, sizeof b, 1048576, 0), "1.05M");
    assert_string_equal(format_number(b, sizeof b, 9.3e6, 0), "9.30M");
    assert_string_equal(format_number(b, sizeof b, 16777216, 0), "16.8M");
    assert_string_equal(format_number(b, sizeof b, 1.2, 1), "1.2");
    assert_string_equal(format_number(b, sizeof b, 241.3, 1), "241");
    assert_string_equal(format_number(b, sizeof b, 1.0 / 0.0, 0), "n/a");
}

static void test_precisions(void **state)
{
    (void)state;
    enum rt_precision p;
    ASSERT_NEAR(precision_bytes(RT_BF16), 2, 0);
    ASSERT_NEAR(precision_bytes(RT_FP8), 1, 0);
    ASSERT_NEAR(precision_bytes(RT_INT8), 1, 0);
    ASSERT_NEAR(precision_bytes(RT_INT4), 0.5, 0);
    assert_int_equal(precision_parse("FP8", &p), 0);
    assert_int_equal(p, RT_FP8);
    assert_int_equal(precision_parse("fp16", &p), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ridge_points_of_the_guide),
        cmocka_unit_test(test_three_operations_placed),
        cmocka_unit_test(test_roofline_throughput_is_the_min_of_two_roofs),
        cmocka_unit_test(test_mfu_budget_of_the_guide),
        cmocka_unit_test(test_hfu_is_always_at_least_mfu),
        cmocka_unit_test(test_latency_napkin_table),
        cmocka_unit_test(test_prefill_reproduces_the_talks_number),
        cmocka_unit_test(test_a_4x4_station_brings_prefill_under_the_half_second_limit),
        cmocka_unit_test(test_decode_time_has_no_peak_in_it),
        cmocka_unit_test(test_chips_for_a_one_second_turn),
        cmocka_unit_test(test_a_smaller_model_needs_fewer_chips),
        cmocka_unit_test(test_chips_for_budget_says_none_and_refuses_the_impossible),
        cmocka_unit_test(test_weights_fit_chips_rounds_up_exactly),
        cmocka_unit_test(test_tile_efficiency_of_the_guide),
        cmocka_unit_test(test_kv_cache_and_gqa_saving),
        cmocka_unit_test(test_decode_batch_intensity_of_the_guide),
        cmocka_unit_test(test_decode_stays_memory_bound_even_at_huge_batch),
        cmocka_unit_test(test_depth_vs_width),
        cmocka_unit_test(test_parse_number),
        cmocka_unit_test(test_parse_token_count),
        cmocka_unit_test(test_format_turn_seconds),
        cmocka_unit_test(test_float_shortest_double),
        cmocka_unit_test(test_key_unit),
        cmocka_unit_test(test_format_number),
        cmocka_unit_test(test_precisions),
    };
    return cmocka_run_group_tests_name("roofline", tests, NULL, NULL);
}
