/* textsafe.c — control bytes made visible before text reaches a terminal. */
#include "textsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when s[0] does not
 * start one (a stray continuation byte, an overlong form, a surrogate, a
 * sequence cut short) or is the terminating NUL. */
static int utf8_valid_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    int len;
    unsigned int cp;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1Fu;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0Fu;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07u;
    else
        return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    static const unsigned int min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* True for the bidirectional formatting characters, which reorder how a
 * terminal shows the text around them (the "Trojan Source" trick): U+061C,
 * U+200E, U+200F, U+202A..U+202E and U+2066..U+2069. */
static bool bidi_control(const unsigned char *s, int len)
{
    if (len == 2)
        return s[0] == 0xD8 && s[1] == 0x9C;
    if (len != 3 || s[0] != 0xE2)
        return false;
    if (s[1] == 0x80)
        return s[2] == 0x8E || s[2] == 0x8F || (s[2] >= 0xAA && s[2] <= 0xAE);
    return s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9;
}

/* One unit of text at s: how many bytes it spans (*n) and whether it is safe
 * to print as it is. An unsafe unit is a control (C0, DEL, or a C1 code
 * point: all its bytes) or a single invalid byte. Returns false at the NUL. */
static bool next_unit(const unsigned char *s, bool keep_newlines, int *n, bool *safe)
{
    if (s[0] == 0)
        return false;
    int len = utf8_valid_len(s);
    if (len == 0) {
        *n = 1;
        *safe = false;
    } else if (len == 1) {
        *n = 1;
        *safe = (s[0] >= 0x20 && s[0] != 0x7F) || (s[0] == '\n' && keep_newlines);
    } else {
        *n = len;
        *safe = !(len == 2 && s[0] == 0xC2 && s[1] <= 0x9F) && !bidi_control(s, len); /* C1 controls */
    }
    return true;
}

size_t text_safe_len(const char *text, bool keep_newlines)
{
    if (!text)
        return 0;
    const unsigned char *s = (const unsigned char *)text;
    size_t total = 0;
    int n;
    bool safe;
    while (next_unit(s, keep_newlines, &n, &safe)) {
        total += safe ? (size_t)n : 4u * (size_t)n;
        s += n;
    }
    return total;
}

bool text_needs_escape(const char *text, bool keep_newlines)
{
    return text && text_safe_len(text, keep_newlines) != strlen(text);
}

char *text_safe(char *out, size_t size, const char *text, bool keep_newlines)
{
    if (size == 0)
        return out;
    size_t used = 0;
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    int n;
    bool safe;
    while (next_unit(s, keep_newlines, &n, &safe)) {
        size_t need = safe ? (size_t)n : 4u * (size_t)n;
        if (used + need >= size)
            break;
        if (safe) {
            memcpy(out + used, s, (size_t)n);
        } else {
            for (int i = 0; i < n; i++)
                snprintf(out + used + 4u * (size_t)i, 5, "\\x%02x", s[i]);
        }
        used += need;
        s += n;
    }
    out[used] = '\0';
    return out;
}

char *text_safe_take(char *text)
{
    if (!text || !text_needs_escape(text, true))
        return text;
    size_t need = text_safe_len(text, true) + 1;
    char *safe = malloc(need);
    if (safe)
        text_safe(safe, need, text, true);
    free(text);
    return safe;
}

char *json_safe_take(char *text)
{
    if (!text)
        return NULL;
    /* cJSON's own whitespace (newline, tab, carriage return) is fine; any
     * other C0 byte could only sit inside a string, which cJSON escapes. */
    const unsigned char *s = (const unsigned char *)text;
    size_t need = 0;
    bool change = false;
    int n;
    bool safe;
    for (const unsigned char *p = s; next_unit(p, true, &n, &safe); p += n) {
        bool keep = safe || (n == 1 && (p[0] == '\t' || p[0] == '\r'));
        need += keep ? (size_t)n : 6u; /* \u007f, \u009b or \ufffd: one escape per unit */
        change |= !keep;
    }
    if (!change)
        return text;
    char *out = malloc(need + 1);
    if (!out) {
        free(text);
        return NULL;
    }
    size_t used = 0;
    for (const unsigned char *p = s; next_unit(p, true, &n, &safe); p += n) {
        bool keep = safe || (n == 1 && (p[0] == '\t' || p[0] == '\r'));
        if (keep) {
            memcpy(out + used, p, (size_t)n);
            used += (size_t)n;
            continue;
        }
        unsigned int cp = 0xFFFD; /* an invalid byte */
        if (n == 1 && p[0] < 0x80)
            cp = p[0]; /* DEL, or a C0 byte outside a string (cJSON writes none) */
        else if (n == 2)
            cp = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu); /* a C1 control, or U+061C */
        else if (n == 3)
            cp = ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu); /* a bidi control */
        snprintf(out + used, 7, "\\u%04x", cp);
        used += 6;
    }
    out[used] = '\0';
    free(text);
    return out;
}
