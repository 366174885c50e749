/* notes.h — what analyze() noticed, as a code and its values. analyze()
 * records a note (note_record); the edges word it (core/report/notewords.h:
 * note_text), so the core computes and formats nothing, and a script reads
 * the codes in the JSON report (note_codes[]). */
#ifndef ROOFTOP_NOTES_H
#define ROOFTOP_NOTES_H

#include <stdint.h>

/* Each note: its code, its name in the JSON report, and the kinds of its
 * values in order (the signature):
 *   i  a whole number (long long), worded %lld
 *   n  a small whole number (int), worded %d
 *   r  a real number (double), worded by any floating conversion
 *   s  text (copied into the note), worded %s
 *   S  a value with an SI prefix and a unit (format_si), worded %s
 *   c  a count with an SI prefix (format_count), worded %s
 *   t  seconds (format_seconds), worded %s
 * Adding a note is a row here and its wording in notewords.c; a test checks
 * that every wording's conversions match its row's signature. */
#define RT_NOTE_CODES(X) \
    X(CONTEXT_PAST_MODEL, "context_past_model", "ii") \
    X(CHECKPOINT_PRECISION_OVERRIDDEN, "checkpoint_precision_overridden", "ssssss") \
    X(BLOCK_SCALED_PRECISION, "block_scaled_precision", "ssrrs") \
    X(WEIGHTS_DEQUANTIZED, "weights_dequantized", "nnrsssrs") \
    X(WEIGHT_ONLY_CHECKPOINT, "weight_only_checkpoint", "nnrs") \
    X(WEIGHT_ONLY_ASKED, "weight_only_asked", "nnrs") \
    X(INT4_WEIGHT_ONLY, "int4_weight_only", "") \
    X(NATIVE_PEAK_SLOWER, "native_peak_slower", "ssSSnnrs") \
    X(NO_NATIVE_PEAK, "no_native_peak", "ssnnrs") \
    X(SPARSE_PEAKS_HALVED, "sparse_peaks_halved", "s") \
    X(CHIP_OVERRIDDEN, "chip_overridden", "ss") \
    X(MOE_ACTIVE_PARAMS, "moe_active_params", "cc") \
    X(LAYER_SCHEDULE_WINDOWED, "layer_schedule_windowed", "s") \
    X(LAYER_SCHEDULE, "layer_schedule", "s") \
    X(FIXED_STATE_LAYERS, "fixed_state_layers", "Ss") \
    X(LATENT_ATTENTION, "latent_attention", "ii") \
    X(DECODE_INTENSITY_LIMIT, "decode_intensity_limit", "riSSrrs") \
    X(PARAMS_SCALED_TO_SHAPE, "params_scaled_to_shape", "cc") \
    X(VECTOR_PEAK_ASSUMED, "vector_peak_assumed", "ssr") \
    X(NO_INTERCONNECT, "no_interconnect", "s") \
    X(TP_SPANS_DOMAINS, "tp_spans_domains", "iisS") \
    X(LAYOUT_NO_SCALE_OUT, "layout_no_scale_out", "iiss") \
    X(NO_DOMAIN_SIZE, "no_domain_size", "si") \
    X(TP_EXCEEDS_HEADS, "tp_exceeds_heads", "ii") \
    X(TP_NOT_DIVIDING_HEADS, "tp_not_dividing_heads", "ii") \
    X(KV_HEADS_REPLICATED, "kv_heads_replicated", "iir") \
    X(KV_COPIED, "kv_copied", "issris") \
    X(EXPERT_PARALLEL_GROUPS, "expert_parallel_groups", "iiirs") \
    X(TRAINING_MFU_OVER_100, "training_mfu_over_100", "rrr") \
    X(TRAINING_TOTALS_MFU_OVER_100, "training_totals_mfu_over_100", "r") \
    X(MFU_HFU_OVER_100, "mfu_hfu_over_100", "i") \
    X(HFU_OVER_100, "hfu_over_100", "rsr") \
    X(FRONTEND_TIME, "frontend_time", "sts") \
    X(DISAGG_TURN_ON_DECODE_CHIPS, "disagg_turn_on_decode_chips", "is") \
    X(MOE_EP_RANKS, "moe_ep_ranks", "iiris") \
    X(NAPKIN_MODEL, "napkin_model", "r") \
    X(FLOOR_MODEL, "floor_model", "s") \
    X(REALISTIC_MODEL, "realistic_model", "sssss") \
    X(NO_SM_COUNT, "no_sm_count", "sr") \
    X(QUANTISER_KERNEL, "quantiser_kernel", "s") \
    X(COLLECTIVES_EXTRAPOLATED, "collectives_extrapolated", "nnr") \
    X(MFU_CONVENTION, "mfu_convention", "ss") \
    X(MFU_PALM, "mfu_palm", "s") \
    X(MEASURED_MFU_OVER_100, "measured_mfu_over_100", "r") \
    X(MEASURED_TTFT_OVER_100, "measured_ttft_over_100", "") \
    X(MEASURED_TPOT_OVER_100, "measured_tpot_over_100", "") \
    X(PIPELINE, "pipeline", "irrssr") \
    X(SPECULATIVE, "speculative", "iscs") \
    X(TREE_VERIFICATION, "tree_verification", "riri") \
    X(CHIPS_SEARCH_TP_ONLY, "chips_search_tp_only", "") \
    X(PROMPT_PAST_CONTEXT, "prompt_past_context", "iiii") \
    X(BATCH_DOES_NOT_FIT, "batch_does_not_fit", "ris") \
    X(TRAINING_STATE_DOES_NOT_FIT, "training_state_does_not_fit", "SisSsr")

enum rt_note_code {
#define RT_NOTE_ENUM(code, name, signature) RT_NOTE_##code,
    RT_NOTE_CODES(RT_NOTE_ENUM)
#undef RT_NOTE_ENUM
    RT_NOTE_CODE_COUNT
};

/* One value handed to note_record: kind is a signature letter; i for i and
 * n, r for r, S, c and t, s for s (text, copied) and S (its unit, a string
 * of static storage such as a literal). */
struct rt_note_arg {
    char kind;
    long long i;
    double r;
    const char *s;
};

#define NOTE_INT(x) ((struct rt_note_arg){.kind = 'i', .i = (long long)(x)})
#define NOTE_SMALL(x) ((struct rt_note_arg){.kind = 'n', .i = (long long)(x)})
#define NOTE_REAL(x) ((struct rt_note_arg){.kind = 'r', .r = (double)(x)})
#define NOTE_TEXT(x) ((struct rt_note_arg){.kind = 's', .s = (x)})
#define NOTE_SI(x, unit) ((struct rt_note_arg){.kind = 'S', .r = (double)(x), .s = (unit)})
#define NOTE_COUNT(x) ((struct rt_note_arg){.kind = 'c', .r = (double)(x)})
#define NOTE_SECONDS(x) ((struct rt_note_arg){.kind = 't', .r = (double)(x)})

#define RT_NOTE_ARGS_MAX 8
#define RT_NOTE_TEXT_MAX 320

/* A recorded note. argc is -1 when the values given did not match the
 * code's signature (a bug: the wording says so rather than guess). */
struct rt_note {
    enum rt_note_code code;
    int argc;
    struct rt_note_value {
        char kind;             /* a signature letter */
        uint16_t text;         /* s: offset of its text in text[] */
        long long i;           /* i, n */
        double r;              /* r, S, c, t */
        const char *unit;      /* S: the unit (static storage) */
    } argv[RT_NOTE_ARGS_MAX];
    char text[RT_NOTE_TEXT_MAX]; /* the text values, each NUL-terminated */
};

/* Records note `code` with its argc values into *out: values copied, text
 * into out->text (cut to fit). argc and each value's kind must match the
 * code's signature; when they do not, out->argc is -1 and the note words
 * itself as a bug. Returns 0, or -1 on a mismatch or an unknown code. */
int note_record(struct rt_note *out, enum rt_note_code code, const struct rt_note_arg *args, int argc);

/* The code's name in the JSON report ("frontend_time"), or "unknown". */
const char *note_code_name(enum rt_note_code code);

/* The code's signature (the letters above), or "" for an unknown code. */
const char *note_code_signature(enum rt_note_code code);

#endif
