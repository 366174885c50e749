/* commands.c — the program's modes, after cli_parse: the report, the
 * sweep, the search, the diff, the lists, --calibrate, --validate, and
 * the explorer (commands.h). */
#include "commands.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "calibrate_cmd.h"
#include "chipfile.h"
#include "diff.h"
#include "explorer.h"
#include "export.h"
#include "fileio.h"
#include "jsonio.h"
#include "report.h"
#include "scenariofile.h"
#include "searchreport.h"
#include "sweep.h"
#include "textsafe.h"
#include "units.h"
#include "validate.h"

/* Writes the known chips as a table, or as JSON with sources and origins. */
static int list_chips(FILE *out, const struct chip_db *db, enum rt_format f)
{
    if (f == RT_FORMAT_JSON) {
        cJSON *list = cJSON_CreateArray();
        for (size_t i = 0; i < db->count; i++) {
            cJSON *o = cJSON_CreateObject();
            chip_to_json(o, &db->chips[i]);
            cJSON_AddStringToObject(o, "origin", db->chips[i].origin);
            cJSON_AddItemToArray(list, o);
        }
        char *text = json_make_exact(list) == 0 ? cJSON_Print(list) : NULL;
        cJSON_Delete(list);
        if (!text)
            return 1;
        fprintf(out, "%s\n", text);
        cJSON_free(text);
        return 0;
    }
    fprintf(out, "%-12s %-36s %9s %9s %9s %9s %10s %8s %9s %6s %6s\n", "key", "name", "bf16", "fp8", "int8", "int4",
            "fp4", "HBM", "HBM BW", "ridge", "TDP");
    bool from_files = false;
    char mx_only[256] = "";
    for (size_t i = 0; i < db->count; i++) {
        const struct chip_spec *c = &db->chips[i];
        char cols[RT_PRECISION_COUNT][24], fp4[24], hbm[24], bw[24], tdp[16];
        for (int p = 0; p < RT_PRECISION_COUNT; p++) {
            if (c->peak_flops_per_s[p] > 0.0)
                snprintf(cols[p], sizeof cols[p], "%.1fT", c->peak_flops_per_s[p] / 1e12);
            else
                snprintf(cols[p], sizeof cols[p], "-");
        }
        /* One FP4 column: nvfp4's peak, or mxfp4's marked where the chip has only that. */
        bool nv = c->peak_flops_per_s[RT_NVFP4] > 0.0, mx = c->peak_flops_per_s[RT_MXFP4] > 0.0;
        if (nv || !mx)
            snprintf(fp4, sizeof fp4, "%s", cols[RT_NVFP4]);
        else
            snprintf(fp4, sizeof fp4, "%.1fT mx", c->peak_flops_per_s[RT_MXFP4] / 1e12);
        if (!nv && mx && strlen(mx_only) + strlen(c->key) + 3 < sizeof mx_only)
            snprintf(mx_only + strlen(mx_only), sizeof mx_only - strlen(mx_only), "%s%s", mx_only[0] ? ", " : "",
                     c->key);
        snprintf(tdp, sizeof tdp, c->tdp_w > 0.0 ? "%.0fW" : "n/a", c->tdp_w);
        fprintf(out, "%-12s %-36s %9s %9s %9s %9s %10s %8s %9s %6.0f %6s\n", c->key, c->name, cols[RT_BF16],
                cols[RT_FP8], cols[RT_INT8], cols[RT_INT4], fp4, format_si(hbm, sizeof hbm, c->hbm_bytes, "B"),
                format_si(bw, sizeof bw, c->hbm_bytes_per_s, "B/s"), c->peak_flops_per_s[RT_BF16] / c->hbm_bytes_per_s,
                tdp);
        from_files |= strcmp(c->origin, "built-in") != 0;
    }
    fputs("\nPeaks are dense (no 2:4 sparsity), FLOP/s per chip; ridge = bf16 peak / HBM bandwidth (FLOP/byte).\n"
          "fp4 is the nvfp4 peak; \"mx\" marks the mxfp4 peak of a chip without nvfp4",
          out);
    fprintf(out, "%s%s%s.\n", mx_only[0] ? " (" : "", mx_only, mx_only[0] ? ")" : "");
    fputs("Every precision's peak (fp8-block, nvfp4, mxfp4 too), the sources and the conflicts between sources:\n"
          "rooftop --list-chips --format=json\n",
          out);
    if (from_files) {
        fputs("From chip files:\n", out);
        for (size_t i = 0; i < db->count; i++)
            if (strcmp(db->chips[i].origin, "built-in") != 0)
                fprintf(out, "  %-10s %s%s\n", db->chips[i].key, db->chips[i].origin,
                        db->chips[i].sparse_halved ? " (sparse peaks halved)" : "");
    }
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
        cli_say(errout, "%s", err);
        return 2;
    }
    if (o->plot)
        return emit(out, errout, export_report(f, &o->scenario, &a, true));
    return emit(out, errout, report_render_points(f, &o->scenario, &a, o->points, o->point_count,
                                                    &o->points_context));
}

/* Loads the saved scenario at path the way --scenario does (the user's chip
 * files included) into *s. Returns 0, or the exit status after saying why. */
static int load_side(const char *flag, const char *path, struct scenario *s, struct load_warnings *seen, FILE *errout)
{
    struct cli_options side;
    char err[600];
    char *argv[] = {(char *)"rooftop", (char *)"--scenario", (char *)path, NULL};
    int status = cli_parse(3, argv, &side, err, sizeof err);
    /* Each side loads the user's folders again: a warning about them is said once, not once a side. */
    for (int i = 0; i < side.warnings.count && i < RT_MAX_WARNINGS; i++) {
        bool said = false;
        for (int j = 0; j < seen->count && j < RT_MAX_WARNINGS && !said; j++)
            said = strcmp(seen->text[j], side.warnings.text[i]) == 0;
        if (said)
            continue;
        cli_say(errout, "%s%s", warning_word(side.warnings.text[i]), side.warnings.text[i]);
        warn_add(seen, "%s", side.warnings.text[i]);
    }
    if (status != 0)
        cli_say(errout, "--%s: %s", flag, err);
    else
        *s = side.scenario;
    cli_options_free(&side);
    return status;
}

/* --diff A B, or --baseline FILE (A) against the scenario of the flags (B):
 * every input and every figure that differs (diff.h). */
static int run_diff(const struct cli_options *o, FILE *out, FILE *errout)
{
    const char *flag = o->diff_baseline ? "baseline" : "diff";
    struct scenario sa, sb = o->scenario;
    struct load_warnings seen = o->warnings; /* said by the command line itself */
    int status = load_side(flag, o->diff_a, &sa, &seen, errout);
    if (status == 0 && !o->diff_baseline)
        status = load_side(flag, o->diff_b, &sb, &seen, errout);
    if (status != 0)
        return status;
    struct analysis aa, ab;
    char err[300];
    if (analyze(&sa, &aa, err, sizeof err) != 0 || analyze(&sb, &ab, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    char la[200], lb[200];
    const char *label_b = o->diff_baseline ? "the flags" : path_shown(lb, sizeof lb, o->diff_b);
    return emit(out, errout, diff_render(o->format, path_shown(la, sizeof la, o->diff_a), &sa, &aa, label_b, &sb, &ab));
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
        cli_say(errout, "%s", err);
        status = 2;
    } else {
        status = emit(out, errout, sweep_render(o->format, o->sweep, &o->scenario, values, rows, n));
    }
    free(rows);
    return status;
}

/* Capacity of the search's candidate array: far above the ~10k a search
 * up to 1024 chips enumerates; a larger enumeration says it was cut. */

/* --search: every layout, batch, precision and prefill pool up to the chip
 * limit, the Pareto frontier and the fewest chips meeting the targets. */
static int run_search(const struct cli_options *o, FILE *out, FILE *errout)
{
    struct search_options opt;
    search_options_for(&o->scenario, o->precision_given, o->max_chips_given, &opt);
    struct search_result r = {0};
    r.capacity = RT_SEARCH_CAPACITY;
    r.candidates = calloc(r.capacity, sizeof *r.candidates);
    if (!r.candidates) {
        fprintf(errout, "rooftop: out of memory\n");
        return 1;
    }
    char err[300];
    int status;
    if (search_run(&o->scenario, &opt, &r, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        status = 2;
    } else {
        status = emit(out, errout, search_render(o->format, &o->scenario, &opt, &r));
    }
    free(r.candidates);
    return status;
}

/* Writes the scenario to the --write-scenario file. */
static int write_scenario(const struct cli_options *o, FILE *errout)
{
    char *text = scenario_to_json(&o->scenario);
    char err[600];
    if (!text) {
        fprintf(errout, "rooftop: out of memory\n");
        return 1;
    }
    int rc = write_file_atomic(o->write_scenario, text, strlen(text), err, sizeof err);
    cJSON_free(text);
    if (rc != 0) {
        cli_say(errout, "%s", err);
        return 1;
    }
    return 0;
}

/* Runs a mode that prints as it goes (the lists, --calibrate) into memory,
 * then writes what it printed with the control bytes of names from files
 * made visible (textsafe.h). Returns the mode's exit status, or 1 when
 * memory runs out. */
static int run_buffered(struct cli_options *o, FILE *out, FILE *errout)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        cli_say(errout, "out of memory");
        return 1;
    }
    int status = 0;
    switch (o->mode) {
    case CLI_LIST_CHIPS:
        status = list_chips(mem, &o->chips, o->format);
        break;
    case CLI_LIST_MODELS:
        status = list_models(mem);
        break;
    case CLI_LIST_THEMES:
        for (size_t i = 0; i < o->themes->count; i++)
            fprintf(mem, "%-16s %-6s %s\n", o->themes->names[i],
                    o->themes->items[i].background == THEME_BG_LIGHT ? "light" : "dark", o->themes->origins[i]);
        break;
    default:
        status = run_calibrate(o, mem, errout);
        break;
    }
    bool failed = fclose(mem) != 0;
    text = o->mode == CLI_LIST_CHIPS && o->format == RT_FORMAT_JSON ? json_safe_take(text) : text_safe_take(text);
    if (failed || !text) {
        free(text);
        cli_say(errout, "out of memory");
        return 1;
    }
    fputs(text, out);
    free(text);
    return status;
}

/* Runs the mode the options chose. */
/* An explorer's flag (--theme, --ascii ...) given to a mode that prints:
 * said once on stderr, so that a script learns it did nothing. */
static void say_explorer_only(const struct cli_options *o, FILE *errout, const char *what)
{
    if (o->explorer_only)
        cli_say(errout, "warning: %s is for the explorer; %s ignores it", o->explorer_only, what);
}

/* What the explorer's flags print when the explorer cannot open (why: the
 * reason, "standard output is not a terminal", "terminal 'dumb' cannot
 * address the cursor"): the man page's one line on stderr, a note saying
 * what is printed instead and how a script asks for it without the line, a
 * warning for each explorer-only flag it ignores; then the diff against a
 * pinned baseline, or the text report. */
static int run_without_explorer(struct cli_options *o, const char *why, FILE *out, FILE *errout)
{
    cli_say(errout, "note: %s, so the explorer cannot open; printing %s", why,
            o->baseline_path ? "the diff against the baseline (--baseline F --format=text asks for it without this line)"
                             : "the text report (--report asks for it without this line)");
    say_explorer_only(o, errout, o->baseline_path ? "the diff printed without a terminal"
                                                  : "the text report printed without a terminal");
    if (o->baseline_path) { /* no screen for the pinned baseline: say what changed instead */
        o->diff_baseline = true;
        o->diff_a = o->baseline_path;
        return run_diff(o, out, errout);
    }
    return run_report(o, RT_FORMAT_TEXT, out, errout);
}

static int run_mode(struct cli_options *o, FILE *out, FILE *errout)
{
    char err[300];
    static const struct {
        enum cli_mode mode;
        const char *flag;
    } printing[] = {{CLI_REPORT, "--report"},         {CLI_SWEEP, "--sweep"},           {CLI_SEARCH, "--search"},
                    {CLI_DIFF, "--diff"},             {CLI_LIST_CHIPS, "--list-chips"}, {CLI_LIST_MODELS, "--list-models"},
                    {CLI_CALIBRATE, "--calibrate"}, {CLI_VALIDATE, "--validate"}};
    for (size_t i = 0; i < sizeof printing / sizeof printing[0]; i++)
        if (o->mode == printing[i].mode)
            say_explorer_only(o, errout, o->mode == CLI_DIFF && o->diff_baseline ? "--baseline --format" : printing[i].flag);
    switch (o->mode) {
    case CLI_HELP:
        fputs(cli_usage(), out);
        return 0;
    case CLI_VERSION:
        fprintf(out, "rooftop %s\n", ROOFTOP_VERSION);
        return 0;
    case CLI_LIST_CHIPS:
    case CLI_LIST_MODELS:
    case CLI_LIST_THEMES:
    case CLI_CALIBRATE:
        return run_buffered(o, out, errout);
    case CLI_VALIDATE:
        return run_validate(o, out, errout);
    case CLI_SWEEP:
        return run_sweep(o, out, errout);
    case CLI_REPORT:
        return run_report(o, o->format, out, errout);
    case CLI_SEARCH:
        return run_search(o, out, errout);
    case CLI_DIFF:
        return run_diff(o, out, errout);
    case CLI_EXPLORE:
    default:
        break;
    }
    if (o->write_scenario)
        return 0; /* saving was the job */
    bool in_tty = isatty(STDIN_FILENO), out_tty = isatty(STDOUT_FILENO);
    bool interactive = in_tty && out_tty;
    if (!interactive) {
        char why[80];
        snprintf(why, sizeof why, "standard %s not a terminal",
                 !in_tty && !out_tty ? "input and output are" : !in_tty ? "input is" : "output is");
        return run_without_explorer(o, why, out, errout);
    }
    if (getenv("NO_COLOR") && getenv("NO_COLOR")[0] != '\0')
        o->explorer.no_color = true;
    struct analysis a;
    if (analyze(&o->scenario, &a, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    o->explorer.chips = chip_db_list(&o->chips);
    o->explorer.search_one_precision = o->precision_given;
    o->explorer.search_max_chips_given = o->max_chips_given;
    o->explorer.points = o->points;
    o->explorer.point_count = o->point_count;
    o->explorer.points_context = &o->points_context;
    if (o->warnings.count > 0) { /* stderr is behind the explorer's screen: say the first one there too */
        int more = o->warnings.count - 1 + o->warnings.dropped;
        snprintf(o->explorer.start_warning, sizeof o->explorer.start_warning, "%s%.240s%s",
                 warning_word(o->warnings.text[0]), o->warnings.text[0], more > 0 ? " (and more on stderr)" : "");
    }
    int status = explorer_run(&o->scenario, &o->explorer, err, sizeof err);
    if (status >= 0)
        return status;
    return run_without_explorer(o, err, out, errout); /* TERM=dumb, no terminfo entry, no curses */
}

int cli_main(int argc, char **argv, FILE *out, FILE *errout)
{
    struct cli_options o;
    char err[600];
    int status = cli_parse(argc, argv, &o, err, sizeof err);
    cli_print_warnings(errout, &o.warnings);
    if (status != 0) {
        cli_say(errout, "%s", err);
        cli_options_free(&o);
        return status;
    }
    if (o.write_scenario && (status = write_scenario(&o, errout)) != 0) {
        cli_options_free(&o);
        return status;
    }
    status = run_mode(&o, out, errout);
    cli_options_free(&o);
    return status;
}
