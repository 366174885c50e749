/* calibrate_cmd.h — the --calibrate mode of the command line. */
#ifndef ROOFTOP_CALIBRATE_CMD_H
#define ROOFTOP_CALIBRATE_CMD_H

#include <stdio.h>

#include "cli.h"

/* Reads o->calibrate_path (measured.h's formats), fits the scenario's chip
 * profile to the rows measured on that chip (or, with o->calibrate_all, the
 * generic profile and every engine's to all rows), prints the fit with its
 * error before, after and left-one-out, and with o->write_chip saves the
 * chip with its fitted profile. Returns the exit status: 0, 2 for a file
 * that cannot be fitted (too few rows, a row faster than the roofline, a bad
 * row: the message names it), 1 when the chip cannot be written. */
int run_calibrate(const struct cli_options *o, FILE *out, FILE *errout);


#endif
