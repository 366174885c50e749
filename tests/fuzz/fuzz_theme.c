/* fuzz_theme.c — libFuzzer harness: any bytes as a theme file. */
#include <stddef.h>
#include <stdint.h>

#include "themefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct theme_set set;
    struct load_warnings w = {0};
    char err[512];
    theme_set_init(&set);
    int at = theme_set_add_text(&set, (const char *)data, size, "fuzz.json", &w, err, sizeof err);
    if (at >= 0) {
        /* Every style must stay within the palette. */
        for (int r = 0; r < ROLE_COUNT; r++) {
            const struct theme_style *s = &set.items[at].style[r];
            if (s->fg256 < -1 || s->fg256 > 255 || s->fg8 < -1 || s->fg8 > 7 || s->bg8 < -1 || s->bg8 > 7)
                __builtin_trap();
        }
    }
    return 0;
}
