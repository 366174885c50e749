/* kernels.c — the kernel models of kernels.h. */
#include "kernels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "minmax.h"
#include "units.h" /* name_lookup, format_si, precision_bytes */

/* ceil(x) for 0 <= x < 2^52, inline (every count here is one): the
 * baseline x86-64 has no rounding instruction, and libm's ceil is a call on
 * the hot path of every GEMM. */
static inline double ceil_pos(double x)
{
    double t = (double)(int64_t)x;
    return t < x ? t + 1.0 : t;
}

static const char *const kind_names[RT_KERNEL_KIND_COUNT] = {
    "gemm", "attention", "decode-attention", "mla", "decode-mla", "moe", "all-reduce",
    "nccl-all-reduce", "nccl-all-gather", "nccl-reduce-scatter", "nccl-all-to-all"};

const char *kernel_kind_name(enum rt_kernel_kind k)
{
    return ((int)k >= 0 && k < RT_KERNEL_KIND_COUNT) ? kind_names[k] : "?";
}

int kernel_kind_parse(const char *text, enum rt_kernel_kind *out)
{
    static const struct name_alias aliases[] = {
        {"allgather", RT_KERNEL_NCCL_ALLGATHER},      {"reducescatter", RT_KERNEL_NCCL_REDUCE_SCATTER},
        {"alltoall", RT_KERNEL_NCCL_ALLTOALL},        {"prefillattention", RT_KERNEL_ATTENTION},
        {"contextattention", RT_KERNEL_ATTENTION},    {"generationattention", RT_KERNEL_DECODE_ATTENTION},
        {"prefillmla", RT_KERNEL_MLA},                {"contextmla", RT_KERNEL_MLA},
        {"generationmla", RT_KERNEL_DECODE_MLA},      {"allreduce", RT_KERNEL_ALLREDUCE},
        {"customallreduce", RT_KERNEL_ALLREDUCE},     {"matmul", RT_KERNEL_GEMM},
    };
    int k = name_lookup(text, kind_names, RT_KERNEL_KIND_COUNT, aliases, sizeof aliases / sizeof aliases[0]);
    if (k < 0)
        return -1;
    *out = (enum rt_kernel_kind)k;
    return 0;
}

static const char *const format_names[RT_KF_COUNT] = {
    "bfloat16", "fp8", "fp8_block", "nvfp4", "mxfp4", "sq", "int8_wo", "int4_wo", "w4a16_mxfp4", "w4a8_mxfp4_mxfp8",
    "fp8_wo"};

const char *kernel_format_name(enum rt_kernel_format f)
{
    return ((int)f >= 0 && f < RT_KF_COUNT) ? format_names[f] : "?";
}

int kernel_format_parse(const char *text, enum rt_kernel_format *out)
{
    static const struct name_alias aliases[] = {
        {"bf16", RT_KF_BF16}, {"float16", RT_KF_BF16}, {"half", RT_KF_BF16}, {"fp16", RT_KF_BF16},
        {"int8", RT_KF_INT8}, {"w8a8", RT_KF_INT8},    {"fp8block", RT_KF_FP8_BLOCK},
        {"int4", RT_KF_INT4_WO}, {"w4a16", RT_KF_INT4_WO}, /* --precision int4 is weight-only: W4A16 */
    };
    int f = name_lookup(text, format_names, RT_KF_COUNT, aliases, sizeof aliases / sizeof aliases[0]);
    if (f < 0)
        return -1;
    *out = (enum rt_kernel_format)f;
    return 0;
}

/* Each format's weights and inputs as scenario precisions (units.h says
 * their bytes, block scales counted). */
static const struct {
    enum rt_precision weights, inputs;
} format_precisions[RT_KF_COUNT] = {
    [RT_KF_BF16] = {RT_BF16, RT_BF16},       [RT_KF_FP8] = {RT_FP8, RT_FP8},
    [RT_KF_FP8_BLOCK] = {RT_FP8_BLOCK, RT_FP8_BLOCK}, [RT_KF_NVFP4] = {RT_NVFP4, RT_NVFP4},
    [RT_KF_MXFP4] = {RT_MXFP4, RT_MXFP4},   [RT_KF_INT8] = {RT_INT8, RT_INT8},
    [RT_KF_INT8_WO] = {RT_INT8, RT_BF16},    [RT_KF_INT4_WO] = {RT_INT4, RT_BF16},
    [RT_KF_MXFP4_WO] = {RT_MXFP4, RT_BF16},  [RT_KF_MXFP4_A8] = {RT_MXFP4, RT_FP8},
    [RT_KF_FP8_WO] = {RT_FP8, RT_BF16},
};

double kernel_format_weight_bytes(enum rt_kernel_format f)
{
    if ((int)f < 0 || f >= RT_KF_COUNT)
        return 0.0;
    /* a weight-only int4 kernel (AWQ, GPTQ) also reads an fp16 scale per group of 128, which the
     * scenario's bare int4 (the guide's 0.5 bytes) leaves out */
    return precision_bytes(format_precisions[f].weights) + (f == RT_KF_INT4_WO ? 2.0 / 128.0 : 0.0);
}

double kernel_format_act_bytes(enum rt_kernel_format f)
{
    if ((int)f < 0 || f >= RT_KF_COUNT)
        return 0.0;
    /* W4A8's inputs are MXFP8: fp8 with an e8m0 scale per 32 */
    return precision_activation_bytes(format_precisions[f].inputs) + (f == RT_KF_MXFP4_A8 ? 1.0 / 32.0 : 0.0);
}

/* The kernel format (kernels.h) of matmuls with weights at w and inputs at
 * a (the compute precision): native when they agree, weight-only when a is
 * bf16, W4A8 for MXFP4 weights on fp8 inputs. */
enum rt_kernel_format kernel_format_for(enum rt_precision w, enum rt_precision a)
{
    bool wo = a == RT_BF16;
    switch (w) {
    case RT_FP8: return wo ? RT_KF_FP8_WO : RT_KF_FP8;
    case RT_FP8_BLOCK: return wo ? RT_KF_FP8_WO : RT_KF_FP8_BLOCK;
    case RT_INT8: return wo ? RT_KF_INT8_WO : RT_KF_INT8;
    case RT_INT4: return RT_KF_INT4_WO;
    case RT_NVFP4: return wo ? RT_KF_MXFP4_WO : a == RT_NVFP4 ? RT_KF_NVFP4 : RT_KF_MXFP4_A8;
    case RT_MXFP4: return wo ? RT_KF_MXFP4_WO : a == RT_MXFP4 ? RT_KF_MXFP4 : RT_KF_MXFP4_A8;
    default: return RT_KF_BF16;
    }
}

enum rt_kernel_rate kernel_format_rate(enum rt_kernel_format f)
{
    switch (f) {
    case RT_KF_FP8: case RT_KF_FP8_BLOCK: case RT_KF_MXFP4_A8: return RT_RATE_FP8;
    case RT_KF_INT8: return RT_RATE_INT8;
    case RT_KF_NVFP4: case RT_KF_MXFP4: return RT_RATE_FP4;
    default: return RT_RATE_BF16;
    }
}

static const char *const engine_names[RT_KE_COUNT] = {"trtllm", "vllm", "sglang"};

const char *kernel_engine_name(enum rt_kernel_engine e)
{
    return ((int)e >= 0 && e < RT_KE_COUNT) ? engine_names[e] : "?";
}

enum rt_kernel_engine kernel_engine_for(const char *engine_name, bool *guessed)
{
    char want[48];
    name_normalize(want, sizeof want, engine_name ? engine_name : "");
    if (guessed)
        *guessed = false;
    if (strcmp(want, "vllm") == 0)
        return RT_KE_VLLM;
    if (strcmp(want, "sglang") == 0)
        return RT_KE_SGLANG;
    if (strcmp(want, "trtllm") == 0 || strcmp(want, "tensorrtllm") == 0 || strcmp(want, "nim") == 0 ||
        strcmp(want, "dynamo") == 0)
        return RT_KE_TRTLLM;
    if (guessed)
        *guessed = true;
    return RT_KE_TRTLLM;
}

static const char *const family_names[RT_KFAM_COUNT] = {
    "any", "default", "deepgemm", "cutlass", "flashinfer", "trtllm", "triton", "marlin", "fa2", "fa3", "fa4",
    "flash-attn", "flashmla", "plugin", "nongated", "graph", "eager", "xqa", "mmha"};

const char *kernel_family_name(enum rt_kernel_family f)
{
    return ((int)f >= 0 && f < RT_KFAM_COUNT) ? family_names[f] : "?";
}

/* Case-insensitive substring search. */
static bool has(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && (hay[i] | 0x20) == (needle[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

enum rt_kernel_family kernel_trtllm_decode_family(double heads, double kv_heads)
{
    double g = kv_heads > 0.0 ? heads / kv_heads : 1.0;
    return g > 1.0 && g <= 32.0 ? RT_KFAM_XQA : RT_KFAM_MMHA;
}

enum rt_kernel_family kernel_family_of(const char *src)
{
    /* Order matters: the more specific word first (flashinfer's TRT-LLM
     * kernels are TRT-LLM's; its CUTLASS ones CUTLASS's). */
    static const struct { const char *word; enum rt_kernel_family f; } words[] = {
        {"graph", RT_KFAM_GRAPH},         {"eager", RT_KFAM_EAGER},           {"deepgemm", RT_KFAM_DEEPGEMM},
        {"marlin", RT_KFAM_MARLIN},       {"cutedsl", RT_KFAM_FLASHINFER},    {"flashinfer_trtllm", RT_KFAM_TRTLLM},
        {"trtllmprefill", RT_KFAM_TRTLLM}, {"trtllmdecode", RT_KFAM_TRTLLM},  {"trtllm_m", RT_KFAM_TRTLLM},
        {"flashinfer_cutlass", RT_KFAM_CUTLASS}, {"cutlass", RT_KFAM_CUTLASS}, {"flashinfer", RT_KFAM_FLASHINFER},
        {"fidecode", RT_KFAM_FLASHINFER}, {"fiprefill", RT_KFAM_FLASHINFER},  {"triton", RT_KFAM_TRITON},
        {"flashmla", RT_KFAM_FLASHMLA},   {"fa2", RT_KFAM_FA2},               {"fa3", RT_KFAM_FA3},
        {"fa4", RT_KFAM_FA4},             {"flash_attn", RT_KFAM_FLASH_ATTN}, {"flash_attention", RT_KFAM_FLASH_ATTN},
        {"flash-attn", RT_KFAM_FLASH_ATTN}, {"sgl_kernel", RT_KFAM_CUTLASS},  {"plugin", RT_KFAM_PLUGIN},
        {"nongated", RT_KFAM_NONGATED},   {"trtllm", RT_KFAM_TRTLLM},
    };
    if (!src)
        return RT_KFAM_DEFAULT;
    for (int f = 0; f < RT_KFAM_COUNT; f++)
        if (strcmp(src, family_names[f]) == 0)
            return (enum rt_kernel_family)f;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has(src, words[i].word))
            return words[i].f;
    return RT_KFAM_DEFAULT;
}

/* ---- shapes ---------------------------------------------------------- */

#define SHAPE_MAX 1099511627776.0 /* 2^40 */

static int need(const char *name, double v, double lo, char *err, size_t errsize)
{
    if (isfinite(v) && v >= lo && v <= SHAPE_MAX)
        return 0;
    char got[32];
    snprintf(err, errsize, "the operation's '%s' must be from %.0f to 2^40 (got %s)", name, lo,
             format_exact(got, sizeof got, v));
    return -1;
}

int kernel_shape_check(const struct kernel_shape *s, char *err, size_t errsize)
{
    if ((int)s->kind < 0 || s->kind >= RT_KERNEL_KIND_COUNT) {
        snprintf(err, errsize, "unknown operation kind");
        return -1;
    }
    if ((int)s->format < 0 || s->format >= RT_KF_COUNT) {
        snprintf(err, errsize, "unknown number format");
        return -1;
    }
    switch (s->kind) {
    case RT_KERNEL_GEMM:
        return need("m", s->m, 1, err, errsize) || need("n", s->n, 1, err, errsize) || need("k", s->k, 1, err, errsize)
                   ? -1 : 0;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA:
    case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA: {
        bool prefill = s->kind == RT_KERNEL_ATTENTION || s->kind == RT_KERNEL_MLA;
        if (need("batch", s->batch, 1, err, errsize) ||
            (prefill ? need("seq", s->seq, 1, err, errsize) : need("kv_len", s->kv_len, 1, err, errsize)) ||
            need("heads", s->heads, 1, err, errsize) || need("kv_heads", s->kv_heads, 1, err, errsize) ||
            need("head_dim", s->head_dim, 1, err, errsize) || need("window", s->window, 0, err, errsize))
            return -1;
        /* GQA: each KV head serves a whole group of query heads (MLA's one latent head serves all) */
        bool mla = s->kind == RT_KERNEL_MLA || s->kind == RT_KERNEL_DECODE_MLA;
        if (!mla && (s->kv_heads > s->heads || fmod(s->heads, s->kv_heads) != 0.0)) {
            snprintf(err, errsize, "the operation's kv_heads (%.0f) must divide its heads (%.0f)", s->kv_heads, s->heads);
            return -1;
        }
        return 0;
    }
    case RT_KERNEL_MOE:
        if (need("tokens", s->tokens, 1, err, errsize) || need("hidden", s->hidden, 1, err, errsize) ||
            need("inter", s->inter, 1, err, errsize) || need("topk", s->topk, 1, err, errsize) ||
            need("experts", s->experts, 1, err, errsize) || need("tp", s->moe_tp, 1, err, errsize) ||
            need("ep", s->moe_ep, 1, err, errsize) || need("skew", s->skew, 0, err, errsize))
            return -1;
        if (s->topk > s->experts) {
            snprintf(err, errsize, "the operation's topk (%.0f) is more than its experts (%.0f)", s->topk, s->experts);
            return -1;
        }
        if (fmod(s->experts, s->moe_ep) != 0.0) {
            snprintf(err, errsize, "the operation's ep (%.0f) must divide its experts (%.0f)", s->moe_ep, s->experts);
            return -1;
        }
        return 0;
    default:
        return need("gpus", s->gpus, 2, err, errsize) || need("bytes", s->message_bytes, 1, err, errsize) ? -1 : 0;
    }
}

/* ---- constants -------------------------------------------------------- */

/* One kind's constants: names, defaults and ranges. */
struct param_def {
    const char *name;
    float value;
    double lo, hi;
    const float *choices; /* a discrete constant's values (lo == hi == value), else NULL */
    int nchoices;
};

static const float tile_choices[] = {64, 128};
static const float flag_choices[] = {0, 1};
static const float chunk_choices[] = {128, 256, 512, 1024, 2048};
static const float m_tile_choices[] = {16, 64};
static const float group_choices[] = {32, 1e9f};
#define CHOICES(a) a, (int)(sizeof a / sizeof a[0])

#define END {NULL, 0, 0, 0, NULL, 0}
/* A GEMM (kernels.h gemm_time): the achieved fraction of the tensor peak
 * a main-loop step reaches, of HBM bandwidth, L2's bandwidth over HBM's, the
 * load rate of one CTA alone, a launch, a time per wave of tiles
 * (non-persistent kernels), the split-K fix-up, the activation quantiser's
 * time per wave of rows and its passes over x, the host's floor of an
 * eager launch, a latency per main-loop step. */
#define GEMM_LAUNCH 4 /* launch_s's index in gemm_params */
static const struct param_def gemm_params[] = {
    {"peak_fraction", 0.7f, 0.05, 1.0, NULL, 0},        {"hbm_fraction", 0.8f, 0.2, 1.5, NULL, 0},
    {"l2_speedup", 2.0f, 0.5, 10.0, NULL, 0},           {"cta_bytes_per_s", 1.5e11f, 5e9, 5e12, NULL, 0},
    {"launch_s", 3.0e-6f, 0.0, 3e-4, NULL, 0},          {"wave_s", 0.5e-6f, 0.0, 2e-5, NULL, 0},
    {"split_s", 2.0e-6f, 0.0, 5e-5, NULL, 0},           {"row_wave_s", 5.0e-7f, 0.0, 2e-5, NULL, 0},
    {"x_passes", 1.0f, 0.0, 6.0, NULL, 0},              {"host_s", 1.0e-4f, 0.0, 3e-3, NULL, 0},
    {"step_latency_s", 0.0f, 0.0, 2e-6, NULL, 0},       END};
/* Prefill attention (FlashAttention-class, causal): a launch, the
 * achieved fraction of the tensor peak on each tile's matmuls, the
 * softmax's exponents per score on the special-function units, the
 * achieved bandwidth for Q, K, V, O and the cache write, a scheduling tail
 * (imbalance x the longest work unit), a fixed time per wave of units; the
 * kernel's tile, whether it packs a KV head's query heads into one tile
 * (PackGQA), whether it skips tiles outside a sliding window. */
static const struct param_def attention_params[] = {
    {"launch_s", 8.0e-6f, 0.0, 2e-4, NULL, 0},          {"peak_fraction", 0.6f, 0.02, 3.0, NULL, 0},
    {"exp_per_score", 1.0f, 0.0, 20.0, NULL, 0},        {"hbm_fraction", 0.8f, 0.02, 3.0, NULL, 0},
    {"imbalance", 0.5f, 0.0, 1.0, NULL, 0},             {"unit_s", 2.0e-6f, 0.0, 1e-4, NULL, 0},
    {"tile", 128.0f, 128.0, 128.0, CHOICES(tile_choices)}, {"pack_gqa", 1.0f, 1.0, 1.0, CHOICES(flag_choices)},
    {"window_skip", 1.0f, 1.0, 1.0, CHOICES(flag_choices)}, END};
/* One decode step (flash-decoding): a launch, the achieved bandwidth, the
 * bandwidth one work unit can pull alone, the achieved fraction of the
 * tensor peak on the group's padded queries, a fixed time per wave, the
 * speed-up of a cache resident in L2 (timed alone); the KV split's chunk,
 * the MMA tile the query heads pad to, the largest group one unit takes,
 * whether the split looks at the whole cache, whether the fixed time is per
 * wave of sequences. */
static const struct param_def decode_params[] = {
    {"launch_s", 8.0e-6f, 0.0, 2e-4, NULL, 0},          {"hbm_fraction", 0.8f, 0.02, 3.0, NULL, 0},
    {"unit_bytes_per_s", 1.0e11f, 1e9, 2e12, NULL, 0},  {"peak_fraction", 0.3f, 0.005, 3.0, NULL, 0},
    {"unit_s", 2.0e-6f, 0.0, 1e-4, NULL, 0},            {"l2_speedup", 1.5f, 1.0, 10.0, NULL, 0},
    {"chunk", 512.0f, 512.0, 512.0, CHOICES(chunk_choices)}, {"m_tile", 16.0f, 16.0, 16.0, CHOICES(m_tile_choices)},
    {"group_max", 1e9f, 1e9, 1e9, CHOICES(group_choices)}, {"split_full", 0.0f, 0.0, 0.0, CHOICES(flag_choices)},
    {"per_seq_units", 0.0f, 0.0, 0.0, CHOICES(flag_choices)}, END};
/* A fused MoE layer: a launch and routing time, a time per active expert
 * (its grouped-GEMM prologue), the touched experts' weights over the
 * achieved bandwidth and the padded, wave-quantised GEMM work over the
 * achieved peak (a smooth maximum, q = 4), and the rows' gather, activation
 * and combine traffic; remote is the routed-slot traffic (vLLM, TRT-LLM)
 * or, for SGLang's Triton and Marlin kernels timed alone with EP, the share
 * of the rank-0 clamp's extra rows spent. */
static const struct param_def moe_params[] = {
    {"launch_s", 2.5e-5f, 0.0, 3e-4, NULL, 0},       {"expert_s", 1.0e-7f, 0.0, 1.5e-6, NULL, 0},    {"peak_fraction", 0.5f, 0.01, 1.5, NULL, 0},
    {"hbm_fraction", 0.75f, 0.01, 1.1, NULL, 0},     {"row_passes", 2.0f, 0.0, 20.0, NULL, 0},     {"remote", 0.5f, 0.0, 10.0, NULL, 0},
    END};
/* The engine's own all-reduce: one-shot (every rank reads all peers'
 * buffers: n - 1 messages over its link) and two-shot (reduce-scatter then
 * all-gather: 2(n-1)/n of the message), each a barrier time growing as
 * n^gpus_exponent, the link shared as (n/2)^sharing_exponent; the engines
 * switch between them by size, so the faster wins (a soft minimum). */
static const struct param_def allreduce_params[] = {
    {"one_shot_s", 5.0e-6f, 0.0, 1e-3, NULL, 0},              {"two_shot_s", 1.0e-5f, 0.0, 1e-3, NULL, 0},
    {"one_shot_link_fraction", 0.4f, 1e-4, 1.5, NULL, 0},    {"two_shot_link_fraction", 0.6f, 1e-3, 1.5, NULL, 0},
    {"gpus_exponent", 0.1f, -0.5, 2.0, NULL, 0},             {"sharing_exponent", 0.0f, -1.0, 3.0, NULL, 0},
    END};
/* NCCL: a launch and a time per ring step, then the bus bytes over the
 * link in one of two protocols, LL (small messages: little latency, a
 * fraction of the bandwidth) or Simple (an extra setup, full bandwidth);
 * NCCL's tuner picks the faster (a soft minimum). */
static const struct param_def nccl_params[] = {
    {"launch_s", 8.0e-6f, 0.0, 1e-3, NULL, 0},               {"step_s", 1.0e-6f, 0.0, 1e-4, NULL, 0},
    {"ll_link_fraction", 0.2f, 1e-3, 1.5, NULL, 0},          {"simple_extra_s", 3.0e-5f, 0.0, 1e-3, NULL, 0},
    {"simple_link_fraction", 0.6f, 1e-3, 1.5, NULL, 0},      {"sharing_exponent", 0.0f, -1.0, 3.0, NULL, 0},
    END};
#undef END

static const struct param_def *params_of(enum rt_kernel_kind kind)
{
    switch (kind) {
    case RT_KERNEL_GEMM: return gemm_params;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA: return attention_params;
    case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA: return decode_params;
    case RT_KERNEL_MOE: return moe_params;
    case RT_KERNEL_ALLREDUCE: return allreduce_params;
    case RT_KERNEL_KIND_COUNT: return NULL;
    default: return nccl_params;
    }
}

int kernel_param_count(enum rt_kernel_kind kind)
{
    const struct param_def *d = params_of(kind);
    int n = 0;
    while (d && d[n].name)
        n++;
    return n;
}

const char *kernel_param_name(enum rt_kernel_kind kind, int i)
{
    return i >= 0 && i < kernel_param_count(kind) ? params_of(kind)[i].name : NULL;
}

int kernel_param_index(enum rt_kernel_kind kind, const char *name)
{
    for (int i = 0; i < kernel_param_count(kind); i++)
        if (strcmp(params_of(kind)[i].name, name) == 0)
            return i;
    return -1;
}

void kernel_default_params(enum rt_kernel_kind kind, float p[RT_KERNEL_PARAMS])
{
    int n = kernel_param_count(kind);
    for (int i = 0; i < RT_KERNEL_PARAMS; i++)
        p[i] = i < n ? params_of(kind)[i].value : 0.0f;
}

void kernel_alt_start(enum rt_kernel_kind kind, int k, float p[RT_KERNEL_PARAMS])
{
    for (int i = 0; i < kernel_param_count(kind); i++) {
        const struct param_def *d = &params_of(kind)[i];
        if (d->choices || !(d->hi > d->lo))
            continue;
        size_t len = strlen(d->name);
        bool fraction = (len > 8 && strcmp(d->name + len - 8, "fraction") == 0) ||
                        (len > 7 && strcmp(d->name + len - 7, "speedup") == 0);
        bool time = len > 2 && strcmp(d->name + len - 2, "_s") == 0;
        bool rate = len > 6 && strcmp(d->name + len - 6, "_per_s") == 0;
        double v = p[i];
        if (fraction)
            v *= k == 1 ? 1.25 : 0.65;
        else if (rate)
            v *= k == 1 ? 6.0 : 0.6;
        else if (time)
            v = v > 0.0 ? v * (k == 1 ? 0.6 : 1.8) : (k == 1 ? 0.0 : 0.1 * d->hi);
        else
            continue;
        p[i] = (float)dmin(dmax(v, d->lo), d->hi);
    }
}

int kernel_param_choices(enum rt_kernel_kind kind, int i, const float **values)
{
    *values = NULL;
    if (i < 0 || i >= kernel_param_count(kind) || !params_of(kind)[i].choices)
        return 0;
    *values = params_of(kind)[i].choices;
    return params_of(kind)[i].nchoices;
}

void kernel_param_range(enum rt_kernel_kind kind, int i, double *lo, double *hi)
{
    *lo = *hi = 0.0;
    if (i >= 0 && i < kernel_param_count(kind)) {
        *lo = params_of(kind)[i].lo;
        *hi = params_of(kind)[i].hi;
    }
}

/* ---- lookup ------------------------------------------------------------ */

static bool fit_is(const struct kernel_fit *f, enum rt_kernel_kind kind, int engine, int format, int kv)
{
    return f->kind == kind && (engine < 0 || f->engine == engine) && (format < 0 || f->format == format) &&
           (kv < 0 || f->kv_fp8 == kv);
}

/* The matching fit of family fam (RT_KFAM_ANY, or -1: the one with the most
 * rows) among fits[0..count); engine, format, kv -1 match any. */
static const struct kernel_fit *find_in(const struct kernel_fit *fits, int count, enum rt_kernel_kind kind, int engine,
                                        int format, int kv, int fam)
{
    const struct kernel_fit *best = NULL;
    for (int i = 0; i < count; i++) {
        const struct kernel_fit *f = &fits[i];
        if (!fit_is(f, kind, engine, format, kv))
            continue;
        if (fam > RT_KFAM_ANY && f->family == fam)
            return f;
        if (!best || f->rows > best->rows)
            best = f;
    }
    return best;
}

/* find_in over the view's fits of that kind, then its second sibling's. */
static const struct kernel_fit *find_fit(const struct kernel_view *v, enum rt_kernel_kind kind, int engine, int format,
                                         int kv, int fam)
{
    if (!v)
        return NULL;
    const struct kernel_fit *f = v->fits ? find_in(v->fits + v->lo[kind], v->hi[kind] - v->lo[kind], kind, engine,
                                                   format, kv, fam)
                                         : NULL;
    return f || !v->fits2 ? f : find_in(v->fits2 + v->lo2[kind], v->hi2[kind] - v->lo2[kind], kind, engine, format, kv,
                                        fam);
}

void kernel_view_index(struct kernel_view *v)
{
    for (int k = 0; k < RT_KERNEL_KIND_COUNT; k++) {
        v->lo[k] = v->lo2[k] = 255;
        v->hi[k] = v->hi2[k] = 0;
    }
    for (int i = 0; i < v->count && v->fits && i < 255; i++) {
        int k = v->fits[i].kind < RT_KERNEL_KIND_COUNT ? v->fits[i].kind : 0;
        v->lo[k] = v->lo[k] < i ? v->lo[k] : (uint8_t)i;
        v->hi[k] = v->hi[k] > i + 1 ? v->hi[k] : (uint8_t)(i + 1);
    }
    for (int i = 0; i < v->count2 && v->fits2 && i < 255; i++) {
        int k = v->fits2[i].kind < RT_KERNEL_KIND_COUNT ? v->fits2[i].kind : 0;
        v->lo2[k] = v->lo2[k] < i ? v->lo2[k] : (uint8_t)i;
        v->hi2[k] = v->hi2[k] > i + 1 ? v->hi2[k] : (uint8_t)(i + 1);
    }
    for (int k = 0; k < RT_KERNEL_KIND_COUNT; k++) {
        if (v->lo[k] > v->hi[k])
            v->lo[k] = v->hi[k] = 0;
        if (v->lo2[k] > v->hi2[k])
            v->lo2[k] = v->hi2[k] = 0;
    }
}

/* Formats measured as stand-ins for one without rows of its own, nearest first. */
static int near_format(enum rt_kernel_format f, int i)
{
    static const int8_t near[RT_KF_COUNT][3] = {
        [RT_KF_BF16] = {-1, -1, -1},
        [RT_KF_FP8] = {RT_KF_FP8_BLOCK, RT_KF_INT8, -1},
        [RT_KF_FP8_BLOCK] = {RT_KF_FP8, -1, -1},
        [RT_KF_NVFP4] = {RT_KF_MXFP4, -1, -1},
        [RT_KF_MXFP4] = {RT_KF_NVFP4, -1, -1},
        [RT_KF_INT8] = {RT_KF_FP8, -1, -1},
        [RT_KF_INT8_WO] = {RT_KF_INT4_WO, RT_KF_BF16, -1},
        [RT_KF_INT4_WO] = {RT_KF_MXFP4_WO, RT_KF_INT8_WO, RT_KF_BF16},
        [RT_KF_MXFP4_WO] = {RT_KF_INT4_WO, RT_KF_BF16, -1},
        [RT_KF_MXFP4_A8] = {RT_KF_FP8, RT_KF_FP8_BLOCK, -1},
        [RT_KF_FP8_WO] = {RT_KF_INT8_WO, RT_KF_BF16, -1},
    };
    return ((int)f >= 0 && f < RT_KF_COUNT && i >= 0 && i < 3) ? near[f][i] : -1;
}

bool kernel_kind_is_attention(enum rt_kernel_kind k)
{
    return k == RT_KERNEL_ATTENTION || k == RT_KERNEL_DECODE_ATTENTION || k == RT_KERNEL_MLA ||
           k == RT_KERNEL_DECODE_MLA;
}

bool kernel_kind_is_nccl(enum rt_kernel_kind k)
{
    return k >= RT_KERNEL_NCCL_ALLREDUCE && k <= RT_KERNEL_NCCL_ALLTOALL;
}

bool kernel_kind_is_collective(enum rt_kernel_kind k)
{
    return k == RT_KERNEL_ALLREDUCE || kernel_kind_is_nccl(k);
}

const char *kernel_engine_label(enum rt_kernel_kind k, enum rt_kernel_engine e)
{
    return kernel_kind_is_nccl(k) ? "nccl" : kernel_engine_name(e);
}

const struct kernel_fit *kernel_fit_lookup(const struct kernel_view *prof, const struct kernel_shape *s,
                                           enum rt_kernel_engine e, enum rt_kernel_source *src)
{
    enum rt_kernel_source own = prof && prof->measured ? RT_KSRC_MEASURED : RT_KSRC_BORROWED;
    enum rt_kernel_source near = own == RT_KSRC_MEASURED ? RT_KSRC_NEAR : RT_KSRC_BORROWED;
    int kv = kernel_kind_is_attention(s->kind) ? (s->kv_fp8 ? 1 : 0) : -1;
    int engine = kernel_kind_is_nccl(s->kind) ? -1 : (int)e;
    int format = kernel_kind_is_nccl(s->kind) ? -1 : (int)s->format;
    int fam = (int)s->family;
    /* Each step widens the search; every step past the first is a stand-in. */
    const struct kernel_fit *f = find_fit(prof, s->kind, engine, format, kv, fam);
    if (f && fam > RT_KFAM_ANY && f->family != fam)
        own = near; /* the engine's usual kernel for the work, not the family asked for */
    if (!f && kv >= 0) /* the other KV precision of the same engine */
        f = find_fit(prof, s->kind, engine, format, -1, fam), own = f ? near : own;
    if (!f) /* another engine's kernels for the same work */
        f = find_fit(prof, s->kind, -1, format, kv, fam), own = f ? near : own;
    for (int i = 0; !f && i < 3 && near_format(s->format, i) >= 0; i++)
        f = find_fit(prof, s->kind, engine, near_format(s->format, i), -1, -1), own = f ? near : own;
    for (int i = 0; !f && i < 3 && near_format(s->format, i) >= 0; i++)
        f = find_fit(prof, s->kind, -1, near_format(s->format, i), -1, -1), own = f ? near : own;
    if (src)
        *src = f ? own : RT_KSRC_DEFAULT;
    return f;
}

/* ---- the models -------------------------------------------------------- */

static double rate_of(const struct kernel_chip *c, enum rt_kernel_format f)
{
    double p = c->peak_flops_per_s[kernel_format_rate(f)];
    return p > 0.0 ? p : c->peak_flops_per_s[RT_RATE_BF16];
}

static void add_why(struct kernel_estimate *out, int code, double a, double b, double c)
{
    if (out && out->why_count < RT_KERNEL_REASONS_MAX) {
        struct kernel_reason *r = &out->why[out->why_count++];
        r->code = (uint8_t)code;
        r->a = a;
        r->b = b;
        r->c = c;
    }
}

/* What a GEMM kernel of an engine runs and, timed alone, what its
 * collector replays (AIConfigurator's collect_gemm*.py, read for each
 * engine and format): a separate activation-quantisation kernel before it
 * (fp8, fp8_block, nvfp4, the W4A4/W4A8 formats), how many copies of the
 * operands the timed loop cycles through (the L2's reuse distance),
 * whether it runs without CUDA graphs (vLLM's fp8_block: the host's launch
 * path can bind), whether the library splits K (cuBLAS for bf16 and TRT-LLM's
 * fp8 and nvfp4, the weight-only and SmoothQuant plugins; not CUTLASS's fp8,
 * DeepGEMM, FlashInfer, Triton or CuTe-DSL), and whether the tile comes from
 * M alone (vLLM's and sgl-kernel's sm90 fp8 dispatch). */
enum gemm_copies { COPIES_COLD = 0, COPIES_TRT5, COPIES_W6, COPIES_ONE, COPIES_ALL6 };

struct gemm_recipe {
    bool quant, eager, splitk, mbucket;
    enum gemm_copies copies;
};

static struct gemm_recipe gemm_recipe_of(const struct kernel_shape *s)
{
    enum rt_kernel_format f = s->format;
    enum rt_kernel_engine e = s->engine;
    struct gemm_recipe r;
    /* The input's quantiser is a kernel of its own, timed with the GEMM (its passes over the input).
     * Timed alone, the collector also launches it and its dynamic-scale kernels from Python, which the
     * fitted launch carries; in a forward pass, captured in a CUDA graph, the two kernels launch as
     * plain ones (kernel_estimate and the realistic estimate give them two plain GEMMs' launches). */
    r.quant = kernel_format_quantises_input(f);
    bool plugin = f == RT_KF_INT8 || f == RT_KF_INT8_WO || f == RT_KF_INT4_WO || f == RT_KF_MXFP4_WO || f == RT_KF_FP8_WO;
    r.eager = s->warm_cache && e == RT_KE_VLLM && f == RT_KF_FP8_BLOCK;
    r.splitk = f == RT_KF_BF16 || plugin || ((f == RT_KF_FP8 || f == RT_KF_NVFP4) && e == RT_KE_TRTLLM);
    r.mbucket = f == RT_KF_FP8 && (e == RT_KE_VLLM || e == RT_KE_SGLANG);
    if (!s->warm_cache)
        r.copies = COPIES_COLD; /* in a forward pass: each layer's weights once, its input just written */
    else if (e == RT_KE_TRTLLM)
        r.copies = plugin ? COPIES_COLD : COPIES_TRT5;
    else if (e == RT_KE_VLLM)
        r.copies = f == RT_KF_FP8_BLOCK || f == RT_KF_NVFP4 ? COPIES_ONE : COPIES_W6;
    else
        r.copies = COPIES_ALL6;
    return r;
}

bool kernel_format_quantises_input(enum rt_kernel_format f)
{
    return f == RT_KF_FP8 || f == RT_KF_FP8_BLOCK || f == RT_KF_NVFP4 || f == RT_KF_MXFP4 || f == RT_KF_MXFP4_A8;
}

bool kernel_param_used(const struct kernel_shape *s, int i)
{
    if (s->kind != RT_KERNEL_GEMM)
        return i < kernel_param_count(s->kind);
    struct gemm_recipe r = gemm_recipe_of(s);
    switch (i) {
    case 5: return !r.splitk;                 /* wave_s: non-persistent kernels */
    case 6: return r.splitk;                  /* split_s */
    case 7: return r.quant;                   /* row_wave_s */
    case 8: return r.quant && !r.eager;       /* x_passes */
    case 9: return r.eager;                   /* host_s */
    case 10: return !r.quant;                 /* step_latency_s */
    default: return i >= 0 && i < 5;
    }
}

/* The tiles a library chooses among (BM x BN), and the split-K factors. */
static const double gemm_tiles[][2] = {{64, 64}, {64, 128}, {64, 256}, {128, 64}, {128, 128}, {128, 256}, {256, 128},
                                       {16, 64}};
#define GEMM_SPLIT_MAX 64.0
#define GEMM_STREAMK_WAVES 4.0   /* stream-K is considered for a few waves of tiles */
#define GEMM_KSTEP_BYTES 128.0   /* a main-loop step moves 128 bytes of K a row (64 bf16, 128 fp8) */
#define GEMM_POWER_TAU_S 0.1     /* the clock's power-management time constant */
#define GEMM_REPLAYS 12.0        /* warm-up and timed graph replays the collector runs back to back */

/* vLLM's sm90 fp8 dispatch (csrc/.../scaled_mm_sm90_fp8_dispatch.cuh, which sgl-kernel adapts): the tile
 * from M alone, as an index into gemm_tiles. */
static int mbucket_tile(double m, double n)
{
    if (m <= 16.0)
        return 7;
    if (m <= 64.0)
        return n <= 1280.0 ? 7 : 0;
    return m <= 128.0 ? 1 : 4;
}

/* The share of reuses that hit in L2 for reuse distance d bytes. */
static double l2_hits(double d, const struct kernel_chip *c)
{
    if (!(c->l2_bytes > 0.0) || !(d < 1e29))
        return 0.0;
    double usable = c->l2_usable * c->l2_bytes, x = d / usable;
    double xs = c->l2_sharpness == 4.0 ? (x * x) * (x * x) : c->l2_sharpness == 8.0 ? ((x * x) * (x * x)) * ((x * x) * (x * x))
                                                                             : pow(x, c->l2_sharpness);
    return 1.0 / (1.0 + xs);
}

static double gemm_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p, double cd,
                        double md, struct kernel_estimate *out)
{
    const double eta_c = p[0] * cd, eta_m = p[1] * md, rho = p[2], bwsm = p[3], t0 = p[4], ttile = p[5];
    const double tsk = p[6], trow = p[7], xpass = p[8], thost = p[9], tlat = p[10];
    struct gemm_recipe rc = gemm_recipe_of(s);
    const double M = s->m, N = s->n, K = s->k;
    double ea = kernel_format_act_bytes(s->format), ew = kernel_format_weight_bytes(s->format);
    double P = rate_of(c, s->format), BW = c->hbm_bytes_per_s, SM = c->sm_count > 0.0 ? c->sm_count : 1.0;
    double BK = GEMM_KSTEP_BYTES / dmin(ea, ew);
    /* reuse distances of the weight and the input in what is timed */
    double W = N * K * ew, X = M * K * 2.0 + (rc.quant ? M * K * ea : 0.0), Y = M * N * 2.0, one = W + X + Y;
    double coll_wb = s->format == RT_KF_BF16 ? 2.0 : s->format == RT_KF_NVFP4 ? 0.5 : 1.0;
    double copies = 1.0, dw, dx;
    switch (rc.copies) {
    case COPIES_TRT5:
        copies = dmin(5.0, dmax(1.0, ceil_pos(c->l2_bytes / (N * K * coll_wb))));
        dw = copies * W + X + Y, dx = one;
        break;
    case COPIES_W6: copies = 6.0, dw = 6.0 * W + X + Y, dx = one; break;
    case COPIES_ONE: dw = dx = one; break;
    case COPIES_ALL6: copies = 6.0, dw = dx = 6.0 * (W + X) + Y; break;
    default: dw = 1e30, dx = X + Y; break;
    }
    double rw = l2_hits(dw, c), rx = l2_hits(dx, c);
    double inv_w = rw / (rho * BW) + (1.0 - rw) / (eta_m * BW), inv_x = rx / (rho * BW) + (1.0 - rx) / (eta_m * BW);
    double write = c->write_fraction > 0.0 ? c->write_fraction : eta_m;
    double inv_y = c->l2_keeps_output ? rx / (rho * BW) + (1.0 - rx) / (write * BW) : 1.0 / (write * BW);
    double per_sm = eta_c * P / SM;
    double power = s->warm_cache ? c->power_drop : 0.0;
    double best = INFINITY, best_tiles = 1, best_split = 1, best_fill = 1;
    int forced = rc.mbucket ? mbucket_tile(M, N) : -1;
    /* Bytes that every candidate moves alike: the weight, the input, the output. */
    double base_mem = N * K * ew * inv_w + M * K * ea * inv_x + Y * inv_y, partial_cost = M * N * 4.0 * inv_x;
    const double l2_rate = rho * BW;
    for (int t = 0; t < (int)(sizeof gemm_tiles / sizeof gemm_tiles[0]); t++) {
        if (forced >= 0 ? t != forced : t == 7) /* the 16 x 64 swap-AB tile belongs to the fp8 dispatch */
            continue;
        double tm = gemm_tiles[t][0], tn = gemm_tiles[t][1];
        double tiles = ceil_pos(M / tm) * ceil_pos(N / tn), bcta = (tm * ea + tn * ew) * BK, fst = 2.0 * tm * tn * BK;
        double load = tlat + bcta / bwsm, math = fst / per_sm, lower = load > math ? load : math;
        if (base_mem >= best) /* no candidate of any tile beats the bytes every one moves */
            break;
        /* Nor one of this tile beats its work spread evenly over the SMs (each split or stream-K runs the
         * same tiles x K-steps at no less than `lower` a step): skip it whole. */
        double ks = ceil_pos(K / BK), spread = tiles * ks * lower / SM;
        if (spread * spread + base_mem * base_mem >= best * best)
            continue;
        /* Candidates: no split; the two split-K factors (powers of two) that bring the tiles nearest one
         * wave from below (a smaller split leaves SMs idle, a larger one is not allowed); stream-K. */
        double splits[4] = {1.0, 0.0, 0.0, 0.0};
        int nc = 1;
        if (rc.splitk && tiles < SM) {
            double s_hi = 1.0;
            while (s_hi * 2.0 * tiles <= SM && s_hi * 2.0 <= GEMM_SPLIT_MAX)
                s_hi *= 2.0;
            if (s_hi > 1.0)
                splits[nc++] = s_hi;
            if (s_hi > 2.0)
                splits[nc++] = s_hi / 2.0;
        }
        bool streamk = rc.splitk && tiles < SM * GEMM_STREAMK_WAVES && ks >= 4.0;
        if (streamk)
            splits[nc++] = -1.0;
        for (int ci = 0; ci < nc; ci++) {
            double split = splits[ci], waves, steps, active, partials;
            if (split < 0.0) {
                waves = 1.0, steps = ceil_pos(tiles * ks / SM), active = SM, partials = 2.0;
            } else {
                double kc = ceil_pos(K / split);
                if (split > 1.0 && kc < 2.0 * BK)
                    continue;
                double ctas = tiles * split;
                waves = ceil_pos(ctas / SM), steps = ceil_pos(kc / BK), active = ctas < SM ? ctas : SM;
                partials = split > 1.0 ? 2.0 * split : 0.0;
            }
            double feed = bcta * active / l2_rate, t_step = lower > feed ? lower : feed;
            double tc = waves * (steps * t_step + ttile);
            if (power > 0.0) { /* the clock drops under sustained load over the collector's back-to-back run */
                double run = GEMM_REPLAYS * copies * tc;
                tc *= 1.0 + power * run / (run + GEMM_POWER_TAU_S);
            }
            double tmem = base_mem + partials * partial_cost;
            double tt = sqrt(tc * tc + tmem * tmem) + (split != 1.0 ? tsk : 0.0);
            if (tt < best) {
                best = tt, best_tiles = tiles * (split < 0.0 ? 1.0 : split), best_split = split < 0.0 ? 0.0 : split;
                best_fill = split < 0.0 ? 1.0 : tiles * split / (ceil_pos(tiles * split / SM) * SM);
            }
        }
    }
    double tq = rc.quant ? dmax(ceil_pos(M / SM) * trow, M * K * (2.0 * xpass + ea) * inv_x) : 0.0;
    double t = t0 + tq + best;
    if (rc.eager) /* the host's launch path, smoothly the larger */
        t = pow(pow(t, 8.0) + pow(thost, 8.0), 0.125);
    if (out) {
        double flops = 2.0 * M * N * K;
        out->compute_s = flops / (eta_c * P);
        out->memory_s = (W + M * K * ea) / (eta_m * BW) + Y / (write * BW) + tq; /* the quantiser streams X */
        out->fixed_s = t0;
        if (tq > 0.05 * t)
            add_why(out, RT_KWHY_QUANTISER, tq, tq / t, 0);
        out->peak_flops_per_s = P;
        if (c->sm_count > 0.0)
            add_why(out, RT_KWHY_WAVES, best_tiles, c->sm_count, best_fill);
        if (best_split > 1.0)
            add_why(out, RT_KWHY_SPLIT_K, best_split, 0, 0);
        if (rw > 0.05)
            add_why(out, RT_KWHY_L2, rw, 0, 0);
        bool compute = out->compute_s >= out->memory_s;
        add_why(out, compute ? RT_KWHY_PEAK : RT_KWHY_BANDWIDTH, compute ? eta_c : eta_m, P, 0);
    }
    return t;
}

/* Query-key pairs per head of a causal prompt of seq tokens, inside a window (0 = full). */
static double causal_pairs(double seq, double window)
{
    if (window > 0.0 && window < seq)
        return window * (window + 1.0) / 2.0 + (seq - window) * window;
    return seq * (seq + 1.0) / 2.0;
}

/* DeepSeek-V3's latent attention (config.json): kv_lora_rank 512, rope 64,
 * nope 128, v head 128. */
#define MLA_LORA 512.0
#define MLA_ROPE 64.0
#define MLA_NOPE 128.0
#define MLA_V 128.0

/* An attention kernel's geometry as the engine runs it: the heads each work
 * unit covers, head dims, and any work the timed op does besides (vLLM's
 * latent up-projection or absorption GEMMs, the latent cache write). */
struct attn_geometry {
    double kv_heads, dqk, dv;
    double extra_flops, extra_bytes;
    double kv_bytes_per_element; /* the cache as the kernel reads it */
};

/* The engines' MLA kernels (AIConfigurator's collectors; vLLM and
 * TensorRT-LLM up-project K and V per head for a prefill, SGLang's
 * trtllm_mla shares one K/V head, its FlashAttention and Triton paths attend
 * over the absorbed latent; decode reads the 576-wide latent once for all
 * heads, vLLM adding its absorption GEMMs; SGLang's FlashAttention decode
 * dequantises an fp8 latent to bf16 first). */
static struct attn_geometry attn_geometry_of(const struct kernel_shape *s)
{
    struct attn_geometry g = {s->kv_heads, s->head_dim, s->head_dim, 0.0, 0.0, s->kv_fp8 ? 1.0 : 2.0};
    double b = s->batch, h = s->heads;
    if (s->kind == RT_KERNEL_MLA) {
        bool latent = s->engine == RT_KE_SGLANG && (s->family == RT_KFAM_FLASH_ATTN || s->family == RT_KFAM_TRITON);
        g.kv_heads = s->engine == RT_KE_SGLANG ? 1.0 : h;
        g.dqk = latent ? MLA_LORA + MLA_ROPE : MLA_NOPE + MLA_ROPE;
        g.dv = latent ? MLA_LORA : MLA_V;
        if (s->engine == RT_KE_VLLM) { /* kv_b_proj inside the timed op */
            g.extra_flops = 2.0 * b * s->seq * MLA_LORA * h * (MLA_NOPE + MLA_V);
            g.extra_bytes = 2.0 * (b * s->seq * h * (MLA_NOPE + MLA_V) + MLA_LORA * h * (MLA_NOPE + MLA_V) +
                                   b * s->seq * MLA_LORA);
        }
        g.extra_bytes += b * s->seq * (MLA_LORA + MLA_ROPE) * g.kv_bytes_per_element; /* the latent written */
    } else if (s->kind == RT_KERNEL_DECODE_MLA) {
        g.kv_heads = 1.0;
        g.dqk = MLA_LORA + MLA_ROPE;
        g.dv = MLA_LORA;
        if (s->kv_fp8 && s->engine == RT_KE_SGLANG && s->family == RT_KFAM_FLASH_ATTN)
            g.kv_bytes_per_element = 5.0; /* read 1, write 2, read 2: dequantised before it is attended */
        if (s->engine == RT_KE_VLLM) {
            g.extra_flops = 2.0 * b * h * MLA_NOPE * MLA_LORA * 2.0;
            g.extra_bytes = 2.0 * (2.0 * h * MLA_NOPE * MLA_LORA) + 2.0 * b * h * (MLA_NOPE + MLA_LORA + MLA_V + MLA_LORA);
        }
    }
    return g;
}

static double cdiv(double a, double b)
{
    return ceil_pos(a / b);
}

static double attention_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p, double cd,
                             double md, struct kernel_estimate *out)
{
    const double launch = p[0], eta = p[1] * cd, exp_cost = p[2], hbm = p[3] * md, imbalance = p[4], unit_s = p[5];
    const double B = p[6];
    struct attn_geometry g = attn_geometry_of(s);
    double G = s->heads / g.kv_heads;
    bool pack = p[7] > 0.5f && G > 1.0;
    double Gp = pack ? G : 1.0, heads = pack ? g.kv_heads : s->heads, seq = s->seq;
    double W = p[8] > 0.5f ? s->window : 0.0;
    double nq = cdiv(seq * Gp, B), r = B / Gp, units = s->batch * heads * nq;
    double a_full = dmax(1.0, (seq / B) * (1.0 + 1.0 / nq) / 2.0), a = a_full, longest = cdiv(seq, B);
    if (W > 0.0) {
        double a_win = dmax(1.0, cdiv(dmin(W, seq) + dmin(r, seq), B));
        a = dmin(a_full, a_win);
        longest = dmin(longest, a_win);
    }
    double tiles = units * a, sms = c->sm_count > 0.0 ? c->sm_count : 1.0;
    bool fp8 = s->format == RT_KF_FP8;
    double peak = fp8 && c->peak_flops_per_s[RT_RATE_FP8] > 0.0 ? c->peak_flops_per_s[RT_RATE_FP8]
                                                                 : c->peak_flops_per_s[RT_RATE_BF16];
    double exp_rate = c->exp_per_s > 0.0 ? c->exp_per_s : INFINITY;
    double t_tile = B * B * 2.0 * (g.dqk + g.dv) / (eta * peak / sms) + B * B * exp_cost / (exp_rate / sms);
    double compute = dmax(longest, tiles / sms + imbalance * longest) * t_tile + cdiv(units, sms) * unit_s +
                     g.extra_flops / (eta * c->peak_flops_per_s[RT_RATE_BF16]);
    double act = fp8 ? 1.0 : 2.0;
    double bytes = s->batch * seq * (s->heads * (g.dqk + g.dv) * act + g.kv_heads * (g.dqk + g.dv) * (2.0 + g.kv_bytes_per_element)) +
                   g.extra_bytes;
    double memory = bytes / (hbm * c->hbm_bytes_per_s);
    if (out) {
        out->compute_s = compute;
        out->memory_s = memory;
        out->fixed_s = launch;
        out->peak_flops_per_s = peak;
        add_why(out, RT_KWHY_WAVES, units, sms, units / (cdiv(units, sms) * sms));
        add_why(out, RT_KWHY_PEAK, eta, peak, 0);
    }
    return launch + compute + memory;
}

static double decode_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p, double cd,
                          double md, struct kernel_estimate *out)
{
    const double launch = p[0], hbm = p[1] * md, unit_bw = p[2], eta = p[3] * cd, unit_s = p[4], l2 = p[5];
    const double chunk = p[6], m_tile = p[7], group_max = p[8];
    const bool split_full = p[9] > 0.5f, per_seq = p[10] > 0.5f;
    struct attn_geometry g = attn_geometry_of(s);
    double sms = c->sm_count > 0.0 ? c->sm_count : 1.0, b = s->batch, kv = g.kv_heads, h = s->heads;
    double L = s->window > 0.0 && s->window < s->kv_len ? s->window : s->kv_len;
    bool mla = s->kind == RT_KERNEL_DECODE_MLA;
    /* FlashAttention-2 packs a KV head's query heads and splits the cache only without a window, and not for
     * MHA (its seqlenq_ngroups_swapped decode path) */
    bool fa2 = !mla && (s->family == RT_KFAM_FA2 || s->family == RT_KFAM_FLASH_ATTN) && s->engine == RT_KE_VLLM;
    bool nopack = fa2 && s->window > 0.0, nosplit = fa2 && (s->window > 0.0 || h == kv);
    double G = h / kv, q = s->queries > 1.0 ? s->queries : 1.0;
    bool per_head = G > group_max || nopack;
    double hu = per_head ? h : kv, bk = b * hu;
    double Ls = split_full ? s->kv_len : L;
    /* split the cache in chunks of about `chunk` tokens, the units filling one wave at most (flash-decoding's
     * heuristic; the split is even, so one more cached token never makes a step faster) */
    double nsplit = nosplit ? 1.0 : dmin(dmax(floor(sms / bk), 1.0), dmax(1.0, Ls / chunk));
    double units = bk * nsplit, waves = cdiv(units, sms), util = units / (waves * sms);
    double kv_bytes = mla ? b * L * (MLA_LORA + MLA_ROPE) * g.kv_bytes_per_element
                          : b * kv * L * (g.dqk + g.dv) * g.kv_bytes_per_element;
    double qo_bytes = b * h * q * (g.dqk + g.dv) * 2.0;
    double reread = hu / kv; /* each query head re-reads its KV when a unit takes one head */
    double bytes = kv_bytes * reread + qo_bytes;
    double hit = s->warm_cache && c->l2_bytes > 0.0 ? dmin(1.0, c->l2_bytes / dmax(kv_bytes, 1.0)) : 0.0;
    double memory = dmax(bytes * (hit / l2 + (1.0 - hit)) / (hbm * c->hbm_bytes_per_s),
                         waves * (kv_bytes * reread / units) / unit_bw);
    double Gu = (per_head ? 1.0 : G) * q, Gpad = cdiv(Gu, m_tile) * m_tile; /* verified drafts: more queries a unit */
    double peak = c->peak_flops_per_s[RT_RATE_BF16];
    double compute = 2.0 * bk * Gpad * L * (g.dqk + g.dv) / (eta * peak) / util;
    double extra = g.extra_flops / (eta * peak) + g.extra_bytes / (hbm * c->hbm_bytes_per_s);
    double fixed = launch + (per_seq ? cdiv(bk, sms) : waves) * unit_s;
    if (out) {
        out->compute_s = compute;
        out->memory_s = memory + extra;
        out->fixed_s = fixed;
        out->peak_flops_per_s = peak;
        add_why(out, RT_KWHY_WAVES, units, sms, util);
        if (hit > 0.05)
            add_why(out, RT_KWHY_L2, hit, 0, 0);
        add_why(out, RT_KWHY_BANDWIDTH, hbm, 0, 0);
    }
    return fixed + dmax(memory, compute) + extra;
}

/* Routing statistics of the chip a MoE benchmark times (AIConfigurator's
 * collectors time expert-parallel rank 0, the busiest rank under skew):
 * rows it computes, experts it touches, padded M tiles, tokens that reach
 * it. Closed forms of the collectors' routing: balanced, stride ceil(E/k);
 * power law, E draws from p(x) ~ x^-alpha on [1, 0.8 T] (on [0.01, 2] when
 * T k <= E), scaled to T k and capped at T an expert, the busiest rank the
 * larger of the rank holding the top expert and a Gaussian maximum over the
 * ep ranks (Blom's approximation of its mean, Abramowitz-Stegun 26.2.23). */
struct moe_routing {
    double rows;        /* (token, expert) pairs this chip computes */
    double active;      /* local experts with at least one row */
    double tokens;      /* tokens with at least one local row */
};

static double power_mean(double alpha, double a, double b, double r)
{
    double c = (1.0 - alpha) / (pow(b, 1.0 - alpha) - pow(a, 1.0 - alpha)), e = r + 1.0 - alpha;
    return fabs(e) > 1e-12 ? c * (pow(b, e) - pow(a, e)) / e : c * log(b / a);
}

static double expected_max_normal(double m)
{
    if (m <= 1.0)
        return 0.0;
    double p = 1.0 - (m - 0.375) / (m + 0.25), t = sqrt(-2.0 * log(p));
    return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
}

static struct moe_routing moe_route(const struct kernel_shape *s)
{
    struct moe_routing r;
    double T = s->tokens, k = s->topk, E = s->experts, ep = s->moe_ep, L = floor(E / ep), Tk = T * k;
    if (L < 1.0)
        L = 1.0;
    if (!(s->skew > 0.0)) {
        r.rows = dmin(dmax(1.0, Tk * L / E), Tk);
        r.active = dmin(L, r.rows);
        double hits = dmax(1.0, L / ceil_pos(E / k));
        r.tokens = dmin(T, r.rows / hits);
        return r;
    }
    double alpha = s->skew, a = Tk > E ? 1.0 : 0.01, b = Tk > E ? 0.8 * T : 2.0;
    if (b <= a)
        b = a * 1.0001;
    double m1 = power_mean(alpha, a, b, 1.0), m2 = power_mean(alpha, a, b, 2.0);
    double sd = sqrt(dmax(m2 - m1 * m1, 0.0)), scale = Tk / (E * m1);
    double span = pow(b, 1.0 - alpha) - pow(a, 1.0 - alpha);
    double top = pow(span * (1.0 - 0.5 / E) + pow(a, 1.0 - alpha), 1.0 / (1.0 - alpha)); /* the largest draw */
    double busiest = dmin(T, top * scale);
    if (ep <= 1.0) {
        r.rows = Tk;
    } else {
        double with_top = busiest + (L - 1.0) * (Tk - busiest) / dmax(E - 1.0, 1.0);
        double gaussian = L * Tk / E + expected_max_normal(ep) * sqrt(L) * sd * scale;
        r.rows = dmin(dmin(dmax(dmax(with_top, gaussian), dmax(L * Tk / E, ceil_pos(Tk / ep))), L * T), Tk);
    }
    double x = dmin(dmax(0.5 / scale, a), b); /* a draw below half a token rounds to none */
    double p_active = 1.0 - (pow(x, 1.0 - alpha) - pow(a, 1.0 - alpha)) / span;
    r.active = dmin(L, dmax(1.0, 1.0 + (L - 1.0) * p_active));
    r.active = dmax(dmin(r.active, r.rows), ceil_pos(r.rows / T));
    r.tokens = dmin(T, r.rows) * (1.0 - 0.2 * dmin(1.0, r.rows / T));
    return r;
}

/* Padded M tiles of tm rows over `active` experts holding `rows`: exact for
 * even counts, else each expert's last tile half full on average. */
static double moe_tiles(double rows, double active, double tm, bool even)
{
    if (active <= 0.0)
        return 0.0;
    if (even)
        return active * ceil_pos(rows / active / tm - 1e-9);
    return dmax(active, rows / tm + 0.5 * active * (1.0 - 1.0 / tm));
}

/* The smallest and largest M tile a kernel library's grouped GEMM uses. */
static void moe_tile_policy(enum rt_kernel_family f, double *lo, double *hi)
{
    switch (f) {
    case RT_KFAM_MARLIN: *lo = 16, *hi = 64; break;
    case RT_KFAM_TRTLLM: case RT_KFAM_DEFAULT: case RT_KFAM_NONGATED: *lo = 8, *hi = 128; break;
    case RT_KFAM_DEEPGEMM: *lo = 64, *hi = 128; break;
    case RT_KFAM_FLASHINFER: *lo = 128, *hi = 128; break;
    default: *lo = 16, *hi = 128; break;
    }
}

/* The grouped GEMMs' wave- and padding-quantised FLOPs and the rows' bytes. */
static void moe_gemm(const struct kernel_shape *s, double rows, double active, double width, bool gated, bool even,
                     double sms, double *flops, double *row_bytes, double *tm_out)
{
    double lo, hi;
    moe_tile_policy(s->family, &lo, &hi);
    double per = dmax(rows, 1.0) / dmax(active, 1.0);
    double tm = dmin(dmax(pow(2.0, ceil_pos(log2(dmax(per, 1.0)))), lo), hi);
    double tiles = dmax(moe_tiles(rows, active, tm, even), 1.0);
    double n_up = (gated ? 2.0 : 1.0) * width, bn = 128.0;
    double up = tiles * ceil_pos(n_up / bn), down = tiles * ceil_pos(s->hidden / bn);
    double waves_sms = sms > 0.0 ? sms : 1.0;
    *flops = (ceil_pos(up / waves_sms) * 2.0 * tm * bn * s->hidden + ceil_pos(down / waves_sms) * 2.0 * tm * bn * width) *
             waves_sms;
    if (!(sms > 0.0))
        *flops = 2.0 * tiles * tm * (n_up * s->hidden + s->hidden * width);
    *row_bytes = dmax(rows, 0.0) * (s->hidden * kernel_format_act_bytes(s->format) + 2.0 * s->hidden +
                                    2.0 * (gated ? 3.0 : 2.0) * width);
    *tm_out = tm;
}

static double moe_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p, double cd,
                       double md, struct kernel_estimate *out)
{
    const double launch = p[0], expert_s = p[1], peak_fraction = p[2] * cd, hbm = p[3] * md, passes = p[4];
    const double remote = p[5];
    bool gated = s->family != RT_KFAM_NONGATED, even = !(s->skew > 0.0);
    double width = s->inter / s->moe_tp, mats = gated ? 3.0 : 2.0;
    struct moe_routing r = moe_route(s);
    double active = dmax(r.active, 1.0), flops, row_bytes, tm;
    moe_gemm(s, r.rows, active, width, gated, even, c->sm_count, &flops, &row_bytes, &tm);
    double weights = active * mats * s->hidden * width * kernel_format_weight_bytes(s->format);
    double routed = 0.0;
    /* SGLang's collector feeds rank 0 only its own tokens and clamps their remote slots onto expert 0:
     * that expert computes the extra rows (a benchmark's artefact, not serving's). */
    bool clamp = s->rank0_only && s->moe_ep > 1.0 && (s->family == RT_KFAM_TRITON || s->family == RT_KFAM_MARLIN);
    if (clamp) {
        double rows_cl = dmax(r.rows, r.tokens * s->topk), extra = rows_cl - r.rows, f2, b2, t2;
        if (extra > 0.0) {
            moe_gemm(s, rows_cl, active, width, gated, false, c->sm_count, &f2, &b2, &t2);
            flops += remote * (f2 - flops);
            row_bytes += remote * (b2 - row_bytes);
        }
    } else {
        double slots = (s->rank0_only && s->moe_ep > 1.0 ? r.tokens : s->tokens) * s->topk;
        routed = remote * slots * 2.0 * s->hidden;
    }
    double peak = rate_of(c, s->format);
    double compute = flops / (peak * peak_fraction);
    double memory = weights / (c->hbm_bytes_per_s * hbm);
    double traffic = (passes * row_bytes + routed) / c->hbm_bytes_per_s;
    double fixed = launch + expert_s * active;
    double c2 = compute * compute, m2 = memory * memory;
    double t = fixed + sqrt(sqrt(c2 * c2 + m2 * m2)) + traffic; /* (compute^4 + memory^4)^(1/4) */
    if (out) {
        out->compute_s = compute;
        out->memory_s = memory + traffic;
        out->fixed_s = fixed;
        out->peak_flops_per_s = peak;
        add_why(out, RT_KWHY_EXPERTS, active, r.rows / active, 0);
        add_why(out, compute >= memory ? RT_KWHY_PEAK : RT_KWHY_BANDWIDTH, compute >= memory ? peak_fraction : hbm,
                peak, 0);
    }
    return t;
}

/* Collective steps and the share of the message each chip sends per byte
 * of it: ring all-reduce 2(n-1) steps, 2(n-1)/n; all-gather and
 * reduce-scatter n-1, (n-1)/n; all-to-all n-1, (n-1)/n (Thakur et al. 2005). */
static void collective_shape(enum rt_kernel_kind k, double n, double *steps, double *factor)
{
    bool allreduce = k == RT_KERNEL_ALLREDUCE || k == RT_KERNEL_NCCL_ALLREDUCE;
    *steps = (allreduce ? 2.0 : 1.0) * (n - 1.0);
    *factor = (allreduce ? 2.0 : 1.0) * (n - 1.0) / n;
}

/* (a^-4 + b^-4)^(-1/4): a smooth minimum, the smaller of a and b. */
static double soft_min(double a, double b)
{
    if (!(a > 0.0))
        return b;
    if (!(b > 0.0))
        return a;
    double ia = 1.0 / (a * a), ib = 1.0 / (b * b);
    return 1.0 / sqrt(sqrt(ia * ia + ib * ib)); /* (a^-4 + b^-4)^(-1/4) */
}

enum rt_kernel_kind kernel_collective_kind(enum rt_kernel_kind k, double gpus)
{
    return k == RT_KERNEL_ALLREDUCE && gpus > RT_KERNEL_MEASURED_GPUS_MAX ? RT_KERNEL_NCCL_ALLREDUCE : k;
}

double kernel_collective_hop_steps(enum rt_kernel_kind k, double n)
{
    if (!(n >= 2.0))
        return 0.0;
    if (k == RT_KERNEL_ALLREDUCE || k == RT_KERNEL_NCCL_ALLREDUCE)
        return dmin(2.0 * (n - 1.0), 2.0 * ceil(log2(n)));
    return n - 1.0;
}

double kernel_collective_latency_steps(enum rt_kernel_kind k, double n)
{
    if (!(n >= 2.0))
        return 0.0;
    const double most = RT_KERNEL_MEASURED_GPUS_MAX;
    if ((k == RT_KERNEL_ALLREDUCE || k == RT_KERNEL_NCCL_ALLREDUCE) && n > most)
        return most - 1.0 + 2.0 * log2(n / most);
    return n - 1.0;
}

static double collective_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p,
                              struct kernel_estimate *out)
{
    double n = s->gpus, steps, factor;
    if (!(n > 1.0))
        return 0.0;
    collective_shape(s->kind, n, &steps, &factor);
    double bw = c->link_bytes_per_s > 0.0 ? c->link_bytes_per_s : c->hbm_bytes_per_s;
    /* the link's sharing as fitted on 2-8 GPUs; past them, held at 8's */
    double sharing = pow(dmin(n, RT_KERNEL_MEASURED_GPUS_MAX) / 2.0, p[5]), t, fixed, memory;
    if (s->kind == RT_KERNEL_ALLREDUCE) {
        double barrier = pow(n, p[4]);
        double one = p[0] * barrier + (n - 1.0) * s->message_bytes * sharing / (p[2] * bw);
        double two = p[1] * barrier + 2.0 * (n - 1.0) / n * s->message_bytes * sharing / (p[3] * bw);
        t = soft_min(one, two);
        fixed = dmin(p[0], p[1]) * barrier;
        memory = t - fixed;
    } else {
        double base = p[0] + p[1] * kernel_collective_latency_steps(s->kind, n), bus = factor * s->message_bytes * sharing;
        double ll = base + bus / (p[2] * bw), simple = base + p[3] + bus / (p[4] * bw);
        t = soft_min(ll, simple);
        fixed = base;
        memory = t - base;
    }
    if (n > RT_KERNEL_MEASURED_GPUS_MAX && t < fixed + factor * s->message_bytes / bw) {
        /* past what was measured, never faster than the ring's bytes over the link: the floor */
        t = fixed + factor * s->message_bytes / bw;
        memory = t - fixed;
    }
    if (out) {
        out->compute_s = 0.0;
        out->memory_s = memory > 0.0 ? memory : 0.0;
        out->fixed_s = fixed;
        out->peak_flops_per_s = 0.0;
        add_why(out, RT_KWHY_STEPS, steps, factor, 0);
    }
    return t;
}

double kernel_floor(const struct kernel_shape *s, const struct kernel_chip *c, double *flops_out, double *bytes_out)
{
    double flops = 0.0, bytes = 0.0, rate = rate_of(c, s->format), bw = c->hbm_bytes_per_s;
    switch (s->kind) {
    case RT_KERNEL_GEMM:
        flops = 2.0 * s->m * s->n * s->k;
        bytes = s->m * s->k * kernel_format_act_bytes(s->format) + s->k * s->n * kernel_format_weight_bytes(s->format) +
                s->m * s->n * 2.0;
        break;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA: {
        struct attn_geometry g = attn_geometry_of(s);
        double tokens = s->batch * s->seq, act = s->format == RT_KF_FP8 ? 1.0 : 2.0;
        flops = 2.0 * s->batch * s->heads * (g.dqk + g.dv) * causal_pairs(s->seq, s->window) + g.extra_flops;
        bytes = tokens * (s->heads * (g.dqk + g.dv) * act + g.kv_heads * (g.dqk + g.dv) * (2.0 + g.kv_bytes_per_element)) +
                g.extra_bytes;
        if (s->format == RT_KF_FP8 && c->peak_flops_per_s[RT_RATE_FP8] > 0.0)
            rate = c->peak_flops_per_s[RT_RATE_FP8];
        else
            rate = c->peak_flops_per_s[RT_RATE_BF16];
        break;
    }
    case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA: {
        struct attn_geometry g = attn_geometry_of(s);
        bool mla = s->kind == RT_KERNEL_DECODE_MLA;
        double L = s->window > 0.0 && s->window < s->kv_len ? s->window : s->kv_len;
        flops = 2.0 * s->batch * s->heads * (g.dqk + g.dv) * L + g.extra_flops;
        bytes = (mla ? s->batch * L * (MLA_LORA + MLA_ROPE) * (s->kv_fp8 ? 1.0 : 2.0)
                     : s->batch * g.kv_heads * L * (g.dqk + g.dv) * (s->kv_fp8 ? 1.0 : 2.0)) +
                s->batch * s->heads * (g.dqk + g.dv) * 2.0;
        rate = c->peak_flops_per_s[RT_RATE_BF16];
        break;
    }
    case RT_KERNEL_MOE: {
        double local = s->experts / s->moe_ep, width = s->inter / s->moe_tp;
        double assignments = s->tokens * s->topk / s->moe_ep;
        double touched = local * (1.0 - pow(1.0 - s->topk / s->experts, s->tokens));
        flops = 2.0 * 3.0 * assignments * s->hidden * width;
        bytes = touched * 3.0 * s->hidden * width * kernel_format_weight_bytes(s->format) +
                assignments * 2.0 * s->hidden * kernel_format_act_bytes(s->format);
        break;
    }
    default: {
        double steps, factor;
        collective_shape(s->kind, s->gpus, &steps, &factor);
        bytes = s->gpus > 1.0 ? s->message_bytes * factor : 0.0;
        bw = c->link_bytes_per_s > 0.0 ? c->link_bytes_per_s : c->hbm_bytes_per_s;
        rate = 0.0;
        break;
    }
    }
    if (flops_out)
        *flops_out = flops;
    if (bytes_out)
        *bytes_out = bytes;
    double compute = rate > 0.0 ? flops / rate : 0.0, memory = bw > 0.0 ? bytes / bw : 0.0;
    return compute > memory ? compute : memory;
}

double kernel_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p, double compute_derate,
                   double memory_derate, struct kernel_estimate *out)
{
    double cd = compute_derate > 0.0 ? compute_derate : 1.0, md = memory_derate > 0.0 ? memory_derate : 1.0;
    if (out) {
        memset(out, 0, sizeof *out);
        out->floor_s = kernel_floor(s, c, &out->flops, &out->bytes);
    }
    double t;
    switch (s->kind) {
    case RT_KERNEL_GEMM: t = gemm_time(s, c, p, cd, md, out); break;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA: t = attention_time(s, c, p, cd, md, out); break;
    case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA: t = decode_time(s, c, p, cd, md, out); break;
    case RT_KERNEL_MOE: t = moe_time(s, c, p, cd, md, out); break;
    default: t = collective_time(s, c, p, out); break;
    }
    if (!(t > 0.0) || !isfinite(t))
        t = out && out->floor_s > 0.0 ? out->floor_s : 1e-9;
    if (out) {
        out->realistic_s = t;
        if (out->fixed_s > 0.0)
            add_why(out, RT_KWHY_FIXED, out->fixed_s, out->fixed_s / t, 0);
    }
    return t;
}

double kernel_estimate(const struct kernel_shape *s, const struct kernel_chip *c, const struct kernel_view *v,
                       enum rt_kernel_engine e, struct kernel_estimate *out)
{
    struct kernel_shape nccl;
    if (kernel_collective_kind(s->kind, s->gpus) != s->kind) { /* past one node: NCCL's all-reduce */
        nccl = *s;
        nccl.kind = kernel_collective_kind(s->kind, s->gpus);
        s = &nccl;
    }
    enum rt_kernel_source src;
    const struct kernel_fit *f = kernel_fit_lookup(v, s, e, &src);
    float defaults[RT_KERNEL_PARAMS];
    const float *p = f ? f->p : defaults;
    if (!f)
        kernel_default_params(s->kind, defaults);
    double cd = v && v->compute_derate > 0.0 ? v->compute_derate : 1.0;
    double md = v && v->memory_derate > 0.0 ? v->memory_derate : 1.0;
    float in_pass[RT_KERNEL_PARAMS];
    if (s->kind == RT_KERNEL_GEMM && !s->warm_cache && s->format != RT_KF_BF16) {
        memcpy(in_pass, p, sizeof in_pass);
        in_pass[GEMM_LAUNCH] = (float)kernel_in_pass_launches(s->format) * kernel_plain_gemm_launch_s(v, e);
        p = in_pass;
    }
    double t = kernel_time(s, c, p, cd, md, out);
    if (out && s == &nccl)
        add_why(out, RT_KWHY_NCCL_BEYOND, s->gpus, 0, 0);
    if (out) {
        out->source = src;
        out->fit = f;
        out->error_fraction = kernel_error_for(src, f ? kernel_fit_error(f) : RT_KERNEL_DEFAULT_ERROR, v);
        if (kernel_kind_is_collective(s->kind) && s->gpus > RT_KERNEL_MEASURED_GPUS_MAX)
            out->error_fraction = dmax(out->error_fraction, RT_KERNEL_EXTRAPOLATED_ERROR);
    }
    return t;
}

int kernel_in_pass_launches(enum rt_kernel_format f)
{
    return kernel_format_quantises_input(f) || f == RT_KF_INT8 ? 2 : 1; /* SmoothQuant quantises per token too */
}

double kernel_fit_error(const struct kernel_fit *f)
{
    return round((double)f->cv_error * 1e4) / 1e4;
}

float kernel_plain_gemm_launch_s(const struct kernel_view *v, enum rt_kernel_engine e)
{
    struct kernel_shape probe = {.kind = RT_KERNEL_GEMM, .format = RT_KF_BF16};
    enum rt_kernel_source src;
    const struct kernel_fit *f = kernel_fit_lookup(v, &probe, e, &src);
    float defaults[RT_KERNEL_PARAMS];
    if (!f)
        kernel_default_params(RT_KERNEL_GEMM, defaults);
    return f ? f->p[GEMM_LAUNCH] : defaults[GEMM_LAUNCH];
}

double kernel_error_for(enum rt_kernel_source src, double own, const struct kernel_view *v)
{
    switch (src) {
    case RT_KSRC_MEASURED: return own;
    case RT_KSRC_NEAR: return dmax(own, RT_KERNEL_NEAR_ERROR);
    case RT_KSRC_BORROWED: return dmax(own, v && v->sibling ? RT_KERNEL_SIBLING_ERROR : RT_KERNEL_FOREIGN_ERROR);
    default: return RT_KERNEL_DEFAULT_ERROR;
    }
}

char *kernel_reason_text(char *buf, size_t size, const struct kernel_reason *r)
{
    char si[32];
    switch (r->code) {
    case RT_KWHY_WAVES:
        snprintf(buf, size, "%.0f %s on %.0f SMs: %.2f of the waves in use", r->a, r->a == 1.0 ? "tile" : "tiles",
                 r->b, r->c);
        break;
    case RT_KWHY_SPLIT_K: snprintf(buf, size, "split-K x%.0f", r->a); break;
    case RT_KWHY_L2: snprintf(buf, size, "%.0f%% of the bytes from L2 (timed alone)", 100.0 * r->a); break;
    case RT_KWHY_FIXED:
        snprintf(buf, size, "fixed %s (%.0f%%)", format_seconds(si, sizeof si, r->a), 100.0 * r->b);
        break;
    case RT_KWHY_PEAK:
        snprintf(buf, size, "%.2f of the %s peak", r->a, format_si(si, sizeof si, r->b, "FLOP/s"));
        break;
    case RT_KWHY_BANDWIDTH: snprintf(buf, size, "%.2f of HBM bandwidth", r->a); break;
    case RT_KWHY_EXPERTS:
        snprintf(buf, size, "%.1f experts touched, %.1f tokens each", r->a, r->b);
        break;
    case RT_KWHY_STEPS: snprintf(buf, size, "%.0f steps, %.2f x the message over the link", r->a, r->b); break;
    case RT_KWHY_QUANTISER:
        snprintf(buf, size, "the input's quantiser %s (%.0f%%)", format_seconds(si, sizeof si, r->a), 100.0 * r->b);
        break;
    case RT_KWHY_NCCL_BEYOND:
        snprintf(buf, size, "%.0f GPUs: NCCL's all-reduce (the engines' own is one node's, 2-8 GPUs)", r->a);
        break;
    default: snprintf(buf, size, "?"); break;
    }
    return buf;
}
