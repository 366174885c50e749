/* measured.c — measurements from CSV files (see measured.h). */
#include "measured.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "profile_kineto.h"
#include "profile_ncu.h"
#include "profile_rocprof.h"
#include "units.h"

#define MAX_FIELDS 32

/* Line number of byte offset pos. */
static int line_of(const char *text, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos; i++)
        line += text[i] == '\n';
    return line;
}

/* The next record after the header: 1 with its fields in f, *k of them,
 * and its line number; 0 at the end; -1 with err set for an unclosed quote. */
static int next_row(const char *path, const char *text, size_t len, size_t *pos, char f[][CSV_FIELD_MAX], int *k, int *line,
                    char *err, size_t errsize)
{
    size_t start = *pos;
    *k = csv_record(text, len, pos, f, MAX_FIELDS);
    if (*k == 0)
        return 0;
    while (start < len && (text[start] == '\n' || text[start] == '\r')) /* the record's own first byte */
        start++;
    *line = line_of(text, start);
    if (*k < 0) {
        if (*k == -2)
            snprintf(err, errsize, "%s:%d: a field is longer than %d bytes, or the row has more than %d fields", path,
                     *line, CSV_FIELD_MAX - 1, MAX_FIELDS);
        else
            snprintf(err, errsize, "%s:%d: a quote is never closed", path, *line);
        return -1;
    }
    return 1;
}


/* A positive finite number. */
static int positive(const char *text, double *out)
{
    return parse_number(text, out) == 0 && *out > 0.0 ? 0 : -1;
}

/* One point from a record's fields: label, flops, bytes, seconds[,
 * precision]. Returns 0, or -1 with the reason in why. */
static int point_fields(char f[][CSV_FIELD_MAX], int k, bool with_precision, struct measured_point *p, char *why, size_t size)
{
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", f[0]);
    p->precision = RT_BF16;
    /* Physical ranges: a kernel's work up to an exaFLOP and a petabyte, its
     * time from a nanosecond to a day (below, a rate would be infinite). */
    if (parse_number(f[1], &p->flops) != 0 || !(p->flops >= 0.0 && p->flops <= 1e21)) {
        snprintf(why, size, "flops '%s' is not a number from 0 to 1e21", f[1]);
        return -1;
    }
    if (positive(f[2], &p->bytes) != 0 || positive(f[3], &p->seconds) != 0 || !(p->bytes >= 1.0 && p->bytes <= 1e18) ||
        !(p->seconds >= 1e-9 && p->seconds <= 86400.0)) {
        snprintf(why, size, "bytes must be from 1 to 1e18, seconds from 1e-9 to 86400 (got '%s', '%s')", f[2],
                 f[3]);
        return -1;
    }
    if (with_precision && k > 4 && (strcmp(f[4], "fp32") == 0 || strcmp(f[4], "fp64") == 0)) {
        p->vector_unit = true; /* CUDA-core work: the vector roof */
        return 0;
    }
    if (with_precision && k > 4 && strcmp(f[4], "fp16") == 0) {
        p->precision = RT_BF16; /* the same tensor-core peak as bf16 on every chip rooftop knows */
        return 0;
    }
    if (with_precision && k > 4 && f[4][0] && precision_parse(f[4], &p->precision) != 0) {
        char hint[160];
        snprintf(why, size, "precision '%s': %s", f[4], precision_refusal(hint, sizeof hint, f[4]));
        return -1;
    }
    return 0;
}

/* An Nsight Compute export's kernels as points. */
static int ncu_file_points(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                           size_t *count, struct load_warnings *w, char *err, size_t errsize)
{
    struct ncu_kernel *kernels = malloc(RT_MAX_POINTS * 4 * sizeof *kernels);
    size_t n = 0, skipped = 0;
    if (!kernels) {
        snprintf(err, errsize, "%s: out of memory", path);
        return -1;
    }
    int rc = ncu_read(path, text, len, kernels, RT_MAX_POINTS * 4, &n, err, errsize);
    if (rc == 0)
        rc = ncu_points(path, kernels, n, points, max, count, &skipped, err, errsize);
    if (rc == 0 && skipped > 0)
        warn_add(w, "%s: %zu of its %zu kernels have no time or no DRAM bytes in the export: left off", path, skipped,
                 n);
    free(kernels);
    return rc;
}

/* True when a profile's GPU name (deviceProperties: "NVIDIA H100 80GB
 * HBM3") names chip key's part ("h100" of "h100-pcie", "a100" of
 * "a100-80"), ignoring case. */
static bool device_is_chip(const char *device, const char *key)
{
    char part[32], low[128];
    size_t n = strcspn(key, "-");
    snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part - 1 ? n : sizeof part - 1), key);
    size_t i = 0;
    for (; device[i] && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)device[i]);
    low[i] = '\0';
    return part[0] && strstr(low, part) != NULL;
}

/* A Kineto trace's groups as points: streamed from file when it is given,
 * else read from text (len bytes). */
static int kineto_trace_points(const char *file, const char *shown, const char *text, size_t len,
                               struct measured_point *points, size_t max, size_t *count, struct points_context *ctx,
                               struct load_warnings *w, char *err, size_t errsize)
{
    struct kineto_trace t;
    int rc = file ? kineto_read_path(file, shown, &t, err, errsize)
                  : kineto_read_memory(shown, text, len, &t, err, errsize);
    if (rc == 0)
        rc = kineto_points(shown, &t, points, max, count, ctx, w, err, errsize);
    kineto_free(&t);
    return rc;
}

/* rocprof-compute writes its measured ceilings (roofline.csv) in the
 * workload folder beside pmc_perf.csv: read them into ctx when they are
 * there, and say so. */
static void roofline_beside(const char *path, struct points_context *ctx, struct load_warnings *w)
{
    char sibling[4096 + 16], err[300], *text;
    const char *slash = strrchr(path, '/');
    int n = slash ? snprintf(sibling, sizeof sibling, "%.*sroofline.csv", (int)(slash - path + 1), path)
                  : snprintf(sibling, sizeof sibling, "roofline.csv");
    size_t len;
    if (n <= 0 || (size_t)n >= sizeof sibling || access(sibling, R_OK) != 0 ||
        read_file(sibling, &text, &len, err, sizeof err) != 0)
        return;
    double hbm, l2, l1;
    if (rocprof_roofline_ceilings(text, len, &hbm, &l2, &l1) == 0) {
        ctx->hbm_measured_bytes_per_s = hbm;
        ctx->l2_bytes_per_s = l2;
        ctx->l1_bytes_per_s = l1;
        char buf[200];
        const char *shown = path_shown(buf, sizeof buf, sibling);
        snprintf(ctx->ceilings_source, sizeof ctx->ceilings_source, "%.130s (measured, device 0)", shown);
        note_add(w, "%s: measured ceilings read: HBM %.1f GB/s, L2 %.1f GB/s, L1 %.1f GB/s", shown, hbm / 1e9,
                 l2 / 1e9, l1 / 1e9);
    }
    free(text);
}

int measured_points_read_path(const char *path, const char *shown, struct measured_point *points, size_t max,
                              size_t *count, struct points_context *ctx, struct load_warnings *w, char *err,
                              size_t errsize)
{
    *count = 0;
    if (ctx)
        memset(ctx, 0, sizeof *ctx);
    if (kineto_file_looks_like(path))
        return kineto_trace_points(path, shown, NULL, 0, points, max, count, ctx, w, err, errsize);
    char *text;
    size_t len;
    if (read_file_limit(path, RT_MAX_PROFILE_BYTES, &text, &len, err, errsize) != 0)
        return -1;
    bool pmc = rocprof_pmc_looks_like(text, len);
    int rc = measured_points_read(shown, text, len, points, max, count, w, err, errsize);
    free(text);
    if (rc == 0 && pmc && ctx)
        roofline_beside(path, ctx, w);
    return rc;
}

static int points_read_ctx(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                           size_t *count, struct points_context *ctx, struct load_warnings *w, char *err,
                           size_t errsize);

int measured_points_read(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                         size_t *count, struct load_warnings *w, char *err, size_t errsize)
{
    return points_read_ctx(path, text, len, points, max, count, NULL, w, err, errsize);
}

/* measured_points_read, with what a trace says beyond its kernels in ctx (may be NULL). */
static int points_read_ctx(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                           size_t *count, struct points_context *ctx, struct load_warnings *w, char *err,
                           size_t errsize)
{
    char f[MAX_FIELDS][CSV_FIELD_MAX];
    size_t pos = 0;
    *count = 0;
    if (ctx)
        memset(ctx, 0, sizeof *ctx);
    if (kineto_looks_like(text, len))
        return kineto_trace_points(NULL, path, text, len, points, max, count, ctx, w, err, errsize);
    size_t nul = csv_nul_line(text, len);
    if (nul) {
        snprintf(err, errsize, "%s:%zu: a NUL byte: not a text CSV (a field would be cut short at it)", path, nul);
        return -1;
    }
    if (rocprof_pmc_looks_like(text, len))
        return rocprof_pmc_points(path, text, len, points, max, count, w, err, errsize);
    if (profile_time_only(path, text, len, err, errsize))
        return -1;
    if (ncu_looks_like(text, len))
        return ncu_file_points(path, text, len, points, max, count, w, err, errsize);
    if (tracelens_looks_like(text, len))
        return tracelens_points(path, text, len, points, max, count, w, err, errsize);
    int n = csv_record(text, len, &pos, f, MAX_FIELDS);
    if (n < 4 || strcmp(f[0], "label") != 0 || strcmp(f[1], "flops") != 0 || strcmp(f[2], "bytes") != 0 ||
        strcmp(f[3], "seconds") != 0 || (n > 4 && strcmp(f[4], "precision") != 0)) {
        snprintf(err, errsize, "%s:1: expected the header label,flops,bytes,seconds (and optionally precision), an "
                               "Nsight Compute CSV export, a TraceLens table, a rocprof-compute pmc_perf.csv or a "
                               "PyTorch profiler (Kineto) trace",
                 path);
        return -1;
    }
    bool with_precision = n > 4;
    char why[300];
    int k, line, rc;
    while ((rc = next_row(path, text, len, &pos, f, &k, &line, err, errsize)) != 0) {
        if (rc < 0)
            return -1;
        if (k < 4) {
            snprintf(err, errsize, "%s:%d: expected label,flops,bytes,seconds", path, line);
            return -1;
        }
        int extra = n;
        while (extra < k && !f[extra][0]) /* empty trailing fields (a spreadsheet's commas) are nothing */
            extra++;
        if (extra < k) { /* a field the header does not name (a precision under a four-column header) */
            snprintf(err, errsize, "%s:%d: %d fields under a header of %d (%s): the header names no column for '%s'",
                     path, line, k, n, n > 4 ? "label,flops,bytes,seconds,precision" : "label,flops,bytes,seconds",
                     f[extra]);
            return -1;
        }
        if (*count >= max) {
            snprintf(err, errsize, "%s:%d: more than %zu points", path, line, max);
            return -1;
        }
        if (point_fields(f, k, with_precision, &points[*count], why, sizeof why) != 0) {
            snprintf(err, errsize, "%s:%d: %s", path, line, why);
            return -1;
        }
        (*count)++;
    }
    if (*count == 0) {
        snprintf(err, errsize, "%s: no rows after the header", path);
        return -1;
    }
    return 0;
}

int split_words(const char *text, char words[][CSV_FIELD_MAX], int max)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        if (n >= max) {
            while (*p == ' ' || *p == '\t')
                p++;
            return *p ? -1 : n;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        size_t used = 0;
        char quote = 0;
        while (*p && (quote || (*p != ' ' && *p != '\t'))) {
            if (!quote && (*p == '\'' || *p == '"')) {
                quote = *p++;
                continue;
            }
            if (quote && *p == quote) {
                quote = 0;
                p++;
                continue;
            }
            if (used + 1 < CSV_FIELD_MAX)
                words[n][used++] = *p;
            p++;
        }
        words[n][used] = '\0';
        n++;
    }
    return n;
}

/* The level of a case row from its category. */
static const char *level_of(const char *category)
{
    if (strncmp(category, "kernel", 6) == 0)
        return "kernel";
    if (strcmp(category, "step_prefill") == 0)
        return "prefill step";
    if (strcmp(category, "step_decode") == 0)
        return "decode step";
    if (strcmp(category, "e2e_static") == 0)
        return "generation";
    return "other";
}

/* Builds one case row's scenario from its flags. */
static int case_scenario(const char *path, int line, const char *args, const char *engine, struct scenario *out,
                         char *ran, size_t ransize, scenario_from_flags_fn parse, char *err, size_t errsize)
{
    /* {configs} is the configs folder beside the file. */
    char dir[1024], expanded[CSV_FIELD_MAX];
    int dn = snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    size_t used = 0;
    bool fits = dn >= 0 && (size_t)dn < sizeof dir;
    for (const char *p = args; *p && fits;) {
        if (strncmp(p, "{configs}", 9) == 0) {
            int k = snprintf(expanded + used, sizeof expanded - used, "%sconfigs", dir);
            fits = k >= 0 && used + (size_t)k < sizeof expanded;
            used += fits ? (size_t)k : 0;
            p += 9;
        } else if (used + 1 < sizeof expanded) {
            expanded[used++] = *p++;
        } else {
            fits = false;
        }
    }
    expanded[used] = '\0';
    int wrote = snprintf(ran, ransize, "%s%s%s", expanded, engine[0] && engine_find(engine) ? " --engine " : "",
                         engine[0] && engine_find(engine) ? engine : "");
    if (wrote < 0 || (size_t)wrote >= ransize)
        ran[0] = '\0'; /* never a row's flags cut short: none, rather than other ones */
    static char words[64][CSV_FIELD_MAX];
    int n = fits ? split_words(expanded, words, 62) : -1;
    if (n < 0) { /* never run a row on flags cut short: they could name another file */
        snprintf(err, errsize, "%s:%d: rooftop_args: too long (with {configs} expanded: at most %d bytes, 62 words)",
                 path, line, CSV_FIELD_MAX - 1);
        return -1;
    }
    char *argv[66];
    argv[0] = (char *)"rooftop";
    for (int i = 0; i < n; i++)
        argv[i + 1] = words[i];
    static char engine_flag[] = "--engine", engine_word[CSV_FIELD_MAX];
    if (engine[0]) { /* the engine column as the flag: a misspelt one is refused as --engine refuses it */
        snprintf(engine_word, sizeof engine_word, "%s", engine);
        argv[++n] = engine_flag;
        argv[++n] = engine_word;
    }
    argv[n + 1] = NULL;
    char why[600];
    int rc = parse ? parse(n + 1, argv, out, why, sizeof why) : -1;
    if (!parse)
        snprintf(why, sizeof why, "no reader of flags was given for case rows");
    if (rc != 0) {
        snprintf(err, errsize, "%s:%d: rooftop_args: %s", path, line, why);
        return -1;
    }
    return 0;
}

int measured_read(const char *path, const char *text, size_t len, const struct scenario *base,
                  scenario_from_flags_fn parse, struct observation **out, size_t *count, struct load_warnings *w,
                  char *err, size_t errsize)
{
    *out = NULL;
    *count = 0;
    if (ncu_looks_like(text, len) || tracelens_looks_like(text, len) || kineto_looks_like(text, len) ||
        rocprof_pmc_looks_like(text, len) || profile_time_only(path, text, len, err, errsize)) {
        /* a profiler's kernels as points */
        struct measured_point *pts = malloc(RT_MAX_POINTS * 4 * sizeof *pts);
        size_t np = 0;
        struct points_context ctx;
        if (!pts || points_read_ctx(path, text, len, pts, RT_MAX_POINTS * 4, &np, &ctx, w, err, errsize) != 0) {
            if (!pts)
                snprintf(err, errsize, "out of memory");
            free(pts);
            return -1;
        }
        struct observation *obs = calloc(np, sizeof *obs);
        if (!obs) {
            free(pts);
            snprintf(err, errsize, "out of memory");
            return -1;
        }
        if (ctx.device[0] && !device_is_chip(ctx.device, base->chip.key))
            warn_add(w, "%s: profiled on %s, fitted as %s: the fit describes the profile's GPU, not %s (give --chip "
                        "for the GPU it ran on)",
                     path, ctx.device, base->chip.key, base->chip.key);
        size_t kept = 0, vector = 0, uncounted = 0;
        for (size_t i = 0; i < np; i++) {
            if (pts[i].vector_unit) { /* no matmul efficiency to fit in FP32 work off the tensor cores */
                vector++;
                continue;
            }
            enum point_kind kind = pts[i].kind != POINT_KIND_UNKNOWN ? pts[i].kind : point_kind_from_name(pts[i].label);
            if (pts[i].flops == 0.0 &&
                (kind == POINT_KIND_GEMM || kind == POINT_KIND_ATTENTION || kind == POINT_KIND_MOE)) {
                uncounted++; /* compute work whose FLOPs the file did not count: its time is not its bytes' */
                continue;
            }
            struct observation *o = &obs[kept++];
            o->scenario = *base;
            snprintf(o->id, sizeof o->id, "%.*s", (int)sizeof o->id - 1, pts[i].label);
            snprintf(o->level, sizeof o->level, "point");
            o->point = true;
            o->flops = pts[i].flops;
            o->bytes = pts[i].bytes;
            o->measured_s = pts[i].seconds;
            o->precision = pts[i].precision;
            o->kernels = pts[i].kernels;
        }
        free(pts);
        if (vector)
            warn_add(w, "%s: %zu of its %zu kernels %s FP32/FP64 work off the tensor cores: left out of the fit "
                        "(it fits matmul and memory efficiencies)",
                     path, vector, np, vector == 1 ? "is" : "are");
        if (uncounted)
            warn_add(w, "%s: %zu of its %zu kernels %s GEMMs or attention without counted FLOPs: left out of the fit "
                        "(their time is their compute, not their bytes)",
                     path, uncounted, np, uncounted == 1 ? "is" : "are");
        if (kept == 0) {
            free(obs);
            snprintf(err, errsize, "%s: no kernel to fit among its %zu: FP32/FP64 work off the tensor cores, or "
                                   "compute without counted FLOPs",
                     path, np);
            return -1;
        }
        *out = obs;
        *count = kept;
        return 0;
    }
    size_t nul = csv_nul_line(text, len);
    if (nul) {
        snprintf(err, errsize, "%s:%zu: a NUL byte: not a text CSV (a field would be cut short at it)", path, nul);
        return -1;
    }
    size_t pos = 0;
    static char header[MAX_FIELDS][CSV_FIELD_MAX], f[MAX_FIELDS][CSV_FIELD_MAX];
    int nh = csv_record(text, len, &pos, header, MAX_FIELDS);
    if (nh <= 0) {
        snprintf(err, errsize, "%s: empty, or a quote is never closed in the header, or it has more than %d columns",
                 path, MAX_FIELDS);
        return -1;
    }
    bool points = nh >= 4 && strcmp(header[0], "label") == 0;
    int c_id = csv_column(header, nh, "id"), c_cat = csv_column(header, nh, "category"), c_eng = csv_column(header, nh, "engine");
    int c_meas = csv_column(header, nh, "measured_s"), c_args = csv_column(header, nh, "rooftop_args");
    int c_metric = csv_column(header, nh, "rooftop_metric"), c_expr = csv_column(header, nh, "expressible");
    if (!points && (c_meas < 0 || c_args < 0 || c_metric < 0)) {
        snprintf(err, errsize, "%s:1: expected the header label,flops,bytes,seconds[,precision], or rooftop's "
                               "measurement columns (measured_s, rooftop_args, rooftop_metric, ...)",
                 path);
        return -1;
    }
    size_t cap = 16, n = 0;
    struct observation *obs = malloc(cap * sizeof *obs);
    if (!obs) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    int k, line, rc;
    while ((rc = next_row(path, text, len, &pos, f, &k, &line, err, errsize)) != 0) {
        if (rc < 0)
            goto fail;
        if (n == cap) {
            cap *= 2;
            struct observation *grown = realloc(obs, cap * sizeof *obs);
            if (!grown) {
                snprintf(err, errsize, "out of memory");
                goto fail;
            }
            obs = grown;
        }
        struct observation *o = &obs[n];
        memset(o, 0, sizeof *o);
        o->scenario = *base;
        if (points) {
            struct measured_point p;
            char why[300];
            int extra = nh;
            while (extra < k && !f[extra][0])
                extra++;
            if (extra < k) {
                snprintf(err, errsize, "%s:%d: %d fields under a header of %d: the header names no column for '%s'",
                         path, line, k, nh, f[extra]);
                goto fail;
            }
            if (k < 4 || point_fields(f, k, nh > 4, &p, why, sizeof why) != 0) {
                snprintf(err, errsize, "%s:%d: %s", path, line, k < 4 ? "expected label,flops,bytes,seconds" : why);
                goto fail;
            }
            snprintf(o->id, sizeof o->id, "%.*s", (int)sizeof o->id - 1, p.label);
            snprintf(o->level, sizeof o->level, "point");
            o->point = true;
            o->flops = p.flops;
            o->bytes = p.bytes;
            o->measured_s = p.seconds;
            o->precision = p.precision;
            n++;
            continue;
        }
        if (c_expr >= 0 && c_expr < k && strcmp(f[c_expr], "no") == 0)
            continue;
        snprintf(o->id, sizeof o->id, "%s", c_id >= 0 && c_id < k ? f[c_id] : "row");
        snprintf(o->level, sizeof o->level, "%s", level_of(c_cat >= 0 && c_cat < k ? f[c_cat] : ""));
        if (c_meas >= k || positive(f[c_meas], &o->measured_s) != 0) {
            snprintf(err, errsize, "%s:%d: measured_s must be a number of seconds above 0", path, line);
            goto fail;
        }
        if (c_metric >= k || metric_check(f[c_metric], err, errsize) != 0) {
            char why[300];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, errsize, "%s:%d: %s", path, line, why);
            goto fail;
        }
        o->line = line;
        snprintf(o->metric, sizeof o->metric, "%s", f[c_metric]);
        if (case_scenario(path, line, c_args < k ? f[c_args] : "", c_eng >= 0 && c_eng < k ? f[c_eng] : "",
                          &o->scenario, o->args, sizeof o->args, parse, err, errsize) != 0)
            goto fail;
        n++;
    }
    if (n == 0) {
        snprintf(err, errsize, "%s: no measurements after the header", path);
        goto fail;
    }
    (void)w;
    *out = obs;
    *count = n;
    return 0;
fail:
    free(obs);
    return -1;
}
