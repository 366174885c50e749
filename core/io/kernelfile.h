/* kernelfile.h — a chip file's "kernels" block (kernels.h), read and written:
 *
 *   "kernels": {"from": "h100", "from2": "", "measured": false, "sibling": true,
 *               "compute_derate": 1, "memory_derate": 1, "l2_bytes": 50e6,
 *               "source": "why these fits",
 *               "fits": [{"kind": "gemm", "engine": "trtllm", "format": "bfloat16",
 *                         "kv": "bf16", "kernel": "default", "rows": 655,
 *                         "cv_error_fraction": 0.129,
 *                         "params": {"peak_fraction": 0.80, "launch_s": 4.4e-6, ...}}]}
 *
 * "from" borrows a measured chip's built-in fits; "fits" are the chip's own
 * (--calibrate --write-chip writes them). Every key is optional; unknown
 * keys, at every depth, are named in a warning; a constant outside its
 * range (kernel_param_range) or an unknown kind, engine or format is an
 * error naming it. Pure: no I/O.
 */
#ifndef ROOFTOP_KERNELFILE_H
#define ROOFTOP_KERNELFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "jsonio.h"
#include "kernels.h"

/* Reads obj (the "kernels" object) into *out. Returns 0, or -1 with
 * "PATH: 'kernels.KEY' ..." in err. */
int kernels_from_json(const cJSON *obj, const char *path, struct kernel_profile *out, struct load_warnings *w,
                      char *err, size_t errsize);

/* Writes p into obj as kernels_from_json reads it. */
void kernels_to_json(cJSON *obj, const struct kernel_profile *p);

#endif
