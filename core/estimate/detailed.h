/* detailed.h — beyond the napkin: every operation of a decoder layer and the
 * LM head, in prefill, decode and training, with its FLOPs and its bytes.
 *
 * Counting conventions (each a named term, so the napkin stays exact):
 * - 2 FLOPs per multiply-add. Matrix operations run at the tensor peak (times
 *   the tile efficiency of their per-chip shapes); element-wise operations at
 *   the chip's vector throughput (vector_flops_per_s, or the guide's "50-100x
 *   slower than matmul" lower end, peak / 50, when the vendor publishes none).
 * - Each operation takes max(FLOPs / throughput, bytes / bandwidth): the
 *   roofline of ch. 3, per operation (the blog's per-op advice).
 * - Attention is causal: a prompt of P tokens computes P(P+1)/2 score pairs
 *   per head, what a causal kernel executes; a sliding-window or chunked
 *   layer only the pairs inside its window or chunk (models.h,
 *   layer_prefill_pairs), and a decode step reads only the keys the layer
 *   attends to. Linear-attention and Mamba layers have no KV cache: their
 *   projections are one matrix operation, their state update (an estimate,
 *   see scan_flops_per_token) reads and writes each sequence's fixed state. Fused attention (the default,
 *   FlashAttention, Dao et al. 2022) keeps scores on chip; unfused writes and
 *   reads the P x P score matrix.
 * - Tensor parallelism over n chips (Megatron-LM, Shoeybi et al. 2019): QKV
 *   and MLP-up column-parallel, output and MLP-down row-parallel, two
 *   all-reduces of the activations per layer (four in training), each a ring
 *   moving 2(n-1)/n of the bytes over one direction of the link. A chip holds
 *   ceil(kv_heads / n) KV heads (parallel.h): past kv_heads chips the KV
 *   cache is copied, and its read per chip stops shrinking; a latent cache is
 *   whole on every chip.
 * - Expert parallelism: the routed experts spread over hw_rates.moe_ep
 *   ranks of the n x ep chips (all of them when ep > 1 and moe_ep is not
 *   given), each holding ceil(E / ranks) whole experts sliced n ep / ranks
 *   ways; with attention data-parallel (ep > 1) each MoE layer pays an
 *   all-to-all that sends a token once per rank its experts sit on
 *   (parallel.h); with attention tensor-parallel the TP all-reduce carries
 *   the combine.
 * - MoE: a step of T tokens touches E(1 - (1 - k/E)^T) distinct experts in
 *   expectation; their weights are read, k per token are computed.
 * - Activations are bf16, or 1 byte when the matmuls run natively at fp8 or
 *   int8 (W8A8); the token dimension is not padded to the tile.
 * - Element-wise FLOP counts are this model's estimates, not measured:
 *   softmax 5 per score (max, subtract, exp, sum, divide), RMSNorm 5 per
 *   element (square, sum, rsqrt, scale, weight; the count that gives the
 *   guide's layernorm intensity of 1.2 in ch. 3), a gated SiLU 5 per
 *   intermediate element (negate, exp, add, divide, gate multiply), GELU 8,
 *   a residual add 1. Unfused, each reads its inputs and writes its output.
 * - Training's optimizer step (analysis.c) is mixed-precision Adam: 28 bytes
 *   of traffic per parameter (fp32 master, m and v read and written, a bf16
 *   gradient read and a bf16 weight written; ZeRO, Rajbhandari et al. 2020,
 *   counts the same 16 bytes of state per parameter).
 * Pure: no I/O, no allocation.
 */
#ifndef ROOFTOP_DETAILED_H
#define ROOFTOP_DETAILED_H

#include <stdbool.h>

#include "kernels.h"
#include "realistic.h"
#include "scenario.h"

#define RT_MAX_OPS 20

enum rt_phase { RT_PHASE_PREFILL = 0, RT_PHASE_DECODE, RT_PHASE_TRAINING, RT_PHASE_COUNT };

/* "prefill", "decode", "training". */
const char *phase_name(enum rt_phase p);

/* One operation summed over every layer (or the LM head once), per chip. */
struct op_cost {
    const char *name;     /* a string literal: "qkv projection", "mlp" ... */
    bool matrix;          /* runs on the tensor unit */
    double flops;         /* per chip */
    double weight_bytes;  /* weights read, per chip */
    double kv_bytes;      /* KV cache read or written, per chip */
    double act_bytes;     /* activations (and scores) read and written, per chip */
    double tile_efficiency; /* matrix ops: real work / padded work of the per-chip shapes; 1 otherwise */
    double compute_s;     /* flops / (throughput x tile efficiency) */
    double memory_s;      /* bytes / bandwidth */
    double time_s;        /* max(compute_s, memory_s): the roofline floor */
    /* The realistic estimate (realistic.h): the floor's compute and memory
     * times over the achieved efficiencies, plus kernels x launch time. */
    double kernels;       /* kernel launches, every layer */
    double waves;         /* fraction of the chip its tiles keep busy over whole waves (1: no wave loss) */
    double realistic_s;
    double error_fraction; /* how sure realistic_s is: its kernel fit's cross-validated error (kernels.h) */
};

/* One phase (one prefill of the batch, one decode step, one training
 * forward pass) operation by operation, per chip. */
struct phase_cost {
    struct op_cost ops[RT_MAX_OPS];
    int count;
    double tokens;        /* tokens the phase processes (all chips) */
    double comms_bytes;   /* tensor-parallel all-reduce (and expert all-to-all) bytes each chip sends */
    double alltoall_bytes; /* of them, the MoE all-to-all's (expert parallel) */
    double comms_s;       /* their time over the interconnect */
    double time_s;        /* sum of the operations' times + comms_s: the floor */
    double allreduces;    /* all-reduces in the phase (one after each mixer and each MLP when n > 1) */
    double realistic_comms_s; /* 2(n-1) ring steps of the chip's step time each, bytes over the achieved link */
    double step_s;        /* the engine's fixed time per forward pass (prefill: plus admitting the requests) */
    double realistic_s;   /* sum of the operations' realistic times + realistic_comms_s + step_s */
    double error_fraction; /* the operations' and collectives' errors weighted by their realistic times */
};

/* A phase's work summed over the layer schedule, independent of the chip
 * count: attention pairs and KV traffic over the attention layers, the
 * fixed-state mixers, the MLP widths. phase_shape() fills it. */
struct phase_shape {
    double attn_layers;    /* layers with attention */
    double pairs;          /* query-key pairs per head, every attention layer and sequence */
    double kv_read_tokens; /* layer-tokens of KV read (decode) */
    double kv_new_tokens;  /* layer-tokens of KV written to the cache (prefill, decode) */
    double state_layers, mamba1_layers; /* linear-attention and Mamba layers; of them Mamba-1 */
    double state_params;   /* parameters of every fixed-state mixer */
    double scan_flops;     /* their state-update FLOPs for the phase's tokens (an estimate) */
    double state_bytes;    /* their state read and written (decode: each step; prefill: once) */
    double dense_layers, dense_ff; /* dense MLP layers and the sum of their widths */
    double moe_layers;
    double mixer_layers, mlp_layers; /* layers with a mixer, with an MLP (each ends in an all-reduce) */
    double index_layers;   /* sparse-attention layers (each with a lightning indexer) */
    double index_pairs;    /* query-key pairs per indexer head: every cached key, causally (not the top-k) */
    double index_read_tokens, index_new_tokens; /* layer-tokens of index keys read (decode) and written */
    double encoder_kv_params; /* cross-attention layers' key and value projections, not in state_params: they
                               * run over the encoder's tokens once a request (prefill, training), never in a
                               * decode step */
    double encoder_kv_flops;  /* their FLOPs for the phase (prefill: every sequence's encoder tokens) */
};

/* Resolved figures the detailed model needs, per chip. */
struct hw_rates {
    double peak_flops_per_s;   /* tensor peak at the compute precision */
    double vector_flops_per_s; /* vector throughput (resolved, > 0) */
    double hbm_bytes_per_s;
    double link_bytes_per_s;   /* one direction of the interconnect */
    double bytes_per_weight, bytes_per_kv;
    double bytes_per_act;      /* a matmul's input, in its compute precision (quantised by the kernel before it) */
    double bytes_per_stream;   /* the rest, bf16 (or wider): the residual stream, norms, matmul outputs and
                                  all-reduces; a quantised checkpoint quantises only what a GEMM reads */
    double n_chips;            /* tensor-parallel degree */
    /* The serving layout (parallel.h); zero values mean the plain layout:
     * seqs 0 = the scenario's batch, ep 0 or 1 = no expert parallelism,
     * query_tokens 0 or 1 = one new token per sequence in a decode step. */
    double seqs;               /* sequences one tensor-parallel group runs in one pass (attention-DP, micro-batch) */
    double ep;                 /* expert-parallel groups: routed experts over n_chips x ep chips */
    double ep_imbalance;       /* the busiest expert rank's load over the mean (0 = 1) */
    double moe_ep;             /* the experts' ranks over n_chips x ep chips (scenario.moe_ep); 0 = the plain
                                  layout: n_chips x ep when ep > 1, else 1 (experts sliced n_chips ways) */
    double ep_busy;            /* expert groups whose tokens reach the experts (0 = all ep; 1: one lone prompt) */
    double ep_link_bytes_per_s; /* one direction, for the all-to-all over n_chips x ep chips */
    double link_extra_step_s, ep_link_extra_step_s; /* network latency per step when the group crosses a domain */
    double query_tokens;       /* tokens per sequence a decode pass scores (k + 1 when verifying k drafts) */
    /* A parameter count given apart from the shape (--params, a stated
     * count) scales every weight matrix: FLOPs by active / the shape's
     * active, weight bytes by total / the shape's total. 1 otherwise. */
    double flop_scale, weight_scale;
    /* The shape's count and each phase's work, filled once per scenario by
     * hw_rates_prepare() so that costing a phase at many chip counts does
     * not redo them; phase_costs() works them out itself when !prepared. */
    bool prepared;
    /* What real kernels achieve (realistic.h); set by analyze(). eff is
     * the chip's profile: its own (a chip file's "efficiency"), else the
     * one the kernel fits imply (efficiency_from_kernels). */
    struct efficiency_profile eff;
    struct engine_profile engine;
    /* The measured kernel models (kernels.h), resolved once per scenario
     * by hw_rates_kernels(): the chip as they see it, each kind's
     * constants for its engine, format and KV precision (by value, so a
     * copy of hw_rates stands alone), where they came from, and how sure. */
    struct kernel_chip kchip;
    enum rt_kernel_engine kengine;
    enum rt_kernel_format kformat;   /* the matmuls' */
    bool kv_fp8;
    float kparams[RT_KERNEL_KIND_COUNT][RT_KERNEL_PARAMS];
    float ar_eager[RT_KERNEL_PARAMS]; /* the engine's all-reduce outside CUDA graphs (prefill) */
    struct kernel_view kview;         /* the chip's kernel fits (own or borrowed), and their derates */
    enum rt_kernel_family kfamily[RT_KERNEL_KIND_COUNT]; /* the kernel library each kind's fit is for */
    double kerror[RT_KERNEL_KIND_COUNT]; /* each kind's cross-validated error fraction */
    double kcompute_derate, kmemory_derate;
    enum rt_precision compute_precision;
    struct param_count count;
    struct phase_shape shape[RT_PHASE_COUNT];
};

/* The work of phase p of scenario s over its layer schedule; bytes_per_kv
 * sizes the fixed state. */
struct phase_shape phase_shape(const struct scenario *s, enum rt_phase p, double bytes_per_kv);

/* Fills hw's count and phase shapes for scenario s and sets prepared. */
void hw_rates_prepare(struct hw_rates *hw, const struct scenario *s);

/* Resolves hw's kernel models for scenario s (after its peak, bandwidth,
 * compute precision and link are set): the chip's view (kernel_view_for),
 * the engine (kernel_engine_for), each kind's fitted constants or the
 * defaults, and the profile they imply for elementwise work when the chip
 * file gives none (efficiency_from_kernels). */
void hw_rates_kernels(struct hw_rates *hw, const struct scenario *s);

/* Phase p's tensor-parallel all-reduces over a pass of `tokens` tokens
 * (> 0) on hw->n_chips chips, one after each mixer and each MLP of
 * d_model activations at hw->bytes_per_stream: the floor's (2(n-1)/n of
 * the bytes over hw->link_bytes_per_s) into *floor_s and the measured
 * collective model's into *realistic_s, seconds. Both 0 when n <= 1 or
 * there is no link. The part of phase_costs' comms that is the all-reduces;
 * a lower bound on them at any n for the chip-count search. */
void phase_allreduces_s(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, double tokens,
                        double *floor_s, double *realistic_s);

/* Costs phase p of scenario s on hardware hw into *out. s must have passed
 * scenario_check (the caller, analyze(), guarantees it); no failure mode. */
void phase_costs(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, bool fused_attention,
                 struct phase_cost *out);

/* Expected distinct experts a step of `tokens` tokens touches when each picks
 * k of E experts uniformly: E(1 - (1 - k/E)^tokens). E >= 1, 1 <= k <= E,
 * tokens >= 0. E when tokens is huge; k when tokens is 1. */
double experts_touched(double experts, double k, double tokens);

/* Model FLOPs per training token, the PaLM convention (Chowdhery et al.
 * 2022, appendix B): 6N + 12 x layers x heads x d_head x seq_len, attention
 * not halved for causality. */
double palm_model_flops_per_token(double n_params, double layers, double heads, double d_head, double seq_len);

/* The attention part of PaLM's model FLOPs per training token, layer by
 * layer: 6 x heads x (d_head + v_head_dim) x the keys each token sees
 * (layer_palm_keys: the sequence, or the window or chunk). For full
 * attention with v_head_dim = d_head this is PaLM's 12 x L x H x Q x T
 * (Chowdhery et al. 2022, app. B); linear and Mamba layers add none. */
double palm_attention_flops_per_token(const struct model_shape *m, double seq_len);

#endif
