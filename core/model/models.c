/* models.c — built-in shapes, the layer schedule and every figure that
 * depends only on the shape. */
#include "models.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h" /* name_normalize */

/* One kind covering every layer. */
#define ALL_LAYERS(mixer_, window_, moe_, n_) \
    .kinds = {{.mixer = (mixer_), .window = (window_), .moe = (moe_), .count = (n_)}}, .kind_count = 1

/* Shapes from each model's published config.json (HuggingFace), with the
 * publisher's stated parameter count in the source line for comparison.
 * Unnamed fields are zero: no MoE or MLA refinement, two RMSNorms a layer. */
static const struct model_shape builtin_models[] = {
    {.name = "guide-70b", .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .d_head = 128, .d_ff = 28672,
     .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true, .stated_params = 70e9,
     ALL_LAYERS(RT_MIXER_FULL, 0, false, 80),
     .source = "The guide's 70B: Llama 3 70B's shape with N = 70e9 exactly, as the napkin uses"},
    {.name = "llama-3.1-8b", .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .d_head = 128, .d_ff = 14336,
     .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true, ALL_LAYERS(RT_MIXER_FULL, 0, false, 32),
     .source = "meta-llama/Llama-3.1-8B config.json; Meta states 8.03B"},
    {.name = "llama-3.1-70b", .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .d_head = 128, .d_ff = 28672,
     .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true, ALL_LAYERS(RT_MIXER_FULL, 0, false, 80),
     .source = "meta-llama/Llama-3.1-70B config.json; Meta states 70.6B"},
    {.name = "llama-3.1-405b", .layers = 126, .d_model = 16384, .heads = 128, .kv_heads = 8, .d_head = 128,
     .d_ff = 53248, .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true,
     ALL_LAYERS(RT_MIXER_FULL, 0, false, 126), .source = "meta-llama/Llama-3.1-405B config.json; Meta states 405B"},
    {.name = "mistral-7b", .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .d_head = 128, .d_ff = 14336,
     .vocab = 32000, .experts = 1, .experts_per_token = 1, .gated_mlp = true,
     ALL_LAYERS(RT_MIXER_SLIDING, 4096, false, 32),
     .source = "mistralai/Mistral-7B-v0.1 config.json (sliding window 4096 on every layer); Mistral states 7.24B"},
    {.name = "mixtral-8x7b", .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .d_head = 128, .d_ff = 14336,
     .vocab = 32000, .experts = 8, .experts_per_token = 2, .gated_mlp = true, ALL_LAYERS(RT_MIXER_FULL, 0, true, 32),
     .source = "mistralai/Mixtral-8x7B-v0.1 config.json; Mistral states 46.7B total, 12.9B active"},
    {.name = "qwen2.5-72b", .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .d_head = 128, .d_ff = 29568,
     .vocab = 152064, .experts = 1, .experts_per_token = 1, .gated_mlp = true, .qkv_bias = true,
     ALL_LAYERS(RT_MIXER_FULL, 0, false, 80),
     .source = "Qwen/Qwen2.5-72B config.json (sliding window off); Qwen states 72.7B"},
    /* Kind 0 is the 58 MoE layers; layers 0-2 are kind 1, dense (first_k_dense_replace 3). */
    {.name = "deepseek-v3", .layers = 61, .d_model = 7168, .heads = 128, .kv_heads = 128, .d_head = 192,
     .d_ff = 18432, .vocab = 129280, .experts = 256, .experts_per_token = 8, .gated_mlp = true, .shared_experts = 1,
     .moe_d_ff = 2048, .kv_lora_rank = 512, .q_lora_rank = 1536, .qk_rope_head_dim = 64, .router_bias = true,
     .qk_nope_head_dim = 128, .v_head_dim = 128,
     .kinds = {{.mixer = RT_MIXER_FULL, .moe = true, .count = 58}, {.mixer = RT_MIXER_FULL, .count = 3}},
     .kind_count = 2, .layer_kind = {1, 1, 1},
     .source = "deepseek-ai/DeepSeek-V3 config.json (MLA, 1 shared + 256 routed experts, top-8; multi-token "
               "prediction module not counted); DeepSeek states 671B total, 37B active"},
};

const char *mixer_name(enum rt_mixer mixer)
{
    static const char *const names[RT_MIXER_COUNT] = {"full",  "sliding", "chunked", "linear",
                                                              "mamba", "mamba2",  "none",    "sparse",
                                                              "conv",  "cross",   "compressed"};
    return ((int)mixer >= 0 && mixer < RT_MIXER_COUNT) ? names[mixer] : "?";
}

bool mixer_is_attention(enum rt_mixer mixer)
{
    return mixer == RT_MIXER_FULL || mixer == RT_MIXER_SLIDING || mixer == RT_MIXER_CHUNKED ||
           mixer == RT_MIXER_SPARSE || mixer == RT_MIXER_COMPRESSED;
}

/* Compressed entries a compressed layer holds for context tokens: one per
 * whole ratio of them (modeling_deepseek_v4.py's compressors emit an entry
 * each time a window of ratio tokens fills). */
double layer_compressed_entries(const struct layer_kind *k, double context_tokens)
{
    return k->ratio > 0 ? floor(context_tokens / (double)k->ratio) : 0.0;
}

/* Sum over i = 1..P of min(cap, floor(i / r)): the compressed entries the
 * queries of a P-token prompt attend (cap <= 0: no cap). */
static double compressed_pairs(double P, double r, double cap)
{
    if (!(r >= 1.0) || !(P >= 1.0))
        return 0.0;
    double sum_upto = 0.0, top = P; /* sum of floor(i/r), i = 1..top */
    if (cap > 0.0 && P >= cap * r) {
        top = cap * r - 1.0;
        sum_upto = (P - cap * r + 1.0) * cap;
    }
    double q = floor(top / r), rem = top - q * r; /* top = q r + rem */
    return sum_upto + r * q * (q - 1.0) / 2.0 + q * (rem + 1.0);
}

double layer_kv_tokens(const struct layer_kind *k, double context_tokens)
{
    if (k->kv_shared) /* it reads an earlier layer's cache and keeps none */
        return 0.0;
    switch (k->mixer) {
    case RT_MIXER_FULL:
    case RT_MIXER_SPARSE: /* every token stays cached: the indexer may pick any of them */
        return context_tokens;
    case RT_MIXER_SLIDING:
    case RT_MIXER_CHUNKED:
        return fmin(context_tokens, (double)k->window);
    case RT_MIXER_COMPRESSED: /* the raw window and one entry per ratio tokens */
        return fmin(context_tokens, (double)k->window) + layer_compressed_entries(k, context_tokens);
    default:
        return 0.0;
    }
}

double layer_decode_keys(const struct layer_kind *k, double context_tokens)
{
    switch (k->mixer) {
    case RT_MIXER_FULL:
        return context_tokens;
    case RT_MIXER_SLIDING:
    case RT_MIXER_SPARSE: /* the top-k the indexer picks, or every key while there are fewer */
        return fmin(context_tokens, (double)k->window);
    case RT_MIXER_COMPRESSED: { /* the window, and the top-k entries (CSA) or all of them (HCA) */
        double entries = layer_compressed_entries(k, context_tokens);
        return fmin(context_tokens, (double)k->window) + (k->topk > 0 ? fmin(entries, (double)k->topk) : entries);
    }
    case RT_MIXER_CHUNKED: {
        double c = (double)k->window;
        return context_tokens < 1.0 ? context_tokens : fmod(context_tokens - 1.0, c) + 1.0;
    }
    default:
        return 0.0;
    }
}

double layer_prefill_pairs(const struct layer_kind *k, double prompt_tokens)
{
    double P = prompt_tokens, W = (double)k->window;
    switch (k->mixer) {
    case RT_MIXER_FULL:
        return P * (P + 1.0) / 2.0;
    case RT_MIXER_SLIDING:
    case RT_MIXER_SPARSE: /* query i attends min(i, top-k) keys, as a window of top-k would */
        return P <= W ? P * (P + 1.0) / 2.0 : W * (W + 1.0) / 2.0 + (P - W) * W;
    case RT_MIXER_COMPRESSED: /* the window's pairs, and each query's min(top-k, floor(i / ratio)) entries */
        return (P <= W ? P * (P + 1.0) / 2.0 : W * (W + 1.0) / 2.0 + (P - W) * W) +
               compressed_pairs(P, (double)k->ratio, (double)k->topk);
    case RT_MIXER_CHUNKED: {
        double q = floor(P / W), r = P - q * W;
        return q * W * (W + 1.0) / 2.0 + r * (r + 1.0) / 2.0;
    }
    default:
        return 0.0;
    }
}

double layer_palm_keys(const struct layer_kind *k, double seq_len)
{
    switch (k->mixer) {
    case RT_MIXER_FULL:
        return seq_len;
    case RT_MIXER_SLIDING:
    case RT_MIXER_CHUNKED:
    case RT_MIXER_SPARSE:
        return fmin(seq_len, (double)k->window);
    case RT_MIXER_COMPRESSED: {
        double entries = layer_compressed_entries(k, seq_len);
        return fmin(seq_len, (double)k->window) + (k->topk > 0 ? fmin(entries, (double)k->topk) : entries);
    }
    default:
        return 0.0;
    }
}

bool model_all_full_attention(const struct model_shape *m)
{
    for (int i = 0; i < m->kind_count; i++)
        if (m->kinds[i].mixer != RT_MIXER_FULL)
            return false;
    return true;
}

double model_attention_layers(const struct model_shape *m)
{
    double n = 0.0;
    for (int i = 0; i < m->kind_count; i++)
        if (mixer_is_attention(m->kinds[i].mixer))
            n += (double)m->kinds[i].count;
    return n;
}

int64_t model_v_head_dim(const struct model_shape *m)
{
    return m->v_head_dim > 0 ? m->v_head_dim : m->d_head;
}

double model_kv_elements_per_token_per_layer(const struct model_shape *m)
{
    if (m->kv_lora_rank > 0)
        return (double)m->kv_lora_rank + (double)m->qk_rope_head_dim;
    if (m->kv_single) /* one cached tensor serves as keys and values (DeepSeek-V4) */
        return (double)m->kv_heads * (double)m->d_head;
    return (double)m->kv_heads * (double)(m->d_head + model_v_head_dim(m));
}

double model_o_params(const struct model_shape *m)
{
    double d = (double)m->d_model, h = (double)m->heads, dv = (double)model_v_head_dim(m);
    if (m->o_groups > 0 && m->o_lora_rank > 0) { /* each group of heads to o_lora_rank, then all of them to d */
        double g = (double)m->o_groups, r = (double)m->o_lora_rank;
        return (h * dv / g) * (g * r) + g * r * d;
    }
    return h * dv * d;
}

/* Parameters of one hyper-connection module over hc copies of the stream:
 * fn (2 + hc) hc x hc d, its base and 3 scales (DeepseekV4HyperConnection). */
static double hyper_connection_params(const struct model_shape *m)
{
    double hc = (double)m->hc_mult, d = (double)m->d_model;
    return m->hc_mult > 0 ? (2.0 + hc) * hc * hc * d + (2.0 + hc) * hc + 3.0 : 0.0;
}

double model_per_layer_input_params(const struct model_shape *m)
{
    double p = (double)m->per_layer_input, d = (double)m->d_model;
    return m->per_layer_input > 0 ? 2.0 * p * d + d : 0.0;
}

double model_hyper_connection_params_per_layer(const struct model_shape *m)
{
    return 2.0 * hyper_connection_params(m);
}

/* A compressed layer's compressor: key-value and gate projections to
 * overlap x d_head (overlap 2 for CSA's two series, 1 for HCA), a position
 * bias of ratio rows and the entry's norm (modeling_deepseek_v4.py). */
static double compressor_params(const struct model_shape *m, const struct layer_kind *k, double width)
{
    double c = k->topk > 0 ? 2.0 : 1.0;
    return 2.0 * c * width * (double)m->d_model + (double)k->ratio * c * width + width;
}

struct attn_geometry model_kind_geometry(const struct model_shape *m, const struct layer_kind *k)
{
    struct attn_geometry g = {m->heads, m->kv_heads, m->d_head, model_v_head_dim(m)};
    if (!k)
        return g;
    if (k->heads > 0)
        g.heads = k->heads;
    if (k->kv_heads > 0)
        g.kv_heads = k->kv_heads;
    if (k->d_head > 0)
        g.d_head = g.v_head_dim = k->d_head;
    return g;
}

double model_layer_norms(const struct model_shape *m)
{
    double per_layer = m->norms_per_layer > 0 ? (double)m->norms_per_layer : 2.0, n = 0.0, counted = 0.0;
    for (int i = 0; i < m->kind_count; i++) {
        if (!m->kinds[i].own_norms)
            continue;
        n += (double)m->kinds[i].count * (double)m->kinds[i].norms;
        counted += (double)m->kinds[i].count;
    }
    return n + per_layer * ((double)m->layers - counted);
}

/* True when kind k sets a geometry of its own. */
static bool kind_has_geometry(const struct layer_kind *k)
{
    return k->heads > 0 || k->kv_heads > 0 || k->d_head > 0 || k->k_eq_v || k->no_sinks || k->kv_shared;
}

bool model_mixed_geometry(const struct model_shape *m)
{
    for (int i = 0; i < m->kind_count; i++)
        if (m->kinds[i].count > 0 && mixer_is_attention(m->kinds[i].mixer) &&
            (kind_has_geometry(&m->kinds[i]) || m->kinds[i].mixer == RT_MIXER_COMPRESSED))
            return true;
    return false;
}

double model_kind_kv_elements(const struct model_shape *m, const struct layer_kind *k)
{
    if (k && k->kv_shared) /* an earlier layer's cache serves it */
        return 0.0;
    if (!k || !kind_has_geometry(k) || m->kv_lora_rank > 0)
        return model_kv_elements_per_token_per_layer(m);
    struct attn_geometry g = model_kind_geometry(m, k);
    return (double)g.kv_heads * (double)(g.d_head + g.v_head_dim);
}

double model_index_bytes_per_token_per_layer(const struct model_shape *m)
{
    if (m->index_heads <= 0 || m->index_head_dim <= 0)
        return 0.0;
    return (double)m->index_head_dim + 4.0 * ceil((double)m->index_head_dim / 128.0);
}

double model_indexer_params(const struct model_shape *m)
{
    if (m->index_heads <= 0 || m->index_head_dim <= 0)
        return 0.0;
    double d = (double)m->d_model, h = (double)m->index_heads, w = (double)m->index_head_dim;
    double q_in = m->q_lora_rank > 0 ? (double)m->q_lora_rank : d;
    if (m->o_groups > 0) /* DeepSeek-V4: its own two-series compressor of w (the position bias goes with the layer) */
        return 2.0 * 2.0 * w * d + w + q_in * h * w + d * h;
    return q_in * h * w + d * w + 2.0 * w + d * h;
}

/* Layers of the shape whose mixer is sparse attention. */
static double sparse_layers(const struct model_shape *m)
{
    double n = 0.0;
    for (int i = 0; i < m->kind_count; i++)
        if (m->kinds[i].mixer == RT_MIXER_SPARSE && !m->kinds[i].index_shared)
            n += (double)m->kinds[i].count;
    return n;
}

double model_kv_bytes_per_token(const struct model_shape *m, double bytes_per_element)
{
    double elements = model_attention_layers(m) * model_kv_elements_per_token_per_layer(m), index = 0.0;
    if (model_mixed_geometry(m)) { /* each attention kind at its own width; a compressed one per entry */
        elements = 0.0;
        for (int i = 0; i < m->kind_count; i++) {
            const struct layer_kind *k = &m->kinds[i];
            if (!mixer_is_attention(k->mixer))
                continue;
            double share = k->mixer == RT_MIXER_COMPRESSED && k->ratio > 0 ? 1.0 / (double)k->ratio : 1.0;
            elements += (double)k->count * model_kind_kv_elements(m, k) * share;
            if (k->mixer == RT_MIXER_COMPRESSED && k->topk > 0)
                index += (double)k->count * share * model_index_bytes_per_token_per_layer(m);
        }
    }
    return elements * bytes_per_element + sparse_layers(m) * model_index_bytes_per_token_per_layer(m) + index;
}

double model_kv_bytes_per_request(const struct model_shape *m, double context_tokens, double bytes_per_element)
{
    double tokens = 0.0, sparse = 0.0, elements = 0.0; /* layer-tokens held, and their elements */
    bool mixed = model_mixed_geometry(m);
    for (int i = 0; i < m->kind_count; i++) {
        double t = (double)m->kinds[i].count * layer_kv_tokens(&m->kinds[i], context_tokens);
        tokens += t;
        sparse += m->kinds[i].mixer == RT_MIXER_SPARSE && !m->kinds[i].index_shared ? t : 0.0;
        if (m->kinds[i].mixer == RT_MIXER_COMPRESSED && m->kinds[i].topk > 0) /* the indexer's key per entry */
            sparse += (double)m->kinds[i].count * layer_compressed_entries(&m->kinds[i], context_tokens);
        if (mixed && t > 0.0)
            elements += t * model_kind_kv_elements(m, &m->kinds[i]);
    }
    if (!mixed)
        elements = tokens * model_kv_elements_per_token_per_layer(m);
    return elements * bytes_per_element + sparse * model_index_bytes_per_token_per_layer(m);
}

/* The recurrent and convolution parts of a layer's fixed state, elements. */
static void state_parts(const struct model_shape *m, enum rt_mixer mixer, double *recurrent, double *conv)
{
    *recurrent = *conv = 0.0;
    double window = fmax(0.0, (double)(mixer == RT_MIXER_LINEAR ? m->lin_conv_kernel : m->ssm_d_conv) - 1.0);
    if (mixer == RT_MIXER_LINEAR) {
        double kd = (double)(m->lin_key_heads * m->lin_key_head_dim);
        double vd = (double)(m->lin_value_heads * m->lin_value_head_dim);
        *recurrent = (double)m->lin_value_heads * (double)m->lin_key_head_dim * (double)m->lin_value_head_dim;
        *conv = (2.0 * kd + vd) * window;
    } else if (mixer == RT_MIXER_MAMBA) {
        *recurrent = (double)m->ssm_d_inner * (double)m->ssm_d_state;
        *conv = (double)m->ssm_d_inner * window;
    } else if (mixer == RT_MIXER_MAMBA2) {
        double di = (double)m->ssm_d_inner, n = (double)m->ssm_d_state;
        *recurrent = di * n;
        *conv = (di + 2.0 * (double)m->ssm_groups * n) * window;
    } else if (mixer == RT_MIXER_CONV) { /* the last kernel - 1 gated inputs (vLLM's ShortConv state) */
        *conv = (double)m->d_model * fmax(0.0, (double)m->conv_kernel - 1.0);
    } else if (mixer == RT_MIXER_CROSS) { /* the encoder tokens' keys and values, at the KV precision */
        *conv = (double)m->cross_tokens * model_kv_elements_per_token_per_layer(m);
    }
}

double model_state_bytes_per_layer(const struct model_shape *m, enum rt_mixer mixer, double kv_bytes_per_element)
{
    double recurrent, conv;
    state_parts(m, mixer, &recurrent, &conv);
    if (mixer == RT_MIXER_CROSS) /* an encoder's keys and values sit in the KV cache, at its precision */
        return conv * kv_bytes_per_element;
    /* Serving stacks keep recurrent state at bf16 or wider whatever the KV cache's precision. */
    double kv = kv_bytes_per_element > 2.0 ? kv_bytes_per_element : 2.0;
    double bytes = m->ssm_state_bytes > 0 ? (double)m->ssm_state_bytes : kv;
    return recurrent * bytes + conv * kv;
}

double model_state_bytes_per_request(const struct model_shape *m, double kv_bytes_per_element)
{
    double n = 0.0;
    for (int i = 0; i < m->kind_count; i++)
        n += (double)m->kinds[i].count * model_state_bytes_per_layer(m, m->kinds[i].mixer, kv_bytes_per_element);
    return n;
}

/* Attention parameters of one layer: Q, K, V, O with their biases, query/key
 * norms, sinks and an output gate, or the latent-attention projections
 * (DeepSeek-V2 paper, sec. 2.1). */
static double attention_params_of(const struct model_shape *m, const struct layer_kind *kind);

static double attention_params(const struct model_shape *m)
{
    return attention_params_of(m, NULL);
}

/* The q/k norm weights of kind k: per-head norms (2 x d_head) and
 * full-width ones ((heads + kv heads) x d_head) follow the kind's own
 * geometry. */
static double qk_norm_of(const struct model_shape *m, const struct attn_geometry *g)
{
    double w = (double)m->qk_norm_width;
    if (w <= 0.0)
        return 0.0;
    if (w == 2.0 * (double)m->d_head)
        return 2.0 * (double)g->d_head;
    if (w == (double)(m->heads + m->kv_heads) * (double)m->d_head)
        return (double)(g->heads + g->kv_heads) * (double)g->d_head;
    return w;
}

static double attention_params_of(const struct model_shape *m, const struct layer_kind *kind)
{
    double d = (double)m->d_model;
    if (kind && kind_has_geometry(kind) && m->kv_lora_rank == 0) { /* the kind's own heads */
        struct attn_geometry g = model_kind_geometry(m, kind);
        double hq = (double)g.heads;
        double q = hq * (double)g.d_head, k = kind->kv_shared ? 0.0 : (double)g.kv_heads * (double)g.d_head;
        double v = kind->k_eq_v || kind->kv_shared ? 0.0 : (double)g.kv_heads * (double)g.v_head_dim;
        double o = hq * (double)g.v_head_dim;
        double gate = (m->attn_output_gate ? d * q : 0.0) + (m->attn_head_gate ? d * hq : 0.0);
        double norms = qk_norm_of(m, &g);
        if (kind->kv_shared && norms == 2.0 * (double)g.d_head) /* the query's norm; no key of its own */
            norms = (double)g.d_head;
        return d * (q + k + v) + o * d + gate + (m->qkv_bias ? q + k + v : 0.0) + norms +
               (m->attention_sinks && !kind->no_sinks ? hq : 0.0) + (m->o_bias ? d : 0.0);
    }
    double h = (double)m->heads;
    double extras = (double)m->qk_norm_width + (m->attention_sinks ? h : 0.0) + (m->o_bias ? d : 0.0);
    if (m->kv_single && m->q_lora_rank > 0) { /* DeepSeek-V4: q LoRA, one key-value tensor and its norm, grouped o */
        double lora = (double)m->q_lora_rank, kv = (double)m->kv_heads * (double)m->d_head;
        return d * lora + lora + lora * h * (double)m->d_head + d * kv + (double)m->d_head + model_o_params(m) +
               extras;
    }
    if (m->kv_lora_rank > 0) {
        double qk = (double)(m->qk_nope_head_dim + m->qk_rope_head_dim);
        double lora = (double)m->q_lora_rank;
        double q = m->q_lora_rank > 0 ? d * lora + lora + lora * h * qk : d * h * qk;
        double kv_a = d * (double)(m->kv_lora_rank + m->qk_rope_head_dim) + (double)m->kv_lora_rank;
        double kv_b = (double)m->kv_lora_rank * h * (double)(m->qk_nope_head_dim + m->v_head_dim);
        double o = h * (double)m->v_head_dim * d;
        return q + kv_a + kv_b + o + extras;
    }
    double q = h * (double)m->d_head, v = h * (double)model_v_head_dim(m);
    double k = (double)m->kv_heads * (double)m->d_head, kv_v = (double)m->kv_heads * (double)model_v_head_dim(m);
    double gate = (m->attn_output_gate ? d * q : 0.0) + (m->attn_head_gate ? d * h : 0.0);
    return d * (q + k + kv_v) + v * d + gate + (m->qkv_bias ? q + k + kv_v : 0.0) + extras;
}

/* One linear-attention (Gated DeltaNet) mixer: the q/k/v/z and b/a input
 * projections, a depthwise convolution over q, k and v, per-head decay and
 * step parameters, a gated norm and the output projection (transformers'
 * modeling_qwen3_next.py). */
static double linear_params(const struct model_shape *m)
{
    double d = (double)m->d_model, hv = (double)m->lin_value_heads;
    double kd = (double)(m->lin_key_heads * m->lin_key_head_dim), vd = hv * (double)m->lin_value_head_dim;
    if (m->lin_lightning) /* MiniMax: qkv, output gate, output, and a norm over the heads */
        return d * (2.0 * kd + vd) + d * vd + vd * d + vd;
    if (m->lin_kda) { /* q, k, v and their kernels; forget and output gates d -> dk -> vd; beta; A_log, dt_bias; norm; o */
        double dk = (double)m->lin_key_head_dim;
        return d * (2.0 * kd + vd) + (2.0 * kd + vd) * (double)m->lin_conv_kernel + 2.0 * (d * dk + dk * vd) + d * hv +
               hv + vd + dk + vd * d;
    }
    return d * (2.0 * kd + 2.0 * vd) + d * 2.0 * hv + (2.0 * kd + vd) * (double)m->lin_conv_kernel + 2.0 * hv +
           (double)m->lin_value_head_dim + vd * d;
}

/* One Mamba mixer: in_proj (x and z), a depthwise convolution, x_proj (dt,
 * B, C), dt_proj with its bias, A and D, out_proj (Gu & Dao 2023;
 * transformers' modeling_jamba.py). */
static double mamba_params(const struct model_shape *m)
{
    double d = (double)m->d_model, di = (double)m->ssm_d_inner, n = (double)m->ssm_d_state;
    double r = (double)m->ssm_dt_rank;
    double proj_bias = m->ssm_proj_bias ? 2.0 * di + d : 0.0;
    return d * 2.0 * di + di * (double)m->ssm_d_conv + (m->ssm_conv_bias ? di : 0.0) + di * (r + 2.0 * n) +
           r * di + di + di * n + di + di * d + proj_bias + (m->ssm_inner_norms ? r + 2.0 * n : 0.0);
}

/* One Mamba-2 mixer: in_proj (z, x, B, C and dt), a depthwise convolution
 * over x, B and C with its bias, per-head dt bias, A and D, a gated norm and
 * out_proj (Dao & Gu 2024; transformers' modeling_nemotron_h.py). */
static double mamba2_params(const struct model_shape *m)
{
    double d = (double)m->d_model, di = (double)m->ssm_d_inner, h = (double)m->ssm_heads;
    double bc = 2.0 * (double)m->ssm_groups * (double)m->ssm_d_state, conv = di + bc;
    return d * (2.0 * di + bc + h) + conv * (double)m->ssm_d_conv + (m->ssm_conv_bias ? conv : 0.0) + 3.0 * h + di +
           di * d + (m->ssm_proj_bias ? 2.0 * di + bc + h + d : 0.0);
}

double model_kind_mixer_params(const struct model_shape *m, const struct layer_kind *k)
{
    if (!k)
        return attention_params(m);
    if (k->mixer == RT_MIXER_COMPRESSED) /* attention, its compressor, and CSA's indexer with its position bias */
        return attention_params(m) + compressor_params(m, k, (double)m->d_head) +
               (k->topk > 0 ? model_indexer_params(m) + (double)k->ratio * 2.0 * (double)m->index_head_dim : 0.0);
    if (mixer_is_attention(k->mixer) && kind_has_geometry(k))
        return attention_params_of(m, k) + (k->mixer == RT_MIXER_SPARSE ? model_indexer_params(m) : 0.0);
    return model_mixer_params(m, k->mixer);
}

double model_mixer_params(const struct model_shape *m, enum rt_mixer mixer)
{
    if (mixer == RT_MIXER_SPARSE)
        return attention_params(m) + model_indexer_params(m);
    if (mixer_is_attention(mixer))
        return attention_params(m);
    if (mixer == RT_MIXER_LINEAR)
        return linear_params(m);
    if (mixer == RT_MIXER_MAMBA)
        return mamba_params(m);
    if (mixer == RT_MIXER_MAMBA2)
        return mamba2_params(m);
    if (mixer == RT_MIXER_CROSS) /* q, k, v, o, per-head q and k norms, the two tanh gates (modeling_mllama.py) */
        return attention_params(m) + 2.0 * (double)m->d_head + 2.0;
    if (mixer == RT_MIXER_CONV) { /* in_proj 3d, depthwise kernel, out_proj (transformers' modeling_lfm2.py) */
        double d = (double)m->d_model;
        return 3.0 * d * d + d * (double)m->conv_kernel + d * d + (m->conv_bias ? 3.0 * d + d + d : 0.0);
    }
    return 0.0;
}

/* One MLP of width ff from and to width d: two or three matrices and, with
 * mlp_bias, theirs. */
static double mlp_params_at(const struct model_shape *m, double d, double ff)
{
    double mats = m->gated_mlp ? 3.0 : 2.0;
    return mats * d * ff + (m->mlp_bias ? (mats - 1.0) * ff + d : 0.0);
}

/* One MLP of width ff on the residual stream. */
static double mlp_params(const struct model_shape *m, double ff)
{
    return mlp_params_at(m, (double)m->d_model, ff);
}

/* True when some kind counts its own norms. */
static bool model_has_own_norms(const struct model_shape *m)
{
    for (int i = 0; i < m->kind_count; i++)
        if (m->kinds[i].own_norms)
            return true;
    return false;
}

struct param_count model_param_count(const struct model_shape *m)
{
    struct param_count c = {0};
    if (!m)
        return c;
    double d = (double)m->d_model, norm = m->norm_bias ? 2.0 * d : d;
    double norms_per_layer = m->norms_per_layer > 0 ? (double)m->norms_per_layer : 2.0;
    double expert_ff = m->moe_d_ff > 0 ? (double)m->moe_d_ff : (double)m->d_ff;
    double shared_ff = m->shared_d_ff > 0 ? (double)m->shared_d_ff : expert_ff;
    c.embedding = ((double)m->vocab + (double)m->position_rows) * d;
    c.lm_head = (m->tied_embeddings ? 0.0 : (double)m->vocab * d) + (m->lm_head_bias ? (double)m->vocab : 0.0);
    c.attention_per_layer = attention_params(m);
    double expert_d = m->experts > 1 && m->moe_latent > 0 ? (double)m->moe_latent : d;
    c.mlp_per_expert = mlp_params_at(m, expert_d, m->experts > 1 ? expert_ff : (double)m->d_ff);
    c.router_per_layer = m->experts > 1 ? d * (double)m->experts + (m->router_bias ? (double)m->experts : 0.0) : 0.0;
    if (m->experts > 1 && m->moe_latent > 0) /* the latent's down and up projections, in every MoE layer */
        c.router_per_layer += 2.0 * d * (double)m->moe_latent;
    c.norms = (model_has_own_norms(m) ? model_layer_norms(m) : norms_per_layer * (double)m->layers) * norm + norm +
              (m->embedding_norm ? norm : 0.0);
    double shared = (double)m->shared_experts * mlp_params(m, shared_ff) + (m->shared_expert_gate ? d : 0.0);
    double extra = m->hc_mult > 0 ? (double)m->hc_mult * (double)m->hc_mult * d + (double)m->hc_mult + 1.0 : 0.0;
    if (m->per_layer_input > 0) { /* Gemma 4's per-layer inputs: the table (a lookup), the projection, its norm */
        double p = (double)m->per_layer_input, L = (double)m->layers;
        c.embedding += (double)m->per_layer_vocab * L * p;
        extra += L * p * d + p + L * model_per_layer_input_params(m);
    }
    double common = c.embedding + c.lm_head + c.norms + extra, total = common, active = common;
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *k = &m->kinds[i];
        double n = (double)k->count, mixer = model_kind_mixer_params(m, k);
        if (!mixer_is_attention(k->mixer) && mixer > 0.0)
            c.linear_per_layer = mixer;
        double always = mixer + model_hyper_connection_params_per_layer(m), routed_all = 0.0, routed_active = 0.0;
        if (k->no_mlp) {
        } else if (k->moe) {
            always += c.router_per_layer + shared - (k->hash_router && m->router_bias ? (double)m->experts : 0.0);
            routed_all = (double)m->experts * c.mlp_per_expert;
            routed_active = (double)m->experts_per_token * c.mlp_per_expert;
        } else {
            always += mlp_params(m, k->d_ff > 0 ? (double)k->d_ff : (double)m->d_ff);
        }
        total += n * (always + routed_all);
        active += n * (always + routed_active);
    }
    c.total = total;
    c.active = active;
    return c;
}

/* Checks that *v lies in [lo, hi]; writes a message naming the field if not. */
static int check_range(const char *field, int64_t v, int64_t lo, int64_t hi, char *err, size_t errsize)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(err, errsize, "%s must be a whole number from %lld to %lld (got %lld)", field, (long long)lo,
             (long long)hi, (long long)v);
    return -1;
}

/* Checks the layer schedule against the shape's depth and fields. */
static int check_schedule(const struct model_shape *m, char *err, size_t errsize)
{
    if (m->kind_count < 1 || m->kind_count > RT_MAX_LAYER_KINDS) {
        snprintf(err, errsize, "the layer schedule must have 1 to %d kinds of layer (has %d)", RT_MAX_LAYER_KINDS,
                 m->kind_count);
        return -1;
    }
    int64_t seen[RT_MAX_LAYER_KINDS] = {0};
    int highest = 0;
    static const uint8_t zeros[RT_MAX_LAYERS];
    if (m->kind_count == 1 && memcmp(m->layer_kind, zeros, (size_t)m->layers) == 0) {
        seen[0] = m->layers; /* the common case, every layer one kind: no histogram */
    } else {
        for (int64_t i = 0; i < m->layers; i++) {
            int k = m->layer_kind[i];
            highest = k > highest ? k : highest;
            seen[k & (RT_MAX_LAYER_KINDS - 1)]++;
        }
    }
    if (highest >= m->kind_count) {
        snprintf(err, errsize, "a layer names layer kind %d of %d", highest, m->kind_count);
        return -1;
    }
    const int64_t big = (int64_t)1 << 40; /* a window longer than any context is harmless */
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *k = &m->kinds[i];
        if (seen[i] != k->count) {
            snprintf(err, errsize, "layer kind %d counts %lld layers but the schedule has %lld", i,
                     (long long)k->count, (long long)seen[i]);
            return -1;
        }
        if ((int)k->mixer < 0 || k->mixer >= RT_MIXER_COUNT) {
            snprintf(err, errsize, "layer kind %d has no known mixer", i);
            return -1;
        }
        if ((k->mixer == RT_MIXER_SLIDING || k->mixer == RT_MIXER_CHUNKED || k->mixer == RT_MIXER_SPARSE) &&
            check_range(k->mixer == RT_MIXER_SLIDING ? "window" : k->mixer == RT_MIXER_SPARSE ? "top-k" : "chunk",
                        k->window, 1, big, err, errsize))
            return -1;
        if (k->count > 0 && k->mixer == RT_MIXER_SPARSE &&
            (check_range("index_heads", m->index_heads, 1, RT_MAX_WIDTH, err, errsize) ||
             check_range("index_head_dim", m->index_head_dim, 1, RT_MAX_WIDTH, err, errsize)))
            return -1;
        if (check_range("a layer's d_ff", k->d_ff, 0, RT_MAX_FF, err, errsize))
            return -1;
        if (k->moe && m->experts < 2) {
            snprintf(err, errsize, "an MoE layer needs experts of 2 or more (got %lld)", (long long)m->experts);
            return -1;
        }
        if (k->count > 0 && k->mixer == RT_MIXER_LINEAR &&
            (check_range("linear_key_heads", m->lin_key_heads, 1, RT_MAX_WIDTH, err, errsize) ||
             check_range("linear_value_heads", m->lin_value_heads, 1, RT_MAX_WIDTH, err, errsize) ||
             check_range("linear_key_head_dim", m->lin_key_head_dim, 1, RT_MAX_WIDTH, err, errsize) ||
             check_range("linear_value_head_dim", m->lin_value_head_dim, 1, RT_MAX_WIDTH, err, errsize)))
            return -1;
        if (k->count > 0 && (k->mixer == RT_MIXER_MAMBA || k->mixer == RT_MIXER_MAMBA2) &&
            (check_range("mamba d_inner", m->ssm_d_inner, 1, RT_MAX_FF, err, errsize) ||
             check_range("mamba d_state", m->ssm_d_state, 1, RT_MAX_WIDTH, err, errsize)))
            return -1;
        if (k->mixer == RT_MIXER_COMPRESSED &&
            (check_range("a compressed layer's window", k->window, 1, big, err, errsize) ||
             check_range("a compressed layer's ratio", k->ratio, 1, big, err, errsize) ||
             check_range("a compressed layer's top-k", k->topk, 0, big, err, errsize)))
            return -1;
        if (k->count > 0 && k->mixer == RT_MIXER_COMPRESSED && k->topk > 0 &&
            (check_range("index_heads", m->index_heads, 1, RT_MAX_WIDTH, err, errsize) ||
             check_range("index_head_dim", m->index_head_dim, 1, RT_MAX_WIDTH, err, errsize)))
            return -1;
        if (k->count > 0 && k->mixer == RT_MIXER_CROSS &&
            check_range("cross-attention tokens", m->cross_tokens, 1, RT_MAX_VOCAB, err, errsize))
            return -1;
        if (k->count > 0 && k->mixer == RT_MIXER_CONV &&
            check_range("conv kernel", m->conv_kernel, 1, RT_MAX_WIDTH, err, errsize))
            return -1;
        if (k->count > 0 && k->mixer == RT_MIXER_MAMBA2 &&
            (check_range("mamba heads", m->ssm_heads, 1, RT_MAX_WIDTH, err, errsize) ||
             check_range("mamba groups", m->ssm_groups, 1, RT_MAX_WIDTH, err, errsize)))
            return -1;
        if (check_range("a layer's heads", k->heads, 0, RT_MAX_WIDTH, err, errsize) ||
            check_range("a layer's kv_heads", k->kv_heads, 0, RT_MAX_WIDTH, err, errsize) ||
            check_range("a layer's d_head", k->d_head, 0, RT_MAX_WIDTH, err, errsize))
            return -1;
        if (kind_has_geometry(k)) {
            struct attn_geometry g = model_kind_geometry(m, k);
            if (m->kv_lora_rank > 0) {
                snprintf(err, errsize, "layer kind %d sets its own heads, but latent attention has one geometry", i);
                return -1;
            }
            if (g.kv_heads > g.heads || g.heads % g.kv_heads != 0) {
                snprintf(err, errsize, "layer kind %d: its kv_heads (%lld) must divide its heads (%lld)", i,
                         (long long)g.kv_heads, (long long)g.heads);
                return -1;
            }
        }
        if (check_range("a layer's norms", k->norms, 0, 16, err, errsize))
            return -1;
        if (k->mixer == RT_MIXER_NONE && k->no_mlp && !k->own_norms) { /* NAS's skipped blocks count their norms */
            snprintf(err, errsize, "layer kind %d has neither a mixer nor an MLP", i);
            return -1;
        }
    }
    return 0;
}

int model_head_divisors(int64_t heads, int64_t *out, int max)
{
    /* Divisors come in pairs (d, heads / d): the small ones in order, their
     * partners kept apart and added largest-pair-last. */
    int lo_n = 0, hi_n = 0;
    int64_t hi_part[256];
    for (int64_t d = 1; heads >= 1 && d <= heads / d && d <= ((int64_t)1 << 20); d++) {
        if (heads % d != 0)
            continue;
        if (lo_n < max)
            out[lo_n++] = d;
        if (d != heads / d && hi_n < 256)
            hi_part[hi_n++] = heads / d;
    }
    for (int i = hi_n - 1; i >= 0 && lo_n < max; i--)
        out[lo_n++] = hi_part[i];
    return lo_n;
}

char *kv_heads_choices(int64_t heads, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    buf[0] = '\0';
    int64_t d[RT_KV_CHOICES_SHOWN + 1];
    int n = model_head_divisors(heads, d, RT_KV_CHOICES_SHOWN + 1);
    size_t used = 0;
    for (int i = 0; i < n && used < size; i++) {
        int k = i == RT_KV_CHOICES_SHOWN ? snprintf(buf + used, size - used, ", ...")
                                         : snprintf(buf + used, size - used, "%s%lld", i ? ", " : "", (long long)d[i]);
        used += k > 0 ? (size_t)k : 0;
    }
    return buf;
}

int model_shape_check(const struct model_shape *m, char *err, size_t errsize)
{
    const int64_t wide = RT_MAX_WIDTH, ff = RT_MAX_FF;
    if (!m) {
        snprintf(err, errsize, "no model shape");
        return -1;
    }
    if (check_range("layers", m->layers, 1, RT_MAX_LAYERS, err, errsize) ||
        check_range("d_model", m->d_model, 1, wide, err, errsize) ||
        check_range("heads", m->heads, 1, wide, err, errsize) ||
        check_range("kv_heads", m->kv_heads, 1, m->heads, err, errsize) ||
        check_range("d_head", m->d_head, 1, wide, err, errsize) ||
        check_range("d_ff", m->d_ff, 1, ff, err, errsize) ||
        check_range("vocab", m->vocab, 1, RT_MAX_VOCAB, err, errsize) ||
        check_range("experts", m->experts, 1, RT_MAX_EXPERTS, err, errsize) ||
        check_range("experts_per_token", m->experts_per_token, 1, m->experts, err, errsize))
        return -1;
    if (check_range("shared_experts", m->shared_experts, 0, RT_MAX_EXPERTS, err, errsize) ||
        check_range("shared_d_ff", m->shared_d_ff, 0, ff, err, errsize) ||
        check_range("moe_d_ff", m->moe_d_ff, 0, ff, err, errsize) ||
        check_range("kv_lora_rank", m->kv_lora_rank, 0, wide, err, errsize) ||
        check_range("q_lora_rank", m->q_lora_rank, 0, wide, err, errsize) ||
        check_range("qk_rope_head_dim", m->qk_rope_head_dim, 0, wide, err, errsize) ||
        check_range("qk_nope_head_dim", m->qk_nope_head_dim, 0, wide, err, errsize) ||
        check_range("v_head_dim", m->v_head_dim, 0, wide, err, errsize) ||
        check_range("norms_per_layer", m->norms_per_layer, 0, 16, err, errsize) ||
        check_range("qk_norm_width", m->qk_norm_width, 0, wide, err, errsize) ||
        check_range("position_rows", m->position_rows, 0, RT_MAX_VOCAB, err, errsize) ||
        check_range("linear_key_heads", m->lin_key_heads, 0, wide, err, errsize) ||
        check_range("linear_value_heads", m->lin_value_heads, 0, wide, err, errsize) ||
        check_range("linear_key_head_dim", m->lin_key_head_dim, 0, wide, err, errsize) ||
        check_range("linear_value_head_dim", m->lin_value_head_dim, 0, wide, err, errsize) ||
        check_range("linear_conv_kernel", m->lin_conv_kernel, 0, 1 << 20, err, errsize) ||
        check_range("mamba d_inner", m->ssm_d_inner, 0, ff, err, errsize) ||
        check_range("mamba d_state", m->ssm_d_state, 0, wide, err, errsize) ||
        check_range("mamba d_conv", m->ssm_d_conv, 0, 1 << 20, err, errsize) ||
        check_range("mamba dt_rank", m->ssm_dt_rank, 0, wide, err, errsize) ||
        check_range("mamba heads", m->ssm_heads, 0, wide, err, errsize) ||
        check_range("mamba groups", m->ssm_groups, 0, wide, err, errsize) ||
        check_range("mamba state bytes", m->ssm_state_bytes, 0, 16, err, errsize))
        return -1;
    if (m->heads % m->kv_heads != 0) {
        char choices[160];
        snprintf(err, errsize, "kv_heads must divide heads (%lld): %lld does not; give %s", (long long)m->heads,
                 (long long)m->kv_heads, kv_heads_choices(m->heads, choices, sizeof choices));
        return -1;
    }
    if (m->kv_lora_rank > 0 && (m->qk_nope_head_dim + m->qk_rope_head_dim < 1 || m->v_head_dim < 1)) {
        snprintf(err, errsize, "latent attention needs qk_nope_head_dim + qk_rope_head_dim and v_head_dim of 1 or more");
        return -1;
    }
    if (!(m->stated_params >= 0.0 && m->stated_params <= RT_MAX_SHAPE_PARAMS)) {
        snprintf(err, errsize, "params must be from 1 to 1e16");
        return -1;
    }
    if (check_schedule(m, err, errsize) != 0)
        return -1;
    /* Each dimension in range can still multiply into an absurd model (2^20 wide, 512 deep, 2^16 experts). */
    double total = model_param_count(m).total;
    if (!(total <= RT_MAX_SHAPE_PARAMS)) {
        snprintf(err, errsize, "the shape counts %.3g parameters, above the 1e16 a shape may have: check its "
                 "dimensions (layers %lld, d_model %lld, d_ff %lld, experts %lld, vocab %lld)",
                 total, (long long)m->layers, (long long)m->d_model, (long long)m->d_ff, (long long)m->experts,
                 (long long)m->vocab);
        return -1;
    }
    return 0;
}

/* True when two kinds describe the same layer (their counts aside). */
static bool same_kind(const struct layer_kind *a, const struct layer_kind *b)
{
    return a->mixer == b->mixer && a->window == b->window && a->moe == b->moe && a->d_ff == b->d_ff &&
           a->no_mlp == b->no_mlp && a->heads == b->heads && a->kv_heads == b->kv_heads && a->d_head == b->d_head &&
           a->k_eq_v == b->k_eq_v && a->no_sinks == b->no_sinks && a->own_norms == b->own_norms &&
           a->norms == b->norms && a->ratio == b->ratio && a->topk == b->topk && a->hash_router == b->hash_router &&
           a->kv_shared == b->kv_shared && a->index_shared == b->index_shared;
}

int model_kind_index(struct model_shape *m, const struct layer_kind *kind)
{
    /* One spelling per kind: a window only where the mixer has one, a width only on a dense MLP. */
    struct layer_kind k = *kind;
    if (k.mixer != RT_MIXER_SLIDING && k.mixer != RT_MIXER_CHUNKED && k.mixer != RT_MIXER_SPARSE &&
        k.mixer != RT_MIXER_COMPRESSED)
        k.window = 0;
    if (k.mixer != RT_MIXER_COMPRESSED)
        k.ratio = k.topk = 0;
    if (k.mixer != RT_MIXER_SPARSE)
        k.index_shared = false;
    if (!k.moe)
        k.hash_router = false;
    if (k.moe || k.no_mlp)
        k.d_ff = 0;
    if (k.no_mlp)
        k.moe = false;
    /* A geometry only on attention, and only where it differs from the model's. */
    if (!mixer_is_attention(k.mixer)) {
        k.heads = k.kv_heads = k.d_head = 0;
        k.k_eq_v = k.kv_shared = false;
    }
    if (!m->attention_sinks)
        k.no_sinks = false;
    if (k.heads == m->heads)
        k.heads = 0;
    if (k.kv_heads == m->kv_heads)
        k.kv_heads = 0;
    if (k.d_head == m->d_head && m->v_head_dim <= 0)
        k.d_head = 0;
    if (!k.own_norms)
        k.norms = 0;
    k.count = 0;
    for (int i = 0; i < m->kind_count; i++)
        if (same_kind(&m->kinds[i], &k))
            return i;
    if (m->kind_count >= RT_MAX_LAYER_KINDS)
        return -1;
    m->kinds[m->kind_count] = k;
    return m->kind_count++;
}

void model_schedule_fix(struct model_shape *m)
{
    if (!m)
        return;
    int64_t layers = m->layers < 0 ? 0 : m->layers > RT_MAX_LAYERS ? RT_MAX_LAYERS : m->layers;
    if (m->kind_count <= 0) {
        m->kinds[0] = (struct layer_kind){.mixer = RT_MIXER_FULL, .moe = m->experts > 1};
        m->kind_count = 1;
        memset(m->layer_kind, 0, sizeof m->layer_kind);
    }
    if (m->kind_count > RT_MAX_LAYER_KINDS)
        m->kind_count = RT_MAX_LAYER_KINDS;
    /* Merge equal kinds, drop unused ones, renumber in order of first use. */
    struct layer_kind old[RT_MAX_LAYER_KINDS];
    int old_count = m->kind_count;
    memcpy(old, m->kinds, sizeof old);
    m->kind_count = 0;
    for (int64_t i = 0; i < layers; i++) {
        int was = m->layer_kind[i] < old_count ? m->layer_kind[i] : 0;
        int now = model_kind_index(m, &old[was]);
        m->layer_kind[i] = (uint8_t)(now < 0 ? 0 : now);
    }
    if (m->kind_count == 0) { /* no layers: keep the first kind so the shape stays readable */
        m->kinds[0] = old[0];
        m->kind_count = 1;
    }
    for (int k = 0; k < m->kind_count; k++)
        m->kinds[k].count = 0;
    for (int64_t i = 0; i < layers; i++)
        m->kinds[m->layer_kind[i]].count++;
    for (int64_t i = layers; i < RT_MAX_LAYERS; i++)
        m->layer_kind[i] = 0;
}

/* Shortest period p <= n/4 of the second half of the schedule (layers
 * [n/2, n)), or 0 when it has none that short. */
static int64_t tail_period(const struct model_shape *m, int64_t n)
{
    int64_t start = n / 2;
    for (int64_t p = 1; p <= (n - start) / 2; p++) {
        bool periodic = true;
        for (int64_t i = start + p; i < n && periodic; i++)
            periodic = m->layer_kind[i] == m->layer_kind[i - p];
        if (periodic)
            return p;
    }
    return 0;
}

int model_set_layers(struct model_shape *m, int64_t layers)
{
    if (layers < 1 || layers > RT_MAX_LAYERS)
        return -1;
    model_schedule_fix(m);
    int64_t n = m->layers < 1 ? 0 : m->layers > RT_MAX_LAYERS ? RT_MAX_LAYERS : m->layers;
    if (n == 0) {
        memset(m->layer_kind, 0, sizeof m->layer_kind);
    } else if (layers > n) {
        /* The shortest period of the upper half, else the whole schedule again. */
        int64_t p = tail_period(m, n);
        if (p == 0)
            p = n;
        for (int64_t i = n; i < layers; i++)
            m->layer_kind[i] = m->layer_kind[i - p];
        if (m->kind_count > 1) {
            char value[RT_ASSUMPTION_VALUE_MAX], why[RT_ASSUMPTION_WHY_MAX];
            snprintf(value, sizeof value, "%lld", (long long)layers);
            snprintf(why, sizeof why, "more layers than the model's %lld: the added ones repeat its pattern %s",
                     (long long)n, p == n ? "from the first layer" : "of the upper layers");
            model_unassume(m, "layers");
            model_assume(m, "layers", value, why);
        }
    }
    m->layers = layers;
    model_schedule_fix(m);
    return 0;
}

int model_set_window(struct model_shape *m, int64_t window)
{
    if (window < 0)
        return -1;
    model_schedule_fix(m);
    for (int i = 0; i < m->kind_count; i++) {
        struct layer_kind *k = &m->kinds[i];
        if (!mixer_is_attention(k->mixer) || k->mixer == RT_MIXER_SPARSE || k->mixer == RT_MIXER_COMPRESSED)
            /* a top-k is not a window, and a compressed layer keeps its own */
            continue;
        k->mixer = window > 0 ? RT_MIXER_SLIDING : RT_MIXER_FULL;
        k->window = window;
    }
    model_schedule_fix(m);
    return 0;
}

/* Appends text to buf (size bytes, always terminated) at *used. The
 * summary is written into every analysis, so it avoids printf. */
static void append(char *buf, size_t size, size_t *used, const char *text)
{
    while (*text && *used + 1 < size)
        buf[(*used)++] = *text++;
    buf[*used < size ? *used : size - 1] = '\0';
}

/* Appends a whole number >= 0. */
static void append_count(char *buf, size_t size, size_t *used, int64_t v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < 23);
    char text[24];
    for (int i = 0; i < n; i++)
        text[i] = digits[n - 1 - i];
    text[n] = '\0';
    append(buf, size, used, text);
}

/* Appends the label of a kind in a summary: by its mixer, or by its MLP
 * when every kind shares one mixer. */
static void append_label(const struct model_shape *m, const struct layer_kind *k, bool by_mlp, char *buf, size_t size,
                         size_t *used)
{
    if (by_mlp) {
        if (k->no_mlp) {
            append(buf, size, used, "no-MLP");
        } else if (k->moe) {
            append(buf, size, used, "MoE");
        } else if (k->d_ff > 0 && k->d_ff != m->d_ff) {
            append(buf, size, used, "dense (d_ff ");
            append_count(buf, size, used, k->d_ff);
            append(buf, size, used, ")");
        } else {
            append(buf, size, used, "dense");
        }
    } else if (k->mixer == RT_MIXER_COMPRESSED) {
        append(buf, size, used, k->topk > 0 ? "CSA (1/" : "HCA (1/");
        append_count(buf, size, used, k->ratio);
        if (k->topk > 0) {
            append(buf, size, used, ", top-");
            append_count(buf, size, used, k->topk);
        }
        append(buf, size, used, " + ");
        append_count(buf, size, used, k->window);
        append(buf, size, used, ")");
    } else if (k->mixer == RT_MIXER_SLIDING || k->mixer == RT_MIXER_CHUNKED || k->mixer == RT_MIXER_SPARSE) {
        append(buf, size, used, mixer_name(k->mixer));
        append(buf, size, used, k->mixer == RT_MIXER_SPARSE ? " (top-" : " (");
        append_count(buf, size, used, k->window);
        append(buf, size, used, ")");
    } else if (k->mixer == RT_MIXER_NONE) {
        append(buf, size, used, k->moe ? "MoE-only" : "MLP-only");
    } else {
        append(buf, size, used, mixer_name(k->mixer));
    }
    if (!by_mlp && k->kv_shared)
        append(buf, size, used, " (shared KV)");
    if (!by_mlp && k->index_shared)
        append(buf, size, used, " (shared index)");
    if (!by_mlp && mixer_is_attention(k->mixer) && (k->heads > 0 || k->kv_heads > 0 || k->d_head > 0 || k->k_eq_v)) {
        struct attn_geometry g = model_kind_geometry(m, k);
        append(buf, size, used, " [");
        if (k->heads > 0) {
            append_count(buf, size, used, g.heads);
            append(buf, size, used, " heads, ");
        }
        append_count(buf, size, used, g.kv_heads);
        append(buf, size, used, " kv x ");
        append_count(buf, size, used, g.d_head);
        append(buf, size, used, k->k_eq_v ? ", k=v]" : "]");
    }
}

char *model_schedule_summary(const struct model_shape *m, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    buf[0] = '\0';
    bool one_mixer = true;
    for (int i = 1; i < m->kind_count; i++)
        if (m->kinds[i].mixer != m->kinds[0].mixer || m->kinds[i].window != m->kinds[0].window)
            one_mixer = false;
    bool by_mlp = one_mixer && m->kind_count > 1;
    /* Kinds in order of first appearance; kinds with the same label form one group. */
    int order[RT_MAX_LAYER_KINDS], kinds = 0;
    bool listed[RT_MAX_LAYER_KINDS] = {false};
    for (int64_t i = 0; i < m->layers && i < RT_MAX_LAYERS && kinds < m->kind_count; i++) {
        int k = m->layer_kind[i];
        if (k < m->kind_count && k < RT_MAX_LAYER_KINDS && !listed[k]) {
            listed[k] = true;
            order[kinds++] = k;
        }
    }
    char labels[RT_MAX_LAYER_KINDS][48];
    int64_t counts[RT_MAX_LAYER_KINDS] = {0};
    int groups = 0;
    for (int j = 0; j < kinds; j++) {
        char label[48];
        size_t n = 0;
        label[0] = '\0';
        append_label(m, &m->kinds[order[j]], by_mlp, label, sizeof label, &n);
        int g = 0;
        while (g < groups && strcmp(labels[g], label) != 0)
            g++;
        if (g == groups)
            memcpy(labels[groups++], label, sizeof label);
        counts[g] += m->kinds[order[j]].count;
    }
    size_t used = 0;
    for (int g = 0; g < groups; g++) {
        if (g)
            append(buf, size, &used, " + ");
        append_count(buf, size, &used, counts[g]);
        append(buf, size, &used, " ");
        append(buf, size, &used, labels[g]);
    }
    append(buf, size, &used, m->layers == 1 ? " layer" : " layers");
    /* Named by mixer, the MLPs still differ: say how many layers route to experts. */
    int64_t moe = 0;
    bool named = false; /* an MoE-only block already says it */
    for (int i = 0; i < m->kind_count; i++) {
        moe += m->kinds[i].moe ? m->kinds[i].count : 0;
        named = named || (m->kinds[i].moe && m->kinds[i].mixer == RT_MIXER_NONE);
    }
    if (!by_mlp && !named && moe > 0 && moe < m->layers) {
        append(buf, size, &used, ", ");
        append_count(buf, size, &used, moe);
        append(buf, size, &used, " MoE");
    } else if (!by_mlp && moe > 0 && moe == m->layers) {
        append(buf, size, &used, ", all MoE");
    }
    if (by_mlp && m->kinds[0].mixer != RT_MIXER_FULL) { /* the one mixer they share */
        append(buf, size, &used, ", all ");
        append_label(m, &m->kinds[0], false, buf, size, &used);
    }
    return buf;
}

void model_unassume(struct model_shape *m, const char *key)
{
    int k = 0;
    for (int i = 0; i < m->assumption_count; i++)
        if (strcmp(m->assumptions[i].key, key) != 0)
            m->assumptions[k++] = m->assumptions[i];
    m->assumption_count = k;
}

void model_assume(struct model_shape *m, const char *key, const char *value, const char *why)
{
    for (int i = 0; i < m->assumption_count; i++)
        if (strcmp(m->assumptions[i].key, key) == 0 && strcmp(m->assumptions[i].value, value) == 0)
            return; /* said once is enough */
    if (m->assumption_count >= RT_MAX_ASSUMPTIONS)
        return;
    struct model_assumption *a = &m->assumptions[m->assumption_count++];
    snprintf(a->key, sizeof a->key, "%s", key);
    snprintf(a->value, sizeof a->value, "%s", value);
    snprintf(a->why, sizeof a->why, "%s", why);
}

void model_shape_changed(struct model_shape *m, const char *what, bool kv_only)
{
    if (!(m->stated_params > 0.0))
        return;
    char why[RT_ASSUMPTION_WHY_MAX], stated[24];
    format_count(stated, sizeof stated, m->stated_params);
    if (kv_only) {
        snprintf(why, sizeof why, "%s changes the KV cache only: N stays %s's stated %s, as the guide's "
                                  "GQA comparisons hold it", what, m->name, stated);
        model_assume(m, "stated_params", stated, why);
        return;
    }
    snprintf(why, sizeof why, "%s changed the shape: N is counted from the shape, not %s's stated %s", what, m->name,
             stated);
    model_assume(m, "stated_params", "dropped", why);
    m->stated_params = 0.0;
}

bool model_stated_dropped(const struct model_shape *m)
{
    for (int i = 0; i < m->assumption_count; i++)
        if (strcmp(m->assumptions[i].key, "stated_params") == 0 && strcmp(m->assumptions[i].value, "dropped") == 0)
            return true;
    return false;
}

size_t model_builtin_count(void)
{
    return sizeof builtin_models / sizeof builtin_models[0];
}

const struct model_shape *model_builtin(size_t i)
{
    return i < model_builtin_count() ? &builtin_models[i] : NULL;
}

const struct model_shape *model_find(const char *name)
{
    char want[128], have[128];
    name_normalize(want, sizeof want, name);
    if (want[0] == '\0')
        return NULL;
    for (size_t i = 0; i < model_builtin_count(); i++) {
        if (strcmp(want, name_normalize(have, sizeof have, builtin_models[i].name)) == 0)
            return &builtin_models[i];
    }
    return NULL;
}
