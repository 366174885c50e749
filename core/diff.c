/* diff.c — two scenarios compared key by key (diff.h). */
#include "diff.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenariofile.h"
#include "strbuf.h"

/* One leaf of a flattened tree: its dotted key and its value (borrowed). */
struct leaf {
    char *key;
    const cJSON *value;
    size_t order; /* position in the walk */
};

struct leaves {
    struct leaf *items;
    size_t n, cap;
    bool failed;
};

static void leaves_free(struct leaves *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].key);
    free(l->items);
}

static void leaves_add(struct leaves *l, const char *key, const cJSON *value)
{
    if (l->failed)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        struct leaf *grown = realloc(l->items, cap * sizeof *grown);
        if (!grown) {
            l->failed = true;
            return;
        }
        l->items = grown, l->cap = cap;
    }
    char *copy = strdup(key);
    if (!copy) {
        l->failed = true;
        return;
    }
    l->items[l->n] = (struct leaf){copy, value, l->n};
    l->n++;
}

/* Walks item under the dotted key prefix (empty at the root). */
static void flatten(struct leaves *l, const char *prefix, const cJSON *item)
{
    bool container = cJSON_IsObject(item) || cJSON_IsArray(item);
    if (!container || !item->child) {
        if (prefix[0])
            leaves_add(l, prefix, item);
        return;
    }
    size_t index = 0;
    for (const cJSON *c = item->child; c && !l->failed; c = c->next, index++) {
        char key[512];
        int n = cJSON_IsArray(item) ? snprintf(key, sizeof key, "%s[%zu]", prefix, index)
                                    : snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "",
                                               c->string ? c->string : "");
        if (n < 0 || (size_t)n >= sizeof key) {
            l->failed = true; /* a key this deep never comes from rooftop's own trees */
            return;
        }
        flatten(l, key, c);
    }
}

static int by_key(const void *x, const void *y)
{
    const struct leaf *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int by_order(const void *x, const void *y)
{
    const struct leaf *a = x, *b = y;
    return (a->order > b->order) - (a->order < b->order);
}

/* The leaf of sorted l with key, or NULL. */
static const struct leaf *find(const struct leaves *l, const char *key)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(l->items[mid].key, key);
        if (c == 0)
            return &l->items[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static cJSON *copy_or_null(const cJSON *v)
{
    return v ? cJSON_Duplicate(v, true) : cJSON_CreateNull();
}

/* Appends one {key, a, b, change, relative} entry to list. */
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

cJSON *diff_trees(const cJSON *a, const cJSON *b)
{
    struct leaves la = {0}, lb = {0};
    if (a)
        flatten(&la, "", a);
    if (b)
        flatten(&lb, "", b);
    cJSON *list = la.failed || lb.failed ? NULL : cJSON_CreateArray();
    if (!list)
        goto done;
    /* b sorted by key to look its leaves up; a walked in its own order. */
    qsort(lb.items, lb.n, sizeof *lb.items, by_key);
    bool ok = true;
    for (size_t i = 0; i < la.n && ok; i++) {
        const struct leaf *other = find(&lb, la.items[i].key);
        const cJSON *bv = other ? other->value : NULL;
        if (!bv || !cJSON_Compare(la.items[i].value, bv, true))
            ok = add_entry(list, la.items[i].key, la.items[i].value, bv);
    }
    /* The keys only b has, in b's order. */
    qsort(la.items, la.n, sizeof *la.items, by_key);
    qsort(lb.items, lb.n, sizeof *lb.items, by_order);
    for (size_t i = 0; i < lb.n && ok; i++)
        if (!find(&la, lb.items[i].key))
            ok = add_entry(list, lb.items[i].key, NULL, lb.items[i].value);
    if (!ok) {
        cJSON_Delete(list);
        list = NULL;
    }
done:
    leaves_free(&la);
    leaves_free(&lb);
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
    if (t)
        cJSON_DeleteItemFromObjectCaseSensitive(t, "version");
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

/* Writes side ("a" or "b") of entry e for text or markdown: numbers in 6
 * significant digits, "(absent)" when that side lacks the key. */
static void value_text(struct strbuf *sb, const cJSON *e, const char *side, bool markdown)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, side);
    const cJSON *absent = cJSON_GetObjectItemCaseSensitive(e, "absent");
    if (cJSON_IsString(absent) && strcmp(absent->valuestring, side) == 0)
        sb_puts(sb, "(absent)");
    else if (!v || cJSON_IsNull(v))
        sb_puts(sb, "null");
    else if (cJSON_IsNumber(v))
        sb_printf(sb, "%.6g", v->valuedouble);
    else if (cJSON_IsBool(v))
        sb_puts(sb, cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsString(v) && !markdown)
        sb_printf(sb, "%s", v->valuestring);
    else if (cJSON_IsString(v)) {
        for (const char *p = v->valuestring; *p; p++) /* a '|' would end the cell */
            sb_puts(sb, *p == '|' ? "\\|" : (char[2]){*p, 0});
    } else
        sb_puts(sb, cJSON_IsArray(v) ? "[]" : "{}");
}

/* Writes the change of entry e: "+7 (+700.0%)" (markdown) or "+7, +700.0%"
 * (text), "+7" when a is 0, or nothing for non-numbers. */
static void change_text(struct strbuf *sb, const cJSON *e, bool markdown)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "change");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "relative");
    if (!cJSON_IsNumber(c))
        return;
    sb_printf(sb, "%+.6g", c->valuedouble);
    if (cJSON_IsNumber(r))
        sb_printf(sb, markdown ? " (%+.1f%%)" : ", %+.1f%%", r->valuedouble * 100.0);
}

/* One section ("Inputs", "Figures") of a text or markdown diff. */
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
    cJSON_ArrayForEach(e, list)
    {
        const cJSON *key = cJSON_GetObjectItemCaseSensitive(e, "key");
        sb_printf(sb, markdown ? "| %s | " : "  %s: ", key->valuestring);
        value_text(sb, e, "a", markdown);
        sb_puts(sb, markdown ? " | " : " -> ");
        value_text(sb, e, "b", markdown);
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
    if (md)
        sb_printf(&sb, "# rooftop diff\n\nA: `%s`, B: `%s`; %d inputs and %d figures differ.\n",
                  label_a, label_b, cJSON_GetArraySize(inputs), cJSON_GetArraySize(figures));
    else
        sb_printf(&sb, "rooftop diff: A %s, B %s; %d inputs and %d figures differ\n", label_a, label_b,
                  cJSON_GetArraySize(inputs), cJSON_GetArraySize(figures));
    section(&sb, "Inputs", inputs, md);
    section(&sb, "Figures", figures, md);
    cJSON_Delete(inputs);
    cJSON_Delete(figures);
    return report_take(&sb, f);
}
