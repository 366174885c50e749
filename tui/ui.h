/* ui.h — the explorer's state and its event handlers, without a terminal.
 *
 * One struct ui holds everything the explorer knows: the scenario and its
 * analysis, the selection, the undo history, the mode (knobs, typing a value,
 * help) and the message of the status line. Keys and mouse events go in as
 * plain values (the ncurses layer translates its codes); each handler changes
 * the scenario, runs analyze() and returns what the event loop must do. A
 * frame is rendered into a struct grid, so tests drive the explorer key by
 * key and compare frames as text.
 *
 * Each handler is a *_key / *_draw pair chosen by the mode, as in ncdu.
 */
#ifndef ROOFTOP_UI_H
#define ROOFTOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "explain.h"
#include "grid.h"
#include "layout.h"
#include "plot.h"
#include "search.h"
#include "scenario.h"
#include "sliders.h"
#include "tour.h"

/* Keys that are not characters, numbered above every Unicode code point.
 * Characters (including control characters such as 12 for Ctrl-L) are
 * passed as their code point. */
enum ui_key {
    UI_KEY_UP = 0x110000,
    UI_KEY_DOWN,
    UI_KEY_LEFT,
    UI_KEY_RIGHT,
    UI_KEY_SLEFT,  /* Shift-Left: coarse step down */
    UI_KEY_SRIGHT, /* Shift-Right: coarse step up */
    UI_KEY_PGUP,
    UI_KEY_PGDN,
    UI_KEY_HOME,
    UI_KEY_END,
    UI_KEY_ENTER,
    UI_KEY_ESC,
    UI_KEY_BACKSPACE,
    UI_KEY_TAB,
    UI_KEY_BTAB,
    UI_KEY_REPAINT /* Ctrl-L */
};

/* What the event loop must do after an event: bits. */
enum {
    UI_REDRAW = 1,  /* render a new frame (erase + draw + refresh) */
    UI_REPAINT = 2, /* also repaint the whole terminal (clear): Ctrl-L only */
    UI_QUIT = 4,    /* leave the explorer */
    UI_NEXT_THEME = 8, /* switch to the next colour theme (the terminal layer owns themes) */
    UI_SAVE = 16,   /* save the scenario to save_path (the user just confirmed it) */
    UI_EXPORT = 32, /* write the markdown report with its plot to export_path ('e', confirmed) */
    UI_COPY = 64    /* put that report on the clipboard with OSC 52 ('y') */
};

/* Mouse events, in screen cells. */
enum ui_mouse_kind { UI_MOUSE_PRESS, UI_MOUSE_DRAG, UI_MOUSE_RELEASE, UI_MOUSE_WHEEL_UP, UI_MOUSE_WHEEL_DOWN };

enum ui_mode { UI_MODE_KNOBS = 0, UI_MODE_EDIT, UI_MODE_HELP, UI_MODE_WORK /* "show your work" */,
               UI_MODE_PARETO /* the design search's frontier in the plot's place */,
               UI_MODE_TOUR, /* the guided tour: a step's scenario, its question, the guess */
               UI_MODE_PRESENT /* the presentation view ('P'): headline and a full-screen plot */ };

/* Most frontier points it walks through. */
#define UI_PARETO_MAX_FRONTIER 256

#define UI_UNDO_DEPTH 64
#define UI_EDIT_MAX 1024
#define UI_MESSAGE_MAX 256

struct ui {
    struct scenario initial;         /* what r resets to */
    struct scenario scenario;        /* the current, always valid, scenario */
    struct analysis analysis;        /* analyze(scenario) */
    int64_t largest_ok_batch;        /* analysis_largest_ok_batch(scenario): 0 none, -1 unknown */
    struct chip_list chips;          /* what the chip knob and 'c' run through (borrowed, or chips_owned) */
    struct chip_spec *chips_owned;   /* chips with those typed as a file's path appended, so that the knob
                                        steps from a file's chip to its neighbours and back (NULL: none yet) */
    int compare_chip;                /* index in chips whose roof is overlaid, -1 none */
    bool has_compare;                /* compare analysis is valid */
    struct analysis compare;         /* analyze(scenario with the compare chip) */
    bool has_baseline;               /* 'b' pinned a baseline: panels show deltas against it */
    struct scenario baseline;        /* the pinned scenario */
    struct analysis baseline_analysis; /* analyze(baseline) */

    struct scenario undo[UI_UNDO_DEPTH]; /* ring of earlier scenarios */
    int undo_top, undo_count;

    enum ui_mode mode;
    int selected;                    /* enum slider_id */
    bool op_view;                    /* the operation view (--op; 'v' toggles it): the scenario's operation on the
                                        roof, its knobs and panels, in the knobs, typing and help modes */
    int op_selected;                 /* the operation view's selected knob: an index into op_knob_list */
    char edit[UI_EDIT_MAX];          /* the value being typed (UTF-8) */
    bool edit_is_path;               /* typing where to save ('s'), not a knob's value */
    char save_path[UI_EDIT_MAX];     /* where 's' saves; the last path used, or a default */
    bool edit_is_export;             /* with edit_is_path: where 'e' exports the report, not 's' */
    bool confirm_overwrite;          /* the path just typed for s or e (edit_is_export) exists: y overwrites it,
                                        any other key keeps it */
    char export_path[UI_EDIT_MAX];   /* where 'e' exports; the last path used, or a default */
    char message[UI_MESSAGE_MAX];    /* status-line message; "" none */
    bool message_is_error;
    int drag_slider;                 /* slider being dragged, -1 none */
    int ops_phase;                   /* enum rt_phase whose operations the plot shows, -1 none */
    int work_scroll;                 /* first line of the "show your work" overlay shown */
    int help_scroll, help_max_scroll; /* the help overlay's first line shown, and its last possible */
    int work_page;                   /* lines it showed last frame (a page for PgUp/PgDn) */
    struct explanation work;         /* its lines: explain_analysis(scenario, analysis) */

    bool ascii;                      /* ASCII characters only */
    int cols, rows;                  /* screen size */
    struct layout layout;            /* layout_compute(cols, rows) */
    struct plot_scratch scratch;     /* plot working memory */
    struct plot_state plot;          /* the plot's steady axes and the points' trails ('a' re-fits) */
    bool all_roofs;                  /* R: every precision's roof on the plot, and the vector unit's */
    const struct measured_point *points; /* measured kernels on the plot (--points; borrowed) */
    const struct points_context *points_context; /* their profile's measured ceilings (borrowed; may be NULL) */
    size_t point_count;
    struct plot_point placed[RT_MAX_POINTS]; /* those of points[] on the scenario's roof, as it changes */
    size_t placed_count;

    /* The Pareto view ('p'): a search from the scenario when it opened
     * (allocated then, freed when it closes or by ui_free). */
    struct search_options pareto_opt;
    bool pareto_one_precision;   /* --precision was given: the Pareto view tries the scenario's alone */
    bool pareto_max_chips_given; /* --max-chips was given: it goes that far (else the search's default) */
    struct search_result pareto;     /* .candidates NULL while closed */
    size_t pareto_order[UI_PARETO_MAX_FRONTIER]; /* frontier, by tokens/s per user */
    size_t pareto_n, pareto_pick;

    /* The guided tour ('T', --tour): the tour (borrowed from ui_set_tour,
     * or the built-in one, parsed on first use and owned), the step shown
     * and the guess typed for it. */
    const struct tour *tour;
    struct tour *tour_owned;
    size_t tour_step;
    char tour_guess[64];
    bool tour_revealed;              /* the guess was scored: tour_result holds the line */
    bool tour_right;
    char tour_result[256];
    char tour_conceal[RT_TOUR_KEY_MAX + 16]; /* what the frame conceals (tour_conceal_key), while unrevealed */
    /* The coming steps' keys whose answers this step's screen shows, space-separated: found when
     * the step is shown, concealed figure by figure until their own step. */
    char tour_later[RT_TOUR_MAX_STEPS * (RT_TOUR_KEY_MAX + 16)];
    /* A model read from a file (--model PATH, a typed path, a scenario's own
     * shape): it keeps its place in the model knob, by size among the presets. */
    struct model_shape file_model;
    bool has_file_model;
};

/* Frees what *u allocated (the Pareto view's candidates, the built-in
 * tour once 'T' parsed it); *u stays usable. */
void ui_free(struct ui *u);

/* Sets up *u on scenario *initial for a cols x rows screen, in the
 * operation view when the scenario has an operation (initial->op.set:
 * rooftop --op). Returns 0, or
 * -1 with the reason in err (errsize bytes) when analyze() refuses the
 * initial scenario. *u is large (about 300 KB): allocate it, do not put it
 * on the stack. */
int ui_init(struct ui *u, const struct scenario *initial, bool ascii, int cols, int rows, char *err,
            size_t errsize);

/* Makes the chip knob and the comparison overlay run through chips (the
 * built-ins and the user's chip files) instead of the built-ins alone.
 * chips is borrowed and must outlive *u; an empty list changes nothing. */
void ui_set_chips(struct ui *u, struct chip_list chips);

/* Pins *s as the baseline every panel compares against (what 'b' does
 * with the current scenario, and --baseline with a saved one); NULL clears
 * it. Returns 0, or -1 with the reason in err when analyze() refuses *s
 * (the pin is then unchanged). */
int ui_set_baseline(struct ui *u, const struct scenario *s, char *err, size_t errsize);

/* Measured kernels to draw on the plot (borrowed: they must outlive u). */
void ui_set_points(struct ui *u, const struct measured_point *points, size_t count, const struct points_context *ctx);

/* Makes 'T' run tour t (borrowed: it must outlive u) instead of the
 * built-in one, from its first step; NULL goes back to the built-in. */
void ui_set_tour(struct ui *u, const struct tour *t);

/* Opens the tour ('T'): the built-in one unless ui_set_tour gave another,
 * at the step it was left on (the first, the first time), setting that
 * step's scenario and selecting its knob. Returns UI_REDRAW; a built-in
 * tour that does not load (it always does; tests say so) puts the reason
 * in the status line and stays in the knobs. */
unsigned ui_open_tour(struct ui *u);

/* Records a new screen size (negative counts as 0) and recomputes the layout. */
void ui_resize(struct ui *u, int cols, int rows);

/* Handles one key: a Unicode code point or an enum ui_key. Returns UI_*
 * bits. Unknown keys are ignored (0). Never fails: a refused change leaves
 * the scenario as it was and puts the reason in the status line. */
unsigned ui_key(struct ui *u, int key);

/* Handles a mouse event at screen cell (x, y). Returns UI_* bits. */
unsigned ui_mouse(struct ui *u, enum ui_mouse_kind kind, int x, int y);

/* Puts text in the status line until the next key (error selects the error
 * colour). For the terminal layer's own news: the theme, a saved file. */
void ui_set_message(struct ui *u, bool error, const char *text);

/* Renders the frame for the current size into g, which is resized to
 * cols x rows. Returns 0, or -1 when g cannot be resized (out of memory). */
int ui_render(struct ui *u, struct grid *g);

#endif
