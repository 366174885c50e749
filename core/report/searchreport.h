/* searchreport.h — a design search's result (search.h) as text, markdown,
 * JSON or CSV.
 *
 * Like report.h: a newly allocated NUL-terminated string that the caller
 * frees, or NULL when memory runs out; no I/O.
 */
#ifndef ROOFTOP_SEARCHREPORT_H
#define ROOFTOP_SEARCHREPORT_H

#include "report.h"
#include "search.h"

/* The search r (run from base with opt) in format f:
 *   text: what was searched and under which targets, the counts, the
 *     frontier sorted by tokens/s per user (highest first), and the fewest
 *     chips that meet the targets or, when none does, the commonest reason
 *     for rejection; every line at most 80 columns.
 *   markdown: the same, the frontier as a table.
 *   json: {"model", "chip" (its key), "prefill_tokens", "decode_tokens",
 *     "targets": {"ttft_s", "tpot_s"} (null when not set), "search":
 *     {"max_chips", "max_batch", "precisions", "disaggregate"}, "accepted",
 *     "frontier" (counts), "candidates": [{"tp", "pp", "ep", "dp", "batch",
 *     "precision", "prefill_chips", "chips", "ttft_s", "tpot_s",
 *     "tokens_per_s_per_user", "tokens_per_s_per_chip", "accepted",
 *     "frontier", "rejected_because" (null when accepted)}], "fewest_chips"
 *     (a candidate object, or null), "truncated"}.
 *   csv: a header row with the candidate keys, one row per candidate
 *     (rejected_because empty when accepted).
 * Seconds and rates are SI (s, tokens/s). Returns NULL on out-of-memory. */
char *search_render(enum rt_format f, const struct scenario *base, const struct search_options *opt,
                    const struct search_result *r);

#endif
