/* bench_kernels.c — how fast the measured kernel models are: the median time
 * of one kernel_estimate() per kind (the call the realistic estimate makes
 * for every operation it times), over the measured sample rows in
 * tests/fixtures/kernels, and the rate of `rooftop --validate` on that
 * folder end to end (each row parsed as flags and analyzed as its own
 * scenario, the report written to /dev/null), and of `rooftop --validate`
 * on the measured serving runs of tests/fixtures/serving (each a whole
 * serving analysis). Targets: 10,000 kernel rows validated in under 2 s
 * (at least 5,000 rows/s); the shared 1,987 serving runs in under 2 s
 * (about 1,000 runs/s). Medians over repeated samples;
 * none fails the run. Run from the repository root (make bench does).
 * BENCH_QUICK=1 takes 3 samples instead of 21. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "benchutil.h"

#include "chips.h"
#include "cli.h"
#include "fileio.h"
#include "kernels.h"
#include "kerneltable.h"
#include "validate.h"

#define SAMPLES 21
#define QUICK_SAMPLES 3
#define FIXTURES "tests/fixtures/kernels"
#define SERVING_FIXTURES "tests/fixtures/serving/runs.csv"

static volatile double sink;

/* The sample tables, one per kind (the rows tests/test_kernels.c checks). */
static const char *const tables[] = {
    FIXTURES "/h100_sxm/trtllm/gemm_perf.csv",
    FIXTURES "/h100_sxm/trtllm/context_attention_perf.csv",
    FIXTURES "/h100_sxm/trtllm/generation_attention_perf.csv",
    FIXTURES "/h100_sxm/trtllm/context_mla_perf.csv",
    FIXTURES "/h100_sxm/trtllm/generation_mla_perf.csv",
    FIXTURES "/h100_sxm/vllm/moe_perf.csv",
    FIXTURES "/h100_sxm/vllm/custom_allreduce_perf.csv",
    FIXTURES "/h100_sxm/nccl/nccl_perf.csv",
};

static int time_table(const char *path, int samples)
{
    char *text, err[600];
    size_t len, n;
    struct kernel_row *rows;
    if (read_file(path, &text, &len, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return -1;
    }
    int rc = kernel_table_read(path, text, len, &rows, &n, err, sizeof err);
    free(text);
    if (rc != 0 || n == 0) {
        fprintf(stderr, "bench: %s\n", rc ? err : "no rows");
        return -1;
    }
    const struct chip_spec *spec = chip_find(rows[0].chip);
    if (!spec) {
        fprintf(stderr, "bench: %s: unknown chip %s\n", path, rows[0].chip);
        free(rows);
        return -1;
    }
    struct kernel_view v;
    struct kernel_chip c;
    kernel_view_for(spec->key, &spec->kernels, &v);
    kernel_chip_of(spec, &v, &c);
    double per_row[SAMPLES];
    const int repeats = 50;
    size_t used = 0;
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        used = 0;
        for (int r = 0; r < repeats; r++)
            for (size_t i = 0; i < n; i++) {
                if (rows[i].skipped[0])
                    continue;
                struct kernel_estimate e;
                sink += kernel_estimate(&rows[i].obs.shape, &c, &v, rows[i].engine, &e);
                used++;
            }
        per_row[k] = (now_s() - t0) / (double)(used ? used : 1);
    }
    double t = median(per_row, (size_t)samples);
    printf("kernel_estimate %-26s %6.2f us per call   (%zu rows, %s %s; no target)\n", rows[0].table, t * 1e6,
           used / repeats, rows[0].chip, kernel_engine_name(rows[0].engine));
    free(rows);
    return 0;
}

/* --validate on path as the command line runs it, `samples` times; the
 * rows come from the first run's JSON summary. Prints the rate and the
 * time `target_rows` rows would take against target_s. Returns 0, or 1
 * with the reason on stderr. */
static int time_validate(const char *path, int samples, double target_rows, const char *what, double target_s)
{
    char *argv[] = {(char *)"rooftop", (char *)"--validate", (char *)path, (char *)"--format=json", NULL};
    struct cli_options *o = calloc(1, sizeof *o);
    char err[600];
    if (!o || cli_parse(4, argv, o, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", o ? err : "out of memory");
        cli_options_free(o);
        free(o);
        return 1;
    }
    char *json = NULL;
    size_t json_len = 0;
    FILE *mem = open_memstream(&json, &json_len);
    int rc = mem ? run_validate(o, mem, stderr) : 1;
    if (mem)
        fclose(mem);
    cJSON *doc = rc == 0 ? cJSON_Parse(json) : NULL;
    const cJSON *rows_item = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "summary"), "rows");
    double rows = cJSON_IsNumber(rows_item) ? rows_item->valuedouble : 0.0;
    cJSON_Delete(doc);
    free(json);
    FILE *null = rows > 0.0 ? fopen("/dev/null", "w") : NULL;
    if (!null) {
        fprintf(stderr, "bench: --validate %s: %s\n", path, rows > 0.0 ? "cannot open /dev/null" : "no rows");
        cli_options_free(o);
        free(o);
        return 1;
    }
    double run[SAMPLES];
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        if (run_validate(o, null, stderr) != 0) {
            fprintf(stderr, "bench: --validate %s failed\n", path);
            fclose(null);
            cli_options_free(o);
            free(o);
            return 1;
        }
        run[k] = now_s() - t0;
    }
    fclose(null);
    cli_options_free(o);
    free(o);
    double run_s = median(run, (size_t)samples);
    double rows_per_s = rows / run_s;
    printf("--validate %s  %8.0f rows/s   (%.0f rows in %.3f s; %s in %.2f s; target < %.0f s: %s)\n", path,
           rows_per_s, rows, run_s, what, target_rows / rows_per_s, target_s,
           target_met(target_rows / rows_per_s < target_s));
    return 0;
}

int main(void)
{
    const int samples = bench_quick() ? QUICK_SAMPLES : SAMPLES;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (time_table(tables[i], samples) != 0)
            return 1;
    /* the kernel tables, and the measured serving runs (issue 19: the shared 1,987 runs in under 2 s;
     * the repository's seven stand in, each a whole serving analysis) */
    if (time_validate(FIXTURES, samples, 1e4, "10,000 rows", 2.0) != 0 ||
        time_validate(SERVING_FIXTURES, samples, 1987.0, "1,987 runs", 2.0) != 0)
        return 1;
    printf("(medians of %d samples%s)\n", samples, samples < SAMPLES ? ", BENCH_QUICK: rough figures" : "");
    return 0;
}
