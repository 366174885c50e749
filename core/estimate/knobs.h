/* knobs.h — the scenario's knobs, one row each: the flag that sets it, its
 * key in a scenario file, where it is stored, its unit, the explorer's name
 * for it, and whether the command line reads it as a plain number.
 *
 * Every reader and writer of a knob goes through this table: the command
 * line's plain-number flags (cli/cli.c), the scenario file in both
 * directions and the flag a file's message names (core/io/scenariofile.c),
 * the explorer's knob names in messages (tui/sliders.c). A test checks
 * every row against --help, the man page and a scenario file's round trip
 * (tests/test_knobs.c). Adding a plain number knob is adding a row here (its
 * getopt entry, usage line and range check stay beside the flag parsing).
 * Pure data: no I/O, no state. */
#ifndef ROOFTOP_KNOBS_H
#define ROOFTOP_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

/* How a knob's value is stored in struct scenario. */
enum knob_value {
    KNOB_WHOLE, /* an int64_t at offset */
    KNOB_REAL,  /* a double at offset */
    KNOB_OTHER  /* a name, a precision, a list, a layout: read and written by code of its own */
};

struct knob {
    const char *flag;     /* "--batch" */
    const char *key;      /* its scenario file key ("batch"), or NULL: the file has none (a layout or model flag) */
    enum knob_value value;
    size_t offset;        /* KNOB_WHOLE and KNOB_REAL: where in struct scenario */
    bool plain;           /* the command line reads the flag's text as a plain number into offset */
    bool positive;        /* the command line refuses 0 and below (a figure that must exist when given) */
    const char *unit;     /* what the number counts ("tokens", "s", "bytes/s", ...), "" for names */
    const char *explorer; /* the explorer's knob for it ("kv heads"), or NULL */
};

/* The table: *count rows (count may be NULL). Never NULL. */
const struct knob *knob_table(size_t *count);

/* The row whose flag is `flag` ("--batch"; len bytes of it, or the whole
 * string when len is 0), or NULL. */
const struct knob *knob_by_flag(const char *flag, size_t len);

/* The row whose scenario file key is `key`, or NULL. */
const struct knob *knob_by_key(const char *key);

/* The row the explorer calls `name` ("kv heads"), or NULL. */
const struct knob *knob_by_explorer(const char *name);

#endif
