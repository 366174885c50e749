/* profile_ncu.h — Nsight Compute CSV exports (and TraceLens operation
 * tables) as measured kernels.
 *
 * Both shapes `ncu --csv` writes: the long one (the default "details"
 * page: a row per kernel and metric, with "ID", "Kernel Name", "Metric
 * Name", "Metric Unit", "Metric Value") and the raw one (`--page raw`: a
 * row per kernel, a column per metric, and a units row under the header).
 * Lines before the header (==PROF== lines, the program's own output) are
 * skipped; quoted values may carry thousands separators ("66,048"); "n/a"
 * is a missing value, never 0; units with SI prefixes (nsecond, us,
 * msecond, Kbyte, Mbyte, Gbyte, cycle/second, Gcycle/second ...) are read
 * in base units (Nsight Compute's prefixes are decimal: its RooflineChart
 * section's DRAM bandwidth agrees with bytes / time only so).
 *
 * Per kernel (Nsight Compute's metric reference; the NERSC roofline
 * methodology for the SASS counts):
 *   time   gpu__time_duration.sum, else sm__cycles_elapsed.avg /
 *          sm__cycles_elapsed.avg.per_second;
 *   DRAM   dram__bytes.sum, else dram__bytes_read.sum + dram__bytes_write.sum;
 *   L2, L1 lts__t_bytes.sum, l1tex__t_bytes.sum;
 *   FLOPs  tensor-core work from sm__ops_path_tensor_src_<dtype>_dst_*
 *          (math operations, counted as FLOPs), else the SASS counts:
 *          add + mul + 2 x fma of each of fp32, fp16 and fp64
 *          (smsp__sass_thread_inst_executed_op_{f,h,d}{add,mul,fma}_pred_on).
 *          sm__inst_executed_pipe_tensor counts instructions whose FLOPs
 *          differ per kernel (2048 or 4096 a cutlass or cuBLAS fp16 GEMM
 *          instruction): never read as FLOPs. */
#ifndef ROOFTOP_PROFILE_NCU_H
#define ROOFTOP_PROFILE_NCU_H

#include <stdbool.h>
#include <stddef.h>

#include "calibrate.h"
#include "jsonio.h"
#include "csv.h"

/* One kernel of an export, its figures in base units; a figure the file
 * lacks is negative. */
struct ncu_kernel {
    char name[RT_POINT_LABEL_MAX];
    double time_s;
    double dram_bytes, l2_bytes, l1_bytes;
    double tensor_flops;          /* every tensor-core dtype's operations */
    enum rt_precision tensor_precision; /* the dtype with the most of them */
    double sass_flops;            /* fp32 + fp16 + fp64 add + mul + 2 fma */
    char refused[96];             /* a time or DRAM metric it has, whose unit or value was not read ("" none) */
};

/* True when text (len bytes) looks like an Nsight Compute CSV export: a
 * header line with "ID" and "Kernel Name" after any ==PROF== lines, or a
 * ==PROF== line at all (a failed run's log). */
bool ncu_looks_like(const char *text, size_t len);

/* Reads an export into kernels (at most max; free nothing). Returns 0 with
 * *count; -1 with one line in err: no kernel rows (with the file's ==ERROR==
 * line when it has one), more than max kernels, a malformed row. */
int ncu_read(const char *path, const char *text, size_t len, struct ncu_kernel *kernels, size_t max, size_t *count,
             char *err, size_t errsize);

/* The kernels as --points: FLOPs the tensor work (at its dtype's precision)
 * or else the SASS work, bytes from DRAM. A kernel without a time or DRAM
 * bytes is left out and counted in *skipped; none left is an error naming
 * the counters to profile with. Returns 0, or -1 with err set. */
int ncu_points(const char *path, const struct ncu_kernel *kernels, size_t n, struct measured_point *points,
               size_t max, size_t *count, size_t *skipped, char *err, size_t errsize);

/* Checks a point from an export against the ranges a kernel's figures
 * hold (FLOPs 0 to 1e21, bytes 1 to 1e18, 1e-9 to 86400 s, as rooftop's own
 * points file does). Returns 0, or -1 with err naming the kernel. */
int profile_point_check(const char *path, const struct measured_point *p, char *err, size_t errsize);

/* True when text starts with a TraceLens (AMD's trace analysis) operation
 * table header: name, GFLOPS_first, Data Moved (MB)_first, ..._mean. */
bool tracelens_looks_like(const char *text, size_t len);

/* A TraceLens operation table as points, one an operation row and all of
 * its name_count calls: FLOPs GFLOPS_first x 1e9, bytes Data Moved
 * (MB)_first x 2^20 (its MB are MiB: aten::mm 8944 x 2816 x 1024 in bf16
 * moves 71.0078125 of them), a call's mean Kernel Time (us; with the
 * memsets the op launched), each times the calls; the precision from
 * Compute Spec (matrix_bf16); a GEMM's shape from param: B, M, N, K, an
 * SDPA table's rows as attention. Rows without the three are left out and
 * said in w. Returns 0, or -1 with err set (no such columns, no row). */
int tracelens_points(const char *path, const char *text, size_t len, struct measured_point *points, size_t max,
                     size_t *count, struct load_warnings *w, char *err, size_t errsize);

#endif
