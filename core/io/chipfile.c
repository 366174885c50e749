/* chipfile.c — chip files and the chip set. */
#include "chipfile.h"

#include "kernelfile.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const chip_keys[] = {"name", "key", "peak_flops_per_s", "peak_flops", "hbm_bytes",
                                        "hbm_bytes_per_s", "hbm_bw_bytes_per_s", "interconnect_bytes_per_s", "scale_up_domain", "scale_out_bytes_per_s",
                                        "tdp_w", "source", "notes", "conflicts", "sparse", "sparse_halved", "vendor",
                                        "vector_flops_per_s", "sm_count", "efficiency", "price_usd_per_chip_hour",
                                        "price_source", "kernels", "l2_bytes_per_s", "l1_bytes_per_s", NULL};

/* Reads "conflicts": absent, or an array of strings, each one statement without
 * a line break, joined by '\n' into out (what chip_to_json writes back). Returns
 * 0, or -1 with the reason in err. */
static int conflicts_from_json(const cJSON *obj, const char *path, char *out, size_t size, char *err, size_t errsize)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "conflicts");
    out[0] = '\0';
    if (!arr || cJSON_IsNull(arr))
        return 0;
    if (!cJSON_IsArray(arr)) {
        snprintf(err, errsize, "%s: 'conflicts' must be an array of strings, one figure where sources disagree each",
                 path);
        return -1;
    }
    size_t used = 0;
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        if (!cJSON_IsString(e) || e->valuestring[0] == '\0' || strchr(e->valuestring, '\n')) {
            snprintf(err, errsize, "%s: conflicts[%d] must be a non-empty string of one line", path, i);
            return -1;
        }
        size_t n = strlen(e->valuestring);
        if (n >= RT_CHIP_CONFLICT_LINE_MAX || used + n + 2 > size) {
            snprintf(err, errsize, "%s: conflicts[%d] makes the conflicts longer than %zu characters", path, i,
                     n >= RT_CHIP_CONFLICT_LINE_MAX ? (size_t)RT_CHIP_CONFLICT_LINE_MAX - 1 : size - 1);
            return -1;
        }
        used += (size_t)snprintf(out + used, size - used, "%s%s", used > 0 ? "\n" : "", e->valuestring);
    }
    return 0;
}

/* Makes a short key from a display name: "My Chip 2" -> "my-chip-2". */
static void key_from_name(char *out, size_t size, const char *name)
{
    size_t n = 0;
    bool dash = false;
    for (const char *p = name; *p && n + 1 < size; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && n > 0 && n + 2 < size)
                out[n++] = '-';
            out[n++] = (char)tolower((unsigned char)*p);
            dash = false;
        } else {
            dash = true;
        }
    }
    out[n] = '\0';
}

int efficiency_from_json(const cJSON *obj, const char *path, struct efficiency_profile *out, struct load_warnings *w,
                         char *err, size_t errsize)
{
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errsize, "%s: 'efficiency' must be an object {\"matmul\": {\"bf16\": 0.75}, \"memory\": 0.8, ...}",
                 path);
        return -1;
    }
    /* Keys left out take the generic profile's values. */
    struct efficiency_profile e = *efficiency_generic();
    e.calibrated = false;
    e.sm_count = out->sm_count;
    snprintf(e.source, sizeof e.source, "%s", path);
    const cJSON *mm = cJSON_GetObjectItemCaseSensitive(obj, "matmul");
    if (mm && !cJSON_IsObject(mm)) {
        snprintf(err, errsize, "%s: 'efficiency.matmul' must be an object such as {\"bf16\": 0.75, \"fp8\": 0.45}", path);
        return -1;
    }
    for (int p = 0; mm && p < RT_PRECISION_COUNT; p++)
        if (json_number(mm, precision_name((enum rt_precision)p), path, "efficiency.matmul.", false, 1e-6, 1.0, false,
                        &e.matmul[p], err, errsize) == JSON_BAD)
            return -1;
    if (mm) { /* a misspelt precision would leave its share at the generic one without a word */
        const char *known[RT_PRECISION_COUNT + 1];
        for (int p = 0; p < RT_PRECISION_COUNT; p++)
            known[p] = precision_name((enum rt_precision)p);
        known[RT_PRECISION_COUNT] = NULL;
        json_warn_unknown_keys(mm, known, path, "efficiency.matmul.", w);
    }
    /* The block formats run fp8-class tensor-core kernels: left out, they take the file's fp8 share. */
    static const enum rt_precision blocks[] = {RT_FP8_BLOCK, RT_NVFP4, RT_MXFP4};
    for (size_t i = 0; mm && i < sizeof blocks / sizeof blocks[0]; i++)
        if (!cJSON_GetObjectItemCaseSensitive(mm, precision_name(blocks[i])))
            e.matmul[blocks[i]] = e.matmul[RT_FP8];
    double sms = (double)e.sm_count;
    if (json_number(obj, "memory", path, "efficiency.", false, 1e-6, 1.0, false, &e.memory, err, errsize) == JSON_BAD ||
        json_number(obj, "kernel_overhead_s", path, "efficiency.", false, 0, 1.0, false, &e.kernel_s, err, errsize) ==
            JSON_BAD ||
        json_number(obj, "allreduce_step_s", path, "efficiency.", false, 0, 1.0, false, &e.allreduce_step_s, err,
                    errsize) == JSON_BAD ||
        json_number(obj, "link", path, "efficiency.", false, 1e-6, 1.0, false, &e.link, err, errsize) == JSON_BAD ||
        json_number(obj, "sm_count", path, "efficiency.", false, 0, 1e6, true, &sms, err, errsize) == JSON_BAD ||
        json_bool(obj, "calibrated", path, false, &e.calibrated, err, errsize) == JSON_BAD ||
        json_string(obj, "source", path, false, e.source, sizeof e.source, err, errsize) == JSON_BAD)
        return -1;
    e.sm_count = (int64_t)sms;
    e.present = true;
    const char *const known[] = {"matmul", "memory", "kernel_overhead_s", "allreduce_step_s", "link", "sm_count",
                                 "calibrated", "source", NULL};
    json_warn_unknown_keys(obj, known, path, "efficiency.", w);
    *out = e;
    return 0;
}

void efficiency_to_json(cJSON *obj, const struct efficiency_profile *e)
{
    cJSON *mm = cJSON_AddObjectToObject(obj, "matmul");
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        json_add_exact(mm, precision_name((enum rt_precision)p), e->matmul[p]);
    json_add_exact(obj, "memory", e->memory);
    json_add_exact(obj, "kernel_overhead_s", e->kernel_s);
    json_add_exact(obj, "allreduce_step_s", e->allreduce_step_s);
    json_add_exact(obj, "link", e->link);
    json_add_exact(obj, "sm_count", (double)e->sm_count);
    cJSON_AddBoolToObject(obj, "calibrated", e->calibrated);
    cJSON_AddStringToObject(obj, "source", e->source);
}

/* Reads key of obj as a figure where 0 or absence means unpublished: 0, or
 * a number in [lo, hi] (a physical range, chips.h). Leaves *out alone when
 * absent; JSON_BAD with "PATH: 'key' must be 0 (unpublished) or from LO to
 * HI (got V)" otherwise. */
static enum json_found figure_or_zero(const cJSON *obj, const char *key, const char *path, double lo, double hi,
                                      double *out, char *msg, size_t size)
{
    double v = 0.0;
    enum json_found f = json_number(obj, key, path, "", false, -INFINITY, INFINITY, false, &v, msg, size);
    if (f == JSON_FOUND && !(v == 0.0 || (v >= lo && v <= hi))) {
        char got[32], low[32], high[32];
        snprintf(msg, size, "%s: '%s' must be 0 (unpublished) or from %s to %s (got %s)", path, key,
                 format_exact(low, sizeof low, lo), format_exact(high, sizeof high, hi),
                 format_exact(got, sizeof got, v));
        return JSON_BAD;
    }
    if (f == JSON_FOUND)
        *out = v;
    return f;
}

/* Reads a chip file's peaks object into out[] (FLOP/s by precision): each
 * precision's name, bf16 required; "fp4" gives nvfp4 and mxfp4 both where
 * they are not named themselves; fp8-block left out runs at the fp8 peak.
 * halved: the file's peaks were halved once already (sparse_halved), so
 * the least accepted is half RT_MIN_PEAK_FLOPS. Returns 0, or -1 with msg. */
static int read_peaks(const cJSON *peaks, const char *path, const char *prefix, bool halved,
                      double out[RT_PRECISION_COUNT], char *msg, size_t size)
{
    double least = halved ? RT_MIN_PEAK_FLOPS / 2.0 : RT_MIN_PEAK_FLOPS;
    for (int p = 0; p < RT_PRECISION_COUNT; p++) {
        double v = 0;
        if (json_number(peaks, precision_name((enum rt_precision)p), path, prefix, p == RT_BF16, least,
                        RT_MAX_PEAK_FLOPS, false, &v, msg, size) == JSON_BAD)
            return -1;
        out[p] = v;
    }
    double fp4 = 0;
    if (json_number(peaks, "fp4", path, prefix, false, least, RT_MAX_PEAK_FLOPS, false, &fp4, msg, size) == JSON_BAD)
        return -1;
    if (!cJSON_GetObjectItemCaseSensitive(peaks, precision_name(RT_NVFP4)))
        out[RT_NVFP4] = fp4;
    if (!cJSON_GetObjectItemCaseSensitive(peaks, precision_name(RT_MXFP4)))
        out[RT_MXFP4] = fp4;
    if (!cJSON_GetObjectItemCaseSensitive(peaks, precision_name(RT_FP8_BLOCK)))
        out[RT_FP8_BLOCK] = out[RT_FP8];
    return 0;
}

/* A chip's "name" and "key" (from the name when none), and its peaks
 * ("peak_flops_per_s", or the old "peak_flops"), halved on load when
 * "sparse_halved" says they are 2:4-sparse figures; *sparse and *halved say
 * which of the two keys were set. Returns 0, or -1 with msg set. */
static int read_chip_peaks(const cJSON *obj, const char *path, struct chip_spec *c, bool *sparse, bool *halved,
                           struct load_warnings *w, char *msg, size_t msgsize)
{
    if (json_string(obj, "name", path, true, c->name, sizeof c->name, msg, msgsize) != JSON_FOUND)
        return -1;
    if (json_string(obj, "key", path, false, c->key, sizeof c->key, msg, msgsize) == JSON_BAD)
        return -1;
    if (c->key[0] == '\0')
        key_from_name(c->key, sizeof c->key, c->name);
    if (c->key[0] == '\0') {
        snprintf(msg, msgsize, "%s: 'name' needs at least one letter or digit", path);
        return -1;
    }
    const char *peaks_key = cJSON_GetObjectItemCaseSensitive(obj, "peak_flops_per_s") ? "peak_flops_per_s" : "peak_flops";
    const cJSON *peaks = cJSON_GetObjectItemCaseSensitive(obj, peaks_key);
    if (!cJSON_IsObject(peaks)) {
        snprintf(msg, msgsize, "%s: '%s' must be an object such as {\"bf16\": 989.4e12, \"fp8\": null}", path,
                 peaks ? peaks_key : "peak_flops_per_s");
        return -1;
    }
    char prefix[40];
    snprintf(prefix, sizeof prefix, "%s.", peaks_key);
    *sparse = *halved = false;
    if (json_bool(obj, "sparse", path, false, sparse, msg, msgsize) == JSON_BAD ||
        json_bool(obj, "sparse_halved", path, false, halved, msg, msgsize) == JSON_BAD)
        return -1;
    if (read_peaks(peaks, path, prefix, *halved, c->peak_flops_per_s, msg, msgsize) != 0)
        return -1;
    const char *known_precisions[RT_PRECISION_COUNT + 2];
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        known_precisions[p] = precision_name((enum rt_precision)p);
    known_precisions[RT_PRECISION_COUNT] = "fp4";
    known_precisions[RT_PRECISION_COUNT + 1] = NULL;
    json_warn_unknown_keys(peaks, known_precisions, path, prefix, w);
    return 0;
}

/* The chip's figures: HBM capacity and bandwidth, interconnect, TDP, the
 * vector, L2 and L1 rates, its sources and notes, conflicts and price.
 * Returns 0, or -1 with msg set. */
static int read_chip_figures(const cJSON *obj, const char *path, struct chip_spec *c, char *msg, size_t msgsize)
{
    /* The old spelling hbm_bw_bytes_per_s is still read, but a file with
     * neither is told the documented name. */
    const char *bw_key = cJSON_GetObjectItemCaseSensitive(obj, "hbm_bw_bytes_per_s") &&
                                 !cJSON_GetObjectItemCaseSensitive(obj, "hbm_bytes_per_s")
                             ? "hbm_bw_bytes_per_s"
                             : "hbm_bytes_per_s";
    double tdp = 0, interconnect = 0;
    if (json_number(obj, "hbm_bytes", path, "", true, RT_MIN_HBM_BYTES, RT_MAX_HBM_BYTES, false, &c->hbm_bytes, msg,
                    msgsize) != JSON_FOUND ||
        json_number(obj, bw_key, path, "", true, RT_MIN_BYTES_PER_S, RT_MAX_BYTES_PER_S, false, &c->hbm_bytes_per_s,
                    msg, msgsize) != JSON_FOUND ||
        figure_or_zero(obj, "interconnect_bytes_per_s", path, RT_MIN_BYTES_PER_S, RT_MAX_BYTES_PER_S, &interconnect,
                       msg, msgsize) == JSON_BAD ||
        figure_or_zero(obj, "tdp_w", path, 1, 1e6, &tdp, msg, msgsize) == JSON_BAD ||
        figure_or_zero(obj, "vector_flops_per_s", path, RT_MIN_PEAK_FLOPS, RT_MAX_PEAK_FLOPS, &c->vector_flops_per_s,
                       msg, msgsize) == JSON_BAD ||
        figure_or_zero(obj, "l2_bytes_per_s", path, RT_MIN_BYTES_PER_S, RT_MAX_BYTES_PER_S, &c->l2_bytes_per_s, msg,
                       msgsize) == JSON_BAD ||
        figure_or_zero(obj, "l1_bytes_per_s", path, RT_MIN_BYTES_PER_S, RT_MAX_BYTES_PER_S, &c->l1_bytes_per_s, msg,
                       msgsize) == JSON_BAD ||
        json_string(obj, "source", path, false, c->source, sizeof c->source, msg, msgsize) == JSON_BAD ||
        json_string(obj, "notes", path, false, c->notes, sizeof c->notes, msg, msgsize) == JSON_BAD ||
        conflicts_from_json(obj, path, c->conflicts, sizeof c->conflicts, msg, msgsize) != 0 ||
        figure_or_zero(obj, "price_usd_per_chip_hour", path, 1e-3, RT_MAX_PRICE_USD_PER_CHIP_HOUR,
                       &c->price_usd_per_chip_hour, msg, msgsize) == JSON_BAD ||
        json_string(obj, "price_source", path, false, c->price_source, sizeof c->price_source, msg, msgsize) ==
            JSON_BAD)
        return -1;
    c->interconnect_bytes_per_s = interconnect;
    c->tdp_w = tdp;
    if (strcmp(c->price_source, "unpublished") == 0) /* what chip_to_json writes for none */
        memset(c->price_source, 0, sizeof c->price_source);
    return 0;
}

/* The sparse peaks halved (once), the SM count, the scale-up domain and
 * scale-out link, and the efficiency block; *sms is the file's sm_count.
 * Returns 0, or -1 with msg set. */
static int read_chip_layout(const cJSON *obj, const char *path, struct chip_spec *c, bool sparse, bool halved,
                            double *sms, struct load_warnings *w, char *msg, size_t msgsize)
{
    if (sparse && halved) {
        snprintf(msg, msgsize, "%s: 'sparse' and 'sparse_halved' together would halve the peaks twice; keep one",
                 path);
        return -1;
    }
    if (sparse)
        for (int p = 0; p < RT_PRECISION_COUNT; p++)
            c->peak_flops_per_s[p] /= 2.0;
    c->sparse_halved = sparse || halved;
    *sms = 0;
    if (json_number(obj, "sm_count", path, "", false, 0, 1e6, true, sms, msg, msgsize) == JSON_BAD)
        return -1;
    c->efficiency.sm_count = (int64_t)*sms;
    double domain = 0;
    if (json_number(obj, "scale_up_domain", path, "", false, 0, (double)(1 << 24), true, &domain, msg, msgsize) ==
            JSON_BAD ||
        figure_or_zero(obj, "scale_out_bytes_per_s", path, RT_MIN_BYTES_PER_S, RT_MAX_BYTES_PER_S,
                       &c->scale_out_bytes_per_s, msg, msgsize) == JSON_BAD)
        return -1;
    c->scale_up_domain = (int64_t)domain;
    const cJSON *eff = cJSON_GetObjectItemCaseSensitive(obj, "efficiency");
    if (eff && !cJSON_IsNull(eff) && efficiency_from_json(eff, path, &c->efficiency, w, msg, msgsize) != 0)
        return -1;
    return 0;
}

/* Warns of figures that contradict each other, most likely a slip of
 * units: said, not corrected. */
static void warn_chip_contradictions(const char *path, const struct chip_spec *c, double sms, struct load_warnings *w)
{
    if (c->peak_flops_per_s[RT_FP8] > 0.0 && c->peak_flops_per_s[RT_FP8] < c->peak_flops_per_s[RT_BF16])
        warn_add(w, "%s: the fp8 peak (%.4g FLOP/s) is below the bf16 peak (%.4g): every chip rooftop knows runs "
                    "fp8 at least as fast; check its units",
                 path, c->peak_flops_per_s[RT_FP8], c->peak_flops_per_s[RT_BF16]);
    if (c->vector_flops_per_s > c->peak_flops_per_s[RT_BF16] && c->peak_flops_per_s[RT_BF16] > 0.0)
        warn_add(w, "%s: vector_flops_per_s (%.4g) is above the bf16 tensor peak (%.4g): the vector unit is the "
                    "slower one; check its units",
                 path, c->vector_flops_per_s, c->peak_flops_per_s[RT_BF16]);
    if (sms > 0 && c->efficiency.sm_count > 0 && c->efficiency.sm_count != (int64_t)sms) {
        /* two counts of one chip's SMs: the efficiency block's is the one the kernel models read */
        warn_add(w, "%s: 'sm_count' %lld and 'efficiency.sm_count' %lld disagree; the kernel models use %lld", path,
                 (long long)sms, (long long)c->efficiency.sm_count, (long long)c->efficiency.sm_count);
    }
}

int chip_from_json(const cJSON *obj, const char *path, const char *what, struct chip_spec *out,
                   struct load_warnings *w, char *err, size_t errsize)
{
    struct chip_spec c;
    memset(&c, 0, sizeof c);
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errsize, "%s: %s%sexpected a chip object {\"name\": ..., \"peak_flops_per_s\": {...}, ...}",
                 path, what, what[0] ? ": " : "");
        return -1;
    }
    char msg[300];
    bool sparse, halved;
    double sms;
    if (read_chip_peaks(obj, path, &c, &sparse, &halved, w, msg, sizeof msg) != 0 ||
        read_chip_figures(obj, path, &c, msg, sizeof msg) != 0 ||
        read_chip_layout(obj, path, &c, sparse, halved, &sms, w, msg, sizeof msg) != 0)
        goto bad;
    warn_chip_contradictions(path, &c, sms, w);
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(obj, "kernels");
    if (kernels && !cJSON_IsNull(kernels) && kernels_from_json(kernels, path, &c.kernels, w, msg, sizeof msg) != 0)
        goto bad;
    { /* a key of a list's chip reads "[1].junk"; of a scenario's, "chip.junk" */
        char keys_of[48] = "";
        int idx;
        if (sscanf(what, "chip [%d] of the list", &idx) == 1)
            snprintf(keys_of, sizeof keys_of, "[%d].", idx);
        else if (strcmp(what, "'chip'") == 0)
            snprintf(keys_of, sizeof keys_of, "chip.");
        else if (what[0])
            snprintf(keys_of, sizeof keys_of, "%.40s.", what);
        json_warn_unknown_keys(obj, chip_keys, path, keys_of, w);
    }
    snprintf(c.origin, sizeof c.origin, "%s", path);
    *out = c;
    return 0;
bad:
    if (what[0]) /* say which chip failed: of a list, of a scenario */
        snprintf(err, errsize, "%s (in %s)", msg, what);
    else
        snprintf(err, errsize, "%s", msg);
    return -1;
}

void chip_to_json(cJSON *obj, const struct chip_spec *c)
{
    cJSON_AddStringToObject(obj, "name", c->name);
    cJSON_AddStringToObject(obj, "key", c->key);
    cJSON *peaks = cJSON_AddObjectToObject(obj, "peak_flops_per_s");
    for (int p = 0; p < RT_PRECISION_COUNT; p++) {
        if (c->peak_flops_per_s[p] > 0.0)
            json_add_exact(peaks, precision_name((enum rt_precision)p), c->peak_flops_per_s[p]);
        else
            cJSON_AddNullToObject(peaks, precision_name((enum rt_precision)p));
    }
    json_add_exact(obj, "hbm_bytes", c->hbm_bytes);
    json_add_exact(obj, "hbm_bytes_per_s", c->hbm_bytes_per_s);
    json_add_exact(obj, "interconnect_bytes_per_s", c->interconnect_bytes_per_s);
    json_add_exact(obj, "scale_up_domain", (double)c->scale_up_domain);
    json_add_exact(obj, "scale_out_bytes_per_s", c->scale_out_bytes_per_s);
    if (c->tdp_w > 0.0)
        json_add_exact(obj, "tdp_w", c->tdp_w);
    else
        cJSON_AddNullToObject(obj, "tdp_w");
    if (c->vector_flops_per_s > 0.0)
        json_add_exact(obj, "vector_flops_per_s", c->vector_flops_per_s);
    else
        cJSON_AddNullToObject(obj, "vector_flops_per_s");
    if (c->l2_bytes_per_s > 0.0) /* written only when stated: no built-in chip has them */
        json_add_exact(obj, "l2_bytes_per_s", c->l2_bytes_per_s);
    if (c->l1_bytes_per_s > 0.0)
        json_add_exact(obj, "l1_bytes_per_s", c->l1_bytes_per_s);
    cJSON_AddStringToObject(obj, "source", c->source);
    cJSON_AddStringToObject(obj, "notes", c->notes);
    cJSON *conflicts = cJSON_AddArrayToObject(obj, "conflicts");
    for (const char *p = c->conflicts; *p;) {
        size_t n = strcspn(p, "\n");
        char line[RT_CHIP_CONFLICT_LINE_MAX];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        cJSON_AddItemToArray(conflicts, cJSON_CreateString(line));
        p += n + (p[n] == '\n');
    }
    if (c->price_usd_per_chip_hour > 0.0)
        json_add_exact(obj, "price_usd_per_chip_hour", c->price_usd_per_chip_hour);
    else
        cJSON_AddNullToObject(obj, "price_usd_per_chip_hour");
    cJSON_AddStringToObject(obj, "price_source", c->price_source[0] ? c->price_source : "unpublished");
    cJSON_AddBoolToObject(obj, "sparse_halved", c->sparse_halved);
    json_add_exact(obj, "sm_count", (double)c->efficiency.sm_count);
    if (c->efficiency.present)
        efficiency_to_json(cJSON_AddObjectToObject(obj, "efficiency"), &c->efficiency);
    else
        cJSON_AddNullToObject(obj, "efficiency");
    if (c->kernels.from[0] || c->kernels.count > 0)
        kernels_to_json(cJSON_AddObjectToObject(obj, "kernels"), &c->kernels);
}

int chips_from_text(const char *text, size_t len, const char *path, struct chip_spec *chips, size_t max,
                    size_t *count, struct load_warnings *w, char *err, size_t errsize)
{
    *count = 0;
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    int status = 0;
    if (cJSON_IsArray(root)) {
        int n = cJSON_GetArraySize(root);
        if (n == 0 || (size_t)n > max) {
            snprintf(err, errsize, "%s: expected from 1 to %zu chips in the list (got %d)", path, max, n);
            status = -1;
        }
        for (int i = 0; status == 0 && i < n; i++) {
            char what[40];
            snprintf(what, sizeof what, "chip [%d] of the list", i);
            status = chip_from_json(cJSON_GetArrayItem(root, i), path, what, &chips[i], w, err, errsize);
            if (status == 0)
                (*count)++;
        }
    } else {
        status = chip_from_json(root, path, "", &chips[0], w, err, errsize);
        if (status == 0)
            *count = 1;
    }
    cJSON_Delete(root);
    return status;
}

int chip_db_init(struct chip_db *db)
{
    memset(db, 0, sizeof *db);
    for (size_t i = 0; i < chip_builtin_count(); i++)
        if (chip_db_add(db, chip_builtin(i), NULL) != 0)
            return -1;
    return 0;
}

int chip_db_add(struct chip_db *db, const struct chip_spec *c, struct load_warnings *w)
{
    for (size_t i = 0; i < db->count; i++) {
        if (strcmp(db->chips[i].key, c->key) == 0) {
            warn_add(w, "%s: chip '%s' replaces the one from %s", c->origin, c->key, db->chips[i].origin);
            db->chips[i] = *c;
            return 0;
        }
    }
    if (db->count == db->cap) {
        size_t cap = db->cap ? db->cap * 2 : 32;
        struct chip_spec *p = realloc(db->chips, cap * sizeof *p);
        if (!p)
            return -1;
        db->chips = p;
        db->cap = cap;
    }
    db->chips[db->count++] = *c;
    return 0;
}

const struct chip_spec *chip_db_find(const struct chip_db *db, const char *name)
{
    return chip_list_find(chip_db_list(db), name);
}

struct chip_list chip_db_list(const struct chip_db *db)
{
    struct chip_list list = {db->chips, db->count};
    return list;
}

void chip_db_free(struct chip_db *db)
{
    free(db->chips);
    memset(db, 0, sizeof *db);
}

int engine_from_text(const char *text, size_t len, const char *path, struct engine_profile *out,
                     struct load_warnings *w, char *err, size_t errsize)
{
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    int status = -1;
    struct engine_profile e = *engine_find("generic");
    e.calibrated = false;
    snprintf(e.source, sizeof e.source, "%s", path);
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsize, "%s: expected an engine object {\"name\": ..., \"step_overhead_s\": ..., "
                               "\"attention\": ..., \"moe\": ...}",
                 path);
        goto done;
    }
    if (json_string(root, "name", path, true, e.name, sizeof e.name, err, errsize) != JSON_FOUND ||
        json_number(root, "step_overhead_s", path, "", false, 0, 10, false, &e.step_s, err, errsize) == JSON_BAD ||
        json_number(root, "request_overhead_s", path, "", false, 0, 10, false, &e.request_s, err, errsize) ==
            JSON_BAD ||
        json_number(root, "frontend_s", path, "", false, 0, 10, false, &e.frontend_s, err, errsize) == JSON_BAD ||
        json_number(root, "attention", path, "", false, 1e-6, 1, false, &e.attention, err, errsize) == JSON_BAD ||
        json_number(root, "moe", path, "", false, 1e-6, 1, false, &e.moe, err, errsize) == JSON_BAD ||
        json_bool(root, "calibrated", path, false, &e.calibrated, err, errsize) == JSON_BAD ||
        json_string(root, "source", path, false, e.source, sizeof e.source, err, errsize) == JSON_BAD)
        goto done;
    bool blank = true;
    for (const char *c = e.name; *c && blank; c++)
        blank = *c == ' ' || *c == '\t';
    if (blank) { /* "engine , 500.0 us" names nothing */
        snprintf(err, errsize, "%s: 'name' is empty: give the engine a name (\"name\": \"my-vllm\")", path);
        goto done;
    }
    const char *const known[] = {"name", "step_overhead_s", "request_overhead_s", "frontend_s", "attention", "moe",
                                 "calibrated", "source", NULL};
    json_warn_unknown_keys(root, known, path, "", w);
    *out = e;
    status = 0;
done:
    cJSON_Delete(root);
    return status;
}

void engine_to_json(cJSON *obj, const struct engine_profile *e)
{
    cJSON_AddStringToObject(obj, "name", e->name);
    json_add_exact(obj, "step_overhead_s", e->step_s);
    json_add_exact(obj, "request_overhead_s", e->request_s);
    json_add_exact(obj, "frontend_s", e->frontend_s);
    json_add_exact(obj, "attention", e->attention);
    json_add_exact(obj, "moe", e->moe);
    cJSON_AddBoolToObject(obj, "calibrated", e->calibrated);
    cJSON_AddStringToObject(obj, "source", e->source);
}
