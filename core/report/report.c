/* report.c — text, markdown, JSON and CSV renderings of an analysis. */
#include "report.h"

#include "profileops.h"

#include "notewords.h"
#include "opreport.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "chipfile.h"
#include "jsonio.h"
#include "modeljson.h"
#include "profileops.h"
#include "strbuf.h"
#include "textsafe.h"
#include "version.h"

int format_parse(const char *text, enum rt_format *out)
{
    static const struct { const char *name; enum rt_format f; } names[] = {
        {"text", RT_FORMAT_TEXT}, {"markdown", RT_FORMAT_MARKDOWN}, {"md", RT_FORMAT_MARKDOWN},
        {"json", RT_FORMAT_JSON}, {"csv", RT_FORMAT_CSV}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (text && strcmp(text, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
    }
    return -1;
}

/* "OK" or "MISS" for a yes/no verdict. */
static const char *ok_text(bool ok)
{
    return ok ? "OK" : "MISS";
}

const char *verdict_name(const struct latency_verdict *l)
{
    return ok_text(l->ok);
}

/* An operation's arithmetic intensity as the reports print it: "on chip"
 * for one that moves no HBM bytes (a fused softmax), else FLOP/byte. */
static void intensity_text(const struct placement *p, char *buf, size_t size)
{
    if (p->on_chip)
        snprintf(buf, size, "on chip");
    else
        snprintf(buf, size, "%.1f", p->roof.intensity_flop_per_byte);
}

/* Appends, after lead, whether the three estimates split on the verdict or
 * only differ in size (by more than 25%); nothing when they agree. */
static void disagreement(struct strbuf *sb, const struct analysis *a, const char *lead)
{
    if (a->verdicts_split)
        sb_printf(sb, "%sThe three estimates disagree on the verdict: read the table.", lead);
    else if (a->estimates_disagree)
    {
        char lo[24], hi[24];
        sb_printf(sb, "%sThe three estimates agree on the verdict but differ %.1fx (%s to %s): read the table.", lead,
                  a->estimate_max_s / a->estimate_min_s, format_turn_seconds(lo, sizeof lo, a->estimate_min_s),
                  format_turn_seconds(hi, sizeof hi, a->estimate_max_s));
    }
}

/* One row of the text report's latency table: the name and the three
 * estimates' times, 11 columns each ("    5.822 s", "    45.3 ms"), no newline. */
static void latency_row(struct strbuf *sb, const char *name, double napkin, double floor_s, double realistic)
{
    char x[24], y[24], z[24];
    sb_printf(sb, "  %-10s %11s %11s %11s", name, format_turn_seconds(x, sizeof x, napkin),
              format_turn_seconds(y, sizeof y, floor_s), format_turn_seconds(z, sizeof z, realistic));
}

/* One row of the markdown report's latency table, the times in bold when bold. */
static void md_latency_row(struct strbuf *sb, const char *name, const double t[3], bool bold)
{
    char x[3][24];
    const char *b = bold ? "**" : "";
    for (int i = 0; i < 3; i++)
        format_turn_seconds(x[i], sizeof x[i], t[i]);
    sb_printf(sb, "| %s | %s%s%s | %s%s%s | %s%s%s |\n", name, b, x[0], b, b, x[1], b, b, x[2], b);
}


/* "64" or "none up to 65536". */
static char *chips_for_budget_text(char *buf, size_t size, int64_t chips, int64_t max_chips)
{
    if (chips > 0)
        snprintf(buf, size, "%lld", (long long)chips);
    else
        snprintf(buf, size, "none up to %lld", (long long)max_chips);
    return buf;
}


/* One-line description of the scenario: model, chips, precision, batch. */
/* One line naming every assumption the model's loader made (absent keys,
 * inferred layer patterns): prefix, then "key = value (why); ...", then end.
 * Nothing when there are none. */
static void text_assumptions(struct strbuf *sb, const struct model_shape *m, const char *prefix, const char *end)
{
    if (m->assumption_count == 0)
        return;
    sb_puts(sb, prefix);
    for (int i = 0; i < m->assumption_count; i++) {
        const struct model_assumption *as = &m->assumptions[i];
        sb_printf(sb, "%s%s = %s (%s)", i ? "; " : "", as->key, as->value, as->why);
    }
    sb_puts(sb, end);
}

/* The assumptions one to a line under a heading, for the text report. */
static void text_assumption_lines(struct strbuf *sb, const struct model_shape *m)
{
    for (int i = 0; i < m->assumption_count; i++) {
        const struct model_assumption *as = &m->assumptions[i];
        sb_printf(sb, "%s%s = %s: %s\n", i ? "             " : "Assumed      ", as->key, as->value, as->why);
    }
}

static void describe_scenario(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char params[32];
    char matmuls[40] = "";
    if (a->compute_precision != s->precision) /* W4A16, W4A8: the matmuls run at another precision */
        snprintf(matmuls, sizeof matmuls, " (%s matmuls)", precision_name(a->compute_precision));
    /* A design of more chips than one replica says so (replicas, a prefill pool): the per-chip
     * figures divide by all of them. */
    char all[64] = "", load[64];
    if (a->parallel.chips_total != s->chips)
        snprintf(all, sizeof all, " a replica (%lld chips in all)", (long long)a->parallel.chips_total);
    if (s->arrival_per_s > 0.0) /* an open loop has no batch of its own: the arrivals set it */
        snprintf(load, sizeof load, "%.3g request%s/s arriving", s->arrival_per_s, s->arrival_per_s == 1.0 ? "" : "s");
    else
        snprintf(load, sizeof load, "batch %lld", (long long)s->batch);
    sb_printf(sb, "%s (%s params, %s) on %lld x %s%s, %s weights%s, %s KV cache, %s", s->model.name,
              format_count(params, sizeof params, a->params), params_source_name(a->params_source),
              (long long)s->chips, s->chip.name, all, precision_name(s->precision), matmuls,
              precision_name(s->kv_precision), load);
}

/* A disaggregated prefill pool in words, for text and markdown (markdown bolds a pool that cannot hold
 * the weights): "8 chips as 1 worker of tp 8 x dp 1, load 0.90; the KV moves 336 MB to each decode rank
 * in 6.7 ms". */
static void pool_words(struct strbuf *sb, const struct scenario *s, const struct serving_figures *sv, bool markdown)
{
    char kv[24], move[24], experts[48] = "";
    if (s->disagg_prefill_moe_ep > 0)
        snprintf(experts, sizeof experts, " (experts over %lld ranks)", (long long)s->disagg_prefill_moe_ep);
    sb_printf(sb, "%lld chip%s as %lld worker%s of tp %lld x dp %lld%s, load %.2f; the KV moves %s to each decode rank "
                  "in %s%s",
              (long long)s->disagg_prefill_chips, s->disagg_prefill_chips == 1 ? "" : "s",
              (long long)sv->prefill_pool_workers, sv->prefill_pool_workers == 1 ? "" : "s",
              (long long)sv->prefill_pool_tp, (long long)sv->prefill_pool_dp, experts, sv->prefill_pool_load,
              format_si(kv, sizeof kv, sv->kv_bytes_per_rank, "B"), format_seconds(move, sizeof move, sv->kv_transfer_s),
              sv->prefill_pool_fits ? ""
              : markdown            ? "; **the weights do not fit on a worker**"
                                    : "; the weights do not fit on a worker");
}

/* An implied MFU over 100%, in both reports' words. */
#define IMPLIED_OVER_PEAK ": over 100%, no chip does that; the chip-hours are too few for these tokens, or the tokens too many"

/* What fails serving besides its targets, as the Verdict line adds it: " (weights do not fit)", or ""
 * (serving_blocker). Returns buf. */
static const char *blocker_words(char *buf, size_t size, const struct analysis *a)
{
    const char *b = serving_blocker(a);
    if (b)
        snprintf(buf, size, " (%s)", b);
    else if (size > 0)
        buf[0] = '\0';
    return buf;
}

/* What a measured figure over 100% is: not a convention's overcount (the
 * prefill's MFU counts causal attention, MBU the bytes a step must read),
 * so the measurement or the chip's figures are wrong. */
#define MEASURED_OVER_PEAK ": over 100%, and no chip runs above its peak, so the measurement or the chip's figures are off"

/* The measured training rate's MFU and HFU in words: plain; or, over 100%
 * because the convention counts attention whole, the causal count first and
 * the convention's beside it; or, over 100% even counted causally, said to be
 * a measurement no chip could make. Returns buf. */
static const char *measured_mfu_words(char *buf, size_t size, const struct analysis *a)
{
    const struct training_figures *tr = &a->training;
    const char *conv = flops_convention_label(tr->convention);
    if (tr->mfu <= 1.0 && tr->hfu <= 1.0)
        snprintf(buf, size, "MFU %.1f%%, HFU %.1f%%", tr->mfu * 100.0, tr->hfu * 100.0);
    else if (analysis_mfu_shown(a, true) == RT_MFU_CAUSAL && tr->causal_mfu <= 1.0 && tr->causal_hfu <= 1.0)
        snprintf(buf, size, "MFU %.1f%% causal, HFU %.1f%% causal (%s counts %.1f%%, %.1f%%: non-causal attention)",
                 tr->causal_mfu * 100.0, tr->causal_hfu * 100.0, conv, tr->mfu * 100.0, tr->hfu * 100.0);
    else
        snprintf(buf, size, "MFU %.1f%%, HFU %.1f%% (%.1f%% counted causally): over 100%%, and no chip runs above its "
                            "peak, so the rate, the chip count or the peak is off",
                 tr->mfu * 100.0, tr->hfu * 100.0, tr->causal_mfu * 100.0);
    return buf;
}

/* ---- text ---------------------------------------------------------------- */

static void text_placements(struct strbuf *sb, const struct analysis *a, const char *indent)
{
    sb_printf(sb, "%s%-15s %11s %11s %12s  %-7s  %9s  %s\n", indent, "phase", "FLOPs", "bytes", "FLOP/byte",
              "bound", "% of peak", "lever");
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (p->operation)
            continue;
        char f[24], b[24];
        sb_printf(sb, "%s%-15s %11s %11s %12.1f  %-7s  %8.1f%%  %s\n", indent, p->name,
                  format_si(f, sizeof f, p->flops, "FLOP"), format_si(b, sizeof b, p->bytes, "B"),
                  p->roof.intensity_flop_per_byte, bound_name(p->roof.bound), p->roof.fraction_of_peak * 100.0,
                  p->roof.lever);
    }
}

/* The busiest chip's memory, and the requests that fit after the activation workspace. */
static void text_chip_memory(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    const struct memory_verdict *mv = &a->memory;
    const struct chip_memory *cm = &mv->per_chip;
    char w[24], k[24], act[24], f[24];
    sb_printf(sb, "  per chip           weights %s, KV %s, activations %s (%.0f tokens), free %s%s\n",
              format_si(w, sizeof w, cm->weights_bytes, "B"), format_si(k, sizeof k, cm->kv_cache_bytes + cm->state_bytes, "B"),
              format_si(act, sizeof act, cm->activation_bytes, "B"), cm->activation_tokens,
              format_si(f, sizeof f, cm->free_bytes, "B"), cm->free_bytes < 0.0 ? " (does not fit)" : "");
    /* A replica's count: each chip holds its share of every request, or with ep its rank's own */
    sb_printf(sb, "                     %lld request%s fit a replica after the activation workspace",
              (long long)mv->max_concurrent_requests_after_workspace,
              mv->max_concurrent_requests_after_workspace == 1 ? "" : "s");
    if (s->ep > 1)
        sb_printf(sb, " (%lld on each of its %lld expert-parallel ranks)", (long long)cm->max_concurrent_requests,
                  (long long)s->ep);
    if (mv->kv_replication > 1.0 && model_mixed_geometry(&s->model)) /* each kind copies its own heads */
        sb_printf(sb, "; the KV cache is %.2fx an even split over tp %lld (layers with fewer KV heads than chips copy "
                      "theirs)",
                  mv->kv_replication, (long long)a->parallel.tp);
    else if (mv->kv_replication > 1.0)
        sb_printf(sb, "; each KV %s copied %.0fx over tp %lld", s->model.kv_lora_rank > 0 ? "latent" : "head",
                  mv->kv_replication, (long long)a->parallel.tp);
    sb_puts(sb, "\n");
}

/* A figure in the text's one number style: three significant figures below
 * 1000 ("89.1", "0.556"), then format_number's ("27.6k", "3.04M"), never
 * an exponent. Returns buf. */
static char *num3(char *buf, size_t size, double v)
{
    if (fabs(v) >= 1000.0)
        return format_number(buf, size, v, 0);
    snprintf(buf, size, "%.3g", v);
    return buf;
}

/* Cost and energy per output token: text lines (markdown false) or
 * markdown table rows; "unpublished" where no price or power is known. */
static void cost_energy_lines(struct strbuf *sb, const struct analysis *a, bool markdown)
{
    const struct cost_figures *c = &a->cost;
    const struct energy_figures *e = &a->energy;
    char n1[24], n2[24];
    const char *cost = markdown ? "| cost | " : "  cost               ";
    const char *energy = markdown ? "| energy | " : "  energy             ";
    const char *price = markdown ? "| price source | " : "  price source       ";
    const char *tail = markdown ? " |\n" : "\n";
    if (!c->known)
        sb_printf(sb, "%sunpublished: no price for this chip (--price-per-chip-hour USD)%s", cost, tail);
    else if (!c->priced)
        sb_printf(sb, "%s$%.2f per chip-hour; %s%s", cost, c->usd_per_chip_hour,
                  c->fits ? "no output tokens to price" : "the batch does not fit in memory: nothing to price", tail);
    else
        sb_printf(sb, "%s$%s per million output tokens at $%.2f per chip-hour%s", cost,
                  num3(n1, sizeof n1, c->usd_per_million_output_tokens), c->usd_per_chip_hour, tail);
    if (c->known)
        sb_printf(sb, "%s%s%s", price, c->source, tail);
    if (!e->known)
        sb_printf(sb, "%sunpublished: no power for this chip (--power-w W)%s", energy, tail);
    else if (!e->measured)
        sb_printf(sb, "%s%.0f W per chip x PUE %.2f (%s); %s%s", energy, e->power_w, e->pue, e->power_source,
                  c->fits ? "no output tokens" : "the batch does not fit in memory", tail);
    else
        sb_printf(sb, "%s%s J per output token, %s tokens per kWh (%.0f W per chip x PUE %.2f, %s)%s", energy,
                  num3(n1, sizeof n1, e->joules_per_output_token), format_number(n2, sizeof n2, e->tokens_per_kwh, 0),
                  e->power_w, e->pue, e->power_source, tail);
}

/* The layout and steady-state serving: time to first token, time per output token, throughputs. */
/* The serving layout in words: "tp 8 x pp 1 x ep 1 = 8 chips a replica, 2
 * replicas; experts over 8 ranks; prefill on its own 8 chips; 24 chips in
 * all" (the count per-chip figures divide by). */
static void serving_layout_words(struct strbuf *sb, const struct scenario *s, const struct parallel_figures *pf)
{
    sb_printf(sb, "tp %lld x pp %lld x ep %lld = %lld chip%s a replica, %lld replica%s", (long long)pf->tp,
              (long long)pf->pp, (long long)pf->ep, (long long)pf->chips_per_replica,
              pf->chips_per_replica == 1 ? "" : "s", (long long)pf->dp, pf->dp == 1 ? "" : "s");
    if (s->moe_ep > 0)
        sb_printf(sb, "; experts over %lld rank%s (--moe-ep)", (long long)s->moe_ep, s->moe_ep == 1 ? "" : "s");
    if (s->disagg_prefill_chips > 0)
        sb_printf(sb, "; prefill on its own %lld chip%s; %lld chip%s in all", (long long)s->disagg_prefill_chips,
                  s->disagg_prefill_chips == 1 ? "" : "s", (long long)pf->chips_total, pf->chips_total == 1 ? "" : "s");
    else if (pf->dp > 1)
        sb_printf(sb, "; %lld chips in all", (long long)pf->chips_total);
}

/* The speculative line: drafts, acceptance, tree, tokens a pass, and the pace against plain decoding. */
static void text_speculative(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    const struct speculative_figures *sp = &a->speculative;
    char acc[160];
    char pace[96];
    if (sp->speedup >= 1.0)
        snprintf(pace, sizeof pace, "%.2fx faster than plain decoding", sp->speedup);
    else
        snprintf(pace, sizeof pace, "%.2fx slower than plain decoding (the drafts cost more than they yield)",
                 sp->speedup > 0.0 ? 1.0 / sp->speedup : 0.0);
    sb_printf(sb, "  speculative        %lld draft tokens (%s), acceptance %s%s: %.2f tokens a pass, %s\n",
              (long long)s->spec_tokens, s->spec_draft_name[0] ? s->spec_draft_name : "an MTP head",
              scenario_spec_accept_words(s, acc, sizeof acc),
              sp->verify_tokens > (double)s->spec_tokens + 1.0 ? ", a tree verified" : "", sp->tokens_per_pass,
              pace);
}

/* Whether the steady TTFT's parts (the frontend, the step in flight, the wait, its own prefill) add up
 * to it, so that a report may list them: not in an overloaded open loop, nor for a one-token answer. */
static bool ttft_parts_add_up(const struct serving_figures *sv)
{
    const struct serving_loop *lp = &sv->loop;
    double parts = lp->frontend_s + lp->in_flight_s + lp->wait_s + lp->own_s;
    return !lp->overloaded && sv->ttft_s > 0.0 && fabs(parts - sv->ttft_s) <= 1e-9 * sv->ttft_s;
}

/* The steady TTFT part by part, where they add up to it (a one-token answer has no loop). */
static void text_ttft_parts(struct strbuf *sb, const struct scenario *s, const struct serving_figures *sv)
{
    const struct serving_loop *lp = &sv->loop;
    if (ttft_parts_add_up(sv)) {
        /* the steady TTFT, part by part, where they add up to it (a one-token answer has no loop) */
        char tf[64] = "", t5[48] = "", t6[48] = "", t7[32], t8[32];
        if (lp->frontend_s > 0.0) { /* outside the engine: the API server, the tokenizer, the way back */
            format_seconds(tf, sizeof tf, lp->frontend_s);
            strcat(tf, " the engine's frontend + ");
        }
        if (lp->in_flight_s > 0.0) { /* none on a pool: no decode step to wait out */
            format_seconds(t5, sizeof t5, lp->in_flight_s);
            strcat(t5, " the step in flight + ");
        }
        if (lp->wait_s > 0.0) {
            format_seconds(t6, sizeof t6, lp->wait_s);
            strcat(t6, " waiting + ");
        }
        bool others = s->arrival_per_s > 0.0 || s->batch > 1;
        sb_printf(sb, "  TTFT's parts       %s%s%s%s its prefill%s = %s\n", tf, t5, t6, format_seconds(t7, sizeof t7, lp->own_s),
                  s->disagg_prefill_chips > 0 ? " on the pool and the KV's move"
                  : others                    ? " among the others' work"
                                              : " alone",
                  format_seconds(t8, sizeof t8, sv->ttft_s));
    }
}

/* One verdict for serving, with every reason it fails. */
static void text_serving_verdict(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    const struct serving_figures *sv = &a->serving;
    const struct serving_loop *lp = &sv->loop;
    const char *reasons[4];
    int nr = 0;
    if (!a->memory.weights_fit)
        reasons[nr++] = "the weights do not fit";
    if (s->disagg_prefill_chips > 0 && !sv->prefill_pool_fits)
        reasons[nr++] = "the weights do not fit on the prefill pool";
    if (lp->overloaded)
        reasons[nr++] = "the requests arrive faster than they are served";
    else if (!sv->ttft_ok)
        reasons[nr++] = "TTFT misses its target";
    if (!sv->tpot_ok)
        reasons[nr++] = "TPOT misses its target";
    char why[256] = "";
    for (int i = 0, used = 0; i < nr && used >= 0 && (size_t)used < sizeof why; i++)
        used += snprintf(why + used, sizeof why - (size_t)used, "%s%s", i ? "; " : "", reasons[i]);
    bool targets = s->ttft_target_s > 0.0 || s->tpot_target_s > 0.0;
    if (sv->ok && !targets) /* an OK with nothing to meet would read as a verdict on the turn */
        sb_puts(sb, "  serving verdict    fits; no targets set (--ttft-target, --tpot-target)\n");
    else
        sb_printf(sb, "  serving verdict    %s%s%s\n", sv->ok ? "OK" : "MISS", why[0] ? ": " : "", why);
}

/* The layout and serving as engines serve: the loop, TTFT, TPOT, throughputs. */
static void text_serving(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    const struct parallel_figures *pf = &a->parallel;
    const struct serving_figures *sv = &a->serving;
    const struct serving_loop *lp = &sv->loop;
    char t1[32], t2[32], t3[32], t4[32];
    if (s->arrival_per_s > 0.0)
        sb_printf(sb, "\nServing (continuous batching, an open loop of %.3g request%s/s a replica; the realistic "
                      "estimate)\n",
                  s->arrival_per_s, s->arrival_per_s == 1.0 ? "" : "s");
    else
        sb_printf(sb, "\nServing (continuous batching, a closed loop of %lld client%s a replica; the realistic "
                      "estimate)\n",
                  (long long)s->batch, s->batch == 1 ? "" : "s");
    sb_puts(sb, "  layout             ");
    serving_layout_words(sb, s, pf);
    sb_puts(sb, "\n");
    if (pf->pp > 1)
        sb_printf(sb, "  pipeline           %.0f layer%s on the busiest stage; prefill in %.0f micro-batch%s, bubble "
                      "%.1f%% of the ideal%s; decode %.0f sequence%s a micro-batch\n",
                  pf->stage_layers, pf->stage_layers == 1.0 ? "" : "s", pf->microbatches,
                  pf->microbatches == 1.0 ? "" : "es", pf->bubble_fraction * 100.0,
                  pf->microbatches < (double)pf->pp ? " (fewer micro-batches than stages: the stages mostly wait)" : "",
                  pf->decode_seqs_per_pass, pf->decode_seqs_per_pass == 1.0 ? "" : "s");
    if (a->speculative.enabled)
        text_speculative(sb, s, a);
    if (lp->overloaded)
        sb_puts(sb, "  TTFT               unbounded: requests arrive faster than the engine serves them, so the "
                    "queue grows without end");
    else
        sb_printf(sb, "  TTFT               %s mean, p50 %s, p90 %s, p99 %s (a request's %swait and its prefill%s)",
                  format_seconds(t1, sizeof t1, sv->ttft_s), format_seconds(t2, sizeof t2, lp->ttft_p50_s),
                  format_seconds(t3, sizeof t3, lp->ttft_p90_s), format_seconds(t4, sizeof t4, lp->ttft_p99_s),
                  lp->frontend_s > 0.0 ? "frontend, " : "",
                  s->disagg_prefill_chips > 0 ? " on the pool, with the KV's move" : "");
    if (s->ttft_target_s > 0.0) /* beside the TTFT it judges */
        sb_printf(sb, " %s target %s", sv->ttft_ok ? "<=" : ">", format_seconds(t2, sizeof t2, s->ttft_target_s));
    sb_puts(sb, "\n");
    sb_printf(sb, "  TPOT               %s mean, p50 %s, p90 %s, p99 %s (%s)", format_seconds(t1, sizeof t1, sv->tpot_s),
              format_seconds(t2, sizeof t2, lp->tpot_p50_s), format_seconds(t3, sizeof t3, lp->tpot_p90_s),
              format_seconds(t4, sizeof t4, lp->tpot_p99_s),
              s->disagg_prefill_chips > 0 ? "decode steps only" : "a decode step with its share of the prompts");
    if (s->tpot_target_s > 0.0)
        sb_printf(sb, " %s target %s", sv->tpot_ok ? "<=" : ">", format_seconds(t2, sizeof t2, s->tpot_target_s));
    sb_puts(sb, "\n");
    char rate[24]; /* as printed: its plural follows what it reads ("1 request/s" for 0.99999) */
    snprintf(rate, sizeof rate, "%.3g", sv->requests_per_s);
    sb_printf(sb, "  the loop           %s%.1f running, %s request%s/s%s, a prompt alone %s, waits %s; at most %.0f "
                  "token%s a step (the engine's token budget)%s\n",
              a->parallel.dp > 1 ? "a replica: " : "", sv->running_requests, rate, strcmp(rate, "1") == 0 ? "" : "s",
              lp->overloaded ? " (the most it serves)" : "", format_seconds(t1, sizeof t1, sv->prompt_s),
              lp->overloaded ? "without end" : lp->wait_s > 0.0 ? format_seconds(t2, sizeof t2, lp->wait_s) : "none",
              sv->token_budget, sv->token_budget == 1.0 ? "" : "s",
              lp->kv_bound    ? "; the KV cache caps the running requests, the rest queue"
              : lp->saturated ? (s->disagg_prefill_chips > 0 ? "; the prefill pool is saturated, the rest queue"
                                                             : "; the engine is saturated, the rest queue")
                              : "");
    text_ttft_parts(sb, s, sv);
    if (s->arrival_per_s <= 0.0)
        sb_printf(sb, "  a benchmark        of %lld x %lld requests reports TTFT %s, TPOT %s (its first wave: TTFT "
                      "%s)\n",
                  (long long)s->bench_rounds, (long long)s->batch, format_seconds(t1, sizeof t1, sv->benchmark_ttft_s),
                  format_seconds(t2, sizeof t2, sv->benchmark_tpot_s),
                  format_seconds(t3, sizeof t3, lp->first_wave_ttft_s));
    if (s->disagg_prefill_chips > 0) {
        sb_puts(sb, "  prefill pool       ");
        pool_words(sb, s, sv, false);
        sb_puts(sb, "\n");
    }
    if (s->decode_tokens > 0)
        sb_printf(sb, "  throughput         %.1f tokens/s per user, %.1f tokens/s per chip\n", sv->tokens_per_s_per_user,
                  sv->tokens_per_s_per_chip);
    else
        sb_puts(sb, "  throughput         none: --decode-tokens 0 generates no output tokens\n");
    text_serving_verdict(sb, s, a);
    sb_puts(sb, "\nCost and energy (per output token, from the steady-state throughput per chip)\n");
    cost_energy_lines(sb, a, false);
}

/* Napkin and detailed latency side by side, and their difference by term. */
/* A signed difference of times in its own unit: "+273.1 ms", "-2.5 ms",
 * "+12.3 us"; exactly none is "0 s" (never "+0.0000 s" for tens of us). */
static const char *signed_time(char *buf, size_t size, double seconds)
{
    char t[32];
    /* Under 0.05 ns is the rounding of the terms' sum (a difference of two equal times), which
     * format_seconds would write "+0.0 ns": it is nothing. */
    if (fabs(seconds) < 0.05e-9 || !isfinite(seconds)) {
        snprintf(buf, size, "%s", isfinite(seconds) ? "0 s" : "n/a");
        return buf;
    }
    snprintf(buf, size, "%c%s", seconds < 0.0 ? '-' : '+', format_seconds(t, sizeof t, fabs(seconds)));
    return buf;
}

/* Where the realistic estimate's kernel constants came from, in words:
 * "measured h100 kernels", "kernels borrowed from h200", "the models'
 * default constants". */
static char *profile_phrase(char *buf, size_t size, const struct realistic_latency *r)
{
    if (!r->profile_from[0])
        snprintf(buf, size, "the kernel models' default constants: nothing measured");
    else if (r->profile_measured)
        snprintf(buf, size, "measured %s kernels", r->profile_from);
    else
        snprintf(buf, size, "kernels borrowed from %s", r->profile_from);
    return buf;
}

static void text_latency(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char profile[120];
    char x[40], y[40], z[40];
    const struct latency_verdict *n = &a->napkin;
    const struct detailed_latency *d = &a->detailed;
    const struct realistic_latency *r = &a->realistic;
    sb_printf(sb, "\nLatency (%lld prefill + %lld decode tokens per request; the turn's verdict is the %s estimate's%s)\n",
              (long long)s->prefill_tokens, (long long)s->decode_tokens, latency_model_name(a->latency_model),
              a->serving.targets_set ? ", second to the serving targets'" : "");
    sb_printf(sb, "  %-10s %11s %11s %11s\n", "", "napkin", "floor", "realistic");
    latency_row(sb, "prefill", n->prefill_s, d->prefill_s, r->prefill_s);
    if (s->batch > 1) /* serving's TTFT is one request's; this is the turn's, every prompt at once */
        sb_printf(sb, "   (%lld prompts at once; a request's TTFT: Serving)\n", (long long)s->batch);
    else
        sb_printf(sb, "   (one prompt alone; a served request's TTFT: Serving)\n");
    latency_row(sb, "decode", n->decode_s, d->decode_s, r->decode_s);
    sb_printf(sb, "   (%lld steps: %s floor, %s realistic)\n", (long long)s->decode_tokens,
              format_seconds(x, sizeof x, d->tpot_s), format_seconds(y, sizeof y, r->tpot_s));
    latency_row(sb, "overhead", n->overhead_s, d->overhead_s, r->overhead_s);
    sb_printf(sb, "\n");
    latency_row(sb, "total", n->total_s, d->total_s, r->total_s);
    sb_printf(sb, "   budget %s\n", format_turn_seconds(x, sizeof x, n->budget_s));
    sb_printf(sb, "  %-10s %11s %11s %11s\n", "verdict", verdict_name(n), ok_text(d->ok), ok_text(r->ok));
    if (a->estimates_disagree) {
        disagreement(sb, a, "  ");
        sb_printf(sb, "\n");
    }
    sb_printf(sb, "  chips to meet the budget (powers of two): napkin %s, floor %s, realistic %s\n",
              chips_for_budget_text(x, sizeof x, n->chips_for_budget, n->max_chips),
              chips_for_budget_text(y, sizeof y, d->chips_for_budget, n->max_chips),
              chips_for_budget_text(z, sizeof z, r->chips_for_budget, n->max_chips));
    sb_printf(sb, "  realistic: ±%.0f%% prefill, ±%.0f%% a decode step, ±%.0f%% the turn (%s); "
                  "engine %s, %s per forward pass%s\n",
              100.0 * r->ttft_error_fraction, 100.0 * r->tpot_error_fraction, 100.0 * r->total_error_fraction,
              profile_phrase(profile, sizeof profile, r), s->engine.name, format_seconds(x, sizeof x, s->engine.step_s),
              r->engine_calibrated ? "" : " (uncalibrated)");
    if (d->prefill_term_count > 0) {
        char dt[40];
        sb_printf(sb, "  floor - napkin, prefill (%s):\n", signed_time(dt, sizeof dt, d->prefill_s - n->prefill_s));
        for (int i = 0; i < d->prefill_term_count; i++)
            sb_printf(sb, "    %12s  %s\n", signed_time(dt, sizeof dt, d->prefill_terms[i].seconds),
                      d->prefill_terms[i].name);
    }
    double napkin_step = s->decode_tokens > 0 ? n->decode_s / (double)s->decode_tokens : 0.0;
    char st[40];
    sb_printf(sb, "  floor - napkin, one decode step (%s):\n", signed_time(st, sizeof st, d->decode_step_s - napkin_step));
    for (int i = 0; i < d->decode_term_count; i++)
        sb_printf(sb, "    %12s  %s\n", signed_time(st, sizeof st, d->decode_terms[i].seconds), d->decode_terms[i].name);
}

/* Every operation of every phase, per chip. */
static void text_operations(struct strbuf *sb, const struct analysis *a)
{
    char f[24], b[24], tm[24];
    sb_puts(sb, "\nOperations (detailed model, per chip; vector ops against the vector unit's roof)\n");
    const char *phase = "";
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (!p->operation)
            continue;
        if (strcmp(phase, p->phase) != 0) {
            phase = p->phase;
            sb_printf(sb, "  %-19s %10s %10s %10s  %-7s %10s %10s %6s  %s\n",
                      strcmp(phase, "training") == 0 ? "training (forward)" : phase, "FLOPs", "bytes", "FLOP/byte",
                      "bound", "floor", "realistic", "share", "lever");
        }
        double n = a->hw.n_chips;
        char ai[24], rt[24];
        intensity_text(p, ai, sizeof ai);
        sb_printf(sb, "    %-17s %10s %10s %10s  %-7s %10s %10s %5.1f%%  %s%s\n", p->name,
                  format_si(f, sizeof f, p->flops / n, "FLOP"), format_si(b, sizeof b, p->bytes / n, "B"), ai,
                  bound_name(p->roof.bound), format_seconds(tm, sizeof tm, p->time_s),
                  format_seconds(rt, sizeof rt, p->realistic_time_s), p->share * 100.0, p->roof.lever,
                  p->vector ? " (vector)" : "");
    }
}

/* Training: the MFU budget, PaLM MFU and HFU, and the measured figures. */
static void text_training(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char x[40];
    const struct mfu_budget *b = &a->mfu_budget;
    const struct training_figures *tr = &a->training;
    bool shape = a->mfu_budget_source == RT_BUDGET_SHAPE;
    sb_printf(sb, "\nMFU budget (%s)\n",
              shape ? "a training step from the shape: batch x context tokens per replica" : "from --step-times");
    if (shape)
        sb_printf(sb, "  step                %s for %.0f tokens per replica\n",
                  format_seconds(x, sizeof x, tr->step_s), tr->tokens_per_step);
    sb_printf(sb, "  %-19s %5.1f%%\n", shape ? "matmul" : "MFU (matmul busy)", b->fraction[RT_PART_MATMUL] * 100.0);
    for (int i = 1; i < RT_PART_COUNT; i++)
        if (i != RT_PART_BUBBLE || b->seconds[i] > 0.0) /* a bubble only with pipeline stages */
            sb_printf(sb, "  lost to %-10s  %5.1f%%\n", step_part_name((enum rt_step_part)i), b->fraction[i] * 100.0);
    char label[24];
    snprintf(label, sizeof label, "MFU (%s)", flops_convention_label(tr->convention));
    /* A figure above 100% says so, and why, on its own line (the note below explains more). */
    char over[96];
    snprintf(over, sizeof over, "  above 100%%: %s (see the notes)", analysis_over_peak_reason(a, false));
    enum rt_mfu_shown shown = analysis_mfu_shown(a, false);
    char st[24], hb[24];
    if (shown == RT_MFU_NONE) { /* no MFU for a step that cannot run */
        sb_printf(sb, "  %-19s none: the step cannot run (Adam's state, %s a chip, is more than its %s of HBM)\n",
                  label, format_si(st, sizeof st, tr->state_bytes_per_chip, "B"),
                  format_si(hb, sizeof hb, a->hbm_bytes, "B"));
        sb_printf(sb, "  HFU                 none (recompute factor %.3g)\n", a->recompute_factor);
    } else if (shown == RT_MFU_CAUSAL) { /* the count that does not pass the peak first, the convention's named */
        sb_printf(sb, "  %-19s %5.1f%%  (%s's count: %.1f%%, over 100%% because %s counts non-causal attention)\n",
                  "MFU (causal)", a->budget_causal_mfu * 100.0, flops_convention_label(tr->convention), b->mfu * 100.0,
                  flops_convention_label(tr->convention));
        sb_printf(sb, "  HFU (causal)        %5.1f%%  (%s's count: %.1f%%; recompute factor %.3g)\n",
                  a->budget_causal_hfu * 100.0, flops_convention_label(tr->convention), a->hfu * 100.0,
                  a->recompute_factor);
    } else {
        if (shape)
            sb_printf(sb, "  %-19s %5.1f%%%s\n", label, b->mfu * 100.0, b->mfu > 1.0 ? over : "");
        sb_printf(sb, "  HFU                 %5.1f%% (recompute factor %.3g)%s\n", a->hfu * 100.0, a->recompute_factor,
                  a->hfu > 1.0 ? over : "");
    }
    sb_printf(sb, "  -> biggest lever: %s\n", step_part_name(b->biggest_lever));
    sb_printf(sb, "  model FLOPs per token %.4g (%s); hardware %.4g\n", tr->model_flops_per_token,
              flops_convention_formula(tr->convention), tr->hardware_flops_per_token);
    long long all_chips = (long long)(s->chips * s->data_parallel);
    if (tr->totals) {
        char nt[24], nh[24], nd[24];
        sb_printf(sb, "  training run: %s tokens x %.4g = %.4g model FLOPs (%s)\n",
                  format_number(nt, sizeof nt, s->train_tokens, 0), tr->model_flops_per_token, tr->total_flops,
                  flops_convention_name(tr->convention));
        if (tr->totals_mfu > 0.0)
            sb_printf(sb, "    at MFU %.1f%% (%s): %s chip-hours, %s days on %lld chip%s\n", tr->totals_mfu * 100.0,
                      s->train_mfu > 0.0 ? "--train-mfu" : tr->measured ? "measured" : "the step's",
                      format_number(nh, sizeof nh, tr->chip_hours, 0), num3(nd, sizeof nd, tr->days), all_chips,
                      all_chips == 1 ? "" : "s");
        else /* the step cannot run, so it has no MFU to time the run at */
            sb_puts(sb, "    no chip-hours: the step cannot run here, so it has no MFU; give --train-mfu\n");
    }
    char ng[24];
    if (tr->implied_mfu > 0.0) { /* the figure as given: 0.4 is not "0", 1.5 not "2" */
        if (s->train_chip_hours < 99999.5)
            snprintf(ng, sizeof ng, "%.6g", s->train_chip_hours);
        else
            format_number(ng, sizeof ng, s->train_chip_hours, 0);
        sb_printf(sb, "    %s chip-hours given -> implied MFU %.1f%%%s\n", ng, tr->implied_mfu * 100.0,
                  tr->implied_mfu > 1.0 ? IMPLIED_OVER_PEAK : "");
    }
    char words[200];
    if (tr->measured)
        sb_printf(sb, "  measured: %s tokens/s on %lld chip%s -> %s\n",
                  format_number(ng, sizeof ng, s->measured_train_tokens_per_s, 0),
                  (long long)(s->chips * s->data_parallel), s->chips * s->data_parallel == 1 ? "" : "s",
                  measured_mfu_words(words, sizeof words, a));
    if (a->prefill_mfu > 0.0)
        sb_printf(sb, "  measured prefill: TTFT %s -> MFU %.1f%%%s\n", format_seconds(x, sizeof x, s->measured_ttft_s),
                  a->prefill_mfu * 100.0, a->prefill_mfu > 1.0 ? MEASURED_OVER_PEAK : "");
    if (a->decode_mbu > 0.0)
        sb_printf(sb, "  measured decode: TPOT %s -> MBU %.1f%%%s\n", format_seconds(x, sizeof x, s->measured_tpot_s),
                  a->decode_mbu * 100.0, a->decode_mbu > 1.0 ? MEASURED_OVER_PEAK : "");
}

static void text_report(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char x[32], y[32], z[32], w[32];
    const struct model_shape *m = &s->model;
    const struct memory_verdict *mv = &a->memory;

    sb_puts(sb, "rooftop: ");
    describe_scenario(sb, s, a);
    sb_puts(sb, "\n");
    const struct serving_figures *sv = &a->serving;
    char why[64];
    if (sv->targets_set) /* the verdict is the targets'; the turn budget's comes second */
        sb_printf(sb, "Verdict      %s%s: the serving targets (see Serving); the %s turn budget, second: %s (%s)\n",
                  sv->ok ? "OK" : "MISS", blocker_words(why, sizeof why, a), format_seconds(x, sizeof x, a->latency.budget_s),
                  verdict_name(&a->latency), format_turn_seconds(y, sizeof y, a->latency.total_s));
    sb_puts(sb, "\n");

    sb_printf(sb, "Chip         %s (%s): %s %s, %s HBM at %s\n", s->chip.name, s->chip.key,
              format_si(x, sizeof x, a->peak_flops_per_s, "FLOP/s"), precision_name(a->compute_precision),
              format_si(y, sizeof y, a->hbm_bytes, "B"), format_si(z, sizeof z, a->hbm_bytes_per_s, "B/s"));
    sb_printf(sb, "Ridge point  %.0f FLOP/byte (%.1f)\n", a->ridge_flop_per_byte, a->ridge_flop_per_byte);
    sb_printf(sb, "Model        %s: %lld layers, d_model %lld, %lld heads / %lld kv heads x d_head %lld, d_ff %lld, "
                  "vocab %lld",
              m->name, (long long)m->layers, (long long)m->d_model, (long long)m->heads, (long long)m->kv_heads,
              (long long)m->d_head, (long long)m->d_ff, (long long)m->vocab);
    if (m->experts > 1) {
        sb_printf(sb, ", %lld experts (top-%lld) of d_ff %lld", (long long)m->experts, (long long)m->experts_per_token,
                  (long long)(m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff));
        if (m->shared_experts > 0)
            sb_printf(sb, " + %lld shared of %lld", (long long)m->shared_experts,
                      (long long)(m->shared_d_ff > 0 ? m->shared_d_ff : m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff));
    }
    sb_printf(sb, "\n             %s total, %s active parameters (%s); the shape gives %s\n",
              format_count(x, sizeof x, a->params), format_count(y, sizeof y, a->active_params),
              params_source_name(a->params_source), format_count(z, sizeof z, a->shape_count.total));
    char pattern[160];
    sb_printf(sb, "             %s\n", model_schedule_summary(m, pattern, sizeof pattern));
    text_assumption_lines(sb, m);

    sb_puts(sb, "\nRoofline placement\n");
    text_placements(sb, a, "  ");

    text_latency(sb, s, a);
    text_operations(sb, a);
    sb_puts(sb, "\nMemory\n");
    sb_printf(sb, "  weights            %s; chips just to hold them: %lld\n",
              format_si(x, sizeof x, mv->weights_bytes, "B"), (long long)mv->weights_fit_chips);
    sb_printf(sb, "  KV cache           %s per token, %s per request at %lld tokens, %s for the batch\n",
              format_si(x, sizeof x, mv->kv_cache_bytes_per_token, "B"),
              format_si(y, sizeof y, mv->kv_cache_bytes_per_request, "B"), (long long)s->context_tokens,
              format_si(z, sizeof z, mv->kv_cache_bytes, "B"));
    sb_printf(sb, "  HBM                %s on %lld chip%s, %s reserved, %s free after weights%s\n",
              format_si(x, sizeof x, mv->hbm_total_bytes, "B"), (long long)s->chips, s->chips == 1 ? "" : "s",
              format_si(y, sizeof y, s->reserve_bytes, "B"), format_si(z, sizeof z, mv->free_bytes, "B"),
              mv->weights_fit       ? ""
              : mv->free_bytes < 0.0 ? " (the weights do not fit)"
                                     : " (the weights fit, but not with the activation workspace beside them)");
    if (mv->state_bytes_per_request > 0.0)
        sb_printf(sb, "  fixed state        %s per request (linear, Mamba, convolution or cross-attention layers), %s "
                      "for the batch\n",
                  format_si(x, sizeof x, mv->state_bytes_per_request, "B"),
                  format_si(y, sizeof y, mv->state_bytes, "B"));
    sb_printf(sb, "  concurrent requests that fit at %lld tokens: %lld%s%s\n", (long long)s->context_tokens,
              (long long)mv->max_concurrent_requests, a->parallel.dp > 1 || s->ep > 1 ? " a replica" : "",
              mv->batch_fits ? "" : " (the batch does not fit)");
    text_chip_memory(sb, s, a);
    text_serving(sb, s, a);

    sb_puts(sb, "\nShape\n");
    sb_printf(sb, "  decode batch intensity  %.1f FLOP/byte at batch %lld (%.1f%% of the way to the ridge)\n",
              a->decode_batch_intensity_flop_per_byte, (long long)s->batch,
              100.0 * a->decode_batch_intensity_flop_per_byte / a->ridge_flop_per_byte);
    const struct placement *dec = analysis_phase_placement(a, "decode");
    if (dec && fabs(dec->roof.intensity_flop_per_byte - a->decode_batch_intensity_flop_per_byte) >
                   1e-9 * a->decode_batch_intensity_flop_per_byte)
        sb_printf(sb, "                          (the guide's count, over every weight; the decode row counts the "
                      "floor step's FLOPs and the bytes of the experts it reads: %.1f FLOP/byte)\n",
                  dec->roof.intensity_flop_per_byte);
    if (m->kv_lora_rank > 0)
        sb_printf(sb, "  latent KV saving        %.1fx (MLA: a %lld-wide latent per token and layer, against %lld heads "
                      "of K and V)\n",
                  a->kv_saving, (long long)(m->kv_lora_rank + m->qk_rope_head_dim), (long long)m->heads);
    else
        sb_printf(sb, "  GQA saving              %.1fx (%lld heads / %lld kv heads)\n", a->gqa_saving,
                  (long long)m->heads, (long long)m->kv_heads);
    sb_printf(sb, "  tile efficiency         d_model %.1f%%, d_ff %.1f%%, d_head %.1f%% (tile %lld; whole widths, before "
                  "tensor-parallel sharding: the floor's tile padding is per chip)\n",
              a->tile_efficiency_d_model * 100.0, a->tile_efficiency_d_ff * 100.0,
              a->tile_efficiency_d_head * 100.0, (long long)s->tile);

    text_training(sb, s, a);

    if (a->note_count > 0) {
        sb_puts(sb, "\nAssumptions\n");
        char note[RT_NOTE_MAX];
        for (int i = 0; i < a->note_count; i++)
            sb_printf(sb, "  - %s\n", note_text(note, sizeof note, &a->notes[i]));
    }
    (void)w;
}

/* ---- markdown ------------------------------------------------------------ */

/* The markdown report's title, the chip, its ridge, the model and the placement table. */
static void md_head(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char x[32], y[32];
    sb_puts(sb, "## rooftop: ");
    describe_scenario(sb, s, a);
    sb_puts(sb, "\n\n");
    char why[64];
    if (a->serving.targets_set) /* the verdict is the targets'; the turn budget's comes second */
        sb_printf(sb, "Verdict: **%s**%s against the serving targets (see Serving); the %s turn budget, second: %s "
                      "(%s).\n\n",
                  a->serving.ok ? "OK" : "MISS", blocker_words(why, sizeof why, a),
                  format_seconds(x, sizeof x, a->latency.budget_s), verdict_name(&a->latency),
                  format_turn_seconds(y, sizeof y, a->latency.total_s));
    sb_printf(sb, "Ridge point: **%.0f FLOP/byte** (%s %s / %s).\n\n", a->ridge_flop_per_byte,
              format_si(x, sizeof x, a->peak_flops_per_s, "FLOP/s"), precision_name(a->compute_precision),
              format_si(y, sizeof y, a->hbm_bytes_per_s, "B/s"));
    const struct model_shape *m = &s->model;
    char pattern[160];
    sb_printf(sb, "Model: %s, %lld layers (%s), d_model %lld, %lld heads / %lld kv heads x d_head %lld, d_ff %lld, "
                  "vocab %lld; %s total, %s active parameters (%s).\n\n",
              m->name, (long long)m->layers, model_schedule_summary(m, pattern, sizeof pattern), (long long)m->d_model,
              (long long)m->heads, (long long)m->kv_heads, (long long)m->d_head, (long long)m->d_ff,
              (long long)m->vocab, format_count(x, sizeof x, a->params), format_count(y, sizeof y, a->active_params),
              params_source_name(a->params_source));

    sb_puts(sb, "| phase | FLOPs | bytes | FLOP/byte | bound | % of peak | lever |\n");
    sb_puts(sb, "| --- | ---: | ---: | ---: | --- | ---: | --- |\n");
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (p->operation)
            continue;
        sb_printf(sb, "| %s | %s | %s | %.1f | %s | %.1f%% | %s |\n", p->name, format_si(x, sizeof x, p->flops, "FLOP"),
                  format_si(y, sizeof y, p->bytes, "B"), p->roof.intensity_flop_per_byte, bound_name(p->roof.bound),
                  p->roof.fraction_of_peak * 100.0, p->roof.lever);
    }
}

/* The markdown report's latency table, its verdict and the floor-minus-napkin terms. */
static void md_latency(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char x[32], y[32], z[32];
    const struct latency_verdict *n = &a->napkin;
    const struct detailed_latency *d = &a->detailed;
    const struct memory_verdict *mv = &a->memory;
    const struct realistic_latency *r = &a->realistic;
    sb_printf(sb, "\n| latency | napkin | floor | realistic |\n| --- | ---: | ---: | ---: |\n");
    char decode_name[48];
    snprintf(decode_name, sizeof decode_name, "decode (%lld tokens)", (long long)s->decode_tokens);
    md_latency_row(sb, s->batch > 1 ? "prefill (every prompt at once)" : "prefill (one prompt alone)", (const double[3]){n->prefill_s, d->prefill_s, r->prefill_s}, false);
    md_latency_row(sb, decode_name, (const double[3]){n->decode_s, d->decode_s, r->decode_s}, false);
    md_latency_row(sb, "overhead", (const double[3]){n->overhead_s, d->overhead_s, r->overhead_s}, false);
    md_latency_row(sb, "**total**", (const double[3]){n->total_s, d->total_s, r->total_s}, true);
    md_latency_row(sb, "budget", (const double[3]){n->budget_s, d->budget_s, r->budget_s}, false);
    sb_printf(sb, "| verdict | %s | %s | %s |\n", verdict_name(n), ok_text(d->ok), ok_text(r->ok));
    sb_printf(sb, "| chips for the budget | %s | %s | %s |\n\n",
              chips_for_budget_text(x, sizeof x, n->chips_for_budget, n->max_chips),
              chips_for_budget_text(y, sizeof y, d->chips_for_budget, n->max_chips),
              chips_for_budget_text(z, sizeof z, r->chips_for_budget, n->max_chips));
    sb_printf(sb, "Verdict (the %s estimate): **%s**. Chips just to hold the weights: **%lld**.",
              latency_model_name(a->latency_model), verdict_name(&a->latency), (long long)mv->weights_fit_chips);
    disagreement(sb, a, " ");
    sb_printf(sb, "\n\n");
    if (d->prefill_term_count > 0) {
        char dt[40];
        sb_printf(sb, "Detailed minus napkin, prefill (%s):\n\n",
                  signed_time(dt, sizeof dt, d->prefill_s - n->prefill_s));
        for (int i = 0; i < d->prefill_term_count; i++)
            sb_printf(sb, "- %s: %s\n", signed_time(dt, sizeof dt, d->prefill_terms[i].seconds),
                      d->prefill_terms[i].name);
        sb_puts(sb, "\n");
    }
    char st[40];
    sb_printf(sb, "Detailed minus napkin, one decode step (%s):\n\n",
              signed_time(st, sizeof st,
                          d->decode_step_s - (s->decode_tokens > 0 ? n->decode_s / (double)s->decode_tokens : 0.0)));
    for (int i = 0; i < d->decode_term_count; i++)
        sb_printf(sb, "- %s: %s\n", signed_time(st, sizeof st, d->decode_terms[i].seconds), d->decode_terms[i].name);
}

/* The markdown report's operations table. */
static void md_operations(struct strbuf *sb, const struct analysis *a)
{
    char x[32], y[32], z[32];
    sb_puts(sb, "\n| phase | operation | FLOPs / chip | bytes / chip | FLOP/byte | bound | floor | realistic | share |\n");
    sb_puts(sb, "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n");
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        if (!p->operation)
            continue;
        char ai[24], rt[24];
        intensity_text(p, ai, sizeof ai);
        sb_printf(sb, "| %s | %s%s | %s | %s | %s | %s | %s | %s | %.1f%% |\n", p->phase, p->name,
                  p->vector ? " (vector)" : "", format_si(x, sizeof x, p->flops / a->hw.n_chips, "FLOP"),
                  format_si(y, sizeof y, p->bytes / a->hw.n_chips, "B"), ai, bound_name(p->roof.bound),
                  format_seconds(z, sizeof z, p->time_s), format_seconds(rt, sizeof rt, p->realistic_time_s),
                  p->share * 100.0);
    }
}

/* The markdown report's memory table. */
static void md_memory(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char x[32], y[32], z[32], w[32];
    const struct memory_verdict *mv = &a->memory;
    sb_puts(sb, "\n| memory | value |\n| --- | ---: |\n");
    sb_printf(sb, "| weights | %s |\n", format_si(x, sizeof x, mv->weights_bytes, "B"));
    sb_printf(sb, "| KV cache per token | %s |\n", format_si(x, sizeof x, mv->kv_cache_bytes_per_token, "B"));
    sb_printf(sb, "| KV cache per request (%lld tokens) | %s |\n", (long long)s->context_tokens,
              format_si(y, sizeof y, mv->kv_cache_bytes_per_request, "B"));
    sb_printf(sb, "| KV cache, batch of %lld | %s |\n", (long long)s->batch,
              format_si(z, sizeof z, mv->kv_cache_bytes, "B"));
    if (mv->state_bytes_per_request > 0.0)
        sb_printf(sb, "| fixed state per request (linear/Mamba layers) | %s |\n",
                  format_si(x, sizeof x, mv->state_bytes_per_request, "B"));
    sb_printf(sb, "| concurrent requests that fit | %lld |\n", (long long)mv->max_concurrent_requests);
    const struct chip_memory *cm = &mv->per_chip;
    sb_printf(sb, "| per chip: weights, KV, activations, free | %s, %s, %s, %s |\n",
              format_si(x, sizeof x, cm->weights_bytes, "B"),
              format_si(y, sizeof y, cm->kv_cache_bytes + cm->state_bytes, "B"),
              format_si(z, sizeof z, cm->activation_bytes, "B"), format_si(w, sizeof w, cm->free_bytes, "B"));
    if (s->ep > 1)
        sb_printf(sb, "| requests that fit a replica after the activation workspace | %lld (%lld on each of %lld ep ranks) |\n",
                  (long long)mv->max_concurrent_requests_after_workspace, (long long)cm->max_concurrent_requests,
                  (long long)s->ep);
    else
        sb_printf(sb, "| requests that fit a replica after the activation workspace | %lld |\n",
                  (long long)mv->max_concurrent_requests_after_workspace);
    if (mv->kv_replication > 1.0)
        sb_printf(sb, "| copies of each KV %s over tp %lld | %.0f |\n", s->model.kv_lora_rank > 0 ? "latent" : "head",
                  (long long)a->parallel.tp, mv->kv_replication);
}

/* The markdown report's serving table, and cost and energy (65 lines: a row after another, as the
 * text report's serving section gives them). */
static void md_serving(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    char x[32], y[32], z[32], w[32];
    const struct parallel_figures *pf = &a->parallel;
    const struct serving_figures *sv = &a->serving;
    const struct serving_loop *lp = &sv->loop;
    sb_printf(sb, "\n| serving (continuous batching, realistic) | value |\n| --- | ---: |\n");
    if (s->arrival_per_s > 0.0)
        sb_printf(sb, "| load | an open loop of %.3g request%s/s a replica |\n", s->arrival_per_s,
                  s->arrival_per_s == 1.0 ? "" : "s");
    else
        sb_printf(sb, "| load | a closed loop of %lld client%s a replica |\n", (long long)s->batch, s->batch == 1 ? "" : "s");
    sb_puts(sb, "| layout | ");
    serving_layout_words(sb, s, pf);
    sb_puts(sb, " |\n");
    if (a->speculative.enabled)
    {
        char acc[160];
        double up = a->speculative.speedup;
        sb_printf(sb, "| speculative decoding | %lld drafts at %s%s: %.2f tokens a pass, %.2fx %s than plain decoding |\n",
                  (long long)s->spec_tokens, scenario_spec_accept_words(s, acc, sizeof acc),
                  a->speculative.verify_tokens > (double)s->spec_tokens + 1.0 ? ", a tree verified" : "",
                  a->speculative.tokens_per_pass, up >= 1.0 || !(up > 0.0) ? up : 1.0 / up,
                  up >= 1.0 || !(up > 0.0) ? "faster" : "**slower**");
    }
    if (lp->overloaded)
        sb_puts(sb, "| TTFT | **unbounded: requests arrive faster than the engine serves them** |\n");
    else
        sb_printf(sb, "| TTFT (mean; p50, p90, p99) | %s; %s, %s, %s%s |\n", format_seconds(x, sizeof x, sv->ttft_s),
                  format_seconds(y, sizeof y, lp->ttft_p50_s), format_seconds(z, sizeof z, lp->ttft_p90_s),
                  format_seconds(w, sizeof w, lp->ttft_p99_s),
                  s->ttft_target_s > 0.0 ? (sv->ttft_ok ? " (meets the target)" : " (**misses the target**)") : "");
    if (ttft_parts_add_up(sv)) {
        /* the steady TTFT part by part, as the text report gives it */
        char f[32], i[32], q[32], o[32];
        sb_printf(sb, "| TTFT's parts: frontend, step in flight, waiting, its prefill | %s, %s, %s, %s |\n",
                  format_seconds(f, sizeof f, lp->frontend_s), format_seconds(i, sizeof i, lp->in_flight_s),
                  format_seconds(q, sizeof q, lp->wait_s), format_seconds(o, sizeof o, lp->own_s));
    }
    sb_printf(sb, "| TPOT (mean; p50, p90, p99) | %s; %s, %s, %s%s |\n", format_seconds(x, sizeof x, sv->tpot_s),
              format_seconds(y, sizeof y, lp->tpot_p50_s), format_seconds(z, sizeof z, lp->tpot_p90_s),
              format_seconds(w, sizeof w, lp->tpot_p99_s),
              s->tpot_target_s > 0.0 ? (sv->tpot_ok ? " (meets the target)" : " (**misses the target**)") : "");
    sb_printf(sb, "| running, requests/s%s | %.1f, %.3g%s%s |\n", a->parallel.dp > 1 ? " (a replica)" : "",
              sv->running_requests, sv->requests_per_s,
              lp->overloaded ? " (the most it serves)" : "",
              lp->kv_bound    ? "; the KV cache caps the running requests"
              : lp->saturated ? (s->disagg_prefill_chips > 0 ? "; the prefill pool is saturated" : "; the engine is saturated")
                              : "");
    if (s->arrival_per_s <= 0.0)
        sb_printf(sb, "| a benchmark of %lld x %lld requests: TTFT, TPOT | %s, %s |\n", (long long)s->bench_rounds,
                  (long long)s->batch, format_seconds(x, sizeof x, sv->benchmark_ttft_s),
                  format_seconds(y, sizeof y, sv->benchmark_tpot_s));
    if (s->disagg_prefill_chips > 0) { /* the pool as the text report gives it */
        sb_puts(sb, "| prefill pool | ");
        pool_words(sb, s, sv, true);
        sb_puts(sb, " |\n");
    }
    sb_printf(sb, "| tokens/s per user, per chip | %.1f, %.1f |\n\n", sv->tokens_per_s_per_user,
              sv->tokens_per_s_per_chip);
    sb_puts(sb, "| cost and energy (per output token) | value |\n| --- | --- |\n");
    cost_energy_lines(sb, a, true);
    sb_puts(sb, "\n");
}

/* The markdown report's MFU budget and the notes. */
static void md_budget(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    const struct mfu_budget *b = &a->mfu_budget;
    sb_printf(sb, "| MFU budget (%s) | share |\n| --- | ---: |\n",
              a->mfu_budget_source == RT_BUDGET_SHAPE ? "training step from the shape" : "from --step-times");
    for (int i = 0; i < RT_PART_COUNT; i++)
        if (i != RT_PART_BUBBLE || b->seconds[i] > 0.0)
            sb_printf(sb, "| %s | %.1f%% |\n", step_part_name((enum rt_step_part)i), b->fraction[i] * 100.0);
    enum rt_mfu_shown shown = analysis_mfu_shown(a, false);
    const char *conv = flops_convention_label(a->training.convention);
    if (shown == RT_MFU_NONE) {
        char sz[24], hb[24];
        sb_printf(sb, "\nMFU (%s): **none**: the step cannot run (Adam's state, %s a chip, is more than its %s of "
                      "HBM); the split above is on paper; biggest lever: **%s**.\n\n",
                  conv, format_si(sz, sizeof sz, a->training.state_bytes_per_chip, "B"),
                  format_si(hb, sizeof hb, a->hbm_bytes, "B"), step_part_name(b->biggest_lever));
    } else if (shown == RT_MFU_CAUSAL) {
        sb_printf(sb, "\nMFU (causal) **%.1f%%**, HFU %.1f%% (%s's count: %.1f%% and %.1f%%, over 100%% because %s "
                      "counts non-causal attention); biggest lever: **%s**.\n\n",
                  a->budget_causal_mfu * 100.0, a->budget_causal_hfu * 100.0, conv, b->mfu * 100.0, a->hfu * 100.0,
                  conv, step_part_name(b->biggest_lever));
    } else {
        sb_printf(sb, "\nMFU (%s) **%.1f%%**, HFU %.1f%%%s%s%s; biggest lever: **%s**.\n\n", conv, b->mfu * 100.0,
                  a->hfu * 100.0, b->mfu > 1.0 || a->hfu > 1.0 ? " (above 100%: " : "",
                  b->mfu > 1.0 || a->hfu > 1.0 ? analysis_over_peak_reason(a, false) : "",
                  b->mfu > 1.0 || a->hfu > 1.0 ? ")" : "", step_part_name(b->biggest_lever));
    }
    const struct training_figures *run = &a->training;
    char mt[24], mh[24], md[24];
    if (run->totals && !(run->totals_mfu > 0.0))
        sb_printf(sb, "Training run: %s tokens, %.4g model FLOPs (%s); no chip-hours: the step cannot run here, so "
                      "it has no MFU (give --train-mfu).\n\n",
                  format_number(mt, sizeof mt, s->train_tokens, 0), run->total_flops,
                  flops_convention_name(run->convention));
    else if (run->totals)
        sb_printf(sb, "Training run: %s tokens, %.4g model FLOPs (%s); at MFU %.1f%%, %s chip-hours, %s days "
                      "on %lld chip%s.\n\n",
                  format_number(mt, sizeof mt, s->train_tokens, 0), run->total_flops,
                  flops_convention_name(run->convention), run->totals_mfu * 100.0,
                  format_number(mh, sizeof mh, run->chip_hours, 0), num3(md, sizeof md, run->days),
                  (long long)(s->chips * s->data_parallel), s->chips * s->data_parallel == 1 ? "" : "s");
    if (run->implied_mfu > 0.0)
        sb_printf(sb, "Published %s chip-hours imply MFU **%.1f%%**%s.\n\n",
                  format_number(mh, sizeof mh, s->train_chip_hours, 0), run->implied_mfu * 100.0,
                  run->implied_mfu > 1.0 ? IMPLIED_OVER_PEAK : "");
    char words[200];
    if (a->training.measured)
        sb_printf(sb, "Measured training: %s.\n\n", measured_mfu_words(words, sizeof words, a));
    if (a->prefill_mfu > 0.0)
        sb_printf(sb, "Measured prefill MFU: **%.1f%%**%s.\n\n", a->prefill_mfu * 100.0,
                  a->prefill_mfu > 1.0 ? MEASURED_OVER_PEAK : "");
    if (a->decode_mbu > 0.0)
        sb_printf(sb, "Measured decode MBU: **%.1f%%**%s.\n\n", a->decode_mbu * 100.0,
                  a->decode_mbu > 1.0 ? MEASURED_OVER_PEAK : "");
    char note[RT_NOTE_MAX];
    for (int i = 0; i < a->note_count; i++)
        sb_printf(sb, "- %s\n", note_text(note, sizeof note, &a->notes[i]));
    text_assumptions(sb, &s->model, "- Assumed from the model's config: ", "\n");
}

/* The markdown report, section by section. */
static void markdown_report(struct strbuf *sb, const struct scenario *s, const struct analysis *a)
{
    md_head(sb, s, a);
    md_latency(sb, s, a);
    md_operations(sb, a);
    md_memory(sb, s, a);
    md_serving(sb, s, a);
    md_budget(sb, s, a);
}

/* ---- JSON ---------------------------------------------------------------- */

/* Adds the placement rows as a JSON array under "placement". */
static void json_placements(cJSON *root, const struct analysis *a)
{
    cJSON *list = cJSON_AddArrayToObject(root, "placement");
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddStringToObject(o, "phase", p->phase);
        cJSON_AddNumberToObject(o, "flops", p->flops);
        cJSON_AddNumberToObject(o, "bytes", p->bytes);
        if (p->on_chip)
            cJSON_AddNullToObject(o, "intensity_flop_per_byte");
        else
            cJSON_AddNumberToObject(o, "intensity_flop_per_byte", p->roof.intensity_flop_per_byte);
        cJSON_AddStringToObject(o, "bound", bound_name(p->roof.bound));
        cJSON_AddNumberToObject(o, "attainable_flops_per_s", p->roof.attainable_flops_per_s);
        cJSON_AddNumberToObject(o, "fraction_of_peak", p->roof.fraction_of_peak);
        cJSON_AddStringToObject(o, "lever", p->roof.lever);
        cJSON_AddBoolToObject(o, "operation", p->operation);
        cJSON_AddStringToObject(o, "unit", p->vector ? "vector" : "tensor");
        cJSON_AddNumberToObject(o, "time_s", p->time_s);
        cJSON_AddNumberToObject(o, "realistic_time_s", p->realistic_time_s);
        cJSON_AddNumberToObject(o, "share", p->share);
        cJSON_AddItemToArray(list, o);
    }
}

/* Adds a list of {name, seconds} terms. */
static void json_terms(cJSON *obj, const char *key, const struct latency_term *terms, int n)
{
    cJSON *list = cJSON_AddArrayToObject(obj, key);
    for (int i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", terms[i].name);
        cJSON_AddNumberToObject(o, "seconds", terms[i].seconds);
        cJSON_AddItemToArray(list, o);
    }
}

/* Adds "chips_for_budget": N, or null for none. */
static void json_chips(cJSON *obj, int64_t chips)
{
    if (chips > 0)
        cJSON_AddNumberToObject(obj, "chips_for_budget", (double)chips);
    else
        cJSON_AddNullToObject(obj, "chips_for_budget");
}

/* Adds a turn's times, verdict and chips for the budget (the floor's and
 * the realistic estimate's blocks share these keys). */
static void json_turn(cJSON *obj, double prefill_s, double decode_s, double ttft_s, double tpot_s, double overhead_s,
                      double total_s, bool ok, int64_t chips)
{
    cJSON_AddNumberToObject(obj, "prefill_s", prefill_s);
    cJSON_AddNumberToObject(obj, "decode_s", decode_s);
    cJSON_AddNumberToObject(obj, "ttft_s", ttft_s);
    cJSON_AddNumberToObject(obj, "tpot_s", tpot_s);
    cJSON_AddNumberToObject(obj, "overhead_s", overhead_s);
    cJSON_AddNumberToObject(obj, "total_s", total_s);
    cJSON_AddStringToObject(obj, "verdict", ok_text(ok));
    json_chips(obj, chips);
}

/* Adds a number, or null when it is 0 (not measured, not set). */
/* Adds key: v, or null when none. */
static void json_number_or_null(cJSON *obj, const char *key, double v, bool none)
{
    if (none)
        cJSON_AddNullToObject(obj, key);
    else
        cJSON_AddNumberToObject(obj, key, v);
}

static void json_measured(cJSON *obj, const char *key, double v)
{
    if (v > 0.0)
        cJSON_AddNumberToObject(obj, key, v);
    else
        cJSON_AddNullToObject(obj, key);
}

/* mfu, hfu, causal_mfu and causal_hfu (v in that order) into obj; all
 * null for a step that cannot run (none: analysis_mfu_shown's RT_MFU_NONE). */
static void json_mfus(cJSON *obj, const double v[4], bool none)
{
    static const char *const keys[] = {"mfu", "hfu", "causal_mfu", "causal_hfu"};
    for (int i = 0; i < 4; i++) {
        if (none)
            cJSON_AddNullToObject(obj, keys[i]);
        else
            cJSON_AddNumberToObject(obj, keys[i], v[i]);
    }
}

/* cost.{usd_per_million_output_tokens, usd_per_chip_hour, source} and
 * energy.{joules_per_output_token, tokens_per_kwh, power_w, pue}: null
 * where no price or power is known, or no output token is made. */
static void json_cost_energy(cJSON *root, const struct analysis *a)
{
    const struct cost_figures *c = &a->cost;
    cJSON *cost = cJSON_AddObjectToObject(root, "cost");
    if (c->priced)
        cJSON_AddNumberToObject(cost, "usd_per_million_output_tokens", c->usd_per_million_output_tokens);
    else
        cJSON_AddNullToObject(cost, "usd_per_million_output_tokens");
    if (c->known)
        cJSON_AddNumberToObject(cost, "usd_per_chip_hour", c->usd_per_chip_hour);
    else
        cJSON_AddNullToObject(cost, "usd_per_chip_hour");
    cJSON_AddStringToObject(cost, "source", c->source);
    const struct energy_figures *e = &a->energy;
    cJSON *energy = cJSON_AddObjectToObject(root, "energy");
    if (e->measured) {
        cJSON_AddNumberToObject(energy, "joules_per_output_token", e->joules_per_output_token);
        cJSON_AddNumberToObject(energy, "tokens_per_kwh", e->tokens_per_kwh);
    } else {
        cJSON_AddNullToObject(energy, "joules_per_output_token");
        cJSON_AddNullToObject(energy, "tokens_per_kwh");
    }
    if (e->known)
        cJSON_AddNumberToObject(energy, "power_w", e->power_w);
    else
        cJSON_AddNullToObject(energy, "power_w");
    cJSON_AddNumberToObject(energy, "pue", e->pue);
    cJSON_AddStringToObject(energy, "power_source", e->power_source);
}

/* The report's the chip: its figures, sources, conflicts and efficiency profile. */
static void json_chip(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    cJSON *chip = cJSON_AddObjectToObject(root, "chip");
    cJSON_AddStringToObject(chip, "key", s->chip.key);
    cJSON_AddStringToObject(chip, "name", s->chip.name);
    cJSON_AddNumberToObject(chip, "peak_flops_per_s", a->peak_flops_per_s);
    cJSON_AddStringToObject(chip, "compute_precision", precision_name(a->compute_precision));
    cJSON_AddBoolToObject(chip, "weight_only_quantization", a->weight_only_quantization);
    cJSON_AddNumberToObject(chip, "hbm_bytes", a->hbm_bytes);
    cJSON_AddNumberToObject(chip, "hbm_bytes_per_s", a->hbm_bytes_per_s);
    cJSON_AddNumberToObject(chip, "interconnect_bytes_per_s", s->chip.interconnect_bytes_per_s);
    cJSON_AddNumberToObject(chip, "vector_flops_per_s", a->hw.vector_flops_per_s);
    if (s->chip.tdp_w > 0.0)
        cJSON_AddNumberToObject(chip, "tdp_w", s->chip.tdp_w);
    else
        cJSON_AddNullToObject(chip, "tdp_w");
    cJSON_AddStringToObject(chip, "source", s->chip.source);
    /* The datasheet's SM (CU) count, as the README lists it; 0 when unpublished */
    cJSON_AddNumberToObject(chip, "sm_count", (double)s->chip.efficiency.sm_count);
    cJSON *eff = cJSON_AddObjectToObject(chip, "efficiency");
    efficiency_to_json(eff, &a->efficiency);
    cJSON_AddBoolToObject(eff, "generic", !s->chip.efficiency.present);
    cJSON_AddNumberToObject(root, "chips", (double)s->chips);
}

/* The report's the model: its shape, parameters and schedule. */
static void json_model(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    const struct model_shape *m = &s->model;
    cJSON *model = cJSON_AddObjectToObject(root, "model");
    cJSON_AddStringToObject(model, "name", m->name);
    cJSON_AddNumberToObject(model, "params", a->params);
    cJSON_AddNumberToObject(model, "active_params", a->active_params);
    cJSON_AddStringToObject(model, "params_source", params_source_name(a->params_source));
    cJSON_AddNumberToObject(model, "shape_params", a->shape_count.total);
    cJSON_AddNumberToObject(model, "layers", (double)m->layers);
    cJSON_AddNumberToObject(model, "d_model", (double)m->d_model);
    cJSON_AddNumberToObject(model, "heads", (double)m->heads);
    cJSON_AddNumberToObject(model, "kv_heads", (double)m->kv_heads);
    cJSON_AddNumberToObject(model, "d_head", (double)m->d_head);
    cJSON_AddNumberToObject(model, "d_ff", (double)m->d_ff);
    cJSON_AddNumberToObject(model, "vocab", (double)m->vocab);
    cJSON_AddNumberToObject(model, "experts", (double)m->experts);
    cJSON_AddNumberToObject(model, "experts_per_token", (double)m->experts_per_token);
    cJSON_AddBoolToObject(model, "tied_embeddings", m->tied_embeddings);
    cJSON_AddBoolToObject(model, "gated_mlp", m->gated_mlp);
    cJSON_AddNumberToObject(model, "moe_d_ff", (double)(m->experts > 1 ? (m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff) : 0));
    cJSON_AddNumberToObject(model, "shared_experts", (double)m->shared_experts);
    cJSON_AddNumberToObject(model, "shared_d_ff",
                            (double)(m->shared_experts > 0 ? (m->shared_d_ff > 0 ? m->shared_d_ff
                                                                                 : m->moe_d_ff > 0 ? m->moe_d_ff : m->d_ff)
                                                           : 0));
    char pattern[160];
    cJSON_AddStringToObject(model, "layer_pattern", model_schedule_summary(m, pattern, sizeof pattern));
    cJSON_AddItemToObject(model, "layer_schedule", model_schedule_to_json(m));
    cJSON_AddItemToObject(model, "assumptions", model_assumptions_to_json(m));
}

/* The report's the workload: batch, precisions, tokens. */
static void json_workload(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    cJSON *workload = cJSON_AddObjectToObject(root, "workload");
    cJSON_AddNumberToObject(workload, "batch", (double)s->batch);
    cJSON_AddStringToObject(workload, "precision", precision_name(s->precision));
    cJSON_AddStringToObject(workload, "kv_precision", precision_name(s->kv_precision));
    cJSON_AddStringToObject(workload, "act_precision", precision_name(s->act_precision));
    cJSON_AddNumberToObject(workload, "bytes_per_weight", a->bytes_per_weight);
    cJSON_AddNumberToObject(workload, "bytes_per_activation", a->memory.per_chip.activation_bytes_per_element);
    cJSON_AddNumberToObject(workload, "bytes_per_kv_element", a->bytes_per_kv_element);
    cJSON_AddNumberToObject(workload, "context_tokens", (double)s->context_tokens);
    cJSON_AddNumberToObject(workload, "prefill_tokens", (double)s->prefill_tokens);
    cJSON_AddNumberToObject(workload, "decode_tokens", (double)s->decode_tokens);
    cJSON_AddNumberToObject(workload, "mfu", s->mfu);
}

/* The report's the turn's latency: napkin, detailed and realistic. */
static void json_latency(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    const struct latency_verdict *l = &a->latency;
    cJSON *lat = cJSON_AddObjectToObject(root, "latency");
    cJSON_AddStringToObject(lat, "model", latency_model_name(a->latency_model));
    cJSON_AddBoolToObject(lat, "estimates_disagree", a->estimates_disagree);
    cJSON_AddBoolToObject(lat, "verdicts_split", a->verdicts_split);
    cJSON_AddNumberToObject(lat, "prefill_s", l->prefill_s);
    cJSON_AddNumberToObject(lat, "decode_s", l->decode_s);
    cJSON_AddNumberToObject(lat, "overhead_s", l->overhead_s);
    cJSON_AddNumberToObject(lat, "total_s", l->total_s);
    cJSON_AddNumberToObject(lat, "budget_s", l->budget_s);
    cJSON_AddStringToObject(lat, "verdict", verdict_name(l));
    json_chips(lat, l->chips_for_budget);
    cJSON_AddNumberToObject(lat, "max_chips", (double)l->max_chips);
    cJSON_AddNumberToObject(lat, "prefill_flops", l->prefill_flops);
    cJSON_AddNumberToObject(lat, "decode_bytes", l->decode_bytes);
    const struct latency_verdict *nv = &a->napkin;
    cJSON *nap = cJSON_AddObjectToObject(lat, "napkin");
    cJSON_AddNumberToObject(nap, "prefill_s", nv->prefill_s);
    cJSON_AddNumberToObject(nap, "decode_s", nv->decode_s);
    cJSON_AddNumberToObject(nap, "overhead_s", nv->overhead_s);
    cJSON_AddNumberToObject(nap, "total_s", nv->total_s);
    cJSON_AddStringToObject(nap, "verdict", verdict_name(nv));
    json_chips(nap, nv->chips_for_budget);
    const struct detailed_latency *dl = &a->detailed;
    cJSON *det = cJSON_AddObjectToObject(lat, "detailed");
    json_turn(det, dl->prefill_s, dl->decode_s, dl->ttft_s, dl->tpot_s, dl->overhead_s, dl->total_s, dl->ok,
              dl->chips_for_budget);
    cJSON_AddStringToObject(det, "attention", s->unfused_attention ? "unfused" : "fused");
    cJSON_AddNumberToObject(det, "prefill_comms_s", a->phases[RT_PHASE_PREFILL].comms_s);
    cJSON_AddNumberToObject(det, "decode_comms_s", a->phases[RT_PHASE_DECODE].comms_s);
    json_terms(det, "prefill_terms", dl->prefill_terms, dl->prefill_term_count);
    json_terms(det, "decode_step_terms", dl->decode_terms, dl->decode_term_count);
    const struct realistic_latency *rl = &a->realistic;
    cJSON *real = cJSON_AddObjectToObject(lat, "realistic");
    json_turn(real, rl->prefill_s, rl->decode_s, rl->ttft_s, rl->tpot_s, rl->overhead_s, rl->total_s, rl->ok,
              rl->chips_for_budget);
    cJSON_AddNumberToObject(real, "prefill_comms_s", rl->prefill_comms_s);
    cJSON_AddNumberToObject(real, "decode_comms_s", rl->decode_comms_s);
    cJSON_AddNumberToObject(real, "step_overhead_s", s->engine.step_s);
    cJSON_AddStringToObject(real, "engine", s->engine.name);
    cJSON_AddBoolToObject(real, "engine_calibrated", rl->engine_calibrated);
    cJSON_AddBoolToObject(real, "chip_calibrated", rl->chip_calibrated);
    json_add_exact(real, "ttft_error_fraction", rl->ttft_error_fraction);
    json_add_exact(real, "tpot_error_fraction", rl->tpot_error_fraction);
    json_add_exact(real, "total_error_fraction", rl->total_error_fraction);
    cJSON_AddStringToObject(real, "profile_from", rl->profile_from);
    cJSON_AddBoolToObject(real, "profile_measured", rl->profile_measured);

}

/* The report's the training step and its totals. */
static void json_training(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    const struct training_figures *tr = &a->training;
    cJSON *train = cJSON_AddObjectToObject(root, "training");
    cJSON_AddNumberToObject(train, "tokens_per_step", tr->tokens_per_step);
    cJSON_AddNumberToObject(train, "model_flops_per_token", tr->model_flops_per_token);
    cJSON_AddNumberToObject(train, "hardware_flops_per_token", tr->hardware_flops_per_token);
    cJSON_AddNumberToObject(train, "step_s", tr->step_s);
    const double train_mfus[4] = {tr->mfu, tr->hfu, tr->causal_mfu, tr->causal_hfu};
    json_mfus(train, train_mfus, analysis_mfu_shown(a, tr->measured) == RT_MFU_NONE);
    cJSON_AddNumberToObject(train, "state_bytes_per_chip", tr->state_bytes_per_chip);
    cJSON_AddBoolToObject(train, "state_fits", tr->state_fits);
    cJSON_AddStringToObject(train, "source", tr->measured ? "measured" : "shape");
    cJSON_AddNumberToObject(train, "data_parallel", (double)s->data_parallel);
    cJSON_AddStringToObject(train, "flops_convention", flops_convention_name(tr->convention));
    json_measured(train, "total_flops", tr->total_flops);
    json_measured(train, "totals_mfu", tr->totals ? tr->totals_mfu : 0.0);
    json_measured(train, "chip_hours", tr->chip_hours);
    json_measured(train, "days", tr->days);
    json_measured(train, "implied_mfu", tr->implied_mfu);
}

/* The report's prefill's measured MFU and decode's figures (speculative decoding among them). */
static void json_phases(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    json_measured(cJSON_AddObjectToObject(root, "prefill"), "mfu", a->prefill_mfu);
    cJSON *decode = cJSON_AddObjectToObject(root, "decode");
    json_measured(decode, "mbu", a->decode_mbu);
    cJSON_AddNumberToObject(decode, "memory_step_s", a->decode_memory_step_s);
    json_measured(decode, "intensity_ceiling_flop_per_byte", a->decode_intensity_ceiling_flop_per_byte);
    json_measured(decode, "ridge_batch", a->decode_ridge_batch);
    const struct speculative_figures *sp = &a->speculative;
    if (sp->enabled) {
        cJSON *spec = cJSON_AddObjectToObject(decode, "speculative");
        cJSON_AddNumberToObject(spec, "draft_tokens", (double)s->spec_tokens);
        if (s->spec_accept_positions > 0) {
            cJSON_AddNullToObject(spec, "acceptance");
            cJSON *pos = cJSON_AddArrayToObject(spec, "acceptance_by_position");
            for (int64_t i = 0; i < s->spec_accept_positions; i++)
                cJSON_AddItemToArray(pos, cJSON_CreateNumber(s->spec_accept_by_position[i]));
        } else {
            cJSON_AddNumberToObject(spec, "acceptance", s->spec_accept);
            cJSON_AddNullToObject(spec, "acceptance_by_position");
        }
        cJSON_AddNumberToObject(spec, "verify_tokens", sp->verify_tokens);
        cJSON_AddStringToObject(spec, "draft", s->spec_draft_name[0] ? s->spec_draft_name : "mtp head");
        cJSON_AddNumberToObject(spec, "draft_params", sp->draft_params);
        cJSON_AddNumberToObject(spec, "tokens_per_pass", sp->tokens_per_pass);
        cJSON_AddNumberToObject(spec, "draft_step_s", sp->draft_step_s);
        cJSON_AddNumberToObject(spec, "verify_step_s", sp->verify_step_s);
        cJSON_AddNumberToObject(spec, "tpot_s", sp->tpot_s);
        cJSON_AddNumberToObject(spec, "speedup", sp->speedup);
    } else {
        cJSON_AddNullToObject(decode, "speculative");
    }

}

/* The report's the layout: tp, pp, ep, dp and their links. */
static void json_parallel(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    const struct parallel_figures *pf = &a->parallel;
    cJSON *par = cJSON_AddObjectToObject(root, "parallel");
    cJSON_AddNumberToObject(par, "tp", (double)pf->tp);
    cJSON_AddNumberToObject(par, "pp", (double)pf->pp);
    cJSON_AddNumberToObject(par, "ep", (double)pf->ep);
    cJSON_AddNumberToObject(par, "dp", (double)pf->dp);
    cJSON_AddNumberToObject(par, "chips_per_replica", (double)pf->chips_per_replica);
    cJSON_AddNumberToObject(par, "chips_total", (double)pf->chips_total);
    cJSON_AddNumberToObject(par, "stage_layers", pf->stage_layers);
    cJSON_AddNumberToObject(par, "microbatches", pf->microbatches);
    cJSON_AddNumberToObject(par, "bubble_fraction", pf->bubble_fraction);
    cJSON_AddNumberToObject(par, "decode_seqs_per_pass", pf->decode_seqs_per_pass);
    cJSON_AddNumberToObject(par, "pipeline_hops_s", pf->pipeline_hops_s);
    cJSON_AddNumberToObject(par, "alltoall_s", pf->alltoall_s);
    cJSON_AddNumberToObject(par, "ep_imbalance", s->ep_imbalance);
    cJSON_AddNumberToObject(par, "tp_link_bytes_per_s", pf->tp_link_bytes_per_s);
    cJSON_AddBoolToObject(par, "tp_crosses_domain", pf->tp_crosses_domain);
    cJSON_AddBoolToObject(par, "replica_crosses_domain", pf->replica_crosses_domain);
    json_measured(par, "disagg_prefill_chips", (double)s->disagg_prefill_chips);
    json_measured(par, "moe_ep", (double)s->moe_ep);

}

/* The report's serving as engines serve, its loop and percentiles (64 lines: one key after another,
 * in the order the README's table gives them). */
static void json_serving(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    const struct serving_figures *sv = &a->serving;
    cJSON *serve = cJSON_AddObjectToObject(root, "serving");
    bool no_ttft = sv->loop.overloaded; /* no steady state, so no TTFT (serving.h): null */
    bool open_loop = s->arrival_per_s > 0.0; /* no benchmark rounds, no first wave: null */
    json_number_or_null(serve, "ttft_s", sv->ttft_s, no_ttft);
    cJSON_AddNumberToObject(serve, "tpot_s", sv->tpot_s);
    json_number_or_null(serve, "benchmark_ttft_s", sv->benchmark_ttft_s, no_ttft || open_loop);
    json_number_or_null(serve, "benchmark_tpot_s", sv->benchmark_tpot_s, open_loop);
    json_measured(serve, "clients", s->arrival_per_s > 0.0 ? 0.0 : (double)s->batch); /* null: an open loop */
    json_measured(serve, "arrival_per_s", s->arrival_per_s);
    json_number_or_null(serve, "bench_rounds", (double)s->bench_rounds, open_loop);
    cJSON_AddNumberToObject(serve, "token_budget", sv->token_budget);
    cJSON_AddNumberToObject(serve, "prefix_hit", s->prefix_hit);
    cJSON_AddNumberToObject(serve, "prompt_s", sv->prompt_s);
    cJSON_AddNumberToObject(serve, "mean_context_tokens", sv->mean_context_tokens);
    cJSON_AddNumberToObject(serve, "running_requests", sv->running_requests);
    cJSON_AddNumberToObject(serve, "requests_per_s", sv->requests_per_s);
    cJSON_AddNumberToObject(serve, "step_time_s", sv->loop.step_time_s);
    json_number_or_null(serve, "queue_wait_s", sv->loop.wait_s, no_ttft);
    json_number_or_null(serve, "frontend_s", sv->loop.frontend_s, no_ttft); /* ttft_s = these four */
    json_number_or_null(serve, "in_flight_s", sv->loop.in_flight_s, no_ttft);
    json_number_or_null(serve, "own_prefill_s", sv->loop.own_s, no_ttft);
    cJSON_AddNumberToObject(serve, "prefill_share", sv->loop.prefill_share);
    json_number_or_null(serve, "first_wave_ttft_s", sv->loop.first_wave_ttft_s, open_loop);
    json_number_or_null(serve, "first_wave_tpot_s", sv->loop.first_wave_tpot_s, open_loop);
    cJSON *pct = cJSON_AddObjectToObject(serve, "percentiles");
    json_number_or_null(pct, "ttft_p50_s", sv->loop.ttft_p50_s, no_ttft);
    json_number_or_null(pct, "ttft_p90_s", sv->loop.ttft_p90_s, no_ttft);
    json_number_or_null(pct, "ttft_p99_s", sv->loop.ttft_p99_s, no_ttft);
    cJSON_AddNumberToObject(pct, "tpot_p50_s", sv->loop.tpot_p50_s);
    cJSON_AddNumberToObject(pct, "tpot_p90_s", sv->loop.tpot_p90_s);
    cJSON_AddNumberToObject(pct, "tpot_p99_s", sv->loop.tpot_p99_s);
    cJSON_AddBoolToObject(serve, "kv_bound", sv->loop.kv_bound);
    cJSON_AddBoolToObject(serve, "saturated", sv->loop.saturated);
    cJSON_AddBoolToObject(serve, "overloaded", sv->loop.overloaded);
    cJSON_AddNumberToObject(serve, "tokens_per_s_per_user", sv->tokens_per_s_per_user);
    cJSON_AddNumberToObject(serve, "tokens_per_s_per_chip", sv->tokens_per_s_per_chip);
    cJSON_AddNumberToObject(serve, "kv_transfer_s", sv->kv_transfer_s);
    cJSON_AddNumberToObject(serve, "kv_bytes_per_rank", sv->kv_bytes_per_rank);
    cJSON_AddNumberToObject(serve, "prefill_pool_share_chips", sv->prefill_pool_share);
    if (s->disagg_prefill_chips > 0) {
        cJSON_AddNumberToObject(serve, "prefill_pool_load", sv->prefill_pool_load);
        cJSON_AddNumberToObject(serve, "prefill_pool_tp", (double)sv->prefill_pool_tp);
        cJSON_AddNumberToObject(serve, "prefill_pool_dp", (double)sv->prefill_pool_dp);
        cJSON_AddNumberToObject(serve, "prefill_pool_workers", (double)sv->prefill_pool_workers);
        json_measured(serve, "prefill_pool_moe_ep", (double)s->disagg_prefill_moe_ep);
        cJSON_AddBoolToObject(serve, "prefill_pool_fits", sv->prefill_pool_fits);
    } else {
        cJSON_AddNullToObject(serve, "prefill_pool_load");
        cJSON_AddNullToObject(serve, "prefill_pool_tp");
        cJSON_AddNullToObject(serve, "prefill_pool_dp");
        cJSON_AddNullToObject(serve, "prefill_pool_workers");
        cJSON_AddNullToObject(serve, "prefill_pool_moe_ep");
        cJSON_AddNullToObject(serve, "prefill_pool_fits");
    }
    json_measured(serve, "ttft_target_s", s->ttft_target_s);
    json_measured(serve, "tpot_target_s", s->tpot_target_s);
    cJSON_AddBoolToObject(serve, "ttft_ok", sv->ttft_ok);
    cJSON_AddBoolToObject(serve, "tpot_ok", sv->tpot_ok);
    cJSON_AddBoolToObject(serve, "ok", sv->ok);
    json_cost_energy(root, a);
}

/* The report's the memory verdict, per chip and for the replica. */
static void json_memory(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    const struct memory_verdict *mv = &a->memory;
    cJSON *mem = cJSON_AddObjectToObject(root, "memory");
    cJSON_AddNumberToObject(mem, "weights_bytes", mv->weights_bytes);
    cJSON_AddNumberToObject(mem, "weights_fit_chips", (double)mv->weights_fit_chips);
    cJSON_AddNumberToObject(mem, "hbm_total_bytes", mv->hbm_total_bytes);
    cJSON_AddNumberToObject(mem, "reserve_bytes", s->reserve_bytes);
    cJSON_AddNumberToObject(mem, "free_bytes", mv->free_bytes);
    cJSON_AddNumberToObject(mem, "kv_cache_bytes", mv->kv_cache_bytes);
    cJSON_AddNumberToObject(mem, "kv_cache_bytes_per_token", mv->kv_cache_bytes_per_token);
    cJSON_AddNumberToObject(mem, "kv_cache_bytes_per_request", mv->kv_cache_bytes_per_request);
    cJSON_AddNumberToObject(mem, "state_bytes_per_request", mv->state_bytes_per_request);
    cJSON_AddNumberToObject(mem, "max_concurrent_requests", (double)mv->max_concurrent_requests);
    cJSON_AddBoolToObject(mem, "weights_fit", mv->weights_fit);
    cJSON_AddBoolToObject(mem, "batch_fits", mv->batch_fits);
    cJSON_AddNumberToObject(mem, "kv_replication", mv->kv_replication);
    const struct chip_memory *cm = &mv->per_chip;
    cJSON *per = cJSON_AddObjectToObject(mem, "per_chip");
    cJSON_AddNumberToObject(per, "weights_bytes", cm->weights_bytes);
    cJSON_AddNumberToObject(per, "kv_cache_bytes", cm->kv_cache_bytes);
    cJSON_AddNumberToObject(per, "state_bytes", cm->state_bytes);
    cJSON_AddNumberToObject(per, "activation_bytes", cm->activation_bytes);
    cJSON_AddNumberToObject(per, "activation_tokens", cm->activation_tokens);
    cJSON_AddNumberToObject(per, "reserve_bytes", cm->reserve_bytes);
    cJSON_AddNumberToObject(per, "free_bytes", cm->free_bytes);
    cJSON_AddNumberToObject(per, "kv_cache_bytes_per_request", cm->kv_cache_bytes_per_request);
    cJSON_AddNumberToObject(per, "max_concurrent_requests", (double)cm->max_concurrent_requests);
    cJSON_AddNumberToObject(mem, "max_concurrent_requests_after_workspace",
                            (double)mv->max_concurrent_requests_after_workspace);

    json_placements(root, a);
    cJSON_AddNumberToObject(root, "decode_batch_intensity_flop_per_byte", a->decode_batch_intensity_flop_per_byte);
    cJSON_AddNumberToObject(root, "gqa_saving", a->gqa_saving);
    cJSON_AddNumberToObject(root, "kv_saving", a->kv_saving);
}

/* The report's tile efficiency, the MFU budget and the notes. */
static void json_shape(cJSON *root, const struct scenario *s, const struct analysis *a)
{
    cJSON *tile = cJSON_AddObjectToObject(root, "tile_efficiency");
    cJSON_AddNumberToObject(tile, "tile", (double)s->tile);
    cJSON_AddNumberToObject(tile, "d_model", a->tile_efficiency_d_model);
    cJSON_AddNumberToObject(tile, "d_ff", a->tile_efficiency_d_ff);
    cJSON_AddNumberToObject(tile, "d_head", a->tile_efficiency_d_head);

    if (a->has_mfu_budget) {
        const struct mfu_budget *b = &a->mfu_budget;
        cJSON *mb = cJSON_AddObjectToObject(root, "mfu_budget");
        char key[32];
        for (int i = 0; i < RT_PART_COUNT; i++) {
            snprintf(key, sizeof key, "%s_s", step_part_name((enum rt_step_part)i));
            cJSON_AddNumberToObject(mb, key, b->seconds[i]);
        }
        for (int i = 0; i < RT_PART_COUNT; i++) {
            snprintf(key, sizeof key, "%s_fraction", step_part_name((enum rt_step_part)i));
            cJSON_AddNumberToObject(mb, key, b->fraction[i]);
        }
        enum rt_mfu_shown shown = analysis_mfu_shown(a, false);
        static const char *const shown_names[] = {"plain", "causal", "none"};
        const double budget_mfus[4] = {b->mfu, a->hfu, a->budget_causal_mfu, a->budget_causal_hfu};
        json_mfus(mb, budget_mfus, shown == RT_MFU_NONE);
        cJSON_AddStringToObject(mb, "shown", shown_names[shown]);
        cJSON_AddNumberToObject(mb, "recompute_factor", a->recompute_factor);
        cJSON_AddStringToObject(mb, "source", a->mfu_budget_source == RT_BUDGET_SHAPE ? "shape" : "step-times");
        cJSON_AddStringToObject(mb, "biggest_lever", step_part_name(b->biggest_lever));
    }
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    char note[RT_NOTE_MAX];
    for (int i = 0; i < a->note_count; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(note_text(note, sizeof note, &a->notes[i])));
    cJSON *codes = cJSON_AddArrayToObject(root, "note_codes"); /* notes[i]'s code, for scripts */
    for (int i = 0; i < a->note_count; i++)
        cJSON_AddItemToArray(codes, cJSON_CreateString(note_code_name(a->notes[i].code)));
}

/* Builds the report object (the caller owns it), section by section. */
static cJSON *json_report(const struct scenario *s, const struct analysis *a)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "version", ROOFTOP_VERSION);
    cJSON_AddNumberToObject(root, "ridge_flop_per_byte", a->ridge_flop_per_byte);
    json_chip(root, s, a);
    json_model(root, s, a);
    json_workload(root, s, a);
    json_latency(root, s, a);
    json_training(root, s, a);
    json_phases(root, s, a);
    json_parallel(root, s, a);
    json_serving(root, s, a);
    json_memory(root, s, a);
    json_shape(root, s, a);
    return root;
}

void json_finish(struct strbuf *sb, cJSON *root)
{
    /* Every number to the last digit that tells it apart: cJSON's own
     * printing settles for 15 digits (the CSV beside it prints exactly). */
    char *text = root && json_make_exact(root) == 0 ? cJSON_Print(root) : NULL;
    if (text) {
        sb_puts(sb, text);
        sb_puts(sb, "\n");
        cJSON_free(text);
    } else {
        sb->failed = true;
    }
    cJSON_Delete(root);
}

/* ---- CSV ----------------------------------------------------------------- */

static void csv_placements(struct strbuf *sb, const struct analysis *a)
{
    sb_puts(sb, "name,phase,operation,unit,flops,bytes,intensity_flop_per_byte,bound,attainable_flops_per_s,"
                "fraction_of_peak,lever,time_s,realistic_time_s,share\n");
    for (int i = 0; i < a->placement_count; i++) {
        const struct placement *p = &a->placements[i];
        char f[32], b[32], ai[32], at[32], fr[32], tm[32], rt[32], sh[32];
        if (p->on_chip)
            snprintf(ai, sizeof ai, "null");
        else
            format_exact(ai, sizeof ai, p->roof.intensity_flop_per_byte);
        sb_printf(sb, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", p->name, p->phase,
                  p->operation ? "true" : "false", p->vector ? "vector" : "tensor", format_exact(f, sizeof f, p->flops),
                  format_exact(b, sizeof b, p->bytes), ai, bound_name(p->roof.bound),
                  format_exact(at, sizeof at, p->roof.attainable_flops_per_s),
                  format_exact(fr, sizeof fr, p->roof.fraction_of_peak), p->roof.lever,
                  format_exact(tm, sizeof tm, p->time_s), format_exact(rt, sizeof rt, p->realistic_time_s),
                  format_exact(sh, sizeof sh, p->share));
    }
}

char *report_take(struct strbuf *sb, enum rt_format f)
{
    char *text = sb_take(sb);
    return f == RT_FORMAT_JSON ? json_safe_take(text) : text_safe_take(text);
}

cJSON *report_json_tree(const struct scenario *s, const struct analysis *a)
{
    return json_report(s, a);
}

char *report_render(enum rt_format f, const struct scenario *s, const struct analysis *a)
{
    return report_render_points(f, s, a, NULL, 0, NULL);
}

/* What to check about a point above its roof, by its likeliest cause. */
static const char *above_text(char *buf, size_t size, const struct measured_point *p, const struct point_placement *pp)
{
    switch (pp->above_cause) {
    case POINT_ABOVE_PRECISION:
        snprintf(buf, size, "above the roof: it fits under the %s peak, so it ran at %s, not %s",
                 precision_name(pp->above_fits), precision_name(pp->above_fits), precision_name(p->precision));
        break;
    case POINT_ABOVE_SPARSITY:
        snprintf(buf, size, "above the roof: within the 2:4 sparse peak (twice the dense): sparse work, or FLOPs "
                            "counted as if dense");
        break;
    case POINT_ABOVE_SCOPE:
        snprintf(buf, size, "above the roof: faster than HBM allows, so fewer bytes reached DRAM than were counted "
                            "(a cache served them, or the bytes are L2/L1 traffic or estimated from shapes)");
        break;
    default:
        snprintf(buf, size, "above the roof: a units error (FLOPs, bytes or seconds) or the wrong chip");
        break;
    }
    return buf;
}

/* The measured points as text or markdown lines. */
static void text_points(struct strbuf *sb, const struct scenario *s, const struct measured_point *pts, size_t n,
                        bool markdown)
{
    char ai[24], ach[24], roof[24], t[24];
    sb_printf(sb, markdown ? "\n| measured kernel | FLOP/byte | achieved | roof | of roof | time | note |\n"
                             "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n"
                           : "\nMeasured kernels on %s's roof (--points)\n", s->chip.key);
    int width = 20; /* the longest label's (up to 48), so that the columns line up */
    for (size_t i = 0; i < n; i++) {
        int len = (int)strlen(pts[i].label);
        width = len > width ? len : width;
    }
    if (width > 48)
        width = 48;
    for (size_t i = 0; i < n; i++) {
        struct point_placement pp;
        if (point_place(&pts[i], s, &pp) != 0)
            continue;
        snprintf(ai, sizeof ai, "%.1f", pp.intensity_flop_per_byte);
        format_si(ach, sizeof ach, pp.achieved_flops_per_s, "FLOP/s");
        format_si(roof, sizeof roof, pp.roof_flops_per_s, "FLOP/s");
        format_seconds(t, sizeof t, pts[i].seconds);
        if (pp.by_bytes) { /* no FLOPs: its bandwidth against the HBM's */
            double bw = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : s->chip.hbm_bytes_per_s;
            snprintf(ai, sizeof ai, "no FLOPs");
            format_si(ach, sizeof ach, pp.achieved_bytes_per_s, "B/s");
            format_si(roof, sizeof roof, bw, "B/s");
        }
        char why[200] = "";
        if (pp.above_roof)
            above_text(why, sizeof why, &pts[i], &pp);
        if (markdown)
            sb_printf(sb, "| %s | %s | %s | %s%s | %.1f%% | %s | %s |\n", pts[i].label, ai, ach, roof,
                      pp.on_vector_roof ? " (vector)" : "", pp.fraction_of_roof * 100.0, t, why);
        else
            sb_printf(sb, "  %-*.*s %10s %-9s  %12s of %12s%s  %6.1f%%  %10s%s%s\n", width, width, pts[i].label, ai,
                      pp.by_bytes ? "by bytes" : "FLOP/byte", ach, roof, pp.on_vector_roof ? " vector" : "",
                      pp.fraction_of_roof * 100.0, t, pp.above_roof ? "  ABOVE THE ROOF: " : "",
                      pp.above_roof ? why + strlen("above the roof: ") : "");
    }
}

/* The profiled work's utilization under the points (text or markdown). */
static void text_utilization(struct strbuf *sb, const struct scenario *s, const struct measured_point *pts, size_t n,
                             const struct points_context *ctx, bool markdown)
{
    struct points_utilization u;
    if (points_utilization(pts, n, ctx, s, &u) != 0)
        return;
    char fl[24], by[24], t[24], all[24], win[24];
    format_si(fl, sizeof fl, u.flops, "FLOP");
    format_si(by, sizeof by, u.bytes, "B");
    format_seconds(t, sizeof t, u.seconds);
    format_seconds(win, sizeof win, u.window_s);
    double launches = 0.0;
    for (size_t i = 0; i < n; i++)
        launches += pts[i].kernels > 1.0 ? pts[i].kernels : 1.0;
    if (n == 1 && launches <= 1.0)
        sb_printf(sb, "\nCounted in this kernel: %s and %s in %s", fl, by, t);
    else if (launches > (double)n)
        sb_printf(sb, "\nCounted in these %zu points (%.0f kernels and copies): %s and %s in %s of kernel time", n,
                  launches, fl, by, t);
    else
        sb_printf(sb, "\nCounted in these %zu kernels: %s and %s in %s of kernel time", n, fl, by, t);
    if (ctx && ctx->all_s > u.seconds * (1.0 + 1e-9)) {
        format_seconds(all, sizeof all, ctx->all_s);
        sb_printf(sb, " (of %s in the file: the rest, with no FLOPs or bytes known, is not counted)", all);
    }
    sb_puts(sb, markdown ? ".\n\n" : "\n");
    if (u.window_is_step)
        sb_printf(sb, "Over the %zu ProfilerStep span%s on the GPU (%s): HFU %.1f%%, MBU %.1f%% of %s's peak and HBM "
                      "bandwidth\n",
                  ctx->steps, ctx->steps == 1 ? "" : "s", win, u.hfu * 100.0, u.mbu * 100.0,
                  s->chip.key);
    else
        sb_printf(sb, "Over their kernel time (not wall time: idle gaps and unprofiled work are not in it): HFU %.1f%%, "
                      "MBU %.1f%% of %s's peak and HBM bandwidth\n",
                  u.hfu * 100.0, u.mbu * 100.0, s->chip.key);
    sb_printf(sb, "%s(HFU: each kernel's FLOPs over its own precision's peak, or the vector unit's; MFU is the same "
                  "unless the step recomputed activations, which a profile cannot tell)\n",
              markdown ? "\n" : "  ");
    if (ctx && ctx->bytes_estimated)
        sb_printf(sb, "%s(MBU from bytes estimated from the operators' shapes, each input and output once: no cache, "
                      "no reuse; not DRAM counters)\n",
                  markdown ? "\n" : "  ");
    if (u.above_left_out)
        sb_printf(sb, "%s(%zu point%s above %s roof%s left out of these figures: check %s counts first)\n",
                  markdown ? "\n" : "  ", u.above_left_out, u.above_left_out == 1 ? "" : "s",
                  u.above_left_out == 1 ? "its" : "their", u.above_left_out == 1 ? "" : "s",
                  u.above_left_out == 1 ? "its" : "their");
    if (ctx && ctx->device[0])
        sb_printf(sb, "%sProfiled on %s; placed on %s's roof\n", markdown ? "\n" : "", ctx->device, s->chip.name);
}

/* The measured kernels against every memory level's roof, when the profile
 * counts their L2 or L1 bytes (text or markdown). */
static void text_levels(struct strbuf *sb, const struct scenario *s, const struct measured_point *pts, size_t n,
                        const struct points_context *ctx, bool markdown)
{
    bool any = false;
    for (size_t i = 0; i < n; i++)
        any |= pts[i].l2_bytes > 0.0 || pts[i].l1_bytes > 0.0;
    if (!any)
        return;
    double l2 = ctx && ctx->l2_bytes_per_s > 0.0 ? ctx->l2_bytes_per_s : s->chip.l2_bytes_per_s;
    double l1 = ctx && ctx->l1_bytes_per_s > 0.0 ? ctx->l1_bytes_per_s : s->chip.l1_bytes_per_s;
    char b2[24] = "", b1[24] = "", bh[24] = "";
    if (!(l2 > 0.0) && !(l1 > 0.0)) {
        sb_printf(sb, "\n%sThe profile counts its kernels' L2 and L1 bytes, but %s has no published cache bandwidths: "
                      "give l2_bytes_per_s and l1_bytes_per_s in a chip file (with their source) to see each "
                      "kernel against those roofs\n",
                  markdown ? "" : "", s->chip.key);
        return;
    }
    if (l2 > 0.0)
        format_si(b2, sizeof b2, l2, "B/s");
    if (l1 > 0.0)
        format_si(b1, sizeof b1, l1, "B/s");
    sb_printf(sb, "\nEvery memory level's roof (the hierarchical roofline): L2 %s, L1 %s, from %s\n", b2[0] ? b2 : "-",
              b1[0] ? b1 : "-", ctx && ctx->ceilings_source[0] ? ctx->ceilings_source : s->chip.key);
    if (ctx && ctx->hbm_measured_bytes_per_s > 0.0) {
        format_si(bh, sizeof bh, ctx->hbm_measured_bytes_per_s, "B/s");
        sb_printf(sb, "%s(the same benchmark measured HBM at %s; the HBM column is against %s's %s)\n",
                  markdown ? "\n" : "  ", bh, s->chip.key,
                  format_si(b2, sizeof b2, s->chip.hbm_bytes_per_s, "B/s"));
    }
    if (markdown)
        sb_puts(sb, "\n| kernel | compute | HBM | L2 | L1 | nearest roof |\n| --- | ---: | ---: | ---: | ---: | --- |\n");
    else
        sb_printf(sb, "  %-40s %8s %8s %8s %8s  %s\n", "kernel", "compute", "HBM", "L2", "L1", "nearest roof");
    for (size_t i = 0; i < n; i++) {
        struct point_levels lv;
        if (point_levels(&pts[i], s, ctx, &lv) != 0)
            continue;
        char c[4][16];
        const double v[4] = {lv.compute, lv.hbm, lv.l2, lv.l1};
        for (int k = 0; k < 4; k++)
            if (v[k] >= 0.0)
                snprintf(c[k], sizeof c[k], "%.1f%%", v[k] * 100.0);
            else
                snprintf(c[k], sizeof c[k], "-");
        if (markdown)
            sb_printf(sb, "| %s | %s | %s | %s | %s | %s |\n", pts[i].label, c[0], c[1], c[2], c[3], lv.nearest);
        else
            sb_printf(sb, "  %-40.40s %8s %8s %8s %8s  %s\n", pts[i].label, c[0], c[1], c[2], c[3], lv.nearest);
    }
}

/* The profile's kernels by rooftop's operation, against the scenario's
 * floor and realistic estimate (text or markdown). */
static void text_profile_ops(struct strbuf *sb, const struct scenario *s, const struct analysis *a,
                             const struct measured_point *pts, size_t n, bool markdown)
{
    struct profile_ops po;
    if (profile_by_operation(pts, n, s, a, &po) != 0 || !po.phase[0])
        return;
    char mf[24], cf[24];
    format_si(mf, sizeof mf, po.model_flops, "FLOP");
    format_si(cf, sizeof cf, po.counted_flops, "FLOP");
    if (!po.comparable) {
        sb_printf(sb, "\nBy operation: the scenario's nearest phase, %s, has %s a chip against the %s counted; "
                      "describe the profiled run (--model, --batch, --prefill-tokens, --chips) to compare them "
                      "operation by operation\n",
                  po.phase, mf, cf);
        return;
    }
    sb_printf(sb, "\nBy operation, against the scenario's %s operations (their %s a chip; %s counted, %.2fx)\n",
              po.phase, mf, cf,
              po.model_flops > 0.0 ? po.counted_flops / po.model_flops : 0.0);
    if (markdown)
        sb_puts(sb, "\n| operation | measured | floor | realistic | measured / realistic |\n"
                    "| --- | ---: | ---: | ---: | ---: |\n");
    else
        sb_printf(sb, "  %-24s %10s %10s %10s  %s\n", "operation", "measured", "floor", "realistic",
                  "measured/realistic");
    for (int i = 0; i < po.count; i++) {
        const struct profile_op_row *r = &po.rows[i];
        char m[24] = "-", fl[24] = "-", re[24] = "-", ratio[48] = "";
        if (r->points)
            format_seconds(m, sizeof m, r->measured_s);
        if (r->in_model) {
            format_seconds(fl, sizeof fl, r->floor_s);
            format_seconds(re, sizeof re, r->realistic_s);
        }
        if (r->points && r->in_model && r->realistic_s > 0.0)
            snprintf(ratio, sizeof ratio, "%.2fx", r->measured_s / r->realistic_s);
        else if (r->points && !r->in_model)
            snprintf(ratio, sizeof ratio, "not in the model");
        else if (!r->points)
            snprintf(ratio, sizeof ratio, "not in the profile");
        if (markdown)
            sb_printf(sb, "| %s | %s | %s | %s | %s |\n", r->name, m, fl, re, ratio);
        else
            sb_printf(sb, "  %-24s %10s %10s %10s  %s\n", r->name, m, fl, re, ratio);
    }
    bool merged = false;
    for (int i = 0; i < po.count; i++)
        merged |= strcmp(po.rows[i].name, "element-wise + norms") == 0;
    if (merged)
        sb_printf(sb, "%sThe profile's norms ran as element-wise operators (pow, mean, rsqrt, mul: an eager RMSNorm), "
                      "so the model's norms are counted with its element-wise work; rotary embeddings and casts, "
                      "which the model folds into its operations, are in that row too\n",
                  markdown ? "\n" : "  ");
}

/* The profile by operation under "profile.operations" in a JSON report. */
static void json_profile_ops(cJSON *profile, const struct scenario *s, const struct analysis *a,
                             const struct measured_point *pts, size_t n)
{
    struct profile_ops po;
    if (!profile || profile_by_operation(pts, n, s, a, &po) != 0 || !po.phase[0])
        return;
    cJSON_AddStringToObject(profile, "phase", po.phase);
    cJSON_AddNumberToObject(profile, "phase_flops_per_chip", po.model_flops);
    cJSON_AddBoolToObject(profile, "comparable", po.comparable);
    cJSON *list = cJSON_AddArrayToObject(profile, "operations");
    for (int i = 0; po.comparable && i < po.count; i++) {
        const struct profile_op_row *r = &po.rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->name);
        cJSON_AddNumberToObject(o, "points", (double)r->points);
        if (r->points)
            cJSON_AddNumberToObject(o, "measured_s", r->measured_s);
        else
            cJSON_AddNullToObject(o, "measured_s");
        cJSON_AddBoolToObject(o, "in_model", r->in_model);
        if (r->in_model) {
            cJSON_AddNumberToObject(o, "floor_s", r->floor_s);
            cJSON_AddNumberToObject(o, "realistic_s", r->realistic_s);
        } else {
            cJSON_AddNullToObject(o, "floor_s");
            cJSON_AddNullToObject(o, "realistic_s");
        }
        cJSON_AddItemToArray(list, o);
    }
}

/* The profiled work's utilization under "profile" in a JSON report. */
static cJSON *json_utilization(cJSON *root, const struct scenario *s, const struct measured_point *pts, size_t n,
                               const struct points_context *ctx)
{
    struct points_utilization u;
    if (points_utilization(pts, n, ctx, s, &u) != 0)
        return NULL;
    cJSON *o = cJSON_AddObjectToObject(root, "profile");
    if (ctx && ctx->device[0])
        cJSON_AddStringToObject(o, "device", ctx->device);
    else
        cJSON_AddNullToObject(o, "device");
    cJSON_AddNumberToObject(o, "counted_flops", u.flops);
    cJSON_AddNumberToObject(o, "counted_bytes", u.bytes);
    cJSON_AddNumberToObject(o, "kernel_s", u.seconds);
    if (ctx && ctx->all_s > 0.0)
        cJSON_AddNumberToObject(o, "file_kernel_s", ctx->all_s);
    else
        cJSON_AddNullToObject(o, "file_kernel_s");
    cJSON_AddNumberToObject(o, "steps", ctx ? (double)ctx->steps : 0.0);
    if (ctx && ctx->steps)
        cJSON_AddNumberToObject(o, "step_s", ctx->step_s);
    else
        cJSON_AddNullToObject(o, "step_s");
    cJSON_AddStringToObject(o, "window", u.window_is_step ? "gpu_steps" : "kernel_time");
    cJSON_AddNumberToObject(o, "window_s", u.window_s);
    cJSON_AddNumberToObject(o, "peak_time_s", u.peak_time_s);
    cJSON_AddNumberToObject(o, "hfu", u.hfu);
    cJSON_AddNumberToObject(o, "mbu", u.mbu);
    cJSON_AddNumberToObject(o, "above_roof_left_out", (double)u.above_left_out);
    if (ctx && ctx->ceilings_source[0]) {
        cJSON_AddNumberToObject(o, "l2_bytes_per_s", ctx->l2_bytes_per_s);
        cJSON_AddNumberToObject(o, "l1_bytes_per_s", ctx->l1_bytes_per_s);
        cJSON_AddNumberToObject(o, "hbm_measured_bytes_per_s", ctx->hbm_measured_bytes_per_s);
        cJSON_AddStringToObject(o, "ceilings_source", ctx->ceilings_source);
    }
    cJSON_AddBoolToObject(o, "bytes_estimated", ctx && ctx->bytes_estimated);
    return o;
}

/* The measured points as rows of the CSV placement table: phase
 * "measured", fraction_of_peak their fraction of their own roof, time_s
 * their measured time, lever the above-roof cause. */
static void csv_points(struct strbuf *sb, const struct scenario *s, const struct measured_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct point_placement pp;
        if (point_place(&pts[i], s, &pp) != 0)
            continue;
        char f[32], b[32], ai[32], at[32], fr[32], tm[32], label[2 * RT_POINT_LABEL_MAX + 3];
        size_t k = 0;
        label[k++] = '"'; /* quoted, its quotes doubled: a kernel's name may hold commas */
        for (const char *c = pts[i].label; *c && k + 3 < sizeof label; c++) {
            if (*c == '"')
                label[k++] = '"';
            label[k++] = *c;
        }
        label[k++] = '"';
        label[k] = '\0';
        double bw = s->hbm_bytes_per_s_override > 0.0 ? s->hbm_bytes_per_s_override : s->chip.hbm_bytes_per_s;
        bool memory = pp.by_bytes || bw * pp.intensity_flop_per_byte <= pp.roof_flops_per_s * (1.0 + 1e-12);
        const char *cause = point_above_name(pp.above_cause);
        sb_printf(sb, "%s,measured,false,%s,%s,%s,%s,%s,%s,%s,%s,%s,,\n", label,
                  pp.on_vector_roof ? "vector" : "tensor", format_exact(f, sizeof f, pts[i].flops),
                  format_exact(b, sizeof b, pts[i].bytes),
                  pp.by_bytes ? "null" : format_exact(ai, sizeof ai, pp.intensity_flop_per_byte),
                  memory ? "memory" : "compute", format_exact(at, sizeof at, pp.roof_flops_per_s),
                  format_exact(fr, sizeof fr, pp.fraction_of_roof), cause ? cause : "",
                  format_exact(tm, sizeof tm, pts[i].seconds));
    }
}

/* The measured points under "points" in a JSON report. */
static void json_points(cJSON *root, const struct scenario *s, const struct measured_point *pts, size_t n,
                        const struct points_context *ctx)
{
    cJSON *list = cJSON_AddArrayToObject(root, "points");
    for (size_t i = 0; i < n; i++) {
        struct point_placement pp;
        if (point_place(&pts[i], s, &pp) != 0)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", pts[i].label);
        cJSON_AddNumberToObject(o, "flops", pts[i].flops);
        cJSON_AddNumberToObject(o, "bytes", pts[i].bytes);
        cJSON_AddNumberToObject(o, "seconds", pts[i].seconds);
        cJSON_AddStringToObject(o, "precision", pts[i].vector_unit ? "fp32" : precision_name(pts[i].precision));
        cJSON_AddNumberToObject(o, "intensity_flop_per_byte", pp.intensity_flop_per_byte);
        cJSON_AddNumberToObject(o, "achieved_flops_per_s", pp.achieved_flops_per_s);
        cJSON_AddNumberToObject(o, "roof_flops_per_s", pp.roof_flops_per_s);
        cJSON_AddNumberToObject(o, "fraction_of_roof", pp.fraction_of_roof);
        cJSON_AddBoolToObject(o, "above_roof", pp.above_roof);
        const char *cause = point_above_name(pp.above_cause);
        if (cause)
            cJSON_AddStringToObject(o, "above_roof_cause", cause);
        else
            cJSON_AddNullToObject(o, "above_roof_cause");
        cJSON_AddBoolToObject(o, "by_bytes", pp.by_bytes);
        cJSON_AddBoolToObject(o, "on_vector_roof", pp.on_vector_roof);
        cJSON_AddNumberToObject(o, "achieved_bytes_per_s", pp.achieved_bytes_per_s);
        struct point_levels lv;
        point_levels(&pts[i], s, ctx, &lv);
        const char *const keys[6] = {"l2_bytes", "l1_bytes", "hbm_fraction", "l2_fraction", "l1_fraction",
                                     "compute_fraction"};
        const double vals[6] = {pts[i].l2_bytes > 0.0 ? pts[i].l2_bytes : -1.0,
                                pts[i].l1_bytes > 0.0 ? pts[i].l1_bytes : -1.0, lv.hbm, lv.l2, lv.l1, lv.compute};
        for (int k = 0; k < 6; k++)
            if (vals[k] >= 0.0)
                cJSON_AddNumberToObject(o, keys[k], vals[k]);
            else
                cJSON_AddNullToObject(o, keys[k]);
        cJSON_AddStringToObject(o, "nearest_roof", lv.nearest);
        cJSON_AddItemToArray(list, o);
    }
}

/* The report of one operation alone (--op): its own view, in every format. */
static char *render_operation(enum rt_format f, const struct scenario *s, const struct analysis *a)
{
    struct strbuf sb = {0};
    if (f == RT_FORMAT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "version", ROOFTOP_VERSION);
        cJSON *chip = cJSON_AddObjectToObject(root, "chip");
        cJSON_AddStringToObject(chip, "key", s->chip.key);
        cJSON_AddStringToObject(chip, "name", s->chip.name);
        cJSON_AddStringToObject(root, "engine", s->engine.name);
        op_report_json(root, s, a);
        json_finish(&sb, root);
    } else {
        op_report_text(&sb, s, a, f == RT_FORMAT_MARKDOWN);
    }
    return report_take(&sb, f);
}

char *report_render_points(enum rt_format f, const struct scenario *s, const struct analysis *a,
                           const struct measured_point *pts, size_t n, const struct points_context *ctx)
{
    if (a->operation.set)
        return render_operation(f, s, a);
    struct strbuf sb = {0};
    switch (f) {
    case RT_FORMAT_MARKDOWN:
        markdown_report(&sb, s, a);
        if (n > 0) {
            text_points(&sb, s, pts, n, true);
            text_levels(&sb, s, pts, n, ctx, true);
            text_utilization(&sb, s, pts, n, ctx, true);
            text_profile_ops(&sb, s, a, pts, n, true);
        }
        break;
    case RT_FORMAT_JSON: {
        cJSON *root = json_report(s, a);
        if (root && n > 0) {
            json_points(root, s, pts, n, ctx);
            json_profile_ops(json_utilization(root, s, pts, n, ctx), s, a, pts, n);
        }
        json_finish(&sb, root);
        break;
    }
    case RT_FORMAT_CSV:
        csv_placements(&sb, a);
        csv_points(&sb, s, pts, n);
        break;
    default:
        text_report(&sb, s, a);
        if (n > 0) {
            text_points(&sb, s, pts, n, false);
            text_levels(&sb, s, pts, n, ctx, false);
            text_utilization(&sb, s, pts, n, ctx, false);
            text_profile_ops(&sb, s, a, pts, n, false);
        }
        break;
    }
    return report_take(&sb, f);
}

/* ---- sweeps -------------------------------------------------------------- */

/* The columns of each sweep, for CSV, JSON and markdown. */
enum column { COL_CHIPS, COL_PARAMS, COL_BATCH, COL_KV_HEADS, COL_PREFILL, COL_DECODE, COL_TOTAL, COL_VERDICT,
              COL_CHIPS_FOR_BUDGET, COL_WEIGHTS_FIT, COL_DBI, COL_BOUND, COL_FRACTION_OF_RIDGE, COL_KV_BYTES,
              COL_GQA, COL_CONCURRENT, COL_ESTIMATE, COL_CEILING };

static const char *const column_names[] = {
    "chips", "params", "batch", "kv_heads", "prefill_s", "decode_s", "total_s", "verdict",
    "chips_for_budget", "weights_fit_chips", "decode_batch_intensity_flop_per_byte", "bound",
    "fraction_of_ridge", "kv_cache_bytes", "gqa_saving", "max_concurrent_requests", "estimate",
    "decode_intensity_ceiling_flop_per_byte"};

static const enum column chips_cols[] = {COL_CHIPS, COL_PREFILL, COL_DECODE, COL_TOTAL, COL_VERDICT, COL_ESTIMATE};
static const enum column params_cols[] = {COL_PARAMS, COL_CHIPS_FOR_BUDGET, COL_WEIGHTS_FIT, COL_ESTIMATE};
static const enum column batch_cols[] = {COL_BATCH, COL_DBI, COL_BOUND, COL_FRACTION_OF_RIDGE, COL_CEILING};
static const enum column kv_cols[] = {COL_KV_HEADS, COL_KV_BYTES, COL_GQA, COL_CONCURRENT};

/* The batch sweep's last line: where decode's intensity levels off at this
 * context (each request brings its own KV to read) against the ridge, and
 * the batch that reaches the ridge when one does. */
static void sweep_ceiling_line(struct strbuf *sb, const struct scenario *base, const struct analysis *a)
{
    double c = a->decode_intensity_ceiling_flop_per_byte;
    if (!(c > 0.0))
        return;
    if (a->decode_ridge_batch > 0.0)
        sb_printf(sb, "ceiling: %.1f FLOP/byte as the batch grows, past the ridge: decode reaches it at batch %.0f\n", c,
                  a->decode_ridge_batch);
    else
        sb_printf(sb, "ceiling: %.1f FLOP/byte however large the batch (each request reads its own KV at %lld tokens): "
                      "below the ridge; shorten the context, fewer KV heads, a smaller KV precision or latent "
                      "attention raise it\n",
                  c, (long long)base->context_tokens);
}

/* The columns of sweep k; sets *n. */
static const enum column *sweep_columns(enum rt_sweep_kind k, size_t *n)
{
    switch (k) {
    case RT_SWEEP_PARAMS:
        *n = sizeof params_cols / sizeof params_cols[0];
        return params_cols;
    case RT_SWEEP_BATCH:
        *n = sizeof batch_cols / sizeof batch_cols[0];
        return batch_cols;
    case RT_SWEEP_KV_HEADS:
        *n = sizeof kv_cols / sizeof kv_cols[0];
        return kv_cols;
    default:
        *n = sizeof chips_cols / sizeof chips_cols[0];
        return chips_cols;
    }
}

/* A cell as a JSON value (the caller owns it). */
static cJSON *cell_json(enum column c, double value, const struct analysis *a)
{
    const struct latency_verdict *l = &a->latency;
    /* The decode phase's own row, not one of its operations: the bound of
     * the whole step is the one the text and the intensity columns give. */
    const struct placement *decode = analysis_phase_placement(a, "decode");
    switch (c) {
    case COL_ESTIMATE: /* which estimate the latency columns come from */
        return cJSON_CreateString(latency_model_name(a->latency_model));
    case COL_CHIPS:
    case COL_PARAMS:
    case COL_BATCH:
    case COL_KV_HEADS:
        return cJSON_CreateNumber(value);
    case COL_PREFILL:
        return cJSON_CreateNumber(l->prefill_s);
    case COL_DECODE:
        return cJSON_CreateNumber(l->decode_s);
    case COL_TOTAL:
        return cJSON_CreateNumber(l->total_s);
    case COL_VERDICT:
        return cJSON_CreateString(verdict_name(l));
    case COL_CHIPS_FOR_BUDGET:
        return l->chips_for_budget > 0 ? cJSON_CreateNumber((double)l->chips_for_budget) : cJSON_CreateNull();
    case COL_WEIGHTS_FIT:
        return cJSON_CreateNumber((double)a->memory.weights_fit_chips);
    case COL_DBI:
        return cJSON_CreateNumber(a->decode_batch_intensity_flop_per_byte);
    case COL_BOUND:
        return cJSON_CreateString(decode ? bound_name(decode->roof.bound) : "memory");
    case COL_FRACTION_OF_RIDGE:
        return cJSON_CreateNumber(a->decode_batch_intensity_flop_per_byte / a->ridge_flop_per_byte);
    case COL_KV_BYTES:
        return cJSON_CreateNumber(a->memory.kv_cache_bytes);
    case COL_GQA:
        return cJSON_CreateNumber(a->gqa_saving);
    case COL_CONCURRENT:
        return cJSON_CreateNumber((double)a->memory.max_concurrent_requests);
    case COL_CEILING: /* null: a request reads no KV, so no ceiling */
        return a->decode_intensity_ceiling_flop_per_byte > 0.0
                   ? cJSON_CreateNumber(a->decode_intensity_ceiling_flop_per_byte)
                   : cJSON_CreateNull();
    }
    return cJSON_CreateNull();
}

/* A cell as CSV / markdown text: numbers exact (format_exact), strings bare. */
static void cell_text(struct strbuf *sb, enum column c, double value, const struct analysis *a)
{
    cJSON *v = cell_json(c, value, a);
    if (cJSON_IsString(v))
        sb_puts(sb, v->valuestring);
    else if (cJSON_IsNumber(v)) {
        char num[32];
        sb_puts(sb, format_exact(num, sizeof num, v->valuedouble));
    }
    cJSON_Delete(v);
}

/* Names the estimate a sweep's latencies come from, unless it is the
 * guide's napkin (whose tables the sweeps reproduce exactly). */
static const char *estimate_note(enum rt_latency_model m)
{
    switch (m) {
    case RT_LATENCY_REALISTIC:
        return "; the realistic estimate (--napkin for the guide's)";
    case RT_LATENCY_DETAILED:
        return "; the roofline floor (--napkin for the guide's)";
    default:
        return "";
    }
}

/* The guide's text layout for each sweep (ch. 6-8). */
static void sweep_text(struct strbuf *sb, enum rt_sweep_kind k, const struct scenario *base, const double *values,
                       const struct analysis *rows, size_t n)
{
    char x[32];
    const struct analysis *a0 = &rows[0];
    switch (k) {
    case RT_SWEEP_CHIPS: {
        char prec[64] = ""; /* the guide's bf16 table keeps its header */
        if (base->precision != RT_BF16 || a0->compute_precision != RT_BF16)
            snprintf(prec, sizeof prec, ", %s weights, %s matmuls", precision_name(base->precision),
                     precision_name(a0->compute_precision));
        sb_printf(sb, "# %s (%s params) on %s, %lld prefill + %lld decode tokens, batch %lld%s, %.3f s overhead, "
                      "budget %.3f s%s\n",
                  base->model.name, format_count(x, sizeof x, a0->params), base->chip.name,
                  (long long)base->prefill_tokens, (long long)base->decode_tokens, (long long)base->batch, prec,
                  base->overhead_s, base->budget_s, estimate_note(base->latency_model));
        for (size_t i = 0; i < n; i++) {
            const struct latency_verdict *l = &rows[i].latency;
            sb_printf(sb, "%4.0f chips: prefill %7.3fs  decode %7.3fs  total %7.3fs  %s\n", values[i], l->prefill_s,
                      l->decode_s, l->total_s, verdict_name(l));
        }
        break;
    }
    case RT_SWEEP_PARAMS:
        sb_printf(sb, "# %s, %lld prefill + %lld decode tokens, %s weights%s%s%s, %.3f s overhead%s\n",
                  base->chip.name, (long long)base->prefill_tokens, (long long)base->decode_tokens,
                  precision_name(base->precision), a0->compute_precision != base->precision ? " (" : "",
                  a0->compute_precision != base->precision ? precision_name(a0->compute_precision) : "",
                  a0->compute_precision != base->precision ? " matmuls)" : "", base->overhead_s,
                  estimate_note(base->latency_model));
        for (size_t i = 0; i < n; i++) {
            const struct latency_verdict *l = &rows[i].latency;
            char chips[40];
            if (l->chips_for_budget > 0)
                snprintf(chips, sizeof chips, "%5lld chips", (long long)l->chips_for_budget);
            else
                snprintf(chips, sizeof chips, "none up to %lld chips", (long long)l->max_chips);
            sb_printf(sb, "N=%5.1fB -> %s for a %.1fs turn   (%lld just to hold weights)\n", values[i] / 1e9, chips,
                      l->budget_s, (long long)rows[i].memory.weights_fit_chips);
        }
        break;
    case RT_SWEEP_BATCH:
        sb_printf(sb, "# %s (%s params), %lld-token context, %s KV cache\n", base->model.name,
                  format_count(x, sizeof x, a0->params), (long long)base->context_tokens,
                  precision_name(base->kv_precision));
        sb_printf(sb, "%s ridge point: %.0f FLOP/byte\n", base->chip.name, a0->ridge_flop_per_byte);
        for (size_t i = 0; i < n; i++) {
            const struct analysis *a = &rows[i];
            double dbi = a->decode_batch_intensity_flop_per_byte;
            if (dbi < a->ridge_flop_per_byte)
                sb_printf(sb, "batch=%5.0f: AI=%7.1f FLOP/byte  MEMORY bound  (%4.1f%% of the way to the ridge)\n",
                          values[i], dbi, 100.0 * dbi / a->ridge_flop_per_byte);
            else
                sb_printf(sb, "batch=%5.0f: AI=%7.1f FLOP/byte  COMPUTE bound  (past the ridge)\n", values[i], dbi);
        }
        sweep_ceiling_line(sb, base, a0);
        break;
    case RT_SWEEP_KV_HEADS:
        sb_printf(sb, "# %s, %lld layers, d_head %lld, %lld tokens, batch %lld, %s KV; concurrent requests on %lld x "
                      "%s\n",
                  base->model.name, (long long)base->model.layers, (long long)base->model.d_head,
                  (long long)base->context_tokens, (long long)base->batch, precision_name(base->kv_precision),
                  (long long)base->chips, base->chip.name);
        for (size_t i = 0; i < n; i++) {
            const struct analysis *a = &rows[i];
            const char *tag = a->gqa_saving == 1.0 ? "  (MHA)" : values[i] == 1.0 ? " smaller (MQA)" : " smaller";
            char copied[64] = ""; /* why fewer KV heads can stop helping */
            if (a->memory.kv_replication > 1.0)
                snprintf(copied, sizeof copied, " (KV copied %.0fx: tp %lld > kv heads)", a->memory.kv_replication,
                         (long long)a->parallel.tp);
            sb_printf(sb, "%2.0f kv heads (group %2.0f): %7.1f GB of KV cache %7.1fx%s  %lld concurrent%s\n",
                      values[i], a->gqa_saving, a->memory.kv_cache_bytes / 1e9, a->gqa_saving, tag,
                      (long long)a->memory.max_concurrent_requests, copied);
        }
        break;
    default:
        break;
    }
}

char *sweep_render(enum rt_format f, enum rt_sweep_kind k, const struct scenario *base, const double *values,
                   const struct analysis *rows, size_t n)
{
    struct strbuf sb = {0};
    size_t ncols = 0;
    const enum column *cols = sweep_columns(k, &ncols);
    if (f == RT_FORMAT_TEXT) {
        if (n > 0)
            sweep_text(&sb, k, base, values, rows, n);
    } else if (f == RT_FORMAT_JSON) {
        cJSON *list = cJSON_CreateArray();
        for (size_t i = 0; i < n; i++) {
            cJSON *row = cJSON_CreateObject();
            for (size_t c = 0; c < ncols; c++)
                cJSON_AddItemToObject(row, column_names[cols[c]], cell_json(cols[c], values[i], &rows[i]));
            cJSON_AddItemToArray(list, row);
        }
        json_finish(&sb, list);
    } else {
        bool md = f == RT_FORMAT_MARKDOWN;
        const char *sep = md ? " | " : ",";
        if (md)
            sb_puts(&sb, "| ");
        for (size_t c = 0; c < ncols; c++)
            sb_printf(&sb, "%s%s", c ? sep : "", column_names[cols[c]]);
        sb_puts(&sb, md ? " |\n|" : "\n");
        if (md) {
            for (size_t c = 0; c < ncols; c++)
                sb_puts(&sb, " --- |");
            sb_puts(&sb, "\n");
        }
        for (size_t i = 0; i < n; i++) {
            if (md)
                sb_puts(&sb, "| ");
            for (size_t c = 0; c < ncols; c++) {
                if (c)
                    sb_puts(&sb, sep);
                cell_text(&sb, cols[c], values[i], &rows[i]);
            }
            sb_puts(&sb, md ? " |\n" : "\n");
        }
    }
    return report_take(&sb, f);
}
