/* fuzz_kerneltable.c — libFuzzer harness: any bytes as a measured kernel
 * table (kerneltable.h: AIConfigurator's gemm_perf.csv, the attention, MLA,
 * MoE, all-reduce and NCCL tables), as --validate and --calibrate read them.
 * The reader must give rows or one error, never crash, leak or read past
 * the text; each row it keeps must have a positive, finite time, and its
 * flags (kernel_row_args) must fit. Seeds: the heads of six tables of the
 * test fixtures (H100 TensorRT-LLM, vLLM, NCCL). The path names a system
 * folder so that the chip is found as it is for a real file. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "kerneltable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kernel_row *rows = NULL;
    size_t n = 0;
    char err[512];
    static const char *const paths[] = {"h100_sxm/trtllm/gemm_perf.csv", "h100_sxm/nccl/nccl_perf.csv",
                                        "fuzz.csv"};
    const char *path = paths[size % 3];
    if (kernel_table_read(path, (const char *)data, size, &rows, &n, err, sizeof err) != 0) {
        if (rows)
            abort(); /* a failed read leaves nothing behind */
        return 0;
    }
    static char args[64][400];
    for (size_t i = 0; i < n; i++) {
        if (!rows[i].skipped[0] && !(rows[i].obs.measured_s > 0.0 && isfinite(rows[i].obs.measured_s)))
            abort(); /* a row kept for prediction without a time */
        int k = kernel_row_args(&rows[i], args, 64);
        if (k < 0 || k > 64)
            abort();
    }
    free(rows);
    return 0;
}
