/* scenario.c — the default scenario and its validation. */
#include "scenario.h"
#include "serving.h"

#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void scenario_default(struct scenario *s)
{
    memset(s, 0, sizeof *s);
    s->chip = *chip_find("tpu-v5e");
    s->chips = 1;
    s->model = *model_find("guide-70b");
    s->batch = 1;
    s->precision = RT_BF16;
    s->kv_precision = RT_BF16;
    s->act_precision = RT_PRECISION_AUTO;
    s->context_tokens = 8192;
    s->prefill_tokens = 8192;
    s->decode_tokens = 128;
    s->budget_s = 1.0;
    s->overhead_s = 0.25;
    s->mfu = 1.0;
    s->max_chips = RT_DEFAULT_MAX_CHIPS;
    s->tile = 128;
    s->latency_model = RT_LATENCY_REALISTIC; /* the honest headline; --napkin gives the guide's figures */
    s->engine = *engine_find("generic");
    s->data_parallel = 1;
    s->pp = 1;
    s->ep = 1;
    s->ep_imbalance = 1.0;
    s->bench_rounds = RT_DEFAULT_BENCH_ROUNDS;
}

int64_t scenario_tp(const struct scenario *s)
{
    int64_t rest = s->pp * s->ep;
    return rest >= 1 && s->chips % rest == 0 ? s->chips / rest : 0;
}

const char *flops_convention_name(enum rt_flops_convention c)
{
    static const char *const names[] = {"palm", "megatron", "6n", "causal"};
    return (int)c >= 0 && c < RT_FLOPS_CONVENTION_COUNT ? names[c] : "?";
}

const char *latency_model_name(enum rt_latency_model m)
{
    static const char *const names[RT_LATENCY_COUNT] = {"napkin", "floor", "realistic"};
    return ((int)m >= 0 && m < RT_LATENCY_COUNT) ? names[m] : "?";
}

const char *recompute_name(enum rt_recompute r)
{
    static const char *const names[] = {"none", "selective", "full", "fraction"};
    return (int)r >= 0 && (size_t)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

void scenario_set_model(struct scenario *s, const struct model_shape *m)
{
    s->model = *m;
    model_schedule_fix(&s->model); /* a shape without a schedule: every layer full attention */
    s->params = 0.0;
}

void scenario_use_checkpoint(struct scenario *s)
{
    const struct model_shape *m = &s->model;
    if (!m->checkpoint_quantized || m->checkpoint_precision < 0 || m->checkpoint_precision >= RT_PRECISION_COUNT)
        return;
    s->precision = (enum rt_precision)m->checkpoint_precision;
    if (m->checkpoint_kv_quantized && m->checkpoint_kv_precision >= 0 && m->checkpoint_kv_precision < RT_PRECISION_COUNT)
        s->kv_precision = (enum rt_precision)m->checkpoint_kv_precision;
    s->act_precision = m->checkpoint_weight_only ? RT_BF16
                       : m->checkpoint_act_set && m->checkpoint_act_precision >= 0 &&
                               m->checkpoint_act_precision < RT_PRECISION_COUNT
                           ? (enum rt_precision)m->checkpoint_act_precision
                           : RT_PRECISION_AUTO;
}

/* Checks an integer knob against [lo, hi]. */
static int check_int(const char *flag, int64_t v, int64_t lo, int64_t hi, char *err, size_t errsize)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(err, errsize, "%s %lld is out of range: give a whole number from %lld to %lld", flag, (long long)v,
             (long long)lo, (long long)hi);
    return -1;
}

/* Checks a real knob against [lo, hi] (open at lo when lo_open). The
 * message quotes the value exactly (16777217, not 1.67772e+07). */
static int check_real(const char *flag, double v, double lo, bool lo_open, double hi, char *err, size_t errsize)
{
    if (isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi)
        return 0;
    char got[32], low[32], high[32];
    format_exact(got, sizeof got, v);
    format_exact(low, sizeof low, lo);
    format_exact(high, sizeof high, hi);
    if (lo_open)
        snprintf(err, errsize, "%s %s is out of range: give a number above %s, at most %s", flag, got, low, high);
    else
        snprintf(err, errsize, "%s %s is out of range: give a number from %s to %s", flag, got, low, high);
    return -1;
}

/* Checks a knob where 0 means "not given" (an override, a measurement, a
 * target): 0, or a figure in [lo, hi]. The message says the unit. */
static int check_given(const char *flag, double v, double lo, double hi, const char *unit, char *err,
                       size_t errsize)
{
    if (v == 0.0 || (isfinite(v) && v >= lo && v <= hi))
        return 0;
    char got[32], low[32], high[32];
    snprintf(err, errsize, "%s %s is out of range: give %s to %s %s", flag, format_exact(got, sizeof got, v),
             format_exact(low, sizeof low, lo), format_exact(high, sizeof high, hi), unit);
    return -1;
}

/* Checks the chip's own figures against the physical ranges (chips.h); a
 * chip from a file was checked key by key on loading, so this names the
 * chip for one built some other way. */
static int check_chip(const struct scenario *s, char *err, size_t errsize)
{
    const struct chip_spec *c = &s->chip;
    if (!(isfinite(c->peak_flops_per_s[RT_BF16]) && c->peak_flops_per_s[RT_BF16] > 0.0) &&
        !(s->peak_flops_override > 0.0)) {
        snprintf(err, errsize, "chip %s has no bf16 peak: give --peak-flops", c->key);
        return -1;
    }
    for (int p = 0; p < RT_PRECISION_COUNT; p++) {
        double v = c->peak_flops_per_s[p];
        /* A file's sparse peaks are halved on loading: half the least peak a file may give. */
        if (!(v == 0.0 || (isfinite(v) && v >= RT_MIN_PEAK_FLOPS / 2.0 && v <= RT_MAX_PEAK_FLOPS))) {
            snprintf(err, errsize, "chip %s: %s peak must be 0 (none) or from 1e9 to 1e21 FLOP/s", c->key,
                     precision_name((enum rt_precision)p));
            return -1;
        }
    }
    bool hbm_ok = c->hbm_bytes >= RT_MIN_HBM_BYTES && c->hbm_bytes <= RT_MAX_HBM_BYTES;
    bool bw_ok = c->hbm_bytes_per_s >= RT_MIN_BYTES_PER_S && c->hbm_bytes_per_s <= RT_MAX_BYTES_PER_S;
    if ((!hbm_ok && !(s->hbm_bytes_override > 0.0)) || (!bw_ok && !(s->hbm_bytes_per_s_override > 0.0))) {
        snprintf(err, errsize, "chip %s needs a memory capacity of 1e6 to 1e15 bytes and a bandwidth of 1e6 to "
                 "1e17 bytes/s (--hbm-bytes, --hbm-bw)",
                 c->key);
        return -1;
    }
    if (check_given("chip's vector_flops_per_s", c->vector_flops_per_s, RT_MIN_PEAK_FLOPS, RT_MAX_PEAK_FLOPS,
                    "FLOP/s", err, errsize) ||
        check_given("chip's interconnect_bytes_per_s", c->interconnect_bytes_per_s, RT_MIN_BYTES_PER_S,
                    RT_MAX_BYTES_PER_S, "bytes/s", err, errsize) ||
        check_given("chip's scale_out_bytes_per_s", c->scale_out_bytes_per_s, RT_MIN_BYTES_PER_S,
                    RT_MAX_BYTES_PER_S, "bytes/s", err, errsize))
        return -1;
    return 0;
}

/* The precisions c has a native peak for, in the shown order ("bf16, fp8,
 * fp8-block, int8"), into buf; returns buf. */
static char *chip_precisions(const struct chip_spec *c, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < RT_PRECISION_COUNT && used < size; i++) {
        enum rt_precision p = precision_ordered(i);
        if (c->peak_flops_per_s[p] > 0.0)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", precision_name(p));
    }
    return buf;
}

/* Checks the activation precision: auto, or one the matmuls can run at on
 * this chip (a native peak, or --peak-flops giving one), int4 not among
 * them, and no narrower than the weights (a matmul reads both operands at
 * its precision: fp8 activations with bf16 weights would quantize every
 * weight on every pass). */
static int check_act_precision(const struct scenario *s, char *err, size_t errsize)
{
    enum rt_precision a = s->act_precision;
    if (a == RT_PRECISION_AUTO)
        return 0;
    if ((int)a < 0 || a >= RT_PRECISION_COUNT || a == RT_INT4) {
        snprintf(err, errsize, "--act-precision must be %s", act_precision_choices());
        return -1;
    }
    char have[96];
    if (!(s->chip.peak_flops_per_s[a] > 0.0) && !(s->peak_flops_override > 0.0)) {
        snprintf(err, errsize, "--act-precision %s: %s has no native %s peak; its precisions are %s (or give "
                               "--act-precision auto)",
                 precision_name(a), s->chip.key, precision_name(a), chip_precisions(&s->chip, have, sizeof have));
        return -1;
    }
    if (precision_nominal_bits(a) < precision_nominal_bits(s->precision)) {
        snprintf(err, errsize, "--act-precision %s is narrower than the %s weights (--precision): the matmuls would "
                               "quantize every weight on every pass; give weights at %s or narrower, or "
                               "--act-precision auto",
                 precision_name(a), precision_name(s->precision), precision_name(a));
        return -1;
    }
    return 0;
}

const char *scenario_spec_accept_words(const struct scenario *s, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    buf[0] = '\0';
    if (s->spec_accept_positions <= 0) {
        snprintf(buf, size, "%.2f", s->spec_accept);
        return buf;
    }
    size_t used = 0;
    for (int64_t i = 0; i < s->spec_accept_positions && used + 1 < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%.2f", i ? ", " : "", s->spec_accept_by_position[i]);
        if (n < 0)
            break;
        used += (size_t)n < size - used ? (size_t)n : size - used - 1;
    }
    if (used + 1 < size)
        snprintf(buf + used, size - used, " by position");
    return buf;
}

/* The whole-number knobs within their ranges (a layout degree at most what it divides). */
static int check_whole_numbers(const struct scenario *s, char *err, size_t errsize)
{
    if (check_int("--chips", s->chips, 1, RT_MAX_CHIPS, err, errsize) ||
        check_int("--batch", s->batch, 1, RT_MAX_BATCH, err, errsize) ||
        check_int("--context", s->context_tokens, 1, RT_MAX_TOKENS, err, errsize) ||
        check_int("--prefill-tokens", s->prefill_tokens, 0, RT_MAX_TOKENS, err, errsize) ||
        check_int("--decode-tokens", s->decode_tokens, 0, RT_MAX_TOKENS, err, errsize) ||
        check_int("--max-chips", s->max_chips, 1, RT_MAX_CHIPS, err, errsize) ||
        check_int("--tile", s->tile, 1, 1 << 16, err, errsize) ||
        check_int("--dp", s->data_parallel, 1, RT_MAX_CHIPS, err, errsize) ||
        check_int("--pp", s->pp, 1, s->model.layers, err, errsize) ||
        check_int("--ep", s->ep, 1, RT_MAX_CHIPS, err, errsize) ||
        check_int("--microbatches", s->microbatches, 0, RT_MAX_BATCH, err, errsize) ||
        check_int("--activation-tokens", s->activation_tokens, 0, RT_MAX_TOKENS, err, errsize) ||
        check_int("--spec-tokens", s->spec_tokens, 0, 16, err, errsize) ||
        check_int("--disagg", s->disagg_prefill_chips, 0, RT_MAX_CHIPS, err, errsize) ||
        check_int("--prefill-tp", s->disagg_prefill_tp, 0, RT_MAX_CHIPS, err, errsize) ||
        check_int("--prefill-dp", s->disagg_prefill_dp, 0, RT_MAX_CHIPS, err, errsize) ||
        check_int("--prefill-moe-ep", s->disagg_prefill_moe_ep, 0, RT_MAX_CHIPS, err, errsize) ||
        check_int("--moe-ep", s->moe_ep, 0, RT_MAX_CHIPS, err, errsize) ||
        check_int("--bench-rounds", s->bench_rounds, 1, 1000000, err, errsize))
        return -1;
    return 0;
}

/* A layout that holds together: micro-batches of a token at least, a prefill pool of whole workers and its experts' ranks, the experts' ranks over a stage, a replica of tp x pp x ep chips, expert groups of a mixture of experts that divide its experts and each run a sequence (74 lines: a
 * list of independent checks, each a message of its own). */
static int check_layout(const struct scenario *s, char *err, size_t errsize)
{
    if (s->microbatches > 0 && (double)s->microbatches > (double)s->batch * (double)(s->prefill_tokens > 0 ? s->prefill_tokens : 1)) {
        /* a micro-batch holds at least one token: more would be fractions of a token each */
        snprintf(err, errsize, "--microbatches %lld splits %lld prompt%s of %lld tokens into less than a token each: "
                               "at most %.0f (one token a micro-batch)",
                 (long long)s->microbatches, (long long)s->batch, s->batch == 1 ? "" : "s",
                 (long long)s->prefill_tokens, (double)s->batch * (double)(s->prefill_tokens > 0 ? s->prefill_tokens : 1));
        return -1;
    }
    if (s->disagg_prefill_chips > 0 && (s->disagg_prefill_tp > 0 || s->disagg_prefill_dp > 1) &&
        s->disagg_prefill_chips % ((s->disagg_prefill_tp > 0 ? s->disagg_prefill_tp : 1) *
                                   (s->disagg_prefill_dp > 0 ? s->disagg_prefill_dp : 1)) != 0) {
        snprintf(err, errsize, "--disagg's prefill pool of %lld chips is not whole workers of --prefill-tp %lld x "
                 "--prefill-dp %lld chips",
                 (long long)s->disagg_prefill_chips, (long long)(s->disagg_prefill_tp > 0 ? s->disagg_prefill_tp : 1),
                 (long long)(s->disagg_prefill_dp > 0 ? s->disagg_prefill_dp : 1));
        return -1;
    }
    if (s->disagg_prefill_chips == 0 && (s->disagg_prefill_tp > 0 || s->disagg_prefill_dp > 1)) {
        snprintf(err, errsize, "--prefill-tp and --prefill-dp lay out a disaggregated prefill pool: give --disagg P:D");
        return -1;
    }
    if (s->disagg_prefill_moe_ep > 0 && s->disagg_prefill_chips == 0) {
        snprintf(err, errsize, "--prefill-moe-ep lays out a disaggregated prefill pool's experts: give --disagg P:D");
        return -1;
    }
    if (s->disagg_prefill_moe_ep > 1 && s->model.experts <= 1) {
        snprintf(err, errsize, "--prefill-moe-ep %lld needs a mixture-of-experts model: %s has no routed experts",
                 (long long)s->disagg_prefill_moe_ep, s->model.name);
        return -1;
    }
    if (s->disagg_prefill_moe_ep > 0 && s->disagg_prefill_tp > 0 &&
        (s->disagg_prefill_tp * (s->disagg_prefill_dp > 0 ? s->disagg_prefill_dp : 1)) % s->disagg_prefill_moe_ep != 0) {
        snprintf(err, errsize, "--prefill-moe-ep %lld does not divide a prefill worker's %lld chips (--prefill-tp x --prefill-dp)",
                 (long long)s->disagg_prefill_moe_ep,
                 (long long)(s->disagg_prefill_tp * (s->disagg_prefill_dp > 0 ? s->disagg_prefill_dp : 1)));
        return -1;
    }
    if (s->moe_ep > 1 && s->model.experts <= 1) {
        snprintf(err, errsize, "--moe-ep %lld needs a mixture-of-experts model: %s has no routed experts",
                 (long long)s->moe_ep, s->model.name);
        return -1;
    }
    if (s->moe_ep > 0 && s->pp * s->ep > 0 && s->chips % (s->pp * s->ep) == 0 &&
        (s->chips / s->pp) % s->moe_ep != 0) {
        snprintf(err, errsize, "--moe-ep %lld does not divide a stage's %lld chips (tp x ep): the experts' ranks "
                 "are the stage's chips", (long long)s->moe_ep, (long long)(s->chips / s->pp));
        return -1;
    }
    if (s->chips % (s->pp * s->ep) != 0) {
        snprintf(err, errsize,
                 "--chips %lld is not a multiple of --pp %lld x --ep %lld: a replica is tp x pp x ep chips",
                 (long long)s->chips, (long long)s->pp, (long long)s->ep);
        return -1;
    }
    if (s->ep > 1 && s->model.experts <= 1) {
        snprintf(err, errsize, "--ep %lld needs a mixture-of-experts model: %s has no routed experts",
                 (long long)s->ep, s->model.name);
        return -1;
    }
    if (s->ep > 1 && s->model.experts % s->ep != 0) {
        snprintf(err, errsize, "--ep %lld does not divide the %lld experts of %s", (long long)s->ep,
                 (long long)s->model.experts, s->model.name);
        return -1;
    }
    if (s->ep > 1 && s->batch < s->ep) {
        snprintf(err, errsize, "--batch %lld is below --ep %lld: each expert-parallel group runs attention on its "
                 "own sequences, so it needs at least one",
                 (long long)s->batch, (long long)s->ep);
        return -1;
    }
    return 0;
}

/* The real-number knobs within their ranges (a figure given must be one that exists). */
static int check_real_numbers(const struct scenario *s, char *err, size_t errsize)
{
    if ((s->params != 0.0 && check_real("--params", s->params, 1.0, false, RT_MAX_PARAMS, err, errsize)) ||
        check_real("--budget", s->budget_s, RT_MIN_SECONDS, false, 1e9, err, errsize) ||
        check_real("--overhead", s->overhead_s, 0.0, false, 1e9, err, errsize) ||
        check_real("--reserve", s->reserve_bytes, 0.0, false, 1e21, err, errsize) ||
        check_real("--mfu", s->mfu, RT_MIN_MFU, false, 1.0, err, errsize) ||
        check_given("--peak-flops", s->peak_flops_override, RT_MIN_PEAK_FLOPS, RT_MAX_PEAK_FLOPS, "FLOP/s", err,
                    errsize) ||
        check_given("--hbm-bw", s->hbm_bytes_per_s_override, RT_MIN_BYTES_PER_S, RT_MAX_BYTES_PER_S, "bytes/s", err,
                    errsize) ||
        check_given("--hbm-bytes", s->hbm_bytes_override, RT_MIN_HBM_BYTES, RT_MAX_HBM_BYTES, "bytes", err,
                    errsize) ||
        check_real("--recompute", s->recompute_fraction, 0.0, false, 1.0, err, errsize) ||
        check_real("--comm-overlap", s->comm_overlap, 0.0, false, 1.0, err, errsize) ||
        check_given("--measured-train-tokens-per-s", s->measured_train_tokens_per_s, 1e-3, 1e12, "tokens/s", err,
                    errsize) ||
        check_given("--measured-ttft-s", s->measured_ttft_s, RT_MIN_SECONDS, 1e6, "s", err, errsize) ||
        check_given("--measured-tpot-s", s->measured_tpot_s, RT_MIN_SECONDS, 1e6, "s", err, errsize) ||
        check_given("--train-tokens", s->train_tokens, 1.0, 1e16, "tokens", err, errsize) ||
        check_given("--train-mfu", s->train_mfu, RT_MIN_MFU, 1.0, "(a fraction of peak)", err, errsize) ||
        check_given("--train-chip-hours", s->train_chip_hours, 1e-3, 1e12, "chip-hours", err, errsize) ||
        check_real("--ep-imbalance", s->ep_imbalance, 1.0, false, 64.0, err, errsize) ||
        check_given("--arrival-rate", s->arrival_per_s, 1e-6, 1e9, "requests/s", err, errsize) ||
        check_real("--prefix-cache", s->prefix_hit, 0.0, false, 0.99, err, errsize) ||
        check_given("--spec-draft", s->spec_draft_params, 1.0, RT_MAX_PARAMS, "parameters", err, errsize) ||
        check_given("--ttft-target", s->ttft_target_s, RT_MIN_SECONDS, 1e9, "s", err, errsize) ||
        check_given("--tpot-target", s->tpot_target_s, RT_MIN_SECONDS, 1e9, "s", err, errsize) ||
        check_given("--price-per-chip-hour", s->price_usd_per_chip_hour, 1e-3, RT_MAX_PRICE_USD_PER_CHIP_HOUR, "USD",
                    err, errsize) ||
        check_given("--power-w", s->power_w, 1.0, 1e6, "W", err, errsize) ||
        check_given("--pue", s->pue, 1.0, 3.0, "(power usage effectiveness)", err, errsize))
        return -1;
    return 0;
}

/* Speculative decoding's rates (one, or one a draft by position) and its verified tree. */
static int check_speculative(const struct scenario *s, char *err, size_t errsize)
{
    char v1[32];
    if (s->spec_accept_positions < 0 || s->spec_accept_positions > RT_SPEC_MAX_TOKENS ||
        (s->spec_accept_positions > 0 && s->spec_accept_positions != s->spec_tokens)) {
        snprintf(err, errsize, "--spec-accept gives %lld acceptance%s by position for --spec-tokens %lld: give one "
                               "rate for each draft token, or a single probability for all",
                 (long long)s->spec_accept_positions, s->spec_accept_positions == 1 ? "" : "s", (long long)s->spec_tokens);
        return -1;
    }
    for (int64_t i = 0; i < s->spec_accept_positions; i++)
        if (!(s->spec_accept_by_position[i] >= 0.0 && s->spec_accept_by_position[i] <= 1.0)) {
            snprintf(err, errsize, "--spec-accept: position %lld's %s is out of range: give probabilities from 0 to 1",
                     (long long)(i + 1), format_exact(v1, sizeof v1, s->spec_accept_by_position[i]));
            return -1;
        }
    if (s->spec_verify_tokens != 0 &&
        (s->spec_tokens == 0 || s->spec_verify_tokens < s->spec_tokens + 1 || s->spec_verify_tokens > RT_SPEC_MAX_VERIFY)) {
        if (s->spec_tokens == 0)
            snprintf(err, errsize, "--spec-verify %lld goes with --spec-tokens K (the drafts it verifies)",
                     (long long)s->spec_verify_tokens);
        else
            snprintf(err, errsize, "--spec-verify %lld is out of range: a pass scores the %lld drafts and the next "
                                   "token at least (%lld), at most %d tree nodes",
                     (long long)s->spec_verify_tokens, (long long)s->spec_tokens, (long long)s->spec_tokens + 1,
                     RT_SPEC_MAX_VERIFY);
        return -1;
    }
    if (s->spec_accept_positions == 0 && !(s->spec_accept >= 0.0 && s->spec_accept < 1.0)) {
        snprintf(err, errsize, "--spec-accept %s is out of range: give a probability from 0 up to (not including) 1",
                 format_exact(v1, sizeof v1, s->spec_accept));
        return -1;
    }
    return 0;
}

/* The budget over the overhead, the engine and the chip's profile, the training totals' inputs, the named kinds in range, the chip, the activation precision, and measured step times. */
static int check_the_rest(const struct scenario *s, char *err, size_t errsize)
{
    char v1[32], v2[32];
    if (s->budget_s <= s->overhead_s) {
        snprintf(err, errsize, "--budget %s s must exceed the --overhead of %s s: no hardware can meet it",
                 format_exact(v1, sizeof v1, s->budget_s), format_exact(v2, sizeof v2, s->overhead_s));
        return -1;
    }
    char why[200];
    if (engine_check(&s->engine, why, sizeof why) != 0) {
        snprintf(err, errsize, "--engine %s: %s", s->engine.name, why);
        return -1;
    }
    if (s->chip.efficiency.present && efficiency_check(&s->chip.efficiency, why, sizeof why) != 0) {
        snprintf(err, errsize, "chip %s: %s", s->chip.key, why);
        return -1;
    }
    if (s->train_tokens == 0.0 && (s->train_mfu != 0.0 || s->train_chip_hours != 0.0)) {
        snprintf(err, errsize, "%s needs --train-tokens: the totals are counted over the run's tokens",
                 s->train_chip_hours != 0.0 ? "--train-chip-hours" : "--train-mfu");
        return -1;
    }
    if ((int)s->flops_convention < 0 || s->flops_convention >= RT_FLOPS_CONVENTION_COUNT) {
        snprintf(err, errsize, "--flops-convention must be palm, megatron, 6n or causal");
        return -1;
    }
    if ((int)s->recompute < 0 || s->recompute > RT_RECOMPUTE_FRACTION || (int)s->latency_model < 0 ||
        s->latency_model >= RT_LATENCY_COUNT) {
        snprintf(err, errsize, "--recompute or the latency model is out of range");
        return -1;
    }
    if ((int)s->precision < 0 || s->precision >= RT_PRECISION_COUNT || (int)s->kv_precision < 0 ||
        s->kv_precision >= RT_PRECISION_COUNT) {
        snprintf(err, errsize, "--precision and --kv-precision must be %s", precision_choices());
        return -1;
    }
    if (check_chip(s, err, errsize) != 0 || check_act_precision(s, err, errsize) != 0)
        return -1;
    if (s->has_step_times) {
        double total = 0.0;
        for (int i = 0; i < RT_PART_COUNT; i++) {
            if (check_real("--step-times", s->step_times_s[i], 0.0, false, 1e9, err, errsize))
                return -1;
            total += s->step_times_s[i];
        }
        if (!(total > 0.0)) {
            snprintf(err, errsize, "--step-times must not all be zero");
            return -1;
        }
    }
    return 0;
}

int scenario_check(const struct scenario *s, char *err, size_t errsize)
{
    char shape_err[200];
    if (model_shape_check(&s->model, shape_err, sizeof shape_err) != 0) {
        snprintf(err, errsize, "model %s: %s", s->model.name, shape_err);
        return -1;
    }
    /* in this order: the first knob out of place is the one named */
    if (check_whole_numbers(s, err, errsize) != 0 || check_layout(s, err, errsize) != 0 ||
        check_real_numbers(s, err, errsize) != 0 || check_speculative(s, err, errsize) != 0 ||
        check_the_rest(s, err, errsize) != 0)
        return -1;
    return 0;
}
