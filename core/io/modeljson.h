/* modeljson.h — a model's layer schedule and assumptions as JSON, shared by
 * the report (report.c) and saved scenarios (scenariofile.c). */
#ifndef ROOFTOP_MODELJSON_H
#define ROOFTOP_MODELJSON_H

#include <cjson/cJSON.h>

#include "models.h"

/* The schedule as runs of identical consecutive layers, in layer order:
 * [{"count": n, "mixer": "full"|"sliding"|"chunked"|"linear"|"mamba"|"mamba2"|"none",
 *   "window": tokens (sliding and chunked only), "mlp": "dense"|"moe"|"none",
 *   "d_ff": width (dense layers with their own width only),
 *   "experts": E, "experts_per_token": k (MoE only)}]. A new cJSON array
 * (the caller owns it), or NULL when memory runs out. */
cJSON *model_schedule_to_json(const struct model_shape *m);

/* The assumptions as [{"key", "value", "why"}]; a new array or NULL. */
cJSON *model_assumptions_to_json(const struct model_shape *m);

#endif
