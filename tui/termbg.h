/* termbg.h — what the terminal can show: its background (light or dark) and
 * whether it can draw braille. Pure functions of text the terminal or the
 * environment gives; the explorer asks, these decide.
 */
#ifndef ROOFTOP_TERMBG_H
#define ROOFTOP_TERMBG_H

#include <stdbool.h>
#include <stddef.h>

#include "explorer.h"
#include "themefile.h"

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
