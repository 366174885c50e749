/* calibrate.h — measurements against the model, and fitting the realistic
 * estimate's profiles to them.
 *
 * An observation is one measured time and how to read the same quantity
 * from an analysis: a whole scenario and a metric (the shared cases.csv
 * rows), or a single kernel's FLOPs and bytes (a profiler's export). The fit
 * chooses the profile parameters (realistic.h) that minimise the mean
 * absolute percentage error of the realistic estimate, by Nelder-Mead over
 * each parameter's own range (fractions through a logit, times through a
 * log). Pure: no I/O; files are read by the command line (files/measured.c).
 */
#ifndef ROOFTOP_CALIBRATE_H
#define ROOFTOP_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"

#define RT_OBS_ID_MAX 48
#define RT_OBS_METRIC_MAX 160
#define RT_FIT_MIN_ROWS 3 /* rows a parameter must inform to be fitted */

#define RT_POINT_LABEL_MAX 128 /* a kernel's name as the report keeps it (the text report shows its first 48) */
#define RT_MAX_POINTS 64 /* measured kernels one --points file may give */

/* What kind of work a measured kernel is, as its profile tells it (the
 * operator that launched it, else its name). */
enum point_kind {
    POINT_KIND_UNKNOWN = 0,
    POINT_KIND_GEMM,        /* a matmul (gemm_m/k/n give its shape when known) */
    POINT_KIND_ATTENTION,   /* scaled-dot-product, flash, paged or MLA attention */
    POINT_KIND_NORM,        /* layer/RMS/batch/group norm */
    POINT_KIND_ELEMENTWISE, /* activations, residual adds, casts, rotary, softmax outside attention, reductions */
    POINT_KIND_COPY,        /* memcpy, memset */
    POINT_KIND_COMM,        /* all-reduce, all-gather, all-to-all (NCCL, RCCL) */
    POINT_KIND_MOE,         /* grouped expert GEMMs, routing */
};

/* One measured kernel: what a profiler exports (--points, --calibrate). */
struct measured_point {
    char label[RT_POINT_LABEL_MAX];
    double flops, bytes, seconds;
    enum rt_precision precision;
    double kernels;   /* kernel launches its figures sum (a profiler's calls of one operator); 0 or 1: one */
    bool vector_unit; /* FP32/FP64 work off the tensor cores (SASS counts, an fp32 operator): against the chip's
                         vector_flops_per_s rather than a matmul peak */
    enum point_kind kind;         /* POINT_KIND_UNKNOWN: point_kind_from_name tells it from the label */
    double l2_bytes, l1_bytes;    /* bytes it moved through L2 and L1, when the profile counts them; 0 unknown */
    double gemm_m, gemm_k, gemm_n; /* a GEMM's rows (batch included), inner and output width; 0 unknown */
};

/* The kind of kernel a name suggests: a PyTorch matmul operator (mm, addmm,
 * bmm, baddbmm, linear, matmul, _scaled_mm, with or without "aten::", as a
 * label's first word) is a GEMM; else case-insensitive words: gemm, cutlass,
 * xmma, cublas, matmul -> GEMM; flash, fmha, attention, attn -> attention;
 * nccl, allreduce, all_gather -> communication; norm -> norm; moe, expert
 * -> MoE; memcpy, memset -> copy; elementwise, silu, gelu, add, mul, copy,
 * cast, rotary, softmax -> element-wise). Unknown when none matches. */
enum point_kind point_kind_from_name(const char *name);

/* Why a measured kernel may sit above its roof: what to check first. */
enum point_above_cause {
    POINT_ABOVE_NONE = 0,
    POINT_ABOVE_UNITS,     /* far above (10x or more), or no precision or sparsity explains it: FLOPs, bytes or
                              seconds in the wrong unit, or the wrong chip */
    POINT_ABOVE_PRECISION, /* above its precision's peak but under a faster precision's: the work ran at that one */
    POINT_ABOVE_SPARSITY,  /* above the dense peak but within the 2:4 sparse peak (twice it) */
    POINT_ABOVE_SCOPE,     /* faster than HBM allows: fewer bytes reached DRAM than were counted (a cache served
                              them, or the bytes are L2/L1 traffic or estimated from shapes) */
};

/* Where a measured kernel sits against the scenario's roof. */
struct point_placement {
    double intensity_flop_per_byte;  /* flops / bytes */
    double achieved_flops_per_s;     /* flops / seconds */
    double roof_flops_per_s;         /* min(peak at its precision, bandwidth x intensity) */
    double fraction_of_roof;         /* achieved / roof */
    bool above_roof;                 /* more than 2% faster than the roof allows (timing noise aside): most
                                        likely a units error */
    bool by_bytes;                   /* no FLOPs (a copy): placed by its bytes, fraction_of_roof then being
                                        its achieved bandwidth over the chip's HBM bandwidth */
    double achieved_bytes_per_s;     /* bytes / seconds */
    bool on_vector_roof;             /* the peak is the chip's vector (non-tensor FP32) throughput */
    double peak_flops_per_s;         /* the flat part of its roof: its precision's peak, or the vector unit's */
    double l2_intensity, l1_intensity; /* FLOPs over its L2 and L1 bytes (the hierarchical roofline); 0 unknown */
    enum point_above_cause above_cause; /* when above_roof: the likeliest cause */
    enum rt_precision above_fits;    /* POINT_ABOVE_PRECISION: the precision whose peak it fits under */
};

/* What a profile says about its run beyond the kernels it gives as points
 * (a Kineto trace's device and ProfilerStep spans); zero when it says
 * nothing (rooftop's own points, a CSV export). */
struct points_context {
    char device[64];    /* the GPU the profile ran on ("" unknown) */
    size_t steps;       /* ProfilerStep spans */
    bool steps_on_gpu;  /* spans from the GPU's timeline (else the CPU's) */
    double step_s;      /* their summed span, s */
    double all_s;       /* every kernel's and copy's time in the file, placed or not (0: unknown) */
    bool bytes_estimated; /* the points' bytes are estimated from shapes, not DRAM counters */
    /* The caches' bandwidths the profile measured (rocprof-compute's
     * roofline.csv beside a pmc_perf.csv), bytes/s; 0 none; and where from. */
    double l2_bytes_per_s, l1_bytes_per_s, hbm_measured_bytes_per_s;
    char ceilings_source[160];
};

/* One measured kernel against every memory level's roof (the hierarchical
 * roofline: Yang, Kurth, Williams, "Hierarchical Roofline analysis for
 * GPUs", CCPE 2020): at each level its achieved bandwidth over that level's
 * (which equals its achieved FLOP/s over the roof at that level's
 * intensity), and its FLOP/s over the peak; -1 where the bytes or the
 * bandwidth are unknown. */
struct point_levels {
    double compute, hbm, l2, l1;
    const char *nearest; /* the roof it is nearest: "compute", "HBM", "L2" or "L1" (the largest share) */
};

/* The levels of p on scenario s's chip, the caches' bandwidths from ctx's
 * measured ceilings when it has them, else the chip's (ctx may be NULL).
 * Returns 0, or -1 when p has no time. */
int point_levels(const struct measured_point *p, const struct scenario *s, const struct points_context *ctx,
                 struct point_levels *out);

/* The utilization of profiled work: the counted FLOPs and bytes over a
 * window of time, as the guide's companion post asks (count MFU and MBU by
 * instrumentation). */
struct points_utilization {
    double flops, bytes, seconds; /* summed over the points; seconds their kernels' time */
    double peak_time_s;           /* what the counted FLOPs take at peak: each point's FLOPs over its own roof's
                                     peak (its precision's, or the vector unit's), summed */
    double window_s;              /* the denominator: the GPU step spans, else the points' kernel time */
    bool window_is_step;
    double hfu;                   /* peak_time_s / window_s: hardware FLOP utilization by count (MFU too, when
                                     the step recomputed nothing: a profile cannot tell) */
    double mbu;                   /* bytes / (window_s x HBM bandwidth) */
    size_t above_left_out;        /* points above their roofs, left out of every figure here (their counts are
                                     wrong somewhere: a rate past the roof is not work done) */
};

/* The utilization of n points on scenario s's chip (one chip, as
 * point_place) over ctx's GPU step spans when it has them (ctx may be
 * NULL), else over the points' summed time. Returns 0, or -1 when no point
 * has a time. */
int points_utilization(const struct measured_point *pts, size_t n, const struct points_context *ctx,
                       const struct scenario *s, struct points_utilization *out);

/* The cause's short name for JSON ("units", "precision", "sparsity",
 * "scope"), or NULL for POINT_ABOVE_NONE. */
const char *point_above_name(enum point_above_cause c);

/* Places point p on the roof of scenario s's chip (its overrides and chip
 * count aside: a kernel runs on one chip). The peak is the chip's at the
 * point's precision, or bf16's when the chip has none; for vector-unit work
 * (p->vector_unit) the chip's vector_flops_per_s (datasheet FP32 non-tensor
 * figure), or the matmul peak when the chip's is unpublished. A kernel with no
 * FLOPs (a copy) is placed by its bytes: by_bytes, and fraction_of_roof its
 * bandwidth's share of the chip's (never 0%); above the roof when faster
 * than the HBM allows. Returns 0, or -1 when p has no bytes or no time. */
int point_place(const struct measured_point *p, const struct scenario *s, struct point_placement *out);

/* One measurement. */
struct observation {
    char id[RT_OBS_ID_MAX];          /* the row's name, for messages */
    int line;                        /* the row's line in its file (0: not read from one) */
    char level[24];                  /* "kernel", "prefill step", "decode step", "generation", "point" */
    double measured_s;               /* > 0 */
    bool point;                      /* a kernel given as flops and bytes, not a scenario */
    /* A scenario row: the scenario and the metric that reads the quantity:
     * "key:latency.detailed.ttft_s" (or any latency.detailed.* time),
     * "sum:K1+K2", "ops:PHASE:NAME+NAME[:per_layer]", "comm:decode" (one
     * all-reduce of a decode step). */
    struct scenario scenario;
    char metric[RT_OBS_METRIC_MAX];
    char args[1024];                 /* the row's flags as run ({configs} expanded, --engine added) */
    /* A point: FLOPs and bytes of one kernel at a precision on the
     * scenario's chip. */
    double flops, bytes;
    enum rt_precision precision;
    double kernels;                  /* launches the point's time sums (0 or 1: one), each paying the profile's
                                        kernel overhead */
};

/* Checks a metric's spelling. Returns 0, or -1 with one line in err. */
int metric_check(const char *metric, char *err, size_t errsize);

/* The model's figure for observation o, in seconds: the floor's
 * (realistic false) or the realistic estimate's. A scenario is analyzed; a
 * point is timed on the scenario's chip: max(flops / peak, bytes /
 * bandwidth), realistic over the chip's profile plus one kernel launch.
 * Returns -1 with err set when the scenario does not analyze or the metric
 * names nothing in it. */
int observation_predict(const struct observation *o, bool realistic, double *out_s, char *err, size_t errsize);

/* Which profile field a fit parameter sets. */
enum fit_field {
    FIT_MATMUL_BF16 = 0, FIT_MATMUL_FP8, FIT_MEMORY, FIT_KERNEL_S, FIT_ALLREDUCE_STEP_S, FIT_LINK,
    FIT_ENGINE_STEP_S, FIT_ENGINE_REQUEST_S, FIT_ENGINE_ATTENTION, FIT_FIELD_COUNT
};

/* "matmul.bf16", "matmul.fp8", "memory", "kernel_overhead_s",
 * "allreduce_step_s", "link", "engine.step_overhead_s",
 * "engine.request_overhead_s", "engine.attention", "engine.moe". */
const char *fit_field_name(enum fit_field f);

/* One parameter of a fit: a field, the chip key or engine name it applies
 * to ("" = every chip, every engine), its value (start, then fitted) and
 * the observations that inform it. */
struct fit_param {
    enum fit_field field;
    char chip[32];
    char engine[24];
    double value;
    int informed;   /* observations the parameter changes (set by calibrate_fit) */
    bool at_bound;  /* fitted, and stopped at the edge of its range (a share of 0.02 or 1, a time of 10 ns or
                       0.1 s): the rows pull it past what a chip does (set by calibrate_fit) */
};

/* Writes params into every observation they apply to: chip fields into the
 * observation's chip profile (made present, keeping its sm_count), engine
 * fields into its engine profile. */
void fit_apply(struct observation *obs, size_t n, const struct fit_param *params, size_t np);

/* Mean absolute percentage error of the realistic estimate over obs, as a
 * fraction (0.2 = 20%); also the median ratio predicted/measured when
 * median_ratio is not NULL. Returns -1 with err set when a row fails. */
int fit_mape(const struct observation *obs, size_t n, bool realistic, double *mape, double *median_ratio, char *err,
             size_t errsize);

/* Fits params (their values are the starting point) to obs, minimising the
 * realistic MAPE; parameters fewer than RT_FIT_MIN_ROWS observations
 * inform keep their value (informed says how many do).
 * Returns 0 with *mape the fitted error; -1 with err set when a row fails
 * or there are fewer observations than parameters informed. iterations
 * bounds the Nelder-Mead steps (2000 is ample). */
int calibrate_fit(struct observation *obs, size_t n, struct fit_param *params, size_t np, int iterations,
                  double *mape, char *err, size_t errsize);

/* Called before each fold of a cross-validation (fold 0 .. folds - 1) and
 * once after the last (fold == folds). */
typedef void (*calibrate_progress_fn)(void *ctx, int fold, int folds);

/* k-fold cross-validation: rows are dealt into min(folds, n) folds (row i
 * to fold i mod k); for each fold, params are fitted on the other rows and
 * the fold's rows predicted. Returns 0 with *mape the mean error of those
 * predictions over every row (rows the fit did not see), and the row
 * predictions made in *evaluations (may be NULL): about k x iterations x n,
 * linear in the rows for a fixed k. folds >= n is leave-one-out. params
 * are left at their values on entry; progress may be NULL. -1 with err set
 * when a row fails or n < 2. */
int calibrate_cross_validate(struct observation *obs, size_t n, const struct fit_param *params, size_t np,
                             int iterations, int folds, calibrate_progress_fn progress, void *ctx, double *mape,
                             size_t *evaluations, char *err, size_t errsize);

/* Leave-one-out: calibrate_cross_validate with one row a fold (n fits: its
 * cost grows with the square of the rows). */
int calibrate_leave_one_out(struct observation *obs, size_t n, const struct fit_param *params, size_t np,
                            int iterations, double *mape, char *err, size_t errsize);

#endif
