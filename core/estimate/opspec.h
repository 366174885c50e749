/* opspec.h — one operation by its shape, as a flag: `--op KIND:KEY=VALUE,...`.
 *
 *   gemm:m=8192,n=8192,k=8192[,format=fp8]
 *   attention:batch=4,seq=1024,heads=32,kv_heads=8,head_dim=128[,window=4096]
 *   decode-attention:batch=64,kv_len=8192,heads=32,kv_heads=8,head_dim=128
 *   mla:batch=1,seq=4096,heads=128        decode-mla:batch=64,kv_len=8192,heads=128
 *   moe:tokens=512,hidden=4096,inter=14336,topk=2,experts=8[,tp=1,ep=1,skew=1.2]
 *   all-reduce:bytes=16M,gpus=8           (the engine's own; nccl-all-reduce,
 *   all-gather, reduce-scatter, all-to-all are NCCL's)
 * Common keys: format= (a kernel format, kernels.h: bfloat16, fp8,
 * fp8_block, nvfp4, mxfp4, sq, int8_wo, int4_wo, w4a16_mxfp4,
 * w4a8_mxfp4_mxfp8; attention: bfloat16 or fp8 compute), kv=bf16|fp8 (the
 * KV cache), kernel=NAME (the kernel library, kernels.h families: deepgemm,
 * cutlass, flashinfer, fa3, triton, graph, eager ...; default: the engine's usual
 * one), cache=warm|cold (warm: timed alone and repeatedly, as a
 * benchmark does, so operands that fit in L2 are read from it; cold, the
 * default: as inside a forward pass). Numbers take rooftop's suffixes (8k,
 * 16M). A key left out takes the scenario's figure (the model's heads, kv
 * heads, head dim, widths and experts, the batch, the prompt or the
 * context, the chips; a GEMM is the guide's 8192 x 8192 x 8192 of ch. 3).
 * Pure: no I/O.
 */
#ifndef ROOFTOP_OPSPEC_H
#define ROOFTOP_OPSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels.h"

/* Which keys an op spec gave (so that the scenario fills the others). */
struct op_spec {
    bool set;                  /* an operation was asked for */
    struct kernel_shape shape; /* as given; 0 where the scenario fills in */
    bool format_given, kv_given;
};

#define RT_OP_SPEC_MAX 320

/* Parses text ("KIND[:KEY=VALUE,...]") into *out. Returns 0, or -1 with
 * one line in err naming the kind, key or value it refuses and what is
 * accepted (unknown keys are named, with the kind's keys). */
int op_spec_parse(const char *text, struct op_spec *out, char *err, size_t errsize);

/* Writes spec back as op_spec_parse reads it, the given keys only, into
 * buf (RT_OP_SPEC_MAX is enough). Returns buf. */
char *op_spec_format(char *buf, size_t size, const struct op_spec *spec);

#endif
