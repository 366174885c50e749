/* profile_rocprof.h — AMD's profiler exports as measured kernels, and the
 * time-only kernel summaries of AMD's and NVIDIA's tools told for what they
 * are.
 *
 * rocprof-compute (Omniperf) pmc_perf.csv: a row per dispatch, a column per
 * counter (passes merged). Per dispatch, by rocprof-compute's own roofline
 * formulas (its roofline_calc.py and analysis configs):
 *   time   End_Timestamp - Start_Timestamp (ns);
 *   FLOPs  64 x (ADD + MUL + 2 FMA + TRANS) of SQ_INSTS_VALU_*_{F16,F32,F64}
 *          (per wavefront instruction, 64 lanes) + 512 x
 *          SQ_INSTS_VALU_MFMA_MOPS_{F16,BF16,F32,F64,I8} (I8 as ops);
 *   HBM    gfx90a (TCC_EA_*): 32 x RDREQ_32B + 64 x (RDREQ - RDREQ_32B) read,
 *          64 x WRREQ_64B + 32 x (WRREQ - WRREQ_64B) written; gfx942
 *          (TCC_EA0_*, with TCC_BUBBLE_sum): 128 x BUBBLE + 64 x (RDREQ -
 *          BUBBLE - RDREQ_32B) + 32 x RDREQ_32B read, writes as gfx90a;
 *   L2, L1 64 x (TCP_TCC_READ_REQ + TCP_TCC_WRITE_REQ + atomics),
 *          64 x TCP_TOTAL_CACHE_ACCESSES.
 * The precision is the one with the most FLOPs: MFMA bf16/f16 against the
 * bf16 matrix peak, I8 against int8's, VALU and MFMA f32/f64 work against
 * the vector peak.
 *
 * Time-only files (rocprof's kernel trace results.csv and its --stats
 * summary, Nsight Systems' cuda_gpu_kern_sum, rocprof-compute's
 * roofline.csv of measured peaks) hold no FLOPs or bytes per kernel: they
 * are recognised and refused with what they hold and what to profile with. */
#ifndef ROOFTOP_PROFILE_ROCPROF_H
#define ROOFTOP_PROFILE_ROCPROF_H

#include <stdbool.h>
#include <stddef.h>

#include "calibrate.h"
#include "jsonio.h"

/* True when text's first line is a rocprof-compute pmc_perf.csv header
 * (Dispatch_ID, Kernel_Name, Start_Timestamp, End_Timestamp). */
bool rocprof_pmc_looks_like(const char *text, size_t len);

/* One dispatch of a pmc_perf.csv, in base units; a figure the file lacks is
 * negative. */
struct rocprof_dispatch {
    char name[RT_POINT_LABEL_MAX];
    double time_s, hbm_bytes, l2_bytes, l1_bytes;
    double flops;                 /* every precision's */
    enum rt_precision precision;  /* of the most FLOPs */
    bool vector_unit;
};

/* Reads a pmc_perf.csv's dispatches (at most max). Returns 0 with *count,
 * or -1 with one line in err (no dispatch rows, more than max, a row whose
 * timestamps are not numbers or run backwards). */
int rocprof_pmc_read(const char *path, const char *text, size_t len, struct rocprof_dispatch *out, size_t max,
                     size_t *count, char *err, size_t errsize);

/* A pmc_perf.csv as points: one a dispatch (labelled with its kernel and
 * Dispatch_ID), or, past max dispatches, one a kernel name with its
 * dispatches summed (said in w). Dispatches without HBM bytes are left out
 * and said. Returns 0, or -1 with err set. */
int rocprof_pmc_points(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                       size_t *count, struct load_warnings *w, char *err, size_t errsize);

/* The measured ceilings of a rocprof-compute roofline.csv (its first row,
 * device 0: HBMBw, L2Bw, L1Bw in GB/s, though the file does not write the
 * unit), in bytes/s. Returns 0, or -1 when text is not one. */
int rocprof_roofline_ceilings(const char *text, size_t len, double *hbm, double *l2, double *l1);

/* When text is one of the time-only summaries, writes the refusal (what
 * it is, its kernels and total time, the largest, what to profile with)
 * to err and returns true; else false. */
bool profile_time_only(const char *path, const char *text, size_t len, char *err, size_t errsize);

#endif
