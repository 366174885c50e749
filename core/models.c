/* models.c — built-in shapes and the parameter count. */
#include "models.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h" /* name_normalize */

/* Shapes from each model's published config.json (HuggingFace), with the
 * publisher's stated parameter count in the source line for comparison.
 * Unnamed fields are zero: no MoE, MLA or sliding-window refinement. */
static const struct model_shape builtin_models[] = {
    {.name = "guide-70b", .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .d_head = 128, .d_ff = 28672,
     .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true, .stated_params = 70e9,
     .source = "The guide's 70B: Llama 3 70B's shape with N = 70e9 exactly, as the napkin uses"},
    {.name = "llama-3.1-8b", .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .d_head = 128, .d_ff = 14336,
     .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true,
     .source = "meta-llama/Llama-3.1-8B config.json; Meta states 8.03B"},
    {.name = "llama-3.1-70b", .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .d_head = 128, .d_ff = 28672,
     .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true,
     .source = "meta-llama/Llama-3.1-70B config.json; Meta states 70.6B"},
    {.name = "llama-3.1-405b", .layers = 126, .d_model = 16384, .heads = 128, .kv_heads = 8, .d_head = 128,
     .d_ff = 53248, .vocab = 128256, .experts = 1, .experts_per_token = 1, .gated_mlp = true,
     .source = "meta-llama/Llama-3.1-405B config.json; Meta states 405B"},
    {.name = "mistral-7b", .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .d_head = 128, .d_ff = 14336,
     .vocab = 32000, .experts = 1, .experts_per_token = 1, .gated_mlp = true, .sliding_window = 4096,
     .sliding_layers = 32,
     .source = "mistralai/Mistral-7B-v0.1 config.json (sliding window 4096 on every layer); Mistral states 7.24B"},
    {.name = "mixtral-8x7b", .layers = 32, .d_model = 4096, .heads = 32, .kv_heads = 8, .d_head = 128, .d_ff = 14336,
     .vocab = 32000, .experts = 8, .experts_per_token = 2, .gated_mlp = true,
     .source = "mistralai/Mixtral-8x7B-v0.1 config.json; Mistral states 46.7B total, 12.9B active"},
    {.name = "qwen2.5-72b", .layers = 80, .d_model = 8192, .heads = 64, .kv_heads = 8, .d_head = 128, .d_ff = 29568,
     .vocab = 152064, .experts = 1, .experts_per_token = 1, .gated_mlp = true, .qkv_bias = true,
     .source = "Qwen/Qwen2.5-72B config.json (sliding window off); Qwen states 72.7B"},
    {.name = "deepseek-v3", .layers = 61, .d_model = 7168, .heads = 128, .kv_heads = 128, .d_head = 192,
     .d_ff = 18432, .vocab = 129280, .experts = 256, .experts_per_token = 8, .gated_mlp = true, .shared_experts = 1,
     .moe_d_ff = 2048, .dense_layers = 3, .kv_lora_rank = 512, .q_lora_rank = 1536, .qk_rope_head_dim = 64,
     .qk_nope_head_dim = 128, .v_head_dim = 128,
     .source = "deepseek-ai/DeepSeek-V3 config.json (MLA, 1 shared + 256 routed experts, top-8; multi-token "
               "prediction module not counted); DeepSeek states 671B total, 37B active"},
};

double model_kv_elements_per_token_per_layer(const struct model_shape *m)
{
    if (m->kv_lora_rank > 0)
        return (double)m->kv_lora_rank + (double)m->qk_rope_head_dim;
    return 2.0 * (double)m->kv_heads * (double)m->d_head;
}

double model_kv_bytes_per_request(const struct model_shape *m, double context_tokens, double bytes_per_element)
{
    double per_layer = model_kv_elements_per_token_per_layer(m) * bytes_per_element;
    double windowed = m->sliding_window > 0 ? (double)m->sliding_layers : 0.0;
    double window_tokens = fmin(context_tokens, (double)m->sliding_window);
    return per_layer * (((double)m->layers - windowed) * context_tokens + windowed * window_tokens);
}

/* Attention parameters of one layer: Q, K, V, O and QKV biases, or the
 * latent-attention projections (DeepSeek-V2 paper, sec. 2.1). */
static double attention_params(const struct model_shape *m)
{
    double d = (double)m->d_model, h = (double)m->heads;
    if (m->kv_lora_rank > 0) {
        double qk = (double)(m->qk_nope_head_dim + m->qk_rope_head_dim);
        double lora = (double)m->q_lora_rank;
        double q = m->q_lora_rank > 0 ? d * lora + lora + lora * h * qk : d * h * qk;
        double kv_a = d * (double)(m->kv_lora_rank + m->qk_rope_head_dim) + (double)m->kv_lora_rank;
        double kv_b = (double)m->kv_lora_rank * h * (double)(m->qk_nope_head_dim + m->v_head_dim);
        double o = h * (double)m->v_head_dim * d;
        return q + kv_a + kv_b + o;
    }
    double q = h * (double)m->d_head;
    double kv = (double)m->kv_heads * (double)m->d_head;
    return d * q + 2.0 * d * kv + q * d + (m->qkv_bias ? q + 2.0 * kv : 0.0);
}

struct param_count model_param_count(const struct model_shape *m)
{
    struct param_count c = {0};
    if (!m)
        return c;
    double d = (double)m->d_model, L = (double)m->layers;
    double mats = m->gated_mlp ? 3.0 : 2.0;
    double dense_layers = (double)m->dense_layers;
    double moe_layers = m->experts > 1 ? L - dense_layers : 0.0;
    double plain_layers = L - moe_layers; /* layers with one dense MLP of d_ff */
    double expert_ff = m->moe_d_ff > 0 ? (double)m->moe_d_ff : (double)m->d_ff;
    c.embedding = (double)m->vocab * d;
    c.lm_head = m->tied_embeddings ? 0.0 : (double)m->vocab * d;
    c.attention_per_layer = attention_params(m);
    c.mlp_per_expert = mats * d * expert_ff;
    c.router_per_layer = m->experts > 1 ? d * (double)m->experts : 0.0;
    c.norms = 2.0 * d * L + d;
    double dense_mlp = mats * d * (double)m->d_ff;
    double shared = c.embedding + c.lm_head + L * c.attention_per_layer + moe_layers * c.router_per_layer + c.norms +
                    plain_layers * dense_mlp + moe_layers * (double)m->shared_experts * c.mlp_per_expert;
    if (m->experts > 1) {
        c.total = shared + moe_layers * (double)m->experts * c.mlp_per_expert;
        c.active = shared + moe_layers * (double)m->experts_per_token * c.mlp_per_expert;
    } else {
        c.total = c.active = shared;
    }
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

int model_shape_check(const struct model_shape *m, char *err, size_t errsize)
{
    const int64_t big = (int64_t)1 << 40;
    if (!m) {
        snprintf(err, errsize, "no model shape");
        return -1;
    }
    if (check_range("layers", m->layers, 1, big, err, errsize) ||
        check_range("d_model", m->d_model, 1, big, err, errsize) ||
        check_range("heads", m->heads, 1, big, err, errsize) ||
        check_range("kv_heads", m->kv_heads, 1, m->heads, err, errsize) ||
        check_range("d_head", m->d_head, 1, big, err, errsize) ||
        check_range("d_ff", m->d_ff, 1, big, err, errsize) ||
        check_range("vocab", m->vocab, 1, big, err, errsize) ||
        check_range("experts", m->experts, 1, 1 << 20, err, errsize) ||
        check_range("experts_per_token", m->experts_per_token, 1, m->experts, err, errsize))
        return -1;
    if (check_range("shared_experts", m->shared_experts, 0, 1 << 20, err, errsize) ||
        check_range("moe_d_ff", m->moe_d_ff, 0, big, err, errsize) ||
        check_range("dense_layers", m->dense_layers, 0, m->layers, err, errsize) ||
        check_range("kv_lora_rank", m->kv_lora_rank, 0, big, err, errsize) ||
        check_range("q_lora_rank", m->q_lora_rank, 0, big, err, errsize) ||
        check_range("qk_rope_head_dim", m->qk_rope_head_dim, 0, big, err, errsize) ||
        check_range("qk_nope_head_dim", m->qk_nope_head_dim, 0, big, err, errsize) ||
        check_range("v_head_dim", m->v_head_dim, 0, big, err, errsize) ||
        check_range("sliding_window", m->sliding_window, 0, big, err, errsize) ||
        check_range("sliding_layers", m->sliding_layers, 0, m->layers, err, errsize))
        return -1;
    if (m->heads % m->kv_heads != 0) {
        snprintf(err, errsize, "kv_heads must divide heads (%lld): %lld does not", (long long)m->heads,
                 (long long)m->kv_heads);
        return -1;
    }
    if (!(m->stated_params >= 0.0 && m->stated_params <= 1e16)) {
        snprintf(err, errsize, "params must be from 1 to 1e16");
        return -1;
    }
    return 0;
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
