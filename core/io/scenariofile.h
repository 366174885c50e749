/* scenariofile.h — a scenario as a JSON file, and back, exactly.
 *
 * The file is self-contained (the chip and the model shape are written out
 * in full), carries "version": 1, and round-trips: loading a written
 * scenario gives a scenario whose --report=json is byte-identical.
 */
#ifndef ROOFTOP_SCENARIOFILE_H
#define ROOFTOP_SCENARIOFILE_H

#include <stddef.h>

#include "jsonio.h"
#include "scenario.h"

#define RT_SCENARIO_VERSION 1

/* The scenario as pretty JSON text ending in a newline (free it), or NULL
 * when memory runs out. */
char *scenario_to_json(const struct scenario *s);

/* Reads scenario text (len bytes) named path in messages into *out. Keys
 * missing from the file keep the default scenario's values; unknown keys are
 * warned about, not fatal. Returns 0; or -1 with "PATH..." in err for a
 * syntax error (line and column), a wrong type, a missing version, a version
 * newer than this program, or a value scenario_check refuses. */
int scenario_from_json(const char *text, size_t len, const char *path, struct scenario *out,
                       struct load_warnings *w, char *err, size_t errsize);

#endif
