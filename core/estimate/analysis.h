/* analysis.h — analyze(): scenario in, every figure the views show out.
 *
 * Pure: no I/O, no globals, no allocation; microseconds per call. The result
 * is a plain value type that the explorer draws and the reports print; it
 * never holds a NAN or an infinity (analyze() fails instead).
 */
#ifndef ROOFTOP_ANALYSIS_H
#define ROOFTOP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detailed.h"
#include "notes.h"
#include "roofline.h"
#include "scenario.h"
#include "serving.h"

#define RT_MAX_PLACEMENTS 64
#define RT_MAX_NOTES 24
#define RT_NOTE_MAX 400 /* bytes that hold any note worded (notewords.h: note_text) */
#define RT_MAX_TERMS 8

/* Where one phase (the napkin's view) or one operation sits on the roofline. */
struct placement {
    char name[32];   /* "prefill", "decode", "training step", or an operation: "qkv projection" ... */
    char phase[16];  /* "prefill", "decode" or "training" */
    bool operation;  /* one operation of the detailed model, not a whole phase */
    bool vector;     /* placed against the vector unit's roof, not the tensor peak */
    bool on_chip;    /* moves no HBM bytes (a fused softmax): no intensity, no place on the memory roof */
    double flops;    /* FLOPs (all chips) */
    double bytes;    /* bytes moved from HBM (all chips) */
    double time_s;   /* operations: max(compute, memory) per chip; phases: the floor's prefill or
                        decode step, the shape's training step */
    double share;    /* operations: share of the phase's time, [0, 1]; phases: 1 */
    double realistic_time_s; /* the realistic estimate of the same work (phases: prefill, one decode step;
                                the training step row repeats the floor's step) */
    double realistic_flops_per_s; /* per chip, at realistic_time_s: where the realistic estimate puts the
                                     point below its roof; 0 when it has no FLOPs or no time */
    struct roofline_report roof; /* intensity, ridge, attainable, % of peak, bound, lever */
};

/* One named part of the difference between the detailed and the napkin
 * time of a phase; a phase's terms add up to exactly that difference. */
struct latency_term {
    char name[64];
    double seconds;
};

/* The detailed model's turn: every operation, TP communication, the KV read. */
struct detailed_latency {
    double prefill_s;      /* one prefill of the batch's prompts */
    double decode_step_s;  /* one decode step of the batch */
    double decode_s;       /* decode_tokens steps, each at the scenario's context */
    double ttft_s;         /* time to first token: the prefill */
    double tpot_s;         /* time per output token: one decode step */
    double overhead_s;
    double total_s;        /* prefill + decode + overhead */
    double budget_s;
    bool ok;
    int64_t chips_for_budget; /* smallest power of two meeting the budget; 0 = none up to max_chips */
    struct latency_term prefill_terms[RT_MAX_TERMS];
    int prefill_term_count;
    struct latency_term decode_terms[RT_MAX_TERMS]; /* per step */
    int decode_term_count;
};

/* The realistic estimate's turn (realistic.h): each operation through the
 * chip's efficiency profile and the engine's, all-reduces with a per-step
 * latency, and the engine's fixed time per forward pass. */
struct realistic_latency {
    double prefill_s;         /* one prefill of the batch */
    double decode_step_s;     /* one decode step of the batch */
    double decode_s;          /* decode_tokens steps */
    double ttft_s, tpot_s;    /* time to first token (the prefill), time per output token (a step) */
    double overhead_s;        /* the scenario's overhead (the engine's per-pass time is in each pass) */
    double total_s;
    double budget_s;
    bool ok;
    int64_t chips_for_budget; /* smallest power of two meeting the budget and holding the turn; 0 = none */
    double prefill_comms_s, decode_comms_s; /* all-reduces of the prefill and of one decode step */
    bool chip_calibrated;     /* the chip's profile was fitted to measurements on it */
    bool engine_calibrated;   /* the engine's profile was fitted to measurements of it */
    /* How sure: the larger of the step level's cross-validated error
     * (RT_STEP_ERROR, or RT_STEP_ERROR_BORROWED for a borrowed profile) and
     * the phase's operations' kernel errors weighted by time. Fractions. */
    double ttft_error_fraction, tpot_error_fraction, total_error_fraction;
    bool profile_measured;    /* the chip's kernel fits are its own measurements */
    char profile_from[RT_KERNEL_FROM_MAX]; /* the chip they were measured on ("" = the models' defaults) */
};

/* A training step, by the scenario's FLOP convention (PaLM's by default:
 * Chowdhery et al. 2022, app. B), and the run's totals over --train-tokens. */
struct training_figures {
    double tokens_per_step;          /* batch x context, per replica */
    enum rt_flops_convention convention; /* how model_flops_per_token counts */
    double model_flops_per_token;    /* PaLM: 6N + 12 L H Q T (attention not halved); see training_flops_per_token */
    double hardware_flops_per_token; /* plus recomputed forward work */
    double step_s;                   /* the step the shape implies (the MFU budget's total) */
    double mfu, hfu;                 /* measured when a rate is given, else from step_s */
    bool measured;                   /* mfu and hfu come from --measured-train-tokens-per-s */
    /* Totals over s->train_tokens; all 0 (and totals false) when it is 0. */
    bool totals;
    double total_flops;              /* model_flops_per_token x train_tokens, FLOPs */
    double totals_mfu;               /* the MFU they assume: --train-mfu, else mfu above */
    double chip_hours;               /* total_flops / (peak per chip x totals_mfu) / 3600 */
    double days;                     /* chip_hours / (chips x data_parallel) / 24: wall clock */
    double implied_mfu;              /* total_flops / (train_chip_hours x 3600 x peak); 0 when not given */
    /* The same rate counted causally (6N + A / 2, recompute likewise): what
     * the views give first when a PaLM or Megatron figure passes 100%
     * (those count attention over the whole context; the step runs a causal
     * kernel, about half of it). Equal to mfu and hfu under --flops-convention
     * causal; under 6n, the 6N figure. */
    double causal_mfu, causal_hfu;
    double state_bytes_per_chip;     /* mixed-precision Adam: 16 bytes a parameter over the chips of a replica */
    bool state_fits;                 /* state_bytes_per_chip <= HBM a chip (activations on top) */
    double state_fit_chips;          /* the fewest chips a replica needs for that state: ceil(16 N / HBM) */
};

/* How the views give an MFU (analysis_mfu_shown): never a bare figure over
 * 100% and never one for a step that cannot run. */
enum rt_mfu_shown {
    RT_MFU_PLAIN = 0, /* the figure as it is */
    RT_MFU_CAUSAL,    /* the convention (PaLM, Megatron) passes 100% by counting attention whole: the causal
                         figure first, the convention's beside it, named */
    RT_MFU_NONE       /* a step from the shape whose training state does not fit: no MFU, the reason */
};

/* Model FLOPs per training token of shape m under convention c. active is
 * the active parameter count N (>= 0; --params or a stated count may
 * replace the shape's); seq_len the context T (>= 1). Sources:
 *   palm:     6N + A, A = palm_attention_flops_per_token (12 L H Q T for full
 *             attention; Chowdhery et al. 2022, app. B);
 *   megatron: 6(N - E) + A, E the shape's input embedding (vocab x d_model
 *             when untied, plus learned positions; a tied matrix is the LM
 *             head and stays): Narayanan et al. 2021, eq. 3, counts the
 *             logits but not the embedding lookup;
 *   6n:       6N (Kaplan et al. 2020, C = 6N per token);
 *   causal:   6N + A / 2 (6 L H Q T: the causal mask skips half the scores).
 * N - E is floored at 0. An out-of-range c counts as palm. */
double training_flops_per_token(const struct model_shape *m, double active, double seq_len,
                                enum rt_flops_convention c);

/* The convention's short label for reports: "PaLM", "Megatron", "6N",
 * "causal" (palm for an out-of-range c). */
const char *flops_convention_label(enum rt_flops_convention c);

/* Why an MFU or HFU under convention c can read above 100%, short enough
 * for a panel: "PaLM counts non-causal attention" for palm and megatron
 * (their 12 L H Q T counts attention over the whole context while the step
 * runs causal attention, about half of it: PaLM app. B), else "over the
 * peak: check the figures" (palm for an out-of-range c). brief gives the
 * shortest form ("non-causal attn", "check figures", 15 columns at most). */
const char *mfu_over_peak_reason(enum rt_flops_convention c, bool brief);



/* The convention's formula in words, e.g. "6N + 12 L H Q T, PaLM app. B". */
const char *flops_convention_formula(enum rt_flops_convention c);

/* Where the MFU budget came from. */
enum rt_budget_source { RT_BUDGET_NONE = 0, RT_BUDGET_STEP_TIMES, RT_BUDGET_SHAPE };

/* Where a parameter count came from. */
enum rt_params_source {
    RT_PARAMS_SHAPE = 0, /* derived from the shape (model_param_count) */
    RT_PARAMS_STATED,    /* the preset's stated count (guide-70b) */
    RT_PARAMS_GIVEN      /* --params */
};

/* The latency napkin for one interactive turn (ch. 6). */
struct latency_verdict {
    double prefill_s;        /* 2 x active params x prefill tokens x batch / (chips x peak x mfu) */
    double decode_s;         /* decode tokens x weight bytes / (chips x bandwidth) */
    double overhead_s;
    double total_s;          /* prefill + decode + overhead */
    double budget_s;
    bool ok;                 /* total_s <= budget_s */
    int64_t chips_for_budget;/* smallest power of two meeting the budget; 0 = none up to max_chips */
    int64_t max_chips;       /* the largest count tried */
    double prefill_flops;    /* FLOPs of the turn's prefill */
    double decode_bytes;     /* bytes read by the turn's decode */
};

/* Memory on the busiest chip of a replica's layout (parallel.h): the
 * pipeline stage with the most layers (and an end of the model), one
 * tensor-parallel rank. */
struct chip_memory {
    double weights_bytes;     /* its shard: layers / tp (routed experts / (tp x ep)), plus the embedding or LM head */
    double kv_cache_bytes;    /* its share of its group's batch at context_tokens, KV heads copied past tp > kv_heads */
    double state_bytes;       /* its share of the fixed state of linear and Mamba layers */
    double activation_bytes;  /* the live activations of the largest forward pass (activation_tokens) */
    double reserve_bytes;     /* the scenario's reserve over the replica's chips */
    double free_bytes;        /* HBM - all of the above; negative when it does not fit */
    double kv_cache_bytes_per_request; /* one request's KV and state on this chip */
    double activation_tokens; /* tokens the activation workspace is sized for */
    double activation_bytes_per_element; /* 2 (bf16), 1 when the matmuls run at fp8 or int8 */
    /* The requests this chip holds (whole, or its tensor-parallel share of
     * each): floor((HBM - weights - activations - reserve) / per request).
     * A replica holds ep times as many (memory.max_concurrent_requests_after_workspace):
     * each expert-parallel rank keeps its own requests' KV (attention data-parallel). */
    int64_t max_concurrent_requests;
};

/* The serving layout as analyzed (parallel.h). */
struct parallel_figures {
    int64_t tp, pp, ep, dp;
    int64_t chips_per_replica;   /* tp x pp x ep */
    int64_t chips_total;         /* x dp, plus a disaggregated prefill pool's chips: the whole design */
    double stage_layers;         /* layers on the busiest pipeline stage */
    double microbatches;         /* prefill micro-batches through the pipeline */
    double bubble_fraction;      /* (pp - 1) / microbatches: the prefill's idle share of the ideal */
    double decode_seqs_per_pass; /* sequences of one decode micro-batch on one tensor-parallel group */
    double decode_microbatches;  /* micro-batches of a decode step on one rank: min(pp, ceil(batch / ep)) */
    double pipeline_hops_s;      /* realistic: the stage-to-stage sends on one decode step's path */
    double alltoall_s;           /* realistic: the MoE all-to-alls of one decode step (0 without ep) */
    double tp_link_bytes_per_s;  /* one way, for the tensor-parallel all-reduces */
    bool tp_crosses_domain;      /* the tp group spans more than one scale-up domain */
    bool replica_crosses_domain; /* the replica's chips do */
};

/* Speculative decoding (Leviathan et al. 2023): k drafts, one verify pass. */
struct speculative_figures {
    bool enabled;
    double tokens_per_pass;      /* (1 - a^(k+1)) / (1 - a), or 1 + the sums of products of the rates by position */
    double verify_tokens;        /* tokens a sequence the verify pass scores: k + 1 (a chain) or a tree's nodes */
    double draft_params;         /* the draft's parameters (an MTP head: one target layer) */
    double draft_step_s;         /* realistic: one draft step of the batch */
    double verify_step_s;        /* realistic: the target pass scoring k + 1 tokens per sequence */
    double tpot_s;               /* realistic: (k x draft + verify) / tokens_per_pass */
    double speedup;              /* plain decode step / tpot_s */
};

/* Serving as an engine serves (serving.h): continuous batching of a closed
 * loop of `batch` clients per replica (or an open loop at --arrival-rate),
 * every request with the scenario's prompt and output lengths, from the
 * realistic estimate. TTFT always means one request's wait plus its
 * prefill (plus, disaggregated, its KV's move); latency.*.ttft_s is the
 * turn's, the whole batch's prefill at once. */
struct serving_figures {
    double ttft_s;               /* steady state: mean time to first token */
    double tpot_s;               /* steady state: mean time per output token (a step with its share of prompts) */
    double benchmark_ttft_s;     /* closed loop: what a benchmark of bench_rounds x batch requests reports
                                    (its first wave and the steady rounds); open loop: ttft_s */
    double benchmark_tpot_s;
    double prompt_s;             /* one prompt's prefill alone (on a prefill worker when disaggregated) */
    double running_requests;     /* requests decoding at once per replica, steady state */
    double requests_per_s;       /* finished per second per replica */
    double mean_context_tokens;  /* the context the decode steps are costed at: prompt + half the output */
    double token_budget;         /* tokens a step carries: --max-num-tokens, else 8192 */
    struct serving_loop loop;    /* the loop's figures per attention group (percentiles, wait, first wave) */
    double tokens_per_s_per_user;/* 1 / tpot_s */
    double tokens_per_s_per_chip;/* output tokens per second over the replica's chips (and its share of a pool) */
    double kv_transfer_s;        /* disaggregated: one request's KV to each decode rank, over that rank's link */
    double kv_bytes_per_rank;    /* disaggregated: what each decode rank receives of it */
    double prefill_pool_share;   /* disaggregated: the pool's chips this replica keeps busy (load x pool / dp) */
    double prefill_pool_load;    /* disaggregated: the pool's utilisation, [0, 1) */
    int64_t prefill_pool_tp;     /* disaggregated: each worker's tensor-parallel chips; 0 without */
    int64_t prefill_pool_dp;     /* disaggregated: each worker's attention-DP ranks */
    int64_t prefill_pool_workers;/* disaggregated: workers in the pool */
    bool prefill_pool_fits;      /* disaggregated: the weights and a prompt's activations fit on a worker */
    bool ttft_ok, tpot_ok;       /* within the targets (true when none is set) */
    bool ok;                     /* both, the batch fits, the load is served, and a prefill pool fits */
    /* The scenario's serving targets (0: none), and whether any is set:
     * then the explorer's and the reports' verdict is the targets' (ok),
     * the turn budget's second. */
    double ttft_target_s, tpot_target_s;
    bool targets_set;
};

/* What an output token costs, from the steady-state serving throughput
 * (serving_figures.tokens_per_s_per_chip, the realistic estimate):
 *   usd_per_million_output_tokens = price / 3600 / tokens_per_s_per_chip x 1e6.
 * The price is --price-per-chip-hour, else the chip's listed one (chips.h:
 * a cloud's on-demand list price and its date). known is false when neither
 * exists (source "unpublished"; a report writes null, never 0 as if free);
 * priced is false when there is a price but no output token, or when the
 * batch does not fit in memory (a design that cannot run has no cost per
 * token: the figure is then 0 and a report writes null). */
struct cost_figures {
    bool known;                           /* a price per chip-hour was given or listed */
    bool priced;                          /* ... the scenario produces output tokens, and the batch fits */
    bool fits;                            /* the batch fits in memory (memory_verdict.batch_fits) */
    double usd_per_chip_hour;             /* USD; 0 when not known */
    double usd_per_million_output_tokens; /* USD; 0 when not priced */
    char source[RT_CHIP_PRICE_SOURCE_MAX]; /* "--price-per-chip-hour", the chip's price_source, or "unpublished" */
};

/* What an output token takes from the grid, from the same throughput:
 *   joules_per_output_token = power_w x pue / tokens_per_s_per_chip,
 *   tokens_per_kwh = 3.6e6 / joules_per_output_token.
 * power_w is --power-w, else the chip's TDP (a ceiling: a chip serving
 * decode rarely draws all of it); pue is --pue, else 1.0 (the chip alone,
 * no cooling or conversion: an assumption). known is false when neither
 * power is known ("unpublished"); measured is false when there are no
 * output tokens (the figures are then 0 and a report writes null). */
struct energy_figures {
    bool known;                      /* a power per chip was given or published */
    bool measured;                   /* ... the scenario produces output tokens, and the batch fits */
    double power_w;                  /* W per chip; 0 when not known */
    double pue;                      /* >= 1 */
    double joules_per_output_token;  /* J; 0 when not measured */
    double tokens_per_kwh;           /* output tokens per kWh; 0 when not measured */
    char power_source[32];           /* "--power-w", "the chip's TDP" or "unpublished" */
};

/* Memory: does it fit, and how many requests fit beside it (ch. 6-7). */
struct memory_verdict {
    double weights_bytes;              /* total params x bytes per weight */
    int64_t weights_fit_chips;         /* chips needed just to hold the weights */
    double hbm_total_bytes;            /* chips x HBM per chip */
    double kv_cache_bytes_per_token;   /* one token of one request, every attention layer, K and V, before any window */
    double kv_cache_bytes_per_request; /* at context_tokens: each layer holds at most its window or chunk */
    double kv_cache_bytes;             /* the whole batch at context_tokens */
    double state_bytes_per_request;    /* fixed state of linear-attention and Mamba layers (KV precision); 0 without */
    double state_bytes;                /* the whole batch's fixed state */
    double free_bytes;                 /* hbm_total - weights - reserve; negative when it does not fit */
    int64_t max_concurrent_requests;   /* the guide's rule chip by chip: ep x floor((HBM - weights - reserve) per chip
                                          / (KV + state per request) per chip), KV copied past tp > kv_heads;
                                          0 when nothing is free */
    int64_t max_concurrent_requests_after_workspace; /* the same after each chip's activation workspace:
                                                        ep x per_chip.max_concurrent_requests, a replica's */
    bool weights_fit;                  /* weights + reserve fit in chips x HBM */
    bool batch_fits;                   /* ... and the batch's KV cache and state too, chip by chip */
    double kv_replication;             /* copies of each KV head over the tensor-parallel ranks (1: none) */
    struct chip_memory per_chip;       /* the busiest chip of the layout */
};

/* One operation by its shape (--op), alone on one chip (kernels.h): the
 * roofline floor and the realistic estimate of the measured kernel models. */
struct operation_figures {
    bool set;                         /* the scenario asked for one */
    struct kernel_shape shape;        /* the spec with the scenario's figures filled in */
    struct kernel_chip chip;          /* the chip figures the estimate read */
    struct kernel_estimate estimate;  /* flops, bytes, floor_s, realistic_s, why, source, error_fraction */
    enum rt_kernel_engine engine;     /* whose kernels */
    bool engine_guessed;              /* the scenario's engine has no measured kernels: TensorRT-LLM's stand in */
    char profile_from[RT_KERNEL_FROM_MAX]; /* the chip the constants were measured on ("" = defaults) */
    bool profile_measured;            /* on this chip itself */
    double intensity_flop_per_byte;   /* flops / bytes (0 for a collective) */
    double realistic_flops_per_s;     /* flops / realistic_s */
    double floor_flops_per_s;         /* flops / floor_s: where the operation sits on its roof */
    double fraction_of_peak;          /* realistic_flops_per_s / the peak its matmuls run at */
    double ridge_flop_per_byte;       /* the peak its matmuls run at / HBM bandwidth (0 for a collective) */
    bool compute_bound;               /* the floor's bound: intensity at or above the ridge */
};

struct analysis {
    /* Resolved hardware, per chip. */
    double peak_flops_per_s;          /* at compute_precision, after --peak-flops */
    double hbm_bytes_per_s;
    double hbm_bytes;
    enum rt_precision compute_precision; /* precision the matmuls run at: analysis_compute_precision */
    bool weight_only_quantization;    /* quantized weights, bf16 matmuls (W8A16, W4A16): the chip lacks a useful
                                         native peak at the weight precision, int4, or --act-precision bf16 */
    double ridge_flop_per_byte;       /* peak / bandwidth */

    /* Model. */
    double params;                    /* total: what memory holds */
    double active_params;             /* per token: what FLOPs are paid on */
    enum rt_params_source params_source;
    struct param_count shape_count;   /* the shape's own count, whatever params_source */
    double bytes_per_weight;
    double bytes_per_kv_element;

    int placement_count;              /* rows of placements[] in use */

    struct latency_verdict latency;   /* the verdict of the selected model (latency_model) */
    /* The three estimates disagree: on the verdict, or their totals differ by
     * more than 25% (largest / smallest > 1.25). other_model names the one
     * furthest from the selected estimate's total; the views say so. */
    bool estimates_disagree;
    bool verdicts_split;              /* the three verdicts are not all the same */
    double estimate_total_s[RT_LATENCY_COUNT]; /* napkin, floor, realistic totals, by rt_latency_model */
    bool estimate_ok[RT_LATENCY_COUNT];        /* their verdicts, by rt_latency_model */
    double estimate_min_s, estimate_max_s;     /* the smallest and largest of the three totals */
    enum rt_latency_model other_model;
    enum rt_latency_model latency_model;
    struct latency_verdict napkin;    /* the guide's napkin, always */
    struct detailed_latency detailed; /* the floor (the detailed model), always */
    struct realistic_latency realistic; /* the realistic estimate, always */
    struct efficiency_profile efficiency; /* the chip profile the realistic estimate used */
    struct hw_rates hw;               /* the rates the detailed model used */
    struct training_figures training;
    struct parallel_figures parallel;
    struct speculative_figures speculative;
    struct serving_figures serving;
    struct cost_figures cost;         /* per output token, from serving (realistic) */
    struct energy_figures energy;     /* per output token, from serving (realistic) */
    double decode_memory_step_s;      /* the textbook memory-bound decode step: (weights + the batch's KV at
                                         context + fixed state) bytes / (chips x bandwidth) */
    double prefill_mfu;               /* with --measured-ttft-s: prefill model FLOPs / (ttft x chips x peak); else 0 */
    double decode_mbu;                /* with --measured-tpot-s: step bytes / (tpot x chips x bandwidth); else 0 */
    struct memory_verdict memory;
    struct operation_figures operation; /* --op: one kernel alone */

    double decode_batch_intensity_flop_per_byte; /* ch. 8, at the scenario's batch and context */
    /* Where the decode row's intensity levels off as the batch grows: each
     * request adds 2 x active FLOPs a step and its own KV (and fixed state)
     * to read, so 2 x active / (KV + state a request) at this context. 0
     * when a request reads no KV or state (no ceiling). */
    double decode_intensity_ceiling_flop_per_byte;
    double decode_ridge_batch;        /* the batch at which decode reaches the ridge: ridge x weights / (2 x
                                         active - ridge x KV a request), rounded up; 0 when the ceiling is at
                                         or below the ridge (no batch gets there) */
    double gqa_saving;                /* heads / kv_heads */
    double kv_saving;                 /* MHA's KV elements per token and layer (every head's K and V) over
                                         the model's: gqa_saving for GQA, 71.1 for DeepSeek-V3's latent */
    double tile_efficiency_d_model;   /* ch. 7, at the scenario's tile */
    double tile_efficiency_d_ff;
    double tile_efficiency_d_head;

    bool has_mfu_budget;              /* always true: from step times, or from the shape */
    enum rt_budget_source mfu_budget_source;
    struct mfu_budget mfu_budget;     /* ch. 4; from the shape, .mfu is the PaLM MFU of the step */
    double hfu;                       /* step times: mfu x recompute_factor; shape: hardware FLOPs / (step x chips x peak) */
    double budget_causal_mfu, budget_causal_hfu; /* from the shape: the step counted causally (training's causal_mfu);
                                                    from step times: mfu_budget.mfu and hfu */
    double recompute_factor;          /* hardware / model FLOPs per token: 1 none, 8/6 full, from the shape if selective */

    /* The prompt (prefill tokens) is longer than the context: the KV cache,
     * the requests that fit and the decode's KV reads are sized for the
     * context while prefill computes over the whole prompt (a note says so). */
    bool prompt_exceeds_context;

    /* Assumptions a reader must know, one sentence each. */
    int note_count;                   /* rows of notes[] in use */

    /* The large arrays come last: analyze() clears everything before them
     * and fills only the rows it uses (counts above), which keeps a call
     * cheap. Rows past a count are unspecified. */
    struct placement placements[RT_MAX_PLACEMENTS];
    struct phase_cost phases[RT_PHASE_COUNT]; /* per chip, operation by operation */
    struct rt_note notes[RT_MAX_NOTES]; /* codes and values; note_text (notewords.h) words them */
};

/* The precision scenario s's matmuls run at: its --act-precision when one
 * is given; under auto, the weights' precision where the chip has a native
 * peak for it at least as fast as its bf16 peak, else bf16 (weight-only
 * quantization). int4 is always weight-only (W4A16, as AWQ and GPTQ kernels
 * serve it) whatever int4 tensor cores a chip has, and a peak slower than
 * bf16's (B300's cut int8) is not worth taking. Never fails: an invalid
 * scenario (scenario_check refuses it) gives bf16. */
enum rt_precision analysis_compute_precision(const struct scenario *s);



/* Analyzes scenario *s into *out. Returns 0 on success. Returns -1, with one
 * line naming the offending knob in err (errsize bytes), when the scenario is
 * invalid (see scenario_check) or a result would not be finite; *out is then
 * unspecified and must not be shown. The detailed model is in detailed.h;
 * both are always computed and the scenario's latency_model picks the
 * verdict. Napkin model (guide ch. 3-8):
 *   prefill placement: 2 x active x prefill_tokens x batch FLOPs over one read
 *     of the weights;
 *   decode placement: 2 x active x batch FLOPs over the weights plus every
 *     request's KV cache at context_tokens (ch. 8's decode_batch_intensity);
 *   training step: 6 x active x batch x context FLOPs over three passes over
 *     the weights (read forward, read backward, write gradients);
 *   latency: prefill_seconds + decode_seconds + overhead (weights-only decode).
 */
int analyze(const struct scenario *s, struct analysis *out, char *err, size_t errsize);

/* The phase row of a ("prefill", "decode" or "training"), not one of its
 * operations; NULL when a is NULL or has none (prefill with no prompt). */
const struct placement *analysis_phase_placement(const struct analysis *a, const char *phase);

/* How the views give the MFU budget's MFU (training's, with measured
 * true: the measured rate's): RT_MFU_NONE for a step from the shape (not
 * measured, no step times) whose training state does not fit; RT_MFU_CAUSAL
 * when the MFU or HFU passes 100% under PaLM's or Megatron's count;
 * RT_MFU_PLAIN otherwise. a must come from analyze(). */
enum rt_mfu_shown analysis_mfu_shown(const struct analysis *a, bool measured);

/* mfu_over_peak_reason for analysis a's MFU budget: with --step-times the
 * MFU is the matmul share, so an HFU over 100% is the recompute factor on
 * a step whose times leave the recompute none ("the step times leave
 * recompute no time", brief "recompute, no time"); else the convention's. */
const char *analysis_over_peak_reason(const struct analysis *a, bool brief);


/* What fails serving besides TTFT and TPOT: "weights do not fit",
 * "weights do not fit the prefill pool" or "requests outrun the engine" (an
 * open loop past what it serves), the first that holds, whether or not a
 * target is missed too; NULL when serving is OK or only targets miss. The
 * title, the targets panel and the reports' Verdict line say it beside the
 * MISS, which their TTFT and TPOT rows alone would not explain. */
const char *serving_blocker(const struct analysis *a);

/* The largest power-of-two batch, up to RT_MAX_BATCH, whose turn meets
 * the budget by s's selected estimate and fits in HBM (analyze()'s
 * latency.ok), searched by halving (a larger batch is never faster nor
 * smaller), from the first power of two that gives each of s's expert
 * groups a sequence (batch >= ep). Returns it, 0 when none is OK, or -1
 * when s is invalid. Costs about 5 analyze() calls: the explorer calls it
 * on each change of scenario; analyze() itself does not, so searches stay
 * fast. */
int64_t analysis_largest_ok_batch(const struct scenario *s);

/* Name of a params source: "shape", "stated", "given". */
const char *params_source_name(enum rt_params_source src);

#endif
