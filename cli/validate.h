/* validate.h — `rooftop --validate FILE|FOLDER`: every measured row
 * predicted as an ordinary scenario, against its measurement.
 *
 * Reads a measurement table as it is written: the kernel tables of
 * AIConfigurator (kerneltable.h; a folder is searched for them), or
 * rooftop's own cases.csv (measured.h: each row's rooftop_args and metric).
 * Each row becomes rooftop's own flags (its "args"), those flags are parsed
 * and analyzed exactly as `rooftop ARGS --report=json` would, and the
 * figure at "figure" in that report is the prediction: nothing measured
 * enters it. A row rooftop cannot express is kept with the reason.
 *
 * Output (--format): text and markdown list every row (predicted,
 * measured, ratio) and the mean absolute percentage error by group (table,
 * chip, engine, dtype, kind, size decade); JSON:
 *   {"rows": [{"line", "file", "table", "chip", "engine", "kind", "format",
 *              "kernel", "measured_s", "predicted_s", "args": [...],
 *              "figure": "operation.realistic_s"} | {"line", "file",
 *              "skipped": "why"}],
 *    "groups": [{"by", "name", "rows", "mape", "median_ape"}],
 *    "summary": {"rows", "skipped", "mape", "median_ape", "within_floor"}}
 * where within_floor is the share of rows whose roofline floor is at or
 * below the measurement. Measured serving runs (data/serving/runs.csv,
 * with the models.csv beside it) give one row a run:
 *   {"line", "file", "table": "serving", "chip", "engine", "kind": the
 *    model, "format", "mode", "concurrency", "measured": {"ttft_s",
 *    "tpot_s"}, "predicted": {"ttft_s", "tpot_s"}, "args": [...],
 *    "figures": {"ttft_s": "serving.benchmark_ttft_s", "tpot_s":
 *    "serving.benchmark_tpot_s"}}
 * groups by "metric" (TTFT, TPOT), then engine, chip, mode, format and
 * clients, each name led by its metric, and a summary of "rows",
 * "skipped", "mape" (both metrics), "median_ape", "ttft_mape",
 * "tpot_mape", "ttft_median_ape", "tpot_median_ape" and "expressed" (the
 * share of runs predicted).
 */
#ifndef ROOFTOP_VALIDATE_H
#define ROOFTOP_VALIDATE_H

#include <stdio.h>

struct cli_options;

/* Runs the validation of o->validate_path and prints it in o->format.
 * Returns 0; 2 for a file that is not a measurement table; 1 when memory
 * runs out. */
int run_validate(const struct cli_options *o, FILE *out, FILE *errout);

#endif
