/* explain.c — the formulas behind an analysis, with their numbers. */
#include "explain.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double explain_weights_ratio(double weights_bytes, double hbm_bytes)
{
    if (!(hbm_bytes > 0.0) || !isfinite(hbm_bytes) || !isfinite(weights_bytes))
        return NAN;
    return weights_bytes / hbm_bytes;
}

double explain_terms_sum(const struct latency_term *terms, int n)
{
    double sum = 0.0;
    for (int i = 0; terms && i < n; i++)
        sum += terms[i].seconds;
    return sum;
}

/* Appends one line of kind k (printf style); dropped when the list is full. */
static void line(struct explanation *e, enum rt_explain_kind k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void line(struct explanation *e, enum rt_explain_kind k, const char *fmt, ...)
{
    if (e->count >= RT_EXPLAIN_MAX_LINES)
        return;
    struct explain_line *l = &e->entry[e->count++];
    l->kind = k;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
}

/* Copies text into buf as 7-bit ASCII: each UTF-8 sequence (or stray byte
 * above 0x7F) becomes one '?', control characters a blank. */
static const char *ascii_text(char *buf, size_t size, const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p && n + 1 < size; p++) {
        if (*p >= 0x80 && (*p & 0xC0) == 0x80)
            continue; /* a continuation byte: its lead byte was written already */
        buf[n++] = *p >= 0x80 ? '?' : *p < 0x20 || *p == 0x7F ? ' ' : (char)*p;
    }
    if (size > 0)
        buf[n] = '\0';
    return buf;
}

/* Seconds of a turn as the guide prints them: "5.822 s", "0.683 s"; under
 * 0.01 s in ms or us, never "0.000 s". */
static const char *turn_s(char *buf, size_t size, double s)
{
    return format_turn_seconds(buf, size, s);
}

/* Seconds with a sign, for a term added to the napkin: "+317.7 ms", "-1.2 ms";
 * "0" for what rounds to zero. */
static const char *signed_s(char *buf, size_t size, double s)
{
    if (fabs(s) < 5e-8) { /* rounds to zero at the finest unit */
        snprintf(buf, size, "0");
        return buf;
    }
    char t[24];
    format_seconds(t, sizeof t, fabs(s));
    snprintf(buf, size, "%s%s", s < 0.0 ? "-" : "+", t);
    return buf;
}

/* Seconds added to a figure, spaced as a sum: "+ 807.0 ms", "- 1.2 ms". */
static const char *plus_s(char *buf, size_t size, double s)
{
    char t[24];
    format_seconds(t, sizeof t, fabs(s));
    snprintf(buf, size, "%c %s", s < 0.0 ? '-' : '+', t);
    return buf;
}

/* An arithmetic intensity as the panels show it: "1.0", "241", "8192", "1.20M". */
static const char *ai(char *buf, size_t size, double v)
{
    return format_number(buf, size, v, 1);
}

/* Bytes of one element: "2 B", "0.5 B". */
static const char *elem_bytes(char *buf, size_t size, double b)
{
    snprintf(buf, size, "%g B", b);
    return buf;
}

/* Where N comes from. */
static const char *params_origin(const struct scenario *s, const struct analysis *a, char *buf, size_t size)
{
    char name[RT_MODEL_NAME_MAX];
    switch (a->params_source) {
    case RT_PARAMS_GIVEN:
        snprintf(buf, size, "--params");
        break;
    case RT_PARAMS_STATED:
        snprintf(buf, size, "%s's stated count", ascii_text(name, sizeof name, s->model.name));
        break;
    default:
        snprintf(buf, size, "counted from %s's shape", ascii_text(name, sizeof name, s->model.name));
        break;
    }
    return buf;
}

/* Why the matmuls run at another precision than the weights' (W4A16, W4A8),
 * when they do. */
static void explain_matmul_precision(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    enum rt_precision w = s->precision, m = a->compute_precision;
    char name[RT_CHIP_NAME_MAX];
    ascii_text(name, sizeof name, s->chip.key);
    if (m == w)
        return;
    if (m != RT_BF16)
        line(e, RT_EXPLAIN_SOURCE, "  W%dA%d: %s weights dequantized to %s; the matmuls run at the %s peak "
                                   "(--act-precision)",
             precision_nominal_bits(w), precision_nominal_bits(m), precision_name(w), precision_name(m),
             precision_name(m));
    else if (s->act_precision == RT_BF16)
        line(e, RT_EXPLAIN_SOURCE, "  --act-precision bf16: the matmuls run at the bf16 peak (W%dA16)",
             precision_nominal_bits(w));
    else if (w == RT_INT4)
        line(e, RT_EXPLAIN_SOURCE, "  int4 is weight-only (W4A16): the matmuls run at the bf16 peak");
    else if (s->chip.peak_flops_per_s[w] > 0.0)
        line(e, RT_EXPLAIN_SOURCE, "  %s's %s peak is below its bf16 peak: the matmuls run at the bf16 peak", name,
             precision_name(w));
    else
        line(e, RT_EXPLAIN_SOURCE, "  %s has no native %s peak: the matmuls run at the bf16 peak", name,
             precision_name(w));
}

/* Ridge point, ch. 3, and where the chip's figures come from. */
static void explain_ridge(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    char pk[32], bw[32], r[32];
    format_si(pk, sizeof pk, a->peak_flops_per_s, "FLOP/s");
    format_si(bw, sizeof bw, a->hbm_bytes_per_s, "B/s");
    snprintf(r, sizeof r, a->ridge_flop_per_byte < 10.0 ? "%.1f" : "%.0f", a->ridge_flop_per_byte);
    line(e, RT_EXPLAIN_HEADING, "Ridge point (the guide, ch. 3: roofline)");
    line(e, RT_EXPLAIN_FORMULA, "  ridge = peak / bandwidth");
    line(e, RT_EXPLAIN_NUMBERS, "        = %s / %s = %s FLOP/byte", pk, bw, r);
    char name[RT_CHIP_NAME_MAX], source[RT_EXPLAIN_LINE_MAX];
    line(e, RT_EXPLAIN_SOURCE, "  %s (%s peak): %s", ascii_text(name, sizeof name, s->chip.name),
         precision_name(a->compute_precision),
         s->chip.source[0] ? ascii_text(source, sizeof source, s->chip.source) : "no source given");
    if (s->peak_flops_override > 0.0 || s->hbm_bytes_per_s_override > 0.0 || s->hbm_bytes_override > 0.0)
        line(e, RT_EXPLAIN_SOURCE, "  overridden (flags or a scenario):%s%s%s",
             s->peak_flops_override > 0.0 ? " peak (--peak-flops)" : "",
             s->hbm_bytes_per_s_override > 0.0 ? " bandwidth (--hbm-bw)" : "",
             s->hbm_bytes_override > 0.0 ? " HBM (--hbm-bytes)" : "");
    explain_matmul_precision(e, s, a);
}

/* The napkin's prefill, decode, turn and verdict, ch. 5-6. */
static void explain_napkin(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    const struct latency_verdict *n = &a->napkin;
    bool moe = a->active_params < a->params;
    const char *nf = moe ? "N_active" : "N";
    char np[24], na[24], pk[32], bw[32], m[16], t1[24], t2[24], t3[24], t4[24], b[24], by[16], origin[96];
    format_count(np, sizeof np, a->params);
    format_count(na, sizeof na, a->active_params);
    format_si(pk, sizeof pk, a->peak_flops_per_s, "FLOP/s");
    format_si(bw, sizeof bw, a->hbm_bytes_per_s, "B/s");
    elem_bytes(by, sizeof by, a->bytes_per_weight);

    line(e, RT_EXPLAIN_HEADING, "Napkin prefill (the guide, ch. 5: 2N FLOPs per token)");
    line(e, RT_EXPLAIN_FORMULA, "  prefill = 2 x %s x tokens x batch / (chips x peak x MFU)", nf);
    line(e, RT_EXPLAIN_NUMBERS, "          = 2 x %s x %lld x %lld / (%lld x %s x %s) = %s", na,
         (long long)s->prefill_tokens, (long long)s->batch, (long long)s->chips, pk, format_percent(m, sizeof m, s->mfu),
         turn_s(t1, sizeof t1, n->prefill_s));
    if (moe)
        line(e, RT_EXPLAIN_SOURCE, "  %s = %s of %s (MoE: FLOPs pay the active experts only)", nf,
             na, np);
    else
        line(e, RT_EXPLAIN_SOURCE, "  N = %s: %s; MFU: the prefill MFU the napkin assumes (knob prefl MFU, --mfu)", np,
             params_origin(s, a, origin, sizeof origin));

    line(e, RT_EXPLAIN_HEADING, "Napkin decode (the guide, ch. 5: every token re-reads every weight)");
    line(e, RT_EXPLAIN_FORMULA, "  decode = tokens x N x bytes / (chips x bandwidth)");
    line(e, RT_EXPLAIN_NUMBERS, "         = %lld x %s x %s / (%lld x %s) = %s", (long long)s->decode_tokens, np, by,
         (long long)s->chips, bw, turn_s(t1, sizeof t1, n->decode_s));
    if (precision_scale_text(s->precision)[0])
        line(e, RT_EXPLAIN_SOURCE, "  bytes per weight: %s = %s (its width with %s); the napkin skips the KV read",
             precision_name(s->precision), by, precision_scale_text(s->precision));
    else
        line(e, RT_EXPLAIN_SOURCE, "  bytes per weight: %s = %s (its width); the napkin skips the KV read",
             precision_name(s->precision), by);

    line(e, RT_EXPLAIN_HEADING, "Turn and verdict (the guide, ch. 6)");
    line(e, RT_EXPLAIN_FORMULA, "  total = prefill + decode + overhead");
    line(e, RT_EXPLAIN_NUMBERS, "        = %s + %s + %s = %s", turn_s(t1, sizeof t1, n->prefill_s),
         turn_s(t2, sizeof t2, n->decode_s), turn_s(t3, sizeof t3, n->overhead_s),
         turn_s(t4, sizeof t4, n->total_s));
    turn_s(b, sizeof b, n->budget_s);
    line(e, n->ok ? RT_EXPLAIN_OK : RT_EXPLAIN_MISS, "  %s %s budget %s: %s (napkin model%s)", t4,
         n->ok ? "<=" : ">", b, n->ok ? "OK" : "MISS",
         a->latency_model == RT_LATENCY_NAPKIN ? ", the verdict shown" : "");
    if (n->chips_for_budget > 0)
        line(e, RT_EXPLAIN_FORMULA, "  chips for the budget: the smallest power of two whose total fits: %lld",
             (long long)n->chips_for_budget);
    else
        line(e, RT_EXPLAIN_FORMULA, "  chips for the budget: none up to %lld (--max-chips) fits",
             (long long)n->max_chips);
    line(e, RT_EXPLAIN_SOURCE, "  budget and overhead: the knobs (the guide's 1.0 s and 0.25 s)");
}

/* Chips to hold the weights, ch. 6. */
static void explain_weights(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    char np[24], by[16], h[24];
    format_count(np, sizeof np, a->params);
    elem_bytes(by, sizeof by, a->bytes_per_weight);
    format_si(h, sizeof h, a->hbm_bytes, "B");
    line(e, RT_EXPLAIN_HEADING, "Chips to hold the weights (the guide, ch. 6)");
    line(e, RT_EXPLAIN_FORMULA, "  chips = ceil(N x bytes / HBM)");
    line(e, RT_EXPLAIN_NUMBERS, "        = ceil(%s x %s / %s) = ceil(%.2f) = %lld", np, by, h,
         explain_weights_ratio(a->memory.weights_bytes, a->hbm_bytes), (long long)a->memory.weights_fit_chips);
    line(e, RT_EXPLAIN_SOURCE, "  HBM per chip: %s", s->hbm_bytes_override > 0.0 ? "--hbm-bytes" : "the chip's datasheet");
}

/* KV cache per token and per request, GQA, ch. 7. */
static void explain_kv(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    const struct model_shape *m = &s->model;
    const struct memory_verdict *mv = &a->memory;
    char kb[16], pt[24], pr[24];
    elem_bytes(kb, sizeof kb, a->bytes_per_kv_element);
    format_si(pt, sizeof pt, mv->kv_cache_bytes_per_token, "B");
    format_si(pr, sizeof pr, mv->kv_cache_bytes_per_request, "B");
    line(e, RT_EXPLAIN_HEADING, "KV cache (the guide, ch. 7)");
    long long la = (long long)model_attention_layers(m);
    bool all_attention = la == (long long)m->layers;
    const char *layers = all_attention ? "layers" : "attention layers";
    if (m->kv_lora_rank > 0) {
        line(e, RT_EXPLAIN_FORMULA, "  per token = %s x (kv_lora_rank + rope_dim) x bytes (MLA latent)", layers);
        line(e, RT_EXPLAIN_NUMBERS, "            = %lld x (%lld + %lld) x %s = %s", la, (long long)m->kv_lora_rank,
             (long long)m->qk_rope_head_dim, kb, pt);
    } else if (model_v_head_dim(m) != m->d_head) {
        line(e, RT_EXPLAIN_FORMULA, "  per token = %s x kv_heads x (d_head + v_head_dim) x bytes", layers);
        line(e, RT_EXPLAIN_NUMBERS, "            = %lld x %lld x (%lld + %lld) x %s = %s", la, (long long)m->kv_heads,
             (long long)m->d_head, (long long)model_v_head_dim(m), kb, pt);
    } else {
        line(e, RT_EXPLAIN_FORMULA, "  per token = 2 x %s x kv_heads x d_head x bytes", layers);
        line(e, RT_EXPLAIN_NUMBERS, "            = 2 x %lld x %lld x %lld x %s = %s", la, (long long)m->kv_heads,
             (long long)m->d_head, kb, pt);
    }
    if (!model_all_full_attention(m)) {
        char pattern[160];
        line(e, RT_EXPLAIN_FORMULA, "  per request = sum over layers of min(context, window) x per-layer bytes");
        line(e, RT_EXPLAIN_NUMBERS, "              = %s at %lld tokens (%s)", pr, (long long)s->context_tokens,
             model_schedule_summary(m, pattern, sizeof pattern));
    } else {
        line(e, RT_EXPLAIN_NUMBERS, "  per request = per token x context = %s x %lld = %s", pt,
             (long long)s->context_tokens, pr);
    }
    if (mv->state_bytes_per_request > 0.0) {
        char st[24];
        line(e, RT_EXPLAIN_NUMBERS, "  fixed state of the linear/Mamba layers = %s per request, any context",
             format_si(st, sizeof st, mv->state_bytes_per_request, "B"));
    }
    if (m->kv_lora_rank > 0)
        line(e, RT_EXPLAIN_SOURCE, "  KV elements: %s = %s (--kv-precision); MLA: DeepSeek-V2, sec. 2.1",
             precision_name(s->kv_precision), kb);
    else {
        line(e, RT_EXPLAIN_FORMULA, "  GQA saving = heads / kv_heads = %lld / %lld = %.1fx", (long long)m->heads,
             (long long)m->kv_heads, a->gqa_saving);
        line(e, RT_EXPLAIN_SOURCE, "  KV elements: %s = %s (--kv-precision); K and V: the factor 2",
             precision_name(s->kv_precision), kb);
    }
}

/* Decode batch intensity, ch. 8, and where the decode point sits. */
static void explain_decode_intensity(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    bool moe = a->active_params < a->params;
    char na[24], w[24], pr[24], v[24], at[32], f[16];
    format_count(na, sizeof na, a->active_params);
    format_si(w, sizeof w, a->memory.weights_bytes, "B");
    format_si(pr, sizeof pr, a->memory.kv_cache_bytes_per_request, "B");
    line(e, RT_EXPLAIN_HEADING, "Decode batch intensity (the guide, ch. 8: the decode wall)");
    if (a->memory.state_bytes_per_request > 0.0) {
        char st[24];
        format_si(st, sizeof st, a->memory.state_bytes_per_request, "B");
        line(e, RT_EXPLAIN_FORMULA, "  AI = 2 x %s x batch / (N x bytes + batch x (KV + state) per request)",
             moe ? "N_active" : "N");
        line(e, RT_EXPLAIN_NUMBERS, "     = 2 x %s x %lld / (%s + %lld x (%s + %s)) = %s FLOP/byte", na,
             (long long)s->batch, w, (long long)s->batch, pr, st, ai(v, sizeof v, a->decode_batch_intensity_flop_per_byte));
    } else {
        line(e, RT_EXPLAIN_FORMULA, "  AI = 2 x %s x batch / (N x bytes + batch x KV per request)",
             moe ? "N_active" : "N");
        line(e, RT_EXPLAIN_NUMBERS, "     = 2 x %s x %lld / (%s + %lld x %s) = %s FLOP/byte", na, (long long)s->batch,
             w, (long long)s->batch, pr, ai(v, sizeof v, a->decode_batch_intensity_flop_per_byte));
    }
    const struct placement *p = analysis_phase_placement(a, "decode");
    if (p && fabs(p->roof.intensity_flop_per_byte - a->decode_batch_intensity_flop_per_byte) >
                 1e-9 * a->decode_batch_intensity_flop_per_byte)
        line(e, RT_EXPLAIN_FORMULA, "  the decode row counts the floor step's FLOPs and the bytes of the experts "
                                    "it reads: %s FLOP/byte",
             ai(v, sizeof v, p->roof.intensity_flop_per_byte));
    if (p)
        line(e, RT_EXPLAIN_FORMULA, "  attains min(peak, bw x AI) = %s, %s of peak: %s-bound",
             format_si(at, sizeof at, p->roof.attainable_flops_per_s, "FLOP/s"),
             format_percent(f, sizeof f, p->roof.fraction_of_peak), bound_name(p->roof.bound));
}

/* The detailed model: the napkin's times plus named terms. */
static void explain_detailed(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    const struct detailed_latency *d = &a->detailed;
    char v[32], t1[40], t2[40], t3[40], t4[40], b[40];
    line(e, RT_EXPLAIN_HEADING, "Detailed model (beyond the napkin: every operation)");
    line(e, RT_EXPLAIN_FORMULA, "  each operation takes max(FLOPs / its unit's peak, bytes / bandwidth)");
    format_si(v, sizeof v, a->hw.vector_flops_per_s, "FLOP/s");
    if (s->chip.vector_flops_per_s > 0.0)
        line(e, RT_EXPLAIN_SOURCE, "  vector unit %s: the chip's datasheet (non-tensor FP32)", v);
    else
        line(e, RT_EXPLAIN_SOURCE, "  vector unit %s: peak / 50 (none published; the guide, ch. 2)", v);
    if (s->prefill_tokens > 0) {
        line(e, RT_EXPLAIN_NUMBERS, "  prefill = napkin + terms = %s %s = %s", turn_s(t1, sizeof t1, a->napkin.prefill_s),
             plus_s(t2, sizeof t2, explain_terms_sum(d->prefill_terms, d->prefill_term_count)),
             turn_s(t3, sizeof t3, d->prefill_s));
        for (int i = 0; i < d->prefill_term_count; i++)
            line(e, RT_EXPLAIN_FORMULA, "    %9s  %s", signed_s(t1, sizeof t1, d->prefill_terms[i].seconds),
                 d->prefill_terms[i].name);
    }
    double napkin_step = decode_seconds(1.0, a->params, a->bytes_per_weight, a->hbm_bytes_per_s, (double)s->chips);
    line(e, RT_EXPLAIN_NUMBERS, "  decode step = napkin + terms = %s %s = %s", format_seconds(t1, sizeof t1, napkin_step),
         plus_s(t2, sizeof t2, explain_terms_sum(d->decode_terms, d->decode_term_count)),
         format_seconds(t3, sizeof t3, d->decode_step_s));
    for (int i = 0; i < d->decode_term_count; i++)
        line(e, RT_EXPLAIN_FORMULA, "    %9s  %s", signed_s(t1, sizeof t1, d->decode_terms[i].seconds),
             d->decode_terms[i].name);
    if (a->speculative.enabled)
        line(e, RT_EXPLAIN_NUMBERS, "  decode = %lld x %s per token (speculative: %.2f tokens a pass) = %s",
             (long long)s->decode_tokens, format_seconds(t1, sizeof t1, d->tpot_s), a->speculative.tokens_per_pass,
             turn_s(t2, sizeof t2, d->decode_s));
    else
        line(e, RT_EXPLAIN_NUMBERS, "  decode = %lld x %s = %s", (long long)s->decode_tokens,
             format_seconds(t1, sizeof t1, d->decode_step_s), turn_s(t2, sizeof t2, d->decode_s));
    line(e, RT_EXPLAIN_NUMBERS, "  total = %s + %s + %s = %s", turn_s(t1, sizeof t1, d->prefill_s),
         turn_s(t2, sizeof t2, d->decode_s), turn_s(t3, sizeof t3, d->overhead_s),
         turn_s(t4, sizeof t4, d->total_s));
    turn_s(t1, sizeof t1, d->total_s);
    turn_s(b, sizeof b, d->budget_s);
    if (d->chips_for_budget > 0)
        snprintf(t2, sizeof t2, "%lld", (long long)d->chips_for_budget);
    else
        snprintf(t2, sizeof t2, "none up to %lld", (long long)a->latency.max_chips);
    line(e, d->ok ? RT_EXPLAIN_OK : RT_EXPLAIN_MISS, "  %s %s budget %s: %s (detailed model%s); chips for it: %s", t1,
         d->ok ? "<=" : ">", b, d->ok ? "OK" : "MISS",
         a->latency_model == RT_LATENCY_DETAILED ? ", the verdict shown" : "", t2);
}

/* The realistic estimate: the floor's operations through the profiles. */
static void explain_realistic(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    const struct realistic_latency *r = &a->realistic;
    const struct efficiency_profile *p = &a->efficiency;
    char t1[32], t2[32], t3[32], t4[32], b[32];
    line(e, RT_EXPLAIN_HEADING, "Realistic estimate (the floor through what real kernels achieve)");
    line(e, RT_EXPLAIN_FORMULA, "  op = max(compute / (matmul share x waves), memory / bandwidth share) + kernels x launch");
    line(e, RT_EXPLAIN_NUMBERS, "  %s profile: matmul %s %.3f, memory %.3f, launch %.1f us, %lld SMs",
         r->chip_calibrated ? "calibrated" : "generic (uncalibrated)", precision_name(a->compute_precision),
         p->matmul[a->compute_precision], p->memory, p->kernel_s * 1e6, (long long)p->sm_count);
    line(e, RT_EXPLAIN_NUMBERS, "  all-reduce = min(ring 2(n-1), tree 2 log2 n) x %.2f us + bytes / (link x %.3f)",
         p->allreduce_step_s * 1e6, p->link);
    line(e, RT_EXPLAIN_NUMBERS, "  engine %s: %.2f ms a pass, %.2f ms a request, attention %.2f, MoE %.2f%s",
         s->engine.name, s->engine.step_s * 1e3, s->engine.request_s * 1e3, s->engine.attention, s->engine.moe,
         r->engine_calibrated ? "" : " (uncalibrated)");
    turn_s(t1, sizeof t1, r->prefill_s);
    turn_s(t2, sizeof t2, r->decode_s);
    turn_s(t3, sizeof t3, r->overhead_s);
    turn_s(t4, sizeof t4, r->total_s);
    turn_s(b, sizeof b, r->budget_s);
    line(e, RT_EXPLAIN_NUMBERS, "  turn = %s + %s + %s = %s", t1, t2, t3, t4);
    line(e, r->ok ? RT_EXPLAIN_OK : RT_EXPLAIN_MISS, "  %s %s budget %s: %s (realistic%s)", t4, r->ok ? "<=" : ">", b,
         r->ok ? "OK" : "MISS", a->latency_model == RT_LATENCY_REALISTIC ? ", the verdict shown" : "");
    line(e, RT_EXPLAIN_SOURCE, "  %s", p->source);
}

/* MFU: the PaLM convention for a step from the shape, or the matmul share. */
static void explain_mfu(struct explanation *e, const struct scenario *s, const struct analysis *a)
{
    const struct mfu_budget *mb = &a->mfu_budget;
    const struct training_figures *tr = &a->training;
    char m[16], h[16], t1[32], t2[32], pk[32], lost[160];
    format_percent(m, sizeof m, mb->mfu);
    format_percent(h, sizeof h, a->hfu);
    size_t used = 0;
    lost[0] = '\0';
    for (int p = RT_PART_VECTOR; p < RT_PART_COUNT && used < sizeof lost; p++) {
        if (p == RT_PART_BUBBLE && !(mb->seconds[p] > 0.0))
            continue;
        int k = snprintf(lost + used, sizeof lost - used, "%s%s %s", p == RT_PART_VECTOR ? "" : ", ",
                         step_part_name((enum rt_step_part)p), format_percent(t1, sizeof t1, mb->fraction[p]));
        if (k < 0)
            break;
        used += (size_t)k;
    }
    if (a->mfu_budget_source == RT_BUDGET_STEP_TIMES) {
        line(e, RT_EXPLAIN_HEADING, "MFU budget from step times (the guide, ch. 4)");
        line(e, RT_EXPLAIN_FORMULA, "  MFU = matmul time / step time");
        line(e, RT_EXPLAIN_NUMBERS, "      = %s / %s = %s",
             format_seconds(t1, sizeof t1, mb->seconds[RT_PART_MATMUL]),
             format_seconds(t2, sizeof t2, mb->total_s), m);
        line(e, RT_EXPLAIN_NUMBERS, "  HFU = MFU x recompute = %s x %.2f = %s", m, a->recompute_factor, h);
        line(e, RT_EXPLAIN_FORMULA, "  lost: %s", lost);
        line(e, RT_EXPLAIN_FORMULA, "  biggest lever: %s", step_part_name(mb->biggest_lever));
        line(e, RT_EXPLAIN_SOURCE, "  step times: --step-times; recompute: hardware / model FLOPs (ch. 4)");
        return;
    }
    char nf[24], fl[32];
    format_count(nf, sizeof nf, a->active_params);
    format_si(fl, sizeof fl, tr->model_flops_per_token, "FLOP");
    format_si(pk, sizeof pk, a->peak_flops_per_s, "FLOP/s");
    const struct model_shape *ms = &s->model;
    bool plain = model_all_full_attention(ms) && model_v_head_dim(ms) == ms->d_head;
    bool palm = tr->convention == RT_FLOPS_PALM;
    if (palm)
        line(e, RT_EXPLAIN_HEADING, "MFU of a training step from the shape (ch. 4; PaLM, app. B)");
    else
        line(e, RT_EXPLAIN_HEADING, "MFU of a training step from the shape (ch. 4; %s count)",
             flops_convention_label(tr->convention));
    if (!palm) {
        /* --flops-convention: the count the figure was made with, not PaLM's. */
        line(e, RT_EXPLAIN_FORMULA, "  FLOPs per token = %s", flops_convention_formula(tr->convention));
        line(e, RT_EXPLAIN_NUMBERS, "                  = %s", fl);
    } else if (plain) {
        line(e, RT_EXPLAIN_FORMULA, "  FLOPs per token = 6N + 12 x L x H x Q x T");
        line(e, RT_EXPLAIN_NUMBERS, "                  = 6 x %s + 12 x %lld x %lld x %lld x %lld = %s", nf,
             (long long)ms->layers, (long long)ms->heads, (long long)ms->d_head, (long long)s->context_tokens, fl);
    } else {
        char att[32];
        line(e, RT_EXPLAIN_FORMULA, "  FLOPs per token = 6N + sum over attention layers of 6 x H x (Q + Q_v) x keys");
        line(e, RT_EXPLAIN_NUMBERS, "                  = 6 x %s + %s = %s (keys: T, or the window or chunk)", nf,
             format_si(att, sizeof att, palm_attention_flops_per_token(ms, (double)s->context_tokens), "FLOP"), fl);
    }
    line(e, RT_EXPLAIN_FORMULA, "  MFU = FLOPs per token x tokens / (step x chips x peak)");
    line(e, RT_EXPLAIN_NUMBERS, "      = %s x %.0f / (%s x %lld x %s) = %s", fl, tr->tokens_per_step,
         format_seconds(t1, sizeof t1, tr->step_s), (long long)s->chips, pk, m);
    line(e, RT_EXPLAIN_NUMBERS, "  HFU = MFU x hardware / model FLOPs = %s x %.2f = %s", m, a->recompute_factor, h);
    enum rt_mfu_shown shown = analysis_mfu_shown(a, false);
    if (shown == RT_MFU_CAUSAL) {
        char cm[16], ch[16];
        line(e, RT_EXPLAIN_MISS, "  over 100%%: %s counts attention over the whole context; the step runs it causal",
             flops_convention_label(tr->convention));
        line(e, RT_EXPLAIN_NUMBERS, "  causal (6N + 6 x L x H x Q x T): MFU %s, HFU %s, the figures the views give",
             format_percent(cm, sizeof cm, a->budget_causal_mfu), format_percent(ch, sizeof ch, a->budget_causal_hfu));
    } else if (shown == RT_MFU_NONE) {
        char st[24], hb[24];
        line(e, RT_EXPLAIN_MISS, "  on paper only: Adam's state, 16 x N / %lld chips = %s a chip, is more than %s of HBM",
             (long long)s->chips, format_si(st, sizeof st, tr->state_bytes_per_chip, "B"),
             format_si(hb, sizeof hb, a->hbm_bytes, "B"));
        line(e, RT_EXPLAIN_NUMBERS, "  so the step cannot run and has no MFU: it needs %.0f chips or more (or ZeRO)",
             tr->state_fit_chips);
    }
    line(e, RT_EXPLAIN_FORMULA, "  lost: %s", lost);
    line(e, RT_EXPLAIN_FORMULA, "  biggest lever: %s", step_part_name(mb->biggest_lever));
    if (tr->measured)
        line(e, RT_EXPLAIN_NUMBERS, "  measured: FLOPs per token x %g tokens/s / (all chips x peak) = MFU %s%s",
             s->measured_train_tokens_per_s, format_percent(t2, sizeof t2, tr->mfu),
             tr->causal_mfu > 1.0  ? " (over 100% even counted causally: the rate, the chips or the peak is off)"
             : tr->mfu > 1.0       ? " (over 100% from non-causal attention: the causal count is under it)"
                                   : "");
    line(e, RT_EXPLAIN_FORMULA, "  (L layers, H heads, Q = d_head, T = context; step: the MFU bar)");
    if (palm)
        line(e, RT_EXPLAIN_SOURCE, "  PaLM: Chowdhery et al. 2022, app. B (attention FLOPs not halved)");
    else
        line(e, RT_EXPLAIN_SOURCE, "  --flops-convention %s; PaLM's count is the default",
             flops_convention_name(tr->convention));
}

int explain_analysis(const struct scenario *s, const struct analysis *a, struct explanation *out)
{
    if (out)
        out->count = 0;
    if (!s || !a || !out)
        return -1;
    explain_ridge(out, s, a);
    explain_napkin(out, s, a);
    explain_weights(out, s, a);
    explain_kv(out, s, a);
    explain_decode_intensity(out, s, a);
    explain_detailed(out, s, a);
    explain_realistic(out, s, a);
    explain_mfu(out, s, a);
    return out->count;
}
