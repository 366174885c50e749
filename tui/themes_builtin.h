/* themes_builtin.h — the shipped themes (the JSON files in themes/), compiled into the
 * binary so that a copied or installed rooftop lists them all without any
 * file. The build generates their definition from the JSON files with
 * scripts/embed-themes.sh (see the Makefile). */
#ifndef ROOFTOP_THEMES_BUILTIN_H
#define ROOFTOP_THEMES_BUILTIN_H

#include <stddef.h>

/* One shipped theme file: its name ("light.json") and its text. */
struct builtin_theme {
    const char *file;
    const char *text; /* NUL-terminated JSON, len bytes before the NUL */
    size_t len;
};

/* The shipped themes in file-name order, builtin_theme_count of them
 * (the array ends with an all-zero entry). */
extern const struct builtin_theme builtin_themes[];
extern const size_t builtin_theme_count;

#endif
