/* measured.h — measurements from CSV files: for --calibrate (a chip's
 * efficiency profile fitted to a user's benchmark) and --points (a
 * profiler's kernels drawn on the roofline).
 *
 * Two formats, told apart by the header row:
 * - points: `label,flops,bytes,seconds` and an optional `precision` column
 *   (bf16 when absent; fp16 reads as bf16, fp32 and fp64 as vector-unit
 *   work): one kernel per row, FLOPs and bytes it moved, its
 *   measured time (what Nsight Compute or a profiler exports);
 * - cases: the columns of rooftop's shared measurement table (`id,
 *   category, gpu, engine, measured_s, rooftop_args, rooftop_metric,
 *   expressible`, ...): each row is a whole scenario given as rooftop's own
 *   flags and the figure to read from it. `{configs}` in the flags stands
 *   for the `configs` folder beside the file. Rows marked `expressible=no`
 *   are skipped.
 * Fields may be quoted ("a, b") with doubled quotes inside.
 */
#ifndef ROOFTOP_MEASURED_H
#define ROOFTOP_MEASURED_H

#include <stddef.h>

#include "calibrate.h"
#include "csv.h"
#include "jsonio.h"



/* Splits a flag string into words (single or double quotes group words,
 * as a shell would), into words[0..max). Returns the count, or -1 when there
 * are more than max words (a word cannot outgrow CSV_FIELD_MAX when the
 * string is one CSV field). */
int split_words(const char *text, char words[][CSV_FIELD_MAX], int max);


/* Reads a points file into points (at most max): rooftop's own CSV, or an
 * Nsight Compute CSV export (profile_ncu.h; kernels it cannot place, for
 * want of a time or DRAM bytes, are left out with a warning in w). Returns
 * 0 with *count set, or -1 with "PATH:LINE: ..." in err: a header other than
 * label,flops,bytes,seconds[,precision] (or an export's), a value that is
 * not a positive number, an unknown precision. A TraceLens operation table
 * is read as profile_ncu.h says, a PyTorch profiler (Kineto) trace, plain or
 * gzip, as profile_kineto.h says. */
int measured_points_read(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                         size_t *count, struct load_warnings *w, char *err, size_t errsize);

/* measured_points_read on the file at path (shown names it in messages);
 * a Kineto trace is streamed from the file (profile_kineto.h: no size
 * limit, bounded memory), any other file read whole. What the profile says
 * beyond its kernels goes to ctx (zeroed when it says nothing; may be NULL). */
int measured_points_read_path(const char *path, const char *shown, struct measured_point *points, size_t max,
                              size_t *count, struct points_context *ctx, struct load_warnings *w, char *err,
                              size_t errsize);

/* Turns a case row's flags (argv[0] a program name, argc words) into a
 * scenario: 0, or nonzero with one line in why (the command line's
 * cli_scenario_from_flags; handed in, so that the readers of measurements
 * sit below the command line that calls them). */
typedef int (*scenario_from_flags_fn)(int argc, char **argv, struct scenario *out, char *why, size_t whysize);

/* Reads a measurements file (either format, or a profiler export as
 * measured_points_read reads one) into a new array of observations (free
 * it). Point rows are timed on base's chip; case rows
 * build their own scenarios from their flags through parse (with the
 * user's chip files). Returns 0 with *out and *count, or -1 with
 * "PATH:LINE: ..." in err. */
int measured_read(const char *path, const char *text, size_t len, const struct scenario *base,
                  scenario_from_flags_fn parse, struct observation **out, size_t *count, struct load_warnings *w,
                  char *err, size_t errsize);

#endif
