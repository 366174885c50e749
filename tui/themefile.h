/* themefile.h — colour themes from JSON files, and the set a run knows.
 *
 * A theme file maps role names (see role_name()) to styles:
 *   {"name": "light", "description": "...",
 *    "roles": {"roof": {"fg": "#d75f00", "bg": "default", "fg8": "yellow",
 *                       "attr": ["bold"], "mono": ["bold"]}, ...}}
 * A colour is "#rrggbb" (the nearest of the terminal's 256 standard colours:
 * the palette is never changed), an index 0-255, a name (black red green
 * yellow blue magenta cyan white, "bright-" + one of those), or "default".
 * fg8/bg8 are the 8-colour fallbacks; when missing they are derived from
 * fg/bg. Roles a file leaves out keep the built-in default theme's style.
 */
#ifndef ROOFTOP_THEMEFILE_H
#define ROOFTOP_THEMEFILE_H

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
