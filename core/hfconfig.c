/* hfconfig.c — HuggingFace config.json to a model shape. */
#include "hfconfig.h"

#include <stdio.h>
#include <string.h>

#define BIG 1099511627776.0 /* 2^40: the largest dimension a shape accepts */

/* Reads an optional whole-number key in [lo, BIG] into *out (left alone when
 * absent). Returns -1 on a bad value. */
static int optional_whole(const cJSON *root, const char *key, const char *path, double lo, int64_t *out, char *err,
                          size_t errsize)
{
    double v;
    enum json_found f = json_number(root, key, path, "", false, lo, BIG, true, &v, err, errsize);
    if (f == JSON_BAD)
        return -1;
    if (f == JSON_FOUND)
        *out = (int64_t)v;
    return 0;
}

/* Reads a required whole-number key in [1, BIG]. */
static int required_whole(const cJSON *root, const char *key, const char *path, int64_t *out, char *err,
                          size_t errsize)
{
    double v;
    if (json_number(root, key, path, "", true, 1, BIG, true, &v, err, errsize) != JSON_FOUND)
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* Works out which layers use a sliding window, from whichever keys the
 * config uses to turn it on. */
static int read_sliding_window(const cJSON *root, const char *path, struct model_shape *m, struct load_warnings *w,
                               char *err, size_t errsize)
{
    int64_t window = 0;
    if (optional_whole(root, "sliding_window", path, 0, &window, err, errsize) != 0)
        return -1;
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "layer_types");
    bool use = true;
    enum json_found uf = json_bool(root, "use_sliding_window", path, false, &use, err, errsize);
    if (uf == JSON_BAD)
        return -1;
    if (window <= 0 || (uf == JSON_FOUND && !use)) {
        m->sliding_window = m->sliding_layers = 0;
        return 0;
    }
    m->sliding_window = window;
    if (cJSON_IsArray(types)) {
        int64_t windowed = 0, n = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, types)
        {
            n++;
            if (cJSON_IsString(t) && strcmp(t->valuestring, "sliding_attention") == 0)
                windowed++;
        }
        if (n != m->layers)
            warn_add(w, "%s: layer_types lists %lld layers, num_hidden_layers says %lld", path, (long long)n,
                     (long long)m->layers);
        m->sliding_layers = windowed > m->layers ? m->layers : windowed;
        return 0;
    }
    int64_t full_below = 0;
    if (optional_whole(root, "max_window_layers", path, 0, &full_below, err, errsize) != 0)
        return -1;
    /* Qwen2: layers from max_window_layers up use the window. */
    m->sliding_layers = uf == JSON_FOUND && full_below > 0 && full_below < m->layers ? m->layers - full_below
                                                                                      : m->layers;
    return 0;
}

int model_from_hf_config(const char *text, size_t len, const char *path, const char *name, struct model_shape *out,
                         struct load_warnings *w, char *err, size_t errsize)
{
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    int status = -1;
    struct model_shape m = {.experts = 1, .experts_per_token = 1, .gated_mlp = true};
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsize, "%s: expected a JSON object with the model's keys", path);
        goto done;
    }
    char model_type[48] = "";
    if (json_string(root, "model_type", path, false, model_type, sizeof model_type, err, errsize) == JSON_BAD)
        goto done;
    if (!cJSON_GetObjectItemCaseSensitive(root, "hidden_size") && cJSON_GetObjectItemCaseSensitive(root, "n_embd")) {
        snprintf(err, errsize, "%s: GPT-2-style keys (n_embd, n_layer) are not supported; expected hidden_size", path);
        goto done;
    }
    if (required_whole(root, "hidden_size", path, &m.d_model, err, errsize) ||
        required_whole(root, "num_hidden_layers", path, &m.layers, err, errsize) ||
        required_whole(root, "num_attention_heads", path, &m.heads, err, errsize) ||
        required_whole(root, "vocab_size", path, &m.vocab, err, errsize) ||
        required_whole(root, "intermediate_size", path, &m.d_ff, err, errsize))
        goto done;

    /* num_key_value_heads: missing or null means MHA; zero or a non-divisor is an error. */
    double kv;
    enum json_found kf = json_number(root, "num_key_value_heads", path, "", false, 0, BIG, true, &kv, err, errsize);
    if (kf == JSON_BAD)
        goto done;
    m.kv_heads = kf == JSON_FOUND ? (int64_t)kv : m.heads;
    if (m.kv_heads == 0 || m.kv_heads > m.heads || m.heads % m.kv_heads != 0) {
        snprintf(err, errsize, "%s: 'num_key_value_heads' (%lld) must divide num_attention_heads (%lld)", path,
                 (long long)m.kv_heads, (long long)m.heads);
        goto done;
    }
    /* head_dim given explicitly wins over hidden_size / heads. */
    m.d_head = 0;
    if (optional_whole(root, "head_dim", path, 1, &m.d_head, err, errsize) != 0)
        goto done;
    if (m.d_head == 0) {
        if (m.d_model % m.heads != 0) {
            snprintf(err, errsize,
                     "%s: hidden_size (%lld) is not a multiple of num_attention_heads (%lld); give head_dim", path,
                     (long long)m.d_model, (long long)m.heads);
            goto done;
        }
        m.d_head = m.d_model / m.heads;
    }
    bool tied = false;
    enum json_found tf = json_bool(root, "tie_word_embeddings", path, false, &tied, err, errsize);
    if (tf == JSON_BAD)
        goto done;
    if (tf == JSON_ABSENT)
        warn_add(w, "%s: no tie_word_embeddings key; assumed untied (a separate LM head)", path);
    m.tied_embeddings = tied;
    bool bias = false;
    if (json_bool(root, "attention_bias", path, false, &bias, err, errsize) == JSON_BAD)
        goto done;
    m.qkv_bias = bias || strncmp(model_type, "qwen2", 5) == 0; /* Qwen2 projections carry QKV biases */

    /* Mixture of experts, under whichever name the family uses. */
    const char *expert_keys[] = {"num_local_experts", "n_routed_experts", "num_experts"};
    for (size_t i = 0; i < sizeof expert_keys / sizeof expert_keys[0]; i++)
        if (optional_whole(root, expert_keys[i], path, 0, &m.experts, err, errsize) != 0)
            goto done;
    if (m.experts < 1)
        m.experts = 1;
    if (m.experts > 1) {
        m.experts_per_token = 0;
        if (required_whole(root, "num_experts_per_tok", path, &m.experts_per_token, err, errsize) != 0)
            goto done;
        if (m.experts_per_token > m.experts) {
            snprintf(err, errsize, "%s: 'num_experts_per_tok' (%lld) exceeds the %lld experts", path,
                     (long long)m.experts_per_token, (long long)m.experts);
            goto done;
        }
        if (optional_whole(root, "n_shared_experts", path, 0, &m.shared_experts, err, errsize) ||
            optional_whole(root, "moe_intermediate_size", path, 1, &m.moe_d_ff, err, errsize) ||
            optional_whole(root, "first_k_dense_replace", path, 0, &m.dense_layers, err, errsize))
            goto done;
        if (m.dense_layers > m.layers) {
            snprintf(err, errsize, "%s: 'first_k_dense_replace' (%lld) exceeds num_hidden_layers (%lld)", path,
                     (long long)m.dense_layers, (long long)m.layers);
            goto done;
        }
    }
    /* Multi-head latent attention. */
    if (optional_whole(root, "kv_lora_rank", path, 0, &m.kv_lora_rank, err, errsize) != 0)
        goto done;
    if (m.kv_lora_rank > 0) {
        if (required_whole(root, "qk_rope_head_dim", path, &m.qk_rope_head_dim, err, errsize) ||
            optional_whole(root, "q_lora_rank", path, 0, &m.q_lora_rank, err, errsize) ||
            required_whole(root, "qk_nope_head_dim", path, &m.qk_nope_head_dim, err, errsize) ||
            required_whole(root, "v_head_dim", path, &m.v_head_dim, err, errsize))
            goto done;
        m.d_head = m.qk_nope_head_dim + m.qk_rope_head_dim;
    }
    if (read_sliding_window(root, path, &m, w, err, errsize) != 0)
        goto done;
    char dtype[24] = "";
    if (json_string(root, "torch_dtype", path, false, dtype, sizeof dtype, err, errsize) == JSON_BAD)
        goto done;
    snprintf(m.name, sizeof m.name, "%s", name && name[0] ? name : model_type[0] ? model_type : "config.json");
    snprintf(m.source, sizeof m.source, "%s%s%s%s", path, dtype[0] ? " (" : "", dtype, dtype[0] ? ")" : "");
    char check[200];
    if (model_shape_check(&m, check, sizeof check) != 0) {
        snprintf(err, errsize, "%s: %s", path, check);
        goto done;
    }
    *out = m;
    status = 0;
done:
    cJSON_Delete(root);
    return status;
}
