/* calibrate_cmd.c — `rooftop --calibrate FILE`: fit a chip's efficiency
 * profile (or, with --calibrate-scope all, the generic profile and every
 * engine's) to measurements, print the fit, and save the chip. */
#include "calibrate_cmd.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chipfile.h"
#include "fileio.h"
#include "kernelcal.h"
#include "measured.h"
#include "userfiles.h"

#define ITERATIONS 1500
#define FOLDS 10 /* cross-validation folds: linear in the rows; leave-one-out below 10 rows */

/* The progress of a cross-validation on a terminal: one line, rewritten. */
struct progress {
    FILE *to;
    bool tty;
};

static void show_progress(void *ctx, int fold, int folds)
{
    struct progress *p = ctx;
    if (!p->tty)
        return;
    if (fold < folds)
        fprintf(p->to, "\rrooftop: cross-validating, fold %d of %d ", fold + 1, folds);
    else
        fprintf(p->to, "\r%*s\r", 48, "");
    fflush(p->to);
}

/* The words for the cross-validation of n rows: "10-fold cross-validated"
 * or, with fewer rows than folds, "leave-one-out". */
static const char *cv_name(size_t n)
{
    return n <= FOLDS ? "leave-one-out" : "10-fold cross-validated";
}

/* Seconds one realistic prediction of every row takes here, measured once:
 * what a fit's time is a multiple of. */
static double seconds_per_pass(const struct observation *obs, size_t n)
{
    struct timespec t0, t1;
    double mape;
    char err[64];
    clock_gettime(CLOCK_MONOTONIC, &t0);
    (void)fit_mape(obs, n, true, &mape, NULL, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

/* Says, before a fit that will take a while, about how long: a fit is some
 * 30 passes over the rows a parameter before it settles (measured on the
 * shared cases: 6 parameters ~185 passes, 30 ~810), a cross-validation
 * FOLDS more fits. */
static void say_estimate(FILE *errout, const struct observation *obs, size_t n, size_t np)
{
    double pass = seconds_per_pass(obs, n);
    double fits = 1.0 + (double)(n < FOLDS ? n : FOLDS);
    double estimate = pass * 30.0 * (double)np * fits;
    if (estimate >= 2.0) {
        fprintf(errout, "rooftop: note: fitting %zu parameters to %zu rows and cross-validating the fit (%s): about %.0f s\n",
                np, n, n <= FOLDS ? "leave-one-out" : "10 folds", estimate);
        fflush(errout);
    }
}

/* Refuses a row the roofline says cannot be that fast: a units error, a
 * wrong chip, or a cache effect the model does not have. */
static int check_floor(const struct observation *obs, size_t n, const char *path, char *err, size_t errsize)
{
    for (size_t i = 0; i < n; i++) {
        double floor_s;
        if (observation_predict(&obs[i], false, &floor_s, err, errsize) != 0)
            return -1;
        if (obs[i].measured_s < floor_s * 0.98) {
            char given[32], floor_text[24];
            snprintf(err, errsize, "%s: row %s: measured %s s is faster than the roofline allows (%s on %s): "
                                   "check its units and its chip",
                     path, obs[i].id, format_exact(given, sizeof given, obs[i].measured_s),
                     format_seconds_4sig(floor_text, sizeof floor_text, floor_s),
                     obs[i].scenario.chip.key);
            return -1;
        }
    }
    return 0;
}

/* Prints a row-by-row table of the fit. */
static void print_rows(FILE *out, const struct observation *obs, size_t n)
{
    char err[300];
    fprintf(out, "  %-24s %-13s %11s %11s %11s %7s\n", "row", "level", "measured", "floor", "realistic", "ratio");
    for (size_t i = 0; i < n; i++) {
        double f = 0, r = 0;
        if (observation_predict(&obs[i], false, &f, err, sizeof err) != 0 ||
            observation_predict(&obs[i], true, &r, err, sizeof err) != 0)
            continue;
        char ms[24], fs[24], rs[24]; /* each time in its unit ("16.86 us"), as the reports write them */
        fprintf(out, "  %-24.24s %-13s %11s %11s %11s %7.3f\n", obs[i].id, obs[i].level,
                format_seconds_4sig(ms, sizeof ms, obs[i].measured_s), format_seconds_4sig(fs, sizeof fs, f),
                format_seconds_4sig(rs, sizeof rs, r), r / obs[i].measured_s);
    }
}

/* Keeps the rows on chip (and every point row); returns how many. */
static size_t keep_chip(struct observation *obs, size_t n, const char *chip)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (obs[i].point || strcmp(obs[i].scenario.chip.key, chip) == 0)
            obs[k++] = obs[i];
    return k;
}

/* Fits the scenario's chip profile to its rows. */
static int fit_chip(const struct cli_options *o, struct observation *obs, size_t n, const char *path, FILE *out,
                    FILE *errout)
{
    char err[600];
    const struct chip_spec *chip = &o->scenario.chip;
    size_t kept = keep_chip(obs, n, chip->key);
    if (kept == 0) {
        cli_say(errout, "%s has no rows measured on %s (give --chip for the chip the rows name)", path,
                chip->key);
        return 2;
    }
    if (check_floor(obs, kept, path, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    struct efficiency_profile start = efficiency_resolve(&chip->efficiency);
    struct fit_param params[] = {
        {FIT_MATMUL_BF16, "", "", start.matmul[RT_BF16], 0, false}, {FIT_MATMUL_FP8, "", "", start.matmul[RT_FP8], 0, false},
        {FIT_MEMORY, "", "", start.memory, 0, false},               {FIT_KERNEL_S, "", "", start.kernel_s, 0, false},
        {FIT_ALLREDUCE_STEP_S, "", "", start.allreduce_step_s, 0, false}, {FIT_LINK, "", "", start.link, 0, false},
    };
    size_t np = sizeof params / sizeof params[0];
    for (size_t k = 0; k < np; k++)
        snprintf(params[k].chip, sizeof params[k].chip, "%s", chip->key);
    double before, after, median;
    say_estimate(errout, obs, kept, np);
    if (fit_mape(obs, kept, true, &before, NULL, err, sizeof err) != 0 ||
        calibrate_fit(obs, kept, params, np, ITERATIONS, &after, err, sizeof err) != 0) {
        cli_say(errout, "%s: %s", path, err);
        return 2;
    }
    fit_mape(obs, kept, true, &after, &median, err, sizeof err);
    fprintf(out, "Calibrating %s from %zu rows of %s\n", chip->key, kept, path);
    fprintf(out, "  realistic MAPE %.1f%% with the profile it had, %.1f%% fitted (median ratio %.3f)\n", before * 100.0,
            after * 100.0, median);
    size_t informed = 0;
    for (size_t k = 0; k < np; k++)
        informed += params[k].informed >= RT_FIT_MIN_ROWS;
    /* Cross-validation says whether the fit predicts rows it has not seen; say why when it cannot run. */
    double loo;
    struct progress pr = {errout, isatty(fileno(errout)) != 0};
    if (kept < informed + 2)
        fprintf(out, "  %s: not measured (it needs %zu rows for %zu fitted parameters)\n", cv_name(kept),
                informed + 2, informed);
    else if (calibrate_cross_validate(obs, kept, params, np, ITERATIONS / 3, FOLDS, show_progress, &pr, &loo, NULL,
                                      err, sizeof err) == 0)
        fprintf(out, "  %s MAPE %.1f%% (each row predicted by a fit that did not see it)\n", cv_name(kept),
                loo * 100.0);
    else
        fprintf(out, "  %s: not measured (without some rows: %s)\n", cv_name(kept), err);
    if (kept < 3 * informed)
        fprintf(out, "  note: %zu rows for %zu fitted parameters: the fit may follow these rows more than the chip; "
                     "give three or more rows a parameter\n",
                kept, informed);
    fprintf(out, "  %-22s %12s  %s\n", "parameter", "value", "rows that inform it");
    for (size_t k = 0; k < np; k++) {
        const char *name = fit_field_name(params[k].field);
        size_t len = strlen(name);
        char value[24]; /* a time in its unit ("11.89 us"), a share as a number */
        if (len > 2 && strcmp(name + len - 2, "_s") == 0)
            format_seconds_4sig(value, sizeof value, params[k].value);
        else
            snprintf(value, sizeof value, "%.4g", params[k].value);
        fprintf(out, "  %-22s %12s  %d%s\n", name, value, params[k].informed,
                params[k].informed >= RT_FIT_MIN_ROWS ? "" : " (kept: too few rows depend on it)");
    }
    print_rows(out, obs, kept);
    /* A fit that stopped at its bounds, or predicts its own rows worse than the profile it started from, does
       not describe a chip: say so, and write no chip from it. */
    char bounds[160] = "";
    size_t bused = 0;
    for (size_t k = 0; k < np && bused < sizeof bounds; k++)
        if (params[k].at_bound && params[k].informed >= RT_FIT_MIN_ROWS)
            bused += (size_t)snprintf(bounds + bused, sizeof bounds - bused, "%s%s %.4g", bused ? ", " : "",
                                      fit_field_name(params[k].field), params[k].value);
    bool worse = after > before * (1.0 + 1e-9);
    if (bounds[0])
        fprintf(out, "  warning: the fit stopped at the edge of its range (%s): these rows pull it past what a chip "
                     "does; check their units and chip\n",
                bounds);
    if (worse)
        fprintf(out, "  warning: the fit predicts these rows worse (%.1f%%) than the profile it started from (%.1f%%)\n",
                after * 100.0, before * 100.0);
    if (!o->write_chip)
        return 0;
    if (bounds[0] || worse) {
        cli_say(errout, "--write-chip %s: not written: the fit %s", o->write_chip,
                bounds[0] ? "stopped at the edge of its range (see the warning above)"
                          : "is worse than the profile it started from");
        return 2;
    }
    struct chip_spec fitted = *chip;
    fitted.efficiency = obs[0].scenario.chip.efficiency;
    if (obs[0].point) { /* point rows carry the base chip: apply the fit to it */
        fit_apply(obs, 1, params, np);
        fitted.efficiency = obs[0].scenario.chip.efficiency;
    }
    fitted.efficiency.present = true;
    fitted.efficiency.calibrated = true;
    fitted.efficiency.sm_count = chip->efficiency.sm_count;
    /* Say which parameters the rows fitted; the others are the profile it started from. */
    char which[120] = "";
    size_t used = 0;
    for (size_t k = 0; k < np && used < sizeof which; k++)
        if (params[k].informed >= RT_FIT_MIN_ROWS)
            used += (size_t)snprintf(which + used, sizeof which - used, "%s%s", used ? ", " : "",
                                     fit_field_name(params[k].field));
    snprintf(fitted.efficiency.source, sizeof fitted.efficiency.source, "%s fitted to %zu rows of %s (MAPE %.1f%%); "
                                                                        "the rest as before",
             which, kept, path, after * 100.0);
    char werr[700];
    int status = userfile_write_chip(o->write_chip, &fitted, werr, sizeof werr) == 0 ? 0 : 1;
    if (status)
        cli_say(errout, "%s", werr);
    if (status == 0)
        fprintf(out, "Wrote %s (use it with --chip %s)\n", o->write_chip, o->write_chip);
    return status;
}

/* The built-in fit: the generic chip profile and each engine's fixed time
 * and kernel efficiencies, over every row. */
static int fit_all(struct observation *obs, size_t n, const char *path, FILE *out, FILE *errout)
{
    char err[600];
    if (check_floor(obs, n, path, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    const struct efficiency_profile *g = efficiency_generic();
    struct fit_param params[40] = {
        {FIT_MATMUL_BF16, "", "", g->matmul[RT_BF16], 0, false}, {FIT_MATMUL_FP8, "", "", g->matmul[RT_FP8], 0, false},
        {FIT_MEMORY, "", "", g->memory, 0, false},               {FIT_KERNEL_S, "", "", g->kernel_s, 0, false},
        {FIT_ALLREDUCE_STEP_S, "", "", g->allreduce_step_s, 0, false}, {FIT_LINK, "", "", g->link, 0, false},
    };
    size_t np = 6;
    for (size_t i = 0; i < engine_builtin_count() && np + 3 <= 40; i++) {
        const struct engine_profile *e = engine_builtin(i);
        struct fit_param request = {FIT_ENGINE_REQUEST_S, "", "", e->request_s > 0 ? e->request_s : 1e-4, 0, false};
        snprintf(request.engine, sizeof request.engine, "%s", e->name);
        params[np++] = request;
        struct fit_param step = {FIT_ENGINE_STEP_S, "", "", e->step_s, 0, false};
        struct fit_param attn = {FIT_ENGINE_ATTENTION, "", "", e->attention, 0, false};
        snprintf(step.engine, sizeof step.engine, "%s", e->name);
        snprintf(attn.engine, sizeof attn.engine, "%s", e->name);
        params[np++] = step;
        params[np++] = attn;
    }
    double before, after, median, loo = -1;
    /* The joint fit and its cross-validation take a while: say how long first, so a silent terminal does not
       read as a hang, and show the folds as they go. */
    say_estimate(errout, obs, n, np);
    if (fit_mape(obs, n, true, &before, NULL, err, sizeof err) != 0 ||
        calibrate_fit(obs, n, params, np, ITERATIONS * 3, &after, err, sizeof err) != 0) {
        cli_say(errout, "%s: %s", path, err);
        return 2;
    }
    fit_mape(obs, n, true, &after, &median, err, sizeof err);
    struct progress pr = {errout, isatty(fileno(errout)) != 0};
    if (calibrate_cross_validate(obs, n, params, np, ITERATIONS, FOLDS, show_progress, &pr, &loo, NULL, err,
                                 sizeof err) != 0)
        loo = -1;
    fprintf(out, "Fitting the generic profile and the engines to %zu rows of %s\n", n, path);
    if (loo >= 0)
        fprintf(out, "  realistic MAPE %.1f%% before, %.1f%% fitted (median ratio %.3f); %s %.1f%%\n",
                before * 100.0, after * 100.0, median, cv_name(n), loo * 100.0);
    else
        fprintf(out, "  realistic MAPE %.1f%% before, %.1f%% fitted (median ratio %.3f); %s: not measured (%s)\n",
                before * 100.0, after * 100.0, median, cv_name(n), err);
    for (size_t k = 0; k < np; k++)
        if (params[k].informed)
            fprintf(out, "  %-10s %-26s %12.4g  (%d rows%s)\n", params[k].engine[0] ? params[k].engine : "all chips",
                    fit_field_name(params[k].field), params[k].value, params[k].informed,
                    params[k].informed >= RT_FIT_MIN_ROWS ? "" : ": kept, too few");
    print_rows(out, obs, n);
    return 0;
}

int run_calibrate(const struct cli_options *o, FILE *out, FILE *errout)
{
    if (kernel_tables_at(o->calibrate_path))
        return run_kernel_calibrate(o, out, errout);
    char *text, err[600];
    size_t len, n = 0;
    if (read_file_limit(o->calibrate_path, RT_MAX_PROFILE_BYTES, &text, &len, err, sizeof err) != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    struct observation *obs = NULL;
    struct load_warnings w = {0};
    int rc = measured_read(o->calibrate_path, text, len, &o->scenario, cli_scenario_from_flags, &obs, &n, &w, err,
                           sizeof err);
    free(text);
    cli_print_warnings(errout, &w);
    if (rc != 0) {
        cli_say(errout, "%s", err);
        return 2;
    }
    int status = o->calibrate_all ? fit_all(obs, n, o->calibrate_path, out, errout)
                                  : fit_chip(o, obs, n, o->calibrate_path, out, errout);
    free(obs);
    return status;
}
