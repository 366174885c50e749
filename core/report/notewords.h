/* notewords.h — the sentences of analyze()'s notes: each code's wording and
 * a recorded note written out (notes.h records them). */
#ifndef ROOFTOP_NOTEWORDS_H
#define ROOFTOP_NOTEWORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "notes.h"

/* The printf format that words `code` (its conversions take the note's
 * values in order), or NULL for an unknown code. */
const char *note_wording(enum rt_note_code code);

/* Writes note n as its sentence into buf (size bytes, always terminated,
 * cut to fit; RT_NOTE_MAX holds every note) and returns buf. Each value is
 * formatted by its conversion in the wording: S, c and t values first
 * through format_si, format_count and format_seconds (units.h). A note
 * recorded with the wrong values, or a wording whose conversions do not
 * take them, writes a sentence saying so (a bug the tests catch). */
char *note_text(char *buf, size_t size, const struct rt_note *n);

/* Whether the conversion of `length` bytes at `conversion` ("%lld",
 * "%.3g", "%s") takes a value of signature kind `kind` (notes.h). */
bool note_conversion_takes(const char *conversion, size_t length, char kind);

#endif
