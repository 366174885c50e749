/* themefile.h — colour themes from JSON files, and the set a run knows.
 *
 * A theme file maps role names (see role_name()) to styles:
 *   {"name": "light", "description": "...", "background": "light",
 *    "roles": {"roof": {"fg": "#d75f00", "bg": "default", "fg8": "yellow",
 *                       "attr": ["bold"], "mono": ["bold"]}, ...}}
 * A colour is "#rrggbb" (the nearest of the terminal's 256 standard colours:
 * the palette is never changed), an index 0-255, a name (black red green
 * yellow blue magenta cyan white, "bright-" + one of those), or "default".
 * fg8/bg8 are the 8-colour fallbacks; when missing they are derived from
 * fg/bg. Roles a file leaves out keep the built-in default theme's style.
 * "background" ("dark" or "light", dark when absent) names the terminal
 * background the theme is drawn for: rooftop picks a theme for the
 * background it detects, and tests measure contrast against it.
 */
#ifndef ROOFTOP_THEMEFILE_H
#define ROOFTOP_THEMEFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "jsonio.h"
#include "theme.h"

#define RT_MAX_THEMES 32
#define RT_THEME_NAME_MAX 48

/* Parses a colour given as text (see above) into a palette index, -1 for
 * "default". Returns 0, or -1 for anything else. */
int theme_color_parse(const char *text, short *out);

/* The nearest of the 8 basic colours (0-7) to palette index idx (0-255);
 * -1 stays -1. Uses the xterm 256-colour palette's RGB values. */
short theme_color_to_8(short idx);

/* RGB (0-255 each) of palette index idx as xterm draws it by default: the
 * 16 system colours at xterm's default resources (e.g. 1 = #cd0000, 4 =
 * #0000ee, 7 = #e5e5e5, 15 = #ffffff), the 6x6x6 cube (steps 0, 95, 135,
 * 175, 215, 255) and the 24 greys (8 + 10k). An index outside 0-255 counts
 * as 0 (black). */
void theme_color_rgb(short idx, int rgb[3]);

/* WCAG 2 relative luminance of an sRGB colour (components 0-255): 0 for
 * black, 1 for white; components outside 0-255 are clamped. Formula: WCAG
 * 2.1, "relative luminance" (sRGB linearised with the 0.04045 threshold,
 * weights 0.2126, 0.7152, 0.0722). */
double wcag_luminance(const int rgb[3]);

/* WCAG 2 contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) with L1
 * the lighter: from 1 (same) to 21 (black on white). WCAG 2.1 asks 3:1 for
 * graphics (1.4.11) and large text, 4.5:1 for text (1.4.3). */
double wcag_contrast(const int a[3], const int b[3]);

/* The lowest contrast, against the background t was drawn for (#000000 for
 * dark, #ffffff for light), of the colours the roofline plot draws: axes,
 * roofs, ridge, the phase points and their labels, measured kernels'
 * labels and the heading's units (roles axis, roof, roof2, ridge, prefill,
 * decode, train, accent, miss, dim, header). eight selects the 8-colour
 * column (fg8) instead of the 256-colour one. A role's "default" colour is
 * the terminal's own foreground, assumed readable on its background: white
 * on dark, black on light. A role with its own background is measured
 * against that. *worst, when not NULL, gets the role that scored lowest. */
double theme_plot_contrast(const struct theme *t, bool eight, enum role *worst);

/* The themes a run knows: the built-in default first, then files. */
struct theme_set {
    size_t count;
    struct theme items[RT_MAX_THEMES];
    char names[RT_MAX_THEMES][RT_THEME_NAME_MAX];
    char origins[RT_MAX_THEMES][256]; /* "built-in" or the file */
};

/* Starts a set holding only the built-in default theme, named "dark". */
void theme_set_init(struct theme_set *set);

/* Parses a theme file's text and adds it to set (replacing a theme of the
 * same name). Returns the theme's index, or -1 with "PATH..." in err: a
 * syntax error with line and column, a bad colour or attribute by role and
 * key, a set that is full. Unknown roles and keys are warnings in w. */
int theme_set_add_text(struct theme_set *set, const char *text, size_t len, const char *path,
                       struct load_warnings *w, char *err, size_t errsize);

/* Adds every *.json file of dir (name order); a file that fails is skipped
 * with a warning. A missing folder adds nothing. */
void theme_set_add_dir(struct theme_set *set, const char *dir, struct load_warnings *w);

/* Index of the theme named name (case-insensitive), or -1. */
int theme_set_find(const struct theme_set *set, const char *name);

#endif
