/* strbuf.h — a growable, always NUL-terminated string for building reports. */
#ifndef ROOFTOP_STRBUF_H
#define ROOFTOP_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
    char *data;  /* NUL-terminated; NULL until the first append */
    size_t len;  /* bytes used, without the NUL */
    size_t cap;  /* bytes allocated */
    bool failed; /* an allocation failed: the contents are incomplete */
};

/* Appends printf-formatted text. On allocation failure sets sb->failed and
 * leaves the text that was there. */
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a string verbatim. */
void sb_puts(struct strbuf *sb, const char *text);

/* Hands the string to the caller (who frees it) and resets sb. Returns NULL
 * when an allocation failed (the partial text is freed). */
char *sb_take(struct strbuf *sb);

#endif
