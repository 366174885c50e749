/* canvas.c — pixels to braille or ASCII cells. */
#include "canvas.h"

#include <stdlib.h>
#include <string.h>

void canvas_init(struct canvas *c, int cols, int rows, bool ascii)
{
    if (cols < 0)
        cols = 0;
    if (rows < 0)
        rows = 0;
    if (cols > CANVAS_MAX_CELLS)
        cols = CANVAS_MAX_CELLS;
    if (cols > 0 && (long)cols * rows > CANVAS_MAX_CELLS)
        rows = CANVAS_MAX_CELLS / cols;
    c->cols = cols;
    c->rows = rows;
    c->ascii = ascii;
    c->px_w = ascii ? cols : cols * 2;
    c->px_h = ascii ? rows : rows * 4;
    size_t n = (size_t)cols * (size_t)rows;
    memset(c->dots, 0, n);
    memset(c->glyph, 0, n);
    memset(c->role, 0, n);
}

uint8_t canvas_braille_bit(int dx, int dy)
{
    static const uint8_t bits[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    if (dx < 0 || dx > 1 || dy < 0 || dy > 3)
        return 0;
    return bits[dy][dx];
}

void canvas_set(struct canvas *c, int px, int py, enum role role, char ascii)
{
    if (px < 0 || py < 0 || px >= c->px_w || py >= c->px_h)
        return;
    int cx = c->ascii ? px : px / 2, cy = c->ascii ? py : py / 4;
    size_t i = (size_t)cy * (size_t)c->cols + (size_t)cx;
    if (c->ascii)
        c->dots[i] = 1;
    else
        c->dots[i] |= canvas_braille_bit(px % 2, py % 4);
    c->glyph[i] = ascii;
    c->role[i] = (uint8_t)role;
}

void canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, enum role role, char ascii)
{
    long dx = labs((long)x1 - x0), dy = -labs((long)y1 - y0);
    if (dx > 100000 || -dy > 100000)
        return;
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    long err = dx + dy;
    for (;;) {
        canvas_set(c, x0, y0, role, ascii);
        if (x0 == x1 && y0 == y1)
            break;
        long e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

bool canvas_cell_used(const struct canvas *c, int cx, int cy)
{
    if (cx < 0 || cy < 0 || cx >= c->cols || cy >= c->rows)
        return false;
    return c->dots[(size_t)cy * (size_t)c->cols + (size_t)cx] != 0;
}

void canvas_blit(const struct canvas *c, struct view v, int x, int y)
{
    for (int cy = 0; cy < c->rows; cy++) {
        for (int cx = 0; cx < c->cols; cx++) {
            size_t i = (size_t)cy * (size_t)c->cols + (size_t)cx;
            if (!c->dots[i])
                continue;
            uint32_t ch = c->ascii ? (uint32_t)(unsigned char)(c->glyph[i] ? c->glyph[i] : '*')
                                   : 0x2800u + c->dots[i];
            view_put(v, x + cx, y + cy, ch, (enum role)c->role[i]);
        }
    }
}
