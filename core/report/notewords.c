/* notewords.c — the wording of analyze()'s notes (notewords.h). */
#include "notewords.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

/* Each code's sentence, a printf format whose conversions take the note's
 * values in order (notes.h gives the kinds). */
static const char *const note_words[RT_NOTE_CODE_COUNT] = {
    [RT_NOTE_CONTEXT_PAST_MODEL] =
        "The context (%lld tokens) is past the %lld the model was built for (its max_position_embeddings): the "
        "figures are the shape's, but the model itself would not run it.",
    [RT_NOTE_CHECKPOINT_PRECISION_OVERRIDDEN] =
        "The checkpoint stores %s weights%s%s%s (its quantization config); this scenario counts %s weights and a %s "
        "KV cache instead, as the flags or knobs ask.",
    [RT_NOTE_BLOCK_SCALED_PRECISION] =
        "%s weights and activations (%s): %.4g bits a weight, %.6g bytes an activation element; the matmuls run at "
        "the %s peak.",
    [RT_NOTE_WEIGHTS_DEQUANTIZED] =
        "W%dA%d: weights stored at %.4g bits (%s) and dequantized to %s on the way into the matmuls, which run at "
        "the %s peak; activations take %.6g byte%s an element.",
    [RT_NOTE_WEIGHT_ONLY_CHECKPOINT] =
        "W%dA%d as the checkpoint stores it (a weight-only format): weights at %.4g bits (%s), matmuls at the bf16 "
        "peak.",
    [RT_NOTE_WEIGHT_ONLY_ASKED] =
        "W%dA%d as asked (--act-precision bf16): weights stored at %.4g bits (%s), matmuls at the bf16 peak "
        "(weight-only quantization).",
    [RT_NOTE_INT4_WEIGHT_ONLY] =
        "int4 is weight-only (W4A16), as LLM serving runs it: weights are stored at 4 bits and the matmuls run at "
        "the bf16 peak.",
    [RT_NOTE_NATIVE_PEAK_SLOWER] =
        "%s's %s peak (%s) is below its bf16 peak (%s): W%dA%d, weights stored at %.4g bits (%s) and the matmuls at "
        "the bf16 peak (weight-only quantization).",
    [RT_NOTE_NO_NATIVE_PEAK] =
        "%s has no native %s peak: W%dA%d, weights stored at %.4g bits (%s) and the matmuls at the bf16 peak "
        "(weight-only quantization).",
    [RT_NOTE_SPARSE_PEAKS_HALVED] =
        "%s's file gave 2:4-sparse peaks: they were halved once, on load, to the dense figures used here.",
    [RT_NOTE_CHIP_OVERRIDDEN] =
        "This scenario overrides the %s's %s: its datasheet values are not used there.",
    [RT_NOTE_MOE_ACTIVE_PARAMS] =
        "Mixture of experts: FLOPs use the %s active parameters; memory and the napkin's decode read use all %s "
        "(every expert read each step).",
    [RT_NOTE_LAYER_SCHEDULE_WINDOWED] =
        "Layer schedule: %s. Windowed and chunked layers hold at most their window of KV; KV bytes per token are "
        "quoted before any window, per request after it.",
    [RT_NOTE_LAYER_SCHEDULE] =
        "Layer schedule: %s.",
    [RT_NOTE_FIXED_STATE_LAYERS] =
        "Linear-attention and Mamba layers keep a fixed state of %s per request (%s), whatever the context; it is "
        "read and written each decode step.",
    [RT_NOTE_LATENT_ATTENTION] =
        "Latent attention: each layer caches a %lld-wide latent plus a %lld-wide rotary key per token, not full K "
        "and V.",
    [RT_NOTE_DECODE_INTENSITY_LIMIT] =
        "Decode's intensity levels off at %.1f FLOP/byte at %lld tokens, however large the batch: each request "
        "brings %s of KV to read for %s of work. The ridge is %.0f; reaching it takes %.1fx less KV a request: %s.",
    [RT_NOTE_PARAMS_SCALED_TO_SHAPE] =
        "%s parameters on a shape of %s: the detailed model scales every weight matrix to match, and keeps the "
        "shape's attention and KV cache.",
    [RT_NOTE_VECTOR_PEAK_ASSUMED] =
        "%s publishes no vector throughput: assumed 1/50 of the %stensor peak, %.3g TFLOP/s (the guide, ch. 2: "
        "vector units are 50-100x slower than matmul).",
    [RT_NOTE_NO_INTERCONNECT] =
        "%s has no interconnect figure: tensor-parallel all-reduces are not timed.",
    [RT_NOTE_TP_SPANS_DOMAINS] =
        "Tensor parallel over %lld chips spans more than one %lld-chip %s domain: its all-reduces run at the "
        "scale-out link, %s each way per chip.",
    [RT_NOTE_LAYOUT_NO_SCALE_OUT] =
        "The layout's %lld chips span more than one %lld-chip %s domain and %s publishes no scale-out figure: "
        "collectives are timed at its interconnect, which flatters them.",
    [RT_NOTE_NO_DOMAIN_SIZE] =
        "%s publishes no scale-up domain size: all %lld chips are taken to share its interconnect.",
    [RT_NOTE_TP_EXCEEDS_HEADS] =
        "Tensor parallel over %lld chips exceeds the %lld attention heads: no engine splits a head, so these "
        "figures, which divide the attention evenly, are out of reach (the guide's napkin divides the same way).",
    [RT_NOTE_TP_NOT_DIVIDING_HEADS] =
        "Tensor parallel over %lld chips does not divide the %lld attention heads: engines need it to; these figures "
        "divide the attention evenly.",
    [RT_NOTE_KV_HEADS_REPLICATED] =
        "Tensor parallel over %lld chips: the layers with fewer KV heads than chips (the fewest: %lld) copy theirs, "
        "so the KV cache per chip is %.3gx an even split, and stops shrinking as chips are added.",
    [RT_NOTE_KV_COPIED] =
        "Tensor parallel over %lld chips with %s: each KV %s is copied %.3gx, so the KV cache per chip and its read "
        "per decode step stop shrinking past %lld chip%s.",
    [RT_NOTE_EXPERT_PARALLEL_GROUPS] =
        "Expert parallel: %lld groups of %lld chips each run attention on their own share of the batch; the routed "
        "experts spread over all %lld, each MoE layer pays an all-to-all, and the busiest rank carries %.2fx the "
        "mean load%s.",
    [RT_NOTE_TRAINING_MFU_OVER_100] =
        "%.4g chip-hours imply an MFU of %.0f%%, above 100%%: no chip runs faster than its peak, so the chip-hours "
        "are too few for %.3g FLOPs (check the unit: k, M or B) or the chip's peak is too low.",
    [RT_NOTE_TRAINING_TOTALS_MFU_OVER_100] =
        "The training totals use the step's MFU of %.0f%%, above 100%% (see the MFU note): give --train-mfu for "
        "realistic chip-hours and days.",
    [RT_NOTE_MFU_HFU_OVER_100] =
        "MFU and HFU above 100%%: PaLM's model FLOPs (6N + 12 L H Q T) count attention over the whole %lld-token "
        "context, while the step runs causal attention, about half of it; compare the figures with other PaLM MFUs, "
        "not with the chip's peak.",
    [RT_NOTE_HFU_OVER_100] =
        "HFU above 100%%: the step times give the matmuls %.1f%% of the step, and %s recompute redoes %.2fx their "
        "FLOPs in that time; the matmul time measured must hold the recompute, or the split is off.",
    [RT_NOTE_FRONTEND_TIME] =
        "A served TTFT includes the %s engine's frontend time, %s a request (the API server, the tokenizer, the "
        "scheduler's queues, the way back)%s; in a saturated closed loop it takes the place of queueing (the clients "
        "are as many either way), elsewhere it adds. The turn's prefill has the scenario's --overhead instead.",
    [RT_NOTE_DISAGG_TURN_ON_DECODE_CHIPS] =
        "Disaggregated: the turn's prefill in the latency verdict is still priced on the %lld decode chips, as "
        "without --disagg; a prompt on the prefill pool reaches its first token in %s (serving.ttft_s, with the KV's "
        "move), the figure the design search ranks.",
    [RT_NOTE_MOE_EP_RANKS] =
        "Experts over %lld ranks of the stage's %lld chips (--moe-ep), each holding %.0f whole experts sliced %lld "
        "ways%s.",
    [RT_NOTE_NAPKIN_MODEL] =
        "Napkin model (the guide's ch. 5-6): prefill is 2N FLOPs per token at %.0f%% of peak; decode reads every "
        "weight once per step and ignores the KV-cache read.",
    [RT_NOTE_FLOOR_MODEL] =
        "Floor (the detailed model): each operation at max(FLOPs / its unit's peak, bytes / bandwidth), %s "
        "attention, KV-cache reads, tensor-parallel all-reduces (bandwidth only); no real run beats it.",
    [RT_NOTE_REALISTIC_MODEL] =
        "Realistic estimate: each operation through the measured kernel models (%s; %s kernels, nothing left in L2 "
        "from the previous call), plus the %s engine's%s per-pass and per-request times; the %s estimate gives the "
        "verdict.",
    [RT_NOTE_NO_SM_COUNT] =
        "%s states no SM count: the kernel models take %.0f, its bf16 peak over an H100 SM's share (7.5 TFLOP/s); "
        "give \"sm_count\" in its chip file for its own.",
    [RT_NOTE_QUANTISER_KERNEL] =
        "Quantised GEMMs (%s) in the forward pass run their input's quantiser as a kernel of its own, and both "
        "launch as plain kernels in a CUDA graph (the measured kernels, timed alone, also paid the collector's "
        "launches of its dynamic-scale kernels); only a GEMM's input is quantised: the residual stream, norms, "
        "outputs and all-reduces stay bf16.",
    [RT_NOTE_COLLECTIVES_EXTRAPOLATED] =
        "Collectives over more than %d chips are extrapolated from measurements on 2 to %d: NCCL's all-reduce with "
        "one tree level a doubling, never faster than the ring's bytes over the link (their time's band at least "
        "±%.0f%%).",
    [RT_NOTE_MFU_CONVENTION] =
        "MFU counts %s per token (--flops-convention %s), not PaLM's 6N + 12 L H Q T; compare it with MFUs counted "
        "the same way.",
    [RT_NOTE_MFU_PALM] =
        "MFU counts PaLM's 6N + 12 L H Q T per token (attention not halved, embeddings in; a windowed layer counts "
        "its window, a linear one none); the step times what a causal kernel runs, so MFU can exceed the matmul "
        "share%s.",
    [RT_NOTE_MEASURED_MFU_OVER_100] =
        "The measured training rate implies MFU above 100%% even counted causally (%.0f%%): no chip runs above its "
        "peak, so the rate, the chip count or the peak is off.",
    [RT_NOTE_MEASURED_TTFT_OVER_100] =
        "The measured time to first token implies prefill MFU above 100%%: the time or the chip figures are off.",
    [RT_NOTE_MEASURED_TPOT_OVER_100] =
        "The measured time per output token implies MBU above 100%%: the time or the chip figures are off.",
    [RT_NOTE_PIPELINE] =
        "Pipeline: %lld stages of at most %.0f layers (the embedding on the first, the LM head on the last); the "
        "prefill's %.0f micro-batch%s pay%s a bubble of (pp - 1) / m = %.2fx the ideal time (Megatron-LM; "
        "--microbatches raises m), and a decode step carries one of min(pp, sequences) micro-batches through every "
        "stage, plus the sends.",
    [RT_NOTE_SPECULATIVE] =
        "Speculative decoding: %lld drafts from %s, %s parameters (its weights beside the target's on the same "
        "chips; its KV cache not counted), run at that share of a decode step plus the engine's per-pass time; %s.",
    [RT_NOTE_TREE_VERIFICATION] =
        "Tree verification: the target scores %.0f nodes a sequence each pass (a tree over the %lld draft levels, "
        "each draft pass extending %.3g of them), not a chain's %lld; the acceptance given is the tree's.",
    [RT_NOTE_CHIPS_SEARCH_TP_ONLY] =
        "Chips for the budget are searched over tensor parallelism alone, without speculative decoding; rooftop "
        "--search tries layouts.",
    [RT_NOTE_PROMPT_PAST_CONTEXT] =
        "The prompt (%lld tokens) is longer than the context (%lld tokens): the KV cache, the requests that fit and "
        "each decode step's KV read are sized for the %lld-token context, while prefill computes over all %lld "
        "prompt tokens; memory and decode time are under-counted for this prompt (a server would cut or refuse it). "
        "Give a context of at least the prompt.",
    [RT_NOTE_BATCH_DOES_NOT_FIT] =
        "The weights, the reserve, an activation workspace of %.0f tokens and the batch's KV cache do not fit in "
        "%lld x %s of HBM, chip by chip: the turn cannot run, so the verdict is MISS; chips for the budget count the "
        "memory too.",
    [RT_NOTE_TRAINING_STATE_DOES_NOT_FIT] =
        "Training state does not fit: mixed-precision Adam needs 16 bytes a parameter, %s a chip over %lld chip%s "
        "(activations on top), against %s of HBM; %s (shard it: %.0f chips or more, or ZeRO over data parallelism, "
        "which rooftop does not model).",
};

const char *note_wording(enum rt_note_code code)
{
    return (int)code >= 0 && code < RT_NOTE_CODE_COUNT && note_words[code] ? note_words[code] : NULL;
}

/* Length of the conversion at f (f[0] == '%'): flags, width, precision,
 * length and the conversion letter; 0 when there is none. */
static size_t conversion_length(const char *f)
{
    size_t n = 1;
    while (f[n] && strchr("-+ #0", f[n]))
        n++;
    while (f[n] >= '0' && f[n] <= '9')
        n++;
    if (f[n] == '.') {
        n++;
        while (f[n] >= '0' && f[n] <= '9')
            n++;
    }
    while (f[n] == 'l' || f[n] == 'h' || f[n] == 'z')
        n++;
    return f[n] && strchr("diouxXeEfFgGaAs%", f[n]) ? n + 1 : 0;
}

bool note_conversion_takes(const char *conversion, size_t length, char kind)
{
    char c = conversion[length - 1];
    bool ll = length >= 4 && conversion[length - 3] == 'l' && conversion[length - 2] == 'l';
    switch (kind) {
    case 'i': return c == 'd' && ll;
    case 'n': return c == 'd' && !ll && conversion[length - 2] != 'l';
    case 'r': return strchr("eEfFgGaA", c) != NULL;
    case 's': case 'S': case 'c': case 't': return c == 's';
    default: return false;
    }
}

/* Appends value v formatted by spec (one conversion, checked against v's
 * kind by note_conversion_takes) to buf at *used, cut to size. The spec
 * comes from the wording table, not from input: a format that is not a
 * literal is this function's purpose. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void put_piece(char *buf, size_t size, size_t *used, const char *spec, const struct rt_note *n,
                      const struct rt_note_value *v)
{
    if (*used + 1 >= size)
        return;
    char tmp[48];
    int w;
    switch (v->kind) {
    case 'i': w = snprintf(buf + *used, size - *used, spec, v->i); break;
    case 'n': w = snprintf(buf + *used, size - *used, spec, (int)v->i); break;
    case 'r': w = snprintf(buf + *used, size - *used, spec, v->r); break;
    case 's': w = snprintf(buf + *used, size - *used, spec, n->text + v->text); break;
    case 'S': w = snprintf(buf + *used, size - *used, spec, format_si(tmp, sizeof tmp, v->r, v->unit)); break;
    case 'c': w = snprintf(buf + *used, size - *used, spec, format_count(tmp, sizeof tmp, v->r)); break;
    default: w = snprintf(buf + *used, size - *used, spec, format_seconds(tmp, sizeof tmp, v->r)); break;
    }
    if (w > 0)
        *used = *used + (size_t)w < size ? *used + (size_t)w : size - 1;
}
#pragma GCC diagnostic pop

char *note_text(char *buf, size_t size, const struct rt_note *n)
{
    if (!size)
        return buf;
    buf[0] = '\0';
    const char *f = note_wording(n->code);
    if (!f || n->argc < 0) {
        snprintf(buf, size, "(rooftop bug: the note %s was recorded with values its wording does not take)",
                 note_code_name(n->code));
        return buf;
    }
    size_t used = 0;
    int k = 0;
    while (*f && used + 1 < size) {
        if (*f != '%') {
            const char *next = strchr(f, '%');
            size_t len = next ? (size_t)(next - f) : strlen(f);
            size_t room = size - 1 - used;
            memcpy(buf + used, f, len < room ? len : room);
            used += len < room ? len : room;
            f += len;
            continue;
        }
        size_t len = conversion_length(f);
        if (len == 2 && f[1] == '%') {
            buf[used++] = '%';
            f += 2;
            continue;
        }
        char spec[16];
        if (!len || len >= sizeof spec || k >= n->argc || !note_conversion_takes(f, len, n->argv[k].kind)) {
            snprintf(buf, size, "(rooftop bug: the note %s's wording does not match its values)",
                     note_code_name(n->code));
            return buf;
        }
        memcpy(spec, f, len);
        spec[len] = '\0';
        put_piece(buf, size, &used, spec, n, &n->argv[k++]);
        f += len;
    }
    buf[used < size ? used : size - 1] = '\0';
    return buf;
}
