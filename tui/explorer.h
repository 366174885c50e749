/* explorer.h — the full-screen ncurses roofline explorer. */
#ifndef ROOFTOP_EXPLORER_H
#define ROOFTOP_EXPLORER_H

#include <stdbool.h>

#include "calibrate.h"
#include "scenario.h"
#include "termbg.h"
#include "themefile.h"
#include "tour.h"


/* Options the command line passes to the explorer. */
struct explorer_options {
    bool force_ascii;   /* --ascii: no braille or box drawing even in a UTF-8 locale */
    bool no_color;      /* NO_COLOR set or --no-color */
    const struct theme_set *themes; /* themes 't' cycles through; NULL = the built-in one only */
    struct chip_list chips; /* chips the chip knob and 'c' run through; empty = the built-ins */
    int theme_index;    /* the theme to start with, an index into themes */
    bool theme_named;   /* --theme given: used whatever the background */
    enum explorer_background background; /* --background, or AUTO: detect it */
    bool present;       /* --present: start in the presentation view */
    /* The design search's limits as --search takes them from the line: --precision tries only
     * the scenario's precision, --max-chips goes that far; the Pareto view ('p') keeps them. */
    bool search_one_precision, search_max_chips_given;
    char save_path[1024]; /* where 's' saves the scenario first (the last --write-scenario), or "" */
    const struct measured_point *points; /* --points: measured kernels on the plot (borrowed) */
    const struct points_context *points_context; /* what their profile says beyond them (borrowed; may be NULL) */
    size_t point_count;
    bool has_baseline;  /* --baseline FILE: a saved scenario pinned as the baseline ('b') */
    struct scenario baseline;
    const struct tour *tour; /* --tour NAME|PATH: the tour 'T' runs (borrowed); NULL = the built-in one */
    bool start_tour;    /* --tour: open on the tour's first step */
    char start_warning[300]; /* the first warning loading the files gave (printed on stderr too, which the
                              * explorer's screen hides), shown on the status line at the start; "" = none */
};

/* Runs the explorer on *initial until the user quits. Returns the process
 * exit status (0 on a normal quit). A signal that ends the program does not
 * return: the terminal is given back, then the process dies of that signal
 * (see sigexit.h), so that the exit status names it. When the terminal cannot be driven
 * (no cursor addressing, not a tty), returns -1 without touching it and
 * writes a one-line reason into why (whysize bytes), so the caller can print
 * the text report instead. */
int explorer_run(const struct scenario *initial, const struct explorer_options *opts, char *why, size_t whysize);

#endif
