/* sliders.c — the knobs: names, values, steps, typed values, track positions. */
#include "sliders.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "knobs.h"
#include "suggest.h"

static const char *const names[SLIDER_COUNT] = {
    "batch", "model", "kv heads", "chips", "pp", "ep", "precision", "act prec", "chip",
    "context", "prefill", "decode", "budget", "overhead", "prefl MFU", "kv prec", "reserve",
};


static const char *const hints[SLIDER_COUNT] = {
    "a whole number, e.g. 64",
    "a preset (llama-3.1-8b) or a size (35B)",
    "a divisor of the head count",
    "a whole number, e.g. 64",
    "pipeline stages, e.g. 2 (at most the layers)",
    "expert groups dividing the experts, e.g. 8",
    "bf16, fp8, fp8-block, int8, nvfp4, mxfp4 or int4",
    "auto, bf16, fp8, fp8-block, int8, nvfp4 or mxfp4",
    "a chip name, e.g. h100, a100-80, tpu-v5e",
    "tokens, e.g. 8192 or 8k (k = 1024)",
    "tokens, e.g. 8192 or 8k (k = 1024)",
    "tokens, e.g. 128 or 1k (k = 1024)",
    "seconds, e.g. 1, 0.5 or 500ms",
    "seconds, e.g. 0.25 or 250ms",
    "a fraction or a percent with its sign, e.g. 0.4 or 40%",
    "bf16, fp8, fp8-block, int8, nvfp4, mxfp4 or int4",
    "bytes, all chips together, e.g. 10GB or 16GiB",
};

int slider_first_visible(int selected, int rows)
{
    if (rows < 1 || rows >= SLIDER_COUNT)
        return 0;
    int first = selected - rows + 1;
    return first < 0 ? 0 : first > SLIDER_COUNT - rows ? SLIDER_COUNT - rows : first;
}

/* The tensor-parallel degree of s (chips / (pp x ep)), at least 1. */
static int64_t tp_of(const struct scenario *s)
{
    int64_t tp = scenario_tp(s);
    return tp >= 1 ? tp : 1;
}

/* Sets the layout to tp x pp x ep chips, each degree clamped so the
 * product stays within RT_MAX_CHIPS. */
static void set_layout(struct scenario *s, int64_t tp, int64_t pp, int64_t ep)
{
    while (tp > 1 && tp * pp * ep > RT_MAX_CHIPS)
        tp /= 2;
    s->pp = pp;
    s->ep = ep;
    s->chips = tp * pp * ep;
}

const char *slider_name(enum slider_id id)
{
    return (int)id >= 0 && id < SLIDER_COUNT ? names[id] : "?";
}

const char *slider_hint(enum slider_id id)
{
    return (int)id >= 0 && id < SLIDER_COUNT ? hints[id] : "";
}

/* ---- model list: the presets and the guide's sizes, ordered by size ---- */

#define MAX_MODEL_ENTRIES 64

struct model_entry {
    const struct model_shape *shape;
    double params; /* > 0: the guide's size given as N on this shape; 0: the shape's own count */
    double size;   /* total parameters, for ordering */
};

/* The guide's chapter-6 sizes, shown on guide-70b's shape with N given. */
static const double guide_sizes[] = {8e9, 17e9, 35e9};

/* Total parameters of a shape as the analysis would count them. */
static double shape_size(const struct model_shape *m)
{
    return m->stated_params > 0.0 ? m->stated_params : model_param_count(m).total;
}

/* Fills out[] with the model entries in ascending size; returns the count. */
static int model_entries(struct model_entry *out)
{
    int n = 0;
    const struct model_shape *guide = model_find("guide-70b");
    for (size_t i = 0; i < model_builtin_count() && n < MAX_MODEL_ENTRIES; i++) {
        const struct model_shape *m = model_builtin(i);
        out[n++] = (struct model_entry){m, 0.0, shape_size(m)};
    }
    for (size_t i = 0; guide && i < sizeof guide_sizes / sizeof guide_sizes[0] && n < MAX_MODEL_ENTRIES; i++)
        out[n++] = (struct model_entry){guide, guide_sizes[i], guide_sizes[i]};
    for (int i = 1; i < n; i++) { /* insertion sort: a handful of entries */
        struct model_entry e = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].size > e.size) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = e;
    }
    return n;
}

/* Size of the scenario's model as the list orders it. */
static double scenario_model_size(const struct scenario *s)
{
    return s->params > 0.0 ? s->params : shape_size(&s->model);
}

double slider_model_size(const struct scenario *s)
{
    return scenario_model_size(s);
}

/* After a model change: drops expert parallelism the new model cannot
 * take and pipeline stages beyond its layers, keeping tp. */
static void fit_layout(struct scenario *s, int64_t tp)
{
    int64_t pp = s->pp, ep = s->ep;
    while (pp > 1 && pp > s->model.layers)
        pp /= 2;
    if (s->model.experts <= 1 || s->model.experts % ep != 0)
        ep = 1;
    if (pp != s->pp || ep != s->ep)
        set_layout(s, tp, pp, ep);
}

/* Index of the scenario's model in the list, or -1 when it is not one of them. */
static int model_index(const struct scenario *s, const struct model_entry *e, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].shape->name, s->model.name) == 0 && e[i].params == s->params)
            return i;
    return -1;
}

/* Applies model entry e to *s. */
static void apply_model(struct scenario *s, const struct model_entry *e)
{
    int64_t tp = tp_of(s);
    scenario_set_model(s, e->shape);
    s->params = e->params;
    fit_layout(s, tp);
}

/* ---- helpers ---- */

/* The next power of two above v (dir > 0) or below v (dir < 0), clamped to
 * [lo, hi]; returns v when already at that end. */
static int64_t step_pow2(int64_t v, int dir, int notches, int64_t lo, int64_t hi)
{
    for (int k = 0; k < notches; k++) {
        int64_t p = 1;
        if (dir > 0) {
            while (p <= v && p < hi)
                p *= 2;
            v = p;
        } else if (v <= lo) {
            v = lo;
        } else {
            while (p * 2 < v)
                p *= 2;
            v = p;
        }
    }
    return v < lo ? lo : v > hi ? hi : v;
}

/* Token counts: 0 and the powers of two in [lo, hi]. */
static int64_t step_tokens(int64_t v, int dir, int notches, int64_t lo, int64_t hi)
{
    for (int k = 0; k < notches; k++) {
        if (dir > 0)
            v = v <= 0 ? 1 : step_pow2(v, 1, 1, 1, hi);
        else if (v <= 1)
            v = lo;
        else
            v = step_pow2(v, -1, 1, 1, hi);
    }
    return v < lo ? lo : v > hi ? hi : v;
}

/* The 1-2-5 series: the next value above (dir > 0) or below v. */
static double step_125(double v, int dir)
{
    static const double m[] = {1.0, 2.0, 5.0};
    int e = (int)floor(log10(v));
    double best = dir > 0 ? INFINITY : 0.0;
    for (int d = e - 1; d <= e + 1; d++) {
        for (int i = 0; i < 3; i++) {
            double c = m[i] * pow(10.0, d);
            if (dir > 0 && c > v * (1 + 1e-9) && c < best)
                best = c;
            if (dir < 0 && c < v * (1 - 1e-9) && c > best)
                best = c;
        }
    }
    return best;
}

/* Snaps v to the grid of `step` and moves notches grid steps in dir. */
static double step_linear(double v, int dir, double step, int notches)
{
    double k = round(v / step);
    double on = k * step;
    if (dir > 0)
        k += (on > v + 1e-9 ? notches - 1 : notches);
    else
        k -= (on < v - 1e-9 ? notches - 1 : notches);
    return k * step;
}

/* Puts chip c in *s and drops the overrides that described the old chip,
 * and an activation precision it has no peak for. */
static void apply_chip(struct scenario *s, const struct chip_spec *c)
{
    s->chip = *c;
    s->peak_flops_override = 0.0;
    s->hbm_bytes_per_s_override = 0.0;
    s->hbm_bytes_override = 0.0;
    if (s->act_precision != RT_PRECISION_AUTO &&
        !((int)s->act_precision < RT_PRECISION_COUNT && c->peak_flops_per_s[s->act_precision] > 0.0))
        s->act_precision = RT_PRECISION_AUTO;
}

/* ---- precision lists: the shown order (units.h, precision_ordered) ---- */

/* The act precision knob's notches: auto, then the shown order without int4. */
#define ACT_NOTCHES RT_PRECISION_COUNT

/* The act precision at notch i: 0 auto, then the shown order skipping int4. */
static enum rt_precision act_at(int i)
{
    if (i <= 0)
        return RT_PRECISION_AUTO;
    for (int k = 0, n = 0; k < RT_PRECISION_COUNT; k++) {
        enum rt_precision p = precision_ordered(k);
        if (p != RT_INT4 && ++n == i)
            return p;
    }
    return precision_ordered(RT_PRECISION_COUNT - 2); /* the narrowest, mxfp4 */
}

/* The notch of act precision p (0 for auto or int4). */
static int act_notch(enum rt_precision p)
{
    for (int i = 1; i < ACT_NOTCHES; i++)
        if (act_at(i) == p)
            return i;
    return 0;
}

/* True when the chip of s can run matmuls at act precision p: auto, a
 * native peak, or --peak-flops standing in for one. */
static bool act_runs(const struct scenario *s, enum rt_precision p)
{
    return p == RT_PRECISION_AUTO || s->chip.peak_flops_per_s[p] > 0.0 || s->peak_flops_override > 0.0;
}

/* The act knob's notch `notches` steps from s's in direction dir, each
 * step to the next notch the chip can run; stops at either end. */
static int step_act(const struct scenario *s, int dir, int notches)
{
    int i = act_notch(s->act_precision);
    for (int k = 0; k < notches; k++) {
        int j = i + (dir > 0 ? 1 : -1);
        while (j > 0 && j < ACT_NOTCHES && !act_runs(s, act_at(j)))
            j += dir > 0 ? 1 : -1;
        if (j < 0 || j >= ACT_NOTCHES)
            break;
        i = j;
    }
    return i;
}

/* Moves an index in [0, n) by dir x notches, clamped. */
static int step_index(int i, int n, int dir, int notches)
{
    i += dir > 0 ? notches : -notches;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* True when some layer of m attends with softmax attention, so that kv
 * heads shape its KV cache (a shape without a schedule is all attention). */
static bool has_attention(const struct model_shape *m)
{
    if (m->kind_count == 0)
        return true;
    for (int k = 0; k < m->kind_count; k++)
        if (m->kinds[k].count > 0 && mixer_is_attention(m->kinds[k].mixer))
            return true;
    return false;
}

/* The reserve's notches: 0, then the 1-2-5 series from 1 GB up to the
 * 1e21 bytes --reserve accepts. */
#define RESERVE_LOW 1e9
#define RESERVE_HIGH 1e21

/* The next reserve notch above (dir > 0) or below v. */
static double step_reserve(double v, int dir)
{
    if (dir > 0)
        return v < RESERVE_LOW ? RESERVE_LOW : step_125(v, 1);
    if (v <= RESERVE_LOW)
        return 0.0;
    double down = step_125(v, -1);
    return down < RESERVE_LOW ? 0.0 : down;
}

/* ---- values ---- */

char *slider_value_text(const struct scenario *s, enum slider_id id, char *buf, size_t size)
{
    char tmp[32];
    switch (id) {
    case SLIDER_BATCH:
        format_number(buf, size, (double)s->batch, 0);
        break;
    case SLIDER_MODEL:
        if (s->params > 0.0)
            snprintf(buf, size, "N=%s", format_count(tmp, sizeof tmp, s->params));
        else
            snprintf(buf, size, "%s", s->model.name);
        break;
    case SLIDER_KV_HEADS:
        if (s->model.kv_lora_rank > 0)
            snprintf(buf, size, "latent (MLA)");
        else if (!has_attention(&s->model))
            snprintf(buf, size, "state space");
        else
            snprintf(buf, size, "%lld of %lld", (long long)s->model.kv_heads, (long long)s->model.heads);
        break;
    case SLIDER_CHIPS:
        format_number(buf, size, (double)s->chips, 0);
        break;
    case SLIDER_PP:
        snprintf(buf, size, "%lld", (long long)s->pp);
        break;
    case SLIDER_EP:
        if (s->model.experts <= 1)
            snprintf(buf, size, "dense");
        else
            snprintf(buf, size, "%lld", (long long)s->ep);
        break;
    case SLIDER_PRECISION:
        snprintf(buf, size, "%s", precision_name(s->precision));
        break;
    case SLIDER_ACT_PRECISION:
        if (s->act_precision == RT_PRECISION_AUTO) /* what auto resolves to, as the analysis takes it */
            snprintf(buf, size, "auto (%s)", precision_name(analysis_compute_precision(s)));
        else
            snprintf(buf, size, "%s", precision_name(s->act_precision));
        break;
    case SLIDER_CHIP:
        snprintf(buf, size, "%s", s->chip.key);
        break;
    case SLIDER_CONTEXT:
        format_number(buf, size, (double)s->context_tokens, 0);
        break;
    case SLIDER_PREFILL:
        format_number(buf, size, (double)s->prefill_tokens, 0);
        break;
    case SLIDER_DECODE:
        format_number(buf, size, (double)s->decode_tokens, 0);
        break;
    case SLIDER_BUDGET:
    case SLIDER_OVERHEAD: {
        double v = id == SLIDER_BUDGET ? s->budget_s : s->overhead_s;
        if (v >= 1000.0)
            snprintf(buf, size, "%.0f s", v);
        else if (v >= 0.1 || v == 0.0)
            snprintf(buf, size, "%.3g s", v);
        else
            format_seconds(buf, size, v); /* "50.0 ms", as the panels write it */
        break;
    }
    case SLIDER_MFU: /* whole percents, more digits when a typed value needs them */
        if (fabs(s->mfu * 100.0 - round(s->mfu * 100.0)) < 1e-9)
            snprintf(buf, size, "%.0f%%", s->mfu * 100.0);
        else
            snprintf(buf, size, "%.4g%%", s->mfu * 100.0);
        break;
    case SLIDER_KV_PRECISION:
        snprintf(buf, size, "%s", precision_name(s->kv_precision));
        break;
    case SLIDER_RESERVE:
        if (s->reserve_bytes > 0.0)
            format_si(buf, size, s->reserve_bytes, "B");
        else
            snprintf(buf, size, "none");
        break;
    default:
        snprintf(buf, size, "?");
        break;
    }
    return buf;
}

/* ---- stepping ---- */

bool slider_step_in(struct scenario *s, enum slider_id id, int dir, bool coarse, struct chip_list chips)
{
    char why[8];
    if (dir == 0 || slider_inert(s, id, why, sizeof why))
        return false;
    struct scenario before = *s;
    switch (id) {
    case SLIDER_BATCH:
        s->batch = step_pow2(s->batch, dir, coarse ? 2 : 1, 1, RT_MAX_BATCH);
        break;
    case SLIDER_CHIPS: {
        int64_t rest = s->pp * s->ep;
        set_layout(s, step_pow2(tp_of(s), dir, coarse ? 2 : 1, 1, RT_MAX_CHIPS / rest), s->pp, s->ep);
        break;
    }
    case SLIDER_PP: {
        int64_t tp = tp_of(s), hi = s->model.layers;
        while (hi > 1 && tp * hi * s->ep > RT_MAX_CHIPS)
            hi /= 2;
        set_layout(s, tp, step_pow2(s->pp, dir, coarse ? 2 : 1, 1, hi), s->ep);
        break;
    }
    case SLIDER_EP: {
        if (s->model.experts <= 1)
            return false;
        int64_t tp = tp_of(s), ep = s->ep;
        for (int k = 0; k < (coarse ? 2 : 1); k++) {
            int64_t next = dir > 0 ? ep * 2 : ep / 2;
            if (next < 1 || s->model.experts % next != 0 || tp * s->pp * next > RT_MAX_CHIPS)
                break;
            ep = next;
        }
        set_layout(s, tp, s->pp, ep);
        break;
    }
    case SLIDER_MODEL: {
        struct model_entry e[MAX_MODEL_ENTRIES];
        int n = model_entries(e);
        int i = model_index(s, e, n);
        if (i < 0) { /* a custom model: move to the nearest preset in that direction */
            double size = scenario_model_size(s);
            i = dir > 0 ? n : -1;
            for (int k = 0; k < n; k++) {
                if (dir > 0 && e[k].size > size) {
                    i = k;
                    break;
                }
                if (dir < 0 && e[k].size < size)
                    i = k;
            }
            if (i < 0 || i >= n)
                return false;
        } else {
            i = step_index(i, n, dir, coarse ? 3 : 1);
        }
        if (model_index(s, e, n) != i)
            apply_model(s, &e[i]);
        break;
    }
    case SLIDER_KV_HEADS: {
        if (s->model.kv_lora_rank > 0) /* latent attention: kv heads do not shape the cache */
            return false;
        int64_t d[512];
        int n = model_head_divisors(s->model.heads, d, 512);
        int i = 0;
        if (dir > 0) {
            while (i < n && d[i] <= s->model.kv_heads)
                i++;
            if (i >= n)
                return false;
            if (coarse)
                i = step_index(i, n, 1, 2);
        } else {
            i = n - 1;
            while (i >= 0 && d[i] >= s->model.kv_heads)
                i--;
            if (i < 0)
                return false;
            if (coarse)
                i = step_index(i, n, -1, 2);
        }
        s->model.kv_heads = d[i];
        break;
    }
    case SLIDER_PRECISION:
        s->precision = precision_ordered(step_index(precision_rank(s->precision), RT_PRECISION_COUNT, dir, coarse ? 3 : 1));
        break;
    case SLIDER_ACT_PRECISION:
        s->act_precision = act_at(step_act(s, dir, coarse ? 3 : 1));
        break;
    case SLIDER_CHIP: {
        int n = (int)chips.count;
        if (n <= 0)
            return false;
        int i = chip_list_index(chips, s->chip.key);
        i = i < 0 ? (dir > 0 ? 0 : n - 1) : step_index(i, n, dir, coarse ? 3 : 1);
        if (i != chip_list_index(chips, s->chip.key))
            apply_chip(s, &chips.items[i]);
        break;
    }
    case SLIDER_CONTEXT:
        s->context_tokens = step_tokens(s->context_tokens, dir, coarse ? 3 : 1, 1, RT_MAX_TOKENS);
        break;
    case SLIDER_PREFILL:
        s->prefill_tokens = step_tokens(s->prefill_tokens, dir, coarse ? 3 : 1, 0, RT_MAX_TOKENS);
        break;
    case SLIDER_DECODE:
        s->decode_tokens = step_tokens(s->decode_tokens, dir, coarse ? 3 : 1, 0, RT_MAX_TOKENS);
        break;
    case SLIDER_BUDGET: {
        double v = s->budget_s;
        if (coarse)
            v = dir > 0 ? v * 10.0 : v / 10.0;
        else
            v = step_125(v, dir);
        if (!(isfinite(v) && v >= 1e-3 && v <= 1e6))
            return false;
        s->budget_s = v;
        break;
    }
    case SLIDER_OVERHEAD: {
        double v = step_linear(s->overhead_s, dir, coarse ? 0.25 : 0.05, 1);
        if (v < 0.0)
            v = 0.0;
        if (!(v <= 1e6))
            return false;
        s->overhead_s = v;
        break;
    }
    case SLIDER_MFU: {
        double v = step_linear(s->mfu, dir, coarse ? 0.25 : 0.05, 1);
        if (v < 0.05)
            v = 0.05;
        if (v > 1.0)
            v = 1.0;
        s->mfu = v;
        break;
    }
    case SLIDER_KV_PRECISION:
        s->kv_precision =
            precision_ordered(step_index(precision_rank(s->kv_precision), RT_PRECISION_COUNT, dir, coarse ? 3 : 1));
        break;
    case SLIDER_RESERVE: {
        double v = s->reserve_bytes;
        for (int k = 0; k < (coarse ? 3 : 1); k++)
            v = step_reserve(v, dir);
        if (!(v <= RESERVE_HIGH))
            return false;
        s->reserve_bytes = v;
        break;
    }
    default:
        return false;
    }
    return memcmp(&before, s, sizeof before) != 0;
}

/* ---- typed values ---- */

/* Parses a whole number in [lo, hi] for slider `what`; a token count
 * (tokens true) takes k and M as powers of two (parse_token_count). */
static int parse_whole_in(const char *text, int64_t lo, int64_t hi, const char *what, bool tokens, int64_t *out,
                          char *err, size_t errsize)
{
    double v;
    if ((tokens ? parse_token_count(text, &v) : parse_number(text, &v)) != 0) {
        snprintf(err, errsize, "%s: '%s' is not a number", what, text);
        return -1;
    }
    if (!(v >= (double)lo && v <= (double)hi)) {
        snprintf(err, errsize, "%s: %s is out of range: give %lld to %lld", what, text, (long long)lo,
                 (long long)hi);
        return -1;
    }
    if (v != floor(v)) {
        snprintf(err, errsize, "%s: %s is not a whole number", what, text);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

/* parse_whole_in for a count that is not of tokens. */
static int parse_whole(const char *text, int64_t lo, int64_t hi, const char *what, int64_t *out, char *err,
                       size_t errsize)
{
    return parse_whole_in(text, lo, hi, what, false, out, err, errsize);
}

/* slider_set_text_in's parsing: the typed value into *s, with the knob's
 * own range; whether the scenario still holds together is checked after. */
static int set_text_unchecked(struct scenario *s, enum slider_id id, const char *text, char *err, size_t errsize,
                              struct chip_list chips)
{
    char t[128];
    trim_blanks(t, sizeof t, text);
    const char *what = slider_name(id);
    if (t[0] == '\0') {
        snprintf(err, errsize, "%s: nothing typed", what);
        return -1;
    }
    int64_t iv;
    double v;
    switch (id) {
    case SLIDER_BATCH:
        if (parse_whole(t, 1, RT_MAX_BATCH, what, &iv, err, errsize))
            return -1;
        s->batch = iv;
        return 0;
    case SLIDER_CHIPS:
        if (parse_whole(t, 1, RT_MAX_CHIPS, what, &iv, err, errsize))
            return -1;
        s->chips = iv;
        return 0;
    case SLIDER_PP:
        if (parse_whole(t, 1, s->model.layers, what, &iv, err, errsize))
            return -1;
        if ((double)tp_of(s) * (double)iv * (double)s->ep > (double)RT_MAX_CHIPS) {
            snprintf(err, errsize, "pp: %lld stages would take more than %lld chips", (long long)iv,
                     (long long)RT_MAX_CHIPS);
            return -1;
        }
        set_layout(s, tp_of(s), iv, s->ep);
        return 0;
    case SLIDER_EP: {
        char why[200];
        if (slider_inert(s, id, why, sizeof why)) { /* a dense model */
            snprintf(err, errsize, "%s", why);
            return -1;
        }
        if (parse_whole(t, 1, s->model.experts, what, &iv, err, errsize))
            return -1;
        if ((double)tp_of(s) * (double)s->pp * (double)iv > (double)RT_MAX_CHIPS) {
            snprintf(err, errsize, "ep: %lld groups would take more than %lld chips", (long long)iv,
                     (long long)RT_MAX_CHIPS);
            return -1;
        }
        set_layout(s, tp_of(s), s->pp, iv);
        return 0;
    }
    case SLIDER_CONTEXT:
        if (parse_whole_in(t, 1, RT_MAX_TOKENS, what, true, &iv, err, errsize))
            return -1;
        s->context_tokens = iv;
        return 0;
    case SLIDER_PREFILL:
        if (parse_whole_in(t, 0, RT_MAX_TOKENS, what, true, &iv, err, errsize))
            return -1;
        s->prefill_tokens = iv;
        return 0;
    case SLIDER_DECODE:
        if (parse_whole_in(t, 0, RT_MAX_TOKENS, what, true, &iv, err, errsize))
            return -1;
        s->decode_tokens = iv;
        return 0;
    case SLIDER_KV_HEADS: {
        char why[200];
        if (slider_inert(s, id, why, sizeof why)) {
            snprintf(err, errsize, "%s", why);
            return -1;
        }
        if (parse_whole(t, 1, s->model.heads, what, &iv, err, errsize))
            return -1;
        if (s->model.heads % iv != 0) {
            char choices[160];
            snprintf(err, errsize, "kv heads %lld: kv heads must divide %lld heads: %s", (long long)iv,
                     (long long)s->model.heads, kv_heads_choices(s->model.heads, choices, sizeof choices));
            return -1;
        }
        s->model.kv_heads = iv;
        return 0;
    }
    case SLIDER_PRECISION: {
        enum rt_precision p;
        char why[160];
        if (precision_parse(t, &p) != 0) {
            snprintf(err, errsize, "precision: '%s': %s", t, precision_refusal(why, sizeof why, t));
            return -1;
        }
        s->precision = p;
        return 0;
    }
    case SLIDER_ACT_PRECISION: {
        enum rt_precision p;
        if (act_precision_parse(t, &p) != 0) {
            snprintf(err, errsize, "act prec: '%s' is not %s", t, act_precision_choices());
            return -1;
        }
        s->act_precision = p;
        return 0;
    }
    case SLIDER_CHIP: {
        const struct chip_spec *c = chip_list_find(chips, t);
        if (!c) {
            struct suggestions sg;
            char hint[200];
            suggest_init(&sg, t);
            for (size_t i = 0; i < chips.count; i++)
                suggest_offer(&sg, chips.items[i].key);
            suggest_text(&sg, "", hint, sizeof hint);
            snprintf(err, errsize, "chip: no chip '%s'%s%s (or a chip file's path)", t,
                     hint[0] ? "; " : "", hint[0] ? hint : "");
            return -1;
        }
        apply_chip(s, c);
        return 0;
    }
    case SLIDER_MODEL: {
        const struct model_shape *m = model_find(t);
        if (m) {
            scenario_set_model(s, m);
            return 0;
        }
        if (parse_number(t, &v) != 0) {
            struct suggestions sg;
            char hint[200];
            suggest_init(&sg, t);
            for (size_t i = 0; i < model_builtin_count(); i++)
                suggest_offer(&sg, model_builtin(i)->name);
            suggest_text(&sg, "", hint, sizeof hint);
            snprintf(err, errsize, "model: no preset '%s'%s%s (or a size like 35B, or a config.json's path)", t,
                     hint[0] ? "; " : "", hint);
            return -1;
        }
        if (!(v >= 1.0 && v <= RT_MAX_PARAMS)) {
            snprintf(err, errsize, "model: %s parameters is out of range: give 1 to 1e16", t);
            return -1;
        }
        s->params = v;
        return 0;
    }
    case SLIDER_BUDGET:
    case SLIDER_OVERHEAD:
        if (parse_seconds(t, &v) != 0) {
            snprintf(err, errsize, "%s: '%s' is not a time (give seconds, e.g. 0.5 or 500ms)", what, t);
            return -1;
        }
        if (!(v >= 0.0 && v <= 1e9) || (id == SLIDER_BUDGET && v < 1e-6)) { /* --budget's range */
            snprintf(err, errsize, "%s: %s is out of range: give %s to 1e9 s", what, t,
                     id == SLIDER_BUDGET ? "1e-6 (a microsecond)" : "0");
            return -1;
        }
        if (id == SLIDER_BUDGET)
            s->budget_s = v;
        else
            s->overhead_s = v;
        return 0;
    case SLIDER_MFU: {
        char num[128];
        snprintf(num, sizeof num, "%s", t);
        size_t n = strlen(num);
        bool percent = n > 0 && num[n - 1] == '%';
        if (percent)
            num[n - 1] = '\0';
        char clean[128];
        trim_blanks(clean, sizeof clean, num);
        if (parse_number(clean, &v) != 0) {
            snprintf(err, errsize, "MFU: '%s' is not a number (give 0.4 or 40%%)", t);
            return -1;
        }
        /* One rule: a bare number is a fraction, as --mfu reads it; a percent carries its sign. */
        if (!percent && v > 1.0) {
            if (v <= 100.0)
                snprintf(err, errsize, "MFU: %s is more than 1: a bare number is a fraction (0.4); a percent carries "
                                       "its sign (%s%%)",
                         clean, clean);
            else
                snprintf(err, errsize, "MFU: %s is more than 1: give a fraction from 0.001 to 1, or 0.1%% to 100%%",
                         clean);
            return -1;
        }
        if (percent)
            v /= 100.0;
        if (!(v >= 0.001 && v <= 1.0)) { /* --mfu's range */
            snprintf(err, errsize, "MFU: %s is out of range: give a fraction from 0.001 to 1, or 0.1%% to 100%%", t);
            return -1;
        }
        s->mfu = v;
        return 0;
    }
    case SLIDER_KV_PRECISION: {
        enum rt_precision p;
        char why[160];
        if (precision_parse(t, &p) != 0) {
            snprintf(err, errsize, "kv prec: '%s': %s", t, precision_refusal(why, sizeof why, t));
            return -1;
        }
        s->kv_precision = p;
        return 0;
    }
    case SLIDER_RESERVE:
        if (parse_number(t, &v) != 0) {
            snprintf(err, errsize, "reserve: '%s' is not a size (give bytes, e.g. 10GB, 16GiB or 0)", t);
            return -1;
        }
        if (!(v >= 0.0 && v <= RESERVE_HIGH)) {
            snprintf(err, errsize, "reserve: %s is out of range: give 0 to 1e21 bytes", t);
            return -1;
        }
        s->reserve_bytes = v;
        return 0;
    default:
        snprintf(err, errsize, "no such slider");
        return -1;
    }
}

int slider_set_text_in(struct scenario *s, enum slider_id id, const char *text, char *err, size_t errsize,
                       struct chip_list chips)
{
    /* One check for what the knobs share with the command line (a layout
     * that is not tp x pp x ep chips, ep not dividing the experts ...): the
     * core's, in the knobs' names; *s stays as it was on any refusal. */
    struct scenario next = *s;
    if (set_text_unchecked(&next, id, text, err, errsize, chips) != 0)
        return -1;
    char why[300];
    if (scenario_check(&next, why, sizeof why) != 0) {
        slider_message(why, err, errsize);
        return -1;
    }
    *s = next;
    return 0;
}

void slider_use_chip(struct scenario *s, const struct chip_spec *c)
{
    apply_chip(s, c);
}

void slider_use_model(struct scenario *s, const struct model_shape *m)
{
    int64_t tp = tp_of(s);
    scenario_set_model(s, m);
    fit_layout(s, tp);
}

/* ---- knobs that do nothing, and messages in the knobs' names ---- */

const char *slider_inert(const struct scenario *s, enum slider_id id, char *buf, size_t size)
{
    if (id == SLIDER_KV_HEADS && s->model.kv_lora_rank > 0) {
        snprintf(buf, size, "kv heads: %s uses latent attention (MLA): each layer caches one compressed latent per "
                            "token, not kv heads, so this knob changes nothing", s->model.name);
        return buf;
    }
    if (id == SLIDER_KV_HEADS && !has_attention(&s->model)) {
        snprintf(buf, size, "kv heads: %s has no attention layers: its state-space layers keep a fixed state per "
                            "request, not a KV cache, so this knob changes nothing", s->model.name);
        return buf;
    }
    if (id == SLIDER_EP && s->model.experts <= 1) {
        snprintf(buf, size, "ep: %s is dense; expert parallelism needs a mixture-of-experts model", s->model.name);
        return buf;
    }
    return NULL;
}

/* Flags of the core's messages that have no knob, and what the explorer calls them. */
static const struct {
    const char *flag, *name;
} other_names[] = {
    {"--search", "the design search (p)"},
};

/* The explorer's name for the flag at text (len bytes), or NULL. */
static const char *knob_for_flag(const char *text, size_t len)
{
    const struct knob *k = knob_by_flag(text, len);
    for (int i = 0; k && i < SLIDER_COUNT; i++)
        if (k == knob_by_explorer(names[i]))
            return names[i]; /* the knob's row names it (knobs.h); the model knob has none of its own */
    for (size_t i = 0; i < sizeof other_names / sizeof other_names[0]; i++)
        if (strlen(other_names[i].flag) == len && strncmp(text, other_names[i].flag, len) == 0)
            return other_names[i].name;
    return NULL;
}

char *slider_message(const char *msg, char *out, size_t size)
{
    if (size == 0)
        return out;
    size_t used = 0;
    const char *p = msg ? msg : "";
    while (*p && used + 1 < size) {
        /* A flag: "--" at the start of a word, then letters, digits and dashes. */
        if (p[0] == '-' && p[1] == '-' && isalpha((unsigned char)p[2]) && (p == msg || !isalnum((unsigned char)p[-1]))) {
            size_t len = 2;
            while (isalnum((unsigned char)p[len]) || p[len] == '-')
                len++;
            const char *name = knob_for_flag(p, len);
            if (name) {
                int n = snprintf(out + used, size - used, "%s", name);
                used += n > 0 ? (size_t)n : 0;
                if (used >= size)
                    used = size - 1;
                p += len;
                continue;
            }
        }
        out[used++] = *p++;
    }
    out[used] = '\0';
    return out;
}

/* ---- track positions ---- */

/* log2(v) mapped from [lo_exp, hi_exp] to [0, 1]. */
static double log2_frac(double v, double lo_exp, double hi_exp)
{
    if (!(v > 0.0))
        return 0.0;
    double f = (log2(v) - lo_exp) / (hi_exp - lo_exp);
    return f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
}

/* The power of two at fraction f of [2^lo_exp, 2^hi_exp]. */
static int64_t pow2_at(double f, int lo_exp, int hi_exp)
{
    int e = (int)lround(lo_exp + f * (hi_exp - lo_exp));
    return (int64_t)1 << (e < 0 ? 0 : e > 62 ? 62 : e);
}

/* Clamps f into [0, 1]; NaN counts as 0. */
static double clamp01(double f)
{
    return f > 0.0 ? (f < 1.0 ? f : 1.0) : 0.0;
}

/* Token counts on a track of the notches 0, 1, 2, 4 ... 2^hi_exp: each
 * notch one step of the track, 0 included (0 and 1 tokens apart). */
static double tokens_frac(int64_t v, int hi_exp)
{
    return v <= 0 ? 0.0 : clamp01((log2((double)v) + 1.0) / (hi_exp + 1.0));
}

/* The token count at track position f of tokens_frac's notches. */
static int64_t tokens_at(double f, int hi_exp)
{
    int i = (int)lround(clamp01(f) * (hi_exp + 1));
    return i <= 0 ? 0 : (int64_t)1 << (i - 1);
}

/* The pipeline depths a model of `layers` layers steps through: the powers
 * of two below it, and the layer count itself (slider_step's clamp). Their
 * count; *top is the largest power of two among them. */
static int pp_notches(int64_t layers, int64_t *top)
{
    int n = 1;
    int64_t p = 1;
    while (p * 2 <= layers) {
        p *= 2;
        n++;
    }
    *top = p;
    return p < layers ? n + 1 : n;
}

/* The 1-2-5 series from 1 ms to 100 s as a track of 16 even notches;
 * a value between two notches sits between them (log scale). */
static double budget_frac(double v)
{
    if (!(v > 0.0))
        return 0.0;
    double d = floor(log10(v) + 1e-9), m = v / pow(10.0, d);
    double pos = m < 2.0 ? m - 1.0 : m < 5.0 ? 1.0 + (m - 2.0) / 3.0 : 2.0 + (m - 5.0) / 5.0;
    return clamp01((3.0 * (d + 3.0) + pos) / 15.0);
}

double slider_fraction_in(const struct scenario *s, enum slider_id id, struct chip_list chips)
{
    switch (id) {
    case SLIDER_BATCH:
        return log2_frac((double)s->batch, 0, 16);
    case SLIDER_CHIPS:
        return log2_frac((double)s->chips, 0, 16);
    case SLIDER_PP: {
        int64_t top;
        int n = pp_notches(s->model.layers, &top);
        if (n < 2)
            return 0.0;
        return s->pp > top ? 1.0 : clamp01(log2((double)s->pp) / (n - 1));
    }
    case SLIDER_EP: {
        int n = 1; /* 1, 2, 4 ... while they divide the experts */
        for (int64_t e = 2; s->model.experts > 1 && s->model.experts % e == 0; e *= 2)
            n++;
        return n > 1 ? clamp01(log2((double)s->ep) / (n - 1)) : 0.0;
    }
    case SLIDER_MODEL: {
        struct model_entry e[MAX_MODEL_ENTRIES];
        int n = model_entries(e);
        if (n < 2)
            return 0.0;
        int i = model_index(s, e, n);
        if (i < 0) {
            double size = scenario_model_size(s);
            i = 0;
            while (i < n - 1 && e[i + 1].size <= size)
                i++;
        }
        return (double)i / (n - 1);
    }
    case SLIDER_KV_HEADS: {
        int64_t d[512];
        int n = model_head_divisors(s->model.heads, d, 512);
        if (n < 2)
            return 0.0;
        int i = 0;
        while (i < n - 1 && d[i] < s->model.kv_heads)
            i++;
        return (double)i / (n - 1);
    }
    case SLIDER_PRECISION:
        return (double)precision_rank(s->precision) / (RT_PRECISION_COUNT - 1);
    case SLIDER_ACT_PRECISION:
        return (double)act_notch(s->act_precision) / (ACT_NOTCHES - 1);
    case SLIDER_CHIP: {
        int n = (int)chips.count, i = chip_list_index(chips, s->chip.key);
        return n < 2 || i < 0 ? 0.0 : (double)i / (n - 1);
    }
    case SLIDER_CONTEXT:
        return log2_frac((double)s->context_tokens, 0, 20);
    case SLIDER_PREFILL:
        return tokens_frac(s->prefill_tokens, 20);
    case SLIDER_DECODE:
        return tokens_frac(s->decode_tokens, 14);
    case SLIDER_BUDGET:
        return budget_frac(s->budget_s);
    case SLIDER_OVERHEAD:
        return clamp01(s->overhead_s);
    case SLIDER_MFU: /* 5% to 100% */
        return clamp01((s->mfu - 0.05) / 0.95);
    case SLIDER_KV_PRECISION:
        return (double)precision_rank(s->kv_precision) / (RT_PRECISION_COUNT - 1);
    case SLIDER_RESERVE: /* 0 at the left end, then 1 GB to 1 PB on a log scale */
        return s->reserve_bytes < RESERVE_LOW ? 0.0 : clamp01(0.1 + 0.9 * log10(s->reserve_bytes / RESERVE_LOW) / 6.0);
    default:
        return 0.0;
    }
}

bool slider_set_fraction_in(struct scenario *s, enum slider_id id, double frac, struct chip_list chips)
{
    frac = clamp01(frac);
    char why[8];
    if (slider_inert(s, id, why, sizeof why))
        return false;
    struct scenario before = *s;
    switch (id) {
    case SLIDER_BATCH:
        s->batch = pow2_at(frac, 0, 16);
        break;
    case SLIDER_CHIPS: {
        int64_t rest = s->pp * s->ep, tp = pow2_at(frac, 0, 16) / rest;
        set_layout(s, tp >= 1 ? tp : 1, s->pp, s->ep);
        break;
    }
    case SLIDER_PP: {
        int64_t top;
        int n = pp_notches(s->model.layers, &top);
        int i = (int)lround(frac * (n - 1));
        int64_t pp = (int64_t)1 << i;
        if (pp > top)
            pp = s->model.layers;
        set_layout(s, tp_of(s), pp, s->ep);
        break;
    }
    case SLIDER_EP: {
        if (s->model.experts <= 1)
            return false;
        int n = 1;
        for (int64_t e = 2; s->model.experts % e == 0; e *= 2)
            n++;
        int64_t ep = (int64_t)1 << (int)lround(frac * (n - 1));
        set_layout(s, tp_of(s), s->pp, ep);
        break;
    }
    case SLIDER_MODEL: {
        struct model_entry e[MAX_MODEL_ENTRIES];
        int n = model_entries(e);
        if (n < 1)
            return false;
        int i = (int)lround(frac * (n - 1));
        if (model_index(s, e, n) != i)
            apply_model(s, &e[i]);
        break;
    }
    case SLIDER_KV_HEADS: {
        if (s->model.kv_lora_rank > 0)
            return false;
        int64_t d[512];
        int n = model_head_divisors(s->model.heads, d, 512);
        if (n < 1)
            return false;
        s->model.kv_heads = d[lround(frac * (n - 1))];
        break;
    }
    case SLIDER_PRECISION:
        s->precision = precision_ordered((int)lround(frac * (RT_PRECISION_COUNT - 1)));
        break;
    case SLIDER_ACT_PRECISION:
        s->act_precision = act_at((int)lround(frac * (ACT_NOTCHES - 1)));
        break;
    case SLIDER_CHIP: {
        int n = (int)chips.count;
        if (n < 1)
            return false;
        int i = (int)lround(frac * (n - 1));
        if (i != chip_list_index(chips, s->chip.key))
            apply_chip(s, &chips.items[i]);
        break;
    }
    case SLIDER_CONTEXT:
        s->context_tokens = pow2_at(frac, 0, 20);
        break;
    case SLIDER_PREFILL:
        s->prefill_tokens = tokens_at(frac, 20);
        break;
    case SLIDER_DECODE:
        s->decode_tokens = tokens_at(frac, 14);
        break;
    case SLIDER_BUDGET: { /* the 1-2-5 notch at that place of budget_frac's track */
        static const double mant[3] = {1.0, 2.0, 5.0};
        int i = (int)lround(frac * 15.0);
        s->budget_s = mant[i % 3] * pow(10.0, i / 3 - 3);
        break;
    }
    case SLIDER_OVERHEAD:
        s->overhead_s = round(frac * 20.0) * 0.05;
        break;
    case SLIDER_MFU: {
        double v = 0.05 + round(frac * 19.0) * 0.05;
        s->mfu = v < 0.05 ? 0.05 : v;
        break;
    }
    case SLIDER_KV_PRECISION:
        s->kv_precision = precision_ordered((int)lround(frac * (RT_PRECISION_COUNT - 1)));
        break;
    case SLIDER_RESERVE: {
        if (frac < 0.05) {
            s->reserve_bytes = 0.0;
            break;
        }
        double v = RESERVE_LOW * pow(10.0, 6.0 * (frac - 0.1) / 0.9);
        if (v <= RESERVE_LOW) {
            s->reserve_bytes = RESERVE_LOW;
            break;
        }
        double up = step_125(v * (1 - 1e-9), 1), down = step_125(v * (1 + 1e-9), -1);
        s->reserve_bytes = (up / v < v / down) ? up : down;
        break;
    }
    default:
        return false;
    }
    return memcmp(&before, s, sizeof before) != 0;
}

/* ---- the same over the built-in chips ---- */

bool slider_step(struct scenario *s, enum slider_id id, int dir, bool coarse)
{
    return slider_step_in(s, id, dir, coarse, chip_builtin_list());
}

int slider_set_text(struct scenario *s, enum slider_id id, const char *text, char *err, size_t errsize)
{
    return slider_set_text_in(s, id, text, err, errsize, chip_builtin_list());
}

double slider_fraction(const struct scenario *s, enum slider_id id)
{
    return slider_fraction_in(s, id, chip_builtin_list());
}

bool slider_set_fraction(struct scenario *s, enum slider_id id, double frac)
{
    return slider_set_fraction_in(s, id, frac, chip_builtin_list());
}

int slider_thumb_column(double frac, int track_w)
{
    if (track_w <= 1)
        return 0;
    return (int)lround(clamp01(frac) * (track_w - 1));
}
