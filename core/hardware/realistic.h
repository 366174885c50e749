/* realistic.h — what real kernels achieve: a chip's efficiency profile and
 * a serving engine's profile, the few physical parameters that turn the
 * roofline floor of each operation into a realistic time.
 *
 * The floor (detailed.h) times each operation at max(FLOPs / peak, bytes /
 * bandwidth). Against 89 published measurements of LLM inference on real
 * GPUs it sits below every one, at a median of 0.65 of the measured time.
 * The realistic estimate keeps the same operations and adds, each a named
 * parameter:
 * - the achieved fraction of the matmul peak per precision (large bf16 GEMMs
 *   reach ~0.75 of it; FP8 GEMMs run 0.8-1.25x bf16, not 2x);
 * - the achieved fraction of HBM bandwidth;
 * - a launch-and-tail time per kernel;
 * - wave quantisation: a GEMM's 128 x 128 output tiles fill the chip's
 *   streaming multiprocessors (or cores) in whole waves;
 * - decode attention under-fill: fewer batch x kv-head work units than SMs
 *   leave part of the chip idle;
 * - an alpha-beta all-reduce: 2(n-1) ring steps of a fixed latency plus the
 *   bytes over the achieved link bandwidth;
 * - the serving engine: a fixed time per forward pass (scheduling, sampling,
 *   Python), a fixed time to admit a request (paid in its time to first
 *   token), its attention kernels' efficiency, and its fused-MoE kernels'
 *   efficiency on their grouped GEMMs (compute; streaming the experts'
 *   weights runs at the chip's bandwidth).
 * The parameters are fitted to the measurements (core/fit/calibrate.h); a chip
 * without a fitted profile uses the generic one, and the report says it is
 * uncalibrated. Pure: no I/O.
 */
#ifndef ROOFTOP_REALISTIC_H
#define ROOFTOP_REALISTIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h" /* RT_KERNEL_SIBLING_ERROR */
#include "units.h"

#define RT_PROFILE_SOURCE_MAX 200
#define RT_ENGINE_NAME_MAX 24

/* The constants fitted jointly to the shared measurements of six GPUs (the
 * generic profile, and the built-in profiles of the measured chips; see
 * realistic.c), by `rooftop --calibrate tests/fixtures/measured/cases.csv
 * --calibrate-scope all`: MAPE 11.2%, leave-one-out 14.6% over 89 rows. One
 * set across the chips did as well as a set per chip (per-chip fits'
 * leave-one-out 10.7-18.6%). */
/* Matmul shares in enum order (units.h): bf16, then fp8's for int8, int4
 * and the block formats (fp8-block, nvfp4, mxfp4), which have no rows. */
#define RT_FIT_MATMUL {0.726, 0.491, 0.491, 0.491, 0.491, 0.491, 0.491}
#define RT_FIT_MEMORY 0.907
#define RT_FIT_KERNEL_S 9.96e-6
#define RT_FIT_ALLREDUCE_STEP_S 2.29e-6
#define RT_FIT_LINK 0.696

/* How sure a realistic step figure is (a prefill, a decode step, a
 * turn): the mean absolute percentage error of the realistic estimate on
 * the published step measurements (tests/fixtures/measured/cases.csv,
 * whose rows fit nothing but the engines' per-pass times: `rooftop
 * --validate tests/fixtures/measured/cases.csv` gives prefill steps 12.8%
 * over 16 rows, decode steps 10.1% over 12, whole generations 10.1% over
 * 10: 0.15 holds the worst with room), and for a chip whose profile is
 * borrowed that plus a sibling's transfer error (RT_KERNEL_SIBLING_ERROR).
 * A figure's band is the larger of this and its operations' kernel errors
 * weighted by time. */
#define RT_STEP_ERROR 0.15
#define RT_STEP_ERROR_BORROWED (RT_STEP_ERROR + RT_KERNEL_SIBLING_ERROR)

/* A chip's efficiency profile. All fractions are in (0, 1]. */
struct efficiency_profile {
    bool present;                          /* false: the chip has none of its own (the generic one applies) */
    bool calibrated;                       /* fitted to measurements on this chip */
    double matmul[RT_PRECISION_COUNT];     /* achieved fraction of the dense peak of large GEMMs, per precision */
    double memory;                         /* achieved fraction of HBM bandwidth */
    double kernel_s;                       /* launch and tail time of one kernel, seconds */
    double allreduce_step_s;               /* fixed time of one ring step of an all-reduce, seconds */
    double link;                           /* achieved fraction of the interconnect's one-way bandwidth */
    int64_t sm_count;                      /* streaming multiprocessors (or compute units); 0 = no wave model */
    char source[RT_PROFILE_SOURCE_MAX];    /* what it was fitted to, or where it came from */
};

/* A serving engine's profile: what belongs to the software, not the chip. */
struct engine_profile {
    char name[RT_ENGINE_NAME_MAX];         /* "vllm", "trtllm", ... or a file's name */
    double step_s;                         /* fixed time per forward pass (prefill or decode step), seconds */
    double request_s;                      /* fixed time to admit a request, paid once in its time to first token */
    double attention;                      /* unfused (--attention unfused) attention's efficiency against the chip's
                                              profile, (0, 1]; fused attention is the measured kernel models' */
    double moe;                            /* read from engine files and checked, (0, 1]; no longer used: fused MoE
                                              layers are timed by the measured MoE model (kernels.h) */
    bool calibrated;                       /* fitted to measurements of this engine */
    char source[RT_PROFILE_SOURCE_MAX];
    double frontend_s;                     /* a served request's time outside the engine's steps before its first
                                              token (the API server, the tokenizer, the token's way back to the
                                              client), seconds, [0, 10]; in a served TTFT only, not the turn's */
};

/* The generic chip profile: what the fit found across every measured chip,
 * for a chip with no profile of its own (uncalibrated). sm_count is 0. */
const struct efficiency_profile *efficiency_generic(void);

/* The profile to use for a chip: its own when present, else the generic one
 * (with sm_count carried over from the chip's own when it has one). */
struct efficiency_profile efficiency_resolve(const struct efficiency_profile *own);

/* Checks a profile: fractions in (0, 1], times in [0, 1] s, sm_count in
 * [0, 1e6]. Returns 0, or -1 with one line naming the field in err. */
int efficiency_check(const struct efficiency_profile *e, char *err, size_t errsize);

/* Number of built-in engine profiles, and the i-th (NULL outside). The
 * first is "generic". */
size_t engine_builtin_count(void);
const struct engine_profile *engine_builtin(size_t i);

/* Finds a built-in engine by name ("vllm", "trtllm", "tensorrt-llm",
 * "sglang", "lmdeploy", "llama.cpp", "nim", "pytorch", "generic"), ignoring
 * case and punctuation. NULL when none matches. */
const struct engine_profile *engine_find(const char *name);

/* Checks an engine profile like efficiency_check. */
int engine_check(const struct engine_profile *e, char *err, size_t errsize);

/* Fraction of a chip's streaming multiprocessors that tiles output tiles
 * keep busy over whole waves: tiles / (ceil(tiles / sms) x sms); 1 when
 * sms <= 0 or tiles <= 0 (no wave model). */
double wave_efficiency(double tiles, int64_t sms);

#endif
