/* tour.h — a guided tour that asks before it tells.
 *
 * A tour is a JSON file of steps; each step sets a scenario (the default
 * scenario with the keys of its "set" object changed, as a saved scenario
 * file names them), names the knob and the figure it is about, and asks a
 * question. The student's guess is scored against the figure that analyze()
 * gives for the step's scenario, never against an answer written in the
 * file. Pure: takes text, never opens files (the explorer reads them).
 *
 * Format (README, "Write your own tour"):
 *   {"title": "...", "steps": [{"title": "...", "text": "...",
 *     "set": {"chips": 16, "latency_model": "napkin"}, "knob": "chips",
 *     "figure": "latency.total_s", "question": "...", "answer": "figure"}]}
 * "figure" is a key of --report=json, dotted ("latency.napkin.total_s");
 * an array element is [N] or [NAME], the element whose "name" is NAME
 * ("placement[decode].bound"). "answer" is "bound" (the figure is
 * "memory" or "compute") or "figure" (a number, or null for "none").
 */
#ifndef ROOFTOP_TOUR_H
#define ROOFTOP_TOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "jsonio.h"
#include "scenario.h"

#define RT_TOUR_MAX_STEPS 32
#define RT_TOUR_TITLE_MAX 96
#define RT_TOUR_TEXT_MAX 512
#define RT_TOUR_KEY_MAX 96
#define RT_TOUR_KNOB_MAX 32

/* What a step's question asks for. */
enum tour_answer { TOUR_ANSWER_BOUND = 0, TOUR_ANSWER_FIGURE };

/* The figure of a step: a number (value), null ("none": is_null) or a word
 * (text, e.g. "memory"). */
struct tour_value {
    bool is_text, is_null;
    double value;
    char text[64];
};

struct tour_step {
    char title[RT_TOUR_TITLE_MAX];
    char text[RT_TOUR_TEXT_MAX];       /* one or two lines of the guide */
    char question[RT_TOUR_TEXT_MAX];
    char knob[RT_TOUR_KNOB_MAX];       /* the knob it is about, as the explorer names it; "" none */
    char figure[RT_TOUR_KEY_MAX];      /* the --report=json key the answer comes from */
    enum tour_answer answer;
    struct scenario scenario;          /* the default scenario with "set" applied */
    double params;                     /* N that scenario analyses to (a changed shape counts its own) */
    struct tour_value value;           /* the figure on that scenario: the answer, found as the tour is read */
};

struct tour {
    char title[RT_TOUR_TITLE_MAX];
    size_t count;                      /* steps, 1 to RT_TOUR_MAX_STEPS */
    struct tour_step steps[RT_TOUR_MAX_STEPS];
};

/* The built-in tour through the guide's chapters, as JSON text (static). */
const char *tour_builtin_text(void);

/* Parses tour text (len bytes, named path in messages) into *out (large:
 * about 300 KB; allocate it). knobs is the NULL-terminated list of knob
 * names a step may name (the explorer's); NULL accepts any. Every step's
 * scenario is analysed and its figure looked up, so a tour that loads can
 * be shown. Returns 0; or -1 with one line in err naming the file and the
 * key: "PATH:LINE:COL: expected ..." for a syntax error, "PATH: 'steps[2].
 * figure' ..." for a missing or wrong key, an unknown "set" key named by
 * its path ('steps[0].set.bach' is not a scenario key), a scenario that
 * analyze() refuses, a figure the report lacks or of the wrong kind for
 * "answer", more than RT_TOUR_MAX_STEPS steps, a string too long. Unknown
 * keys of a tour or a step are warned about in w (may be NULL). */
int tour_parse(const char *text, size_t len, const char *path, const char *const *knobs, struct tour *out,
               struct load_warnings *w, char *err, size_t errsize);


/* Looks up dotted key (see above) in the --report=json tree of scenario s
 * analysed into a. Returns 0 with *out; -1 with a reason in err when the
 * key is not in the report or names an object or an array. */
int tour_figure(const struct scenario *s, const struct analysis *a, const char *key, struct tour_value *out, char *err,
                size_t errsize);

/* The steps after step `after` of t (a tour_parse'd tour) whose answers
 * scenario s, analysed into a, shows under their keys, as a bit a step
 * (bit j for step j): the same word, both none, or numbers within one part
 * in a million. So a step can hide a coming step's answer that its own
 * screen would give away (the chips a 1 s turn takes, asked at step 11, on
 * the steps before it with the same chip and model). One report tree for
 * them all; 0 when it cannot be built. */
uint32_t tour_answers_on_screen(const struct tour *t, size_t after, const struct scenario *s,
                                const struct analysis *a);

/* A scored guess. */
struct tour_score {
    bool right;      /* the word matches, or the number is within 10% (ratio in [1/1.1, 1.1]) */
    double ratio;    /* the answer over the guess (> 1: the guess was low); 0 for words and nulls */
    char line[256];  /* "you said 0.5 s; it is 1.981 s: 4.0× low" */
};

/* Scores guess (as typed) against step st's figure (st->value, which
 * tour_parse found on the step's scenario: nothing is analysed a guess).
 * A "bound" step takes memory or compute (or a prefix: "mem", "c"); a
 * "figure" step a number with parse_number's suffixes and, by the figure's
 * unit (its key's suffix): seconds "0.5", "0.5 s", "500ms"; a fraction
 * "35%" or 0.35; or "none" where the figure is null. The line formats
 * the answer as the explorer does (format_seconds, format_si), gives the
 * ratio to one decimal ("4.0× low", "2.5× high"; "x" when ascii; past a
 * million "over a million times low"), names a time's estimate ("1.981 s
 * (napkin)") or
 * "right" within 10%. Returns 0; or -1 with a one-line hint in err for a
 * guess that is not of the kind asked ("'fast': answer memory or
 * compute") or a zero or negative number. */
int tour_score(const struct tour_step *st, const char *guess, bool ascii, struct tour_score *out, char *err,
               size_t errsize);

#endif
