/* detailed.c — operation-by-operation costs of prefill, decode and training.
 * See detailed.h for the conventions and their sources. */
#include "detailed.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models.h"
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
    return tile_efficiency((int64_t)fmin(per_chip, 4e18), tile);
}

/* Appends an operation and times it on hw. */
static void add_op(struct phase_cost *pc, const struct hw_rates *hw, const char *name, bool matrix, double flops,
                   double weight_bytes, double kv_bytes, double act_bytes, double tile_eff)
{
    if (pc->count >= RT_MAX_OPS)
        return;
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
    op->time_s = fmax(op->compute_s, op->memory_s);
}

void phase_costs(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, bool fused_attention,
                 struct phase_cost *out)
{
    out->count = 0; /* every field of each op is set by add_op; no need to clear the array */
    out->comms_bytes = out->comms_s = 0.0;
    const struct model_shape *m = &s->model;
    struct param_count pc = model_param_count(m);
    const double n = hw->n_chips, wb = hw->bytes_per_weight, kvb = hw->bytes_per_kv, ab = hw->bytes_per_act;
    const double L = (double)m->layers, d = (double)m->d_model, H = (double)m->heads, V = (double)m->vocab;
    const double kvh = (double)m->kv_heads, B = (double)s->batch;
    const double dq = (double)m->d_head;
    const double dv = m->kv_lora_rank > 0 ? (double)m->v_head_dim : dq;
    const int64_t tile = s->tile;

    /* Tokens processed, attention pairs per head, tokens reaching the LM head. */
    double seq = p == RT_PHASE_PREFILL ? (double)s->prefill_tokens : (double)s->context_tokens;
    double tokens, pairs, stored_scores, head_tokens, cached_tokens;
    if (p == RT_PHASE_DECODE) {
        tokens = B;
        pairs = B * (double)s->context_tokens;
        stored_scores = pairs;
        head_tokens = B;
        cached_tokens = B * (double)s->context_tokens; /* the KV cache each step reads */
    } else {
        tokens = B * seq;
        pairs = B * seq * (seq + 1.0) / 2.0; /* causal */
        stored_scores = B * seq * seq;      /* an unfused kernel materialises the square */
        head_tokens = p == RT_PHASE_PREFILL ? B : tokens; /* prefill: logits of the last position only */
        cached_tokens = 0.0;
    }
    out->tokens = tokens;
    double T = tokens;

    double kv_elems = model_kv_elements_per_token_per_layer(m); /* per token per layer */
    double o_params = H * dv * d;
    double qkv_params = pc.attention_per_layer - o_params;
    double qkv_width = qkv_params / d;

    /* QKV projection; prefill and training write the new keys and values to the cache. */
    double kv_written = p == RT_PHASE_TRAINING ? 0.0 : T * kv_elems * kvb;
    const double fs = hw->flop_scale, ws = hw->weight_scale;
    add_op(out, hw, "qkv projection", true, L * 2.0 * T * qkv_params * fs / n, L * qkv_params * wb * ws / n,
           L * kv_written / n, L * (T * d * ab + T * qkv_width * ab / n), shard_tile(d, 1, tile) * shard_tile(qkv_width, n, tile));

    /* Attention: scores, softmax, x V. */
    double q_bytes = T * H * dq * ab / n;
    double k_cache, v_cache;
    if (m->kv_lora_rank > 0) { /* the latent serves K and V: read once, charged to the scores */
        k_cache = cached_tokens * kv_elems * kvb / n;
        v_cache = 0.0;
    } else {
        k_cache = cached_tokens * kvh * dq * kvb / n;
        v_cache = cached_tokens * kvh * dv * kvb / n;
    }
    double k_fresh = p == RT_PHASE_DECODE ? 0.0 : T * kvh * dq * ab / n;
    double v_fresh = p == RT_PHASE_DECODE ? 0.0 : T * kvh * dv * ab / n;
    double score_bytes = fused_attention ? 0.0 : stored_scores * H * ab / n;
    add_op(out, hw, "attention scores", true, L * 2.0 * H * dq * pairs / n, 0.0, L * k_cache,
           L * (q_bytes + k_fresh + score_bytes), shard_tile(dq, 1, tile));
    add_op(out, hw, "softmax", false, L * 5.0 * H * pairs / n, 0.0, 0.0, L * 2.0 * score_bytes, 1.0);
    add_op(out, hw, "attention x V", true, L * 2.0 * H * dv * pairs / n, 0.0, L * v_cache,
           L * (v_fresh + score_bytes + T * H * dv * ab / n), shard_tile(dv, 1, tile));
    add_op(out, hw, "output projection", true, L * 2.0 * T * o_params * fs / n, L * o_params * wb * ws / n, 0.0,
           L * (T * H * dv * ab / n + T * d * ab), shard_tile(H * dv, n, tile) * shard_tile(d, 1, tile));

    /* MLP: dense layers, or routed + shared experts with a router. */
    double mats = m->gated_mlp ? 3.0 : 2.0;
    double moe_layers = m->experts > 1 ? L - (double)m->dense_layers : 0.0;
    double dense_layers = L - moe_layers;
    double ff = (double)m->d_ff;
    double ff_e = m->moe_d_ff > 0 ? (double)m->moe_d_ff : ff;
    double k_active = (double)m->experts_per_token + (double)m->shared_experts;
    double touched = experts_touched((double)m->experts, (double)m->experts_per_token, T) + (double)m->shared_experts;
    double mlp_flops = dense_layers * 2.0 * T * mats * d * ff + moe_layers * 2.0 * T * k_active * mats * d * ff_e;
    double mlp_weights = dense_layers * mats * d * ff * wb + moe_layers * touched * mats * d * ff_e * wb;
    double ff_tokens = dense_layers * T * ff + moe_layers * T * k_active * ff_e; /* intermediate elements */
    if (moe_layers > 0.0)
        add_op(out, hw, "router", true, moe_layers * 2.0 * T * d * (double)m->experts * fs / n,
               moe_layers * d * (double)m->experts * wb * ws / n, 0.0, moe_layers * T * (double)m->experts * ab, 1.0);
    double mlp_tile = shard_tile(d, 1, tile) * shard_tile(moe_layers > 0.0 ? ff_e : ff, n, tile);
    add_op(out, hw, m->experts > 1 ? "mlp (experts)" : "mlp", true, mlp_flops * fs / n, mlp_weights * ws / n, 0.0,
           (L * 2.0 * T * d * ab + ff_tokens * mats * ab) / n, mlp_tile);
    add_op(out, hw, "activation", false, ff_tokens * (m->gated_mlp ? 5.0 : 8.0) / n, 0.0, 0.0,
           ff_tokens * (m->gated_mlp ? 3.0 : 2.0) * ab / n, 1.0);

    /* Replicated on every chip: two norms and two residual adds per layer. */
    add_op(out, hw, "norms", false, L * 2.0 * 5.0 * T * d, L * 2.0 * d * wb, 0.0, L * 2.0 * 2.0 * T * d * ab, 1.0);
    add_op(out, hw, "residual adds", false, L * 2.0 * T * d, 0.0, 0.0, L * 2.0 * 3.0 * T * d * ab, 1.0);

    /* Embedding lookup reads only the rows used; the LM head reads all of its weights. */
    add_op(out, hw, "embedding lookup", false, 0.0, fmin(T, V) * d * wb * ws / n, 0.0, T * d * ab, 1.0);
    add_op(out, hw, "lm head", true, 2.0 * head_tokens * d * V * fs / n, V * d * wb * ws / n, 0.0,
           head_tokens * d * ab + head_tokens * V * ab / n, shard_tile(d, 1, tile) * shard_tile(V, n, tile));

    /* Two all-reduces of the activations per layer, ring over n chips. */
    if (n > 1.0 && hw->link_bytes_per_s > 0.0) {
        out->comms_bytes = L * 2.0 * 2.0 * (n - 1.0) / n * T * d * ab;
        out->comms_s = out->comms_bytes / hw->link_bytes_per_s;
    }
    out->time_s = out->comms_s;
    for (int i = 0; i < out->count; i++)
        out->time_s += out->ops[i].time_s;
}
