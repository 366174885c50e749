/* opknobs.h — the knobs of the operation view (rooftop --op): one
 * operation's dimensions (a GEMM's m, n and k; an attention's batch,
 * sequence, heads and head width; a MoE layer's tokens, widths and
 * routing; a collective's bytes and chips), its number format and KV
 * precision, the chip and the serving engine.
 *
 * Which knobs an operation has depends on its kind (op_knob_list). Each
 * function reads or edits a struct scenario and nothing else; none calls
 * analyze(). The values shown and stepped from are the resolved shape
 * analyze() filled in (analysis.operation.shape), since a dimension the
 * spec left out is the scenario's (the model's heads, the batch); a knob
 * that moves writes its value into scenario.op.shape, where analyze()
 * keeps it as given. Dimensions step by powers of two, from 1 (a window
 * from 0, full attention) to 2^40, as --op accepts them.
 */
#ifndef ROOFTOP_OPKNOBS_H
#define ROOFTOP_OPKNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels.h"
#include "scenario.h"

enum op_knob {
    OPK_M = 0, OPK_N, OPK_K,                                                /* GEMM */
    OPK_BATCH, OPK_SEQ, OPK_KV_LEN, OPK_HEADS, OPK_KV_HEADS, OPK_HEAD_DIM,  /* attention */
    OPK_WINDOW,                                                             /* attention: 0 = full */
    OPK_TOKENS, OPK_HIDDEN, OPK_INTER, OPK_TOPK, OPK_EXPERTS, OPK_TP, OPK_EP, /* MoE */
    OPK_BYTES, OPK_GPUS,                                                    /* collectives */
    OPK_FORMAT,  /* the kernel format (kernels.h): GEMM and MoE all of them, prefill attention bf16 or fp8 */
    OPK_KV,      /* attention's KV cache: bf16 or fp8 */
    OPK_CHIP,    /* the chips the explorer's chip knob runs through */
    OPK_ENGINE,  /* the built-in serving engines (realistic.h): whose kernels */
    OPK_COUNT
};

/* Most knobs one kind has. */
#define OP_KNOBS_MAX 12

/* The knobs of an operation of kind k, in the order shown, into out
 * (OP_KNOBS_MAX entries). Returns their count (at least the chip and the
 * engine; an unknown kind gets those alone). */
int op_knob_list(enum rt_kernel_kind k, enum op_knob out[OP_KNOBS_MAX]);

/* The knob's label ("m", "kv heads", "format" ...; at most 9 columns);
 * "?" outside the enum. */
const char *op_knob_name(enum op_knob id);

/* What a typed value may be, for the prompt ("a whole number, e.g. 8192
 * or 8k"); "" outside the enum. */
const char *op_knob_hint(enum op_knob id);

/* The knob's value as shown, from the resolved shape r (analysis.operation
 * .shape) and the scenario s: "8192", "131k", "16.8 MB", "full",
 * "bfloat16", "fp8", "h100", "vllm". Returns buf. */
char *op_knob_value_text(const struct scenario *s, const struct kernel_shape *r, enum op_knob id, char *buf,
                         size_t size);

/* Steps knob id one notch in direction dir (> 0 up, < 0 down), or two
 * (x4) for a dimension and three entries of a list when coarse, from r's
 * value (a value off the powers of two moves to the next one in that
 * direction; a window steps 1, 2, 4 ... and past the sequence to full, 0).
 * A dimension or a format goes into s->op (given, so analyze() keeps it);
 * the chip as the chip knob sets it, from chips; the engine from the
 * built-in ones. Returns true when *s changed, false at either end. */
bool op_knob_step(struct scenario *s, const struct kernel_shape *r, enum op_knob id, int dir, bool coarse,
                  struct chip_list chips);

/* Parses text typed for knob id into *s: a dimension as --op reads it (a
 * whole number with rooftop's suffixes, "8192", "8k", "16M", "1GiB"; a
 * window 0 or "full"), a format of the kind (kernel_format_parse's names),
 * "bf16" or "fp8" for kv, a chip name, an engine name. Returns 0, or -1
 * with one line in err (naming the knob, what was typed and what is
 * accepted) and *s untouched. */
int op_knob_set_text(struct scenario *s, const struct kernel_shape *r, enum op_knob id, const char *text,
                     char *err, size_t errsize, struct chip_list chips);

/* Where the knob's thumb sits on its track, in [0, 1]: a dimension by its
 * power of two over the knob's usual range (m from 1 to 65536, seq from 1
 * to 1M ...; beyond it clamps), a list by its entry. */
double op_knob_fraction(const struct scenario *s, const struct kernel_shape *r, enum op_knob id,
                        struct chip_list chips);

/* Sets knob id from a track position frac (clamped to [0, 1]), snapped to
 * its notches, as op_knob_step writes it. Returns true when *s changed. */
bool op_knob_set_fraction(struct scenario *s, const struct kernel_shape *r, enum op_knob id, double frac,
                          struct chip_list chips);

#endif
