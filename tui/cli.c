/* cli.c — getopt_long over the flag contract, then one of the modes. */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "version.h"

static const char usage_text[] =
    "Usage: rooftop [MODE] [SCENARIO FLAGS]\n"
    "A terminal roofline explorer: where prefill, decode and training sit on a chip's roofline,\n"
    "the latency of an interactive turn against a budget, chips needed, KV cache and MFU budget.\n"
    "\n"
    "Modes:\n"
    "  (none)                       open the explorer (the text report when not on a terminal)\n"
    "  --report[=text|json|markdown|csv]  print the analysis and exit\n"
    "  --sweep=chips|params|batch|kv-heads  vary one knob over --values (default: the guide's)\n"
    "      --values LIST            comma-separated, e.g. 1,4,16,64 or 70B,35B,17B,8B\n"
    "      --format=text|csv|json|markdown  sweep output format (default text)\n"
    "  --list-chips                 built-in chips with dense peaks and sources (--format=json for all)\n"
    "  --list-models                built-in model shapes and parameter counts\n"
    "  -h, --help                   this text\n"
    "  -V, --version                the version\n"
    "\n"
    "Scenario flags (every mode; numbers take 70e9, 70B, 1.5T, 8k, 16GiB):\n"
    "  --chip NAME         chip (rooftop --list-chips), e.g. h100, \"TPU v5e\"   [tpu-v5e]\n"
    "  --chips N           chips serving one replica                          [1]\n"
    "  --peak-flops F      override the chip's peak at the compute precision, FLOP/s\n"
    "  --hbm-bw B          override the chip's memory bandwidth, bytes/s\n"
    "  --hbm-bytes B       override the chip's memory capacity, bytes\n"
    "  --model NAME        model shape (rooftop --list-models)                [guide-70b]\n"
    "  --params N          parameter count on its own (dense), e.g. 70e9\n"
    "  --layers N --heads N --kv-heads N --d-model N --d-head N --d-ff N --vocab N\n"
    "                      change the model's shape (kv heads must divide heads)\n"
    "  --batch N           concurrent sequences                               [1]\n"
    "  --precision P       weights and matmuls: bf16, fp8, int8, int4          [bf16]\n"
    "  --kv-precision P    KV-cache elements                                  [bf16]\n"
    "  --context N         tokens in each request's KV cache                  [8192]\n"
    "  --prefill-tokens N  prompt tokens per request this turn                [8192]\n"
    "  --decode-tokens N   tokens generated per request this turn             [128]\n"
    "  --budget S          latency budget of one turn, seconds                [1.0]\n"
    "  --overhead S        scaffolding time inside the budget, seconds        [0.25]\n"
    "  --reserve BYTES     HBM held back for the runtime, all chips together  [0]\n"
    "  --mfu F             achieved fraction of peak during prefill, (0, 1]   [1.0]\n"
    "  --max-chips N       largest chip count the budget search tries         [65536]\n"
    "  --tile N            matmul tile for tile efficiency                    [128]\n"
    "  --step-times MATMUL,VECTOR,MEMORY,COMMS,OPTIMIZER\n"
    "                      seconds of a training step: gives the MFU budget\n"
    "  --recompute none|full|FACTOR  hardware/model FLOPs for HFU (full = 8/6) [none]\n"
    "  --napkin            the guide's latency model exactly (the only one so far)\n"
    "Explorer flags:\n"
    "  --ascii             no braille or line drawing, even in a UTF-8 locale\n"
    "  --no-color          monochrome (also when NO_COLOR is set)\n"
    "\n"
    "Examples:\n"
    "  rooftop --sweep=chips                          the guide's latency napkin (70B on TPU v5e)\n"
    "  rooftop --report=json --chip h100 --chips 8 --model llama-3.1-70b\n"
    "  rooftop --sweep=kv-heads --batch 32            KV cache for 64, 8 and 1 kv heads\n"
    "Exit status: 0 success, 1 failure, 2 bad usage.\n";

const char *cli_usage(void)
{
    return usage_text;
}

enum {
    OPT_REPORT = 256, OPT_SWEEP, OPT_VALUES, OPT_FORMAT, OPT_LIST_CHIPS, OPT_LIST_MODELS, OPT_CHIP, OPT_CHIPS,
    OPT_PEAK, OPT_HBM_BW, OPT_HBM_BYTES, OPT_MODEL, OPT_PARAMS, OPT_LAYERS, OPT_HEADS, OPT_KV_HEADS, OPT_D_MODEL,
    OPT_D_HEAD, OPT_D_FF, OPT_VOCAB, OPT_BATCH, OPT_PRECISION, OPT_KV_PRECISION, OPT_CONTEXT, OPT_PREFILL,
    OPT_DECODE, OPT_BUDGET, OPT_OVERHEAD, OPT_RESERVE, OPT_MFU, OPT_MAX_CHIPS, OPT_TILE, OPT_STEP_TIMES,
    OPT_RECOMPUTE, OPT_NAPKIN, OPT_ASCII, OPT_NO_COLOR, OPT_COUNT
};

static const struct option long_options[] = {
    {"report", optional_argument, NULL, OPT_REPORT},
    {"sweep", required_argument, NULL, OPT_SWEEP},
    {"values", required_argument, NULL, OPT_VALUES},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"list-chips", no_argument, NULL, OPT_LIST_CHIPS},
    {"list-models", no_argument, NULL, OPT_LIST_MODELS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"chip", required_argument, NULL, OPT_CHIP},
    {"chips", required_argument, NULL, OPT_CHIPS},
    {"peak-flops", required_argument, NULL, OPT_PEAK},
    {"hbm-bw", required_argument, NULL, OPT_HBM_BW},
    {"hbm-bytes", required_argument, NULL, OPT_HBM_BYTES},
    {"model", required_argument, NULL, OPT_MODEL},
    {"params", required_argument, NULL, OPT_PARAMS},
    {"layers", required_argument, NULL, OPT_LAYERS},
    {"heads", required_argument, NULL, OPT_HEADS},
    {"kv-heads", required_argument, NULL, OPT_KV_HEADS},
    {"d-model", required_argument, NULL, OPT_D_MODEL},
    {"d-head", required_argument, NULL, OPT_D_HEAD},
    {"d-ff", required_argument, NULL, OPT_D_FF},
    {"vocab", required_argument, NULL, OPT_VOCAB},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"precision", required_argument, NULL, OPT_PRECISION},
    {"kv-precision", required_argument, NULL, OPT_KV_PRECISION},
    {"context", required_argument, NULL, OPT_CONTEXT},
    {"prefill-tokens", required_argument, NULL, OPT_PREFILL},
    {"decode-tokens", required_argument, NULL, OPT_DECODE},
    {"budget", required_argument, NULL, OPT_BUDGET},
    {"overhead", required_argument, NULL, OPT_OVERHEAD},
    {"reserve", required_argument, NULL, OPT_RESERVE},
    {"mfu", required_argument, NULL, OPT_MFU},
    {"max-chips", required_argument, NULL, OPT_MAX_CHIPS},
    {"tile", required_argument, NULL, OPT_TILE},
    {"step-times", required_argument, NULL, OPT_STEP_TIMES},
    {"recompute", required_argument, NULL, OPT_RECOMPUTE},
    {"napkin", no_argument, NULL, OPT_NAPKIN},
    {"ascii", no_argument, NULL, OPT_ASCII},
    {"no-color", no_argument, NULL, OPT_NO_COLOR},
    {NULL, 0, NULL, 0},
};

/* The long name of option id, for messages. */
static const char *flag_name(int id)
{
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == id)
            return o->name;
    return "?";
}

/* Parses a real flag value; writes a message naming the flag on failure. */
static int parse_real(int id, const char *text, double *out, char *err, size_t errsize)
{
    if (parse_number(text, out) == 0)
        return 0;
    snprintf(err, errsize, "--%s '%s': not a number (examples: 70e9, 70B, 1.5T, 8k, 0.25)", flag_name(id), text);
    return 2;
}

/* Parses a whole-number flag value (range is checked later by scenario_check). */
static int parse_whole(int id, const char *text, int64_t *out, char *err, size_t errsize)
{
    double v;
    if (parse_real(id, text, &v, err, errsize) != 0)
        return 2;
    if (v != floor(v) || fabs(v) > 4.0e18) {
        snprintf(err, errsize, "--%s '%s': give a whole number (e.g. 8, 8k, 65536)", flag_name(id), text);
        return 2;
    }
    *out = (int64_t)v;
    return 0;
}

/* Parses a comma-separated list of at most max numbers; sets *n. */
static int parse_list(int id, const char *text, double *values, size_t max, size_t *n, char *err, size_t errsize)
{
    char buf[1024];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errsize, "--%s: the list is too long", flag_name(id));
        return 2;
    }
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n >= max) {
            snprintf(err, errsize, "--%s: at most %zu values", flag_name(id), max);
            return 2;
        }
        if (parse_number(tok, &values[*n]) != 0) {
            snprintf(err, errsize, "--%s: '%s' is not a number (examples: 1,4,16 or 70B,8B)", flag_name(id), tok);
            return 2;
        }
        (*n)++;
    }
    if (*n == 0) {
        snprintf(err, errsize, "--%s: give at least one value", flag_name(id));
        return 2;
    }
    return 0;
}

/* Flag values seen, applied in a fixed order after parsing (chip, then model,
 * then shape edits, then the rest) so that the order on the line never
 * matters. */
struct pending {
    const char *text[OPT_COUNT];
};

/* Applies one scenario flag's text to s; returns 0 or 2 with err set. */
static int apply_flag(int id, const char *text, struct scenario *s, char *err, size_t errsize)
{
    int64_t *whole = NULL;
    double *real = NULL;
    switch (id) {
    case OPT_CHIP: {
        const struct chip_spec *c = chip_find(text);
        if (!c) {
            snprintf(err, errsize, "--chip '%s': unknown chip; rooftop --list-chips shows the %zu built in", text,
                     chip_builtin_count());
            return 2;
        }
        s->chip = *c;
        return 0;
    }
    case OPT_MODEL: {
        const struct model_shape *m = model_find(text);
        if (!m) {
            snprintf(err, errsize, "--model '%s': unknown model; rooftop --list-models shows the %zu built in", text,
                     model_builtin_count());
            return 2;
        }
        scenario_set_model(s, m);
        return 0;
    }
    case OPT_PRECISION:
    case OPT_KV_PRECISION:
        if (precision_parse(text, id == OPT_PRECISION ? &s->precision : &s->kv_precision) != 0) {
            snprintf(err, errsize, "--%s '%s': give bf16, fp8, int8 or int4", flag_name(id), text);
            return 2;
        }
        return 0;
    case OPT_STEP_TIMES: {
        size_t n = 0;
        double v[RT_PART_COUNT + 1];
        if (parse_list(id, text, v, RT_PART_COUNT + 1, &n, err, errsize) != 0)
            return 2;
        if (n != RT_PART_COUNT) {
            snprintf(err, errsize, "--step-times '%s': give five seconds MATMUL,VECTOR,MEMORY,COMMS,OPTIMIZER", text);
            return 2;
        }
        memcpy(s->step_times_s, v, sizeof s->step_times_s);
        s->has_step_times = true;
        return 0;
    }
    case OPT_RECOMPUTE:
        if (strcmp(text, "none") == 0) {
            s->recompute_factor = 1.0;
            return 0;
        }
        if (strcmp(text, "full") == 0) {
            s->recompute_factor = 8.0 / 6.0;
            return 0;
        }
        if (parse_number(text, &s->recompute_factor) != 0) {
            snprintf(err, errsize, "--recompute '%s': give none, full or a factor >= 1 (full = 8/6)", text);
            return 2;
        }
        return 0;
    case OPT_CHIPS: whole = &s->chips; break;
    case OPT_LAYERS: whole = &s->model.layers; break;
    case OPT_HEADS: whole = &s->model.heads; break;
    case OPT_KV_HEADS: whole = &s->model.kv_heads; break;
    case OPT_D_MODEL: whole = &s->model.d_model; break;
    case OPT_D_HEAD: whole = &s->model.d_head; break;
    case OPT_D_FF: whole = &s->model.d_ff; break;
    case OPT_VOCAB: whole = &s->model.vocab; break;
    case OPT_BATCH: whole = &s->batch; break;
    case OPT_CONTEXT: whole = &s->context_tokens; break;
    case OPT_PREFILL: whole = &s->prefill_tokens; break;
    case OPT_DECODE: whole = &s->decode_tokens; break;
    case OPT_MAX_CHIPS: whole = &s->max_chips; break;
    case OPT_TILE: whole = &s->tile; break;
    case OPT_PEAK: real = &s->peak_flops_override; break;
    case OPT_HBM_BW: real = &s->hbm_bytes_per_s_override; break;
    case OPT_HBM_BYTES: real = &s->hbm_bytes_override; break;
    case OPT_BUDGET: real = &s->budget_s; break;
    case OPT_OVERHEAD: real = &s->overhead_s; break;
    case OPT_RESERVE: real = &s->reserve_bytes; break;
    case OPT_MFU: real = &s->mfu; break;
    default:
        return 0;
    }
    if (whole)
        return parse_whole(id, text, whole, err, errsize);
    if (parse_real(id, text, real, err, errsize) != 0)
        return 2;
    if ((id == OPT_PEAK || id == OPT_HBM_BW || id == OPT_HBM_BYTES) && !(*real > 0.0)) {
        snprintf(err, errsize, "--%s '%s': give a number above 0", flag_name(id), text);
        return 2;
    }
    if (id == OPT_PARAMS && !(*real >= 1.0)) {
        snprintf(err, errsize, "--params '%s': give a count of at least 1 (e.g. 70e9)", text);
        return 2;
    }
    return 0;
}

/* The order flags are applied in: chip and model first, then shape edits and
 * everything else. */
static const int apply_order[] = {
    OPT_CHIP, OPT_MODEL, OPT_LAYERS, OPT_HEADS, OPT_KV_HEADS, OPT_D_MODEL, OPT_D_HEAD, OPT_D_FF, OPT_VOCAB,
    OPT_PARAMS, OPT_CHIPS, OPT_PEAK, OPT_HBM_BW, OPT_HBM_BYTES, OPT_BATCH, OPT_PRECISION, OPT_KV_PRECISION,
    OPT_CONTEXT, OPT_PREFILL, OPT_DECODE, OPT_BUDGET, OPT_OVERHEAD, OPT_RESERVE, OPT_MFU, OPT_MAX_CHIPS, OPT_TILE,
    OPT_STEP_TIMES, OPT_RECOMPUTE};

int cli_parse(int argc, char **argv, struct cli_options *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    scenario_default(&out->scenario);
    out->mode = CLI_EXPLORE;
    struct pending pend = {0};
    const char *format_text = NULL, *report_text = NULL;
    bool report = false, sweep = false;
    int modes = 0;

    optind = 0; /* GNU: full re-initialisation, so tests can parse repeatedly */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hV", long_options, NULL)) != -1) {
        switch (c) {
        case 'h':
            out->mode = CLI_HELP;
            return 0;
        case 'V':
            out->mode = CLI_VERSION;
            return 0;
        case OPT_REPORT:
            report = true, modes++;
            report_text = optarg;
            break;
        case OPT_SWEEP:
            sweep = true, modes++;
            if (sweep_kind_parse(optarg, &out->sweep) != 0) {
                snprintf(err, errsize, "--sweep '%s': give chips, params, batch or kv-heads", optarg);
                return 2;
            }
            break;
        case OPT_VALUES:
            if (parse_list(OPT_VALUES, optarg, out->values, RT_SWEEP_MAX_VALUES, &out->value_count, err, errsize))
                return 2;
            break;
        case OPT_FORMAT:
            format_text = optarg;
            break;
        case OPT_LIST_CHIPS:
            out->mode = CLI_LIST_CHIPS, modes++;
            break;
        case OPT_LIST_MODELS:
            out->mode = CLI_LIST_MODELS, modes++;
            break;
        case OPT_NAPKIN:
            out->scenario.latency_model = RT_LATENCY_NAPKIN;
            break;
        case OPT_ASCII:
            out->explorer.force_ascii = true;
            break;
        case OPT_NO_COLOR:
            out->explorer.no_color = true;
            break;
        case ':':
            snprintf(err, errsize, "%s needs a value (rooftop --help)", argv[optind - 1]);
            return 2;
        case '?':
            snprintf(err, errsize, "unknown option '%s' (rooftop --help lists them)", argv[optind - 1]);
            return 2;
        default:
            if (c > OPT_REPORT && c < OPT_COUNT)
                pend.text[c] = optarg;
            break;
        }
    }
    if (optind < argc) {
        snprintf(err, errsize, "unexpected argument '%s' (flags take the form --name VALUE; rooftop --help)",
                 argv[optind]);
        return 2;
    }
    if (modes > 1) {
        snprintf(err, errsize, "choose one of --report, --sweep, --list-chips, --list-models");
        return 2;
    }
    if (report)
        out->mode = CLI_REPORT;
    if (sweep)
        out->mode = CLI_SWEEP;
    if (out->value_count > 0 && !sweep) {
        snprintf(err, errsize, "--values goes with --sweep");
        return 2;
    }
    const char *fmt = report_text ? report_text : format_text;
    if (fmt && format_parse(fmt, &out->format) != 0) {
        snprintf(err, errsize, "%s '%s': give text, json, markdown or csv", report_text ? "--report" : "--format", fmt);
        return 2;
    }
    for (size_t i = 0; i < sizeof apply_order / sizeof apply_order[0]; i++) {
        int id = apply_order[i];
        if (pend.text[id] && apply_flag(id, pend.text[id], &out->scenario, err, errsize) != 0)
            return 2;
    }
    if (pend.text[OPT_PARAMS]) {
        double p;
        if (parse_real(OPT_PARAMS, pend.text[OPT_PARAMS], &p, err, errsize) != 0)
            return 2;
        if (!(p >= 1.0)) {
            snprintf(err, errsize, "--params '%s': give a count of at least 1 (e.g. 70e9)", pend.text[OPT_PARAMS]);
            return 2;
        }
        out->scenario.params = p;
    }
    if (out->mode == CLI_LIST_CHIPS || out->mode == CLI_LIST_MODELS)
        return 0;
    if (scenario_check(&out->scenario, err, errsize) != 0)
        return 2;
    return 0;
}

/* Writes the built-in chips as a table, or as JSON with sources. */
static int list_chips(FILE *out, enum rt_format f)
{
    if (f == RT_FORMAT_JSON) {
        fputs("[\n", out);
        for (size_t i = 0; i < chip_builtin_count(); i++) {
            const struct chip_spec *c = chip_builtin(i);
            fprintf(out, "  {\"key\": \"%s\", \"name\": \"%s\", \"peak_flops_per_s\": {", c->key, c->name);
            for (int p = 0; p < RT_PRECISION_COUNT; p++) {
                if (c->peak_flops_per_s[p] > 0.0)
                    fprintf(out, "%s\"%s\": %.17g", p ? ", " : "", precision_name((enum rt_precision)p),
                            c->peak_flops_per_s[p]);
                else
                    fprintf(out, "%s\"%s\": null", p ? ", " : "", precision_name((enum rt_precision)p));
            }
            fprintf(out, "}, \"hbm_bytes\": %.17g, \"hbm_bytes_per_s\": %.17g, \"interconnect_bytes_per_s\": %.17g, ",
                    c->hbm_bytes, c->hbm_bytes_per_s, c->interconnect_bytes_per_s);
            if (c->tdp_w > 0.0)
                fprintf(out, "\"tdp_w\": %.17g, ", c->tdp_w);
            else
                fputs("\"tdp_w\": null, ", out);
            fprintf(out, "\"origin\": \"built-in\", \"source\": \"%s\", \"notes\": \"%s\"}%s\n", c->source, c->notes,
                    i + 1 < chip_builtin_count() ? "," : "");
        }
        fputs("]\n", out);
        return 0;
    }
    fprintf(out, "%-10s %-30s %9s %9s %9s %9s %8s %9s %6s %6s\n", "key", "name", "bf16", "fp8", "int8", "int4",
            "HBM", "HBM BW", "ridge", "TDP");
    for (size_t i = 0; i < chip_builtin_count(); i++) {
        const struct chip_spec *c = chip_builtin(i);
        char cols[RT_PRECISION_COUNT][24], hbm[24], bw[24], tdp[16];
        for (int p = 0; p < RT_PRECISION_COUNT; p++) {
            if (c->peak_flops_per_s[p] > 0.0)
                snprintf(cols[p], sizeof cols[p], "%.1fT", c->peak_flops_per_s[p] / 1e12);
            else
                snprintf(cols[p], sizeof cols[p], "-");
        }
        snprintf(tdp, sizeof tdp, c->tdp_w > 0.0 ? "%.0fW" : "n/a", c->tdp_w);
        fprintf(out, "%-10s %-30s %9s %9s %9s %9s %8s %9s %6.0f %6s\n", c->key, c->name, cols[0], cols[1], cols[2],
                cols[3], format_si(hbm, sizeof hbm, c->hbm_bytes, "B"), format_si(bw, sizeof bw, c->hbm_bytes_per_s, "B/s"),
                c->peak_flops_per_s[RT_BF16] / c->hbm_bytes_per_s, tdp);
    }
    fputs("\nPeaks are dense (no 2:4 sparsity), FLOP/s per chip; ridge = bf16 peak / HBM bandwidth (FLOP/byte).\n"
          "All chips are built in; sources and conflicts between sources: rooftop --list-chips --format=json\n",
          out);
    return 0;
}

/* Writes the built-in model shapes with their parameter counts. */
static int list_models(FILE *out)
{
    fprintf(out, "%-15s %6s %7s %5s %4s %6s %6s %7s %7s %8s %8s\n", "name", "layers", "d_model", "heads", "kv",
            "d_head", "d_ff", "vocab", "experts", "params", "active");
    for (size_t i = 0; i < model_builtin_count(); i++) {
        const struct model_shape *m = model_builtin(i);
        struct param_count pc = model_param_count(m);
        char total[24], active[24], experts[24];
        double t = m->stated_params > 0.0 ? m->stated_params : pc.total;
        double a = m->stated_params > 0.0 ? m->stated_params : pc.active;
        snprintf(experts, sizeof experts, m->experts > 1 ? "%lld/%lld" : "-", (long long)m->experts_per_token,
                 (long long)m->experts);
        fprintf(out, "%-15s %6lld %7lld %5lld %4lld %6lld %6lld %7lld %7s %8s %8s\n", m->name, (long long)m->layers,
                (long long)m->d_model, (long long)m->heads, (long long)m->kv_heads, (long long)m->d_head,
                (long long)m->d_ff, (long long)m->vocab, experts, format_count(total, sizeof total, t),
                format_count(active, sizeof active, a));
    }
    fputs("\nParameters are derived from each shape (embeddings, attention, MLP or experts, router, norms);\n"
          "guide-70b keeps the guide's round N = 70e9. Sources:\n",
          out);
    for (size_t i = 0; i < model_builtin_count(); i++)
        fprintf(out, "  %-15s %s\n", model_builtin(i)->name, model_builtin(i)->source);
    return 0;
}

/* Writes text to out; returns 1 (and says why) when it is NULL (out of memory). */
static int emit(FILE *out, FILE *errout, char *text)
{
    if (!text) {
        fprintf(errout, "rooftop: out of memory\n");
        return 1;
    }
    fputs(text, out);
    free(text);
    return 0;
}

/* Analyzes the scenario and prints the report in format f. */
static int run_report(const struct cli_options *o, enum rt_format f, FILE *out, FILE *errout)
{
    struct analysis a;
    char err[256];
    if (analyze(&o->scenario, &a, err, sizeof err) != 0) {
        fprintf(errout, "rooftop: %s\n", err);
        return 2;
    }
    return emit(out, errout, report_render(f, &o->scenario, &a));
}

/* Runs the sweep and prints it. */
static int run_sweep(const struct cli_options *o, FILE *out, FILE *errout)
{
    double defaults[RT_SWEEP_MAX_VALUES];
    const double *values = o->values;
    size_t n = o->value_count;
    if (n == 0) {
        n = sweep_default_values(o->sweep, &o->scenario, defaults, RT_SWEEP_MAX_VALUES);
        values = defaults;
    }
    struct analysis *rows = calloc(n, sizeof *rows);
    if (!rows) {
        fprintf(errout, "rooftop: out of memory\n");
        return 1;
    }
    char err[300];
    int status = 0;
    if (sweep_run(o->sweep, &o->scenario, values, n, rows, err, sizeof err) != 0) {
        fprintf(errout, "rooftop: %s\n", err);
        status = 2;
    } else {
        status = emit(out, errout, sweep_render(o->format, o->sweep, &o->scenario, values, rows, n));
    }
    free(rows);
    return status;
}

int cli_main(int argc, char **argv, FILE *out, FILE *errout)
{
    struct cli_options o;
    char err[300];
    if (cli_parse(argc, argv, &o, err, sizeof err) != 0) {
        fprintf(errout, "rooftop: %s\n", err);
        return 2;
    }
    switch (o.mode) {
    case CLI_HELP:
        fputs(usage_text, out);
        return 0;
    case CLI_VERSION:
        fprintf(out, "rooftop %s\n", ROOFTOP_VERSION);
        return 0;
    case CLI_LIST_CHIPS:
        return list_chips(out, o.format);
    case CLI_LIST_MODELS:
        return list_models(out);
    case CLI_SWEEP:
        return run_sweep(&o, out, errout);
    case CLI_REPORT:
        return run_report(&o, o.format, out, errout);
    case CLI_EXPLORE:
    default:
        break;
    }
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        if (getenv("NO_COLOR") && getenv("NO_COLOR")[0] != '\0')
            o.explorer.no_color = true;
        struct analysis a;
        if (analyze(&o.scenario, &a, err, sizeof err) != 0) {
            fprintf(errout, "rooftop: %s\n", err);
            return 2;
        }
        int status = explorer_run(&o.scenario, &o.explorer, err, sizeof err);
        if (status >= 0)
            return status;
        fprintf(errout, "rooftop: %s\n", err);
    }
    return run_report(&o, RT_FORMAT_TEXT, out, errout);
}
