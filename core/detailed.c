/* detailed.c — operation-by-operation costs of prefill, decode and training.
 * See detailed.h for the conventions and their sources. */
#include "detailed.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models.h"
#include "parallel.h"
#include "roofline.h"

const char *phase_name(enum rt_phase p)
{
    static const char *const names[RT_PHASE_COUNT] = {"prefill", "decode", "training"};
    return ((int)p >= 0 && p < RT_PHASE_COUNT) ? names[p] : "?";
}

double experts_touched(double experts, double k, double tokens)
{
    if (!(experts >= 1.0) || !(k >= 1.0) || k > experts || !(tokens >= 0.0))
        return 0.0;
    return experts * (1.0 - pow(1.0 - k / experts, tokens));
}

double palm_model_flops_per_token(double n_params, double layers, double heads, double d_head, double seq_len)
{
    return 6.0 * n_params + 12.0 * layers * heads * d_head * seq_len;
}

/* Tile efficiency of a dimension split over n chips (ceil to whole elements). */
static double shard_tile(double dim, double n, int64_t tile)
{
    double per_chip = ceil(dim / n);
    if (per_chip < 1.0)
        per_chip = 1.0;
    return tile_efficiency((int64_t)(per_chip < 4e18 ? per_chip : 4e18), tile);
}

/* Appends an operation and times it on hw (the floor); returns it, or NULL
 * when the list is full. */
static struct op_cost *add_op(struct phase_cost *pc, const struct hw_rates *hw, const char *name, bool matrix,
                              double flops, double weight_bytes, double kv_bytes, double act_bytes, double tile_eff)
{
    if (pc->count >= RT_MAX_OPS)
        return NULL;
    struct op_cost *op = &pc->ops[pc->count++];
    op->name = name;
    op->matrix = matrix;
    op->flops = flops;
    op->weight_bytes = weight_bytes;
    op->kv_bytes = kv_bytes;
    op->act_bytes = act_bytes;
    op->tile_efficiency = matrix ? tile_eff : 1.0;
    double rate = matrix ? hw->peak_flops_per_s * op->tile_efficiency : hw->vector_flops_per_s;
    op->compute_s = flops / rate;
    op->memory_s = (weight_bytes + kv_bytes + act_bytes) / hw->hbm_bytes_per_s;
    op->time_s = op->compute_s > op->memory_s ? op->compute_s : op->memory_s; /* both finite, >= 0 */
    op->kernels = 0.0;
    op->waves = 1.0;
    op->realistic_s = op->time_s;
    return op;
}

/* What kind of kernel an operation runs, for the realistic estimate. */
enum { KIND_PLAIN = 0, KIND_ATTENTION = 1, KIND_MOE = 2 };

/* The realistic time of op (realistic.h): its floor's compute time over the
 * achieved matmul fraction at the compute precision times waves (the
 * fraction of the chip its tiles keep busy), its memory time over the
 * achieved bandwidth,
 * attention and MoE kernels over the engine's efficiency, plus kernels x
 * the launch time. fill (0, 1] scales the memory rate of decode attention
 * (few work units). */
static void realistic_op_fill(struct op_cost *op, const struct hw_rates *hw, double kernels, double waves, int kind,
                              double kv_fill, double fill);

static void realistic_op(struct op_cost *op, const struct hw_rates *hw, double kernels, double waves, int kind,
                         double fill)
{
    realistic_op_fill(op, hw, kernels, waves, kind, fill, fill);
}

/* realistic_op with the KV-cache bytes at their own fill: decode attention
 * splits the cache over more work units than it has (sequence, kv head)
 * pairs, while its query and output bytes stay with the pairs. */
static void realistic_op_fill(struct op_cost *op, const struct hw_rates *hw, double kernels, double waves, int kind,
                              double kv_fill, double fill)
{
    if (!op)
        return;
    const struct efficiency_profile *e = &hw->eff;
    double attention = kind == KIND_ATTENTION ? hw->engine.attention : 1.0;
    double grouped = kind == KIND_MOE ? hw->engine.moe : 1.0; /* the fused-MoE kernel's grouped GEMMs */
    double compute_eff = op->matrix ? e->matmul[hw->compute_precision] * waves : 1.0;
    double compute = op->compute_s / (compute_eff * attention * grouped);
    double memory = kv_fill == fill ? op->memory_s / (e->memory * attention * fill)
                                    : (op->kv_bytes / kv_fill + (op->weight_bytes + op->act_bytes) / fill) /
                                          (hw->hbm_bytes_per_s * e->memory * attention);
    op->kernels = kernels;
    op->waves = waves;
    op->realistic_s = (compute > memory ? compute : memory) + kernels * e->kernel_s;
}

/* The fraction of the chip an M x N x K GEMM keeps busy over whole waves,
 * counting only the useful part of each output tile, as a GEMM library
 * picks its tiling: the best of 128 x 128, 128 x 64 and 64 x 64 tiles, each
 * with split-K into 1, 2 or 4 parts where K allows (at least 512 deep a
 * part) and the tiles fill less than one wave. 1 without a wave model (sm_count 0). A tiling whose useful share
 * cannot beat the best so far is skipped (this runs for every GEMM of every
 * analyze() call and every step of the chips search). */
/* ceil(a / b) for 1 <= a, b < 2^40, in double arithmetic: exact there (the
 * quotient's fraction, at least 1/b, is far above its rounding), and much
 * cheaper than 64-bit integer division on the hot path of every GEMM. */
static inline int64_t ceil_div(int64_t a, int64_t b)
{
    return (int64_t)((double)(a + b - 1) / (double)b);
}

static double gemm_waves(const struct hw_rates *hw, double m, double n, double k)
{
    static const int64_t tiles[][2] = {{128, 128}, {128, 64}, {64, 64}};
    const int64_t sms = hw->eff.sm_count;
    /* Past a billion rows or columns the padding and the last wave are lost in the rounding. */
    if (sms <= 0 || !(m > 0.0) || !(n > 0.0) || m >= 1e9 || n >= 1e9)
        return 1.0;
    const int64_t rows_in = (int64_t)ceil(m), cols_in = (int64_t)ceil(n);
    const int max_split = k >= 2048.0 ? 4 : k >= 1024.0 ? 2 : 1; /* at least 512 deep a part */
    double best = 0.0;
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
        int64_t rows = ceil_div(rows_in, tiles[t][0]), cols = ceil_div(cols_in, tiles[t][1]);
        double useful = m * n / ((double)(rows * tiles[t][0]) * (double)(cols * tiles[t][1])); /* the rest: padding */
        if (useful <= best)
            continue;
        /* Split-K only while the tiles fill less than one wave, as GEMM heuristics use it. */
        int splits = rows * cols < sms ? max_split : 1;
        for (int split = 1; split <= splits; split *= 2) {
            int64_t count = rows * cols * split;
            double e = useful * (double)count / (double)(ceil_div(count, sms) * sms);
            best = e > best ? e : best;
        }
    }
    return best;
}

/* State-update FLOPs per token of a fixed-state mixer, an estimate of
 * this model: Gated DeltaNet reads the state against the key, writes the
 * delta update and reads it against the query, about 6 x value_heads x
 * key_dim x value_dim (Yang et al. 2024); Mamba's selective scan about 6 x
 * d_inner x d_state (Gu & Dao 2023), each plus the convolution. */
static double scan_flops_per_token(const struct model_shape *m, enum rt_mixer mixer)
{
    if (mixer == RT_MIXER_LINEAR) {
        double kd = (double)(m->lin_key_heads * m->lin_key_head_dim);
        double vd = (double)(m->lin_value_heads * m->lin_value_head_dim);
        return 6.0 * (double)m->lin_value_heads * (double)m->lin_key_head_dim * (double)m->lin_value_head_dim +
               2.0 * (2.0 * kd + vd) * (double)m->lin_conv_kernel;
    }
    if (mixer == RT_MIXER_MAMBA || mixer == RT_MIXER_MAMBA2)
        return 6.0 * (double)m->ssm_d_inner * (double)m->ssm_d_state +
               2.0 * (double)m->ssm_d_inner * (double)m->ssm_d_conv;
    return 0.0;
}

struct phase_shape phase_shape(const struct scenario *s, enum rt_phase p, double bytes_per_kv)
{
    const struct model_shape *m = &s->model;
    const double B = (double)s->batch, context = (double)s->context_tokens;
    const double seq = p == RT_PHASE_PREFILL ? (double)s->prefill_tokens : context;
    const double T = p == RT_PHASE_DECODE ? B : B * seq;
    struct phase_shape z = {0};
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *k = &m->kinds[i];
        double n = (double)k->count;
        if (mixer_is_attention(k->mixer)) {
            z.attn_layers += n;
            if (p == RT_PHASE_DECODE) {
                double keys = layer_decode_keys(k, context);
                z.pairs += n * B * keys;
                z.kv_read_tokens += n * B * keys;
                z.kv_new_tokens += n * B; /* the new token's keys and values */
            } else {
                z.pairs += n * B * layer_prefill_pairs(k, seq);
                if (p == RT_PHASE_PREFILL)
                    z.kv_new_tokens += n * B * layer_kv_tokens(k, seq);
            }
        } else if (k->mixer != RT_MIXER_NONE) {
            z.state_layers += n;
            z.mamba1_layers += k->mixer == RT_MIXER_MAMBA ? n : 0.0;
            z.state_params += n * model_mixer_params(m, k->mixer);
            z.scan_flops += n * T * scan_flops_per_token(m, k->mixer);
            if (p != RT_PHASE_TRAINING)
                z.state_bytes += n * B * model_state_bytes_per_layer(m, k->mixer, bytes_per_kv) * 2.0;
        }
        z.mixer_layers += k->mixer != RT_MIXER_NONE ? n : 0.0;
        z.mlp_layers += k->no_mlp ? 0.0 : n;
        if (k->no_mlp) {
        } else if (k->moe) {
            z.moe_layers += n;
        } else {
            z.dense_layers += n;
            z.dense_ff += n * (double)(k->d_ff > 0 ? k->d_ff : m->d_ff);
        }
    }
    return z;
}

void hw_rates_prepare(struct hw_rates *hw, const struct scenario *s)
{
    hw->count = model_param_count(&s->model);
    for (int p = 0; p < RT_PHASE_COUNT; p++)
        hw->shape[p] = phase_shape(s, (enum rt_phase)p, hw->bytes_per_kv);
    hw->prepared = true;
}

void phase_costs(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, bool fused_attention,
                 struct phase_cost *out)
{
    out->count = 0; /* every field of each op is set by add_op; no need to clear the array */
    out->comms_bytes = out->comms_s = 0.0;
    const struct model_shape *m = &s->model;
    struct param_count pc_local;
    const struct param_count *pcp = &hw->count;
    if (!hw->prepared) {
        pc_local = model_param_count(m);
        pcp = &pc_local;
    }
    const struct param_count *pc = pcp;
    const double n = hw->n_chips, wb = hw->bytes_per_weight, kvb = hw->bytes_per_kv, ab = hw->bytes_per_act;
    const double L = (double)m->layers, d = (double)m->d_model, H = (double)m->heads, V = (double)m->vocab;
    const double kvh = (double)m->kv_heads, B = hw->seqs > 0.0 ? hw->seqs : (double)s->batch;
    const double e = hw->ep > 1.0 ? hw->ep : 1.0;
    /* Query tokens per sequence in a decode pass (verifying k draft tokens scores k + 1). */
    const double q = p == RT_PHASE_DECODE && hw->query_tokens > 1.0 ? hw->query_tokens : 1.0;
    /* Share of one sequence's KV cache on each chip: ceil(kv heads / n) of them, the whole latent. */
    const double kv_units = m->kv_lora_rank > 0 ? 1.0 : kvh;
    const double kvs = kv_heads_per_chip(kv_units, n) / kv_units;
    const double dq = (double)m->d_head;
    const double dv = (double)model_v_head_dim(m);
    const int64_t tile = s->tile;

    /* Tokens processed, scores an unfused kernel stores, tokens reaching the LM head. */
    double seq = p == RT_PHASE_PREFILL ? (double)s->prefill_tokens : (double)s->context_tokens;
    double tokens, stored_scores, head_tokens;
    if (p == RT_PHASE_DECODE) {
        tokens = B * q;
        stored_scores = B * q * (double)s->context_tokens;
        head_tokens = B * q;
    } else {
        tokens = B * seq;
        stored_scores = B * seq * seq;      /* an unfused kernel materialises the square */
        head_tokens = p == RT_PHASE_PREFILL ? B : tokens; /* prefill: logits of the last position only */
    }
    out->tokens = tokens;
    double T = tokens;
    struct phase_shape z_local;
    const struct phase_shape *zp = &hw->shape[p];
    if (!hw->prepared) {
        z_local = phase_shape(s, p, kvb);
        zp = &z_local;
    }
    /* The shape is summed over the scenario's batch; a pass over fewer
     * sequences (or more query tokens) scales its per-sequence work. */
    struct phase_shape z_scaled;
    double zr = B / (double)s->batch;
    if (zr != 1.0 || q != 1.0) {
        z_scaled = *zp;
        z_scaled.pairs *= zr * q;
        z_scaled.kv_read_tokens *= zr;
        z_scaled.kv_new_tokens *= zr * q;
        z_scaled.scan_flops *= zr * q;
        z_scaled.state_bytes *= zr;
        zp = &z_scaled;
    }
    const struct phase_shape *z = zp;
    const double La = z->attn_layers;

    double kv_elems = model_kv_elements_per_token_per_layer(m); /* per token per attention layer */
    double o_params = H * dv * d;
    double qkv_params = pc->attention_per_layer - o_params;
    double qkv_width = qkv_params / d;
    const double fs = hw->flop_scale, ws = hw->weight_scale;

    if (La > 0.0) {
        /* QKV projection; prefill and decode write the new keys and values to
         * the cache (a windowed layer keeps only its window of a prompt). */
        realistic_op(add_op(out, hw, "qkv projection", true, La * 2.0 * T * qkv_params * fs / n,
                            La * qkv_params * wb * ws / n, z->kv_new_tokens * kv_elems * kvb * kvs,
                            La * (T * d * ab + T * qkv_width * ab / n),
                            shard_tile(d, 1, tile) * shard_tile(qkv_width, n, tile)),
                     hw, La, gemm_waves(hw, T, qkv_width / n, d), KIND_PLAIN, 1.0);

        /* Attention: scores, softmax, x V. */
        double q_bytes = T * H * dq * ab / n;
        double k_cache, v_cache;
        if (m->kv_lora_rank > 0) { /* the latent serves K and V: read once, charged to the scores */
            k_cache = z->kv_read_tokens * kv_elems * kvb * kvs;
            v_cache = 0.0;
        } else {
            k_cache = z->kv_read_tokens * kvh * dq * kvb * kvs;
            v_cache = z->kv_read_tokens * kvh * dv * kvb * kvs;
        }
        double k_fresh = p == RT_PHASE_DECODE ? 0.0 : T * kvh * dq * ab * kvs;
        double v_fresh = p == RT_PHASE_DECODE ? 0.0 : T * kvh * dv * ab * kvs;
        double score_bytes = fused_attention ? 0.0 : stored_scores * H * ab / n;
        /* A fused kernel is one launch per layer; its work units are query blocks of 128 (prefill) or
         * (sequence, kv head) pairs, each split over chunks of about 256 cached tokens (decode, split-KV:
         * the cache is split evenly, so the count is fractional and one more token never makes a step
         * faster). The split reaches only the cache bytes: the query and output bytes stay with the
         * pairs. */
        double heads_here = fmax(1.0, H / n), kv_here = fmax(1.0, kvh / n);
        double units = p == RT_PHASE_DECODE ? B * kv_here * fmax(1.0, (double)s->context_tokens / 256.0)
                                            : B * heads_here * ceil(seq / 128.0);
        /* A prefill's part-filled last query block takes a whole block's time (decode splits the
         * cache evenly, so its chunks have no such tail). */
        double padded = p == RT_PHASE_DECODE ? 1.0 : seq / (ceil(seq / 128.0) * 128.0);
        double fill = p == RT_PHASE_DECODE ? wave_efficiency(units, hw->eff.sm_count) : 1.0;
        double pair_fill = p == RT_PHASE_DECODE ? wave_efficiency(B * kv_here, hw->eff.sm_count) : 1.0;
        double prefill_waves = p == RT_PHASE_DECODE ? 1.0 : padded * wave_efficiency(units, hw->eff.sm_count);
        double launches = fused_attention ? 0.0 : La;
        realistic_op_fill(add_op(out, hw, "attention scores", true, 2.0 * H * dq * z->pairs / n, 0.0, k_cache,
                            La * (q_bytes + k_fresh + score_bytes), shard_tile(dq, 1, tile)),
                          hw, La, prefill_waves, KIND_ATTENTION, fill, pair_fill);
        realistic_op(add_op(out, hw, "softmax", false, 5.0 * H * z->pairs / n, 0.0, 0.0, La * 2.0 * score_bytes, 1.0),
                     hw, launches, 1.0, KIND_ATTENTION, 1.0);
        realistic_op_fill(add_op(out, hw, "attention x V", true, 2.0 * H * dv * z->pairs / n, 0.0, v_cache,
                            La * (v_fresh + score_bytes + T * H * dv * ab / n), shard_tile(dv, 1, tile)),
                          hw, launches, prefill_waves, KIND_ATTENTION, fill, pair_fill);
        realistic_op(add_op(out, hw, "output projection", true, La * 2.0 * T * o_params * fs / n,
                            La * o_params * wb * ws / n, 0.0, La * (T * H * dv * ab / n + T * d * ab),
                            shard_tile(H * dv, n, tile) * shard_tile(d, 1, tile)),
                     hw, La, gemm_waves(hw, T, d, H * dv / n), KIND_PLAIN, 1.0);
    }

    /* Linear-attention and Mamba layers: their projections, and the state
     * update, which reads and writes each sequence's state once a step
     * (decode) or once a prompt (prefill; the chunked scan keeps it on chip
     * in between). */
    if (z->state_layers > 0.0) {
        realistic_op(add_op(out, hw, "state-mixer projections", true, 2.0 * T * z->state_params * fs / n,
                            z->state_params * wb * ws / n, 0.0, z->state_layers * 2.0 * T * d * ab,
                            shard_tile(d, 1, tile)),
                     hw, 2.0 * z->state_layers, gemm_waves(hw, T, d, d), KIND_PLAIN, 1.0);
        /* Mamba-2's and linear attention's chunked algorithms run on the tensor
         * unit; Mamba-1's selective scan runs on the vector unit. */
        bool on_tensor = z->mamba1_layers <= 0.0;
        realistic_op(add_op(out, hw, "state update", on_tensor, z->scan_flops / n, 0.0, z->state_bytes / n, 0.0, 1.0),
                     hw, 2.0 * z->state_layers, 1.0, KIND_PLAIN, 1.0);
    }

    /* MLP: dense layers (each its width), or routed + shared experts with a router. */
    double mats = m->gated_mlp ? 3.0 : 2.0;
    double moe_layers = z->moe_layers;
    double ff_e = m->moe_d_ff > 0 ? (double)m->moe_d_ff : (double)m->d_ff;
    double ff_s = m->shared_d_ff > 0 ? (double)m->shared_d_ff : ff_e;
    double k_routed = (double)m->experts_per_token, shared = (double)m->shared_experts;
    /* Expert parallel: the routed experts of the busy groups' tokens (all e
     * in steady state; one for a prompt alone) spread over n x e chips, so
     * a chip computes busy / e of one group's routed FLOPs and reads its 1/e
     * of the experts those tokens touch, each times the busiest rank's
     * imbalance (at most all of its experts). */
    double imbalance = e > 1.0 && hw->ep_imbalance > 1.0 ? hw->ep_imbalance : 1.0;
    double busy = hw->ep_busy > 0.0 && hw->ep_busy < e ? hw->ep_busy : e; /* groups whose tokens arrive */
    double touched = moe_layers > 0.0 ? fmin((double)m->experts / e,
                                             experts_touched((double)m->experts, k_routed, T * busy) / e * imbalance)
                                      : 0.0;
    double mlp_flops = 2.0 * T * mats * d * z->dense_ff +
                       moe_layers * 2.0 * T * mats * d * (k_routed * ff_e * imbalance * busy / e + shared * ff_s);
    double mlp_weights = (mats * d * z->dense_ff + moe_layers * mats * d * (touched * ff_e + shared * ff_s)) * wb;
    double ff_tokens = T * z->dense_ff + moe_layers * T * (k_routed * ff_e + shared * ff_s); /* intermediate elements */
    if (moe_layers > 0.0)
        realistic_op(add_op(out, hw, "router", true, moe_layers * 2.0 * T * d * (double)m->experts * fs / n,
                            moe_layers * d * (double)m->experts * wb * ws / n, 0.0,
                            moe_layers * T * (double)m->experts * ab, 1.0),
                     hw, moe_layers, 1.0, KIND_PLAIN, 1.0);
    double mlp_tile = shard_tile(d, 1, tile) * shard_tile(moe_layers > 0.0 ? ff_e : (double)m->d_ff, n, tile);
    /* Dense: the up (and gate) GEMM and the down GEMM; MoE: the fused kernel's two grouped GEMMs. */
    double up_cols = (mats - 1.0) * (moe_layers > 0.0 ? ff_e : (double)m->d_ff) / n;
    realistic_op(add_op(out, hw, moe_layers > 0.0 ? "mlp (experts)" : "mlp", true, mlp_flops * fs / n,
                        mlp_weights * ws / n, 0.0, (z->mlp_layers * 2.0 * T * d * ab + ff_tokens * mats * ab) / n,
                        mlp_tile),
                 hw, 2.0 * z->mlp_layers, moe_layers > 0.0 ? 1.0 : gemm_waves(hw, T, up_cols, d),
                 moe_layers > 0.0 ? KIND_MOE : KIND_PLAIN, 1.0);
    realistic_op(add_op(out, hw, "activation", false, ff_tokens * (m->gated_mlp ? 5.0 : 8.0) / n, 0.0, 0.0,
                        ff_tokens * (m->gated_mlp ? 3.0 : 2.0) * ab / n, 1.0),
                 hw, z->mlp_layers, 1.0, KIND_PLAIN, 1.0);

    /* Replicated on every chip: the norms and two residual adds per layer. */
    double norms = m->norms_per_layer > 0 ? (double)m->norms_per_layer : 2.0;
    realistic_op(add_op(out, hw, "norms", false, L * norms * 5.0 * T * d, L * norms * d * wb, 0.0,
                        L * norms * 2.0 * T * d * ab, 1.0),
                 hw, L * norms, 1.0, KIND_PLAIN, 1.0);
    double adds = z->mixer_layers + z->mlp_layers; /* one residual add after each mixer and each MLP */
    /* Serving engines fuse the residual add into the next norm: no launch of its own. */
    realistic_op(add_op(out, hw, "residual adds", false, adds * T * d, 0.0, 0.0, adds * 3.0 * T * d * ab, 1.0), hw,
                 0.0, 1.0, KIND_PLAIN, 1.0);

    /* Embedding lookup reads only the rows used; the LM head reads all of its weights. */
    realistic_op(add_op(out, hw, "embedding lookup", false, 0.0, fmin(T, V) * d * wb * ws / n, 0.0, T * d * ab, 1.0),
                 hw, 1.0, 1.0, KIND_PLAIN, 1.0);
    realistic_op(add_op(out, hw, "lm head", true, 2.0 * head_tokens * d * V * fs / n, V * d * wb * ws / n, 0.0,
                        head_tokens * d * ab + head_tokens * V * ab / n,
                        shard_tile(d, 1, tile) * shard_tile(V, n, tile)),
                 hw, 1.0, gemm_waves(hw, head_tokens, V / n, d), KIND_PLAIN, 1.0);

    /* An all-reduce of the activations after each mixer and each MLP (two
     * per layer of a transformer), ring over n chips. */
    out->allreduces = out->realistic_comms_s = out->alltoall_bytes = 0.0;
    if (moe_layers > 0.0 && e > 1.0 && hw->ep_link_bytes_per_s > 0.0) {
        /* Each MoE layer's dispatch and combine (parallel.h): the group's
         * tokens split over its n chips, each sent to k experts, (e-1)/e of
         * them elsewhere; a pairwise exchange is e - 1 steps each way. */
        out->alltoall_bytes = moe_layers * alltoall_bytes_per_chip(T / n, k_routed, d, ab, e);
        out->comms_bytes += out->alltoall_bytes;
        out->comms_s += out->alltoall_bytes / hw->ep_link_bytes_per_s;
        out->realistic_comms_s += moe_layers * 2.0 * (e - 1.0) * (hw->eff.allreduce_step_s + hw->ep_link_extra_step_s) +
                                  out->alltoall_bytes / (hw->eff.link * hw->ep_link_bytes_per_s);
    }
    if (n > 1.0 && hw->link_bytes_per_s > 0.0) {
        out->allreduces = z->mixer_layers + z->mlp_layers;
        double allreduce_bytes = out->allreduces * 2.0 * (n - 1.0) / n * T * d * ab;
        out->comms_bytes += allreduce_bytes;
        out->comms_s += allreduce_bytes / hw->link_bytes_per_s;
        /* Alpha-beta (Thakur et al. 2005): a ring all-reduce is 2(n-1) steps of a fixed time plus 2(n-1)/n of
         * the bytes over the achieved link; a tree (or NCCL's small-message algorithms) 2 ceil(log2 n) steps
         * plus twice the bytes. The library picks the faster; so does this model. */
        out->realistic_comms_s +=
            out->allreduces * allreduce_s(n, T * d * ab, hw->eff.allreduce_step_s + hw->link_extra_step_s,
                                          hw->eff.link * hw->link_bytes_per_s);
    }
    out->step_s = p == RT_PHASE_TRAINING ? 0.0 : hw->engine.step_s;
    if (p == RT_PHASE_PREFILL) /* admitting the requests: once, in the time to first token */
        out->step_s += hw->engine.request_s;
    out->time_s = out->comms_s;
    out->realistic_s = out->realistic_comms_s + out->step_s;
    for (int i = 0; i < out->count; i++) {
        out->time_s += out->ops[i].time_s;
        out->realistic_s += out->ops[i].realistic_s;
    }
}

double palm_attention_flops_per_token(const struct model_shape *m, double seq_len)
{
    double keys = 0.0;
    for (int i = 0; i < m->kind_count; i++)
        keys += (double)m->kinds[i].count * layer_palm_keys(&m->kinds[i], seq_len);
    return 6.0 * (double)m->heads * (double)(m->d_head + model_v_head_dim(m)) * keys;
}
