/* parallel.h — how a model is split over chips when it is served: tensor,
 * pipeline, expert and data parallelism, the links between chips, and the
 * serving techniques that change a step's cost (speculative decoding,
 * disaggregated prefill).
 *
 * A replica of the model runs on tp x pp x ep chips:
 * - tensor parallel (tp, Megatron-LM, Shoeybi et al. 2019): each layer's
 *   heads and MLP columns split over tp chips; a chip holds ceil(kv_heads /
 *   tp) KV heads, so past kv_heads chips every KV head is copied (a latent
 *   attention cache, one latent per token, is copied to every rank);
 * - pipeline parallel (pp, GPipe/Megatron-LM): the layers split into pp
 *   stages as evenly as whole layers allow, the embedding on the first stage
 *   and the LM head on the last; a prefill of m micro-batches pays the bubble
 *   (pp - 1) / m of the ideal (Narayanan et al. 2021); a decode step passes
 *   every stage in turn, with pp micro-batches in flight;
 * - expert parallel (ep, the DP-attention + EP layout of SGLang and vLLM for
 *   DeepSeek-style models): ep groups of tp chips each run attention on their
 *   own share of the sequences, and the routed experts spread over all tp x
 *   ep chips; each MoE layer sends every token to its k experts and back (an
 *   all-to-all);
 * - data parallel (dp): whole replicas, each with its own batch.
 * Collectives cost alpha + bytes / bandwidth per step (Hockney's model, as
 * Thakur et al. 2005 use it); a group that spans more chips than one
 * scale-up domain runs at the scale-out bandwidth.
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef ROOFTOP_PARALLEL_H
#define ROOFTOP_PARALLEL_H

#include <stdbool.h>
#include <stdint.h>

#include "chips.h"
#include "models.h"

/* Tokens of the forward pass a serving engine sizes its activation
 * workspace for when the scenario names none: vLLM's default chunked-prefill
 * budget (max_num_batched_tokens 8192), or the prompt when shorter. */
#define RT_DEFAULT_ACTIVATION_TOKENS 8192

/* KV heads the busiest of tp chips holds: ceil(kv_heads / tp), at least 1.
 * kv_heads >= 1 (a latent-attention cache counts as 1), tp >= 1; 0 when
 * either is below 1. */
double kv_heads_per_chip(double kv_heads, double tp);

/* The share of one request's KV cache each of tp >= 1 tensor-parallel chips
 * holds: ceil(kv heads / tp) / kv heads of each attention layer (a latent
 * whole on every chip), weighted by the layers' KV elements at
 * context_tokens >= 0; for a model of one geometry, ceil(kv / tp) / kv
 * exactly, the same expression as kv_heads_per_chip gives. */
double model_kv_share_per_chip(const struct model_shape *m, double context_tokens, double tp);

/* Copies of each KV head over tp chips: tp x ceil(kv_heads / tp) / kv_heads
 * (1 while tp divides kv_heads; 2 for 8 heads on 16 chips, 4 on 32; tp for
 * a latent cache, kv_heads = 1). 0 when either is below 1. */
double kv_replication(double kv_heads, double tp);

/* Layers in the busiest of pp stages: ceil(layers / pp). layers >= 1,
 * 1 <= pp <= layers; 0 outside. */
double pipeline_stage_layers(double layers, double pp);

/* The pipeline bubble as a fraction of the ideal time (Narayanan et al.
 * 2021, eq. 1): (pp - 1) / microbatches. pp >= 1, microbatches >= 1; 0
 * outside. A prefill of ideal time t on pp stages takes t (1 + bubble). */
double pipeline_bubble_fraction(double pp, double microbatches);

/* Bytes one chip sends in one MoE layer's all-to-all, dispatch and combine
 * together: tokens_per_chip x copies x d_model x bytes_per_act x (ep - 1) /
 * ep x 2 (each token's activation goes to `copies` ranks, a share (ep-1)/ep
 * of them other chips, and comes back). copies is the ranks a token's
 * experts sit on (alltoall_destinations; k when each expert gets its own
 * copy). 0 when ep <= 1 or any input is not positive. */
double alltoall_bytes_per_chip(double tokens_per_chip, double copies, double d_model, double bytes_per_act, double ep);

/* Ranks a token's k experts sit on, in expectation, when `experts` are
 * spread evenly over `ranks` ranks and a token picks k distinct ones
 * uniformly: ranks x (1 - C(E - E/ranks, k) / C(E, k)), the chance a rank
 * holds none of them being the product over i < k of (E - E/ranks - i) /
 * (E - i). An all-to-all that sends a token once per destination rank
 * (DeepEP; the engines' dispatch) moves this many copies, not k: 5.33 for
 * 8 of 128 experts over 8 ranks. E/ranks need not be whole (redundant
 * experts fill a rank's slots). Between 1 and min(k, ranks); 0 when any
 * input is below 1 or k > experts. */
double alltoall_destinations(double k, double experts, double ranks);

/* Seconds of one all-reduce of `bytes` over n chips, alpha-beta: the faster
 * of a ring, 2(n-1) steps of alpha and 2(n-1)/n x bytes over the one-way
 * bandwidth, and a tree (NCCL's small-message algorithms), 2 ceil(log2 n)
 * steps and 2 x bytes (Thakur et al. 2005; NCCL's tuning picks the faster).
 * n >= 1; 0 when n <= 1 or the bandwidth is not positive. */
double allreduce_s(double n, double bytes, double alpha_s, double one_way_bytes_per_s);

/* Extra fixed time of one collective step that crosses the network rather
 * than NVLink: NCCL's tuning model puts a ring step's base hardware latency
 * at 0.47 us over NVLink and 2.7 us over the network (src/graph/tuning.cc,
 * hwLat, Ring/LL), so a crossing step costs 2.23 us more than the fitted
 * (NVLink) step time. */
#define RT_SCALE_OUT_EXTRA_STEP_S 2.23e-6

/* A link between chips, resolved for a group of chips. */
struct link_choice {
    double one_way_bytes_per_s; /* bandwidth each chip has in one direction (0: none published) */
    double extra_step_s;        /* added to each collective step: RT_SCALE_OUT_EXTRA_STEP_S when crossing, else 0 */
    bool crosses_domain;        /* the group spans more chips than one scale-up domain */
    bool scale_out_unknown;     /* ... and the chip publishes no scale-out figure (the interconnect is used) */
};

/* The link a collective over `group` chips runs at: the interconnect while
 * the group fits one scale-up domain (or the chip publishes none), else the
 * scale-out bandwidth (half the aggregate figure each way) and each step's
 * network latency. group >= 1. */
struct link_choice link_for_group(const struct chip_spec *chip, double group);

/* Expected tokens one target pass yields with speculative decoding
 * (Leviathan et al. 2023, eq. 1): (1 - a^(k+1)) / (1 - a) for k draft
 * tokens accepted each with probability a in [0, 1); k + 1 as a -> 1; 1 when
 * k <= 0. Returns 0 for a outside [0, 1) or a non-finite input. */
double spec_tokens_per_pass(double k, double a);

/* Expected tokens one target pass yields when draft i is accepted with
 * probability a[i] once drafts 0..i-1 were (acceptance by position, as
 * EAGLE and Medusa report it): 1 + sum over i of a[0] x ... x a[i]
 * (the bonus token plus each draft reached; Leviathan et al. 2023's
 * expectation with the i.i.d. rate replaced by the per-position ones).
 * k in [0, 16], each a[i] in [0, 1]; 0 for anything else. */
double spec_tokens_per_pass_by_position(const double *a, int k);

/* Tensor-parallel degree of each instance of a disaggregated prefill pool
 * of pool_chips chips, as engines deploy one (several instances, each
 * within one box): the largest divisor of pool_chips that divides the heads
 * and, when domain > 0, fits one scale-up domain of `domain` chips. The pool
 * is pool_chips / that many instances. 1 when nothing larger qualifies; 0
 * when pool_chips or heads is below 1. */
int64_t pool_instance_tp(int64_t pool_chips, int64_t heads, int64_t domain);

/* Seconds to move a KV cache of `bytes` over a link of one_way_bytes_per_s
 * (disaggregated prefill to decode), plus one step of alpha_s; 0 when bytes
 * <= 0; 0 when the bandwidth is not positive (nothing published). */
double kv_transfer_s(double bytes, double one_way_bytes_per_s, double alpha_s);

#endif
