/* realistic.c — chip and engine profiles for the realistic estimate. */
#include "realistic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h" /* name_normalize, format_exact */

/* The generic profile: one set of constants fitted to every measured chip
 * at once, jointly with the engines (rooftop --calibrate
 * tests/fixtures/measured/cases.csv --calibrate-scope all; see the README's
 * "How accurate is it"). INT8, INT4 and the block formats take FP8's
 * fraction (no rows). */
static const struct efficiency_profile generic_profile = {
    .present = true,
    .calibrated = false,
    .matmul = RT_FIT_MATMUL,
    .memory = RT_FIT_MEMORY,
    .kernel_s = RT_FIT_KERNEL_S,
    .allreduce_step_s = RT_FIT_ALLREDUCE_STEP_S,
    .link = RT_FIT_LINK,
    .sm_count = 0,
    .source = "generic: one profile fitted across 89 measurements on 6 GPUs (uncalibrated for this chip)",
};

const struct efficiency_profile *efficiency_generic(void)
{
    return &generic_profile;
}

struct efficiency_profile efficiency_resolve(const struct efficiency_profile *own)
{
    if (own && own->present)
        return *own;
    struct efficiency_profile e = generic_profile;
    if (own)
        e.sm_count = own->sm_count;
    return e;
}

/* Checks that v lies in [lo, hi] (lo excluded when open); names the field. */
static int check_field(const char *field, double v, double lo, double hi, bool open_low, char *err, size_t errsize)
{
    if (isfinite(v) && (open_low ? v > lo : v >= lo) && v <= hi)
        return 0;
    char got[32], low[32], high[32];
    snprintf(err, errsize, "efficiency '%s' must be %s %s to %s (got %s)", field, open_low ? "above" : "from",
             format_exact(low, sizeof low, lo), format_exact(high, sizeof high, hi), format_exact(got, sizeof got, v));
    return -1;
}

int efficiency_check(const struct efficiency_profile *e, char *err, size_t errsize)
{
    for (int p = 0; p < RT_PRECISION_COUNT; p++) {
        char name[32];
        snprintf(name, sizeof name, "matmul.%s", precision_name((enum rt_precision)p));
        if (check_field(name, e->matmul[p], 0.0, 1.0, true, err, errsize))
            return -1;
    }
    if (check_field("memory", e->memory, 0.0, 1.0, true, err, errsize) ||
        check_field("kernel_overhead_s", e->kernel_s, 0.0, 1.0, false, err, errsize) ||
        check_field("allreduce_step_s", e->allreduce_step_s, 0.0, 1.0, false, err, errsize) ||
        check_field("link", e->link, 0.0, 1.0, true, err, errsize) ||
        check_field("sm_count", (double)e->sm_count, 0.0, 1e6, false, err, errsize))
        return -1;
    return 0;
}

/* A served request's time before its first token that the step loop does
 * not account for (engine_profile.frontend_s): the API server, the
 * tokenizer, the scheduler's own queues, the token's way back to the
 * client. Measured closed-loop benchmarks (the shared data/serving/runs.csv,
 * AIConfigurator's silicon set, Apache-2.0) run 2-5x one prompt's prefill at
 * four clients and more, which the loop's queueing does not reach. Fitted
 * per engine as the constant that minimises `rooftop --validate`'s TTFT MAPE
 * over those runs (a grid, 2 ms steps to 60 ms and 20-50 ms steps to 300 ms, the loop run with each
 * value): vLLM 26 ms
 * (568 runs; 36.0% against 47.6% without it), TensorRT-LLM 40 ms (1,024;
 * 40.3% against 49.0%), SGLang 200 ms (345; 66.9% against 77.1%). Leaving
 * each model out in turn and fitting the rest: vLLM 24-32 ms, held-out MAPE
 * 36.6%; TensorRT-LLM 32-80 ms, 47.4%; SGLang 180-300 ms, 71.3%. A constant,
 * not physics: it is the part of a measured TTFT the model leaves over, and
 * the reports say so. */
#define RT_FRONTEND_VLLM_S 0.026
#define RT_FRONTEND_TRTLLM_S 0.040
#define RT_FRONTEND_SGLANG_S 0.200

/* Engines: {name, step_s, request_s, attention, moe, calibrated, source,
 * frontend_s}.
 * Fitted jointly with the generic chip profile (rooftop --calibrate
 * tests/fixtures/measured/cases.csv --calibrate-scope all: MAPE 11.2%,
 * leave-one-out 14.6% over 89 rows); a parameter fewer than three rows
 * inform keeps its starting value and the source says so. SGLang has no
 * rows and takes vLLM's (its kernels are FlashInfer's and vLLM's fused MoE). */
static const struct engine_profile builtin_engines[] = {
    {"generic", 1.0e-3, 1.0e-4, 0.93, 0.50, false,
     "generic: vLLM's kernels with a 1 ms step (uncalibrated for an unnamed engine)", RT_FRONTEND_VLLM_S},
    {"vllm", 0.5e-3, 1.0e-4, 0.93, 0.50, false,
     "vLLM: attention and fused MoE fitted to 16 and 4 kernel rows; its step and request times are not (2 "
     "generations, too few to fit)", RT_FRONTEND_VLLM_S},
    {"trtllm", 1.40e-3, 1.51e-3, 1.00, 0.50, true,
     "TensorRT-LLM: fitted to 18 rows (time to first token and generations); MoE as vLLM's (its one row is "
     "memory-bound)", RT_FRONTEND_TRTLLM_S},
    {"sglang", 0.5e-3, 1.0e-4, 0.93, 0.50, false, "SGLang: vLLM's profile (no measurements of its own)",
     RT_FRONTEND_SGLANG_S},
    {"lmdeploy", 0.0, 20.6e-3, 0.88, 0.50, true,
     "LMDeploy (TurboMind): fitted to 13 rows (its per-pass time fits to none: the request time carries it)", 0.0},
    {"llama.cpp", 1.88e-3, 1.0e-4, 1.00, 0.50, true, "llama.cpp: fitted to 3 rows", 0.0},
    {"nim", 1.40e-3, 1.51e-3, 1.00, 0.50, false,
     "NVIDIA NIM: TensorRT-LLM's profile (2 rows of its own, too few to fit)", RT_FRONTEND_TRTLLM_S},
    {"pytorch", 0.0, 0.0, 1.00, 0.50, false, "plain PyTorch kernels timed one by one: no serving loop", 0.0},
};

size_t engine_builtin_count(void)
{
    return sizeof builtin_engines / sizeof builtin_engines[0];
}

const struct engine_profile *engine_builtin(size_t i)
{
    return i < engine_builtin_count() ? &builtin_engines[i] : NULL;
}

const struct engine_profile *engine_find(const char *name)
{
    char want[64], have[64];
    name_normalize(want, sizeof want, name);
    if (strcmp(want, "tensorrtllm") == 0 || strcmp(want, "trt") == 0)
        snprintf(want, sizeof want, "trtllm");
    if (strcmp(want, "llamacpp") == 0 || strcmp(want, "ggml") == 0)
        snprintf(want, sizeof want, "llamacpp");
    for (size_t i = 0; i < engine_builtin_count(); i++)
        if (strcmp(want, name_normalize(have, sizeof have, builtin_engines[i].name)) == 0)
            return &builtin_engines[i];
    return NULL;
}

int engine_check(const struct engine_profile *e, char *err, size_t errsize)
{
    char got[32];
    if (!(isfinite(e->step_s) && e->step_s >= 0.0 && e->step_s <= 10.0)) {
        snprintf(err, errsize, "engine 'step_overhead_s' must be from 0 to 10 seconds (got %s)", format_exact(got, sizeof got, e->step_s));
        return -1;
    }
    if (!(isfinite(e->frontend_s) && e->frontend_s >= 0.0 && e->frontend_s <= 10.0)) {
        snprintf(err, errsize, "engine 'frontend_s' must be from 0 to 10 seconds (got %s)",
                 format_exact(got, sizeof got, e->frontend_s));
        return -1;
    }
    if (!(isfinite(e->request_s) && e->request_s >= 0.0 && e->request_s <= 10.0)) {
        snprintf(err, errsize, "engine 'request_overhead_s' must be from 0 to 10 seconds (got %s)", format_exact(got, sizeof got, e->request_s));
        return -1;
    }
    if (!(isfinite(e->attention) && e->attention > 0.0 && e->attention <= 1.0)) {
        snprintf(err, errsize, "engine 'attention' must be above 0 and at most 1 (got %s)", format_exact(got, sizeof got, e->attention));
        return -1;
    }
    if (!(isfinite(e->moe) && e->moe > 0.0 && e->moe <= 1.0)) {
        snprintf(err, errsize, "engine 'moe' must be above 0 and at most 1 (got %s)", format_exact(got, sizeof got, e->moe));
        return -1;
    }
    return 0;
}

double wave_efficiency(double tiles, int64_t sms)
{
    if (sms <= 0 || !(tiles > 0.0))
        return 1.0;
    double s = (double)sms;
    double waves = ceil(tiles / s);
    return tiles / (waves * s);
}
