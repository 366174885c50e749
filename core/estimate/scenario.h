/* scenario.h — every knob of one what-if, as a plain value type.
 *
 * The explorer edits a scenario on each keystroke, the command line builds one
 * from flags, and analyze() turns it into an analysis. A scenario holds no
 * pointers, so copying it (for undo, for a sweep row) is a plain assignment.
 */
#ifndef ROOFTOP_SCENARIO_H
#define ROOFTOP_SCENARIO_H

/* Speculative decoding's limits: draft tokens a pass, and the nodes of a
 * verified tree (Medusa's largest published tree has 64; EAGLE-2's 60). */
#define RT_SPEC_MAX_TOKENS 16
#define RT_SPEC_MAX_VERIFY 256

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chips.h"
#include "models.h"
#include "opspec.h"
#include "roofline.h"
#include "units.h"

/* Which estimate gives the verdict. The napkin is the guide's weights-only
 * decode and 2N-per-token prefill (ch. 5-6); the floor ("detailed") sums
 * every operation at its roofline (detailed.h); the realistic estimate puts
 * each operation through the chip's and the engine's efficiency profiles
 * (realistic.h). All three are always computed and shown. */
enum rt_latency_model { RT_LATENCY_NAPKIN = 0, RT_LATENCY_DETAILED, RT_LATENCY_REALISTIC, RT_LATENCY_COUNT };

/* "napkin", "floor", "realistic". */
const char *latency_model_name(enum rt_latency_model m);


/* Activation recomputation in training (Korthikanti et al. 2022). */
enum rt_recompute { RT_RECOMPUTE_NONE = 0, RT_RECOMPUTE_SELECTIVE, RT_RECOMPUTE_FULL, RT_RECOMPUTE_FRACTION };

/* The recompute mode's name as scenario files write it: "none", "selective",
 * "full", "fraction"; "?" out of range. */
const char *recompute_name(enum rt_recompute r);

/* How model FLOPs per training token are counted for MFU; published MFUs
 * differ. PaLM (Chowdhery et al. 2022, app. B): 6N + 12 L H Q T, every
 * parameter in N, attention over the whole context (the default). Megatron
 * (Narayanan et al. 2021, eq. 3; NeMo): the same without the input
 * embedding in N (a tied matrix stays, as the LM head). 6N: parameters
 * alone (Kaplan et al. 2020). Causal: 6N + 6 L H Q T, attention halved for
 * the causal mask. */
enum rt_flops_convention {
    RT_FLOPS_PALM = 0,
    RT_FLOPS_MEGATRON,
    RT_FLOPS_6N,
    RT_FLOPS_CAUSAL,
    RT_FLOPS_CONVENTION_COUNT
};

/* "palm", "megatron", "6n", "causal"; "?" out of range. */
const char *flops_convention_name(enum rt_flops_convention c);

/* Largest values a scenario accepts; each limit keeps every product finite. */
#define RT_MAX_CHIPS ((int64_t)1 << 24)
#define RT_MAX_BATCH ((int64_t)1 << 24)
#define RT_MAX_TOKENS ((int64_t)1 << 30)
#define RT_MAX_PARAMS 1e16
#define RT_MIN_MFU 1e-3          /* the least achieved fraction of peak: 0.1% */
#define RT_MIN_SECONDS 1e-6      /* the shortest budget, target or measured time: a microsecond */
#define RT_DEFAULT_MAX_CHIPS 65536

struct scenario {
    struct chip_spec chip;
    /* Overrides of the chip's figures (the guide's rounded ones, a measured
     * bandwidth); 0 = use the chip's. peak_flops_override replaces the peak at
     * the compute precision. */
    double peak_flops_override;       /* FLOP/s */
    double hbm_bytes_per_s_override;  /* bytes/s */
    double hbm_bytes_override;        /* bytes */
    int64_t chips;                    /* chips serving one model replica, tp x pp x ep, >= 1 */

    struct model_shape model;
    /* Parameter count given on its own (--params, the guide's round numbers):
     * > 0 replaces the shape's count and treats the model as dense (active =
     * total); 0 = use model.stated_params, else the count derived from the
     * shape. */
    double params;

    int64_t batch;                    /* concurrent sequences, >= 1 */
    enum rt_precision precision;      /* weights (bytes per weight); the matmuls' too, unless act_precision says */
    enum rt_precision kv_precision;   /* KV-cache elements */
    /* The matmuls' inputs (activations): RT_PRECISION_AUTO follows the
     * weights where the chip has a native peak for them (analysis.c,
     * resolve_hardware), else one of the precisions but int4; never
     * narrower than the weights, and a peak the chip has (--act-precision). */
    enum rt_precision act_precision;
    int64_t context_tokens;           /* tokens held in each request's KV cache, >= 1 */
    int64_t prefill_tokens;           /* prompt tokens per request this turn, >= 0 */
    int64_t decode_tokens;            /* tokens generated per request this turn, >= 0 */
    double budget_s;                  /* latency budget for one turn, > overhead_s */
    double overhead_s;                /* scaffolding time inside the budget, >= 0 */
    double reserve_bytes;             /* HBM held back for the runtime, across all chips, >= 0 */
    double mfu;                       /* achieved fraction of peak during prefill, (0, 1] */
    int64_t max_chips;                /* largest power of two chips_for_budget tries, >= 1 */
    int64_t tile;                     /* matmul tile edge for tile efficiency (128: TPU MXU) */

    bool has_step_times;              /* step_times_s given: build the MFU budget from them */
    double step_times_s[RT_PART_COUNT]; /* matmul, vector, memory, comms, optimizer seconds */
    enum rt_recompute recompute;      /* what the forward pass recomputes in the backward */
    double recompute_fraction;        /* RT_RECOMPUTE_FRACTION: share of the forward recomputed, [0, 1] */

    enum rt_latency_model latency_model;
    struct engine_profile engine;     /* the serving engine (realistic.h): --engine */
    bool unfused_attention;           /* attention writes its score matrix to HBM (no FlashAttention) */
    int64_t data_parallel;            /* replicas: training (gradient all-reduce) and serving (each its own batch), >= 1 */

    /* The serving layout (parallel.h). A replica's chips are tp x pp x ep;
     * tp is not stored but derived, chips / (pp x ep), so that --chips alone
     * stays tensor parallel. batch is the replica's concurrent sequences. */
    int64_t pp;                       /* pipeline stages, [1, layers] */
    int64_t ep;                       /* expert-parallel groups, >= 1; > 1 needs experts it divides */
    int64_t microbatches;             /* prefill micro-batches through the pipeline; 0 = one per sequence */
    double ep_imbalance;              /* the busiest expert rank's load over the mean, [1, 64] */
    int64_t activation_tokens;        /* tokens of the forward pass the activation workspace is sized for;
                                         0 = the prompt, at most RT_DEFAULT_ACTIVATION_TOKENS */
    /* Speculative decoding (Leviathan et al. 2023); spec_tokens 0 = off. */
    int64_t spec_tokens;              /* draft tokens proposed per target pass, [0, 16] */
    double spec_accept;               /* probability each draft token is accepted, [0, 1) (unused with positions) */
    /* Acceptance by position (EAGLE's and Medusa's measured per-depth rates): the chance draft i is accepted
     * once drafts 1..i-1 were, [0, 1]; spec_accept_positions of them (0 = spec_accept for every draft, else
     * exactly spec_tokens). */
    double spec_accept_by_position[RT_SPEC_MAX_TOKENS];
    int64_t spec_accept_positions;
    int64_t spec_verify_tokens;       /* tokens a sequence the target scores a pass: 0 = a chain's k + 1; more = a
                                         tree of that many nodes (Medusa, EAGLE-2), [k + 1, RT_SPEC_MAX_VERIFY] */
    double spec_draft_params;         /* the draft's parameters; 0 = one layer of the target (an MTP head) */
    char spec_draft_name[RT_MODEL_NAME_MAX]; /* the draft's name for the report ("" = MTP head) */
    /* Serving targets in steady state; 0 = none. */
    double ttft_target_s;             /* time to first token */
    double tpot_target_s;             /* time per output token */
    /* Disaggregated serving: > 0 runs prefill on its own pool of this many
     * chips (tensor parallel) and moves each request's KV cache to the
     * decode pool (the layout above); 0 = prefill and decode share chips. */
    int64_t disagg_prefill_chips;
    int64_t disagg_prefill_tp;        /* each prefill worker's tensor-parallel chips; 0 = derived (pool_instance_tp) */
    int64_t disagg_prefill_dp;        /* each prefill worker's attention-DP ranks (each a prompt at a time); 0 = 1 */
    int64_t disagg_prefill_moe_ep;    /* each prefill worker's expert ranks over its tp x dp chips (as moe_ep); 0 = tp x dp when
                                         dp > 1, else the experts sliced over the worker's tp */
    /* The experts' own layout over a stage's tp x ep chips (TRT-LLM
     * moe_ep_size, vLLM --enable-expert-parallel): moe_ep ranks each hold
     * ceil(experts / moe_ep) whole experts (redundant ones fill an EP that
     * does not divide them), sliced tp x ep / moe_ep ways. 0 = the plain
     * layout: all tp x ep chips when ep > 1, else none (experts sliced tp ways). */
    int64_t moe_ep;
    /* How the engine is loaded (serving.h): a closed loop of `batch`
     * clients per replica, or an open loop at arrival_per_s requests per
     * second per replica (> 0). */
    double arrival_per_s;
    int64_t bench_rounds;             /* a closed-loop benchmark sends bench_rounds x batch requests, >= 1 */
    double prefix_hit;                /* share of each prompt found in the engine's prefix cache, [0, 1) */
    double comm_overlap;              /* share of training communication hidden behind compute, [0, 1] */

    /* Measurements of a real run; 0 = none. */
    double measured_train_tokens_per_s; /* all replicas together */
    double measured_ttft_s;           /* time to first token of one prefill of the batch */
    double measured_tpot_s;           /* time per output token (one decode step) */

    /* Cost and energy per output token (analysis.h cost_figures,
     * energy_figures); 0 = the chip's own figure, or none. */
    double price_usd_per_chip_hour;   /* USD per chip-hour, (0, 1e4]; 0 = the chip's listed price */
    double power_w;                   /* W drawn per chip, [1, 1e6]; 0 = the chip's TDP */
    double pue;                       /* data-centre power usage effectiveness, [1, 3]; 0 = 1.0 (the chip alone) */
    /* Training totals (analysis.h training_figures); 0 = not asked. */
    enum rt_flops_convention flops_convention; /* model FLOPs per token for MFU: --flops-convention */
    double train_tokens;              /* tokens of the whole run: --train-tokens, [1, 1e16] */
    double train_mfu;                 /* MFU the totals assume, (0, 1]; 0 = the analysis's training MFU */
    double train_chip_hours;          /* a published chip-hours figure: the MFU it implies; needs train_tokens */

    /* One operation by its shape (--op, opspec.h): analyze() then also
     * times that kernel alone on one chip (analysis.operation). */
    struct op_spec op;
};

/* Fills *s with the built-in default scenario, the guide's napkin (ch. 6),
 * its verdict from the realistic estimate with the generic engine (the
 * napkin's figures are always computed beside it):
 * guide-70b (N = 70e9) on one TPU v5e, bf16 weights and KV (activations
 * auto: bf16 with them), batch 1, 8192
 * prefill and 128 decode tokens, 8192-token context, a 1.0 s budget with
 * 0.25 s overhead, MFU 1.0, nothing reserved, chips searched up to 65536,
 * tile 128. */
void scenario_default(struct scenario *s);

/* Checks every field of *s. Returns 0 when valid; otherwise -1 with one line
 * in err (errsize bytes) that names the knob (by its command-line flag), the
 * value and the accepted range. */
int scenario_check(const struct scenario *s, char *err, size_t errsize);

/* The drafts' acceptance as the reports word it, into buf (size bytes,
 * cut at a character boundary of plain ASCII): "0.70" (--spec-accept A for
 * every draft) or "0.90, 0.50, 0.20 by position". Returns buf. */
const char *scenario_spec_accept_words(const struct scenario *s, char *buf, size_t size);

/* The tensor-parallel degree of s: chips / (pp x ep); 0 when that is not
 * whole (scenario_check refuses such a layout). */
int64_t scenario_tp(const struct scenario *s);

/* Replaces the model with a built-in preset (or any shape), clearing a
 * --params override so that the shape's own count applies. A shape with no
 * layer schedule (kind_count 0) gets one: every layer full attention. */
void scenario_set_model(struct scenario *s, const struct model_shape *m);

/* Starts s's precisions from its model's checkpoint (models.h,
 * checkpoint_quantized): the weights at the checkpoint's format, the KV
 * cache at the format the checkpoint states (fp8, nvfp4), and the matmuls
 * at bf16 for a weight-only format (fp8 for W4A8). Nothing for a model with no stated format. Flags
 * applied after it (--precision, --kv-precision, --act-precision) win. */
void scenario_use_checkpoint(struct scenario *s);

#endif
