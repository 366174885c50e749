/* roofline.h — the guide's formulas, one small pure function each.
 *
 * Source throughout: the warm-up guide "Roofline, MFU & Inference Co-Design"
 * (../shared/seeds/002_*.txt), chapters 3-8, whose figures the tests
 * reproduce. Units are SI: FLOPs (a count), bytes, seconds, FLOP/s, bytes/s.
 *
 * Invalid input convention: the double-valued functions return NAN when an
 * input is out of range (a zero or negative divisor, a non-finite value) — the
 * guide raises ValueError there. analyze() validates its scenario first, so no
 * NAN reaches a report. Functions with a richer failure (a budget below the
 * overhead) return an int status: 0 on success, -1 with a message.
 */
#ifndef ROOFTOP_ROOFLINE_H
#define ROOFTOP_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FLOPs performed per byte moved (FLOP/byte). Ch. 3.
 * flops >= 0, bytes_moved > 0; NAN otherwise. */
double arithmetic_intensity(double flops, double bytes_moved);

/* Ridge point: the intensity where memory and compute balance, peak / bw
 * (FLOP/byte). Ch. 3. Both > 0; NAN otherwise. */
double ridge_point(double peak_flops_per_s, double hbm_bytes_per_s);

/* Attainable throughput min(peak, bw x intensity) in FLOP/s: the roofline.
 * Ch. 3. peak > 0, bw > 0, intensity >= 0; NAN otherwise. */
double roofline_throughput(double peak_flops_per_s, double hbm_bytes_per_s, double intensity_flop_per_byte);

/* Which roof binds. An intensity strictly below the ridge is memory-bound;
 * at or above it, compute-bound (the roofs meet at the ridge). */
enum rt_bound { RT_MEMORY_BOUND = 0, RT_COMPUTE_BOUND = 1 };

/* One operation placed on the roofline. */
struct roofline_report {
    double intensity_flop_per_byte;
    double ridge_flop_per_byte;
    double attainable_flops_per_s;
    double fraction_of_peak; /* attainable / peak, in [0, 1] */
    enum rt_bound bound;
    const char *lever; /* "cut bytes" when memory-bound, "cut FLOPs" when compute-bound */
};

/* Places an operation of `flops` FLOPs moving `bytes_moved` bytes on the roof
 * of a chip. Ch. 3's roofline_report. Returns 0, or -1 when any input is
 * invalid (bytes_moved <= 0, peak or bw <= 0, flops < 0, non-finite) and
 * then *out is zeroed. */
int roofline_report(double flops, double bytes_moved, double peak_flops_per_s, double hbm_bytes_per_s,
                    struct roofline_report *out);

/* Short words for a bound: "memory" or "compute". */
const char *bound_name(enum rt_bound b);

/* Lever for a bound: "cut bytes" (memory) or "cut FLOPs" (compute). Ch. 3. */
const char *bound_lever(enum rt_bound b);

/* Model FLOPs utilisation: model_flops / (seconds x peak x n_chips), a
 * fraction. Ch. 4. model_flops >= 0, seconds > 0, peak > 0, n_chips >= 1;
 * NAN otherwise. model_flops is the useful 6ND count, without recompute. */
double mfu(double model_flops, double seconds, double peak_flops_per_s, double n_chips);

/* Hardware FLOPs utilisation: mfu(model_flops x recompute_factor, ...). Full
 * activation recompute takes ~6N to ~8N FLOPs per token, factor 8/6. Ch. 4.
 * recompute_factor >= 1 (so HFU >= MFU always); NAN otherwise. */
double hfu(double model_flops, double seconds, double peak_flops_per_s, double n_chips, double recompute_factor);

/* The places a training step's time goes, in this order: the guide's five
 * (ch. 4), which --step-times measures, and the pipeline bubble, the time a
 * stage idles while the pipeline fills and drains ((pp - 1) / m of its
 * work, Narayanan et al. 2021; 0 without pipeline stages). */
enum rt_step_part { RT_PART_MATMUL = 0, RT_PART_VECTOR, RT_PART_MEMORY, RT_PART_COMMS, RT_PART_OPTIMIZER,
                    RT_PART_BUBBLE, RT_PART_COUNT };

/* The parts --step-times and a scenario's step_times_s give: the guide's five. */
#define RT_STEP_TIME_PARTS 5

/* Name of a step part: "matmul", "vector", "memory", "comms", "optimizer", "bubble". */
const char *step_part_name(enum rt_step_part p);

/* The MFU budget: each part's share of the step, and the biggest loss. */
struct mfu_budget {
    double seconds[RT_PART_COUNT];
    double fraction[RT_PART_COUNT]; /* each part / total; they sum to 1 */
    double total_s;
    double mfu;                     /* = fraction[RT_PART_MATMUL] */
    enum rt_step_part biggest_lever;/* the largest non-matmul part; ties go to the earlier part */
};

/* Builds the MFU budget from the seconds spent in each part (matmul, vector,
 * memory, comms, optimizer, bubble). Ch. 4's mfu_budget: 100/45/60/50/25 ms gives MFU
 * 35.7% and lever "memory". Each part >= 0 and finite, total > 0; returns -1
 * otherwise (out zeroed), 0 on success. */
int mfu_budget(const double seconds[RT_PART_COUNT], struct mfu_budget *out);

/* Napkin prefill time in seconds: 2 x n_params x n_tokens FLOPs (forward
 * only: 2N per token, not 6N) over n_chips x peak x mfu_fraction. Ch. 5.
 * n_tokens >= 0, n_params > 0, peak > 0, n_chips >= 1, mfu_fraction in (0, 1];
 * NAN otherwise. */
double prefill_seconds(double n_tokens, double n_params, double peak_flops_per_s, double n_chips,
                       double mfu_fraction);

/* Napkin decode time in seconds: every generated token re-reads every weight,
 * n_tokens x n_params x bytes_per_param / (n_chips x bw). No peak in it: decode
 * is bound by bytes. Ch. 5. n_tokens >= 0, n_params > 0, bytes_per_param > 0,
 * bw > 0, n_chips >= 1; NAN otherwise. */
double decode_seconds(double n_tokens, double n_params, double bytes_per_param, double hbm_bytes_per_s,
                      double n_chips);

/* One interactive turn: prefill + decode + fixed overhead, seconds. Ch. 6.
 * All >= 0 and finite; NAN otherwise. */
double interactive_latency(double prefill_s, double decode_s, double overhead_s);

/* What the napkin needs to time one turn on n chips. */
struct napkin_turn {
    double prefill_tokens;     /* prompt tokens prefilled this turn (all requests of the batch) */
    double decode_tokens;      /* tokens generated */
    double flop_params;        /* parameters paid in FLOPs (active, for MoE) */
    double byte_params;        /* parameters read per decode step */
    double bytes_per_param;
    double peak_flops_per_s;   /* per chip */
    double hbm_bytes_per_s;    /* per chip */
    double mfu_fraction;       /* achieved fraction of peak during prefill, (0, 1] */
    double overhead_s;
};

/* Total napkin turn time on n_chips (prefill + decode + overhead), seconds.
 * NAN when any field is invalid. */
double napkin_turn_seconds(const struct napkin_turn *t, double n_chips);

/* The smallest power-of-two chip count in [1, max_chips] whose napkin turn
 * fits within budget_s. Ch. 6's chips_for_latency_budget. Sets *chips_out to
 * that count, or to 0 when no count up to max_chips meets the budget ("no
 * amount of hardware fixes this" is an answer, never an endless search).
 * Returns 0; returns -1 with a message in err when budget_s <= overhead_s
 * (impossible: the guide raises) or any input is invalid (max_chips < 1). */
int chips_for_latency_budget(const struct napkin_turn *t, double budget_s, int64_t max_chips,
                             int64_t *chips_out, char *err, size_t errsize);

/* Chips needed just to hold the weights: ceil(n_params x bytes_per_param /
 * hbm_bytes). Ch. 6 (70e9 bf16 on 16 GB -> 9). A ratio within 1e-12 of a
 * whole number counts as that number, so 8e9 x 2 / 16e9 is 1, not 2.
 * Returns 0 for invalid input (n_params <= 0, bytes <= 0, hbm <= 0). */
int64_t weights_fit_chips(double n_params, double bytes_per_param, double hbm_bytes);

/* Fraction of a tile-padded matmul dimension that is real work:
 * dim / (ceil(dim / tile) x tile). Ch. 7 (11000 -> 99.9%, 129 -> 50.4% at
 * tile 128). dim >= 1, tile >= 1; NAN otherwise. */
double tile_efficiency(int64_t dim, int64_t tile);

/* KV cache in bytes: 2 (K and V) x layers x kv_heads x d_head x seq_len x
 * batch x bytes_per_element. Ch. 7 (80 layers, 64 kv heads, d_head 128, 8192
 * tokens, batch 32, bf16 -> 687.2 GB). Counts >= 0, bytes > 0; NAN otherwise. */
double kv_cache_bytes(double layers, double kv_heads, double d_head, double seq_len, double batch,
                      double bytes_per_element);

/* GQA's KV-cache saving over MHA: heads / kv_heads (the group size). Ch. 7.
 * 1 <= kv_heads <= heads; NAN otherwise (divisibility is the shape's check). */
double gqa_saving(double heads, double kv_heads);

/* Decode arithmetic intensity at a batch: 2 x n_params x batch FLOPs over the
 * weights read once (n_params x bytes_per_param) plus every request's KV cache
 * (kv_cache_bytes at seq_len). Ch. 8 (70B, 80 layers, 8 kv heads, d_head 128,
 * 8192 tokens: batch 1 -> 1.0, 1024 -> 49.6 FLOP/byte). NAN on invalid input. */
double decode_batch_intensity(double n_params, double layers, double kv_heads, double d_head, double seq_len,
                              double batch, double bytes_per_param, double kv_bytes_per_element);

/* Depth vs width at fixed N. Ch. 7, lever 3. */
struct depth_width {
    double layers;            /* N / params_per_layer: how deep a model of width d_model is */
    double params_per_layer;  /* params_per_layer_over_d2 x d_model^2 */
    double matmul_flops_per_token_per_layer; /* 2 x params_per_layer: the size of each serial step */
};

/* For a model of n_params at width d_model whose layers hold
 * params_per_layer_over_d2 x d_model^2 parameters (12 for the classic block:
 * 4 d^2 attention + 8 d^2 MLP with d_ff = 4d), returns how many serial layers
 * it has. Doubling the width quarters the depth: decode steps through fewer,
 * larger matmuls. Returns 0 on success; -1 with *out zeroed when any input
 * is <= 0 or non-finite. */
int depth_vs_width(double n_params, double d_model, double params_per_layer_over_d2, struct depth_width *out);

#endif
