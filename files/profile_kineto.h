/* profile_kineto.h — PyTorch profiler (Kineto) traces as measured kernels.
 *
 * A trace is Chrome-trace JSON, plain or gzip-compressed: {"traceEvents":
 * [...], "deviceProperties": [...], ...} or a bare array of events. It is
 * read as a stream, one event at a time (never the whole text in memory):
 * what is kept per event is a few numbers, so a 50 MB trace of 100k events
 * holds a few MB.
 *
 * Read (both the 2021 category names and today's; Kineto's trace format):
 *   kernels      cat "kernel" / "Kernel": dur (us), args.correlation,
 *                args "External id" or "external id", and Inductor's own
 *                counts where a trace carries them (args.kernel_flop,
 *                args.kernel_num_gb, as torch._inductor.analysis writes);
 *   copies       cat "gpu_memcpy"/"Memcpy", "gpu_memset"/"Memset": dur and
 *                args.bytes;
 *   launches     cat "cuda_runtime"/"Runtime"/"cuda_driver": correlation ->
 *                External id (ROCm traces use the same names);
 *   operators    cat "cpu_op"/"Operator": External id, name, args "Input
 *                Dims", "Input type", "Concrete Inputs", and args.flops when
 *                with_flops wrote it;
 *   steps        "ProfilerStep#N" spans (gpu_user_annotation preferred);
 *   counters     cat "cuda_profiler_range" (CUPTI range profiling): SASS
 *                FLOP counters per kernel, whose dur is not the kernel's.
 *
 * A kernel is joined to the operator that launched it: its own External id,
 * else its correlation's runtime call's. Each operator's kernels (and the
 * memsets and copies it launched, as TraceLens counts them) are one call;
 * calls of one operator at one shape and dtype are one group, their kernel
 * times summed. FLOPs and bytes per call, in this order:
 *   the trace's own: args.flops of the operator (with_flops), or Inductor's
 *     kernel_flop / kernel_num_gb on the kernel (grouped by kernel name);
 *   derived from Input Dims and Input type, and said so:
 *     mm, addmm, bmm, baddbmm, linear, matmul, _scaled_mm: 2·M·K·N (+ M·N
 *       for a bias or an added matrix, as TraceLens counts it); bytes the
 *       inputs and the output once each at their dtypes;
 *     scaled-dot-product and flash attention: 2·B·Hq·Sq·Sk·(d_qk + d_v),
 *       halved when causal (Concrete Inputs' is_causal; FlashAttention's and
 *       TraceLens's convention); bytes Q, K, V and O once;
 *     element-wise, norms, softmax: no FLOPs (placed by their bytes); bytes
 *       the tensor inputs and an output of their broadcast shape (in-place
 *       ops write their first input; copy_ reads one, writes one);
 *     reductions (mean, sum, argmax, ...): the input's bytes (the output is
 *       small and left out);
 *   otherwise none: the group is counted by time only and left off the plot
 *   (convolutions among them: their output size is not in the trace). */
#ifndef ROOFTOP_PROFILE_KINETO_H
#define ROOFTOP_PROFILE_KINETO_H

#include <stdbool.h>
#include <stddef.h>

#include "calibrate.h"
#include "jsonio.h"

/* Where a group's figures come from. */
enum kineto_source {
    KINETO_NONE = 0,  /* none: time only */
    KINETO_SHAPES,    /* derived from Input Dims and Input type (the rules above) */
    KINETO_WITH_FLOPS, /* the operator's args.flops (torch.profiler with_flops) */
    KINETO_INDUCTOR,  /* the kernel's args.kernel_flop / kernel_num_gb */
    KINETO_COPY,      /* a memcpy's or memset's args.bytes */
};

/* One operator at one shape and dtype (or one kernel name, or one copy
 * kind), with every kernel it launched. */
struct kineto_group {
    char label[RT_POINT_LABEL_MAX]; /* "mm M8944 K1024 N2816 bf16", "Memcpy DtoH" */
    char op[64];                    /* the operator ("aten::mm") or kernel or copy name */
    double flops, bytes, seconds;   /* summed over its calls; seconds from the kernels' dur */
    size_t kernels, calls;          /* kernel (and copy) events; operator calls */
    enum rt_precision precision;    /* of its first tensor input; bf16 when not told */
    bool vector_unit;               /* fp32 or fp64 work: against the vector (non-tensor) peak */
    enum kineto_source flops_source, bytes_source;
    bool causal_unknown;            /* an attention call whose is_causal the trace does not give (counted full) */
    char kind;                      /* what it groups: 'o' an operator's calls, 'k' a kernel name, 'c' a copy kind */
    enum point_kind work;           /* the kind of work, from its rule or its name */
    double gemm_m, gemm_k, gemm_n;  /* a GEMM's shape (M with the batch folded in); 0 otherwise */
};

/* What a trace holds. */
struct kineto_trace {
    char device[64];                /* deviceProperties[0].name, "" when absent */
    size_t events;                  /* trace events read */
    size_t kernel_events, copy_events, linked_events; /* linked: joined to an operator */
    double kernel_s, copy_s, linked_s, unlinked_s;    /* their summed dur */
    size_t steps;                   /* ProfilerStep#N spans */
    bool steps_on_gpu;              /* from gpu_user_annotation (else the CPU's spans) */
    double step_s;                  /* the steps' summed span */
    double step_busy_s;             /* kernel and copy time inside the GPU step spans (steps_on_gpu only) */
    size_t bad_durations;           /* kernel or copy events whose dur is missing, negative, past a day or not a
                                       number: left out, and said */
    size_t ranges;                  /* cuda_profiler_range events */
    double range_flops_fp32, range_flops_fp16, range_flops_fp64; /* add + mul + 2 fma of their counters */
    struct kineto_group *groups;    /* the caller frees with kineto_free */
    size_t group_count;
};

/* True when head (the file's first len bytes) can open a Kineto trace: the
 * gzip magic, or '{' or '[' after any whitespace. */
bool kineto_looks_like(const char *head, size_t len);

/* True when the file at path starts as kineto_looks_like says (reads its
 * first bytes only; false when it cannot be opened). */
bool kineto_file_looks_like(const char *path);

/* Reads a trace from the file at path (plain or gzip, streamed through
 * zlib) into *t; shown names it in messages. Returns 0, or -1 with one line
 * in err: the file cannot be read, is not JSON of a trace (no traceEvents
 * array), ends early (truncated), has an event that is not JSON or longer
 * than 16 MiB, or holds more than 50 million events. *t is then empty. */
int kineto_read_path(const char *path, const char *shown, struct kineto_trace *t, char *err, size_t errsize);

/* kineto_read_path over len bytes of data in memory (plain or gzip). */
int kineto_read_memory(const char *shown, const void *data, size_t len, struct kineto_trace *t, char *err,
                       size_t errsize);

/* Frees what a read allocated; t is then empty. */
void kineto_free(struct kineto_trace *t);

/* A trace's groups as points, at most max, the longest in time first: the
 * groups with a time and FLOPs or bytes. What is left off (operators
 * without a rule, kernels no operator launched, groups beyond max) and the
 * profiled steps are said in w, one line each; the device, the steps and
 * the file's whole kernel time go to ctx (may be NULL). Returns 0, or -1
 * with one line in err when nothing can be placed (a counters-only trace is
 * told with its FLOP totals). */
int kineto_points(const char *shown, const struct kineto_trace *t, struct measured_point *points, size_t max,
                  size_t *count, struct points_context *ctx, struct load_warnings *w, char *err, size_t errsize);

#endif
