/* diff.c — two scenarios compared key by key (diff.h). */
#include "diff.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenariofile.h"
#include "strbuf.h"
#include "units.h"

static cJSON *copy_or_null(const cJSON *v)
{
    return v ? cJSON_Duplicate(v, true) : cJSON_CreateNull();
}

/* Appends one {key, a, b, change, relative} entry to list (a or b NULL:
 * that side lacks the key). Returns false when memory runs out. */
static bool add_entry(cJSON *list, const char *key, const cJSON *a, const cJSON *b)
{
    cJSON *e = cJSON_CreateObject();
    if (!e)
        return false;
    cJSON_AddItemToArray(list, e);
    cJSON_AddStringToObject(e, "key", key);
    cJSON_AddItemToObject(e, "a", copy_or_null(a));
    cJSON_AddItemToObject(e, "b", copy_or_null(b));
    if (!a || !b)
        cJSON_AddStringToObject(e, "absent", a ? "b" : "a");
    if (a && b && cJSON_IsNumber(a) && cJSON_IsNumber(b)) {
        double change = b->valuedouble - a->valuedouble;
        cJSON_AddNumberToObject(e, "change", change);
        if (a->valuedouble != 0.0 && isfinite(change))
            cJSON_AddNumberToObject(e, "relative", change / fabs(a->valuedouble));
        else
            cJSON_AddNullToObject(e, "relative");
    } else {
        cJSON_AddNullToObject(e, "change");
        cJSON_AddNullToObject(e, "relative");
    }
    return cJSON_GetObjectItemCaseSensitive(e, "relative") != NULL;
}

/* The name an array element goes by: its "name", as "phase:name" when it
 * has a "phase" too (placements), written to buf; false when it has none. */
static bool element_name(const cJSON *e, char *buf, size_t size)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *phase = cJSON_GetObjectItemCaseSensitive(e, "phase");
    if (!cJSON_IsString(name))
        return false;
    int n = cJSON_IsString(phase) ? snprintf(buf, size, "%s:%s", phase->valuestring, name->valuestring)
                                  : snprintf(buf, size, "%s", name->valuestring);
    return n >= 0 && (size_t)n < size;
}

/* True when every element of arr is an object with a name no other element
 * has: such arrays are matched by name, so one row added does not shift
 * every later row. */
static bool named_elements(const cJSON *arr)
{
    char x[256], y[256];
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next) {
        if (!element_name(e, x, sizeof x))
            return false;
        for (const cJSON *f = e->next; f; f = f->next)
            if (element_name(f, y, sizeof y) && strcmp(x, y) == 0)
                return false;
    }
    return true;
}

/* True when every element of arr is a string (notes): compared as a set. */
static bool string_elements(const cJSON *arr)
{
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next)
        if (!cJSON_IsString(e))
            return false;
    return true;
}

static const cJSON *named_element(const cJSON *arr, const char *name)
{
    char buf[256];
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next)
        if (element_name(e, buf, sizeof buf) && strcmp(buf, name) == 0)
            return e;
    return NULL;
}

static bool has_string(const cJSON *arr, const char *text)
{
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next)
        if (strcmp(e->valuestring, text) == 0)
            return true;
    return false;
}

static bool walk(cJSON *list, const char *key, const cJSON *a, const cJSON *b);

/* The child key of prefix: "prefix.name", "prefix[3]" or "prefix[name]". */
static bool child_key(char *out, size_t size, const char *prefix, const char *name, long index, bool array)
{
    int n = !array ? snprintf(out, size, "%s%s%s", prefix, prefix[0] ? "." : "", name)
            : name ? snprintf(out, size, "%s[%s]", prefix, name)
                   : snprintf(out, size, "%s[%ld]", prefix, index);
    return n >= 0 && (size_t)n < size; /* a key this deep never comes from rooftop's own trees */
}

/* Objects: a's keys in a's order, then the keys only b has. */
static bool walk_objects(cJSON *list, const char *prefix, const cJSON *a, const cJSON *b)
{
    char key[512];
    for (const cJSON *c = a->child; c; c = c->next)
        if (!child_key(key, sizeof key, prefix, c->string ? c->string : "", 0, false) ||
            !walk(list, key, c, cJSON_GetObjectItemCaseSensitive(b, c->string)))
            return false;
    for (const cJSON *d = b->child; d; d = d->next)
        if (!cJSON_GetObjectItemCaseSensitive(a, d->string) &&
            (!child_key(key, sizeof key, prefix, d->string ? d->string : "", 0, false) || !walk(list, key, NULL, d)))
            return false;
    return true;
}

/* Arrays: named rows by name, strings as a set ("notes[]": a line only one
 * side has), anything else by index. */
static bool walk_arrays(cJSON *list, const char *prefix, const cJSON *a, const cJSON *b)
{
    char key[512], name[256];
    if (string_elements(a) && string_elements(b)) {
        if (!child_key(key, sizeof key, prefix, "", 0, true))
            return false;
        for (const cJSON *e = a->child; e; e = e->next)
            if (!has_string(b, e->valuestring) && !add_entry(list, key, e, NULL))
                return false;
        for (const cJSON *e = b->child; e; e = e->next)
            if (!has_string(a, e->valuestring) && !add_entry(list, key, NULL, e))
                return false;
        return true;
    }
    if (named_elements(a) && named_elements(b)) {
        for (const cJSON *e = a->child; e; e = e->next) {
            element_name(e, name, sizeof name);
            if (!child_key(key, sizeof key, prefix, name, 0, true) || !walk(list, key, e, named_element(b, name)))
                return false;
        }
        for (const cJSON *e = b->child; e; e = e->next) {
            element_name(e, name, sizeof name);
            if (!named_element(a, name) &&
                (!child_key(key, sizeof key, prefix, name, 0, true) || !walk(list, key, NULL, e)))
                return false;
        }
        return true;
    }
    long i = 0;
    const cJSON *e = a->child, *f = b->child;
    for (; e || f; i++, e = e ? e->next : NULL, f = f ? f->next : NULL)
        if (!child_key(key, sizeof key, prefix, NULL, i, true) || !walk(list, key, e, f))
            return false;
    return true;
}

/* Compares a and b (either NULL: absent on that side) under key: the leaves
 * that differ become entries. A container against a missing side gives its
 * leaves, each absent on that side; a container against a value (an object
 * against null) gives one entry with both whole. */
static bool walk(cJSON *list, const char *key, const cJSON *a, const cJSON *b)
{
    static const cJSON no_object = {.type = cJSON_Object}, no_array = {.type = cJSON_Array};
    bool a_box = a && (cJSON_IsObject(a) || cJSON_IsArray(a));
    bool b_box = b && (cJSON_IsObject(b) || cJSON_IsArray(b));
    if (a && b && cJSON_Compare(a, b, true))
        return true;
    if (a_box && b_box && cJSON_IsObject(a) == cJSON_IsObject(b))
        return cJSON_IsObject(a) ? walk_objects(list, key, a, b) : walk_arrays(list, key, a, b);
    if (a_box && !b && a->child)
        return cJSON_IsObject(a) ? walk_objects(list, key, a, &no_object) : walk_arrays(list, key, a, &no_array);
    if (b_box && !a && b->child)
        return cJSON_IsObject(b) ? walk_objects(list, key, &no_object, b) : walk_arrays(list, key, &no_array, b);
    return add_entry(list, key, a, b);
}

cJSON *diff_trees(const cJSON *a, const cJSON *b)
{
    cJSON *list = cJSON_CreateArray();
    if (!list)
        return NULL;
    static const cJSON empty = {.type = cJSON_Object};
    a = cJSON_IsObject(a) ? a : &empty;
    b = cJSON_IsObject(b) ? b : &empty;
    if (!walk_objects(list, "", a, b)) {
        cJSON_Delete(list);
        return NULL;
    }
    return list;
}

/* The scenario's inputs as a tree, without "version". */
static cJSON *inputs_tree(const struct scenario *s)
{
    char *text = scenario_to_json(s);
    if (!text)
        return NULL;
    cJSON *t = cJSON_Parse(text);
    cJSON_free(text);
    if (t) {
        cJSON_DeleteItemFromObjectCaseSensitive(t, "version");
        /* tp is not stored (chips / (pp x ep)) but is an input all the same: a change of layout moves it, and
           "pp 1 -> 2" alone would hide that tp went from 8 to 4 */
        cJSON_AddNumberToObject(t, "tp", (double)scenario_tp(s));
    }
    return t;
}

/* The report's figures as a tree, without "version" and the "workload" echo. */
static cJSON *figures_tree(const struct scenario *s, const struct analysis *a)
{
    cJSON *t = report_json_tree(s, a);
    if (t) {
        cJSON_DeleteItemFromObjectCaseSensitive(t, "version");
        cJSON_DeleteItemFromObjectCaseSensitive(t, "workload");
    }
    return t;
}

/* A number in the unit its key names ("140 GB", "5.822 s"); signed when
 * sign is set ("+1.11 GB"); plain 6 significant digits otherwise. */
static void number_text(struct strbuf *sb, const char *key, double v, bool sign)
{
    char buf[48];
    const char *sym = sign ? (v < 0.0 ? "-" : "+") : (v < 0.0 ? "-" : "");
    double m = fabs(v);
    enum rt_key_unit u = key_unit(key);
    static const char *const si[] = {[RT_KEY_BYTES] = "B", [RT_KEY_BYTES_PER_S] = "B/s", [RT_KEY_FLOPS] = "FLOP",
                                     [RT_KEY_FLOPS_PER_S] = "FLOP/s", [RT_KEY_FRACTION] = NULL};
    if (u == RT_KEY_SECONDS && m < 0.05e-9) /* a rounding's "-0.0 ns" is nothing */
        sb_puts(sb, "0 s");
    else if (u == RT_KEY_SECONDS) /* as the report from a second up ("26.244 s"), four figures below it
                                     on both sides: no "508.2 us -> 1.0 ms" */
        sb_printf(sb, "%s%s", sym, m >= 1.0 ? format_seconds(buf, sizeof buf, m) : format_seconds_4sig(buf, sizeof buf, m));
    else if (u == RT_KEY_PARAMS)
        sb_printf(sb, "%s%s", sym, format_count(buf, sizeof buf, m));
    else if (u == RT_KEY_FRACTION && sign && m * 100.0 < 0.05) /* a real change under a tenth: its digits */
        sb_printf(sb, "%s%.1g pts", sym, m * 100.0);
    else if (u == RT_KEY_FRACTION) /* a share in percent; its change in points ("+8.4 pts") */
        sb_printf(sb, sign ? "%s%.1f pts" : "%s%.1f%%", sym, m * 100.0);
    else if (si[u])
        sb_printf(sb, "%s%s", sym, format_si(buf, sizeof buf, m, si[u]));
    else if (m >= 1e5) /* the screen's number style: "227k", never an exponent (JSON is exact) */
        sb_printf(sb, "%s%s", sym, format_number(buf, sizeof buf, m, 0));
    else if (m == floor(m))
        sb_printf(sb, "%s%.0f", sym, m);
    else if (m >= 1000.0)
        sb_printf(sb, "%s%.0f", sym, m);
    else /* four significant figures: "12.93", "0.02991", "77.39" (an exponent only under 0.0001) */
        sb_printf(sb, "%s%.4g", sym, m);
}

/* number_text's signed form into buf (size bytes). */
static void number_text_into(char *buf, size_t size, const char *key, double v)
{
    struct strbuf t = {0};
    number_text(&t, key, v, true);
    snprintf(buf, size, "%s", t.data ? t.data : "");
    free(t.data);
}

/* Writes side ("a" or "b") of entry e for text or markdown: numbers in the
 * unit their key names, else 6 significant digits; "(absent)" when that
 * side lacks the key; an object or array by its size ("{9 keys}"; JSON
 * carries it whole). */
static void value_text(struct strbuf *sb, const cJSON *e, const char *side, bool markdown)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, side);
    const cJSON *absent = cJSON_GetObjectItemCaseSensitive(e, "absent");
    if (cJSON_IsString(absent) && strcmp(absent->valuestring, side) == 0)
        sb_puts(sb, "(absent)");
    else if (!v || cJSON_IsNull(v))
        sb_puts(sb, "null");
    else if (cJSON_IsNumber(v))
        number_text(sb, cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring, v->valuedouble, false);
    else if (cJSON_IsBool(v))
        sb_puts(sb, cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsString(v) && !markdown)
        sb_printf(sb, "%s", v->valuestring);
    else if (cJSON_IsString(v)) {
        for (const char *p = v->valuestring; *p; p++) /* a '|' would end the cell */
            sb_puts(sb, *p == '|' ? "\\|" : (char[2]){*p, 0});
    } else {
        int n = cJSON_GetArraySize(v);
        if (cJSON_IsArray(v))
            sb_printf(sb, "[%d item%s]", n, n == 1 ? "" : "s");
        else
            sb_printf(sb, "{%d key%s}", n, n == 1 ? "" : "s");
    }
}

/* Writes the change of entry e: "+7 (+700.0%)" (markdown) or "+7, +700.0%"
 * (text), "+7" when a is 0, or nothing for non-numbers. */
static void change_text(struct strbuf *sb, const cJSON *e, bool markdown)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "change");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "relative");
    if (!cJSON_IsNumber(c))
        return;
    number_text(sb, cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring, c->valuedouble, true);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "a"), *b = cJSON_GetObjectItemCaseSensitive(e, "b");
    /* a percentage of a figure that changes sign, or of a negative one, reads backwards: none */
    bool crosses = cJSON_IsNumber(a) && cJSON_IsNumber(b) && (a->valuedouble * b->valuedouble < 0.0 || a->valuedouble < 0.0);
    if (cJSON_IsNumber(r) && !crosses && fabs(r->valuedouble) < 0.0005) /* "-0.0%" reads as a change */
        sb_puts(sb, markdown ? " (0.0%)" : ", 0.0%");
    else if (cJSON_IsNumber(r) && !crosses)
        sb_printf(sb, markdown ? " (%+.1f%%)" : ", %+.1f%%", r->valuedouble * 100.0);
}

/* One section ("Inputs", "Figures") of a text or markdown diff. */
/* True when entry e's change prints as zero in its unit ("+0.0 us"): a
 * difference in floating-point residue, not one a reader can see. */
static bool change_is_zero(const cJSON *e)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "change");
    if (!cJSON_IsNumber(c))
        return false;
    char buf[64];
    number_text_into(buf, sizeof buf, cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring, c->valuedouble);
    for (const char *p = buf; *p; p++)
        if (*p >= '1' && *p <= '9')
            return false;
    return true;
}

static void section(struct strbuf *sb, const char *title, const cJSON *list, bool markdown)
{
    if (markdown)
        sb_printf(sb, "\n## %s that differ\n\n", title);
    else
        sb_printf(sb, "\n%s that differ\n", title);
    if (cJSON_GetArraySize(list) == 0) {
        sb_puts(sb, markdown ? "None.\n" : "  none\n");
        return;
    }
    if (markdown)
        sb_printf(sb, "| %s | A | B | change |\n| --- | ---: | ---: | ---: |\n", title[0] == 'I' ? "input" : "figure");
    const cJSON *e;
    int unseen = 0; /* numbers apart only below the printed digits */
    cJSON_ArrayForEach(e, list)
    {
        struct strbuf av = {0}, bv = {0};
        value_text(&av, e, "a", markdown);
        value_text(&bv, e, "b", markdown);
        /* equal as shown ("1.667 -> 1.667"): it differs below the digits shown, whatever digits its
         * change would print, and is counted among those, not listed */
        const cJSON *an = cJSON_GetObjectItemCaseSensitive(e, "a");
        bool same = av.data && bv.data && strcmp(av.data, bv.data) == 0 && (cJSON_IsNumber(an) || change_is_zero(e));
        const cJSON *key = cJSON_GetObjectItemCaseSensitive(e, "key");
        if (!same) {
            /* the turn's latency.*.ttft_s is its prefill, every prompt at once (kept in the JSON for the
             * measured-case files): said so, not read as a served request's TTFT (serving.ttft_s) */
            const char *k = key->valuestring;
            size_t kn = strlen(k);
            bool turn_ttft = strncmp(k, "latency.", 8) == 0 && kn > 7 && strcmp(k + kn - 7, ".ttft_s") == 0;
            sb_printf(sb, markdown ? "| %s%s | " : "  %s%s: ", k, turn_ttft ? " (the turn's prefill)" : "");
            sb_puts(sb, av.data ? av.data : "");
            sb_puts(sb, markdown ? " | " : " -> ");
            sb_puts(sb, bv.data ? bv.data : "");
        }
        free(av.data);
        free(bv.data);
        if (same) {
            unseen++;
            continue;
        }
        if (markdown) {
            sb_puts(sb, " | ");
            change_text(sb, e, true);
            sb_puts(sb, " |\n");
        } else {
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "change");
            if (cJSON_IsNumber(c)) {
                sb_puts(sb, "  (");
                change_text(sb, e, false);
                sb_puts(sb, ")");
            }
            sb_puts(sb, "\n");
        }
    }
    if (unseen > 0)
        sb_printf(sb, markdown ? "\n%d more differ only below the digits shown (--format=json lists them).\n"
                               : "  (%d more differ only below the digits shown; --format=json lists them)\n",
                  unseen);
}

char *diff_render(enum rt_format f, const char *label_a, const struct scenario *sa, const struct analysis *aa,
                  const char *label_b, const struct scenario *sb_, const struct analysis *ab)
{
    if (f == RT_FORMAT_CSV)
        return NULL;
    label_a = label_a ? label_a : "A";
    label_b = label_b ? label_b : "B";
    cJSON *ia = inputs_tree(sa), *ib = inputs_tree(sb_);
    cJSON *fa = figures_tree(sa, aa), *fb = figures_tree(sb_, ab);
    cJSON *inputs = ia && ib ? diff_trees(ia, ib) : NULL;
    cJSON *figures = fa && fb ? diff_trees(fa, fb) : NULL;
    cJSON_Delete(ia);
    cJSON_Delete(ib);
    cJSON_Delete(fa);
    cJSON_Delete(fb);
    struct strbuf sb = {0};
    if (!inputs || !figures) {
        cJSON_Delete(inputs);
        cJSON_Delete(figures);
        return NULL;
    }
    if (f == RT_FORMAT_JSON) {
        cJSON *root = cJSON_CreateObject();
        if (root) {
            cJSON_AddStringToObject(root, "a", label_a);
            cJSON_AddStringToObject(root, "b", label_b);
            cJSON_AddItemToObject(root, "inputs", inputs);
            cJSON_AddItemToObject(root, "figures", figures);
        } else {
            cJSON_Delete(inputs);
            cJSON_Delete(figures);
        }
        json_finish(&sb, root);
        return report_take(&sb, f);
    }
    bool md = f == RT_FORMAT_MARKDOWN;
    int ni = cJSON_GetArraySize(inputs), nf = cJSON_GetArraySize(figures);
    if (md)
        sb_printf(&sb, "# rooftop diff\n\nA: `%s`, B: `%s`; %d input%s and %d figure%s differ.\n", label_a, label_b,
                  ni, ni == 1 ? "" : "s", nf, nf == 1 ? "" : "s");
    else
        sb_printf(&sb, "rooftop diff: A %s, B %s; %d input%s and %d figure%s differ\n", label_a, label_b, ni,
                  ni == 1 ? "" : "s", nf, nf == 1 ? "" : "s");
    section(&sb, "Inputs", inputs, md);
    section(&sb, "Figures", figures, md);
    cJSON_Delete(inputs);
    cJSON_Delete(figures);
    return report_take(&sb, f);
}
