/* analysis.c — composes the guide's formulas into one analysis. */
#include "analysis.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "parallel.h"
#include "serving.h"

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

/* Records one note (notes.h: a code and its values; the reports word it),
 * dropped when the notes are full. NOTE(a, CODE, NOTE_INT(x), ...) gives
 * the values, NOTE0(a, CODE) a note that has none. */
static void add_note(struct analysis *a, enum rt_note_code code, const struct rt_note_arg *args, int argc)
{
    if (a->note_count >= RT_MAX_NOTES)
        return;
    note_record(&a->notes[a->note_count++], code, args, argc);
}

#define NOTE(a, code, ...)                                                                                          \
    add_note(a, RT_NOTE_##code, (const struct rt_note_arg[]){__VA_ARGS__},                                           \
             (int)(sizeof((const struct rt_note_arg[]){__VA_ARGS__}) / sizeof(struct rt_note_arg)))
#define NOTE0(a, code) add_note(a, RT_NOTE_##code, NULL, 0)

/* Copies NUL-terminated src into dst (size bytes, always terminated). The
 * two live in one struct analysis, which gcc's -Wrestrict mistakes for an
 * overlap when snprintf is inlined at -O1. */
static void copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memmove(dst, src, n);
    dst[n] = '\0';
}

/* Places one phase on the roofline; returns -1 when its figures are invalid. */
static int add_placement(struct analysis *a, const char *name, const char *phase, double flops, double bytes)
{
    if (a->placement_count >= RT_MAX_PLACEMENTS)
        return 0;
    struct placement *p = &a->placements[a->placement_count];
    memset(p, 0, sizeof *p);
    copy_text(p->name, sizeof p->name, name);
    copy_text(p->phase, sizeof p->phase, phase);
    p->flops = flops;
    p->bytes = bytes;
    if (roofline_report(flops, bytes, a->peak_flops_per_s, a->hbm_bytes_per_s, &p->roof) != 0)
        return -1;
    a->placement_count++;
    return 0;
}

enum rt_precision analysis_compute_precision(const struct scenario *s)
{
    const struct chip_spec *c = &s->chip;
    enum rt_precision w = s->precision;
    if (s->act_precision != RT_PRECISION_AUTO)
        return (int)s->act_precision >= 0 && s->act_precision < RT_PRECISION_COUNT ? s->act_precision : RT_BF16;
    if ((int)w < 0 || w >= RT_PRECISION_COUNT || w == RT_INT4)
        return RT_BF16;
    bool native = c->peak_flops_per_s[w] > 0.0 && c->peak_flops_per_s[w] >= c->peak_flops_per_s[RT_BF16];
    return native ? w : RT_BF16;
}

/* The note saying how the weights' and the matmuls' precisions meet:
 * weight-only (W8A16, W4A16) and why, mixed (W4A8), or a block format's
 * scales when both are one. None for plain weights at their own peak. */
/* The note saying the context runs past what the model was built for. */
static void note_context(const struct scenario *s, struct analysis *a)
{
    int64_t most = s->model.max_context, asked = s->context_tokens > s->prefill_tokens ? s->context_tokens
                                                                                       : s->prefill_tokens;
    if (most > 0 && asked > most)
        NOTE(a, CONTEXT_PAST_MODEL, NOTE_INT(asked), NOTE_INT(most));
}

static void note_precisions(const struct scenario *s, struct analysis *a)
{
    const struct chip_spec *c = &s->chip;
    enum rt_precision w = s->precision, m = a->compute_precision;
    const struct model_shape *ms = &s->model;
    bool kv_differs = ms->checkpoint_kv_quantized && ms->checkpoint_kv_precision != (int)s->kv_precision;
    if (ms->checkpoint_quantized && (ms->checkpoint_precision != (int)w || kv_differs))
        NOTE(a, CHECKPOINT_PRECISION_OVERRIDDEN, NOTE_TEXT(precision_name((enum rt_precision)ms->checkpoint_precision)),
             NOTE_TEXT(ms->checkpoint_kv_quantized ? " and a " : ""),
             NOTE_TEXT(ms->checkpoint_kv_quantized ? precision_name((enum rt_precision)ms->checkpoint_kv_precision)
                                                   : ""),
             NOTE_TEXT(ms->checkpoint_kv_quantized ? " KV cache" : ""), NOTE_TEXT(precision_name(w)),
             NOTE_TEXT(precision_name(s->kv_precision)));
    if (w == m) {
        if (precision_scale_text(w)[0])
            NOTE(a, BLOCK_SCALED_PRECISION, NOTE_TEXT(precision_name(w)), NOTE_TEXT(precision_scale_text(w)),
                 NOTE_REAL(precision_bytes(w) * 8.0), NOTE_REAL(precision_activation_bytes(w)),
                 NOTE_TEXT(precision_name(m)));
        return;
    }
    if (m != RT_BF16)
        NOTE(a, WEIGHTS_DEQUANTIZED, NOTE_SMALL(precision_nominal_bits(w)), NOTE_SMALL(precision_nominal_bits(m)),
             NOTE_REAL(precision_bytes(w) * 8.0), NOTE_TEXT(precision_name(w)), NOTE_TEXT(precision_name(m)),
             NOTE_TEXT(precision_name(m)), NOTE_REAL(precision_activation_bytes(m)),
             NOTE_TEXT(precision_activation_bytes(m) == 1.0 ? "" : "s"));
    else if (s->act_precision == RT_BF16 && s->model.checkpoint_weight_only &&
             s->model.checkpoint_precision == (int)w)
        NOTE(a, WEIGHT_ONLY_CHECKPOINT, NOTE_SMALL(precision_nominal_bits(w)), NOTE_SMALL(precision_nominal_bits(m)),
             NOTE_REAL(precision_bytes(w) * 8.0), NOTE_TEXT(precision_name(w)));
    else if (s->act_precision == RT_BF16)
        NOTE(a, WEIGHT_ONLY_ASKED, NOTE_SMALL(precision_nominal_bits(w)), NOTE_SMALL(precision_nominal_bits(m)),
             NOTE_REAL(precision_bytes(w) * 8.0), NOTE_TEXT(precision_name(w)));
    else if (w == RT_INT4)
        NOTE0(a, INT4_WEIGHT_ONLY);
    else if (c->peak_flops_per_s[w] > 0.0)
        NOTE(a, NATIVE_PEAK_SLOWER, NOTE_TEXT(c->key), NOTE_TEXT(precision_name(w)),
             NOTE_SI(c->peak_flops_per_s[w], "FLOP/s"), NOTE_SI(c->peak_flops_per_s[RT_BF16], "FLOP/s"),
             NOTE_SMALL(precision_nominal_bits(w)), NOTE_SMALL(precision_nominal_bits(m)),
             NOTE_REAL(precision_bytes(w) * 8.0), NOTE_TEXT(precision_name(w)));
    else
        NOTE(a, NO_NATIVE_PEAK, NOTE_TEXT(c->key), NOTE_TEXT(precision_name(w)), NOTE_SMALL(precision_nominal_bits(w)),
             NOTE_SMALL(precision_nominal_bits(m)), NOTE_REAL(precision_bytes(w) * 8.0), NOTE_TEXT(precision_name(w)));
}

/* Resolves peak, bandwidth and capacity per chip, honouring overrides. */
static void resolve_hardware(const struct scenario *s, struct analysis *a)
{
    const struct chip_spec *c = &s->chip;
    a->compute_precision = analysis_compute_precision(s);
    a->weight_only_quantization = a->compute_precision == RT_BF16 && s->precision != RT_BF16;
    a->peak_flops_per_s = s->peak_flops_override > 0.0 ? s->peak_flops_override
                                                       : c->peak_flops_per_s[a->compute_precision];
    a->hbm_bytes_per_s = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : c->hbm_bytes_per_s;
    a->hbm_bytes = s->hbm_bytes_override > 0.0 ? s->hbm_bytes_override : c->hbm_bytes;
    a->ridge_flop_per_byte = ridge_point(a->peak_flops_per_s, a->hbm_bytes_per_s);
    note_precisions(s, a);
    note_context(s, a);
    if (c->sparse_halved)
        NOTE(a, SPARSE_PEAKS_HALVED, NOTE_TEXT(c->key));
    if (s->peak_flops_override > 0.0 || s->hbm_bytes_per_s_override > 0.0 || s->hbm_bytes_override > 0.0) {
        /* the figures overridden, named in a list: "peak, HBM bandwidth" */
        const char *names[3] = {"peak", "HBM bandwidth", "HBM capacity"};
        const bool given[3] = {s->peak_flops_override > 0.0, s->hbm_bytes_per_s_override > 0.0,
                               s->hbm_bytes_override > 0.0};
        char list[64] = "";
        for (int i = 0, used = 0; i < 3; i++)
            if (given[i])
                used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", used ? ", " : "", names[i]);
        NOTE(a, CHIP_OVERRIDDEN, NOTE_TEXT(c->key), NOTE_TEXT(list));
    }
}

static enum rt_kernel_format scenario_kernel_format(const struct scenario *s, const struct analysis *a)
{
    return kernel_format_for(s->precision, a->compute_precision);
}

/* One operation alone (--op): the spec's shape with the scenario's figures
 * where it gave none, timed by the kernel models on one chip. */
static int analyze_operation(const struct scenario *s, struct analysis *a, char *err, size_t errsize)
{
    struct operation_figures *o = &a->operation;
    o->set = true;
    struct kernel_shape k = s->op.shape;
    const struct model_shape *m = &s->model;
    if (!s->op.format_given)
        k.format = k.kind == RT_KERNEL_GEMM || k.kind == RT_KERNEL_MOE ? scenario_kernel_format(s, a) : RT_KF_BF16;
    if (!s->op.kv_given)
        k.kv_fp8 = s->kv_precision == RT_FP8;
#define FILL(field, value)                                                                                             \
    do {                                                                                                               \
        if (!(k.field > 0.0))                                                                                          \
            k.field = (double)(value);                                                                                 \
    } while (0)
    switch (k.kind) {
    case RT_KERNEL_GEMM: /* the guide's ch. 3 matmul */
        FILL(m, 8192);
        FILL(n, 8192);
        FILL(k, 8192);
        break;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA: case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA:
        FILL(batch, s->batch);
        FILL(heads, m->heads);
        FILL(kv_heads, m->kv_lora_rank > 0 ? 1 : m->kv_heads);
        FILL(head_dim, m->d_head);
        if (k.kind == RT_KERNEL_ATTENTION || k.kind == RT_KERNEL_MLA)
            FILL(seq, s->prefill_tokens > 0 ? s->prefill_tokens : s->context_tokens);
        else
            FILL(kv_len, s->context_tokens);
        break;
    case RT_KERNEL_MOE:
        FILL(tokens, s->batch);
        FILL(hidden, m->d_model);
        FILL(inter, m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff);
        FILL(topk, m->experts_per_token > 0 ? m->experts_per_token : 1);
        FILL(experts, m->experts > 0 ? m->experts : 1);
        FILL(moe_tp, scenario_tp(s));
        FILL(moe_ep, s->ep);
        break;
    default: /* one decode step's all-reduce of the activations */
        FILL(gpus, s->chips > 1 ? (double)s->chips : 8.0); /* a collective needs two; one node's eight */
        FILL(message_bytes, (double)s->batch * (double)m->d_model * 2.0);
        break;
    }
#undef FILL
    o->shape = k;
    char why[200];
    if (kernel_shape_check(&k, why, sizeof why) != 0) {
        snprintf(err, errsize, "--op %s: %s", kernel_kind_name(k.kind), why);
        return -1;
    }
    const struct kernel_view *view = &a->hw.kview; /* resolved once (detailed.c hw_rates_kernels) */
    kernel_chip_of(&s->chip, view, &o->chip);
    if (s->peak_flops_override > 0.0) /* --peak-flops replaces the peak the op's matmuls run at */
        o->chip.peak_flops_per_s[kernel_format_rate(k.format)] = s->peak_flops_override;
    if (s->hbm_bytes_per_s_override > 0.0)
        o->chip.hbm_bytes_per_s = s->hbm_bytes_per_s_override;
    o->engine = kernel_engine_for(s->engine.name, &o->engine_guessed);
    /* SGLang's MoE benchmark feeds rank 0 its own tokens only (kernels.h rank0_only). */
    o->shape.rank0_only = k.kind == RT_KERNEL_MOE && k.warm_cache && o->engine == RT_KE_SGLANG;
    k.rank0_only = o->shape.rank0_only;
    o->shape.engine = k.engine = o->engine;
    struct link_choice link = {0};
    bool collective = kernel_kind_is_collective(k.kind);
    if (collective) { /* past the chip's scale-up domain, the scale-out link and its hop a step (parallel.h) */
        link = link_for_group(&s->chip, k.gpus);
        if (link.one_way_bytes_per_s > 0.0)
            o->chip.link_bytes_per_s = link.one_way_bytes_per_s;
    }
    kernel_estimate(&k, &o->chip, view, o->engine, &o->estimate);
    if (collective && link.extra_step_s > 0.0) {
        double hops_s = kernel_collective_hop_steps(k.kind, k.gpus) * link.extra_step_s;
        o->estimate.realistic_s += hops_s;
        o->estimate.fixed_s += hops_s;
    }
    snprintf(o->profile_from, sizeof o->profile_from, "%s", view->from);
    o->profile_measured = view->measured;
    const struct kernel_estimate *e = &o->estimate;
    o->intensity_flop_per_byte = e->bytes > 0.0 ? e->flops / e->bytes : 0.0;
    o->realistic_flops_per_s = e->realistic_s > 0.0 ? e->flops / e->realistic_s : 0.0;
    o->floor_flops_per_s = e->floor_s > 0.0 ? e->flops / e->floor_s : 0.0;
    o->fraction_of_peak = e->peak_flops_per_s > 0.0 ? o->realistic_flops_per_s / e->peak_flops_per_s : 0.0;
    o->ridge_flop_per_byte = e->peak_flops_per_s > 0.0 ? ridge_point(e->peak_flops_per_s, o->chip.hbm_bytes_per_s) : 0.0;
    o->compute_bound = e->peak_flops_per_s > 0.0 && o->intensity_flop_per_byte >= o->ridge_flop_per_byte;
    return 0;
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
        NOTE(a, MOE_ACTIVE_PARAMS, NOTE_COUNT(a->active_params), NOTE_COUNT(a->params));
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

/* floor(free / per_request) as a count, "unlimited" (INT64_MAX) when a
 * request holds nothing, 0 when nothing is free. */
static int64_t requests_fitting(double free_bytes, double per_request_bytes)
{
    if (!(free_bytes > 0.0))
        return 0;
    double requests = per_request_bytes > 0.0 ? floor(free_bytes / per_request_bytes) : 9.3e18;
    return requests >= 9.2e18 ? INT64_MAX : (int64_t)requests;
}

/* The widest activation one token holds inside a layer on one of tp
 * chips: the residual stream in and out, the QKV output, and the MLP's
 * intermediate (up and gate) or the routed experts' k of them. Elements. */
static double layer_activation_width(const struct model_shape *m, const struct param_count *pc, double tp)
{
    double d = (double)m->d_model;
    double o = (double)m->heads * (double)model_v_head_dim(m) * d; /* the output projection, not live with QKV */
    double qkv = pc->attention_per_layer > o ? (pc->attention_per_layer - o) / d : 0.0;
    double up = m->gated_mlp ? 2.0 : 1.0, ff = 0.0;
    for (int k = 0; k < m->kind_count; k++) {
        const struct layer_kind *lk = &m->kinds[k];
        double w;
        if (lk->no_mlp)
            w = 0.0;
        else if (lk->moe)
            w = (double)m->experts_per_token * (double)(m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff) +
                (double)m->shared_experts * (double)(m->shared_d_ff > 0 ? m->shared_d_ff
                                                      : m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff);
        else
            w = (double)(lk->d_ff > 0 ? lk->d_ff : m->d_ff);
        ff = fmax(ff, w);
    }
    return 2.0 * d + (qkv + up * ff) / tp;
}

/* The smallest power of two >= latency_chips on which the weights, the
 * reserve and the batch's KV cache fit; 0 when latency_chips is 0 (none) or
 * the count would pass max_chips. */
static int64_t holding_chips(const struct scenario *s, const struct analysis *a, int64_t latency_chips)
{
    if (latency_chips <= 0)
        return 0;
    const struct model_shape *m = &s->model;
    int64_t n = latency_chips;
    for (;;) {
        /* Per chip: its shard of the weights, the reserve and the state; its KV heads (copied past kv_heads). */
        double kv_share = model_kv_share_per_chip(m, (double)s->context_tokens, (double)n);
        double act = a->memory.per_chip.activation_tokens *
                     layer_activation_width(m, &a->shape_count, (double)n) * a->memory.per_chip.activation_bytes_per_element;
        double need = (a->memory.weights_bytes + s->reserve_bytes + a->memory.state_bytes) / (double)n +
                      a->memory.kv_cache_bytes * kv_share + act;
        if (need <= a->hbm_bytes)
            break;
        if (n > s->max_chips / 2)
            return 0;
        n *= 2;
    }
    return n;
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
    l->ok = l->total_s <= l->budget_s && a->memory.batch_fits; /* a turn that cannot be held cannot run */
    l->max_chips = s->max_chips;
    l->prefill_flops = 2.0 * t.flop_params * t.prefill_tokens;
    l->decode_bytes = t.decode_tokens * t.byte_params * t.bytes_per_param;
    if (chips_for_latency_budget(&t, s->budget_s, s->max_chips, &l->chips_for_budget, err, errsize) != 0)
        return -1;
    l->chips_for_budget = holding_chips(s, a, l->chips_for_budget);
    return 0;
}

/* The speculative draft's parameters: the scenario's, or one layer of the
 * target's active parameters (a multi-token-prediction head). */
static double spec_draft_params(const struct scenario *s, const struct analysis *a)
{
    return s->spec_draft_params > 0.0 ? s->spec_draft_params : a->active_params / (double)s->model.layers;
}

/* Memory on the busiest chip of the layout, and the requests that fit
 * (parallel.h): the stage with the most layers and an end of the model, one
 * tensor-parallel rank of one expert-parallel group. */
static void analyze_chip_memory(const struct scenario *s, struct analysis *a)
{
    const struct model_shape *m = &s->model;
    struct memory_verdict *mv = &a->memory;
    struct chip_memory *cm = &mv->per_chip;
    double tp = (double)scenario_tp(s), pp = (double)s->pp, ep = (double)s->ep, L = (double)m->layers;
    double chips = (double)s->chips;
    /* The shape's split, scaled to the count in use (--params, a stated count). */
    const struct param_count *pc = &a->shape_count;
    double scale = pc->total > 0.0 ? a->params / pc->total : 1.0;
    double moe_layers = 0.0;
    for (int k = 0; k < m->kind_count; k++)
        if (m->kinds[k].moe && !m->kinds[k].no_mlp)
            moe_layers += (double)m->kinds[k].count;
    double routed = moe_layers * (double)m->experts * pc->mlp_per_expert;
    double head = m->tied_embeddings ? pc->embedding : pc->lm_head;
    double ends = pp > 1.0 ? fmax(pc->embedding, head) : pc->embedding + pc->lm_head;
    double layered = pc->total - pc->embedding - pc->lm_head - routed;
    double stage = pipeline_stage_layers(L, pp) / L; /* the busiest stage's share of the layers */
    cm->weights_bytes = (layered * stage / tp + routed * stage / (tp * ep) + ends / tp) * scale * a->bytes_per_weight;
    if (s->spec_tokens > 0) /* the draft (or MTP head) sits beside the target, split over the same tp chips */
        cm->weights_bytes += spec_draft_params(s, a) * a->bytes_per_weight / tp;
    double kv_units = m->kv_lora_rank > 0 ? 1.0 : (double)m->kv_heads;
    double kv_share = model_kv_share_per_chip(m, (double)s->context_tokens, tp);
    mv->kv_replication = model_mixed_geometry(m) ? kv_share * tp : kv_replication(kv_units, tp);
    cm->kv_cache_bytes_per_request =
        (mv->kv_cache_bytes_per_request * kv_share + mv->state_bytes_per_request / tp) * stage;
    double group_batch = ceil((double)s->batch / ep);
    cm->kv_cache_bytes = mv->kv_cache_bytes_per_request * kv_share * stage * group_batch;
    cm->state_bytes = mv->state_bytes_per_request / tp * stage * group_batch;
    double act_tokens = s->activation_tokens > 0 ? (double)s->activation_tokens
                        : fmax(1.0, fmin((double)s->prefill_tokens, (double)RT_DEFAULT_ACTIVATION_TOKENS));
    cm->activation_tokens = act_tokens;
    cm->activation_bytes_per_element = precision_activation_bytes(a->compute_precision);
    cm->activation_bytes = act_tokens * layer_activation_width(m, pc, tp) * cm->activation_bytes_per_element;
    cm->reserve_bytes = s->reserve_bytes / chips;
    double room = a->hbm_bytes - cm->weights_bytes - cm->reserve_bytes; /* the guide's rule: no workspace */
    cm->free_bytes = room - cm->activation_bytes - cm->kv_cache_bytes - cm->state_bytes;
    int64_t per_group = requests_fitting(room, cm->kv_cache_bytes_per_request);
    int64_t per_group_ws = requests_fitting(room - cm->activation_bytes, cm->kv_cache_bytes_per_request);
    mv->max_concurrent_requests = per_group > INT64_MAX / s->ep ? INT64_MAX : per_group * s->ep;
    cm->max_concurrent_requests = per_group_ws;
    mv->max_concurrent_requests_after_workspace = per_group_ws > INT64_MAX / s->ep ? INT64_MAX : per_group_ws * s->ep;
    mv->weights_fit = mv->weights_fit && room - cm->activation_bytes >= 0.0;
    mv->batch_fits = mv->weights_fit && cm->free_bytes >= 0.0;
}

/* Fills the memory verdict, layer kind by layer kind. */
static void analyze_memory(const struct scenario *s, struct analysis *a)
{
    const struct model_shape *m = &s->model;
    struct memory_verdict *mv = &a->memory;
    mv->weights_bytes = a->params * a->bytes_per_weight;
    mv->weights_fit_chips = weights_fit_chips(a->params, a->bytes_per_weight, a->hbm_bytes);
    mv->hbm_total_bytes = (double)s->chips * a->hbm_bytes;
    mv->kv_cache_bytes_per_token = model_kv_bytes_per_token(m, a->bytes_per_kv_element);
    mv->kv_cache_bytes_per_request = model_kv_bytes_per_request(m, (double)s->context_tokens, a->bytes_per_kv_element);
    mv->kv_cache_bytes = mv->kv_cache_bytes_per_request * (double)s->batch;
    mv->state_bytes_per_request = model_state_bytes_per_request(m, a->bytes_per_kv_element);
    mv->state_bytes = mv->state_bytes_per_request * (double)s->batch;
    mv->free_bytes = mv->hbm_total_bytes - mv->weights_bytes - s->reserve_bytes;
    mv->weights_fit = mv->free_bytes >= 0.0;
    mv->batch_fits = mv->free_bytes >= mv->kv_cache_bytes + mv->state_bytes;
    char pattern[160];
    if (!model_all_full_attention(m))
        NOTE(a, LAYER_SCHEDULE_WINDOWED, NOTE_TEXT(model_schedule_summary(m, pattern, sizeof pattern)));
    else if (m->kind_count > 1)
        NOTE(a, LAYER_SCHEDULE, NOTE_TEXT(model_schedule_summary(m, pattern, sizeof pattern)));
    if (mv->state_bytes_per_request > 0.0) {
        char held[96];
        if (m->ssm_state_bytes > 0)
            snprintf(held, sizeof held, "the recurrent state at %lld bytes an element, as the config asks",
                     (long long)m->ssm_state_bytes);
        else
            snprintf(held, sizeof held, "at the KV precision, %s", precision_name(s->kv_precision));
        NOTE(a, FIXED_STATE_LAYERS, NOTE_SI(mv->state_bytes_per_request, "B"), NOTE_TEXT(held));
    }
    if (m->kv_lora_rank > 0)
        NOTE(a, LATENT_ATTENTION, NOTE_INT(m->kv_lora_rank), NOTE_INT(m->qk_rope_head_dim));
    analyze_chip_memory(s, a);
}

/* Decode's intensity ceiling and the batch that reaches the ridge (the
 * fields' comments give the formulas, the limit of the decode row's FLOPs
 * over bytes as the batch grows). Below the ridge, a note says why, where
 * the ceiling is and what each lever would need: the KV a request reads
 * cut ridge / ceiling times, by a shorter context, fewer KV heads, a
 * smaller KV precision or latent attention. */
static void decode_ceiling(const struct scenario *s, struct analysis *a, double weight_bytes)
{
    double batch = (double)s->batch, ridge = a->ridge_flop_per_byte;
    double per_request = (a->memory.kv_cache_bytes + a->memory.state_bytes) / batch;
    double flops = 2.0 * a->active_params;
    a->decode_intensity_ceiling_flop_per_byte = per_request > 0.0 ? flops / per_request : 0.0;
    a->decode_ridge_batch = 0.0;
    double ceiling = a->decode_intensity_ceiling_flop_per_byte;
    if (!(ridge > 0.0))
        return;
    if (per_request <= 0.0 || ceiling > ridge) {
        double need = ridge * weight_bytes / (flops - ridge * per_request);
        a->decode_ridge_batch = need > 1.0 ? ceil(need * (1.0 - 1e-12)) : 1.0;
        return;
    }
    const struct model_shape *m = &s->model;
    double cut = ridge / ceiling;
    char levers[320];
    int n = snprintf(levers, sizeof levers, "%s%.0f tokens of context at most",
                     model_all_full_attention(m) ? "" : "about ", floor((double)s->context_tokens / cut));
    if (m->kv_lora_rank == 0 && m->kv_heads > 1 && n > 0 && (size_t)n < sizeof levers) {
        double heads = floor((double)m->kv_heads / cut);
        if (heads >= 2.0)
            n += snprintf(levers + n, sizeof levers - (size_t)n, ", %.0f KV heads (of %lld)", heads,
                          (long long)m->kv_heads);
        else if (heads >= 1.0)
            n += snprintf(levers + n, sizeof levers - (size_t)n, ", one KV head (MQA, of %lld)",
                          (long long)m->kv_heads);
        else
            n += snprintf(levers + n, sizeof levers - (size_t)n, " (one KV head gives %.0f)",
                          ceiling * (double)m->kv_heads);
    }
    double e = a->bytes_per_kv_element;
    if (e > 1.0 && n > 0 && (size_t)n < sizeof levers)
        n += snprintf(levers + n, sizeof levers - (size_t)n, ", fp8 KV (%.0f FLOP/byte%s)", ceiling * e,
                      ceiling * e > ridge ? "" : ", not enough alone");
    if (m->kv_lora_rank == 0 && n > 0 && (size_t)n < sizeof levers)
        snprintf(levers + n, sizeof levers - (size_t)n, ", or latent attention");
    NOTE(a, DECODE_INTENSITY_LIMIT, NOTE_REAL(ceiling), NOTE_INT(s->context_tokens), NOTE_SI(per_request, "B"),
         NOTE_SI(flops, "FLOP"), NOTE_REAL(ridge), NOTE_REAL(cut), NOTE_TEXT(levers));
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
    double decode_bytes = weight_bytes + a->memory.kv_cache_bytes + a->memory.state_bytes;
    if (add_placement(a, "decode", "decode", 2.0 * a->active_params * batch, decode_bytes) != 0)
        return -1;
    a->decode_batch_intensity_flop_per_byte = a->placements[a->placement_count - 1].roof.intensity_flop_per_byte;
    decode_ceiling(s, a, weight_bytes);
    double train_tokens = batch * (double)s->context_tokens;
    if (add_placement(a, "training step", "training", 6.0 * a->active_params * train_tokens, 3.0 * weight_bytes) != 0)
        return -1;
    return 0;
}

/* The rates the detailed model runs at, per chip. */
static void resolve_rates(const struct scenario *s, struct analysis *a)
{
    struct hw_rates *hw = &a->hw;
    hw->peak_flops_per_s = a->peak_flops_per_s;
    /* Vector units do not speed up with the tensor cores' format: a chip
     * without a vector figure gets 1/50 of its bf16 tensor peak (of
     * --peak-flops when the matmuls run at bf16), whatever the matmuls run at. */
    bool bf16_roof = a->compute_precision == RT_BF16 || !(s->chip.peak_flops_per_s[RT_BF16] > 0.0);
    hw->vector_flops_per_s = s->chip.vector_flops_per_s > 0.0 ? s->chip.vector_flops_per_s
                             : bf16_roof ? a->peak_flops_per_s / 50.0
                                         : s->chip.peak_flops_per_s[RT_BF16] / 50.0;
    hw->hbm_bytes_per_s = a->hbm_bytes_per_s;
    int64_t tp = scenario_tp(s);
    struct link_choice tp_link = link_for_group(&s->chip, (double)tp);
    struct link_choice ep_link = link_for_group(&s->chip, (double)(tp * s->ep));
    struct link_choice replica_link = link_for_group(&s->chip, (double)s->chips);
    hw->link_bytes_per_s = tp_link.one_way_bytes_per_s;
    hw->link_extra_step_s = tp_link.extra_step_s;
    hw->ep_link_extra_step_s = ep_link.extra_step_s;
    hw->ep = (double)s->ep;
    hw->ep_imbalance = s->ep_imbalance;
    hw->moe_ep = (double)s->moe_ep;
    hw->ep_link_bytes_per_s = ep_link.one_way_bytes_per_s;
    struct parallel_figures *pf = &a->parallel;
    pf->tp = tp;
    pf->pp = s->pp;
    pf->ep = s->ep;
    pf->dp = s->data_parallel;
    pf->chips_per_replica = s->chips;
    /* Every chip of the design: the replicas', and a disaggregated prefill pool, which serves them
     * all (the chips tokens_per_s_per_chip divides by). */
    pf->chips_total = s->chips * s->data_parallel + (s->disagg_prefill_chips > 0 ? s->disagg_prefill_chips : 0);
    pf->stage_layers = pipeline_stage_layers((double)s->model.layers, (double)s->pp);
    pf->tp_link_bytes_per_s = tp_link.one_way_bytes_per_s;
    pf->tp_crosses_domain = tp_link.crosses_domain;
    pf->replica_crosses_domain = replica_link.crosses_domain;
    hw->bytes_per_weight = a->bytes_per_weight;
    hw->bytes_per_kv = a->bytes_per_kv_element;
    hw->bytes_per_act = precision_activation_bytes(a->compute_precision); /* the matmuls' inputs */
    hw->bytes_per_stream = hw->bytes_per_act > 2.0 ? hw->bytes_per_act : 2.0;
    hw->n_chips = (double)tp;
    hw->engine = s->engine;
    hw->compute_precision = a->compute_precision;
    hw->kformat = scenario_kernel_format(s, a);
    hw->kv_fp8 = s->kv_precision == RT_FP8;
    hw_rates_kernels(hw, s);
    a->efficiency = hw->eff;
    hw->flop_scale = a->active_params / a->shape_count.active;
    hw->weight_scale = a->params / a->shape_count.total;
    hw_rates_prepare(hw, s);
    if (fabs(hw->weight_scale - 1.0) > 0.01 || fabs(hw->flop_scale - 1.0) > 0.01) {
        NOTE(a, PARAMS_SCALED_TO_SHAPE, NOTE_COUNT(a->params), NOTE_COUNT(a->shape_count.total));
    }
    if (!(s->chip.vector_flops_per_s > 0.0))
        NOTE(a, VECTOR_PEAK_ASSUMED, NOTE_TEXT(s->chip.key), NOTE_TEXT(bf16_roof ? "" : "bf16 "),
             NOTE_REAL(hw->vector_flops_per_s / 1e12));
    if (s->chips > 1 && !(s->chip.interconnect_bytes_per_s > 0.0))
        NOTE(a, NO_INTERCONNECT, NOTE_TEXT(s->chip.key));
    if (tp_link.crosses_domain && !tp_link.scale_out_unknown)
        NOTE(a, TP_SPANS_DOMAINS, NOTE_INT(tp), NOTE_INT(s->chip.scale_up_domain), NOTE_TEXT(s->chip.key),
             NOTE_SI(tp_link.one_way_bytes_per_s, "B/s"));
    if (replica_link.scale_out_unknown)
        NOTE(a, LAYOUT_NO_SCALE_OUT, NOTE_INT(s->chips), NOTE_INT(s->chip.scale_up_domain), NOTE_TEXT(s->chip.key),
             NOTE_TEXT(s->chip.key));
    else if (s->chips > 1 && s->chip.scale_up_domain <= 0 && s->chip.interconnect_bytes_per_s > 0.0)
        NOTE(a, NO_DOMAIN_SIZE, NOTE_TEXT(s->chip.key), NOTE_INT(s->chips));
    if (tp > s->model.heads)
        NOTE(a, TP_EXCEEDS_HEADS, NOTE_INT(tp), NOTE_INT(s->model.heads));
    else if (s->model.heads % tp != 0)
        NOTE(a, TP_NOT_DIVIDING_HEADS, NOTE_INT(tp), NOTE_INT(s->model.heads));
    double kv_units = s->model.kv_lora_rank > 0 ? 1.0 : (double)s->model.kv_heads;
    int64_t fewest = s->model.kv_lora_rank > 0 ? 1 : s->model.kv_heads; /* a kind's own KV heads count too */
    for (int i = 0; i < s->model.kind_count; i++)
        if (mixer_is_attention(s->model.kinds[i].mixer) && s->model.kinds[i].count > 0)
            fewest = s->model.kinds[i].kv_heads > 0 && s->model.kinds[i].kv_heads < fewest ? s->model.kinds[i].kv_heads
                                                                                          : fewest;
    if (model_mixed_geometry(&s->model) && tp > fewest)
        NOTE(a, KV_HEADS_REPLICATED, NOTE_INT(tp), NOTE_INT(fewest), NOTE_REAL(a->memory.kv_replication));
    else if ((double)tp > kv_units)
        NOTE(a, KV_COPIED, NOTE_INT(tp),
             NOTE_TEXT(s->model.kv_lora_rank > 0 ? "one latent per token" : "fewer KV heads"),
             NOTE_TEXT(s->model.kv_lora_rank > 0 ? "latent" : "head"), NOTE_REAL(a->memory.kv_replication),
             NOTE_INT(s->model.kv_lora_rank > 0 ? 1LL : (long long)s->model.kv_heads),
             NOTE_TEXT(kv_units == 1.0 ? "" : "s"));
    if (s->ep > 1)
        NOTE(a, EXPERT_PARALLEL_GROUPS, NOTE_INT(s->ep), NOTE_INT(tp), NOTE_INT(tp * s->ep),
             NOTE_REAL(s->ep_imbalance),
             NOTE_TEXT(s->ep_imbalance == 1.0 ? " (an even load is assumed: --ep-imbalance)" : ""));
}

/* Sums of a phase's operations, per chip. */
struct phase_sums {
    double matrix_flops, matrix_compute_s, vector_compute_s, above_compute_s, above_memory_s;
    double weight_bytes, kv_bytes, act_bytes, bytes;
};

static struct phase_sums sum_phase(const struct phase_cost *pc)
{
    struct phase_sums sum = {0};
    for (int i = 0; i < pc->count; i++) {
        const struct op_cost *op = &pc->ops[i];
        if (op->matrix) {
            sum.matrix_flops += op->flops;
            sum.matrix_compute_s += op->compute_s;
        } else {
            sum.vector_compute_s += op->compute_s;
        }
        sum.above_compute_s += op->time_s - op->compute_s;
        sum.above_memory_s += op->time_s - op->memory_s;
        sum.weight_bytes += op->weight_bytes;
        sum.kv_bytes += op->kv_bytes;
        sum.act_bytes += op->act_bytes;
    }
    sum.bytes = sum.weight_bytes + sum.kv_bytes + sum.act_bytes;
    return sum;
}

/* Appends a named term to a list. */
static void add_term(struct latency_term *terms, int *count, const char *name, double seconds)
{
    if (*count >= RT_MAX_TERMS)
        return;
    copy_text(terms[*count].name, sizeof terms[*count].name, name);
    terms[(*count)++].seconds = seconds;
}

/* The floor's and the realistic estimate's prefill + decode + overhead on
 * hw->n_chips chips, into *floor_s and *realistic_s. */
static void turn_s(const struct scenario *s, const struct hw_rates *hw, double *floor_s, double *realistic_s)
{
    struct phase_cost pc;
    *floor_s = *realistic_s = s->overhead_s;
    if (s->prefill_tokens > 0) {
        phase_costs(s, hw, RT_PHASE_PREFILL, !s->unfused_attention, &pc);
        *floor_s += pc.time_s;
        *realistic_s += pc.realistic_s;
    }
    phase_costs(s, hw, RT_PHASE_DECODE, !s->unfused_attention, &pc);
    *floor_s += pc.time_s * (double)s->decode_tokens;
    *realistic_s += pc.realistic_s * (double)s->decode_tokens;
}

/* One phase's time on the scenario's layout: the tensor-parallel group's
 * pass, through the pipeline, and (decode) speculative decoding. */
struct layout_times {
    double prefill_s, decode_step_s, tpot_s;
};

/* The realistic turn from the phases already costed at the scenario's layout. */
static void fill_realistic(const struct scenario *s, struct analysis *a, const struct layout_times *t)
{
    struct realistic_latency *r = &a->realistic;
    const struct phase_cost *pre = &a->phases[RT_PHASE_PREFILL], *dec = &a->phases[RT_PHASE_DECODE];
    r->prefill_s = s->prefill_tokens > 0 ? t->prefill_s : 0.0;
    r->decode_step_s = t->decode_step_s;
    r->decode_s = t->tpot_s * (double)s->decode_tokens;
    r->ttft_s = r->prefill_s;
    r->tpot_s = t->tpot_s;
    r->overhead_s = s->overhead_s;
    r->total_s = r->prefill_s + r->decode_s + r->overhead_s;
    r->budget_s = s->budget_s;
    r->ok = r->total_s <= r->budget_s && a->memory.batch_fits;
    r->chips_for_budget = 0;
    r->prefill_comms_s = s->prefill_tokens > 0 ? pre->realistic_comms_s : 0.0;
    r->decode_comms_s = dec->realistic_comms_s + a->parallel.pipeline_hops_s;
    r->chip_calibrated = a->hw.eff.calibrated;
    r->engine_calibrated = s->engine.calibrated;
    const struct kernel_view *v = &a->hw.kview;
    r->profile_measured = v->measured;
    copy_text(r->profile_from, sizeof r->profile_from, v->from);
    double level = v->measured ? RT_STEP_ERROR : v->sibling ? RT_STEP_ERROR_BORROWED : RT_KERNEL_FOREIGN_ERROR;
    r->ttft_error_fraction = fmax(level, pre->error_fraction);
    r->tpot_error_fraction = fmax(level, dec->error_fraction);
    /* the overhead is the scenario's own figure: no error of the model's */
    r->total_error_fraction = r->total_s > 0.0 ? (r->prefill_s * r->ttft_error_fraction +
                                                  r->decode_s * r->tpot_error_fraction) / r->total_s
                                               : level;
}

/* A stage-to-stage send of `tokens` tokens' activations: floor (bytes
 * over the link) and realistic (one step of alpha plus the bytes over the
 * achieved link). */
static void hop_s(const struct scenario *s, const struct analysis *a, double tokens, struct link_choice link,
                  double *floor_s, double *real_s)
{
    double bytes = tokens * (double)s->model.d_model * a->hw.bytes_per_stream, one_way = link.one_way_bytes_per_s;
    *floor_s = one_way > 0.0 ? bytes / one_way : 0.0;
    *real_s = one_way > 0.0 ? a->hw.eff.allreduce_step_s + link.extra_step_s + bytes / (a->hw.eff.link * one_way)
                            : 0.0;
}

/* Costs every phase on the scenario's layout (parallel.h) into a->phases,
 * and the prefill, the decode step and the time per output token through
 * the pipeline and speculative decoding, floor and realistic:
 * - prefill: each expert-parallel group runs ceil(batch / ep) sequences;
 *   through pp stages in m micro-batches it takes (1 + (pp - 1) / m) / pp of
 *   one group's whole pass, plus pp - 1 sends of a micro-batch;
 * - decode: the group's sequences in min(pp, them) micro-batches in flight,
 *   so a step is one micro-batch's pass through every stage plus pp - 1
 *   sends, and every sequence advances once a step;
 * - speculative: k draft steps (the draft's share of the target's step
 *   at the tokens a draft pass extends, the engine's fixed time each) and
 *   a verify pass of k + 1 tokens per sequence (a chain), or of a tree's
 *   N nodes (its k levels' drafts extend (N - 1) / k nodes a pass), yield
 *   (1 - a^(k+1)) / (1 - a) tokens, or 1 + the sum of the products of the
 *   acceptances by position. */
static void analyze_layout(const struct scenario *s, struct analysis *a, struct layout_times *fl,
                           struct layout_times *rl)
{
    struct parallel_figures *pf = &a->parallel;
    const bool fused = !s->unfused_attention;
    double e = (double)s->ep, pp = (double)s->pp;
    double group = ceil((double)s->batch / e);
    double in_flight = fmin(pp, group);
    struct hw_rates pre_hw = a->hw, dec_hw = a->hw;
    pre_hw.seqs = e > 1.0 ? group : 0.0;
    dec_hw.seqs = e > 1.0 || pp > 1.0 ? ceil(group / in_flight) : 0.0;
    phase_costs(s, &pre_hw, RT_PHASE_PREFILL, fused, &a->phases[RT_PHASE_PREFILL]);
    phase_costs(s, &dec_hw, RT_PHASE_DECODE, fused, &a->phases[RT_PHASE_DECODE]);
    phase_costs(s, &a->hw, RT_PHASE_TRAINING, fused, &a->phases[RT_PHASE_TRAINING]);
    const struct phase_cost *pre = &a->phases[RT_PHASE_PREFILL], *dec = &a->phases[RT_PHASE_DECODE];

    double m = s->microbatches > 0 ? (double)s->microbatches : group;
    pf->microbatches = m;
    pf->bubble_fraction = pipeline_bubble_fraction(pp, m);
    pf->decode_seqs_per_pass = dec_hw.seqs > 0.0 ? dec_hw.seqs : (double)s->batch;
    pf->decode_microbatches = in_flight;
    double pipe = (1.0 + pf->bubble_fraction) / pp;
    struct link_choice link = link_for_group(&s->chip, (double)s->chips);
    double hop_pre_f = 0.0, hop_pre_r = 0.0, hop_dec_f = 0.0, hop_dec_r = 0.0;
    if (pp > 1.0) {
        hop_s(s, a, group * (double)s->prefill_tokens / m, link, &hop_pre_f, &hop_pre_r);
        hop_s(s, a, pf->decode_seqs_per_pass, link, &hop_dec_f, &hop_dec_r);
    }
    pf->pipeline_hops_s = (pp - 1.0) * hop_dec_r;
    pf->alltoall_s = 0.0;
    if (dec->alltoall_bytes > 0.0 && dec->comms_bytes > 0.0) /* its share of the realistic collectives */
        pf->alltoall_s = dec->realistic_comms_s * (dec->alltoall_bytes / dec->comms_bytes);
    fl->prefill_s = pre->time_s * pipe + (pp - 1.0) * hop_pre_f;
    rl->prefill_s = pre->realistic_s * pipe + (pp - 1.0) * hop_pre_r;
    fl->decode_step_s = fl->tpot_s = dec->time_s + (pp - 1.0) * hop_dec_f;
    rl->decode_step_s = rl->tpot_s = dec->realistic_s + pf->pipeline_hops_s;

    struct speculative_figures *sp = &a->speculative;
    if (s->spec_tokens > 0) {
        double k = (double)s->spec_tokens;
        double nodes = s->spec_verify_tokens > 0 ? (double)s->spec_verify_tokens : k + 1.0;
        struct hw_rates verify_hw = dec_hw;
        verify_hw.query_tokens = nodes;
        struct phase_cost v;
        phase_costs(s, &verify_hw, RT_PHASE_DECODE, fused, &v);
        sp->enabled = true;
        sp->verify_tokens = nodes;
        sp->tokens_per_pass = s->spec_accept_positions > 0
                                  ? spec_tokens_per_pass_by_position(s->spec_accept_by_position, (int)s->spec_tokens)
                                  : spec_tokens_per_pass(k, s->spec_accept);
        sp->draft_params = spec_draft_params(s, a);
        double share = sp->draft_params / a->active_params; /* analyze() refuses a draft as large as the target */
        double step = a->hw.engine.step_s;
        /* a tree's draft passes each extend (N - 1) / k nodes a sequence (a chain's, one) */
        const struct phase_cost *d = dec;
        struct phase_cost wide;
        if (nodes > k + 1.0) {
            struct hw_rates draft_hw = dec_hw;
            draft_hw.query_tokens = (nodes - 1.0) / k;
            phase_costs(s, &draft_hw, RT_PHASE_DECODE, fused, &wide);
            d = &wide;
        }
        double draft_f = d->time_s * share, draft_r = fmax(0.0, d->realistic_s - step) * share + step;
        double verify_f = v.time_s + (pp - 1.0) * hop_dec_f, verify_r = v.realistic_s + pf->pipeline_hops_s;
        sp->draft_step_s = draft_r;
        sp->verify_step_s = verify_r;
        fl->tpot_s = (k * draft_f + verify_f) / sp->tokens_per_pass;
        rl->tpot_s = (k * draft_r + verify_r) / sp->tokens_per_pass;
        sp->tpot_s = rl->tpot_s;
        sp->speedup = rl->decode_step_s / rl->tpot_s;
    }
}

/* A decode step of `seqs` sequences per attention group on scenario s
 * (its context the requests' mean): one micro-batch's pass through every
 * stage plus the stage-to-stage sends, as analyze_layout() times the step. */
static double group_decode_step_s(const struct scenario *s, const struct analysis *a, struct hw_rates *hw,
                                  double seqs)
{
    double pp = (double)s->pp;
    hw->seqs = ceil(seqs / fmin(pp, fmax(1.0, seqs))); /* hw is the caller's scratch copy: no copy a point */
    struct phase_cost pc;
    phase_costs(s, hw, RT_PHASE_DECODE, !s->unfused_attention, &pc);
    double t = pc.realistic_s + a->parallel.pipeline_hops_s;
    if (a->speculative.enabled && a->realistic.decode_step_s > 0.0) /* drafts and verify, as at the batch */
        t *= a->realistic.tpot_s / a->realistic.decode_step_s;
    return t;
}

/* A disaggregated prefill pool's layout: each worker's tensor-parallel and
 * attention-DP degrees (within a box unless told) and the workers' count;
 * hw becomes a worker's rates (its chips, its experts over its own chips:
 * the replica's --moe-ep is the decode side's, its links). */
struct pool_layout {
    double tp, dp, workers;
};

static struct pool_layout serving_pool(const struct scenario *s, struct hw_rates *hw)
{
    struct pool_layout p;
    p.dp = s->disagg_prefill_dp > 1 ? (double)s->disagg_prefill_dp : 1.0;
    p.tp = s->disagg_prefill_tp > 0 ? (double)s->disagg_prefill_tp
           : s->disagg_prefill_dp > 1
               ? 1.0
               : (double)pool_instance_tp(s->disagg_prefill_chips, s->model.heads, s->chip.scale_up_domain);
    p.workers = (double)s->disagg_prefill_chips / (p.tp * p.dp);
    hw->n_chips = p.tp;
    hw->ep = p.dp;
    hw->moe_ep = s->disagg_prefill_moe_ep > 0 ? (double)s->disagg_prefill_moe_ep : 0.0;
    struct link_choice pool_link = link_for_group(&s->chip, p.tp);
    struct link_choice pool_ep_link = link_for_group(&s->chip, p.tp * p.dp);
    hw->link_bytes_per_s = pool_link.one_way_bytes_per_s;
    hw->link_extra_step_s = pool_link.extra_step_s;
    hw->ep_link_bytes_per_s = pool_ep_link.one_way_bytes_per_s;
    hw->ep_link_extra_step_s = pool_ep_link.extra_step_s;
    return p;
}

/* The KV a disaggregated request moves, seconds: what each decode rank
 * holds of it (the memory model's per-chip share: its KV heads, a latent
 * whole, its stage's layers; of which the prompt's tokens move, a fixed
 * state whole), over that rank's own link; its bytes into *bytes. */
static double serving_kv_move_s(const struct scenario *s, const struct analysis *a, double *bytes)
{
    struct link_choice l = link_for_group(&s->chip, (double)s->disagg_prefill_chips + (double)s->chips);
    double state = a->memory.state_bytes_per_request / (double)scenario_tp(s) * a->parallel.stage_layers /
                   (double)s->model.layers;
    double kv = (a->memory.per_chip.kv_cache_bytes_per_request - state) *
                    fmin(1.0, (double)s->prefill_tokens / (double)s->context_tokens) + state;
    *bytes = kv;
    return kv_transfer_s(kv, l.one_way_bytes_per_s, a->hw.eff.allreduce_step_s + l.extra_step_s);
}

/* The decode-step curve at the requests' mean context (the prompt and half
 * the output) into c, for up to `top` sequences an attention group; the
 * context costed into *context_tokens. */
static void serving_decode_curve(const struct scenario *s, const struct analysis *a, double top,
                                 struct serving_costs *c, double *context_tokens)
{
    struct scenario at_mean;
    const struct scenario *sd = s;
    struct hw_rates dh = a->hw;
    double mean_ctx = (double)s->prefill_tokens + 0.5 * (double)s->decode_tokens;
    if (mean_ctx >= 1.0 && mean_ctx < (double)s->context_tokens) {
        at_mean = *s;
        at_mean.context_tokens = (int64_t)ceil(mean_ctx);
        sd = &at_mean;
        hw_rates_prepare(&dh, sd);
    }
    *context_tokens = (double)sd->context_tokens;
    static const double at[] = {1.0 / 64.0, 1.0 / 16.0, 1.0 / 4.0, 1.0 / 2.0, 1.0};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        double n = fmax(1.0, round(top * at[i]));
        if (c->points > 0 && !(n > c->seqs[c->points - 1]))
            continue;
        c->seqs[c->points] = n;
        c->decode_step_s[c->points] = group_decode_step_s(sd, a, &dh, n);
        c->points++;
    }
}

/* Prompts prefilled together (serving.h), 1, 2, 4 ... up to `together`
 * of scenario ps's prompts a pass on hw, through pp stages: their GEMMs
 * run at all their tokens, so k of them cost less than k passes of one. */
static void serving_prompt_curve(const struct scenario *s, const struct scenario *ps, const struct analysis *a,
                                 struct hw_rates *hw, double pp, double together, struct serving_costs *c)
{
    c->prompt_counts[0] = 1.0;
    c->prompt_batch_s[0] = c->prompt_s;
    c->prompt_points = 1;
    for (double k = 2.0; c->prompt_points < RT_SERVING_POINTS; k = fmin(2.0 * k, together)) {
        struct phase_cost pc;
        hw->seqs = k;
        phase_costs(ps, hw, RT_PHASE_PREFILL, !s->unfused_attention, &pc);
        double hop_k = 0.0, hop_kr = 0.0;
        if (pp > 1.0)
            hop_s(s, a, k * (double)ps->prefill_tokens, link_for_group(&s->chip, (double)s->chips), &hop_k, &hop_kr);
        c->prompt_counts[c->prompt_points] = k;
        c->prompt_batch_s[c->prompt_points] = pc.realistic_s + (pp - 1.0) * hop_kr;
        c->prompt_points++;
        if (k >= together)
            break;
    }
}

/* The loop's figures a replica's (groups attention groups), the pool's
 * share and fit, the throughputs and the targets' verdicts. */
static void serving_figures_from_loop(const struct scenario *s, struct analysis *a, const struct serving_loop *lp,
                                      const struct pool_layout *pool)
{
    struct serving_figures *sv = &a->serving;
    double groups = (double)s->ep, replicas = (double)s->data_parallel;
    bool disagg = s->disagg_prefill_chips > 0;
    sv->loop = *lp;
    sv->ttft_s = lp->steady_ttft_s;
    sv->tpot_s = lp->steady_tpot_s;
    sv->benchmark_ttft_s = lp->ttft_s;
    sv->benchmark_tpot_s = lp->tpot_s;
    sv->running_requests = lp->running * groups;
    sv->requests_per_s = lp->requests_per_s * groups;

    double chips = (double)s->chips;
    sv->prefill_pool_share = 0.0;
    if (disagg) {
        sv->prefill_pool_tp = (int64_t)pool->tp;
        sv->prefill_pool_dp = (int64_t)pool->dp;
        sv->prefill_pool_workers = (int64_t)pool->workers;
        sv->prefill_pool_load = lp->prefill_share;
        /* The design's chips are the pool's and the replicas', idle or not (a
         * search must not find a bigger pool free); the pool serves every
         * replica, so each carries its share. */
        sv->prefill_pool_share = sv->prefill_pool_load * (double)s->disagg_prefill_chips / replicas;
        chips += (double)s->disagg_prefill_chips / replicas;
        const struct chip_memory *cm = &a->memory.per_chip;
        double act = cm->activation_tokens *
                     layer_activation_width(&s->model, &a->shape_count, pool->tp) * cm->activation_bytes_per_element;
        sv->prefill_pool_fits = (a->memory.weights_bytes + s->reserve_bytes + a->memory.kv_cache_bytes_per_request) /
                                        (pool->tp * pool->dp) + act <= a->hbm_bytes;
    }
    bool serves = sv->tpot_s > 0.0 && s->decode_tokens > 0; /* no output tokens: no output throughput */
    sv->tokens_per_s_per_user = serves ? 1.0 / sv->tpot_s : 0.0;
    sv->tokens_per_s_per_chip = serves ? sv->requests_per_s * (double)s->decode_tokens / chips : 0.0;
    sv->ttft_target_s = s->ttft_target_s > 0.0 ? s->ttft_target_s : 0.0;
    sv->tpot_target_s = s->tpot_target_s > 0.0 ? s->tpot_target_s : 0.0;
    sv->targets_set = sv->ttft_target_s > 0.0 || sv->tpot_target_s > 0.0;
    sv->ttft_ok = !lp->overloaded && (!(s->ttft_target_s > 0.0) || sv->ttft_s <= s->ttft_target_s);
    sv->tpot_ok = !(s->tpot_target_s > 0.0) || sv->tpot_s <= s->tpot_target_s;
    /* clients past the KV slots queue (loop.kv_bound) rather than fail: the weights must fit */
    sv->ok = sv->ttft_ok && sv->tpot_ok && a->memory.weights_fit && !lp->overloaded &&
             (!disagg || sv->prefill_pool_fits);
}

/* Serving as an engine serves (serving.h, analysis.h struct
 * serving_figures), from the realistic estimate: the step loop of
 * continuous batching for `batch` clients per replica (or --arrival-rate),
 * on a decode-step curve costed at the requests' mean context, one
 * prompt's prefill (on a prefill worker when disaggregated, plus its KV's
 * move to each decode rank) and the passes of prompts together, and the
 * KV slots the memory holds. */
static void analyze_serving(const struct scenario *s, struct analysis *a)
{
    struct serving_figures *sv = &a->serving;
    double groups = (double)s->ep, replicas = (double)s->data_parallel;
    double pp = (double)s->pp;
    bool disagg = s->disagg_prefill_chips > 0;

    /* One prompt alone: what of it the prefix cache does not hold (a scenario is large: copied only then). */
    struct scenario cached;
    const struct scenario *ps = s;
    struct hw_rates hw = a->hw;
    if (s->prefix_hit > 0.0 && s->prefill_tokens > 0) {
        cached = *s;
        cached.prefill_tokens = (int64_t)fmax(1.0, ceil((double)s->prefill_tokens * (1.0 - s->prefix_hit)));
        ps = &cached;
        hw_rates_prepare(&hw, ps);
    }
    hw.seqs = 1.0;
    hw.ep_busy = 1.0; /* a prompt alone: only its tokens reach the experts */
    double hop_f = 0.0, hop_r = 0.0;
    struct pool_layout pool = {0.0, 1.0, 0.0};
    if (disagg) {
        pool = serving_pool(s, &hw); /* each attention-DP rank of a worker runs a prompt */
        pp = 1.0;
    } else if (pp > 1.0) {
        hop_s(s, a, (double)ps->prefill_tokens, link_for_group(&s->chip, (double)s->chips), &hop_f, &hop_r);
    }
    struct serving_costs costs = {0};
    if (s->prefill_tokens > 0) {
        struct phase_cost one_prompt;
        phase_costs(ps, &hw, RT_PHASE_PREFILL, !s->unfused_attention, &one_prompt);
        costs.prompt_s = one_prompt.realistic_s + (pp - 1.0) * hop_r; /* one micro-batch: every stage in turn */
    }
    costs.step_s = a->hw.engine.step_s;
    sv->kv_transfer_s = 0.0;
    if (disagg)
        costs.kv_move_s = sv->kv_transfer_s = serving_kv_move_s(s, a, &sv->kv_bytes_per_rank);

    /* Paged KV: a running request holds its prompt and what it has generated, on average the
     * mean context, so more fit than at the full context memory.max_concurrent_requests counts. */
    double clients = (double)s->batch / groups;
    double mean_ctx = (double)s->prefill_tokens + 0.5 * (double)s->decode_tokens;
    double costed_ctx = mean_ctx >= 1.0 && mean_ctx < (double)s->context_tokens ? ceil(mean_ctx)
                                                                                 : (double)s->context_tokens;
    double slots = fmax(1.0, (double)a->memory.max_concurrent_requests / groups * (double)s->context_tokens /
                                 costed_ctx);
    double top = s->arrival_per_s > 0.0 ? slots : clients; /* open loop: as many as the KV holds may run */
    serving_decode_curve(s, a, top, &costs, &sv->mean_context_tokens);
    if (s->prefill_tokens == 0) /* no prompt: the first token still takes a forward pass of its own */
        costs.prompt_s = serving_decode_step_s(&costs, 1.0);

    /* As many prompts a pass as the token budget holds and the clients send; a pool's workers take
     * one prompt at a time (serving.h). */
    double budget = (double)(s->activation_tokens > 0 ? s->activation_tokens : RT_DEFAULT_ACTIVATION_TOKENS);
    double together = fmin(top, floor(budget / fmax(1.0, (double)ps->prefill_tokens)));
    if (!disagg && s->prefill_tokens > 0 && together >= 2.0)
        serving_prompt_curve(s, ps, a, &hw, pp, together, &costs);

    struct serving_load load = {
        .clients = s->arrival_per_s > 0.0 ? 0.0 : clients,
        .arrival_per_s = s->arrival_per_s / groups, /* a replica's arrivals spread over its attention groups */
        .isl = fmax(1.0, (double)ps->prefill_tokens),
        .osl = fmax(1.0, (double)s->decode_tokens),
        .token_budget = budget,
        .kv_slots = slots,
        .rounds = (double)s->bench_rounds,
        .disaggregated = disagg,
        .frontend_s = a->hw.engine.frontend_s,
        /* the pool serves every replica's groups */
        .prefill_workers = disagg ? pool.workers * pool.dp / (groups * replicas) : 0.0,
    };
    struct serving_loop lp;
    if (serving_run(&costs, &load, &lp) != 0)
        memset(&lp, 0, sizeof lp);
    sv->token_budget = load.token_budget;
    sv->prompt_s = costs.prompt_s;
    serving_figures_from_loop(s, a, &lp, &pool);
}

/* Cost and energy per output token (analysis.h, struct cost_figures and
 * energy_figures) from the steady-state serving throughput per chip; the
 * textbook memory-bound decode step beside them. */
static void analyze_cost_energy(const struct scenario *s, struct analysis *a)
{
    double tps = a->serving.tokens_per_s_per_chip;
    struct cost_figures *c = &a->cost;
    c->usd_per_chip_hour = s->price_usd_per_chip_hour > 0.0 ? s->price_usd_per_chip_hour
                                                              : s->chip.price_usd_per_chip_hour;
    c->known = c->usd_per_chip_hour > 0.0;
    c->fits = a->memory.batch_fits;
    c->priced = c->known && tps > 0.0 && c->fits;
    c->usd_per_million_output_tokens = c->priced ? c->usd_per_chip_hour / 3600.0 / tps * 1e6 : 0.0;
    snprintf(c->source, sizeof c->source, "%s",
             s->price_usd_per_chip_hour > 0.0 ? "--price-per-chip-hour"
             : !c->known                      ? "unpublished"
             : s->chip.price_source[0]        ? s->chip.price_source
                                              : "the chip file's price");
    struct energy_figures *e = &a->energy;
    e->power_w = s->power_w > 0.0 ? s->power_w : s->chip.tdp_w;
    e->pue = s->pue > 0.0 ? s->pue : 1.0;
    e->known = e->power_w > 0.0;
    e->measured = e->known && tps > 0.0 && c->fits;
    e->joules_per_output_token = e->measured ? e->power_w * e->pue / tps : 0.0;
    e->tokens_per_kwh = e->measured ? 3.6e6 / e->joules_per_output_token : 0.0;
    snprintf(e->power_source, sizeof e->power_source, "%s",
             s->power_w > 0.0 ? "--power-w" : e->known ? "the chip's TDP" : "unpublished");
    a->decode_memory_step_s = (a->memory.weights_bytes + a->memory.kv_cache_bytes + a->memory.state_bytes) /
                              ((double)s->chips * a->hbm_bytes_per_s);
}

/* The chips the turn's budget needs, floor and realistic (powers of two up
 * to --max-chips, tensor parallel alone). On n chips no operation gets
 * cheaper than 1/n of its untiled single-chip roofline time, the realistic
 * operation is never below the floor's, and the all-reduces and the
 * engine's fixed step times add to them whole: a count whose lower bound
 * already misses is skipped without costing its phases (75 lines: the
 * single-chip bound, then the search). */
static void chips_for_budget(const struct scenario *s, struct analysis *a)
{
    struct detailed_latency *d = &a->detailed;
    struct realistic_latency *r = &a->realistic;
    double bound_1 = 0.0, steps_s = 0.0, times[RT_PHASE_DECODE + 1];
    struct hw_rates one = a->hw; /* the plain layout: tensor parallel only, one token per step */
    one.n_chips = 1.0;
    one.seqs = 0.0;
    one.ep = 1.0;
    one.query_tokens = 1.0;
    one.link_extra_step_s = 0.0;
    bool plain = s->pp == 1 && s->ep == 1 && s->spec_tokens == 0;
    for (int p = RT_PHASE_PREFILL; p <= RT_PHASE_DECODE; p++) {
        struct phase_cost single;
        const struct phase_cost *pc = &a->phases[p]; /* already on one chip when the scenario has one */
        if (s->chips != 1 || !plain) {
            phase_costs(s, &one, (enum rt_phase)p, !s->unfused_attention, &single);
            pc = &single;
        }
        times[p] = p == RT_PHASE_DECODE ? (double)s->decode_tokens : s->prefill_tokens > 0 ? 1.0 : 0.0;
        for (int i = 0; i < pc->count; i++) {
            const struct op_cost *o = &pc->ops[i];
            double rate = o->matrix ? one.peak_flops_per_s : one.vector_flops_per_s;
            double compute = o->flops / rate;
            bound_1 += times[p] * (compute > o->memory_s ? compute : o->memory_s);
        }
        steps_s += times[p] * a->phases[p].step_s; /* the engine's per-pass times, whole at any n */
    }
    bool floor_found = false, realistic_found = false;
    for (int64_t n = 1; n <= s->max_chips && n <= RT_MAX_CHIPS && !realistic_found; n *= 2) {
        one.n_chips = (double)n; /* the scenario's rates at n chips */
        struct link_choice n_link = link_for_group(&s->chip, (double)n);
        one.link_bytes_per_s = n_link.one_way_bytes_per_s;
        one.link_extra_step_s = n_link.extra_step_s;
        double floor_ar = 0.0, realistic_ar = 0.0;
        for (int p = RT_PHASE_PREFILL; p <= RT_PHASE_DECODE; p++) {
            double f, q;
            if (times[p] > 0.0) {
                double tokens = (double)s->batch * (p == RT_PHASE_DECODE ? 1.0 : (double)s->prefill_tokens);
                phase_allreduces_s(s, &one, (enum rt_phase)p, tokens, &f, &q);
                floor_ar += times[p] * f;
                realistic_ar += times[p] * q;
            }
        }
        double lower = bound_1 / (double)n + s->overhead_s;
        bool floor_may = !floor_found && lower + floor_ar <= s->budget_s;
        bool realistic_may = lower + realistic_ar + steps_s <= s->budget_s;
        if (!floor_may && !realistic_may)
            continue;
        double floor_turn = d->total_s, realistic_turn = r->total_s;
        if (n != s->chips || !plain)
            turn_s(s, &one, &floor_turn, &realistic_turn);
        if (!floor_found && floor_turn <= s->budget_s) {
            d->chips_for_budget = holding_chips(s, a, n);
            floor_found = true;
        }
        if (realistic_turn <= s->budget_s) {
            r->chips_for_budget = holding_chips(s, a, n);
            realistic_found = true;
        }
    }
}

/* The floor minus the napkin, term by term, for the prefill and one decode
 * step (analysis.h, struct detailed_latency's terms; 65 lines: one term
 * after another). */
static void napkin_terms(const struct scenario *s, struct analysis *a)
{
    struct detailed_latency *d = &a->detailed;
    const struct phase_cost *pre = &a->phases[RT_PHASE_PREFILL], *dec = &a->phases[RT_PHASE_DECODE];
    const struct hw_rates *hw = &a->hw;
    double n = hw->n_chips;
    if (s->prefill_tokens > 0) {
        struct phase_sums ps = sum_phase(pre);
        double two_n_s = 2.0 * a->active_params * pre->tokens / (n * hw->peak_flops_per_s);
        add_term(d->prefill_terms, &d->prefill_term_count, "attention and LM-head FLOPs vs 2N per token",
                 ps.matrix_flops / hw->peak_flops_per_s - two_n_s);
        add_term(d->prefill_terms, &d->prefill_term_count, "tile padding",
                 ps.matrix_compute_s - ps.matrix_flops / hw->peak_flops_per_s);
        add_term(d->prefill_terms, &d->prefill_term_count, "vector units (norms, softmax, activation)",
                 ps.vector_compute_s);
        add_term(d->prefill_terms, &d->prefill_term_count, "memory-bound time above compute", ps.above_compute_s);
        add_term(d->prefill_terms, &d->prefill_term_count,
                 s->ep > 1 ? (n > 1.0 ? "tensor-parallel all-reduces, expert all-to-alls" : "expert all-to-alls")
                           : "tensor-parallel all-reduces",
                 pre->comms_s);
        /* The napkin spreads 2N per token over all the chips; the terms above are one tensor-parallel
         * group's, for one expert-parallel rank's tokens (pre->tokens is the rank's share: x ep is the
         * batch's), and what pipeline stages change is the layout's term below, not the MFU factor's. */
        double ranks = (double)s->ep; /* scenario_check: at least 1 */
        double two_n_all_s =
            2.0 * a->active_params * pre->tokens * ranks / ((double)s->chips * hw->peak_flops_per_s);
        add_term(d->prefill_terms, &d->prefill_term_count, "the napkin's achieved-MFU factor",
                 two_n_all_s - a->napkin.prefill_s);
        if (s->pp > 1 || s->ep > 1) {
            double sum = 0.0;
            for (int i = 0; i < d->prefill_term_count; i++)
                sum += d->prefill_terms[i].seconds;
            add_term(d->prefill_terms, &d->prefill_term_count,
                     "layout: stages share the work (-); bubble, hops (+)",
                     d->prefill_s - a->napkin.prefill_s - sum);
        }
    }
    struct phase_sums ds = sum_phase(dec);
    /* All N over the group's chips, and with ep over every rank's: each rank reads its own experts,
     * so what the term shows is the weights read beyond an even share (embedding rows, the shared
     * attention and dense weights each rank holds, the experts its tokens touch). */
    double napkin_step = a->params * hw->bytes_per_weight /
                         (n * (double)s->ep * hw->hbm_bytes_per_s);
    add_term(d->decode_terms, &d->decode_term_count, "weights read vs all N (embedding rows, experts touched)",
             ds.weight_bytes / hw->hbm_bytes_per_s - napkin_step);
    add_term(d->decode_terms, &d->decode_term_count, "KV-cache read", ds.kv_bytes / hw->hbm_bytes_per_s);
    add_term(d->decode_terms, &d->decode_term_count, "activations", ds.act_bytes / hw->hbm_bytes_per_s);
    add_term(d->decode_terms, &d->decode_term_count, "compute-bound time above memory", ds.above_memory_s);
    add_term(d->decode_terms, &d->decode_term_count,
             s->ep > 1 ? (n > 1.0 ? "tensor-parallel all-reduces, expert all-to-alls" : "expert all-to-alls")
                       : "tensor-parallel all-reduces",
             dec->comms_s);
    if (s->pp > 1 || s->ep > 1) {
        double sum = 0.0, napkin_chips = a->params * hw->bytes_per_weight / ((double)s->chips * hw->hbm_bytes_per_s);
        for (int i = 0; i < d->decode_term_count; i++)
            sum += d->decode_terms[i].seconds;
        add_term(d->decode_terms, &d->decode_term_count, "layout: every stage in turn, micro-batches, hops",
                 d->decode_step_s - napkin_chips - sum);
    }

}

/* Measured mode: the prefill's MFU from --measured-ttft-s and the
 * decode's MBU from --measured-tpot-s. */
static void measured_utilisation(const struct scenario *s, struct analysis *a)
{
    const struct hw_rates *hw = &a->hw;
    double n = hw->n_chips;
    struct phase_sums ds = sum_phase(&a->phases[RT_PHASE_DECODE]);
    /* Measured mode: prefill MFU and decode MBU. A TTFT is one request's (its wait and its prefill),
     * so its MFU is one prompt's FLOPs over the chips that prefill it (a tensor-parallel group
     * through every pipeline stage): the same at any batch, and a lower bound where the request
     * waited. */
    if (s->measured_ttft_s > 0.0 && s->prefill_tokens > 0) {
        const struct model_shape *m = &s->model;
        double P = (double)s->prefill_tokens, pair_widths = 0.0; /* pairs x heads x (d_head + v width) */
        for (int k = 0; k < m->kind_count; k++) {
            struct attn_geometry g = model_kind_geometry(m, &m->kinds[k]);
            pair_widths += (double)m->kinds[k].count * layer_prefill_pairs(&m->kinds[k], P) * (double)g.heads *
                           (double)(g.d_head + g.v_head_dim);
        }
        double model_flops = 2.0 * a->active_params * P + 2.0 * pair_widths;
        a->prefill_mfu = model_flops / (s->measured_ttft_s * n * (double)s->pp * hw->peak_flops_per_s);
    }
    if (s->measured_tpot_s > 0.0)
        a->decode_mbu = ds.bytes / (s->measured_tpot_s * hw->hbm_bytes_per_s);
}

/* The detailed latency, its chips for the budget, and the difference from
 * the napkin term by term. */
static void analyze_detailed(const struct scenario *s, struct analysis *a)
{
    struct layout_times floor_t, real_t;
    analyze_layout(s, a, &floor_t, &real_t);
    struct detailed_latency *d = &a->detailed;
    d->prefill_s = s->prefill_tokens > 0 ? floor_t.prefill_s : 0.0;
    d->decode_step_s = floor_t.decode_step_s;
    d->decode_s = floor_t.tpot_s * (double)s->decode_tokens;
    d->ttft_s = d->prefill_s;
    d->tpot_s = floor_t.tpot_s;
    d->overhead_s = s->overhead_s;
    d->total_s = d->prefill_s + d->decode_s + d->overhead_s;
    d->budget_s = s->budget_s;
    d->ok = d->total_s <= d->budget_s && a->memory.batch_fits;
    d->chips_for_budget = 0;
    fill_realistic(s, a, &real_t);
    chips_for_budget(s, a);
    napkin_terms(s, a);
    measured_utilisation(s, a);
}

/* Places every operation of every phase on its roof (tensor or vector). */
static int place_operations(struct analysis *a)
{
    const struct hw_rates *hw = &a->hw;
    for (int p = 0; p < RT_PHASE_COUNT; p++) {
        const struct phase_cost *pc = &a->phases[p];
        if (pc->tokens <= 0.0)
            continue;
        for (int i = 0; i < pc->count && a->placement_count < RT_MAX_PLACEMENTS; i++) {
            const struct op_cost *op = &pc->ops[i];
            double bytes = op->weight_bytes + op->kv_bytes + op->act_bytes;
            struct placement *pl = &a->placements[a->placement_count];
            memset(pl, 0, sizeof *pl);
            copy_text(pl->name, sizeof pl->name, op->name);
            copy_text(pl->phase, sizeof pl->phase, phase_name((enum rt_phase)p));
            pl->operation = true;
            pl->vector = !op->matrix;
            pl->flops = op->flops * hw->n_chips;
            pl->bytes = bytes * hw->n_chips;
            pl->time_s = op->time_s;
            pl->realistic_time_s = op->realistic_s;
            pl->realistic_flops_per_s = op->realistic_s > 0.0 ? op->flops / op->realistic_s : 0.0;
            pl->share = pc->time_s > 0.0 ? op->time_s / pc->time_s : 0.0;
            double peak = op->matrix ? hw->peak_flops_per_s : hw->vector_flops_per_s;
            if (!(bytes > 0.0)) { /* stays on chip (a fused softmax): its unit's peak, no intensity */
                pl->on_chip = true;
                pl->roof.ridge_flop_per_byte = peak / hw->hbm_bytes_per_s;
                pl->roof.attainable_flops_per_s = peak;
                pl->roof.fraction_of_peak = 1.0;
                pl->roof.bound = RT_COMPUTE_BOUND;
                pl->roof.lever = bound_lever(RT_COMPUTE_BOUND);
            } else if (roofline_report(op->flops, bytes, peak, hw->hbm_bytes_per_s, &pl->roof) != 0) {
                return -1;
            }
            a->placement_count++;
        }
    }
    return 0;
}

/* Training: PaLM model FLOPs, recompute, and the MFU budget from the shape
 * unless step times were given. */
double training_flops_per_token(const struct model_shape *m, double active, double seq_len,
                                enum rt_flops_convention c)
{
    double attention = palm_attention_flops_per_token(m, seq_len); /* forward and backward, layer by layer */
    switch (c) {
    case RT_FLOPS_MEGATRON: {
        double d = (double)m->d_model, input = (double)m->position_rows * d;
        if (!m->tied_embeddings)
            input += (double)m->vocab * d;
        return 6.0 * fmax(0.0, active - input) + attention;
    }
    case RT_FLOPS_6N:
        return 6.0 * active;
    case RT_FLOPS_CAUSAL:
        return 6.0 * active + attention / 2.0;
    default:
        return 6.0 * active + attention;
    }
}

const char *flops_convention_label(enum rt_flops_convention c)
{
    static const char *const labels[] = {"PaLM", "Megatron", "6N", "causal"};
    return (int)c >= 0 && c < RT_FLOPS_CONVENTION_COUNT ? labels[c] : labels[0];
}

const char *mfu_over_peak_reason(enum rt_flops_convention c, bool brief)
{
    bool whole = (int)c < 0 || c >= RT_FLOPS_CONVENTION_COUNT || c == RT_FLOPS_PALM || c == RT_FLOPS_MEGATRON;
    if (brief)
        return whole ? "non-causal attn" : "check figures";
    if (!whole)
        return "over the peak: check the figures";
    return c == RT_FLOPS_MEGATRON ? "Megatron counts non-causal attention" : "PaLM counts non-causal attention";
}

const char *analysis_over_peak_reason(const struct analysis *a, bool brief)
{
    if (a->mfu_budget_source == RT_BUDGET_STEP_TIMES)
        return brief ? "recompute, no time" : "the step times leave recompute no time";
    return mfu_over_peak_reason(a->training.convention, brief);
}

enum rt_mfu_shown analysis_mfu_shown(const struct analysis *a, bool measured)
{
    const struct training_figures *tr = &a->training;
    if (!measured && a->mfu_budget_source == RT_BUDGET_SHAPE && !tr->state_fits)
        return RT_MFU_NONE;
    double mfu = measured ? tr->mfu : a->mfu_budget.mfu, hfu = measured ? tr->hfu : a->hfu;
    bool whole = tr->convention == RT_FLOPS_PALM || tr->convention == RT_FLOPS_MEGATRON;
    bool from_shape = measured || a->mfu_budget_source == RT_BUDGET_SHAPE;
    return whole && from_shape && (mfu > 1.0 || hfu > 1.0) ? RT_MFU_CAUSAL : RT_MFU_PLAIN;
}

const char *serving_blocker(const struct analysis *a)
{
    const struct serving_figures *sv = &a->serving;
    if (sv->ok)
        return NULL;
    if (!a->memory.weights_fit)
        return "weights do not fit";
    if (sv->prefill_pool_workers > 0 && !sv->prefill_pool_fits)
        return "weights do not fit the prefill pool";
    if (sv->loop.overloaded)
        return "requests outrun the engine";
    return NULL;
}

const char *flops_convention_formula(enum rt_flops_convention c)
{
    static const char *const formulas[] = {
        "6N + 12 L H Q T, PaLM app. B",
        "6N + 12 L H Q T, N without the input embedding, Megatron",
        "6N, attention not counted",
        "6N + 6 L H Q T, attention halved for the causal mask",
    };
    return (int)c >= 0 && c < RT_FLOPS_CONVENTION_COUNT ? formulas[c] : formulas[0];
}

/* Totals over the run's tokens (scenario.h train_*): FLOPs, chip-hours and
 * days at --train-mfu or the step's MFU, and the MFU a published chip-hours
 * figure implies. peak is one chip's FLOP/s. */
static void training_totals(const struct scenario *s, double peak, struct training_figures *tr)
{
    if (!(s->train_tokens > 0.0))
        return;
    tr->totals = true;
    tr->total_flops = tr->model_flops_per_token * s->train_tokens;
    /* A step whose state does not fit has no MFU (analysis_mfu_shown): nothing to time the run at
     * but --train-mfu or a measured rate. */
    bool step_runs = tr->measured || tr->state_fits || s->has_step_times;
    tr->totals_mfu = s->train_mfu > 0.0 ? s->train_mfu : step_runs ? tr->mfu : 0.0;
    if (tr->totals_mfu > 0.0) {
        tr->chip_hours = tr->total_flops / (peak * tr->totals_mfu) / 3600.0;
        tr->days = tr->chip_hours / ((double)s->chips * (double)s->data_parallel) / 24.0;
    }
    if (s->train_chip_hours > 0.0)
        tr->implied_mfu = tr->total_flops / (s->train_chip_hours * 3600.0 * peak);
}

/* The training step's FLOPs a token: the convention's model FLOPs, the
 * hardware's with the recompute, and the causal count's shares of each
 * (*causal_share of the model FLOPs, *causal_hw_share of the hardware's). */
static void training_flop_counts(const struct scenario *s, struct analysis *a, double *causal_share,
                                 double *causal_hw_share)
{
    const struct model_shape *m = &s->model;
    struct training_figures *tr = &a->training;
    double S = (double)s->context_tokens;
    tr->tokens_per_step = (double)s->batch * S;
    tr->convention = s->flops_convention;
    tr->model_flops_per_token = training_flops_per_token(m, a->active_params, S, s->flops_convention);
    /* the convention's attention part, forward only: what selective recompute redoes */
    double attention = s->flops_convention == RT_FLOPS_6N       ? 0.0
                       : s->flops_convention == RT_FLOPS_CAUSAL ? palm_attention_flops_per_token(m, S) / 2.0
                                                                : palm_attention_flops_per_token(m, S);
    double forward = tr->model_flops_per_token / 3.0, attention_forward = attention / 3.0;
    double extra = 0.0;
    switch (s->recompute) {
    case RT_RECOMPUTE_FULL:
        extra = forward;
        break;
    case RT_RECOMPUTE_SELECTIVE:
        extra = attention_forward;
        break;
    case RT_RECOMPUTE_FRACTION:
        extra = s->recompute_fraction * forward;
        break;
    default:
        break;
    }
    tr->hardware_flops_per_token = tr->model_flops_per_token + extra;
    a->recompute_factor = tr->hardware_flops_per_token / tr->model_flops_per_token;
    /* The causal count of the same step, and its recompute (the views' figure when PaLM's passes 100%). */
    double causal_attention = s->flops_convention == RT_FLOPS_6N ? 0.0 : palm_attention_flops_per_token(m, S) / 2.0;
    double causal_model = s->flops_convention == RT_FLOPS_6N
                              ? tr->model_flops_per_token
                              : training_flops_per_token(m, a->active_params, S, RT_FLOPS_CAUSAL);
    double causal_extra = s->recompute == RT_RECOMPUTE_FULL        ? causal_model / 3.0
                          : s->recompute == RT_RECOMPUTE_SELECTIVE ? causal_attention / 3.0
                          : s->recompute == RT_RECOMPUTE_FRACTION  ? s->recompute_fraction * causal_model / 3.0
                                                                   : 0.0;
    *causal_share = causal_model / tr->model_flops_per_token;
    *causal_hw_share = (causal_model + causal_extra) / tr->hardware_flops_per_token;

}

/* The step from the shape, per chip of one replica, part by part (matmul,
 * vector, memory, comms, optimizer, the pipeline's bubble) into parts. */
static void training_step_parts(const struct scenario *s, const struct analysis *a, double parts[RT_PART_COUNT])
{
    const struct hw_rates *hw = &a->hw;
    const struct phase_cost *fwd = &a->phases[RT_PHASE_TRAINING];
    double matmul = 0, attention_s = 0, vector = 0, softmax = 0, memory = 0;
    for (int i = 0; i < fwd->count; i++) {
        const struct op_cost *op = &fwd->ops[i];
        if (op->matrix)
            matmul += op->compute_s;
        else
            vector += op->compute_s;
        if (strncmp(op->name, "attention", 9) == 0)
            attention_s += op->compute_s;
        if (strcmp(op->name, "softmax") == 0)
            softmax += op->compute_s;
        memory += fmax(0.0, op->memory_s - op->compute_s);
    }
    double redo_matmul = 0, redo_vector = 0;
    if (s->recompute == RT_RECOMPUTE_FULL || s->recompute == RT_RECOMPUTE_FRACTION) {
        double f = s->recompute == RT_RECOMPUTE_FULL ? 1.0 : s->recompute_fraction;
        redo_matmul = f * matmul;
        redo_vector = f * vector;
    } else if (s->recompute == RT_RECOMPUTE_SELECTIVE) {
        redo_matmul = attention_s;
        redo_vector = softmax;
    }
    double dp = (double)s->data_parallel, chips = (double)s->chips;
    double grad_allreduce = dp > 1.0 && hw->link_bytes_per_s > 0.0
                                ? 2.0 * (dp - 1.0) / dp * (a->params / chips) * 2.0 / hw->link_bytes_per_s
                                : 0.0;
    /* Beyond tensor parallelism, a chip runs 1/(pp x ep) of the replica's
     * work (its stage's layers; its group's sequences and its experts), and
     * a pipeline of m micro-batches adds the bubble (pp - 1) / m of it
     * (Narayanan et al. 2021). */
    double pp = (double)s->pp, micro = s->microbatches > 0 ? (double)s->microbatches : (double)s->batch;
    double share = 1.0 / (pp * (double)s->ep);
    parts[RT_PART_MATMUL] = share * (3.0 * matmul + redo_matmul); /* forward, and twice that backward */
    parts[RT_PART_VECTOR] = share * (3.0 * vector + redo_vector);
    parts[RT_PART_MEMORY] = share * 3.0 * memory;
    parts[RT_PART_COMMS] = (1.0 - s->comm_overlap) * (share * 2.0 * fwd->comms_s + grad_allreduce);
    /* Mixed-precision Adam: read fp32 master, m, v and a bf16 gradient (14
     * bytes), write master, m, v and the bf16 weight (14 bytes) per parameter. */
    parts[RT_PART_OPTIMIZER] = 28.0 * (a->params / chips) / hw->hbm_bytes_per_s;
    /* The stage idles (pp - 1) / m of its compute while the pipeline fills
     * and drains: a part of its own, not hidden in the others. */
    parts[RT_PART_BUBBLE] = pipeline_bubble_fraction(pp, micro) *
                            (parts[RT_PART_MATMUL] + parts[RT_PART_VECTOR] + parts[RT_PART_MEMORY]);
}

static int analyze_training(const struct scenario *s, struct analysis *a)
{
    struct training_figures *tr = &a->training;
    const struct hw_rates *hw = &a->hw;
    double causal_share, causal_hw_share, parts[RT_PART_COUNT];
    training_flop_counts(s, a, &causal_share, &causal_hw_share);
    training_step_parts(s, a, parts);
    double dp = (double)s->data_parallel, chips = (double)s->chips;
    struct mfu_budget shape_budget;
    if (mfu_budget(parts, &shape_budget) != 0)
        return -1;
    tr->step_s = shape_budget.total_s;
    double denominator = tr->step_s * chips * hw->peak_flops_per_s;
    double step_mfu = tr->model_flops_per_token * tr->tokens_per_step / denominator;
    double step_hfu = tr->hardware_flops_per_token * tr->tokens_per_step / denominator;
    if (s->measured_train_tokens_per_s > 0.0) {
        double all_chips = chips * dp * hw->peak_flops_per_s;
        tr->mfu = tr->model_flops_per_token * s->measured_train_tokens_per_s / all_chips;
        tr->hfu = tr->hardware_flops_per_token * s->measured_train_tokens_per_s / all_chips;
        tr->measured = true;
    } else {
        tr->mfu = step_mfu;
        tr->hfu = step_hfu;
    }
    tr->causal_mfu = tr->mfu * causal_share;
    tr->causal_hfu = tr->hfu * causal_hw_share;
    /* Mixed-precision Adam keeps 16 bytes a parameter (bf16 weight and
     * gradient, fp32 master, m and v), sharded over the replica's chips but
     * copied by data parallelism (no ZeRO): a step whose state does not fit
     * has an MFU only on paper. Activations come on top. */
    tr->state_bytes_per_chip = 16.0 * a->params / chips;
    tr->state_fits = tr->state_bytes_per_chip <= a->hbm_bytes;
    tr->state_fit_chips = ceil(16.0 * a->params / a->hbm_bytes);

    training_totals(s, hw->peak_flops_per_s, tr);
    if (tr->implied_mfu > 1.0)
        NOTE(a, TRAINING_MFU_OVER_100, NOTE_REAL(s->train_chip_hours), NOTE_REAL(tr->implied_mfu * 100.0),
             NOTE_REAL(tr->total_flops));
    else if (tr->totals && s->train_mfu <= 0.0 && tr->totals_mfu > 1.0)
        NOTE(a, TRAINING_TOTALS_MFU_OVER_100, NOTE_REAL(tr->totals_mfu * 100.0));

    /* PaLM's 12 L H Q T counts attention over the whole context; the step runs causal attention,
     * about half of it, so at long context the PaLM figures can pass 100%. Say so, not silently. */
    bool whole_attention = s->flops_convention == RT_FLOPS_PALM || s->flops_convention == RT_FLOPS_MEGATRON;
    bool shown = tr->state_fits || tr->measured || s->has_step_times; /* else no MFU is given at all */
    /* A measured rate over 100% even counted causally is no overcount: its own note says the rate is off. */
    bool explained = !tr->measured || (tr->causal_mfu <= 1.0 && tr->causal_hfu <= 1.0);
    if (whole_attention && shown && ((tr->mfu > 1.0 && explained) || step_mfu > 1.0))
        NOTE(a, MFU_HFU_OVER_100, NOTE_INT(s->context_tokens));
    a->has_mfu_budget = true;
    if (s->has_step_times) { /* the guide's budget from measured parts (ch. 4) */
        if (mfu_budget(s->step_times_s, &a->mfu_budget) != 0)
            return -1;
        a->mfu_budget_source = RT_BUDGET_STEP_TIMES;
        a->hfu = a->mfu_budget.mfu * a->recompute_factor;
        if (a->hfu > 1.0)
            NOTE(a, HFU_OVER_100, NOTE_REAL(a->mfu_budget.mfu * 100.0), NOTE_TEXT(recompute_name(s->recompute)),
                 NOTE_REAL(a->recompute_factor));
        a->budget_causal_mfu = a->mfu_budget.mfu;
        a->budget_causal_hfu = a->hfu;
    } else {
        a->mfu_budget = shape_budget;
        a->mfu_budget.mfu = step_mfu;
        a->mfu_budget_source = RT_BUDGET_SHAPE;
        a->hfu = step_hfu;
        a->budget_causal_mfu = step_mfu * causal_share;
        a->budget_causal_hfu = step_hfu * causal_hw_share;
    }
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
                        a->tile_efficiency_d_ff, a->tile_efficiency_d_head, a->hfu, a->mfu_budget.mfu,
                        a->detailed.prefill_s, a->detailed.decode_s, a->detailed.total_s, a->training.mfu,
                        a->training.hfu, a->training.step_s, a->training.model_flops_per_token,
                        a->training.total_flops, a->training.chip_hours, a->training.days, a->training.implied_mfu, a->prefill_mfu,
                        a->decode_mbu, a->recompute_factor, a->mfu_budget.total_s, a->realistic.prefill_s,
                        a->realistic.decode_s, a->realistic.total_s, a->cost.usd_per_million_output_tokens,
                        a->energy.joules_per_output_token, a->energy.tokens_per_kwh, a->decode_memory_step_s};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]))
            return false;
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (!isfinite(p->flops) || !isfinite(p->bytes) || !isfinite(p->roof.intensity_flop_per_byte) ||
            !isfinite(p->roof.attainable_flops_per_s) || !isfinite(p->roof.fraction_of_peak) ||
            !isfinite(p->time_s) || !isfinite(p->share))
            return false;
    }
    for (int i = 0; i < a->detailed.prefill_term_count; i++)
        if (!isfinite(a->detailed.prefill_terms[i].seconds))
            return false;
    for (int i = 0; i < a->detailed.decode_term_count; i++)
        if (!isfinite(a->detailed.decode_terms[i].seconds))
            return false;
    return true;
}

/* Whether napkin, floor and realistic disagree, and which is furthest from
 * the selected estimate. */
static void compare_estimates(struct analysis *a)
{
    double *totals = a->estimate_total_s;
    bool *oks = a->estimate_ok;
    totals[RT_LATENCY_NAPKIN] = a->napkin.total_s;
    totals[RT_LATENCY_DETAILED] = a->detailed.total_s;
    totals[RT_LATENCY_REALISTIC] = a->realistic.total_s;
    oks[RT_LATENCY_NAPKIN] = a->napkin.ok;
    oks[RT_LATENCY_DETAILED] = a->detailed.ok;
    oks[RT_LATENCY_REALISTIC] = a->realistic.ok;
    double lo = totals[0], hi = totals[0];
    bool split = false;
    for (int i = 1; i < RT_LATENCY_COUNT; i++) {
        lo = fmin(lo, totals[i]);
        hi = fmax(hi, totals[i]);
        split = split || oks[i] != oks[0];
    }
    a->verdicts_split = split;
    a->estimate_min_s = lo;
    a->estimate_max_s = hi;
    a->estimates_disagree = split || (lo > 0.0 && hi / lo > 1.25);
    int me = (int)a->latency_model, other = me == 0 ? 1 : 0;
    double worst = -1.0;
    for (int i = 0; i < RT_LATENCY_COUNT; i++) {
        if (i == me)
            continue;
        /* A different verdict outranks any distance. */
        double d = fabs(log(fmax(totals[i], 1e-300) / fmax(totals[me], 1e-300))) + (oks[i] != oks[me] ? 1e6 : 0.0);
        if (d > worst) {
            worst = d;
            other = i;
        }
    }
    a->other_model = (enum rt_latency_model)other;
}

/* Makes the verdict the detailed model's when the scenario asks for it. */
static void select_verdict(const struct scenario *s, struct analysis *a)
{
    a->latency_model = s->latency_model;
    if (s->latency_model == RT_LATENCY_NAPKIN)
        return;
    struct latency_verdict *l = &a->latency;
    if (s->latency_model == RT_LATENCY_REALISTIC) {
        const struct realistic_latency *r = &a->realistic;
        l->prefill_s = r->prefill_s;
        l->decode_s = r->decode_s;
        l->total_s = r->total_s;
        l->ok = r->ok;
        l->chips_for_budget = r->chips_for_budget;
    } else {
        const struct detailed_latency *d = &a->detailed;
        l->prefill_s = d->prefill_s;
        l->decode_s = d->decode_s;
        l->total_s = d->total_s;
        l->ok = d->ok;
        l->chips_for_budget = d->chips_for_budget;
    }
    struct phase_sums ps = sum_phase(&a->phases[RT_PHASE_PREFILL]), ds = sum_phase(&a->phases[RT_PHASE_DECODE]);
    /* The replica's, whatever its layout: the phases are costed on one tensor-parallel group, for one
     * expert-parallel rank's requests (x ep) and, in decode, one pipeline micro-batch (x the
     * micro-batches, each reading every stage's weights again). */
    double ranks = (double)s->ep; /* scenario_check: at least 1 */
    l->prefill_flops = s->prefill_tokens > 0 ? ps.matrix_flops * a->hw.n_chips * ranks : 0.0;
    l->decode_bytes = ds.bytes * a->hw.n_chips * ranks *
                      (a->parallel.decode_microbatches > 0.0 ? a->parallel.decode_microbatches : 1.0) *
                      (double)s->decode_tokens;
}

/* The notes on serving: the frontend time and where it comes from, a
 * disaggregated turn's prefill, the experts' ranks. */
static void note_serving(const struct scenario *s, struct analysis *a)
{
    if (a->serving.loop.frontend_s > 0.0) {
        /* where the figure comes from: fitted for the three engines the measured runs hold, borrowed by
         * the two built-ins that name another's, or the user's engine file */
        const struct engine_profile *own = engine_find(a->hw.engine.name);
        bool builtin = own && own->frontend_s == a->hw.engine.frontend_s && strcmp(own->source, a->hw.engine.source) == 0;
        const char *name = a->hw.engine.name;
        bool fitted = builtin && (strcmp(name, "vllm") == 0 || strcmp(name, "trtllm") == 0 || strcmp(name, "sglang") == 0);
        NOTE(a, FRONTEND_TIME, NOTE_TEXT(name), NOTE_SECONDS(a->serving.loop.frontend_s),
             NOTE_TEXT(fitted    ? ": not physics but the part of its measured benchmark TTFTs (data/serving/runs.csv) "
                                   "the step loop leaves over, fitted to them"
                       : builtin ? (strcmp(name, "nim") == 0 ? ": TensorRT-LLM's fitted value (NIM runs on it)"
                                                             : ": vLLM's fitted value, for an engine not named")
                                 : ": as its engine file sets it (frontend_s)"));
    }
    if (s->disagg_prefill_chips > 0) {
        char tt[24];
        NOTE(a, DISAGG_TURN_ON_DECODE_CHIPS, NOTE_INT(s->chips),
             NOTE_TEXT(a->serving.loop.overloaded ? "no steady time (the pool is overloaded)"
                                                  : format_seconds(tt, sizeof tt, a->serving.ttft_s)));
    }
    if (s->moe_ep > 0)
        NOTE(a, MOE_EP_RANKS, NOTE_INT(s->moe_ep), NOTE_INT(s->chips / s->pp),
             NOTE_REAL(ceil((double)s->model.experts / (double)s->moe_ep)), NOTE_INT(s->chips / s->pp / s->moe_ep),
             NOTE_TEXT(s->ep > 1 ? "; the all-to-all sends a token once to each rank its experts sit on"
                                 : "; attention is tensor-parallel, so the tokens are on every rank already and the "
                                   "MLP's all-reduce carries the combine (no all-to-all)"));
}

/* The phase rows' times: the floor's prefill and decode step (the same
 * FLOPs and bytes the row places: the napkin's decode reads no KV cache),
 * the shape's training step. */
static void phase_row_times(const struct scenario *s, struct analysis *a)
{
    for (int i = 0; i < a->placement_count; i++) {
        struct placement *pl = &a->placements[i];
        if (pl->operation)
            continue;
        pl->share = 1.0;
        if (strcmp(pl->phase, "prefill") == 0) {
            pl->time_s = a->detailed.prefill_s;
            pl->realistic_time_s = a->realistic.prefill_s;
        } else if (strcmp(pl->phase, "decode") == 0) {
            pl->time_s = a->detailed.decode_step_s;
            pl->realistic_time_s = a->realistic.decode_step_s;
            const struct phase_cost *dec = &a->phases[RT_PHASE_DECODE];
            if (s->model.experts > 1 && dec->count > 0) {
                /* A mixture of experts reads only the experts its batch
                 * routes to: the row places the FLOPs and bytes of the
                 * step whose time it shows, or its points would sit above
                 * their own roof (DeepSeek-V3 at batch 1 reads 5% of it). */
                double flops = 0.0, bytes = 0.0;
                for (int k = 0; k < dec->count; k++) {
                    flops += dec->ops[k].flops;
                    bytes += dec->ops[k].weight_bytes + dec->ops[k].kv_bytes + dec->ops[k].act_bytes;
                }
                flops *= (double)s->chips;
                bytes *= (double)s->chips;
                if (flops > 0.0 && bytes > 0.0 &&
                    roofline_report(flops, bytes, a->peak_flops_per_s, a->hbm_bytes_per_s, &pl->roof) == 0) {
                    pl->flops = flops;
                    pl->bytes = bytes;
                }
            }
        } else {
            pl->time_s = pl->realistic_time_s = a->training.step_s;
        }
        if (strcmp(pl->phase, "training") != 0 && pl->realistic_time_s > 0.0)
            pl->realistic_flops_per_s = pl->flops / (double)s->chips / pl->realistic_time_s;
    }

}

/* What the model's shape saves and wastes: the GQA and KV savings (each
 * layer's own where the layers differ) and the tile efficiencies. */
static void shape_savings(const struct scenario *s, struct analysis *a)
{
    const struct model_shape *m = &s->model;
    a->gqa_saving = gqa_saving((double)m->heads, (double)m->kv_heads);
    double kv_elements = model_kv_elements_per_token_per_layer(m);
    a->kv_saving = kv_elements > 0.0 ? (double)m->heads * (double)(m->d_head + model_v_head_dim(m)) / kv_elements : 0.0;
    bool own_layout = model_mixed_geometry(m);
    for (int i = 0; i < m->kind_count; i++)
        own_layout = own_layout || m->kinds[i].mixer == RT_MIXER_SPARSE;
    if (own_layout) { /* each layer's heads against what it caches (an index key too), a token's worth */
        double mha = 0.0;
        for (int i = 0; i < m->kind_count; i++) {
            const struct layer_kind *k = &m->kinds[i];
            if (!mixer_is_attention(k->mixer) || k->count <= 0)
                continue;
            struct attn_geometry g = model_kind_geometry(m, k);
            double share = k->mixer == RT_MIXER_COMPRESSED && k->ratio > 0 ? 1.0 / (double)k->ratio : 1.0;
            mha += (double)k->count * share * (double)g.heads * (double)(g.d_head + g.v_head_dim) * 2.0;
        }
        double held = model_kv_bytes_per_token(m, 2.0);
        a->kv_saving = held > 0.0 ? mha / held : 0.0;
        if (m->kv_lora_rank == 0)
            a->gqa_saving = a->kv_saving;
    }
    a->tile_efficiency_d_model = tile_efficiency(m->d_model, s->tile);
    a->tile_efficiency_d_ff = tile_efficiency(m->d_ff, s->tile);
    a->tile_efficiency_d_head = tile_efficiency(m->d_head, s->tile);

}

/* The notes on the estimates: the napkin's, the floor's and the realistic
 * model's assumptions, and what their inputs borrow. */
static void note_estimates(const struct scenario *s, struct analysis *a)
{
    NOTE(a, NAPKIN_MODEL, NOTE_REAL(s->mfu * 100.0));
    NOTE(a, FLOOR_MODEL, NOTE_TEXT(s->unfused_attention ? "unfused" : "fused"));
    {
        const struct kernel_view *kv = &a->hw.kview;
        char whose[96];
        if (!kv->from[0])
            snprintf(whose, sizeof whose, "no measured kernels: the models' default constants");
        else if (kv->measured)
            snprintf(whose, sizeof whose, "fitted on this chip's own measured kernels");
        else
            snprintf(whose, sizeof whose, "fitted on %s's measured kernels, borrowed (%s)", kv->from,
                     kv->sibling ? "the same architecture" : "another architecture: uncalibrated here");
        NOTE(a, REALISTIC_MODEL, NOTE_TEXT(whose), NOTE_TEXT(kernel_engine_name(a->hw.kengine)),
             NOTE_TEXT(s->engine.name), NOTE_TEXT(a->realistic.engine_calibrated ? "" : " uncalibrated"),
             NOTE_TEXT(latency_model_name(s->latency_model)));
        if (s->chip.efficiency.sm_count <= 0 && !(kv->from[0] && chip_find(kv->from)))
            NOTE(a, NO_SM_COUNT, NOTE_TEXT(s->chip.key), NOTE_REAL(a->hw.kchip.sm_count));
        if (kernel_in_pass_launches(a->hw.kformat) > 1)
            NOTE(a, QUANTISER_KERNEL, NOTE_TEXT(kernel_format_name(a->hw.kformat)));
        if (a->parallel.tp > RT_KERNEL_MEASURED_GPUS_MAX || a->parallel.ep > RT_KERNEL_MEASURED_GPUS_MAX)
            NOTE(a, COLLECTIVES_EXTRAPOLATED, NOTE_SMALL(RT_KERNEL_MEASURED_GPUS_MAX),
                 NOTE_SMALL(RT_KERNEL_MEASURED_GPUS_MAX), NOTE_REAL(100.0 * RT_KERNEL_EXTRAPOLATED_ERROR));
    }
}

/* The notes on what the scenario asks beyond the estimates: the FLOPs
 * convention, measured figures above 100%, the pipeline, speculative
 * decoding, the budget's search, a prompt past the context, a batch that
 * does not fit (63 lines: one note after another, each with the condition
 * that calls for it). */
static void note_scenario(const struct scenario *s, struct analysis *a)
{
    if (a->mfu_budget_source == RT_BUDGET_SHAPE && s->flops_convention != RT_FLOPS_PALM)
        NOTE(a, MFU_CONVENTION, NOTE_TEXT(flops_convention_formula(s->flops_convention)),
             NOTE_TEXT(flops_convention_name(s->flops_convention)));
    else if (a->mfu_budget_source == RT_BUDGET_SHAPE)
        NOTE(a, MFU_PALM,
             NOTE_TEXT(a->mfu_budget.mfu > 1.0 && a->training.state_fits
                           ? ", and at this context even 100%: the views give the causal count first"
                           : ""));
    if (a->training.measured && a->training.causal_mfu > 1.0)
        NOTE(a, MEASURED_MFU_OVER_100, NOTE_REAL(a->training.causal_mfu * 100.0));
    if (a->prefill_mfu > 1.0)
        NOTE0(a, MEASURED_TTFT_OVER_100);
    if (a->decode_mbu > 1.0)
        NOTE0(a, MEASURED_TPOT_OVER_100);
    if (s->pp > 1)
        NOTE(a, PIPELINE, NOTE_INT(s->pp), NOTE_REAL(a->parallel.stage_layers), NOTE_REAL(a->parallel.microbatches),
             NOTE_TEXT(a->parallel.microbatches == 1.0 ? "" : "es"),
             NOTE_TEXT(a->parallel.microbatches == 1.0 ? "s" : ""), NOTE_REAL(a->parallel.bubble_fraction));
    if (a->speculative.enabled) {
        char acc[160];
        char odds[240];
        if (s->spec_accept_positions > 0)
            snprintf(odds, sizeof odds, "draft i is accepted with its position's probability (%s) once the ones "
                                        "before it were", scenario_spec_accept_words(s, acc, sizeof acc));
        else
            snprintf(odds, sizeof odds, "each is accepted with probability %.2f, independently (Leviathan et al. "
                                        "2023)", s->spec_accept);
        NOTE(a, SPECULATIVE, NOTE_INT(s->spec_tokens),
             NOTE_TEXT(s->spec_draft_name[0] ? s->spec_draft_name
                                             : "an MTP head of one target layer (--spec-draft names another)"),
             NOTE_COUNT(a->speculative.draft_params), NOTE_TEXT(odds));
        if (a->speculative.verify_tokens > (double)s->spec_tokens + 1.0)
            NOTE(a, TREE_VERIFICATION, NOTE_REAL(a->speculative.verify_tokens), NOTE_INT(s->spec_tokens),
                 NOTE_REAL((a->speculative.verify_tokens - 1.0) / (double)s->spec_tokens),
                 NOTE_INT(s->spec_tokens + 1));
    }
    if (s->pp > 1 || s->ep > 1 || s->spec_tokens > 0)
        NOTE0(a, CHIPS_SEARCH_TP_ONLY);
    a->prompt_exceeds_context = s->prefill_tokens > s->context_tokens;
    if (a->prompt_exceeds_context)
        NOTE(a, PROMPT_PAST_CONTEXT, NOTE_INT(s->prefill_tokens), NOTE_INT(s->context_tokens),
             NOTE_INT(s->context_tokens), NOTE_INT(s->prefill_tokens));
    if (!a->memory.batch_fits)
        NOTE(a, BATCH_DOES_NOT_FIT, NOTE_REAL(a->memory.per_chip.activation_tokens), NOTE_INT(s->chips),
             NOTE_TEXT(s->chip.key));
}

/* The note on a training step whose optimizer state does not fit. */
static void note_training_state(const struct scenario *s, struct analysis *a)
{
    if (!a->training.state_fits) { /* analyze_training's Adam state */
        bool paper = a->mfu_budget_source == RT_BUDGET_SHAPE && !a->training.measured;
        NOTE(a, TRAINING_STATE_DOES_NOT_FIT, NOTE_SI(a->training.state_bytes_per_chip, "B"), NOTE_INT(s->chips),
             NOTE_TEXT(s->chips == 1 ? "" : "s"), NOTE_SI(a->hbm_bytes, "B"),
             NOTE_TEXT(paper ? "such a step cannot run, so no MFU is given, and the budget's split is on paper"
                             : "the MFU budget assumes it fits"),
             NOTE_REAL(a->training.state_fit_chips));
    }
}

int analyze(const struct scenario *s, struct analysis *out, char *err, size_t errsize)
{
    if (scenario_check(s, err, errsize) != 0)
        return -1;
    struct analysis *a = out;
    memset(a, 0, offsetof(struct analysis, placements)); /* the arrays after it are filled as used */
    resolve_hardware(s, a);
    resolve_params(s, a);
    if (s->spec_tokens > 0 && s->spec_draft_params >= a->active_params) {
        char d[24], t[24];
        snprintf(err, errsize, "--spec-draft: the draft's %s parameters are not fewer than the target's %s active "
                               "ones; a draft must be smaller",
                 format_count(d, sizeof d, s->spec_draft_params), format_count(t, sizeof t, a->active_params));
        return -1;
    }
    a->bytes_per_weight = precision_bytes(s->precision);
    a->bytes_per_kv_element = precision_activation_bytes(s->kv_precision); /* KV elements are activations */

    analyze_memory(s, a);
    if (analyze_latency(s, a, err, errsize) != 0)
        return -1;
    a->napkin = a->latency;
    if (analyze_placements(s, a) != 0) {
        snprintf(err, errsize, "the scenario's phases cannot be placed on the roofline");
        return -1;
    }
    resolve_rates(s, a);
    analyze_detailed(s, a);
    analyze_serving(s, a);
    note_serving(s, a);
    analyze_cost_energy(s, a);
    if (s->op.set && analyze_operation(s, a, err, errsize) != 0)
        return -1;
    select_verdict(s, a);
    compare_estimates(a);
    if (place_operations(a) != 0 || analyze_training(s, a) != 0) {
        snprintf(err, errsize, "the scenario's operations cannot be placed on the roofline");
        return -1;
    }

    phase_row_times(s, a);
    shape_savings(s, a);
    note_estimates(s, a);
    note_scenario(s, a);
    if (!all_finite(a)) {
        snprintf(err, errsize, "the scenario's figures overflow: make the values smaller");
        return -1;
    }
    note_training_state(s, a);
    return 0;
}

const struct placement *analysis_phase_placement(const struct analysis *a, const char *phase)
{
    for (int i = 0; a && i < a->placement_count && i < RT_MAX_PLACEMENTS; i++)
        if (!a->placements[i].operation && strcmp(a->placements[i].phase, phase) == 0)
            return &a->placements[i];
    return NULL;
}

/* Whether batch b of s is OK by its selected estimate; -1 when invalid. */
static int batch_ok(const struct scenario *s, int64_t b, struct analysis *a)
{
    struct scenario t = *s;
    t.batch = b;
    char err[8];
    if (analyze(&t, a, err, sizeof err) != 0)
        return -1;
    return a->latency.ok ? 1 : 0;
}

int64_t analysis_largest_ok_batch(const struct scenario *s)
{
    static_assert(RT_MAX_BATCH == ((int64_t)1 << 24), "the search runs over exponents 0..24");
    char err[8];
    if (scenario_check(s, err, sizeof err) != 0)
        return -1;
    struct analysis a;
    /* Each expert group needs a sequence: the batches start at the first
     * power of two of at least ep, so that OK holds up to a point and
     * fails beyond it, as halving needs. */
    int first = 0;
    while (first < 24 && ((int64_t)1 << first) < s->ep)
        first++;
    int lo = first - 1, hi = 25; /* exponents: ok at lo (or none), not ok at hi */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (batch_ok(s, (int64_t)1 << mid, &a) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo < first ? 0 : (int64_t)1 << lo;
}
