/* theme.c — the built-in default theme and role names. */
#include "theme.h"

#include <string.h>

#include <stddef.h>

static const char *const role_names[ROLE_COUNT] = {
    [ROLE_TEXT] = "text",       [ROLE_DIM] = "dim",           [ROLE_ACCENT] = "accent",
    [ROLE_TITLE] = "title",     [ROLE_HEADER] = "header",     [ROLE_AXIS] = "axis",
    [ROLE_ROOF] = "roof",       [ROLE_ROOF2] = "roof2",       [ROLE_RIDGE] = "ridge",
    [ROLE_PREFILL] = "prefill", [ROLE_DECODE] = "decode",     [ROLE_TRAIN] = "train",
    [ROLE_MEMORY] = "memory",   [ROLE_COMPUTE] = "compute",   [ROLE_OK] = "ok",
    [ROLE_MISS] = "miss",       [ROLE_OK_BIG] = "ok_big",     [ROLE_MISS_BIG] = "miss_big",
    [ROLE_SELECTED] = "selected", [ROLE_KNOB] = "knob",       [ROLE_TRACK] = "track",
    [ROLE_KEY] = "key",         [ROLE_ERROR] = "error",       [ROLE_BAR1] = "bar1",
    [ROLE_BAR2] = "bar2",       [ROLE_BAR3] = "bar3",         [ROLE_BAR4] = "bar4",
    [ROLE_BAR5] = "bar5",
};

/* 8-colour indices, as curses numbers them. */
enum { BLACK = 0, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };

static const struct theme default_theme = {
    "default",
    {
        /*                 fg256 bg256 fg8      bg8    attr                         mono */
        [ROLE_TEXT] = {-1, -1, -1, -1, 0, 0},
        [ROLE_DIM] = {244, -1, -1, -1, 0, THEME_DIM},
        [ROLE_ACCENT] = {-1, -1, -1, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_TITLE] = {255, 24, WHITE, BLUE, THEME_BOLD, THEME_REVERSE},
        [ROLE_HEADER] = {75, -1, CYAN, -1, THEME_BOLD, THEME_BOLD | THEME_UNDERLINE},
        [ROLE_AXIS] = {246, -1, -1, -1, 0, 0},
        [ROLE_ROOF] = {214, -1, YELLOW, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_ROOF2] = {141, -1, MAGENTA, -1, 0, THEME_DIM},
        [ROLE_RIDGE] = {203, -1, RED, -1, THEME_BOLD, THEME_UNDERLINE},
        [ROLE_PREFILL] = {45, -1, CYAN, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_DECODE] = {207, -1, MAGENTA, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_TRAIN] = {120, -1, GREEN, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_MEMORY] = {75, -1, BLUE, -1, 0, 0},
        [ROLE_COMPUTE] = {214, -1, YELLOW, -1, 0, 0},
        [ROLE_OK] = {40, -1, GREEN, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_MISS] = {196, -1, RED, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_OK_BIG] = {16, 40, BLACK, GREEN, THEME_BOLD, THEME_REVERSE | THEME_BOLD},
        [ROLE_MISS_BIG] = {231, 160, WHITE, RED, THEME_BOLD, THEME_REVERSE | THEME_BOLD},
        [ROLE_SELECTED] = {231, 238, BLACK, WHITE, THEME_BOLD, THEME_REVERSE},
        [ROLE_KNOB] = {214, -1, YELLOW, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_TRACK] = {75, -1, CYAN, -1, 0, 0},
        [ROLE_KEY] = {214, -1, YELLOW, -1, THEME_BOLD, THEME_BOLD},
        [ROLE_ERROR] = {231, 160, WHITE, RED, THEME_BOLD, THEME_REVERSE},
        [ROLE_BAR1] = {45, -1, CYAN, -1, 0, 0},
        [ROLE_BAR2] = {207, -1, MAGENTA, -1, 0, 0},
        [ROLE_BAR3] = {244, -1, WHITE, -1, 0, 0},
        [ROLE_BAR4] = {214, -1, YELLOW, -1, 0, 0},
        [ROLE_BAR5] = {120, -1, GREEN, -1, 0, 0},
    },
    THEME_BG_DARK,
};

const struct theme *theme_default(void)
{
    return &default_theme;
}

const char *role_name(enum role r)
{
    if ((int)r < 0 || r >= ROLE_COUNT || role_names[r] == NULL)
        return "?";
    return role_names[r];
}

enum role phase_role(const char *phase)
{
    return strcmp(phase, "prefill") == 0 ? ROLE_PREFILL : strcmp(phase, "decode") == 0 ? ROLE_DECODE : ROLE_TRAIN;
}
