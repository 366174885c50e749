/* strbuf.c — growable string. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ensures room for `extra` more bytes plus the NUL. */
static bool sb_reserve(struct strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !sb_reserve(sb, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_puts(struct strbuf *sb, const char *text)
{
    size_t n = strlen(text);
    if (!sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, text, n + 1);
    sb->len += n;
}

char *sb_take(struct strbuf *sb)
{
    char *out = sb->data;
    if (sb->failed) {
        free(out);
        out = NULL;
    } else if (!out) {
        out = calloc(1, 1);
    }
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
    return out;
}
