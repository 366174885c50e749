/* ui.c — the explorer's state machine and frame rendering. */
#include "ui.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opview.h"
#include "panels.h"
#include "pareto.h"
#include "tourview.h"
#include "userfiles.h"
#include "present.h"

_Static_assert(LAYOUT_SLIDER_ROWS_ALL == 1 + SLIDER_COUNT, "a tall screen shows every knob");

/* Sets the status-line message (printf style); error selects its colour. */
static void say(struct ui *u, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(struct ui *u, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->message, sizeof u->message, fmt, ap);
    va_end(ap);
    u->message_is_error = error;
}

void ui_set_message(struct ui *u, bool error, const char *text)
{
    say(u, error, "%s", text ? text : "");
}

/* Shows an error from the core, which names knobs by their flags, in the
 * knobs' names (slider_message). */
static void say_core_error(struct ui *u, const char *err)
{
    char named[UI_MESSAGE_MAX];
    say(u, true, "%s", slider_message(err, named, sizeof named));
}

/* True when m is one of the built-in presets (its name and its source). */
static bool builtin_model(const struct model_shape *m)
{
    const struct model_shape *b = model_find(m->name);
    return b && strcmp(b->source, m->source) == 0;
}

/* Keeps m, a model not among the presets, in the model knob: stepping
 * away from it and back returns to it (keep_chip's rule for models). */
static void keep_model(struct ui *u, const struct model_shape *m)
{
    if (builtin_model(m))
        return;
    u->file_model = *m;
    u->has_file_model = true;
}

/* True when s runs the kept file model (not a --params size on it). */
static bool on_file_model(const struct ui *u, const struct scenario *s)
{
    return u->has_file_model && !(s->params > 0.0) && strcmp(s->model.name, u->file_model.name) == 0 &&
           strcmp(s->model.source, u->file_model.source) == 0;
}

/* The model knob stepped in dir from a preset: when the kept file model's
 * size lies between this model and the preset the step would reach, the
 * step lands on the file model instead (into *next). Returns true then. */
static bool step_to_file_model(const struct ui *u, int dir, bool coarse, struct scenario *next)
{
    if (!u->has_file_model || on_file_model(u, &u->scenario))
        return false;
    struct scenario probe = u->scenario, file = u->scenario;
    slider_use_model(&file, &u->file_model);
    scenario_use_checkpoint(&file); /* as loading it did */
    double here = slider_model_size(&u->scenario), size = slider_model_size(&file);
    bool moved = slider_step_in(&probe, SLIDER_MODEL, dir, coarse, u->chips);
    double there = moved ? slider_model_size(&probe) : (dir > 0 ? INFINITY : -INFINITY);
    if (!(dir > 0 ? (size >= here && size < there) : (size <= here && size > there)))
        return false;
    *next = file;
    return true;
}

/* Re-analyses the comparison chip's roof for the current scenario. */
static void update_compare(struct ui *u)
{
    u->has_compare = false;
    const struct chip_spec *c = u->compare_chip >= 0 ? (&u->chips.items[u->compare_chip]) : NULL;
    if (!c)
        return;
    struct scenario s = u->scenario;
    s.chip = *c;
    s.peak_flops_override = s.hbm_bytes_per_s_override = s.hbm_bytes_override = 0.0;
    char err[256];
    u->has_compare = analyze(&s, &u->compare, err, sizeof err) == 0;
}

int ui_init(struct ui *u, const struct scenario *initial, bool ascii, int cols, int rows, char *err,
            size_t errsize)
{
    memset(u, 0, sizeof *u);
    u->initial = *initial;
    u->scenario = *initial;
    if (analyze(&u->scenario, &u->analysis, err, errsize) != 0)
        return -1;
    u->largest_ok_batch = analysis_largest_ok_batch(&u->scenario);
    u->chips = chip_builtin_list();
    if (!(initial->params > 0.0))
        keep_model(u, &initial->model); /* a --model FILE the presets do not hold */
    u->compare_chip = -1;
    u->drag_slider = -1;
    u->ops_phase = -1;
    u->selected = SLIDER_BATCH;
    u->op_view = initial->op.set;
    u->op_selected = 0;
    u->ascii = ascii;
    ui_resize(u, cols, rows);
    return 0;
}

/* Keeps chip c in the chip knob's list (after the others) when it is not
 * there already: a chip typed as a file's path stays one step from its
 * neighbours. Out of memory leaves the list as it was. */
static void keep_chip(struct ui *u, const struct chip_spec *c)
{
    if (chip_list_index(u->chips, c->key) >= 0)
        return;
    struct chip_spec *grown = malloc((u->chips.count + 1) * sizeof *grown);
    if (!grown)
        return;
    memcpy(grown, u->chips.items, u->chips.count * sizeof *grown);
    grown[u->chips.count] = *c;
    free(u->chips_owned);
    u->chips_owned = grown;
    u->chips.items = grown;
    u->chips.count++;
}

void ui_set_chips(struct ui *u, struct chip_list chips)
{
    if (chips.count == 0)
        return;
    u->chips = chips;
    u->compare_chip = -1;
    u->has_compare = false;
    keep_chip(u, &u->scenario.chip); /* a --chip FILE the list does not hold */
}

/* The flat roofs R shows: each precision's peak the chip has (sparse
 * figures are never in a chip's table), and the vector unit's. */
static void fill_roofs(struct ui *u)
{
    u->plot.roof_count = 0;
    if (!u->all_roofs)
        return;
    const struct chip_spec *c = &u->scenario.chip;
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        if (c->peak_flops_per_s[p] > 0.0) {
            struct plot_roof *r = &u->plot.roofs[u->plot.roof_count++];
            r->peak_flops_per_s = c->peak_flops_per_s[p];
            snprintf(r->name, sizeof r->name, "%s", precision_name((enum rt_precision)p));
        }
    if (u->analysis.hw.vector_flops_per_s > 0.0) {
        struct plot_roof *r = &u->plot.roofs[u->plot.roof_count++];
        r->peak_flops_per_s = u->analysis.hw.vector_flops_per_s;
        snprintf(r->name, sizeof r->name, "vector");
    }
}

/* Places the measured kernels on the current scenario's roof: once per
 * change of scenario, not per frame. */
static void place_points(struct ui *u)
{
    fill_roofs(u);
    u->placed_count = 0;
    for (size_t i = 0; i < u->point_count && u->placed_count < RT_MAX_POINTS; i++) {
        struct plot_point *p = &u->placed[u->placed_count];
        if (point_place(&u->points[i], &u->scenario, &p->at) == 0) {
            p->label = u->points[i].label;
            p->roof_name = p->at.on_vector_roof ? "vector" : precision_name(u->points[i].precision);
            u->placed_count++;
        }
    }
}

int ui_set_baseline(struct ui *u, const struct scenario *s, char *err, size_t errsize)
{
    if (!s) {
        u->has_baseline = false;
        return 0;
    }
    struct analysis a;
    if (analyze(s, &a, err, errsize) != 0)
        return -1;
    u->baseline = *s;
    u->baseline_analysis = a;
    u->has_baseline = true;
    return 0;
}

void ui_set_points(struct ui *u, const struct measured_point *points, size_t count, const struct points_context *ctx)
{
    u->points_context = ctx;
    u->points = points;
    u->point_count = count;
    place_points(u);
}

void ui_resize(struct ui *u, int cols, int rows)
{
    u->cols = cols < 0 ? 0 : cols;
    u->rows = rows < 0 ? 0 : rows;
    u->layout = layout_compute(u->cols, u->rows);
}

/* Pushes the current scenario on the undo ring. */
static void push_undo(struct ui *u)
{
    u->undo_top = (u->undo_top + 1) % UI_UNDO_DEPTH;
    u->undo[u->undo_top] = u->scenario;
    if (u->undo_count < UI_UNDO_DEPTH)
        u->undo_count++;
}

/* Makes *next the current scenario if analyze() accepts it; otherwise keeps
 * the current one and shows why. Returns true when it was accepted. */
static bool commit(struct ui *u, const struct scenario *next, bool record_undo)
{
    struct analysis a;
    char err[256];
    if (analyze(next, &a, err, sizeof err) != 0) {
        say_core_error(u, err);
        return false;
    }
    if (record_undo)
        push_undo(u);
    /* Another model places other workloads: its points leave no trail behind. */
    if (strcmp(next->model.name, u->scenario.model.name) != 0)
        plot_state_clear(&u->plot, false);
    else
        plot_state_step(&u->plot, &u->analysis, &a);
    u->scenario = *next;
    u->analysis = a;
    u->largest_ok_batch = analysis_largest_ok_batch(&u->scenario);
    update_compare(u);
    place_points(u);
    return true;
}

/* Batch up while decode's intensity nears a ceiling below the ridge (the
 * analysis's decode_intensity_ceiling_flop_per_byte): says that no batch
 * reaches the ridge here and why, in the longest form the width takes. */
static void say_decode_ceiling(struct ui *u)
{
    const struct analysis *a = &u->analysis;
    const struct placement *dec = analysis_phase_placement(a, "decode");
    double c = a->decode_intensity_ceiling_flop_per_byte;
    if (!dec || !(c > 0.0) || c >= a->ridge_flop_per_byte || dec->roof.intensity_flop_per_byte < 0.5 * c)
        return;
    char text[2][UI_MESSAGE_MAX];
    snprintf(text[0], sizeof text[0],
             "decode AI tops out at %.0f FLOP/B, below the ridge (%.0f): each request reads its own KV; cut context, "
             "KV heads or KV precision",
             c, a->ridge_flop_per_byte);
    snprintf(text[1], sizeof text[1], "decode AI tops out at %.0f, below the ridge (%.0f): KV grows with the batch", c,
             a->ridge_flop_per_byte);
    say(u, false, "%s", text_width(text[0]) <= u->cols ? text[0] : text[1]);
}

/* Steps the selected slider; says so at either end of its range, or why
 * the knob does nothing for this model. */
static unsigned step_selected(struct ui *u, int dir, bool coarse)
{
    struct scenario next = u->scenario;
    char why[UI_MESSAGE_MAX];
    if (slider_inert(&u->scenario, (enum slider_id)u->selected, why, sizeof why)) {
        say(u, false, "%s", why);
        return UI_REDRAW;
    }
    if (u->selected == SLIDER_MODEL && step_to_file_model(u, dir, coarse, &next)) {
        commit(u, &next, true);
        return UI_REDRAW;
    }
    if (!slider_step_in(&next, (enum slider_id)u->selected, dir, coarse, u->chips)) {
        say(u, false, "%s is at its %s", slider_name((enum slider_id)u->selected), dir > 0 ? "largest" : "smallest");
        return UI_REDRAW;
    }
    if (commit(u, &next, true) && u->selected == SLIDER_BATCH && dir > 0)
        say_decode_ceiling(u);
    return UI_REDRAW;
}

/* Cycles the comparison chip through the built-in chips other than the
 * current one, then off. */
static void cycle_compare(struct ui *u, int dir)
{
    int n = (int)u->chips.count;
    for (int tries = 0; tries <= n; tries++) {
        u->compare_chip += dir;
        if (u->compare_chip >= n)
            u->compare_chip = -1;
        else if (u->compare_chip < -1)
            u->compare_chip = n - 1;
        if (u->compare_chip < 0)
            break;
        if (strcmp((&u->chips.items[u->compare_chip])->key, u->scenario.chip.key) != 0)
            break;
    }
    update_compare(u);
    if (u->compare_chip < 0)
        say(u, false, "comparison roof off");
    else if (u->has_compare)
        say(u, false, "comparing with %s (ridge %.0f FLOP/byte); c for the next chip",
            (&u->chips.items[u->compare_chip])->key, u->compare.ridge_flop_per_byte);
    else
        say(u, true, "%s cannot run this scenario", (&u->chips.items[u->compare_chip])->key);
}

/* Cycles the phase whose operations the plot shows: off, prefill, decode,
 * training, off (dir -1 the other way), skipping phases without any. */
static void cycle_ops(struct ui *u, int dir)
{
    for (int tries = 0; tries <= RT_PHASE_COUNT; tries++) {
        u->ops_phase += dir;
        if (u->ops_phase >= RT_PHASE_COUNT)
            u->ops_phase = -1;
        else if (u->ops_phase < -1)
            u->ops_phase = RT_PHASE_COUNT - 1;
        if (u->ops_phase < 0 || plot_op_count(&u->analysis, phase_name((enum rt_phase)u->ops_phase)) > 0)
            break;
    }
    if (u->ops_phase < 0) {
        say(u, false, "operations off: the plot shows the phases (o shows each operation)");
        return;
    }
    int n = plot_op_count(&u->analysis, phase_name((enum rt_phase)u->ops_phase));
    say(u, false, "%s: %d operations on the plot, %c-%c; o for the next phase", phase_name((enum rt_phase)u->ops_phase),
        n, plot_op_marker(0), plot_op_marker(n - 1));
}

/* Frees the Pareto view's candidates (it is closed). */
static void pareto_free(struct ui *u)
{
    free(u->pareto.candidates);
    u->pareto.candidates = NULL;
    u->pareto.count = 0;
}

void ui_free(struct ui *u)
{
    free(u->chips_owned);
    u->chips_owned = NULL;
    pareto_free(u);
    if (u->tour == u->tour_owned)
        u->tour = NULL;
    free(u->tour_owned);
    u->tour_owned = NULL;
}

/* Says which frontier point is picked. */
static void say_pick(struct ui *u, const char *verb)
{
    char d[200];
    const struct search_candidate *c = &u->pareto.candidates[u->pareto_order[u->pareto_pick]];
    say(u, false, "%s %s", verb, pareto_describe(d, sizeof d, c));
}

/* Opens the Pareto view: searches layouts, batches, precisions and prefill
 * pools from the current scenario (its model, chip, tokens and targets). */
static void open_pareto(struct ui *u)
{
    pareto_free(u);
    u->pareto.capacity = RT_SEARCH_CAPACITY; /* what --search keeps: the same designs counted */
    u->pareto.candidates = calloc(u->pareto.capacity, sizeof *u->pareto.candidates);
    if (!u->pareto.candidates) {
        say(u, true, "out of memory for the design search");
        return;
    }
    /* as --search takes the same line */
    search_options_for(&u->scenario, u->pareto_one_precision, u->pareto_max_chips_given, &u->pareto_opt);
    char err[256];
    if (search_run(&u->scenario, &u->pareto_opt, &u->pareto, err, sizeof err) != 0) {
        pareto_free(u);
        say_core_error(u, err);
        return;
    }
    u->pareto_n = pareto_frontier_order(&u->pareto, u->pareto_order, UI_PARETO_MAX_FRONTIER);
    u->pareto_pick = u->pareto_n / 2;
    u->mode = UI_MODE_PARETO;
    if (u->pareto_n == 0)
        say(u, true, "no design up to %lld chips fits and meets the targets (p closes)",
            (long long)u->pareto_opt.max_chips);
    else
        say_pick(u, "Enter loads");
}

/* Keys while the Pareto view is open: walk the frontier, load a point, close. */
static unsigned pareto_key(struct ui *u, int key)
{
    switch (key) {
    case UI_KEY_LEFT:
    case 'h':
    case UI_KEY_RIGHT:
    case 'l':
        if (u->pareto_n == 0)
            return UI_REDRAW;
        if ((key == UI_KEY_LEFT || key == 'h') && u->pareto_pick > 0)
            u->pareto_pick--;
        else if ((key == UI_KEY_RIGHT || key == 'l') && u->pareto_pick + 1 < u->pareto_n)
            u->pareto_pick++;
        say_pick(u, "Enter loads");
        return UI_REDRAW;
    case UI_KEY_ENTER: {
        if (u->pareto_n == 0)
            return UI_REDRAW;
        const struct search_candidate *c = &u->pareto.candidates[u->pareto_order[u->pareto_pick]];
        struct scenario next = search_candidate_scenario(&u->scenario, c);
        if (commit(u, &next, true))
            say_pick(u, "loaded:");
        return UI_REDRAW;
    }
    case 'p':
    case UI_KEY_ESC:
        pareto_free(u);
        u->mode = UI_MODE_KNOBS;
        say(u, false, "Pareto view closed");
        return UI_REDRAW;
    case 'q':
    case 'Q':
        return UI_QUIT;
    case UI_KEY_REPAINT:
    case 12:
        return UI_REDRAW | UI_REPAINT;
    default:
        say(u, false, "Pareto view: %s pick a frontier point, Enter loads it, p closes", glyphs_for(u->ascii)->left_right);
        return UI_REDRAW;
    }
}

void ui_set_tour(struct ui *u, const struct tour *t)
{
    u->tour = t ? t : u->tour_owned;
    u->tour_step = 0;
    u->tour_guess[0] = '\0';
    u->tour_revealed = false;
}

/* Shows tour step i: sets its scenario (u undoes it), selects its knob and
 * clears the guess. */
static void tour_show(struct ui *u, size_t i)
{
    u->tour_step = i;
    u->tour_guess[0] = '\0';
    u->tour_revealed = false;
    const struct tour_step *st = &u->tour->steps[i];
    if (!commit(u, &st->scenario, true))
        return;
    /* A new step is a new picture: its own axes, no trail from the last. */
    plot_state_clear(&u->plot, true);
    /* The coming steps whose answers this step's screen would show, concealed until their own step
     * (a later step of this step's own key too: what its answer tells beyond itself, decode's
     * ceiling beside the bound, waits; the revealed figure shows, the grid's reveal key). */
    char key[RT_TOUR_KEY_MAX + 16];
    u->tour_later[0] = '\0';
    uint32_t shown = tour_answers_on_screen(u->tour, i, &u->scenario, &u->analysis);
    for (size_t j = i + 1; j < u->tour->count; j++) {
        tour_conceal_key(u->tour->steps[j].figure, key, sizeof key);
        size_t n = strlen(u->tour_later);
        if ((shown >> j & 1u) && !strstr(u->tour_later, key))
            snprintf(u->tour_later + n, sizeof u->tour_later - n, "%s%s", n ? " " : "", key);
    }
    int k = tour_knob_slider(st->knob);
    if (k >= 0)
        u->selected = k;
}

unsigned ui_open_tour(struct ui *u)
{
    if (!u->tour) {
        char err[512] = "out of memory for the tour";
        const char *knobs[SLIDER_COUNT + 1];
        const char *text = tour_builtin_text();
        u->tour_owned = malloc(sizeof *u->tour_owned);
        if (!u->tour_owned || tour_parse(text, strlen(text), "built-in tour", tour_knob_names(knobs), u->tour_owned,
                                         NULL, err, sizeof err) != 0) {
            free(u->tour_owned);
            u->tour_owned = NULL;
            say(u, true, "%s", err);
            return UI_REDRAW;
        }
        u->tour = u->tour_owned;
        u->tour_step = 0;
    }
    u->mode = UI_MODE_TOUR;
    u->ops_phase = -1; /* the placement and MFU panels are what the tour points at */
    tour_show(u, u->tour_step < u->tour->count ? u->tour_step : 0);
    return UI_REDRAW;
}

/* Scores the guess typed for the tour's step and reveals the answer. */
static void tour_check(struct ui *u)
{
    struct tour_score sc;
    char err[256];
    if (tour_score(&u->tour->steps[u->tour_step], u->tour_guess, u->ascii, &sc, err, sizeof err) != 0) {
        say(u, true, "%s", err);
        return;
    }
    snprintf(u->tour_result, sizeof u->tour_result, "%s", sc.line);
    u->tour_right = sc.right;
    u->tour_revealed = true;
    u->tour_guess[0] = '\0';
}

/* Moves the tour dir steps (+1 next, -1 back), saying so at either end. */
static void tour_move(struct ui *u, int dir)
{
    if (dir > 0 && u->tour_step + 1 >= u->tour->count)
        say(u, false, "that was the last step: Esc returns to the explorer");
    else if (dir < 0 && u->tour_step == 0)
        say(u, false, "this is the first step");
    else
        tour_show(u, dir > 0 ? u->tour_step + 1 : u->tour_step - 1);
}

/* Keys while the tour is open: typing a guess, Enter checks it, arrows (or
 * n and p while nothing is typed) move between steps, Esc leaves. */
static unsigned tour_key(struct ui *u, int key)
{
    size_t n = strlen(u->tour_guess);
    switch (key) {
    case UI_KEY_ENTER:
        tour_check(u);
        return UI_REDRAW;
    case UI_KEY_RIGHT:
    case UI_KEY_PGDN:
        tour_move(u, 1);
        return UI_REDRAW;
    case UI_KEY_LEFT:
    case UI_KEY_PGUP:
        tour_move(u, -1);
        return UI_REDRAW;
    case UI_KEY_ESC:
        if (n > 0) { /* a begun guess: Esc clears it, as in any field; a second Esc leaves */
            u->tour_guess[0] = '\0';
            say(u, false, "guess cleared (Esc again leaves the tour)");
            return UI_REDRAW;
        }
        u->mode = UI_MODE_KNOBS;
        say(u, false, "left the tour at step %zu of %zu (T goes back to it)", u->tour_step + 1, u->tour->count);
        return UI_REDRAW;
    case UI_KEY_BACKSPACE:
    case 127:
    case 8:
        if (n > 0)
            u->tour_guess[n - 1] = '\0';
        return UI_REDRAW;
    case 21: /* Ctrl-U: clear */
        u->tour_guess[0] = '\0';
        return UI_REDRAW;
    case UI_KEY_REPAINT:
    case 12:
        return UI_REDRAW | UI_REPAINT;
    default:
        /* With nothing typed the letters are keys; once a guess is begun they are its text, q too
         * (a half-typed guess is not lost to a stray q; Esc leaves, Ctrl-U clears). */
        if (n == 0 && (key == 'q' || key == 'Q'))
            return UI_QUIT;
        if (n == 0 && (key == 'n' || key == 'p')) {
            tour_move(u, key == 'n' ? 1 : -1);
            return UI_REDRAW;
        }
        if (key >= 0x20 && key < 0x7F && n + 1 < sizeof u->tour_guess) { /* guesses are ASCII: 0.5 s, memory */
            u->tour_guess[n] = (char)key;
            u->tour_guess[n + 1] = '\0';
            u->tour_revealed = false;
        }
        return UI_REDRAW;
    }
}

/* ---- the operation view (--op) ---- */

/* True when the frame is the operation view: asked for, an operation to
 * show, and a mode it has (the knobs, typing a value, the help). */
static bool op_view_on(const struct ui *u)
{
    return u->op_view && u->analysis.operation.set &&
           (u->mode == UI_MODE_KNOBS || u->mode == UI_MODE_EDIT || u->mode == UI_MODE_HELP);
}

/* The operation's knobs into out; returns their count. */
static int op_knobs(const struct ui *u, enum op_knob out[OP_KNOBS_MAX])
{
    return op_knob_list(u->analysis.operation.shape.kind, out);
}

/* The selected knob of the operation view (op_selected clamped to the list). */
static enum op_knob op_current(struct ui *u)
{
    enum op_knob k[OP_KNOBS_MAX];
    int n = op_knobs(u, k);
    u->op_selected = u->op_selected < 0 ? 0 : u->op_selected >= n ? n - 1 : u->op_selected;
    return k[u->op_selected];
}

/* Steps the operation view's selected knob; says so at either end. */
static unsigned op_step(struct ui *u, int dir, bool coarse)
{
    enum op_knob id = op_current(u);
    struct scenario next = u->scenario;
    if (!op_knob_step(&next, &u->analysis.operation.shape, id, dir, coarse, u->chips)) {
        say(u, false, "%s is at its %s", op_knob_name(id), dir > 0 ? "largest" : "smallest");
        return UI_REDRAW;
    }
    commit(u, &next, true);
    return UI_REDRAW;
}

/* 'v': the operation view and the model's view, each with its own axes. */
static unsigned toggle_op_view(struct ui *u)
{
    if (!u->analysis.operation.set) {
        say(u, false, "no operation to show: start with --op, e.g. --op gemm:m=1,n=8192,k=8192");
        return UI_REDRAW;
    }
    u->op_view = !u->op_view;
    plot_state_clear(&u->plot, true);
    if (u->op_view)
        say(u, false, "the operation view: %s on the roof (v: the model's view)",
            kernel_kind_name(u->analysis.operation.shape.kind));
    else
        say(u, false, "the model's view (v returns to the operation)");
    return UI_REDRAW;
}

/* Keys the operation view handles itself: selecting and stepping its
 * knobs, typing a value, 'v'; the model's own views and overlays say
 * where they are. Sets *bits and returns true when it handled key; false
 * leaves the key to knobs_key (undo, reset, axes, help, theme, save,
 * export, quit ...). */
static bool op_view_key(struct ui *u, int key, unsigned *bits)
{
    enum op_knob k[OP_KNOBS_MAX];
    int n = op_knobs(u, k);
    *bits = UI_REDRAW;
    switch (key) {
    case UI_KEY_UP: case 'k': case UI_KEY_BTAB:
        u->op_selected = u->op_selected > 0 ? u->op_selected - 1 : (key == UI_KEY_BTAB ? n - 1 : 0);
        return true;
    case UI_KEY_DOWN: case 'j': case UI_KEY_TAB:
        u->op_selected = u->op_selected < n - 1 ? u->op_selected + 1 : (key == UI_KEY_TAB ? 0 : n - 1);
        return true;
    case UI_KEY_HOME: case 'g':
        u->op_selected = 0;
        return true;
    case UI_KEY_END: case 'G':
        u->op_selected = n - 1;
        return true;
    case UI_KEY_LEFT: case 'h': case '-':
        *bits = op_step(u, -1, false);
        return true;
    case UI_KEY_RIGHT: case 'l': case '+':
        *bits = op_step(u, 1, false);
        return true;
    case UI_KEY_SLEFT: case UI_KEY_PGDN: case 'H':
        *bits = op_step(u, -1, true);
        return true;
    case UI_KEY_SRIGHT: case UI_KEY_PGUP: case 'L':
        *bits = op_step(u, 1, true);
        return true;
    case 'v':
        *bits = toggle_op_view(u);
        return true;
    case 'o': case 'O': case 'w': case 'p': case 'T': case 'P': case 'm': case 'c': case 'C': case 'b':
        say(u, false, "%c works in the model's view: v switches to it", key);
        return true;
    default:
        return false;
    }
}

/* Keys while the knobs have the focus. */
static unsigned knobs_key(struct ui *u, int key)
{
    unsigned bits;
    if (op_view_on(u) && op_view_key(u, key, &bits))
        return bits;
    switch (key) {
    case UI_KEY_UP:
    case 'k':
    case UI_KEY_BTAB:
        u->selected = u->selected > 0 ? u->selected - 1 : (key == UI_KEY_BTAB ? SLIDER_COUNT - 1 : 0);
        return UI_REDRAW;
    case UI_KEY_DOWN:
    case 'j':
    case UI_KEY_TAB:
        u->selected = u->selected < SLIDER_COUNT - 1 ? u->selected + 1 : (key == UI_KEY_TAB ? 0 : SLIDER_COUNT - 1);
        return UI_REDRAW;
    case UI_KEY_HOME:
    case 'g':
        u->selected = 0;
        return UI_REDRAW;
    case UI_KEY_END:
    case 'G':
        u->selected = SLIDER_COUNT - 1;
        return UI_REDRAW;
    case UI_KEY_LEFT:
    case 'h':
    case '-':
        return step_selected(u, -1, false);
    case UI_KEY_RIGHT:
    case 'l':
    case '+':
        return step_selected(u, 1, false);
    case UI_KEY_SLEFT:
    case UI_KEY_PGDN:
    case 'H':
        return step_selected(u, -1, true);
    case UI_KEY_SRIGHT:
    case UI_KEY_PGUP:
    case 'L':
        return step_selected(u, 1, true);
    case UI_KEY_ENTER:
    case '=':
        u->mode = UI_MODE_EDIT;
        u->edit_is_path = false;
        u->edit[0] = '\0';
        return UI_REDRAW;
    case 'u':
        if (u->undo_count == 0) {
            say(u, false, "nothing to undo");
            return UI_REDRAW;
        }
        {
            struct scenario prev = u->undo[u->undo_top];
            u->undo_top = (u->undo_top + UI_UNDO_DEPTH - 1) % UI_UNDO_DEPTH;
            u->undo_count--;
            if (commit(u, &prev, false))
                say(u, false, "undone (%d more)", u->undo_count);
        }
        return UI_REDRAW;
    case 'r':
        if (commit(u, &u->initial, true)) {
            plot_state_clear(&u->plot, false);
            say(u, false, "reset to the starting scenario (u undoes)");
        }
        return UI_REDRAW;
    case 'R':
        u->all_roofs = !u->all_roofs;
        fill_roofs(u);
        plot_state_clear(&u->plot, true); /* the axes take the roofs in */
        say(u, false, u->all_roofs ? "every precision's roof shown, and the vector unit's (R hides them)"
                                   : "only the compute precision's roof (R shows every precision's)");
        return UI_REDRAW;
    case 'a':
        plot_state_clear(&u->plot, true);
        say(u, false, "axes fitted to the points shown; they stay put while knobs move");
        return UI_REDRAW;
    case 'b':
        if (u->has_baseline) {
            ui_set_baseline(u, NULL, NULL, 0);
            say(u, false, "baseline cleared");
        } else {
            char err[256];
            if (ui_set_baseline(u, &u->scenario, err, sizeof err) == 0)
                say(u, false, "baseline pinned: every panel shows the change from here (b clears)");
            else
                say_core_error(u, err);
        }
        return UI_REDRAW;
    case 'c':
        cycle_compare(u, 1);
        return UI_REDRAW;
    case 'C':
        cycle_compare(u, -1);
        return UI_REDRAW;
    case '?':
        u->mode = UI_MODE_HELP;
        u->help_scroll = 0;
        return UI_REDRAW;
    case 'p':
        open_pareto(u);
        return UI_REDRAW;
    case 'T':
        return ui_open_tour(u);
    case 'o':
        cycle_ops(u, 1);
        return UI_REDRAW;
    case 'O':
        cycle_ops(u, -1);
        return UI_REDRAW;
    case 'w':
        u->mode = UI_MODE_WORK;
        u->work_scroll = 0;
        return UI_REDRAW;
    case 'v':
        return toggle_op_view(u);
    case 'P':
        u->mode = UI_MODE_PRESENT;
        return UI_REDRAW | UI_REPAINT;
    case 'm': {
        struct scenario next = u->scenario;
        /* napkin -> floor -> realistic -> napkin */
        next.latency_model = (enum rt_latency_model)((next.latency_model + 1) % RT_LATENCY_COUNT);
        if (commit(u, &next, true))
            say(u, false, "the verdict now comes from the %s estimate (m for the next)",
                latency_model_name(next.latency_model));
        return UI_REDRAW;
    }
    case 't':
        return UI_REDRAW | UI_REPAINT | UI_NEXT_THEME;
    case 's': /* ask where, offering the last path used */
        u->mode = UI_MODE_EDIT;
        u->edit_is_path = true;
        u->edit_is_export = false;
        snprintf(u->edit, sizeof u->edit, "%s", u->save_path[0] ? u->save_path : "scenario.json");
        return UI_REDRAW;
    case 'e': /* export the markdown report with its plot: ask where, like 's' */
        u->mode = UI_MODE_EDIT;
        u->edit_is_path = true;
        u->edit_is_export = true;
        snprintf(u->edit, sizeof u->edit, "%s", u->export_path[0] ? u->export_path : "rooftop-report.md");
        return UI_REDRAW;
    case 'y': /* the same report to the clipboard (the terminal layer writes OSC 52) */
        return UI_REDRAW | UI_COPY;
    case UI_KEY_REPAINT:
    case 12: /* Ctrl-L */
        return UI_REDRAW | UI_REPAINT;
    case 'q':
    case 'Q':
        return UI_QUIT;
    case UI_KEY_ESC: /* Esc closes and cancels; it never quits (what is on screen would be lost) */
        say(u, false, "q quits");
        return UI_REDRAW;
    default:
        return 0;
    }
}

/* Keys in the presentation view: P or Esc returns to the explorer, q
 * quits; the keys that change the scenario without opening anything (select
 * and step a knob, undo, reset, the verdict's estimate, the comparison roof,
 * the operations, the theme) work as in the explorer, so that a talk can
 * move the point on the plot; the others are ignored. */
static unsigned present_key(struct ui *u, int key)
{
    switch (key) {
    case 'P':
    case UI_KEY_ESC:
        u->mode = UI_MODE_KNOBS;
        return UI_REDRAW | UI_REPAINT;
    case UI_KEY_UP: case UI_KEY_DOWN: case UI_KEY_LEFT: case UI_KEY_RIGHT: case UI_KEY_SLEFT: case UI_KEY_SRIGHT:
    case UI_KEY_PGUP: case UI_KEY_PGDN: case 'h': case 'j': case 'k': case 'l': case 'H': case 'L':
    case 'u': case 'r': case 'm': case 'c': case 'C': case 'o': case 'O': case 't': case 'q': case 'Q':
    case 12: case UI_KEY_REPAINT:
        return knobs_key(u, key);
    default:
        return 0;
    }
}

/* Keys while an overlay that scrolls is open (the help, "show your work"):
 * the scrolling keys move *scroll within [0, max] by a line or a page of
 * page lines; any other key closes the overlay. */
static unsigned overlay_scroll_key(struct ui *u, int key, int *scroll, int max, int page)
{
    switch (key) {
    case UI_KEY_UP:
    case 'k':
        *scroll -= 1;
        break;
    case UI_KEY_DOWN:
    case 'j':
        *scroll += 1;
        break;
    case UI_KEY_PGUP:
    case 'b':
        *scroll -= page;
        break;
    case UI_KEY_PGDN:
    case ' ':
        *scroll += page;
        break;
    case UI_KEY_HOME:
    case 'g':
        *scroll = 0;
        break;
    case UI_KEY_END:
    case 'G':
        *scroll = max;
        break;
    default:
        u->mode = UI_MODE_KNOBS;
        return key == 12 || key == UI_KEY_REPAINT ? UI_REDRAW | UI_REPAINT : UI_REDRAW;
    }
    *scroll = *scroll < 0 ? 0 : *scroll > max ? max : *scroll;
    return UI_REDRAW;
}

/* "Show your work": its end is clamped when drawn, so its bound here is loose. */
static unsigned work_key(struct ui *u, int key)
{
    return overlay_scroll_key(u, key, &u->work_scroll, RT_EXPLAIN_MAX_LINES * 8,
                              u->work_page > 1 ? u->work_page - 1 : 1);
}

/* A path typed into the chip or model knob: the chip file or HuggingFace
 * config.json (or its folder) read as --chip PATH and --model PATH read it
 * (userfiles.h), for knob id. Returns false when text names a known chip or model, or
 * does not look like a path (slider_set_text_in takes it then); true when
 * it was taken as a path: the file's chip or model committed, or the
 * reason it was refused in the status line. */
static bool typed_path(struct ui *u, struct scenario *next, enum slider_id id)
{
    char expanded[UI_EDIT_MAX + 256]; /* "~/chips/x.json" as the shell would read it */
    const char *path = userfile_expand_home(u->edit, expanded, sizeof expanded) == 0 ? expanded : u->edit;
    if ((id != SLIDER_CHIP && id != SLIDER_MODEL) || !userfile_looks_like_path(path))
        return false;
    if (!userfile_written_as_path(path) && /* a bare name: the built-in one first */
        ((id == SLIDER_CHIP && chip_list_find(u->chips, path)) || (id == SLIDER_MODEL && model_find(path))))
        return false;
    struct load_warnings w = {0};
    char err[600];
    int rc;
    if (id == SLIDER_CHIP) {
        struct chip_spec c;
        rc = userfile_chip("chip", path, &c, &w, err, sizeof err);
        if (rc == 0) {
            slider_use_chip(next, &c);
            keep_chip(u, &c);
        }
    } else {
        struct model_shape m;
        rc = userfile_model("model", path, &m, &w, err, sizeof err);
        if (rc == 0) {
            slider_use_model(next, &m);
            scenario_use_checkpoint(next); /* a quantized checkpoint's weights, as it stores them */
            keep_model(u, &m);
        }
    }
    if (rc != 0) {
        say(u, true, "%s", err);
        return true;
    }
    if (commit(u, next, true)) {
        if (w.count > 0)
            say(u, false, "%s set to %s from %s; %s%s", slider_name(id),
                id == SLIDER_CHIP ? next->chip.key : next->model.name, path, warning_word(w.text[0]), w.text[0]);
        else
            say(u, false, "%s set to %s from %s", slider_name(id), id == SLIDER_CHIP ? next->chip.key : next->model.name,
                path);
    }
    return true;
}

/* Enter on a path prompt ('s' or 'e'): remembers the path and hands the
 * write to the terminal layer, or, when the file exists, asks y/n first
 * (never overwrite a file without asking). */
static unsigned write_or_ask(struct ui *u)
{
    char *path = u->edit_is_export ? u->export_path : u->save_path;
    snprintf(path, UI_EDIT_MAX, "%s", u->edit);
    /* The file the write will reach: "~/x" is $HOME/x there, so here too. */
    char target[UI_EDIT_MAX + 256];
    struct stat st;
    if (userfile_expand_home(path, target, sizeof target) != 0 || stat(target, &st) != 0)
        return UI_REDRAW | (u->edit_is_export ? UI_EXPORT : UI_SAVE);
    if (S_ISDIR(st.st_mode)) { /* nothing to overwrite: ask for a file, not a y/n */
        say(u, true, "%s is a folder: give a file name in it", path);
        return UI_REDRAW;
    }
    u->confirm_overwrite = true;
    say(u, false, "%s exists: overwrite it? y/n", path);
    return UI_REDRAW;
}

/* Enter on a value typed for the operation view's knob: a chip file's path
 * for the chip, else the knob's value (op_knob_set_text). */
static unsigned op_typed(struct ui *u, struct scenario *next)
{
    enum op_knob id = op_current(u);
    char err[256];
    if (id == OPK_CHIP && typed_path(u, next, SLIDER_CHIP))
        return UI_REDRAW;
    if (op_knob_set_text(next, &u->analysis.operation.shape, id, u->edit, err, sizeof err, u->chips) != 0) {
        say(u, true, "%s", err);
        return UI_REDRAW;
    }
    if (commit(u, next, true))
        say(u, false, "%s set to %s", op_knob_name(id), u->edit);
    return UI_REDRAW;
}

/* Keys while a value is being typed. */
static unsigned edit_key(struct ui *u, int key)
{
    size_t n = strlen(u->edit);
    switch (key) {
    case UI_KEY_ESC:
        u->mode = UI_MODE_KNOBS;
        say(u, false, u->edit_is_path ? (u->edit_is_export ? "not exported" : "not saved") : "not changed");
        return UI_REDRAW;
    case UI_KEY_ENTER: {
        u->mode = UI_MODE_KNOBS;
        if (u->edit_is_path) {
            if (u->edit[0] == '\0') {
                say(u, true, "no file named: not %s", u->edit_is_export ? "exported" : "saved");
                return UI_REDRAW;
            }
            return write_or_ask(u);
        }
        struct scenario next = u->scenario;
        char err[256];
        if (op_view_on(u))
            return op_typed(u, &next);
        if (typed_path(u, &next, (enum slider_id)u->selected))
            return UI_REDRAW;
        if (slider_set_text_in(&next, (enum slider_id)u->selected, u->edit, err, sizeof err, u->chips) != 0) {
            say(u, true, "%s", err);
            return UI_REDRAW;
        }
        if (commit(u, &next, true)) { /* echoed as the knob reads it, with its unit: "40%", "50.0 ms" */
            char shown[96];
            say(u, false, "%s set to %s", slider_name((enum slider_id)u->selected),
                slider_value_text(&u->scenario, (enum slider_id)u->selected, shown, sizeof shown));
        }
        return UI_REDRAW;
    }
    case UI_KEY_BACKSPACE:
    case 127:
    case 8:
        while (n > 0 && ((unsigned char)u->edit[n - 1] & 0xC0) == 0x80) /* drop a whole UTF-8 character */
            n--;
        if (n > 0)
            n--;
        u->edit[n] = '\0';
        return UI_REDRAW;
    case 21: /* Ctrl-U: clear */
        u->edit[0] = '\0';
        return UI_REDRAW;
    case UI_KEY_REPAINT:
    case 12:
        return UI_REDRAW | UI_REPAINT;
    default:
        if (key >= 0x20 && key < 0x110000 && key != 0x7F) {
            char enc[4];
            int k = utf8_encode((uint32_t)key, enc);
            if (n + (size_t)k < sizeof u->edit) {
                memcpy(u->edit + n, enc, (size_t)k);
                u->edit[n + (size_t)k] = '\0';
            }
            return UI_REDRAW;
        }
        return 0;
    }
}

unsigned ui_key(struct ui *u, int key)
{
    if (u->layout.too_small) {
        /* Only quitting and repainting make sense until the screen grows. */
        if (key == 'q' || key == 'Q')
            return UI_QUIT;
        if (key == 12 || key == UI_KEY_REPAINT)
            return UI_REDRAW | UI_REPAINT;
        return UI_REDRAW;
    }
    if (u->mode == UI_MODE_EDIT)
        return edit_key(u, key);
    u->message[0] = '\0';
    if (u->confirm_overwrite) {
        u->confirm_overwrite = false;
        if (key == 'y' || key == 'Y')
            return UI_REDRAW | (u->edit_is_export ? UI_EXPORT : UI_SAVE);
        say(u, false, "not %s: %s kept", u->edit_is_export ? "exported" : "saved",
            u->edit_is_export ? u->export_path : u->save_path);
        return UI_REDRAW;
    }
    if (u->mode == UI_MODE_HELP) /* the arrows scroll what does not fit (80x24) */
        return overlay_scroll_key(u, key, &u->help_scroll, u->help_max_scroll,
                                  u->layout.whole.h > 8 ? u->layout.whole.h - 8 : 1);
    if (u->mode == UI_MODE_WORK)
        return work_key(u, key);
    if (u->mode == UI_MODE_PARETO)
        return pareto_key(u, key);
    if (u->mode == UI_MODE_TOUR)
        return tour_key(u, key);
    if (u->mode == UI_MODE_PRESENT)
        return present_key(u, key);
    return knobs_key(u, key);
}

/* The mouse on the operation view's knobs, as ui_mouse on the sliders: a
 * press selects a knob and sets it where its track was clicked, a drag
 * moves it, the wheel steps it. */
static unsigned op_mouse(struct ui *u, enum ui_mouse_kind kind, int x, int y)
{
    enum op_knob k[OP_KNOBS_MAX];
    int n = op_knobs(u, k);
    struct rect r = op_layout_compute(&u->layout, n).knobs;
    int track_x, track_w;
    slider_track_geometry(r.w, &track_x, &track_w);
    const struct kernel_shape *shape = &u->analysis.operation.shape;
    if (kind == UI_MOUSE_RELEASE) {
        u->drag_slider = -1;
        return 0;
    }
    if (kind == UI_MOUSE_DRAG) {
        if (u->drag_slider < 0 || u->drag_slider >= n || track_w <= 1)
            return 0;
        struct scenario next = u->scenario;
        double f = (double)(x - r.x - track_x) / (track_w - 1);
        if (op_knob_set_fraction(&next, shape, k[u->drag_slider], f, u->chips))
            commit(u, &next, false);
        return UI_REDRAW;
    }
    int row = y - r.y - 1;
    if (!rect_contains(r, x, y) || row < 0 || row >= r.h - 1)
        return 0;
    row += op_knobs_first_visible(u->op_selected, n, r.h - 1);
    if (row >= n)
        return 0;
    u->message[0] = '\0';
    u->op_selected = row;
    if (kind == UI_MOUSE_WHEEL_UP || kind == UI_MOUSE_WHEEL_DOWN)
        return op_step(u, kind == UI_MOUSE_WHEEL_UP ? 1 : -1, false);
    int tx = x - r.x - track_x;
    if (track_w > 1 && tx >= 0 && tx < track_w) {
        struct scenario next = u->scenario;
        if (op_knob_set_fraction(&next, shape, k[row], (double)tx / (track_w - 1), u->chips))
            commit(u, &next, true);
    }
    u->drag_slider = row;
    return UI_REDRAW;
}

unsigned ui_mouse(struct ui *u, enum ui_mouse_kind kind, int x, int y)
{
    if (u->layout.too_small || u->mode == UI_MODE_EDIT || u->mode == UI_MODE_PARETO || u->mode == UI_MODE_TOUR ||
        u->mode == UI_MODE_PRESENT ||
        u->confirm_overwrite)
        return 0;
    if (u->mode == UI_MODE_HELP || u->mode == UI_MODE_WORK) {
        if (kind == UI_MOUSE_WHEEL_UP || kind == UI_MOUSE_WHEEL_DOWN)
            return u->mode == UI_MODE_WORK ? work_key(u, kind == UI_MOUSE_WHEEL_UP ? UI_KEY_UP : UI_KEY_DOWN)
                                           : ui_key(u, kind == UI_MOUSE_WHEEL_UP ? UI_KEY_UP : UI_KEY_DOWN);
        if (kind == UI_MOUSE_PRESS) {
            u->mode = UI_MODE_KNOBS;
            return UI_REDRAW;
        }
        return 0;
    }
    if (op_view_on(u))
        return op_mouse(u, kind, x, y);
    struct rect r = u->layout.sliders;
    int track_x, track_w;
    slider_track_geometry(r.w, &track_x, &track_w);
    if (kind == UI_MOUSE_RELEASE) {
        u->drag_slider = -1;
        return 0;
    }
    if (kind == UI_MOUSE_DRAG) {
        if (u->drag_slider < 0 || track_w <= 1)
            return 0;
        struct scenario next = u->scenario;
        double f = (double)(x - r.x - track_x) / (track_w - 1);
        if (slider_set_fraction_in(&next, (enum slider_id)u->drag_slider, f, u->chips))
            commit(u, &next, false);
        return UI_REDRAW;
    }
    int row = y - r.y - 1;
    if (!rect_contains(r, x, y) || row < 0 || row >= r.h - 1)
        return 0;
    row += slider_first_visible(u->selected, r.h - 1); /* the knob drawn on that row */
    if (row >= SLIDER_COUNT)
        return 0;
    u->message[0] = '\0';
    u->selected = row;
    if (kind == UI_MOUSE_WHEEL_UP || kind == UI_MOUSE_WHEEL_DOWN)
        return step_selected(u, kind == UI_MOUSE_WHEEL_UP ? 1 : -1, false);
    int tx = x - r.x - track_x;
    if (track_w > 1 && tx >= 0 && tx < track_w) {
        struct scenario next = u->scenario;
        if (slider_set_fraction_in(&next, (enum slider_id)row, (double)tx / (track_w - 1), u->chips))
            commit(u, &next, true);
    }
    u->drag_slider = row; /* a press anywhere on the row can then drag its knob */
    return UI_REDRAW;
}

/* One key and what it does, for the status line. */
struct hint {
    const char *key, *what;
};

/* Draws key hints left to right while they fit; returns the column reached. */
static int draw_hints(struct view v, int x, const struct hint *h, int n)
{
    for (int i = 0; i < n; i++) {
        int w = text_width(h[i].key) + 1 + text_width(h[i].what) + 2;
        if (x + w - 2 > v.r.w)
            continue; /* skip what does not fit; a shorter hint may */
        x += view_text(v, x, 0, -1, h[i].key, ROLE_KEY);
        x += view_text(v, x, 0, -1, " ", ROLE_DIM);
        x += view_text(v, x, 0, -1, h[i].what, ROLE_DIM);
        x += view_text(v, x, 0, -1, "  ", ROLE_DIM);
    }
    return x;
}

/* Copies in to out, and when it is wider than width characters keeps its
 * start and its end around `dots`: an error says what at the start and why
 * at the end, and both should survive a narrow status line. */
static void elide_middle(char *out, size_t size, const char *in, int width, const char *dots)
{
    int total = text_width(in);
    if (total <= width || width < 8) {
        snprintf(out, size, "%s", in);
        return;
    }
    int head = (width - 1) / 2, tail = width - 1 - head;
    const char *p = in, *head_end = in, *tail_start = in;
    uint32_t cp;
    int n, i = 0;
    bool head_set = false, tail_set = false;
    while ((n = utf8_decode(p, &cp)) > 0) { /* by columns: a wide character is two */
        int cw = char_width(cp);
        if (!head_set && i + cw > head) {
            head_end = p;
            head_set = true;
        }
        if (!tail_set && i >= total - tail) {
            tail_start = p;
            tail_set = true;
        }
        p += n;
        i += cw;
    }
    if (!tail_set)
        tail_start = p;
    snprintf(out, size, "%.*s%s%s", (int)(head_end - in), in, dots, tail_start);
}

/* The status line: the prompt while typing, else a message or the keys. */
static void draw_status(struct ui *u, struct view v, const struct glyphs *g)
{
    if (u->mode == UI_MODE_EDIT && u->edit_is_path) {
        int x = view_text(v, 0, 0, -1, u->edit_is_export ? "export to: " : "save to: ", ROLE_ACCENT);
        x += view_text(v, x, 0, -1, u->edit, ROLE_TEXT);
        view_put(v, x, 0, '_', ROLE_KNOB);
        x += 2;
        const struct hint h[] = {{"Enter", u->edit_is_export ? "export" : "save"}, {"Esc", "cancel"}, {"^U", "clear"}};
        draw_hints(v, x, h, 3);
        return;
    }
    if (u->mode == UI_MODE_EDIT) {
        bool op = op_view_on(u);
        enum op_knob id = op ? op_current(u) : OPK_COUNT;
        int x = view_printf(v, 0, 0, -1, ROLE_ACCENT, "%s = ",
                            op ? op_knob_name(id) : slider_name((enum slider_id)u->selected));
        x += view_text(v, x, 0, -1, u->edit, ROLE_TEXT);
        view_put(v, x, 0, '_', ROLE_KNOB);
        x += 2;
        x += view_printf(v, x, 0, -1, ROLE_DIM, "(%s)  ",
                         op ? op_knob_hint(id) : slider_hint((enum slider_id)u->selected));
        const struct hint h[] = {{"Enter", "set"}, {"Esc", "cancel"}};
        draw_hints(v, x, h, 2);
        return;
    }
    if (u->mode == UI_MODE_PRESENT && !u->message[0]) {
        char knob[96], value[64];
        snprintf(knob, sizeof knob, "%s %s", slider_name((enum slider_id)u->selected),
                 slider_value_text(&u->scenario, (enum slider_id)u->selected, value, sizeof value));
        int x = view_text(v, 0, 0, -1, knob, ROLE_ACCENT) + 2;
        const struct hint h[] = {{"P/Esc", "back"}, {g->left_right, "step"}, {g->up_down, "knob"}, {"q", "quit"},
                                 {"u", "undo"}, {"t", "theme"}};
        draw_hints(v, x, h, 6);
        return;
    }
    if (u->mode == UI_MODE_WORK) {
        const struct hint h[] = {{g->up_down, "scroll"}, {"PgUp/PgDn", "page"}, {"Home/End", "ends"},
                                 {"any other key", "closes"}};
        draw_hints(v, 0, h, 4);
        return;
    }
    if (u->message[0]) {
        if (u->message_is_error) {
            char shown[UI_MESSAGE_MAX + 8];
            elide_middle(shown, sizeof shown, u->message, v.r.w - 2, u->ascii ? "~" : "\u2026");
            view_fill(v, 0, 0, v.r.w, 1, ' ', ROLE_ERROR);
            view_text(v, 1, 0, v.r.w - 1, shown, ROLE_ERROR);
        } else {
            view_text(v, 0, 0, -1, u->message, ROLE_ACCENT);
        }
        return;
    }
    if (u->mode == UI_MODE_TOUR && u->tour_guess[0]) { /* a begun guess: letters are its text */
        const struct hint h[] = {{"Enter", "check the guess"}, {"Backspace", "edit"}, {"Esc", "clear"},
                                 {u->ascii ? "Right/Left" : "\u2192/\u2190", "step"}};
        draw_hints(v, 0, h, 4);
        return;
    }
    if (u->mode == UI_MODE_TOUR && u->tour_revealed) { /* checked: on, or type another guess */
        const struct hint h[] = {{u->ascii ? "n/Right" : "n/\u2192", "next"}, {u->ascii ? "p/Left" : "p/\u2190", "back"},
                                 {"type", "guess again"}, {"Esc", "explorer"}, {"q", "quit"}};
        draw_hints(v, 0, h, 5);
        return;
    }
    if (u->mode == UI_MODE_TOUR) {
        const struct hint h[] = {{"Enter", "check the guess"}, {u->ascii ? "n/Right" : "n/\u2192", "next"},
                                 {u->ascii ? "p/Left" : "p/\u2190", "back"}, {"Esc", "explorer"}, {"q", "quit"}};
        draw_hints(v, 0, h, 5);
        return;
    }
    if (op_view_on(u)) { /* the operation view's keys, in order of importance */
        const struct hint h[] = {
            {g->up_down, "select"}, {g->left_right, "step"}, {"?", "help"},   {"q", "quit"},   {"v", "model view"},
            {"=", "type"},          {"u", "undo"},           {"r", "reset"},  {"a", "axes"},   {"PgUp/Dn", "coarse"},
            {"t", "theme"},         {"s", "save"},           {"e", "export"}, {"y", "copy"},
        };
        draw_hints(v, 0, h, (int)(sizeof h / sizeof h[0]));
        return;
    }
    if (u->analysis.prompt_exceeds_context) { /* until the context holds the prompt: the figures undercount */
        char warn[UI_MESSAGE_MAX], shown[UI_MESSAGE_MAX + 8];
        snprintf(warn, sizeof warn, "prompt %lld > context %lld tokens: KV and decode undercounted; raise context",
                 (long long)u->scenario.prefill_tokens, (long long)u->scenario.context_tokens);
        elide_middle(shown, sizeof shown, warn, v.r.w, u->ascii ? "~" : "\u2026");
        view_text(v, 0, 0, -1, shown, ROLE_MISS);
        return;
    }
    /* In order of importance: what does not fit is left out ("= type" is in the knobs' heading); with
     * an operation (--op), the way back to its view after quitting. */
    const struct hint h[] = {
        {g->up_down, "select"}, {g->left_right, "step"}, {"?", "help"},  {"q", "quit"},  {"v", "op view"}, {"o", "ops"},
        {"w", "work"},          {"m", "verdict"},        {"p", "pareto"}, {"c", "compare"}, {"b", "baseline"}, {"u", "undo"},
        {"r", "reset"},         {"=", "type"},           {"PgUp/Dn", "coarse"}, {"t", "theme"}, {"s", "save"},
        {"e", "export"},        {"y", "copy"},
    };
    int n = (int)(sizeof h / sizeof h[0]);
    if (u->analysis.operation.set) {
        draw_hints(v, 0, h, n);
    } else { /* the hints less "v op view" */
        int x = draw_hints(v, 0, h, 4);
        draw_hints(v, x, h + 5, n - 5);
    }
}

/* The tour's panel over one bottom half, and the figure it asks about
 * highlighted where a panel shows it. */
static void draw_tour(struct ui *u, struct grid *g, const struct glyphs *gl)
{
    const struct tour_step *st = &u->tour->steps[u->tour_step];
    struct rect fr = tour_figure_rect(&u->layout, st->figure);
    view_recolor(view_make(g, fr), 0, 0, fr.w, fr.h, ROLE_SELECTED);
    struct tour_view_state ts = {u->tour, u->tour_step, u->tour_guess, u->tour_revealed, u->tour_result,
                                 u->tour_right};
    tour_panel_draw(view_make(g, tour_panel_rect(&u->layout, st->figure, u->tour_revealed)), &ts, gl);
}

/* The operation view's frame: its title, the operation on the roof (a
 * collective's link figures instead), its knobs, where the time goes when
 * there is room under them, the Operation panel, the status line, and its
 * help over them. */
static void render_op_view(struct ui *u, struct grid *g, const struct glyphs *gl)
{
    enum op_knob k[OP_KNOBS_MAX];
    int n = op_knobs(u, k);
    op_current(u);
    struct op_layout ol = op_layout_compute(&u->layout, n);
    panel_op_title(view_make(g, ol.title), &u->scenario, &u->analysis, gl);
    if (kernel_kind_is_collective(u->analysis.operation.shape.kind))
        panel_op_link(view_make(g, ol.plot), &u->analysis, gl);
    else
        plot_draw_operation(view_make(g, ol.plot), &u->analysis, u->ascii, &u->plot, &u->scratch);
    panel_op_knobs(view_make(g, ol.knobs), &u->scenario, &u->analysis, k, n, u->op_selected, u->chips, gl);
    bool has_time = ol.time.w > 0 && ol.time.h > 0;
    if (has_time)
        panel_op_time(view_make(g, ol.time), &u->analysis, gl);
    panel_op(view_make(g, ol.op), &u->scenario, &u->analysis, !has_time, gl);
    draw_status(u, view_make(g, ol.status), gl);
    if (u->mode == UI_MODE_HELP)
        u->help_max_scroll = panel_op_help(view_make(g, u->layout.whole), gl, u->help_scroll);
}

int ui_render(struct ui *u, struct grid *g)
{
    if (g->cols != u->cols || g->rows != u->rows) {
        if (grid_resize(g, u->cols, u->rows) != 0)
            return -1;
    } else {
        grid_erase(g);
    }
    /* A tour question waiting for its guess: no panel, title or label gives the figure away, nor a
     * coming step's answer that this screen shows. */
    g->conceal = NULL;
    g->conceal_later = NULL;
    g->reveal = NULL;
    g->asking = false;
    if (u->mode == UI_MODE_TOUR && u->tour) {
        tour_conceal_key(u->tour->steps[u->tour_step].figure, u->tour_conceal, sizeof u->tour_conceal);
        if (!u->tour_revealed) {
            g->conceal = u->tour_conceal;
            g->asking = true;
        } else {
            g->reveal = u->tour_conceal;
        }
        g->conceal_later = u->tour_later[0] ? u->tour_later : NULL;
    }
    const struct glyphs *gl = glyphs_for(u->ascii);
    const struct layout *l = &u->layout;
    if (l->too_small) {
        panel_too_small(view_make(g, l->whole), u->cols, u->rows, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
        return 0;
    }
    if (op_view_on(u)) {
        render_op_view(u, g, gl);
        return 0;
    }
    const struct analysis *base = u->has_baseline ? &u->baseline_analysis : NULL;
    panel_title(view_make(g, l->title), &u->scenario, &u->analysis, base, gl);
    struct plot_compare cmp = {
        u->compare_chip >= 0 ? (&u->chips.items[u->compare_chip])->key : NULL,
        &u->compare,
    };
    const char *ops = u->ops_phase >= 0 ? phase_name((enum rt_phase)u->ops_phase) : NULL;
    struct plot_points pts = {u->placed, u->placed_count, 0.0, 0.0};
    if (u->placed_count > 0) { /* the caches' roofs: the profile's measured ceilings, else the chip's */
        const struct points_context *c = u->points_context;
        pts.l2_bytes_per_s = c && c->l2_bytes_per_s > 0.0 ? c->l2_bytes_per_s : u->scenario.chip.l2_bytes_per_s;
        pts.l1_bytes_per_s = c && c->l1_bytes_per_s > 0.0 ? c->l1_bytes_per_s : u->scenario.chip.l1_bytes_per_s;
    }
    if (u->mode == UI_MODE_PRESENT) { /* the plot fills what the title and status line leave */
        struct present_plot pp = {base, u->has_compare ? &cmp : NULL, ops, &pts, &u->plot};
        present_draw(view_make(g, (struct rect){0, 1, u->cols, u->rows - 2}), &u->analysis, &pp, u->ascii,
                     &u->scratch);
        draw_status(u, view_make(g, l->status), gl);
        return 0;
    }
    if (u->mode == UI_MODE_PARETO && u->pareto.candidates)
        pareto_draw(view_make(g, l->plot), &u->pareto, u->pareto_order, u->pareto_n, u->pareto_pick, &u->analysis,
                    u->ascii, &u->scratch.canvas);
    else {
        plot_draw_state(view_make(g, l->plot), &u->analysis, base, u->has_compare ? &cmp : NULL, ops, &pts, u->ascii,
                        &u->plot, &u->scratch);
    }
    panel_sliders(view_make(g, l->sliders), &u->scenario, u->selected, u->chips, gl);
    if (ops) {
        /* The legend takes the placement and MFU panels' place, stacked below the plot. */
        struct rect r = l->placement;
        r.h = l->mfu.y + l->mfu.h - r.y;
        panel_ops(view_make(g, r), &u->analysis, ops);
    } else {
        panel_placement(view_make(g, l->placement), &u->analysis, base);
        panel_mfu(view_make(g, l->mfu), &u->scenario, &u->analysis, base, gl);
    }
    panel_latency(view_make(g, l->latency), &u->analysis, base, gl);
    panel_memory(view_make(g, l->memory), &u->scenario, &u->analysis, base, u->largest_ok_batch);
    if (u->mode == UI_MODE_TOUR && u->tour)
        draw_tour(u, g, gl);
    draw_status(u, view_make(g, l->status), gl);
    if (u->mode == UI_MODE_HELP)
        u->help_max_scroll = panel_help(view_make(g, l->whole), gl, u->help_scroll);
    if (u->mode == UI_MODE_WORK) {
        char title[160];
        snprintf(title, sizeof title, " show your work: %s on %lld %s %s ", u->scenario.model.name,
                 (long long)u->scenario.chips, gl->times, u->scenario.chip.key);
        explain_analysis(&u->scenario, &u->analysis, &u->work);
        panel_work(view_make(g, l->whole), &u->work, title, &u->work_scroll, &u->work_page, gl);
    }
    return 0;
}
