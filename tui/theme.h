/* theme.h — colour roles and the built-in default theme.
 *
 * Everything the explorer draws names a role (roof, ridge, point, ok, miss …),
 * never a colour. A theme maps each role to a colour for 256-colour and for
 * 8-colour terminals and to plain attributes for monochrome (NO_COLOR, or a
 * terminal without colours). Only this file knows colours; the ncurses layer
 * picks the column that fits the terminal, in one place (see explorer.c).
 *
 * The default theme is compiled in. Loading themes/ *.json is a later issue:
 * a loader fills a struct theme and hands it to the explorer; nothing else
 * changes.
 */
#ifndef ROOFTOP_THEME_H
#define ROOFTOP_THEME_H

#include <stdbool.h>

enum role {
    ROLE_TEXT = 0,   /* ordinary text */
    ROLE_DIM,        /* secondary text, units, empty slider track */
    ROLE_ACCENT,     /* figures worth the eye: the numbers in panels */
    ROLE_TITLE,      /* the title bar */
    ROLE_HEADER,     /* panel headings */
    ROLE_AXIS,       /* plot axes and tick labels */
    ROLE_ROOF,       /* the current chip's roof */
    ROLE_ROOF2,      /* the comparison chip's roof */
    ROLE_RIDGE,      /* the ridge point marker and its label */
    ROLE_PREFILL,    /* prefill point and label */
    ROLE_DECODE,     /* decode point and label */
    ROLE_TRAIN,      /* training-step point and label */
    ROLE_MEMORY,     /* "memory"-bound words */
    ROLE_COMPUTE,    /* "compute"-bound words */
    ROLE_OK,         /* OK verdict text */
    ROLE_MISS,       /* MISS verdict text */
    ROLE_OK_BIG,     /* the large OK banner */
    ROLE_MISS_BIG,   /* the large MISS banner */
    ROLE_SELECTED,   /* the selected slider's row */
    ROLE_KNOB,       /* a slider's knob */
    ROLE_TRACK,      /* the filled part of a slider's track */
    ROLE_KEY,        /* key names in the status line and help */
    ROLE_ERROR,      /* error messages */
    ROLE_BAR1,       /* stacked bars, parts 1-5 (matmul/prefill, vector/decode, */
    ROLE_BAR2,       /*   memory/overhead, comms, optimizer) */
    ROLE_BAR3,
    ROLE_BAR4,
    ROLE_BAR5,
    ROLE_COUNT
};

/* Attribute bits, independent of curses. */
enum {
    THEME_BOLD = 1,
    THEME_REVERSE = 2,
    THEME_UNDERLINE = 4,
    THEME_DIM = 8
};

/* How one role looks. Colours are terminal palette indices (-1 = the
 * terminal's default colour); the palette itself is never changed. */
struct theme_style {
    short fg256, bg256; /* on terminals with >= 256 colours */
    short fg8, bg8;     /* on terminals with 8 or 16 colours (0-7) */
    unsigned attr;      /* THEME_* bits added in colour modes */
    unsigned mono;      /* THEME_* bits when there is no colour at all */
};

/* The terminal background a theme is drawn for (its colours are chosen to
 * stand out against it). */
enum theme_background { THEME_BG_DARK = 0, THEME_BG_LIGHT };

struct theme {
    const char *name;
    struct theme_style style[ROLE_COUNT];
    enum theme_background background; /* "background" in a theme file; dark when absent */
};

/* The built-in default theme: readable on dark and light backgrounds, and
 * in monochrome every role that carries meaning (selection, verdict, roofs,
 * points) stays distinct through bold / reverse / underline. Never NULL. */
const struct theme *theme_default(void);

/* The name of a role ("roof", "ridge" …), the key a theme file will use;
 * "?" outside the enum. */
const char *role_name(enum role r);

/* The role a phase's points, letters and rows are drawn in: "prefill",
 * "decode", anything else (the training step) ROLE_TRAIN. */
enum role phase_role(const char *phase);

#endif
