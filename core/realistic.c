/* realistic.c — chip and engine profiles for the realistic estimate. */
#include "realistic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h" /* name_normalize */

/* The generic profile: the fit over every measured chip (see
 * core/calibrate.h and the README's "How accurate is it"). */
static const struct efficiency_profile generic_profile = {
    .present = true,
    .calibrated = false,
    .matmul = {0.75, 0.45, 0.45, 0.45},
    .memory = 0.80,
    .kernel_s = 4e-6,
    .allreduce_step_s = 3e-6,
    .link = 0.70,
    .sm_count = 0,
    .source = "generic: the fit across every measured GPU (uncalibrated for this chip)",
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
    snprintf(err, errsize, "efficiency '%s' must be %s %g to %g (got %g)", field, open_low ? "above" : "from", lo, hi,
             v);
    return -1;
}

int efficiency_check(const struct efficiency_profile *e, char *err, size_t errsize)
{
    static const char *const names[RT_PRECISION_COUNT] = {"matmul.bf16", "matmul.fp8", "matmul.int8",
                                                          "matmul.int4"};
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        if (check_field(names[p], e->matmul[p], 0.0, 1.0, true, err, errsize))
            return -1;
    if (check_field("memory", e->memory, 0.0, 1.0, true, err, errsize) ||
        check_field("kernel_overhead_s", e->kernel_s, 0.0, 1.0, false, err, errsize) ||
        check_field("allreduce_step_s", e->allreduce_step_s, 0.0, 1.0, false, err, errsize) ||
        check_field("link", e->link, 0.0, 1.0, true, err, errsize) ||
        check_field("sm_count", (double)e->sm_count, 0.0, 1e6, false, err, errsize))
        return -1;
    return 0;
}

/* Engines. The fixed time per forward pass and the kernel efficiencies are
 * fitted to the shared measurements where an engine has rows; sglang has
 * none and takes vLLM's (its kernels are FlashInfer's and vLLM's fused MoE);
 * generic is the middle of the fitted ones. */
static const struct engine_profile builtin_engines[] = {
    {"generic", 1.5e-3, 0.85, 0.60, false, "generic: between the fitted engines (uncalibrated)"},
    {"vllm", 1.5e-3, 0.85, 0.55, false, "vLLM"},
    {"trtllm", 2.0e-3, 0.90, 0.85, false, "TensorRT-LLM"},
    {"sglang", 1.5e-3, 0.85, 0.55, false, "SGLang: vLLM's profile (no measurements of its own)"},
    {"lmdeploy", 2.0e-3, 0.85, 0.60, false, "LMDeploy (TurboMind)"},
    {"llama.cpp", 1.0e-3, 0.80, 0.50, false, "llama.cpp"},
    {"nim", 2.0e-3, 0.90, 0.85, false, "NVIDIA NIM (TensorRT-LLM inside)"},
    {"pytorch", 0.0, 1.00, 0.50, false, "plain PyTorch kernels, timed one by one (no serving loop)"},
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
    if (!(isfinite(e->step_s) && e->step_s >= 0.0 && e->step_s <= 10.0)) {
        snprintf(err, errsize, "engine 'step_overhead_s' must be from 0 to 10 seconds (got %g)", e->step_s);
        return -1;
    }
    if (!(isfinite(e->attention) && e->attention > 0.0 && e->attention <= 1.0)) {
        snprintf(err, errsize, "engine 'attention' must be above 0 and at most 1 (got %g)", e->attention);
        return -1;
    }
    if (!(isfinite(e->moe) && e->moe > 0.0 && e->moe <= 1.0)) {
        snprintf(err, errsize, "engine 'moe' must be above 0 and at most 1 (got %g)", e->moe);
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
