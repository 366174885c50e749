/* grid.c — the in-memory screen and clipped text drawing. */
#include "grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID_MAX 1000

/* Clamps v into [lo, hi]. */
static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int grid_init(struct grid *g, int cols, int rows)
{
    g->cols = g->rows = 0;
    g->cells = NULL;
    g->conceal = NULL;
    g->conceal_later = NULL;
    g->reveal = NULL;
    g->asking = false;
    return grid_resize(g, cols, rows);
}

int grid_resize(struct grid *g, int cols, int rows)
{
    cols = clampi(cols, 0, GRID_MAX);
    rows = clampi(rows, 0, GRID_MAX);
    size_t n = (size_t)cols * (size_t)rows;
    if (n > (size_t)g->cols * (size_t)g->rows || g->cells == NULL) {
        struct cell *c = malloc(n ? n * sizeof *c : sizeof *c);
        if (!c)
            return -1;
        free(g->cells);
        g->cells = c;
    }
    g->cols = cols;
    g->rows = rows;
    grid_erase(g);
    return 0;
}

void grid_free(struct grid *g)
{
    free(g->cells);
    g->cells = NULL;
    g->cols = g->rows = 0;
}

void grid_erase(struct grid *g)
{
    size_t n = (size_t)g->cols * (size_t)g->rows;
    for (size_t i = 0; i < n; i++) {
        g->cells[i].ch = ' ';
        g->cells[i].role = ROLE_TEXT;
    }
}

struct cell *grid_at(struct grid *g, int x, int y)
{
    if (x < 0 || y < 0 || x >= g->cols || y >= g->rows)
        return NULL;
    return &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
}

const struct cell *grid_cell(const struct grid *g, int x, int y)
{
    if (x < 0 || y < 0 || x >= g->cols || y >= g->rows)
        return NULL;
    return &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
}

int utf8_decode(const char *s, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] == 0) {
        *cp = 0;
        return 0;
    }
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    int len;
    uint32_t c;
    if ((u[0] & 0xE0) == 0xC0) {
        len = 2;
        c = u[0] & 0x1F;
    } else if ((u[0] & 0xF0) == 0xE0) {
        len = 3;
        c = u[0] & 0x0F;
    } else if ((u[0] & 0xF8) == 0xF0) {
        len = 4;
        c = u[0] & 0x07;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        c = (c << 6) | (u[i] & 0x3F);
    }
    static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < min_for_len[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = c;
    return len;
}

int utf8_encode(uint32_t cp, char *out)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* True for code points a terminal does not draw at a width of their own:
 * controls, combining marks, zero-width and bidirectional formatting
 * characters (which reorder what is drawn around them) and variation
 * selectors. They are drawn as '?'. */
static int not_drawable(uint32_t c)
{
    if (c < 0x20 || (c >= 0x7F && c < 0xA0))
        return 1;
    static const uint32_t ranges[][2] = {
        {0x0300, 0x036F}, {0x061C, 0x061C}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x206F}, {0xFE00, 0xFE0F},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (c >= ranges[i][0] && c <= ranges[i][1])
            return 1;
    return 0;
}

int char_width(uint32_t c)
{
    /* East Asian Wide and Fullwidth (UAX #11: Hangul Jamo, CJK radicals to
     * Yi, Hangul syllables, compatibility ideographs, vertical and small
     * forms, fullwidth forms, the supplementary ideographic planes) and the
     * emoji blocks wcwidth counts as two. */
    static const uint32_t wide[][2] = {
        {0x1100, 0x115F}, {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF},  {0x4E00, 0x9FFF},
        {0xA000, 0xA4CF}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE30, 0xFE4F},  {0xFF00, 0xFF60},
        {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD},
    };
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (c >= wide[i][0] && c <= wide[i][1])
            return 2;
    return 1;
}

int text_width(const char *utf8)
{
    int w = 0;
    uint32_t cp;
    int n;
    while ((n = utf8_decode(utf8, &cp)) > 0) {
        utf8 += n;
        w += not_drawable(cp) ? 1 : char_width(cp);
    }
    return w;
}

size_t grid_to_text(const struct grid *g, char *buf, size_t size)
{
    size_t len = 0;
    char enc[4];
    for (int y = 0; y < g->rows; y++) {
        int last = g->cols - 1;
        while (last >= 0 && g->cells[(size_t)y * (size_t)g->cols + (size_t)last].ch == ' ')
            last--;
        for (int x = 0; x <= last + 1; x++) {
            int n;
            if (x == last + 1) {
                enc[0] = '\n';
                n = 1;
            } else {
                uint32_t ch = g->cells[(size_t)y * (size_t)g->cols + (size_t)x].ch;
                n = ch == GRID_WIDE_TAIL ? 0 : utf8_encode(ch, enc); /* a wide character's text covers its tail */
            }
            for (int i = 0; i < n; i++, len++)
                if (len + 1 < size)
                    buf[len] = enc[i];
        }
    }
    if (size > 0)
        buf[len < size ? len : size - 1] = '\0';
    return len;
}

/* Intersection of two rectangles (empty when they do not overlap). */
static struct rect rect_intersect(struct rect a, struct rect b)
{
    int x0 = a.x > b.x ? a.x : b.x, y0 = a.y > b.y ? a.y : b.y;
    long ax1 = (long)a.x + a.w, bx1 = (long)b.x + b.w, ay1 = (long)a.y + a.h, by1 = (long)b.y + b.h;
    long x1 = ax1 < bx1 ? ax1 : bx1, y1 = ay1 < by1 ? ay1 : by1;
    struct rect r = {x0, y0, (int)(x1 > x0 ? x1 - x0 : 0), (int)(y1 > y0 ? y1 - y0 : 0)};
    return r;
}

struct view view_make(struct grid *g, struct rect r)
{
    struct rect all = {0, 0, g->cols, g->rows};
    struct view v = {g, rect_intersect(r, all)};
    return v;
}

struct view view_sub(struct view v, int x, int y, int w, int h)
{
    struct rect r = {v.r.x + x, v.r.y + y, w, h};
    struct view s = {v.g, rect_intersect(r, v.r)};
    return s;
}

/* Sets one cell, first unpairing a wide character it was half of: the
 * other half becomes a blank, so that no half of a glyph stays on screen. */
static void set_cell(struct grid *g, int gx, int gy, uint32_t ch, enum role role)
{
    struct cell *c = grid_at(g, gx, gy);
    if (!c)
        return;
    struct cell *left = grid_at(g, gx - 1, gy), *right = grid_at(g, gx + 1, gy);
    if (c->ch == GRID_WIDE_TAIL && left)
        left->ch = ' ';
    else if (c->ch != GRID_WIDE_TAIL && char_width(c->ch) == 2 && right && right->ch == GRID_WIDE_TAIL)
        right->ch = ' ';
    c->ch = ch;
    c->role = (uint8_t)role;
}

void view_put(struct view v, int x, int y, uint32_t ch, enum role role)
{
    if (x < 0 || y < 0 || x >= v.r.w || y >= v.r.h)
        return;
    if (not_drawable(ch))
        ch = '?';
    int gx = v.r.x + x, gy = v.r.y + y;
    if (char_width(ch) == 2) {
        if (x + 1 >= v.r.w) { /* half a glyph never: a blank at the view's edge */
            set_cell(v.g, gx, gy, ' ', role);
            return;
        }
        set_cell(v.g, gx + 1, gy, ' ', role); /* unpair what the tail's cell held first */
        set_cell(v.g, gx, gy, ch, role);
        struct cell *t = grid_at(v.g, gx + 1, gy);
        if (t)
            t->ch = GRID_WIDE_TAIL;
        return;
    }
    set_cell(v.g, gx, gy, ch, role);
}

int view_text(struct view v, int x, int y, int maxw, const char *utf8, enum role role)
{
    if (!utf8)
        return 0;
    if (maxw < 0 || (long)x + maxw > v.r.w)
        maxw = v.r.w - x;
    int w = 0;
    uint32_t cp;
    int n;
    while (w < maxw && (n = utf8_decode(utf8, &cp)) > 0) {
        int cw = not_drawable(cp) ? 1 : char_width(cp);
        if (w + cw > maxw) /* cut at a cell boundary, never through a wide glyph */
            break;
        utf8 += n;
        view_put(v, x + w, y, cp, role);
        w += cw;
    }
    return w;
}

int view_printf(struct view v, int x, int y, int maxw, enum role role, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return view_text(v, x, y, maxw, buf, role);
}

int view_text_right(struct view v, int x_end, int y, const char *utf8, enum role role)
{
    int x = x_end - text_width(utf8);
    view_text(v, x, y, -1, utf8, role);
    return x;
}

void view_fill(struct view v, int x, int y, int w, int h, uint32_t ch, enum role role)
{
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            view_put(v, x + i, y + j, ch, role);
}

void view_recolor(struct view v, int x, int y, int w, int h, enum role role)
{
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            if (x + i < 0 || y + j < 0 || x + i >= v.r.w || y + j >= v.r.h)
                continue;
            struct cell *c = grid_at(v.g, v.r.x + x + i, v.r.y + y + j);
            if (c)
                c->role = (uint8_t)role;
        }
    }
}

/* True when one of the space-separated keys starts with one of tags. */
static bool keys_match(const char *keys, const char *tags)
{
    if (!keys || !keys[0] || !tags)
        return false;
    for (const char *k = keys; *k;) { /* each key against each tag: a key starting with a tag matches */
        while (*k == ' ')
            k++;
        size_t kn = strcspn(k, " ");
        for (const char *t = tags; *t && kn > 0;) {
            while (*t == ' ')
                t++;
            size_t n = strcspn(t, " ");
            if (n > 0 && n <= kn && strncmp(k, t, n) == 0)
                return true;
            t += n;
        }
        k += kn;
    }
    return false;
}

bool view_conceals_later(struct view v, const char *tags)
{
    if (!v.g || !keys_match(v.g->conceal_later, tags))
        return false;
    /* The first tag is the figure's own key, the rest what it gives away: the revealed figure
     * itself shows, but not a figure that merely tells a coming answer along with it (a total
     * tells the decode time beside the revealed prefill). */
    char own[128];
    size_t n = strcspn(tags, " ");
    snprintf(own, sizeof own, "%.*s", (int)(n < sizeof own ? n : sizeof own - 1), tags);
    return !view_reveals(v, own);
}

bool view_conceals(struct view v, const char *tags)
{
    return v.g && (keys_match(v.g->conceal, tags) || view_conceals_later(v, tags));
}

char *phase_tags(const char *phase, char *out, size_t size)
{
    snprintf(out, size, "placement[%s]%s", phase,
             strcmp(phase, "decode") == 0     ? " decode_batch_intensity"
             : strcmp(phase, "training") == 0 ? " placement[prefill]"
                                              : "");
    return out;
}

bool view_reveals(struct view v, const char *tags)
{
    return v.g && keys_match(v.g->reveal, tags);
}

bool view_asks(struct view v, const char *tags)
{
    return v.g && keys_match(v.g->conceal, tags);
}

const char *view_figure(struct view v, const char *tags, const char *text)
{
    return view_conceals(v, tags) ? "?" : text;
}
