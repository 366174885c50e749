/* tourview.c — the guided tour's panel: placement, highlight and text. */
#include "tourview.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

const char **tour_knob_names(const char **out)
{
    for (int i = 0; i < SLIDER_COUNT; i++)
        out[i] = slider_name((enum slider_id)i);
    out[SLIDER_COUNT] = NULL;
    return out;
}

int tour_knob_slider(const char *name)
{
    for (int i = 0; name && name[0] && i < SLIDER_COUNT; i++)
        if (strcmp(slider_name((enum slider_id)i), name) == 0)
            return i;
    return -1;
}

/* True when key starts with prefix. */
static bool starts(const char *key, const char *prefix)
{
    return strncmp(key, prefix, strlen(prefix)) == 0;
}

/* One row of r (row 0 its heading). */
static struct rect row_of(struct rect r, int row)
{
    struct rect out = {r.x, r.y + row, r.w, row < r.h ? 1 : 0};
    return out;
}

/* The placement panel's row of a phase: 1 prefill, 2 decode, 3 training. */
static int placement_row(const char *figure)
{
    static const char *const phases[][2] = {{"[0]", "[prefill]"}, {"[1]", "[decode]"}, {"[2]", "[training step]"}};
    for (int i = 0; i < 3; i++)
        if (starts(figure + strlen("placement"), phases[i][0]) || starts(figure + strlen("placement"), phases[i][1]))
            return i + 1;
    return 0;
}

struct rect tour_figure_rect(const struct layout *l, const char *figure)
{
    struct rect none = {0, 0, 0, 0};
    if (starts(figure, "latency."))
        return row_of(l->latency, 0);
    if (starts(figure, "memory."))
        return row_of(l->memory, 0);
    if (starts(figure, "placement"))
        return row_of(l->placement, placement_row(figure));
    if (starts(figure, "mfu_budget.") || starts(figure, "training."))
        return row_of(l->mfu, 0);
    if (starts(figure, "ridge_flop_per_byte") || starts(figure, "decode_batch_intensity"))
        return row_of(l->plot, 0);
    return none;
}

void tour_conceal_key(const char *figure, char *out, size_t size)
{
    static const char *const phases[] = {"prefill", "decode", "training step"};
    int row = starts(figure, "placement") ? placement_row(figure) : 0;
    if (row > 0 && figure[strlen("placement") + 1] >= '0' && figure[strlen("placement") + 1] <= '9')
        snprintf(out, size, "placement[%s]%s", phases[row - 1], strchr(figure, ']') + 1);
    else
        snprintf(out, size, "%s", figure);
}

struct rect tour_panel_rect(const struct layout *l, const char *figure, bool revealed)
{
    struct rect left = {0, l->placement.y, l->placement.w, l->mfu.y + l->mfu.h - l->placement.y};
    struct rect right = l->latency;
    if (l->memory.y > l->latency.y) /* memory below latency: the right half holds both */
        right.h = l->memory.y + l->memory.h - right.y;
    /* Figures on the right (latency, memory) start covered by the panel on
     * the right; the rest (placement, MFU, the plot's) on the left. */
    bool figure_right = starts(figure, "latency.") || starts(figure, "memory.") ||
                        starts(figure, "tile_efficiency."); /* the memory panel's tiles line */
    return figure_right != revealed ? right : left;
}

/* Rows text takes wrapped to width w: wrap_text drawn where no cell is
 * (above the grid), so that nothing shows. */
static int wrapped_rows(struct view v, const char *text)
{
    struct view off = {v.g, {v.r.x, -100000, v.r.w, 1000}};
    return wrap_text(off, 0, text, ROLE_TEXT, false);
}

void tour_panel_draw(struct view v, const struct tour_view_state *t, const struct glyphs *g)
{
    view_fill(v, 0, 0, v.r.w, v.r.h, ' ', ROLE_TEXT);
    const struct tour_step *st = &t->tour->steps[t->step];
    int x = view_printf(v, 0, 0, -1, ROLE_HEADER, "Tour %zu/%zu", t->step + 1, t->tour->count);
    x += view_text(v, x, 0, -1, g->sep, ROLE_DIM);
    view_text(v, x, 0, v.r.w - x, st->title, ROLE_HEADER);

    char about[160];
    snprintf(about, sizeof about, "figure: %s", st->figure);
    char prompt[200];
    snprintf(prompt, sizeof prompt, "your guess: %s", t->guess);
    const char *answer = t->revealed ? t->result : prompt;
    /* A step that changed the model's shape says what that did to N (model_shape_changed's words). */
    char counted[160] = "", nn[24];
    const struct model_shape *m = &st->scenario.model;
    format_count(nn, sizeof nn, st->params);
    if (model_stated_dropped(m))
        snprintf(counted, sizeof counted, "N = %s, counted from the changed shape, not %s's stated count", nn,
                 m->name);
    else
        for (int i = 0; i < m->assumption_count; i++)
            if (strcmp(m->assumptions[i].key, "stated_params") == 0) /* kept: the KV heads alone changed */
                snprintf(counted, sizeof counted, "N stays the stated %s: the KV heads change the KV cache only", nn);
    int q = wrapped_rows(v, st->question), f = wrapped_rows(v, about), a = wrapped_rows(v, answer);
    int n = counted[0] ? wrapped_rows(v, counted) : 0;
    int text_rows = v.r.h - 1 - q - f - a;
    if (n > 0 && (st->text[0] ? wrapped_rows(v, st->text) : 0) + n > text_rows)
        counted[0] = '\0'; /* question, figure, guess and text come first */
    else
        text_rows -= n;
    int y = 1;
    if (text_rows > 0 && st->text[0])
        y = wrap_text(view_sub(v, 0, 1, v.r.w, text_rows), 0, st->text, ROLE_TEXT, false) + 1;
    if (counted[0])
        y = wrap_text(view_sub(v, 0, y, v.r.w, v.r.h - y), 0, counted, ROLE_DIM, false) + y;
    y = wrap_text(view_sub(v, 0, y, v.r.w, v.r.h - y), 0, st->question, ROLE_ACCENT, false) + y;
    y = wrap_text(view_sub(v, 0, y, v.r.w, v.r.h - y), 0, about, ROLE_DIM, false) + y;
    if (t->revealed) {
        wrap_text(view_sub(v, 0, y, v.r.w, v.r.h - y), 0, t->result, t->right ? ROLE_OK : ROLE_MISS, false);
        return;
    }
    x = view_text(v, 0, y, -1, "your guess: ", ROLE_TEXT);
    x += view_text(v, x, y, v.r.w - x - 1, t->guess, ROLE_ACCENT);
    view_put(v, x, y, '_', ROLE_KNOB);
    if (st->answer == TOUR_ANSWER_BOUND && !t->guess[0])
        view_text(v, x + 2, y, v.r.w - x - 2, "memory or compute", ROLE_DIM);
}
