/* roofline.c — the guide's formulas. See roofline.h for each contract. */
#include "roofline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

/* True when x is finite and > 0. */
static bool positive(double x)
{
    return isfinite(x) && x > 0.0;
}

/* True when x is finite and >= 0. */
static bool non_negative(double x)
{
    return isfinite(x) && x >= 0.0;
}

double arithmetic_intensity(double flops, double bytes_moved)
{
    if (!non_negative(flops) || !positive(bytes_moved))
        return NAN;
    return flops / bytes_moved;
}

double ridge_point(double peak_flops_per_s, double hbm_bytes_per_s)
{
    if (!positive(peak_flops_per_s) || !positive(hbm_bytes_per_s))
        return NAN;
    return peak_flops_per_s / hbm_bytes_per_s;
}

double roofline_throughput(double peak_flops_per_s, double hbm_bytes_per_s, double intensity)
{
    if (!positive(peak_flops_per_s) || !positive(hbm_bytes_per_s) || !non_negative(intensity))
        return NAN;
    return fmin(peak_flops_per_s, hbm_bytes_per_s * intensity);
}

const char *bound_name(enum rt_bound b)
{
    return b == RT_COMPUTE_BOUND ? "compute" : "memory";
}

const char *bound_lever(enum rt_bound b)
{
    return b == RT_COMPUTE_BOUND ? "cut FLOPs" : "cut bytes";
}

int roofline_report(double flops, double bytes_moved, double peak_flops_per_s, double hbm_bytes_per_s,
                    struct roofline_report *out)
{
    memset(out, 0, sizeof *out);
    double intensity = arithmetic_intensity(flops, bytes_moved);
    double ridge = ridge_point(peak_flops_per_s, hbm_bytes_per_s);
    if (isnan(intensity) || isnan(ridge))
        return -1;
    out->intensity_flop_per_byte = intensity;
    out->ridge_flop_per_byte = ridge;
    out->attainable_flops_per_s = roofline_throughput(peak_flops_per_s, hbm_bytes_per_s, intensity);
    out->fraction_of_peak = out->attainable_flops_per_s / peak_flops_per_s;
    out->bound = intensity < ridge ? RT_MEMORY_BOUND : RT_COMPUTE_BOUND;
    out->lever = bound_lever(out->bound);
    return 0;
}

double mfu(double model_flops, double seconds, double peak_flops_per_s, double n_chips)
{
    if (!non_negative(model_flops) || !positive(seconds) || !positive(peak_flops_per_s) ||
        !(isfinite(n_chips) && n_chips >= 1.0))
        return NAN;
    return model_flops / (seconds * peak_flops_per_s * n_chips);
}

double hfu(double model_flops, double seconds, double peak_flops_per_s, double n_chips, double recompute_factor)
{
    if (!(isfinite(recompute_factor) && recompute_factor >= 1.0))
        return NAN;
    return mfu(model_flops * recompute_factor, seconds, peak_flops_per_s, n_chips);
}

const char *step_part_name(enum rt_step_part p)
{
    static const char *const names[RT_PART_COUNT] = {"matmul", "vector", "memory", "comms", "optimizer", "bubble"};
    return ((int)p >= 0 && p < RT_PART_COUNT) ? names[p] : "?";
}

int mfu_budget(const double seconds[RT_PART_COUNT], struct mfu_budget *out)
{
    memset(out, 0, sizeof *out);
    double total = 0.0;
    for (int i = 0; i < RT_PART_COUNT; i++) {
        if (!non_negative(seconds[i]))
            return -1;
        total += seconds[i];
    }
    if (!positive(total))
        return -1;
    out->total_s = total;
    out->biggest_lever = RT_PART_VECTOR;
    for (int i = 0; i < RT_PART_COUNT; i++) {
        out->seconds[i] = seconds[i];
        out->fraction[i] = seconds[i] / total;
        if (i > RT_PART_MATMUL && seconds[i] > seconds[out->biggest_lever])
            out->biggest_lever = (enum rt_step_part)i;
    }
    out->mfu = out->fraction[RT_PART_MATMUL];
    return 0;
}

double prefill_seconds(double n_tokens, double n_params, double peak_flops_per_s, double n_chips,
                       double mfu_fraction)
{
    if (!non_negative(n_tokens) || !positive(n_params) || !positive(peak_flops_per_s) ||
        !(isfinite(n_chips) && n_chips >= 1.0) || !positive(mfu_fraction) || mfu_fraction > 1.0)
        return NAN;
    return (2.0 * n_params * n_tokens) / (n_chips * peak_flops_per_s * mfu_fraction);
}

double decode_seconds(double n_tokens, double n_params, double bytes_per_param, double hbm_bytes_per_s,
                      double n_chips)
{
    if (!non_negative(n_tokens) || !positive(n_params) || !positive(bytes_per_param) ||
        !positive(hbm_bytes_per_s) || !(isfinite(n_chips) && n_chips >= 1.0))
        return NAN;
    return n_tokens * n_params * bytes_per_param / (n_chips * hbm_bytes_per_s);
}

double interactive_latency(double prefill_s, double decode_s, double overhead_s)
{
    if (!non_negative(prefill_s) || !non_negative(decode_s) || !non_negative(overhead_s))
        return NAN;
    return prefill_s + decode_s + overhead_s;
}

double napkin_turn_seconds(const struct napkin_turn *t, double n_chips)
{
    double p = prefill_seconds(t->prefill_tokens, t->flop_params, t->peak_flops_per_s, n_chips, t->mfu_fraction);
    double d = decode_seconds(t->decode_tokens, t->byte_params, t->bytes_per_param, t->hbm_bytes_per_s, n_chips);
    return interactive_latency(p, d, t->overhead_s);
}

int chips_for_latency_budget(const struct napkin_turn *t, double budget_s, int64_t max_chips,
                             int64_t *chips_out, char *err, size_t errsize)
{
    *chips_out = 0;
    if (!positive(budget_s) || !non_negative(t->overhead_s)) {
        snprintf(err, errsize, "budget and overhead must be finite, budget > 0 and overhead >= 0");
        return -1;
    }
    if (budget_s <= t->overhead_s) {
        char b[32], o[32];
        snprintf(err, errsize, "a budget of %s s at or below the %s s overhead can never be met",
                 format_exact(b, sizeof b, budget_s), format_exact(o, sizeof o, t->overhead_s));
        return -1;
    }
    if (max_chips < 1) {
        snprintf(err, errsize, "the largest chip count to try must be at least 1");
        return -1;
    }
    if (isnan(napkin_turn_seconds(t, 1.0))) {
        snprintf(err, errsize, "invalid model or chip figures for the latency napkin");
        return -1;
    }
    /* Powers of two, doubling until max_chips: at most 63 steps, never endless. */
    for (int64_t n = 1; n <= max_chips; n *= 2) {
        if (napkin_turn_seconds(t, (double)n) <= budget_s) {
            *chips_out = n;
            return 0;
        }
        if (n > INT64_MAX / 2)
            break;
    }
    return 0;
}

int64_t weights_fit_chips(double n_params, double bytes_per_param, double hbm_bytes)
{
    if (!positive(n_params) || !positive(bytes_per_param) || !positive(hbm_bytes))
        return 0;
    double ratio = n_params * bytes_per_param / hbm_bytes;
    double whole = ceil(ratio * (1.0 - 1e-12));
    if (whole < 1.0)
        whole = 1.0;
    if (whole > 9.2e18)
        return INT64_MAX;
    return (int64_t)whole;
}

double tile_efficiency(int64_t dim, int64_t tile)
{
    if (dim < 1 || tile < 1)
        return NAN;
    int64_t tiles = dim / tile + (dim % tile != 0);
    return (double)dim / ((double)tiles * (double)tile);
}

double kv_cache_bytes(double layers, double kv_heads, double d_head, double seq_len, double batch,
                      double bytes_per_element)
{
    if (!non_negative(layers) || !non_negative(kv_heads) || !non_negative(d_head) || !non_negative(seq_len) ||
        !non_negative(batch) || !positive(bytes_per_element))
        return NAN;
    return 2.0 * layers * kv_heads * d_head * seq_len * batch * bytes_per_element;
}

double gqa_saving(double heads, double kv_heads)
{
    if (!positive(heads) || !positive(kv_heads) || kv_heads > heads)
        return NAN;
    return heads / kv_heads;
}

double decode_batch_intensity(double n_params, double layers, double kv_heads, double d_head, double seq_len,
                              double batch, double bytes_per_param, double kv_bytes_per_element)
{
    if (!positive(n_params) || !positive(batch) || !positive(bytes_per_param))
        return NAN;
    double kv = kv_cache_bytes(layers, kv_heads, d_head, seq_len, batch, kv_bytes_per_element);
    if (isnan(kv))
        return NAN;
    return 2.0 * n_params * batch / (n_params * bytes_per_param + kv);
}

int depth_vs_width(double n_params, double d_model, double params_per_layer_over_d2, struct depth_width *out)
{
    memset(out, 0, sizeof *out);
    if (!positive(n_params) || !positive(d_model) || !positive(params_per_layer_over_d2))
        return -1;
    out->params_per_layer = params_per_layer_over_d2 * d_model * d_model;
    out->layers = n_params / out->params_per_layer;
    out->matmul_flops_per_token_per_layer = 2.0 * out->params_per_layer;
    return 0;
}
