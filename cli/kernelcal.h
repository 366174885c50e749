/* kernelcal.h — `rooftop --calibrate TABLE|FOLDER`: the kernel models'
 * constants fitted to measured kernel tables (kerneltable.h), one set per
 * chip, engine, kind, format and kernel library, each with its 5-fold
 * cross-validated error; printed by group and pooled by kind, chip and
 * engine. --write-chip FILE saves the --chip with its fits (a chip file
 * whose "kernels" carry them); --write-profiles FILE writes the compiled-in
 * table (core/hardware/kernel_profiles.inc, `make profiles`). */
#ifndef ROOFTOP_KERNELCAL_H
#define ROOFTOP_KERNELCAL_H

#include <stdbool.h>
#include <stdio.h>

#include "kerneltable.h"

struct cli_options;

/* True when path is a folder, or a file whose first line is a kernel
 * table's header. */
bool kernel_tables_at(const char *path);

/* Reads every kernel table at path (a file, or a folder searched to any
 * depth for *.csv tables) into a new array (free it). Returns 0 with *rows
 * and *count; -1 with err set. files, when not NULL, gets how many tables
 * were read. */
int kernel_tables_read(const char *path, struct kernel_row **rows, size_t *count, int *files, char *err,
                       size_t errsize);

/* Runs the calibration (see above). Progress goes to errout when it is a
 * terminal. Returns the exit status: 0; 2 for no usable rows or a table
 * that does not read; 1 when a file cannot be written. */
int run_kernel_calibrate(const struct cli_options *o, FILE *out, FILE *errout);

#endif
