/* models.h — transformer shapes as a schedule of layers, the built-in
 * presets, and every figure that depends only on the shape: the parameter
 * count, the KV cache and fixed state a request holds, and the attention
 * pairs each layer computes.
 *
 * A model is a sequence of layers that may differ: full attention, a sliding
 * window, chunked attention (Llama 4), linear attention (Gated DeltaNet) or a
 * state-space mixer (Mamba), each with a dense or a mixture-of-experts MLP.
 * Identical layers share one `struct layer_kind`; `layer_kind[i]` says which
 * kind layer i is, so a figure sums over a handful of kinds (fast, no
 * allocation) while the order stays known. A shape is a plain value type.
 */
#ifndef ROOFTOP_MODELS_H
#define ROOFTOP_MODELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_MODEL_NAME_MAX 64
#define RT_MODEL_SOURCE_MAX 200
#define RT_MAX_LAYERS 512      /* deepest model a shape holds (Llama 3.1 405B has 126) */
#define RT_MAX_LAYER_KINDS 16  /* distinct layer kinds in one model (a power of two) */
/* The largest dimensions a shape accepts: far beyond any published model
 * (DeepSeek-V3's d_model is 7168, Llama 3.1 405B's d_ff 53248, Gemma's vocab
 * 256000), yet small enough that every count and byte figure stays finite
 * and a shape cannot count more than RT_MAX_SHAPE_PARAMS. */
#define RT_MAX_WIDTH ((int64_t)1 << 20)   /* d_model, heads, d_head, latent ranks and head widths */
#define RT_MAX_FF ((int64_t)1 << 24)      /* d_ff, expert and shared widths, Mamba's d_inner */
#define RT_MAX_VOCAB ((int64_t)1 << 24)   /* vocab, learned position rows */
#define RT_MAX_EXPERTS ((int64_t)1 << 16) /* routed or shared experts */
#define RT_MAX_SHAPE_PARAMS 1e16          /* parameters a shape may count (a million times GPT-4's rumoured size) */
#define RT_MAX_ASSUMPTIONS 16
#define RT_ASSUMPTION_KEY_MAX 40
#define RT_ASSUMPTION_VALUE_MAX 48
#define RT_ASSUMPTION_WHY_MAX 200

/* What mixes information across tokens in a layer. */
enum rt_mixer {
    RT_MIXER_FULL = 0, /* causal attention over every token before it */
    RT_MIXER_SLIDING,  /* attends to, and caches, the last `window` tokens (Mistral, Gemma 2 local layers) */
    RT_MIXER_CHUNKED,  /* attends within its own `window`-token chunk (Llama 4's attention_chunk_size) */
    RT_MIXER_LINEAR,   /* linear attention (Gated DeltaNet, Qwen3-Next): a fixed state per request */
    RT_MIXER_MAMBA,    /* selective state space (Mamba, Jamba): a fixed state per request */
    RT_MIXER_MAMBA2,   /* state-space duality (Mamba-2, Nemotron-H): a fixed state per head per request */
    RT_MIXER_NONE,     /* no mixer: a block holding only an MLP (Nemotron-H's MLP and MoE blocks) */
    RT_MIXER_SPARSE,   /* sparse attention (DeepSeek Sparse Attention): caches every token, attends to the
                        * `window` (top-k) keys a lightning indexer picks (DeepSeek-V3.2, GLM-5) */
    RT_MIXER_CONV,     /* a gated short convolution (LFM2): a fixed state of its last kernel - 1 inputs */
    RT_MIXER_CROSS,    /* cross-attention to an encoder's tokens (Llama 3.2 Vision): their keys and values, fixed
                        * per request, are its state */
    RT_MIXER_COMPRESSED, /* compressed attention (DeepSeek-V4): a raw `window` plus one cached entry per `ratio`
                          * tokens, all of them attended (HCA) or the `topk` an indexer picks (CSA) */
    RT_MIXER_COUNT
};

/* One kind of layer; the model's layers of this kind are identical. */
struct layer_kind {
    enum rt_mixer mixer;
    int64_t window; /* tokens: the sliding window, the chunk, or a sparse layer's top-k; 0 for the other mixers */
    bool moe;       /* routed experts (the model's MoE fields); otherwise one dense MLP */
    bool no_mlp;    /* a block holding only its mixer (Nemotron-H's Mamba and attention blocks) */
    int64_t d_ff;   /* a dense layer's MLP width; 0 = the model's d_ff */
    int64_t count;  /* layers of this kind; the counts add up to the model's layers */
    /* An attention layer's own geometry where it differs from the model's
     * (Gemma 4's full layers: 512-wide heads over 2 KV heads, where the
     * sliding ones have 256 over 8; Nemotron-NAS's blocks): 0 = the
     * model's heads, kv_heads, d_head. Values are as wide as keys. */
    int64_t heads, kv_heads, d_head;
    bool k_eq_v;    /* no value projection: the values come from the key projection (Gemma 4's
                     * attention_k_eq_v), yet are cached beside the keys */
    bool no_sinks;  /* no attention sinks here though the model has them (MiMo-V2-Flash's full layers) */
    bool kv_shared; /* attends over an earlier layer's keys and values: no key or value projection, no cache
                     * of its own (Gemma 4's num_kv_shared_layers) */
    bool index_shared; /* a sparse layer that reuses the layer before's top-k: its indexer neither scores nor
                        * caches (GLM-5's indexer_types "shared"); its weights remain */
    int64_t ratio;  /* compressed layers: tokens per compressed entry (DeepSeek-V4: 4 CSA, 128 HCA); else 0 */
    int64_t topk;   /* compressed layers: entries the indexer picks (CSA: 512); 0 = every entry (HCA) */
    bool hash_router; /* an MoE layer routed by a fixed token-to-expert table: its router has no bias
                       * (DeepSeek-V4's first num_hash_layers) */
    bool own_norms; /* the kind's layers hold `norms` norm weights of d_model each, not the model's
                     * norms_per_layer (Nemotron-NAS: none before a skipped attention or MLP) */
    int64_t norms;
};

/* The attention geometry of one layer kind: its own where set, else the model's. */
struct attn_geometry {
    int64_t heads, kv_heads, d_head, v_head_dim;
};

/* Something a loader assumed: the key it read (or did not find), the value
 * it used, and why. */
struct model_assumption {
    char key[RT_ASSUMPTION_KEY_MAX];
    char value[RT_ASSUMPTION_VALUE_MAX];
    char why[RT_ASSUMPTION_WHY_MAX];
};

/* A decoder-only transformer's shape. A value type (no pointers). */
struct model_shape {
    char name[RT_MODEL_NAME_MAX];
    int64_t layers;            /* decoder blocks, [1, RT_MAX_LAYERS] */
    int64_t d_model;           /* hidden size, >= 1 */
    int64_t heads;             /* query heads of an attention layer, >= 1 */
    int64_t kv_heads;          /* key/value heads, divides heads (GQA; = heads is MHA, 1 is MQA) */
    int64_t d_head;            /* per-head query/key width, >= 1 (MLA: nope + rope) */
    int64_t d_ff;              /* dense MLP inner size; per expert for MoE unless moe_d_ff is set */
    int64_t vocab;             /* vocabulary size, >= 1 */
    int64_t experts;           /* routed experts of an MoE layer; 1 = dense model */
    int64_t experts_per_token; /* experts each token is routed to, 1..experts */
    bool tied_embeddings;      /* LM head shares the embedding matrix */
    bool gated_mlp;            /* SwiGLU/GeGLU: three d_model x d_ff matrices, else two (GELU MLP) */
    bool qkv_bias;             /* biases on the Q, K and V projections (Qwen2, GPT-2) */
    /* Parameter count the model's publisher states, used instead of the shape's
     * count when > 0 (the guide's round "70B"); 0 = derive from the shape. */
    double stated_params;
    char source[RT_MODEL_SOURCE_MAX];

    /* Mixture of experts and latent attention; 0 = not used. */
    int64_t shared_experts;    /* always-active experts per MoE layer (DeepSeek n_shared_experts, Qwen's 1) */
    int64_t shared_d_ff;       /* each shared expert's width; 0 = moe_d_ff */
    int64_t moe_d_ff;          /* each routed expert's width (moe_intermediate_size); 0 = d_ff */
    int64_t kv_lora_rank;      /* multi-head latent attention: cached latent width; 0 = standard */
    int64_t q_lora_rank;       /* MLA query compression; 0 = none */
    int64_t qk_rope_head_dim;  /* MLA rotary key width, cached beside the latent */
    int64_t qk_nope_head_dim;  /* MLA per-head non-rotary query/key width */
    int64_t v_head_dim;        /* per-head value width; 0 = d_head (MLA sets it) */
    /* DeepSeek-V4's attention (modeling_deepseek_v4.py): one cached tensor
     * serves as keys and values (kv_single), the output projection is
     * grouped low-rank (o_groups blocks of the heads, each to o_lora_rank,
     * then one o_lora_rank x o_groups to d_model), and hc_mult copies of the
     * residual stream mix through hyper-connections (two a layer, one at
     * the head). 0 / false = the usual attention. */
    bool kv_single;
    int64_t o_groups, o_lora_rank, hc_mult;
    /* Gemma 4's per-layer inputs (hidden_size_per_layer_input): a second
     * embedding of per_layer_vocab rows x layers x per_layer_input, a
     * projection of the stream to the same width, and in each layer a gate
     * d_model -> per_layer_input, a projection back and a norm
     * (Gemma4TextModel); 0 = none. */
    int64_t per_layer_input, per_layer_vocab;
    int64_t moe_latent;        /* latent MoE: routed experts work at this width, between a d_model x moe_latent
                                * down projection and its up projection (Nemotron-3 Super's moe_latent_size);
                                * 0 = at d_model */

    /* Details of the modeling code that change the count but not the shape. */
    bool shared_expert_gate;   /* a d_model x 1 sigmoid gate on the shared expert (Qwen MoE) */
    bool o_bias;               /* bias on the attention output projection */
    bool mlp_bias;             /* biases on the MLP (and expert) projections */
    bool router_bias;          /* bias on the MoE router */
    bool norm_bias;            /* LayerNorm with a bias (GPT-2, NeoX), not RMSNorm */
    bool lm_head_bias;         /* bias on the LM head (Phi-2, GPT-J) */
    bool attention_sinks;      /* one learned sink logit per head and layer (gpt-oss) */
    bool attn_output_gate;     /* the query projection also yields an output gate (Qwen3-Next) */
    bool attn_head_gate;       /* a d_model x heads projection gates each head's output (Step-3.5's g_proj) */
    bool embedding_norm;       /* a LayerNorm right after the embedding (BLOOM) */
    int64_t norms_per_layer;   /* norm weights of d_model per layer; 0 = 2 (Gemma 2/3: 4; parallel blocks: 1) */
    int64_t qk_norm_width;     /* weights of the query/key norms per attention layer (Qwen3: 2 x d_head) */
    int64_t position_rows;     /* learned absolute position embeddings (GPT-2, OPT); 0 = none (RoPE, ALiBi) */

    /* The lightning indexer of sparse-attention layers (RT_MIXER_SPARSE):
     * index_heads query heads of index_head_dim score every cached token
     * against one index key per token, which the cache keeps in fp8 with an
     * fp32 scale per 128 elements (DeepSeek-V3.2-Exp's inference/model.py,
     * class Indexer); 0 = no indexer. */
    int64_t index_heads, index_head_dim;

    /* Linear attention (RT_MIXER_LINEAR layers): Gated DeltaNet (Qwen3-Next),
     * or with lin_lightning MiniMax's lightning attention (q/k/v, an output
     * gate and norm, no convolution). */
    int64_t lin_key_heads, lin_value_heads, lin_key_head_dim, lin_value_head_dim, lin_conv_kernel;
    bool lin_lightning;
    /* Kimi Delta Attention (Kimi-Linear): q, k, v projections each with its
     * own short convolution, low-rank forget and output gates of rank
     * head_dim, a beta per head, A_log, dt_bias, a gated norm and o_proj
     * (vLLM's layers/kda.py); its state is the delta rule's. */
    bool lin_kda;
    /* Selective state space (RT_MIXER_MAMBA and RT_MIXER_MAMBA2 layers):
     * d_inner = expand x d_model (Mamba) or heads x head_dim (Mamba-2). */
    int64_t ssm_d_inner, ssm_d_state, ssm_d_conv, ssm_dt_rank, ssm_heads, ssm_groups;
    /* Gated short convolutions (RT_MIXER_CONV, LFM2's Lfm2ShortConv): in_proj
     * d_model to 3 d_model (B, C, x), a depthwise convolution of this kernel
     * over d_model, out_proj; conv_bias puts a bias on all three. */
    int64_t conv_kernel;
    bool conv_bias;
    /* Cross-attention layers (RT_MIXER_CROSS): the encoder tokens each
     * request's keys and values hold (Llama 3.2 Vision: 1601 a tile x 4
     * tiles), at the model's attention geometry with per-head q/k norms and
     * two gate scalars (transformers' MllamaCrossAttentionDecoderLayer). */
    int64_t cross_tokens;
    bool ssm_conv_bias, ssm_proj_bias;
    bool ssm_inner_norms;      /* Jamba: RMSNorms on dt (dt_rank), B and C (d_state each) inside each Mamba layer */
    /* Bytes per element of the recurrent state (Nemotron-H's
     * mamba_ssm_cache_dtype float32: 4); 0 = the KV precision. Convolution
     * windows are always at the KV precision. */
    int64_t ssm_state_bytes;

    /* The layer schedule: kinds[0..kind_count) and each layer's kind. A
     * shape with kind_count 0 is read as every layer full attention with the
     * model's MLP (dense, or MoE when experts > 1); model_schedule_fix()
     * writes that out. */
    struct layer_kind kinds[RT_MAX_LAYER_KINDS];
    int kind_count;
    uint8_t layer_kind[RT_MAX_LAYERS];

    /* The checkpoint's stored format, as its quantization_config or
     * hf_quant_config.json states it (hfquant.h); checkpoint_quantized false
     * = none stated (bf16 or fp16 weights). The scenario's precisions start
     * from it (scenario_use_checkpoint); rooftop counts every weight at one
     * precision, and the assumption it writes says what the checkpoint keeps
     * wider. */
    bool checkpoint_quantized;
    int checkpoint_precision;  /* enum rt_precision (units.h) of the bulk of its weights */
    bool checkpoint_kv_quantized; /* it states a KV-cache format (kv_cache_quant_algo, kv_cache_scheme) */
    int checkpoint_kv_precision;  /* that format: enum rt_precision (FP8, NVFP4) */
    bool checkpoint_weight_only;  /* weights only (W4A16, AWQ, GPTQ): the matmuls run in bf16 */
    bool checkpoint_act_set;      /* its matmuls' inputs have a format of their own (W4A8: fp8) */
    int checkpoint_act_precision; /* that format: enum rt_precision */

    /* The longest context the model was built for (max_position_embeddings,
     * n_positions); 0 = not stated. A longer --context is said, not refused. */
    int64_t max_context;

    /* What the loader assumed (absent keys, inferred patterns). */
    struct model_assumption assumptions[RT_MAX_ASSUMPTIONS];
    int assumption_count;
};

/* Parameters of a shape, broken down. All counts are parameters (not bytes). */
struct param_count {
    double total;              /* every weight: what memory must hold */
    double active;             /* weights one token uses: what FLOPs are paid on */
    double embedding;          /* token embedding (vocab x d_model) plus learned positions */
    double lm_head;            /* output projection; 0 when tied */
    double attention_per_layer;/* one attention layer's Q, K, V, O (biases, norms, sinks) */
    double linear_per_layer;   /* one linear-attention or Mamba mixer */
    double mlp_per_expert;     /* one routed expert (the dense MLP when the model has no experts) */
    double router_per_layer;   /* d_model x experts in an MoE layer (with a latent MoE's two projections) */
    double norms;              /* every norm weight of the model */
};

/* "full", "sliding", "chunked", "linear", "mamba", "mamba2", "none". */
const char *mixer_name(enum rt_mixer mixer);

/* True for the mixers that keep a growing KV cache (full, sliding, chunked, sparse). */
bool mixer_is_attention(enum rt_mixer mixer);

/* Tokens a layer of kind k holds in its KV cache for a request of
 * context_tokens >= 0: all of them (full, sparse), at most the window or
 * the chunk, 0 for linear and state-space mixers. */
double layer_kv_tokens(const struct layer_kind *k, double context_tokens);

/* Keys the newest token attends to at 1-based position context_tokens >= 1:
 * the context (full), min(context, window) (sliding; sparse, whose window is
 * the indexer's top-k: DeepSeek-V3.2 tech report, sec. 2.1), its place in its chunk
 * ((context - 1) mod chunk + 1), 0 for linear and state-space mixers. */
double layer_decode_keys(const struct layer_kind *k, double context_tokens);

/* Compressed entries a compressed layer (RT_MIXER_COMPRESSED) holds for
 * context_tokens >= 0: floor(context / ratio), one each time a window of
 * ratio tokens fills (modeling_deepseek_v4.py's compressors); 0 for the
 * other mixers. */
double layer_compressed_entries(const struct layer_kind *k, double context_tokens);

/* Query-key pairs a causal prompt of P >= 0 tokens computes in one head of a
 * layer of kind k: P(P+1)/2 (full); for a window (or sparse top-k) W < P,
 * W(W+1)/2 + (P-W)W; a compressed layer its window's pairs plus, for each
 * query i, min(top-k, floor(i / ratio)) entries (all of them for HCA);
 * for chunks of C, q C(C+1)/2 + r(r+1)/2 with P = qC + r; 0 for linear and
 * state-space mixers. */
double layer_prefill_pairs(const struct layer_kind *k, double prompt_tokens);

/* Keys per token in PaLM's model-FLOPs convention (Chowdhery et al. 2022,
 * app. B: attention not halved for causality) at sequence length seq: seq,
 * or min(seq, window) for windowed and chunked layers, 0 for linear and
 * state-space mixers. */
double layer_palm_keys(const struct layer_kind *k, double seq_len);

/* True when every layer is full attention (whatever its MLP). */
bool model_all_full_attention(const struct model_shape *m);

/* Layers of the shape whose mixer keeps a KV cache (full, sliding, chunked). */
double model_attention_layers(const struct model_shape *m);

/* Parameters of one attention layer's output projection: heads x value
 * width x d_model, or DeepSeek-V4's grouped low-rank one (o_groups blocks
 * of the heads each to o_lora_rank, then o_groups o_lora_rank to d_model). */
double model_o_params(const struct model_shape *m);

/* Parameters of one layer's per-layer input path (Gemma 4: a gate
 * d_model -> per_layer_input, a projection back, a norm of d_model); 0
 * without per-layer inputs. */
double model_per_layer_input_params(const struct model_shape *m);

/* Parameters of one layer's hyper-connections (two modules, each fn
 * (2 + hc) hc x hc d_model, a base of (2 + hc) hc and 3 scales;
 * DeepseekV4HyperConnection); 0 without hc_mult. */
double model_hyper_connection_params_per_layer(const struct model_shape *m);

/* The attention geometry of layer kind k of m (k NULL: the model's):
 * heads, kv_heads and d_head of the kind where it sets them, else the
 * model's; the value width is d_head for a kind that sets its own, else
 * model_v_head_dim(m). */
struct attn_geometry model_kind_geometry(const struct model_shape *m, const struct layer_kind *k);

/* Norm weights of d_model over every layer: each kind's own count, or the
 * model's norms_per_layer (2 when 0), times its layers; the final norm
 * and an embedding norm are not included. */
double model_layer_norms(const struct model_shape *m);

/* True when some attention kind of m has its own geometry (layer_kind.heads,
 * kv_heads, d_head or k_eq_v). */
bool model_mixed_geometry(const struct model_shape *m);

/* KV-cache elements one token adds in one layer of kind k (k NULL: the
 * model's geometry), as model_kv_elements_per_token_per_layer. */
double model_kind_kv_elements(const struct model_shape *m, const struct layer_kind *k);

/* Parameters of one layer's mixer of kind k, in its own geometry (k NULL:
 * the model's attention). */
double model_kind_mixer_params(const struct model_shape *m, const struct layer_kind *k);

/* Value width of an attention head: v_head_dim when set, else d_head. */
int64_t model_v_head_dim(const struct model_shape *m);

/* KV-cache elements one token adds in one attention layer: 2 x kv_heads x
 * d_head (K and V; a different value width counts apart), or kv_lora_rank +
 * qk_rope_head_dim for latent attention (DeepSeek-V2 paper, sec. 2.1: the
 * compressed latent and the decoupled rotary key). */
double model_kv_elements_per_token_per_layer(const struct model_shape *m);

/* Bytes one token's index key takes in one sparse-attention layer: fp8
 * index_head_dim plus a 4-byte fp32 scale per 128 elements (132 for
 * DeepSeek-V3.2's 128; its inference/model.py, Indexer.k_cache and
 * k_scale_cache); 0 without an indexer. */
double model_index_bytes_per_token_per_layer(const struct model_shape *m);

/* Parameters of one sparse layer's indexer: wq_b (q_lora_rank, or d_model
 * without a query LoRA, to index_heads x index_head_dim), wk (d_model to
 * index_head_dim), k_norm (a LayerNorm with its bias) and weights_proj
 * (d_model to index_heads) (DeepSeek-V3.2-Exp's inference/model.py). */
double model_indexer_params(const struct model_shape *m);

/* KV-cache bytes one token adds across every attention layer, before any
 * window (the "per token" figure of the guide's ch. 7), with each sparse
 * layer's index key at its own fp8 bytes. bytes_per_element > 0. */
double model_kv_bytes_per_token(const struct model_shape *m, double bytes_per_element);

/* KV-cache bytes of one request holding context_tokens tokens: each layer
 * holds layer_kv_tokens() of them. bytes_per_element > 0, context >= 0. */
double model_kv_bytes_per_request(const struct model_shape *m, double context_tokens, double bytes_per_element);

/* Parameters of one layer's mixer of kind mixer at the model's geometry:
 * the attention projections (with their biases, norms, sinks and gates; or
 * the latent-attention ones; a sparse layer's indexer beside them), a
 * Gated DeltaNet, lightning or Kimi Delta Attention mixer (transformers'
 * modeling_qwen3_next.py; vLLM's layers/kda.py), a Mamba mixer (Gu & Dao
 * 2023; modeling_jamba.py), LFM2's short convolution or a cross-attention
 * layer (modeling_lfm2.py, modeling_mllama.py). A compressed layer's is
 * model_kind_mixer_params'. */
double model_mixer_params(const struct model_shape *m, enum rt_mixer mixer);

/* Fixed state bytes one request keeps in one layer of kind mixer,
 * independent of context (0 for attention mixers). The elements: Gated
 * DeltaNet keeps value_heads x key_dim x value_dim plus a convolution
 * window of (kernel - 1) x (2 key + value widths) (Yang et al. 2024;
 * transformers' modeling_qwen3_next.py); lightning attention heads x
 * key_dim x value_dim (MiniMax-01 report); Mamba keeps d_inner x d_state
 * plus d_inner x (d_conv - 1) (Gu & Dao 2023); Mamba-2 d_inner x d_state
 * plus (d_inner + 2 groups x d_state) x (d_conv - 1) (Dao & Gu 2024; the
 * convolution window as vLLM keeps it); a short convolution d_model x
 * (kernel - 1) (LFM2, as vLLM's ShortConv keeps it); a cross-attention
 * layer its encoder tokens' keys and values. The bytes: the recurrent part
 * at ssm_state_bytes (or the KV precision when 0), the convolution window
 * at the KV precision, never below 2 bytes an element (bf16), as serving
 * stacks keep it; the encoder's keys and values at the KV precision.
 * kv_bytes_per_element > 0. */
double model_state_bytes_per_layer(const struct model_shape *m, enum rt_mixer mixer, double kv_bytes_per_element);

/* Fixed state bytes of one request across every layer. */
double model_state_bytes_per_request(const struct model_shape *m, double kv_bytes_per_element);

/* Counts the parameters of shape m, layer kind by layer kind: embedding (and
 * learned positions) + LM head (unless tied) + every layer's mixer, MLP and
 * norms + the final norm. Active counts top-k routed experts plus the shared
 * ones. Matches the published counts of Llama 3.1 8B/70B/405B, Mistral 7B,
 * Mixtral 8x7B, Qwen2.5 72B, Pythia 6.9B, Gemma 2 2B, Qwen1.5-MoE (see
 * tests/test_fixtures.c). All zeros when m is NULL; not meaningful for a
 * shape that fails model_shape_check. */
struct param_count model_param_count(const struct model_shape *m);

/* Checks a shape. Returns 0 when valid; otherwise -1 with a one-line message
 * naming the field and the accepted range in err (errsize bytes). Rules:
 * layers in [1, RT_MAX_LAYERS]; d_model, heads, d_head and the other widths
 * in [1, RT_MAX_WIDTH]; d_ff and expert widths up to RT_MAX_FF; vocab up to
 * RT_MAX_VOCAB; experts up to RT_MAX_EXPERTS; kv_heads divides heads;
 * experts_per_token in [1, experts]; the schedule's counts match its layers;
 * an MoE layer needs experts > 1; a window is >= 1; linear and Mamba layers
 * need their dimensions; and the shape counts at most RT_MAX_SHAPE_PARAMS
 * parameters (each dimension within its range can still multiply past it). */
int model_shape_check(const struct model_shape *m, char *err, size_t errsize);

/* The divisors of heads in ascending order (the kv-heads counts a model of
 * heads query heads can take), at most max of them (the smallest); heads
 * up to 2^40. Returns how many were written (0 when heads < 1). */
int model_head_divisors(int64_t heads, int64_t *out, int max);

/* Most divisors kv_heads_choices lists before "...". */
#define RT_KV_CHOICES_SHOWN 24

/* Writes the kv-head counts a model with `heads` query heads can take (the
 * divisors of heads, ascending: GQA groups must be whole; Ainslie et al.,
 * "GQA", 2023) as "1, 2, 4, 8, 16, 32, 64" into buf (size bytes), at most
 * RT_KV_CHOICES_SHOWN of them and then ", ..."; heads < 1 gives "". Returns
 * buf (cut short, still terminated, when size is too small). */
char *kv_heads_choices(int64_t heads, char *buf, size_t size);

/* Makes the schedule explicit: with kind_count 0, one kind (full attention,
 * MoE when experts > 1) for every layer; otherwise recounts each kind from
 * layer_kind[] and drops kinds no layer uses. Call after editing
 * layer_kind[] or kinds[]. NULL is ignored. */
void model_schedule_fix(struct model_shape *m);

/* Index of kind k in m's kinds (count ignored), adding it when new; -1 when
 * RT_MAX_LAYER_KINDS are in use. Kinds are compared in one spelling: a
 * window only on sliding and chunked mixers, a width only on a dense MLP. */
int model_kind_index(struct model_shape *m, const struct layer_kind *k);

/* Changes the depth to layers in [1, RT_MAX_LAYERS] keeping the pattern:
 * fewer layers keep the first ones; more repeat the shortest period of the
 * schedule's second half (a uniform model stays uniform; 3 dense then MoE
 * adds MoE layers; alternating layers keep alternating), or the whole
 * schedule again when its upper half has no short period (and the shape's
 * assumptions say so). Returns 0, or -1 when layers is out of range (the
 * shape is unchanged). */
int model_set_layers(struct model_shape *m, int64_t layers);

/* Makes every attention layer (full, sliding or chunked) a sliding window of
 * window tokens, or full attention when window is 0. Sparse and compressed
 * layers keep their own (a top-k is not a window), and linear, Mamba,
 * convolution and cross-attention layers are unchanged. Returns 0, or -1
 * when window is negative. */
int model_set_window(struct model_shape *m, int64_t window);

/* Writes a few words naming the schedule into buf (size bytes), e.g.
 * "80 full", "13 sliding (4096) + 13 full", "12 full + 36 linear",
 * "3 dense + 58 MoE"; kinds that differ only in their MLP are named by it.
 * Returns buf. */
char *model_schedule_summary(const struct model_shape *m, char *buf, size_t size);

/* Appends an assumption (key, value, why) to m; dropped when full or when
 * the same key and value are there already. */
void model_assume(struct model_shape *m, const char *key, const char *value, const char *why);

/* One rule for every way a shape changes (a command-line flag, a scenario
 * file's or a tour step's "model" keys): a stated count (guide-70b's 70e9)
 * no longer describes the changed model, so m->stated_params is dropped and
 * N is counted from the shape, with the assumption "stated_params =
 * dropped" saying why ("--d-ff changed the shape: ..."). what names the
 * change as the user gave it ("--d-ff", "d_ff"). kv_only (the KV heads
 * alone changed) keeps the count, as the guide's GQA comparisons hold N
 * fixed, and says so. A model that states no count is left as it is. */
void model_shape_changed(struct model_shape *m, const char *what, bool kv_only);

/* True when a shape change dropped m's stated count (model_shape_changed's
 * "stated_params = dropped"): its name no longer gives its size. */
bool model_stated_dropped(const struct model_shape *m);

/* Removes every assumption about key (a flag set it explicitly). */
void model_unassume(struct model_shape *m, const char *key);

/* Number of built-in model presets. */
size_t model_builtin_count(void);

/* The i-th preset, i in [0, model_builtin_count()); NULL outside. */
const struct model_shape *model_builtin(size_t i);

/* Finds a preset by name, ignoring case and non-alphanumerics
 * ("Llama-3.1-70B" = "llama3.170b"). NULL when none matches. */
const struct model_shape *model_find(const char *name);

#endif
