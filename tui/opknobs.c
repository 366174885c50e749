/* opknobs.c — the operation view's knobs (opknobs.h). */
#include "opknobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "realistic.h"
#include "sliders.h"
#include "units.h"

/* The largest dimension --op accepts: 2^40. */
#define DIM_MAX 1099511627776.0

/* A dimension knob: the shape field it reads and writes, and the powers of
 * two its track spans. */
struct dim {
    const char *name;
    size_t offset;
    int lo_exp, hi_exp;
};

#define DIM(n, f, lo, hi) {n, offsetof(struct kernel_shape, f), lo, hi}
/* Indexed by enum op_knob, up to OPK_FORMAT. */
static const struct dim dims[OPK_FORMAT] = {
    DIM("m", m, 0, 16),          DIM("n", n, 0, 16),           DIM("k", k, 0, 16),
    DIM("batch", batch, 0, 10),  DIM("seq", seq, 0, 20),       DIM("kv len", kv_len, 0, 20),
    DIM("heads", heads, 0, 8),   DIM("kv heads", kv_heads, 0, 8), DIM("head dim", head_dim, 0, 9),
    DIM("window", window, 0, 20), DIM("tokens", tokens, 0, 16), DIM("hidden", hidden, 8, 16),
    DIM("inter", inter, 8, 17),  DIM("topk", topk, 0, 5),      DIM("experts", experts, 0, 9),
    DIM("tp", moe_tp, 0, 6),     DIM("ep", moe_ep, 0, 6),      DIM("bytes", message_bytes, 10, 34),
    DIM("gpus", gpus, 1, 9),
};
#undef DIM

static const char *const other_names[OPK_COUNT - OPK_FORMAT] = {"format", "kv", "chip", "engine"};

/* True when id is one of the dimension knobs. */
static bool is_dim(enum op_knob id)
{
    return (int)id >= 0 && id < OPK_FORMAT;
}

/* The field of shape s that dimension knob id reads. */
static double dim_get(const struct kernel_shape *s, enum op_knob id)
{
    return *(const double *)(const void *)((const char *)s + dims[id].offset);
}

/* Sets that field of s (the scenario's spec: a value > 0 is given). */
static void dim_set(struct kernel_shape *s, enum op_knob id, double v)
{
    *(double *)(void *)((char *)s + dims[id].offset) = v;
}

int op_knob_list(enum rt_kernel_kind k, enum op_knob out[OP_KNOBS_MAX])
{
    static const enum op_knob gemm[] = {OPK_M, OPK_N, OPK_K, OPK_FORMAT};
    static const enum op_knob prefill[] = {OPK_BATCH, OPK_SEQ, OPK_HEADS, OPK_KV_HEADS, OPK_HEAD_DIM, OPK_WINDOW,
                                           OPK_FORMAT, OPK_KV};
    static const enum op_knob decode[] = {OPK_BATCH, OPK_KV_LEN, OPK_HEADS, OPK_KV_HEADS, OPK_HEAD_DIM, OPK_WINDOW,
                                          OPK_KV};
    /* Latent attention caches one 576-wide latent a token: kv heads and the head width are the model's own. */
    static const enum op_knob mla[] = {OPK_BATCH, OPK_SEQ, OPK_HEADS, OPK_FORMAT, OPK_KV};
    static const enum op_knob decode_mla[] = {OPK_BATCH, OPK_KV_LEN, OPK_HEADS, OPK_KV};
    static const enum op_knob moe[] = {OPK_TOKENS, OPK_HIDDEN, OPK_INTER, OPK_TOPK, OPK_EXPERTS, OPK_TP, OPK_EP,
                                       OPK_FORMAT};
    static const enum op_knob collective[] = {OPK_BYTES, OPK_GPUS};
    const enum op_knob *list = collective;
    int n = 0;
#define USE(a) (list = (a), n = (int)(sizeof(a) / sizeof((a)[0])))
    switch (k) {
    case RT_KERNEL_GEMM: USE(gemm); break;
    case RT_KERNEL_ATTENTION: USE(prefill); break;
    case RT_KERNEL_DECODE_ATTENTION: USE(decode); break;
    case RT_KERNEL_MLA: USE(mla); break;
    case RT_KERNEL_DECODE_MLA: USE(decode_mla); break;
    case RT_KERNEL_MOE: USE(moe); break;
    default:
        if (kernel_kind_is_collective(k))
            USE(collective);
        break;
    }
#undef USE
    for (int i = 0; i < n; i++)
        out[i] = list[i];
    out[n++] = OPK_CHIP;
    out[n++] = OPK_ENGINE;
    return n;
}

const char *op_knob_name(enum op_knob id)
{
    if (is_dim(id))
        return dims[id].name;
    return (int)id >= 0 && id < OPK_COUNT ? other_names[id - OPK_FORMAT] : "?";
}

const char *op_knob_hint(enum op_knob id)
{
    switch (id) {
    case OPK_WINDOW: return "tokens, e.g. 4096; 0 or full: no window";
    case OPK_BYTES: return "bytes a chip sends, e.g. 16M or 1GiB";
    case OPK_FORMAT: return "a kernel format, e.g. bfloat16, fp8, nvfp4, int4_wo";
    case OPK_KV: return "bf16 or fp8";
    case OPK_CHIP: return "a chip name, e.g. h100, b200, a100-80";
    case OPK_ENGINE: return "an engine, e.g. trtllm, vllm, sglang";
    default: return is_dim(id) ? "a whole number, e.g. 8192 or 8k" : "";
    }
}

/* ---- the format and engine lists ---- */

/* The formats the format knob offers for kind k, into out; returns their
 * count: every kernel format for a GEMM or a MoE layer, bf16 or fp8
 * compute for prefill attention. */
static int format_list(enum rt_kernel_kind k, enum rt_kernel_format out[RT_KF_COUNT])
{
    if (k == RT_KERNEL_GEMM || k == RT_KERNEL_MOE) {
        for (int i = 0; i < RT_KF_COUNT; i++)
            out[i] = (enum rt_kernel_format)i;
        return RT_KF_COUNT;
    }
    out[0] = RT_KF_BF16;
    out[1] = RT_KF_FP8;
    return 2;
}

/* Index of f in list (n entries), or -1. */
static int format_index(const enum rt_kernel_format *list, int n, enum rt_kernel_format f)
{
    for (int i = 0; i < n; i++)
        if (list[i] == f)
            return i;
    return -1;
}

/* Index of the scenario's engine among the built-in ones, or -1 (a file's). */
static int engine_index(const struct scenario *s)
{
    for (size_t i = 0; i < engine_builtin_count(); i++)
        if (strcmp(engine_builtin(i)->name, s->engine.name) == 0)
            return (int)i;
    return -1;
}

/* Moves index i in [0, n) by dir x notches, clamped; from -1 (not in the
 * list) to the first entry going up, the last going down. */
static int step_index(int i, int n, int dir, int notches)
{
    if (i < 0)
        return dir > 0 ? 0 : n - 1;
    i += dir > 0 ? notches : -notches;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* ---- values ---- */

char *op_knob_value_text(const struct scenario *s, const struct kernel_shape *r, enum op_knob id, char *buf,
                         size_t size)
{
    if (is_dim(id)) {
        double v = dim_get(r, id);
        if (id == OPK_WINDOW && !(v > 0.0))
            snprintf(buf, size, "full");
        else if (id == OPK_BYTES)
            format_si(buf, size, v, "B");
        else
            format_number(buf, size, v, 0);
        return buf;
    }
    switch (id) {
    case OPK_FORMAT: snprintf(buf, size, "%s", kernel_format_name(r->format)); break;
    case OPK_KV: snprintf(buf, size, "%s", r->kv_fp8 ? "fp8" : "bf16"); break;
    case OPK_CHIP: snprintf(buf, size, "%s", s->chip.key); break;
    case OPK_ENGINE: snprintf(buf, size, "%s", s->engine.name); break;
    default: snprintf(buf, size, "?"); break;
    }
    return buf;
}

/* ---- stepping ---- */

/* The next power of two above v (dir > 0) or below it (dir < 0), notches
 * times, within [1, DIM_MAX]. */
static double step_pow2(double v, int dir, int notches)
{
    for (int k = 0; k < notches; k++) {
        double p = 1.0;
        if (dir > 0) {
            while (p <= v && p < DIM_MAX)
                p *= 2.0;
        } else {
            while (p * 2.0 < v)
                p *= 2.0;
        }
        v = p;
    }
    return v < 1.0 ? 1.0 : v > DIM_MAX ? DIM_MAX : v;
}

/* The window one step from w (0 = full) for attention over len tokens: the
 * powers of two, and past the length full, the largest window of all. */
static double step_window(double w, double len, int dir, int notches)
{
    for (int k = 0; k < notches; k++) {
        if (dir > 0) {
            if (!(w > 0.0))
                break;
            w = step_pow2(w, 1, 1);
            if (w >= len)
                w = 0.0;
        } else if (!(w > 0.0)) {
            w = len > 1.0 ? step_pow2(len, -1, 1) : 1.0;
        } else {
            w = step_pow2(w, -1, 1);
        }
    }
    return w;
}

/* The length a window applies to: the prompt, or the cached tokens. */
static double window_length(const struct kernel_shape *r)
{
    return r->kind == RT_KERNEL_ATTENTION || r->kind == RT_KERNEL_MLA ? r->seq : r->kv_len;
}

/* Puts value v of dimension id into the spec (given) when it differs from
 * r's; returns whether it did. */
static bool give_dim(struct scenario *s, const struct kernel_shape *r, enum op_knob id, double v)
{
    if (v == dim_get(r, id))
        return false;
    dim_set(&s->op.shape, id, v);
    return true;
}

/* Puts format f into the spec, given, when it differs from r's. */
static bool give_format(struct scenario *s, const struct kernel_shape *r, enum rt_kernel_format f)
{
    if (f == r->format)
        return false;
    s->op.shape.format = f;
    s->op.format_given = true;
    return true;
}

/* Puts the KV precision into the spec, given, when it differs from r's. */
static bool give_kv(struct scenario *s, const struct kernel_shape *r, bool fp8)
{
    if (fp8 == r->kv_fp8)
        return false;
    s->op.shape.kv_fp8 = fp8;
    s->op.kv_given = true;
    return true;
}

bool op_knob_step(struct scenario *s, const struct kernel_shape *r, enum op_knob id, int dir, bool coarse,
                  struct chip_list chips)
{
    if (dir == 0)
        return false;
    if (id == OPK_WINDOW)
        return give_dim(s, r, id, step_window(r->window, window_length(r), dir, coarse ? 2 : 1));
    if (is_dim(id)) {
        return give_dim(s, r, id, step_pow2(dim_get(r, id), dir, coarse ? 2 : 1));
    }
    switch (id) {
    case OPK_FORMAT: {
        enum rt_kernel_format list[RT_KF_COUNT];
        int n = format_list(r->kind, list), i = format_index(list, n, r->format);
        return give_format(s, r, list[step_index(i, n, dir, coarse ? 3 : 1)]);
    }
    case OPK_KV:
        return give_kv(s, r, dir > 0);
    case OPK_CHIP:
        return slider_step_in(s, SLIDER_CHIP, dir, coarse, chips);
    case OPK_ENGINE: {
        int n = (int)engine_builtin_count(), i = engine_index(s);
        int j = n > 0 ? step_index(i, n, dir, coarse ? 3 : 1) : i;
        if (j == i || j < 0)
            return false;
        s->engine = *engine_builtin((size_t)j);
        return true;
    }
    default:
        return false;
    }
}

/* ---- typed values ---- */

/* A typed dimension: a whole number in [1, 2^40] ([0, 2^40] and "full"
 * for a window). */
static int set_dim_text(struct scenario *s, enum op_knob id, const char *t, char *err, size_t errsize)
{
    const char *what = dims[id].name;
    double v;
    if (id == OPK_WINDOW && strcmp(t, "full") == 0)
        v = 0.0;
    else if (parse_number(t, &v) != 0) {
        snprintf(err, errsize, "%s: '%s' is not a number (%s)", what, t, op_knob_hint(id));
        return -1;
    }
    double lo = id == OPK_WINDOW ? 0.0 : 1.0;
    if (!(v >= lo && v <= DIM_MAX)) {
        snprintf(err, errsize, "%s: %s is out of range: give %s to 2^40", what, t, id == OPK_WINDOW ? "0" : "1");
        return -1;
    }
    if (v != floor(v)) {
        snprintf(err, errsize, "%s: %s is not a whole number", what, t);
        return -1;
    }
    dim_set(&s->op.shape, id, v);
    return 0;
}

/* A typed format: one the kind's kernels run. */
static int set_format_text(struct scenario *s, const struct kernel_shape *r, const char *t, char *err,
                           size_t errsize)
{
    enum rt_kernel_format list[RT_KF_COUNT], f;
    int n = format_list(r->kind, list);
    if (kernel_format_parse(t, &f) != 0 || format_index(list, n, f) < 0) {
        char names[200] = "";
        for (int i = 0; i < n; i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kernel_format_name(list[i]));
        }
        snprintf(err, errsize, "format: '%s' is not a format %s runs (%s)", t, kernel_kind_name(r->kind), names);
        return -1;
    }
    s->op.shape.format = f;
    s->op.format_given = true;
    return 0;
}

/* A typed engine: a built-in one by name. */
static int set_engine_text(struct scenario *s, const char *t, char *err, size_t errsize)
{
    const struct engine_profile *e = engine_find(t);
    if (e) {
        s->engine = *e;
        return 0;
    }
    char names[200] = "";
    for (size_t i = 0; i < engine_builtin_count(); i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", engine_builtin(i)->name);
    }
    snprintf(err, errsize, "engine: '%s' is not a built-in engine (%s)", t, names);
    return -1;
}

int op_knob_set_text(struct scenario *s, const struct kernel_shape *r, enum op_knob id, const char *text,
                     char *err, size_t errsize, struct chip_list chips)
{
    char t[128];
    trim_blanks(t, sizeof t, text);
    if (t[0] == '\0') {
        snprintf(err, errsize, "%s: nothing typed", op_knob_name(id));
        return -1;
    }
    struct scenario next = *s;
    int rc;
    if (is_dim(id)) {
        rc = set_dim_text(&next, id, t, err, errsize);
    } else if (id == OPK_FORMAT) {
        rc = set_format_text(&next, r, t, err, errsize);
    } else if (id == OPK_KV) {
        char v[16];
        name_normalize(v, sizeof v, t);
        rc = strcmp(v, "fp8") == 0 || strcmp(v, "bf16") == 0 || strcmp(v, "bfloat16") == 0 ? 0 : -1;
        if (rc == 0) {
            next.op.shape.kv_fp8 = strcmp(v, "fp8") == 0;
            next.op.kv_given = true;
        } else
            snprintf(err, errsize, "kv: '%s' is not a KV precision (bf16 or fp8)", t);
    } else if (id == OPK_CHIP) {
        rc = slider_set_text_in(&next, SLIDER_CHIP, t, err, errsize, chips);
    } else if (id == OPK_ENGINE) {
        rc = set_engine_text(&next, t, err, errsize);
    } else {
        snprintf(err, errsize, "no such knob");
        rc = -1;
    }
    if (rc == 0)
        *s = next;
    return rc;
}

/* ---- track positions ---- */

/* Clamps f into [0, 1]; NaN counts as 0. */
static double clamp01(double f)
{
    return f > 0.0 ? (f < 1.0 ? f : 1.0) : 0.0;
}

/* The window's track: 1, 2, 4 ... 2^hi_exp, then full at the right end. */
#define WINDOW_NOTCHES (dims[OPK_WINDOW].hi_exp + 2)

double op_knob_fraction(const struct scenario *s, const struct kernel_shape *r, enum op_knob id,
                        struct chip_list chips)
{
    if (id == OPK_WINDOW)
        return r->window > 0.0 ? clamp01(log2(r->window) / (WINDOW_NOTCHES - 1)) : 1.0;
    if (is_dim(id)) {
        double v = dim_get(r, id);
        return v > 0.0 ? clamp01((log2(v) - dims[id].lo_exp) / (dims[id].hi_exp - dims[id].lo_exp)) : 0.0;
    }
    switch (id) {
    case OPK_FORMAT: {
        enum rt_kernel_format list[RT_KF_COUNT];
        int n = format_list(r->kind, list), i = format_index(list, n, r->format);
        return n > 1 && i > 0 ? (double)i / (n - 1) : 0.0;
    }
    case OPK_KV: return r->kv_fp8 ? 1.0 : 0.0;
    case OPK_CHIP: return slider_fraction_in(s, SLIDER_CHIP, chips);
    case OPK_ENGINE: {
        int n = (int)engine_builtin_count(), i = engine_index(s);
        return n > 1 && i > 0 ? (double)i / (n - 1) : 0.0;
    }
    default: return 0.0;
    }
}

bool op_knob_set_fraction(struct scenario *s, const struct kernel_shape *r, enum op_knob id, double frac,
                          struct chip_list chips)
{
    frac = clamp01(frac);
    if (id == OPK_WINDOW) {
        int i = (int)lround(frac * (WINDOW_NOTCHES - 1));
        return give_dim(s, r, id, i >= WINDOW_NOTCHES - 1 ? 0.0 : ldexp(1.0, i));
    }
    if (is_dim(id)) {
        int e = (int)lround(dims[id].lo_exp + frac * (dims[id].hi_exp - dims[id].lo_exp));
        return give_dim(s, r, id, ldexp(1.0, e));
    }
    switch (id) {
    case OPK_FORMAT: {
        enum rt_kernel_format list[RT_KF_COUNT];
        int n = format_list(r->kind, list), i = (int)lround(frac * (n - 1));
        return give_format(s, r, list[i]);
    }
    case OPK_KV:
        return give_kv(s, r, frac >= 0.5);
    case OPK_CHIP:
        return slider_set_fraction_in(s, SLIDER_CHIP, frac, chips);
    case OPK_ENGINE: {
        int n = (int)engine_builtin_count(), i = (int)lround(frac * (n - 1));
        if (n < 1 || i == engine_index(s))
            return false;
        s->engine = *engine_builtin((size_t)i);
        return true;
    }
    default:
        return false;
    }
}
