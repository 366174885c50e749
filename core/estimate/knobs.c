/* knobs.c — the scenario's knobs (knobs.h). */
#include "knobs.h"

#include <stddef.h>
#include <string.h>

#include "scenario.h"

/* {flag, file key, stored as, offset, plain number, above 0, unit, explorer
 * name}. The numbers come first, whole then real, in the order a scenario
 * file writes them; then the model's plain numbers; then the knobs read by
 * code of their own. */
static const struct knob knobs[] = {
    {"--chips", "chips", KNOB_WHOLE, offsetof(struct scenario, chips), true, false, "chips", "chips"},
    {"--batch", "batch", KNOB_WHOLE, offsetof(struct scenario, batch), true, false, "sequences", "batch"},
    {"--context", "context_tokens", KNOB_WHOLE, offsetof(struct scenario, context_tokens), true, false, "tokens", "context"},
    {"--prefill-tokens", "prefill_tokens", KNOB_WHOLE, offsetof(struct scenario, prefill_tokens), true, false, "tokens", "prefill"},
    {"--decode-tokens", "decode_tokens", KNOB_WHOLE, offsetof(struct scenario, decode_tokens), true, false, "tokens", "decode"},
    {"--max-chips", "max_chips", KNOB_WHOLE, offsetof(struct scenario, max_chips), true, false, "chips", NULL},
    {"--tile", "tile", KNOB_WHOLE, offsetof(struct scenario, tile), true, false, "elements", NULL},
    {"--dp", "data_parallel", KNOB_WHOLE, offsetof(struct scenario, data_parallel), true, false, "replicas", NULL},
    {"--pp", "pp", KNOB_WHOLE, offsetof(struct scenario, pp), false, false, "stages", "pp"},
    {"--ep", "ep", KNOB_WHOLE, offsetof(struct scenario, ep), false, false, "groups", "ep"},
    {"--microbatches", "microbatches", KNOB_WHOLE, offsetof(struct scenario, microbatches), true, false, "micro-batches", NULL},
    {"--activation-tokens", "activation_tokens", KNOB_WHOLE, offsetof(struct scenario, activation_tokens), true, false, "tokens", NULL},
    {"--spec-tokens", "spec_tokens", KNOB_WHOLE, offsetof(struct scenario, spec_tokens), true, false, "tokens", NULL},
    {"--spec-verify", "spec_verify_tokens", KNOB_WHOLE, offsetof(struct scenario, spec_verify_tokens), true, false, "tokens", NULL},
    {"--disagg", "disagg_prefill_chips", KNOB_WHOLE, offsetof(struct scenario, disagg_prefill_chips), false, false, "chips", NULL},
    {"--prefill-tp", "disagg_prefill_tp", KNOB_WHOLE, offsetof(struct scenario, disagg_prefill_tp), true, false, "chips", NULL},
    {"--prefill-dp", "disagg_prefill_dp", KNOB_WHOLE, offsetof(struct scenario, disagg_prefill_dp), true, false, "ranks", NULL},
    {"--prefill-moe-ep", "disagg_prefill_moe_ep", KNOB_WHOLE, offsetof(struct scenario, disagg_prefill_moe_ep), true, false, "ranks", NULL},
    {"--moe-ep", "moe_ep", KNOB_WHOLE, offsetof(struct scenario, moe_ep), true, false, "ranks", NULL},
    {"--bench-rounds", "bench_rounds", KNOB_WHOLE, offsetof(struct scenario, bench_rounds), true, false, "rounds", NULL},
    {"--peak-flops", "peak_flops_override", KNOB_REAL, offsetof(struct scenario, peak_flops_override), true, true, "FLOP/s", NULL},
    {"--hbm-bw", "hbm_bytes_per_s_override", KNOB_REAL, offsetof(struct scenario, hbm_bytes_per_s_override), true, true, "bytes/s", NULL},
    {"--hbm-bytes", "hbm_bytes_override", KNOB_REAL, offsetof(struct scenario, hbm_bytes_override), true, true, "bytes", NULL},
    {"--params", "params", KNOB_REAL, offsetof(struct scenario, params), false, false, "parameters", NULL},
    {"--budget", "budget_s", KNOB_REAL, offsetof(struct scenario, budget_s), true, false, "s", "budget"},
    {"--overhead", "overhead_s", KNOB_REAL, offsetof(struct scenario, overhead_s), true, false, "s", "overhead"},
    {"--reserve", "reserve_bytes", KNOB_REAL, offsetof(struct scenario, reserve_bytes), true, false, "bytes", "reserve"},
    {"--mfu", "mfu", KNOB_REAL, offsetof(struct scenario, mfu), true, false, "fraction", "prefl MFU"},
    {"--recompute", "recompute_fraction", KNOB_REAL, offsetof(struct scenario, recompute_fraction), false, false, "fraction", NULL},
    {"--comm-overlap", "comm_overlap", KNOB_REAL, offsetof(struct scenario, comm_overlap), true, false, "fraction", NULL},
    {"--measured-train-tokens-per-s", "measured_train_tokens_per_s", KNOB_REAL, offsetof(struct scenario, measured_train_tokens_per_s), true, true, "tokens/s", NULL},
    {"--measured-ttft-s", "measured_ttft_s", KNOB_REAL, offsetof(struct scenario, measured_ttft_s), true, true, "s", NULL},
    {"--measured-tpot-s", "measured_tpot_s", KNOB_REAL, offsetof(struct scenario, measured_tpot_s), true, true, "s", NULL},
    {"--ep-imbalance", "ep_imbalance", KNOB_REAL, offsetof(struct scenario, ep_imbalance), true, false, "ratio", NULL},
    {"--spec-accept", "spec_accept", KNOB_REAL, offsetof(struct scenario, spec_accept), false, false, "probability", NULL},
    {"--spec-draft", "spec_draft_params", KNOB_REAL, offsetof(struct scenario, spec_draft_params), false, false, "parameters", NULL},
    {"--ttft-target", "ttft_target_s", KNOB_REAL, offsetof(struct scenario, ttft_target_s), true, true, "s", NULL},
    {"--tpot-target", "tpot_target_s", KNOB_REAL, offsetof(struct scenario, tpot_target_s), true, true, "s", NULL},
    {"--price-per-chip-hour", "price_usd_per_chip_hour", KNOB_REAL, offsetof(struct scenario, price_usd_per_chip_hour), true, true, "USD/chip-hour", NULL},
    {"--power-w", "power_w", KNOB_REAL, offsetof(struct scenario, power_w), true, true, "W", NULL},
    {"--pue", "pue", KNOB_REAL, offsetof(struct scenario, pue), true, true, "ratio", NULL},
    {"--train-tokens", "train_tokens", KNOB_REAL, offsetof(struct scenario, train_tokens), true, true, "tokens", NULL},
    {"--train-mfu", "train_mfu", KNOB_REAL, offsetof(struct scenario, train_mfu), true, true, "fraction", NULL},
    {"--train-chip-hours", "train_chip_hours", KNOB_REAL, offsetof(struct scenario, train_chip_hours), true, true, "chip-hours", NULL},
    {"--arrival-rate", "arrival_per_s", KNOB_REAL, offsetof(struct scenario, arrival_per_s), true, false, "requests/s", NULL},
    {"--prefix-cache", "prefix_hit", KNOB_REAL, offsetof(struct scenario, prefix_hit), true, false, "fraction", NULL},
    {"--heads", NULL, KNOB_WHOLE, offsetof(struct scenario, model.heads), true, false, "heads", NULL},
    {"--kv-heads", NULL, KNOB_WHOLE, offsetof(struct scenario, model.kv_heads), true, false, "heads", "kv heads"},
    {"--d-model", NULL, KNOB_WHOLE, offsetof(struct scenario, model.d_model), true, false, "elements", NULL},
    {"--d-head", NULL, KNOB_WHOLE, offsetof(struct scenario, model.d_head), true, false, "elements", NULL},
    {"--d-ff", NULL, KNOB_WHOLE, offsetof(struct scenario, model.d_ff), true, false, "elements", NULL},
    {"--vocab", NULL, KNOB_WHOLE, offsetof(struct scenario, model.vocab), true, false, "tokens", NULL},
    {"--tp", NULL, KNOB_OTHER, 0, false, false, "chips", NULL},
    {"--chip", "chip", KNOB_OTHER, 0, false, false, "", "chip"},
    {"--model", "model", KNOB_OTHER, 0, false, false, "", NULL},
    {"--engine", "engine", KNOB_OTHER, 0, false, false, "", NULL},
    {"--precision", "precision", KNOB_OTHER, 0, false, false, "", "precision"},
    {"--kv-precision", "kv_precision", KNOB_OTHER, 0, false, false, "", "kv prec"},
    {"--act-precision", "act_precision", KNOB_OTHER, 0, false, false, "", "act prec"},
    {"--step-times", "step_times_s", KNOB_OTHER, 0, false, false, "s", NULL},
    {"--flops-convention", "flops_convention", KNOB_OTHER, 0, false, false, "", NULL},
    {"--attention", "unfused_attention", KNOB_OTHER, 0, false, false, "", NULL},
    {"--layers", NULL, KNOB_OTHER, 0, false, false, "layers", NULL},
    {"--window", NULL, KNOB_OTHER, 0, false, false, "tokens", NULL},
    {"--gated", NULL, KNOB_OTHER, 0, false, false, "", NULL},
    {"--plain-mlp", NULL, KNOB_OTHER, 0, false, false, "", NULL},
    {"--tied", NULL, KNOB_OTHER, 0, false, false, "", NULL},
    {"--untied", NULL, KNOB_OTHER, 0, false, false, "", NULL},
};

const struct knob *knob_table(size_t *count)
{
    if (count)
        *count = sizeof knobs / sizeof knobs[0];
    return knobs;
}

const struct knob *knob_by_flag(const char *flag, size_t len)
{
    if (!flag)
        return NULL;
    if (len == 0)
        len = strlen(flag);
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++)
        if (strlen(knobs[i].flag) == len && strncmp(knobs[i].flag, flag, len) == 0)
            return &knobs[i];
    return NULL;
}

const struct knob *knob_by_key(const char *key)
{
    for (size_t i = 0; key && i < sizeof knobs / sizeof knobs[0]; i++)
        if (knobs[i].key && strcmp(knobs[i].key, key) == 0)
            return &knobs[i];
    return NULL;
}

const struct knob *knob_by_explorer(const char *name)
{
    for (size_t i = 0; name && i < sizeof knobs / sizeof knobs[0]; i++)
        if (knobs[i].explorer && strcmp(knobs[i].explorer, name) == 0)
            return &knobs[i];
    return NULL;
}
