/* termbg.c — reading the terminal's background and its character set. */
#include "termbg.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum explorer_background background_from_colorfgbg(const char *value)
{
    if (!value || !value[0])
        return EXPLORER_BG_AUTO;
    const char *last = strrchr(value, ';');
    const char *bg = last ? last + 1 : value;
    if (!last || !isdigit((unsigned char)bg[0]))
        return EXPLORER_BG_AUTO;
    char *end;
    long n = strtol(bg, &end, 10);
    if (*end != '\0' || n < 0 || n > 15)
        return EXPLORER_BG_AUTO;
    return n == 7 || n >= 9 ? EXPLORER_BG_LIGHT : EXPLORER_BG_DARK;
}

/* Reads 1-4 hex digits at *p as a fraction of their full scale (0-1);
 * advances *p. Returns -1 when there are none or more than 4. */
static double hex_component(const char **p, const char *end)
{
    unsigned v = 0;
    int digits = 0;
    while (*p < end && isxdigit((unsigned char)**p)) {
        char c = (char)tolower((unsigned char)**p);
        v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
        digits++;
        (*p)++;
        if (digits > 4)
            return -1.0;
    }
    if (digits == 0)
        return -1.0;
    return (double)v / (double)((1u << (4 * digits)) - 1);
}

enum explorer_background background_from_osc11(const char *reply, size_t len)
{
    static const char head[] = "\033]11;rgb:";
    const size_t hl = sizeof head - 1;
    for (size_t i = 0; i + hl <= len; i++) {
        if (memcmp(reply + i, head, hl) != 0)
            continue;
        const char *p = reply + i + hl, *end = reply + len;
        double c[3];
        bool ok = true;
        for (int k = 0; k < 3 && ok; k++) {
            c[k] = hex_component(&p, end);
            ok = c[k] >= 0.0 && (k == 2 || (p < end && *p++ == '/'));
        }
        /* Ended by BEL or ST (ESC \). */
        ok = ok && p < end && (*p == '\a' || (*p == '\033' && p + 1 < end && p[1] == '\\'));
        if (!ok)
            continue;
        int rgb[3];
        for (int k = 0; k < 3; k++)
            rgb[k] = (int)(c[k] * 255.0 + 0.5);
        return wcag_luminance(rgb) > 0.179 ? EXPLORER_BG_LIGHT : EXPLORER_BG_DARK;
    }
    return EXPLORER_BG_AUTO;
}

bool reply_has_device_attributes(const char *reply, size_t len)
{
    for (size_t i = 0; i + 3 < len; i++) {
        if (reply[i] != '\033' || reply[i + 1] != '[' || reply[i + 2] != '?')
            continue;
        for (size_t j = i + 3; j < len; j++) {
            if (reply[j] == 'c')
                return true;
            if (!isdigit((unsigned char)reply[j]) && reply[j] != ';')
                break;
        }
    }
    return false;
}

void reply_tail_begin(struct reply_tail *t, enum reply_tail_state st, long long now_ms)
{
    t->state = st;
    t->left = REPLY_TAIL_MAX;
    t->until_ms = now_ms + REPLY_TAIL_MS;
}

void reply_tail_after(struct reply_tail *t, const char *bytes, size_t n, long long now_ms)
{
    enum { IDLE, ESC, OSC, OSC_ESC, CSI } st = IDLE;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)bytes[i];
        switch (st) {
        case IDLE: st = c == 27 ? ESC : IDLE; break;
        case ESC: st = c == ']' ? OSC : c == '[' ? CSI : c == 27 ? ESC : IDLE; break;
        case OSC: st = c == 7 ? IDLE : c == 27 ? OSC_ESC : OSC; break;
        case OSC_ESC: st = c == '\\' ? IDLE : c == 27 ? OSC_ESC : OSC; break;
        case CSI: st = c >= 0x40 && c <= 0x7E ? IDLE : CSI; break;
        }
    }
    memset(t, 0, sizeof *t);
    if (st == OSC || st == OSC_ESC)
        reply_tail_begin(t, st == OSC_ESC ? REPLY_TAIL_OSC_ESC : REPLY_TAIL_OSC, now_ms);
    else if (st == ESC) /* a reply's first byte, cut from the rest */
        reply_tail_begin(t, REPLY_TAIL_ESC, now_ms);
    else if (st == CSI)
        reply_tail_begin(t, REPLY_TAIL_CSI, now_ms);
}

bool reply_tail_take(struct reply_tail *t, unsigned ch, long long now_ms)
{
    if (t->state == REPLY_TAIL_NONE)
        return false;
    if (now_ms > t->until_ms || t->left <= 0) {
        memset(t, 0, sizeof *t);
        return false;
    }
    t->left--;
    switch (t->state) {
    case REPLY_TAIL_ESC:
        if (ch == ']')
            t->state = REPLY_TAIL_OSC;
        else if (ch == '[')
            t->state = REPLY_TAIL_CSI;
        else {
            t->state = REPLY_TAIL_NONE;
            return ch == '\\'; /* the end of an ST; anything else is a key */
        }
        break;
    case REPLY_TAIL_OSC:
        if (ch == 7)
            t->state = REPLY_TAIL_NONE;
        else if (ch == 27)
            t->state = REPLY_TAIL_OSC_ESC;
        break;
    case REPLY_TAIL_OSC_ESC:
        t->state = ch == '\\' ? REPLY_TAIL_NONE : ch == 27 ? REPLY_TAIL_OSC_ESC : REPLY_TAIL_OSC;
        break;
    case REPLY_TAIL_CSI:
        if (ch >= 0x40 && ch <= 0x7E)
            t->state = REPLY_TAIL_NONE;
        break;
    default:
        break;
    }
    return true;
}

/* True when term is name or starts with name followed by '-'. */
static bool term_is(const char *term, const char *name)
{
    size_t n = strlen(name);
    return strncmp(term, name, n) == 0 && (term[n] == '\0' || term[n] == '-');
}

bool term_lacks_braille(const char *term)
{
    if (!term || !term[0])
        return false;
    static const char *const names[] = {"linux", "vt100", "vt102", "vt220"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (term_is(term, names[i]))
            return true;
    return false;
}

int theme_for_background(const struct theme_set *set, enum explorer_background bg, int fallback)
{
    if (bg != EXPLORER_BG_LIGHT || !set)
        return fallback;
    int named = theme_set_find(set, "light");
    if (named >= 0 && set->items[named].background == THEME_BG_LIGHT)
        return named;
    for (size_t i = 0; i < set->count; i++)
        if (set->items[i].background == THEME_BG_LIGHT)
            return (int)i;
    return fallback;
}
