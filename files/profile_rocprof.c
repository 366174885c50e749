/* profile_rocprof.c — rocprof-compute pmc_perf.csv and the time-only
 * kernel summaries (see profile_rocprof.h). */
#include "profile_rocprof.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "profile_ncu.h"
#include "units.h"

#define MAX_COLUMNS 4096 /* a full counter set runs to ~600 columns */

static int column(char head[][CSV_FIELD_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return i;
    return -1;
}

/* The first line of text, at most size - 1 bytes. */
static void first_line(const char *text, size_t len, char *line, size_t size)
{
    size_t i = 0;
    if (len >= 3 && (unsigned char)text[0] == 0xef && (unsigned char)text[1] == 0xbb && (unsigned char)text[2] == 0xbf)
        text += 3, len -= 3;
    while (i < len && i + 1 < size && text[i] != '\n' && text[i] != '\r') {
        line[i] = text[i];
        i++;
    }
    line[i] = '\0';
}

bool rocprof_pmc_looks_like(const char *text, size_t len)
{
    char line[65536];
    first_line(text, len, line, sizeof line);
    return strncmp(line, "Dispatch_ID,", 12) == 0 && strstr(line, "Kernel_Name") && strstr(line, "Start_Timestamp") &&
           strstr(line, "End_Timestamp");
}

/* A row's value in column c as a number >= 0, or -1 when the column is
 * absent or the value is not a number. */
static double value(char row[][CSV_FIELD_MAX], int k, int c)
{
    double v;
    return c >= 0 && c < k && parse_number(row[c], &v) == 0 && v >= 0.0 && isfinite(v) ? v : -1.0;
}

/* "vecCopy(double*, ...) [clone .kd]" -> "vecCopy" */
static void short_kernel(char *out, size_t size, const char *name)
{
    size_t n = strcspn(name, "(");
    const char *clone = strstr(name, " [clone");
    if (clone && (size_t)(clone - name) < n)
        n = (size_t)(clone - name);
    if (n > 3 && strncmp(name + n - 3, ".kd", 3) == 0)
        n -= 3;
    snprintf(out, size, "%.*s", (int)n, name);
}

/* The column indices a pmc_perf.csv's figures need. */
struct pmc_columns {
    int name, start, end;
    int valu[3][4];   /* F16, F32, F64 x ADD, MUL, FMA, TRANS */
    int mfma[5];      /* F16, BF16, F32, F64, I8 MOPS */
    int rd, rd32, wr, wr64, bubble;
    int l2_rd, l2_wr, l2_at1, l2_at2, l1;
};

static void find_columns(char head[][CSV_FIELD_MAX], int n, struct pmc_columns *c)
{
    static const char *const prec[3] = {"F16", "F32", "F64"};
    static const char *const op[4] = {"ADD", "MUL", "FMA", "TRANS"};
    static const char *const mfma[5] = {"F16", "BF16", "F32", "F64", "I8"};
    char key[96];
    c->name = column(head, n, "Kernel_Name");
    c->start = column(head, n, "Start_Timestamp");
    c->end = column(head, n, "End_Timestamp");
    for (int p = 0; p < 3; p++)
        for (int o = 0; o < 4; o++) {
            snprintf(key, sizeof key, "SQ_INSTS_VALU_%s_%s", op[o], prec[p]);
            c->valu[p][o] = column(head, n, key);
        }
    for (int m = 0; m < 5; m++) {
        snprintf(key, sizeof key, "SQ_INSTS_VALU_MFMA_MOPS_%s", mfma[m]);
        c->mfma[m] = column(head, n, key);
    }
    /* gfx942 names its channel sums TCC_EA0_*, gfx90a TCC_EA_* */
    const char *ea = column(head, n, "TCC_EA0_RDREQ_sum") >= 0 ? "TCC_EA0" : "TCC_EA";
    snprintf(key, sizeof key, "%s_RDREQ_sum", ea);
    c->rd = column(head, n, key);
    snprintf(key, sizeof key, "%s_RDREQ_32B_sum", ea);
    c->rd32 = column(head, n, key);
    snprintf(key, sizeof key, "%s_WRREQ_sum", ea);
    c->wr = column(head, n, key);
    snprintf(key, sizeof key, "%s_WRREQ_64B_sum", ea);
    c->wr64 = column(head, n, key);
    c->bubble = column(head, n, "TCC_BUBBLE_sum");
    c->l2_rd = column(head, n, "TCP_TCC_READ_REQ_sum");
    c->l2_wr = column(head, n, "TCP_TCC_WRITE_REQ_sum");
    c->l2_at1 = column(head, n, "TCP_TCC_ATOMIC_WITH_RET_REQ_sum");
    c->l2_at2 = column(head, n, "TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum");
    c->l1 = column(head, n, "TCP_TOTAL_CACHE_ACCESSES_sum");
}

/* A missing counter counts 0 in a sum of several, as rocprof-compute's own
 * formulas treat it. */
static double nz(double v)
{
    return v > 0.0 ? v : 0.0;
}

static void dispatch_figures(char row[][CSV_FIELD_MAX], int k, const struct pmc_columns *c, struct rocprof_dispatch *d)
{
    memset(d, 0, sizeof *d);
    short_kernel(d->name, sizeof d->name, c->name >= 0 && c->name < k ? row[c->name] : "kernel");
    double s = value(row, k, c->start), e = value(row, k, c->end);
    d->time_s = s >= 0.0 && e > s ? (e - s) * 1e-9 : -1.0;
    /* FLOPs per precision: 0 vector f16, 1 vector f32, 2 vector f64, then MFMA f16, bf16, f32, f64, i8 */
    double f[8] = {0};
    bool any = false;
    for (int p = 0; p < 3; p++)
        for (int o = 0; o < 4; o++) {
            double v = value(row, k, c->valu[p][o]);
            if (v >= 0.0) {
                f[p] += 64.0 * v * (o == 2 ? 2.0 : 1.0);
                any = true;
            }
        }
    for (int m = 0; m < 5; m++) {
        double v = value(row, k, c->mfma[m]);
        if (v >= 0.0) {
            f[3 + m] += 512.0 * v;
            any = true;
        }
    }
    int best = 1;
    for (int i = 0; i < 8; i++) {
        d->flops += f[i];
        if (f[i] > f[best])
            best = i;
    }
    if (!any)
        d->flops = -1.0;
    d->vector_unit = best <= 2 || best == 5 || best == 6;
    d->precision = best == 7 ? RT_INT8 : RT_BF16;
    double rd = value(row, k, c->rd), wr = value(row, k, c->wr);
    if (rd >= 0.0 && wr >= 0.0) {
        double rd32 = nz(value(row, k, c->rd32)), wr64 = nz(value(row, k, c->wr64));
        double bubble = c->bubble >= 0 ? nz(value(row, k, c->bubble)) : 0.0;
        double read = 128.0 * bubble + 64.0 * (rd - bubble - rd32) + 32.0 * rd32;
        double write = 64.0 * wr64 + 32.0 * (wr - wr64);
        d->hbm_bytes = read + write >= 0.0 ? read + write : -1.0;
    } else {
        d->hbm_bytes = -1.0;
    }
    double l2r = value(row, k, c->l2_rd), l2w = value(row, k, c->l2_wr);
    d->l2_bytes = l2r >= 0.0 && l2w >= 0.0
                      ? 64.0 * (l2r + l2w + nz(value(row, k, c->l2_at1)) + nz(value(row, k, c->l2_at2)))
                      : -1.0;
    double l1 = value(row, k, c->l1);
    d->l1_bytes = l1 >= 0.0 ? 64.0 * l1 : -1.0;
}

int rocprof_pmc_read(const char *path, const char *text, size_t len, struct rocprof_dispatch *out, size_t max,
                     size_t *count, char *err, size_t errsize)
{
    *count = 0;
    int most = csv_room(text, len, MAX_COLUMNS);
    char (*head)[CSV_FIELD_MAX] = malloc((size_t)most * CSV_FIELD_MAX);
    char (*row)[CSV_FIELD_MAX] = malloc((size_t)most * CSV_FIELD_MAX);
    int rc = -1;
    size_t pos = 0;
    if (!head || !row) {
        snprintf(err, errsize, "%s: out of memory", path);
        goto done;
    }
    int cols = csv_record_cut(text, len, &pos, head, most);
    struct pmc_columns c;
    find_columns(head, cols > 0 ? cols : 0, &c);
    if (c.start < 0 || c.end < 0) {
        snprintf(err, errsize, "%s: a pmc_perf.csv needs Start_Timestamp and End_Timestamp columns", path);
        goto done;
    }
    int k, line = 1;
    while ((k = csv_record_cut(text, len, &pos, row, most)) != 0) {
        line++;
        if (k < 0) {
            snprintf(err, errsize, "%s:%d: an unclosed quote or more than %d fields", path, line, most);
            goto done;
        }
        if (*count >= max) {
            snprintf(err, errsize, "%s:%d: more than %zu dispatches", path, line, max);
            goto done;
        }
        struct rocprof_dispatch *d = &out[*count];
        dispatch_figures(row, k, &c, d);
        if (!(d->time_s > 0.0)) {
            snprintf(err, errsize, "%s:%d: Start_Timestamp '%s' and End_Timestamp '%s' are not a span of time", path,
                     line, c.start < k ? row[c.start] : "", c.end < k ? row[c.end] : "");
            goto done;
        }
        (*count)++;
    }
    if (*count == 0) {
        snprintf(err, errsize, "%s: no dispatch rows under the header", path);
        goto done;
    }
    rc = 0;
done:
    free(head);
    free(row);
    return rc;
}

int rocprof_pmc_points(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                       size_t *count, struct load_warnings *w, char *err, size_t errsize)
{
    *count = 0;
    size_t cap = len / 32 + 16; /* a dispatch row is longer than 32 bytes: its two timestamps alone take 32 */
    struct rocprof_dispatch *d = malloc(cap * sizeof *d);
    size_t n = 0;
    if (!d) {
        snprintf(err, errsize, "%s: out of memory", path);
        return -1;
    }
    if (rocprof_pmc_read(path, text, len, d, cap, &n, err, errsize) != 0) {
        free(d);
        return -1;
    }
    size_t placeable = 0, no_bytes = 0;
    for (size_t i = 0; i < n; i++)
        d[i].hbm_bytes > 0.0 ? placeable++ : no_bytes++;
    bool grouped = placeable > max;
    for (size_t i = 0; i < n; i++) {
        if (!(d[i].hbm_bytes > 0.0))
            continue;
        struct measured_point *p = NULL;
        if (grouped) /* past max dispatches, one point a kernel name */
            for (size_t j = 0; j < *count && !p; j++)
                if (strncmp(points[j].label, d[i].name, sizeof points[j].label) == 0)
                    p = &points[j];
        if (!p) {
            if (*count >= max) {
                snprintf(err, errsize, "%s: more than %zu kernels to place", path, max);
                free(d);
                return -1;
            }
            p = &points[(*count)++];
            memset(p, 0, sizeof *p);
            if (grouped)
                snprintf(p->label, sizeof p->label, "%s", d[i].name);
            else
            {
                char id[24];
                int w_id = snprintf(id, sizeof id, " #%zu", i);
                int room = (int)sizeof p->label - 1 - (w_id > 0 ? w_id : 0);
                snprintf(p->label, sizeof p->label, "%.*s%s", room > 0 ? room : 0, d[i].name, id);
            }
            p->precision = d[i].precision;
            p->vector_unit = d[i].vector_unit;
        }
        p->flops += d[i].flops > 0.0 ? d[i].flops : 0.0;
        p->bytes += d[i].hbm_bytes;
        p->l2_bytes += d[i].l2_bytes > 0.0 ? d[i].l2_bytes : 0.0;
        p->l1_bytes += d[i].l1_bytes > 0.0 ? d[i].l1_bytes : 0.0;
        p->seconds += d[i].time_s;
        p->kernels += 1.0;
        if (!(p->flops > 0.0))
            p->vector_unit = false;
    }
    free(d);
    for (size_t i = 0; i < *count; i++) /* a counter past what a kernel does (a units error, a corrupt file) */
        if (profile_point_check(path, &points[i], err, errsize) != 0 ||
            !(points[i].l2_bytes <= 1e18 && points[i].l1_bytes <= 1e18)) {
            if (points[i].l2_bytes > 1e18 || points[i].l1_bytes > 1e18)
                snprintf(err, errsize, "%s: kernel '%s': its L2 or L1 bytes are past 1e18: check the export",
                         path, points[i].label);
            return -1;
        }
    if (*count == 0) {
        snprintf(err, errsize, "%s: none of its %zu dispatches has HBM bytes (profile with rocprof-compute's "
                               "roofline counters: TCC_EA_RDREQ/WRREQ)",
                 path, n);
        return -1;
    }
    if (grouped)
        note_add(w, "%s: %zu dispatches, more than %zu points: one point a kernel name, its dispatches summed", path,
                 placeable, max);
    if (no_bytes)
        warn_add(w, "%s: %zu of its %zu dispatches have no HBM bytes in the file: left off", path, no_bytes, n);
    return 0;
}

/* ---- Time-only summaries ----------------------------------------------- */

/* Sums a time column (in ns, ncol the names) over the rows; fills the
 * largest name and its time. Returns the rows read. */
static size_t sum_times(const char *text, size_t len, int ncol, int tcol, double *total_ns, char *largest,
                        size_t lsize, double *largest_ns)
{
    char (*row)[CSV_FIELD_MAX] = malloc(64 * CSV_FIELD_MAX);
    size_t pos = 0, rows = 0;
    *total_ns = *largest_ns = 0.0;
    largest[0] = '\0';
    if (!row)
        return 0;
    (void)csv_record_cut(text, len, &pos, row, 64);
    int k;
    while ((k = csv_record_cut(text, len, &pos, row, 64)) > 0) {
        double t = value(row, k, tcol);
        if (t < 0.0 || ncol >= k)
            continue;
        rows++;
        *total_ns += t;
        if (t > *largest_ns) {
            *largest_ns = t;
            short_kernel(largest, lsize, row[ncol]);
        }
    }
    free(row);
    return rows;
}

bool profile_time_only(const char *path, const char *text, size_t len, char *err, size_t errsize)
{
    char line[4096], (*head)[CSV_FIELD_MAX] = NULL;
    first_line(text, len, line, sizeof line);
    const char *kind = NULL, *advice = NULL;
    const char *name_col = NULL, *time_col = NULL;
    if (strncmp(line, "device,HBMBw,", 13) == 0) {
        snprintf(err, errsize, "%s: rocprof-compute's roofline.csv, the chip's measured peaks (GB/s, GFLOP/s), not "
                               "kernels: give its pmc_perf.csv (the same workload folder) to place the kernels",
                 path);
        return true;
    }
    if (strstr(line, "KernelName") && strstr(line, "DurationNs")) {
        kind = "a rocprof kernel trace", name_col = "KernelName", time_col = "DurationNs";
        advice = "profile with rocprof-compute (its pmc_perf.csv) or rocprof --pmc with the FLOP and TCC_EA counters";
    } else if (strstr(line, "\"Name\",\"Calls\",\"TotalDurationNs\"") || strncmp(line, "Name,Calls,TotalDurationNs", 26) == 0) {
        kind = "rocprof's --stats summary", name_col = "Name", time_col = "TotalDurationNs";
        advice = "profile with rocprof-compute (its pmc_perf.csv)";
    } else if (strstr(line, "Total Time (ns)") && strstr(line, "Instances") && strstr(line, "Name")) {
        kind = "an Nsight Systems kernel summary (cuda_gpu_kern_sum)", name_col = "Name", time_col = "Total Time (ns)";
        advice = "profile the kernels with Nsight Compute (ncu --csv) or export a PyTorch profiler trace";
    } else {
        return false;
    }
    head = malloc(64 * CSV_FIELD_MAX);
    size_t pos = 0;
    int n = head ? csv_record_cut(text, len, &pos, head, 64) : 0;
    int nc = n > 0 ? column(head, n, name_col) : -1, tc = n > 0 ? column(head, n, time_col) : -1;
    free(head);
    double total = 0.0, big = 0.0;
    char largest[96] = "";
    size_t rows = nc >= 0 && tc >= 0 ? sum_times(text, len, nc, tc, &total, largest, sizeof largest, &big) : 0;
    snprintf(err, errsize, "%s: %s: %zu rows, %.3f ms of kernel time (the largest %s, %.3f ms), times only, no "
                           "FLOPs or bytes to place: %s",
             path, kind, rows, total * 1e-6, largest[0] ? largest : "none", big * 1e-6, advice);
    return true;
}

int rocprof_roofline_ceilings(const char *text, size_t len, double *hbm, double *l2, double *l1)
{
    char (*row)[CSV_FIELD_MAX] = malloc(2 * 64 * CSV_FIELD_MAX);
    if (!row)
        return -1;
    char (*head)[CSV_FIELD_MAX] = row + 64;
    size_t pos = 0;
    int nh = csv_record_cut(text, len, &pos, head, 64), rc = -1;
    int k = nh > 0 ? csv_record_cut(text, len, &pos, row, 64) : 0;
    int c_dev = nh > 0 ? column(head, nh, "device") : -1, c_h = nh > 0 ? column(head, nh, "HBMBw") : -1;
    int c_2 = nh > 0 ? column(head, nh, "L2Bw") : -1, c_1 = nh > 0 ? column(head, nh, "L1Bw") : -1;
    if (k > 0 && c_dev == 0 && c_h >= 0 && c_2 >= 0 && c_1 >= 0) {
        double h = value(row, k, c_h), b2 = value(row, k, c_2), b1 = value(row, k, c_1);
        /* GB/s, though the file does not say: rocprof-compute's roofline benchmark writes them so */
        if (h > 0.0 && b2 > 0.0 && b1 > 0.0 && h < 1e8 && b2 < 1e8 && b1 < 1e8) {
            *hbm = h * 1e9, *l2 = b2 * 1e9, *l1 = b1 * 1e9;
            rc = 0;
        }
    }
    free(row);
    return rc;
}
