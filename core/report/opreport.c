/* opreport.c — one operation's report (opreport.h). */
#include "opreport.h"

#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "units.h"

const char *kernel_source_name(enum rt_kernel_source src)
{
    switch (src) {
    case RT_KSRC_MEASURED: return "measured";
    case RT_KSRC_NEAR: return "near";
    case RT_KSRC_BORROWED: return "borrowed";
    default: return "default";
    }
}

char *op_shape_text(char *buf, size_t size, const struct kernel_shape *k)
{
    char a[24], b[24], c[24];
    const char *name = kernel_kind_name(k->kind);
    switch (k->kind) {
    case RT_KERNEL_GEMM:
        snprintf(buf, size, "%s %s x %s x %s (%s)", name, format_number(a, sizeof a, k->m, 0),
                 format_number(b, sizeof b, k->n, 0), format_number(c, sizeof c, k->k, 0), kernel_format_name(k->format));
        break;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA:
        snprintf(buf, size, "%s batch %.0f x %s tokens, %.0f/%.0f heads x %.0f%s (%s, kv %s)", name, k->batch,
                 format_number(a, sizeof a, k->seq, 0), k->heads, k->kv_heads, k->head_dim,
                 k->window > 0.0 && k->window < k->seq ? ", windowed" : "", kernel_format_name(k->format), k->kv_fp8 ? "fp8" : "bf16");
        break;
    case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA:
        snprintf(buf, size, "%s batch %.0f, %s cached, %.0f/%.0f heads x %.0f%s (kv %s)", name, k->batch,
                 format_number(a, sizeof a, k->kv_len, 0), k->heads, k->kv_heads, k->head_dim,
                 k->window > 0.0 && k->window < k->kv_len ? ", windowed" : "", k->kv_fp8 ? "fp8" : "bf16");
        break;
    case RT_KERNEL_MOE:
        snprintf(buf, size, "%s %s tokens, %.0f -> %.0f, top-%.0f of %.0f experts, tp %.0f ep %.0f%s (%s)", name,
                 format_number(a, sizeof a, k->tokens, 0), k->hidden, k->inter, k->topk, k->experts, k->moe_tp,
                 k->moe_ep, k->skew > 0.0 ? ", skewed" : "", kernel_format_name(k->format));
        break;
    default:
        snprintf(buf, size, "%s %s over %.0f chips", name, format_si(a, sizeof a, k->message_bytes, "B"), k->gpus);
        break;
    }
    return buf;
}

const char *op_bound_name(const struct operation_figures *o)
{
    if (kernel_kind_is_collective(o->shape.kind))
        return "link";
    return o->compute_bound ? "compute" : "memory"; /* the roofline's bound, as every placement says it */
}

static void shape_json(cJSON *obj, const struct kernel_shape *k)
{
    switch (k->kind) {
    case RT_KERNEL_GEMM:
        json_add_exact(obj, "m", k->m);
        json_add_exact(obj, "n", k->n);
        json_add_exact(obj, "k", k->k);
        break;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_MLA: case RT_KERNEL_DECODE_ATTENTION: case RT_KERNEL_DECODE_MLA:
        json_add_exact(obj, "batch", k->batch);
        if (k->kind == RT_KERNEL_ATTENTION || k->kind == RT_KERNEL_MLA)
            json_add_exact(obj, "seq", k->seq);
        else
            json_add_exact(obj, "kv_len", k->kv_len);
        json_add_exact(obj, "heads", k->heads);
        json_add_exact(obj, "kv_heads", k->kv_heads);
        json_add_exact(obj, "head_dim", k->head_dim);
        json_add_exact(obj, "window", k->window);
        break;
    case RT_KERNEL_MOE:
        json_add_exact(obj, "tokens", k->tokens);
        json_add_exact(obj, "hidden", k->hidden);
        json_add_exact(obj, "inter", k->inter);
        json_add_exact(obj, "topk", k->topk);
        json_add_exact(obj, "experts", k->experts);
        json_add_exact(obj, "tp", k->moe_tp);
        json_add_exact(obj, "ep", k->moe_ep);
        json_add_exact(obj, "skew", k->skew);
        break;
    default:
        json_add_exact(obj, "bytes", k->message_bytes);
        json_add_exact(obj, "gpus", k->gpus);
        break;
    }
}

void op_report_json(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    (void)s;
    const struct operation_figures *o = &a->operation;
    const struct kernel_estimate *e = &o->estimate;
    cJSON *op = cJSON_AddObjectToObject(root, "operation");
    cJSON_AddStringToObject(op, "kind", kernel_kind_name(o->shape.kind));
    shape_json(cJSON_AddObjectToObject(op, "shape"), &o->shape);
    cJSON_AddStringToObject(op, "format", kernel_format_name(o->shape.format));
    if (kernel_kind_is_attention(o->shape.kind))
        cJSON_AddStringToObject(op, "kv", o->shape.kv_fp8 ? "fp8" : "bf16");
    cJSON_AddStringToObject(op, "kernel", kernel_family_name(e->fit ? (enum rt_kernel_family)e->fit->family
                                                                     : o->shape.family));
    cJSON_AddStringToObject(op, "cache", o->shape.warm_cache ? "warm" : "cold");
    json_add_exact(op, "flops", e->flops);
    json_add_exact(op, "bytes", e->bytes);
    json_add_exact(op, "intensity_flop_per_byte", o->intensity_flop_per_byte);
    cJSON_AddStringToObject(op, "bound", op_bound_name(o));
    json_add_exact(op, "floor_s", e->floor_s);
    json_add_exact(op, "realistic_s", e->realistic_s);
    json_add_exact(op, "realistic_error_fraction", e->error_fraction);
    json_add_exact(op, "compute_s", e->compute_s);
    json_add_exact(op, "memory_s", e->memory_s);
    json_add_exact(op, "fixed_s", e->fixed_s);
    json_add_exact(op, "peak_flops_per_s", e->peak_flops_per_s);
    json_add_exact(op, "realistic_flops_per_s", o->realistic_flops_per_s);
    json_add_exact(op, "fraction_of_peak", o->fraction_of_peak);
    cJSON_AddStringToObject(op, "source", kernel_source_name(e->source));
    cJSON *prof = cJSON_AddObjectToObject(op, "profile");
    cJSON_AddStringToObject(prof, "from", o->profile_from);
    cJSON_AddBoolToObject(prof, "measured", o->profile_measured);
    cJSON_AddStringToObject(prof, "engine", kernel_engine_name(o->engine));
    cJSON_AddBoolToObject(prof, "engine_guessed", o->engine_guessed);
    if (e->fit) {
        const struct kernel_fit *f = e->fit;
        cJSON *fit = cJSON_AddObjectToObject(prof, "fit");
        cJSON_AddStringToObject(fit, "kind", kernel_kind_name((enum rt_kernel_kind)f->kind));
        cJSON_AddStringToObject(fit, "engine",
                                kernel_engine_label((enum rt_kernel_kind)f->kind, (enum rt_kernel_engine)f->engine));
        cJSON_AddStringToObject(fit, "format", kernel_format_name((enum rt_kernel_format)f->format));
        cJSON_AddStringToObject(fit, "kernel", kernel_family_name((enum rt_kernel_family)f->family));
        cJSON_AddNumberToObject(fit, "rows", f->rows);
        json_add_exact(fit, "cv_error_fraction", kernel_fit_error(f));
        cJSON *params = cJSON_AddObjectToObject(fit, "params");
        for (int i = 0; i < kernel_param_count((enum rt_kernel_kind)f->kind); i++)
            json_add_exact(params, kernel_param_name((enum rt_kernel_kind)f->kind, i), (double)f->p[i]);
    } else {
        cJSON_AddNullToObject(prof, "fit");
    }
    cJSON *why = cJSON_AddArrayToObject(op, "why");
    char line[160];
    for (int i = 0; i < e->why_count; i++)
        cJSON_AddItemToArray(why, cJSON_CreateString(kernel_reason_text(line, sizeof line, &e->why[i])));
}

char *op_profile_text(char *buf, size_t size, const struct operation_figures *o)
{
    const struct kernel_estimate *e = &o->estimate;
    switch (e->source) {
    case RT_KSRC_MEASURED: snprintf(buf, size, "measured %s profile", o->profile_from); break;
    case RT_KSRC_NEAR: snprintf(buf, size, "measured %s profile, a near kernel", o->profile_from); break;
    case RT_KSRC_BORROWED: snprintf(buf, size, "borrowed from %s", o->profile_from); break;
    default: snprintf(buf, size, "default constants, nothing measured"); break;
    }
    return buf;
}

/* One figure of the report: a table row in markdown, an aligned line in text. */
static void op_line(struct strbuf *sb, bool markdown, const char *label, const char *value)
{
    sb_printf(sb, markdown ? "| %s | %s |\n" : "  %-14s  %s\n", label, value);
}

void op_report_text(struct strbuf *sb, const struct scenario *s, const struct analysis *a, bool markdown)
{
    const struct operation_figures *o = &a->operation;
    const struct kernel_estimate *e = &o->estimate;
    char shape[200], fl[24], re[24], ai[24], rate[24], peak[24], by[80], value[320];
    op_shape_text(shape, sizeof shape, &o->shape);
    format_turn_seconds(fl, sizeof fl, e->floor_s);
    format_turn_seconds(re, sizeof re, e->realistic_s);
    format_number(ai, sizeof ai, o->intensity_flop_per_byte, 1);
    format_si(rate, sizeof rate, o->realistic_flops_per_s, "FLOP/s");
    format_si(peak, sizeof peak, e->peak_flops_per_s, "FLOP/s");
    op_profile_text(by, sizeof by, o);
    bool standing = o->engine_guessed && !kernel_kind_is_nccl(o->shape.kind);
    if (markdown)
        sb_printf(sb, "## %s on %s\n\n| figure | value |\n| --- | --- |\n", shape, s->chip.key);
    else
        sb_printf(sb, "%s on %s (%s)\n", shape, s->chip.key, s->chip.name);
    if (kernel_kind_is_collective(o->shape.kind)) /* no FLOPs: its bytes over the link */
        snprintf(value, sizeof value, "%s  (link-bound: its bytes over the link)", fl);
    else
        snprintf(value, sizeof value, "%s  (%s-bound, %s FLOP/byte)", fl, op_bound_name(o), ai);
    op_line(sb, markdown, "roofline floor", value);
    snprintf(value, sizeof value, "%s  ±%.0f%%  (%s; %s kernels%s%s)", re, 100.0 * e->error_fraction, by,
             kernel_engine_label(o->shape.kind, o->engine), standing ? ", standing in for " : "",
             standing ? s->engine.name : "");
    op_line(sb, markdown, "realistic", value);
    if (e->peak_flops_per_s > 0.0) {
        snprintf(value, sizeof value, "%s, %.1f%% of the %s peak", rate, 100.0 * o->fraction_of_peak, peak);
        op_line(sb, markdown, "achieved", value);
    }
    sb_printf(sb, markdown ? "\nWhy:\n" : "  why:\n");
    char line[160];
    for (int i = 0; i < e->why_count; i++)
        sb_printf(sb, markdown ? "- %s\n" : "    %s\n", kernel_reason_text(line, sizeof line, &e->why[i]));
    if (o->shape.warm_cache)
        sb_printf(sb, markdown ? "- %s\n" : "    %s\n",
                  "timed alone and repeatedly (cache=warm): operands that fit in L2 come from it");
}
