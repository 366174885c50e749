/* export.h — the report a design review pastes: the markdown report with the
 * roofline plot as text, and the OSC 52 sequence that puts text on the
 * local clipboard (the explorer's 'e' and 'y', --report=markdown --plot).
 *
 * Pure: builds strings, writes nothing (the explorer writes them).
 */
#ifndef ROOFTOP_EXPORT_H
#define ROOFTOP_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "report.h"

/* The size of the plot in a report, in cells. */
#define EXPORT_PLOT_COLS 72
#define EXPORT_PLOT_ROWS 20

/* The most base64 bytes one OSC 52 sequence carries: 100 KB, below the
 * limits terminals are known to keep (xterm's and tmux's are larger; some
 * terminals cut near 100 000 bytes). Longer text is refused, not cut. */
#define EXPORT_OSC52_MAX 100000

/* What the marks of the exported plot mean, printed under it. */
#define EXPORT_PLOT_KEY                                                                                                \
    "Key: o a phase (prefill, decode, training) on its roof; * where the realistic estimate puts it; "                \
    "the dotted column is the ridge."

/* The roofline panel of analysis a drawn off-screen into cols x rows cells
 * (clamped to [12, 200] x [5, 100]) as plain text, one line per row, in
 * ASCII (no braille), so that any viewer aligns it. Returns a new string,
 * or NULL when memory runs out. */
char *export_plot_text(const struct analysis *a, int cols, int rows);

/* The report of s (analyzed into a) in format f (text or markdown), with
 * the plot appended when plot is true: under "## Roofline" in a fenced
 * block (markdown), or after a blank line (text), with EXPORT_PLOT_KEY
 * under it. Other formats get the
 * report alone. Returns a new string, or NULL when memory runs out. */
char *export_report(enum rt_format f, const struct scenario *s, const struct analysis *a, bool plot);

/* What 'e' and 'y' export: the markdown report of s (analyzed into a) with
 * its plot, and, when a baseline is pinned (base_s and base_a not NULL), a
 * section "## Against the pinned baseline" with every input and figure that
 * differs (diff.h, the baseline as A). Returns a new string, or NULL when
 * memory runs out. */
char *export_review(const struct scenario *s, const struct analysis *a, const struct scenario *base_s,
                    const struct analysis *base_a);

/* Base64 (RFC 4648, padded) of len bytes of data: a new NUL-terminated
 * string, or NULL when memory runs out. */
char *export_base64(const unsigned char *data, size_t len);

/* The OSC 52 sequence that sets the clipboard to text: ESC ] 52 ; c ;
 * BASE64 BEL. Returns a new string; NULL with *too_long set when the base64
 * would exceed max bytes (EXPORT_OSC52_MAX in the explorer); NULL with
 * *too_long clear when memory runs out. */
char *export_osc52(const char *text, size_t max, bool *too_long);

/* Where an OSC 52 copy of bytes bytes of markdown went, in words for the
 * status line, written to buf (size bytes; returns buf): what was sent and
 * where it may have stopped, never that it arrived (a terminal says
 * nothing back). tmux is $TMUX, sty $STY (GNU screen), term $TERM (each
 * may be NULL): inside tmux OSC 52 reaches a clipboard only with
 * "set -g set-clipboard on" (the default, external, ignores what programs
 * send: tmux(1), set-clipboard); GNU screen passes none on; elsewhere the
 * terminal must allow it. width (the status line's columns): the longest
 * form that fits, else the shortest. */
char *export_osc52_words(char *buf, size_t size, size_t bytes, const char *tmux, const char *sty, const char *term,
                         int width);

#endif
