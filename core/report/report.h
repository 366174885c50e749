/* report.h — the analysis as text, markdown, JSON or CSV.
 *
 * Every function returns a newly allocated NUL-terminated string that the
 * caller frees, or NULL when memory runs out. No I/O: the caller writes it.
 * Control bytes in names from files are made visible (report_take), so the
 * text is safe to write to a terminal.
 * Numbers are written with a dot in every locale only if LC_NUMERIC is "C",
 * which the program sets at start-up. JSON keys are documented in README.md.
 */
#ifndef ROOFTOP_REPORT_H
#define ROOFTOP_REPORT_H

#include <stddef.h>

#include "analysis.h"
#include "calibrate.h"
#include "sweep.h"

struct cJSON;

enum rt_format { RT_FORMAT_TEXT = 0, RT_FORMAT_MARKDOWN, RT_FORMAT_JSON, RT_FORMAT_CSV };

/* Parses "text", "markdown" (or "md"), "json", "csv". Returns 0 or -1. */
int format_parse(const char *text, enum rt_format *out);

/* The whole analysis of scenario s (already analyzed into a) in format f
 * (text, markdown or json; csv gives the placement table). */
char *report_render(enum rt_format f, const struct scenario *s, const struct analysis *a);

/* report_render with measured kernels placed on the chip's roof (--points):
 * a "Measured kernels" section (text, markdown) or a "points" list (JSON:
 * label, flops, bytes, seconds, precision, intensity_flop_per_byte,
 * achieved_flops_per_s, roof_flops_per_s, fraction_of_roof, above_roof,
 * above_roof_cause, by_bytes, on_vector_roof, achieved_bytes_per_s), rows
 * of phase "measured" in the CSV table; one above the roof is flagged with
 * its likeliest cause. Then the profiled work's utilization (HFU and MBU by
 * count, points_utilization) over ctx's GPU steps, else over the kernels'
 * time ("profile" in JSON). pts may be NULL when n is 0, ctx NULL when the
 * profile says nothing beyond its kernels. */
char *report_render_points(enum rt_format f, const struct scenario *s, const struct analysis *a,
                           const struct measured_point *pts, size_t n, const struct points_context *ctx);

/* The JSON report's tree (what --report=json prints, before its numbers are
 * made exact), for callers that compare reports (diff.h); the caller frees
 * it with cJSON_Delete. NULL when memory runs out. */
struct cJSON *report_json_tree(const struct scenario *s, const struct analysis *a);

/* A sweep's rows in format f (text in the guide's layout, csv, json list,
 * markdown table). values[i] is the swept value of rows[i]; base is the
 * scenario the sweep started from. */
char *sweep_render(enum rt_format f, enum rt_sweep_kind k, const struct scenario *base, const double *values,
                   const struct analysis *rows, size_t n);

/* "OK" when the turn meets its budget, else "MISS". */
const char *verdict_name(const struct latency_verdict *l);

struct strbuf;

/* Hands sb's text to the caller (who frees it) made safe for a terminal
 * (textsafe.h): a control byte or invalid UTF-8 from a name or key of an
 * input file never reaches the terminal raw. JSON goes through
 * json_safe_take (the same document to a JSON reader), every other format
 * through text_safe_take. Returns NULL when an allocation failed. */
char *report_take(struct strbuf *sb, enum rt_format f);

/* Appends the cJSON tree root printed (indented, every number exact:
 * json_make_exact) and a newline to sb, then frees root; sets sb->failed
 * when root is NULL or printing fails. */
void json_finish(struct strbuf *sb, struct cJSON *root);

#endif
