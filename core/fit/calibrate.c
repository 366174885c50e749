/* calibrate.c — observations, their predictions, and the profile fit. */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fit_field_name(enum fit_field f)
{
    static const char *const names[FIT_FIELD_COUNT] = {
        "matmul.bf16", "matmul.fp8", "memory", "kernel_overhead_s", "allreduce_step_s", "link",
        "engine.step_overhead_s", "engine.request_overhead_s", "engine.attention"};
    return ((int)f >= 0 && f < FIT_FIELD_COUNT) ? names[f] : "?";
}

/* A latency time by its key under latency.detailed or latency.realistic. */
static int latency_key(const struct analysis *a, const char *key, bool realistic, double *out)
{
    const char *name = strrchr(key, '.');
    name = name ? name + 1 : key;
    if (strncmp(key, "latency.detailed.", 17) != 0 && strncmp(key, "latency.realistic.", 18) != 0)
        return -1;
    const struct detailed_latency *d = &a->detailed;
    const struct realistic_latency *r = &a->realistic;
    const struct {
        const char *name;
        double floor, real;
    } keys[] = {
        {"prefill_s", d->prefill_s, r->prefill_s},
        {"decode_s", d->decode_s, r->decode_s},
        {"ttft_s", d->ttft_s, r->ttft_s},
        {"tpot_s", d->tpot_s, r->tpot_s},
        {"total_s", d->total_s, r->total_s},
        {"overhead_s", d->overhead_s, r->overhead_s},
        {"prefill_comms_s", a->phases[RT_PHASE_PREFILL].comms_s, r->prefill_comms_s},
        {"decode_comms_s", a->phases[RT_PHASE_DECODE].comms_s, r->decode_comms_s},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcmp(name, keys[i].name) == 0) {
            *out = realistic ? keys[i].real : keys[i].floor;
            return 0;
        }
    }
    return -1;
}

/* Sums the operation rows of phase named in names ("a+b+c"). */
static int ops_sum(const struct analysis *a, const char *phase, const char *names, bool realistic, double *out)
{
    char list[RT_OBS_METRIC_MAX];
    snprintf(list, sizeof list, "%s", names);
    double total = 0.0;
    char *save = NULL;
    for (char *name = strtok_r(list, "+", &save); name; name = strtok_r(NULL, "+", &save)) {
        int found = 0;
        for (int i = 0; i < a->placement_count; i++) {
            const struct placement *p = &a->placements[i];
            if (p->operation && strcmp(p->phase, phase) == 0 && strcmp(p->name, name) == 0) {
                total += realistic ? p->realistic_time_s : p->time_s;
                found++;
            }
        }
        if (found != 1)
            return -1;
    }
    *out = total;
    return 0;
}

int metric_check(const char *metric, char *err, size_t errsize)
{
    static const char *const kinds[] = {"key:latency.detailed.", "key:latency.realistic.", "sum:", "ops:prefill:",
                                        "ops:decode:", "ops:training:", "comm:decode", "comm:prefill"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(metric, kinds[i], strlen(kinds[i])) == 0)
            return 0;
    snprintf(err, errsize, "metric '%s': give key:latency.detailed.NAME, sum:K1+K2, ops:PHASE:OP+OP[:per_layer] or "
                           "comm:decode",
             metric);
    return -1;
}

int point_place(const struct measured_point *p, const struct scenario *s, struct point_placement *out)
{
    memset(out, 0, sizeof *out);
    if (!(p->bytes > 0.0) || !(p->seconds > 0.0) || !(p->flops >= 0.0))
        return -1;
    const struct chip_spec *c = &s->chip;
    double peak = c->peak_flops_per_s[p->precision] > 0.0 ? c->peak_flops_per_s[p->precision]
                                                           : c->peak_flops_per_s[RT_BF16];
    if (p->vector_unit && c->vector_flops_per_s > 0.0) {
        peak = c->vector_flops_per_s;
        out->on_vector_roof = true;
    } else if (s->peak_flops_override > 0.0) {
        peak = s->peak_flops_override;
    }
    double bw = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : c->hbm_bytes_per_s;
    out->peak_flops_per_s = peak;
    out->l2_intensity = p->flops > 0.0 && p->l2_bytes > 0.0 ? p->flops / p->l2_bytes : 0.0;
    out->l1_intensity = p->flops > 0.0 && p->l1_bytes > 0.0 ? p->flops / p->l1_bytes : 0.0;
    out->intensity_flop_per_byte = p->flops / p->bytes;
    out->achieved_flops_per_s = p->flops / p->seconds;
    out->roof_flops_per_s = fmin(peak, bw * out->intensity_flop_per_byte);
    out->fraction_of_roof = out->roof_flops_per_s > 0.0 ? out->achieved_flops_per_s / out->roof_flops_per_s : 0.0;
    out->achieved_bytes_per_s = p->bytes / p->seconds;
    if (p->flops == 0.0) { /* a copy: its bandwidth against the chip's, not 0% of a compute roof */
        out->by_bytes = true;
        out->fraction_of_roof = bw > 0.0 ? out->achieved_bytes_per_s / bw : 0.0;
    }
    out->above_roof = out->fraction_of_roof > 1.02; /* beyond timing noise */
    if (out->above_roof) {
        bool memory_side = out->by_bytes || bw * out->intensity_flop_per_byte < peak;
        out->above_cause = POINT_ABOVE_UNITS;
        if (out->fraction_of_roof < 10.0 && memory_side && out->achieved_flops_per_s <= peak * 1.02) {
            out->above_cause = POINT_ABOVE_SCOPE;
        } else if (out->fraction_of_roof < 10.0 && !memory_side && !out->on_vector_roof) {
            for (int q = 0; q < RT_PRECISION_COUNT; q++) /* the slowest peak it fits under */
                if (c->peak_flops_per_s[q] > peak && c->peak_flops_per_s[q] * 1.02 >= out->achieved_flops_per_s &&
                    (out->above_cause != POINT_ABOVE_PRECISION ||
                     c->peak_flops_per_s[q] < c->peak_flops_per_s[out->above_fits])) {
                    out->above_cause = POINT_ABOVE_PRECISION;
                    out->above_fits = (enum rt_precision)q;
                }
            if (out->above_cause != POINT_ABOVE_PRECISION && out->achieved_flops_per_s <= 2.0 * peak * 1.02)
                out->above_cause = POINT_ABOVE_SPARSITY;
        }
    }
    return 0;
}

int points_utilization(const struct measured_point *pts, size_t n, const struct points_context *ctx,
                       const struct scenario *s, struct points_utilization *out)
{
    memset(out, 0, sizeof *out);
    const struct chip_spec *c = &s->chip;
    for (size_t i = 0; i < n; i++) {
        const struct measured_point *p = &pts[i];
        if (!(p->seconds > 0.0))
            continue;
        struct point_placement pp;
        if (point_place(p, s, &pp) == 0 && pp.above_roof) {
            out->above_left_out++;
            continue;
        }
        out->flops += p->flops;
        out->bytes += p->bytes;
        out->seconds += p->seconds;
        double peak = c->peak_flops_per_s[p->precision] > 0.0 ? c->peak_flops_per_s[p->precision]
                                                               : c->peak_flops_per_s[RT_BF16];
        if (p->vector_unit && c->vector_flops_per_s > 0.0)
            peak = c->vector_flops_per_s;
        if (peak > 0.0)
            out->peak_time_s += p->flops / peak;
    }
    if (!(out->seconds > 0.0))
        return -1;
    out->window_is_step = ctx && ctx->steps_on_gpu && ctx->step_s > 0.0;
    out->window_s = out->window_is_step ? ctx->step_s : out->seconds;
    double bw = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : c->hbm_bytes_per_s;
    out->hfu = out->peak_time_s / out->window_s;
    out->mbu = bw > 0.0 ? out->bytes / (out->window_s * bw) : 0.0;
    return 0;
}

int point_levels(const struct measured_point *p, const struct scenario *s, const struct points_context *ctx,
                 struct point_levels *out)
{
    out->compute = out->hbm = out->l2 = out->l1 = -1.0;
    out->nearest = "";
    struct point_placement pp;
    if (!(p->seconds > 0.0) || point_place(p, s, &pp) != 0)
        return -1;
    if (p->flops > 0.0 && pp.peak_flops_per_s > 0.0)
        out->compute = pp.achieved_flops_per_s / pp.peak_flops_per_s;
    double bw = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : s->chip.hbm_bytes_per_s;
    if (bw > 0.0)
        out->hbm = pp.achieved_bytes_per_s / bw;
    double l2 = ctx && ctx->l2_bytes_per_s > 0.0 ? ctx->l2_bytes_per_s : s->chip.l2_bytes_per_s;
    double l1 = ctx && ctx->l1_bytes_per_s > 0.0 ? ctx->l1_bytes_per_s : s->chip.l1_bytes_per_s;
    if (p->l2_bytes > 0.0 && l2 > 0.0)
        out->l2 = p->l2_bytes / p->seconds / l2;
    if (p->l1_bytes > 0.0 && l1 > 0.0)
        out->l1 = p->l1_bytes / p->seconds / l1;
    double best = -1.0;
    const double shares[4] = {out->compute, out->hbm, out->l2, out->l1};
    static const char *const names[4] = {"compute", "HBM", "L2", "L1"};
    for (int i = 0; i < 4; i++)
        if (shares[i] > best)
            best = shares[i], out->nearest = names[i];
    return 0;
}

const char *point_above_name(enum point_above_cause c)
{
    switch (c) {
    case POINT_ABOVE_UNITS: return "units";
    case POINT_ABOVE_PRECISION: return "precision";
    case POINT_ABOVE_SPARSITY: return "sparsity";
    case POINT_ABOVE_SCOPE: return "scope";
    case POINT_ABOVE_NONE: break;
    }
    return NULL;
}

/* A point's time: its roofline, or through the chip's profile plus a launch. */
static double point_time(const struct observation *o, bool realistic)
{
    const struct chip_spec *c = &o->scenario.chip;
    double peak = c->peak_flops_per_s[o->precision] > 0.0 ? c->peak_flops_per_s[o->precision]
                                                           : c->peak_flops_per_s[RT_BF16];
    enum rt_precision p = c->peak_flops_per_s[o->precision] > 0.0 ? o->precision : RT_BF16;
    double compute = o->flops / peak, memory = o->bytes / c->hbm_bytes_per_s;
    if (!realistic)
        return compute > memory ? compute : memory;
    struct efficiency_profile e = efficiency_resolve(&c->efficiency);
    compute /= e.matmul[p];
    memory /= e.memory;
    return (compute > memory ? compute : memory) + e.kernel_s * (o->kernels > 1.0 ? o->kernels : 1.0);
}

int observation_predict(const struct observation *o, bool realistic, double *out_s, char *err, size_t errsize)
{
    if (o->point) {
        *out_s = point_time(o, realistic);
        return 0;
    }
    struct analysis *a = malloc(sizeof *a);
    if (!a) {
        snprintf(err, errsize, "%s: out of memory", o->id);
        return -1;
    }
    int status = -1;
    char why[256];
    if (analyze(&o->scenario, a, why, sizeof why) != 0) {
        snprintf(err, errsize, "%s: %s", o->id, why);
        goto done;
    }
    const char *m = o->metric;
    double v = 0.0;
    if (strncmp(m, "key:", 4) == 0) {
        if (latency_key(a, m + 4, realistic, &v) != 0)
            goto bad;
    } else if (strncmp(m, "sum:", 4) == 0) {
        char list[RT_OBS_METRIC_MAX];
        snprintf(list, sizeof list, "%s", m + 4);
        char *save = NULL;
        for (char *k = strtok_r(list, "+", &save); k; k = strtok_r(NULL, "+", &save)) {
            double part;
            if (latency_key(a, k, realistic, &part) != 0)
                goto bad;
            v += part;
        }
    } else if (strncmp(m, "ops:", 4) == 0) {
        char phase[16], names[RT_OBS_METRIC_MAX];
        const char *rest = m + 4, *colon = strchr(rest, ':');
        if (!colon || colon - rest >= (long)sizeof phase)
            goto bad;
        snprintf(phase, sizeof phase, "%.*s", (int)(colon - rest), rest);
        snprintf(names, sizeof names, "%s", colon + 1);
        bool per_layer = false;
        char *tail = strrchr(names, ':');
        if (tail) {
            if (strcmp(tail, ":per_layer") != 0)
                goto bad;
            per_layer = true;
            *tail = '\0';
        }
        if (ops_sum(a, phase, names, realistic, &v) != 0)
            goto bad;
        if (per_layer)
            v /= (double)o->scenario.model.layers;
    } else if (strncmp(m, "comm:", 5) == 0) {
        enum rt_phase p = strcmp(m + 5, "prefill") == 0 ? RT_PHASE_PREFILL : RT_PHASE_DECODE;
        const struct phase_cost *pc = &a->phases[p];
        if (!(pc->allreduces > 0.0))
            goto bad;
        v = (realistic ? pc->realistic_comms_s : pc->comms_s) / pc->allreduces;
    } else {
        goto bad;
    }
    *out_s = v;
    status = 0;
    goto done;
bad:
    snprintf(err, errsize, "%s: metric '%s' names nothing in this scenario", o->id, m);
done:
    free(a);
    return status;
}

/* True when param applies to observation o. */
static bool applies(const struct fit_param *p, const struct observation *o)
{
    if (p->field >= FIT_ENGINE_STEP_S)
        return p->engine[0] == '\0' || strcmp(p->engine, o->scenario.engine.name) == 0;
    return p->chip[0] == '\0' || strcmp(p->chip, o->scenario.chip.key) == 0;
}

void fit_apply(struct observation *obs, size_t n, const struct fit_param *params, size_t np)
{
    for (size_t i = 0; i < n; i++) {
        struct scenario *s = &obs[i].scenario;
        for (size_t k = 0; k < np; k++) {
            const struct fit_param *p = &params[k];
            if (!applies(p, &obs[i]))
                continue;
            struct efficiency_profile *e = &s->chip.efficiency;
            if (p->field < FIT_ENGINE_STEP_S && !e->present) {
                int64_t sms = e->sm_count;
                *e = *efficiency_generic();
                e->sm_count = sms;
                e->present = true;
            }
            switch (p->field) {
            case FIT_MATMUL_BF16: e->matmul[RT_BF16] = p->value; break;
            case FIT_MATMUL_FP8: /* the precisions without rows of their own take fp8's */
                for (int q = RT_FP8; q < RT_PRECISION_COUNT; q++)
                    e->matmul[q] = p->value;
                break;
            case FIT_MEMORY: e->memory = p->value; break;
            case FIT_KERNEL_S: e->kernel_s = p->value; break;
            case FIT_ALLREDUCE_STEP_S: e->allreduce_step_s = p->value; break;
            case FIT_LINK: e->link = p->value; break;
            case FIT_ENGINE_STEP_S: s->engine.step_s = p->value; break;
            case FIT_ENGINE_REQUEST_S: s->engine.request_s = p->value; break;
            case FIT_ENGINE_ATTENTION: s->engine.attention = p->value; break;
            default: break;
            }
        }
    }
}

/* Sorts doubles ascending (qsort). */
static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int fit_mape(const struct observation *obs, size_t n, bool realistic, double *mape, double *median_ratio, char *err,
             size_t errsize)
{
    if (n == 0) {
        snprintf(err, errsize, "no observations");
        return -1;
    }
    double *ratios = malloc(n * sizeof *ratios);
    if (!ratios) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        double pred;
        if (observation_predict(&obs[i], realistic, &pred, err, errsize) != 0) {
            free(ratios);
            return -1;
        }
        ratios[i] = pred / obs[i].measured_s;
        sum += fabs(ratios[i] - 1.0);
    }
    *mape = sum / (double)n;
    if (median_ratio) {
        qsort(ratios, n, sizeof *ratios, by_value);
        *median_ratio = ratios[n / 2];
    }
    free(ratios);
    return 0;
}

/* A parameter's range: fractions in [0.02, 1], times in [1e-8, 0.1] s. */
static bool is_time(enum fit_field f)
{
    return f == FIT_KERNEL_S || f == FIT_ALLREDUCE_STEP_S || f == FIT_ENGINE_STEP_S || f == FIT_ENGINE_REQUEST_S;
}

/* From the unbounded search coordinate x to the parameter's value. */
static double to_value(enum fit_field f, double x)
{
    if (is_time(f))
        return exp(fmin(fmax(x, log(1e-8)), log(0.1)));
    return 0.02 + 0.98 / (1.0 + exp(-x));
}

/* From a value to its search coordinate. */
static double to_coord(enum fit_field f, double v)
{
    if (is_time(f))
        return log(fmin(fmax(v, 1e-8), 0.1));
    double u = (fmin(fmax(v, 0.0201), 0.9999) - 0.02) / 0.98;
    return log(u / (1.0 - u));
}

/* The objective: the realistic MAPE with the free parameters at x. */
struct objective {
    struct observation *obs;
    size_t n;
    struct fit_param *params;
    size_t np;
    const size_t *free_index; /* which params x moves */
    size_t nfree;
    bool failed;
    char *err;
    size_t errsize;
    size_t evaluations; /* row predictions made: n per evaluation */
};

static double evaluate(struct objective *o, const double *x)
{
    o->evaluations += o->n;
    for (size_t k = 0; k < o->nfree; k++) {
        struct fit_param *p = &o->params[o->free_index[k]];
        p->value = to_value(p->field, x[k]);
    }
    fit_apply(o->obs, o->n, o->params, o->np);
    double mape;
    if (fit_mape(o->obs, o->n, true, &mape, NULL, o->err, o->errsize) != 0) {
        o->failed = true;
        return INFINITY;
    }
    return mape;
}

/* Nelder-Mead over the free parameters, from x (in place). */
static double nelder_mead(struct objective *o, double *x, int iterations)
{
    size_t k = o->nfree;
    size_t m = k + 1;
    double *simplex = calloc(m * k, sizeof *simplex), *f = calloc(m, sizeof *f);
    double *centroid = calloc(k, sizeof *centroid), *trial = calloc(k, sizeof *trial), *trial2 = calloc(k, sizeof *trial2);
    double best = INFINITY;
    if (!simplex || !f || !centroid || !trial || !trial2)
        goto done;
    for (size_t i = 0; i < m; i++) {
        memcpy(&simplex[i * k], x, k * sizeof *x);
        if (i > 0)
            simplex[i * k + i - 1] += 0.5;
        f[i] = evaluate(o, &simplex[i * k]);
    }
    for (int it = 0; it < iterations && !o->failed; it++) {
        /* Order: best first. */
        for (size_t i = 1; i < m; i++) {
            for (size_t j = i; j > 0 && f[j] < f[j - 1]; j--) {
                double t = f[j];
                f[j] = f[j - 1];
                f[j - 1] = t;
                for (size_t c = 0; c < k; c++) {
                    double u = simplex[j * k + c];
                    simplex[j * k + c] = simplex[(j - 1) * k + c];
                    simplex[(j - 1) * k + c] = u;
                }
            }
        }
        if (f[m - 1] - f[0] < 1e-7 && it > 50)
            break;
        for (size_t c = 0; c < k; c++) {
            centroid[c] = 0.0;
            for (size_t i = 0; i < m - 1; i++)
                centroid[c] += simplex[i * k + c];
            centroid[c] /= (double)(m - 1);
        }
        double *worst = &simplex[(m - 1) * k];
        for (size_t c = 0; c < k; c++)
            trial[c] = centroid[c] + (centroid[c] - worst[c]);
        double fr = evaluate(o, trial);
        if (fr < f[0]) {
            for (size_t c = 0; c < k; c++)
                trial2[c] = centroid[c] + 2.0 * (centroid[c] - worst[c]);
            double fe = evaluate(o, trial2);
            if (fe < fr) {
                memcpy(worst, trial2, k * sizeof *worst);
                f[m - 1] = fe;
            } else {
                memcpy(worst, trial, k * sizeof *worst);
                f[m - 1] = fr;
            }
        } else if (fr < f[m - 2]) {
            memcpy(worst, trial, k * sizeof *worst);
            f[m - 1] = fr;
        } else {
            for (size_t c = 0; c < k; c++)
                trial2[c] = centroid[c] + 0.5 * (worst[c] - centroid[c]);
            double fc = evaluate(o, trial2);
            if (fc < f[m - 1]) {
                memcpy(worst, trial2, k * sizeof *worst);
                f[m - 1] = fc;
            } else { /* shrink toward the best */
                for (size_t i = 1; i < m; i++) {
                    for (size_t c = 0; c < k; c++)
                        simplex[i * k + c] = simplex[c] + 0.5 * (simplex[i * k + c] - simplex[c]);
                    f[i] = evaluate(o, &simplex[i * k]);
                }
            }
        }
    }
    size_t b = 0;
    for (size_t i = 1; i < m; i++)
        if (f[i] < f[b])
            b = i;
    memcpy(x, &simplex[b * k], k * sizeof *x);
    best = f[b];
done:
    free(simplex);
    free(f);
    free(centroid);
    free(trial);
    free(trial2);
    return best;
}

/* calibrate_fit, adding the row predictions it makes to *evaluations. */
static int fit_counted(struct observation *obs, size_t n, struct fit_param *params, size_t np, int iterations,
                       double *mape, size_t *evaluations, char *err, size_t errsize)
{
    size_t *free_index = calloc(np ? np : 1, sizeof *free_index);
    double *x = calloc(np ? np : 1, sizeof *x);
    int status = -1;
    if (!free_index || !x) {
        snprintf(err, errsize, "out of memory");
        goto done;
    }
    /* A parameter is informed when moving it moves some prediction. */
    fit_apply(obs, n, params, np);
    size_t nfree = 0;
    for (size_t k = 0; k < np; k++) {
        params[k].informed = 0;
        double keep = params[k].value;
        for (size_t i = 0; i < n; i++) {
            if (!applies(&params[k], &obs[i]))
                continue;
            double before, after;
            if (observation_predict(&obs[i], true, &before, err, errsize) != 0)
                goto done;
            params[k].value = is_time(params[k].field) ? keep * 2.0 + 1e-6 : keep * 0.5;
            fit_apply(&obs[i], 1, params, np);
            int rc = observation_predict(&obs[i], true, &after, err, errsize);
            params[k].value = keep;
            fit_apply(&obs[i], 1, params, np);
            if (rc != 0)
                goto done;
            if (fabs(after - before) > 1e-9 * before)
                params[k].informed++;
        }
        /* A parameter only one or two rows need is not fitted: it would fit them, not the chip. */
        if (params[k].informed >= RT_FIT_MIN_ROWS)
            free_index[nfree++] = k;
    }
    if (nfree == 0) {
        snprintf(err, errsize, "no parameter depends on %d or more of the %zu measurements: give more rows (each "
                               "parameter needs %d that it changes)",
                 RT_FIT_MIN_ROWS, n, RT_FIT_MIN_ROWS);
        goto done;
    }
    if (n < nfree + 1) {
        snprintf(err, errsize, "%zu measurements cannot fit %zu parameters: give at least %zu", n, nfree, nfree + 1);
        goto done;
    }
    for (size_t k = 0; k < nfree; k++)
        x[k] = to_coord(params[free_index[k]].field, params[free_index[k]].value);
    *evaluations += 2 * n * np; /* the informed-parameter probe above */
    struct objective o = {obs, n, params, np, free_index, nfree, false, err, errsize, 0};
    double best = INFINITY;
    for (int restart = 0; restart < 3 && !o.failed; restart++) {
        double f = nelder_mead(&o, x, iterations);
        if (!(f < best - 1e-6))
            break;
        best = f;
    }
    *evaluations += o.evaluations;
    if (o.failed)
        goto done;
    for (size_t k = 0; k < np; k++)
        params[k].at_bound = false;
    for (size_t k = 0; k < nfree; k++) {
        struct fit_param *p = &params[free_index[k]];
        p->value = to_value(p->field, x[k]);
        p->at_bound = is_time(p->field) ? (p->value <= 1.02e-8 || p->value >= 0.098)
                                        : (p->value <= 0.0205 || p->value >= 0.9995);
    }
    fit_apply(obs, n, params, np);
    *mape = best;
    status = 0;
done:
    free(free_index);
    free(x);
    return status;
}

int calibrate_fit(struct observation *obs, size_t n, struct fit_param *params, size_t np, int iterations,
                  double *mape, char *err, size_t errsize)
{
    size_t evaluations = 0;
    return fit_counted(obs, n, params, np, iterations, mape, &evaluations, err, errsize);
}

int calibrate_cross_validate(struct observation *obs, size_t n, const struct fit_param *params, size_t np,
                             int iterations, int folds, calibrate_progress_fn progress, void *ctx, double *mape,
                             size_t *evaluations, char *err, size_t errsize)
{
    if (n < 2) {
        snprintf(err, errsize, "cross-validation needs two measurements or more");
        return -1;
    }
    size_t k = folds < 2 ? 2 : (size_t)folds;
    if (k > n)
        k = n; /* one row a fold: leave-one-out */
    struct observation *rest = malloc(n * sizeof *rest);
    struct fit_param *trial = malloc((np ? np : 1) * sizeof *trial);
    size_t counted = 0;
    int status = -1;
    if (!rest || !trial) {
        snprintf(err, errsize, "out of memory");
        goto done;
    }
    double sum = 0.0;
    for (size_t f = 0; f < k; f++) {
        if (progress)
            progress(ctx, (int)f, (int)k);
        size_t j = 0;
        for (size_t i = 0; i < n; i++) /* rows i with i mod k == f are held out */
            if (i % k != f)
                rest[j++] = obs[i];
        memcpy(trial, params, np * sizeof *trial);
        double fitted;
        if (fit_counted(rest, j, trial, np, iterations, &fitted, &counted, err, errsize) != 0)
            goto done;
        for (size_t i = f; i < n; i += k) {
            struct observation held = obs[i];
            fit_apply(&held, 1, trial, np);
            double pred;
            if (observation_predict(&held, true, &pred, err, errsize) != 0)
                goto done;
            counted++;
            sum += fabs(pred / held.measured_s - 1.0);
        }
    }
    if (progress)
        progress(ctx, (int)k, (int)k);
    *mape = sum / (double)n;
    fit_apply(obs, n, params, np);
    status = 0;
done:
    if (evaluations)
        *evaluations = counted;
    free(rest);
    free(trial);
    return status;
}

int calibrate_leave_one_out(struct observation *obs, size_t n, const struct fit_param *params, size_t np,
                            int iterations, double *mape, char *err, size_t errsize)
{
    return calibrate_cross_validate(obs, n, params, np, iterations, (int)n, NULL, NULL, mape, NULL, err, errsize);
}
