/* sliders.h — the explorer's knobs: what each one is called, how it shows
 * its value, how it steps, how a typed value is parsed and where its knob
 * sits on its track.
 *
 * Each function edits or reads a struct scenario and nothing else; none
 * calls analyze(). A step may produce a scenario analyze() refuses (a budget
 * below the overhead): the caller analyses it and keeps the old scenario on
 * error. No function here can produce a value outside the type's range, a
 * NaN or an infinity.
 */
#ifndef ROOFTOP_SLIDERS_H
#define ROOFTOP_SLIDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* In the order they appear on screen; the first is selected at start. */
enum slider_id {
    SLIDER_BATCH = 0,  /* concurrent sequences: powers of two */
    SLIDER_MODEL,      /* the built-in presets and the guide's sizes, by size */
    SLIDER_KV_HEADS,   /* the divisors of the head count */
    SLIDER_CHIPS,      /* chips per replica (tp x pp x ep): steps tp by powers of two */
    SLIDER_PP,         /* pipeline stages: powers of two up to the layers */
    SLIDER_EP,         /* expert-parallel groups: powers of two dividing the experts (MoE only) */
    SLIDER_PRECISION,  /* weights: bf16, fp8, fp8-block, int8, nvfp4, mxfp4, int4 (the shown order, units.h) */
    SLIDER_ACT_PRECISION, /* matmul inputs: auto, then the precisions but int4 (--act-precision) */
    SLIDER_CHIP,       /* the built-in chips, in table order */
    SLIDER_CONTEXT,    /* KV-cache tokens per request: powers of two */
    SLIDER_PREFILL,    /* prompt tokens per turn: 0 and powers of two */
    SLIDER_DECODE,     /* generated tokens per turn: 0 and powers of two */
    SLIDER_BUDGET,     /* latency budget, s: 1-2-5 series */
    SLIDER_OVERHEAD,   /* scaffolding time, s: steps of 0.05 s (coarse 0.25 s) */
    SLIDER_MFU,        /* achieved MFU during prefill: steps of 5% (coarse 25%) */
    SLIDER_KV_PRECISION, /* KV-cache elements: the seven precisions, as the precision knob (--kv-precision) */
    SLIDER_RESERVE,    /* HBM held back for the runtime, all chips: 0 and a 1-2-5 series of bytes from 1 GB (--reserve) */
    SLIDER_COUNT
};

/* The first slider to draw when only `rows` of them fit (rows >= 1) and
 * `selected` must be visible: 0 while all fit, else the least scroll that
 * shows selected at the bottom. In [0, SLIDER_COUNT - rows]. */
int slider_first_visible(int selected, int rows);

/* The slider's label ("batch", "kv heads" …); "?" outside the enum. */
const char *slider_name(enum slider_id id);

/* What a typed value may be, for the prompt ("a power of two or any whole
 * number, e.g. 64"); "" outside the enum. */
const char *slider_hint(enum slider_id id);

/* Writes the slider's current value as shown on screen ("16", "guide-70b",
 * "8 of 64", "bf16", "1.00 s", "100%") into buf (size bytes). Returns buf. */
char *slider_value_text(const struct scenario *s, enum slider_id id, char *buf, size_t size);

/* Steps slider id of *s by one notch in direction dir (> 0 up, < 0 down, 0
 * nothing); coarse takes a bigger notch (x4 for powers of two, x8 for token
 * counts, three entries of a list, a decade of the budget, 0.25 s, 25%).
 * Values off the notch grid (a batch of 3 from the command line) move to the
 * next notch in that direction. Returns true when *s changed, false at either
 * end of the range. Changing the model resets n_kv_heads to the preset's;
 * changing the chip clears the chip-figure overrides, and an activation
 * precision the new chip has no peak for (auto again). The act precision
 * knob passes over precisions the chip has no peak for; one narrower than
 * the weights it takes, and the caller's check says why it is refused. */
bool slider_step(struct scenario *s, enum slider_id id, int dir, bool coarse);

/* Parses text typed for slider id and sets it in *s. Accepts what
 * parse_number accepts ("64", "8k", "1.5T"), a preset or chip name for
 * model / chip ("h100", "llama-3.1-8b"), a parameter count for model ("35B":
 * the current shape with N given), "500ms" / "0.5 s" for times, "40%" or 0.4
 * for MFU. Returns 0, or -1 with a one-line message in err (errsize bytes)
 * and *s untouched, when the text is not a value of that slider (not a
 * number, not whole, out of range, not a divisor of the heads …) or the
 * scenario it makes does not hold together (scenario_check's message, in
 * the knobs' names: slider_message). */
int slider_set_text(struct scenario *s, enum slider_id id, const char *text, char *err, size_t errsize);

/* Puts chip c in *s as the chip knob does (the chip-figure overrides, which
 * described the old chip, are dropped, and an activation precision it has
 * no peak for goes back to auto). */
void slider_use_chip(struct scenario *s, const struct chip_spec *c);

/* Puts model m in *s as the model knob does: the shape's own parameter
 * count, and pipeline stages beyond its layers or expert groups it cannot
 * take dropped (tensor parallelism kept). */
void slider_use_model(struct scenario *s, const struct model_shape *m);

/* The size the model knob orders s's model by, in parameters: --params
 * when given, else the stated count, else the shape's total. */
double slider_model_size(const struct scenario *s);

/* Why slider id does nothing for *s, or NULL when it acts. The kv-heads
 * knob of a model with latent attention (MLA: DeepSeek-V2/V3 cache one
 * compressed latent per token, not kv heads) or without attention layers
 * (state-space or linear-attention layers keep a fixed state, not a KV
 * cache), the ep knob of a dense model. The reason, one line naming the
 * knob and the model, goes into buf (size bytes), which is returned. */
const char *slider_inert(const struct scenario *s, enum slider_id id, char *buf, size_t size);

/* Rewrites a message from the core (scenario_check, analyze, the design
 * search), which names knobs by their command-line flags ("--budget 0.2 s
 * must exceed the --overhead of 0.25 s"), to name the explorer's knobs
 * instead ("budget 0.2 s must exceed the overhead of 0.25 s"); flags that
 * have no knob are kept (they came from the command line). Writes into out
 * (size bytes) and returns it; msg and out may not overlap. */
char *slider_message(const char *msg, char *out, size_t size);

/* Where the slider's knob sits on its track, in [0, 1], by its notch: the
 * notches a step walks through sit evenly on the track (powers of two,
 * 0 and the powers of two for prompt and output tokens, a model's pipeline
 * depths up to its layer count, the 1-2-5 budgets from 1 ms to 100 s, list
 * entries, 0.05 s of overhead, 5% of MFU), so every step moves it. Values
 * beyond the track's ends (a batch over 65536, an overhead over 1 s) clamp
 * to 0 or 1. */
double slider_fraction(const struct scenario *s, enum slider_id id);

/* Sets slider id from a track position frac (clamped to [0, 1]), snapped to
 * the slider's notches. Returns true when *s changed. */
bool slider_set_fraction(struct scenario *s, enum slider_id id, double frac);

/* The column of the knob on a track of track_w cells: frac (clamped to
 * [0, 1]) of the way from the first cell to the last, rounded; 0 when the
 * track has one cell or none. A track of n notches on w >= n cells moves
 * the knob at least one column per step; with more notches than cells,
 * at least every ceil((n - 1) / (w - 1)) steps. */
int slider_thumb_column(double frac, int track_w);

/* The four above with the chips the chip slider runs through given
 * explicitly (the explorer passes the built-ins and the user's chip files);
 * the plain forms use the built-in chips. */
bool slider_step_in(struct scenario *s, enum slider_id id, int dir, bool coarse, struct chip_list chips);
int slider_set_text_in(struct scenario *s, enum slider_id id, const char *text, char *err, size_t errsize,
                       struct chip_list chips);
double slider_fraction_in(const struct scenario *s, enum slider_id id, struct chip_list chips);
bool slider_set_fraction_in(struct scenario *s, enum slider_id id, double frac, struct chip_list chips);

#endif
