/* scenariofile.c — scenarios to and from JSON. */
#include "scenariofile.h"

#include "knobs.h"

#include <stdio.h>
#include <string.h>

#include "suggest.h"
#include "chipfile.h"
#include "modeljson.h"

/* Integer knobs of the scenario and their JSON keys. */
struct int_field {
    const char *key;
    size_t offset;
};

#define SFIELD(name) offsetof(struct scenario, name)
#undef SFIELD

#define MFIELD(name) offsetof(struct model_shape, name)
static const struct int_field model_ints[] = {
    {"layers", MFIELD(layers)},
    {"d_model", MFIELD(d_model)},
    {"heads", MFIELD(heads)},
    {"kv_heads", MFIELD(kv_heads)},
    {"d_head", MFIELD(d_head)},
    {"d_ff", MFIELD(d_ff)},
    {"vocab", MFIELD(vocab)},
    {"experts", MFIELD(experts)},
    {"experts_per_token", MFIELD(experts_per_token)},
    {"shared_experts", MFIELD(shared_experts)},
    {"shared_d_ff", MFIELD(shared_d_ff)},
    {"moe_d_ff", MFIELD(moe_d_ff)},
    {"kv_lora_rank", MFIELD(kv_lora_rank)},
    {"q_lora_rank", MFIELD(q_lora_rank)},
    {"qk_rope_head_dim", MFIELD(qk_rope_head_dim)},
    {"qk_nope_head_dim", MFIELD(qk_nope_head_dim)},
    {"v_head_dim", MFIELD(v_head_dim)},
    {"norms_per_layer", MFIELD(norms_per_layer)},
    {"qk_norm_width", MFIELD(qk_norm_width)},
    {"position_rows", MFIELD(position_rows)},
    {"linear_key_heads", MFIELD(lin_key_heads)},
    {"linear_value_heads", MFIELD(lin_value_heads)},
    {"linear_key_head_dim", MFIELD(lin_key_head_dim)},
    {"linear_value_head_dim", MFIELD(lin_value_head_dim)},
    {"linear_conv_kernel", MFIELD(lin_conv_kernel)},
    {"mamba_d_inner", MFIELD(ssm_d_inner)},
    {"mamba_d_state", MFIELD(ssm_d_state)},
    {"mamba_d_conv", MFIELD(ssm_d_conv)},
    {"mamba_dt_rank", MFIELD(ssm_dt_rank)},
    {"mamba_heads", MFIELD(ssm_heads)},
    {"mamba_groups", MFIELD(ssm_groups)},
    {"mamba_state_bytes", MFIELD(ssm_state_bytes)},
    {"index_heads", MFIELD(index_heads)},
    {"moe_latent", MFIELD(moe_latent)},
    {"conv_kernel", MFIELD(conv_kernel)},
    {"cross_tokens", MFIELD(cross_tokens)},
    {"o_groups", MFIELD(o_groups)},
    {"o_lora_rank", MFIELD(o_lora_rank)},
    {"hc_mult", MFIELD(hc_mult)},
    {"per_layer_input", MFIELD(per_layer_input)},
    {"per_layer_vocab", MFIELD(per_layer_vocab)},
    {"max_context", MFIELD(max_context)},
    {"index_head_dim", MFIELD(index_head_dim)},
};

static const struct int_field model_bools[] = {
    {"tied_embeddings", MFIELD(tied_embeddings)},
    {"gated_mlp", MFIELD(gated_mlp)},
    {"qkv_bias", MFIELD(qkv_bias)},
    {"o_bias", MFIELD(o_bias)},
    {"mlp_bias", MFIELD(mlp_bias)},
    {"router_bias", MFIELD(router_bias)},
    {"norm_bias", MFIELD(norm_bias)},
    {"lm_head_bias", MFIELD(lm_head_bias)},
    {"shared_expert_gate", MFIELD(shared_expert_gate)},
    {"attention_sinks", MFIELD(attention_sinks)},
    {"attn_output_gate", MFIELD(attn_output_gate)},
    {"attn_head_gate", MFIELD(attn_head_gate)},
    {"conv_bias", MFIELD(conv_bias)},
    {"kv_single", MFIELD(kv_single)},
    {"embedding_norm", MFIELD(embedding_norm)},
    {"mamba_conv_bias", MFIELD(ssm_conv_bias)},
    {"mamba_proj_bias", MFIELD(ssm_proj_bias)},
    {"linear_lightning", MFIELD(lin_lightning)},
    {"linear_kda", MFIELD(lin_kda)},
    {"mamba_inner_norms", MFIELD(ssm_inner_norms)},
};
#undef MFIELD

static const char *const latency_names[] = {"napkin", "detailed", "realistic"};

/* Index of text in names[0..n), or -1. */
static int name_index(const char *text, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(text, names[i]) == 0)
            return i;
    return -1;
}

char *scenario_to_json(const struct scenario *s)
{
    cJSON *root = cJSON_CreateObject();
    json_add_exact(root, "version", RT_SCENARIO_VERSION);
    chip_to_json(cJSON_AddObjectToObject(root, "chip"), &s->chip);
    size_t nk;
    const struct knob *k = knob_table(&nk);
    for (int pass = 0; pass < 2; pass++) /* the whole numbers, then the reals (knobs.h) */
        for (size_t i = 0; i < nk; i++)
            if (k[i].key && k[i].value == (pass == 0 ? KNOB_WHOLE : KNOB_REAL))
                json_add_exact(root, k[i].key,
                               pass == 0 ? (double)*(const int64_t *)((const char *)s + k[i].offset)
                                         : *(const double *)((const char *)s + k[i].offset));
    cJSON_AddStringToObject(root, "precision", precision_name(s->precision));
    cJSON_AddStringToObject(root, "kv_precision", precision_name(s->kv_precision));
    cJSON_AddStringToObject(root, "act_precision", precision_name(s->act_precision));
    if (s->has_step_times) {
        cJSON *times = cJSON_AddArrayToObject(root, "step_times_s");
        for (int i = 0; i < RT_STEP_TIME_PARTS; i++)
        {
            char num[40];
            cJSON_AddItemToArray(times, cJSON_CreateRaw(format_exact(num, sizeof num, s->step_times_s[i])));
        }
    } else {
        cJSON_AddNullToObject(root, "step_times_s");
    }
    if (s->spec_accept_positions > 0) {
        cJSON *acc = cJSON_AddArrayToObject(root, "spec_accept_by_position");
        for (int64_t i = 0; i < s->spec_accept_positions; i++) {
            char num[40];
            cJSON_AddItemToArray(acc, cJSON_CreateRaw(format_exact(num, sizeof num, s->spec_accept_by_position[i])));
        }
    } else {
        cJSON_AddNullToObject(root, "spec_accept_by_position");
    }
    cJSON_AddStringToObject(root, "latency_model", latency_names[s->latency_model]);
    engine_to_json(cJSON_AddObjectToObject(root, "engine"), &s->engine);
    cJSON_AddStringToObject(root, "recompute", recompute_name(s->recompute));
    cJSON_AddStringToObject(root, "flops_convention", flops_convention_name(s->flops_convention));
    cJSON_AddBoolToObject(root, "unfused_attention", s->unfused_attention);
    cJSON_AddStringToObject(root, "spec_draft", s->spec_draft_name);
    cJSON *model = cJSON_AddObjectToObject(root, "model");
    cJSON_AddStringToObject(model, "name", s->model.name);
    for (size_t i = 0; i < sizeof model_ints / sizeof model_ints[0]; i++)
        json_add_exact(model, model_ints[i].key,
                                (double)*(const int64_t *)((const char *)&s->model + model_ints[i].offset));
    for (size_t i = 0; i < sizeof model_bools / sizeof model_bools[0]; i++)
        cJSON_AddBoolToObject(model, model_bools[i].key, *(const bool *)((const char *)&s->model + model_bools[i].offset));
    json_add_exact(model, "stated_params", s->model.stated_params);
    cJSON_AddStringToObject(model, "source", s->model.source);
    cJSON_AddItemToObject(model, "layer_schedule", model_schedule_to_json(&s->model));
    cJSON_AddItemToObject(model, "assumptions", model_assumptions_to_json(&s->model));
    char *text = json_make_exact(root) == 0 ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *out = cJSON_malloc(n + 2);
    if (out) {
        memcpy(out, text, n);
        out[n] = '\n';
        out[n + 1] = '\0';
    }
    cJSON_free(text);
    return out;
}

/* True when key names one of the n fields. */
static bool in_fields(const char *key, const struct int_field *fields, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, fields[i].key) == 0)
            return true;
    return false;
}

/* True when key is one of the NULL-terminated names. */
static bool in_names(const char *key, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(key, *names) == 0)
            return true;
    return false;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Reads a run's name key ("mixer", "mlp") into out; messages carry the run's path. */
static int run_name(const cJSON *run, const char *key, bool required, const char *path, const char *what, char *out,
                    size_t size, char *err, size_t errsize)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);
    if ((!v || cJSON_IsNull(v)) && !required)
        return 0;
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= size) {
        snprintf(err, errsize, "%s: %s '%s%s'%s", path, v && !cJSON_IsNull(v) ? "unknown" : "missing key", what, key,
                 v && !cJSON_IsNull(v) ? ": give a name such as \"full\" or \"dense\"" : "");
        return -1;
    }
    snprintf(out, size, "%s", v->valuestring);
    return 0;
}

/* Reads "layer_schedule": runs of {count, mixer, window, mlp, d_ff} in layer order. */
static int read_schedule(const cJSON *runs, const char *path, struct model_shape *m, struct load_warnings *w,
                         char *err, size_t errsize)
{
    if (!cJSON_IsArray(runs)) {
        snprintf(err, errsize, "%s: 'model.layer_schedule' must be a list of runs {count, mixer, window, mlp}", path);
        return -1;
    }
    int64_t layer = 0;
    int i = 0;
    m->kind_count = 0;
    const cJSON *run;
    cJSON_ArrayForEach(run, runs)
    {
        char what[48], mixer[16] = "full", mlp[16] = "dense";
        snprintf(what, sizeof what, "model.layer_schedule[%d].", i++);
        double count, window = 0, d_ff = 0, heads = 0, kv_heads = 0, d_head = 0, norms = -1, ratio = 0, topk = 0;
        bool k_eq_v = false, no_sinks = false, hash_router = false, kv_shared = false, index_shared = false;
        if (!cJSON_IsObject(run)) {
            snprintf(err, errsize, "%s: '%s' must be an object", path, what);
            return -1;
        }
        double experts = (double)m->experts, top = (double)m->experts_per_token;
        if (json_number(run, "count", path, what, true, 1, RT_MAX_LAYERS, true, &count, err, errsize) != JSON_FOUND ||
            json_number(run, "window", path, what, false, 0, 1099511627776.0, true, &window, err, errsize) == JSON_BAD ||
            json_number(run, "d_ff", path, what, false, 0, 1099511627776.0, true, &d_ff, err, errsize) == JSON_BAD ||
            json_number(run, "experts", path, what, false, 0, 1 << 20, true, &experts, err, errsize) == JSON_BAD ||
            json_number(run, "experts_per_token", path, what, false, 0, 1 << 20, true, &top, err, errsize) ==
                JSON_BAD ||
            json_number(run, "heads", path, what, false, 0, (double)RT_MAX_WIDTH, true, &heads, err, errsize) ==
                JSON_BAD ||
            json_number(run, "kv_heads", path, what, false, 0, (double)RT_MAX_WIDTH, true, &kv_heads, err, errsize) ==
                JSON_BAD ||
            json_number(run, "d_head", path, what, false, 0, (double)RT_MAX_WIDTH, true, &d_head, err, errsize) ==
                JSON_BAD ||
            json_bool(run, "k_eq_v", path, false, &k_eq_v, err, errsize) == JSON_BAD ||
            json_bool(run, "no_sinks", path, false, &no_sinks, err, errsize) == JSON_BAD ||
            json_bool(run, "hash_router", path, false, &hash_router, err, errsize) == JSON_BAD ||
            json_bool(run, "kv_shared", path, false, &kv_shared, err, errsize) == JSON_BAD ||
            json_bool(run, "index_shared", path, false, &index_shared, err, errsize) == JSON_BAD ||
            json_number(run, "ratio", path, what, false, 0, 1099511627776.0, true, &ratio, err, errsize) == JSON_BAD ||
            json_number(run, "topk", path, what, false, 0, 1099511627776.0, true, &topk, err, errsize) == JSON_BAD ||
            json_number(run, "norms", path, what, false, 0, 16, true, &norms, err, errsize) == JSON_BAD ||
            run_name(run, "mixer", true, path, what, mixer, sizeof mixer, err, errsize) ||
            run_name(run, "mlp", false, path, what, mlp, sizeof mlp, err, errsize))
            return -1;
        /* The run repeats the model's MoE shape; a different one is a hand edit rooftop cannot honour. */
        if (experts != (double)m->experts || top != (double)m->experts_per_token) {
            snprintf(err, errsize, "%s: '%sexperts' and '%sexperts_per_token' (%.0f, top-%.0f) must match "
                                   "'model.experts' and 'model.experts_per_token' (%lld, top-%lld)",
                     path, what, what, experts, top, (long long)m->experts, (long long)m->experts_per_token);
            return -1;
        }
        static const char *const run_keys[] = {"count", "mixer", "window", "mlp", "d_ff", "experts",
                                               "experts_per_token", "heads", "kv_heads", "d_head", "k_eq_v", "norms", "no_sinks",
                                               "ratio", "topk", "hash_router", "kv_shared", "index_shared",
                                               NULL};
        json_warn_unknown_keys(run, run_keys, path, what, w);
        struct layer_kind k = {.window = (int64_t)window, .d_ff = (int64_t)d_ff, .heads = (int64_t)heads,
                               .kv_heads = (int64_t)kv_heads, .d_head = (int64_t)d_head, .k_eq_v = k_eq_v,
                               .no_sinks = no_sinks, .ratio = (int64_t)ratio, .topk = (int64_t)topk,
                               .hash_router = hash_router, .kv_shared = kv_shared, .index_shared = index_shared,
                               .own_norms = norms >= 0, .norms = norms >= 0 ? (int64_t)norms : 0};
        int mx = 0;
        while (mx < RT_MIXER_COUNT && strcmp(mixer, mixer_name((enum rt_mixer)mx)) != 0)
            mx++;
        if (mx == RT_MIXER_COUNT || (strcmp(mlp, "dense") != 0 && strcmp(mlp, "moe") != 0 && strcmp(mlp, "none") != 0)) {
            snprintf(err, errsize, "%s: '%smixer' must be full, sliding, chunked, linear, mamba, mamba2, none, sparse, conv, cross or compressed and "
                                   "'%smlp' dense, moe or none",
                     path, what, what);
            return -1;
        }
        k.mixer = (enum rt_mixer)mx;
        if (window > 0 && k.mixer != RT_MIXER_SLIDING && k.mixer != RT_MIXER_CHUNKED && k.mixer != RT_MIXER_SPARSE &&
            k.mixer != RT_MIXER_COMPRESSED)
            warn_add(w, "%s: '%swindow' ignored: a %s layer has no window", path, what, mixer);
        k.moe = strcmp(mlp, "moe") == 0;
        k.no_mlp = strcmp(mlp, "none") == 0;
        int index = model_kind_index(m, &k);
        if (index < 0 || layer + (int64_t)count > m->layers) {
            snprintf(err, errsize, "%s: 'model.layer_schedule' %s", path,
                     index < 0 ? "has too many kinds of layer" : "counts more layers than 'model.layers'");
            return -1;
        }
        for (int64_t j = 0; j < (int64_t)count; j++)
            m->layer_kind[layer++] = (uint8_t)index;
    }
    if (layer != m->layers) {
        snprintf(err, errsize, "%s: 'model.layer_schedule' counts %lld layers but 'model.layers' is %lld", path,
                 (long long)layer, (long long)m->layers);
        return -1;
    }
    model_schedule_fix(m);
    return 0;
}

/* A schedule from the keys of files written before layer_schedule: every
 * layer full attention, the top sliding_layers windowed, the first
 * dense_layers dense. */
static int read_legacy_schedule(const cJSON *obj, const char *path, struct model_shape *m, char *err, size_t errsize)
{
    double window = 0, windowed = 0, dense = 0;
    if (json_number(obj, "sliding_window", path, "model.", false, 0, 1099511627776.0, true, &window, err, errsize) ==
            JSON_BAD ||
        json_number(obj, "sliding_layers", path, "model.", false, 0, (double)m->layers, true, &windowed, err,
                    errsize) == JSON_BAD ||
        json_number(obj, "dense_layers", path, "model.", false, 0, (double)m->layers, true, &dense, err, errsize) ==
            JSON_BAD)
        return -1;
    m->kind_count = 0;
    model_schedule_fix(m);
    struct layer_kind base = m->kinds[0], slid = base, plain = base;
    slid.mixer = RT_MIXER_SLIDING;
    slid.window = (int64_t)window;
    plain.moe = false;
    for (int64_t i = 0; i < m->layers; i++) {
        struct layer_kind k = window > 0 && i >= m->layers - (int64_t)windowed ? slid : base;
        if (i < (int64_t)dense)
            k.moe = false;
        int index = model_kind_index(m, &k);
        m->layer_kind[i] = (uint8_t)(index < 0 ? 0 : index);
    }
    (void)plain;
    model_schedule_fix(m);
    return 0;
}

/* Reads "assumptions": [{key, value, why}]. */
static int read_assumptions(const cJSON *list, const char *path, struct model_shape *m, char *err, size_t errsize)
{
    if (!cJSON_IsArray(list)) {
        snprintf(err, errsize, "%s: 'model.assumptions' must be a list of {key, value, why}", path);
        return -1;
    }
    m->assumption_count = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, list)
    {
        char key[RT_ASSUMPTION_KEY_MAX] = "", value[RT_ASSUMPTION_VALUE_MAX] = "", why[RT_ASSUMPTION_WHY_MAX] = "";
        if (json_string(a, "key", path, true, key, sizeof key, err, errsize) != JSON_FOUND ||
            json_string(a, "value", path, false, value, sizeof value, err, errsize) == JSON_BAD ||
            json_string(a, "why", path, false, why, sizeof why, err, errsize) == JSON_BAD)
            return -1;
        model_assume(m, key, value, why);
    }
    return 0;
}

/* True when obj has key with a value other than null. */
static bool given(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return v && !cJSON_IsNull(v);
}

/* The keys a model object must give: the shape nothing else implies. */
static const char *const model_required[] = {"layers", "d_model", "heads", "d_ff", "vocab", NULL};

/* Fills in what a hand-written model object may leave out, as a
 * HuggingFace config does: kv_heads = heads (MHA), d_head = d_model / heads,
 * one expert, a gated MLP (said in a warning: most current models have
 * one). Returns 0, or -1 with err naming the key that cannot be implied. */
static int model_implied(const cJSON *obj, const char *path, struct model_shape *m, struct load_warnings *w,
                         char *err, size_t errsize)
{
    if (!given(obj, "kv_heads"))
        m->kv_heads = m->heads;
    if (!given(obj, "d_head")) {
        if (m->heads < 1 || m->d_model % m->heads != 0) {
            snprintf(err, errsize, "%s: missing key 'model.d_head' (d_model %lld does not divide into %lld heads)",
                     path, (long long)m->d_model, (long long)m->heads);
            return -1;
        }
        m->d_head = m->d_model / m->heads;
    }
    if (!given(obj, "experts"))
        m->experts = 1;
    if (!given(obj, "experts_per_token")) {
        if (m->experts > 1) {
            snprintf(err, errsize, "%s: missing key 'model.experts_per_token': how many of the %lld experts each "
                                   "token visits",
                     path, (long long)m->experts);
            return -1;
        }
        m->experts_per_token = 1;
    }
    if (!given(obj, "gated_mlp")) {
        m->gated_mlp = true;
        warn_add(w, "%s: no 'model.gated_mlp': taken as a gated three-matrix MLP (SwiGLU); give false for a plain "
                    "two-matrix one",
                 path);
    }
    return 0;
}

/* Reads the model object of a scenario file into *m, from an empty shape
 * (never over the default model: what the file leaves out is implied as a
 * config.json implies it, or refused). A model written out is counted from
 * its shape unless it states a count itself. */
static int read_model(const cJSON *obj, const char *path, struct model_shape *m, struct load_warnings *w, char *err,
                      size_t errsize)
{
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errsize, "%s: 'model' must be an object", path);
        return -1;
    }
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "custom");
    snprintf(m->source, sizeof m->source, "a shape written out in a scenario file");
    if (json_string(obj, "name", path, false, m->name, sizeof m->name, err, errsize) == JSON_BAD ||
        json_string(obj, "source", path, false, m->source, sizeof m->source, err, errsize) == JSON_BAD)
        return -1;
    for (size_t i = 0; i < sizeof model_ints / sizeof model_ints[0]; i++) {
        double v;
        double hi = strcmp(model_ints[i].key, "layers") == 0 ? RT_MAX_LAYERS : 1099511627776.0;
        bool required = in_names(model_ints[i].key, model_required);
        enum json_found f =
            json_number(obj, model_ints[i].key, path, "model.", required, 0, hi, true, &v, err, errsize);
        if (f == JSON_BAD || (required && f != JSON_FOUND))
            return -1;
        if (f == JSON_FOUND)
            *(int64_t *)((char *)m + model_ints[i].offset) = (int64_t)v;
    }
    for (size_t i = 0; i < sizeof model_bools / sizeof model_bools[0]; i++)
        if (json_bool(obj, model_bools[i].key, path, false, (bool *)((char *)m + model_bools[i].offset), err,
                      errsize) == JSON_BAD)
            return -1;
    if (model_implied(obj, path, m, w, err, errsize) != 0)
        return -1;
    if (json_number(obj, "stated_params", path, "model.", false, 0, 1e16, false, &m->stated_params, err, errsize) ==
        JSON_BAD)
        return -1;
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(obj, "layer_schedule");
    const cJSON *assumed = cJSON_GetObjectItemCaseSensitive(obj, "assumptions");
    bool legacy = cJSON_GetObjectItemCaseSensitive(obj, "sliding_window") ||
                  cJSON_GetObjectItemCaseSensitive(obj, "sliding_layers") ||
                  cJSON_GetObjectItemCaseSensitive(obj, "dense_layers");
    if (runs && !cJSON_IsNull(runs)) {
        if (read_schedule(runs, path, m, w, err, errsize) != 0)
            return -1;
    } else {
        if (read_legacy_schedule(obj, path, m, err, errsize) != 0)
            return -1;
        if (!legacy)
            warn_add(w, "%s: no 'model.layer_schedule': every layer is taken as full attention (%s)", path,
                     cJSON_GetObjectItemCaseSensitive(obj, "experts") ? "with the model's MLP" : "a dense MLP");
    }
    if (assumed && !cJSON_IsNull(assumed) && read_assumptions(assumed, path, m, err, errsize) != 0)
        return -1;
    const char *known[] = {"name", "source", "stated_params", "layer_schedule", "assumptions", "sliding_window",
                           "sliding_layers", "dense_layers", NULL};
    for (const cJSON *c = obj->child; c; c = c->next)
        if (!in_names(c->string, known) && !in_fields(c->string, model_ints, COUNT(model_ints)) &&
            !in_fields(c->string, model_bools, COUNT(model_bools)))
            warn_add(w, "%s: unknown key 'model.%s' ignored", path, c->string);
    return 0;
}

/* Writes scenario_check's message why as "PATH: 'key' (--flag) ..." when it
 * starts with a knob's flag, so that the file's key is named; otherwise as
 * "PATH: why". */
static void name_the_key(const char *why, const char *path, char *err, size_t errsize)
{
    size_t nk;
    const struct knob *k = knob_table(&nk);
    for (size_t i = 0; i < nk; i++) {
        /* a knob the file keeps under a key of its own (not an object: a chip, a model, an engine is named
         * by the message itself) */
        if (!k[i].key || strcmp(k[i].key, "chip") == 0 || strcmp(k[i].key, "model") == 0 ||
            strcmp(k[i].key, "engine") == 0)
            continue;
        size_t n = strlen(k[i].flag);
        if (strncmp(why, k[i].flag, n) == 0 && why[n] == ' ') {
            snprintf(err, errsize, "%s: '%s' (%s)%s", path, k[i].key, k[i].flag, why + n);
            return;
        }
    }
    snprintf(err, errsize, "%s: %s", path, why);
}

/* The scenario's "chip": a built-in chip's key, an object (a built-in chip
 * saved unchanged stays built-in), or none (the default, with a warning).
 * Returns 0, or -1 with err set. */
static int read_chip_key(const cJSON *root, const char *path, struct scenario *s, struct load_warnings *w, char *err, size_t errsize)
{
    const cJSON *chip = cJSON_GetObjectItemCaseSensitive(root, "chip");
    if (cJSON_IsString(chip)) { /* "chip": "h100" names a built-in chip */
        const struct chip_spec *named = chip_find(chip->valuestring);
        if (!named) {
            struct suggestions sg;
            char hint[200];
            struct chip_list all = chip_builtin_list();
            suggest_init(&sg, chip->valuestring);
            for (size_t i = 0; i < all.count; i++)
                suggest_offer(&sg, all.items[i].key);
            suggest_text(&sg, "", hint, sizeof hint);
            snprintf(err, errsize, "%s: 'chip' \"%s\" is not a built-in chip%s%s%s; write the chip out as an object",
                     path, chip->valuestring, hint[0] ? " (" : "", hint, hint[0] ? ")" : "");
            return -1;
        }
        s->chip = *named;
    } else if (!chip || cJSON_IsNull(chip)) {
        warn_add(w, "%s: no 'chip': the default %s is used", path, s->chip.key);
    } else {
        if (chip_from_json(chip, path, "'chip'", &s->chip, w, err, errsize) != 0)
            return -1;
        const struct chip_spec *builtin = chip_find(s->chip.key);
        /* A built-in chip saved unchanged stays "built-in". */
        if (builtin) {
            struct chip_spec probe = s->chip;
            snprintf(probe.origin, sizeof probe.origin, "%s", builtin->origin);
            if (memcmp(&probe, builtin, sizeof probe) == 0)
                s->chip = *builtin;
        }
    }
    return 0;
}

/* The knobs that are plain numbers (the registry's rows with a file key):
 * the whole numbers, then the reals, as written. Returns 0, or -1. */
static int read_knob_numbers(const cJSON *root, const char *path, struct scenario *s, char *err, size_t errsize)
{
    size_t nk;
    const struct knob *kn = knob_table(&nk);
    for (int pass = 0; pass < 2; pass++) /* the whole numbers, then the reals, as written */
        for (size_t i = 0; i < nk; i++) {
            if (!kn[i].key || kn[i].value != (pass == 0 ? KNOB_WHOLE : KNOB_REAL))
                continue;
            if (pass == 1) {
                if (json_number(root, kn[i].key, path, "", false, -1e21, 1e21, false,
                                (double *)((char *)s + kn[i].offset), err, errsize) == JSON_BAD)
                    return -1;
                continue;
            }
            double v;
            enum json_found f = json_number(root, kn[i].key, path, "", false, -1e15, 1e15, true, &v, err, errsize);
            if (f == JSON_BAD)
                return -1;
            if (f == JSON_FOUND)
                *(int64_t *)((char *)s + kn[i].offset) = (int64_t)v;
        }
    return 0;
}

/* "precision", "kv_precision" and "act_precision". Returns 0, or -1. */
static int read_precisions(const cJSON *root, const char *path, struct scenario *s, char *err, size_t errsize)
{
    const char *prec_keys[] = {"precision", "kv_precision"};
    enum rt_precision *prec[] = {&s->precision, &s->kv_precision};
    for (int i = 0; i < 2; i++) {
        char name[16];
        enum json_found f = json_string(root, prec_keys[i], path, false, name, sizeof name, err, errsize);
        if (f == JSON_BAD)
            return -1;
        if (f == JSON_FOUND && precision_parse(name, prec[i]) != 0) {
            char why[160];
            snprintf(err, errsize, "%s: '%s' \"%s\": %s", path, prec_keys[i], name,
                     precision_refusal(why, sizeof why, name));
            return -1;
        }
    }
    char act[16];
    enum json_found act_found = json_string(root, "act_precision", path, false, act, sizeof act, err, errsize);
    if (act_found == JSON_BAD)
        return -1;
    if (act_found == JSON_FOUND && act_precision_parse(act, &s->act_precision) != 0) {
        snprintf(err, errsize, "%s: 'act_precision' must be %s (got \"%s\")", path, act_precision_choices(), act);
        return -1;
    }
    return 0;
}

/* The arrays: "step_times_s" (five seconds, or null) and
 * "spec_accept_by_position" (1 to RT_SPEC_MAX_TOKENS probabilities, or
 * null). Returns 0, or -1. */
static int read_arrays(const cJSON *root, const char *path, struct scenario *s, char *err, size_t errsize)
{
    const cJSON *times = cJSON_GetObjectItemCaseSensitive(root, "step_times_s");
    if (times && !cJSON_IsNull(times)) {
        if (!cJSON_IsArray(times) || cJSON_GetArraySize(times) != RT_STEP_TIME_PARTS) {
            snprintf(err, errsize, "%s: 'step_times_s' must be null or five seconds [matmul, vector, memory, comms, "
                                   "optimizer]",
                     path);
            return -1;
        }
        for (int i = 0; i < RT_STEP_TIME_PARTS; i++) {
            const cJSON *t = cJSON_GetArrayItem(times, i);
            if (!cJSON_IsNumber(t)) {
                snprintf(err, errsize, "%s: 'step_times_s[%d]' must be a number", path, i);
                return -1;
            }
            s->step_times_s[i] = t->valuedouble;
        }
        s->has_step_times = true;
    }
    const cJSON *acc = cJSON_GetObjectItemCaseSensitive(root, "spec_accept_by_position");
    if (acc && !cJSON_IsNull(acc)) {
        int count = cJSON_IsArray(acc) ? cJSON_GetArraySize(acc) : -1;
        if (count < 1 || count > RT_SPEC_MAX_TOKENS) {
            snprintf(err, errsize, "%s: 'spec_accept_by_position' must be null or 1 to %d probabilities, one a draft "
                                   "token",
                     path, RT_SPEC_MAX_TOKENS);
            return -1;
        }
        for (int i = 0; i < count; i++) {
            const cJSON *t = cJSON_GetArrayItem(acc, i);
            if (!cJSON_IsNumber(t)) {
                snprintf(err, errsize, "%s: 'spec_accept_by_position[%d]' must be a number", path, i);
                return -1;
            }
            s->spec_accept_by_position[i] = t->valuedouble;
        }
        s->spec_accept_positions = count;
    }
    return 0;
}

/* The knobs given by name: "latency_model", "recompute",
 * "flops_convention", "unfused_attention", "spec_draft" and "engine" (a
 * built-in engine's name or an engine object). Returns 0, or -1. */
static int read_named(const cJSON *root, const char *path, struct scenario *s, struct load_warnings *w, char *err, size_t errsize)
{
    char latency[16] = "", recompute[16] = "", convention[16] = "";
    if (json_string(root, "latency_model", path, false, latency, sizeof latency, err, errsize) == JSON_BAD ||
        json_string(root, "recompute", path, false, recompute, sizeof recompute, err, errsize) == JSON_BAD ||
        json_string(root, "flops_convention", path, false, convention, sizeof convention, err, errsize) == JSON_BAD ||
        json_bool(root, "unfused_attention", path, false, &s->unfused_attention, err, errsize) == JSON_BAD ||
        json_string(root, "spec_draft", path, false, s->spec_draft_name, sizeof s->spec_draft_name, err, errsize) ==
            JSON_BAD)
        return -1;
    if (latency[0]) {
        int i = strcmp(latency, "floor") == 0 ? RT_LATENCY_DETAILED : name_index(latency, latency_names, 3);
        if (i < 0) {
            snprintf(err, errsize, "%s: 'latency_model' must be \"napkin\", \"detailed\" (the floor) or "
                                   "\"realistic\" (got \"%s\")",
                     path, latency);
            return -1;
        }
        s->latency_model = (enum rt_latency_model)i;
    }
    const cJSON *engine = cJSON_GetObjectItemCaseSensitive(root, "engine");
    if (cJSON_IsString(engine)) {
        const struct engine_profile *e = engine_find(engine->valuestring);
        if (!e) {
            snprintf(err, errsize, "%s: 'engine' \"%s\" is not a built-in engine; write it out as an object", path,
                     engine->valuestring);
            return -1;
        }
        s->engine = *e;
    } else if (engine && !cJSON_IsNull(engine)) {
        char *block = cJSON_PrintUnformatted(engine);
        int rc = block ? engine_from_text(block, strlen(block), path, &s->engine, w, err, errsize) : -1;
        cJSON_free(block);
        if (rc != 0)
            return -1;
    }
    if (recompute[0]) {
        const char *recompute_names[] = {recompute_name(RT_RECOMPUTE_NONE), recompute_name(RT_RECOMPUTE_SELECTIVE),
                                         recompute_name(RT_RECOMPUTE_FULL), recompute_name(RT_RECOMPUTE_FRACTION)};
        int i = name_index(recompute, recompute_names, 4);
        if (i < 0) {
            snprintf(err, errsize, "%s: 'recompute' must be none, selective, full or fraction (got \"%s\")", path,
                     recompute);
            return -1;
        }
        s->recompute = (enum rt_recompute)i;
    }
    if (convention[0]) {
        int i = 0;
        while (i < RT_FLOPS_CONVENTION_COUNT && strcmp(convention, flops_convention_name((enum rt_flops_convention)i)))
            i++;
        if (i == RT_FLOPS_CONVENTION_COUNT) {
            snprintf(err, errsize, "%s: 'flops_convention' must be palm, megatron, 6n or causal (got \"%s\")", path,
                     convention);
            return -1;
        }
        s->flops_convention = (enum rt_flops_convention)i;
    }
    return 0;
}

/* The scenario's "model" (a preset's name, a shape object, or none: the
 * default, with a warning), then the draft's parameters from its name.
 * Returns 0, or -1. */
static int read_model_key(const cJSON *root, const char *path, struct scenario *s, struct load_warnings *w, char *err, size_t errsize)
{
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (cJSON_IsString(model)) { /* "model": "llama-3.1-70b" names a preset */
        const struct model_shape *named = model_find(model->valuestring);
        if (!named) {
            snprintf(err, errsize, "%s: 'model' \"%s\" is not a built-in model; write the shape out as an object",
                     path, model->valuestring);
            return -1;
        }
        s->model = *named;
    } else if (!model || cJSON_IsNull(model)) {
        warn_add(w, "%s: no 'model': the default %s is used", path, s->model.name);
    } else if (read_model(model, path, &s->model, w, err, errsize) != 0) {
        return -1;
    }
    /* The draft's name labels its parameter count: a name without a count
     * is a built-in model's (its count), or it would label an MTP head. */
    if (s->spec_draft_name[0] && !(s->spec_draft_params > 0.0)) {
        const struct model_shape *draft = model_find(s->spec_draft_name);
        if (draft) {
            s->spec_draft_params = draft->stated_params > 0.0 ? draft->stated_params : model_param_count(draft).active;
        } else {
            warn_add(w, "%s: 'spec_draft' \"%s\" has no spec_draft_params and is not a built-in model: an MTP head "
                        "(one target layer) is used, and the name dropped",
                     path, s->spec_draft_name);
            s->spec_draft_name[0] = '\0';
        }
    }
    return 0;
}

int scenario_from_json(const char *text, size_t len, const char *path, struct scenario *out,
                       struct load_warnings *w, char *err, size_t errsize)
{
    cJSON *root = json_parse_text(text, len, path, w, err, errsize);
    if (!root)
        return -1;
    int status = -1;
    struct scenario s;
    scenario_default(&s);
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsize, "%s: expected a scenario object with a \"version\"", path);
        goto done;
    }
    double version;
    if (json_number(root, "version", path, "", true, 1, 1e9, true, &version, err, errsize) != JSON_FOUND)
        goto done;
    if (version > RT_SCENARIO_VERSION) {
        snprintf(err, errsize, "%s: version %.0f was written by a newer rooftop; this one reads version %d", path,
                 version, RT_SCENARIO_VERSION);
        goto done;
    }
    if (read_chip_key(root, path, &s, w, err, errsize) != 0 || read_knob_numbers(root, path, &s, err, errsize) != 0 ||
        read_precisions(root, path, &s, err, errsize) != 0 || read_arrays(root, path, &s, err, errsize) != 0 ||
        read_named(root, path, &s, w, err, errsize) != 0 || read_model_key(root, path, &s, w, err, errsize) != 0)
        goto done;
    const char *known[] = {"version", "chip", "precision", "kv_precision", "act_precision", "step_times_s", "latency_model", "engine", "model",
                           "spec_draft", "spec_accept_by_position",
                           "recompute", "flops_convention", "unfused_attention", NULL};
    for (const cJSON *c = root->child; c; c = c->next)
        if (!in_names(c->string, known) && !knob_by_key(c->string))
            warn_add(w, "%s: unknown key '%s' ignored", path, c->string);
    char why[256];
    if (scenario_check(&s, why, sizeof why) != 0) {
        name_the_key(why, path, err, errsize);
        goto done;
    }
    *out = s;
    status = 0;
done:
    cJSON_Delete(root);
    return status;
}
