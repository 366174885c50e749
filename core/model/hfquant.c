/* hfquant.c — the stored format of a quantized checkpoint (hfquant.h). */
#include "hfquant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* True when needle occurs in haystack, ignoring ASCII case. */
static bool has_ci(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && (h[i] | 0x20) == (needle[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* True when a equals b, ignoring ASCII case. */
static bool same_ci(const char *a, const char *b)
{
    return strlen(a) == strlen(b) && has_ci(a, b);
}

/* What a quantization block says. */
struct reading {
    bool found;
    enum rt_precision weights;
    bool kv_set;              /* the KV cache's format is stated */
    enum rt_precision kv;
    char kv_unknown[32];      /* a KV format stated that rooftop does not read ("" when none) */
    bool weight_only;
    bool act_set;             /* the matmuls' inputs have their own format (W4A8: fp8) */
    enum rt_precision act;
    char method[80];          /* for the assumption: "fp8, 128x128 blocks", "ModelOpt NVFP4" */
    char why_not[64];         /* when !found: what was met */
    const cJSON *excluded;    /* a list of module names or globs the checkpoint keeps wide; may be NULL */
    const cJSON *layers;      /* MIXED_PRECISION: module -> {quant_algo}; may be NULL */
};

/* The string under key in obj, or "" (never NULL). */
static const char *str_of(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

/* The number under key in obj, or fallback. */
static double num_of(const cJSON *obj, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : fallback;
}

/* A ModelOpt quant_algo name as a weight format: NVFP4 (and W4A16_NVFP4,
 * whose activations stay bf16), FP8 (per tensor), FP8_PB / FP8_BLOCK, MXFP4,
 * W4A16_AWQ / INT4_AWQ, W8A8 / INT8. Returns false for anything else. */
static bool algo_format(const char *algo, enum rt_precision *p, bool *weight_only)
{
    /* W4A16 and plain AWQ keep the activations in bf16; W4A8_AWQ (TensorRT-LLM) runs them in fp8 */
    *weight_only = has_ci(algo, "W4A16") || (has_ci(algo, "AWQ") && !has_ci(algo, "W4A8"));
    if (has_ci(algo, "NVFP4"))
        *p = RT_NVFP4;
    else if (has_ci(algo, "MXFP4"))
        *p = RT_MXFP4;
    else if (same_ci(algo, "FP8_PB") || has_ci(algo, "FP8_BLOCK") || has_ci(algo, "FP8_PB"))
        *p = RT_FP8_BLOCK;
    else if (has_ci(algo, "FP8"))
        *p = RT_FP8;
    else if (has_ci(algo, "INT4") || has_ci(algo, "W4A"))
        *p = RT_INT4;
    else if (has_ci(algo, "INT8") || has_ci(algo, "W8A8"))
        *p = RT_INT8;
    else
        return false;
    return true;
}

/* One compressed-tensors / ModelOpt weights scheme {num_bits, type,
 * strategy, group_size, block_structure} as a format; false if unknown. */
static bool scheme_format(const cJSON *weights, enum rt_precision *p)
{
    double bits = num_of(weights, "num_bits", 0), group = num_of(weights, "group_size", 0);
    const char *type = str_of(weights, "type"), *strategy = str_of(weights, "strategy");
    bool is_float = strcmp(type, "float") == 0;
    if (bits == 4 && is_float)
        *p = group == 32 ? RT_MXFP4 : RT_NVFP4;
    else if (bits == 4)
        *p = RT_INT4;
    else if (bits == 8 && is_float)
        *p = strcmp(strategy, "block") == 0 || cJSON_GetObjectItemCaseSensitive(weights, "block_structure")
                 ? RT_FP8_BLOCK
                 : RT_FP8;
    else if (bits == 8)
        *p = RT_INT8;
    else
        return false;
    return true;
}

/* The narrowest weights format among config_groups (the MLPs and experts
 * are what a checkpoint quantizes narrowest); false when none is known. */
static bool groups_format(const cJSON *groups, enum rt_precision *p)
{
    bool any = false;
    const cJSON *g;
    cJSON_ArrayForEach(g, groups)
    {
        enum rt_precision q;
        if (!scheme_format(cJSON_GetObjectItemCaseSensitive(g, "weights"), &q))
            continue;
        if (!any || precision_bytes(q) < precision_bytes(*p))
            *p = q;
        any = true;
    }
    return any;
}

/* A weight format's words for the assumption. */
static const char *format_words(enum rt_precision p)
{
    switch (p) {
    case RT_FP8_BLOCK:
        return "fp8, 128x128 blocks";
    case RT_NVFP4:
        return "NVFP4, a scale per 16";
    case RT_MXFP4:
        return "MXFP4, a scale per 32";
    default:
        return precision_name(p);
    }
}

/* config.json's quantization_config. */
static void read_config_block(const cJSON *qc, struct reading *r)
{
    const char *method = str_of(qc, "quant_method");
    r->excluded = cJSON_GetObjectItemCaseSensitive(qc, "ignore");
    if (!cJSON_IsArray(r->excluded))
        r->excluded = cJSON_GetObjectItemCaseSensitive(qc, "modules_to_not_convert");
    if (!cJSON_IsArray(r->excluded))
        r->excluded = NULL;
    const cJSON *kv = cJSON_GetObjectItemCaseSensitive(qc, "kv_cache_scheme");
    if (cJSON_IsObject(kv)) { /* compressed-tensors / ModelOpt: 8-bit float fp8, 4-bit float nvfp4 */
        double bits = num_of(kv, "num_bits", 0);
        bool is_float = strcmp(str_of(kv, "type"), "float") == 0 || !cJSON_GetObjectItemCaseSensitive(kv, "type");
        r->kv_set = (bits == 8 || bits == 4) && is_float;
        r->kv = bits == 4 ? RT_NVFP4 : RT_FP8;
        if (!r->kv_set)
            snprintf(r->kv_unknown, sizeof r->kv_unknown, "%g-bit %s", bits, str_of(kv, "type"));
    }
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(qc, "config_groups");
    if (same_ci(method, "fp8")) {
        const cJSON *blocks = cJSON_GetObjectItemCaseSensitive(qc, "weight_block_size");
        r->weights = cJSON_IsArray(blocks) ? RT_FP8_BLOCK : RT_FP8;
        r->found = true;
        if (cJSON_IsArray(blocks) && cJSON_GetArraySize(blocks) == 2) { /* checked: two whole numbers */
            double rows = cJSON_GetArrayItem(blocks, 0)->valuedouble, cols = cJSON_GetArrayItem(blocks, 1)->valuedouble;
            if (rows != 128 || cols != 128) {
                snprintf(r->method, sizeof r->method, "fp8, %.0fx%.0f blocks (scales counted per 128x128)", rows, cols);
                return;
            }
        }
    } else if (same_ci(method, "mxfp4")) {
        r->weights = RT_MXFP4;
        r->found = true;
    } else if (same_ci(method, "awq") || same_ci(method, "gptq")) {
        double bits = num_of(qc, "bits", num_of(qc, "w_bit", 4));
        const cJSON *given = cJSON_GetObjectItemCaseSensitive(qc, "bits");
        if (given && !cJSON_IsNumber(given))
            bits = 0; /* null, NaN, a string: not a width */
        r->weights = bits == 8 ? RT_INT8 : RT_INT4;
        r->weight_only = true;
        r->found = bits == 4 || bits == 8;
        if (!r->found)
            snprintf(r->why_not, sizeof r->why_not, "bits %g", bits);
    } else if (same_ci(method, "bitsandbytes")) {
        const cJSON *four = cJSON_GetObjectItemCaseSensitive(qc, "load_in_4bit");
        r->weights = cJSON_IsTrue(four) ? RT_INT4 : RT_INT8;
        r->weight_only = true;
        r->found = true;
    } else if (cJSON_IsObject(groups) || cJSON_IsArray(groups)) { /* modelopt, compressed-tensors */
        bool weight_only = false;
        const char *algo = str_of(qc, "quant_algo");
        r->found = (algo[0] && algo_format(algo, &r->weights, &weight_only)) || groups_format(groups, &r->weights);
        r->weight_only = weight_only;
        const cJSON *g;
        cJSON_ArrayForEach(g, groups)
        {
            const cJSON *act = cJSON_GetObjectItemCaseSensitive(g, "input_activations");
            if (cJSON_IsObject(act) && num_of(act, "num_bits", 16) >= 16)
                r->weight_only = true;
            if (cJSON_IsNull(act))
                r->weight_only = true;
        }
    } else if (has_ci(method, "nvfp4") || has_ci(method, "modelopt")) {
        bool weight_only = false;
        r->found = algo_format(str_of(qc, "quant_algo"), &r->weights, &weight_only);
        r->weight_only = weight_only;
    }
    snprintf(r->method, sizeof r->method, "%s", method[0] ? method : "quantization_config");
}

/* hf_quant_config.json's "quantization" block. */
static void read_modelopt_block(const cJSON *q, struct reading *r)
{
    const char *algo = str_of(q, "quant_algo");
    const cJSON *kv_item = cJSON_GetObjectItemCaseSensitive(q, "kv_cache_quant_algo");
    const char *kv = str_of(q, "kv_cache_quant_algo");
    if (has_ci(kv, "NVFP4")) {
        r->kv_set = true;
        r->kv = RT_NVFP4;
    } else if (has_ci(kv, "FP8")) {
        r->kv_set = true;
        r->kv = RT_FP8;
    } else if (kv_item && !cJSON_IsNull(kv_item)) {
        snprintf(r->kv_unknown, sizeof r->kv_unknown, "%.24s", cJSON_IsString(kv_item) ? kv : "(not a string)");
    }
    if (cJSON_GetObjectItemCaseSensitive(q, "quant_algo") && !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(q, "quant_algo")))
        snprintf(r->why_not, sizeof r->why_not, "quant_algo is not a string");
    r->excluded = cJSON_GetObjectItemCaseSensitive(q, "exclude_modules");
    if (!cJSON_IsArray(r->excluded))
        r->excluded = NULL;
    bool weight_only = false;
    if (same_ci(algo, "MIXED_PRECISION")) {
        /* the format most of the MLP and expert layers use, else the most common */
        r->layers = cJSON_GetObjectItemCaseSensitive(q, "quantized_layers");
        int counts[RT_PRECISION_COUNT][2] = {{0}};
        int weight_only_votes = 0, votes = 0;
        const cJSON *layer;
        cJSON_ArrayForEach(layer, r->layers)
        {
            enum rt_precision p;
            bool wo = false;
            if (!layer->string || !algo_format(str_of(layer, "quant_algo"), &p, &wo))
                continue;
            bool mlp = strstr(layer->string, "mlp") || strstr(layer->string, "expert");
            counts[p][mlp ? 1 : 0]++;
            if (mlp) {
                weight_only_votes += wo;
                votes++;
            }
        }
        int best = -1, col = votes > 0 ? 1 : 0;
        for (int p = 0; p < RT_PRECISION_COUNT; p++)
            if (counts[p][col] > 0 && (best < 0 || counts[p][col] > counts[best][col]))
                best = p;
        if (best >= 0) {
            r->weights = (enum rt_precision)best;
            r->found = true;
            r->weight_only = votes > 0 && weight_only_votes * 2 > votes;
        }
        snprintf(r->method, sizeof r->method, "ModelOpt mixed precision");
        if (!r->found)
            snprintf(r->why_not, sizeof r->why_not, "MIXED_PRECISION without quantized_layers it reads");
        return;
    }
    r->found = algo_format(algo, &r->weights, &weight_only);
    r->weight_only = weight_only;
    if (r->found && has_ci(algo, "W4A8")) { /* TensorRT-LLM's W4A8_AWQ: int4 weights, fp8 activations */
        r->act_set = true;
        r->act = RT_FP8;
    }
    snprintf(r->method, sizeof r->method, "ModelOpt %s", algo[0] ? algo : "(no quant_algo)");
    if (!r->found && !r->why_not[0])
        snprintf(r->why_not, sizeof r->why_not, "quant_algo '%.30s'", algo);
}

/* Parts of one layer a checkpoint can keep wide. */
enum { PART_MIXER = 1, PART_MLP = 2, PART_SHARED = 4, PART_ROUTER = 8 };

/* The parts an exclusion pattern names, and the layer it is limited to
 * (-1: every layer). "model.layers.3*" names all of layer 3; "*self_attn*"
 * every attention mixer; the vision tower, the MTP layers and embeddings
 * name nothing rooftop counts at the weights' precision apart from what it
 * keeps wide anyway. */
static unsigned pattern_parts(const char *pat, int64_t *layer, bool *lm_head)
{
    *layer = -1;
    const char *l = strstr(pat, "layers.");
    if (l && l[7] >= '0' && l[7] <= '9') {
        char *end;
        long v = strtol(l + 7, &end, 10);
        *layer = v;
        if (*end == '\0' || strcmp(end, "*") == 0 || strcmp(end, ".*") == 0)
            return PART_MIXER | PART_MLP | PART_SHARED | PART_ROUTER; /* the whole layer */
    }
    if (strstr(pat, "mtp") || strstr(pat, "visual") || strstr(pat, "vision") || strstr(pat, "mm_projector") ||
        strstr(pat, "embed"))
        return 0;
    /* A norm, a bias or an indexer's small projection: counted with the norms, or too small to count. */
    const char *last = strrchr(pat, '.');
    last = last ? last + 1 : pat;
    if (strstr(last, "norm") || strstr(last, "bias") || strstr(last, "weights_proj") || strstr(last, "indexers_proj") ||
        strstr(last, "conv1d"))
        return strstr(last, "e_score_correction") ? PART_ROUTER : 0;
    if (strstr(pat, "lm_head") || strcmp(pat, "head") == 0 || strcmp(pat, "head*") == 0) {
        *lm_head = true;
        return 0;
    }
    unsigned parts = 0;
    if (strstr(pat, "attn") || strstr(pat, "attention") || strstr(pat, "mixer.in_proj") ||
        strstr(pat, "mixer.out_proj") || strstr(pat, "q_proj") || strstr(pat, "o_proj"))
        parts |= PART_MIXER;
    if (strstr(pat, "shared_expert") || strstr(pat, "share_expert"))
        parts |= PART_SHARED;
    size_t n = strlen(pat);
    bool ends_gate = (n >= 5 && strcmp(pat + n - 5, ".gate") == 0) || (n >= 6 && strcmp(pat + n - 6, ".gate*") == 0);
    if (strstr(pat, "router") || ends_gate || strstr(pat, "e_score_correction"))
        parts |= PART_ROUTER;
    bool ends_mlp = (n >= 4 && strcmp(pat + n - 4, ".mlp") == 0) || (n >= 5 && strcmp(pat + n - 5, ".mlp*") == 0) ||
                    (n >= 6 && strcmp(pat + n - 6, ".mlp.*") == 0);
    if (ends_mlp && !(parts & PART_SHARED))
        parts |= PART_MLP;
    return parts;
}

/* Parameters of layer i's parts in mask: its mixer, its dense MLP (or an
 * MoE layer's shared experts, which a dense "mlp" beside the experts is),
 * its shared experts, its router. */
static double layer_part_params(const struct model_shape *m, int64_t i, unsigned mask, const struct param_count *pc)
{
    const struct layer_kind *k = &m->kinds[m->layer_kind[i] < m->kind_count ? m->layer_kind[i] : 0];
    double d = (double)m->d_model, mats = m->gated_mlp ? 3.0 : 2.0, p = 0.0;
    double ff_e = m->moe_d_ff > 0 ? (double)m->moe_d_ff : (double)m->d_ff;
    double shared = (double)m->shared_experts * mats * d * (m->shared_d_ff > 0 ? (double)m->shared_d_ff : ff_e);
    if (mask & PART_MIXER)
        p += model_kind_mixer_params(m, k);
    if ((mask & PART_MLP) && !k->no_mlp)
        p += k->moe ? shared : mats * d * (double)(k->d_ff > 0 ? k->d_ff : m->d_ff);
    if ((mask & PART_SHARED) && k->moe && !(mask & PART_MLP))
        p += shared;
    if ((mask & PART_ROUTER) && k->moe)
        p += pc->router_per_layer;
    return p;
}

/* The parameters the checkpoint keeps wider than its format: the
 * embeddings and norms always, the LM head unless a quantized layer names
 * it, and what its exclusion list names. *named_parts: the list named some;
 * *head_wide: the LM head is among them. */
static double kept_wide_params(const struct model_shape *m, const struct reading *r, bool *named_parts,
                               bool *head_wide)
{
    struct param_count pc = model_param_count(m);
    bool lm_head = true;
    const cJSON *layer;
    cJSON_ArrayForEach(layer, r->layers)
    {
        if (layer->string && strstr(layer->string, "lm_head"))
            lm_head = false; /* ModelOpt's mixed precision can quantize it (Qwen3.6-27B) */
    }
    unsigned masks[RT_MAX_LAYERS] = {0};
    const cJSON *e;
    cJSON_ArrayForEach(e, r->excluded)
    {
        if (!cJSON_IsString(e))
            continue;
        int64_t at = -1;
        bool head = false;
        unsigned parts = pattern_parts(e->valuestring, &at, &head);
        lm_head = lm_head || head;
        for (int64_t i = at < 0 ? 0 : at; i < m->layers && i < RT_MAX_LAYERS && (at < 0 || i == at); i++)
            masks[i] |= parts;
    }
    *head_wide = lm_head && !m->tied_embeddings && pc.lm_head > 0.0;
    double kept = pc.embedding + pc.norms + (*head_wide ? pc.lm_head : 0.0);
    *named_parts = false;
    for (int64_t i = 0; i < m->layers && i < RT_MAX_LAYERS; i++) {
        if (masks[i])
            *named_parts = true;
        kept += layer_part_params(m, i, masks[i], &pc);
    }
    return kept;
}

/* MIXED_PRECISION: the parameters of the quantized layers in a format
 * other than the bulk's (Qwen3.6-27B's FP8 attention beside its NVFP4
 * MLPs), and that format (the most common of them) in *other. */
static double other_format_params(const struct model_shape *m, const struct reading *r, enum rt_precision *other)
{
    struct param_count pc = model_param_count(m);
    int votes[RT_PRECISION_COUNT] = {0};
    unsigned masks[RT_MAX_LAYERS] = {0};
    const cJSON *layer;
    cJSON_ArrayForEach(layer, r->layers)
    {
        enum rt_precision p;
        bool wo;
        if (!layer->string || !algo_format(str_of(layer, "quant_algo"), &p, &wo) || p == r->weights)
            continue;
        votes[p]++;
        int64_t at = -1;
        bool head = false;
        unsigned parts = pattern_parts(layer->string, &at, &head);
        for (int64_t i = at < 0 ? 0 : at; i < m->layers && i < RT_MAX_LAYERS && (at < 0 || i == at); i++)
            masks[i] |= parts;
    }
    int best = -1;
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        if (votes[p] > 0 && (best < 0 || votes[p] > votes[best]))
            best = p;
    *other = best >= 0 ? (enum rt_precision)best : r->weights;
    double n = 0.0;
    for (int64_t i = 0; i < m->layers && i < RT_MAX_LAYERS && best >= 0; i++)
        n += layer_part_params(m, i, masks[i], &pc);
    return n;
}

/* Writes the reading into m: the checkpoint fields and one assumption. */
static void apply_reading(struct model_shape *m, const struct reading *r, const char *file)
{
    char value[RT_ASSUMPTION_VALUE_MAX], why[2 * RT_ASSUMPTION_WHY_MAX];
    model_unassume(m, "quantization");
    if (r->kv_unknown[0]) {
        snprintf(value, sizeof value, "%.40s", r->kv_unknown);
        snprintf(why, sizeof why, "%s states a KV-cache format rooftop does not read: the cache is counted at the "
                                  "--kv-precision (bf16 unless given)",
                 file);
        model_assume(m, "kv cache format", value, why);
    }
    if (!r->found) {
        snprintf(value, sizeof value, "%.40s", r->why_not[0] ? r->why_not : r->method);
        snprintf(why, sizeof why, "%s (%s) names a format rooftop does not read: the weights are counted at bf16 "
                                  "(give --precision)",
                 file, r->method);
        model_assume(m, "quantization", value, why);
        return;
    }
    m->checkpoint_quantized = true;
    m->checkpoint_precision = (int)r->weights;
    m->checkpoint_kv_quantized = r->kv_set;
    m->checkpoint_kv_precision = (int)r->kv;
    m->checkpoint_weight_only = r->weight_only;
    m->checkpoint_act_set = r->act_set;
    m->checkpoint_act_precision = (int)r->act;
    bool named = false, head = false;
    struct param_count pc = model_param_count(m);
    double kept = kept_wide_params(m, r, &named, &head);
    enum rt_precision other = r->weights;
    double others = r->layers ? other_format_params(m, r, &other) : 0.0;
    double bq = precision_bytes(r->weights);
    double extra_bytes = kept * (2.0 - bq) + others * (precision_bytes(other) - bq);
    char kept_text[24], bytes_text[24], other_text[64] = "";
    format_count(kept_text, sizeof kept_text, kept);
    format_si(bytes_text, sizeof bytes_text, extra_bytes, "B");
    if (others > 0.0) {
        char n[24];
        snprintf(other_text, sizeof other_text, "; %s at %s", format_count(n, sizeof n, others), precision_name(other));
    }
    char kv_text[24] = "";
    if (r->kv_set)
        snprintf(kv_text, sizeof kv_text, ", %s KV", precision_name(r->kv));
    snprintf(value, sizeof value, "%s weights%s%s", precision_name(r->weights),
             r->weight_only ? " only" : r->act_set ? (r->act == RT_FP8 ? ", fp8 matmuls" : ", own matmuls") : "",
             kv_text);
    snprintf(why, sizeof why, "%s (%s): %s; the precisions start there; %s params (%.1f%%: embeddings, norms%s%s) "
                              "stay wider%s: +%s",
             file, r->method, format_words(r->weights), kept_text, pc.total > 0.0 ? 100.0 * kept / pc.total : 0.0,
             head ? ", LM head" : "", named ? ", excluded" : "", other_text, bytes_text);
    model_assume(m, "quantization", value, why);
}

/* A list of module names (ignore, modules_to_not_convert, exclude_modules)
 * where present: strings only. */
static int check_names(const cJSON *block, const char *key, const char *path, const char *what, char *err,
                       size_t errsize)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(block, key), *e;
    if (!v || cJSON_IsNull(v))
        return 0;
    bool ok = cJSON_IsArray(v);
    cJSON_ArrayForEach(e, v) ok = ok && cJSON_IsString(e);
    if (!ok) {
        snprintf(err, errsize, "%s: '%s%s' must be a list of module names", path, what, key);
        return -1;
    }
    return 0;
}

/* The sizes a block states: group_size a positive whole number,
 * weight_block_size two of them. */
static int check_sizes(const cJSON *block, const char *path, const char *what, char *err, size_t errsize)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(block, "group_size");
    if (g && !cJSON_IsNull(g) &&
        (!cJSON_IsNumber(g) || !isfinite(g->valuedouble) || g->valuedouble < 1 ||
         g->valuedouble != floor(g->valuedouble) || g->valuedouble > 1e6)) {
        snprintf(err, errsize, "%s: '%sgroup_size' must be a positive whole number of elements", path, what);
        return -1;
    }
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(block, "weight_block_size"), *e;
    if (b && !cJSON_IsNull(b)) {
        bool ok = cJSON_IsArray(b) && cJSON_GetArraySize(b) == 2;
        cJSON_ArrayForEach(e, b) ok = ok && cJSON_IsNumber(e) && isfinite(e->valuedouble) && e->valuedouble >= 1 &&
                                      e->valuedouble == floor(e->valuedouble) && e->valuedouble <= 1e6;
        if (!ok) {
            snprintf(err, errsize, "%s: '%sweight_block_size' must be two positive whole numbers (rows, columns)",
                     path, what);
            return -1;
        }
    }
    return 0;
}

int hf_quant_from_config(const cJSON *qc, const char *path, struct model_shape *m, char *err, size_t errsize)
{
    if (!qc || cJSON_IsNull(qc))
        return 0;
    if (!cJSON_IsObject(qc)) {
        snprintf(err, errsize, "%s: 'quantization_config' must be an object", path);
        return -1;
    }
    if (check_names(qc, "ignore", path, "quantization_config.", err, errsize) ||
        check_names(qc, "modules_to_not_convert", path, "quantization_config.", err, errsize) ||
        check_sizes(qc, path, "quantization_config.", err, errsize))
        return -1;
    struct reading r = {0};
    read_config_block(qc, &r);
    apply_reading(m, &r, "quantization_config");
    return 0;
}

int hf_quant_from_file(const char *text, size_t len, const char *path, struct model_shape *m, struct load_warnings *w,
                       char *err, size_t errsize)
{
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(root, "quantization");
    int rc = 0;
    if (!cJSON_IsObject(q)) {
        snprintf(err, errsize, "%s: expected a 'quantization' object (ModelOpt's hf_quant_config.json)", path);
        rc = -1;
    } else if (check_names(q, "exclude_modules", path, "quantization.", err, errsize) ||
               check_sizes(q, path, "quantization.", err, errsize)) {
        rc = -1;
    } else {
        struct reading r = {0};
        read_modelopt_block(q, &r);
        apply_reading(m, &r, "hf_quant_config.json");
    }
    cJSON_Delete(root);
    return rc;
}
