/* kernel_profiles.c — which measured fits each built-in chip uses, and the
 * compiled-in fits themselves (kernel_profiles.inc, written by `make
 * profiles`: rooftop --calibrate on the shared kernel tables with
 * --write-profiles). */
#include "kernels.h"

#include "chips.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct builtin_profile {
    const char *chip;
    const struct kernel_fit *fits;
    int count;
};

#include "kernel_profiles.inc"

/* Each built-in chip's measured sibling, a second one for the formats the
 * first lacks, the derates of a borrowed profile, and the last-level cache.
 * Cache sizes: NVIDIA A100 whitepaper (40 MB L2), H100 whitepaper (50 MB on
 * the SXM5 and PCIe parts), Ada whitepaper (L40S 96 MB, L4 48 MB, RTX 4090 72
 * MB), Chips and Cheese "Nvidia's B200" (2025: 126 MB L2, 148 SMs), the RTX
 * Blackwell whitepaper (GB202: 128 MB); AMD CDNA 3 whitepaper (MI300X 256 MB
 * Infinity Cache). A chip whose vendor kernels differ (AMD, TPU, Gaudi) keeps
 * a sibling's fitted fractions and says so; derates stay 1 unless a published
 * measurement gives one. AMD's CDNA 3 parts: real workloads reach about 45% of
 * the MI300X's dense peak and 81% of its 5.3 TB/s (AI Weekly, 2025, "AMD
 * MI300X hits only 45% of peak FLOPs in practice", summarising published
 * measurements; SemiAnalysis, 2024-12, "MI300X vs H100 vs H200 Benchmark Part
 * 1: Training", found the same gap in GEMMs), where the H200's fitted large
 * GEMMs reach about 0.8 of its peak and its memory-bound ones about 0.88 of
 * its bandwidth: derates 0.45 / 0.8 = 0.56 and 0.81 / 0.88 = 0.92. MLPerf
 * Inference v4.1 (Llama 2 70B) has an H200 about 1.33x an MI300X per GPU; the
 * derated profile keeps that order (tests/test_kernels.c). The MI355X (CDNA
 * 4) has no published measurement: it takes the same derates, as the same
 * software stack's, and says so. */
/* Special-function (exp2) throughput, results a second: SMs x 16 a clock x
 * the boost clock (CUDA C Programming Guide, arithmetic instructions: 16 a
 * clock an SM on compute capability 8.x, 9.0 and 10.0); Blackwell Ultra
 * doubles it for attention (NVIDIA's Blackwell Ultra page: 10.7 tera-
 * exponentials a second). A100 108 x 16 x 1.41 GHz, H100 and H200 132 x 16 x
 * 1.83, B200 148 x 16 x 2.07, L40S 142 x 16 x 2.52, L4 58 x 16 x 2.04,
 * H100 PCIe 114 x 16 x 1.76, RTX PRO 6000 188 x 16 x 2.6. */
#define EXP(sms, ghz) ((sms) * 16.0 * (ghz) * 1e9)

static const struct {
    const char *chip, *from, *from2;
    double l2_bytes;
    float compute_derate, memory_derate;
    const char *source;
    double exp_per_s;
    const char *arch; /* the GPU architecture (or vendor family): borrowing within one is a sibling's */
} chip_map[] = {
    {"a100-80", "a100-80", NULL, 40e6, 1, 1, "measured", EXP(108, 1.41), "ampere"},
    {"a100-40", "a100-80", NULL, 40e6, 1, 1, "the A100 80GB's fits (same SMs and kernels; its own bandwidth)", EXP(108, 1.41), "ampere"},
    {"h100", "h100", NULL, 50e6, 1, 1, "measured", EXP(132, 1.83), "hopper"},
    {"h100-pcie", "h100", NULL, 50e6, 1, 1, "the H100 SXM's fits (same kernels; its own SMs, clocks and bandwidth)", EXP(114, 1.76), "hopper"},
    {"h100-nvl", "h100", NULL, 50e6, 1, 1, "the H100 SXM's fits (same kernels; its own bandwidth)", EXP(132, 1.76), "hopper"},
    {"h200", "h200", NULL, 50e6, 1, 1, "measured", EXP(132, 1.83), "hopper"},
    {"h20", "h200", NULL, 60e6, 1, 1, "the H200's fits (Hopper kernels; its own peaks and bandwidth)", EXP(78, 1.83), "hopper"},
    {"h800", "h100", NULL, 50e6, 1, 1, "the H100 SXM's fits (the same die; its own NVLink)", EXP(132, 1.83), "hopper"},
    {"b200", "b200", NULL, 126e6, 1, 1, "measured", EXP(148, 2.07), "blackwell"},
    {"gb200", "gb200", NULL, 126e6, 1, 1, "measured", EXP(148, 2.11), "blackwell"},
    {"b300", "b300", NULL, 126e6, 1, 1, "measured", 10.7e12, "blackwell"},
    {"gb300", "b300", "gb200", 126e6, 1, 1, "the B300's fits (the same Blackwell Ultra GPU; its own clocks)", 10.7e12, "blackwell"},
    {"l40s", "l40s", NULL, 96e6, 1, 1, "measured", EXP(142, 2.52), "ada"},
    {"l4", "l40s", NULL, 48e6, 1, 1, "the L40S's fits (Ada; its own SMs and bandwidth)", EXP(58, 2.04), "ada"},
    {"rtx-4090", "l40s", NULL, 72e6, 1, 1, "the L40S's fits (Ada; its own SMs and bandwidth)", EXP(128, 2.52), "ada"},
    {"rtx-pro-6000", "l40s", "b200", 128e6, 1, 1,
     "the L40S's fits (a GDDR workstation-class part) and, for FP4, the B200's", EXP(188, 2.6), "blackwell-gb202"},
    {"mi250x", "a100-80", NULL, 16e6, 1, 1, "the A100's fits (AMD's kernels not measured here)", 0, "cdna2"},
    {"mi300x", "h200", NULL, 256e6, 0.56f, 0.92f,
     "the H200's fits derated to AMD's published 45% of peak and 81% of bandwidth (ROCm kernels not measured here)", 0, "cdna3"},
    {"mi325x", "h200", NULL, 256e6, 0.56f, 0.92f,
     "the H200's fits derated as the MI300X's (the same CDNA 3 compute; ROCm kernels not measured here)", 0, "cdna3"},
    {"mi355x", "b200", NULL, 256e6, 0.56f, 0.92f,
     "the B200's fits with the MI300X's derates assumed (no published MI355X kernel measurement)", 0, "cdna4"},
    {"tpu-v4", "h100", NULL, 0, 1, 1, "the H100's fits (no TPU kernels measured here; no wave model)", 0, "tpu"},
    {"tpu-v5e", "h100", NULL, 0, 1, 1, "the H100's fits (no TPU kernels measured here; no wave model)", 0, "tpu"},
    {"tpu-v5p", "h100", NULL, 0, 1, 1, "the H100's fits (no TPU kernels measured here; no wave model)", 0, "tpu"},
    {"tpu-v6e", "h100", NULL, 0, 1, 1, "the H100's fits (no TPU kernels measured here; no wave model)", 0, "tpu"},
    {"tpu7x", "h100", NULL, 0, 1, 1, "the H100's fits (no TPU kernels measured here; no wave model)", 0, "tpu"},
    {"gaudi2", "h100", NULL, 48e6, 1, 1, "the H100's fits (no Gaudi kernels measured here)", 0, "gaudi"},
    {"gaudi3", "h100", NULL, 96e6, 1, 1, "the H100's fits (no Gaudi kernels measured here)", 0, "gaudi"},
};

/* The map row of chip_key, or -1. */
static int map_row(const char *chip_key)
{
    for (size_t i = 0; chip_key && i < sizeof chip_map / sizeof chip_map[0]; i++)
        if (strcmp(chip_map[i].chip, chip_key) == 0)
            return (int)i;
    return -1;
}

const char *kernel_chip_architecture(const char *chip_key)
{
    int i = map_row(chip_key);
    return i >= 0 ? chip_map[i].arch : NULL;
}

/* True when chip_key's fits come from another measured chip of its own
 * architecture (a sibling's transfer error, kernels.h). */
static bool same_architecture(const char *chip_key, const char *from)
{
    const char *a = kernel_chip_architecture(chip_key), *b = kernel_chip_architecture(from);
    return a && b && strcmp(chip_key, from) != 0 && strcmp(a, b) == 0;
}

#ifndef KERNEL_PROFILES_VERSION
#define KERNEL_PROFILES_VERSION 0 /* a table written before versions were recorded */
#endif

int kernel_builtin_version(void)
{
    return KERNEL_PROFILES_VERSION;
}

/* How each measured chip's memory behaves under a kernel timed alone,
 * from its own rows (the GEMM prototype's fits over AIConfigurator's tables,
 * output-bound bf16 GEMMs for the write-back fraction): about half the L2
 * serves reuse across replays (one of its two partitions; all of the L40S's
 * 96 MB, which also keeps dirty output lines), the clock drops by about 30%
 * under sustained tensor-core load (not the A100's, whose fits were better
 * without it). A chip without measurements takes its sibling's. */
static const struct {
    const char *chip;
    double l2_usable, l2_sharpness;
    bool l2_keeps_output;
    double write_fraction, power_drop;
} memory_rows[] = {
    {"a100-80", 0.5, 4.0, false, 0.506, 0.0}, {"h100", 0.5, 4.0, false, 0.732, 0.3},
    {"h200", 0.5, 4.0, false, 0.601, 0.3},    {"b200", 0.5, 4.0, false, 0.728, 0.3},
    {"gb200", 0.5, 4.0, false, 0.779, 0.3},   {"b300", 0.5, 4.0, false, 0.792, 0.3},
    {"l40s", 1.0, 8.0, true, 0.625, 0.3},
};

const struct kernel_fit *kernel_builtin_fits(const char *chip_key, int *count)
{
    *count = 0;
    if (KERNEL_PROFILES_VERSION != RT_KERNEL_MODEL_VERSION)
        return NULL;
    for (size_t i = 0; chip_key && i < sizeof builtin_profiles / sizeof builtin_profiles[0]; i++)
        if (builtin_profiles[i].chip && strcmp(builtin_profiles[i].chip, chip_key) == 0) {
            *count = builtin_profiles[i].count;
            return builtin_profiles[i].fits;
        }
    return NULL;
}

bool kernel_builtin_profile(const char *chip_key, struct kernel_profile *out)
{
    int i = map_row(chip_key);
    if (i < 0)
        return false;
    memset(out, 0, offsetof(struct kernel_profile, fits));
    snprintf(out->from, sizeof out->from, "%s", chip_map[i].from);
    snprintf(out->from2, sizeof out->from2, "%s", chip_map[i].from2 ? chip_map[i].from2 : "");
    out->measured = strcmp(chip_map[i].from, chip_key) == 0;
    out->compute_derate = chip_map[i].compute_derate;
    out->memory_derate = chip_map[i].memory_derate;
    out->l2_bytes = chip_map[i].l2_bytes;
    snprintf(out->source, sizeof out->source, "%s", chip_map[i].source);
    out->sibling = same_architecture(chip_key, chip_map[i].from);
    return true;
}





void kernel_view_for(const char *chip_key, const struct kernel_profile *prof, struct kernel_view *out)
{
    memset(out, 0, sizeof *out);
    out->compute_derate = out->memory_derate = 1.0;
    out->from = "";
    out->source = "no measured kernels for this chip: the models' default constants";
    int i = map_row(chip_key); /* the built-in chip's row, then what its file (or --kernels-from) sets */
    if (i >= 0) {
        out->fits = kernel_builtin_fits(chip_map[i].from, &out->count);
        if (chip_map[i].from2)
            out->fits2 = kernel_builtin_fits(chip_map[i].from2, &out->count2);
        out->measured = strcmp(chip_map[i].from, chip_key) == 0;
        out->sibling = same_architecture(chip_key, chip_map[i].from);
        out->compute_derate = chip_map[i].compute_derate;
        out->memory_derate = chip_map[i].memory_derate;
        out->l2_bytes = chip_map[i].l2_bytes;
        out->from = chip_map[i].from;
        out->source = chip_map[i].source;
    }
    if (prof && prof->count > 0) { /* fits of its own */
        out->fits = prof->fits;
        out->count = prof->count;
        out->fits2 = NULL, out->count2 = 0;
        out->from = chip_key;
        out->measured = prof->measured;
        out->sibling = prof->sibling;
    } else if (prof && prof->from[0]) { /* another measured chip's */
        out->fits = kernel_builtin_fits(prof->from, &out->count);
        out->fits2 = NULL, out->count2 = 0;
        out->from = prof->from;
        out->measured = prof->measured;
        out->sibling = prof->sibling || same_architecture(chip_key, prof->from);
    }
    if (prof && prof->from2[0])
        out->fits2 = kernel_builtin_fits(prof->from2, &out->count2);
    if (prof && prof->compute_derate > 0.0f)
        out->compute_derate = prof->compute_derate;
    if (prof && prof->memory_derate > 0.0f)
        out->memory_derate = prof->memory_derate;
    if (prof && prof->l2_bytes > 0.0)
        out->l2_bytes = prof->l2_bytes;
    if (prof && prof->source[0])
        out->source = prof->source;
    kernel_view_index(out);
}

void kernel_chip_of(const struct chip_spec *c, const struct kernel_view *v, struct kernel_chip *out)
{
    memset(out, 0, sizeof *out);
    out->peak_flops_per_s[RT_RATE_BF16] = c->peak_flops_per_s[RT_BF16];
    out->peak_flops_per_s[RT_RATE_FP8] = c->peak_flops_per_s[RT_FP8];
    out->peak_flops_per_s[RT_RATE_INT8] = c->peak_flops_per_s[RT_INT8];
    out->peak_flops_per_s[RT_RATE_FP4] = c->peak_flops_per_s[RT_NVFP4] > 0.0 ? c->peak_flops_per_s[RT_NVFP4]
                                                                            : c->peak_flops_per_s[RT_MXFP4];
    out->hbm_bytes_per_s = c->hbm_bytes_per_s;
    out->sm_count = (double)c->efficiency.sm_count;
    if (!(out->sm_count > 0.0) && v && v->from && v->from[0]) {
        /* a chip of a few large matrix units (a TPU, Gaudi) is timed as if its peak and bandwidth were
         * spread over its profile sibling's SMs: the fitted per-SM constants then mean what they were
         * fitted to mean */
        const struct chip_spec *sib = chip_find(v->from);
        out->sm_count = sib ? (double)sib->efficiency.sm_count : 0.0;
    }
    if (!(out->sm_count > 0.0) && out->peak_flops_per_s[RT_RATE_BF16] > 0.0)
        /* no SM count and no sibling's: as many SMs as an H100's share of its bf16 peak (989.4 TFLOP/s over 132
           SMs, the Hopper whitepaper) would make, never one SM for the whole chip (which serialised every tile) */
        out->sm_count = fmax(1.0, round(out->peak_flops_per_s[RT_RATE_BF16] / RT_SM_EQUIVALENT_FLOPS_PER_S));
    out->link_bytes_per_s = c->interconnect_bytes_per_s / 2.0;
    out->l2_bytes = v ? v->l2_bytes : c->kernels.l2_bytes;
    int i = map_row(c->key);
    out->exp_per_s = i >= 0 ? chip_map[i].exp_per_s : 0.0;
    const char *measured = v && v->from && v->from[0] ? v->from : c->key;
    out->l2_usable = 0.5, out->l2_sharpness = 4.0, out->power_drop = 0.3, out->write_fraction = 0.0;
    for (size_t k = 0; k < sizeof memory_rows / sizeof memory_rows[0]; k++)
        if (strcmp(memory_rows[k].chip, measured) == 0) {
            out->l2_usable = memory_rows[k].l2_usable;
            out->l2_sharpness = memory_rows[k].l2_sharpness;
            out->l2_keeps_output = memory_rows[k].l2_keeps_output;
            out->write_fraction = memory_rows[k].write_fraction;
            out->power_drop = memory_rows[k].power_drop;
        }
    if (!(out->exp_per_s > 0.0) && c->efficiency.sm_count > 0) /* unpublished clock: a 1.8 GHz guess */
        out->exp_per_s = EXP((double)c->efficiency.sm_count, 1.8);
}
