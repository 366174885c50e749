/* analysis.c — composes the guide's formulas into one analysis. */
#include "analysis.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *params_source_name(enum rt_params_source src)
{
    switch (src) {
    case RT_PARAMS_STATED:
        return "stated";
    case RT_PARAMS_GIVEN:
        return "given";
    default:
        return "shape";
    }
}

/* Appends one assumption sentence to the analysis' notes (dropped when full). */
static void add_note(struct analysis *a, const char *fmt, ...)
{
    if (a->note_count >= RT_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->notes[a->note_count++], RT_NOTE_MAX, fmt, ap);
    va_end(ap);
}

/* Places one phase on the roofline; returns -1 when its figures are invalid. */
static int add_placement(struct analysis *a, const char *name, const char *phase, double flops, double bytes)
{
    if (a->placement_count >= RT_MAX_PLACEMENTS)
        return 0;
    struct placement *p = &a->placements[a->placement_count];
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->phase, sizeof p->phase, "%s", phase);
    p->flops = flops;
    p->bytes = bytes;
    if (roofline_report(flops, bytes, a->peak_flops_per_s, a->hbm_bytes_per_s, &p->roof) != 0)
        return -1;
    a->placement_count++;
    return 0;
}

/* Resolves peak, bandwidth and capacity per chip, honouring overrides. */
static void resolve_hardware(const struct scenario *s, struct analysis *a)
{
    const struct chip_spec *c = &s->chip;
    a->compute_precision = s->precision;
    if (!(c->peak_flops_per_s[s->precision] > 0.0)) {
        a->compute_precision = RT_BF16;
        a->weight_only_quantization = true;
    }
    a->peak_flops_per_s = s->peak_flops_override > 0.0 ? s->peak_flops_override
                                                       : c->peak_flops_per_s[a->compute_precision];
    a->hbm_bytes_per_s = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : c->hbm_bytes_per_s;
    a->hbm_bytes = s->hbm_bytes_override > 0.0 ? s->hbm_bytes_override : c->hbm_bytes;
    a->ridge_flop_per_byte = ridge_point(a->peak_flops_per_s, a->hbm_bytes_per_s);
    if (a->weight_only_quantization)
        add_note(a, "%s has no native %s peak: weights are stored at %s and the matmuls run at the bf16 peak "
                    "(weight-only quantization).",
                 c->key, precision_name(s->precision), precision_name(s->precision));
    if (s->peak_flops_override > 0.0 || s->hbm_bytes_per_s_override > 0.0 || s->hbm_bytes_override > 0.0)
        add_note(a, "Chip figures overridden on the command line: the %s datasheet values are not used.", c->key);
}

/* Resolves total and active parameters from --params, a stated count or the shape. */
static void resolve_params(const struct scenario *s, struct analysis *a)
{
    a->shape_count = model_param_count(&s->model);
    if (s->params > 0.0) {
        a->params = a->active_params = s->params;
        a->params_source = RT_PARAMS_GIVEN;
    } else if (s->model.stated_params > 0.0) {
        a->params = a->active_params = s->model.stated_params;
        a->params_source = RT_PARAMS_STATED;
    } else {
        a->params = a->shape_count.total;
        a->active_params = a->shape_count.active;
        a->params_source = RT_PARAMS_SHAPE;
    }
    if (a->active_params < a->params) {
        char active[24], total[24];
        add_note(a, "Mixture of experts: FLOPs use the %s active parameters; memory and the napkin's decode "
                    "read use all %s (every expert read each step).",
                 format_count(active, sizeof active, a->active_params), format_count(total, sizeof total, a->params));
    }
}

/* The napkin turn of scenario s on the resolved hardware. */
static struct napkin_turn napkin_of(const struct scenario *s, const struct analysis *a)
{
    struct napkin_turn t = {
        .prefill_tokens = (double)s->prefill_tokens * (double)s->batch,
        .decode_tokens = (double)s->decode_tokens,
        .flop_params = a->active_params,
        .byte_params = a->params,
        .bytes_per_param = a->bytes_per_weight,
        .peak_flops_per_s = a->peak_flops_per_s,
        .hbm_bytes_per_s = a->hbm_bytes_per_s,
        .mfu_fraction = s->mfu,
        .overhead_s = s->overhead_s,
    };
    return t;
}

/* Fills the latency verdict; returns -1 with err set on failure. */
static int analyze_latency(const struct scenario *s, struct analysis *a, char *err, size_t errsize)
{
    struct napkin_turn t = napkin_of(s, a);
    struct latency_verdict *l = &a->latency;
    double n = (double)s->chips;
    l->prefill_s = prefill_seconds(t.prefill_tokens, t.flop_params, t.peak_flops_per_s, n, t.mfu_fraction);
    l->decode_s = decode_seconds(t.decode_tokens, t.byte_params, t.bytes_per_param, t.hbm_bytes_per_s, n);
    l->overhead_s = s->overhead_s;
    l->total_s = interactive_latency(l->prefill_s, l->decode_s, l->overhead_s);
    l->budget_s = s->budget_s;
    l->ok = l->total_s <= l->budget_s;
    l->max_chips = s->max_chips;
    l->prefill_flops = 2.0 * t.flop_params * t.prefill_tokens;
    l->decode_bytes = t.decode_tokens * t.byte_params * t.bytes_per_param;
    return chips_for_latency_budget(&t, s->budget_s, s->max_chips, &l->chips_for_budget, err, errsize);
}

/* Fills the memory verdict. */
static void analyze_memory(const struct scenario *s, struct analysis *a)
{
    const struct model_shape *m = &s->model;
    struct memory_verdict *mv = &a->memory;
    mv->weights_bytes = a->params * a->bytes_per_weight;
    mv->weights_fit_chips = weights_fit_chips(a->params, a->bytes_per_weight, a->hbm_bytes);
    mv->hbm_total_bytes = (double)s->chips * a->hbm_bytes;
    mv->kv_cache_bytes_per_token = (double)m->layers * model_kv_elements_per_token_per_layer(m) * a->bytes_per_kv_element;
    mv->kv_cache_bytes_per_request = model_kv_bytes_per_request(m, (double)s->context_tokens, a->bytes_per_kv_element);
    mv->kv_cache_bytes = mv->kv_cache_bytes_per_request * (double)s->batch;
    mv->free_bytes = mv->hbm_total_bytes - mv->weights_bytes - s->reserve_bytes;
    mv->weights_fit = mv->free_bytes >= 0.0;
    mv->batch_fits = mv->free_bytes >= mv->kv_cache_bytes;
    if (m->sliding_window > 0 && m->sliding_layers > 0 && s->context_tokens > m->sliding_window)
        add_note(a, "%lld of %lld layers use a %lld-token sliding window: they cache at most that many tokens; "
                    "KV bytes per token are quoted before the window, per request after it.",
                 (long long)m->sliding_layers, (long long)m->layers, (long long)m->sliding_window);
    if (m->kv_lora_rank > 0)
        add_note(a, "Latent attention: each layer caches a %lld-wide latent plus a %lld-wide rotary key per token, "
                    "not full K and V.",
                 (long long)m->kv_lora_rank, (long long)m->qk_rope_head_dim);
    double requests = mv->free_bytes > 0.0 ? floor(mv->free_bytes / mv->kv_cache_bytes_per_request) : 0.0;
    mv->max_concurrent_requests = requests >= 9.2e18 ? INT64_MAX : (int64_t)requests;
}

/* Places prefill, decode and a training step on the roofline. */
static int analyze_placements(const struct scenario *s, struct analysis *a)
{
    double weight_bytes = a->params * a->bytes_per_weight;
    double prefill_tokens = (double)s->prefill_tokens * (double)s->batch;
    double batch = (double)s->batch;
    /* Prefill with zero prompt tokens has nothing to place. */
    if (prefill_tokens > 0.0 &&
        add_placement(a, "prefill", "prefill", 2.0 * a->active_params * prefill_tokens, weight_bytes) != 0)
        return -1;
    double decode_bytes = weight_bytes + a->memory.kv_cache_bytes;
    if (add_placement(a, "decode", "decode", 2.0 * a->active_params * batch, decode_bytes) != 0)
        return -1;
    a->decode_batch_intensity_flop_per_byte = a->placements[a->placement_count - 1].roof.intensity_flop_per_byte;
    double train_tokens = batch * (double)s->context_tokens;
    if (add_placement(a, "training step", "training", 6.0 * a->active_params * train_tokens, 3.0 * weight_bytes) != 0)
        return -1;
    return 0;
}

/* True when every double the views print is finite. */
static bool all_finite(const struct analysis *a)
{
    const double v[] = {a->peak_flops_per_s, a->hbm_bytes_per_s, a->hbm_bytes, a->ridge_flop_per_byte, a->params,
                        a->active_params, a->latency.prefill_s, a->latency.decode_s, a->latency.total_s,
                        a->latency.prefill_flops, a->latency.decode_bytes, a->memory.weights_bytes,
                        a->memory.hbm_total_bytes, a->memory.kv_cache_bytes_per_token,
                        a->memory.kv_cache_bytes_per_request, a->memory.kv_cache_bytes, a->memory.free_bytes,
                        a->decode_batch_intensity_flop_per_byte, a->gqa_saving, a->tile_efficiency_d_model,
                        a->tile_efficiency_d_ff, a->tile_efficiency_d_head, a->hfu, a->mfu_budget.mfu};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]))
            return false;
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (!isfinite(p->flops) || !isfinite(p->bytes) || !isfinite(p->roof.intensity_flop_per_byte) ||
            !isfinite(p->roof.attainable_flops_per_s) || !isfinite(p->roof.fraction_of_peak))
            return false;
    }
    return true;
}

int analyze(const struct scenario *s, struct analysis *out, char *err, size_t errsize)
{
    if (scenario_check(s, err, errsize) != 0)
        return -1;
    struct analysis *a = out;
    memset(a, 0, sizeof *a);
    resolve_hardware(s, a);
    resolve_params(s, a);
    a->bytes_per_weight = precision_bytes(s->precision);
    a->bytes_per_kv_element = precision_bytes(s->kv_precision);

    if (analyze_latency(s, a, err, errsize) != 0)
        return -1;
    analyze_memory(s, a);
    if (analyze_placements(s, a) != 0) {
        snprintf(err, errsize, "the scenario's phases cannot be placed on the roofline");
        return -1;
    }

    const struct model_shape *m = &s->model;
    a->gqa_saving = gqa_saving((double)m->heads, (double)m->kv_heads);
    a->tile_efficiency_d_model = tile_efficiency(m->d_model, s->tile);
    a->tile_efficiency_d_ff = tile_efficiency(m->d_ff, s->tile);
    a->tile_efficiency_d_head = tile_efficiency(m->d_head, s->tile);

    if (s->has_step_times) {
        if (mfu_budget(s->step_times_s, &a->mfu_budget) != 0) {
            snprintf(err, errsize, "--step-times must be non-negative seconds, not all zero");
            return -1;
        }
        a->has_mfu_budget = true;
        a->hfu = a->mfu_budget.mfu * s->recompute_factor;
    }

    add_note(a, "Napkin model (the guide's ch. 5-6): prefill is 2N FLOPs per token at %.0f%% of peak; decode "
                "reads every weight once per step and ignores the KV-cache read.",
             s->mfu * 100.0);
    if (!all_finite(a)) {
        snprintf(err, errsize, "the scenario's figures overflow: make the values smaller");
        return -1;
    }
    return 0;
}
