/* canvas.h — a pixel grid drawn as braille (2 x 4 dots per cell) or ASCII.
 *
 * The canvas knows pixels and cells, nothing about axes or labels (those are
 * decorations, see plot.h). In braille mode each cell holds 2 x 4 pixels and
 * is encoded as U+2800 + the dot bits; in ASCII mode each cell is one pixel
 * and shows the ASCII character its last stroke asked for ('/', '-', ':' …).
 * A cell takes the role of the last stroke that set a pixel in it.
 */
#ifndef ROOFTOP_CANVAS_H
#define ROOFTOP_CANVAS_H

#include <stdbool.h>
#include <stdint.h>

#include "grid.h"

#define CANVAS_MAX_CELLS 40000 /* 200 x 200 cells */

struct canvas {
    int cols, rows;    /* size in cells */
    int px_w, px_h;    /* size in pixels: cols x 2, rows x 4 (braille) or cols, rows (ASCII) */
    bool ascii;
    uint8_t dots[CANVAS_MAX_CELLS];  /* braille dot bits per cell (bit layout of U+2800) */
    char glyph[CANVAS_MAX_CELLS];    /* ASCII mode: the character of the cell */
    uint8_t role[CANVAS_MAX_CELLS];  /* enum role per cell */
};

/* Prepares an empty canvas of cols x rows cells. Sizes are clamped to >= 0
 * and so that cols x rows <= CANVAS_MAX_CELLS (rows are dropped first). */
void canvas_init(struct canvas *c, int cols, int rows, bool ascii);

/* The braille dot bit for pixel (dx, dy) inside a cell, dx in [0, 1], dy in
 * [0, 3] (Unicode's braille numbering: dots 1-3 and 7 on the left, 4-6 and 8
 * on the right). Returns 0 outside those ranges. */
uint8_t canvas_braille_bit(int dx, int dy);

/* Sets pixel (px, py) (0,0 top left) in role; ascii is the character the cell
 * shows in ASCII mode. Pixels outside the canvas are ignored. */
void canvas_set(struct canvas *c, int px, int py, enum role role, char ascii);

/* Draws a straight line of pixels from (x0, y0) to (x1, y1), both ends
 * included (Bresenham). Any coordinates are accepted; off-canvas pixels are
 * clipped. Lines longer than 100000 pixels are not drawn. */
void canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, enum role role, char ascii);

/* True when cell (cx, cy) has at least one pixel set. */
bool canvas_cell_used(const struct canvas *c, int cx, int cy);

/* Copies the canvas into v with its top-left cell at (x, y) of v: braille
 * characters (or ASCII glyphs) in each used cell's role; unused cells are
 * left as they are. */
void canvas_blit(const struct canvas *c, struct view v, int x, int y);

#endif
