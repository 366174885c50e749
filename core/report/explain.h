/* explain.h — "show your work": the formulas behind the figures of an
 * analysis, with the scenario's numbers filled in and the source of each
 * constant, as lines of text.
 *
 * The explorer's overlay only lays these lines out; a report or a test can
 * print them as they are. Every result a line shows is the analysis' own
 * figure (the one on screen); the only arithmetic done here is for the
 * intermediate values a formula shows on its way there (N x bytes / HBM
 * before the ceiling, the sum of the detailed model's terms), each in a small
 * named helper below.
 *
 * Text is 7-bit ASCII ("x" for times; a name or source read from a file has
 * each non-ASCII character written as '?'), so it draws the same in a
 * Unicode and an ASCII terminal; each line is written to fit 72 columns for
 * the guide's scenarios, except source lines, which quote a chip's datasheet
 * citation in full for the view to shorten. Pure: no I/O, no globals, no
 * allocation.
 */
#ifndef ROOFTOP_EXPLAIN_H
#define ROOFTOP_EXPLAIN_H

#include <stdbool.h>

#include "analysis.h"
#include "scenario.h"

#define RT_EXPLAIN_MAX_LINES 80
#define RT_EXPLAIN_LINE_MAX 200

/* What a line is, so that a view can give it a style. */
enum rt_explain_kind {
    RT_EXPLAIN_HEADING = 0, /* a section: the figure and where the formula comes from */
    RT_EXPLAIN_FORMULA,     /* the formula in symbols, or a plain statement */
    RT_EXPLAIN_NUMBERS,     /* the formula with the scenario's numbers and the result */
    RT_EXPLAIN_SOURCE,      /* where a constant comes from (may be long: shorten it to fit) */
    RT_EXPLAIN_OK,          /* a verdict that meets the budget */
    RT_EXPLAIN_MISS         /* a verdict that misses it */
};

/* One line of the explanation: its kind and its text (ASCII, no newline;
 * leading blanks indent it under its heading). */
struct explain_line {
    enum rt_explain_kind kind;
    char text[RT_EXPLAIN_LINE_MAX];
};

/* Every line, in the order they are shown. */
struct explanation {
    struct explain_line entry[RT_EXPLAIN_MAX_LINES]; /* not "lines": term.h defines that name */
    int count;
};

/* Fills *out with the explanation of analysis *a of scenario *s (a must be
 * what analyze(s) returned): the ridge point (peak / bandwidth, ch. 3) and the
 * chip's source; the napkin prefill (2 x N x tokens x batch / (chips x peak x
 * MFU), ch. 5) and decode (tokens x N x bytes / (chips x bandwidth), ch. 5);
 * the turn and its verdict against the budget, and the chips that meet it
 * (ch. 6); the chips that hold the weights (ceil(N x bytes / HBM), ch. 6);
 * the KV cache per token (2 x layers x kv_heads x d_head x bytes, or the
 * latent form layers x (kv_lora_rank + rope_dim) x bytes, ch. 7 and
 * DeepSeek-V2 sec. 2.1) and per request; the decode batch intensity (ch. 8);
 * the detailed model's prefill and decode step as the napkin's plus its
 * named terms; and MFU: the PaLM convention (6N + 12 L H Q T per token,
 * Chowdhery et al. 2022 app. B) for a budget from the shape, or the matmul
 * share for --step-times (ch. 4). Returns the number of lines (> 0), or -1
 * when s, a or out is NULL (then out, if any, holds no lines). Lines beyond
 * RT_EXPLAIN_MAX_LINES are dropped; text beyond RT_EXPLAIN_LINE_MAX - 1
 * bytes is cut. */
int explain_analysis(const struct scenario *s, const struct analysis *a, struct explanation *out);

/* The ratio the weights-fit ceiling is taken of: weights_bytes / hbm_bytes
 * per chip (ch. 6: 140 GB / 16 GB = 8.75 for 70B bf16 on a TPU v5e). NAN
 * when hbm_bytes <= 0 or either input is not finite. */
double explain_weights_ratio(double weights_bytes, double hbm_bytes);

/* Sum of n latency terms' seconds: what the detailed model adds to the
 * napkin's time of a phase (the terms add up to exactly that). 0 when n <= 0
 * or terms is NULL. */
double explain_terms_sum(const struct latency_term *terms, int n);

#endif
