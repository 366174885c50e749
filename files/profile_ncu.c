/* profile_ncu.c — Nsight Compute CSV exports (see profile_ncu.h). */
#include "profile_ncu.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "units.h"

#define NCU_MAX_COLUMNS 4096 /* a raw page holds about 500 metric columns */

/* The index of the column named name among head[0..n), or -1. */
static int column(char head[][CSV_FIELD_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return i;
    return -1;
}

/* What one kernel's metrics add up to while the file is read. */
struct tally {
    char id[32];
    char name[CSV_FIELD_MAX];
    double gpu_time, cycles, cycle_rate, dram, dram_read, dram_write, l2, l1;
    double sass[3][3]; /* fp32, fp16, fp64 x add, mul, fma; negative = absent */
    double tensor[RT_PRECISION_COUNT];
    bool any_tensor, any_sass;
    char refused[96]; /* a time or DRAM metric present whose unit or value rooftop does not read */
    uint64_t seen[64]; /* hashes of the metrics read, to find one given twice */
    int seen_n;
    char twice[64];    /* a metric the kernel's rows give twice ("" none) */
};

static uint64_t metric_hash(const char *name)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return h;
}

/* Notes that the kernel has metric name; one seen before is kept in twice. */
static void tally_seen(struct tally *t, const char *name)
{
    uint64_t h = metric_hash(name);
    for (int i = 0; i < t->seen_n; i++)
        if (t->seen[i] == h) {
            if (!t->twice[0])
                snprintf(t->twice, sizeof t->twice, "%.63s", name);
            return;
        }
    if (t->seen_n < (int)(sizeof t->seen / sizeof t->seen[0]))
        t->seen[t->seen_n++] = h;
}

static void tally_init(struct tally *t)
{
    memset(t, 0, sizeof *t);
    t->gpu_time = t->cycles = t->cycle_rate = t->dram = t->dram_read = t->dram_write = t->l2 = t->l1 = -1.0;
}

/* A metric value as a number: thousands separators dropped; "n/a", "" and
 * anything else not a number give false (missing, never 0). */
static bool value_of(const char *text, double *out)
{
    char clean[64];
    size_t n = 0;
    /* Commas only as thousands separators: 1 to 3 digits, then groups of exactly 3, before any point. */
    const char *comma = strchr(text, ',');
    if (comma) {
        const char *c = text;
        if (*c == '-' || *c == '+')
            c++;
        int lead = 0;
        while (isdigit((unsigned char)c[lead]))
            lead++;
        if (lead < 1 || lead > 3)
            return false;
        c += lead;
        while (*c == ',') {
            if (!(isdigit((unsigned char)c[1]) && isdigit((unsigned char)c[2]) && isdigit((unsigned char)c[3])) ||
                isdigit((unsigned char)c[4]))
                return false;
            c += 4;
        }
        if (strchr(c, ','))
            return false;
    }
    for (const char *c = text; *c && n + 1 < sizeof clean; c++)
        if (*c != ',' && *c != ' ')
            clean[n++] = *c;
    clean[n] = '\0';
    if (n == 0 || strcmp(clean, "n/a") == 0)
        return false;
    return parse_number(clean, out) == 0 && isfinite(*out);
}

/* The scale of a unit with an SI prefix onto base (one of "second", "byte",
 * "cycle", "inst"): "nsecond" 1e-9, "us" 1e-6, "Mbyte" 1e6, "cycle/second"
 * 1, "Gcycle/second" 1e9, "cycle/nsecond" 1e9. 0 when the unit is another. */
static double unit_scale(const char *unit, const char *base)
{
    static const struct {
        const char *name;
        double scale;
    } seconds[] = {{"ns", 1e-9}, {"nsecond", 1e-9}, {"us", 1e-6}, {"usecond", 1e-6}, {"ms", 1e-3}, {"msecond", 1e-3},
                   {"s", 1.0},   {"second", 1.0}};
    if (strcmp(base, "second") == 0) {
        for (size_t i = 0; i < sizeof seconds / sizeof seconds[0]; i++)
            if (strcmp(unit, seconds[i].name) == 0)
                return seconds[i].scale;
        return 0.0;
    }
    const char *slash = strchr(unit, '/');
    char head[32];
    snprintf(head, sizeof head, "%.*s", slash ? (int)(slash - unit) : (int)strlen(unit), unit);
    double scale = 1.0;
    size_t b = strlen(base), h = strlen(head);
    if (h == b + 1 && strcmp(head + 1, base) == 0) {
        const char *prefixes = "KMGTP";
        const char *p = strchr(prefixes, head[0]);
        if (!p || !head[0])
            return 0.0;
        scale = pow(1e3, (double)(p - prefixes + 1));
    } else if (strcmp(head, base) != 0 && !(h == 0 && strcmp(base, "inst") == 0)) {
        return 0.0;
    }
    if (slash) { /* a rate: per the time unit after the slash */
        double per = unit_scale(slash + 1, "second");
        return per > 0.0 ? scale / per : 0.0;
    }
    return scale;
}

/* Which tensor dtype a metric name's src_<dtype> names. */
static bool tensor_dtype(const char *name, enum rt_precision *p)
{
    const char *src = strstr(name, "_src_");
    if (!src)
        return false;
    src += 5;
    if (strncmp(src, "bf16", 4) == 0 || strncmp(src, "fp16", 4) == 0 || strncmp(src, "tf32", 4) == 0 ||
        strncmp(src, "fp32", 4) == 0 || strncmp(src, "fp64", 4) == 0)
        *p = RT_BF16; /* the 16-bit roof is the closest rooftop draws */
    else if (strncmp(src, "fp8", 3) == 0)
        *p = RT_FP8;
    else if (strncmp(src, "fp4", 3) == 0 || strncmp(src, "fp6", 3) == 0)
        *p = RT_NVFP4;
    else if (strncmp(src, "int8", 4) == 0)
        *p = RT_INT8;
    else if (strncmp(src, "int4", 4) == 0)
        *p = RT_INT4;
    else
        *p = RT_BF16;
    return true;
}

/* Adds one metric to a kernel's tally. */
static void tally_metric(struct tally *t, const char *name, const char *unit, const char *text)
{
    double v;
    bool needed = strcmp(name, "gpu__time_duration.sum") == 0 || strncmp(name, "dram__bytes", 11) == 0 ||
                  strncmp(name, "sm__cycles_elapsed.avg", 22) == 0;
    bool read = value_of(text, &v);
    double scale = !needed ? 1.0
                   : strcmp(name, "gpu__time_duration.sum") == 0 ? unit_scale(unit, "second")
                   : strncmp(name, "dram__bytes", 11) == 0 ? unit_scale(unit, "byte")
                                                           : unit_scale(unit, "cycle");
    if (needed && (!read || !(scale > 0.0)) && !t->refused[0] && strcmp(text, "n/a") != 0)
        snprintf(t->refused, sizeof t->refused, "%.40s = '%.16s' in '%.16s'", name, text, unit);
    if (needed && read && v < 0.0 && !t->refused[0]) { /* a time or a byte count is never negative */
        snprintf(t->refused, sizeof t->refused, "%.40s = '%.16s' is negative", name, text);
        return;
    }
    if (!read)
        return;
    bool counted = needed || strncmp(name, "sm__ops_path_tensor_", 20) == 0 ||
                   strstr(name, "sass_thread_inst_executed_op_") || strcmp(name, "lts__t_bytes.sum") == 0 ||
                   strcmp(name, "l1tex__t_bytes.sum") == 0 || strncmp(name, "dram__bytes", 11) == 0;
    if (counted)
        tally_seen(t, name);
    if (counted && v < 0.0) { /* a count is never negative: not read as "no FLOPs" */
        if (!t->refused[0])
            snprintf(t->refused, sizeof t->refused, "%.40s = '%.16s' is negative", name, text);
        return;
    }
    double s;
    if (strcmp(name, "gpu__time_duration.sum") == 0 && (s = unit_scale(unit, "second")) > 0.0)
        t->gpu_time = v * s;
    else if (strcmp(name, "sm__cycles_elapsed.avg") == 0 && (s = unit_scale(unit, "cycle")) > 0.0)
        t->cycles = v * s;
    else if (strcmp(name, "sm__cycles_elapsed.avg.per_second") == 0 && (s = unit_scale(unit, "cycle")) > 0.0)
        t->cycle_rate = v * s;
    else if (strcmp(name, "dram__bytes.sum") == 0 && (s = unit_scale(unit, "byte")) > 0.0)
        t->dram = v * s;
    else if (strcmp(name, "dram__bytes_read.sum") == 0 && (s = unit_scale(unit, "byte")) > 0.0)
        t->dram_read = v * s;
    else if (strcmp(name, "dram__bytes_write.sum") == 0 && (s = unit_scale(unit, "byte")) > 0.0)
        t->dram_write = v * s;
    else if (strcmp(name, "lts__t_bytes.sum") == 0 && (s = unit_scale(unit, "byte")) > 0.0)
        t->l2 = v * s;
    else if (strcmp(name, "l1tex__t_bytes.sum") == 0 && (s = unit_scale(unit, "byte")) > 0.0)
        t->l1 = v * s;
    else if (strncmp(name, "sm__ops_path_tensor_", 20) == 0 && strstr(name, ".sum") &&
             (s = unit_scale(unit, "inst")) > 0.0) {
        enum rt_precision p;
        if (tensor_dtype(name, &p)) {
            t->tensor[p] += v * s;
            t->any_tensor = true;
        }
    } else {
        /* smsp__sass_thread_inst_executed_op_<f|h|d><add|mul|fma>_pred_on.sum */
        const char *op = strstr(name, "sass_thread_inst_executed_op_");
        if (!op || !strstr(name, "_pred_on.sum") || (s = unit_scale(unit, "inst")) <= 0.0)
            return;
        op += strlen("sass_thread_inst_executed_op_");
        int width = op[0] == 'f' ? 0 : op[0] == 'h' ? 1 : op[0] == 'd' ? 2 : -1;
        int kind = strncmp(op + 1, "add", 3) == 0 ? 0 : strncmp(op + 1, "mul", 3) == 0 ? 1
                   : strncmp(op + 1, "fma", 3) == 0 ? 2 : -1;
        if (width < 0 || kind < 0 || op[4] != '_')
            return;
        t->sass[width][kind] += v * s;
        t->any_sass = true;
    }
}

/* The finished kernel from its tally. */
static void tally_kernel(const struct tally *t, struct ncu_kernel *k)
{
    snprintf(k->refused, sizeof k->refused, "%s", t->refused);
    const char *name = strncmp(t->name, "void ", 5) == 0 ? t->name + 5 : t->name;
    snprintf(k->name, sizeof k->name, "%s %s", t->id, name);
    k->time_s = t->gpu_time > 0.0 ? t->gpu_time : t->cycles > 0.0 && t->cycle_rate > 0.0 ? t->cycles / t->cycle_rate
                                                                                        : -1.0;
    k->dram_bytes = t->dram >= 0.0                            ? t->dram
                    : t->dram_read >= 0.0 && t->dram_write >= 0.0 ? t->dram_read + t->dram_write
                                                                  : -1.0;
    k->l2_bytes = t->l2;
    k->l1_bytes = t->l1;
    k->tensor_flops = -1.0;
    k->tensor_precision = RT_BF16;
    if (t->any_tensor) {
        k->tensor_flops = 0.0;
        for (int p = 0; p < RT_PRECISION_COUNT; p++) {
            k->tensor_flops += t->tensor[p];
            if (t->tensor[p] > t->tensor[k->tensor_precision])
                k->tensor_precision = (enum rt_precision)p;
        }
    }
    k->sass_flops = -1.0;
    if (t->any_sass) {
        k->sass_flops = 0.0;
        for (int w = 0; w < 3; w++)
            k->sass_flops += t->sass[w][0] + t->sass[w][1] + 2.0 * t->sass[w][2];
    }
}

/* The offset of the header line (its first field "ID"), or len; the first
 * ==ERROR== line's text into error. */
static size_t find_header(const char *text, size_t len, char *error, size_t size)
{
    size_t i = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0; /* a UTF-8 byte-order mark */
    error[0] = '\0';
    while (i < len) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        if (end - i >= 9 && strncmp(text + i, "==ERROR==", 9) == 0 && !error[0])
            snprintf(error, size, "%.*s", (int)(end - i < 200 ? end - i : 200), text + i);
        if ((end - i >= 4 && strncmp(text + i, "\"ID\"", 4) == 0) || (end - i >= 3 && strncmp(text + i, "ID,", 3) == 0))
            return i;
        i = end + 1;
    }
    return len;
}

bool ncu_looks_like(const char *text, size_t len)
{
    char error[220];
    if (len >= 8 && strncmp(text, "==PROF==", 8) == 0)
        return true;
    size_t h = find_header(text, len, error, sizeof error);
    if (h >= len)
        return false;
    size_t end = h;
    while (end < len && text[end] != '\n')
        end++;
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(end - h < 511 ? end - h : 511), text + h);
    return strstr(line, "Kernel Name") != NULL;
}

/* The kernel tallied under id, a new one when it is not yet (NULL when
 * max are already there). */
static struct tally *kernel_for(struct tally *t, size_t *n, size_t max, const char *id, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(t[i].id, id) == 0)
            return &t[i];
    if (*n >= max)
        return NULL;
    tally_init(&t[*n]);
    snprintf(t[*n].id, sizeof t[*n].id, "%.31s", id);
    snprintf(t[*n].name, sizeof t[*n].name, "%s", name);
    return &t[(*n)++];
}

int ncu_read(const char *path, const char *text, size_t len, struct ncu_kernel *kernels, size_t max, size_t *count,
             char *err, size_t errsize)
{
    *count = 0;
    char error[220];
    size_t pos = find_header(text, len, error, sizeof error);
    if (pos >= len) {
        snprintf(err, errsize, "%s: an Nsight Compute log with no kernel rows%s%s", path, error[0] ? ": " : "",
                 error[0] ? error : " (no \"ID\",\"Kernel Name\" header)");
        return -1;
    }
    /* Room for the header's columns (its commas bound them) and a few past them in ragged rows. */
    int most = csv_room(text + pos, len - pos, NCU_MAX_COLUMNS);
    char (*head)[CSV_FIELD_MAX] = malloc((size_t)most * CSV_FIELD_MAX);
    char (*row)[CSV_FIELD_MAX] = malloc((size_t)most * CSV_FIELD_MAX);
    struct tally *t = malloc((max + 1) * sizeof *t);
    char (*units)[32] = malloc((size_t)most * 32);
    int rc = -1;
    size_t kernels_seen = 0;
    if (!head || !row || !t || !units) {
        snprintf(err, errsize, "%s: out of memory reading the export", path);
        goto done;
    }
    int cols = csv_record_cut(text, len, &pos, head, most);
    if (cols < 0) {
        snprintf(err, errsize, "%s: the header's quote is never closed, or it has more than %d columns", path, most);
        goto done;
    }
    int c_id = column(head, cols, "ID"), c_name = column(head, cols, "Kernel Name");
    int c_metric = column(head, cols, "Metric Name"), c_unit = column(head, cols, "Metric Unit");
    int c_value = column(head, cols, "Metric Value");
    if (cols < 0 || c_id < 0 || c_name < 0) {
        snprintf(err, errsize, "%s: the header has no \"ID\" and \"Kernel Name\" columns", path);
        goto done;
    }
    bool raw = c_metric < 0;
    if (!raw && (c_unit < 0 || c_value < 0)) {
        snprintf(err, errsize, "%s: a long export needs \"Metric Unit\" and \"Metric Value\" beside \"Metric Name\"",
                 path);
        goto done;
    }
    for (int j = 0; j < cols; j++)
        units[j][0] = '\0';
    int k;
    bool first = true;
    while ((k = csv_record_cut(text, len, &pos, row, most)) != 0) {
        if (k < 0) {
            snprintf(err, errsize, "%s: a row has an unclosed quote or more than %d fields", path, most);
            goto done;
        }
        if (raw && first && k > c_id && row[c_id][0] == '\0') { /* --page raw: the units row */
            for (int j = 0; j < k && j < cols; j++)
                snprintf(units[j], sizeof units[j], "%.31s", row[j]);
            first = false;
            continue;
        }
        first = false;
        if (k <= c_id || k <= c_name || !isdigit((unsigned char)row[c_id][0]))
            continue; /* a rule's line, the program's own output after the rows */
        struct tally *kt = kernel_for(t, &kernels_seen, max, row[c_id], row[c_name]);
        if (!kt) {
            snprintf(err, errsize, "%s: more than %zu kernels (profile fewer, or filter with --kernel-name)", path,
                     max);
            goto done;
        }
        if (raw) {
            for (int j = 0; j < k && j < cols; j++)
                if (strstr(head[j], "__"))
                    tally_metric(kt, head[j], units[j], row[j]);
        } else if (k > c_value) {
            tally_metric(kt, row[c_metric], row[c_unit], row[c_value]);
        }
    }
    if (kernels_seen == 0) {
        snprintf(err, errsize, "%s: an Nsight Compute export with no kernel rows%s%s", path, error[0] ? ": " : "",
                 error);
        goto done;
    }
    for (size_t i = 0; i < kernels_seen; i++)
        if (t[i].twice[0]) {
            snprintf(err, errsize, "%s: kernel ID %s gives %s twice (the export holds the kernel twice, or two runs "
                                   "appended): give one run's export",
                     path, t[i].id, t[i].twice);
            goto done;
        }
    for (size_t i = 0; i < kernels_seen; i++)
        tally_kernel(&t[i], &kernels[i]);
    *count = kernels_seen;
    rc = 0;
done:
    free(head);
    free(row);
    free(t);
    free(units);
    return rc;
}

int ncu_points(const char *path, const struct ncu_kernel *kernels, size_t n, struct measured_point *points,
               size_t max, size_t *count, size_t *skipped, char *err, size_t errsize)
{
    *count = *skipped = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ncu_kernel *k = &kernels[i];
        if (!(k->time_s > 0.0) || !(k->dram_bytes > 0.0)) {
            (*skipped)++;
            continue;
        }
        if (*count >= max) {
            snprintf(err, errsize, "%s: more than %zu kernels to place", path, max);
            return -1;
        }
        struct measured_point *p = &points[(*count)++];
        memset(p, 0, sizeof *p);
        snprintf(p->label, sizeof p->label, "%s", k->name);
        p->seconds = k->time_s;
        p->bytes = k->dram_bytes;
        p->flops = k->tensor_flops > 0.0 ? k->tensor_flops : k->sass_flops > 0.0 ? k->sass_flops : 0.0;
        p->precision = k->tensor_flops > 0.0 ? k->tensor_precision : RT_BF16;
        p->vector_unit = !(k->tensor_flops > 0.0) && k->sass_flops > 0.0; /* CUDA-core work: the vector roof */
        p->l2_bytes = k->l2_bytes > 0.0 && k->l2_bytes <= 1e18 ? k->l2_bytes : 0.0;
        p->l1_bytes = k->l1_bytes > 0.0 && k->l1_bytes <= 1e18 ? k->l1_bytes : 0.0;
        if (profile_point_check(path, p, err, errsize) != 0)
            return -1;
    }
    if (*count == 0) {
        const char *refused = "";
        for (size_t i = 0; i < n && !refused[0]; i++)
            refused = kernels[i].refused;
        if (refused[0])
            snprintf(err, errsize, "%s: none of its %zu kernels has a time and DRAM bytes rooftop can read: %s",
                     path, n, refused);
        else
            snprintf(err, errsize, "%s: none of its %zu kernels has a time and DRAM bytes (profile with --metrics "
                                   "gpu__time_duration.sum,dram__bytes.sum and the FLOP counters, or --set full)",
                     path, n);
        return -1;
    }
    return 0;
}

int profile_point_check(const char *path, const struct measured_point *p, char *err, size_t errsize)
{
    /* the physical ranges rooftop's own points file holds a kernel to (measured.c) */
    if (!(p->flops >= 0.0 && p->flops <= 1e21) || !(p->bytes >= 1.0 && p->bytes <= 1e18) ||
        !(p->seconds >= 1e-9 && p->seconds <= 86400.0)) {
        snprintf(err, errsize, "%s: kernel '%s': %.4g FLOPs, %.4g bytes, %.4g s is outside what a kernel does "
                               "(FLOPs to 1e21, a byte to 1e18, 1e-9 to 86400 s): check the export's units",
                 path, p->label, p->flops, p->bytes, p->seconds);
        return -1;
    }
    return 0;
}

/* The TraceLens column named name, or -1. */
static int tl_column(char head[][CSV_FIELD_MAX], int n, const char *name)
{
    return column(head, n, name);
}

bool tracelens_looks_like(const char *text, size_t len)
{
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte-order mark */
        text += 3, len -= 3;
    size_t end = 0;
    while (end < len && text[end] != '\n')
        end++;
    char line[4096];
    snprintf(line, sizeof line, "%.*s", (int)(end < sizeof line - 1 ? end : sizeof line - 1), text);
    return strncmp(line, "name,", 5) == 0 && strstr(line, "GFLOPS_first") && strstr(line, "Data Moved (MB)_first") &&
           strstr(line, "_mean");
}

int tracelens_points(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                     size_t *count, struct load_warnings *w, char *err, size_t errsize)
{
    *count = 0;
    size_t pos = 0;
    int most = csv_room(text, len, NCU_MAX_COLUMNS);
    char (*head)[CSV_FIELD_MAX] = malloc((size_t)most * CSV_FIELD_MAX);
    char (*row)[CSV_FIELD_MAX] = malloc((size_t)most * CSV_FIELD_MAX);
    int rc = -1;
    if (!head || !row) {
        snprintf(err, errsize, "%s: out of memory", path);
        goto done;
    }
    int cols = csv_record_cut(text, len, &pos, head, most);
    int c_name = tl_column(head, cols, "name"), c_flops = tl_column(head, cols, "GFLOPS_first");
    int c_bytes = tl_column(head, cols, "Data Moved (MB)_first"), c_spec = tl_column(head, cols, "Compute Spec");
    int c_time = tl_column(head, cols, "Kernel Time (\xc2\xb5s)_mean");
    if (c_time < 0)
        c_time = tl_column(head, cols, "Kernel Time (us)_mean");
    if (c_name < 0 || c_flops < 0 || c_bytes < 0 || c_time < 0) {
        snprintf(err, errsize, "%s: a TraceLens table needs name, GFLOPS_first, Data Moved (MB)_first and Kernel "
                               "Time (\xc2\xb5s)_mean columns",
                 path);
        goto done;
    }
    int c_count = tl_column(head, cols, "name_count"), c_b = tl_column(head, cols, "param: B");
    size_t skipped = 0;
    int k, line = 1;
    while ((k = csv_record_cut(text, len, &pos, row, most)) != 0) {
        line++;
        if (k < 0) {
            snprintf(err, errsize, "%s:%d: an unclosed quote or more than %d fields", path, line, most);
            goto done;
        }
        if (k <= c_time || k <= c_bytes || k <= c_flops)
            continue;
        double gflops, mib, us;
        if (!value_of(row[c_flops], &gflops) || !value_of(row[c_bytes], &mib) || !value_of(row[c_time], &us) ||
            !(us > 0.0) || !(mib > 0.0) || gflops < 0.0) {
            skipped++;
            continue;
        }
        if (*count >= max) {
            snprintf(err, errsize, "%s: more than %zu operations to place", path, max);
            goto done;
        }
        struct measured_point *p = &points[(*count)++];
        memset(p, 0, sizeof *p);
        int c_m = tl_column(head, cols, "param: M"), c_n = tl_column(head, cols, "param: N");
        int c_k = tl_column(head, cols, "param: K");
        if (c_m >= 0 && c_n >= 0 && c_k >= 0 && c_m < k && c_n < k && c_k < k) /* a GEMM's shape beside its name */
        {
            char shape[96];
            snprintf(shape, sizeof shape, "%.20s %.6sx%.6sx%.6s", row[c_name], row[c_m], row[c_n], row[c_k]);
            snprintf(p->label, sizeof p->label, "%.*s", (int)sizeof p->label - 1, shape);
        }
        else
            snprintf(p->label, sizeof p->label, "%s", row[c_name]);
        /* TraceLens: GFLOPS_first is an op's GFLOPs, Data Moved its MiB (2^20 bytes), the time a call's mean;
           name_count calls of it: the point is all of them (its rate is the same, its time the row's share) */
        double calls = 1.0;
        if (c_count >= 0 && c_count < k &&
            (!value_of(row[c_count], &calls) || !(calls >= 1.0) || calls > 1e9 || calls != floor(calls))) {
            snprintf(err, errsize, "%s:%d: name_count '%s' is not a whole number of calls from 1 to 1e9", path, line,
                     row[c_count]);
            goto done;
        }
        p->flops = gflops * 1e9 * calls;
        p->bytes = mib * 1048576.0 * calls;
        p->seconds = us * 1e-6 * calls;
        p->kernels = calls;
        double m, kk, nn;
        if (c_m >= 0 && c_n >= 0 && c_k >= 0 && c_m < k && c_n < k && c_k < k && value_of(row[c_m], &m) &&
            value_of(row[c_k], &kk) && value_of(row[c_n], &nn)) {
            double b = 1.0;
            if (c_b >= 0 && c_b < k && (!value_of(row[c_b], &b) || !(b >= 1.0)))
                b = 1.0;
            p->kind = POINT_KIND_GEMM;
            p->gemm_m = m * b, p->gemm_k = kk, p->gemm_n = nn;
        } else if (tl_column(head, cols, "param: N_Q") >= 0) {
            p->kind = POINT_KIND_ATTENTION; /* the SDPA tables */
        }
        p->precision = RT_BF16;
        const char *spec = c_spec >= 0 && c_spec < k ? row[c_spec] : "";
        if (strstr(spec, "fp8"))
            p->precision = RT_FP8;
        else if (strstr(spec, "int8"))
            p->precision = RT_INT8;
        if (profile_point_check(path, p, err, errsize) != 0)
            goto done;
    }
    if (*count == 0) {
        snprintf(err, errsize, "%s: no operation row with GFLOPs, bytes and a time", path);
        goto done;
    }
    if (skipped)
        warn_add(w, "%s: %zu rows without GFLOPs of 0 or more, bytes above 0 and a time: left off", path, skipped);
    if (c_count < 0)
        note_add(w, "%s: no name_count column: each row is taken as one call of its operator", path);
    rc = 0;
done:
    free(head);
    free(row);
    return rc;
}
