/* opreport.h — the report of one operation alone (--op): its shape, its
 * roofline floor, the realistic estimate with its error band and where its
 * constants come from, and why it runs at what it runs.
 *
 * JSON keys (under "operation"): kind, shape {the kind's dimensions},
 * format, kv ("bf16"/"fp8"), kernel (the library family), cache ("warm" or
 * "cold"), flops, bytes, intensity_flop_per_byte, bound ("compute",
 * "memory", "link"), floor_s, realistic_s, realistic_error_fraction,
 * compute_s, memory_s, fixed_s, peak_flops_per_s, realistic_flops_per_s,
 * fraction_of_peak, source ("measured", "near", "borrowed", "default"),
 * profile {from, measured, engine, engine_guessed, fit: {kind, engine,
 * format, kernel, rows, cv_error_fraction, params: {name: value}} or null},
 * why [strings]. Pure: builds text, no I/O.
 */
#ifndef ROOFTOP_OPREPORT_H
#define ROOFTOP_OPREPORT_H

#include <cjson/cJSON.h>

#include "analysis.h"
#include "strbuf.h"

/* Adds the "operation" object of a (a->operation.set) to root. */
void op_report_json(cJSON *root, const struct scenario *s, const struct analysis *a);

/* Writes the operation as text (markdown when markdown is set) to sb. */
void op_report_text(struct strbuf *sb, const struct scenario *s, const struct analysis *a, bool markdown);

/* One line of the operation's shape, e.g. "gemm 8192 x 8192 x 8192
 * (fp8)", "decode-attention batch 64, 8192 cached, 32/8 heads x 128
 * (kv fp8)". Returns buf. */
char *op_shape_text(char *buf, size_t size, const struct kernel_shape *k);

/* The operation's roofline bound: "compute" when its arithmetic intensity
 * is at or above the ridge, else "memory", and "link" for a collective. The
 * word --report prints, as every placement says it. */
const char *op_bound_name(const struct operation_figures *o);

/* Where the estimate's constants come from, in words, into buf: "measured
 * h100 profile", "measured h100 profile, a near kernel", "borrowed from
 * h200", "default constants, nothing measured" (o->estimate.source, and
 * o->profile_from for the chip named). Returns buf. */
char *op_profile_text(char *buf, size_t size, const struct operation_figures *o);

/* "measured", "near", "borrowed", "default". */
const char *kernel_source_name(enum rt_kernel_source src);

#endif
