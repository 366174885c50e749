/* diff.h — two scenarios side by side: every input and every figure that
 * differs, for design reviews (rooftop --diff A.json B.json, --baseline).
 *
 * Pure: no I/O. Both sides are compared as JSON trees flattened to dotted
 * keys ("latency.realistic.total_s", "model.layer_schedule[3].kind"): the
 * inputs from the scenario file's JSON (scenariofile.h, "version" left
 * out), the figures from the JSON report (report.h, "version" and the
 * "workload" echo of the inputs left out).
 */
#ifndef ROOFTOP_DIFF_H
#define ROOFTOP_DIFF_H

#include "analysis.h"
#include "report.h"

struct cJSON;

/* The leaves of a and b whose values differ, as a new cJSON array the
 * caller frees, in a's key order, then the keys only b has. Both trees are
 * walked together to dotted keys: objects by key, rows with a "name" (and
 * "phase") by it ("placement[decode:decode]"), lists of strings as sets
 * ("notes[]": a line one side lacks), other lists by index; an object
 * against a value (null) is one entry holding both whole. Each entry is
 * {"key", "a", "b", "change", "relative"}, with "absent": "a" or "b" when
 * one side lacks the key (its value null); change is b - a when both are
 * numbers, else null; relative is (b - a) / |a| when both are numbers and a
 * is not 0, else null. Strings and booleans compare as values, numbers
 * exactly. A NULL tree counts as an empty object. Returns NULL when memory
 * runs out. */
struct cJSON *diff_trees(const struct cJSON *a, const struct cJSON *b);

/* The diff of scenario sa (analyzed into aa) against sb (into ab) in format
 * f: text, markdown or JSON ({"a": label_a, "b": label_b, "inputs": [...],
 * "figures": [...]}, entries as diff_trees gives them). label_a and label_b
 * name the sides (file names); NULL reads "A" and "B". CSV is not a diff
 * format: it gives NULL, as does running out of memory. The text is safe
 * for a terminal (report_take). */
char *diff_render(enum rt_format f, const char *label_a, const struct scenario *sa, const struct analysis *aa,
                  const char *label_b, const struct scenario *sb, const struct analysis *ab);

#endif
