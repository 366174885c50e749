/* models.c — built-in shapes and the parameter count. */
#include "models.h"

#include <stdio.h>
#include <string.h>

#include "units.h" /* name_normalize */

/* Shapes from each model's published config.json (HuggingFace), with the
 * publisher's stated parameter count in the source line for comparison. */
static const struct model_shape builtin_models[] = {
    /* name, layers, d_model, heads, kv, d_head, d_ff, vocab, experts, k, tied, gated, qkv_bias, stated */
    {"guide-70b", 80, 8192, 64, 8, 128, 28672, 128256, 1, 1, false, true, false, 70e9,
     "The guide's 70B: Llama 3 70B's shape with N = 70e9 exactly, as the napkin uses"},
    {"llama-3.1-8b", 32, 4096, 32, 8, 128, 14336, 128256, 1, 1, false, true, false, 0,
     "meta-llama/Llama-3.1-8B config.json; Meta states 8.03B"},
    {"llama-3.1-70b", 80, 8192, 64, 8, 128, 28672, 128256, 1, 1, false, true, false, 0,
     "meta-llama/Llama-3.1-70B config.json; Meta states 70.6B"},
    {"llama-3.1-405b", 126, 16384, 128, 8, 128, 53248, 128256, 1, 1, false, true, false, 0,
     "meta-llama/Llama-3.1-405B config.json; Meta states 405B"},
    {"mistral-7b", 32, 4096, 32, 8, 128, 14336, 32000, 1, 1, false, true, false, 0,
     "mistralai/Mistral-7B-v0.1 config.json; Mistral states 7.24B"},
    {"mixtral-8x7b", 32, 4096, 32, 8, 128, 14336, 32000, 8, 2, false, true, false, 0,
     "mistralai/Mixtral-8x7B-v0.1 config.json; Mistral states 46.7B total, 12.9B active"},
    {"qwen2.5-72b", 80, 8192, 64, 8, 128, 29568, 152064, 1, 1, false, true, true, 0,
     "Qwen/Qwen2.5-72B config.json; Qwen states 72.7B"},
};

struct param_count model_param_count(const struct model_shape *m)
{
    struct param_count c = {0};
    if (!m)
        return c;
    double d = (double)m->d_model, L = (double)m->layers;
    double q = (double)m->heads * (double)m->d_head;
    double kv = (double)m->kv_heads * (double)m->d_head;
    c.embedding = (double)m->vocab * d;
    c.lm_head = m->tied_embeddings ? 0.0 : (double)m->vocab * d;
    c.attention_per_layer = d * q + 2.0 * d * kv + q * d + (m->qkv_bias ? q + 2.0 * kv : 0.0);
    c.mlp_per_expert = (m->gated_mlp ? 3.0 : 2.0) * d * (double)m->d_ff;
    c.router_per_layer = m->experts > 1 ? d * (double)m->experts : 0.0;
    c.norms = 2.0 * d * L + d;
    double shared = c.embedding + c.lm_head + L * (c.attention_per_layer + c.router_per_layer) + c.norms;
    c.total = shared + L * (double)m->experts * c.mlp_per_expert;
    c.active = shared + L * (double)m->experts_per_token * c.mlp_per_expert;
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
