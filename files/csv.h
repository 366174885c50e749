/* csv.h — CSV records, as the measurement tables and profiler exports
 * write them: fields separated by commas, quoted ones with doubled quotes
 * inside, a UTF-8 byte-order mark and blank lines skipped. No I/O. */
#ifndef ROOFTOP_CSV_H
#define ROOFTOP_CSV_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes a CSV field may hold, its NUL included. */
#define CSV_FIELD_MAX 1024

/* Splits one CSV record starting at *pos of text (len bytes) into at most
 * max fields, copied into fields[i]. Advances *pos past the record. Returns
 * the number of fields, 0 at the end of the text, -1 for an unterminated
 * quote, or -2 when a field is longer than CSV_FIELD_MAX - 1 bytes or the
 * record has more than max fields (never a field cut short or dropped). */
int csv_record(const char *text, size_t len, size_t *pos, char fields[][CSV_FIELD_MAX], int max);

/* csv_record, except that a field longer than CSV_FIELD_MAX - 1 bytes keeps
 * its first CSV_FIELD_MAX - 1 (a profiler's kernel names run to 5,000
 * characters); -2 only for more than max fields. */
int csv_record_cut(const char *text, size_t len, size_t *pos, char fields[][CSV_FIELD_MAX], int max);

/* How many fields to make room for to read text's records: its first
 * line's fields and 8 more (ragged rows run longer), at most cap. */
int csv_room(const char *text, size_t len, int cap);

/* The index of the field named name among header[0..n), or -1. */
int csv_column(char header[][CSV_FIELD_MAX], int n, const char *name);

/* The line (from 1) of the first NUL byte in text (len bytes), or 0 when
 * none: a CSV is text, and a NUL would end a field's C string early, so the
 * readers refuse a file with one instead of reading a field cut short. */
size_t csv_nul_line(const char *text, size_t len);

#endif
