/* hfconfig.c — HuggingFace config.json to a model shape, family by family. */
#include "hfconfig.h"

#include "hfquant.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG 1099511627776.0 /* 2^40: the largest dimension a shape accepts */

/* How a family lays out its attention layers when config.json has no
 * layer_types list. */
enum hf_pattern {
    PAT_NONE = 0,        /* every layer full attention; a sliding_window key is not used */
    PAT_WINDOW_ALL,      /* a non-null sliding_window applies to every layer (Mistral) */
    PAT_QWEN,            /* windowed when use_sliding_window and index >= max_window_layers */
    PAT_ALTERNATE,       /* even layers sliding, odd layers full (Gemma 2, gpt-oss) */
    PAT_WINDOW_PERIOD,   /* sliding unless (i + 1) % sliding_window_pattern == 0 (Gemma 3, Cohere 2) */
    PAT_CHUNKED,         /* chunked where no_rope_layers[i] is 1: all but every 4th layer (Llama 4) */
    PAT_LINEAR_INTERVAL, /* linear attention unless (i + 1) % full_attention_interval == 0 (Qwen3-Next) */
    PAT_JAMBA,           /* attention where i % attn_layer_period == attn_layer_offset, else Mamba */
    PAT_TYPE_LIST,       /* attn_type_list: 0 linear (lightning) attention, 1 full (MiniMax) */
    PAT_HYBRID_STRING    /* hybrid_override_pattern: one block per character, M * - E (Nemotron-H) */
};

/* Which layers of an MoE family route to experts. */
enum hf_moe_rule {
    MOE_ALL = 0, /* every layer */
    MOE_DEEPSEEK, /* i >= first_k_dense_replace and i % moe_layer_freq == 0 */
    MOE_QWEN,     /* (i + 1) % decoder_sparse_step == 0 and i not in mlp_only_layers */
    MOE_LLAMA4,   /* (i + 1) % interleave_moe_layer_step == 0 (or the moe_layers list) */
    MOE_JAMBA     /* i % expert_layer_period == expert_layer_offset */
};

/* Details of a family's modeling code. */
enum {
    F_PLAIN = 1 << 0,         /* two-matrix MLP (GELU/ReLU), not gated */
    F_LN_BIAS = 1 << 1,       /* LayerNorm with a bias */
    F_QKV_BIAS = 1 << 2,      /* default bias on Q, K, V */
    F_O_BIAS = 1 << 3,        /* default bias on the output projection */
    F_MLP_BIAS = 1 << 4,      /* default biases on the MLP */
    F_QK_NORM_HEAD = 1 << 5,  /* per-head query and key norms (2 x head_dim) */
    F_QK_NORM_FULL = 1 << 6,  /* full-width query and key norms (heads + kv heads) x head_dim */
    F_SINKS = 1 << 7,         /* a learned sink logit per head */
    F_SHARED_GATE = 1 << 8,   /* shared expert of shared_expert_intermediate_size with a sigmoid gate */
    F_OUTPUT_GATE = 1 << 9,   /* the query projection doubles to gate the attention output */
    F_POSITIONS = 1 << 10,    /* learned absolute positions */
    F_EMBED_NORM = 1 << 11,   /* LayerNorm after the embedding */
    F_LM_HEAD_BIAS = 1 << 12, /* bias on the LM head */
    F_ROUTER_BIAS = 1 << 13,  /* a bias on the router (gpt-oss), or its score-correction bias (DeepSeek-V3) */
    F_FF4 = 1 << 14,          /* MLP width defaults to 4 x hidden size */
    F_LLAMA4_SHARED = 1 << 15, /* one shared expert of intermediate_size in each MoE layer */
    F_LIGHTNING = 1 << 16,     /* linear layers are lightning attention over the attention heads */
    F_QK_NORM_OPTIONAL = 1 << 17, /* the q/k norms exist only with use_qk_norm (Cohere) */
    F_SSM_INNER_NORMS = 1 << 18,  /* Jamba's Mamba layers norm dt, B and C */
    F_HALF_FF = 1 << 19,          /* intermediate_size counts both gated halves: each matrix is half of it */
    F_SPARSE = 1 << 20,           /* DeepSeek Sparse Attention: with index_topk, every layer's attention is sparse */
    F_GLOBAL_GEOMETRY = 1 << 21,  /* full layers have their own heads: global_head_dim, num_global_key_value_heads
                                   * with attention_k_eq_v (Gemma 4) */
    F_OWN_LAYOUT = 1 << 22,       /* the family reads its own per-block layout (block_configs, compress_ratios) */
    F_SHORT_CONV = 1 << 23,       /* "conv" layers are LFM2's gated short convolutions */
    F_SWA_GEOMETRY = 1 << 24,     /* sliding layers have their own heads (swa_num_key_value_heads ...) and sinks
                                   * (add_swa_attention_sink_bias; MiMo-V2-Flash) */
    F_KDA = 1 << 25,              /* linear_attn_config: Kimi Delta Attention layers beside MLA (Kimi-Linear) */
    F_COMPRESSED = 1 << 26        /* compress_ratios: DeepSeek-V4's CSA and HCA layers, hyper-connections */
};

struct hf_family {
    const char *model_type;
    const char *source; /* the transformers files this row follows */
    bool tie;           /* the configuration class's tie_word_embeddings default */
    int norms;          /* norm weights of hidden_size per layer */
    enum hf_pattern pattern;
    int period;         /* the pattern's default period (Gemma 3: 6; Cohere 2: 4; Qwen3-Next: 4) */
    enum hf_moe_rule moe;
    unsigned flags;
};

/* Family rows. Files are under src/transformers/models/ in transformers. */
static const struct hf_family families[] = {
    {"llama", "llama/configuration_llama.py, modeling_llama.py", false, 2, PAT_NONE, 0, MOE_ALL, 0},
    {"mistral", "mistral/configuration_mistral.py, modeling_mistral.py", false, 2, PAT_WINDOW_ALL, 0, MOE_ALL, 0},
    {"mixtral", "mixtral/configuration_mixtral.py, modeling_mixtral.py", false, 2, PAT_WINDOW_ALL, 0, MOE_ALL, 0},
    {"qwen", "Qwen's configuration_qwen.py, modeling_qwen.py (remote code; QWenMLP)", false, 2, PAT_NONE, 0, MOE_ALL,
     F_QKV_BIAS | F_HALF_FF},
    {"qwen2", "qwen2/configuration_qwen2.py, modeling_qwen2.py", false, 2, PAT_QWEN, 0, MOE_ALL, F_QKV_BIAS},
    {"qwen2_moe", "qwen2_moe/configuration_qwen2_moe.py, modeling_qwen2_moe.py", false, 2, PAT_QWEN, 0, MOE_QWEN,
     F_QKV_BIAS | F_SHARED_GATE},
    {"qwen3", "qwen3/configuration_qwen3.py, modeling_qwen3.py", false, 2, PAT_QWEN, 0, MOE_ALL, F_QK_NORM_HEAD},
    {"qwen3_moe", "qwen3_moe/configuration_qwen3_moe.py, modeling_qwen3_moe.py", false, 2, PAT_QWEN, 0, MOE_QWEN,
     F_QK_NORM_HEAD},
    {"qwen3_next", "qwen3_next/configuration_qwen3_next.py, modeling_qwen3_next.py", false, 2, PAT_LINEAR_INTERVAL, 4,
     MOE_QWEN, F_QK_NORM_HEAD | F_SHARED_GATE | F_OUTPUT_GATE},
    {"gemma", "gemma/configuration_gemma.py, modeling_gemma.py", true, 2, PAT_NONE, 0, MOE_ALL, 0},
    {"gemma2", "gemma2/configuration_gemma2.py, modeling_gemma2.py", true, 4, PAT_ALTERNATE, 2, MOE_ALL, 0},
    {"gemma3_text", "gemma3/configuration_gemma3.py, modeling_gemma3.py", true, 4, PAT_WINDOW_PERIOD, 6, MOE_ALL,
     F_QK_NORM_HEAD},
    {"gemma4_text", "gemma4/configuration_gemma4.py, modeling_gemma4.py (Gemma4TextAttention, Gemma4TextRouter)",
     true, 4, PAT_WINDOW_PERIOD, 6, MOE_ALL, F_QK_NORM_HEAD | F_GLOBAL_GEOMETRY},
    {"cohere", "cohere/configuration_cohere.py, modeling_cohere.py", true, 1, PAT_NONE, 0, MOE_ALL,
     F_QK_NORM_FULL | F_QK_NORM_OPTIONAL},
    {"cohere2", "cohere2/configuration_cohere2.py, modeling_cohere2.py", true, 1, PAT_WINDOW_PERIOD, 4, MOE_ALL, 0},
    {"gpt_oss", "gpt_oss/configuration_gpt_oss.py, modeling_gpt_oss.py", false, 2, PAT_ALTERNATE, 2, MOE_ALL,
     F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS | F_SINKS | F_ROUTER_BIAS},
    {"llama4_text", "llama4/configuration_llama4.py, modeling_llama4.py", false, 2, PAT_CHUNKED, 4, MOE_LLAMA4,
     F_LLAMA4_SHARED},
    {"deepseek_v2", "deepseek_v2/configuration_deepseek_v2.py, modeling_deepseek_v2.py", false, 2, PAT_NONE, 0,
     MOE_DEEPSEEK, 0},
    {"deepseek_v3", "deepseek_v3/configuration_deepseek_v3.py, modeling_deepseek_v3.py", false, 2, PAT_NONE, 0,
     MOE_DEEPSEEK, F_ROUTER_BIAS},
    {"gpt2", "gpt2/configuration_gpt2.py, modeling_gpt2.py", true, 2, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS | F_POSITIONS | F_FF4},
    {"gpt_neox", "gpt_neox/configuration_gpt_neox.py, modeling_gpt_neox.py", false, 2, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS},
    {"gptj", "gptj/configuration_gptj.py, modeling_gptj.py", false, 1, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_MLP_BIAS | F_LM_HEAD_BIAS | F_FF4},
    {"falcon", "falcon/configuration_falcon.py, modeling_falcon.py", true, 1, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_FF4},
    {"opt", "opt/configuration_opt.py, modeling_opt.py", true, 2, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS | F_POSITIONS},
    {"mpt", "mpt/configuration_mpt.py, modeling_mpt.py", true, 2, PAT_NONE, 0, MOE_ALL, F_PLAIN | F_FF4},
    {"bloom", "bloom/configuration_bloom.py, modeling_bloom.py", true, 2, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS | F_EMBED_NORM | F_FF4},
    {"phi", "phi/configuration_phi.py, modeling_phi.py", false, 1, PAT_NONE, 0, MOE_ALL,
     F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS | F_LM_HEAD_BIAS},
    {"phi3", "phi3/configuration_phi3.py, modeling_phi3.py", false, 2, PAT_WINDOW_ALL, 0, MOE_ALL, 0},
    {"nemotron", "nemotron/configuration_nemotron.py, modeling_nemotron.py (NemotronMLP: up, relu2, down)", false, 2,
     PAT_NONE, 0, MOE_ALL, F_PLAIN | F_LN_BIAS},
    {"starcoder2", "starcoder2/configuration_starcoder2.py, modeling_starcoder2.py", true, 2, PAT_WINDOW_ALL, 0,
     MOE_ALL, F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS},
    {"dbrx", "dbrx/configuration_dbrx.py, modeling_dbrx.py", false, 2, PAT_NONE, 0, MOE_ALL, 0},
    {"olmoe", "olmoe/configuration_olmoe.py, modeling_olmoe.py", false, 2, PAT_NONE, 0, MOE_ALL, F_QK_NORM_FULL},
    {"olmo2", "olmo2/configuration_olmo2.py, modeling_olmo2.py", false, 2, PAT_NONE, 0, MOE_ALL, F_QK_NORM_FULL},
    {"jamba", "jamba/configuration_jamba.py, modeling_jamba.py", false, 2, PAT_JAMBA, 8, MOE_JAMBA, F_SSM_INNER_NORMS},
    {"deepseek_v4", "deepseek_v4/configuration_deepseek_v4.py, modeling_deepseek_v4.py (CSA, HCA, mHC)", false, 2,
     PAT_NONE, 0, MOE_ALL, F_ROUTER_BIAS | F_SINKS | F_OWN_LAYOUT | F_COMPRESSED},
    {"kimi_linear", "moonshotai's modeling_kimi.py (remote code), as vLLM's models/kimi_linear.py and layers/kda.py "
                    "build it", false, 2, PAT_NONE, 0, MOE_DEEPSEEK, F_ROUTER_BIAS | F_KDA},
    {"olmo3", "olmo3/configuration_olmo3.py, modeling_olmo3.py (OLMo 2's full-width q/k norms; every 4th layer full)",
     false, 2, PAT_WINDOW_PERIOD, 4, MOE_ALL, F_QK_NORM_FULL},
    {"exaone4", "exaone4/configuration_exaone4.py, modeling_exaone4.py (per-head q/k norms, post-norms)", false, 2,
     PAT_WINDOW_PERIOD, 4, MOE_ALL, F_QK_NORM_HEAD},
    {"mimo_v2_flash", "XiaomiMiMo's modeling_mimo_v2_flash.py (remote code): hybrid_layer_pattern, swa_* heads",
     false, 2, PAT_NONE, 0, MOE_DEEPSEEK, F_ROUTER_BIAS | F_SWA_GEOMETRY},
    {"gpt_bigcode", "gpt_bigcode/configuration_gpt_bigcode.py, modeling_gpt_bigcode.py", true, 2, PAT_NONE, 0,
     MOE_ALL, F_PLAIN | F_LN_BIAS | F_QKV_BIAS | F_O_BIAS | F_MLP_BIAS | F_POSITIONS | F_FF4},
    {"glm4_moe", "glm4_moe/configuration_glm4_moe.py, modeling_glm4_moe.py", false, 2, PAT_NONE, 0, MOE_DEEPSEEK,
     F_ROUTER_BIAS},
    {"glm_moe_dsa", "glm_moe_dsa/configuration_glm_moe_dsa.py, modeling_glm_moe_dsa.py (MLA with DSA's indexer)",
     false, 2, PAT_NONE, 0, MOE_DEEPSEEK, F_ROUTER_BIAS | F_SPARSE},
    {"deepseek_v32", "deepseek_v32/modeling_deepseek_v32.py; DeepSeek-V3.2-Exp's inference/model.py (Indexer)", false,
     2, PAT_NONE, 0, MOE_DEEPSEEK, F_ROUTER_BIAS | F_SPARSE},
    {"minimax_m2", "minimax_m2/modular_minimax_m2.py (full-width q/k norms, score-correction bias)", false, 2,
     PAT_NONE, 0, MOE_ALL, F_QK_NORM_FULL | F_ROUTER_BIAS},
    {"step3p7", "vLLM's models/step3p5.py (Step3p5Attention, FusedMoEBlock; Step-3.7 is served by it)", false, 2,
     PAT_NONE, 0, MOE_DEEPSEEK, F_QK_NORM_HEAD | F_ROUTER_BIAS},
    {"qwen3_5_text", "qwen3_5/configuration_qwen3_5.py, modeling_qwen3_5.py (Gated DeltaNet, gated attention)", false,
     2, PAT_LINEAR_INTERVAL, 4, MOE_QWEN, F_QK_NORM_HEAD | F_SHARED_GATE | F_OUTPUT_GATE},
    {"qwen3_5_moe_text", "qwen3_5_moe/configuration_qwen3_5_moe.py, modeling_qwen3_5_moe.py", false, 2,
     PAT_LINEAR_INTERVAL, 4, MOE_QWEN, F_QK_NORM_HEAD | F_SHARED_GATE | F_OUTPUT_GATE},
    {"chatglm", "THUDM's configuration_chatglm.py, modeling_chatglm.py (remote code)", false, 2, PAT_NONE, 0, MOE_ALL,
     0},
    {"nemotron-nas", "NVIDIA's modeling_decilm.py (remote code), as vLLM's models/nemotron_nas.py ports it: "
                     "block_configs", false, 2, PAT_NONE, 0, MOE_ALL, F_OWN_LAYOUT},
    {"lfm2", "lfm2/configuration_lfm2.py, modeling_lfm2.py (Lfm2ShortConv, Lfm2Attention, Lfm2MLP)", true, 2,
     PAT_NONE, 0, MOE_ALL, F_QK_NORM_HEAD | F_SHORT_CONV},
    {"lfm2_moe", "lfm2_moe/configuration_lfm2_moe.py, modular_lfm2_moe.py", true, 2, PAT_NONE, 0, MOE_DEEPSEEK,
     F_QK_NORM_HEAD | F_SHORT_CONV},
    {"mllama_text_model", "mllama/configuration_mllama.py, modeling_mllama.py", false, 2, PAT_NONE, 0, MOE_ALL, 0},
    {"nemotron_h", "nemotron_h/configuration_nemotron_h.py, modeling_nemotron_h.py", false, 1, PAT_HYBRID_STRING, 0,
     MOE_ALL, F_PLAIN | F_ROUTER_BIAS},
    {"minimax_m1", "MiniMax-M1's configuration_minimax_m1.py, modeling_minimax_m1.py (remote code)", false, 2,
     PAT_TYPE_LIST, 0, MOE_ALL, F_LIGHTNING},
    {"minimax", "minimax/configuration_minimax.py, modeling_minimax.py", false, 2, PAT_TYPE_LIST, 0, MOE_ALL,
     F_LIGHTNING},
};

/* Families named by another model_type. */
static const struct {
    const char *alias, *model_type;
} family_aliases[] = {
    {"gemma3", "gemma3_text"}, {"gemma4", "gemma4_text"}, {"llama4", "llama4_text"}, {"qwen2_5_vl_text", "qwen2"}, {"RefinedWeb", "falcon"},
    {"RefinedWebModel", "falcon"}, {"ministral", "mistral"}, {"qwen2_vl_text", "qwen2"},
    {"minimax_text_01", "minimax_m1"}, {"qwen2_vl", "qwen2"}, {"qwen2_5_vl", "qwen2"},
    {"qwen3_5", "qwen3_5_text"}, {"qwen3_5_moe", "qwen3_5_moe_text"}, {"qwen3_vl", "qwen3"},
    {"qwen3_vl_text", "qwen3"}, {"qwen3_vl_moe", "qwen3_moe"}, {"qwen3_vl_moe_text", "qwen3_moe"},
    {"kimi_k2", "deepseek_v3"}, {"kimi_k25", "deepseek_v3"}, {"step3p5", "step3p7"},
    {"deepseek_ref", "deepseek_v4"}, /* sgl-project's DeepSeek-V4-Flash-FP8 names it so */
    {"mimo", "qwen2"}, /* XiaomiMiMo's modeling_mimo.py: MiMoForCausalLM is Qwen2 with MTP layers */
};

/* What a configuration class fills in for a key its config.json leaves out
 * (transformers saves only the keys that differ from the class defaults, so
 * Gemma 3's text_config often lacks them). */
static const struct {
    const char *model_type, *key;
    double value;
} family_defaults[] = {
    {"gemma3_text", "vocab_size", 262208},       {"gemma3_text", "num_attention_heads", 8},
    {"gemma3_text", "num_key_value_heads", 4},   {"gemma3_text", "head_dim", 256},
    {"gemma3_text", "sliding_window", 4096},     {"gemma3_text", "hidden_size", 2304},
    {"gemma3_text", "intermediate_size", 9216},  {"gemma3_text", "num_hidden_layers", 26},
    {"gemma2", "sliding_window", 4096},          {"gemma2", "num_key_value_heads", 4},
    {"gemma2", "head_dim", 256},                 {"gemma2", "num_attention_heads", 8},
    {"gemma2", "vocab_size", 256000},            {"gemma", "head_dim", 256},
    {"gemma", "num_key_value_heads", 16},        {"gemma", "vocab_size", 256000},
    {"cohere2", "sliding_window", 4096},
    {"dbrx", "num_key_value_heads", 1},          {"jamba", "num_key_value_heads", 8},
    {"starcoder2", "num_key_value_heads", 2},    {"llama4_text", "attention_chunk_size", 8192},
    {"llama4_text", "intermediate_size_mlp", 16384},
};

/* Generic reading for an unknown model_type: the keys as a Llama-style
 * model names them, tie_word_embeddings as PretrainedConfig defaults it. */
static const struct hf_family generic_family = {
    "", "configuration_utils.py (PretrainedConfig) and the generic keys", true, 2, PAT_WINDOW_ALL, 0, MOE_ALL, 0};

/* The family of a model_type, or NULL. */
static const struct hf_family *family_find(const char *model_type)
{
    for (size_t i = 0; i < sizeof family_aliases / sizeof family_aliases[0]; i++)
        if (strcmp(model_type, family_aliases[i].alias) == 0)
            model_type = family_aliases[i].model_type;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strcmp(model_type, families[i].model_type) == 0)
            return &families[i];
    return NULL;
}

/* Where keys are looked for: the language model's config first, then the
 * nested blocks some families use, then the top level. */
struct hf_reader {
    const cJSON *scopes[4];
    const char *prefixes[4]; /* "text_config." ... for messages */
    int count;
    const char *path;
    char *err;
    size_t errsize;
    struct model_shape *m;
    const struct hf_family *family;
    bool dense_ff_absent; /* no intermediate_size: d_ff holds moe_intermediate_size, and no layer may be dense */
};

/* The first scope holding key (null values included); NULL when none. */
static const cJSON *hf_find(const struct hf_reader *r, const char *key, int *scope)
{
    for (int i = 0; i < r->count; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(r->scopes[i], key);
        if (v) {
            if (scope)
                *scope = i;
            return v;
        }
    }
    return NULL;
}

/* True when key is present and not null. */
static bool hf_has(const struct hf_reader *r, const char *key)
{
    const cJSON *v = hf_find(r, key, NULL);
    return v && !cJSON_IsNull(v);
}

/* Records an assumption with a formatted value. */
static void assume(struct model_shape *m, const char *key, const char *why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reads the first of the NULL-terminated keys present as a number in [lo,
 * hi] (whole when asked). JSON_ABSENT when none is present or all are null;
 * with required, that is an error naming the first key and its aliases. */
static enum json_found hf_number(const struct hf_reader *r, const char *const *keys, bool required, double lo,
                                 double hi, bool whole, double *out)
{
    for (const char *const *k = keys; *k; k++) {
        int scope = 0;
        const cJSON *v = hf_find(r, *k, &scope);
        if (!v || cJSON_IsNull(v))
            continue;
        return json_number(r->scopes[scope], *k, r->path, r->prefixes[scope], true, lo, hi, whole, out, r->err,
                           r->errsize);
    }
    for (size_t i = 0; i < sizeof family_defaults / sizeof family_defaults[0]; i++) {
        if (strcmp(family_defaults[i].model_type, r->family->model_type) != 0)
            continue;
        for (const char *const *k = keys; *k; k++) {
            if (strcmp(family_defaults[i].key, *k) == 0) {
                *out = family_defaults[i].value;
                assume(r->m, *k, "absent: the configuration class's default", "%.0f", *out);
                return JSON_FOUND;
            }
        }
    }
    if (required) {
        for (const char *const *k = keys; *k; k++) {
            const cJSON *v = hf_find(r, *k, NULL);
            if (v && cJSON_IsNull(v)) {
                snprintf(r->err, r->errsize, "%s: '%s' is null (or NaN); rooftop needs a number there", r->path, *k);
                return JSON_BAD;
            }
        }
        int n = snprintf(r->err, r->errsize, "%s: missing key '%s'", r->path, keys[0]);
        for (const char *const *k = keys + 1; *k && n > 0 && (size_t)n < r->errsize; k++)
            n += snprintf(r->err + n, r->errsize - (size_t)n, "%s%s", k == keys + 1 ? " (or " : ", ", *k);
        if (keys[1] && n > 0 && (size_t)n < r->errsize)
            snprintf(r->err + n, r->errsize - (size_t)n, ")");
        return JSON_BAD;
    }
    return JSON_ABSENT;
}

/* A whole number under one of keys into *out (left alone when absent). */
static int hf_whole(const struct hf_reader *r, const char *const *keys, bool required, double lo, int64_t *out)
{
    double v;
    enum json_found f = hf_number(r, keys, required, lo, BIG, true, &v);
    if (f == JSON_BAD)
        return -1;
    if (f == JSON_FOUND)
        *out = (int64_t)v;
    return 0;
}

#define KEYS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A boolean key; JSON_ABSENT leaves *out alone. */
static enum json_found hf_bool(const struct hf_reader *r, const char *key, bool *out)
{
    int scope = 0;
    const cJSON *v = hf_find(r, key, &scope);
    if (!v || cJSON_IsNull(v))
        return JSON_ABSENT;
    return json_bool(r->scopes[scope], key, r->path, true, out, r->err, r->errsize);
}

static void assume(struct model_shape *m, const char *key, const char *why, const char *fmt, ...)
{
    char value[RT_ASSUMPTION_VALUE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    model_assume(m, key, value, why);
}

/* The number of layers, 1 to RT_MAX_LAYERS. */
static int hf_layers(struct hf_reader *r, int64_t *out)
{
    double v;
    if (hf_number(r, KEYS("num_hidden_layers", "n_layer", "n_layers", "num_layers"), true, 1, RT_MAX_LAYERS, true,
                  &v) != JSON_FOUND)
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* Reads hidden size, layers, heads, vocabulary and the MLP width. */
static int read_dimensions(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    const struct hf_family *f = r->family;
    if (hf_whole(r, KEYS("hidden_size", "n_embd", "d_model", "n_embed"), true, 1, &m->d_model) ||
        hf_layers(r, &m->layers) ||
        hf_whole(r, KEYS("num_attention_heads", "n_head", "n_heads", "num_heads"), true, 1, &m->heads) ||
        hf_whole(r, KEYS("vocab_size", "padded_vocab_size", "n_vocab"), true, 1, &m->vocab))
        return -1;
    if (m->layers > RT_MAX_LAYERS) {
        snprintf(r->err, r->errsize, "%s: num_hidden_layers (%lld) is more than the %d layers rooftop models", r->path,
                 (long long)m->layers, RT_MAX_LAYERS);
        return -1;
    }
    m->d_ff = 0;
    if (hf_whole(r, KEYS("intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size", "d_ff"), false, 1, &m->d_ff))
        return -1;
    if (f->flags & F_SHORT_CONV) { /* Lfm2Config: block_ff_dim wins; Lfm2MLP then takes 2/3 of it */
        if (hf_whole(r, KEYS("block_ff_dim"), false, 1, &m->d_ff))
            return -1;
        bool adjust = true;
        double mult = 0.0;
        int64_t multiple = 256;
        enum json_found mf;
        if (hf_bool(r, "block_auto_adjust_ff_dim", &adjust) == JSON_BAD ||
            (mf = hf_number(r, KEYS("block_ffn_dim_multiplier"), false, 1e-3, 1e3, false, &mult)) == JSON_BAD ||
            hf_whole(r, KEYS("block_multiple_of"), false, 1, &multiple))
            return -1;
        if (adjust && m->d_ff > 0 && strcmp(f->model_type, "lfm2") == 0) {
            m->d_ff = 2 * m->d_ff / 3;
            if (mf == JSON_FOUND) {
                m->d_ff = (int64_t)(mult * (double)m->d_ff);
                m->d_ff = multiple * ((m->d_ff + multiple - 1) / multiple);
            }
        }
    }
    if (m->d_ff == 0 && hf_has(r, "expansion_ratio")) { /* MPT: transformers' MptMLP is 4 x hidden_size */
        double ratio;
        if (hf_number(r, KEYS("expansion_ratio"), true, 1e-3, 1e3, false, &ratio) == JSON_BAD)
            return -1;
        if (ratio != 4.0)
            assume(m, "expansion_ratio", "ignored: transformers builds MPT's MLP at 4 x hidden_size", "%g", ratio);
    }
    if (m->d_ff == 0 && (f->flags & F_FF4)) {
        m->d_ff = 4 * m->d_model;
        assume(m, "intermediate_size", "absent or null: this family's MLP is 4 x hidden_size", "%lld",
               (long long)m->d_ff);
    }
    if (m->d_ff > 0 && (f->flags & F_HALF_FF)) {
        if (m->d_ff % 2 != 0) {
            snprintf(r->err, r->errsize, "%s: intermediate_size (%lld) must be even: this family's MLP matrices are "
                                         "half of it",
                     r->path, (long long)m->d_ff);
            return -1;
        }
        m->d_ff /= 2;
        assume(m, "intermediate_size", "halved: this family counts both gated halves (each MLP matrix is half of it)",
               "%lld", (long long)m->d_ff);
    }
    if (m->d_ff == 0 && hf_has(r, "moe_intermediate_size") &&
        hf_whole(r, KEYS("moe_intermediate_size"), true, 1, &m->d_ff) == 0) {
        /* An all-MoE config (Qwen3.5-MoE) has no dense width; build_schedule refuses a dense layer. */
        r->dense_ff_absent = true;
        return 0;
    }
    if (m->d_ff == 0 && (f->flags & F_OWN_LAYOUT))
        return 0; /* each block gives its own width (build_nas_schedule) */
    if (m->d_ff == 0) {
        snprintf(r->err, r->errsize, "%s: missing key 'intermediate_size' (or n_inner, ffn_dim, ffn_hidden_size)%s",
                 r->path, hf_find(r, "intermediate_size", NULL) ? ": it is null" : "");
        return -1;
    }
    return 0;
}

/* Key/value heads: num_key_value_heads and its aliases, Falcon's
 * multi_query and new_decoder_architecture; absent means MHA. */
static int read_kv_heads(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    int64_t kv = 0;
    const char *type = r->family->model_type;
    bool mpt = strcmp(type, "mpt") == 0;
    if (!mpt && hf_whole(r, KEYS("num_key_value_heads", "num_kv_heads", "n_head_kv", "kv_n_heads", "num_attention_groups"), false,
                              0, &kv))
        return -1;
    if (mpt && hf_has(r, "kv_n_heads"))
        assume(m, "kv_n_heads", "ignored: transformers builds MPT with one KV head per query head", "%lld",
               (long long)m->heads);
    bool mq = false, new_arch = false;
    if (hf_bool(r, "multi_query", &mq) == JSON_BAD || hf_bool(r, "new_decoder_architecture", &new_arch) == JSON_BAD)
        return -1;
    bool falcon = strcmp(type, "falcon") == 0;
    bool kv_named = hf_has(r, "n_head_kv") || hf_has(r, "num_kv_heads") || hf_has(r, "num_key_value_heads");
    if (falcon && !new_arch && kv_named) {
        new_arch = true; /* a RefinedWeb config: convert_custom_code_checkpoint.py sets the new architecture */
        assume(m, "new_decoder_architecture", "absent, with a KV head count: a RefinedWeb (Falcon-40B/180B) "
                                              "config, which transformers converts to the new architecture", "true");
    }
    if (falcon && !new_arch) {
        if (!hf_has(r, "multi_query")) {
            mq = true; /* FalconConfig defaults multi_query to true */
            assume(m, "multi_query", "absent: FalconConfig defaults it to true", "true");
        }
        kv = mq ? 1 : m->heads;
    } else if (kv == 0 && mq) {
        kv = 1;
    }
    bool mqa_groups = false; /* ChatGLM: multi_query_attention with multi_query_group_num groups */
    if (kv == 0 && hf_bool(r, "multi_query_attention", &mqa_groups) == JSON_BAD)
        return -1;
    if (kv == 0 && mqa_groups && hf_whole(r, KEYS("multi_query_group_num"), true, 1, &kv))
        return -1;
    if (kv == 0 && !mpt) {
        double def;
        enum json_found df = hf_number(r, KEYS("num_key_value_heads"), false, 1, BIG, true, &def);
        if (df == JSON_BAD)
            return -1;
        if (df == JSON_FOUND)
            kv = (int64_t)def;
    }
    if (kv == 0 && !hf_has(r, "num_key_value_heads")) {
        kv = m->heads;
        if (!falcon && !mpt)
            assume(m, "num_key_value_heads",
                   hf_find(r, "num_key_value_heads", NULL)
                       ? "null (NaN in the file reads as null): one KV head per query head (MHA), as the config "
                         "classes read None"
                       : "absent: one KV head per query head (MHA)",
                   "%lld", (long long)kv);
    }
    m->kv_heads = kv;
    if (m->kv_heads == 0 || m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
        snprintf(r->err, r->errsize, "%s: 'num_key_value_heads' (%lld) must divide num_attention_heads (%lld)", r->path,
                 (long long)m->kv_heads, (long long)m->heads);
        return -1;
    }
    /* head_dim given explicitly wins over hidden_size / heads. */
    m->d_head = 0;
    if (hf_whole(r, KEYS("head_dim", "kv_channels"), false, 1, &m->d_head))
        return -1;
    if (m->d_head == 0) {
        if (m->d_model % m->heads != 0) {
            snprintf(r->err, r->errsize,
                     "%s: hidden_size (%lld) is not a multiple of num_attention_heads (%lld); give head_dim", r->path,
                     (long long)m->d_model, (long long)m->heads);
            return -1;
        }
        m->d_head = m->d_model / m->heads;
    }
    return 0;
}

/* Ties, biases, norms and the MLP's form, from the family and its keys. */
static int read_details(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    const struct hf_family *f = r->family;
    bool tied = f->tie;
    enum json_found tf = hf_bool(r, "tie_word_embeddings", &tied);
    if (tf == JSON_BAD)
        return -1;
    if ((f->flags & F_SHORT_CONV) && hf_has(r, "tie_embedding") && (tf = hf_bool(r, "tie_embedding", &tied)) == JSON_BAD)
        return -1; /* Lfm2Config: tie_embedding wins */
    if (tf == JSON_ABSENT)
        assume(m, "tie_word_embeddings", f->model_type[0] ? "absent: the family's config class default"
                                                          : "absent: PretrainedConfig's default (unknown model_type)",
               "%s", tied ? "true" : "false");
    m->tied_embeddings = tied;
    m->gated_mlp = !(f->flags & F_PLAIN);
    if (!f->model_type[0])
        assume(m, "mlp", "unknown model_type: a gated (SwiGLU) MLP as Llama builds it", "gated");
    m->norm_bias = (f->flags & F_LN_BIAS) != 0;
    m->norms_per_layer = f->norms;
    m->qkv_bias = (f->flags & F_QKV_BIAS) != 0;
    m->o_bias = (f->flags & F_O_BIAS) != 0;
    m->mlp_bias = (f->flags & F_MLP_BIAS) != 0;
    m->router_bias = (f->flags & F_ROUTER_BIAS) != 0;
    m->attention_sinks = (f->flags & F_SINKS) != 0;
    m->attn_output_gate = (f->flags & F_OUTPUT_GATE) != 0;
    m->embedding_norm = (f->flags & F_EMBED_NORM) != 0;
    m->lm_head_bias = (f->flags & F_LM_HEAD_BIAS) != 0;
    /* Bias switches some configs carry. */
    bool b;
    enum json_found bf = hf_bool(r, "attention_bias", &b);
    if (bf == JSON_BAD)
        return -1;
    /* Every family that reads the key biases Q, K, V and O alike; Qwen2's
     * modeling code fixes its biases (Q, K, V yes, O no) and never reads it
     * (MiMo's config carries it). */
    bool fixed_bias = strcmp(f->model_type, "qwen2") == 0 || strcmp(f->model_type, "qwen2_moe") == 0;
    if (bf == JSON_FOUND && !fixed_bias)
        m->qkv_bias = m->o_bias = b;
    if ((bf = hf_bool(r, "use_moe_router_bias", &b)) == JSON_BAD || /* Step-3.5/3.7 */
        (bf == JSON_ABSENT && (bf = hf_bool(r, "use_routing_bias", &b)) == JSON_BAD) || /* MiniMax-M2 */
        (bf == JSON_ABSENT && (bf = hf_bool(r, "use_expert_bias", &b)) == JSON_BAD))    /* LFM2-MoE */
        return -1;
    if (bf == JSON_FOUND)
        m->router_bias = b;
    if ((bf = hf_bool(r, "mlp_bias", &b)) == JSON_BAD)
        return -1;
    if (bf == JSON_FOUND)
        m->mlp_bias = b;
    if ((bf = hf_bool(r, "bias", &b)) == JSON_BAD) /* Falcon */
        return -1;
    if (bf == JSON_FOUND)
        m->qkv_bias = m->o_bias = m->mlp_bias = b;
    if ((bf = hf_bool(r, "use_bias", &b)) == JSON_BAD) /* Starcoder2 (its LayerNorms keep their bias) */
        return -1;
    if (bf == JSON_FOUND && strcmp(f->model_type, "nemotron_h") != 0)
        m->qkv_bias = m->o_bias = m->mlp_bias = b;
    if ((bf = hf_bool(r, "add_qkv_bias", &b)) == JSON_BAD) /* ChatGLM */
        return -1;
    if (bf == JSON_FOUND)
        m->qkv_bias = b;
    if ((bf = hf_bool(r, "add_bias_linear", &b)) == JSON_BAD)
        return -1;
    if (bf == JSON_FOUND)
        m->o_bias = m->mlp_bias = b;
    if ((bf = hf_bool(r, "enable_bias", &b)) == JSON_BAD) /* OPT */
        return -1;
    if (bf == JSON_FOUND)
        m->qkv_bias = m->o_bias = m->mlp_bias = b;
    if ((bf = hf_bool(r, "no_bias", &b)) == JSON_BAD) /* MPT */
        return -1;
    if (bf == JSON_FOUND)
        m->qkv_bias = m->o_bias = m->mlp_bias = m->norm_bias = !b;
    if (strcmp(f->model_type, "qwen") == 0) { /* QWen's c_attn always has a bias; no_bias is for the rest */
        m->qkv_bias = true;
        m->norm_bias = false;
    }
    if (strcmp(f->model_type, "falcon") == 0) {
        bool new_arch = false, parallel = true;
        if (hf_bool(r, "new_decoder_architecture", &new_arch) == JSON_BAD || hf_bool(r, "parallel_attn", &parallel) == JSON_BAD)
            return -1;
        /* A RefinedWeb config (see read_kv_heads). */
        new_arch = new_arch || hf_has(r, "n_head_kv") || hf_has(r, "num_kv_heads") || hf_has(r, "num_key_value_heads");
        m->norms_per_layer = new_arch || !parallel ? 2 : 1;
        if (new_arch && hf_whole(r, KEYS("num_ln_in_parallel_attn"), false, 1, &m->norms_per_layer))
            return -1;
    }
    if (strcmp(f->model_type, "opt") == 0 && hf_has(r, "word_embed_proj_dim")) {
        int64_t proj = 0;
        if (hf_whole(r, KEYS("word_embed_proj_dim"), true, 1, &proj))
            return -1;
        if (proj != m->d_model)
            assume(m, "word_embed_proj_dim", "differs from hidden_size: the narrower embedding and its projections "
                                             "(OPT-350m) are counted at full width, a few percent high",
                   "%lld", (long long)proj);
    }
    if ((bf = hf_bool(r, "use_head_wise_attn_gate", &m->attn_head_gate)) == JSON_BAD) /* Step-3.5/3.7's g_proj */
        return -1;
    bool qk_norm = (f->flags & (F_QK_NORM_HEAD | F_QK_NORM_FULL)) != 0 && !(f->flags & F_QK_NORM_OPTIONAL);
    if ((bf = hf_bool(r, "use_qk_norm", &qk_norm)) == JSON_BAD)
        return -1;
    if (qk_norm && strcmp(f->model_type, "llama4_text") != 0) /* Llama 4's L2 norm has no weights */
        m->qk_norm_width = (f->flags & F_QK_NORM_FULL) ? (m->heads + m->kv_heads) * m->d_head : 2 * m->d_head;
    if (f->flags & F_POSITIONS) {
        if (hf_whole(r, KEYS("n_positions", "max_position_embeddings"), true, 1, &m->position_rows))
            return -1;
        if (strcmp(f->model_type, "opt") == 0)
            m->position_rows += 2; /* OPTLearnedPositionalEmbedding keeps an offset of 2 rows */
    }
    return 0;
}

/* Mixture of experts: counts, widths, shared experts. */
static int read_experts(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    const struct hf_family *f = r->family;
    m->experts = 0;
    if (hf_whole(r, KEYS("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"), false, 0,
                 &m->experts))
        return -1;
    bool gemma_moe = false;
    if ((f->flags & F_GLOBAL_GEOMETRY) && hf_bool(r, "enable_moe_block", &gemma_moe) == JSON_BAD)
        return -1;
    if (gemma_moe && m->experts < 2) {
        snprintf(r->err, r->errsize, "%s: 'enable_moe_block' is true but 'num_experts' is %lld: an MoE block needs 2 "
                                     "or more", r->path, (long long)m->experts);
        return -1;
    }
    if (m->experts <= 1) {
        m->experts = m->experts_per_token = 1;
        return 0;
    }
    m->experts_per_token = 0;
    if (hf_whole(r, KEYS("num_experts_per_tok", "moe_top_k", "num_experts_per_token", "experts_per_token",
                         "top_k_experts"), true, 1, &m->experts_per_token))
        return -1;
    if (m->experts_per_token > m->experts) {
        snprintf(r->err, r->errsize, "%s: 'num_experts_per_tok' (%lld) exceeds the %lld experts", r->path,
                 (long long)m->experts_per_token, (long long)m->experts);
        return -1;
    }
    if (hf_whole(r, KEYS("moe_intermediate_size"), false, 1, &m->moe_d_ff) ||
        hf_whole(r, KEYS("moe_latent_size"), false, 1, &m->moe_latent) ||
        hf_whole(r, KEYS("n_shared_experts", "num_shared_experts"), false, 0, &m->shared_experts))
        return -1;
    if (f->flags & F_SHARED_GATE) {
        int64_t width = 0;
        if (hf_whole(r, KEYS("shared_expert_intermediate_size"), false, 0, &width))
            return -1;
        if (width > 0) {
            m->shared_experts = 1;
            m->shared_d_ff = width;
            m->shared_expert_gate = true;
        }
    }
    if (m->shared_experts > 0 &&
        hf_whole(r, KEYS("moe_shared_expert_intermediate_size", "shared_intermediate_size", "share_expert_dim"), false,
                 0, &m->shared_d_ff))
        return -1;
    if (f->flags & F_GLOBAL_GEOMETRY) {
        /* Gemma 4: enable_moe_block puts the experts beside the dense MLP, which is then the always-on
         * "shared expert"; its router adds a scale of hidden_size (counted with the norms) and a scale
         * per expert (the router bias), and the block three norms. */
        bool moe_block = false;
        if (hf_bool(r, "enable_moe_block", &moe_block) == JSON_BAD)
            return -1;
        if (!moe_block) {
            m->experts = m->experts_per_token = 1;
            return 0;
        }
        m->shared_experts = 1;
        m->shared_d_ff = m->d_ff;
        m->router_bias = true;
        m->norms_per_layer = 8;
    }
    if (f->flags & F_LLAMA4_SHARED) {
        m->shared_experts = 1; /* Llama4TextMoe: one shared expert beside the routed ones */
        m->shared_d_ff = m->d_ff;
    }
    return 0;
}

/* Multi-head latent attention (DeepSeek-V2, sec. 2.1). */
static int read_latent(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    if (hf_whole(r, KEYS("kv_lora_rank"), false, 0, &m->kv_lora_rank))
        return -1;
    if (m->kv_lora_rank == 0) { /* values narrower than keys without a latent (MiMo-V2-Flash: 192 and 128) */
        if (hf_whole(r, KEYS("v_head_dim"), false, 1, &m->v_head_dim))
            return -1;
        if (m->v_head_dim == m->d_head)
            m->v_head_dim = 0;
        return 0;
    }
    if (hf_whole(r, KEYS("qk_rope_head_dim"), true, 1, &m->qk_rope_head_dim) ||
        hf_whole(r, KEYS("q_lora_rank"), false, 0, &m->q_lora_rank) ||
        hf_whole(r, KEYS("qk_nope_head_dim"), true, 1, &m->qk_nope_head_dim) ||
        hf_whole(r, KEYS("v_head_dim"), true, 1, &m->v_head_dim))
        return -1;
    m->d_head = m->qk_nope_head_dim + m->qk_rope_head_dim;
    return 0;
}

/* DeepSeek Sparse Attention's indexer: index_n_heads, index_head_dim and
 * index_topk (DeepSeek-V3.2-Exp's config.json and inference/model.py). The
 * top-k goes to *topk (0 when the model has no indexer). */
static int read_indexer(struct hf_reader *r, int64_t *topk)
{
    struct model_shape *m = r->m;
    *topk = 0;
    bool keyed = hf_has(r, "index_topk");
    if (!keyed)
        return 0;
    if (!(r->family->flags & F_SPARSE)) {
        assume(m, "index_topk", r->family->model_type[0]
                                    ? "ignored: this family builds no sparse-attention indexer"
                                    : "unknown model_type: read as DeepSeek Sparse Attention, as DeepSeek-V3.2 "
                                      "builds it",
               "present");
        if (r->family->model_type[0])
            return 0;
    }
    if (hf_whole(r, KEYS("index_topk"), true, 1, topk) || hf_whole(r, KEYS("index_n_heads"), true, 1, &m->index_heads) ||
        hf_whole(r, KEYS("index_head_dim"), true, 1, &m->index_head_dim))
        return -1;
    return 0;
}

/* A sparse-attention family's config without index_topk (or with it null):
 * the 2048 DeepSeek-V3.2 and GLM-5 publish and their config classes
 * default to, said; the indexer's own keys stay required. */
static int read_indexer_defaulted(struct hf_reader *r, int64_t *topk)
{
    if (!(r->family->flags & F_SPARSE) || hf_has(r, "index_topk"))
        return read_indexer(r, topk);
    *topk = 2048;
    assume(r->m, "index_topk", hf_find(r, "index_topk", NULL) ? "null (or NaN): the 2048 DeepSeek-V3.2 and GLM-5 use"
                                                              : "absent: the 2048 DeepSeek-V3.2 and GLM-5 use",
           "2048");
    if (hf_whole(r, KEYS("index_n_heads"), true, 1, &r->m->index_heads) ||
        hf_whole(r, KEYS("index_head_dim"), true, 1, &r->m->index_head_dim))
        return -1;
    return 0;
}

/* Reads a whole period key (>= 1) with a default and says when it was assumed. */
static int period_key(struct hf_reader *r, const char *key, int64_t fallback, const char *why, int64_t *out)
{
    *out = fallback;
    if (!hf_has(r, key)) {
        assume(r->m, key, why, "%lld", (long long)fallback);
        return 0;
    }
    /* An offset may be 0; a period, a width or a count may not. */
    double lo = strstr(key, "offset") ? 0 : 1;
    return hf_whole(r, (const char *const[]){key, NULL}, true, lo, out);
}

/* The recurrent state's bytes an element from a dtype key (float32 4,
 * bfloat16 or float16 2); *bytes left alone when the key is absent, and an
 * unknown dtype is said (the state then sits at the KV precision). */
static int ssm_dtype_bytes(struct hf_reader *r, const char *key, int64_t *bytes)
{
    char dtype[16] = "";
    int scope = 0;
    if (hf_find(r, key, &scope) &&
        json_string(r->scopes[scope], key, r->path, false, dtype, sizeof dtype, r->err, r->errsize) == JSON_BAD)
        return -1;
    if (strcmp(dtype, "float32") == 0)
        *bytes = 4;
    else if (strcmp(dtype, "bfloat16") == 0 || strcmp(dtype, "float16") == 0)
        *bytes = 2;
    else if (dtype[0])
        assume(r->m, key, "not float32, bfloat16 or float16: the state is sized at the KV precision (at least bf16)",
               "%s", dtype);
    return 0;
}

/* Linear attention and Mamba dimensions, when the family has them. */
static int read_state_mixers(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    if (hf_has(r, "linear_num_value_heads")) {
        if (hf_whole(r, KEYS("linear_num_key_heads"), true, 1, &m->lin_key_heads) ||
            hf_whole(r, KEYS("linear_num_value_heads"), true, 1, &m->lin_value_heads) ||
            hf_whole(r, KEYS("linear_key_head_dim"), true, 1, &m->lin_key_head_dim) ||
            hf_whole(r, KEYS("linear_value_head_dim"), true, 1, &m->lin_value_head_dim))
            return -1;
        m->lin_conv_kernel = 4;
        if (hf_whole(r, KEYS("linear_conv_kernel_dim"), false, 1, &m->lin_conv_kernel))
            return -1;
        /* Qwen3.5 keeps the delta rule's state in float32 (mamba_ssm_dtype, read by vLLM's
         * mamba_utils as the recurrent state's dtype) */
        if (ssm_dtype_bytes(r, "mamba_ssm_dtype", &m->ssm_state_bytes))
            return -1;
    }
    if (r->family->flags & F_COMPRESSED) { /* DeepSeek-V4: q LoRA, grouped output, hyper-connections, indexer */
        int64_t head_dim = 0;
        if (hf_whole(r, KEYS("head_dim"), true, 1, &head_dim) || /* never hidden / heads: the KV tensor's width */
            hf_whole(r, KEYS("q_lora_rank"), true, 1, &m->q_lora_rank) ||
            hf_whole(r, KEYS("o_groups"), true, 1, &m->o_groups) ||
            hf_whole(r, KEYS("o_lora_rank"), true, 1, &m->o_lora_rank) ||
            hf_whole(r, KEYS("hc_mult"), true, 1, &m->hc_mult) ||
            hf_whole(r, KEYS("index_n_heads"), true, 1, &m->index_heads) ||
            hf_whole(r, KEYS("index_head_dim"), true, 1, &m->index_head_dim))
            return -1;
        if ((m->heads * m->d_head) % m->o_groups != 0) {
            snprintf(r->err, r->errsize, "%s: 'o_groups' (%lld) must divide the heads' width (%lld)", r->path,
                     (long long)m->o_groups, (long long)(m->heads * m->d_head));
            return -1;
        }
        m->kv_single = true;
        assume(m, "kv cache", "one 512-wide key-value tensor a cached row, at the KV precision; the engines store "
                              "584 B (fp8 with a bf16 rope part and scales)", "kv_single");
    }
    if (r->family->flags & F_KDA) { /* linear_attn_config {num_heads, head_dim, short_conv_kernel_size} */
        const cJSON *lin = hf_find(r, "linear_attn_config", NULL);
        double heads, dim, kernel = 4;
        const char *where = "linear_attn_config.";
        if (!cJSON_IsObject(lin)) {
            snprintf(r->err, r->errsize, "%s: 'linear_attn_config' must be an object with num_heads, head_dim and the "
                                         "kda_layers", r->path);
            return -1;
        }
        if (json_number(lin, "num_heads", r->path, where, true, 1, (double)RT_MAX_WIDTH, true, &heads, r->err,
                        r->errsize) != JSON_FOUND ||
            json_number(lin, "head_dim", r->path, where, true, 1, (double)RT_MAX_WIDTH, true, &dim, r->err,
                        r->errsize) != JSON_FOUND ||
            json_number(lin, "short_conv_kernel_size", r->path, where, false, 1, 64, true, &kernel, r->err,
                        r->errsize) == JSON_BAD)
            return -1;
        m->lin_key_heads = m->lin_value_heads = (int64_t)heads;
        m->lin_key_head_dim = m->lin_value_head_dim = (int64_t)dim;
        m->lin_conv_kernel = (int64_t)kernel;
        m->lin_kda = true;
        m->ssm_state_bytes = 4; /* vLLM's kda_state_dtype: the recurrent state in float32 */
        assume(m, "kda state", "float32, as vLLM keeps Kimi Delta Attention's recurrent state", "4 bytes");
    }
    if (r->family->flags & F_SHORT_CONV) { /* Lfm2Config's defaults: a kernel of 3, no bias */
        m->conv_kernel = 3;
        if (hf_whole(r, KEYS("conv_L_cache"), false, 1, &m->conv_kernel) ||
            hf_bool(r, "conv_bias", &m->conv_bias) == JSON_BAD)
            return -1;
    }
    if (r->family->flags & F_LIGHTNING) { /* lightning attention runs over the attention heads */
        m->lin_key_heads = m->lin_value_heads = m->heads;
        m->lin_key_head_dim = m->lin_value_head_dim = m->d_head;
        m->lin_conv_kernel = 0;
        m->lin_lightning = true;
    }
    if (r->family->pattern == PAT_HYBRID_STRING) { /* Mamba-2 blocks */
        int64_t heads = 0, head_dim = 0, groups = 1, d_state = 128, d_conv = 4;
        if (hf_whole(r, KEYS("mamba_num_heads"), true, 1, &heads) ||
            hf_whole(r, KEYS("mamba_head_dim"), true, 1, &head_dim) ||
            hf_whole(r, KEYS("n_groups"), false, 1, &groups) ||
            hf_whole(r, KEYS("ssm_state_size"), false, 1, &d_state) ||
            hf_whole(r, KEYS("conv_kernel"), false, 1, &d_conv))
            return -1;
        m->ssm_heads = heads;
        m->ssm_d_inner = heads * head_dim;
        m->ssm_groups = groups;
        m->ssm_d_state = d_state;
        m->ssm_d_conv = d_conv;
        m->ssm_conv_bias = true;
        if (hf_bool(r, "use_conv_bias", &m->ssm_conv_bias) == JSON_BAD ||
            hf_bool(r, "mamba_proj_bias", &m->ssm_proj_bias) == JSON_BAD)
            return -1;
        if (ssm_dtype_bytes(r, "mamba_ssm_cache_dtype", &m->ssm_state_bytes))
            return -1;
    }
    if (r->family->pattern == PAT_JAMBA) {
        int64_t expand = 2, d_state = 16, d_conv = 4, dt_rank = 0;
        if (period_key(r, "mamba_expand", 2, "absent: JambaConfig's default", &expand) ||
            period_key(r, "mamba_d_state", 16, "absent: JambaConfig's default", &d_state) ||
            period_key(r, "mamba_d_conv", 4, "absent: JambaConfig's default", &d_conv))
            return -1;
        const cJSON *rank = hf_find(r, "mamba_dt_rank", NULL);
        if (rank && cJSON_IsString(rank) && strcmp(rank->valuestring, "auto") == 0)
            dt_rank = (m->d_model + 15) / 16; /* JambaConfig: ceil(hidden_size / 16) */
        else if (hf_whole(r, KEYS("mamba_dt_rank"), false, 1, &dt_rank))
            return -1;
        if (dt_rank == 0)
            dt_rank = (m->d_model + 15) / 16;
        m->ssm_d_inner = expand * m->d_model;
        m->ssm_d_state = d_state;
        m->ssm_d_conv = d_conv;
        m->ssm_dt_rank = dt_rank;
        m->ssm_conv_bias = true;
        m->ssm_proj_bias = false;
        m->ssm_inner_norms = (r->family->flags & F_SSM_INNER_NORMS) != 0;
        if (hf_bool(r, "mamba_conv_bias", &m->ssm_conv_bias) == JSON_BAD ||
            hf_bool(r, "mamba_proj_bias", &m->ssm_proj_bias) == JSON_BAD)
            return -1;
    }
    return 0;
}

/* The window in tokens from sliding_window (0 when absent or null). */
static int window_tokens(struct hf_reader *r, int64_t *window)
{
    *window = 0;
    return hf_whole(r, KEYS("sliding_window"), false, 0, window);
}

/* An explicit layer_types list: one entry per layer. */
static int read_layer_types(struct hf_reader *r, const cJSON *types, enum rt_mixer *mixers)
{
    struct model_shape *m = r->m;
    int n = cJSON_GetArraySize(types);
    if (n != m->layers) {
        snprintf(r->err, r->errsize, "%s: 'layer_types' lists %d layers but num_hidden_layers is %lld", r->path, n,
                 (long long)m->layers);
        return -1;
    }
    static const struct {
        const char *name;
        enum rt_mixer mixer;
    } names[] = {{"full_attention", RT_MIXER_FULL},       {"sliding_attention", RT_MIXER_SLIDING},
                 {"chunked_attention", RT_MIXER_CHUNKED}, {"linear_attention", RT_MIXER_LINEAR},
                 {"mamba", RT_MIXER_MAMBA},               {"mamba2", RT_MIXER_MAMBA2},
                 {"conv", RT_MIXER_CONV}};
    int i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, types)
    {
        size_t j = 0;
        while (j < sizeof names / sizeof names[0] && !(cJSON_IsString(t) && strcmp(t->valuestring, names[j].name) == 0))
            j++;
        if (j < sizeof names / sizeof names[0] && names[j].mixer == RT_MIXER_CONV && !(r->family->flags & F_SHORT_CONV))
            j = sizeof names / sizeof names[0]; /* a convolution only as LFM2 builds it */
        if (j == sizeof names / sizeof names[0]) {
            char met[40];
            if (cJSON_IsString(t))
                snprintf(met, sizeof met, "'%.30s'%s", t->valuestring, strlen(t->valuestring) > 30 ? "..." : "");
            else
                snprintf(met, sizeof met, "not a string");
            snprintf(r->err, r->errsize, "%s: 'layer_types[%d]' is %s, a layer rooftop does not model%s; it reads "
                                         "full_attention, sliding_attention, chunked_attention, linear_attention, "
                                         "mamba, mamba2 (and conv in LFM2)",
                     r->path, i, met,
                     cJSON_IsString(t) && strcmp(t->valuestring, "conv") == 0
                         ? " in this family (a short convolution is read as LFM2 builds it: model_type lfm2)" : "");
            return -1;
        }
        mixers[i++] = names[j].mixer;
    }
    return 0;
}

static int layer_index_list(struct hf_reader *r, const char *key, bool *flags, bool *present);

/* A list of 0 or 1 for each of the model's layers under key (attn_type_list,
 * hybrid_layer_pattern, moe_layer_freq as a list) into ones[] (true for 1);
 * -1 with the error naming the key, what 0 and 1 mean, and the entry. */
static int binary_layer_list(struct hf_reader *r, const char *key, const char *zero, const char *one, bool *ones)
{
    int64_t L = r->m->layers;
    const cJSON *list = hf_find(r, key, NULL);
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != L) {
        snprintf(r->err, r->errsize, "%s: '%s' must list 0 (%s) or 1 (%s) for each of the %lld layers", r->path, key,
                 zero, one, (long long)L);
        return -1;
    }
    int64_t i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, list)
    {
        if (!cJSON_IsNumber(t) || (t->valuedouble != 0 && t->valuedouble != 1)) {
            snprintf(r->err, r->errsize, "%s: '%s[%lld]' must be 0 (%s) or 1 (%s)", r->path, key, (long long)i, zero,
                     one);
            return -1;
        }
        ones[i++] = t->valuedouble == 1;
    }
    return 0;
}

/* The top-level object (the last scope). */
static const cJSON *root_of(const struct hf_reader *r)
{
    return r->scopes[r->count - 1];
}

/* Llama 3.2 Vision (mllama): the layers cross_attention_layers lists attend
 * to the image encoder's tokens, (image_size / patch_size)^2 + 1 a tile
 * times max_num_tiles (vision_config; 1601 x 4 = 6404), counted as one
 * image a request at its most tiles; num_hidden_layers counts them, and
 * embed_tokens holds 8 rows past vocab_size (modeling_mllama.py). */
static int read_cross_layers(struct hf_reader *r, const cJSON *root, enum rt_mixer *mixers)
{
    struct model_shape *m = r->m;
    bool listed[RT_MAX_LAYERS] = {false}, present = false;
    if (layer_index_list(r, "cross_attention_layers", listed, &present))
        return -1;
    int64_t n = 0;
    for (int64_t i = 0; i < m->layers; i++)
        if (listed[i]) {
            mixers[i] = RT_MIXER_CROSS;
            n++;
        }
    if (n == 0)
        return 0;
    const cJSON *vision = cJSON_GetObjectItemCaseSensitive(root, "vision_config");
    double image = 560, patch = 14, tiles = 4;
    char where[] = "vision_config.";
    if (cJSON_IsObject(vision) &&
        (json_number(vision, "image_size", r->path, where, false, 1, 1e6, true, &image, r->err, r->errsize) ==
             JSON_BAD ||
         json_number(vision, "patch_size", r->path, where, false, 1, 1e6, true, &patch, r->err, r->errsize) ==
             JSON_BAD ||
         json_number(vision, "max_num_tiles", r->path, where, false, 1, 64, true, &tiles, r->err, r->errsize) ==
             JSON_BAD))
        return -1;
    int64_t side = (int64_t)image / (int64_t)patch;
    m->cross_tokens = (side * side + 1) * (int64_t)tiles;
    assume(m, "cross_attention_layers", "attend to one image's encoder tokens, (image/patch)^2 + 1 a tile at "
                                        "max_num_tiles: a fixed KV per request",
           "%lld layers, %lld tokens", (long long)n, (long long)m->cross_tokens);
    if (strcmp(r->family->model_type, "mllama_text_model") == 0) {
        m->position_rows = 8; /* MllamaTextModel's embed_tokens: vocab_size + 8 rows */
        assume(m, "embed_tokens", "vocab_size + 8 rows, as MllamaTextModel builds it (its image tokens)", "+8 rows");
    }
    return 0;
}

/* Each layer's mixer, from layer_types or the family's pattern. */
static int read_mixers(struct hf_reader *r, enum rt_mixer *mixers, int64_t *window)
{
    struct model_shape *m = r->m;
    const struct hf_family *f = r->family;
    int64_t L = m->layers, period = 0;
    if (window_tokens(r, window))
        return -1;
    for (int64_t i = 0; i < L; i++)
        mixers[i] = RT_MIXER_FULL;
    const cJSON *types = hf_find(r, "layer_types", NULL);
    if (types && !cJSON_IsNull(types)) {
        if (!cJSON_IsArray(types)) {
            snprintf(r->err, r->errsize, "%s: 'layer_types' must be a list of strings", r->path);
            return -1;
        }
        return read_layer_types(r, types, mixers);
    }
    if (f->flags & F_KDA) { /* Kimi-Linear: 1-based kda_layers (configuration_kimi.py: layer_types[layer - 1]) */
        const cJSON *lin = hf_find(r, "linear_attn_config", NULL);
        const cJSON *kda = cJSON_GetObjectItemCaseSensitive(lin, "kda_layers"), *t;
        if (!cJSON_IsArray(kda)) {
            snprintf(r->err, r->errsize, "%s: 'linear_attn_config.kda_layers' must list the KDA layers (from 1)",
                     r->path);
            return -1;
        }
        cJSON_ArrayForEach(t, kda)
        {
            if (!cJSON_IsNumber(t) || t->valuedouble != floor(t->valuedouble) || t->valuedouble < 1 ||
                t->valuedouble > (double)L || mixers[(int64_t)t->valuedouble - 1] == RT_MIXER_LINEAR) {
                snprintf(r->err, r->errsize, "%s: 'linear_attn_config.kda_layers' must list layers from 1 to %lld, "
                                             "each once", r->path, (long long)L);
                return -1;
            }
            mixers[(int64_t)t->valuedouble - 1] = RT_MIXER_LINEAR;
        }
        const cJSON *full = cJSON_GetObjectItemCaseSensitive(lin, "full_attn_layers");
        if (full && !cJSON_IsNull(full)) { /* where given, the other layers exactly, counted from 1 */
            int64_t n = 0;
            bool ok = cJSON_IsArray(full);
            cJSON_ArrayForEach(t, full)
            {
                ok = ok && cJSON_IsNumber(t) && t->valuedouble == floor(t->valuedouble) && t->valuedouble >= 1 &&
                     t->valuedouble <= (double)L && mixers[(int64_t)t->valuedouble - 1] == RT_MIXER_FULL;
                n++;
            }
            if (!ok || n + cJSON_GetArraySize(kda) != L) {
                snprintf(r->err, r->errsize, "%s: 'linear_attn_config.full_attn_layers' must list, from 1, the %lld "
                                             "layers kda_layers leaves out",
                         r->path, (long long)(L - cJSON_GetArraySize(kda)));
                return -1;
            }
        }
        return 0;
    }
    if (f->flags & F_SWA_GEOMETRY) { /* MiMo-V2-Flash: hybrid_layer_pattern, 1 sliding, 0 full */
        bool sliding[RT_MAX_LAYERS] = {false};
        if (binary_layer_list(r, "hybrid_layer_pattern", "full", "sliding", sliding))
            return -1;
        for (int64_t i = 0; i < L; i++)
            mixers[i] = sliding[i] ? RT_MIXER_SLIDING : RT_MIXER_FULL;
        return 0;
    }
    if (f->flags & F_SHORT_CONV) { /* Lfm2Config: attention at full_attn_idxs, convolutions elsewhere */
        bool listed[RT_MAX_LAYERS] = {false}, present = false;
        if (layer_index_list(r, "full_attn_idxs", listed, &present))
            return -1;
        for (int64_t i = 0; i < L && present; i++)
            mixers[i] = listed[i] ? RT_MIXER_FULL : RT_MIXER_CONV;
        return 0;
    }
    switch (f->pattern) {
    case PAT_NONE:
        break;
    case PAT_WINDOW_ALL:
        if (*window > 0) {
            bool use = true;
            if (hf_bool(r, "use_sliding_window", &use) == JSON_BAD)
                return -1;
            for (int64_t i = 0; i < L && use; i++)
                mixers[i] = RT_MIXER_SLIDING;
            if (use && !f->model_type[0])
                assume(m, "sliding_window", "unknown model_type: the window applies to every layer, as Mistral "
                       "builds it", "%lld", (long long)*window);
        }
        break;
    case PAT_QWEN: {
        bool use = false;
        enum json_found uf = hf_bool(r, "use_sliding_window", &use);
        if (uf == JSON_BAD)
            return -1;
        if (uf == JSON_ABSENT && *window > 0)
            assume(m, "use_sliding_window", "absent: the Qwen config classes default it to false", "false");
        if (!use || *window == 0)
            break;
        int64_t below = 28;
        if (period_key(r, "max_window_layers", 28, "absent: the Qwen config classes default it to 28", &below))
            return -1;
        for (int64_t i = below; i < L; i++)
            mixers[i] = RT_MIXER_SLIDING;
        break;
    }
    case PAT_ALTERNATE:
        if (*window == 0)
            break;
        assume(m, "layer_types", "absent: this family alternates sliding (even) and full (odd) layers",
               "alternating");
        for (int64_t i = 0; i < L; i += 2)
            mixers[i] = RT_MIXER_SLIDING;
        break;
    case PAT_WINDOW_PERIOD: {
        if (*window == 0)
            break;
        const cJSON *letters = hf_find(r, "sliding_window_pattern", NULL);
        if (cJSON_IsString(letters) && letters->valuestring[0]) {
            /* EXAONE 4's "LLLG": local where the letter at i mod its length is L, and the last layer global
             * (TensorRT-LLM's exaone4 reading; transformers' own needs layer_types spelled out) */
            const char *pat = letters->valuestring;
            int64_t n = (int64_t)strlen(pat);
            for (int64_t i = 0; i < n; i++)
                if (pat[i] != 'L' && pat[i] != 'G') {
                    snprintf(r->err, r->errsize, "%s: 'sliding_window_pattern' is '%.20s': give L (local) or G "
                                                 "(global) for each layer of the period, or a number",
                             r->path, pat);
                    return -1;
                }
            for (int64_t i = 0; i < L; i++)
                mixers[i] = pat[i % n] == 'L' && i != L - 1 ? RT_MIXER_SLIDING : RT_MIXER_FULL;
            break;
        }
        if (period_key(r, "sliding_window_pattern", f->period,
                       "absent: the config class default; every Nth layer is full, the rest sliding", &period))
            return -1;
        for (int64_t i = 0; i < L; i++)
            mixers[i] = (i + 1) % period != 0 ? RT_MIXER_SLIDING : RT_MIXER_FULL;
        break;
    }
    case PAT_CHUNKED: {
        if (hf_whole(r, KEYS("attention_chunk_size"), false, 0, window))
            return -1;
        if (*window == 0)
            break;
        const cJSON *nope = hf_find(r, "no_rope_layers", NULL);
        if (nope && cJSON_IsArray(nope) && cJSON_GetArraySize(nope) > 0) {
            if (cJSON_GetArraySize(nope) != L) {
                snprintf(r->err, r->errsize, "%s: 'no_rope_layers' lists %d layers but num_hidden_layers is %lld",
                         r->path, cJSON_GetArraySize(nope), (long long)L);
                return -1;
            }
            int64_t i = 0;
            const cJSON *t;
            cJSON_ArrayForEach(t, nope) mixers[i++] = cJSON_IsNumber(t) && t->valueint ? RT_MIXER_CHUNKED
                                                                                         : RT_MIXER_FULL;
        } else {
            if (period_key(r, "no_rope_layer_interval", f->period,
                           "absent: Llama 4 chunks every layer but each 4th (which is full, without RoPE)", &period))
                return -1;
            for (int64_t i = 0; i < L; i++)
                mixers[i] = (i + 1) % period != 0 ? RT_MIXER_CHUNKED : RT_MIXER_FULL;
        }
        break;
    }
    case PAT_LINEAR_INTERVAL:
        if (period_key(r, "full_attention_interval", f->period,
                       "absent: the config class default; every Nth layer is full attention, the rest linear",
                       &period))
            return -1;
        for (int64_t i = 0; i < L; i++)
            mixers[i] = (i + 1) % period != 0 ? RT_MIXER_LINEAR : RT_MIXER_FULL;
        break;
    case PAT_TYPE_LIST: {
        bool full[RT_MAX_LAYERS] = {false};
        if (binary_layer_list(r, "attn_type_list", "linear", "full", full))
            return -1;
        for (int64_t i = 0; i < L; i++)
            mixers[i] = full[i] ? RT_MIXER_FULL : RT_MIXER_LINEAR;
        break;
    }
    case PAT_HYBRID_STRING:
        break; /* read with the MLPs: build_schedule */
    case PAT_JAMBA: {
        int64_t offset = 4;
        if (period_key(r, "attn_layer_period", 8, "absent: JambaConfig's default", &period) ||
            period_key(r, "attn_layer_offset", 4, "absent: JambaConfig's default", &offset))
            return -1;
        for (int64_t i = 0; i < L; i++)
            mixers[i] = i % period == offset ? RT_MIXER_FULL : RT_MIXER_MAMBA;
        break;
    }
    }
    return 0;
}

/* Reads a list of layer indices (mlp_only_layers, moe_layers) into flags. */
static int layer_index_list(struct hf_reader *r, const char *key, bool *flags, bool *present)
{
    *present = false;
    const cJSON *list = hf_find(r, key, NULL);
    if (!list || cJSON_IsNull(list))
        return 0;
    if (!cJSON_IsArray(list)) {
        snprintf(r->err, r->errsize, "%s: '%s' must be a list of layer indices", r->path, key);
        return -1;
    }
    *present = true;
    const cJSON *t;
    cJSON_ArrayForEach(t, list)
    {
        if (!cJSON_IsNumber(t) || t->valuedouble != floor(t->valuedouble) || t->valuedouble < 0 ||
            t->valuedouble >= (double)r->m->layers) {
            snprintf(r->err, r->errsize, "%s: '%s' must list layer indices from 0 to %lld", r->path, key,
                     (long long)r->m->layers - 1);
            return -1;
        }
        flags[(int64_t)t->valuedouble] = true;
    }
    return 0;
}

/* Which layers route to experts. */
static int read_moe_layers(struct hf_reader *r, bool *moe)
{
    struct model_shape *m = r->m;
    int64_t L = m->layers;
    for (int64_t i = 0; i < L; i++)
        moe[i] = m->experts > 1;
    if (m->experts <= 1)
        return 0;
    int64_t first = 0, freq = 1, step = 1, period = 2, offset = 1;
    bool listed[RT_MAX_LAYERS] = {false}, present = false;
    switch (r->family->moe) {
    case MOE_ALL:
        break;
    case MOE_DEEPSEEK:
        if (strcmp(r->family->model_type, "lfm2_moe") == 0) /* Lfm2MoeConfig's default */
            first = 2;
        const cJSON *listed_moe = hf_find(r, "moe_layers_enum", NULL);
        if (cJSON_IsArray(listed_moe)) { /* the same list written as numbers */
            for (int64_t i = 0; i < L; i++)
                moe[i] = false;
            if (layer_index_list(r, "moe_layers_enum", moe, &present))
                return -1;
            break;
        }
        if (listed_moe && !cJSON_IsNull(listed_moe) && !cJSON_IsString(listed_moe)) {
            snprintf(r->err, r->errsize, "%s: 'moe_layers_enum' must list the MoE layers (\"3,4,5\" or [3, 4, 5])",
                     r->path);
            return -1;
        }
        if (cJSON_IsString(listed_moe)) { /* Step-3.5/3.7: "3,4,...,44", the MoE layers */
            for (int64_t i = 0; i < L; i++)
                moe[i] = false;
            const char *c = listed_moe->valuestring;
            while (*c) {
                char *end;
                long v = strtol(c, &end, 10);
                if (end == c || v < 0 || v >= L || (*end && *end != ',')) {
                    snprintf(r->err, r->errsize, "%s: 'moe_layers_enum' must list layer indices from 0 to %lld, "
                                                 "separated by commas",
                             r->path, (long long)L - 1);
                    return -1;
                }
                moe[v] = true;
                c = *end ? end + 1 : end;
            }
            break;
        }
        const cJSON *freq_list = hf_find(r, "moe_layer_freq", NULL);
        if (cJSON_IsArray(freq_list)) { /* MiMo-V2-Flash: one entry a layer, 1 MoE, 0 dense */
            if (binary_layer_list(r, "moe_layer_freq", "dense", "MoE", moe))
                return -1;
            break;
        }
        if (hf_whole(r, KEYS("first_k_dense_replace", "num_dense_layers"), false, 0, &first) ||
            hf_whole(r, KEYS("moe_layer_freq"), false, 1, &freq))
            return -1;
        if (first > L) {
            snprintf(r->err, r->errsize, "%s: 'first_k_dense_replace' (%lld) exceeds num_hidden_layers (%lld)",
                     r->path, (long long)first, (long long)L);
            return -1;
        }
        for (int64_t i = 0; i < L; i++)
            moe[i] = i >= first && i % freq == 0;
        break;
    case MOE_QWEN:
        if (hf_whole(r, KEYS("decoder_sparse_step"), false, 1, &step) ||
            layer_index_list(r, "mlp_only_layers", listed, &present))
            return -1;
        for (int64_t i = 0; i < L; i++)
            moe[i] = !listed[i] && (i + 1) % step == 0;
        break;
    case MOE_LLAMA4:
        if (layer_index_list(r, "moe_layers", listed, &present))
            return -1;
        if (!present && hf_whole(r, KEYS("interleave_moe_layer_step"), false, 1, &step))
            return -1;
        for (int64_t i = 0; i < L; i++)
            moe[i] = present ? listed[i] : (i + 1) % step == 0;
        break;
    case MOE_JAMBA:
        if (period_key(r, "expert_layer_period", 2, "absent: JambaConfig's default", &period) ||
            period_key(r, "expert_layer_offset", 1, "absent: JambaConfig's default", &offset))
            return -1;
        for (int64_t i = 0; i < L; i++)
            moe[i] = i % period == offset;
        break;
    }
    return 0;
}

static int hybrid_blocks_from(struct hf_reader *r, const char *pattern, enum rt_mixer *mixers, bool *moe,
                              bool *no_mlp);

/* Nemotron-H: one block per character of hybrid_override_pattern, M a
 * Mamba-2 mixer, * attention, - a dense MLP, E an MoE. */
static int read_hybrid_blocks(struct hf_reader *r, enum rt_mixer *mixers, bool *moe, bool *no_mlp)
{
    struct model_shape *m = r->m;
    int scope = 0;
    const cJSON *p = hf_find(r, "hybrid_override_pattern", &scope);
    const cJSON *blocks = hf_find(r, "layers_block_type", NULL);
    if (!p && cJSON_IsArray(blocks)) { /* configs saved by newer transformers: a list of block names */
        if (cJSON_GetArraySize(blocks) != m->layers) {
            snprintf(r->err, r->errsize, "%s: 'layers_block_type' lists %d blocks but num_hidden_layers is %lld",
                     r->path, cJSON_GetArraySize(blocks), (long long)m->layers);
            return -1;
        }
        static const char *const names[] = {"mamba", "attention", "mlp", "moe"};
        static const char codes[] = "M*-E";
        char pattern[RT_MAX_LAYERS + 1];
        int i = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, blocks)
        {
            int j = 0;
            while (j < 4 && !(cJSON_IsString(t) && strcmp(t->valuestring, names[j]) == 0))
                j++;
            if (j == 4) {
                snprintf(r->err, r->errsize, "%s: 'layers_block_type[%d]' must be mamba, attention, mlp or moe",
                         r->path, i);
                return -1;
            }
            pattern[i++] = codes[j];
        }
        pattern[i] = '\0';
        return hybrid_blocks_from(r, pattern, mixers, moe, no_mlp);
    }
    if (!cJSON_IsString(p) || (int64_t)strlen(p->valuestring) != m->layers) {
        snprintf(r->err, r->errsize, "%s: 'hybrid_override_pattern' must be a string of %lld blocks (M, *, -, E)",
                 r->path, (long long)m->layers);
        return -1;
    }
    return hybrid_blocks_from(r, p->valuestring, mixers, moe, no_mlp);
}

/* The blocks of a pattern string of m->layers characters M, *, -, E. */
static int hybrid_blocks_from(struct hf_reader *r, const char *pattern, enum rt_mixer *mixers, bool *moe, bool *no_mlp)
{
    struct model_shape *m = r->m;
    for (int64_t i = 0; i < m->layers; i++) {
        char c = pattern[i];
        if (c != 'M' && c != '*' && c != '-' && c != 'E') {
            snprintf(r->err, r->errsize, "%s: 'hybrid_override_pattern' block %lld is '%c': give M, *, - or E",
                     r->path, (long long)i, c);
            return -1;
        }
        if (c == 'E' && m->experts < 2) {
            snprintf(r->err, r->errsize, "%s: 'hybrid_override_pattern' has MoE blocks but no 'n_routed_experts'",
                     r->path);
            return -1;
        }
        mixers[i] = c == 'M' ? RT_MIXER_MAMBA2 : c == '*' ? RT_MIXER_FULL : RT_MIXER_NONE;
        no_mlp[i] = c == 'M' || c == '*';
        moe[i] = c == 'E';
    }
    return 0;
}

/* A NAS block's MLP width from its ffn_mult: int(2 x ffn_mult x hidden / 3)
 * rounded up to a multiple of 256 (_ffn_mult_to_intermediate_size in
 * modeling_decilm.py, as vLLM's nemotron_nas.py and NeMo's decilm port it). */
static int64_t nas_ffn_width(double mult, int64_t hidden)
{
    int64_t i = (int64_t)(2.0 * mult * (double)hidden / 3.0);
    return i % 256 == 0 ? i : i + 256 - i % 256;
}

/* One sub-block's switches: no_op and replace_with_linear (absent: false). */
static int nas_switches(struct hf_reader *r, const cJSON *part, const char *what, int i, bool *no_op)
{
    *no_op = false;
    bool linear = false;
    char where[48];
    snprintf(where, sizeof where, "block_configs[%d].%s.", i, what);
    if (json_bool(part, "no_op", r->path, false, no_op, r->err, r->errsize) == JSON_BAD ||
        json_bool(part, "replace_with_linear", r->path, false, &linear, r->err, r->errsize) == JSON_BAD)
        return -1;
    if (linear && !*no_op) {
        snprintf(r->err, r->errsize, "%s: '%sreplace_with_linear' is true: a block whose %s is one hidden x hidden "
                                     "matrix, which rooftop does not model yet; refusing rather than guessing",
                 r->path, where, what);
        return -1;
    }
    return 0;
}

/* Nemotron-NAS (DeciLM): one block_configs entry per layer, each with its
 * own attention (n_heads_in_group: heads / KV head; no_op: none, nor its
 * input norm) and MLP (ffn_mult or intermediate_size; no_op: none, nor its
 * post-attention norm). The model's kv_heads and d_ff become those of its
 * most common blocks; the others keep their own. */
static int build_nas_schedule(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    const cJSON *blocks = hf_find(r, "block_configs", NULL);
    if (!cJSON_IsArray(blocks) || cJSON_GetArraySize(blocks) != m->layers) {
        snprintf(r->err, r->errsize, "%s: 'block_configs' must list one block for each of the %lld layers", r->path,
                 (long long)m->layers);
        return -1;
    }
    struct layer_kind k[RT_MAX_LAYERS];
    int i = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, blocks)
    {
        const cJSON *attn = cJSON_GetObjectItemCaseSensitive(b, "attention");
        const cJSON *ffn = cJSON_GetObjectItemCaseSensitive(b, "ffn");
        if (!cJSON_IsObject(b) || !cJSON_IsObject(attn) || !cJSON_IsObject(ffn)) {
            snprintf(r->err, r->errsize, "%s: 'block_configs[%d]' must be an object with 'attention' and 'ffn' objects",
                     r->path, i);
            return -1;
        }
        bool attn_off, ffn_off;
        if (nas_switches(r, attn, "attention", i, &attn_off) || nas_switches(r, ffn, "ffn", i, &ffn_off))
            return -1;
        k[i] = (struct layer_kind){.mixer = attn_off ? RT_MIXER_NONE : RT_MIXER_FULL, .no_mlp = ffn_off,
                                   .own_norms = true, .norms = (attn_off ? 0 : 1) + (ffn_off ? 0 : 1)};
        char where[48];
        snprintf(where, sizeof where, "block_configs[%d].attention.", i);
        double window = 0;
        enum json_found wf = attn_off ? JSON_ABSENT
                                      : json_number(attn, "window_length", r->path, where, false, 1, BIG, true,
                                                    &window, r->err, r->errsize);
        if (wf == JSON_BAD)
            return -1;
        if (wf == JSON_FOUND) { /* a windowed block (DeciLM's window_length) */
            k[i].mixer = RT_MIXER_SLIDING;
            k[i].window = (int64_t)window;
        }
        static const char *const unread_opts[] = {"sparsify", "num_sink_tokens"};
        for (size_t o = 0; o < 2 && !attn_off; o++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(attn, unread_opts[o]);
            if (v && !cJSON_IsNull(v)) {
                snprintf(r->err, r->errsize, "%s: '%s%s' is set: an attention variant rooftop does not model yet; "
                                             "refusing rather than guessing",
                         r->path, where, unread_opts[o]);
                return -1;
            }
        }
        const cJSON *sparsify = cJSON_GetObjectItemCaseSensitive(ffn, "sparsify");
        if (!ffn_off && sparsify && !cJSON_IsNull(sparsify)) {
            snprintf(r->err, r->errsize, "%s: 'block_configs[%d].ffn.sparsify' is set: a sparse MLP rooftop does not "
                                         "model yet; refusing rather than guessing",
                     r->path, i);
            return -1;
        }
        if (!attn_off) {
            double group;
            snprintf(where, sizeof where, "block_configs[%d].attention.", i);
            if (json_number(attn, "n_heads_in_group", r->path, where, true, 1, (double)m->heads, true, &group, r->err,
                            r->errsize) != JSON_FOUND)
                return -1;
            if (m->heads % (int64_t)group != 0) {
                snprintf(r->err, r->errsize, "%s: '%sn_heads_in_group' (%.0f) must divide num_attention_heads (%lld)",
                         r->path, where, group, (long long)m->heads);
                return -1;
            }
            k[i].kv_heads = m->heads / (int64_t)group;
        }
        if (!ffn_off) {
            double mult = 0, width = 0;
            snprintf(where, sizeof where, "block_configs[%d].ffn.", i);
            const cJSON *given = cJSON_GetObjectItemCaseSensitive(ffn, "ffn_mult");
            if (given && cJSON_IsNull(given) && !cJSON_GetObjectItemCaseSensitive(ffn, "intermediate_size")) {
                snprintf(r->err, r->errsize, "%s: '%sffn_mult' is null (or NaN) and the block gives no "
                                             "intermediate_size: its MLP has no width",
                         r->path, where);
                return -1;
            }
            enum json_found mf = json_number(ffn, "ffn_mult", r->path, where, false, 1e-3, 1e3, false, &mult, r->err,
                                             r->errsize);
            if (mf == JSON_BAD || (mf == JSON_ABSENT && json_number(ffn, "intermediate_size", r->path, where, true, 1,
                                                                    (double)RT_MAX_FF, true, &width, r->err,
                                                                    r->errsize) != JSON_FOUND))
                return -1;
            k[i].d_ff = mf == JSON_FOUND ? nas_ffn_width(mult, m->d_model) : (int64_t)width;
        }
        i++;
    }
    /* The model's kv heads and width: its most common blocks'. */
    int64_t best_kv = 0, best_ff = 0, n_kv = 0, n_ff = 0;
    for (int a = 0; a < i; a++) {
        int64_t c_kv = 0, c_ff = 0;
        for (int c = 0; c < i; c++) {
            c_kv += k[a].kv_heads > 0 && k[c].kv_heads == k[a].kv_heads;
            c_ff += k[a].d_ff > 0 && k[c].d_ff == k[a].d_ff;
        }
        if (c_kv > n_kv)
            n_kv = c_kv, best_kv = k[a].kv_heads;
        if (c_ff > n_ff)
            n_ff = c_ff, best_ff = k[a].d_ff;
    }
    model_unassume(m, "num_key_value_heads");
    m->kv_heads = best_kv > 0 ? best_kv : m->heads;
    m->d_ff = best_ff > 0 ? best_ff : m->d_model;
    m->kind_count = 0;
    for (int a = 0; a < i; a++) {
        int index = model_kind_index(m, &k[a]);
        if (index < 0) {
            snprintf(r->err, r->errsize, "%s: its blocks have more than %d distinct shapes", r->path,
                     RT_MAX_LAYER_KINDS);
            return -1;
        }
        m->layer_kind[a] = (uint8_t)index;
    }
    model_schedule_fix(m);
    return 0;
}

/* Builds the schedule from each layer's mixer and MLP. */
/* DeepSeek-V4: compress_ratios gives each layer's attention (its first
 * num_hidden_layers entries; the next is the MTP layer's): 0 a sliding
 * window only, 4 CSA (an entry per 4 tokens, the indexer's top index_topk
 * of them, and the window), 128 HCA (every entry per 128 tokens, and the
 * window; modeling_deepseek_v4.py's _COMPRESS_RATIO_TO_LAYER_TYPE). Every
 * layer is MoE; the first num_hash_layers route by a token table. */
static int build_compressed_schedule(struct hf_reader *r)
{
    struct model_shape *m = r->m;
    const cJSON *ratios = hf_find(r, "compress_ratios", NULL);
    int64_t window = 0, topk = 0, hashed = 0;
    if (!cJSON_IsArray(ratios) || cJSON_GetArraySize(ratios) < m->layers) {
        snprintf(r->err, r->errsize, "%s: 'compress_ratios' must list 0, 4 or 128 for each of the %lld layers",
                 r->path, (long long)m->layers);
        return -1;
    }
    int64_t mtp = 0;
    if (hf_whole(r, KEYS("sliding_window"), true, 1, &window) || hf_whole(r, KEYS("index_topk"), true, 1, &topk) ||
        hf_whole(r, KEYS("num_hash_layers"), false, 0, &hashed) ||
        hf_whole(r, KEYS("num_nextn_predict_layers"), false, 0, &mtp))
        return -1;
    if (cJSON_GetArraySize(ratios) > m->layers + mtp) { /* the layers', then the MTP layers' */
        snprintf(r->err, r->errsize, "%s: 'compress_ratios' lists %d layers but the model has %lld and %lld MTP",
                 r->path, cJSON_GetArraySize(ratios), (long long)m->layers, (long long)mtp);
        return -1;
    }
    if (hashed > m->layers) {
        snprintf(r->err, r->errsize, "%s: 'num_hash_layers' (%lld) exceeds num_hidden_layers (%lld)", r->path,
                 (long long)hashed, (long long)m->layers);
        return -1;
    }
    m->kind_count = 0;
    int64_t i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, ratios)
    {
        if (i >= m->layers)
            break;
        if (!cJSON_IsNumber(t) || (t->valuedouble != 0 && t->valuedouble != 4 && t->valuedouble != 128)) {
            snprintf(r->err, r->errsize, "%s: 'compress_ratios[%lld]' must be 0 (sliding), 4 (CSA) or 128 (HCA)",
                     r->path, (long long)i);
            return -1;
        }
        int64_t ratio = (int64_t)t->valuedouble;
        struct layer_kind k = {.mixer = ratio == 0 ? RT_MIXER_SLIDING : RT_MIXER_COMPRESSED, .window = window,
                               .ratio = ratio, .topk = ratio == 4 ? topk : 0, .moe = m->experts > 1,
                               .hash_router = i < hashed};
        int index = model_kind_index(m, &k);
        if (index < 0) {
            snprintf(r->err, r->errsize, "%s: more than %d distinct kinds of layer", r->path, RT_MAX_LAYER_KINDS);
            return -1;
        }
        m->layer_kind[i++] = (uint8_t)index;
    }
    model_schedule_fix(m);
    return 0;
}

static int build_schedule(struct hf_reader *r)
{
    if (strcmp(r->family->model_type, "nemotron-nas") == 0)
        return build_nas_schedule(r);
    if (r->family->flags & F_COMPRESSED)
        return build_compressed_schedule(r);
    struct model_shape *m = r->m;
    enum rt_mixer mixers[RT_MAX_LAYERS];
    bool moe[RT_MAX_LAYERS];
    int64_t window = 0;
    if (read_mixers(r, mixers, &window) || read_moe_layers(r, moe))
        return -1;
    if (read_cross_layers(r, root_of(r), mixers))
        return -1;
    int64_t dense_ff = 0; /* Llama 4's dense layers use intermediate_size_mlp */
    if (r->family->moe == MOE_LLAMA4 && hf_whole(r, KEYS("intermediate_size_mlp"), false, 1, &dense_ff))
        return -1;
    int64_t chunk = 0, topk = 0;
    if (hf_whole(r, KEYS("attention_chunk_size"), false, 0, &chunk) || read_indexer_defaulted(r, &topk))
        return -1;
    for (int64_t i = 0; i < m->layers && topk > 0; i++) /* DSA: every attention layer picks its top-k */
        if (mixers[i] == RT_MIXER_FULL)
            mixers[i] = RT_MIXER_SPARSE;
    /* GLM-5's indexer_types: "shared" layers reuse the top-k of the layer before (IndexCache) */
    bool index_shared[RT_MAX_LAYERS] = {false};
    const cJSON *itypes = topk > 0 ? hf_find(r, "indexer_types", NULL) : NULL;
    if (itypes && !cJSON_IsNull(itypes)) {
        if (!cJSON_IsArray(itypes) || cJSON_GetArraySize(itypes) != m->layers) {
            snprintf(r->err, r->errsize, "%s: 'indexer_types' must list full or shared for each of the %lld layers",
                     r->path, (long long)m->layers);
            return -1;
        }
        int64_t i = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, itypes)
        {
            bool full = cJSON_IsString(t) && strcmp(t->valuestring, "full") == 0;
            bool shared = cJSON_IsString(t) && strcmp(t->valuestring, "shared") == 0;
            if ((!full && !shared) || (shared && i == 0)) {
                snprintf(r->err, r->errsize, "%s: 'indexer_types[%lld]' must be full or shared (the first layer full)",
                         r->path, (long long)i);
                return -1;
            }
            index_shared[i++] = shared;
        }
    }
    bool no_mlp[RT_MAX_LAYERS] = {false};
    if (r->family->pattern == PAT_HYBRID_STRING && read_hybrid_blocks(r, mixers, moe, no_mlp) != 0)
        return -1;
    /* Step-3.5/3.7's attention_other_setting: the layers of its attention_type have their own heads (vLLM's
     * step3p5.py: num_attention_heads, num_attention_groups, head_dim) */
    int other_mixer = -1;
    int64_t other_heads = m->heads, other_kv = m->kv_heads, other_dim = m->d_head;
    const cJSON *other = hf_find(r, "attention_other_setting", NULL);
    if (other && !cJSON_IsNull(other) && !cJSON_IsObject(other)) {
        snprintf(r->err, r->errsize, "%s: 'attention_other_setting' must be an object {attention_type, "
                                     "num_attention_heads, num_attention_groups, head_dim}",
                 r->path);
        return -1;
    }
    if (cJSON_IsObject(other)) {
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(other, "attention_type");
        static const char *const needed[] = {"num_attention_heads", "num_attention_groups", "head_dim"};
        bool any = false;
        for (size_t k = 0; k < 3; k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(other, needed[k]);
            if (v && cJSON_IsNull(v)) {
                snprintf(r->err, r->errsize, "%s: 'attention_other_setting.%s' is null (or NaN); rooftop needs a "
                                             "number there", r->path, needed[k]);
                return -1;
            }
            any = any || v;
        }
        if ((at && !cJSON_IsString(at)) || !any) {
            snprintf(r->err, r->errsize, "%s: 'attention_other_setting' must name its attention_type (a string) and "
                                         "its num_attention_heads, num_attention_groups or head_dim", r->path);
            return -1;
        }
        static const struct {
            const char *name;
            enum rt_mixer mixer;
        } types[] = {{"sliding_attention", RT_MIXER_SLIDING}, {"full_attention", RT_MIXER_FULL},
                     {"chunked_attention", RT_MIXER_CHUNKED}};
        const char *type = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(other, "attention_type"))
                               ? cJSON_GetObjectItemCaseSensitive(other, "attention_type")->valuestring
                               : "sliding_attention";
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
            if (strcmp(type, types[t].name) == 0)
                other_mixer = (int)types[t].mixer;
        double v;
        const char *where = "attention_other_setting.";
        if (other_mixer < 0) {
            snprintf(r->err, r->errsize, "%s: 'attention_other_setting.attention_type' is '%.30s': give "
                                         "sliding_attention, full_attention or chunked_attention",
                     r->path, type);
            return -1;
        }
        enum json_found f1 = json_number(other, "num_attention_heads", r->path, where, false, 1, (double)RT_MAX_WIDTH,
                                         true, &v, r->err, r->errsize);
        if (f1 == JSON_BAD)
            return -1;
        if (f1 == JSON_FOUND)
            other_heads = (int64_t)v;
        enum json_found f2 = json_number(other, "num_attention_groups", r->path, where, false, 1,
                                         (double)RT_MAX_WIDTH, true, &v, r->err, r->errsize);
        if (f2 == JSON_BAD)
            return -1;
        if (f2 == JSON_FOUND)
            other_kv = (int64_t)v;
        enum json_found f3 = json_number(other, "head_dim", r->path, where, false, 1, (double)RT_MAX_WIDTH, true, &v,
                                         r->err, r->errsize);
        if (f3 == JSON_BAD)
            return -1;
        if (f3 == JSON_FOUND)
            other_dim = (int64_t)v;
        if (other_dim != m->d_head && m->v_head_dim > 0) {
            snprintf(r->err, r->errsize, "%s: 'attention_other_setting.head_dim' differs from head_dim and the values "
                                         "from the keys: rooftop gives a layer of its own heads one width for both",
                     r->path);
            return -1;
        }
    }
    int64_t swa_heads = m->heads, swa_kv = m->kv_heads, swa_head_dim = m->d_head, swa_v = model_v_head_dim(m);
    bool swa_sinks = false, full_sinks = false;
    if ((r->family->flags & F_SWA_GEOMETRY) &&
        (hf_whole(r, KEYS("swa_num_attention_heads"), false, 1, &swa_heads) ||
         hf_whole(r, KEYS("swa_num_key_value_heads"), false, 1, &swa_kv) ||
         hf_whole(r, KEYS("swa_head_dim"), false, 1, &swa_head_dim) ||
         hf_whole(r, KEYS("swa_v_head_dim"), false, 1, &swa_v) ||
         hf_bool(r, "add_swa_attention_sink_bias", &swa_sinks) == JSON_BAD ||
         hf_bool(r, "add_full_attention_sink_bias", &full_sinks) == JSON_BAD))
        return -1;
    if ((r->family->flags & F_SWA_GEOMETRY) && swa_head_dim != m->d_head && swa_v != swa_head_dim) {
        snprintf(r->err, r->errsize, "%s: 'swa_head_dim' (%lld) differs from head_dim and 'swa_v_head_dim' (%lld) from "
                                     "it: rooftop gives a layer of its own heads one width for keys and values",
                 r->path, (long long)swa_head_dim, (long long)swa_v);
        return -1;
    }
    m->attention_sinks = m->attention_sinks || swa_sinks || full_sinks;
    int64_t global_head_dim = 0, global_kv = 0, shared_kv = 0, per_layer_input = 0;
    bool k_eq_v = false;
    if ((r->family->flags & F_GLOBAL_GEOMETRY) &&
        (hf_whole(r, KEYS("global_head_dim"), false, 1, &global_head_dim) ||
         hf_whole(r, KEYS("num_global_key_value_heads"), false, 1, &global_kv) ||
         hf_bool(r, "attention_k_eq_v", &k_eq_v) == JSON_BAD ||
         hf_whole(r, KEYS("num_kv_shared_layers"), false, 0, &shared_kv) ||
         hf_whole(r, KEYS("hidden_size_per_layer_input"), false, 0, &per_layer_input)))
        return -1;
    bool double_wide = false;
    if ((r->family->flags & F_GLOBAL_GEOMETRY) && hf_bool(r, "use_double_wide_mlp", &double_wide) == JSON_BAD)
        return -1;
    if (k_eq_v && global_kv > 0 && (global_kv > m->heads || m->heads % global_kv != 0)) {
        snprintf(r->err, r->errsize, "%s: 'num_global_key_value_heads' (%lld) must divide num_attention_heads (%lld)",
                 r->path, (long long)global_kv, (long long)m->heads);
        return -1;
    }
    if (shared_kv >= m->layers) {
        snprintf(r->err, r->errsize, "%s: 'num_kv_shared_layers' (%lld) must leave a layer of its own keys and "
                                     "values (num_hidden_layers is %lld)",
                 r->path, (long long)shared_kv, (long long)m->layers);
        return -1;
    }
    if (per_layer_input > 0) { /* Gemma 4's per-layer inputs: vocab_size_per_layer_input rows (default vocab) */
        m->per_layer_input = per_layer_input;
        m->per_layer_vocab = m->vocab;
        if (hf_whole(r, KEYS("vocab_size_per_layer_input"), false, 1, &m->per_layer_vocab))
            return -1;
    }
    m->kind_count = 0;
    for (int64_t i = 0; i < m->layers; i++) {
        struct layer_kind k = {.mixer = mixers[i], .moe = moe[i], .d_ff = moe[i] ? 0 : dense_ff, .no_mlp = no_mlp[i]};
        if (k.mixer == RT_MIXER_SLIDING)
            k.window = window;
        else if (k.mixer == RT_MIXER_CHUNKED) /* its chunk, never the sliding window (Llama 4 defaults it) */
            k.window = chunk > 0 ? chunk : r->family->pattern == PAT_CHUNKED ? window : 0;
        else if (k.mixer == RT_MIXER_SPARSE) {
            k.window = topk;
            k.index_shared = index_shared[i];
        }
        if (other_mixer >= 0 && k.mixer == (enum rt_mixer)other_mixer) { /* Step's attention_other_setting */
            k.heads = other_heads;
            k.kv_heads = other_kv;
            k.d_head = other_dim != m->d_head ? other_dim : 0;
        }
        if (r->family->flags & F_SWA_GEOMETRY) {
            bool sliding = k.mixer == RT_MIXER_SLIDING;
            if (sliding) {
                k.heads = swa_heads;
                k.kv_heads = swa_kv;
                k.d_head = swa_head_dim != m->d_head ? swa_head_dim : 0;
            }
            k.no_sinks = !(sliding ? swa_sinks : full_sinks);
        }
        if (k.mixer == RT_MIXER_FULL && (r->family->flags & F_GLOBAL_GEOMETRY)) {
            k.d_head = global_head_dim;
            k.kv_heads = k_eq_v && global_kv > 0 ? global_kv : 0;
            k.k_eq_v = k_eq_v;
        }
        if ((r->family->flags & F_GLOBAL_GEOMETRY) && shared_kv > 0 && i >= m->layers - shared_kv) {
            /* Gemma 4: the last num_kv_shared_layers read the keys and values of the last layer of their
             * own type before them, and have no key or value projection (Gemma4TextAttention) */
            k.kv_shared = mixer_is_attention(k.mixer);
            if (double_wide && !k.moe) /* use_double_wide_mlp: those layers' MLP is twice as wide */
                k.d_ff = 2 * m->d_ff;
        }
        if ((k.mixer == RT_MIXER_SLIDING || k.mixer == RT_MIXER_CHUNKED) && k.window < 1) {
            snprintf(r->err, r->errsize, "%s: layer %lld is %s but '%s' is absent or 0", r->path, (long long)i,
                     k.mixer == RT_MIXER_SLIDING ? "sliding_attention" : "chunked_attention",
                     k.mixer == RT_MIXER_SLIDING ? "sliding_window" : "attention_chunk_size");
            return -1;
        }
        if (k.mixer == RT_MIXER_LINEAR && m->lin_value_heads == 0) {
            snprintf(r->err, r->errsize, "%s: layer %lld is linear_attention but 'linear_num_value_heads' is absent",
                     r->path, (long long)i);
            return -1;
        }
        if (k.mixer == RT_MIXER_CONV && m->conv_kernel < 1) {
            snprintf(r->err, r->errsize, "%s: layer %lld is a conv layer but 'conv_L_cache' is absent", r->path,
                     (long long)i);
            return -1;
        }
        if ((k.mixer == RT_MIXER_MAMBA || k.mixer == RT_MIXER_MAMBA2) && m->ssm_d_inner == 0) {
            snprintf(r->err, r->errsize, "%s: layer %lld is a Mamba layer but the mamba_* keys are absent", r->path,
                     (long long)i);
            return -1;
        }
        if (r->dense_ff_absent && !k.moe && !k.no_mlp) {
            snprintf(r->err, r->errsize, "%s: layer %lld has a dense MLP but 'intermediate_size' is absent (the "
                                         "config gives only moe_intermediate_size)",
                     r->path, (long long)i);
            return -1;
        }
        int index = model_kind_index(m, &k);
        if (index < 0) {
            snprintf(r->err, r->errsize, "%s: more than %d distinct kinds of layer", r->path, RT_MAX_LAYER_KINDS);
            return -1;
        }
        m->layer_kind[i] = (uint8_t)index;
    }
    model_schedule_fix(m);
    return 0;
}

/* Sets up the scopes: text_config (multimodal), attn_config and ffn_config
 * (DBRX, MPT), then the top level; picks the family. Returns -1 with err set
 * for an unknown model_type whose keys show a hybrid state-space layout. */
static int open_scopes(struct hf_reader *r, const cJSON *root, char *model_type, size_t type_size)
{
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "text_config");
    r->count = 0;
    if (text && !cJSON_IsNull(text) && !cJSON_IsObject(text)) {
        snprintf(r->err, r->errsize, "%s: 'text_config' must be an object with the language model's keys", r->path);
        return -1;
    }
    if (cJSON_IsObject(text)) {
        r->scopes[r->count] = text;
        r->prefixes[r->count++] = "text_config.";
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(text, "model_type");
        if (cJSON_IsString(t))
            snprintf(model_type, type_size, "%s", t->valuestring);
        if (cJSON_GetObjectItemCaseSensitive(root, "vision_config"))
            model_assume(r->m, "vision_config", "left out",
                         "multimodal config: every figure is the language model's (text_config); the vision tower "
                         "and projector are not counted");
    }
    const char *nested[] = {"attn_config", "ffn_config"};
    for (size_t i = 0; i < 2; i++) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(root, nested[i]);
        if (cJSON_IsObject(n)) {
            r->scopes[r->count] = n;
            r->prefixes[r->count++] = i == 0 ? "attn_config." : "ffn_config.";
        }
    }
    r->scopes[r->count] = root;
    r->prefixes[r->count++] = "";
    r->family = family_find(model_type);
    /* Layouts whose keys the generic reading would silently take for something else. */
    static const struct {
        const char *key, *what;
        unsigned reader; /* the family flag that reads the key; 0 = none yet */
    } unread[] = {
        {"compress_ratios", "DeepSeek-V4's compressed attention (CSA/HCA, one cached entry per 4 or 128 tokens) "
                            "and hyper-connections (hc_mult)", F_COMPRESSED},
        {"block_configs", "Nemotron-NAS's per-block layers", F_OWN_LAYOUT},
        {"sparse_attention_config", "MiniMax-M3's block-sparse attention (MSA: index heads and top-k blocks)", 0},
        {"index_topk_blocks", "block-sparse attention (top-k blocks of an indexer)", 0},
        {"linear_attn_config", "linear-attention layers beside full ones (as Kimi-Linear lists them)", F_KDA},
        {"hybrid_layer_pattern", "a hybrid layer pattern (as MiMo-V2-Flash writes it)", F_SWA_GEOMETRY},
    };
    for (size_t i = 0; i < sizeof unread / sizeof unread[0]; i++) {
        const cJSON *v = hf_find(r, unread[i].key, NULL);
        if (v && !cJSON_IsNull(v) && !(r->family && unread[i].reader && (r->family->flags & unread[i].reader))) {
            snprintf(r->err, r->errsize, "%s: model_type '%s' has '%s': %s, which rooftop does not model yet; "
                                         "refusing rather than guessing",
                     r->path, model_type[0] ? model_type : "(absent)", unread[i].key, unread[i].what);
            return -1;
        }
    }
    if (!r->family) {
        r->family = &generic_family;
        /* Keys of hybrid state-space layouts the generic reading would silently take for attention. */
        static const char *const hybrid_keys[] = {"mamba_d_state", "ssm_state_size", "mamba_expand", "mamba_n_heads",
                                                  "layers_block_type", "hybrid_override_pattern", "attn_layer_indices",
                                                  "attn_layer_period", "block_types", "mamba_d_conv"};
        for (size_t i = 0; i < sizeof hybrid_keys / sizeof hybrid_keys[0]; i++) {
            if (hf_find(r, hybrid_keys[i], NULL)) {
                snprintf(r->err, r->errsize, "%s: model_type '%s' mixes state-space and attention layers in a way "
                                             "rooftop does not read yet (it has '%s'); refusing rather than guessing",
                         r->path, model_type[0] ? model_type : "(absent)", hybrid_keys[i]);
                return -1;
            }
        }
        assume(r->m, "model_type", "not a family rooftop knows: read with the generic keys", "%s",
               model_type[0] ? model_type : "(absent)");
    }
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
    struct hf_reader r = {.path = path, .err = err, .errsize = errsize, .m = &m};
    char model_type[48] = "", dtype[24] = "";
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsize, "%s: expected a JSON object with the model's keys", path);
        goto done;
    }
    if (json_string(root, "model_type", path, false, model_type, sizeof model_type, err, errsize) == JSON_BAD)
        goto done;
    if (open_scopes(&r, root, model_type, sizeof model_type) != 0)
        goto done;
    if (read_dimensions(&r) || read_kv_heads(&r) || read_details(&r) || read_experts(&r) || read_latent(&r) ||
        read_state_mixers(&r) || build_schedule(&r))
        goto done;
    if (hf_quant_from_config(cJSON_GetObjectItemCaseSensitive(root, "quantization_config"), path, &m, err, errsize))
        goto done;
    double positions = 0; /* the context it was built for: said when a scenario runs past it */
    if (hf_number(&r, KEYS("max_position_embeddings", "n_positions", "seq_length", "max_sequence_length"), false, 1,
                  BIG, true, &positions) == JSON_FOUND)
        m.max_context = (int64_t)positions;
    err[0] = '\0'; /* a malformed optional length is not a reason to refuse the model */
    /* Multi-token prediction layers: a draft head beside the model, not part of it. */
    static const char *const mtp_keys[] = {"num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_modules"};
    for (size_t i = 0; i < sizeof mtp_keys / sizeof mtp_keys[0]; i++) {
        double mtp = 0;
        if (hf_has(&r, mtp_keys[i]) &&
            hf_number(&r, (const char *const[]){mtp_keys[i], NULL}, false, 0, 64, true, &mtp) == JSON_FOUND &&
            mtp > 0) {
            assume(&m, mtp_keys[i], "left out of the count and of every step: multi-token prediction layers are "
                                    "a draft head beside the model (as DeepSeek-V3's 671B leaves its own out)",
                   "%.0f layer%s", mtp, mtp == 1 ? "" : "s");
            break;
        }
    }

    const cJSON *dt = hf_find(&r, "torch_dtype", NULL);
    if (!dt)
        dt = hf_find(&r, "dtype", NULL);
    if (cJSON_IsString(dt))
        snprintf(dtype, sizeof dtype, "%.23s", dt->valuestring);
    snprintf(m.name, sizeof m.name, "%s", name && name[0] ? name : model_type[0] ? model_type : "config.json");
    snprintf(m.source, sizeof m.source, "%s%s%s%s; read as %s", path, dtype[0] ? " (" : "", dtype, dtype[0] ? ")" : "",
             r.family->model_type[0] ? r.family->model_type : "generic keys");
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
