/* sweep.h — one knob varied over a list of values, one analysis per value. */
#ifndef ROOFTOP_SWEEP_H
#define ROOFTOP_SWEEP_H

#include <stddef.h>

#include "analysis.h"

enum rt_sweep_kind { RT_SWEEP_CHIPS = 0, RT_SWEEP_PARAMS, RT_SWEEP_BATCH, RT_SWEEP_KV_HEADS, RT_SWEEP_COUNT };

#define RT_SWEEP_MAX_VALUES 64

/* Name of a sweep kind as the CLI spells it: "chips", "params", "batch", "kv-heads". */
const char *sweep_kind_name(enum rt_sweep_kind k);

/* Parses a sweep kind name. Returns 0 and sets *out, or -1. */
int sweep_kind_parse(const char *text, enum rt_sweep_kind *out);

/* The guide's values for each sweep (ch. 6-8), as the CLI uses by default:
 * chips 1 4 16 64 128; params 70e9 35e9 17e9 8e9; batch 1 8 64 256 1024;
 * kv-heads: heads, heads/8 when whole, and 1 (64 8 1 for 64 heads).
 * Writes at most max values into values; returns how many. */
size_t sweep_default_values(enum rt_sweep_kind k, const struct scenario *base, double *values, size_t max);

/* Applies value v of sweep k to scenario *s (chips, params, batch or
 * model.kv_heads). v must be a whole number from 1 to the knob's limit:
 * RT_MAX_CHIPS chips, RT_MAX_PARAMS params, RT_MAX_BATCH batch, the model's
 * heads (and a divisor of them) for kv-heads. Returns 0, or -1 with a
 * message naming --values, the value exactly (format_exact) and the range
 * (a value too large is "out of range", one with a fraction "whole numbers"). */
int sweep_apply(enum rt_sweep_kind k, double v, struct scenario *s, char *err, size_t errsize);

/* Runs analyze() once per value into rows[0..n). Returns 0, or -1 with a
 * message naming the first value that fails. n <= RT_SWEEP_MAX_VALUES. */
int sweep_run(enum rt_sweep_kind k, const struct scenario *base, const double *values, size_t n,
              struct analysis *rows, char *err, size_t errsize);

#endif
