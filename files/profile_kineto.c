/* profile_kineto.c — PyTorch profiler (Kineto) traces, streamed (see
 * profile_kineto.h). */
#include "profile_kineto.h"

#include "units.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#define MAX_EVENT_BYTES (16u << 20) /* one event's text */
#define MAX_EVENTS 50000000u
#define CHUNK (256u << 10)

/* ---- Small tables ------------------------------------------------------ */

/* An open-addressing map of 64-bit keys (>= 0) to indices. */
struct idmap {
    int64_t *keys; /* -1: empty */
    int32_t *vals;
    size_t cap, n;
};

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int idmap_grow(struct idmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1024;
    int64_t *keys = malloc(cap * sizeof *keys);
    int32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        keys[i] = -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] < 0)
            continue;
        size_t j = mix64((uint64_t)m->keys[i]) & (cap - 1);
        while (keys[j] >= 0)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

/* Sets key -> val (the first one given wins). Returns 0, or -1 out of memory. */
static int idmap_put(struct idmap *m, int64_t key, int32_t val)
{
    if ((m->n + 1) * 2 > m->cap && idmap_grow(m) != 0)
        return -1;
    size_t j = mix64((uint64_t)key) & (m->cap - 1);
    while (m->keys[j] >= 0) {
        if (m->keys[j] == key)
            return 0;
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key;
    m->vals[j] = val;
    m->n++;
    return 0;
}

/* The index key maps to, or -1. */
static int32_t idmap_get(const struct idmap *m, int64_t key)
{
    if (key < 0 || m->cap == 0)
        return -1;
    size_t j = mix64((uint64_t)key) & (m->cap - 1);
    while (m->keys[j] >= 0) {
        if (m->keys[j] == key)
            return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}

static void idmap_free(struct idmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h & 0x7fffffffffffffffULL;
}

/* ---- What the reader keeps --------------------------------------------- */

/* One kernel, copy or memset event. */
struct kernel_rec {
    double ts_us, dur_us;
    int64_t correlation, external; /* -1: not given */
    double flop_arg, bytes_arg;    /* Inductor's kernel_flop, kernel_num_gb x 1e9; a copy's bytes; -1 none */
    int32_t name_group;            /* the group of its own name (kernel name, or copy kind) */
    bool copy;
};

/* One operator call. */
struct op_rec {
    int32_t group;
    double flops, bytes;
    bool counted;
};

struct span {
    double ts_us, dur_us;
};

struct reader {
    const char *shown;
    char *err;
    size_t errsize;
    struct kineto_trace *t;
    /* groups and their index by label */
    size_t group_cap;
    struct idmap group_by_hash; /* label hash -> group (collisions chain through probing on a salted hash) */
    struct kernel_rec *kernels;
    size_t kernel_n, kernel_cap;
    struct op_rec *ops;
    size_t op_n, op_cap;
    struct idmap op_by_external, external_by_correlation;
    struct span *gpu_steps, *cpu_steps;
    size_t gpu_step_n, cpu_step_n, gpu_step_cap, cpu_step_cap;
    bool oom;
};

/* Makes room for one more element in array arr (n in use, cap allocated),
 * doubling from first; out of memory returns oom(r) from the caller. A
 * macro so that each array keeps its own type. */
#define GROW_OR_OOM(r, arr, n, cap, first)                                                                           \
    do {                                                                                                             \
        if ((n) == (cap)) {                                                                                          \
            size_t grown_ = (cap) ? (cap) * 2 : (first);                                                             \
            void *bigger_ = realloc((arr), grown_ * sizeof *(arr));                                                  \
            if (!bigger_)                                                                                            \
                return oom(r);                                                                                       \
            (arr) = bigger_;                                                                                         \
            (cap) = grown_;                                                                                          \
        }                                                                                                            \
    } while (0)

static int oom(struct reader *r)
{
    r->oom = true;
    snprintf(r->err, r->errsize, "%s: out of memory", r->shown);
    return -1;
}

/* The group labelled label (made with op, precision and source when new);
 * -1 out of memory. */
static int32_t group_for(struct reader *r, char kind, const char *label, const char *op, enum rt_precision p,
                         bool vector, enum kineto_source fs, enum kineto_source bs)
{
    uint64_t h = hash_str(label) ^ ((uint64_t)(unsigned char)kind << 56);
    for (uint64_t salt = 0;; salt++) { /* a colliding hash probes on, salted */
        int64_t key = (int64_t)((h + salt * 0x9e3779b97f4a7c15ULL) & 0x7fffffffffffffffULL);
        int32_t g = idmap_get(&r->group_by_hash, key);
        if (g < 0) {
            GROW_OR_OOM(r, r->t->groups, r->t->group_count, r->group_cap, 64);
            struct kineto_group *n = &r->t->groups[r->t->group_count];
            memset(n, 0, sizeof *n);
            snprintf(n->label, sizeof n->label, "%s", label);
            snprintf(n->op, sizeof n->op, "%s", op);
            n->precision = p;
            n->vector_unit = vector;
            n->flops_source = fs;
            n->bytes_source = bs;
            n->kind = kind;
            if (idmap_put(&r->group_by_hash, key, (int32_t)r->t->group_count) != 0)
                return oom(r);
            return (int32_t)r->t->group_count++;
        }
        if (r->t->groups[g].kind == kind && strncmp(r->t->groups[g].label, label, sizeof r->t->groups[g].label - 1) == 0)
            return g;
    }
}

/* ---- Operators: the rules ---------------------------------------------- */

/* Bytes one element of a PyTorch dtype (as the profiler writes its name)
 * takes, the precision it computes at, whether that is vector-unit work
 * (fp32, fp64) and its short word ("bf16"); 0 when not a known dtype. */
static double dtype_info(const char *t, enum rt_precision *p, bool *vector, const char **word)
{
    static const struct {
        const char *name, *word;
        double bytes;
        enum rt_precision p;
        bool vector;
    } table[] = {
        {"c10::BFloat16", "bf16", 2, RT_BF16, false}, {"BFloat16", "bf16", 2, RT_BF16, false},
        {"c10::Half", "fp16", 2, RT_BF16, false},     {"Half", "fp16", 2, RT_BF16, false},
        {"float", "fp32", 4, RT_BF16, true},          {"Float", "fp32", 4, RT_BF16, true},
        {"double", "fp64", 8, RT_BF16, true},         {"Double", "fp64", 8, RT_BF16, true},
        {"c10::Float8_e4m3fn", "fp8", 1, RT_FP8, false}, {"c10::Float8_e5m2", "fp8", 1, RT_FP8, false},
        {"c10::Float8_e4m3fnuz", "fp8", 1, RT_FP8, false}, {"c10::Float8_e5m2fnuz", "fp8", 1, RT_FP8, false},
        {"c10::Float4_e2m1fn_x2", "fp4", 1, RT_NVFP4, false}, /* two values a byte */
        {"signed char", "int8", 1, RT_INT8, false},   {"Char", "int8", 1, RT_INT8, false},
        {"unsigned char", "uint8", 1, RT_INT8, false}, {"Byte", "uint8", 1, RT_INT8, false},
        {"bool", "bool", 1, RT_BF16, false},          {"Bool", "bool", 1, RT_BF16, false},
        {"long int", "int64", 8, RT_BF16, false},     {"Long", "int64", 8, RT_BF16, false},
        {"int", "int32", 4, RT_BF16, false},          {"Int", "int32", 4, RT_BF16, false},
        {"short int", "int16", 2, RT_BF16, false},    {"Short", "int16", 2, RT_BF16, false},
        {"c10::complex<float>", "c64", 8, RT_BF16, true}, {"ComplexFloat", "c64", 8, RT_BF16, true},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(t, table[i].name) == 0) {
            if (p)
                *p = table[i].p;
            if (vector)
                *vector = table[i].vector;
            if (word)
                *word = table[i].word;
            return table[i].bytes;
        }
    return 0.0;
}

#define MAX_INPUTS 16
#define MAX_DIMS 8

/* An operator's tensor inputs as the trace gives them. */
struct inputs {
    int n;                       /* inputs listed */
    int rank[MAX_INPUTS];        /* -1: not a tensor (a scalar, a list, none) */
    double dim[MAX_INPUTS][MAX_DIMS];
    double elem[MAX_INPUTS];     /* bytes an element, 0 unknown */
    double numel[MAX_INPUTS];
    char concrete[MAX_INPUTS][16]; /* Concrete Inputs, "" when absent */
};

static void inputs_read(const cJSON *args, struct inputs *in)
{
    memset(in, 0, sizeof *in);
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(args, "Input Dims");
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(args, "Input type");
    const cJSON *conc = cJSON_GetObjectItemCaseSensitive(args, "Concrete Inputs");
    int n = cJSON_IsArray(dims) ? cJSON_GetArraySize(dims) : 0;
    in->n = n < MAX_INPUTS ? n : MAX_INPUTS;
    for (int i = 0; i < in->n; i++) {
        const cJSON *d = cJSON_GetArrayItem(dims, i);
        const cJSON *t = cJSON_IsArray(types) ? cJSON_GetArrayItem(types, i) : NULL;
        const cJSON *c = cJSON_IsArray(conc) ? cJSON_GetArrayItem(conc, i) : NULL;
        if (cJSON_IsString(c))
            snprintf(in->concrete[i], sizeof in->concrete[i], "%s", c->valuestring);
        in->rank[i] = -1;
        int rank = cJSON_IsArray(d) ? cJSON_GetArraySize(d) : -1;
        double elem = cJSON_IsString(t) ? dtype_info(t->valuestring, NULL, NULL, NULL) : 0.0;
        if (rank < 0 || rank > MAX_DIMS || elem <= 0.0)
            continue;
        double numel = 1.0;
        bool ok = true;
        for (int k = 0; k < rank; k++) {
            const cJSON *x = cJSON_GetArrayItem(d, k);
            if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0.0) || x->valuedouble > 1e15) {
                ok = false;
                break;
            }
            in->dim[i][k] = x->valuedouble;
            numel *= x->valuedouble;
        }
        if (!ok || rank == 0) /* a scalar argument (its dims are []): not a tensor read */
            continue;
        in->rank[i] = rank;
        in->elem[i] = elem;
        in->numel[i] = numel;
    }
}

static double tensor_bytes(const struct inputs *in, int i)
{
    return i < in->n && in->rank[i] >= 0 ? in->numel[i] * in->elem[i] : 0.0;
}

/* "16x559x1024" */
static void shape_text(char *out, size_t size, const double *dim, int rank)
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < rank && used + 1 < size; k++) {
        int w = snprintf(out + used, size - used, "%s%.0f", k ? "x" : "", dim[k]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (rank == 0)
        snprintf(out, size, "scalar");
}

static const char *short_op(const char *name)
{
    return strncmp(name, "aten::", 6) == 0 ? name + 6 : name;
}

static bool name_in(const char *n, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(n, *list) == 0)
            return true;
    return false;
}

/* What one operator call's rule gives. */
struct rule_out {
    double flops, bytes;
    enum kineto_source fs, bs;
    enum rt_precision p;
    bool vector;
    const char *word; /* the first input's dtype, "bf16" */
    bool causal_unknown;
    enum point_kind work;
    double m, k, n;   /* a GEMM's shape */
    char label[RT_POINT_LABEL_MAX];
};

/* The precision, vector-unit flag and dtype word of input i (bf16, not vector, "" when unknown). */
static void input_precision(const cJSON *args, int i, struct rule_out *o)
{
    o->p = RT_BF16;
    o->vector = false;
    o->word = "";
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(args, "Input type");
    const cJSON *t = cJSON_IsArray(types) ? cJSON_GetArrayItem(types, i) : NULL;
    if (cJSON_IsString(t))
        dtype_info(t->valuestring, &o->p, &o->vector, &o->word);
}

/* The GEMM rule: C[M,N] (+)= A[M,K] B[K,N], over batch B. */
static bool rule_gemm(const char *op, const struct inputs *in, struct rule_out *o)
{
    int a = -1, b = -1, c = -1; /* input indices of A, B and an added matrix or bias */
    bool batched = false;
    const char *s = short_op(op);
    if (strcmp(s, "mm") == 0 || strcmp(s, "_scaled_mm") == 0 || strcmp(s, "matmul") == 0)
        a = 0, b = 1;
    else if (strcmp(s, "addmm") == 0)
        c = 0, a = 1, b = 2;
    else if (strcmp(s, "bmm") == 0)
        a = 0, b = 1, batched = true;
    else if (strcmp(s, "baddbmm") == 0)
        c = 0, a = 1, b = 2, batched = true;
    else if (strcmp(s, "linear") == 0)
        a = 0, b = 1, c = 2; /* weight [N,K], bias [N] */
    else
        return false;
    if (a >= in->n || b >= in->n || in->rank[a] < 1 || in->rank[b] < 1)
        return false;
    bool linear = strcmp(s, "linear") == 0;
    int ra = in->rank[a], rb = in->rank[b];
    double M, K, N, batch = 1.0;
    if (linear) {
        if (rb != 2)
            return false;
        N = in->dim[b][0];
        K = in->dim[b][1];
        M = in->numel[a] / (K > 0 ? K : 1);
        if (in->dim[a][ra - 1] != K)
            return false;
    } else if (batched || (strcmp(s, "matmul") == 0 && ra == 3 && rb == 3)) {
        if (ra != 3 || rb != 3 || in->dim[a][0] != in->dim[b][0] || in->dim[a][2] != in->dim[b][1])
            return false;
        batch = in->dim[a][0], M = in->dim[a][1], K = in->dim[a][2], N = in->dim[b][2];
    } else if (rb == 2 && ra >= 2) { /* [..., M, K] @ [K, N] */
        K = in->dim[a][ra - 1];
        if (in->dim[b][0] != K)
            return false;
        M = in->numel[a] / (K > 0 ? K : 1);
        N = in->dim[b][1];
    } else {
        return false;
    }
    bool added = c >= 0 && c < in->n && in->rank[c] >= 1;
    o->flops = 2.0 * batch * M * K * N + (added ? batch * M * N : 0.0);
    double ea = in->elem[a];
    bool fp8 = strcmp(s, "_scaled_mm") == 0;
    double out_elem = fp8 ? 2.0 : ea; /* _scaled_mm writes bf16 unless told (out_dtype is not in the trace) */
    o->bytes = tensor_bytes(in, a) + tensor_bytes(in, b) + batch * M * N * out_elem + (added ? tensor_bytes(in, c) : 0.0);
    o->fs = o->bs = KINETO_SHAPES;
    o->work = POINT_KIND_GEMM;
    o->m = batch * M, o->k = K, o->n = N;
    const char *pw = o->word;
    if (batch > 1.0)
        snprintf(o->label, sizeof o->label, "%s B%.0f M%.0f K%.0f N%.0f %s", s, batch, M, K, N, pw);
    else
        snprintf(o->label, sizeof o->label, "%s M%.0f K%.0f N%.0f %s", s, M, K, N, pw);
    return true;
}

/* Scaled-dot-product attention: the index of is_causal in its arguments
 * and whether q is [B, S, H, d] (flash-attn's layout) or [B, H, S, d]. */
static bool attention_kind(const char *s, int *causal_at, bool *bshd)
{
    static const struct {
        const char *name;
        int causal_at;
        bool bshd;
    } table[] = {
        {"scaled_dot_product_attention", 5, false},          /* (q, k, v, attn_mask, dropout_p, is_causal, ...) */
        {"_scaled_dot_product_flash_attention", 4, false},   /* (q, k, v, dropout_p, is_causal, ...) */
        {"_scaled_dot_product_efficient_attention", 6, false}, /* (q, k, v, attn_bias, lse, dropout_p, is_causal) */
        {"_scaled_dot_product_cudnn_attention", 6, false},   /* (q, k, v, attn_bias, lse, dropout_p, is_causal) */
        {"_scaled_dot_product_flash_attention_for_cpu", 3, false},
        {"_flash_attention_forward", 8, true},               /* (q, k, v, cu_q, cu_k, max_q, max_k, dropout_p, is_causal) */
        {"_efficient_attention_forward", -1, true},
        {"flash_attn::_flash_attn_forward", 5, true},        /* (q, k, v, dropout_p, softmax_scale, causal, ...) */
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(s, table[i].name) == 0) {
            *causal_at = table[i].causal_at;
            *bshd = table[i].bshd;
            return true;
        }
    return false;
}

static bool rule_attention(const char *op, const struct inputs *in, struct rule_out *o)
{
    int causal_at;
    bool bshd;
    const char *s = short_op(op);
    if (!attention_kind(s, &causal_at, &bshd) || in->n < 3 || in->rank[0] != 4 || in->rank[1] != 4 ||
        in->rank[2] != 4)
        return false;
    const double *q = in->dim[0], *k = in->dim[1], *v = in->dim[2];
    double B = q[0], Hq = bshd ? q[2] : q[1], Sq = bshd ? q[1] : q[2], dqk = q[3];
    double Sk = bshd ? k[1] : k[2], dv = v[3];
    bool causal = false;
    const char *c = causal_at >= 0 && causal_at < in->n ? in->concrete[causal_at] : "";
    if (strcmp(c, "True") == 0 || strcmp(c, "true") == 0 || strcmp(c, "1") == 0)
        causal = true;
    else if (!(strcmp(c, "False") == 0 || strcmp(c, "false") == 0 || strcmp(c, "0") == 0))
        o->causal_unknown = true;
    o->flops = 2.0 * B * Hq * Sq * Sk * (dqk + dv) * (causal ? 0.5 : 1.0);
    o->bytes = tensor_bytes(in, 0) + tensor_bytes(in, 1) + tensor_bytes(in, 2) + B * Hq * Sq * dv * in->elem[0];
    o->fs = o->bs = KINETO_SHAPES;
    o->work = POINT_KIND_ATTENTION;
    snprintf(o->label, sizeof o->label, "attn B%.0f H%.0f S%.0f/%.0f d%.0f%s %s", B, Hq, Sq, Sk, dqk,
             causal ? " causal" : "", o->word);
    return true;
}

/* True when an operator's name is a normalisation's. */
static bool has_norm(const char *s)
{
    return strstr(s, "norm") != NULL;
}

/* Element-wise operators, norms, softmax: bytes only. */
static bool rule_bytes(const char *op, const struct inputs *in, struct rule_out *o)
{
    static const char *const elementwise[] = {
        "add", "sub", "mul", "div", "neg", "exp", "log", "sqrt", "rsqrt", "pow", "silu", "gelu", "relu",
        "sigmoid", "tanh", "where", "clamp", "abs", "reciprocal", "masked_fill", "clone", "maximum", "minimum",
        "threshold_backward", "gelu_backward", "silu_backward", "sigmoid_backward", "tanh_backward", "eq", "ne",
        "lt", "gt", "le", "ge", "cos", "sin", "erf", "hardtanh", "leaky_relu", NULL};
    /* an output the shape of the first input; weights and statistics are other inputs */
    static const char *const shaped[] = {
        "_softmax", "softmax", "log_softmax", "_log_softmax", "_softmax_backward_data", "layer_norm",
        "native_layer_norm", "native_layer_norm_backward", "rms_norm", "_fused_rms_norm", "group_norm",
        "native_group_norm", "native_batch_norm", "batch_norm", "cudnn_batch_norm", "cudnn_batch_norm_backward",
        "_batch_norm_impl_index", "native_batch_norm_backward", "dropout", "native_dropout", "triu", "tril",
        "max_pool2d_with_indices_backward", "_to_copy", NULL};
    static const char *const inplace[] = {"add_", "sub_", "mul_", "div_", "neg_", "exp_", "silu_", "relu_",
                                          "gelu_", "sigmoid_", "tanh_", "clamp_", "masked_fill_", "addcmul_",
                                          "addcdiv_", "lerp_", "sqrt_", "pow_", "copy_", "fill_", "zero_", NULL};
    static const char *const reductions[] = {"mean", "sum", "amax", "amin", "max", "min", "argmax", "argmin",
                                             "norm", "linalg_vector_norm", "var", "std", "all", "any", "prod",
                                             "cumsum", "topk", "sort", NULL};
    const char *s = short_op(op);
    if (strncmp(op, "aten::", 6) != 0)
        return false;
    int first = -1;
    double sum = 0.0, elem = 0.0;
    for (int i = 0; i < in->n; i++) {
        if (in->rank[i] < 0)
            continue;
        if (first < 0)
            first = i;
        sum += tensor_bytes(in, i);
        if (in->elem[i] > elem)
            elem = in->elem[i];
    }
    if (first < 0)
        return false;
    double out_dim[MAX_DIMS] = {0};
    int out_rank = in->rank[first];
    memcpy(out_dim, in->dim[first], sizeof out_dim);
    if (name_in(s, elementwise)) {
        /* the broadcast shape of the tensor inputs (numpy's rule, aligned on the right) */
        for (int i = 0; i < in->n; i++) {
            if (in->rank[i] < 0)
                continue;
            if (in->rank[i] > out_rank) {
                double d[MAX_DIMS] = {0};
                int shift = in->rank[i] - out_rank;
                for (int k = 0; k < out_rank; k++)
                    d[k + shift] = out_dim[k];
                for (int k = 0; k < shift; k++)
                    d[k] = 1.0;
                memcpy(out_dim, d, sizeof d);
                out_rank = in->rank[i];
            }
            int shift = out_rank - in->rank[i];
            for (int k = 0; k < in->rank[i]; k++)
                if (in->dim[i][k] > out_dim[k + shift])
                    out_dim[k + shift] = in->dim[i][k];
        }
        double numel = 1.0;
        for (int k = 0; k < out_rank; k++)
            numel *= out_dim[k];
        o->bytes = sum + numel * elem;
    } else if (name_in(s, shaped)) {
        o->bytes = sum + tensor_bytes(in, first);
    } else if (name_in(s, inplace)) {
        if (strcmp(s, "copy_") == 0) /* reads the source, writes the destination */
            o->bytes = tensor_bytes(in, first) + (in->n > first + 1 ? tensor_bytes(in, first + 1) : 0.0);
        else if (strcmp(s, "fill_") == 0 || strcmp(s, "zero_") == 0)
            o->bytes = tensor_bytes(in, first);
        else
            o->bytes = sum + tensor_bytes(in, first);
    } else if (name_in(s, reductions)) {
        o->bytes = tensor_bytes(in, first);
    } else {
        return false;
    }
    o->flops = 0.0;
    o->fs = KINETO_NONE;
    o->bs = KINETO_SHAPES;
    o->work = has_norm(s) ? POINT_KIND_NORM : POINT_KIND_ELEMENTWISE;
    char shape[28];
    shape_text(shape, sizeof shape, out_dim, out_rank);
    snprintf(o->label, sizeof o->label, "%s %s %s", s, shape, o->word);
    return true;
}

/* An operator call's group and figures: its rule's, or time only. */
static int op_event(struct reader *r, const char *name, const cJSON *args, int64_t external)
{
    struct inputs in;
    struct rule_out o;
    memset(&o, 0, sizeof o);
    inputs_read(args, &in);
    input_precision(args, 0, &o);
    bool ruled = rule_gemm(name, &in, &o) || rule_attention(name, &in, &o) || rule_bytes(name, &in, &o);
    const cJSON *flops = cJSON_GetObjectItemCaseSensitive(args, "flops");
    if (cJSON_IsNumber(flops) && flops->valuedouble > 0.0 && flops->valuedouble < 1e21) {
        o.flops = flops->valuedouble; /* with_flops: the profiler's own count wins */
        o.fs = KINETO_WITH_FLOPS;
        if (!ruled)
            snprintf(o.label, sizeof o.label, "%s", short_op(name));
        ruled = true;
    }
    if (!ruled) {
        snprintf(o.label, sizeof o.label, "%s", short_op(name));
        o.fs = o.bs = KINETO_NONE;
    }
    int32_t g = group_for(r, 'o', o.label, name, o.p, o.vector, o.fs, o.bs);
    if (g < 0)
        return -1;
    struct kineto_group *grp = &r->t->groups[g];
    grp->work = o.work != POINT_KIND_UNKNOWN ? o.work : point_kind_from_name(name);
    grp->gemm_m = o.m, grp->gemm_k = o.k, grp->gemm_n = o.n;
    if (o.causal_unknown)
        r->t->groups[g].causal_unknown = true;
    GROW_OR_OOM(r, r->ops, r->op_n, r->op_cap, 1024);
    r->ops[r->op_n] = (struct op_rec){.group = g, .flops = o.flops, .bytes = o.bytes};
    if (idmap_put(&r->op_by_external, external, (int32_t)r->op_n) != 0)
        return oom(r);
    r->op_n++;
    return 0;
}

/* ---- Events ------------------------------------------------------------ */

static double num_or(const cJSON *o, const char *key, double fallback)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(x) && isfinite(x->valuedouble) ? x->valuedouble : fallback;
}

static int64_t id_of(const cJSON *args, const char *a, const char *b)
{
    double v = num_or(args, a, -1.0);
    if (v < 0.0 && b)
        v = num_or(args, b, -1.0);
    return v >= 0.0 && v < 9e15 ? (int64_t)v : -1;
}

/* A kernel's short name: "void at::native::foo<...>(...)" -> "foo". */
static void kernel_short(char *out, size_t size, const char *name)
{
    if (strncmp(name, "void ", 5) == 0)
        name += 5;
    size_t end = strcspn(name, "<(");
    size_t start = 0;
    for (size_t i = 0; i + 1 < end; i++)
        if (name[i] == ':' && name[i + 1] == ':')
            start = i + 2;
    if (start >= end)
        start = 0;
    snprintf(out, size, "%.*s", (int)(end - start), name + start);
}

static int push_span(struct span **v, size_t *n, size_t *cap, double ts, double dur, struct reader *r)
{
    GROW_OR_OOM(r, *v, *n, *cap, 16);
    (*v)[(*n)++] = (struct span){ts, dur};
    return 0;
}

static int kernel_event(struct reader *r, const char *name, const cJSON *ev, const cJSON *args, bool copy)
{
    double dur = num_or(ev, "dur", -1.0), ts = num_or(ev, "ts", 0.0);
    if (!(dur >= 0.0) || dur > 8.64e10) { /* an unfinished or absurd span: not a kernel's time */
        r->t->bad_durations++;
        return 0;
    }
    struct kernel_rec k = {.ts_us = ts, .dur_us = dur, .copy = copy, .flop_arg = -1.0, .bytes_arg = -1.0};
    k.correlation = id_of(args, "correlation", NULL);
    k.external = id_of(args, "External id", "external id");
    char label[RT_POINT_LABEL_MAX];
    if (copy) {
        double b = num_or(args, "bytes", -1.0);
        k.bytes_arg = b >= 0.0 && b <= 1e18 ? b : -1.0;
        snprintf(label, sizeof label, "%.*s", (int)strcspn(name, "("), name); /* "Memcpy DtoH " */
        size_t n = strlen(label);
        while (n > 0 && label[n - 1] == ' ')
            label[--n] = '\0';
    } else {
        double f = num_or(args, "kernel_flop", -1.0), gb = num_or(args, "kernel_num_gb", -1.0);
        k.flop_arg = f >= 0.0 && f <= 1e21 ? f : -1.0;
        k.bytes_arg = gb >= 0.0 && gb <= 1e9 ? gb * 1e9 : -1.0;
        kernel_short(label, sizeof label, name);
    }
    bool own = copy || k.flop_arg >= 0.0 || k.bytes_arg >= 0.0;
    k.name_group = group_for(r, copy ? 'c' : 'k', label[0] ? label : "kernel", name, RT_BF16, false,
                             copy ? KINETO_NONE : (k.flop_arg >= 0.0 ? KINETO_INDUCTOR : KINETO_NONE),
                             own ? (copy ? KINETO_COPY : KINETO_INDUCTOR) : KINETO_NONE);
    if (k.name_group < 0)
        return -1;
    r->t->groups[k.name_group].work = copy ? POINT_KIND_COPY : point_kind_from_name(name);
    GROW_OR_OOM(r, r->kernels, r->kernel_n, r->kernel_cap, 1024);
    r->kernels[r->kernel_n++] = k;
    return 0;
}

/* The CUPTI range profiler's SASS counters: add + mul + 2 fma per precision. */
static void range_event(struct reader *r, const cJSON *args)
{
    static const char *const prec[3] = {"f", "h", "d"};
    double *out[3] = {&r->t->range_flops_fp32, &r->t->range_flops_fp16, &r->t->range_flops_fp64};
    for (int i = 0; i < 3; i++) {
        char key[64];
        double sum = 0.0;
        static const char *const op[3] = {"add", "mul", "fma"};
        for (int j = 0; j < 3; j++) {
            snprintf(key, sizeof key, "smsp__sass_thread_inst_executed_op_%s%s_pred_on.sum", prec[i], op[j]);
            double v = num_or(args, key, 0.0);
            sum += (j == 2 ? 2.0 : 1.0) * (v > 0.0 ? v : 0.0);
        }
        *out[i] += sum;
    }
    r->t->ranges++;
}

static int event(struct reader *r, const char *text, size_t len)
{
    cJSON *ev = cJSON_ParseWithLength(text, len);
    if (!ev) {
        snprintf(r->err, r->errsize, "%s: trace event %zu is not valid JSON", r->shown, r->t->events + 1);
        return -1;
    }
    r->t->events++;
    int rc = 0;
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
    if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "X") != 0 || !cJSON_IsString(cat) || !cJSON_IsString(name))
        goto done;
    const char *c = cat->valuestring, *n = name->valuestring;
    bool step = strncmp(n, "ProfilerStep#", 13) == 0;
    if (strcasecmp(c, "kernel") == 0)
        rc = kernel_event(r, n, ev, args, false);
    else if (strcasecmp(c, "gpu_memcpy") == 0 || strcasecmp(c, "memcpy") == 0 || strcasecmp(c, "gpu_memset") == 0 ||
             strcasecmp(c, "memset") == 0)
        rc = kernel_event(r, n, ev, args, true);
    else if (strcasecmp(c, "cuda_runtime") == 0 || strcasecmp(c, "runtime") == 0 || strcasecmp(c, "cuda_driver") == 0) {
        int64_t corr = id_of(args, "correlation", NULL), ext = id_of(args, "External id", "external id");
        if (corr >= 0 && ext >= 0 && ext <= INT32_MAX && idmap_put(&r->external_by_correlation, corr, (int32_t)ext) != 0)
            rc = oom(r);
    } else if (strcasecmp(c, "gpu_user_annotation") == 0 && step)
        rc = push_span(&r->gpu_steps, &r->gpu_step_n, &r->gpu_step_cap, num_or(ev, "ts", 0), num_or(ev, "dur", 0), r);
    else if (step)
        rc = push_span(&r->cpu_steps, &r->cpu_step_n, &r->cpu_step_cap, num_or(ev, "ts", 0), num_or(ev, "dur", 0), r);
    else if (strcasecmp(c, "cpu_op") == 0 || strcasecmp(c, "operator") == 0) {
        int64_t ext = id_of(args, "External id", "external id");
        if (ext >= 0)
            rc = op_event(r, n, args, ext);
    } else if (strcasecmp(c, "cuda_profiler_range") == 0 && cJSON_IsObject(args))
        range_event(r, args);
done:
    cJSON_Delete(ev);
    return rc;
}

/* The top-level deviceProperties' first name. */
static void device_props(struct reader *r, const char *text, size_t len)
{
    cJSON *d = cJSON_ParseWithLength(text, len);
    const cJSON *first = cJSON_IsArray(d) ? cJSON_GetArrayItem(d, 0) : NULL;
    const cJSON *name = first ? cJSON_GetObjectItemCaseSensitive(first, "name") : NULL;
    if (cJSON_IsString(name))
        snprintf(r->t->device, sizeof r->t->device, "%s", name->valuestring);
    cJSON_Delete(d);
}

/* ---- The stream: one event's text at a time ---------------------------- */

enum capture { CAP_NONE, CAP_EVENT, CAP_DEVICE };

struct scanner {
    int depth;
    char top;            /* '{' or '[' once seen */
    bool in_string, escape, key_string, expect_key;
    char key[24];
    size_t key_len;
    int events_depth;    /* the depth at which event objects open; 0 none */
    bool saw_events;
    enum capture cap;
    int cap_depth;
    char *buf;
    size_t buf_len, buf_cap;
    unsigned long long offset;
};

static int buf_push(struct reader *r, struct scanner *s, char c)
{
    if (s->buf_len == s->buf_cap) {
        if (s->buf_cap >= MAX_EVENT_BYTES) {
            snprintf(r->err, r->errsize, "%s: a trace event longer than %u MiB at byte %llu; refused", r->shown,
                     MAX_EVENT_BYTES >> 20, s->offset);
            return -1;
        }
        size_t cap = s->buf_cap ? s->buf_cap * 2 : 4096;
        char *bigger = realloc(s->buf, cap);
        if (!bigger)
            return oom(r);
        s->buf = bigger;
        s->buf_cap = cap;
    }
    s->buf[s->buf_len++] = c;
    return 0;
}

static int scan(struct reader *r, struct scanner *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++, s->offset++) {
        char c = p[i];
        if (s->offset < 3 && !s->top && (unsigned char)c == (unsigned char)"\xef\xbb\xbf"[s->offset])
            continue; /* a UTF-8 byte-order mark before the JSON */
        if (s->cap != CAP_NONE && buf_push(r, s, c) != 0)
            return -1;
        if (s->in_string) {
            if (s->escape)
                s->escape = false;
            else if (c == '\\')
                s->escape = true;
            else if (c == '"')
                s->in_string = false;
            else if (s->key_string && s->key_len + 1 < sizeof s->key)
                s->key[s->key_len++] = c;
            if (!s->in_string && s->key_string) {
                s->key[s->key_len] = '\0';
                s->key_string = false;
            }
            continue;
        }
        switch (c) {
        case '"':
            s->in_string = true;
            s->key_string = s->depth == 1 && s->top == '{' && s->expect_key;
            if (s->key_string)
                s->key_len = 0, s->key[0] = '\0';
            break;
        case '{':
        case '[':
            if (s->depth == 0) {
                if (s->top) {
                    snprintf(r->err, r->errsize, "%s: more than one JSON value at byte %llu", r->shown, s->offset);
                    return -1;
                }
                s->top = c;
                if (c == '[')
                    s->events_depth = 1, s->saw_events = true;
                s->expect_key = c == '{';
            } else if (s->depth == 1 && s->top == '{' && !s->expect_key && s->cap == CAP_NONE) {
                if (c == '[' && strcmp(s->key, "traceEvents") == 0)
                    s->events_depth = 2, s->saw_events = true;
                else if (strcmp(s->key, "deviceProperties") == 0) {
                    s->cap = CAP_DEVICE, s->cap_depth = s->depth, s->buf_len = 0;
                    if (buf_push(r, s, c) != 0)
                        return -1;
                }
            } else if (c == '{' && s->depth == s->events_depth && s->cap == CAP_NONE) {
                s->cap = CAP_EVENT, s->cap_depth = s->depth, s->buf_len = 0;
                if (buf_push(r, s, c) != 0)
                    return -1;
            }
            if (++s->depth > 10000) {
                snprintf(r->err, r->errsize, "%s: JSON nested deeper than 10000 at byte %llu", r->shown, s->offset);
                return -1;
            }
            break;
        case '}':
        case ']':
            if (--s->depth < 0) {
                snprintf(r->err, r->errsize, "%s: an unmatched '%c' at byte %llu: not JSON", r->shown, c, s->offset);
                return -1;
            }
            if (s->cap != CAP_NONE && s->depth == s->cap_depth) {
                enum capture was = s->cap;
                s->cap = CAP_NONE;
                if (was == CAP_EVENT) {
                    if (r->t->events >= MAX_EVENTS) {
                        snprintf(r->err, r->errsize, "%s: more than %u trace events; refused", r->shown, MAX_EVENTS);
                        return -1;
                    }
                    if (event(r, s->buf, s->buf_len) != 0)
                        return -1;
                } else {
                    device_props(r, s->buf, s->buf_len);
                }
            }
            if (s->depth + 1 == s->events_depth && c == ']')
                s->events_depth = 0;
            break;
        case ':':
            if (s->depth == 1 && s->top == '{')
                s->expect_key = false;
            break;
        case ',':
            if (s->depth == 1 && s->top == '{')
                s->expect_key = true;
            break;
        case ' ': case '\t': case '\n': case '\r':
            break;
        default:
            if (s->depth == 0) {
                snprintf(r->err, r->errsize, "%s: byte %llu ('%c') outside any JSON value: not a Kineto trace",
                         r->shown, s->offset, (c >= 32 && c < 127) ? c : '?');
                return -1;
            }
            break;
        }
    }
    return 0;
}

/* ---- Resolution: kernels to operators to groups ------------------------ */

static bool inside(const struct span *v, size_t n, double ts)
{
    for (size_t i = 0; i < n; i++)
        if (ts >= v[i].ts_us && ts < v[i].ts_us + v[i].dur_us)
            return true;
    return false;
}

static void resolve(struct reader *r)
{
    struct kineto_trace *t = r->t;
    for (size_t i = 0; i < r->kernel_n; i++) {
        const struct kernel_rec *k = &r->kernels[i];
        double s = k->dur_us * 1e-6;
        if (k->copy)
            t->copy_events++, t->copy_s += s;
        else
            t->kernel_events++, t->kernel_s += s;
        if (r->gpu_step_n && inside(r->gpu_steps, r->gpu_step_n, k->ts_us))
            t->step_busy_s += s;
        int64_t ext = k->external >= 0 ? k->external : idmap_get(&r->external_by_correlation, k->correlation);
        int32_t op = ext >= 0 ? idmap_get(&r->op_by_external, ext) : -1;
        bool own = k->flop_arg >= 0.0 || k->bytes_arg >= 0.0;
        struct kineto_group *g;
        if (op >= 0 && !(k->copy && t->groups[r->ops[op].group].bytes_source == KINETO_NONE &&
                         t->groups[r->ops[op].group].flops_source == KINETO_NONE) && !(!k->copy && own)) {
            struct op_rec *o = &r->ops[op];
            g = &t->groups[o->group];
            if (!o->counted) {
                g->flops += o->flops;
                g->bytes += o->bytes;
                g->calls++;
                o->counted = true;
            }
            t->linked_events++;
            t->linked_s += s;
        } else {
            g = &t->groups[k->name_group];
            if (own) {
                g->flops += k->flop_arg > 0.0 ? k->flop_arg : 0.0;
                g->bytes += k->bytes_arg > 0.0 ? k->bytes_arg : 0.0;
            }
            g->calls++;
            if (op >= 0)
                t->linked_events++, t->linked_s += s;
            else
                t->unlinked_s += s;
        }
        g->kernels++;
        g->seconds += s;
    }
    const struct span *steps = r->gpu_step_n ? r->gpu_steps : r->cpu_steps;
    size_t steps_n = r->gpu_step_n ? r->gpu_step_n : r->cpu_step_n;
    t->steps = steps_n;
    t->steps_on_gpu = r->gpu_step_n > 0;
    for (size_t i = 0; i < steps_n; i++)
        t->step_s += steps[i].dur_us * 1e-6;
}

/* ---- Sources ----------------------------------------------------------- */

typedef long (*read_fn)(void *ctx, char *buf, size_t cap, char *why, size_t whysize);

struct mem_source {
    const unsigned char *data;
    size_t len, pos;
    bool gz, started, done;
    z_stream z;
};

static long mem_read(void *ctx, char *buf, size_t cap, char *why, size_t whysize)
{
    struct mem_source *m = ctx;
    if (!m->gz) {
        size_t n = m->len - m->pos < cap ? m->len - m->pos : cap;
        memcpy(buf, m->data + m->pos, n);
        m->pos += n;
        return (long)n;
    }
    if (m->done)
        return 0;
    if (!m->started) {
        memset(&m->z, 0, sizeof m->z);
        if (inflateInit2(&m->z, 15 + 16) != Z_OK) {
            snprintf(why, whysize, "cannot start zlib");
            return -1;
        }
        m->z.next_in = (unsigned char *)(uintptr_t)m->data;
        m->z.avail_in = (uInt)(m->len > UINT32_MAX ? UINT32_MAX : m->len);
        m->started = true;
    }
    m->z.next_out = (unsigned char *)buf;
    m->z.avail_out = (uInt)cap;
    int rc = inflate(&m->z, Z_NO_FLUSH);
    long got = (long)(cap - m->z.avail_out);
    if (rc == Z_STREAM_END) {
        if (m->z.avail_in > 0 && inflateReset(&m->z) == Z_OK) /* another gzip member follows */
            return got;
        m->done = true;
    } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && got > 0)) {
        snprintf(why, whysize, "not valid gzip (%s)", m->z.msg ? m->z.msg : "data error");
        return -1;
    } else if (got == 0 && m->z.avail_in == 0) {
        snprintf(why, whysize, "the gzip stream ends early (truncated)");
        return -1;
    }
    return got;
}

static long gz_read(void *ctx, char *buf, size_t cap, char *why, size_t whysize)
{
    gzFile g = ctx;
    int n = gzread(g, buf, (unsigned)cap);
    if (n < 0) {
        int code;
        const char *msg = gzerror(g, &code);
        snprintf(why, whysize, "%s", code == Z_ERRNO ? "a read error" : msg);
        /* zlib writes "PATH: reason": the caller names the file already */
        const char *colon = strstr(why, ": ");
        if (code != Z_ERRNO && colon && colon[2])
            memmove(why, colon + 2, strlen(colon + 2) + 1);
        return -1;
    }
    return n;
}

static int read_stream(const char *shown, read_fn fn, void *ctx, struct kineto_trace *t, char *err, size_t errsize)
{
    memset(t, 0, sizeof *t);
    struct reader r = {.shown = shown, .err = err, .errsize = errsize, .t = t};
    struct scanner s = {0};
    char *chunk = malloc(CHUNK);
    int rc = chunk ? 0 : oom(&r);
    char why[160] = "";
    while (rc == 0) {
        long n = fn(ctx, chunk, CHUNK, why, sizeof why);
        if (n < 0) {
            snprintf(err, errsize, "%s: %s", shown, why);
            rc = -1;
        } else if (n == 0) {
            break;
        } else {
            rc = scan(&r, &s, chunk, (size_t)n);
        }
    }
    if (rc == 0 && (s.depth != 0 || s.in_string)) {
        snprintf(err, errsize, "%s: the JSON ends early at byte %llu (a truncated trace?)", shown, s.offset);
        rc = -1;
    } else if (rc == 0 && !s.saw_events) {
        snprintf(err, errsize, "%s: %s: not a Kineto trace (no \"traceEvents\" array)", shown,
                 s.top ? "JSON" : s.offset ? "no JSON value in it" : "empty");
        rc = -1;
    }
    if (rc == 0)
        resolve(&r);
    free(chunk);
    free(s.buf);
    free(r.kernels);
    free(r.ops);
    free(r.gpu_steps);
    free(r.cpu_steps);
    idmap_free(&r.op_by_external);
    idmap_free(&r.external_by_correlation);
    idmap_free(&r.group_by_hash);
    if (rc != 0)
        kineto_free(t);
    return rc;
}

bool kineto_looks_like(const char *head, size_t len)
{
    if (len >= 2 && (unsigned char)head[0] == 0x1f && (unsigned char)head[1] == 0x8b)
        return true;
    size_t i = 0;
    if (len >= 3 && (unsigned char)head[0] == 0xef && (unsigned char)head[1] == 0xbb && (unsigned char)head[2] == 0xbf)
        i = 3;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        i++;
    return i < len && (head[i] == '{' || head[i] == '[');
}

bool kineto_file_looks_like(const char *path)
{
    /* O_NONBLOCK and a regular file only: a fifo or a device is left to
     * read_file, which says what it is, and is never waited on here. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st;
    char head[256];
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : -1;
    close(fd);
    return n > 0 && kineto_looks_like(head, (size_t)n);
}

int kineto_read_memory(const char *shown, const void *data, size_t len, struct kineto_trace *t, char *err,
                       size_t errsize)
{
    struct mem_source m = {.data = data, .len = len};
    m.gz = len >= 2 && m.data[0] == 0x1f && m.data[1] == 0x8b;
    int rc = read_stream(shown, mem_read, &m, t, err, errsize);
    if (m.started)
        inflateEnd(&m.z);
    return rc;
}

int kineto_read_path(const char *path, const char *shown, struct kineto_trace *t, char *err, size_t errsize)
{
    memset(t, 0, sizeof *t);
    gzFile g = gzopen(path, "rb"); /* reads a plain file as it is */
    if (!g) {
        snprintf(err, errsize, "%s: cannot be opened", shown);
        return -1;
    }
    gzbuffer(g, CHUNK);
    int rc = read_stream(shown, gz_read, g, t, err, errsize);
    gzclose(g);
    return rc;
}

void kineto_free(struct kineto_trace *t)
{
    free(t->groups);
    memset(t, 0, sizeof *t);
}

/* ---- Points ------------------------------------------------------------ */

/* qsort's order of group pointers: the longest in time first, then by label. */
static int by_time(const void *a, const void *b)
{
    const struct kineto_group *x = *(const struct kineto_group *const *)a;
    const struct kineto_group *y = *(const struct kineto_group *const *)b;
    return x->seconds < y->seconds ? 1 : x->seconds > y->seconds ? -1 : strcmp(x->label, y->label);
}

static bool placeable(const struct kineto_group *g)
{
    return g->seconds >= 1e-9 && g->seconds <= 86400.0 && g->bytes >= 1.0 && g->bytes <= 1e18 &&
           g->flops >= 0.0 && g->flops <= 1e21;
}

/* Appends "name t ms" for up to three of the groups in order[] that want(). */
static void list_largest(char *out, size_t size, const struct kineto_trace *t, const struct kineto_group *const *order,
                         bool (*want)(const struct kineto_group *))
{
    size_t used = 0, shown = 0;
    out[0] = '\0';
    for (size_t i = 0; i < t->group_count && shown < 3; i++) {
        const struct kineto_group *g = order[i];
        if (!want(g) || g->kernels == 0)
            continue;
        int w = snprintf(out + used, size - used, "%s%s %.3f ms", shown ? ", " : "", g->label, g->seconds * 1e3);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
        shown++;
    }
}

/* A group with figures of its own that fall outside a kernel's range. */
static bool out_of_range(const struct kineto_group *g)
{
    return !placeable(g) && (g->flops_source != KINETO_NONE || g->bytes_source != KINETO_NONE) &&
           (g->flops > 0.0 || g->bytes > 0.0);
}

static bool no_rule(const struct kineto_group *g)
{
    return !placeable(g) && !out_of_range(g) && g->kind == 'o';
}

static bool no_op(const struct kineto_group *g)
{
    return !placeable(g) && !out_of_range(g) && g->kind != 'o';
}

/* "s" for a count other than one. */
static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

int kineto_points(const char *shown, const struct kineto_trace *t, struct measured_point *points, size_t max,
                  size_t *count, struct points_context *ctx, struct load_warnings *w, char *err, size_t errsize)
{
    *count = 0;
    if (ctx) {
        memset(ctx, 0, sizeof *ctx);
        snprintf(ctx->device, sizeof ctx->device, "%s", t->device);
        ctx->steps = t->steps;
        ctx->steps_on_gpu = t->steps_on_gpu;
        ctx->step_s = t->step_s;
        ctx->all_s = t->kernel_s + t->copy_s;
        for (size_t i = 0; i < t->group_count; i++)
            ctx->bytes_estimated |= t->groups[i].kernels > 0 && t->groups[i].bytes_source == KINETO_SHAPES;
    }
    if (t->kernel_events + t->copy_events == 0) {
        if (t->ranges > 0)
            snprintf(err, errsize,
                     "%s: %zu kernels' CUPTI range counters (%.2f GFLOP FP32, %.2f GFLOP FP16, %.2f GFLOP FP64) but "
                     "no kernel events: their times are not in the trace (a range's dur is the profiler's pass, not "
                     "the kernel); profile with ProfilerActivity.CUDA to place them",
                     shown, t->ranges, t->range_flops_fp32 / 1e9, t->range_flops_fp16 / 1e9, t->range_flops_fp64 / 1e9);
        else if (t->bad_durations > 0)
            snprintf(err, errsize, "%s: its %zu kernel and copy event%s have no usable dur (missing, negative, past a "
                                   "day or not a number)",
                     shown, t->bad_durations, plural(t->bad_durations));
        else
            snprintf(err, errsize, "%s: no kernel events in the trace (%zu events read): profile with "
                                   "ProfilerActivity.CUDA",
                     shown, t->events);
        return -1;
    }
    const struct kineto_group **order = malloc((t->group_count ? t->group_count : 1) * sizeof *order);
    if (!order) {
        snprintf(err, errsize, "%s: out of memory", shown);
        return -1;
    }
    for (size_t i = 0; i < t->group_count; i++)
        order[i] = &t->groups[i];
    qsort(order, t->group_count, sizeof *order, by_time);
    double placed_s = 0.0, over_s = 0.0, rule_s = 0.0, op_s = 0.0, range_s = 0.0;
    size_t placed = 0, over = 0, rule_n = 0, op_n = 0, range_n = 0, derived = 0, traced = 0, causal_unknown = 0;
    for (size_t i = 0; i < t->group_count; i++) {
        const struct kineto_group *g = order[i];
        if (g->kernels == 0)
            continue;
        if (!placeable(g)) {
            if (out_of_range(g))
                range_n++, range_s += g->seconds;
            else if (no_op(g))
                op_n++, op_s += g->seconds;
            else
                rule_n++, rule_s += g->seconds;
            continue;
        }
        if (*count >= max) {
            over++, over_s += g->seconds;
            continue;
        }
        struct measured_point *p = &points[(*count)++];
        memset(p, 0, sizeof *p);
        snprintf(p->label, sizeof p->label, "%s", g->label);
        p->flops = g->flops;
        p->bytes = g->bytes;
        p->seconds = g->seconds;
        p->precision = g->precision;
        p->vector_unit = g->vector_unit && g->flops > 0.0;
        p->kernels = (double)g->kernels;
        p->kind = g->work;
        p->gemm_m = g->gemm_m, p->gemm_k = g->gemm_k, p->gemm_n = g->gemm_n;
        placed++, placed_s += g->seconds;
        derived += g->bytes_source == KINETO_SHAPES || g->flops_source == KINETO_SHAPES;
        traced += g->flops_source == KINETO_WITH_FLOPS || g->flops_source == KINETO_INDUCTOR ||
                  g->bytes_source == KINETO_INDUCTOR || g->bytes_source == KINETO_COPY;
        causal_unknown += g->causal_unknown;
    }
    double all_s = t->kernel_s + t->copy_s;
    if (*count == 0) {
        char big[200];
        list_largest(big, sizeof big, t, order, no_op);
        if (!big[0])
            list_largest(big, sizeof big, t, order, no_rule);
        if (range_n > 0 && op_n == 0 && rule_n == 0)
            snprintf(err, errsize,
                     "%s: %zu kernel%s and %zu cop%s (%.3f ms), none placeable: every group's figures fall outside a "
                     "kernel's range (a time under 1 ns, under a byte, bytes past 1e18, FLOPs past 1e21)",
                     shown, t->kernel_events, plural(t->kernel_events), t->copy_events,
                     t->copy_events == 1 ? "y" : "ies", all_s * 1e3);
        else
            snprintf(err, errsize,
                     "%s: %zu kernels and %zu copies (%.3f ms), none with FLOPs or bytes: %zu kernel names have no "
                     "launching operator with shapes in the trace (record_shapes=True; CUDA/HIP graph replays hide "
                     "them), %zu operators have no rule, %zu groups fall outside a kernel's range; the largest: %s",
                     shown, t->kernel_events, t->copy_events, all_s * 1e3, op_n, rule_n, range_n,
                     big[0] ? big : "none");
        free(order);
        return -1;
    }
    note_add(w, "%s: %s%s%zu kernel%s and %zu cop%s, %.3f ms; %zu group%s placed (%.3f ms, %.0f%%), %zu of them "
                "from their operators' shapes, %zu from the trace's own counts (with_flops, Inductor's, a copy's "
                "bytes)",
             shown, t->device[0] ? t->device : "", t->device[0] ? ": " : "", t->kernel_events, plural(t->kernel_events),
             t->copy_events, t->copy_events == 1 ? "y" : "ies", all_s * 1e3, placed, plural(placed), placed_s * 1e3,
             all_s > 0 ? 100.0 * placed_s / all_s : 0.0, derived, traced);
    if (t->bad_durations)
        warn_add(w, "%s: %zu kernel or copy event%s without a usable dur (missing, negative, past a day or not a "
                    "number): left out",
                 shown, t->bad_durations, plural(t->bad_durations));
    if (range_n)
        warn_add(w, "%s: %zu group%s whose figures fall outside a kernel's range (a time under 1 ns, bytes past "
                    "1e18, FLOPs past 1e21): left off",
                 shown, range_n, plural(range_n));
    if (derived)
        note_add(w, "%s: from shapes: GEMMs 2MKN FLOPs, attention 2BHSqSk(dqk+dv) (halved when causal), element-wise "
                    "work none; bytes each input and output once (no reuse, no cache)",
                 shown);
    char big[200];
    if (rule_n) {
        list_largest(big, sizeof big, t, order, no_rule);
        warn_add(w, "%s: %zu operator%s without a FLOP or byte rule (%.3f ms, %.0f%%) left off; the largest: %s",
                 shown, rule_n, plural(rule_n), rule_s * 1e3, all_s > 0 ? 100.0 * rule_s / all_s : 0.0, big);
    }
    if (op_n) {
        list_largest(big, sizeof big, t, order, no_op);
        warn_add(w, "%s: %zu kernel name%s (%.3f ms, %.0f%%) with no launching operator (launched before the CPU "
                    "window, or graph replays): left off; the largest: %s",
                 shown, op_n, plural(op_n), op_s * 1e3, all_s > 0 ? 100.0 * op_s / all_s : 0.0, big);
    }
    if (over)
        warn_add(w, "%s: %zu more group%s (%.3f ms) left off: at most %zu points", shown, over, plural(over),
                 over_s * 1e3, max);
    if (causal_unknown)
        warn_add(w, "%s: %zu attention group%s %s not say whether causal (no Concrete Inputs): counted as full "
                    "attention",
                 shown, causal_unknown, plural(causal_unknown), causal_unknown == 1 ? "does" : "do");
    if (t->steps && t->steps_on_gpu)
        note_add(w, "%s: %zu ProfilerStep span%s on the GPU, %.3f ms in all; kernels and copies busy %.3f ms of it "
                    "(%.0f%%)",
                 shown, t->steps, plural(t->steps), t->step_s * 1e3, t->step_busy_s * 1e3,
                 t->step_s > 0 ? 100.0 * t->step_busy_s / t->step_s : 0.0);
    else if (t->steps)
        note_add(w, "%s: %zu ProfilerStep span%s on the CPU, %.3f ms in all", shown, t->steps, plural(t->steps),
                 t->step_s * 1e3);
    free(order);
    return 0;
}
