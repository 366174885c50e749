/* profileops.c — a profile's kernels grouped into rooftop's operations
 * (see profileops.h). */
#include "profileops.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The rows, in the order a report lists them. */
enum row {
    ROW_QKV,
    ROW_OUT,
    ROW_QKV_OUT,
    ROW_MLP,
    ROW_ATTENTION,
    ROW_NORMS,
    ROW_ELEMENTWISE,
    ROW_LM_HEAD,
    ROW_EMBEDDING,
    ROW_COMM,
    ROW_COPIES,
    ROW_OTHER,
    ROW_COUNT
};

static const char *const row_names[ROW_COUNT] = {
    "qkv projection", "output projection", "qkv + output projection", "mlp", "attention", "norms",
    "element-wise", "lm head", "embedding lookup", "communication", "copies and memsets", "other kernels",
};

/* True when name holds word, ignoring case. */
static bool has(const char *name, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == word[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

enum point_kind point_kind_from_name(const char *name)
{
    /* a PyTorch matmul operator's name, or a label starting with it ("addmm M8944 ...") */
    const char *op = strncmp(name, "aten::", 6) == 0 ? name + 6 : name;
    size_t n = strcspn(op, " (");
    static const char *const matmuls[] = {"mm", "addmm", "bmm", "baddbmm", "linear", "matmul", "_scaled_mm",
                                          "addbmm", "_addmm_activation"};
    for (size_t i = 0; i < sizeof matmuls / sizeof matmuls[0]; i++)
        if (strlen(matmuls[i]) == n && strncmp(op, matmuls[i], n) == 0)
            return POINT_KIND_GEMM;
    if (has(name, "nccl") || has(name, "rccl") || has(name, "allreduce") || has(name, "all_reduce") ||
        has(name, "all_gather") || has(name, "allgather") || has(name, "all_to_all") || has(name, "alltoall") ||
        has(name, "reduce_scatter"))
        return POINT_KIND_COMM;
    if (has(name, "moe") || has(name, "expert"))
        return POINT_KIND_MOE;
    if (has(name, "flash") || has(name, "fmha") || has(name, "attention") || has(name, "attn") ||
        has(name, "mla_decode"))
        return POINT_KIND_ATTENTION;
    if (has(name, "gemm") || has(name, "cutlass") || has(name, "xmma") || has(name, "cublas") ||
        has(name, "matmul") || has(name, "hipblaslt") || has(name, "cijk_"))
        return POINT_KIND_GEMM;
    if (has(name, "norm"))
        return POINT_KIND_NORM;
    if (has(name, "memcpy") || has(name, "memset"))
        return POINT_KIND_COPY;
    if (has(name, "elementwise") || has(name, "silu") || has(name, "gelu") || has(name, "relu") ||
        has(name, "add") || has(name, "mul") || has(name, "copy") || has(name, "cast") || has(name, "rotary") ||
        has(name, "rope") || has(name, "softmax") || has(name, "reduce") || has(name, "triton_poi") ||
        has(name, "triton_red"))
        return POINT_KIND_ELEMENTWISE;
    return POINT_KIND_UNKNOWN;
}

/* The row a model operation counts toward (its placement's name), or -1. */
static int model_row(const char *name)
{
    if (strcmp(name, "qkv projection") == 0)
        return ROW_QKV;
    if (strcmp(name, "output projection") == 0)
        return ROW_OUT;
    if (has(name, "mlp") || has(name, "expert") || has(name, "router"))
        return ROW_MLP;
    if (has(name, "attention") || strcmp(name, "softmax") == 0 || has(name, "indexer") || has(name, "attn"))
        return ROW_ATTENTION;
    if (strcmp(name, "norms") == 0)
        return ROW_NORMS;
    if (strcmp(name, "activation") == 0 || strcmp(name, "residual adds") == 0)
        return ROW_ELEMENTWISE;
    if (strcmp(name, "lm head") == 0)
        return ROW_LM_HEAD;
    if (strcmp(name, "embedding lookup") == 0)
        return ROW_EMBEDDING;
    return ROW_OTHER;
}

/* True when width w is the model's width full or divided tp ways. */
static bool is_width(double w, double full, double tp)
{
    return full > 0.0 && (w == full || (tp > 1.0 && w == full / tp));
}

/* True when a GEMM of widths k -> n is the model's fused QKV projection
 * (d_model -> q + 2 kv, whole or split tp ways). */
static bool fused_qkv(double k, double n, const struct model_shape *m, double tp)
{
    double d = (double)m->d_model, q = (double)(m->heads * m->d_head), kv = (double)(m->kv_heads * m->d_head);
    return is_width(k, d, 1.0) && is_width(n, q + 2.0 * kv, tp);
}

/* The row a measured GEMM of inner width k and output width n counts
 * toward; fused tells that the profile has a fused QKV projection, so that
 * a d_model -> d_model GEMM is the output projection, not a query one. */
static int gemm_row(double k, double n, const struct model_shape *m, double tp, bool fused)
{
    double d = (double)m->d_model, q = (double)(m->heads * m->d_head), kv = (double)(m->kv_heads * m->d_head);
    double ff = (double)m->d_ff, mff = m->moe_d_ff > 0 ? (double)m->moe_d_ff : ff;
    if (k <= 0.0 || n <= 0.0)
        return ROW_OTHER;
    if (is_width(n, (double)m->vocab, tp) && is_width(k, d, 1.0))
        return ROW_LM_HEAD;
    if ((is_width(k, ff, tp) || is_width(k, mff, tp)) && is_width(n, d, 1.0))
        return ROW_MLP;
    if (is_width(k, d, 1.0) && (is_width(n, ff, tp) || is_width(n, 2.0 * ff, tp) || is_width(n, mff, tp) ||
                                is_width(n, 2.0 * mff, tp)))
        return ROW_MLP;
    bool qkv = is_width(k, d, 1.0) && (is_width(n, q, tp) || is_width(n, kv, tp) || is_width(n, q + 2.0 * kv, tp) ||
                                      is_width(n, 2.0 * kv, tp));
    bool out = is_width(k, q, tp) && is_width(n, d, 1.0);
    if (qkv && out)
        return fused && !fused_qkv(k, n, m, tp) ? ROW_OUT : ROW_QKV_OUT;
    if (qkv)
        return ROW_QKV;
    if (out)
        return ROW_OUT;
    return ROW_OTHER;
}

static int point_row(const struct measured_point *p, const struct model_shape *m, double tp, bool fused)
{
    enum point_kind k = p->kind != POINT_KIND_UNKNOWN ? p->kind : point_kind_from_name(p->label);
    switch (k) {
    case POINT_KIND_GEMM:
        return gemm_row(p->gemm_k, p->gemm_n, m, tp, fused);
    case POINT_KIND_ATTENTION: return ROW_ATTENTION;
    case POINT_KIND_NORM: return ROW_NORMS;
    case POINT_KIND_ELEMENTWISE: return ROW_ELEMENTWISE;
    case POINT_KIND_COPY: return ROW_COPIES;
    case POINT_KIND_COMM: return ROW_COMM;
    case POINT_KIND_MOE: return ROW_MLP;
    case POINT_KIND_UNKNOWN: break;
    }
    return ROW_OTHER;
}

int profile_by_operation(const struct measured_point *pts, size_t n, const struct scenario *s,
                         const struct analysis *a, struct profile_ops *out)
{
    memset(out, 0, sizeof *out);
    struct profile_op_row rows[ROW_COUNT];
    memset(rows, 0, sizeof rows);
    double tp = (double)scenario_tp(s), chips = s->chips > 0 ? (double)s->chips : 1.0;
    double measured = 0.0;
    bool fused = false;
    for (size_t i = 0; i < n; i++)
        fused |= pts[i].seconds > 0.0 && pts[i].kind == POINT_KIND_GEMM &&
                 fused_qkv(pts[i].gemm_k, pts[i].gemm_n, &s->model, tp);
    for (size_t i = 0; i < n; i++) {
        if (!(pts[i].seconds > 0.0))
            continue;
        struct point_placement pp; /* above its roof, its counts are wrong: left out, as HFU leaves it out */
        if (point_place(&pts[i], s, &pp) == 0 && pp.above_roof) {
            out->above_left_out++;
            continue;
        }
        int r = point_row(&pts[i], &s->model, tp, fused);
        rows[r].measured_s += pts[i].seconds;
        rows[r].points++;
        out->counted_flops += pts[i].flops;
        measured += pts[i].seconds;
    }
    if (!(measured > 0.0))
        return -1;
    /* the phase whose operations' FLOPs per chip are nearest the counted
     * ones (its operations', not the phase's own count, which counts the
     * embedding and the lm head over every token as 2N per token does) */
    static const char *const phases[3] = {"prefill", "decode", "training"};
    double best = INFINITY;
    for (int ph = 0; ph < 3; ph++) {
        double flops = 0.0;
        for (int i = 0; i < a->placement_count && i < RT_MAX_PLACEMENTS; i++)
            if (a->placements[i].operation && strcmp(a->placements[i].phase, phases[ph]) == 0)
                flops += a->placements[i].flops;
        if (!(flops > 0.0))
            continue;
        double per_chip = flops / chips;
        double gap = out->counted_flops > 0.0 ? fabs(log(per_chip / out->counted_flops)) : INFINITY;
        if (gap < best || !out->phase[0]) {
            best = gap;
            snprintf(out->phase, sizeof out->phase, "%s", phases[ph]);
            out->model_flops = per_chip;
        }
    }
    out->comparable = best <= log(3.0);
    bool ambiguous = rows[ROW_QKV_OUT].points > 0;
    for (int i = 0; out->phase[0] && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++) {
        const struct placement *p = &a->placements[i];
        if (!p->operation || strcmp(p->phase, out->phase) != 0)
            continue;
        int r = model_row(p->name);
        if (ambiguous && (r == ROW_QKV || r == ROW_OUT) && rows[r].points == 0)
            r = ROW_QKV_OUT; /* the measured side could not tell them apart */
        rows[r].in_model = true;
        rows[r].floor_s += p->time_s;
        rows[r].realistic_s += p->realistic_time_s;
    }
    /* Norms the profile has no kernels of ran as element-wise operators (an
     * eager RMSNorm: pow, mean, rsqrt, mul): the model's norms join that row. */
    bool merged = rows[ROW_NORMS].in_model && rows[ROW_NORMS].points == 0 && rows[ROW_ELEMENTWISE].points > 0;
    if (merged) {
        rows[ROW_ELEMENTWISE].in_model = true;
        rows[ROW_ELEMENTWISE].floor_s += rows[ROW_NORMS].floor_s;
        rows[ROW_ELEMENTWISE].realistic_s += rows[ROW_NORMS].realistic_s;
        rows[ROW_NORMS].in_model = false;
    }
    for (int r = 0; r < ROW_COUNT && out->count < RT_PROFILE_OPS; r++) {
        if (rows[r].points == 0 && !rows[r].in_model)
            continue;
        struct profile_op_row *o = &out->rows[out->count++];
        *o = rows[r];
        snprintf(o->name, sizeof o->name, "%s", merged && r == ROW_ELEMENTWISE ? "element-wise + norms" : row_names[r]);
    }
    return 0;
}
