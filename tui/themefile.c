/* themefile.c — theme files: colours by name, hex or index, with fallbacks. */
#include "themefile.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fileio.h"

/* A themes folder being loaded: the set it adds to and where warnings go. */
struct theme_folder {
    struct theme_set *set;
    struct load_warnings *w;
};

static const char *const basic_names[8] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};

/* RGB of xterm's 16 system colours. */
static const unsigned char system_rgb[16][3] = {
    {0, 0, 0},       {205, 0, 0},   {0, 205, 0},   {205, 205, 0},   {0, 0, 238},     {205, 0, 205},
    {0, 205, 205},   {229, 229, 229}, {127, 127, 127}, {255, 0, 0}, {0, 255, 0},     {255, 255, 0},
    {92, 92, 255},   {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
};

/* RGB of palette index idx (0-255) in the xterm 256-colour palette. */
static void palette_rgb(int idx, int rgb[3])
{
    static const int steps[6] = {0, 95, 135, 175, 215, 255};
    if (idx < 16) {
        for (int i = 0; i < 3; i++)
            rgb[i] = system_rgb[idx][i];
    } else if (idx < 232) {
        int c = idx - 16;
        rgb[0] = steps[c / 36];
        rgb[1] = steps[(c / 6) % 6];
        rgb[2] = steps[c % 6];
    } else {
        rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (idx - 232);
    }
}

void theme_color_rgb(short idx, int rgb[3])
{
    palette_rgb(idx >= 0 && idx <= 255 ? idx : 0, rgb);
}

/* One sRGB component (0-255) linearised, as WCAG 2 defines it. */
static double linear(int c)
{
    double v = (c < 0 ? 0 : c > 255 ? 255 : c) / 255.0;
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

double wcag_luminance(const int rgb[3])
{
    return 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2]);
}

double wcag_contrast(const int a[3], const int b[3])
{
    double la = wcag_luminance(a), lb = wcag_luminance(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

double theme_plot_contrast(const struct theme *t, bool eight, enum role *worst)
{
    static const enum role plot_roles[] = {ROLE_AXIS,    ROLE_ROOF,   ROLE_ROOF2,  ROLE_RIDGE,
                                           ROLE_PREFILL, ROLE_DECODE, ROLE_TRAIN,  ROLE_ACCENT,
                                           ROLE_MISS,    ROLE_DIM,    ROLE_HEADER};
    bool light = t->background == THEME_BG_LIGHT;
    const int paper[3] = {light ? 255 : 0, light ? 255 : 0, light ? 255 : 0};
    const int ink[3] = {255 - paper[0], 255 - paper[1], 255 - paper[2]};
    double lowest = HUGE_VAL; /* the first role sets *worst */
    for (size_t i = 0; i < sizeof plot_roles / sizeof plot_roles[0]; i++) {
        const struct theme_style *st = &t->style[plot_roles[i]];
        short fg = eight ? st->fg8 : st->fg256, bg = eight ? st->bg8 : st->bg256;
        int f[3], b[3];
        if (fg < 0)
            memcpy(f, ink, sizeof f);
        else
            theme_color_rgb(fg, f);
        if (bg < 0)
            memcpy(b, paper, sizeof b);
        else
            theme_color_rgb(bg, b);
        double c = wcag_contrast(f, b);
        if (c < lowest) {
            lowest = c;
            if (worst)
                *worst = plot_roles[i];
        }
    }
    return lowest;
}

/* Squared distance between two RGB colours. */
static int distance(const int a[3], const int b[3])
{
    int d = 0;
    for (int i = 0; i < 3; i++)
        d += (a[i] - b[i]) * (a[i] - b[i]);
    return d;
}

/* The palette index in [first, last] nearest to rgb. */
static short nearest(const int rgb[3], int first, int last)
{
    int best = first, best_d = 1 << 30;
    for (int i = first; i <= last; i++) {
        int p[3];
        palette_rgb(i, p);
        int d = distance(rgb, p);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return (short)best;
}

short theme_color_to_8(short idx)
{
    if (idx < 0)
        return -1;
    if (idx < 8)
        return idx;
    if (idx < 16)
        return (short)(idx - 8);
    int rgb[3];
    palette_rgb(idx, rgb);
    /* Nearest of the 8 basic colours, with the bright greys counted as white
     * and black so that a grey does not become an odd hue. */
    return nearest(rgb, 0, 7);
}

int theme_color_parse(const char *text, short *out)
{
    if (!text)
        return -1;
    if (strcasecmp(text, "default") == 0) {
        *out = -1;
        return 0;
    }
    if (text[0] == '#' && strlen(text) == 7) {
        int rgb[3];
        for (int i = 0; i < 3; i++) {
            char hex[3] = {text[1 + 2 * i], text[2 + 2 * i], '\0'};
            if (!isxdigit((unsigned char)hex[0]) || !isxdigit((unsigned char)hex[1]))
                return -1;
            rgb[i] = (int)strtol(hex, NULL, 16);
        }
        *out = nearest(rgb, 16, 255); /* the stable cube and greys, not the themable 0-15 */
        return 0;
    }
    bool bright = strncasecmp(text, "bright-", 7) == 0;
    for (int i = 0; i < 8; i++) {
        if (strcasecmp(bright ? text + 7 : text, basic_names[i]) == 0) {
            *out = (short)(i + (bright ? 8 : 0));
            return 0;
        }
    }
    return -1;
}

/* Reads a colour value (string or 0-255 number) of key in obj. Returns
 * JSON_ABSENT, JSON_FOUND or JSON_BAD (err set). */
static enum json_found read_color(const cJSON *obj, const char *key, const char *path, const char *role, short *out,
                                  char *err, size_t errsize)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return JSON_ABSENT;
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 255 && v->valuedouble == (int)v->valuedouble) {
        *out = (short)v->valuedouble;
        return JSON_FOUND;
    }
    if (cJSON_IsString(v) && theme_color_parse(v->valuestring, out) == 0)
        return JSON_FOUND;
    snprintf(err, errsize,
             "%s: 'roles.%s.%s' must be \"#rrggbb\", 0-255, a colour name (red, bright-blue ...) or \"default\"",
             path, role, key);
    return JSON_BAD;
}

/* Reads an attribute list (["bold", "reverse", ...]) of key. */
static enum json_found read_attrs(const cJSON *obj, const char *key, const char *path, const char *role,
                                  unsigned *out, char *err, size_t errsize)
{
    static const struct { const char *name; unsigned bit; } attrs[] = {
        {"bold", THEME_BOLD}, {"reverse", THEME_REVERSE}, {"underline", THEME_UNDERLINE}, {"dim", THEME_DIM}};
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return JSON_ABSENT;
    if (!cJSON_IsArray(v)) {
        snprintf(err, errsize, "%s: 'roles.%s.%s' must be a list such as [\"bold\", \"underline\"]", path, role, key);
        return JSON_BAD;
    }
    unsigned bits = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, v)
    {
        bool known = false;
        for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
            if (cJSON_IsString(a) && strcmp(a->valuestring, attrs[i].name) == 0) {
                bits |= attrs[i].bit;
                known = true;
            }
        }
        if (!known) {
            snprintf(err, errsize, "%s: 'roles.%s.%s' takes bold, reverse, underline or dim", path, role, key);
            return JSON_BAD;
        }
    }
    *out = bits;
    return JSON_FOUND;
}

/* Reads one role's style over *st (which holds the default's). */
static int read_role(const cJSON *obj, const char *path, const char *role, struct theme_style *st,
                     struct load_warnings *w, char *err, size_t errsize)
{
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errsize, "%s: 'roles.%s' must be an object like {\"fg\": \"#ffaf00\"}", path, role);
        return -1;
    }
    enum json_found f;
    short fg = st->fg256, bg = st->bg256;
    bool fg_given = false, bg_given = false;
    if ((f = read_color(obj, "fg", path, role, &fg, err, errsize)) == JSON_BAD)
        return -1;
    fg_given = f == JSON_FOUND;
    if ((f = read_color(obj, "bg", path, role, &bg, err, errsize)) == JSON_BAD)
        return -1;
    bg_given = f == JSON_FOUND;
    st->fg256 = fg;
    st->bg256 = bg;
    if (fg_given)
        st->fg8 = theme_color_to_8(fg);
    if (bg_given)
        st->bg8 = theme_color_to_8(bg);
    short c8;
    if ((f = read_color(obj, "fg8", path, role, &c8, err, errsize)) == JSON_BAD)
        return -1;
    if (f == JSON_FOUND)
        st->fg8 = theme_color_to_8(c8);
    if ((f = read_color(obj, "bg8", path, role, &c8, err, errsize)) == JSON_BAD)
        return -1;
    if (f == JSON_FOUND)
        st->bg8 = theme_color_to_8(c8);
    if (read_attrs(obj, "attr", path, role, &st->attr, err, errsize) == JSON_BAD ||
        read_attrs(obj, "mono", path, role, &st->mono, err, errsize) == JSON_BAD)
        return -1;
    const char *const known[] = {"fg", "bg", "fg8", "bg8", "attr", "mono", NULL};
    char what[64];
    snprintf(what, sizeof what, "roles.%s.", role);
    json_warn_unknown_keys(obj, known, path, what, w);
    return 0;
}

void theme_set_init(struct theme_set *set)
{
    memset(set, 0, sizeof *set);
    set->items[0] = *theme_default();
    snprintf(set->names[0], sizeof set->names[0], "dark");
    snprintf(set->origins[0], sizeof set->origins[0], "built-in");
    set->items[0].name = set->names[0];
    set->count = 1;
}

int theme_set_find(const struct theme_set *set, const char *name)
{
    for (size_t i = 0; i < set->count; i++)
        if (name && strcasecmp(set->names[i], name) == 0)
            return (int)i;
    return -1;
}

int theme_set_add_text(struct theme_set *set, const char *text, size_t len, const char *path,
                       struct load_warnings *w, char *err, size_t errsize)
{
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    int index = -1;
    struct theme t = *theme_default();
    char name[RT_THEME_NAME_MAX];
    const cJSON *roles = cJSON_GetObjectItemCaseSensitive(root, "roles");
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsize, "%s: expected a theme object {\"name\": ..., \"roles\": {...}}", path);
        goto done;
    }
    if (json_string(root, "name", path, true, name, sizeof name, err, errsize) != JSON_FOUND)
        goto done;
    if (!cJSON_IsObject(roles)) {
        snprintf(err, errsize, "%s: 'roles' must be an object mapping role names to styles", path);
        goto done;
    }
    for (const cJSON *r = roles->child; r; r = r->next) {
        int role = -1;
        for (int i = 0; i < ROLE_COUNT; i++)
            if (strcmp(r->string, role_name((enum role)i)) == 0)
                role = i;
        if (role < 0) { /* unknown keys warn, as in every rooftop file */
            warn_add(w, "%s: unknown role 'roles.%s' ignored (known: text, dim, accent, roof, ridge, prefill, "
                        "decode, ok, miss ...; see the README)",
                     path, r->string);
            continue;
        }
        if (read_role(r, path, r->string, &t.style[role], w, err, errsize) != 0)
            goto done;
    }
    const cJSON *bg = cJSON_GetObjectItemCaseSensitive(root, "background");
    if (bg && !cJSON_IsNull(bg)) {
        if (!cJSON_IsString(bg) || (strcmp(bg->valuestring, "dark") != 0 && strcmp(bg->valuestring, "light") != 0)) {
            snprintf(err, errsize, "%s: 'background' must be \"dark\" or \"light\" (the background it is drawn for)",
                     path);
            goto done;
        }
        t.background = strcmp(bg->valuestring, "light") == 0 ? THEME_BG_LIGHT : THEME_BG_DARK;
    }
    const char *const known[] = {"name", "description", "background", "roles", NULL};
    json_warn_unknown_keys(root, known, path, "", w);
    int at = theme_set_find(set, name);
    if (at < 0) {
        if (set->count >= RT_MAX_THEMES) {
            snprintf(err, errsize, "%s: more than %d themes; this one is not loaded", path, RT_MAX_THEMES);
            goto done;
        }
        at = (int)set->count++;
    }
    snprintf(set->names[at], sizeof set->names[at], "%s", name);
    snprintf(set->origins[at], sizeof set->origins[at], "%s", path);
    set->items[at] = t;
    set->items[at].name = set->names[at];
    index = at;
done:
    cJSON_Delete(root);
    return index;
}

/* Adds one file of a themes folder to the set in ctx. */
static int add_theme_file(const char *path, const char *text, size_t len, void *ctx, char *err, size_t errsize)
{
    struct theme_folder *f = ctx;
    return theme_set_add_text(f->set, text, len, path, f->w, err, errsize) < 0 ? -1 : 0;
}

void theme_set_add_dir(struct theme_set *set, const char *dir, struct load_warnings *w)
{
    struct theme_folder f = {set, w};
    load_json_folder(dir, add_theme_file, &f, w);
}
