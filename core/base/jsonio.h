/* jsonio.h — reading JSON documents with errors a person can act on.
 *
 * Wraps cJSON with what it lacks for user files: FILE:LINE:COLUMN positions
 * and a guess at what was expected, a UTF-8 byte-order mark skipped, UTF-16
 * recognised, nesting refused beyond a depth without recursing, duplicate
 * keys resolved to the last value (as Python's json does) with a warning,
 * and typed lookups whose messages name the key and the accepted range.
 * Pure: takes text, never opens files (see fileio.h for that).
 */
#ifndef ROOFTOP_JSONIO_H
#define ROOFTOP_JSONIO_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define RT_JSON_MAX_DEPTH 64
#define RT_MAX_WARNINGS 16
#define RT_WARNING_MAX 512

/* Warnings collected while loading: the load goes on. */
struct load_warnings {
    int count;                                 /* warnings kept, at most RT_MAX_WARNINGS */
    int dropped;                               /* warnings beyond those, counted but not kept */
    char text[RT_MAX_WARNINGS][RT_WARNING_MAX];
};

/* Adds a printf-formatted warning; ignored when w is NULL. When w already
 * holds RT_MAX_WARNINGS, the warning is only counted in w->dropped, so that
 * whoever prints them can say how many more there were. */
void warn_add(struct load_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds a note where warnings go: what a reader did or assumed that is not a
 * fault (a profile's summary, a count it inferred), so that it is said, but
 * not as a warning. Stored as "note: " and the text (RT_NOTE_PREFIX), which
 * whoever prints them keeps as the line's word instead of "warning:";
 * dropped and counted as warn_add's are. */
void note_add(struct load_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define RT_NOTE_PREFIX "note: "

/* The word to print before a stored warning text: "" for a note (it carries
 * its own "note: "), "warning: " for anything else (text NULL included). */
const char *warning_word(const char *text);

/* Parses len bytes of text (NUL bytes allowed; the text need not be
 * NUL-terminated) named `path` in messages. Returns the document (free with
 * cJSON_Delete) or NULL with one line in err: "PATH:LINE:COL: expected ...",
 * "PATH: looks like UTF-16: save the file as UTF-8", "PATH:LINE:COL: nested
 * deeper than 64 levels", "PATH: out of memory checking for duplicate
 * keys". Duplicate keys keep the last value and warn, once per earlier
 * occurrence, in the order written; an object's keys are checked in
 * n log n time (a 16 MiB file holds about 1.2 million keys). */
cJSON *json_parse_text(const char *text, size_t len, const char *path, struct load_warnings *w, char *err,
                       size_t errsize);

/* Converts a byte offset into text to a 1-based line and column (columns
 * count UTF-8 characters). */
void json_line_col(const char *text, size_t len, size_t offset, int *line, int *col);

/* Result of a typed lookup. */
enum json_found { JSON_ABSENT = 0, JSON_FOUND = 1, JSON_BAD = -1 };

/* Looks up key (case-sensitive) in obj as a finite number in [lo, hi]; when
 * whole is true it must be an integer below 2^53 in magnitude (so that it
 * is exact). A missing key or null is JSON_ABSENT, or JSON_BAD
 * with a message when required. Messages: "PATH: 'key' must be a number
 * (got a string)", "... from LO to HI (got V)". `what` prefixes key names
 * (e.g. "peak_flops_per_s.") and may be "". */
enum json_found json_number(const cJSON *obj, const char *key, const char *path, const char *what, bool required,
                            double lo, double hi, bool whole, double *out, char *err, size_t errsize);

/* Looks up key as a boolean (true/false). Same conventions. */
enum json_found json_bool(const cJSON *obj, const char *key, const char *path, bool required, bool *out, char *err,
                          size_t errsize);

/* Looks up key as a string and copies it into out (size bytes; longer
 * strings are an error naming the limit). Same conventions. */
enum json_found json_string(const cJSON *obj, const char *key, const char *path, bool required, char *out,
                            size_t size, char *err, size_t errsize);

/* Adds key: value to obj as a number, or null when value is not finite.
 * Printing the tree through json_make_exact (every writer of rooftop's
 * JSON does) writes it in the fewest digits that read back as exactly the
 * same double; until then it is an ordinary cJSON number that readers and
 * --diff compare as one. */
void json_add_exact(cJSON *obj, const char *key, double value);

/* Rewrites every number in the tree under item (item included) as the
 * fewest digits that read back as exactly the same double (non-finite
 * numbers become null): cJSON's own printing may settle for 15 digits a
 * unit in the last place away. Call it just before printing, so that a
 * report printed with cJSON agrees to the last digit with its CSV. Returns
 * 0, or -1 when memory runs out (the tree stays valid, partly rewritten). */
int json_make_exact(cJSON *item);

/* Warns about the keys of obj not in the NULL-terminated list known: the
 * first three by name, the rest in one line counting them. */
void json_warn_unknown_keys(const cJSON *obj, const char *const *known, const char *path, const char *what,
                            struct load_warnings *w);

#endif
