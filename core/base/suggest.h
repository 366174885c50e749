/* suggest.h — "did you mean": the known names closest to a name that matched
 * none, by a weighted edit distance.
 *
 * Used wherever a name is matched (flags, chips, models, engines, themes,
 * sweep kinds, the explorer's typed values), so every refusal of a name
 * offers the same kind of suggestion. Pure: no I/O, no allocation.
 */
#ifndef ROOFTOP_SUGGEST_H
#define ROOFTOP_SUGGEST_H

#include <stddef.h>

/* Most names one suggestion offers. */
#define RT_SUGGEST_MAX 4
/* Longest (normalised) name compared; longer ones are cut to this. */
#define RT_SUGGEST_NAME_MAX 64

/* The cost of turning a into b by the restricted Damerau-Levenshtein edit
 * distance (optimal string alignment: insertions, deletions, substitutions
 * and transpositions of two adjacent characters, no substring edited twice;
 * Damerau, CACM 7(3), 1964; Levenshtein, Soviet Physics Doklady 10(8),
 * 1966), with the weights of git's "did you mean" (help.c): a character b
 * has and a lacks costs 1 (the commonest slip is a letter left out), one a
 * has and b lacks costs 3, a substitution 2 and a transposition 1 (git: 0).
 * Bytes are compared as they are; at most RT_SUGGEST_NAME_MAX bytes of each
 * are read. NULL reads as "". Returns a cost >= 0; 0 only for equal texts. */
int name_distance(const char *a, const char *b);

/* Suggestions collected for one unknown name: offer every known name, then
 * write the closest. */
struct suggestions {
    char given[RT_SUGGEST_NAME_MAX + 1];        /* the unknown name, normalised */
    const char *near[RT_SUGGEST_MAX];           /* within RT_SUGGEST_NEAR, best first */
    int near_cost[RT_SUGGEST_MAX];
    size_t near_count;
    const char *starts[RT_SUGGEST_MAX];         /* names that start with given (used when none is near) */
    size_t starts_count;
};

/* Largest name_distance a suggestion may have: a letter left out, doubled,
 * swapped or mistyped, or two left out, but not a different word. */
#define RT_SUGGEST_NEAR 3

/* Starts collecting suggestions for `given` (compared normalised, as
 * name_normalize in units.h does: case and everything but letters and
 * digits ignored, so "TPU v5" is near "tpu-v5e"). */
void suggest_init(struct suggestions *sg, const char *given);

/* Offers a known name (borrowed: it must outlive sg). Names within
 * RT_SUGGEST_NEAR are kept, the RT_SUGGEST_MAX closest, ties in the order
 * offered; a name the given text begins (given of 3 or more characters) is
 * kept apart, for when none is near. A name offered twice counts once. */
void suggest_offer(struct suggestions *sg, const char *name);

/* Writes "did you mean A, B?" (each name after `prefix`, e.g. "--") into
 * out (size bytes): the near names, or when there are none the names that
 * start with the given text; "" when there are neither. Returns out. */
char *suggest_text(const struct suggestions *sg, const char *prefix, char *out, size_t size);

#endif
