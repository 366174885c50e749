/* jsonio.c — cJSON with positions, encodings, depth and duplicate keys. */
#include "jsonio.h"

#include "suggest.h"

#include "units.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stores prefix and the formatted text as w's next entry, or counts it as dropped when w is full. */
static void add_entry(struct load_warnings *w, const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static void add_entry(struct load_warnings *w, const char *prefix, const char *fmt, va_list ap)
{
    if (!w)
        return;
    if (w->count >= RT_MAX_WARNINGS) {
        if (w->dropped < INT_MAX)
            w->dropped++;
        return;
    }
    char *out = w->text[w->count++];
    int n = snprintf(out, RT_WARNING_MAX, "%s", prefix);
    vsnprintf(out + n, RT_WARNING_MAX - (size_t)n, fmt, ap);
}

void warn_add(struct load_warnings *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_entry(w, "", fmt, ap);
    va_end(ap);
}

void note_add(struct load_warnings *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_entry(w, RT_NOTE_PREFIX, fmt, ap);
    va_end(ap);
}

const char *warning_word(const char *text)
{
    return text && strncmp(text, RT_NOTE_PREFIX, strlen(RT_NOTE_PREFIX)) == 0 ? "" : "warning: ";
}

void json_line_col(const char *text, size_t len, size_t offset, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            (*line)++;
            *col = 1;
        } else if ((c & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

/* Writes "PATH:LINE:COL: message" for a byte offset. */
static void error_at(const char *text, size_t len, size_t offset, const char *path, char *err, size_t errsize,
                     const char *message)
{
    int line, col;
    json_line_col(text, len, offset, &line, &col);
    snprintf(err, errsize, "%s:%d:%d: %s", path, line, col, message);
}

/* Scans the text once, without recursion: refuses nesting beyond the limit,
 * an unterminated string, or brackets left open at the end. Returns 0 when
 * the structure is sound enough to hand to cJSON. */
static int scan_structure(const char *text, size_t len, const char *path, char *err, size_t errsize)
{
    int depth = 0;
    bool in_string = false, escaped = false;
    size_t string_start = 0, last_open = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            else if (c == '\n') {
                error_at(text, len, string_start, path, err, errsize,
                         "expected a closing '\"': the string runs past the end of the line");
                return -1;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
            string_start = i;
        } else if (c == '{' || c == '[') {
            if (++depth > RT_JSON_MAX_DEPTH) {
                char msg[96];
                snprintf(msg, sizeof msg, "nested deeper than %d levels; refused", RT_JSON_MAX_DEPTH);
                error_at(text, len, i, path, err, errsize, msg);
                return -1;
            }
            last_open = i;
        } else if (c == '}' || c == ']') {
            depth--;
        }
    }
    if (in_string) {
        error_at(text, len, string_start, path, err, errsize, "expected a closing '\"' before the end of the file");
        return -1;
    }
    if (depth > 0) {
        error_at(text, len, last_open, path, err, errsize,
                 "expected a closing '}' or ']': this bracket is still open at the end of the file");
        return -1;
    }
    return 0;
}

/* Explains a cJSON parse failure at offset: what was expected there. */
static const char *expected_at(const char *text, size_t offset, size_t len)
{
    size_t p = offset;
    while (p > 0 && (text[p - 1] == ' ' || text[p - 1] == '\t' || text[p - 1] == '\n' || text[p - 1] == '\r'))
        p--;
    char prev = p > 0 ? text[p - 1] : '\0';
    char here = offset < len ? text[offset] : '\0';
    if ((here == '}' || here == ']') && prev == ',')
        return "expected a value after ',' (JSON allows no trailing comma)";
    if (here == '\'' || prev == '\'')
        return "expected '\"' (JSON strings and keys take double quotes)";
    if (prev == '{' || prev == ',')
        return "expected a key in double quotes";
    if (prev == '"' && here != ':')
        return "expected ':' after the key";
    if (offset >= len)
        return "expected more JSON before the end of the file";
    return "expected a value: a number, a string in double quotes, true, false, null, an object or an array";
}

/* One key of an object and where it stands among its siblings. */
struct keyed {
    const char *key;
    size_t at;
};

/* Orders keys by name, then by position: equal names end up side by side,
 * the last one written last. */
static int compare_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* Scratch space that one document's objects share, grown as needed. */
struct dup_scratch {
    struct keyed *keys;
    bool *doomed; /* by position: an earlier duplicate, to be removed */
    size_t cap;
};

/* Removes earlier duplicates of each key of one object, so lookups see the
 * last value, as Python's json does, and warns about each in the order they
 * were written. Sorts the keys (n log n; comparing every pair took minutes
 * for the 200k keys a file may hold). Returns 0, or -1 when out of memory. */
static int resolve_object(cJSON *node, const char *path, struct load_warnings *w, struct dup_scratch *s)
{
    size_t n = 0;
    for (const cJSON *c = node->child; c; c = c->next)
        n++;
    if (n < 2)
        return 0;
    if (n > s->cap) {
        struct keyed *keys = realloc(s->keys, n * sizeof *keys);
        if (keys)
            s->keys = keys;
        bool *doomed = realloc(s->doomed, n * sizeof *doomed);
        if (doomed)
            s->doomed = doomed;
        if (!keys || !doomed)
            return -1;
        s->cap = n;
    }
    size_t k = 0, at = 0;
    for (const cJSON *c = node->child; c; c = c->next, at++) {
        s->doomed[at] = false;
        if (c->string)
            s->keys[k++] = (struct keyed){c->string, at};
    }
    qsort(s->keys, k, sizeof *s->keys, compare_keyed);
    bool any = false;
    for (size_t i = 0; i + 1 < k; i++)
        if (strcmp(s->keys[i].key, s->keys[i + 1].key) == 0)
            s->doomed[s->keys[i].at] = any = true;
    if (!any)
        return 0;
    at = 0;
    for (cJSON *c = node->child, *next; c; c = next, at++) {
        next = c->next;
        if (s->doomed[at]) {
            warn_add(w, "%s: key '%s' appears more than once; the last value is used", path, c->string);
            cJSON_Delete(cJSON_DetachItemViaPointer(node, c));
        }
    }
    return 0;
}

/* Resolves duplicate keys in node and every object below it (recursion
 * depth is bounded by scan_structure). Returns 0, or -1 out of memory. */
static int resolve_duplicates(cJSON *node, const char *path, struct load_warnings *w, struct dup_scratch *s)
{
    for (cJSON *child = node ? node->child : NULL; child; child = child->next)
        if (resolve_duplicates(child, path, w, s) != 0)
            return -1;
    return cJSON_IsObject(node) ? resolve_object(node, path, w, s) : 0;
}

/* Python's json module (which writes most config.json files) reads and
 * writes the literals Infinity, -Infinity and NaN, which JSON itself lacks.
 * Scans text (len bytes) for them outside strings, as whole words, and
 * returns how many there are, the offset of the first in *first (a leading
 * minus included). With copy (len + count + 1 bytes, count from a first
 * pass) it also writes the text there with each Infinity as 1e999 padded to
 * its width, which cJSON reads as an infinity, and each NaN as null
 * (absent), sets *copy_len, and records in inserted[] the offsets, in the
 * copy, after which a byte was inserted (null is one byte longer than
 * NaN) and their number in *inserted_count, so that an error in the copy
 * maps back to the file. */
static size_t python_literals(const char *text, size_t len, size_t *first, char *copy, size_t *copy_len,
                              size_t *inserted, size_t *inserted_count)
{
    size_t count = 0, o = 0, k = 0;
    bool in_string = false, escaped = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        size_t n = 0;
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else {
            n = (c == 'I' && len - i >= 8 && memcmp(text + i, "Infinity", 8) == 0) ? 8
                : (c == 'N' && len - i >= 3 && memcmp(text + i, "NaN", 3) == 0) ? 3
                                                                                  : 0;
            bool before = i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_');
            bool after = n > 0 && (i + n == len || !(isalnum((unsigned char)text[i + n]) || text[i + n] == '_'));
            if (!(n > 0 && before && after))
                n = 0;
        }
        if (n == 0) {
            if (copy)
                copy[o++] = c;
            continue;
        }
        if (count++ == 0)
            *first = i > 0 && text[i - 1] == '-' ? i - 1 : i;
        if (copy) {
            memcpy(copy + o, n == 8 ? "1e999   " : "null", n == 8 ? 8 : 4);
            o += n == 8 ? 8 : 4;
            if (n == 3)
                inserted[k++] = o;
        }
        i += n - 1;
    }
    if (copy) {
        copy[o] = '\0';
        *copy_len = o;
        *inserted_count = k;
    }
    return count;
}

cJSON *json_parse_text(const char *text, size_t len, const char *path, struct load_warnings *w, char *err,
                       size_t errsize)
{
    if (len >= 2 && (((unsigned char)text[0] == 0xFF && (unsigned char)text[1] == 0xFE) ||
                     ((unsigned char)text[0] == 0xFE && (unsigned char)text[1] == 0xFF) || text[0] == '\0' ||
                     text[1] == '\0')) {
        snprintf(err, errsize, "%s: looks like UTF-16: save the file as UTF-8", path);
        return NULL;
    }
    size_t skip = 0;
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        skip = 3; /* UTF-8 byte-order mark */
    const char *body = text + skip;
    size_t body_len = len - skip;
    if (memchr(body, '\0', body_len)) {
        error_at(body, body_len, (size_t)((const char *)memchr(body, '\0', body_len) - body), path, err, errsize,
                 "expected text, found a NUL byte (is this a binary file?)");
        return NULL;
    }
    size_t start = 0;
    while (start < body_len && (body[start] == ' ' || body[start] == '\t' || body[start] == '\n' || body[start] == '\r'))
        start++;
    if (start == body_len) {
        snprintf(err, errsize, "%s: the file is empty; expected a JSON object", path);
        return NULL;
    }
    if (scan_structure(body, body_len, path, err, errsize) != 0)
        return NULL;
    /* Python's Infinity and NaN literals: parse a rewritten copy, and map
     * any error in it back to the file. */
    size_t first_literal = 0, literals = python_literals(body, body_len, &first_literal, NULL, NULL, NULL, NULL);
    char *copy = NULL;
    size_t *inserted = NULL, inserted_count = 0, parse_len = body_len;
    const char *parse = body;
    if (literals > 0) {
        inserted = malloc(literals * sizeof *inserted);
        copy = inserted ? malloc(body_len + literals + 1) : NULL;
        if (!copy) {
            free(inserted);
            snprintf(err, errsize, "%s: out of memory reading its Infinity/NaN literals", path);
            return NULL;
        }
        python_literals(body, body_len, &first_literal, copy, &parse_len, inserted, &inserted_count);
        parse = copy;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(parse, parse_len, &end, 0);
    size_t stop = end ? (size_t)(end - parse) : parse_len;
    for (size_t k = inserted_count; k > 0; k--) /* back to the file's offsets */
        if (inserted[k - 1] <= stop) {
            stop -= k;
            break;
        }
    free(copy);
    free(inserted);
    if (!root) {
        size_t offset = stop < body_len ? stop : body_len;
        /* cJSON sometimes stops one past a closing bracket that follows a
         * comma; point at the bracket, where the reader should look. */
        if (offset > 0 && offset <= body_len && (body[offset - 1] == '}' || body[offset - 1] == ']'))
            offset--;
        error_at(body, body_len, offset, path, err, errsize, expected_at(body, offset, body_len));
        return NULL;
    }
    size_t rest = stop;
    while (rest < body_len && (body[rest] == ' ' || body[rest] == '\t' || body[rest] == '\n' || body[rest] == '\r'))
        rest++;
    if (rest < body_len) {
        error_at(body, body_len, rest, path, err, errsize, "expected the end of the file after the JSON value");
        cJSON_Delete(root);
        return NULL;
    }
    if (literals > 0) {
        int line, col;
        json_line_col(body, body_len, first_literal, &line, &col);
        warn_add(w, "%s:%d:%d: %zu Infinity/NaN literal%s, as Python's json writes them: Infinity read as infinite "
                    "(refused by name where a figure needs it), NaN as null",
                 path, line, col, literals, literals == 1 ? "" : "s");
    }
    struct dup_scratch scratch = {0};
    int rc = resolve_duplicates(root, path, w, &scratch);
    free(scratch.keys);
    free(scratch.doomed);
    if (rc != 0) {
        snprintf(err, errsize, "%s: out of memory checking for duplicate keys", path);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* A JSON type in words, for messages. */
static const char *type_name(const cJSON *v)
{
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsBool(v))
        return "true or false";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsObject(v))
        return "an object";
    return "null";
}

/* Finds key; sets *v. Returns ABSENT for missing or null (BAD if required). */
static enum json_found lookup(const cJSON *obj, const char *key, const char *path, const char *what, bool required,
                              const cJSON **v, char *err, size_t errsize)
{
    *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (*v && !cJSON_IsNull(*v))
        return JSON_FOUND;
    if (!required)
        return JSON_ABSENT;
    snprintf(err, errsize, "%s: missing key '%s%s'", path, what, key);
    return JSON_BAD;
}

enum json_found json_number(const cJSON *obj, const char *key, const char *path, const char *what, bool required,
                            double lo, double hi, bool whole, double *out, char *err, size_t errsize)
{
    const cJSON *v;
    enum json_found f = lookup(obj, key, path, what, required, &v, err, errsize);
    if (f != JSON_FOUND)
        return f;
    if (!cJSON_IsNumber(v)) {
        snprintf(err, errsize, "%s: '%s%s' must be a number (got %s)", path, what, key, type_name(v));
        return JSON_BAD;
    }
    double x = v->valuedouble;
    if (!isfinite(x)) {
        snprintf(err, errsize, "%s: '%s%s' is not a finite number", path, what, key);
        return JSON_BAD;
    }
    char got[32], low[32], high[32]; /* numbers in messages exactly as they read back */
    format_exact(got, sizeof got, x);
    if (whole && x != floor(x)) {
        snprintf(err, errsize, "%s: '%s%s' must be a whole number (got %s)", path, what, key, got);
        return JSON_BAD;
    }
    if (whole && fabs(x) >= 9007199254740992.0) {
        snprintf(err, errsize, "%s: '%s%s' is at or beyond 2^53 and cannot be read exactly (got %s)", path, what,
                 key, got);
        return JSON_BAD;
    }
    if (x < lo || x > hi) {
        snprintf(err, errsize, "%s: '%s%s' must be from %s to %s (got %s)", path, what, key,
                 format_exact(low, sizeof low, lo), format_exact(high, sizeof high, hi), got);
        return JSON_BAD;
    }
    *out = x;
    return JSON_FOUND;
}

enum json_found json_bool(const cJSON *obj, const char *key, const char *path, bool required, bool *out, char *err,
                          size_t errsize)
{
    const cJSON *v;
    enum json_found f = lookup(obj, key, path, "", required, &v, err, errsize);
    if (f != JSON_FOUND)
        return f;
    if (!cJSON_IsBool(v)) {
        snprintf(err, errsize, "%s: '%s' must be true or false (got %s)", path, key, type_name(v));
        return JSON_BAD;
    }
    *out = cJSON_IsTrue(v);
    return JSON_FOUND;
}

enum json_found json_string(const cJSON *obj, const char *key, const char *path, bool required, char *out,
                            size_t size, char *err, size_t errsize)
{
    const cJSON *v;
    enum json_found f = lookup(obj, key, path, "", required, &v, err, errsize);
    if (f != JSON_FOUND)
        return f;
    if (!cJSON_IsString(v)) {
        snprintf(err, errsize, "%s: '%s' must be a string (got %s)", path, key, type_name(v));
        return JSON_BAD;
    }
    if (strlen(v->valuestring) >= size) {
        snprintf(err, errsize, "%s: '%s' is longer than %zu characters", path, key, size - 1);
        return JSON_BAD;
    }
    snprintf(out, size, "%s", v->valuestring);
    return JSON_FOUND;
}

void json_warn_unknown_keys(const cJSON *obj, const char *const *known, const char *path, const char *what,
                            struct load_warnings *w)
{
    /* A few by name, then one line for the rest: a file of a thousand
     * unknown keys must not crowd out the warnings after it (a file skipped,
     * a fifo). */
    enum { NAMED = 3 };
    size_t unknown = 0;
    for (const cJSON *c = cJSON_IsObject(obj) ? obj->child : NULL; c; c = c->next) {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = c->string && strcmp(c->string, *k) == 0;
        if (!ok && unknown++ < NAMED) {
            const char *best = NULL;
            int best_cost = RT_SUGGEST_NEAR + 1;
            char low[RT_SUGGEST_NAME_MAX + 1]; /* "BF16" is near "bf16": compared without case */
            size_t li = 0;
            for (const char *q = c->string ? c->string : ""; *q && li < RT_SUGGEST_NAME_MAX; q++)
                low[li++] = (char)tolower((unsigned char)*q);
            low[li] = '\0';
            for (const char *const *k = known; *k && c->string; k++) {
                int cost = name_distance(low, *k);
                if (cost < best_cost)
                    best_cost = cost, best = *k;
            }
            if (best)
                warn_add(w, "%s: unknown key '%s%s' ignored (did you mean '%s%s'?)", path, what, c->string, what, best);
            else
                warn_add(w, "%s: unknown key '%s%s' ignored", path, what, c->string ? c->string : "?");
        }
    }
    if (unknown > NAMED)
    {
        char where[64];
        snprintf(where, sizeof where, "%s", what);
        size_t wl = strlen(where);
        if (wl > 0 && where[wl - 1] == '.') /* "efficiency." names the block "efficiency" */
            where[wl - 1] = '\0';
        warn_add(w, "%s: and %zu more unknown keys%s%s ignored", path, unknown - NAMED, where[0] ? " in " : "",
                 where);
    }
}

void json_add_exact(cJSON *obj, const char *key, double value)
{
    if (!isfinite(value)) {
        cJSON_AddNullToObject(obj, key);
        return;
    }
    cJSON_AddNumberToObject(obj, key, value);
}

int json_make_exact(cJSON *item)
{
    if (!item)
        return 0;
    int rc = 0;
    if (cJSON_IsNumber(item)) {
        if (!isfinite(item->valuedouble)) {
            item->type = cJSON_NULL;
        } else {
            char text[40];
            format_exact(text, sizeof text, item->valuedouble);
            size_t n = strlen(text) + 1;
            char *copy = malloc(n); /* freed by cJSON_Delete with cJSON's default hooks */
            if (!copy)
                return -1;
            memcpy(copy, text, n);
            item->type = cJSON_Raw;
            item->valuestring = copy;
        }
    }
    for (cJSON *k = item->child; k; k = k->next)
        if (json_make_exact(k) != 0)
            rc = -1;
    return rc;
}
