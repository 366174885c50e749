/* tour.c — loading a guided tour, setting its steps' scenarios, scoring guesses. */
#include "tour.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"
#include "scenariofile.h"
#include "suggest.h"

/* Overlays the keys of set onto base (the default scenario as a scenario
 * file's JSON): an object given where base has an object is overlaid key by
 * key ("model": {"kv_heads": 64}); anything else replaces base's value
 * ("chip": "h100" names a built-in chip). A key base does not have is not a
 * scenario key: -1 with "PATH: 'KEYS.KEY' is not a scenario key" in err,
 * keys being where the set sits ("steps[2].set"). */
static int overlay(cJSON *base, const cJSON *set, const char *path, const char *keys, char *err, size_t errsize)
{
    for (const cJSON *c = set->child; c; c = c->next) {
        cJSON *old = cJSON_GetObjectItemCaseSensitive(base, c->string);
        if (!old) {
            struct suggestions sg;
            char hint[160];
            suggest_init(&sg, c->string);
            for (const cJSON *k = base->child; k; k = k->next)
                suggest_offer(&sg, k->string);
            suggest_text(&sg, "", hint, sizeof hint);
            if (hint[0])
                snprintf(err, errsize, "%s: '%s.%s' is not a scenario key; %s", path, keys, c->string, hint);
            else
                snprintf(err, errsize, "%s: '%s.%s' is not a scenario key (see a file rooftop --write-scenario writes)",
                         path, keys, c->string);
            return -1;
        }
        if (cJSON_IsObject(old) && cJSON_IsObject(c)) {
            char inner[300];
            snprintf(inner, sizeof inner, "%s.%s", keys, c->string);
            if (overlay(old, c, path, inner, err, errsize) != 0)
                return -1;
            continue;
        }
        cJSON *copy = cJSON_Duplicate(c, true);
        if (!copy || !cJSON_ReplaceItemViaPointer(base, old, copy)) {
            cJSON_Delete(copy);
            snprintf(err, errsize, "%s: out of memory", path);
            return -1;
        }
    }
    return 0;
}

/* A step's "model" keys changed the default model's shape: the rule the
 * command line's shape flags follow (model_shape_changed), so that d_ff 129
 * gives the same N here as --d-ff 129 does. A step that states its own
 * count, or changes the KV heads alone, keeps a count. */
static void shape_keys_changed(const cJSON *model, struct model_shape *m)
{
    static const char *const kept[] = {"name", "source", "stated_params", "assumptions", "kv_heads", NULL};
    if (!cJSON_IsObject(model) || cJSON_GetObjectItemCaseSensitive(model, "stated_params"))
        return;
    for (const cJSON *c = model->child; c; c = c->next) {
        bool shape = true;
        for (int k = 0; kept[k]; k++)
            shape = shape && strcmp(c->string, kept[k]) != 0;
        if (shape) {
            model_shape_changed(m, c->string, false);
            return;
        }
    }
    if (cJSON_GetObjectItemCaseSensitive(model, "kv_heads"))
        model_shape_changed(m, "kv_heads", true);
}

/* The default scenario with the keys of set (step i's) changed, read back
 * through the scenario-file loader (so every key means what it means in a
 * saved scenario, and scenario_check has the last word). Returns 0 or -1
 * with err naming path and the key. */
static int apply_set(const cJSON *set, const char *path, int i, struct scenario *out, char *err, size_t errsize)
{
    struct scenario def;
    scenario_default(&def);
    char *text = scenario_to_json(&def);
    cJSON *base = text ? cJSON_Parse(text) : NULL;
    cJSON_free(text);
    if (!base) {
        snprintf(err, errsize, "%s: out of memory", path);
        return -1;
    }
    char keys[32], at[300];
    snprintf(keys, sizeof keys, "steps[%d].set", i);
    snprintf(at, sizeof at, "%s: %s", path, keys);
    int rc = -1;
    char *merged = NULL;
    if (set && overlay(base, set, path, keys, err, errsize) != 0)
        goto done;
    merged = cJSON_PrintUnformatted(base);
    if (!merged) {
        snprintf(err, errsize, "%s: out of memory", at);
        goto done;
    }
    struct load_warnings ignored = {0}; /* every key was checked above */
    rc = scenario_from_json(merged, strlen(merged), at, out, &ignored, err, errsize);
    if (rc == 0 && set)
        shape_keys_changed(cJSON_GetObjectItemCaseSensitive(set, "model"), &out->model);
done:
    cJSON_free(merged);
    cJSON_Delete(base);
    return rc;
}

/* One step of a path: the name before '.', '[' or the end, then any [N] or
 * [NAME] selectors. Walks node along it; NULL when a part is missing. */
static const cJSON *walk(const cJSON *node, const char *key)
{
    const char *p = key;
    while (node && *p) {
        size_t n = strcspn(p, ".[");
        if (n > 0) {
            char name[RT_TOUR_KEY_MAX];
            if (n >= sizeof name || !cJSON_IsObject(node))
                return NULL;
            memcpy(name, p, n);
            name[n] = '\0';
            node = cJSON_GetObjectItemCaseSensitive(node, name);
            p += n;
        }
        while (node && *p == '[') {
            const char *close = strchr(p, ']');
            if (!close || !cJSON_IsArray(node))
                return NULL;
            char sel[RT_TOUR_KEY_MAX];
            size_t m = (size_t)(close - p - 1);
            if (m == 0 || m >= sizeof sel)
                return NULL;
            memcpy(sel, p + 1, m);
            sel[m] = '\0';
            char *end;
            long i = strtol(sel, &end, 10);
            if (*end == '\0' && i >= 0) {
                node = cJSON_GetArrayItem(node, (int)i);
            } else {
                const cJSON *e, *hit = NULL;
                cJSON_ArrayForEach(e, node)
                {
                    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
                    if (!hit && cJSON_IsString(nm) && strcmp(nm->valuestring, sel) == 0)
                        hit = e;
                }
                node = hit;
            }
            p = close + 1;
        }
        if (*p == '.')
            p++;
        else if (*p)
            return NULL;
    }
    return node;
}

/* The figure under key of a report tree into *out: 0, or -1 with err when it is not a single figure. */
static int tree_figure(const cJSON *tree, const char *key, struct tour_value *out, char *err, size_t errsize)
{
    const cJSON *v = walk(tree, key);
    int rc = 0;
    memset(out, 0, sizeof *out);
    if (cJSON_IsNumber(v)) {
        out->value = v->valuedouble;
    } else if (cJSON_IsNull(v)) {
        out->is_null = true;
    } else if (cJSON_IsString(v) || cJSON_IsBool(v)) {
        out->is_text = true;
        snprintf(out->text, sizeof out->text, "%s",
                 cJSON_IsString(v) ? v->valuestring : (cJSON_IsTrue(v) ? "true" : "false"));
    } else {
        snprintf(err, errsize, "'%s' is %s of rooftop --report=json", key,
                 v ? "not a single figure (an object or a list)" : "not a key");
        rc = -1;
    }
    return rc;
}

int tour_figure(const struct scenario *s, const struct analysis *a, const char *key, struct tour_value *out, char *err,
                size_t errsize)
{
    cJSON *tree = report_json_tree(s, a);
    if (!tree) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    int rc = tree_figure(tree, key, out, err, errsize);
    cJSON_Delete(tree);
    return rc;
}

/* Looks up a step's figure on its own scenario: 0, or -1 with err. params
 * (may be NULL) gets the N the scenario analyses to. */
static int step_figure(const struct tour_step *st, struct tour_value *out, double *params, char *err, size_t errsize)
{
    struct analysis a;
    if (analyze(&st->scenario, &a, err, errsize) != 0)
        return -1;
    if (params)
        *params = a.params;
    return tour_figure(&st->scenario, &a, st->figure, out, err, errsize);
}

/* True when two figures read the same: one word, both none, or numbers within one part in a million. */
static bool same_value(const struct tour_value *x, const struct tour_value *y)
{
    if (x->is_text || y->is_text)
        return x->is_text && y->is_text && strcmp(x->text, y->text) == 0;
    if (x->is_null || y->is_null)
        return x->is_null && y->is_null;
    return fabs(x->value - y->value) <= 1e-6 * fmax(fabs(x->value), fabs(y->value));
}

uint32_t tour_answers_on_screen(const struct tour *t, size_t after, const struct scenario *s,
                                const struct analysis *a)
{
    cJSON *tree = report_json_tree(s, a);
    uint32_t shown = 0;
    char err[160];
    for (size_t j = after + 1; tree && j < t->count && j < 32; j++) {
        struct tour_value v;
        if (tree_figure(tree, t->steps[j].figure, &v, err, sizeof err) == 0 && same_value(&v, &t->steps[j].value))
            shown |= 1u << j;
    }
    cJSON_Delete(tree);
    return shown;
}

/* Reads one step (the object at index i) into *st. Returns 0 or -1. */
static int parse_step(const cJSON *o, int i, const char *path, const char *const *knobs, struct tour_step *st,
                      struct load_warnings *w, char *err, size_t errsize)
{
    char where[300];
    snprintf(where, sizeof where, "%s: steps[%d]", path, i);
    if (!cJSON_IsObject(o)) {
        snprintf(err, errsize, "%s must be an object with a title, a question and a figure", where);
        return -1;
    }
    char answer[16] = "";
    if (json_string(o, "title", where, true, st->title, sizeof st->title, err, errsize) != JSON_FOUND ||
        json_string(o, "text", where, false, st->text, sizeof st->text, err, errsize) == JSON_BAD ||
        json_string(o, "question", where, true, st->question, sizeof st->question, err, errsize) != JSON_FOUND ||
        json_string(o, "knob", where, false, st->knob, sizeof st->knob, err, errsize) == JSON_BAD ||
        json_string(o, "figure", where, true, st->figure, sizeof st->figure, err, errsize) != JSON_FOUND ||
        json_string(o, "answer", where, true, answer, sizeof answer, err, errsize) != JSON_FOUND)
        return -1;
    if (strcmp(answer, "bound") == 0) {
        st->answer = TOUR_ANSWER_BOUND;
    } else if (strcmp(answer, "figure") == 0) {
        st->answer = TOUR_ANSWER_FIGURE;
    } else {
        snprintf(err, errsize, "%s: 'answer' must be \"bound\" or \"figure\" (got \"%s\")", where, answer);
        return -1;
    }
    if (st->knob[0] && knobs) {
        const char *const *k = knobs;
        while (*k && strcmp(*k, st->knob) != 0)
            k++;
        if (!*k) {
            snprintf(err, errsize, "%s: 'knob' \"%s\" is not a knob of the explorer (batch, chips, kv heads ...)",
                     where, st->knob);
            return -1;
        }
    }
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(o, "set");
    if (set && !cJSON_IsNull(set) && !cJSON_IsObject(set)) {
        snprintf(err, errsize, "%s: 'set' must be an object of scenario keys, e.g. {\"batch\": 64}", where);
        return -1;
    }
    if (apply_set(cJSON_IsObject(set) ? set : NULL, path, i, &st->scenario, err, errsize) != 0)
        return -1;
    struct tour_value v;
    char why[300];
    if (step_figure(st, &v, &st->params, why, sizeof why) != 0) {
        snprintf(err, errsize, "%s: 'figure': %s", where, why);
        return -1;
    }
    st->value = v;
    bool is_bound = v.is_text && (strcmp(v.text, "memory") == 0 || strcmp(v.text, "compute") == 0);
    if (st->answer == TOUR_ANSWER_BOUND ? !is_bound : v.is_text) {
        snprintf(err, errsize, "%s: 'figure' '%s' is %s, not %s", where, st->figure,
                 v.is_text ? "a word" : "a number", st->answer == TOUR_ANSWER_BOUND ? "a bound" : "a number");
        return -1;
    }
    static const char *const known[] = {"title", "text", "question", "knob", "figure", "answer", "set", NULL};
    json_warn_unknown_keys(o, known, where, "", w);
    return 0;
}

int tour_parse(const char *text, size_t len, const char *path, const char *const *knobs, struct tour *out,
               struct load_warnings *w, char *err, size_t errsize)
{
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    int rc = -1;
    memset(out, 0, sizeof *out);
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(root, "steps");
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsize, "%s: expected a tour object {\"title\": ..., \"steps\": [...]}", path);
        goto done;
    }
    if (json_string(root, "title", path, true, out->title, sizeof out->title, err, errsize) != JSON_FOUND)
        goto done;
    int n = cJSON_GetArraySize(steps);
    if (!cJSON_IsArray(steps) || n == 0) {
        snprintf(err, errsize, "%s: 'steps' must be a list of at least one step", path);
        goto done;
    }
    if (n > RT_TOUR_MAX_STEPS) {
        snprintf(err, errsize, "%s: 'steps' has %d steps; a tour holds at most %d", path, n, RT_TOUR_MAX_STEPS);
        goto done;
    }
    for (int i = 0; i < n; i++)
        if (parse_step(cJSON_GetArrayItem(steps, i), i, path, knobs, &out->steps[i], w, err, errsize) != 0)
            goto done;
    out->count = (size_t)n;
    static const char *const known[] = {"title", "steps", NULL};
    json_warn_unknown_keys(root, known, path, "", w);
    rc = 0;
done:
    cJSON_Delete(root);
    return rc;
}

/* How a figure is read and written, from its key's suffix. */
enum figure_unit { UNIT_PLAIN, UNIT_SECONDS, UNIT_BYTES, UNIT_FRACTION };

/* True when key ends in suffix. */
static bool ends_with(const char *key, const char *suffix)
{
    size_t n = strlen(key), m = strlen(suffix);
    return n >= m && strcmp(key + n - m, suffix) == 0;
}

static enum figure_unit figure_unit(const char *key)
{
    switch (key_unit(key)) {
    case RT_KEY_SECONDS:
        return UNIT_SECONDS;
    case RT_KEY_BYTES:
        return UNIT_BYTES;
    case RT_KEY_FRACTION:
        return UNIT_FRACTION;
    default:
        return UNIT_PLAIN;
    }
}

/* Writes a figure in its unit: "1.981 s", "85.9 GB", "35.7%", "28.7", "64". */
static char *format_figure(char *buf, size_t size, double v, enum figure_unit u)
{
    switch (u) {
    case UNIT_SECONDS:
        return format_seconds(buf, size, v);
    case UNIT_BYTES:
        return format_si(buf, size, v, "B");
    case UNIT_FRACTION:
        snprintf(buf, size, "%.1f%%", v * 100.0);
        return buf;
    default:
        if (v == floor(v) && fabs(v) < 1e15)
            snprintf(buf, size, "%.0f", v);
        else
            snprintf(buf, size, "%.1f", v);
        return buf;
    }
}

/* Reads a guess in the figure's unit into *v: 0, or -1 with a hint in err. */
static int parse_guess(const char *text, enum figure_unit u, double *v, char *err, size_t errsize)
{
    static const char *const hints[] = {"a number, e.g. 64 or 28.7", "seconds, e.g. 0.5 or 500ms",
                                        "bytes, e.g. 85.9GB", "a percentage, e.g. 35%"};
    int rc;
    if (u == UNIT_SECONDS) {
        rc = parse_seconds(text, v);
    } else if (u == UNIT_FRACTION && ends_with(text, "%")) {
        char num[64];
        snprintf(num, sizeof num, "%.*s", (int)strlen(text) - 1, text);
        rc = parse_number(num, v);
        *v /= 100.0;
    } else {
        rc = parse_number(text, v);
        if (rc == 0 && u == UNIT_FRACTION && *v > 1.0)
            *v /= 100.0; /* "35" means 35% */
    }
    if (rc != 0) {
        snprintf(err, errsize, "'%s' is not %s", text, hints[u]);
        return -1;
    }
    if (!(*v > 0.0)) {
        snprintf(err, errsize, "'%s': give a number above zero", text);
        return -1;
    }
    return 0;
}

/* Scores a word guess (a bound) against the figure's word. */
static int score_bound(const char *g, const struct tour_value *v, struct tour_score *out, char *err, size_t errsize)
{
    const char *said = NULL;
    size_t n = strlen(g);
    if (n > 0 && strncasecmp(g, "memory", n) == 0)
        said = "memory";
    else if (n > 0 && strncasecmp(g, "compute", n) == 0)
        said = "compute";
    if (!said) {
        snprintf(err, errsize, "'%s': answer memory or compute", g);
        return -1;
    }
    out->right = strcmp(said, v->text) == 0;
    snprintf(out->line, sizeof out->line, "you said %s; it is %s-bound: %s", said, v->text,
             out->right ? "right" : "wrong");
    return 0;
}

int tour_score(const struct tour_step *st, const char *guess, bool ascii, struct tour_score *out, char *err,
               size_t errsize)
{
    memset(out, 0, sizeof *out);
    char g[64];
    if (strlen(guess ? guess : "") >= sizeof g) {
        snprintf(err, errsize, "a guess is at most %zu characters", sizeof g - 1);
        return -1;
    }
    trim_blanks(g, sizeof g, guess);
    if (!g[0]) {
        snprintf(err, errsize, "type a guess first");
        return -1;
    }
    const struct tour_value v = st->value; /* found as the tour was read: no analysis a guess */
    if (st->answer == TOUR_ANSWER_BOUND)
        return score_bound(g, &v, out, err, errsize);
    enum figure_unit u = figure_unit(st->figure);
    char said[96], is[48];
    bool bare = parse_number(g, &(double){0}) == 0; /* no unit typed: say the figure's */
    snprintf(said, sizeof said, "%s%s", g, bare && u == UNIT_SECONDS ? " s" : "");
    if (v.is_null || strcasecmp(g, "none") == 0) {
        out->right = v.is_null && strcasecmp(g, "none") == 0;
        if (v.is_null)
            snprintf(is, sizeof is, "none");
        else
            format_figure(is, sizeof is, v.value, u); /* "none" where there is a figure: wrong, no ratio */
        snprintf(out->line, sizeof out->line, "you said %s; it is %s: %s", said, is, out->right ? "right" : "wrong");
        return 0;
    }
    double x;
    if (parse_guess(g, u, &x, err, errsize) != 0)
        return -1;
    format_figure(is, sizeof is, v.value, u);
    if (strncmp(st->figure, "latency.", 8) == 0) { /* steps switch estimates: say whose figure it is */
        size_t n = strlen(is);
        snprintf(is + n, sizeof is - n, " (%s)", latency_model_name(st->scenario.latency_model));
    }
    out->ratio = v.value / x;
    out->right = out->ratio >= 1.0 / 1.1 && out->ratio <= 1.1;
    if (out->right) {
        snprintf(out->line, sizeof out->line, "you said %s; it is %s: right", said, is);
        return 0;
    }
    double r = out->ratio >= 1.0 ? out->ratio : 1.0 / out->ratio;
    if (r >= 1e6) /* "1e-300" for 295.5: not three hundred digits of ratio */
        snprintf(out->line, sizeof out->line, "you said %s; it is %s: over a million times %s", said, is,
                 out->ratio >= 1.0 ? "low" : "high");
    else
        snprintf(out->line, sizeof out->line,
                 r < 100.0 ? "you said %s; it is %s: %.1f%s %s" : "you said %s; it is %s: %.0f%s %s", said, is, r,
                 ascii ? "x" : "\u00d7", out->ratio >= 1.0 ? "low" : "high");
    return 0;
}
