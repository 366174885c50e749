/* modeljson.c — a model's layer schedule and assumptions as JSON. */
#include "modeljson.h"

cJSON *model_schedule_to_json(const struct model_shape *m)
{
    cJSON *runs = cJSON_CreateArray();
    if (!runs)
        return NULL;
    int64_t i = 0;
    while (i < m->layers && i < RT_MAX_LAYERS) {
        int kind = m->layer_kind[i];
        int64_t j = i;
        while (j < m->layers && j < RT_MAX_LAYERS && m->layer_kind[j] == kind)
            j++;
        const struct layer_kind *k = &m->kinds[kind < m->kind_count ? kind : 0];
        cJSON *run = cJSON_CreateObject();
        cJSON_AddNumberToObject(run, "count", (double)(j - i));
        cJSON_AddStringToObject(run, "mixer", mixer_name(k->mixer));
        if (k->mixer == RT_MIXER_SLIDING || k->mixer == RT_MIXER_CHUNKED || k->mixer == RT_MIXER_SPARSE ||
            k->mixer == RT_MIXER_COMPRESSED)
            cJSON_AddNumberToObject(run, "window", (double)k->window); /* a sparse layer's: its top-k */
        if (k->mixer == RT_MIXER_COMPRESSED) {
            cJSON_AddNumberToObject(run, "ratio", (double)k->ratio);
            cJSON_AddNumberToObject(run, "topk", (double)k->topk);
        }
        if (k->hash_router)
            cJSON_AddBoolToObject(run, "hash_router", true);
        if (k->kv_shared)
            cJSON_AddBoolToObject(run, "kv_shared", true);
        if (k->index_shared)
            cJSON_AddBoolToObject(run, "index_shared", true);
        if (k->heads > 0) /* an attention kind's own geometry (models.h, struct layer_kind) */
            cJSON_AddNumberToObject(run, "heads", (double)k->heads);
        if (k->kv_heads > 0)
            cJSON_AddNumberToObject(run, "kv_heads", (double)k->kv_heads);
        if (k->d_head > 0)
            cJSON_AddNumberToObject(run, "d_head", (double)k->d_head);
        if (k->k_eq_v)
            cJSON_AddBoolToObject(run, "k_eq_v", true);
        if (k->no_sinks)
            cJSON_AddBoolToObject(run, "no_sinks", true);
        if (k->own_norms)
            cJSON_AddNumberToObject(run, "norms", (double)k->norms);
        cJSON_AddStringToObject(run, "mlp", k->no_mlp ? "none" : k->moe ? "moe" : "dense");
        if (!k->moe && k->d_ff > 0)
            cJSON_AddNumberToObject(run, "d_ff", (double)k->d_ff);
        if (k->moe && !k->no_mlp) {
            cJSON_AddNumberToObject(run, "experts", (double)m->experts);
            cJSON_AddNumberToObject(run, "experts_per_token", (double)m->experts_per_token);
        }
        cJSON_AddItemToArray(runs, run);
        i = j;
    }
    return runs;
}

cJSON *model_assumptions_to_json(const struct model_shape *m)
{
    cJSON *list = cJSON_CreateArray();
    if (!list)
        return NULL;
    for (int i = 0; i < m->assumption_count; i++) {
        const struct model_assumption *a = &m->assumptions[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "key", a->key);
        cJSON_AddStringToObject(o, "value", a->value);
        cJSON_AddStringToObject(o, "why", a->why);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}
