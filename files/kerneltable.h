/* kerneltable.h — measured kernel tables read as they are written:
 * AIConfigurator's CSV columns (github:ai-dynamo/aiconfigurator,
 * systems/data/; the shared data/kernels/ README lists them), one kernel
 * per row, its latency in milliseconds.
 *
 * The table's kind is told by its header: gemm_dtype (GEMM), op_name
 * context_attention / generation_attention, context_mla / mla_context and
 * generation_mla / mla_generation, moe_dtype (a fused MoE layer),
 * allreduce_dtype (the engine's own all-reduce), nccl_dtype (NCCL's
 * collectives by op_name). The chip is the table's system (the folder two
 * above it, SYSTEM/ENGINE/TABLE.csv) or, failing that, its device column;
 * the engine its framework column. Semantics that are not in the column
 * names: a generation step attends to isl + step tokens (the collectors
 * write isl 1 and the tokens already cached in step); a MoE layer's
 * distribution power_law_A is token skew with exponent A; a collective's
 * message_size counts elements of its dtype (AIConfigurator's
 * collect_all_reduce.py builds [size / 4096, 4096] tensors), so its bytes
 * are size x 2 for bf16/half, x 1 for int8.
 */
#ifndef ROOFTOP_KERNELTABLE_H
#define ROOFTOP_KERNELTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "chips.h"
#include "kernelfit.h"
#include "calibrate.h"
#include "csv.h"

#define RT_KROW_SOURCE_MAX 96
#define RT_KROW_SKIP_MAX 160

/* One measured kernel of a table. */
struct kernel_row {
    int line;                          /* line of the file */
    struct kernel_obs obs;             /* its shape and measured time */
    char chip[RT_CHIP_KEY_MAX];        /* rooftop's key for the chip; "" with skipped set when none */
    char system[32];                   /* the system as the table names it ("h100_sxm") */
    enum rt_kernel_engine engine;      /* whose kernels (NCCL rows: trtllm, unused) */
    char source[RT_KROW_SOURCE_MAX];   /* kernel_source as written */
    char table[32];                    /* "gemm_perf", ... (the file's name without .csv), or the kind */
    char skipped[RT_KROW_SKIP_MAX];    /* non-empty: why the row cannot be predicted */
};

/* True when a CSV header row (its fields) is a kernel table's. */
bool kernel_table_header(char fields[][CSV_FIELD_MAX], int count);

/* Reads a kernel table (text, len bytes; path for messages and for the
 * system's folder name) into a new array of rows (free it). Returns 0 with
 * *out and *count; -1 with "PATH:LINE: ..." in err for a file that is not a
 * kernel table, a missing column, or a value that is not a positive number
 * (a row the model cannot express is kept, with skipped saying why). */
int kernel_table_read(const char *path, const char *text, size_t len, struct kernel_row **out, size_t *count,
                      char *err, size_t errsize);

/* rooftop's chip key for a system or device name as the tables write them
 * ("h100_sxm", "NVIDIA H100 80GB HBM3" -> "h100"); NULL when none. */
const char *kernel_table_chip(const char *system_or_device);

/* The rooftop flags that describe row r (--chip, --engine, --op ...), one
 * argument each, into args[0..max) (each at most 400 bytes); returns how
 * many, or 0 for a skipped row. */
int kernel_row_args(const struct kernel_row *r, char args[][400], int max);

#endif
