/* pareto.h — the explorer's Pareto view: every design a search accepted
 * as a dot, tokens/s per user across (log) against tokens/s per chip up
 * (log), the frontier as a line, the picked frontier point and the current
 * design marked. Draws; computes nothing but positions (the search is
 * core/search/search.h, run by the caller).
 */
#ifndef ROOFTOP_PARETO_H
#define ROOFTOP_PARETO_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "canvas.h"
#include "grid.h"
#include "search.h"

/* The frontier of r in order of tokens/s per user, lowest first: writes
 * indices into r->candidates to out (at most max) and returns how many. */
size_t pareto_frontier_order(const struct search_result *r, size_t *out, size_t max);

/* Draws the view into v: a heading with the counts and the keys, the axes
 * in whole decades, every accepted candidate as a dim dot, the frontier
 * joined by a line, the frontier point order[pick] (0 <= pick < n; none
 * when n is 0) marked and labelled with its layout, and the current design
 * (current->serving, when its batch fits) marked "now". A view too small
 * for axes draws the heading only. canvas is working memory. */
void pareto_draw(struct view v, const struct search_result *r, const size_t *order, size_t n, size_t pick,
                 const struct analysis *current, bool ascii, struct canvas *canvas);

/* One line naming design c for the status line ("tp4 pp1 ep1 b16 fp8 pool 8:
 * 53.4 tok/s/user, 79.6/chip, 12 chips"). Returns buf. */
char *pareto_describe(char *buf, size_t size, const struct search_candidate *c);

#endif
