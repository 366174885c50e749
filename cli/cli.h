/* cli.h — the command line: flags to a scenario and a mode, and running it.
 *
 * The flag names are a contract that scripts and tests rely on (README.md).
 */
#ifndef ROOFTOP_CLI_H
#define ROOFTOP_CLI_H

#include <stdio.h>

#include "chipfile.h"
#include "explorer.h"
#include "measured.h"
#include "jsonio.h"
#include "report.h"
#include "scenario.h"
#include "search.h"
#include "sweep.h"
#include "tour.h"

enum cli_mode { CLI_EXPLORE = 0, CLI_REPORT, CLI_SWEEP, CLI_LIST_CHIPS, CLI_LIST_MODELS, CLI_LIST_THEMES, CLI_HELP,
                CLI_VERSION, CLI_CALIBRATE, CLI_SEARCH, CLI_DIFF, CLI_VALIDATE };

struct cli_options {
    enum cli_mode mode;
    enum rt_format format;        /* --report=FMT or --format=FMT */
    enum rt_sweep_kind sweep;     /* --sweep=KIND */
    double values[RT_SWEEP_MAX_VALUES];
    size_t value_count;           /* 0 = the sweep's default values */
    struct scenario scenario;     /* the default scenario with every flag applied */
    struct explorer_options explorer;
    const char *write_scenario;   /* --write-scenario FILE, or NULL */
    struct chip_db chips;         /* built-in chips and the user's chip files */
    struct load_warnings warnings;/* what loading files noticed; printed, not fatal */
    struct theme_set *themes;     /* loaded for the explorer and --list-themes; NULL otherwise */
    const char *calibrate_path;   /* --calibrate FILE */
    const char *validate_path;    /* --validate FILE|FOLDER */
    const char *kernels_from;     /* --kernels-from CHIP as given (--validate passes it to every row); NULL */
    bool calibrate_all;           /* --calibrate-scope all: the generic profile and the engines */
    const char *write_chip;       /* --write-chip FILE: save the calibrated chip */
    const char *write_profiles;   /* --write-profiles FILE: the kernel fits as core/hardware/kernel_profiles.inc */
    struct measured_point points[RT_MAX_POINTS]; /* --points FILE: measured kernels to place */
    struct points_context points_context;        /* what the --points profile says beyond its kernels */
    size_t point_count;
    bool precision_given;         /* --precision on the line: --search tries only it */
    const char *diff_a;           /* --diff A (or --baseline FILE): the first side */
    const char *diff_b;           /* --diff A B: the second side (NULL with --baseline: the flags') */
    bool diff_baseline;           /* the diff is --baseline FILE against the flags' scenario */
    const char *baseline_path;    /* --baseline FILE (pinned in the explorer), or NULL */
    const char *explorer_only;    /* the first explorer-only flag given ("--theme"), or NULL */
    bool plot;                    /* --plot: --report=markdown|text with the roofline as text */
    bool max_chips_given;         /* --max-chips on the line: --search goes that far (else 1024) */
    struct tour *tour;            /* --tour: the tour the explorer opens on (owned); NULL otherwise */
};

/* Frees what cli_parse allocated in *o (safe on a zeroed or failed parse). */
void cli_options_free(struct cli_options *o);

/* The folder rooftop reads user files of one kind from ("chips", "themes"):
 * $XDG_CONFIG_HOME/rooftop/KIND, or $HOME/.config/rooftop/KIND. Writes it
 * into out (size bytes) and returns out; returns NULL when neither variable
 * is set, or when the folder's path does not fit in size bytes (out is then
 * "": a path cut short would name another folder). */
char *cli_config_dir(char *out, size_t size, const char *kind);

/* The folder rooftop reads user data of one kind from ("tours"):
 * $XDG_DATA_HOME/rooftop/KIND, or $HOME/.local/share/rooftop/KIND; as
 * cli_config_dir (NULL when neither is set or the path does not fit). */
char *cli_data_dir(char *out, size_t size, const char *kind);

/* Parses argv into *out (free it with cli_options_free, also on failure).
 * Reads the flags, then the user's chip files (not for --help or --version,
 * which read no user file), then --scenario, then applies the flags, which
 * override the file. Returns 0 on success; 2 (the usage-error exit status)
 * with one line in err (errsize bytes) that names the flag or the file, the
 * value and what is accepted. Checks the whole scenario, so a budget at or
 * below the overhead or kv heads that do not divide the heads fail here.
 * Files are never waited on: a fifo or a device given as a file is refused
 * ("PATH: not a regular file (a fifo)"), one in a user folder skipped with
 * a warning; an empty path is "--FLAG: no file named"; a path too long for
 * its buffer is "--FLAG: the path is too long", never cut short. */
int cli_parse(int argc, char **argv, struct cli_options *out, char *err, size_t errsize);

/* Prints one "rooftop: MESSAGE" line to errout, MESSAGE formatted as by
 * printf (at most 1023 bytes) with its control bytes, newlines and invalid
 * UTF-8 made visible as \xNN (textsafe.h): a name quoted from a file or a
 * flag can neither drive the terminal nor break the line. */
void cli_say(FILE *errout, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints each warning of w as a "rooftop: warning: ..." line (cli_say),
 * then "... and N more warnings" when w dropped N beyond those it keeps. */
void cli_print_warnings(FILE *errout, const struct load_warnings *w);

/* The --help text. */
const char *cli_usage(void);

/* The scenario argv's flags describe (argv[0] a program name, argc words,
 * as cli_parse reads them): 0 with *out set, or nonzero with one line in
 * why, also when the flags ask for a mode rather than a scenario. The
 * measurement readers' scenario_from_flags_fn (measured.h). */
int cli_scenario_from_flags(int argc, char **argv, struct scenario *out, char *why, size_t whysize);

#endif
