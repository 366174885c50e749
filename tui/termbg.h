/* termbg.h — what the terminal can show: its background (light or dark) and
 * whether it can draw braille. Pure functions of text the terminal or the
 * environment gives; the explorer asks, these decide.
 */
#ifndef ROOFTOP_TERMBG_H
#define ROOFTOP_TERMBG_H

#include <stdbool.h>
#include <stddef.h>

#include "themefile.h"

/* The terminal's background, for choosing a theme: asked of the terminal
 * (COLORFGBG, then an OSC 11 query), or named with --background. */
enum explorer_background { EXPLORER_BG_AUTO = 0, EXPLORER_BG_DARK, EXPLORER_BG_LIGHT };

/* The background COLORFGBG describes ("fg;bg" or "fg;other;bg", as rxvt,
 * Konsole and others set it): the last field is the background's colour
 * number; 7 and 9-15 (white, the bright colours) are light, 0-6 and 8
 * dark. Returns EXPLORER_BG_AUTO for NULL, "", "default" or anything else
 * it cannot read. Source: rxvt-unicode's COLORFGBG (its manual, "ENVIRONMENT"). */
enum explorer_background background_from_colorfgbg(const char *value);

/* The background in a terminal's answer to OSC 11 ("\033]11;?\033\\"):
 * "\033]11;rgb:RRRR/GGGG/BBBB" ended by BEL or ST, each component 1-4 hex
 * digits (scaled to its width), anywhere in reply's len bytes (other
 * replies may come with it). Light when its WCAG relative luminance is
 * above 0.179, where black and white text contrast with it equally
 * ((L + 0.05) / 0.05 = 1.05 / (L + 0.05)). Returns EXPLORER_BG_AUTO when no
 * well-formed answer is there. Source: xterm's ctlseqs, "Operating System
 * Commands", Ps = 11. */
enum explorer_background background_from_osc11(const char *reply, size_t len);

/* True when the bytes reply (len of them) hold a complete answer to the
 * Primary Device Attributes query "\033[c" ("\033[?...c"), which every
 * terminal sends: asked after OSC 11, it says all answers are in. */
bool reply_has_device_attributes(const char *reply, size_t len);

/* A terminal reply still arriving: the rest of an OSC (up to BEL or ST,
 * ESC \\) or of a CSI (up to its final byte, 0x40-0x7E) whose start came
 * before a pause. Read as keys, its tail would type ("e" opened the export
 * prompt); reply_tail_take drops it instead. Zeroed: nothing pending. */
enum reply_tail_state {
    REPLY_TAIL_NONE = 0,
    REPLY_TAIL_ESC,     /* an ESC came last: the start of a reply, or the first half of an OSC's ST */
    REPLY_TAIL_OSC,
    REPLY_TAIL_OSC_ESC, /* inside an OSC, after an ESC: '\\' ends it */
    REPLY_TAIL_CSI
};
struct reply_tail {
    enum reply_tail_state state;
    int left;          /* code points it may still take: a bound on a terminal that never finishes */
    long long until_ms;/* a monotonic time in ms after which it is given up */
};

/* How long and how far a pending reply is waited for: REPLY_TAIL_MS after
 * it began, REPLY_TAIL_MAX code points. */
#define REPLY_TAIL_MS 1000
#define REPLY_TAIL_MAX 256

/* Starts waiting (at now_ms) for the rest of a reply in state st. */
void reply_tail_begin(struct reply_tail *t, enum reply_tail_state st, long long now_ms);

/* Where bytes (n of them, what was read of the terminal's answers so far)
 * leave off: inside an OSC or CSI reply that has not ended, t waits for
 * its rest (reply_tail_begin); else t is cleared. */
void reply_tail_after(struct reply_tail *t, const char *bytes, size_t n, long long now_ms);

/* Feeds ch, one code point read as a key at now_ms. Returns true when it
 * belongs to the pending reply (drop it); false when nothing is pending,
 * the wait is over (the time or the bound is spent: t is cleared, and ch is
 * a key), or ch ended nothing (t stays). The byte that ends the reply is
 * dropped too. */
bool reply_tail_take(struct reply_tail *t, unsigned ch, long long now_ms);

/* True when a terminal of type term cannot draw braille (U+2800-U+28FF) or
 * line drawing from UTF-8: the Linux console ("linux", "linux-*") and the
 * DEC terminals "vt100", "vt102", "vt220" (and their "-*" variants).
 * NULL or "" is false (the explorer refuses those anyway). */
bool term_lacks_braille(const char *term);

/* The theme of set to use on a background bg when none was named: for
 * light, the theme named "light" when there is one, else the first theme
 * drawn for a light background; for dark (or AUTO), or when set has no
 * light theme, fallback. Returns an index into set. */
int theme_for_background(const struct theme_set *set, enum explorer_background bg, int fallback);

#endif
