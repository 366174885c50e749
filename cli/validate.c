/* validate.c — measured rows against rooftop's predictions (validate.h). */
#include "validate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "cli.h"
#include "fileio.h"
#include "jsonio.h"
#include "kernelcal.h"
#include "kerneltable.h"
#include "measured.h"
#include "report.h"
#include "strbuf.h"
#include "units.h"
#include "userfiles.h"

#define MAX_ARGS 64

/* Where a serving run's two predictions sit in `rooftop ARGS --report=json`. */
#define SERVING_TTFT_FIGURE "serving.benchmark_ttft_s"
#define SERVING_TPOT_FIGURE "serving.benchmark_tpot_s"

/* One row's outcome. */
struct vrow {
    int line;
    char file[160];
    char table[48], chip[RT_CHIP_KEY_MAX], engine[24], kind[48], format[24], kernel[16];
    double measured_s, predicted_s, floor_s;
    /* On the heap, so that a row is small (a whole data set is held at once): */
    char *args;     /* argc flags, each NUL-terminated, one after another */
    int argc;
    char *figure;   /* the JSON path of the prediction in `rooftop --report=json ARGS` */
    char *skipped;  /* NULL, or why the row was not predicted */
    /* A serving run: measured_s/predicted_s are its TTFT, these its TPOT. */
    bool serving;
    double measured_tpot_s, predicted_tpot_s;
    char mode[8], concurrency[24];
};

/* Copies text into *out (freeing what was there). Returns 0, or -1 when
 * memory runs out. */
static int set_text(char **out, const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return -1;
    free(*out);
    *out = copy;
    return 0;
}

/* Packs args[0..argc) into v->args. Returns 0, or -1 when memory runs out. */
static int set_args(struct vrow *v, char *const *args, int argc)
{
    size_t len = 0;
    for (int i = 0; i < argc; i++)
        len += strlen(args[i]) + 1;
    char *packed = malloc(len ? len : 1), *p = packed;
    if (!packed)
        return -1;
    for (int i = 0; i < argc; i++) {
        size_t k = strlen(args[i]) + 1;
        memcpy(p, args[i], k);
        p += k;
    }
    free(v->args);
    v->args = packed;
    v->argc = argc;
    return 0;
}

static void vrows_free(struct vrow *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++)
        free(rows[i].args), free(rows[i].figure), free(rows[i].skipped);
    free(rows);
}

/* Runs a row's flags args[0..argc) as `rooftop ARGS --report=json` would:
 * keeps them in v, parses them into *scratch and analyzes them into *a.
 * Returns 1 when *a holds the analysis, 0 when the row is skipped (the
 * reason in v), -1 when memory runs out. */
static int analyze_row(char args[][400], int argc, struct vrow *v, struct cli_options *scratch, struct analysis *a)
{
    char *argv[MAX_ARGS + 3];
    argv[0] = (char *)"rooftop";
    for (int i = 0; i < argc; i++)
        argv[i + 1] = args[i];
    argv[argc + 1] = (char *)"--report=json"; /* as the row's figure is read: `rooftop --report=json ARGS` */
    argv[argc + 2] = NULL;
    if (set_args(v, argv + 1, argc) != 0)
        return -1;
    char err[600];
    int rc = 1;
    if (cli_parse(argc + 2, argv, scratch, err, sizeof err) != 0)
        rc = set_text(&v->skipped, err) != 0 ? -1 : 0;
    else if (analyze(&scratch->scenario, a, err, sizeof err) != 0)
        rc = set_text(&v->skipped, err) != 0 ? -1 : 0;
    cli_options_free(scratch);
    return rc;
}

/* Predicts a kernel row by its flags (analyze_row). */
static int predict_kernel(const struct kernel_row *r, struct vrow *v, struct cli_options *scratch,
                          struct analysis *a, const char *kernels_from)
{
    char args[MAX_ARGS][400];
    int argc = kernel_row_args(r, args, MAX_ARGS - 2);
    if (argc > 0 && kernels_from && kernels_from[0]) { /* a transfer test: another chip's fits */
        snprintf(args[argc++], sizeof args[0], "--kernels-from");
        snprintf(args[argc++], sizeof args[0], "%s", kernels_from);
    }
    if (argc == 0)
        return set_text(&v->skipped, r->skipped[0] ? r->skipped : "not expressible");
    int rc = analyze_row(args, argc, v, scratch, a);
    if (rc != 1)
        return rc;
    v->predicted_s = a->operation.estimate.realistic_s;
    v->floor_s = a->operation.estimate.floor_s;
    const struct kernel_fit *f = a->operation.estimate.fit;
    snprintf(v->kernel, sizeof v->kernel, "%s",
             kernel_family_name(f ? (enum rt_kernel_family)f->family : r->obs.shape.family));
    return set_text(&v->figure, "operation.realistic_s");
}

/* The figure a case row's metric reads, as JSON paths of the realistic estimate. */
static void metric_figure(const char *metric, char *out, size_t size)
{
    const char *rest = strchr(metric, ':');
    rest = rest ? rest + 1 : metric;
    if (strncmp(metric, "key:", 4) == 0 || strncmp(metric, "sum:", 4) == 0) {
        char buf[RT_OBS_METRIC_MAX];
        snprintf(buf, sizeof buf, "%s", rest);
        out[0] = '\0';
        for (char *tok = strtok(buf, "+"); tok; tok = strtok(NULL, "+")) {
            const char *leaf = strncmp(tok, "latency.detailed.", 17) == 0 ? tok + 17 : tok;
            size_t used = strlen(out);
            snprintf(out + used, size - used, "%slatency.realistic.%s", used ? "+" : "", leaf);
        }
    } else if (strncmp(metric, "comm:", 5) == 0) {
        snprintf(out, size, "latency.realistic.%.40s_comms_s/(2*model.layers)", rest);
    } else { /* ops:PHASE:a+b[:per_layer] */
        char buf[RT_OBS_METRIC_MAX], phase[RT_OBS_METRIC_MAX] = "";
        snprintf(buf, sizeof buf, "%s", rest);
        char *names = strchr(buf, ':');
        if (!names) {
            snprintf(out, size, "%s", metric);
            return;
        }
        *names++ = '\0';
        snprintf(phase, sizeof phase, "%s", buf);
        char *per = strchr(names, ':');
        if (per)
            *per++ = '\0';
        out[0] = '\0';
        for (char *tok = strtok(names, "+"); tok; tok = strtok(NULL, "+")) {
            size_t used = strlen(out);
            snprintf(out + used, size - used, "%splacement[%s:%s].realistic_time_s", used ? "+" : "", phase, tok);
        }
        if (per && strcmp(per, "per_layer") == 0) {
            size_t used = strlen(out);
            snprintf(out + used, size - used, "/model.layers");
        }
    }
}

/* Reads rooftop's own cases (measured.h) and predicts each. */
static int validate_cases(const struct cli_options *o, const char *text, size_t len, struct vrow **out, size_t *count,
                          FILE *errout)
{
    char err[600];
    struct observation *obs;
    size_t n;
    struct load_warnings w = {0};
    if (measured_read(o->validate_path, text, len, &o->scenario, cli_scenario_from_flags, &obs, &n, &w, err,
                      sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    struct vrow *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) {
        free(obs);
        return 1;
    }
    static char words[MAX_ARGS][CSV_FIELD_MAX];
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct vrow *v = &rows[i];
        v->line = obs[i].line;
        snprintf(v->file, sizeof v->file, "%s", o->validate_path);
        snprintf(v->table, sizeof v->table, "%s", obs[i].level);
        snprintf(v->chip, sizeof v->chip, "%s", obs[i].scenario.chip.key);
        snprintf(v->engine, sizeof v->engine, "%s", obs[i].scenario.engine.name);
        snprintf(v->kind, sizeof v->kind, "%s", obs[i].id);
        snprintf(v->format, sizeof v->format, "%s", precision_name(obs[i].scenario.precision));
        v->measured_s = obs[i].measured_s;
        if (observation_predict(&obs[i], true, &v->predicted_s, err, sizeof err) != 0 ||
            observation_predict(&obs[i], false, &v->floor_s, err, sizeof err) != 0) {
            rc = set_text(&v->skipped, err);
            continue;
        }
        char figure[RT_OBS_METRIC_MAX * 4];
        metric_figure(obs[i].metric, figure, sizeof figure);
        /* The flags, one argument each, as the row ran them (measured.c splits them the same way). */
        int argc = split_words(obs[i].args, words, MAX_ARGS);
        char *argv[MAX_ARGS];
        for (int k = 0; k < argc; k++)
            argv[k] = words[k];
        rc = set_text(&v->figure, figure) != 0 || argc < 0 || set_args(v, argv, argc) != 0 ? -1 : 0;
    }
    if (rc != 0) {
        vrows_free(rows, n);
        free(obs);
        cli_say(errout, "%s: %s", o->validate_path, "out of memory, or a row with more flags than it can list");
        return 1;
    }
    free(obs);
    *out = rows;
    *count = n;
    return 0;
}

/* A run's field by column name; "" when the column is missing. */
static const char *run_field(char f[][CSV_FIELD_MAX], int k, char header[][CSV_FIELD_MAX], int nh, const char *name)
{
    int c = csv_column(header, nh, name);
    return c >= 0 && c < k ? f[c] : "";
}

/* A whole number field, or `otherwise` when blank or below 1. */
static long long run_degree(const char *text, long long otherwise)
{
    char *end;
    double v = strtod(text, &end);
    return end != text && v >= 1.0 && v < 1e9 ? (long long)v : otherwise;
}

/* The runs' models.csv (beside them), read once: model_path -> config.json
 * under the same folder. */
struct run_models {
    char dir[600];  /* the runs' folder, with its slash ("" for the current one) */
    char *text;     /* models.csv, or NULL when it could not be read */
    size_t len;
    char err[600];  /* why not */
    char last_config[400];     /* the config last read for its checkpoint's format, and that format */
    int last_checkpoint;       /* enum rt_precision, or -1 when it could not be read */
};

/* The stored format of the checkpoint at config (enum rt_precision), read
 * once per config in a row; -1 when the config cannot be read (the run is
 * then refused later, by the scenario's own reading of it). */
static int run_checkpoint_precision(struct run_models *m, const char *config)
{
    if (strcmp(m->last_config, config) != 0) {
        struct model_shape shape;
        char err[300];
        snprintf(m->last_config, sizeof m->last_config, "%s", config);
        m->last_checkpoint = userfile_model("--validate", config, &shape, NULL, err, sizeof err) == 0
                                 ? shape.checkpoint_precision : -1;
    }
    return m->last_checkpoint;
}

static void run_models_open(struct run_models *m, const char *runs_path)
{
    snprintf(m->dir, sizeof m->dir, "%s", runs_path);
    m->last_config[0] = '\0';
    m->last_checkpoint = -1;
    char *slash = strrchr(m->dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        m->dir[0] = '\0';
    char path[700];
    snprintf(path, sizeof path, "%smodels.csv", m->dir);
    m->text = NULL;
    if (read_file(path, &m->text, &m->len, m->err, sizeof m->err) != 0)
        m->text = NULL;
}

/* The config of model_path into out. Returns 0, or -1 with why. */
static int run_model_config(const struct run_models *m, const char *model_path, char *out, size_t size, char *why,
                            size_t wsize)
{
    if (!m->text) {
        snprintf(why, wsize, "no models.csv beside the runs to find %.100s's config (%.300s)", model_path, m->err);
        return -1;
    }
    static char f[4][CSV_FIELD_MAX];
    size_t pos = 0;
    int k = csv_record(m->text, m->len, &pos, f, 4); /* the header */
    while (k > 0) {
        k = csv_record(m->text, m->len, &pos, f, 4);
        if (k >= 2 && strcmp(f[0], model_path) == 0) {
            snprintf(out, size, "%.180s%.190s", m->dir, f[1]);
            return 0;
        }
    }
    snprintf(why, wsize, "models.csv names no config for %s", model_path);
    return -1;
}

/* The flags that express a serving run (data/serving/README.md), into
 * args; returns their count, or 0 with why when rooftop cannot express it. */
static int serving_run_args(struct run_models *models, char f[][CSV_FIELD_MAX], int k, char h[][CSV_FIELD_MAX], int nh,
                            char args[][400], int max, long long *concurrency, char *why, size_t wsize)
{
    static const struct { const char *system, *chip; } chips[] = {
        {"h100_sxm", "h100"}, {"h200_sxm", "h200"}, {"b200_sxm", "b200"}, {"gb200", "gb200"}, {"b300_sxm", "b300"},
        {"gb300", "gb300"}};
    const char *system = run_field(f, k, h, nh, "system"), *chip = NULL;
    for (size_t i = 0; i < sizeof chips / sizeof chips[0]; i++)
        if (strcmp(system, chips[i].system) == 0)
            chip = chips[i].chip;
    if (!chip) {
        snprintf(why, wsize, "system '%s' is not a chip rooftop knows", system);
        return 0;
    }
    const char *model = run_field(f, k, h, nh, "model_path");
    char config[380];
    if (run_model_config(models, model, config, sizeof config, why, wsize) != 0)
        return 0;
    const char *q = run_field(f, k, h, nh, "gemm_quant_mode");
    const char *precision = strcmp(q, "fp8") == 0 ? "fp8" : strcmp(q, "fp8_block") == 0 ? "fp8-block"
                            : strcmp(q, "nvfp4") == 0 ? "nvfp4" : strcmp(q, "int4_wo") == 0 ? "int4"
                            : q[0] == '\0' ? "bf16" : NULL;
    if (!precision) {
        snprintf(why, wsize, "quantisation '%s' is not one rooftop knows", q);
        return 0;
    }
    /* An fp8 run of a checkpoint stored with 128x128 block scales (DeepSeek-V3's) runs those scales: the
     * engines load such weights as they are (the runs label their GEMMs fp8, their experts fp8_block). */
    if (strcmp(q, "fp8") == 0 && (strcmp(run_field(f, k, h, nh, "moe_quant_mode"), "fp8_block") == 0 ||
                                  run_checkpoint_precision(models, config) == RT_FP8_BLOCK))
        precision = "fp8-block";
    if (strstr(model, "gpt-oss")) /* its checkpoint's experts are MXFP4 whatever the run's label */
        precision = "mxfp4";
    long long isl = run_degree(run_field(f, k, h, nh, "isl"), 0), osl = run_degree(run_field(f, k, h, nh, "osl"), 0);
    if (!isl || !osl) {
        snprintf(why, wsize, "no isl or osl");
        return 0;
    }
    bool disagg = strcmp(run_field(f, k, h, nh, "mode"), "disagg") == 0;
    const char *pre = disagg ? "decode_" : "";
    char key[64];
#define RUN_DEG(name, d) (snprintf(key, sizeof key, "%s%s", pre, name), run_degree(run_field(f, k, h, nh, key), d))
    long long tp = RUN_DEG("tp_size", 1), pp = RUN_DEG("pp_size", 1), adp = RUN_DEG("attention_dp_size", 1);
    long long moe_ep = RUN_DEG("moe_ep_size", 1), workers = disagg ? RUN_DEG("num_workers", 1) : 1;
    long long batch = RUN_DEG("batch_size", 0);
#undef RUN_DEG
    /* the concurrency the benchmark ran (its source), else batch per attention-DP rank x ranks x workers */
    const char *src = strstr(run_field(f, k, h, nh, "silicon_data_source"), "silicon_concurrency=");
    long long c = src ? run_degree(src + strlen("silicon_concurrency="), 0) : batch * adp * workers;
    if (c < 1) {
        snprintf(why, wsize, "no concurrency");
        return 0;
    }
    *concurrency = c;
    if (disagg && (!run_degree(run_field(f, k, h, nh, "prefill_num_workers"), 0) ||
                   !run_degree(run_field(f, k, h, nh, "decode_num_workers"), 0))) {
        snprintf(why, wsize, "a disaggregated run that records no prefill or decode workers");
        return 0;
    }
    /* batch_size is each attention-DP rank's share (data/serving/README.md): more clients than the
     * engine's ranks hold ran on more engines (replicas behind one router) */
    if (!disagg && batch > 0 && c > batch * adp * workers)
        workers = (c + batch * adp - 1) / (batch * adp);
    long long per_replica = (c + workers - 1) / workers;
    if (per_replica < adp)
        per_replica = adp;
    int n = 0;
#define ARG(...) (n < max ? snprintf(args[n++], sizeof args[0], __VA_ARGS__) : 0)
    ARG("--model"), ARG("%s", config), ARG("--chip"), ARG("%s", chip);
    ARG("--engine"), ARG("%s", run_field(f, k, h, nh, "backend"));
    ARG("--precision"), ARG("%s", precision);
    /* The runs name no KV format. TensorRT-LLM takes it from the checkpoint (hf_quant_config.json's
     * kv_cache_quant_algo), and NVIDIA's ModelOpt FP8 and NVFP4 checkpoints set FP8; vLLM and SGLang
     * default to the model's dtype (kv_cache_dtype "auto"). */
    bool quantized = strcmp(precision, "bf16") != 0 && strcmp(precision, "mxfp4") != 0;
    if (quantized && strcmp(run_field(f, k, h, nh, "backend"), "trtllm") == 0)
        ARG("--kv-precision"), ARG("fp8");
    ARG("--concurrency"), ARG("%lld", per_replica);
    ARG("--prefill-tokens"), ARG("%lld", isl), ARG("--decode-tokens"), ARG("%lld", osl);
    ARG("--context"), ARG("%lld", isl + osl);
    ARG("--tp"), ARG("%lld", tp), ARG("--pp"), ARG("%lld", pp), ARG("--ep"), ARG("%lld", adp);
    if (moe_ep > 1)
        ARG("--moe-ep"), ARG("%lld", moe_ep);
    if (workers > 1)
        ARG("--dp"), ARG("%lld", workers);
    if (disagg) {
        long long ptp = run_degree(run_field(f, k, h, nh, "prefill_tp_size"), 1);
        long long pdp = run_degree(run_field(f, k, h, nh, "prefill_attention_dp_size"), 1);
        long long pw = run_degree(run_field(f, k, h, nh, "prefill_num_workers"), 1);
        if (run_degree(run_field(f, k, h, nh, "prefill_pp_size"), 1) > 1) {
            snprintf(why, wsize, "a pipelined prefill worker");
            return 0;
        }
        ARG("--disagg"), ARG("%lld:%lld", pw * ptp * pdp, tp * pp * adp);
        ARG("--prefill-tp"), ARG("%lld", ptp), ARG("--prefill-dp"), ARG("%lld", pdp);
        long long pep = run_degree(run_field(f, k, h, nh, "prefill_moe_ep_size"), 1);
        if (pep > 1)
            ARG("--prefill-moe-ep"), ARG("%lld", pep);
    }
#undef ARG
    return n;
}

/* A table of measured serving runs (data/serving/runs.csv): each run's
 * flags, analyzed as `rooftop ARGS --report=json`, and the benchmark's TTFT
 * and TPOT there (serving.benchmark_ttft_s, serving.benchmark_tpot_s). */
static int validate_serving_runs(const struct cli_options *o, const char *text, size_t len, struct vrow **out,
                                 size_t *count)
{
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    struct vrow *rows = calloc(lines, sizeof *rows);
    struct cli_options *scratch = malloc(sizeof *scratch);
    struct analysis *a = malloc(sizeof *a);
    static char header[64][CSV_FIELD_MAX], f[64][CSV_FIELD_MAX];
    if (!rows || !scratch || !a) {
        free(rows), free(scratch), free(a);
        return 1;
    }
    struct run_models models;
    run_models_open(&models, o->validate_path);
    size_t pos = 0, n = 0;
    int nh = csv_record(text, len, &pos, header, 64), rc = 0;
    int line = 1; /* the line the next record starts on */
    for (size_t i = 0; i < pos && i < len; i++)
        line += text[i] == '\n';
    while (rc == 0 && pos < len && n < lines) {
        size_t at = pos;
        while (at < len && (text[at] == '\n' || text[at] == '\r')) /* the end of the last record's line */
            line += text[at++] == '\n';
        int start = line;
        int k = csv_record(text, len, &pos, f, 64);
        for (size_t i = at; i < pos && i < len; i++)
            line += text[i] == '\n';
        if (k <= 1)
            continue;
        struct vrow *v = &rows[n++];
        v->line = start;
        v->serving = true;
        snprintf(v->file, sizeof v->file, "%s", o->validate_path);
        snprintf(v->table, sizeof v->table, "serving");
        snprintf(v->mode, sizeof v->mode, "%s", run_field(f, k, header, nh, "mode"));
        snprintf(v->chip, sizeof v->chip, "%s", run_field(f, k, header, nh, "system"));
        snprintf(v->engine, sizeof v->engine, "%s", run_field(f, k, header, nh, "backend"));
        snprintf(v->kind, sizeof v->kind, "%.47s", run_field(f, k, header, nh, "model_path"));
        const char *q = run_field(f, k, header, nh, "gemm_quant_mode");
        snprintf(v->format, sizeof v->format, "%s", q[0] ? q : "bf16");
        v->measured_s = strtod(run_field(f, k, header, nh, "silicon_ttft_ms"), NULL) / 1e3;
        v->measured_tpot_s = strtod(run_field(f, k, header, nh, "silicon_tpot_ms"), NULL) / 1e3;
        char args[MAX_ARGS][400], why[600] = "";
        long long conc = 0;
        int argc = serving_run_args(&models, f, k, header, nh, args, MAX_ARGS - 2, &conc, why, sizeof why);
        snprintf(v->concurrency, sizeof v->concurrency, "%lld", conc);
        if (!(v->measured_s > 0.0) || !(v->measured_tpot_s > 0.0)) {
            rc = set_text(&v->skipped, "no measured TTFT or TPOT");
            continue;
        }
        if (argc == 0) {
            rc = set_text(&v->skipped, why);
            continue;
        }
        int got = analyze_row(args, argc, v, scratch, a);
        rc = got < 0 ? -1 : 0;
        if (got == 1) {
            v->predicted_s = a->serving.benchmark_ttft_s;      /* at SERVING_TTFT_FIGURE */
            v->predicted_tpot_s = a->serving.benchmark_tpot_s; /* at SERVING_TPOT_FIGURE */
        }
    }
    free(models.text);
    free(scratch);
    free(a);
    if (rc != 0) {
        vrows_free(rows, n);
        return 1;
    }
    *out = rows;
    *count = n;
    return 0;
}

/* Reads kernel tables and predicts each row. */
static int validate_kernels(const struct cli_options *o, struct vrow **out, size_t *count, FILE *errout)
{
    char err[600];
    struct kernel_row *krows;
    size_t n;
    if (kernel_tables_read(o->validate_path, &krows, &n, NULL, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    struct vrow *rows = calloc(n ? n : 1, sizeof *rows);
    struct cli_options *scratch = malloc(sizeof *scratch);
    struct analysis *a = malloc(sizeof *a); /* one for every row: an analysis is large */
    if (!rows || !scratch || !a) {
        free(rows), free(scratch), free(a), free(krows);
        return 1;
    }
    struct stat st;
    bool folder = stat(o->validate_path, &st) == 0 && S_ISDIR(st.st_mode);
    for (size_t i = 0; i < n; i++) {
        const struct kernel_row *r = &krows[i];
        struct vrow *v = &rows[i];
        v->line = r->line;
        /* the table's path under the folder given (SYSTEM/ENGINE/TABLE.csv), or the file given */
        if (folder)
            snprintf(v->file, sizeof v->file, "%s/%s/%s.csv", r->system,
                     kernel_engine_label(r->obs.shape.kind, r->engine), r->table);
        else
            snprintf(v->file, sizeof v->file, "%s", o->validate_path);
        snprintf(v->table, sizeof v->table, "%s", r->table);
        snprintf(v->chip, sizeof v->chip, "%s", r->chip);
        snprintf(v->engine, sizeof v->engine, "%s",
                 kernel_engine_label(r->obs.shape.kind, r->engine));
        snprintf(v->kind, sizeof v->kind, "%s", kernel_kind_name(r->obs.shape.kind));
        snprintf(v->format, sizeof v->format, "%s", kernel_format_name(r->obs.shape.format));
        v->measured_s = r->obs.measured_s;
        if (predict_kernel(r, v, scratch, a, o->kernels_from) != 0) {
            free(scratch), free(a), free(krows);
            vrows_free(rows, n);
            cli_say(errout, "out of memory");
            return 1;
        }
    }
    free(scratch);
    free(a);
    free(krows);
    *out = rows;
    *count = n;
    return 0;
}

/* A measured time's decade: "1-10 us", "10-100 us" ...; returns its index (0-7). */
static int decade_of(double s, char *out, size_t size)
{
    static const char *const names[] = {"<1 us", "1-10 us", "10-100 us", "100 us-1 ms", "1-10 ms", "10-100 ms",
                                        "100 ms-1 s", ">1 s"};
    int d = (int)floor(log10(s * 1e6)) + 1;
    d = d < 0 ? 0 : d > 7 ? 7 : d;
    snprintf(out, size, "%s", names[d]);
    return d;
}

/* A group's errors. */
struct vgroup {
    char by[12], name[48];
    int rank; /* the order groups print in: by kind of group, then (sizes) by decade */
    double *err;
    size_t n, cap;
};

/* Adds error e to the group (by, name), making it when new. Returns 0, or
 * -1 when memory runs out (nothing is changed then). */
static int group_add(struct vgroup **g, size_t *ng, const char *by, const char *name, int rank, double e)
{
    struct vgroup *x = NULL;
    for (size_t i = 0; i < *ng && !x; i++)
        if (strcmp((*g)[i].by, by) == 0 && strcmp((*g)[i].name, name) == 0)
            x = &(*g)[i];
    if (!x) {
        struct vgroup *grown = realloc(*g, (*ng + 1) * sizeof **g);
        if (!grown)
            return -1;
        *g = grown;
        x = &(*g)[*ng];
        memset(x, 0, sizeof *x);
        snprintf(x->by, sizeof x->by, "%s", by);
        snprintf(x->name, sizeof x->name, "%s", name);
        x->rank = rank;
        (*ng)++;
    }
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        double *err = realloc(x->err, cap * sizeof *err);
        if (!err)
            return -1;
        x->err = err;
        x->cap = cap;
    }
    x->err[x->n++] = e;
    return 0;
}

/* Groups by kind (table, chip, engine, format, size), sizes by decade,
 * the rest by name. */
static int by_group(const void *a, const void *b)
{
    const struct vgroup *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    return strcmp(x->name, y->name);
}

/* The errors of the predicted rows, overall, by group (sorted) and, for
 * serving runs, TTFT and TPOT apart. */
struct vsummary {
    struct vgroup *g;
    size_t ng, done, skipped, within, serving_runs;
    double *all, *ttft_err, *tpot_err;
    double mape, med;
};

static void vsummary_free(struct vsummary *S)
{
    for (size_t i = 0; i < S->ng; i++)
        free(S->g[i].err);
    free(S->g);
    free(S->all), free(S->ttft_err), free(S->tpot_err);
}

/* Fills *S from the rows. Returns 0, or -1 when memory runs out (S freed). */
static int vsummary_build(const struct vrow *rows, size_t n, struct vsummary *S)
{
    memset(S, 0, sizeof *S);
    S->all = malloc((n ? n : 1) * sizeof *S->all);
    S->ttft_err = malloc((n ? n : 1) * sizeof *S->ttft_err), S->tpot_err = malloc((n ? n : 1) * sizeof *S->tpot_err);
    struct vgroup *g = NULL;
    size_t ng = 0, done = 0, skipped = 0, within = 0, serving_runs = 0;
    double *all = S->all, *ttft_err = S->ttft_err, *tpot_err = S->tpot_err;
    int rc = all && ttft_err && tpot_err ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const struct vrow *v = &rows[i];
        if (v->skipped) {
            skipped++;
            continue;
        }
        double e = fabs(v->predicted_s - v->measured_s) / v->measured_s;
        all[done++] = e;
        within += v->floor_s <= v->measured_s * 1.0000001;
        if (v->serving) { /* TTFT and TPOT apart, by engine, GPU, mode, precision and concurrency */
            double e2 = fabs(v->predicted_tpot_s - v->measured_tpot_s) / v->measured_tpot_s;
            ttft_err[serving_runs] = e;
            tpot_err[serving_runs++] = e2;
            long long c = atoll(v->concurrency);
            char conc[48];
            int at = c <= 8 ? 0 : c <= 64 ? 1 : c <= 256 ? 2 : 3;
            static const char *const bands[] = {"1-8", "9-64", "65-256", ">256"};
            static const char *const by[5] = {"engine", "chip", "mode", "format", "clients"};
            for (int m = 0; m < 2 && rc == 0; m++) {
                const char *metric = m == 0 ? "TTFT" : "TPOT";
                double x = m == 0 ? e : e2;
                const char *names[5] = {v->engine, v->chip, v->mode, v->format, bands[at]};
                rc = group_add(&g, &ng, "metric", metric, m, x);
                for (int b = 0; b < 5 && rc == 0; b++) {
                    snprintf(conc, sizeof conc, "%s %.30s", metric, names[b]);
                    rc = group_add(&g, &ng, by[b], conc, 100 * (b + 1) + (b == 4 ? at : 0) + m * 10, x);
                }
            }
            continue;
        }
        char dec[24];
        int decade = decade_of(v->measured_s, dec, sizeof dec);
        if (group_add(&g, &ng, "table", v->table, 0, e) || group_add(&g, &ng, "chip", v->chip, 100, e) ||
            group_add(&g, &ng, "engine", v->engine, 200, e) || group_add(&g, &ng, "format", v->format, 300, e) ||
            group_add(&g, &ng, "size", dec, 400 + decade, e))
            rc = -1;
    }
    S->g = g, S->ng = ng, S->done = done, S->skipped = skipped, S->within = within, S->serving_runs = serving_runs;
    if (rc != 0) {
        vsummary_free(S);
        return -1;
    }
    if (ng > 1)
        qsort(g, ng, sizeof *g, by_group);
    S->mape = mean_of(all, done), S->med = median_of(all, done);
    return 0;
}

/* One row of the JSON report: where it is, then why it was skipped, or
 * what it ran, measured and predicted, the flags that rerun it and the
 * paths of its figures in that run's report. */
static cJSON *validation_row_json(const struct vrow *v)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "line", v->line);
    cJSON_AddStringToObject(r, "file", v->file);
    if (v->skipped) {
        cJSON_AddStringToObject(r, "skipped", v->skipped);
    } else {
        cJSON_AddStringToObject(r, "table", v->table);
        cJSON_AddStringToObject(r, "chip", v->chip);
        cJSON_AddStringToObject(r, "engine", v->engine);
        cJSON_AddStringToObject(r, "kind", v->kind);
        cJSON_AddStringToObject(r, "format", v->format);
        if (v->kernel[0])
            cJSON_AddStringToObject(r, "kernel", v->kernel);
        if (v->serving) {
            cJSON_AddStringToObject(r, "mode", v->mode);
            cJSON_AddNumberToObject(r, "concurrency", atof(v->concurrency));
            cJSON *m = cJSON_AddObjectToObject(r, "measured"), *p = cJSON_AddObjectToObject(r, "predicted");
            json_add_exact(m, "ttft_s", v->measured_s);
            json_add_exact(m, "tpot_s", v->measured_tpot_s);
            json_add_exact(p, "ttft_s", v->predicted_s);
            json_add_exact(p, "tpot_s", v->predicted_tpot_s);
        } else {
            json_add_exact(r, "measured_s", v->measured_s);
            json_add_exact(r, "predicted_s", v->predicted_s);
            json_add_exact(r, "floor_s", v->floor_s);
        }
        cJSON *args = cJSON_AddArrayToObject(r, "args");
        const char *arg = v->args;
        for (int k = 0; k < v->argc; k++, arg += strlen(arg) + 1)
            cJSON_AddItemToArray(args, cJSON_CreateString(arg));
        if (v->serving) {
            cJSON *fig = cJSON_AddObjectToObject(r, "figures");
            cJSON_AddStringToObject(fig, "ttft_s", SERVING_TTFT_FIGURE);
            cJSON_AddStringToObject(fig, "tpot_s", SERVING_TPOT_FIGURE);
        } else {
            cJSON_AddStringToObject(r, "figure", v->figure ? v->figure : "");
        }
    }
    return r;
}

/* The rows, the groups and the summary as JSON (cli/validate.h lists the keys). */
static void print_validation_json(const struct vrow *rows, size_t n, const struct vsummary *S, FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(root, "rows");
    for (size_t i = 0; i < n; i++) {
        const struct vrow *v = &rows[i];
        cJSON *r = validation_row_json(v);
        cJSON_AddItemToArray(list, r);
    }
    cJSON *groups = cJSON_AddArrayToObject(root, "groups");
    for (size_t i = 0; i < S->ng; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "by", S->g[i].by);
        cJSON_AddStringToObject(x, "name", S->g[i].name);
        cJSON_AddNumberToObject(x, "rows", (double)S->g[i].n);
        json_add_exact(x, "mape", mean_of(S->g[i].err, S->g[i].n));
        json_add_exact(x, "median_ape", median_of(S->g[i].err, S->g[i].n));
        cJSON_AddItemToArray(groups, x);
    }
    cJSON *sum = cJSON_AddObjectToObject(root, "summary");
    cJSON_AddNumberToObject(sum, "rows", (double)S->done);
    cJSON_AddNumberToObject(sum, "skipped", (double)S->skipped);
    json_add_exact(sum, "mape", S->mape);
    json_add_exact(sum, "median_ape", S->med);
    if (S->serving_runs > 0) {
        json_add_exact(sum, "ttft_mape", mean_of(S->ttft_err, S->serving_runs));
        json_add_exact(sum, "tpot_mape", mean_of(S->tpot_err, S->serving_runs));
        json_add_exact(sum, "ttft_median_ape", median_of(S->ttft_err, S->serving_runs));
        json_add_exact(sum, "tpot_median_ape", median_of(S->tpot_err, S->serving_runs));
        json_add_exact(sum, "expressed", (double)S->done / (double)(S->done + S->skipped));
    } else {
        json_add_exact(sum, "within_floor", S->done ? (double)S->within / (double)S->done : 0.0);
    }
    struct strbuf sb = {0};
    json_finish(&sb, root);
    char *text = report_take(&sb, RT_FORMAT_JSON);
    if (text)
        fputs(text, out);
    free(text);
}

/* The text or markdown table's columns, as wide as their widest entry (so that long names keep
 * them aligned), and its header row. */
struct vwidths {
    int where, chip, engine, kind, format, group;
};

static struct vwidths print_validation_header(bool md, const struct vrow *rows, size_t n, const struct vsummary *S,
                                              FILE *out)
{
    const struct vgroup *g = S->g;
    size_t ng = S->ng;
    int ww = 9, wc = 4, we = 6, wk = 4, wf = 6, wg = 5;
    for (size_t i = 0; i < n; i++) {
        const struct vrow *v = &rows[i];
        char where[200];
        int len = snprintf(where, sizeof where, "%s:%d", v->file, v->line);
        ww = len > ww ? len : ww;
        if (v->skipped)
            continue;
        wc = (int)strlen(v->chip) > wc ? (int)strlen(v->chip) : wc;
        we = (int)strlen(v->engine) > we ? (int)strlen(v->engine) : we;
        wk = (int)strlen(v->kind) > wk ? (int)strlen(v->kind) : wk;
        wf = (int)strlen(v->format) > wf ? (int)strlen(v->format) : wf;
    }
    for (size_t i = 0; i < ng; i++)
        wg = (int)strlen(g[i].name) > wg ? (int)strlen(g[i].name) : wg;
    bool serving = n > 0 && rows[0].serving; /* one reader makes every row of a file */
    if (serving && md)
        fprintf(out, "| file:line | chip | engine | model | mode | clients | format | TTFT measured | TTFT "
                     "predicted | ratio | TPOT measured | TPOT predicted | ratio |\n"
                     "| --- | --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    else if (serving)
        fprintf(out, "%-*s %-*s %-*s %-*s %-6s %7s %-*s %11s %11s %7s %11s %11s %7s\n", ww, "file:line", wc, "chip",
                we, "engine", wk, "model", "mode", "clients", wf, "format", "TTFT meas.", "predicted", "ratio",
                "TPOT meas.", "predicted", "ratio");
    else if (md)
        fprintf(out, "| file:line | chip | engine | kind | format | measured | predicted | ratio |\n"
                     "| --- | --- | --- | --- | --- | ---: | ---: | ---: |\n");
    else
        fprintf(out, "%-*s %-*s %-*s %-*s %-*s %11s %11s %7s\n", ww, "file:line", wc, "chip", we, "engine", wk,
                "kind", wf, "format", "measured", "predicted", "ratio");
    return (struct vwidths){ww, wc, we, wk, wf, wg};
}

/* The table's rows: each run's or row's measurement, prediction and ratio, or why it was skipped. */
static void print_validation_rows(bool md, bool serving, struct vwidths w, const struct vrow *rows, size_t n, FILE *out)
{
    int ww = w.where, wc = w.chip, we = w.engine, wk = w.kind, wf = w.format;
    for (size_t i = 0; i < n; i++) {
        const struct vrow *v = &rows[i];
        char where[200], m[24], p[24];
        snprintf(where, sizeof where, "%s:%d", v->file, v->line);
        if (v->skipped) {
            if (md)
                fprintf(out, "| %s | skipped: %s |%s\n", where, v->skipped, serving ? "||||||||||" : "||||||");
            else
                fprintf(out, "%-*s skipped: %s\n", ww, where, v->skipped);
            continue;
        }
        format_seconds(m, sizeof m, v->measured_s);
        format_seconds(p, sizeof p, v->predicted_s);
        if (v->serving) {
            char m2[24], p2[24];
            format_seconds(m2, sizeof m2, v->measured_tpot_s);
            format_seconds(p2, sizeof p2, v->predicted_tpot_s);
            double r1 = v->predicted_s / v->measured_s, r2 = v->predicted_tpot_s / v->measured_tpot_s;
            if (md)
                fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.3f | %s | %s | %.3f |\n", where,
                        v->chip, v->engine, v->kind, v->mode, v->concurrency, v->format, m, p, r1, m2, p2, r2);
            else
                fprintf(out, "%-*s %-*s %-*s %-*s %-6s %7s %-*s %11s %11s %7.3f %11s %11s %7.3f\n", ww, where, wc,
                        v->chip, we, v->engine, wk, v->kind, v->mode, v->concurrency, wf, v->format, m, p, r1, m2,
                        p2, r2);
            continue;
        }
        if (md)
            fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", where, v->chip, v->engine, v->kind,
                    v->format, m, p, v->predicted_s / v->measured_s);
        else
            fprintf(out, "%-*s %-*s %-*s %-*s %-*s %11s %11s %7.3f\n", ww, where, wc, v->chip, we, v->engine, wk,
                    v->kind, wf, v->format, m, p, v->predicted_s / v->measured_s);
    }
}

/* The error by group, then the summary line. */
static void print_validation_groups(bool md, bool serving, int wg, const struct vsummary *S, FILE *out)
{
    fprintf(out, md ? "\n| by | group | rows | MAPE | median |\n| --- | --- | ---: | ---: | ---: |\n"
                    : "\nMean absolute percentage error by group\n");
    for (size_t i = 0; i < S->ng; i++) {
        double mean = 100.0 * mean_of(S->g[i].err, S->g[i].n), median = 100.0 * median_of(S->g[i].err, S->g[i].n);
        if (md)
            fprintf(out, "| %s | %s | %zu | %.1f%% | %.1f%% |\n", S->g[i].by, S->g[i].name, S->g[i].n, mean, median);
        else
            fprintf(out, "  %-7s %-*s %7zu rows  MAPE %5.1f%%  median %5.1f%%\n", S->g[i].by, wg, S->g[i].name, S->g[i].n,
                    mean, median);
    }
    if (S->done == 0)
        fprintf(out, md ? "\n**No row predicted: %zu skipped.**\n" : "no row predicted: %zu skipped\n", S->skipped);
    else if (serving)
        fprintf(out, md ? "\n**%zu runs: TTFT MAPE %.1f%% (median %.1f%%), TPOT MAPE %.1f%% (median %.1f%%); %zu "
                          "skipped (%.1f%% expressed).**\n"
                        : "all: %zu runs, TTFT MAPE %.1f%% (median %.1f%%), TPOT MAPE %.1f%% (median %.1f%%); %zu "
                          "skipped (%.1f%% expressed)\n",
                S->done, 100.0 * mean_of(S->ttft_err, S->serving_runs), 100.0 * median_of(S->ttft_err, S->serving_runs),
                100.0 * mean_of(S->tpot_err, S->serving_runs), 100.0 * median_of(S->tpot_err, S->serving_runs), S->skipped,
                100.0 * (double)S->done / (double)(S->done + S->skipped ? S->done + S->skipped : 1));
    else
        fprintf(out, md ? "\n**All: %zu rows, MAPE %.1f%%, median %.1f%%, %zu skipped; the floor is at or below the "
                      "measurement on %.1f%% of rows.**\n"
                    : "all: %zu rows, MAPE %.1f%%, median %.1f%%, %zu skipped; floor at or below the measurement "
                      "on %.1f%% of rows\n",
            S->done, 100.0 * S->mape, 100.0 * S->med, S->skipped, S->done ? 100.0 * (double)S->within / (double)S->done : 0.0);
}

/* Prints the rows and the groups in o->format. Returns 0, or -1 when
 * memory runs out (nothing is printed then). */
static int print_validation(const struct cli_options *o, const struct vrow *rows, size_t n, FILE *out)
{
    struct vsummary S;
    if (vsummary_build(rows, n, &S) != 0)
        return -1;
    if (o->format == RT_FORMAT_JSON) {
        print_validation_json(rows, n, &S, out);
    } else {
        bool md = o->format == RT_FORMAT_MARKDOWN;
        bool serving = n > 0 && rows[0].serving; /* one reader makes every row of a file */
        struct vwidths w = print_validation_header(md, rows, n, &S, out);
        print_validation_rows(md, serving, w, rows, n, out);
        print_validation_groups(md, serving, w.group, &S, out);
    }
    vsummary_free(&S);
    return 0;
}

int run_validate(const struct cli_options *o, FILE *out, FILE *errout)
{
    struct vrow *rows = NULL;
    size_t n = 0;
    int status;
    if (kernel_tables_at(o->validate_path)) {
        status = validate_kernels(o, &rows, &n, errout);
    } else {
        char *text;
        size_t len;
        char err[600];
        if (read_file(o->validate_path, &text, &len, err, sizeof err) != 0) {
            cli_say(errout, "%s", err);
            return 2;
        }
        if (strncmp(text, "id,silicon_data_source", 22) == 0 || strstr(text, "silicon_ttft_ms") != NULL) {
            status = validate_serving_runs(o, text, len, &rows, &n);
            if (status == 1)
                cli_say(errout, "out of memory");
        } else {
            status = validate_cases(o, text, len, &rows, &n, errout);
        }
        free(text);
    }
    if (status == 0 && print_validation(o, rows, n, out) != 0) {
        cli_say(errout, "out of memory");
        status = 1;
    }
    size_t predicted = 0;
    for (size_t i = 0; i < n; i++)
        predicted += rows[i].skipped == NULL;
    if (status == 0 && predicted == 0) { /* nothing was checked: a script must not read that as a pass */
        cli_say(errout, "%s: no row could be predicted (%zu skipped: the reasons are above)", o->validate_path, n);
        status = 1;
    }
    vrows_free(rows, n);
    return status;
}
