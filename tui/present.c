/* present.c — the presentation view: a large headline over a full-screen plot. */
#include "present.h"

#include <stdio.h>
#include <string.h>

#include "panels.h"

/* A 3 x 5 pixel glyph: five rows of three bits, the high bit on the left. */
struct big_glyph {
    char ch;
    unsigned char rows[5];
};

static const struct big_glyph big_font[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {'%', {5, 1, 2, 4, 5}},
    {'/', {1, 1, 2, 4, 4}}, {':', {0, 2, 0, 2, 0}}, {'-', {0, 0, 7, 0, 0}}, {' ', {0, 0, 0, 0, 0}},
    {'O', {2, 5, 5, 5, 2}}, {'K', {5, 5, 6, 5, 5}}, {'M', {5, 7, 7, 5, 5}}, {'I', {7, 2, 2, 2, 7}},
    {'S', {3, 4, 2, 1, 6}}, {'s', {0, 3, 4, 1, 6}}, {'m', {0, 6, 7, 5, 5}}, {'k', {4, 5, 6, 5, 5}},
};

/* The glyph of c, or NULL. */
static const struct big_glyph *glyph_of(char c)
{
    for (size_t i = 0; i < sizeof big_font / sizeof big_font[0]; i++)
        if (big_font[i].ch == c)
            return &big_font[i];
    return NULL;
}

int big_text_width(const char *text)
{
    size_t n = strlen(text);
    return n ? (int)n * 4 - 1 : 0;
}

int big_text_rows(bool ascii)
{
    return ascii ? 5 : 3;
}

int big_text_draw(struct view v, int x, int y, const char *text, enum role role, bool ascii)
{
    /* A cell's two pixel rows: none, top, bottom, both. */
    static const uint32_t blocks[4] = {' ', 0x2580, 0x2584, 0x2588};
    int rows = big_text_rows(ascii);
    for (size_t i = 0; text[i]; i++) {
        int cx = x + 4 * (int)i;
        const struct big_glyph *gl = glyph_of(text[i]);
        if (!gl) {
            view_put(v, cx + 1, y + rows / 2, (uint32_t)(unsigned char)text[i], role);
            continue;
        }
        for (int row = 0; row < rows; row++) {
            /* ASCII: a pixel a cell; else two pixel rows a cell. */
            unsigned top = ascii ? gl->rows[row] : gl->rows[2 * row];
            unsigned bottom = ascii || row == 2 ? 0 : gl->rows[2 * row + 1];
            for (int col = 0; col < 3; col++) {
                unsigned bit = 4u >> col;
                int k = ((top & bit) ? 1 : 0) | ((bottom & bit) ? 2 : 0);
                if (k)
                    view_put(v, cx + col, y + row, ascii ? '#' : blocks[k], role);
            }
        }
    }
    return big_text_width(text);
}

/* The headline's parts: each a figure and a caption, in the role of its
 * meaning. */
struct headline {
    int count;
    char figure[3][32];
    char caption[3][64];    /* under the block letters */
    char before[3][16];     /* in a line: the figure's name before it ("MFU ") */
    char after[2][3][48];   /* in a line: after it, long and short */
    enum role role[3];
};

/* Fills the headline from a: the verdict and total against the budget, the
 * decode's share of peak and bound, the MFU. */
static void headline_of(const struct analysis *a, struct headline *h)
{
    h->count = 0;
    /* The panels' time style: "2.831 s", "10.6 ms"; the budget as its knob writes it. */
    char total[24], budget[24];
    format_turn_seconds(total, sizeof total, a->latency.total_s);
    if (a->latency.budget_s >= 0.1)
        snprintf(budget, sizeof budget, "%g s", a->latency.budget_s);
    else
        format_seconds(budget, sizeof budget, a->latency.budget_s);
    snprintf(h->figure[0], sizeof h->figure[0], "%s %s", a->latency.ok ? "OK" : "MISS", total);
    snprintf(h->caption[0], sizeof h->caption[0], "the turn (%s estimate), budget %s",
             latency_model_name(a->latency_model), budget);
    h->before[0][0] = '\0';
    snprintf(h->after[0][0], sizeof h->after[0][0], " (%s), budget %s", latency_model_name(a->latency_model), budget);
    snprintf(h->after[1][0], sizeof h->after[1][0], " of %s", budget);
    h->role[0] = a->latency.ok ? ROLE_OK : ROLE_MISS;
    h->count = 1;
    const struct placement *p = analysis_phase_placement(a, "decode");
    if (p) {
        format_percent(h->figure[1], sizeof h->figure[1], p->roof.fraction_of_peak);
        snprintf(h->caption[1], sizeof h->caption[1], "decode: %s-bound, %% of peak", bound_name(p->roof.bound));
        snprintf(h->before[1], sizeof h->before[1], "decode ");
        snprintf(h->after[0][1], sizeof h->after[0][1], " of peak, %s-bound", bound_name(p->roof.bound));
        snprintf(h->after[1][1], sizeof h->after[1][1], " of peak");
        h->role[1] = ROLE_DECODE; /* the colour of the decode point on the plot */
        h->count = 2;
    }
    bool over = a->mfu_budget.mfu > 1.0; /* flagged with its reason, as the MFU panel does */
    enum rt_mfu_shown shown = analysis_mfu_shown(a, false);
    format_percent(h->figure[h->count], sizeof h->figure[0], a->mfu_budget.mfu);
    if (shown == RT_MFU_NONE) { /* a step that cannot run has no MFU */
        snprintf(h->figure[h->count], sizeof h->figure[0], "-"); /* a dash: the block font has no words */
        snprintf(h->caption[h->count], sizeof h->caption[0], "MFU: the training step cannot run");
        snprintf(h->after[0][h->count], sizeof h->after[0][0], " (the training step does not fit)");
        snprintf(h->after[1][h->count], sizeof h->after[1][0], " (does not fit)");
    } else if (shown == RT_MFU_CAUSAL) { /* the causal figure; the convention's named */
        char conv[16];
        format_percent(h->figure[h->count], sizeof h->figure[0], a->budget_causal_mfu);
        format_percent(conv, sizeof conv, a->mfu_budget.mfu);
        snprintf(h->caption[h->count], sizeof h->caption[0], "MFU, causal count (%s: %s)",
                 flops_convention_label(a->training.convention), conv);
        snprintf(h->after[0][h->count], sizeof h->after[0][0], " causal (%s counts %s)",
                 flops_convention_label(a->training.convention), conv);
        snprintf(h->after[1][h->count], sizeof h->after[1][0], " causal");
    } else if (over) {
        strcat(h->figure[h->count], "!");
        snprintf(h->caption[h->count], sizeof h->caption[0], "MFU: %s",
                 analysis_over_peak_reason(a, false));
        snprintf(h->after[0][h->count], sizeof h->after[0][0], " (%s)", analysis_over_peak_reason(a, false));
        snprintf(h->after[1][h->count], sizeof h->after[1][0], " (%s)", analysis_over_peak_reason(a, true));
    } else {
        snprintf(h->caption[h->count], sizeof h->caption[0], "MFU of a training step");
        snprintf(h->after[0][h->count], sizeof h->after[0][0], " (training step)");
        h->after[1][h->count][0] = '\0';
    }
    snprintf(h->before[h->count], sizeof h->before[0], "MFU ");
    h->role[h->count] = ROLE_ACCENT;
    h->count++;
}

/* Draws the headline in block letters with captions under them, if it fits
 * w columns; returns the rows taken (0 when it does not fit). */
static int draw_big(struct view v, const struct headline *h, bool ascii)
{
    int gap = 6, x[3], total = 0;
    for (int i = 0; i < h->count; i++) {
        int w = big_text_width(h->figure[i]), cw = text_width(h->caption[i]);
        x[i] = total;
        total += (w > cw ? w : cw) + (i + 1 < h->count ? gap : 0);
    }
    if (total > v.r.w - 2)
        return 0;
    int left = (v.r.w - total) / 2, rows = big_text_rows(ascii);
    for (int i = 0; i < h->count; i++) {
        big_text_draw(v, left + x[i], 0, h->figure[i], h->role[i], ascii);
        view_text(v, left + x[i], rows, -1, h->caption[i], ROLE_DIM);
    }
    return rows + 1;
}

/* Draws the headline as one line: each figure in its role after its name,
 * with what it means after it, the longest form that fits (long, short,
 * bare); returns the rows taken (1). */
static int draw_line(struct view v, const struct headline *h)
{
    for (int form = 0; form < 3; form++) {
        int total = 0;
        for (int i = 0; i < h->count; i++)
            total += text_width(h->before[i]) + text_width(h->figure[i]) +
                     (form < 2 ? text_width(h->after[form][i]) : 0) + (i ? 3 : 0);
        if (total > v.r.w && form < 2)
            continue;
        int x = total < v.r.w ? (v.r.w - total) / 2 : 0;
        for (int i = 0; i < h->count; i++) {
            x += i ? 3 : 0;
            x += view_text(v, x, 0, -1, h->before[i], ROLE_ACCENT);
            x += view_text(v, x, 0, -1, h->figure[i], h->role[i]);
            if (form < 2)
                x += view_text(v, x, 0, -1, h->after[form][i], ROLE_DIM);
        }
        break;
    }
    return 1;
}

void present_draw(struct view v, const struct analysis *a, const struct present_plot *p, bool ascii,
                  struct plot_scratch *scratch)
{
    struct headline h;
    headline_of(a, &h);
    int used = 0;
    if (v.r.h + 2 >= PRESENT_BIG_ROWS) /* the screen's rows: v lies between the title and the status line */
        used = draw_big(v, &h, ascii);
    if (used == 0)
        used = draw_line(v, &h);
    /* What the markers mean, on the row between: the operations' letters
     * when they are on the plot (o), else the two kinds of phase marker. */
    int key_rows = p && p->ops_phase ? panel_ops_legend(v, used, a, p->ops_phase, 2) : 0;
    if (key_rows == 0) {
        char key[96];
        snprintf(key, sizeof key, "%s a phase on its roof   %s where the realistic estimate puts it",
                 ascii ? "o" : "\u25cf", ascii ? "*" : "\u25cb");
        if (text_width(key) <= v.r.w)
            view_text(v, v.r.w - text_width(key), used, -1, key, ROLE_DIM);
        key_rows = 1;
    }
    struct view plot = view_sub(v, 0, used + key_rows, v.r.w, v.r.h - used - key_rows);
    plot_draw_state(plot, a, p ? p->base : NULL, p ? p->cmp : NULL, p ? p->ops_phase : NULL, p ? p->pts : NULL, ascii,
                    p ? p->state : NULL, scratch);
}
