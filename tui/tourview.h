/* tourview.h — the guided tour's panel in the explorer: where it goes, what
 * it says, and which panel holds the figure a step asks about. Draws;
 * computes nothing (the tour's scenarios and scores are core/teach/tour.h).
 */
#ifndef ROOFTOP_TOURVIEW_H
#define ROOFTOP_TOURVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "grid.h"
#include "layout.h"
#include "panels.h"
#include "sliders.h"
#include "tour.h"

/* The explorer's knob names (slider_name of each slider) and a NULL, for
 * tour_parse: out must hold SLIDER_COUNT + 1 pointers. Returns out. */
const char **tour_knob_names(const char **out);

/* The slider named name, or -1 when no knob is called that ("" too). */
int tour_knob_slider(const char *name);

/* The rows of layout l that show figure (a --report=json key): a panel's
 * heading row, or for a placement figure ("placement[decode].bound") that
 * phase's row of the placement panel. An empty rect when no panel shows it
 * (tile efficiency). */
struct rect tour_figure_rect(const struct layout *l, const char *figure);

/* The key the screen conceals while figure (a --report=json key) waits for
 * its guess, written to out (size bytes, cut to fit): figure itself, with
 * a placement row's index given as its phase's name ("placement[1].bound"
 * -> "placement[decode].bound"), since panels name rows by phase. */
void tour_conceal_key(const char *figure, char *out, size_t size);

/* Where the tour panel goes: the bottom half (left: placement and MFU;
 * right: latency, and memory when it sits below) that holds the step's
 * figure until the answer is revealed, so the guess is a guess, then the
 * other half, uncovering it. */
struct rect tour_panel_rect(const struct layout *l, const char *figure, bool revealed);

/* What the panel shows of the tour at one moment. */
struct tour_view_state {
    const struct tour *tour;
    size_t step;                 /* index into tour->steps */
    const char *guess;           /* what is typed so far */
    bool revealed;               /* the last guess was scored */
    const char *result;          /* its line ("you said ...; it is ...: 4.0x low") */
    bool right;                  /* ... and whether it was right */
};

/* Draws the tour panel into v (blanked first): "Tour N/M · title", the
 * step's text wrapped, its question, the figure it is about, then the
 * guess being typed or the revealed result (ok or miss role). Rows that do
 * not fit drop the text's last lines first. */
void tour_panel_draw(struct view v, const struct tour_view_state *t, const struct glyphs *g);

#endif
