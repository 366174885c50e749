/* search.h — the best serving design under latency targets: enumerate
 * layouts (tp x pp x ep), batches, precisions and disaggregated prefill
 * pools up to a chip limit, analyze each with analyze(), drop those that do
 * not fit or miss a target, and keep the Pareto frontier of tokens/s per
 * chip against tokens/s per user, plus the fewest chips that meet the
 * targets.
 *
 * Pure: no I/O and no globals; the caller owns the candidate array.
 */
#ifndef ROOFTOP_SEARCH_H
#define ROOFTOP_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "scenario.h"

/* Candidates one search keeps: --search and the explorer's Pareto view
 * alike, so the two count the same designs (past it: truncated). */
#define RT_SEARCH_CAPACITY 65536
#define RT_SEARCH_WHY_MAX 192 /* every reason whole: HBM, the pool, TTFT and TPOT with figures */

/* The most pipeline stages the search tries (powers of two, up to the layers). */
#define RT_SEARCH_PP_MAX 16

/* The ways a candidate fails, as bits of search_candidate.rejected. */
enum rt_search_reject {
    RT_REJECT_HBM = 1 << 0,  /* the batch does not fit */
    RT_REJECT_POOL = 1 << 1, /* the prefill pool is too small for the weights, or overloaded */
    RT_REJECT_TTFT = 1 << 2, /* misses the TTFT target */
    RT_REJECT_TPOT = 1 << 3, /* misses the TPOT target */
    RT_REJECT_KINDS = 4
};

/* One design the search tried. */
struct search_candidate {
    int64_t tp, pp, ep, dp;          /* the layout; dp is always 1 (replicas do not change per-chip figures) */
    int64_t batch;                   /* concurrent sequences per replica */
    enum rt_precision precision;     /* weights (the KV cache and --act-precision stay at the scenario's) */
    enum rt_precision compute_precision; /* what its matmuls run at (analysis.h analysis_compute_precision) */
    int64_t prefill_chips;           /* disaggregated prefill pool; 0 = prefill on the decode chips */
    int64_t chips;                   /* tp x pp x ep, plus the prefill pool */
    double ttft_s, tpot_s;           /* serving figures (analysis.h, struct serving_figures) */
    double tokens_per_s_per_user, tokens_per_s_per_chip;
    bool accepted;                   /* fits, and meets every target */
    bool frontier;                   /* accepted and no other accepted candidate is at least as good on both
                                        throughputs and better on one */
    unsigned rejected;               /* enum rt_search_reject bits; 0 when accepted */
    char rejected_because[RT_SEARCH_WHY_MAX]; /* the same in words, with the figures; "" when accepted */
};

/* What to enumerate. */
struct search_options {
    int64_t max_chips;               /* largest chip count of a candidate, prefill pool included, >= 1 */
    int64_t max_batch;               /* largest batch tried (powers of two from 1), >= 1 */
    unsigned precisions;             /* bit (1 << rt_precision) for each precision to try; 0 = the scenario's */
    bool disaggregate;               /* also try prefill pools of powers of two beside each decode layout */
};

/* The search's result over a caller-owned array. */
struct search_result {
    struct search_candidate *candidates; /* the caller's array */
    size_t count;                    /* candidates written */
    size_t capacity;                 /* the array's length */
    bool truncated;                  /* the enumeration had more candidates than capacity */
    size_t accepted, frontier;       /* how many were accepted; how many are on the frontier */
    long fewest_chips;               /* index of the accepted candidate with the fewest chips (ties: most
                                        tokens/s per chip), or -1 when none is accepted */
};

/* Fills search_options with the defaults for base: max_chips from
 * base->max_chips capped at 1024, max_batch 4096, precisions bf16 plus fp8
 * and one FP4 format where the chip runs them natively (as --act-precision
 * auto decides: analysis_compute_precision): nvfp4, else mxfp4 (MI355X);
 * no disaggregation. */
void search_options_default(const struct scenario *base, struct search_options *opt);

/* The search --search and the explorer's Pareto view run: the defaults
 * with disaggregated pools, base's precision alone when one_precision (the
 * line gave --precision), base->max_chips uncapped when max_chips_given. */
void search_options_for(const struct scenario *base, bool one_precision, bool max_chips_given,
                        struct search_options *opt);

/* Runs the search from base (its model, chip, tokens, engine, targets),
 * writing at most capacity candidates into out->candidates. Layouts: tp
 * powers of two dividing the query heads; pp powers of two up to the
 * layers; ep powers of two dividing the experts (MoE only, batch >= ep).
 * Returns 0, or -1 with err set when base is invalid (scenario_check) or
 * capacity is 0. Candidates whose scenario is invalid are not written. */
int search_run(const struct scenario *base, const struct search_options *opt, struct search_result *out, char *err,
               size_t errsize);

/* The frontier of r in display order, highest tokens/s per user first
 * (ties: more tokens/s per chip, then fewer chips): writes at most max
 * indices into r->candidates to out and returns how many. */
size_t search_frontier_order(const struct search_result *r, size_t *out, size_t max);

/* The scenario candidate c of a search from base stands for: base with c's
 * layout (chips = tp x pp x ep, pp, ep), batch, precision and prefill pool
 * (0: none), one replica. What the explorer's Pareto view loads on Enter.
 * c is one search_run wrote from this base; nothing is checked here
 * (analyze() checks the result). */
struct scenario search_candidate_scenario(const struct scenario *base, const struct search_candidate *c);

#endif
