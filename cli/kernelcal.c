/* kernelcal.c — fitting the kernel models to measured tables (kernelcal.h). */
#include "kernelcal.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "userfiles.h"
#include "chipfile.h"
#include "cli.h"
#include "fileio.h"
#include "kernelfit.h"
#include "measured.h"

#define FIT_ITERATIONS 40
#define CV_FOLDS 5
#define MIN_ROWS 8          /* a group with fewer keeps the defaults (and is said) */
#define MAX_FILES 4096

bool kernel_tables_at(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    if (S_ISDIR(st.st_mode))
        return true;
    FILE *f = S_ISREG(st.st_mode) ? fopen(path, "r") : NULL;
    if (!f)
        return false;
    char line[2048];
    bool is = false;
    if (fgets(line, sizeof line, f)) {
        char fields[40][CSV_FIELD_MAX];
        size_t pos = 0;
        int n = csv_record(line, strlen(line), &pos, fields, 40);
        is = n > 0 && kernel_table_header(fields, n);
    }
    fclose(f);
    return is;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the *.csv files under dir (any depth; a linked folder is not
 * followed, so a loop of links cannot recurse) to files. Returns 0, or -1
 * with err: a folder that cannot be opened, more than MAX_FILES tables, no
 * memory. */
static int walk(const char *dir, char **files, int *n, char *err, size_t errsize)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsize, "%s: cannot open the folder", dir);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t need = strlen(dir) + strlen(e->d_name) + 2, len = strlen(e->d_name);
        char *path = malloc(need);
        if (!path) {
            snprintf(err, errsize, "out of memory");
            rc = -1;
            break;
        }
        snprintf(path, need, "%s/%s", dir, e->d_name);
        struct stat st, link;
        bool ok = stat(path, &st) == 0, linked = lstat(path, &link) == 0 && S_ISLNK(link.st_mode);
        if (ok && S_ISDIR(st.st_mode) && !linked) {
            rc = walk(path, files, n, err, errsize);
            free(path);
        } else if (ok && S_ISREG(st.st_mode) && len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0) {
            if (*n >= MAX_FILES) {
                snprintf(err, errsize, "%s: more than %d CSV files; give a folder with fewer", dir, MAX_FILES);
                free(path);
                rc = -1;
            } else {
                files[(*n)++] = path;
            }
        } else {
            free(path);
        }
    }
    closedir(d);
    return rc;
}

int kernel_tables_read(const char *path, struct kernel_row **rows, size_t *count, int *files_read, char *err,
                       size_t errsize)
{
    *rows = NULL;
    *count = 0;
    char **files = calloc(MAX_FILES, sizeof *files);
    int nfiles = 0;
    struct stat st;
    if (!files) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (walk(path, files, &nfiles, err, errsize) != 0) {
            for (int i = 0; i < nfiles; i++)
                free(files[i]);
            free(files);
            return -1;
        }
        qsort(files, (size_t)nfiles, sizeof *files, by_name);
    } else if ((files[nfiles++] = strdup(path)) == NULL) {
        free(files);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    struct kernel_row *all = NULL;
    size_t total = 0;
    int rc = 0, tables = 0;
    for (int i = 0; i < nfiles && rc == 0; i++) {
        if (!files[i] || (nfiles > 1 && !kernel_tables_at(files[i])))
            continue; /* a folder's other CSV files are not tables */
        char *text = NULL;
        size_t len = 0;
        struct kernel_row *part = NULL;
        size_t n = 0;
        if (read_file(files[i], &text, &len, err, errsize) != 0 ||
            kernel_table_read(files[i], text, len, &part, &n, err, errsize) != 0) {
            rc = -1;
        } else if (n > 0) {
            struct kernel_row *grown = realloc(all, (total + n) * sizeof *all);
            if (!grown) {
                snprintf(err, errsize, "out of memory");
                rc = -1;
            } else {
                all = grown;
                memcpy(all + total, part, n * sizeof *part);
                total += n;
                tables++;
            }
        }
        free(part);
        free(text);
    }
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    if (rc != 0) {
        free(all);
        return -1;
    }
    if (tables == 0) {
        snprintf(err, errsize, "%s: no kernel tables (CSV files with a latency and a dtype column)", path);
        free(all);
        return -1;
    }
    *rows = all;
    *count = total;
    if (files_read)
        *files_read = tables;
    return 0;
}

/* The group a row belongs to: chip, kind, engine, format, KV, family. */
static int group_cmp(const struct kernel_row *a, const struct kernel_row *b)
{
    int c = strcmp(a->chip, b->chip);
    if (c)
        return c;
    const struct kernel_shape *x = &a->obs.shape, *y = &b->obs.shape;
    bool nx = kernel_kind_is_nccl(x->kind), ny = kernel_kind_is_nccl(y->kind); /* NCCL's are no engine's or format's */
    int kx[5] = {(int)x->kind, nx ? 0 : (int)a->engine, nx ? 0 : (int)x->format, x->kv_fp8, (int)x->family};
    int ky[5] = {(int)y->kind, ny ? 0 : (int)b->engine, ny ? 0 : (int)y->format, y->kv_fp8, (int)y->family};
    for (int i = 0; i < 5; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static int row_order(const void *a, const void *b)
{
    const struct kernel_row *x = a, *y = b;
    int c = group_cmp(x, y);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* One fitted group, for the summary and the written tables. */
struct group {
    size_t first, n;       /* rows[first .. first + n) */
    struct kernel_fit fit;
    double fit_mape, cv_mape;
    bool fitted;           /* enough rows for a fit of its own */
};

static const char *group_label(char *buf, size_t size, const struct kernel_row *r)
{
    const struct kernel_shape *s = &r->obs.shape;
    bool nccl = kernel_kind_is_nccl(s->kind);
    bool attn = s->kind >= RT_KERNEL_ATTENTION && s->kind <= RT_KERNEL_DECODE_MLA;
    snprintf(buf, size, "%s %s %s %s%s %s", r->chip, kernel_engine_label(s->kind, r->engine),
             kernel_kind_name(s->kind), nccl ? "" : kernel_format_name(s->format), attn ? (s->kv_fp8 ? "/kv-fp8" : "/kv-bf16") : "",
             kernel_family_name(s->family));
    return buf;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fits one group; obs is scratch of at least g->n rows. */
static void fit_group(const struct kernel_row *rows, struct group *g, const struct kernel_chip *chip,
                      struct kernel_obs *obs, unsigned seed)
{
    const struct kernel_row *r0 = &rows[g->first];
    const struct kernel_shape *s = &r0->obs.shape;
    bool nccl = kernel_kind_is_nccl(s->kind);
    for (size_t i = 0; i < g->n; i++)
        obs[i] = rows[g->first + i].obs;
    memset(&g->fit, 0, sizeof g->fit);
    g->fit.kind = (uint8_t)s->kind;
    g->fit.engine = (uint8_t)(nccl ? 0 : r0->engine);
    g->fit.format = (uint8_t)(nccl ? 0 : s->format);
    g->fit.kv_fp8 = s->kv_fp8;
    g->fit.family = (uint8_t)s->family;
    g->fit.rows = (uint16_t)(g->n > 65535 ? 65535 : g->n);
    float start[RT_KERNEL_PARAMS];
    kernel_default_params(s->kind, start);
    memcpy(g->fit.p, start, sizeof start);
    g->fitted = g->n >= MIN_ROWS;
    if (g->fitted) {
        g->fit_mape = kernel_fit_params(obs, g->n, chip, s->kind, g->fit.p, FIT_ITERATIONS);
        g->cv_mape = g->n >= 2 * CV_FOLDS
                         ? kernel_fit_cv(obs, g->n, chip, s->kind, start, CV_FOLDS, seed, FIT_ITERATIONS)
                         : g->fit_mape;
    } else {
        g->fit_mape = g->cv_mape = kernel_mape(obs, g->n, chip, g->fit.p);
    }
    g->fit.cv_error = (float)g->cv_mape;
}

/* A chip key as a C identifier's tail ("a100-80" -> "a100_80"). */
static void c_ident(char *out, size_t size, const char *key)
{
    size_t i = 0;
    for (; key[i] && i + 1 < size; i++)
        out[i] = (key[i] >= 'a' && key[i] <= 'z') || (key[i] >= '0' && key[i] <= '9') ? key[i] : '_';
    out[i] = '\0';
}

/* Writes the compiled-in table of fits (kernel_profiles.inc). */
static int write_profiles(const char *path, const struct kernel_row *rows, const struct group *groups, size_t ng,
                          FILE *errout)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return 1;
    fprintf(m, "/* kernel_profiles.inc — written by `make profiles` (rooftop --calibrate DATA --write-profiles\n"
               " * FILE), from AIConfigurator's measured kernel tables (github:ai-dynamo/aiconfigurator @\n"
               " * 095f58a5, systems/data/, Apache-2.0). Do not edit: rerun `make profiles`.\n"
               " * Each row: kind, engine, format, kv_fp8, family, rows, 5-fold cross-validated MAPE,\n"
               " * and the kind's constants in kernel_param_name order. */\n\n"
               "#define KERNEL_PROFILES_VERSION %d /* the RT_KERNEL_MODEL_VERSION they were fitted for */\n\n",
            RT_KERNEL_MODEL_VERSION);
    char chips[64][RT_CHIP_KEY_MAX];
    int nchips = 0;
    for (size_t g = 0; g < ng; g++) {
        const char *chip = rows[groups[g].first].chip;
        if (nchips == 0 || strcmp(chips[nchips - 1], chip) != 0) {
            if (nchips)
                fprintf(m, "};\n\n");
            if (nchips == 64)
                break;
            snprintf(chips[nchips], sizeof chips[nchips], "%s", chip);
            char ident[RT_CHIP_KEY_MAX];
            c_ident(ident, sizeof ident, chip);
            fprintf(m, "static const struct kernel_fit fits_%s[] = {\n", ident);
            nchips++;
        }
        const struct kernel_fit *f = &groups[g].fit;
        char label[160];
        fprintf(m, "    /* %s: %u rows, fitted %.1f%%, cross-validated %.1f%% */\n", group_label(label, sizeof label,
                &rows[groups[g].first]), (unsigned)f->rows, 100.0 * groups[g].fit_mape, 100.0 * groups[g].cv_mape);
        fprintf(m, "    {%u, %u, %u, %u, %u, %u, %.4ff, {", (unsigned)f->kind, (unsigned)f->engine, (unsigned)f->format,
                (unsigned)f->kv_fp8, (unsigned)f->family, (unsigned)f->rows, (double)f->cv_error);
        for (int i = 0; i < kernel_param_count((enum rt_kernel_kind)f->kind); i++) {
            char num[32];
            snprintf(num, sizeof num, "%.7g", (double)f->p[i]);
            fprintf(m, "%s%s%sf", i ? ", " : "", num, strpbrk(num, ".e") ? "" : ".0");
        }
        fprintf(m, "}},\n");
    }
    if (nchips)
        fprintf(m, "};\n\n");
    fprintf(m, "static const struct builtin_profile builtin_profiles[] = {\n");
    for (int i = 0; i < nchips; i++) {
        char ident[RT_CHIP_KEY_MAX];
        c_ident(ident, sizeof ident, chips[i]);
        fprintf(m, "    {\"%s\", fits_%s, (int)(sizeof fits_%s / sizeof fits_%s[0])},\n", chips[i], ident, ident,
                ident);
    }
    if (nchips == 0)
        fprintf(m, "    {NULL, NULL, 0},\n");
    fprintf(m, "};\n");
    if (fclose(m) != 0) {
        free(text);
        return 1;
    }
    char err[600];
    int rc = write_file_atomic(path, text, len, err, sizeof err);
    if (rc != 0)
        cli_say(errout, "%s", err);
    free(text);
    return rc != 0;
}

/* Pools the cross-validated errors by a label (kind, chip or engine). */
struct pool {
    char name[40];
    double sum;
    size_t n;
};

static void pool_add(struct pool *p, int *np, int max, const char *name, double err_sum, size_t n)
{
    for (int i = 0; i < *np; i++)
        if (strcmp(p[i].name, name) == 0) {
            p[i].sum += err_sum;
            p[i].n += n;
            return;
        }
    if (*np < max) {
        snprintf(p[*np].name, sizeof p[*np].name, "%s", name);
        p[*np].sum = err_sum;
        p[*np].n = n;
        (*np)++;
    }
}

static void print_pool(FILE *out, const char *title, const struct pool *p, int np)
{
    fprintf(out, "%s\n", title);
    for (int i = 0; i < np; i++)
        fprintf(out, "  %-22s %7zu rows  cross-validated MAPE %5.1f%%\n", p[i].name, p[i].n,
                100.0 * p[i].sum / (double)p[i].n);
}

int run_kernel_calibrate(const struct cli_options *o, FILE *out, FILE *errout)
{
    char err[600];
    struct kernel_row *rows;
    size_t n;
    int tables;
    if (kernel_tables_read(o->calibrate_path, &rows, &n, &tables, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    /* Keep the rows that can be predicted, grouped. */
    size_t kept = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].skipped[0]) {
            skipped++;
            continue;
        }
        if (o->write_chip && strcmp(rows[i].chip, o->scenario.chip.key) != 0)
            continue; /* --write-chip: the --chip's rows only */
        rows[kept++] = rows[i];
    }
    if (kept == 0) {
        cli_say(errout, "%s: no rows to fit%s", o->calibrate_path,
                o->write_chip ? " on the --chip (give --chip for the chip the tables measured)" : "");
        free(rows);
        return 2;
    }
    qsort(rows, kept, sizeof *rows, row_order);
    size_t ng = 0, cap = 64;
    struct group *groups = malloc(cap * sizeof *groups);
    for (size_t i = 0; groups && i < kept; i++) {
        if (i == 0 || group_cmp(&rows[i - 1], &rows[i]) != 0) {
            if (ng == cap) {
                struct group *grown = realloc(groups, 2 * cap * sizeof *groups);
                if (!grown) {
                    free(groups);
                    groups = NULL;
                    break;
                }
                groups = grown, cap *= 2;
            }
            memset(&groups[ng], 0, sizeof groups[ng]);
            groups[ng++].first = i;
        }
        groups[ng - 1].n++;
    }
    struct kernel_obs *obs = groups ? malloc(kept * sizeof *obs) : NULL;
    if (!obs) {
        cli_say(errout, "out of memory");
        free(groups);
        free(rows);
        return 1;
    }
    /* Say how long before starting: about 60 model evaluations a row per
     * fit (40 steps of a numerical Jacobian), six fits a row with the
     * cross-validation, at about 0.3 us an evaluation. */
    double estimate_s = (double)kept * 6.0 * FIT_ITERATIONS * 9.0 * 0.3e-6;
    fprintf(errout, "rooftop: note: fitting %zu group%s over %zu row%s of %d table%s (%zu skipped): about %.0f s\n", ng,
            ng == 1 ? "" : "s", kept, kept == 1 ? "" : "s", tables, tables == 1 ? "" : "s", skipped, ceil(estimate_s));
    bool tty = isatty(fileno(errout));
    double t0 = now_s();
    for (size_t g = 0; g < ng; g++) {
        const struct kernel_row *r0 = &rows[groups[g].first];
        const struct chip_spec *spec = chip_db_find(&o->chips, r0->chip);
        struct kernel_view view;
        struct kernel_chip chip;
        if (!spec) {
            groups[g].n = 0;
            continue;
        }
        kernel_view_for(spec->key, &spec->kernels, &view);
        kernel_chip_of(spec, &view, &chip);
        if (tty) {
            char label[160];
            fprintf(errout, "\r\033[K  %zu/%zu %s (%zu rows)", g + 1, ng, group_label(label, sizeof label, r0),
                    groups[g].n);
            fflush(errout);
        }
        fit_group(rows, &groups[g], &chip, obs, 0x2545F491u + (unsigned)g);
    }
    if (tty)
        fprintf(errout, "\r\033[K");
    double elapsed = now_s() - t0;

    /* The summary. */
    struct pool kinds[RT_KERNEL_KIND_COUNT], chips_pool[32], engines[4];
    int nk = 0, nc = 0, ne = 0;
    double all_sum = 0.0;
    size_t all_n = 0;
    fprintf(out, "%-58s %6s %8s %8s\n", "group (chip engine kind format kernel)", "rows", "fitted", "5-fold");
    for (size_t g = 0; g < ng; g++) {
        if (groups[g].n == 0)
            continue;
        const struct kernel_row *r0 = &rows[groups[g].first];
        char label[160];
        fprintf(out, "%-58s %6zu %7.1f%% %7.1f%%%s\n", group_label(label, sizeof label, r0), groups[g].n,
                100.0 * groups[g].fit_mape, 100.0 * groups[g].cv_mape, groups[g].fitted ? "" : "  (too few rows: defaults)");
        double s = groups[g].cv_mape * (double)groups[g].n;
        pool_add(kinds, &nk, RT_KERNEL_KIND_COUNT, kernel_kind_name(r0->obs.shape.kind), s, groups[g].n);
        pool_add(chips_pool, &nc, 32, r0->chip, s, groups[g].n);
        pool_add(engines, &ne, 4, kernel_engine_label(r0->obs.shape.kind, r0->engine),
                 s, groups[g].n);
        all_sum += s;
        all_n += groups[g].n;
    }
    print_pool(out, "by kind", kinds, nk);
    print_pool(out, "by chip", chips_pool, nc);
    print_pool(out, "by engine", engines, ne);
    fprintf(out, "all: %zu rows, cross-validated MAPE %.1f%% (%zu groups, %.0f s)\n", all_n,
            all_n ? 100.0 * all_sum / (double)all_n : 0.0, ng, elapsed);

    int status = 0;
    if (o->write_profiles)
        status = write_profiles(o->write_profiles, rows, groups, ng, errout);
    if (status == 0 && o->write_chip) {
        struct chip_spec *chip = malloc(sizeof *chip);
        if (!chip) {
            status = 1;
        } else {
            *chip = o->scenario.chip;
            struct kernel_profile *k = &chip->kernels;
            struct kernel_view view;
            kernel_view_for(chip->key, &o->scenario.chip.kernels, &view);
            k->count = 0;
            k->measured = true;
            k->l2_bytes = view.l2_bytes;
            snprintf(k->from, sizeof k->from, "%s", "");
            snprintf(k->source, sizeof k->source, "fitted by rooftop --calibrate %s", o->calibrate_path);
            for (size_t g = 0; g < ng && k->count < RT_KERNEL_FITS_MAX; g++)
                if (groups[g].n > 0 && groups[g].fitted)
                    k->fits[k->count++] = groups[g].fit;
            char werr[700];
            status = userfile_write_chip(o->write_chip, chip, werr, sizeof werr) == 0 ? 0 : 1;
            if (status)
                cli_say(errout, "%s", werr);
            free(chip);
        }
    }
    free(obs);
    free(groups);
    free(rows);
    return status;
}
