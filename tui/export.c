/* export.c — reports with the plot as text, and OSC 52 (export.h). */
#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "grid.h"
#include "plot.h"
#include "strbuf.h"

char *export_plot_text(const struct analysis *a, int cols, int rows)
{
    cols = cols < 12 ? 12 : cols > 200 ? 200 : cols;
    rows = rows < 5 ? 5 : rows > 100 ? 100 : rows;
    struct plot_scratch *scratch = malloc(sizeof *scratch);
    struct grid g;
    if (!scratch || grid_init(&g, cols, rows) != 0) {
        free(scratch);
        return NULL;
    }
    plot_draw(view_make(&g, (struct rect){0, 0, cols, rows}), a, NULL, NULL, true, scratch);
    free(scratch);
    size_t need = grid_to_text(&g, NULL, 0);
    char *text = malloc(need + 1);
    if (text)
        grid_to_text(&g, text, need + 1);
    grid_free(&g);
    return text;
}

char *export_report(enum rt_format f, const struct scenario *s, const struct analysis *a, bool plot)
{
    char *report = report_render(f, s, a);
    if (!report || !plot || (f != RT_FORMAT_TEXT && f != RT_FORMAT_MARKDOWN))
        return report;
    char *pic = export_plot_text(a, EXPORT_PLOT_COLS, EXPORT_PLOT_ROWS);
    struct strbuf sb = {0};
    if (pic) {
        sb_puts(&sb, report);
        sb_puts(&sb, f == RT_FORMAT_MARKDOWN ? "\n## Roofline\n\n```text\n" : "\n");
        sb_puts(&sb, pic);
        if (f == RT_FORMAT_MARKDOWN)
            sb_puts(&sb, "```\n");
        /* The plot's marks, which a reader of the pasted text cannot ask about. */
        sb_puts(&sb, f == RT_FORMAT_MARKDOWN ? "\n" : "");
        sb_puts(&sb, EXPORT_PLOT_KEY "\n");
    } else {
        sb.failed = true;
    }
    free(report);
    free(pic);
    return sb_take(&sb);
}

char *export_review(const struct scenario *s, const struct analysis *a, const struct scenario *base_s,
                    const struct analysis *base_a)
{
    char *report = export_report(RT_FORMAT_MARKDOWN, s, a, true);
    if (!report || !base_s || !base_a)
        return report;
    char *diff = diff_render(RT_FORMAT_MARKDOWN, "the baseline", base_s, base_a, "this scenario", s, a);
    struct strbuf sb = {0};
    if (diff) {
        /* The diff's own title gives way to a section of the report. */
        const char *body = strncmp(diff, "# rooftop diff\n\n", 16) == 0 ? diff + 16 : diff;
        sb_puts(&sb, report);
        sb_puts(&sb, "\n## Against the pinned baseline\n\n");
        sb_puts(&sb, body);
    } else {
        sb.failed = true;
    }
    free(report);
    free(diff);
    return sb_take(&sb);
}

char *export_base64(const unsigned char *data, size_t len)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((len + 2) / 3 * 4 + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)data[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        out[o++] = alphabet[(v >> 18) & 63];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? alphabet[v & 63] : '=';
    }
    out[o] = '\0';
    return out;
}

char *export_osc52(const char *text, size_t max, bool *too_long)
{
    size_t len = strlen(text);
    *too_long = (len + 2) / 3 * 4 > max;
    if (*too_long)
        return NULL;
    char *b64 = export_base64((const unsigned char *)text, len);
    if (!b64)
        return NULL;
    size_t n = strlen(b64);
    char *seq = malloc(n + 9);
    if (seq) {
        memcpy(seq, "\033]52;c;", 7);
        memcpy(seq + 7, b64, n);
        seq[7 + n] = '\a';
        seq[8 + n] = '\0';
    }
    free(b64);
    return seq;
}

char *export_osc52_words(char *buf, size_t size, size_t bytes, const char *tmux, const char *sty, const char *term,
                         int width)
{
    bool in_tmux = tmux && tmux[0];
    bool in_screen = !in_tmux && ((sty && sty[0]) || (term && strncmp(term, "screen", 6) == 0));
    char forms[2][200];
    if (in_tmux) {
        snprintf(forms[0], sizeof forms[0], "sent the report (%zu bytes of markdown) as OSC 52; inside tmux it reaches "
                 "a clipboard only with set -g set-clipboard on", bytes);
        snprintf(forms[1], sizeof forms[1], "sent %zu bytes as OSC 52; tmux passes it on only with set-clipboard on",
                 bytes);
    } else if (in_screen) {
        snprintf(forms[0], sizeof forms[0], "sent the report (%zu bytes of markdown) as OSC 52; GNU screen passes none "
                 "on: e exports it to a file", bytes);
        snprintf(forms[1], sizeof forms[1], "sent %zu bytes as OSC 52; screen passes none on: e exports", bytes);
    } else {
        snprintf(forms[0], sizeof forms[0], "sent the report (%zu bytes of markdown) to the terminal as OSC 52: on the "
                 "clipboard if the terminal allows OSC 52", bytes);
        snprintf(forms[1], sizeof forms[1], "sent %zu bytes as OSC 52: copied if the terminal allows it", bytes);
    }
    snprintf(buf, size, "%s", (int)strlen(forms[0]) <= width ? forms[0] : forms[1]);
    return buf;
}
