/* search.c — the best serving design under latency targets (search.h). */
#include "search.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Frontier members tracked while scanning; past this the frontier is found
 * by comparing every pair instead (same answer, slower). */
#define FRONT_MAX 1024

/* Largest pipeline depth tried: deeper pipelines only add bubbles and hops. */

/* True when candidate a comes before b in the frontier's order. */
static bool shown_before(const struct search_candidate *a, const struct search_candidate *b)
{
    if (a->tokens_per_s_per_user != b->tokens_per_s_per_user)
        return a->tokens_per_s_per_user > b->tokens_per_s_per_user;
    if (a->tokens_per_s_per_chip != b->tokens_per_s_per_chip)
        return a->tokens_per_s_per_chip > b->tokens_per_s_per_chip;
    return a->chips < b->chips;
}

size_t search_frontier_order(const struct search_result *r, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->count && n < max; i++)
        if (r->candidates[i].frontier)
            out[n++] = i;
    /* Insertion sort: a frontier is short, and qsort has no context. */
    for (size_t i = 1; i < n; i++) {
        size_t v = out[i], j = i;
        for (; j > 0 && shown_before(&r->candidates[v], &r->candidates[out[j - 1]]); j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
    return n;
}

struct scenario search_candidate_scenario(const struct scenario *base, const struct search_candidate *c)
{
    struct scenario s = *base;
    s.chips = c->tp * c->pp * c->ep;
    s.pp = c->pp;
    s.ep = c->ep;
    s.batch = c->batch;
    s.precision = c->precision;
    s.disagg_prefill_chips = c->prefill_chips;
    s.data_parallel = 1;
    return s;
}

void search_options_for(const struct scenario *base, bool one_precision, bool max_chips_given,
                        struct search_options *opt)
{
    search_options_default(base, opt);
    opt->disaggregate = true;
    if (one_precision)
        opt->precisions = 1u << base->precision;
    if (max_chips_given)
        opt->max_chips = base->max_chips;
}

void search_options_default(const struct scenario *base, struct search_options *opt)
{
    int64_t max = base->max_chips;
    opt->max_chips = max < 1 ? 1 : max > 1024 ? 1024 : max;
    opt->max_batch = 4096;
    opt->precisions = 1u << RT_BF16;
    /* A precision the matmuls run at natively: as --act-precision auto takes it (analysis.h). */
    struct scenario probe = *base;
    probe.act_precision = RT_PRECISION_AUTO;
    static const enum rt_precision tried[] = {RT_FP8, RT_NVFP4, RT_MXFP4};
    for (size_t i = 0; i < sizeof tried / sizeof tried[0]; i++) {
        probe.precision = tried[i];
        if (analysis_compute_precision(&probe) == tried[i])
            opt->precisions |= 1u << tried[i];
    }
    /* One FP4 format: nvfp4 where the chip has both (mxfp4 would win on bytes alone, its
     * coarser scales' accuracy not being modelled), mxfp4 where it has only that. */
    if (opt->precisions & (1u << RT_NVFP4))
        opt->precisions &= ~(1u << RT_MXFP4);
    opt->disaggregate = false;
}

/* The enumeration's state: the base, the options, where results go. */
struct search_ctx {
    const struct search_options *opt;
    struct search_result *out;
    struct scenario s;        /* the candidate being built (a copy of the base) */
    struct analysis a;        /* its analysis */
    bool stop;                /* the array is full and another candidate came */
};

/* Appends "; " (after the first) and a formatted reason to buf, whole: a
 * reason that does not fit leaves "; ..." (the bits carry every reason). */
static void add_reason(char *buf, size_t size, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    const char *sep = n > 0 ? "; " : "";
    if (strstr(buf, "...")) /* already cut */
        return;
    if (n + strlen(sep) + strlen(reason) < size)
        snprintf(buf + n, size - n, "%s%s", sep, reason);
    else if (n + 5 < size)
        snprintf(buf + n, size - n, "; ...");
}

/* Why a candidate was rejected, from its analysis: every failure as a bit
 * (returned; 0 when accepted) and in words in buf, in the order HBM, the
 * prefill pool (too small for the weights, or overloaded), TTFT, TPOT. */
/* A prefill pool this busy is rejected: its prompts' queue grows without
 * bound as the load nears 1 (M/D/1, serving.h). */
#define RT_SEARCH_POOL_SATURATED 0.95

static unsigned reject_reason(const struct scenario *s, const struct analysis *a, char *buf, size_t size)
{
    char x[32], y[32];
    const struct serving_figures *sv = &a->serving;
    unsigned bits = 0;
    buf[0] = '\0';
    if (!a->memory.batch_fits) {
        bits |= RT_REJECT_HBM;
        add_reason(buf, size, "does not fit in HBM");
    }
    if (s->disagg_prefill_chips > 0 && !sv->prefill_pool_fits) {
        bits |= RT_REJECT_POOL;
        add_reason(buf, size, "prefill pool of %lld chip%s too small for the weights", (long long)s->disagg_prefill_chips,
                   s->disagg_prefill_chips == 1 ? "" : "s");
    } else if (s->disagg_prefill_chips > 0 && (sv->prefill_pool_load >= RT_SEARCH_POOL_SATURATED || sv->loop.overloaded)) {
        bits |= RT_REJECT_POOL;
        bool full = sv->loop.overloaded || sv->prefill_pool_load >= 1.0;
        add_reason(buf, size, "prefill pool of %lld chip%s %s (load %.3g: the prompts queue)",
                   (long long)s->disagg_prefill_chips, s->disagg_prefill_chips == 1 ? "" : "s",
                   full ? "saturated" : "near saturation", sv->prefill_pool_load);
    }
    if (!sv->ttft_ok) {
        bits |= RT_REJECT_TTFT;
        add_reason(buf, size, "TTFT %s > target %s", format_seconds(x, sizeof x, sv->ttft_s),
                   format_seconds(y, sizeof y, s->ttft_target_s));
    }
    if (!sv->tpot_ok) {
        bits |= RT_REJECT_TPOT;
        add_reason(buf, size, "TPOT %s > target %s", format_seconds(x, sizeof x, sv->tpot_s),
                   format_seconds(y, sizeof y, s->tpot_target_s));
    }
    return bits;
}

/* Analyzes the candidate in ctx->s and writes it out. Returns 1 when it was
 * written, 0 when its scenario is invalid (skipped), -1 when the array is
 * full (ctx->stop is then set). *fits says whether its batch fits. */
static int try_candidate(struct search_ctx *ctx, bool *fits)
{
    char err[8];
    *fits = false;
    if (scenario_check(&ctx->s, err, sizeof err) != 0)
        return 0;
    struct search_result *out = ctx->out;
    if (out->count >= out->capacity) {
        out->truncated = true;
        ctx->stop = true;
        return -1;
    }
    if (analyze(&ctx->s, &ctx->a, err, sizeof err) != 0)
        return 0;
    const struct analysis *a = &ctx->a;
    struct search_candidate *c = &out->candidates[out->count++];
    c->tp = scenario_tp(&ctx->s);
    c->pp = ctx->s.pp;
    c->ep = ctx->s.ep;
    c->dp = 1;
    c->batch = ctx->s.batch;
    c->precision = ctx->s.precision;
    c->compute_precision = a->compute_precision;
    c->prefill_chips = ctx->s.disagg_prefill_chips;
    c->chips = ctx->s.chips + ctx->s.disagg_prefill_chips;
    c->ttft_s = a->serving.ttft_s;
    c->tpot_s = a->serving.tpot_s;
    c->tokens_per_s_per_user = a->serving.tokens_per_s_per_user;
    c->tokens_per_s_per_chip = a->serving.tokens_per_s_per_chip;
    c->frontier = false;
    c->rejected = reject_reason(&ctx->s, a, c->rejected_because, sizeof c->rejected_because);
    c->accepted = c->rejected == 0;
    *fits = a->memory.batch_fits;
    return 1;
}

/* Every batch of one decode layout at one precision, each colocated and
 * (when disaggregating) beside prefill pools of powers of two that divide
 * the heads. A batch that does not fit ends the layout: a larger one holds
 * more KV cache on the same chips. */
static void enumerate_batches(struct search_ctx *ctx)
{
    const struct search_options *opt = ctx->opt;
    const int64_t decode = ctx->s.chips, heads = ctx->s.model.heads;
    for (int64_t batch = 1; batch <= opt->max_batch && !ctx->stop; batch *= 2) {
        if (batch < ctx->s.ep)
            continue; /* each expert-parallel group needs a sequence */
        ctx->s.batch = batch;
        bool any_fits = false, fits;
        ctx->s.disagg_prefill_chips = 0;
        if (try_candidate(ctx, &fits) <= 0)
            break; /* invalid here is invalid at every batch and pool; or the array is full */
        any_fits = fits;
        /* Pools too small for the weights are skipped unanalysed (a speed-up:
         * analyze() marks them, serving.prefill_pool_fits, and they would be
         * rejected). */
        const int64_t min_pool = ctx->a.memory.weights_fit_chips;
        for (int64_t pool = 1; opt->disaggregate && pool <= opt->max_chips - decode && heads % pool == 0 &&
                               !ctx->stop;
             pool *= 2) {
            if (pool < min_pool)
                continue;
            ctx->s.disagg_prefill_chips = pool;
            if (try_candidate(ctx, &fits) > 0)
                any_fits |= fits;
        }
        ctx->s.disagg_prefill_chips = 0;
        if (!any_fits)
            break;
    }
}

/* Every layout tp x pp x ep up to max_chips at precision p. */
static void enumerate_layouts(struct search_ctx *ctx, enum rt_precision p)
{
    const struct model_shape *m = &ctx->s.model;
    const int64_t max = ctx->opt->max_chips;
    const int64_t pp_max = m->layers < RT_SEARCH_PP_MAX ? m->layers : RT_SEARCH_PP_MAX;
    const int64_t ep_max = m->experts > 1 ? m->experts : 1;
    ctx->s.precision = p;
    for (int64_t tp = 1; tp <= max && m->heads % tp == 0 && !ctx->stop; tp *= 2) {
        for (int64_t pp = 1; pp <= pp_max && tp * pp <= max && !ctx->stop; pp *= 2) {
            for (int64_t ep = 1; ep <= ep_max && tp * pp * ep <= max && ep_max % ep == 0 && !ctx->stop; ep *= 2) {
                ctx->s.chips = tp * pp * ep;
                ctx->s.pp = pp;
                ctx->s.ep = ep;
                enumerate_batches(ctx);
            }
        }
    }
}

/* True when x is at least as good as y on both throughputs and better on one. */
static bool dominates(const struct search_candidate *x, const struct search_candidate *y)
{
    return x->tokens_per_s_per_chip >= y->tokens_per_s_per_chip &&
           x->tokens_per_s_per_user >= y->tokens_per_s_per_user &&
           (x->tokens_per_s_per_chip > y->tokens_per_s_per_chip ||
            x->tokens_per_s_per_user > y->tokens_per_s_per_user);
}

/* The frontier by comparing every accepted pair: O(n^2), the fallback. */
static void frontier_pairwise(struct search_result *r)
{
    for (size_t i = 0; i < r->count; i++) {
        struct search_candidate *c = &r->candidates[i];
        c->frontier = c->accepted;
        for (size_t j = 0; j < r->count && c->frontier; j++)
            if (j != i && r->candidates[j].accepted && dominates(&r->candidates[j], c))
                c->frontier = false;
    }
}

/* Marks the frontier. One pass keeping the frontier of the candidates seen
 * so far: a new one dominated by any earlier one is dominated by a member
 * (dominance is transitive), and a new member drops those it dominates. */
static void mark_frontier(struct search_result *r)
{
    size_t front[FRONT_MAX];
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) {
        struct search_candidate *c = &r->candidates[i];
        c->frontier = false;
        if (!c->accepted)
            continue;
        bool dominated = false;
        for (size_t k = 0; k < n && !dominated; k++)
            dominated = dominates(&r->candidates[front[k]], c);
        if (dominated)
            continue;
        size_t kept = 0;
        for (size_t k = 0; k < n; k++)
            if (!dominates(c, &r->candidates[front[k]]))
                front[kept++] = front[k];
        n = kept;
        if (n == FRONT_MAX) {
            frontier_pairwise(r);
            return;
        }
        front[n++] = i;
    }
    for (size_t k = 0; k < n; k++)
        r->candidates[front[k]].frontier = true;
}

/* Counts the accepted and the frontier, and finds the fewest chips. */
static void summarize(struct search_result *r)
{
    r->accepted = r->frontier = 0;
    r->fewest_chips = -1;
    for (size_t i = 0; i < r->count; i++) {
        const struct search_candidate *c = &r->candidates[i];
        if (!c->accepted)
            continue;
        r->accepted++;
        r->frontier += c->frontier;
        const struct search_candidate *best = r->fewest_chips >= 0 ? &r->candidates[r->fewest_chips] : NULL;
        if (!best || c->chips < best->chips ||
            (c->chips == best->chips && c->tokens_per_s_per_chip > best->tokens_per_s_per_chip))
            r->fewest_chips = (long)i;
    }
}

/* Checks the options; 0 or -1 with err set. */
static int check_options(const struct search_options *opt, char *err, size_t errsize)
{
    if (opt->max_chips < 1 || opt->max_chips > RT_MAX_CHIPS) {
        snprintf(err, errsize, "search: max chips %lld is out of range: give a whole number from 1 to %lld",
                 (long long)opt->max_chips, (long long)RT_MAX_CHIPS);
        return -1;
    }
    if (opt->max_batch < 1 || opt->max_batch > RT_MAX_BATCH) {
        snprintf(err, errsize, "search: max batch %lld is out of range: give a whole number from 1 to %lld",
                 (long long)opt->max_batch, (long long)RT_MAX_BATCH);
        return -1;
    }
    if (opt->precisions >> RT_PRECISION_COUNT) {
        snprintf(err, errsize, "search: precision mask 0x%x names no precision past bit %d", opt->precisions,
                 RT_PRECISION_COUNT - 1);
        return -1;
    }
    return 0;
}

int search_run(const struct scenario *base, const struct search_options *opt, struct search_result *out, char *err,
               size_t errsize)
{
    out->count = 0;
    out->truncated = false;
    out->accepted = out->frontier = 0;
    out->fewest_chips = -1;
    if (out->capacity == 0 || !out->candidates) {
        snprintf(err, errsize, "search: no room for candidates (capacity 0)");
        return -1;
    }
    if (scenario_check(base, err, errsize) != 0 || check_options(opt, err, errsize) != 0)
        return -1;
    if (base->decode_tokens <= 0) {
        snprintf(err, errsize, "--search needs --decode-tokens above 0: designs are ranked by the output tokens they "
                               "serve");
        return -1;
    }
    struct search_ctx ctx = {.opt = opt, .out = out, .s = *base, .stop = false};
    ctx.s.data_parallel = 1;
    unsigned mask = opt->precisions ? opt->precisions : 1u << base->precision;
    for (int p = 0; p < RT_PRECISION_COUNT && !ctx.stop; p++)
        if (mask & (1u << p))
            enumerate_layouts(&ctx, (enum rt_precision)p);
    mark_frontier(out);
    summarize(out);
    return 0;
}
