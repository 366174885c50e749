/* models.h — transformer shapes, the built-in presets and the parameter count
 * derived from a shape.
 */
#ifndef ROOFTOP_MODELS_H
#define ROOFTOP_MODELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_MODEL_NAME_MAX 64
#define RT_MODEL_SOURCE_MAX 200

/* A decoder-only transformer's shape. A value type (no pointers). */
struct model_shape {
    char name[RT_MODEL_NAME_MAX];
    int64_t layers;            /* decoder blocks, >= 1 */
    int64_t d_model;           /* hidden size, >= 1 */
    int64_t heads;             /* query heads, >= 1 */
    int64_t kv_heads;          /* key/value heads, divides heads (GQA; = heads is MHA, 1 is MQA) */
    int64_t d_head;            /* per-head dimension, >= 1 */
    int64_t d_ff;              /* MLP inner size (per expert for MoE), >= 1 */
    int64_t vocab;             /* vocabulary size, >= 1 */
    int64_t experts;           /* MLP experts per layer; 1 = dense */
    int64_t experts_per_token; /* experts each token is routed to, 1..experts */
    bool tied_embeddings;      /* LM head shares the embedding matrix */
    bool gated_mlp;            /* SwiGLU-style: three d_model x d_ff matrices, else two */
    bool qkv_bias;             /* biases on the Q, K and V projections (Qwen2) */
    /* Parameter count the model's publisher states, used instead of the shape's
     * count when > 0 (the guide's round "70B"); 0 = derive from the shape. */
    double stated_params;
    char source[RT_MODEL_SOURCE_MAX];

    /* Refinements read from a HuggingFace config.json; 0 = not used. */
    int64_t shared_experts;    /* always-active experts per MoE layer (DeepSeek n_shared_experts) */
    int64_t moe_d_ff;          /* each expert's MLP size (moe_intermediate_size); 0 = d_ff */
    int64_t dense_layers;      /* leading layers with a dense MLP of d_ff (first_k_dense_replace) */
    int64_t kv_lora_rank;      /* multi-head latent attention: cached latent width; 0 = standard */
    int64_t q_lora_rank;       /* MLA query compression; 0 = none */
    int64_t qk_rope_head_dim;  /* MLA rotary key width, cached beside the latent */
    int64_t qk_nope_head_dim;  /* MLA per-head non-rotary query/key width */
    int64_t v_head_dim;        /* MLA per-head value width */
    int64_t sliding_window;    /* tokens a windowed layer attends to and caches; 0 = none */
    int64_t sliding_layers;    /* how many layers use the window (<= layers) */
};

/* Parameters of a shape, broken down. All counts are parameters (not bytes). */
struct param_count {
    double total;              /* every weight: what memory must hold */
    double active;             /* weights one token uses: what FLOPs are paid on */
    double embedding;          /* token embedding (vocab x d_model) */
    double lm_head;            /* output projection; 0 when tied */
    double attention_per_layer;/* Q, K, V, O (and QKV biases) */
    double mlp_per_expert;     /* one expert's MLP (the whole MLP when dense) */
    double router_per_layer;   /* d_model x experts when experts > 1 */
    double norms;              /* RMSNorm weights: 2 per layer + final */
};

/* KV-cache elements one token adds in one layer: 2 x kv_heads x d_head (K and
 * V), or kv_lora_rank + qk_rope_head_dim for latent attention (DeepSeek-V2
 * paper, sec. 2.1: the compressed latent and the decoupled rotary key). */
double model_kv_elements_per_token_per_layer(const struct model_shape *m);

/* KV-cache bytes of one request holding context_tokens tokens, every layer:
 * full-attention layers hold every token, sliding-window layers at most
 * sliding_window of them. bytes_per_element > 0, context >= 0. */
double model_kv_bytes_per_request(const struct model_shape *m, double context_tokens, double bytes_per_element);

/* Counts the parameters of shape m: embedding + LM head (unless tied) + per
 * layer (attention + experts x MLP + router + 2 norms) + final norm. Active
 * replaces experts with experts_per_token. Norm weights are d_model each
 * (RMSNorm, no bias). Matches Llama 3.1 8B/70B/405B, Mistral 7B, Mixtral 8x7B
 * (46.7B total, 12.9B active) and Qwen2.5 72B within 0.1% of the published
 * counts. Fields of an invalid shape (see model_shape_check) are not
 * meaningful; the result is all zeros when m is NULL. */
struct param_count model_param_count(const struct model_shape *m);

/* Checks a shape. Returns 0 when valid; otherwise -1 with a one-line message
 * naming the field and the accepted range in err (errsize bytes). Rules: every
 * dimension in [1, 2^40]; kv_heads divides heads; experts_per_token in
 * [1, experts]. */
int model_shape_check(const struct model_shape *m, char *err, size_t errsize);

/* Number of built-in model presets. */
size_t model_builtin_count(void);

/* The i-th preset, i in [0, model_builtin_count()); NULL outside. */
const struct model_shape *model_builtin(size_t i);

/* Finds a preset by name, ignoring case and non-alphanumerics
 * ("Llama-3.1-70B" = "llama3.170b"). NULL when none matches. */
const struct model_shape *model_find(const char *name);

#endif
