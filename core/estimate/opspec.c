/* opspec.c — the --op flag's text. */
#include "opspec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h" /* parse_number, format_exact */

/* A key of the spec and the shape field it sets. */
struct op_key {
    const char *name;
    size_t offset;
};

#define KEY(n, f) {n, offsetof(struct kernel_shape, f)}
static const struct op_key gemm_keys[] = {KEY("m", m), KEY("n", n), KEY("k", k), {NULL, 0}};
static const struct op_key prefill_keys[] = {KEY("batch", batch), KEY("seq", seq), KEY("heads", heads),
                                             KEY("kv_heads", kv_heads), KEY("head_dim", head_dim),
                                             KEY("window", window), {NULL, 0}};
static const struct op_key decode_keys[] = {KEY("batch", batch), KEY("kv_len", kv_len), KEY("heads", heads),
                                            KEY("kv_heads", kv_heads), KEY("head_dim", head_dim),
                                            KEY("window", window), {NULL, 0}};
static const struct op_key moe_keys[] = {KEY("tokens", tokens), KEY("hidden", hidden), KEY("inter", inter),
                                         KEY("topk", topk), KEY("experts", experts), KEY("tp", moe_tp),
                                         KEY("ep", moe_ep), KEY("skew", skew), {NULL, 0}};
static const struct op_key collective_keys[] = {KEY("bytes", message_bytes), KEY("gpus", gpus), {NULL, 0}};
#undef KEY

static const struct op_key *keys_of(enum rt_kernel_kind k)
{
    switch (k) {
    case RT_KERNEL_GEMM: return gemm_keys;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA: return prefill_keys;
    case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA: return decode_keys;
    case RT_KERNEL_MOE: return moe_keys;
    default: return collective_keys;
    }
}

static void list_keys(char *buf, size_t size, enum rt_kernel_kind k)
{
    buf[0] = '\0';
    for (const struct op_key *key = keys_of(k); key->name; key++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "", key->name);
    }
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, ", format, kv, kernel, cache");
}

/* Applies one KEY=VALUE to out. */
static int apply_key(struct op_spec *out, const char *key, const char *value, char *err, size_t errsize)
{
    const char *kind = kernel_kind_name(out->shape.kind);
    if (strcmp(key, "format") == 0 || strcmp(key, "dtype") == 0) {
        if (kernel_format_parse(value, &out->shape.format) != 0) {
            char names[240] = "";
            for (int f = 0; f < RT_KF_COUNT; f++) { /* the formats kernels.h knows, so the list cannot drift */
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", f ? ", " : "",
                         kernel_format_name((enum rt_kernel_format)f));
            }
            snprintf(err, errsize, "--op %s: unknown format '%s' (%s; bf16, int8 and int4 name bfloat16, sq and int4_wo)",
                     kind, value, names);
            return -1;
        }
        out->format_given = true;
        return 0;
    }
    if (strcmp(key, "kv") == 0) {
        enum rt_kernel_format f;
        if (kernel_format_parse(value, &f) != 0 || (f != RT_KF_BF16 && f != RT_KF_FP8)) {
            snprintf(err, errsize, "--op %s: kv must be bf16 or fp8 (got '%s')", kind, value);
            return -1;
        }
        out->shape.kv_fp8 = f == RT_KF_FP8;
        out->kv_given = true;
        return 0;
    }
    if (strcmp(key, "kernel") == 0) {
        out->shape.family = kernel_family_of(value);
        if (out->shape.family == RT_KFAM_DEFAULT && strcmp(value, "default") != 0) {
            char names[240] = "";
            for (int f = RT_KFAM_DEFAULT; f < RT_KFAM_COUNT; f++) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", kernel_family_name((enum rt_kernel_family)f));
            }
            snprintf(err, errsize, "--op %s: unknown kernel '%s' (%s)", kind, value, names);
            return -1;
        }
        return 0;
    }
    if (strcmp(key, "cache") == 0) {
        if (strcmp(value, "warm") != 0 && strcmp(value, "cold") != 0) {
            snprintf(err, errsize, "--op %s: cache must be warm or cold (got '%s')", kind, value);
            return -1;
        }
        out->shape.warm_cache = strcmp(value, "warm") == 0;
        return 0;
    }
    for (const struct op_key *k = keys_of(out->shape.kind); k->name; k++) {
        if (strcmp(key, k->name) != 0)
            continue;
        double v;
        bool zero_ok = strcmp(key, "window") == 0 || strcmp(key, "skew") == 0;
        double lo = zero_ok ? 0.0 : strcmp(key, "gpus") == 0 ? 2.0 : 1.0; /* a collective takes two at least */
        bool whole = strcmp(key, "skew") != 0; /* a count of elements, tokens, heads or GPUs */
        if (parse_number(value, &v) != 0 || !(v >= lo) || v > 1099511627776.0 ||
            (whole && v != floor(v))) {
            snprintf(err, errsize, "--op %s: '%s' must be a%s number from %.0f to 2^40 (got '%s')", kind, key,
                     whole ? " whole" : "", lo, value);
            return -1;
        }
        *(double *)(void *)((char *)&out->shape + k->offset) = v;
        return 0;
    }
    char keys[160];
    list_keys(keys, sizeof keys, out->shape.kind);
    snprintf(err, errsize, "--op %s: unknown key '%s' (%s)", kind, key, keys);
    return -1;
}

int op_spec_parse(const char *text, struct op_spec *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    char buf[RT_OP_SPEC_MAX];
    if (!text || strlen(text) >= sizeof buf) {
        snprintf(err, errsize, "--op: the operation is too long (at most %d characters)", RT_OP_SPEC_MAX - 1);
        return -1;
    }
    strcpy(buf, text);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    if (kernel_kind_parse(buf, &out->shape.kind) != 0) {
        snprintf(err, errsize, "--op: unknown operation '%s' (gemm, attention, decode-attention, mla, decode-mla, "
                               "moe, all-reduce, all-gather, reduce-scatter, all-to-all)", buf);
        return -1;
    }
    out->set = true;
    const char *seen[32];
    int seen_count = 0;
    for (char *item = colon ? colon + 1 : NULL; item && *item;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, errsize, "--op %s: '%s' is not KEY=VALUE", kernel_kind_name(out->shape.kind), item);
            return -1;
        }
        *eq = '\0';
        for (int i = 0; i < seen_count; i++)
            if (strcmp(seen[i], item) == 0) {
                snprintf(err, errsize, "--op %s: '%s' is given twice", kernel_kind_name(out->shape.kind), item);
                return -1;
            }
        if (seen_count < (int)(sizeof seen / sizeof seen[0]))
            seen[seen_count++] = item;
        if (apply_key(out, item, eq + 1, err, errsize) != 0)
            return -1;
        item = comma ? comma + 1 : NULL;
    }
    enum rt_kernel_kind k = out->shape.kind;
    if (out->format_given && kernel_kind_is_attention(k) && out->shape.format != RT_KF_BF16 && out->shape.format != RT_KF_FP8) {
        snprintf(err, errsize, "--op %s: format must be bfloat16 or fp8 (attention's compute; kv= sets the cache's)",
                 kernel_kind_name(k));
        return -1;
    }
    if (out->format_given && kernel_kind_is_collective(k) && out->shape.format != RT_KF_BF16 &&
        out->shape.format != RT_KF_INT8) {
        snprintf(err, errsize, "--op %s: a collective's elements are bfloat16 or int8 (bytes= gives its size)",
                 kernel_kind_name(k));
        return -1;
    }
    return 0;
}

char *op_spec_format(char *buf, size_t size, const struct op_spec *spec)
{
    snprintf(buf, size, "%s", kernel_kind_name(spec->shape.kind));
    char sep = ':';
    for (const struct op_key *k = keys_of(spec->shape.kind); k->name; k++) {
        double v = *(const double *)(const void *)((const char *)&spec->shape + k->offset);
        if (v > 0.0) {
            char num[32];
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, "%c%s=%s", sep, k->name, format_exact(num, sizeof num, v));
            sep = ',';
        }
    }
    size_t used = strlen(buf);
    if (spec->format_given) {
        snprintf(buf + used, size - used, "%cformat=%s", sep, kernel_format_name(spec->shape.format));
        sep = ',', used = strlen(buf);
    }
    if (spec->kv_given) {
        snprintf(buf + used, size - used, "%ckv=%s", sep, spec->shape.kv_fp8 ? "fp8" : "bf16");
        sep = ',', used = strlen(buf);
    }
    if (spec->shape.family != RT_KFAM_ANY) {
        snprintf(buf + used, size - used, "%ckernel=%s", sep, kernel_family_name(spec->shape.family));
        sep = ',', used = strlen(buf);
    }
    if (spec->shape.warm_cache)
        snprintf(buf + used, size - used, "%ccache=warm", sep);
    return buf;
}
