/* grid.h — an in-memory screen: a rectangle of cells, each one character and
 * a colour role. The explorer draws every frame into a grid; a thin ncurses
 * layer copies it to the terminal, and the tests compare it as text.
 *
 * Pure: no terminal, no locale, no globals. Coordinates are signed; anything
 * drawn outside the grid (or outside a view's rectangle) is clipped, never an
 * error, so callers can draw with unclamped arithmetic.
 */
#ifndef ROOFTOP_GRID_H
#define ROOFTOP_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "theme.h"

/* A rectangle in cells: columns x..x+w-1, rows y..y+h-1. Empty when w or h <= 0. */
struct rect {
    int x, y, w, h;
};

/* One screen cell: a Unicode code point and the colour role it is drawn
 * in. A wide character (char_width 2: CJK, emoji) takes two cells, itself
 * and GRID_WIDE_TAIL to its right; 0 never appears in a drawn grid. */
#define GRID_WIDE_TAIL 0x110000u /* past Unicode: the right half of a wide character */
struct cell {
    uint32_t ch;
    uint8_t role; /* enum role */
};

struct grid {
    int cols, rows;
    struct cell *cells; /* rows x cols, row-major; owned */
    /* The --report=json key a tour question waiting for its guess asks for,
     * or NULL ("latency.total_s"; a placement row by its phase's name,
     * "placement[decode].bound"): every figure that tells it is hidden,
     * whole panels among them. Not owned. */
    const char *conceal;
    /* The coming steps' keys whose answers this screen would show, space-
     * separated, or NULL: hidden figure by figure (view_conceals), never a
     * whole panel (view_asks), so the step's own answer still shows. */
    const char *conceal_later;
    /* The step's own key once its guess is in, or NULL: what it reveals shows, even where a coming
     * step's key would hide it (step 6's decode intensity on the row step 7 asks the bound of). */
    const char *reveal;
    bool asking; /* a tour question waits for its guess: no notes, whose figures are of every kind */
};

/* A grid with a clip rectangle: what panels draw into. Coordinates given to
 * view_* functions are relative to r's top-left corner. */
struct view {
    struct grid *g;
    struct rect r;
};

/* Allocates a cols x rows grid of blanks. cols and rows are clamped to
 * [0, 1000]. Returns 0, or -1 when memory runs out (the grid is then empty
 * and safe to use and free). */
int grid_init(struct grid *g, int cols, int rows);

/* Resizes g to cols x rows (clamped as in grid_init) and blanks it. Returns 0,
 * or -1 when memory runs out (g keeps its old size). */
int grid_resize(struct grid *g, int cols, int rows);

/* Frees the cells; g becomes an empty 0 x 0 grid. Safe on an empty grid. */
void grid_free(struct grid *g);

/* Sets every cell to a blank in ROLE_TEXT. */
void grid_erase(struct grid *g);

/* The cell at (x, y), or NULL outside the grid. */
struct cell *grid_at(struct grid *g, int x, int y);
const struct cell *grid_cell(const struct grid *g, int x, int y);

/* Writes the grid as UTF-8 text, one line per row, trailing blanks removed
 * and each line ended by '\n', into buf (size bytes, NUL-terminated when
 * size > 0). Returns the length the whole text needs (excluding the NUL), so
 * a return >= size means it was truncated. */
size_t grid_to_text(const struct grid *g, char *buf, size_t size);

/* Decodes one UTF-8 sequence at s into *cp. Returns the bytes consumed (1-4),
 * or 0 at the terminating NUL. A malformed byte decodes to U+FFFD and consumes
 * one byte, so scanning always progresses. */
int utf8_decode(const char *s, uint32_t *cp);

/* Encodes cp as UTF-8 into out (at least 4 bytes). Returns the byte count
 * (1-4); code points above U+10FFFF or surrogates encode U+FFFD. */
int utf8_encode(uint32_t cp, char *out);

/* Columns code point c takes on a terminal: 2 for East Asian Wide and
 * Fullwidth characters and emoji (UAX #11, as wcwidth counts them), else 1
 * (what is not drawable is drawn as one '?'). A locale-independent table,
 * so that a frame renders the same everywhere. */
int char_width(uint32_t c);

/* Display width of UTF-8 text in cells: each code point's char_width. */
int text_width(const char *utf8);

/* A view of the rectangle r of g, clipped to the grid. */
struct view view_make(struct grid *g, struct rect r);

/* A sub-view of v at (x, y) relative to v, w x h, clipped to v. */
struct view view_sub(struct view v, int x, int y, int w, int h);

/* Sets the cell at (x, y) of v to ch in role; clipped. A wide character
 * takes (x, y) and the cell to its right; at the view's right edge, where
 * half of it would be cut, a blank is drawn instead. A control, combining
 * or formatting character is drawn as '?'. Overwriting half of a wide
 * character blanks its other half. */
void view_put(struct view v, int x, int y, uint32_t ch, enum role role);

/* Writes UTF-8 text at (x, y) of v in role, at most maxw columns (maxw < 0:
 * up to v's right edge), wide characters at their width and cut at a cell
 * boundary (one that would not fit whole ends the text). Returns the
 * columns written. */
int view_text(struct view v, int x, int y, int maxw, const char *utf8, enum role role);

/* Like view_text with printf formatting. */
int view_printf(struct view v, int x, int y, int maxw, enum role role, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Writes text right-aligned so that its last column is v's column x_end - 1.
 * Returns the column where it starts. */
int view_text_right(struct view v, int x_end, int y, const char *utf8, enum role role);

/* True when v's grid conceals a figure that text tagged with tags would
 * give away. tags is a space-separated list of --report=json key prefixes
 * ("latency.total_s latency.napkin serving."): it matches when one of the
 * grid's conceal keys starts with one of them. False when nothing is
 * concealed or tags is NULL or empty. */
bool view_conceals(struct view v, const char *tags);

/* Like view_conceals for the question waiting alone (conceal), not the
 * coming steps' keys: for a whole panel hidden while a question waits. */
bool view_asks(struct view v, const char *tags);

/* Like view_conceals for the coming steps' keys alone (conceal_later),
 * unless the first of tags (the figure's own key; the rest are what it
 * gives away) matches the revealed key (reveal). */
bool view_conceals_later(struct view v, const char *tags);

/* True when v's grid reveals (a tour step's own key, its guess in) a figure
 * one of tags names. */
bool view_reveals(struct view v, const char *tags);

/* The tags (view_conceals) of a phase's placement, its row and its point
 * on the plot, into out: "placement[PHASE]", with decode's intensity for
 * decode and prefill's placement for training (a training step's forward
 * is a prefill of the same tokens: its row and point tell prefill's).
 * Returns out. */
char *phase_tags(const char *phase, char *out, size_t size);

/* text, or "?" when view_conceals(v, tags): a figure written in a line. */
const char *view_figure(struct view v, const char *tags, const char *text);

/* Fills the rectangle (x, y, w, h) of v with ch in role. */
void view_fill(struct view v, int x, int y, int w, int h, uint32_t ch, enum role role);

/* Changes the role of the cells of (x, y, w, h) of v, keeping their characters. */
void view_recolor(struct view v, int x, int y, int w, int h, enum role role);

#endif
