/* test_tui_canvas.c — braille encoding, ASCII cells, clipping, and the grid's
 * UTF-8 text. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "grid.h"

/* One canvas, shared by the tests: it is large. */
static struct canvas canvas;

/* The braille dot numbering of Unicode: dots 1,2,3,7 left, 4,5,6,8 right. */
static void test_braille_bits_follow_unicode(void **state)
{
    (void)state;
    assert_int_equal(canvas_braille_bit(0, 0), 0x01);
    assert_int_equal(canvas_braille_bit(0, 1), 0x02);
    assert_int_equal(canvas_braille_bit(0, 2), 0x04);
    assert_int_equal(canvas_braille_bit(1, 0), 0x08);
    assert_int_equal(canvas_braille_bit(1, 1), 0x10);
    assert_int_equal(canvas_braille_bit(1, 2), 0x20);
    assert_int_equal(canvas_braille_bit(0, 3), 0x40);
    assert_int_equal(canvas_braille_bit(1, 3), 0x80);
    assert_int_equal(canvas_braille_bit(2, 0), 0);
    assert_int_equal(canvas_braille_bit(0, 4), 0);
    assert_int_equal(canvas_braille_bit(-1, 0), 0);
}

/* Renders a canvas into a fresh grid and returns cell (x, y)'s character. */
static uint32_t cell_after_blit(int x, int y)
{
    struct grid g;
    assert_int_equal(grid_init(&g, canvas.cols, canvas.rows), 0);
    struct rect all = {0, 0, g.cols, g.rows};
    canvas_blit(&canvas, view_make(&g, all), 0, 0);
    uint32_t ch = grid_cell(&g, x, y)->ch;
    grid_free(&g);
    return ch;
}

/* Pixels map to dots of the right cell; a full cell is U+28FF. */
static void test_braille_cells(void **state)
{
    (void)state;
    canvas_init(&canvas, 3, 2, false);
    assert_int_equal(canvas.px_w, 6);
    assert_int_equal(canvas.px_h, 8);
    canvas_set(&canvas, 0, 0, ROLE_ROOF, '-');
    assert_int_equal(cell_after_blit(0, 0), 0x2801);
    canvas_set(&canvas, 1, 3, ROLE_ROOF, '-');
    assert_int_equal(cell_after_blit(0, 0), 0x2881);
    for (int y = 4; y < 8; y++)
        for (int x = 4; x < 6; x++)
            canvas_set(&canvas, x, y, ROLE_ROOF, '-');
    assert_int_equal(cell_after_blit(2, 1), 0x28FF);
    assert_int_equal(cell_after_blit(1, 0), ' '); /* untouched cells stay blank */
    assert_true(canvas_cell_used(&canvas, 2, 1));
    assert_false(canvas_cell_used(&canvas, 1, 1));
}

/* Off-canvas pixels and absurd lines are ignored. */
static void test_clipping(void **state)
{
    (void)state;
    canvas_init(&canvas, 2, 2, false);
    canvas_set(&canvas, -1, 0, ROLE_ROOF, '-');
    canvas_set(&canvas, 4, 0, ROLE_ROOF, '-');
    canvas_set(&canvas, 0, 8, ROLE_ROOF, '-');
    canvas_line(&canvas, -2147483647, -5, 2147483647, 5, ROLE_ROOF, '/');
    assert_false(canvas_cell_used(&canvas, 0, 0)); /* nothing so far landed on it */
    canvas_line(&canvas, -10, -20, 10, 20, ROLE_ROOF, '/'); /* y = 2x through the canvas */
    assert_true(canvas_cell_used(&canvas, 0, 0));
    assert_true(canvas_cell_used(&canvas, 1, 1));
    assert_false(canvas_cell_used(&canvas, 0, 1));
    canvas_init(&canvas, -3, 100000, false); /* clamped, not overflowed */
    assert_int_equal(canvas.cols, 0);
    canvas_init(&canvas, 1000, 1000, true);
    assert_true((long)canvas.cols * canvas.rows <= CANVAS_MAX_CELLS);
}

/* ASCII mode: one pixel per cell, showing the stroke's character. */
static void test_ascii_cells(void **state)
{
    (void)state;
    canvas_init(&canvas, 4, 2, true);
    assert_int_equal(canvas.px_w, 4);
    canvas_line(&canvas, 0, 1, 3, 1, ROLE_ROOF, '-');
    canvas_set(&canvas, 2, 0, ROLE_RIDGE, ':');
    assert_int_equal(cell_after_blit(0, 1), '-');
    assert_int_equal(cell_after_blit(3, 1), '-');
    assert_int_equal(cell_after_blit(2, 0), ':');
    assert_int_equal(cell_after_blit(0, 0), ' ');
}

/* UTF-8 round trips, and malformed input never stalls. */
static void test_utf8(void **state)
{
    (void)state;
    char buf[8];
    uint32_t cp;
    const uint32_t samples[] = {'A', 0xB7, 0x2502, 0x28FF, 0x1F600};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        int n = utf8_encode(samples[i], buf);
        buf[n] = '\0';
        assert_int_equal(utf8_decode(buf, &cp), n);
        assert_int_equal(cp, samples[i]);
    }
    assert_int_equal(utf8_decode("\xff", &cp), 1);
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(utf8_decode("\xe2\x94", &cp), 1); /* truncated */
    assert_int_equal(utf8_decode("\xc0\xaf", &cp), 1); /* overlong */
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(utf8_decode("", &cp), 0);
    assert_int_equal(text_width("\xe2\x94\x82x"), 2);
}

/* Text clips to its view; a wide character takes two cells; text is trimmed. */
static void test_grid_text(void **state)
{
    (void)state;
    struct grid g;
    assert_int_equal(grid_init(&g, 10, 3), 0);
    struct rect r = {2, 1, 5, 1};
    struct view v = view_make(&g, r);
    assert_int_equal(view_text(v, 0, 0, -1, "abcdefgh", ROLE_TEXT), 5);
    view_text(v, -2, 0, -1, "XY", ROLE_TEXT); /* entirely left of the view */
    view_text(v, 0, 1, -1, "below", ROLE_TEXT); /* outside the view's one row */
    struct rect top = {0, 0, 10, 1};
    view_text(view_make(&g, top), 0, 0, -1, "\xe4\xb8\xad!", ROLE_TEXT); /* CJK: wide */
    char text[256];
    size_t n = grid_to_text(&g, text, sizeof text);
    assert_string_equal(text, "\xe4\xb8\xad!\n  abcde\n\n"); /* U+4E2D over columns 0 and 1, '!' at 2 */
    assert_int_equal(grid_cell(&g, 1, 0)->ch, GRID_WIDE_TAIL);
    assert_int_equal(grid_cell(&g, 2, 0)->ch, '!');
    assert_int_equal(n, strlen(text));
    char tiny[4];
    assert_true(grid_to_text(&g, tiny, sizeof tiny) >= sizeof tiny); /* reports truncation */
    assert_int_equal(strlen(tiny), 3);
    assert_int_equal(grid_resize(&g, -1, 5000), 0); /* clamped */
    assert_int_equal(g.cols, 0);
    grid_free(&g);
    grid_free(&g); /* twice is safe */
}

/* Issue 21 item 12: CJK text is drawn at its width (UAX #11, as wcwidth),
 * cut at cell boundaries: never half a glyph at a view's edge or under
 * maxw, and a narrow character drawn over either half of a wide one blanks
 * the other half. Controls and combining marks still draw as one '?'. */
static void test_wide_characters(void **state)
{
    (void)state;
    const char *name = "\xe9\x80\x9a\xe4\xb9\x89\xe5\x8d\x83\xe9\x97\xae-7b"; /* 通义千问-7b */
    assert_int_equal(text_width(name), 11);
    assert_int_equal(char_width(0x4E2D), 2);
    assert_int_equal(char_width(0xAC00), 2);     /* Hangul */
    assert_int_equal(char_width(0xFF21), 2);     /* fullwidth A */
    assert_int_equal(char_width(0x1F600), 2);    /* emoji */
    assert_int_equal(char_width('a'), 1);
    assert_int_equal(char_width(0x00E9), 1);     /* e acute */
    struct grid g;
    assert_int_equal(grid_init(&g, 12, 4), 0);
    char text[512];
    /* Whole where it fits; cut before a glyph that would not. */
    assert_int_equal(view_text(view_make(&g, (struct rect){0, 0, 12, 1}), 0, 0, -1, name, ROLE_TEXT), 11);
    assert_int_equal(view_text(view_make(&g, (struct rect){0, 1, 12, 1}), 0, 0, 5, name, ROLE_TEXT), 4);
    assert_int_equal(view_text(view_make(&g, (struct rect){0, 2, 3, 1}), 0, 0, -1, name, ROLE_TEXT), 2);
    /* view_put at the right edge: a blank, not half. */
    view_put(view_make(&g, (struct rect){0, 3, 12, 1}), 11, 0, 0x4E2D, ROLE_TEXT);
    grid_to_text(&g, text, sizeof text);
    assert_string_equal(text, "\xe9\x80\x9a\xe4\xb9\x89\xe5\x8d\x83\xe9\x97\xae-7b\n"
                              "\xe9\x80\x9a\xe4\xb9\x89\n"
                              "\xe9\x80\x9a\n"
                              "\n");
    /* Over the tail: the head goes; over the head: the tail goes. */
    struct view row = view_make(&g, (struct rect){0, 0, 12, 1});
    view_put(row, 1, 0, 'x', ROLE_TEXT);
    view_put(row, 2, 0, 'y', ROLE_TEXT);
    grid_to_text(&g, text, sizeof text);
    assert_int_equal(strncmp(text, " xy \xe5\x8d\x83", 7), 0);
    assert_int_equal(grid_cell(&g, 3, 0)->ch, ' '); /* the tail of the glyph y covered */
    view_put(row, 0, 0, 0x0301, ROLE_TEXT); /* a combining mark alone: '?' */
    assert_int_equal(grid_cell(&g, 0, 0)->ch, '?');
    grid_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_braille_bits_follow_unicode),
        cmocka_unit_test(test_braille_cells),
        cmocka_unit_test(test_clipping),
        cmocka_unit_test(test_ascii_cells),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_grid_text),
        cmocka_unit_test(test_wide_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
