/* sweep.c — one knob over a list of values. */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const sweep_names[RT_SWEEP_COUNT] = {"chips", "params", "batch", "kv-heads"};

const char *sweep_kind_name(enum rt_sweep_kind k)
{
    return ((int)k >= 0 && k < RT_SWEEP_COUNT) ? sweep_names[k] : "?";
}

int sweep_kind_parse(const char *text, enum rt_sweep_kind *out)
{
    for (int i = 0; i < RT_SWEEP_COUNT; i++) {
        if (text && strcmp(text, sweep_names[i]) == 0) {
            *out = (enum rt_sweep_kind)i;
            return 0;
        }
    }
    return -1;
}

size_t sweep_default_values(enum rt_sweep_kind k, const struct scenario *base, double *values, size_t max)
{
    static const double chips[] = {1, 4, 16, 64, 128};
    static const double params[] = {70e9, 35e9, 17e9, 8e9};
    static const double batch[] = {1, 8, 64, 256, 1024};
    const double *src = NULL;
    size_t n = 0;
    double kv[4];
    switch (k) {
    case RT_SWEEP_CHIPS:
        src = chips, n = sizeof chips / sizeof chips[0];
        break;
    case RT_SWEEP_PARAMS:
        src = params, n = sizeof params / sizeof params[0];
        break;
    case RT_SWEEP_BATCH:
        src = batch, n = sizeof batch / sizeof batch[0];
        break;
    case RT_SWEEP_KV_HEADS: {
        /* The guide's MHA, GQA-8 and MQA, and the model's own count where it
         * is none of them (Llama 3.1 8B: 32, 8, 4, 1), largest first. */
        int64_t h = base->model.heads, own = base->model.kv_heads;
        kv[n++] = (double)h;
        if (own < h && own > 1 && (h % 8 != 0 || own > h / 8))
            kv[n++] = (double)own;
        if (h % 8 == 0 && h / 8 > 1)
            kv[n++] = (double)(h / 8);
        if (own < h && own > 1 && h % 8 == 0 && own < h / 8)
            kv[n++] = (double)own;
        if (h > 1)
            kv[n++] = 1.0;
        src = kv;
        break;
    }
    default:
        return 0;
    }
    if (n > max)
        n = max;
    memcpy(values, src, n * sizeof *values);
    return n;
}

int sweep_apply(enum rt_sweep_kind k, double v, struct scenario *s, char *err, size_t errsize)
{
    const char *name = sweep_kind_name(k);
    char given[32];
    format_exact(given, sizeof given, v);
    if (!isfinite(v) || v != floor(v)) {
        snprintf(err, errsize, "--values %s: --sweep=%s takes whole numbers", given, name);
        return -1;
    }
    /* The knob's own range, so a value is refused as itself, not later as an unnamed product. */
    double hi = k == RT_SWEEP_CHIPS   ? (double)RT_MAX_CHIPS
                : k == RT_SWEEP_BATCH ? (double)RT_MAX_BATCH
                : k == RT_SWEEP_PARAMS ? RT_MAX_PARAMS
                                       : (double)s->model.heads;
    if (v < 1.0 || v > hi) {
        char top[32];
        snprintf(err, errsize, "--values %s is out of range for --sweep=%s: give whole numbers from 1 to %s", given, name,
                 format_exact(top, sizeof top, hi));
        return -1;
    }
    switch (k) {
    case RT_SWEEP_CHIPS:
        s->chips = (int64_t)v;
        break;
    case RT_SWEEP_PARAMS:
        s->params = v;
        break;
    case RT_SWEEP_BATCH:
        s->batch = (int64_t)v;
        break;
    case RT_SWEEP_KV_HEADS:
        if (s->model.kv_lora_rank > 0) {
            snprintf(err, errsize, "--sweep=kv-heads: %s uses latent attention; its KV cache does not depend on kv "
                                   "heads",
                     s->model.name);
            return -1;
        }
        if (v > (double)s->model.heads || s->model.heads % (int64_t)v != 0) {
            snprintf(err, errsize, "--values %s: kv heads must divide the model's %lld heads", given,
                     (long long)s->model.heads);
            return -1;
        }
        s->model.kv_heads = (int64_t)v;
        break;
    default:
        snprintf(err, errsize, "unknown sweep");
        return -1;
    }
    return 0;
}

int sweep_run(enum rt_sweep_kind k, const struct scenario *base, const double *values, size_t n,
              struct analysis *rows, char *err, size_t errsize)
{
    if (n == 0 || n > RT_SWEEP_MAX_VALUES) {
        snprintf(err, errsize, "--values: give from 1 to %d values", RT_SWEEP_MAX_VALUES);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct scenario s = *base;
        if (sweep_apply(k, values[i], &s, err, errsize) != 0)
            return -1;
        char why[256];
        if (analyze(&s, &rows[i], why, sizeof why) != 0) {
            char at[32];
            snprintf(err, errsize, "--sweep=%s at %s: %s", sweep_kind_name(k), format_exact(at, sizeof at, values[i]),
                     why);
            return -1;
        }
    }
    return 0;
}
