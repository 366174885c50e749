/* commands.h — the program's entry point: the flags (cli.h), then the
 * mode they ask for (commands.c). */
#ifndef ROOFTOP_COMMANDS_H
#define ROOFTOP_COMMANDS_H

#include <stdio.h>

#include "cli.h"

/* Runs the program: parses argv, then prints the report, sweep, list, help
 * or version to out, or opens the explorer when stdin and stdout are
 * terminals (falling back to the text report). Errors go to errout as
 * "rooftop: ..." lines. Returns the exit status: 0 success, 2 bad usage,
 * 1 other failure. */
int cli_main(int argc, char **argv, FILE *out, FILE *errout);

#endif
