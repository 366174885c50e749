/* cli.c — getopt_long over the flag contract: the flags into struct
 * cli_options (the scenario, the mode and its files). The modes run in
 * commands.c; the readers of measurement files (validate.c, measured.c,
 * kernelcal.c) parse their rows' flags here, so this file calls none of
 * them. */
#include "cli.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "knobs.h"
#include "scenariofile.h"
#include "suggest.h"
#include "textsafe.h"
#include "tourview.h"
#include "userfiles.h"
#include "themes_builtin.h"

static const char usage_text[] =
    "Usage: rooftop [MODE] [SCENARIO FLAGS]\n"
    "A terminal roofline explorer: where prefill, decode and training sit on a\n"
    "chip's roofline, the latency of a turn against a budget, chips needed, KV\n"
    "cache and MFU budget; the guide's napkin, the roofline floor and a realistic\n"
    "estimate side by side.\n"
    "\n"
    "Modes:\n"
    "  (none)              the explorer (the text report when not on a terminal)\n"
    "  --report[=text|json|markdown|csv]  print the analysis (csv: the placement\n"
    "                      table); --plot adds the roofline as text (text, markdown)\n"
    "  --sweep=chips|params|batch|kv-heads  vary one knob over --values\n"
    "      --values LIST   comma-separated, e.g. 1,4,16,64 or 70B,35B,17B,8B\n"
    "      --format=text|csv|json|markdown  sweep output format         [text]\n"
    "  --diff A.json B.json  every input and figure that differs between two\n"
    "                      saved scenarios (--format=text|markdown|json)\n"
    "  --baseline FILE --format=F  the same, FILE against the flags' scenario\n"
    "  --list-chips        known chips with dense peaks (--format=json adds\n"
    "                      sources); files in $XDG_CONFIG_HOME/rooftop/chips/ join\n"
    "  --list-models       built-in model shapes and parameter counts\n"
    "  --list-themes       colour themes for the explorer, and where each comes from\n"
    "  --calibrate FILE    fit the --chip's efficiency profile to measurements;\n"
    "                      --write-chip FILE saves it; --calibrate-scope all fits\n"
    "                      the generic profile and the engines instead; a kernel\n"
    "                      table or a folder of them fits the kernel models\n"
    "                      (--write-profiles FILE: the compiled-in table)\n"
    "  --validate FILE|DIR every measured row predicted, against its measurement\n"
    "                      (kernel tables, cases.csv, serving runs.csv with its\n"
    "                      models.csv; --format=text|markdown|json)\n"
    "  -h, --help          this text\n"
    "  -V, --version       the version\n"
    "\n"
    "Scenario flags (every mode; numbers take 70e9, 70B, 1.5T, 8k, 16GiB; k is\n"
    "1000 for parameters and bytes, 1024 for token counts: --context 8k is 8192):\n"
    "  --chip NAME|PATH    chip (--list-chips: h100, \"TPU v5e\") or a chip file\n"
    "                                                                   [tpu-v5e]\n"
    "  --scenario FILE     start from a saved scenario (flags still override it)\n"
    "  --write-scenario FILE  save the scenario, then run the mode (if any)\n"
    "  --baseline FILE     explorer: pin a saved scenario to compare against (b)\n"
    "  --tour [NAME|PATH]  explorer: a guided tour, guess then see (T); alone the\n"
    "                      built-in one, else $XDG_DATA_HOME/rooftop/tours/NAME.json\n"
    "  --chips N           chips serving one replica                          [1]\n"
    "  --peak-flops F      override the chip's peak at the compute precision\n"
    "  --hbm-bw B          override the chip's memory bandwidth, bytes/s\n"
    "  --hbm-bytes B       override the chip's memory capacity, bytes\n"
    "  --model NAME|PATH   model shape (--list-models), or a HuggingFace\n"
    "                      config.json or its folder                  [guide-70b]\n"
    "  --params N          parameter count on its own (dense), e.g. 70e9\n"
    "  --layers N --heads N --kv-heads N --d-model N --d-head N --d-ff N\n"
    "  --vocab N           change the model's shape (kv heads divide heads); a\n"
    "                      stated count (guide-70b's 70e9) gives way to the shape's\n"
    "  --gated | --plain-mlp  three-matrix gated MLP (SwiGLU) or two-matrix (GELU)\n"
    "  --tied | --untied   LM head shares the embedding, or has its own\n"
    "  --window N          every attention layer a window of N tokens (0: full)\n"
    "  --batch N           concurrent sequences                               [1]\n"
    "  --precision P       weights (and matmuls): bf16, fp8, fp8-block, int8,\n"
    "                      nvfp4, mxfp4, int4                              [bf16]\n"
    "  --act-precision A   matmul inputs: auto (the weights' where the chip\n"
    "                      runs them natively, else bf16), bf16, fp8,\n"
    "                      fp8-block, int8, nvfp4, mxfp4 (W4A8: --precision\n"
    "                      mxfp4 --act-precision fp8)                      [auto]\n"
    "  --kv-precision P    KV-cache elements (any of --precision's)        [bf16]\n"
    "  --context N         tokens in each request's KV cache               [8192]\n"
    "  --prefill-tokens N  prompt tokens per request this turn             [8192]\n"
    "  --decode-tokens N   tokens generated per request this turn           [128]\n"
    "  --budget S          latency budget of one turn, seconds              [1.0]\n"
    "  --overhead S        scaffolding time inside the budget, seconds     [0.25]\n"
    "  --reserve BYTES     HBM held back for the runtime, all chips             [0]\n"
    "  --mfu F             the napkin's achieved fraction of peak, (0, 1]   [1.0]\n"
    "  --max-chips N       largest chip count the budget search tries     [65536]\n"
    "  --tile N            matmul tile for tile efficiency                  [128]\n"
    "  --estimate napkin|floor|realistic  which estimate gives the verdict; all\n"
    "                      three are always reported                [realistic]\n"
    "  --napkin            the guide's latency model, exactly (its tables need it)\n"
    "  --detailed          the roofline floor: every operation at its roof\n"
    "  --engine NAME|FILE  serving engine of the realistic estimate: vllm, trtllm,\n"
    "                      sglang, lmdeploy, llama.cpp, nim, pytorch    [generic]\n"
    "  --points FILE       measured kernels placed on the roof: label,flops,bytes,\n"
    "                      seconds[,precision], an Nsight Compute CSV, a TraceLens\n"
    "                      table, a rocprof-compute pmc_perf.csv or a PyTorch\n"
    "                      profiler trace (.json[.gz])\n"
    "  --step-times MATMUL,VECTOR,MEMORY,COMMS,OPTIMIZER\n"
    "                      seconds of a training step: gives the MFU budget\n"
    "  --recompute none|selective|full|FRACTION  activation recompute in training:\n"
    "                      HFU counts it (full = 8/6 of MFU)               [none]\n"
    "  --attention fused|unfused  attention keeps scores on chip, or not [fused]\n"
    "  --dp N              replicas, each with its own batch (--data-parallel) [1]\n"
    "Serving layout (a replica is tp x pp x ep chips; --chips alone is tp):\n"
    "  --tp N --pp N --ep N  tensor, pipeline and expert parallel degrees\n"
    "  --microbatches N    prefill micro-batches through the pipeline [batch]\n"
    "  --ep-imbalance F    busiest expert rank's load over the mean       [1.0]\n"
    "  --activation-tokens N  tokens the activation workspace holds [prompt,8k]\n"
    "  --spec-tokens K --spec-accept A  speculative decoding: K drafts a pass,\n"
    "                      each accepted with probability A, or A1,A2,...,AK\n"
    "                      by position (draft i's chance once those before it were)\n"
    "  --spec-verify N     tokens a sequence the target verifies a pass: a tree\n"
    "                      of N nodes (Medusa, EAGLE-2)                [K + 1]\n"
    "  --spec-draft MODEL|N  the draft (a built-in model or a parameter count;\n"
    "                      default: an MTP head, one layer of the target)\n"
    "  --disagg P:D        prefill on its own P chips, decode on D\n"
    "  --prefill-tp N --prefill-dp N  each prefill worker's tensor-parallel and\n"
    "                      attention-DP degrees (workers: P / (tp x dp)) [derived]\n"
    "  --prefill-moe-ep N  each prefill worker's experts over N of its chips\n"
    "                      (as --moe-ep) [0: over tp x dp when dp > 1, else\n"
    "                      sliced over tp]\n"
    "  --moe-ep N          the experts' ranks over a stage's tp x ep chips (TRT-LLM\n"
    "                      moe_ep_size); they need not divide the experts\n"
    "                      [0: all tp x ep when ep > 1, else none]\n"
    "Serving load (continuous batching; --batch clients in a closed loop):\n"
    "  --concurrency N     the same as --batch: closed-loop clients a replica\n"
    "  --arrival-rate R    an open loop instead: R requests/s a replica; mean,\n"
    "                      p50, p90, p99                           [0: closed]\n"
    "  --max-num-tokens N  the engine's token budget a step (= --activation-tokens)\n"
    "                                                              [0: 8192]\n"
    "  --bench-rounds R    a benchmark sends R x concurrency requests      [10]\n"
    "  --prefix-cache F    share of each prompt in the prefix cache, [0, 0.99] [0]\n"
    "  --ttft-target S --tpot-target S  serving targets on the means, seconds\n"
    "  --search            enumerate layouts, batches and precisions up to\n"
    "                      --max-chips: the Pareto frontier and the fewest chips\n"
    "Training, measurements, cost:\n"
    "  --comm-overlap F    share of training communication hidden, [0, 1]     [0]\n"
    "  --measured-train-tokens-per-s X  a real run's rate: its MFU and HFU\n"
    "  --measured-ttft-s S a real time to first token: the prefill's MFU\n"
    "  --measured-tpot-s S a real time per output token: the decode's MBU\n"
    "  --price-per-chip-hour USD  for $ per million output tokens  [the chip's]\n"
    "  --power-w W         power per chip, for joules per token   [the chip's TDP]\n"
    "  --pue F             data-centre power usage effectiveness, [1, 3]    [1.0]\n"
    "  --train-tokens N    a whole run: its FLOPs, chip-hours and days, at\n"
    "                      --train-mfu F, else the step's (or measured) MFU\n"
    "  --train-chip-hours H  a published run's chip-hours: the MFU they imply\n"
    "  --flops-convention palm|megatron|6n|causal  model FLOPs for MFU  [palm]\n"
    "One operation, and whose kernel fits:\n"
    "  --op KIND[:K=V,...] one operation by its shape instead of a model (a key\n"
    "                      left out: the scenario's; a GEMM 8192^3), e.g.\n"
    "                      gemm:m=1,n=4096,k=4096; attention, decode-attention,\n"
    "                      mla, decode-mla, moe, all-reduce, all-gather,\n"
    "                      reduce-scatter, all-to-all\n"
    "  --kernels-from CHIP another measured chip's kernel fits (a borrowed profile)\n"
    "Explorer flags:\n"
    "  --ascii             no braille or line drawing, even in a UTF-8 locale\n"
    "  --no-color          monochrome (also when NO_COLOR is set)\n"
    "  --theme NAME|PATH   colour theme (--list-themes; 't' cycles them)\n"
    "                      [dark, or light on a light background]\n"
    "  --background light|dark  the terminal's background, for the theme\n"
    "                      [asked of the terminal: COLORFGBG, OSC 11]\n"
    "  --present           start in the presentation view (P toggles it)\n"
    "\n"
    "Examples:\n"
    "  rooftop --napkin --sweep=chips        the guide's napkin, 70B on TPU v5e\n"
    "  rooftop --report=json --chip h100 --chips 8 --model llama-3.1-70b\n"
    "  rooftop --sweep=kv-heads --batch 32   KV cache for 64, 8 and 1 kv heads\n"
    "Exit status: 0 success, 1 failure, 2 bad usage.\n";

const char *cli_usage(void)
{
    return usage_text;
}

enum {
    OPT_REPORT = 256, OPT_SWEEP, OPT_VALUES, OPT_FORMAT, OPT_LIST_CHIPS, OPT_LIST_MODELS, OPT_CHIP, OPT_CHIPS,
    OPT_PEAK, OPT_HBM_BW, OPT_HBM_BYTES, OPT_MODEL, OPT_PARAMS, OPT_LAYERS, OPT_HEADS, OPT_KV_HEADS, OPT_D_MODEL,
    OPT_D_HEAD, OPT_D_FF, OPT_VOCAB, OPT_BATCH, OPT_PRECISION, OPT_KV_PRECISION, OPT_CONTEXT, OPT_PREFILL,
    OPT_DECODE, OPT_BUDGET, OPT_OVERHEAD, OPT_RESERVE, OPT_MFU, OPT_MAX_CHIPS, OPT_TILE, OPT_STEP_TIMES,
    OPT_RECOMPUTE, OPT_NAPKIN, OPT_ASCII, OPT_NO_COLOR, OPT_SCENARIO, OPT_WRITE_SCENARIO, OPT_BASELINE, OPT_THEME, OPT_LIST_THEMES, OPT_DETAILED, OPT_ATTENTION,
    OPT_DATA_PARALLEL, OPT_COMM_OVERLAP, OPT_MEASURED_TRAIN, OPT_MEASURED_TTFT, OPT_MEASURED_TPOT, OPT_GATED, OPT_PLAIN_MLP, OPT_TIED, OPT_UNTIED, OPT_WINDOW, OPT_ENGINE, OPT_ESTIMATE,
    OPT_CALIBRATE, OPT_CALIBRATE_SCOPE, OPT_WRITE_CHIP, OPT_POINTS, OPT_TP, OPT_PP, OPT_EP, OPT_DP, OPT_MICROBATCHES,
    OPT_EP_IMBALANCE, OPT_ACTIVATION_TOKENS, OPT_SPEC_TOKENS, OPT_SPEC_ACCEPT, OPT_SPEC_DRAFT, OPT_TTFT_TARGET,
    OPT_TPOT_TARGET, OPT_DISAGG, OPT_SEARCH, OPT_PRICE, OPT_POWER_W, OPT_PUE, OPT_TRAIN_TOKENS, OPT_TRAIN_MFU,
    OPT_TRAIN_CHIP_HOURS, OPT_FLOPS_CONVENTION, OPT_DIFF, OPT_PLOT, OPT_TOUR, OPT_BACKGROUND, OPT_PRESENT,
    OPT_ACT_PRECISION, OPT_WRITE_PROFILES, OPT_OP, OPT_VALIDATE, OPT_KERNELS_FROM, OPT_PREFILL_TP, OPT_PREFILL_DP,
    OPT_MOE_EP, OPT_ARRIVAL_RATE, OPT_BENCH_ROUNDS, OPT_PREFIX_CACHE, OPT_PREFILL_MOE_EP, OPT_SPEC_VERIFY, OPT_COUNT
};

static const struct option long_options[] = {
    {"report", optional_argument, NULL, OPT_REPORT},
    {"sweep", required_argument, NULL, OPT_SWEEP},
    {"values", required_argument, NULL, OPT_VALUES},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"list-chips", no_argument, NULL, OPT_LIST_CHIPS},
    {"list-models", no_argument, NULL, OPT_LIST_MODELS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"chip", required_argument, NULL, OPT_CHIP},
    {"chips", required_argument, NULL, OPT_CHIPS},
    {"peak-flops", required_argument, NULL, OPT_PEAK},
    {"hbm-bw", required_argument, NULL, OPT_HBM_BW},
    {"hbm-bytes", required_argument, NULL, OPT_HBM_BYTES},
    {"model", required_argument, NULL, OPT_MODEL},
    {"params", required_argument, NULL, OPT_PARAMS},
    {"layers", required_argument, NULL, OPT_LAYERS},
    {"heads", required_argument, NULL, OPT_HEADS},
    {"kv-heads", required_argument, NULL, OPT_KV_HEADS},
    {"d-model", required_argument, NULL, OPT_D_MODEL},
    {"d-head", required_argument, NULL, OPT_D_HEAD},
    {"d-ff", required_argument, NULL, OPT_D_FF},
    {"vocab", required_argument, NULL, OPT_VOCAB},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"concurrency", required_argument, NULL, OPT_BATCH},
    {"precision", required_argument, NULL, OPT_PRECISION},
    {"kv-precision", required_argument, NULL, OPT_KV_PRECISION},
    {"act-precision", required_argument, NULL, OPT_ACT_PRECISION},
    {"context", required_argument, NULL, OPT_CONTEXT},
    {"prefill-tokens", required_argument, NULL, OPT_PREFILL},
    {"decode-tokens", required_argument, NULL, OPT_DECODE},
    {"budget", required_argument, NULL, OPT_BUDGET},
    {"overhead", required_argument, NULL, OPT_OVERHEAD},
    {"reserve", required_argument, NULL, OPT_RESERVE},
    {"mfu", required_argument, NULL, OPT_MFU},
    {"max-chips", required_argument, NULL, OPT_MAX_CHIPS},
    {"tile", required_argument, NULL, OPT_TILE},
    {"step-times", required_argument, NULL, OPT_STEP_TIMES},
    {"recompute", required_argument, NULL, OPT_RECOMPUTE},
    {"napkin", no_argument, NULL, OPT_NAPKIN},
    {"ascii", no_argument, NULL, OPT_ASCII},
    {"no-color", no_argument, NULL, OPT_NO_COLOR},
    {"scenario", required_argument, NULL, OPT_SCENARIO},
    {"write-scenario", required_argument, NULL, OPT_WRITE_SCENARIO},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"theme", required_argument, NULL, OPT_THEME},
    {"list-themes", no_argument, NULL, OPT_LIST_THEMES},
    {"background", required_argument, NULL, OPT_BACKGROUND},
    {"present", no_argument, NULL, OPT_PRESENT},
    {"detailed", no_argument, NULL, OPT_DETAILED},
    {"attention", required_argument, NULL, OPT_ATTENTION},
    {"data-parallel", required_argument, NULL, OPT_DATA_PARALLEL},
    {"comm-overlap", required_argument, NULL, OPT_COMM_OVERLAP},
    {"measured-train-tokens-per-s", required_argument, NULL, OPT_MEASURED_TRAIN},
    {"measured-ttft-s", required_argument, NULL, OPT_MEASURED_TTFT},
    {"train-tokens", required_argument, NULL, OPT_TRAIN_TOKENS},
    {"train-mfu", required_argument, NULL, OPT_TRAIN_MFU},
    {"train-chip-hours", required_argument, NULL, OPT_TRAIN_CHIP_HOURS},
    {"flops-convention", required_argument, NULL, OPT_FLOPS_CONVENTION},
    {"measured-tpot-s", required_argument, NULL, OPT_MEASURED_TPOT},
    {"gated", no_argument, NULL, OPT_GATED},
    {"plain-mlp", no_argument, NULL, OPT_PLAIN_MLP},
    {"tied", no_argument, NULL, OPT_TIED},
    {"untied", no_argument, NULL, OPT_UNTIED},
    {"window", required_argument, NULL, OPT_WINDOW},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"estimate", required_argument, NULL, OPT_ESTIMATE},
    {"calibrate", required_argument, NULL, OPT_CALIBRATE},
    {"calibrate-scope", required_argument, NULL, OPT_CALIBRATE_SCOPE},
    {"write-chip", required_argument, NULL, OPT_WRITE_CHIP},
    {"write-profiles", required_argument, NULL, OPT_WRITE_PROFILES},
    {"op", required_argument, NULL, OPT_OP},
    {"validate", required_argument, NULL, OPT_VALIDATE},
    {"kernels-from", required_argument, NULL, OPT_KERNELS_FROM},
    {"points", required_argument, NULL, OPT_POINTS},
    {"tp", required_argument, NULL, OPT_TP},
    {"pp", required_argument, NULL, OPT_PP},
    {"ep", required_argument, NULL, OPT_EP},
    {"dp", required_argument, NULL, OPT_DP},
    {"microbatches", required_argument, NULL, OPT_MICROBATCHES},
    {"ep-imbalance", required_argument, NULL, OPT_EP_IMBALANCE},
    {"activation-tokens", required_argument, NULL, OPT_ACTIVATION_TOKENS},
    {"max-num-tokens", required_argument, NULL, OPT_ACTIVATION_TOKENS},
    {"prefill-tp", required_argument, NULL, OPT_PREFILL_TP},
    {"prefill-dp", required_argument, NULL, OPT_PREFILL_DP},
    {"prefill-moe-ep", required_argument, NULL, OPT_PREFILL_MOE_EP},
    {"moe-ep", required_argument, NULL, OPT_MOE_EP},
    {"arrival-rate", required_argument, NULL, OPT_ARRIVAL_RATE},
    {"bench-rounds", required_argument, NULL, OPT_BENCH_ROUNDS},
    {"prefix-cache", required_argument, NULL, OPT_PREFIX_CACHE},
    {"spec-tokens", required_argument, NULL, OPT_SPEC_TOKENS},
    {"spec-accept", required_argument, NULL, OPT_SPEC_ACCEPT},
    {"spec-verify", required_argument, NULL, OPT_SPEC_VERIFY},
    {"spec-draft", required_argument, NULL, OPT_SPEC_DRAFT},
    {"ttft-target", required_argument, NULL, OPT_TTFT_TARGET},
    {"tpot-target", required_argument, NULL, OPT_TPOT_TARGET},
    {"disagg", required_argument, NULL, OPT_DISAGG},
    {"search", no_argument, NULL, OPT_SEARCH},
    {"price-per-chip-hour", required_argument, NULL, OPT_PRICE},
    {"power-w", required_argument, NULL, OPT_POWER_W},
    {"pue", required_argument, NULL, OPT_PUE},
    {"diff", required_argument, NULL, OPT_DIFF},
    {"tour", optional_argument, NULL, OPT_TOUR},
    {"plot", no_argument, NULL, OPT_PLOT},
    {NULL, 0, NULL, 0},
};

/* The name each option was typed under in the parse under way (an alias
 * such as --concurrency for --batch), so that messages name what was
 * typed; cleared at the start of each cli_parse(). */
static const char *typed_name[OPT_COUNT];

/* The long name of option id, for messages: as typed, else its own. */
static const char *flag_name(int id)
{
    if (id >= 0 && id < OPT_COUNT && typed_name[id])
        return typed_name[id];
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == id)
            return o->name;
    return "?";
}

/* The knob row (knobs.h) of flag id under any of its names: the first
 * long option with that id that has a row (--concurrency is --batch's,
 * --data-parallel --dp's), or NULL. */
static const struct knob *knob_of(int id)
{
    char dashed[64];
    if (id == OPT_DATA_PARALLEL) /* an id of its own, to refuse it beside --dp */
        id = OPT_DP;
    for (const struct option *o = long_options; o->name; o++) {
        if (o->val != id)
            continue;
        snprintf(dashed, sizeof dashed, "--%s", o->name);
        const struct knob *k = knob_by_flag(dashed, 0);
        if (k)
            return k;
    }
    return NULL;
}

/* "; did you mean A, B? " for the names nearest given (suggest.h), each
 * after prefix, into out; "; " when none is near. Returns out. */
static char *did_you_mean(const char *given, const char *const *names, size_t n, const char *prefix, char *out,
                          size_t size)
{
    struct suggestions sg;
    char text[200];
    suggest_init(&sg, given);
    for (size_t i = 0; i < n; i++)
        suggest_offer(&sg, names[i]);
    suggest_text(&sg, prefix, text, sizeof text);
    snprintf(out, size, "; %s%s", text, text[0] ? " " : "");
    return out;
}

/* Parses a real flag value; writes a message naming the flag on failure. */
static int parse_real(int id, const char *text, double *out, char *err, size_t errsize)
{
    /* a time may carry its unit ("2s", "500ms"), as the explorer's knobs take it */
    bool time = id == OPT_BUDGET || id == OPT_OVERHEAD;
    /* token counts are written in powers of two: 8k is 8192 (parse_token_count) */
    bool tokens = id == OPT_CONTEXT || id == OPT_PREFILL || id == OPT_DECODE || id == OPT_WINDOW ||
                  id == OPT_ACTIVATION_TOKENS;
    if (time ? parse_seconds(text, out) == 0
             : (tokens ? parse_token_count(text, out) : parse_number(text, out)) == 0)
        return 0;
    if (time) {
        snprintf(err, errsize, "--%s '%s': not a time (examples: 0.5, 500ms, 2s)", flag_name(id), text);
        return 2;
    }
    snprintf(err, errsize, "--%s '%s': not a number (examples: 70e9, 70B, 1.5T, 8k, 0.25)", flag_name(id), text);
    return 2;
}

/* Parses a whole-number flag value (range is checked later by scenario_check). */
static int parse_whole(int id, const char *text, int64_t *out, char *err, size_t errsize)
{
    double v;
    if (parse_real(id, text, &v, err, errsize) != 0)
        return 2;
    if (v != floor(v)) {
        snprintf(err, errsize, "--%s '%s': give a whole number (e.g. 8, 8k, 65536)", flag_name(id), text);
        return 2;
    }
    if (fabs(v) > 4.0e18) {
        snprintf(err, errsize, "--%s '%s' is out of range: far too large", flag_name(id), text);
        return 2;
    }
    *out = (int64_t)v;
    return 0;
}

/* Parses a comma-separated list of at most max numbers; sets *n. An empty
 * item (1,,2 or a comma at either end) is refused, naming the flag and the
 * item's position, rather than dropped. */
static int parse_list(int id, const char *text, double *values, size_t max, size_t *n, char *err, size_t errsize)
{
    *n = 0;
    const char *item = text;
    const char *example = id == OPT_STEP_TIMES ? "0.1,0.045,0.06,0.05,0.025" : id == OPT_SPEC_ACCEPT ? "0.9,0.6,0.3"
                                                                                                      : "1,4,16";
    for (size_t pos = 1;; pos++) {
        const char *comma = strchr(item, ',');
        size_t len = comma ? (size_t)(comma - item) : strlen(item);
        char tok[128];
        if (len == 0) {
            snprintf(err, errsize, "--%s '%s': item %zu is empty; give numbers separated by single commas "
                                   "(e.g. %s)",
                     flag_name(id), text, pos, example);
            return 2;
        }
        if (*n >= max) {
            snprintf(err, errsize, "--%s: at most %zu values", flag_name(id), max);
            return 2;
        }
        snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), item);
        if (len >= sizeof tok || parse_number(tok, &values[*n]) != 0) {
            snprintf(err, errsize, "--%s: item %zu, '%.*s', is not a number (example: %s)", flag_name(id), pos,
                     (int)(len < 64 ? len : 64), item, id == OPT_VALUES ? "1,4,16 or 70B,8B" : example);
            return 2;
        }
        (*n)++;
        if (!comma)
            return 0;
        item = comma + 1;
    }
}

/* The message for an option getopt_long did not take: a long one that
 * begins two or more flags is ambiguous and lists them; any other
 * suggests the nearest flags (suggest.h). */
static void unknown_option(const char *arg, char *err, size_t errsize)
{
    char name[RT_SUGGEST_NAME_MAX + 1], hint[300] = "";
    const char *names[OPT_COUNT - OPT_REPORT + 8];
    size_t n = 0, begins = 0;
    if (strncmp(arg, "--", 2) == 0) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
        size_t len = strlen(name);
        for (const struct option *o = long_options; o->name && n < sizeof names / sizeof names[0]; o++)
            if (len > 0 && strncmp(o->name, name, len) == 0)
                names[n++] = o->name;
        begins = n;
        if (begins < 2) {
            n = 0;
            for (const struct option *o = long_options; o->name && n < sizeof names / sizeof names[0]; o++)
                names[n++] = o->name;
        }
        if (begins >= 2) {
            size_t used = (size_t)snprintf(hint, sizeof hint, " (it begins ");
            for (size_t i = 0; i < n && used < sizeof hint; i++)
                used += (size_t)snprintf(hint + used, sizeof hint - used, "%s--%s", i ? ", " : "", names[i]);
            if (used < sizeof hint)
                snprintf(hint + used, sizeof hint - used, ")");
            snprintf(err, errsize, "ambiguous option '%s'%s (rooftop --help lists them)", arg, hint);
            return;
        }
        if (strcmp(did_you_mean(name, names, n, "--", hint, sizeof hint), "; ") == 0)
            hint[0] = '\0';
    }
    snprintf(err, errsize, "unknown option '%s'%s(rooftop --help lists them)", arg, hint[0] ? hint : " ");
}

/* Flag values seen, applied in a fixed order after parsing (chip, then model,
 * then shape edits, then the rest) so that the order on the line never
 * matters. */
struct pending {
    const char *text[OPT_COUNT];
};

/* True when text names a file or folder rather than a built-in name. */
static bool looks_like_path(const char *text)
{
    return userfile_looks_like_path(text);
}

/* A bare name that is a built-in one and also a file or folder here: the
 * built-in wins; say how to read the file instead. */
static void warn_name_shadows_path(struct cli_options *o, const char *flag, const char *text, const char *builtin)
{
    struct stat st;
    if (stat(text, &st) == 0)
        warn_add(&o->warnings, "%s '%s' is the built-in %s; a %s of that name is here too: write ./%s to read it",
                 flag, text, builtin, S_ISDIR(st.st_mode) ? "folder" : "file", text);
}

/* Reads the file that flag id names (--scenario, --points ...) into a new
 * buffer (free it). Returns 0, or 2 with userfile_read's message. */
static int read_flag_file(int id, const char *path, char **text, size_t *len, char *err, size_t errsize)
{
    char what[64];
    snprintf(what, sizeof what, "--%s", flag_name(id));
    return userfile_read(what, path, text, len, err, errsize) == 0 ? 0 : 2;
}

/* --chip PATH: the first chip of a chip file. */
static int load_chip_file(const char *path, struct cli_options *o, char *err, size_t errsize)
{
    return userfile_chip("--chip", path, &o->scenario.chip, &o->warnings, err, errsize) == 0 ? 0 : 2;
}

/* Reads a HuggingFace config.json (or the folder holding it) that flag id
 * (--model, --spec-draft) names into *m; returns 0 or 2 with err set
 * (userfile_model). */
static int read_model_file(int id, const char *path, struct cli_options *o, struct model_shape *m, char *err,
                           size_t errsize)
{
    char what[64];
    snprintf(what, sizeof what, "--%s", flag_name(id));
    return userfile_model(what, path, m, &o->warnings, err, errsize) == 0 ? 0 : 2;
}

/* --model PATH: a HuggingFace config.json, or a folder holding one, becomes
 * the scenario's model. Returns 0 or 2 with err set (read_model_file). */
static int load_model_file(const char *path, struct cli_options *o, char *err, size_t errsize)
{
    struct model_shape m;
    if (read_model_file(OPT_MODEL, path, o, &m, err, errsize) != 0)
        return 2;
    scenario_set_model(&o->scenario, &m);
    scenario_use_checkpoint(&o->scenario); /* --precision and --kv-precision, applied after, win */
    return 0;
}

/* A shape flag changed the model: model_shape_changed's one rule. */
static void shape_edited(int id, struct scenario *s)
{
    char what[48];
    snprintf(what, sizeof what, "--%s", flag_name(id));
    model_shape_changed(&s->model, what, id == OPT_KV_HEADS);
}

/* The model flags that act through the schedule (--layers, --window) or
 * switch a detail (--gated, --plain-mlp, --tied, --untied). */
static int apply_model_flag(int id, const char *text, struct scenario *s, char *err, size_t errsize)
{
    struct model_shape *m = &s->model;
    int64_t v = 0;
    bool changed = false;
    switch (id) {
    case OPT_LAYERS:
        if (parse_whole(id, text, &v, err, errsize) != 0)
            return 2;
        changed = v != m->layers;
        if (model_set_layers(m, v) != 0) {
            snprintf(err, errsize, "--layers '%s': give 1 to %d layers", text, RT_MAX_LAYERS);
            return 2;
        }
        break;
    case OPT_WINDOW:
        if (parse_whole(id, text, &v, err, errsize) != 0)
            return 2;
        if (v < 0 || v > RT_MAX_TOKENS || model_set_window(m, v) != 0) {
            snprintf(err, errsize, "--window '%s': give the window in tokens, 1 to %lld, or 0 for full attention",
                     text, (long long)RT_MAX_TOKENS);
            return 2;
        }
        { /* sparse and compressed layers keep their own: say so, and refuse a flag that would change nothing */
            int64_t kept = 0, windowed = 0;
            for (int i = 0; i < m->kind_count; i++) {
                enum rt_mixer x = m->kinds[i].mixer;
                if (x == RT_MIXER_SPARSE || x == RT_MIXER_COMPRESSED)
                    kept += m->kinds[i].count;
                else if (mixer_is_attention(x))
                    windowed += m->kinds[i].count;
            }
            if (kept > 0 && windowed == 0) {
                snprintf(err, errsize, "--window: every attention layer of %s is sparse (its top-k) or compressed, "
                                       "which a window does not replace",
                         m->name);
                return 2;
            }
            if (kept > 0) {
                char n[40];
                snprintf(n, sizeof n, "%lld layers", (long long)kept);
                model_assume(m, "window", n, "--window leaves the sparse and compressed layers as they are: a top-k "
                                             "or a compressed cache is not a window");
            }
        }
        /* The flag replaces whatever the config's pattern said; a window changes no parameter. */
        static const char *const pattern_keys[] = {"layer_types", "sliding_window", "use_sliding_window",
                                                   "sliding_window_pattern", "max_window_layers",
                                                   "attention_chunk_size", "no_rope_layer_interval"};
        for (size_t i = 0; i < sizeof pattern_keys / sizeof pattern_keys[0]; i++)
            model_unassume(m, pattern_keys[i]);
        return 0;
    case OPT_GATED:
    case OPT_PLAIN_MLP:
        changed = m->gated_mlp != (id == OPT_GATED);
        m->gated_mlp = id == OPT_GATED;
        model_unassume(m, "mlp");
        break;
    default:
        changed = m->tied_embeddings != (id == OPT_TIED);
        m->tied_embeddings = id == OPT_TIED;
        model_unassume(m, "tie_word_embeddings");
        break;
    }
    if (changed)
        shape_edited(id, s);
    return 0;
}

/* --precision, --kv-precision and --act-precision: the named precision
 * into *s; returns 0, or 2 with err naming the flag and what it takes. */
static int apply_precision_flag(int id, const char *text, struct scenario *s, char *err, size_t errsize)
{
    char why[160];
    if (id != OPT_ACT_PRECISION) {
        if (precision_parse(text, id == OPT_PRECISION ? &s->precision : &s->kv_precision) == 0)
            return 0;
        snprintf(err, errsize, "--%s '%s': %s", flag_name(id), text, precision_refusal(why, sizeof why, text));
        return 2;
    }
    if (act_precision_parse(text, &s->act_precision) == 0)
        return 0;
    if (strcasecmp(text, "int4") == 0)
        snprintf(why, sizeof why, "int4 activations are not modelled (int4 runs weight-only, W4A16); give %s",
                 act_precision_choices());
    else if (strcasecmp(text, "fp4") == 0)
        precision_refusal(why, sizeof why, text);
    else
        snprintf(why, sizeof why, "give %s", act_precision_choices());
    snprintf(err, errsize, "--%s '%s': %s", flag_name(id), text, why);
    return 2;
}

/* --scenario FILE: a saved scenario read over the one so far. Returns 0, or 2 with one line in err. */
static int apply_scenario_file(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    char *file;
    size_t len;
    if (read_flag_file(OPT_SCENARIO, text, &file, &len, err, errsize) != 0)
        return 2;
    char shown[200];
    int rc = scenario_from_json(file, len, path_shown(shown, sizeof shown, text), s, &o->warnings, err, errsize);
    free(file);
    return rc == 0 ? 0 : 2;
}

/* --chip NAME|FILE: a known chip (a user file shadowing a path is said), or a chip file. Returns 0, or 2 with one line in err. */
static int apply_chip(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    const struct chip_spec *c = userfile_written_as_path(text) ? NULL : chip_db_find(&o->chips, text);
    if (c) {
        warn_name_shadows_path(o, "--chip", text, c->key);
        s->chip = *c;
        return 0;
    }
    if (looks_like_path(text))
        return load_chip_file(text, o, err, errsize);
    const char *keys[256];
    size_t n = 0;
    for (size_t i = 0; i < o->chips.count && n < 256; i++)
        keys[n++] = o->chips.chips[i].key;
    char hint[300];
    snprintf(err, errsize, "--chip '%s': unknown chip%srooftop --list-chips shows the %zu known", text,
             did_you_mean(text, keys, n, "", hint, sizeof hint), o->chips.count);
    return 2;
}

/* --model NAME|PATH: a built-in model, or a config.json or its folder. Returns 0, or 2 with one line in err. */
static int apply_model(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    const struct model_shape *m = userfile_written_as_path(text) ? NULL : model_find(text);
    if (m) {
        warn_name_shadows_path(o, "--model", text, m->name);
        scenario_set_model(s, m);
        return 0;
    }
    if (looks_like_path(text))
        return load_model_file(text, o, err, errsize);
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < model_builtin_count() && n < 64; i++)
        names[n++] = model_builtin(i)->name;
    char hint[300];
    snprintf(err, errsize,
             "--model '%s': unknown model%srooftop --list-models shows the %zu built in, or give a config.json",
             text, did_you_mean(text, names, n, "", hint, sizeof hint), model_builtin_count());
    return 2;
}

/* --engine NAME|FILE: a built-in engine, or an engine file. Returns 0, or 2 with one line in err. */
static int apply_engine(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    const struct engine_profile *e = userfile_written_as_path(text) ? NULL : engine_find(text);
    if (e) {
        s->engine = *e;
        return 0;
    }
    if (looks_like_path(text)) {
        char *file;
        size_t len;
        if (read_flag_file(OPT_ENGINE, text, &file, &len, err, errsize) != 0)
            return 2;
        char shown[200];
        int rc = engine_from_text(file, len, path_shown(shown, sizeof shown, text), &s->engine, &o->warnings, err,
                                  errsize);
        free(file);
        return rc == 0 ? 0 : 2;
    }
    const char *names[32];
    size_t n = 0;
    for (size_t i = 0; i < engine_builtin_count() && n < 32; i++)
        names[n++] = engine_builtin(i)->name;
    char hint[300];
    snprintf(err, errsize, "--engine '%s': unknown engine%sgive vllm, trtllm, sglang, lmdeploy, llama.cpp, nim, pytorch, "
                           "generic, or an engine JSON file",
             text, did_you_mean(text, names, n, "", hint, sizeof hint));
    return 2;
}

/* --step-times: five measured seconds of a training step. Returns 0, or 2 with one line in err. */
static int apply_step_times(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    const int id = OPT_STEP_TIMES;
    struct scenario *s = &o->scenario;
    size_t n = 0;
    double v[RT_STEP_TIME_PARTS + 1];
    if (parse_list(id, text, v, RT_STEP_TIME_PARTS + 1, &n, err, errsize) != 0)
        return 2;
    if (n != RT_STEP_TIME_PARTS) {
        snprintf(err, errsize, "--step-times '%s': give five seconds MATMUL,VECTOR,MEMORY,COMMS,OPTIMIZER", text);
        return 2;
    }
    memset(s->step_times_s, 0, sizeof s->step_times_s); /* no pipeline bubble measured */
    memcpy(s->step_times_s, v, RT_STEP_TIME_PARTS * sizeof v[0]);
    s->has_step_times = true;
    return 0;
}

/* --recompute: none, selective, full, or the share of the forward pass redone. Returns 0, or 2 with one line in err. */
static int apply_recompute(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    static const struct { const char *name; enum rt_recompute mode; } modes[] = {
        {"none", RT_RECOMPUTE_NONE}, {"selective", RT_RECOMPUTE_SELECTIVE}, {"full", RT_RECOMPUTE_FULL}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(text, modes[i].name) == 0) {
            s->recompute = modes[i].mode;
            return 0;
        }
    }
    double f;
    if (parse_number(text, &f) != 0 || !(f >= 0.0 && f <= 1.0)) {
        snprintf(err, errsize, "--recompute '%s': give none, selective, full, or the fraction of the forward "
                               "pass recomputed, 0 to 1",
                 text);
        return 2;
    }
    s->recompute = RT_RECOMPUTE_FRACTION;
    s->recompute_fraction = f;
    return 0;
}

/* --spec-draft MODEL|FILE|N: the draft as a built-in model, a config, or a parameter count. Returns 0, or 2 with one line in err. */
static int apply_spec_draft(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    const struct model_shape *m = userfile_written_as_path(text) ? NULL : model_find(text);
    struct model_shape loaded;
    double n = 0.0;
    if (!m && parse_number(text, &n) != 0 && looks_like_path(text)) {
        if (read_model_file(OPT_SPEC_DRAFT, text, o, &loaded, err, errsize) != 0)
            return 2;
        m = &loaded;
    }
    if (m) {
        struct param_count pc = model_param_count(m);
        n = m->stated_params > 0.0 ? m->stated_params : pc.active;
        snprintf(s->spec_draft_name, sizeof s->spec_draft_name, "%s", m->name);
    } else if (parse_number(text, &n) == 0 && n >= 1e6) {
        snprintf(s->spec_draft_name, sizeof s->spec_draft_name, "a %s-parameter draft", text);
    } else if (parse_number(text, &n) == 0 && n > 0.0) {
        /* 1.5 parameters is no model: the count was written without its unit */
        snprintf(err, errsize, "--spec-draft %s: %s parameters is no model (a draft has a million or more): write "
                               "the count with its unit, e.g. %sB or %sM",
                 text, text, text, text);
        return 2;
    } else {
        const char *names[64];
        size_t count = 0;
        for (size_t i = 0; i < model_builtin_count() && count < 64; i++)
            names[count++] = model_builtin(i)->name;
        char hint[300];
        snprintf(err, errsize, "--spec-draft '%s'%sgive a built-in model (rooftop --list-models), a config.json, "
                               "or the draft's parameter count (e.g. 1B)",
                 text, did_you_mean(text, names, count, "", hint, sizeof hint));
        return 2;
    }
    s->spec_draft_params = n;
    return 0;
}

/* --kernels-from CHIP: another measured chip's kernel fits, borrowed by choice. Returns 0, or 2 with one line in err. */
static int apply_kernels_from(const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    /* another measured chip's kernel fits on this chip's own figures: a borrowed profile by choice */
    const struct chip_spec *from = chip_find(text);
    int count = 0;
    if (!from || !kernel_builtin_fits(from->key, &count)) {
        snprintf(err, errsize, "--kernels-from '%s': give a chip with measured kernels (a100-80, h100, h200, "
                               "b200, gb200, b300, l40s)", text);
        return 2;
    }
    struct kernel_profile *k = &s->chip.kernels;
    memset(k, 0, offsetof(struct kernel_profile, fits));
    snprintf(k->from, sizeof k->from, "%s", from->key);
    k->measured = strcmp(from->key, s->chip.key) == 0;
    struct kernel_profile own;
    bool mapped = kernel_builtin_profile(s->chip.key, &own);
    k->l2_bytes = mapped ? own.l2_bytes : 0.0;
    const char *arch = kernel_chip_architecture(s->chip.key), *from_arch = kernel_chip_architecture(from->key);
    k->sibling = !k->measured && arch && from_arch && strcmp(arch, from_arch) == 0; /* else another architecture's */
    snprintf(k->source, sizeof k->source, "%s's fits by --kernels-from", from->key);
    return 0;
}

/* After a whole-number flag's value is read into *whole (it was before):
 * a model-shape flag's range and what the model allows (a latent's kv
 * heads and head width, an MLP width some layer uses, heads that kv heads
 * divide), its assumptions said, and the shape's edit recorded. Returns 0,
 * or 2 with one line in err (68 lines: one rule of the shape after another). */
static int shape_flag_checks(int id, const char *text, int64_t *whole, int64_t before, struct scenario *s, char *err,
                             size_t errsize)
{
    bool shape = id == OPT_HEADS || id == OPT_KV_HEADS || id == OPT_D_MODEL || id == OPT_D_HEAD ||
                 id == OPT_D_FF || id == OPT_VOCAB;
    if (!shape)
        return 0;
    int64_t top = id == OPT_D_FF ? RT_MAX_FF : id == OPT_VOCAB ? RT_MAX_VOCAB : RT_MAX_WIDTH;
    if (*whole < 1 || *whole > top) {
        snprintf(err, errsize, "--%s '%s' is out of range: give a whole number from 1 to %lld", flag_name(id),
                 text, (long long)top);
        return 2;
    }
    if (id == OPT_KV_HEADS && s->model.kv_lora_rank > 0) {
        snprintf(err, errsize, "--kv-heads: %s uses latent attention; its KV cache does not depend on kv heads",
                 s->model.name);
        return 2;
    }
    if (id == OPT_D_HEAD && s->model.kv_lora_rank > 0) {
        snprintf(err, errsize, "--d-head: %s uses latent attention, whose head width is qk_nope_head_dim + "
                               "qk_rope_head_dim (%lld + %lld); edit those in its config",
                 s->model.name, (long long)s->model.qk_nope_head_dim, (long long)s->model.qk_rope_head_dim);
        return 2;
    }
    if (id == OPT_HEADS && s->model.kv_lora_rank > 0)
        s->model.kv_heads = *whole; /* a latent serves every head: its nominal KV heads follow them */
    if (id == OPT_D_FF) { /* a width no layer uses changes nothing: refuse it by name */
        bool used = false;
        for (int i = 0; i < s->model.kind_count; i++) {
            const struct layer_kind *k = &s->model.kinds[i];
            used = used || (k->count > 0 && !k->no_mlp && ((!k->moe && k->d_ff == 0) ||
                                                             (k->moe && s->model.moe_d_ff == 0)));
        }
        if (!used) {
            snprintf(err, errsize, "--d-ff: no layer of %s uses the model's MLP width (its MoE layers have their "
                                   "experts' and shared experts' widths, its other layers their own)",
                     s->model.name);
            return 2;
        }
    }
    if ((id == OPT_KV_HEADS || id == OPT_D_HEAD || id == OPT_HEADS) && model_mixed_geometry(&s->model)) {
        char n[40];
        int64_t own = 0;
        for (int i = 0; i < s->model.kind_count; i++) {
            const struct layer_kind *k = &s->model.kinds[i];
            if ((id == OPT_KV_HEADS && k->kv_heads > 0) || (id == OPT_D_HEAD && k->d_head > 0) ||
                (id == OPT_HEADS && k->heads > 0))
                own += k->count;
        }
        snprintf(n, sizeof n, "%lld layers", (long long)own);
        if (own > 0)
            model_assume(&s->model, flag_name(id), n, "the layers with their own heads keep them (the flag sets "
                                                      "the model's, which the other layers use)");
    }
    if (id == OPT_KV_HEADS && s->model.heads % *whole != 0) {
        char choices[160];
        snprintf(err, errsize, "--kv-heads %s: kv heads must divide %lld heads: %s", text,
                 (long long)s->model.heads, kv_heads_choices(s->model.heads, choices, sizeof choices));
        return 2;
    }
    if (id == OPT_KV_HEADS)
        model_unassume(&s->model, "num_key_value_heads");
    if (*whole != before)
        shape_edited(id, s);
    return 0;
}

/* --spec-accept A1,...,AK: the acceptance by position, each a probability
 * from 0 to 1. Returns 0, or 2 with one line in err. */
static int apply_spec_accept_list(const char *text, struct scenario *s, char *err, size_t errsize)
{
    double v[RT_SPEC_MAX_TOKENS + 1];
    size_t n = 0;
    if (parse_list(OPT_SPEC_ACCEPT, text, v, RT_SPEC_MAX_TOKENS, &n, err, errsize) != 0)
        return 2;
    for (size_t i = 0; i < n; i++)
        if (!(v[i] >= 0.0 && v[i] <= 1.0)) {
            snprintf(err, errsize, "--spec-accept '%s': position %zu's %g is not a probability from 0 to 1", text,
                     i + 1, v[i]);
            return 2;
        }
    memcpy(s->spec_accept_by_position, v, n * sizeof v[0]);
    s->spec_accept_positions = (int64_t)n;
    return 0;
}

/* Applies one scenario flag's text to the options' scenario; returns 0 or 2
 * with err set (95 lines: a case a kind of flag, each a line or a call;
 * a plain number's row is in knobs.c). */
static int apply_flag(int id, const char *text, struct cli_options *o, char *err, size_t errsize)
{
    struct scenario *s = &o->scenario;
    int64_t *whole = NULL;
    double *real = NULL;
    if (text[0] == '\0' && (id == OPT_CHIP || id == OPT_MODEL || id == OPT_ENGINE || id == OPT_SPEC_DRAFT)) {
        /* NAME|PATH flags: empty is neither, and the README promises the flag is named */
        snprintf(err, errsize, "--%s: no name or file given (the value is empty)", flag_name(id));
        return 2;
    }
    switch (id) {
    case OPT_SCENARIO:
        return apply_scenario_file(text, o, err, errsize);
    case OPT_CHIP:
        return apply_chip(text, o, err, errsize);
    case OPT_MODEL:
        return apply_model(text, o, err, errsize);
    case OPT_ENGINE:
        return apply_engine(text, o, err, errsize);
    case OPT_PRECISION:
    case OPT_KV_PRECISION:
    case OPT_ACT_PRECISION:
        return apply_precision_flag(id, text, s, err, errsize);
    case OPT_STEP_TIMES:
        return apply_step_times(text, o, err, errsize);
    case OPT_RECOMPUTE:
        return apply_recompute(text, o, err, errsize);
    case OPT_ATTENTION:
        if (strcmp(text, "fused") != 0 && strcmp(text, "unfused") != 0) {
            snprintf(err, errsize, "--attention '%s': give fused or unfused", text);
            return 2;
        }
        s->unfused_attention = strcmp(text, "unfused") == 0;
        return 0;
    case OPT_SPEC_ACCEPT: {
        if (!strchr(text, ',')) { /* one probability for every draft */
            s->spec_accept_positions = 0;
            real = &s->spec_accept;
            break;
        }
        return apply_spec_accept_list(text, s, err, errsize);
    }
    case OPT_SPEC_DRAFT:
        return apply_spec_draft(text, o, err, errsize);
    case OPT_OP:
        return op_spec_parse(text, &s->op, err, errsize) == 0 ? 0 : 2;
    case OPT_KERNELS_FROM:
        return apply_kernels_from(text, o, err, errsize);
    case OPT_FLOPS_CONVENTION:
        for (int i = 0; i < RT_FLOPS_CONVENTION_COUNT; i++) {
            if (strcmp(text, flops_convention_name((enum rt_flops_convention)i)) == 0) {
                s->flops_convention = (enum rt_flops_convention)i;
                return 0;
            }
        }
        snprintf(err, errsize, "--flops-convention '%s': give palm, megatron, 6n or causal", text);
        return 2;
    case OPT_LAYERS:
    case OPT_WINDOW:
    case OPT_GATED:
    case OPT_PLAIN_MLP:
    case OPT_TIED:
    case OPT_UNTIED:
        return apply_model_flag(id, text, s, err, errsize);
    default: {
        /* a plain number knob: its row says where it goes (knobs.h) */
        const struct knob *k = knob_of(id);
        if (!k || !k->plain)
            return 0;
        if (k->value == KNOB_WHOLE)
            whole = (int64_t *)((char *)s + k->offset);
        else
            real = (double *)((char *)s + k->offset);
        break;
    }
    }
    if (whole) {
        int64_t before = *whole;
        if (parse_whole(id, text, whole, err, errsize) != 0)
            return 2;
        return shape_flag_checks(id, text, whole, before, s, err, errsize);
    }
    if (parse_real(id, text, real, err, errsize) != 0)
        return 2;
    const struct knob *given = knob_of(id);
    if (given && given->positive && !(*real > 0.0)) {
        snprintf(err, errsize, "--%s '%s': give a number above 0", flag_name(id), text);
        return 2;
    }
    if (id == OPT_PARAMS && !(*real >= 1.0)) {
        snprintf(err, errsize, "--params '%s': give a count of at least 1 (e.g. 70e9)", text);
        return 2;
    }
    return 0;
}

/* The order flags are applied in: chip and model first, then shape edits and
 * everything else. */
static const int apply_order[] = {
    OPT_SCENARIO, OPT_CHIP, OPT_MODEL, OPT_LAYERS, OPT_HEADS, OPT_KV_HEADS, OPT_D_MODEL, OPT_D_HEAD, OPT_D_FF, OPT_VOCAB,
    OPT_GATED, OPT_PLAIN_MLP, OPT_TIED, OPT_UNTIED, OPT_WINDOW, OPT_ENGINE,
    OPT_PARAMS, OPT_CHIPS, OPT_PEAK, OPT_HBM_BW, OPT_HBM_BYTES, OPT_BATCH, OPT_PRECISION, OPT_KV_PRECISION,
    OPT_ACT_PRECISION, OPT_CONTEXT, OPT_PREFILL, OPT_DECODE, OPT_BUDGET, OPT_OVERHEAD, OPT_RESERVE, OPT_MFU, OPT_MAX_CHIPS, OPT_TILE,
    OPT_STEP_TIMES, OPT_RECOMPUTE, OPT_ATTENTION, OPT_DATA_PARALLEL, OPT_DP, OPT_COMM_OVERLAP, OPT_MEASURED_TRAIN,
    OPT_MEASURED_TTFT, OPT_MEASURED_TPOT, OPT_MICROBATCHES, OPT_EP_IMBALANCE, OPT_ACTIVATION_TOKENS, OPT_SPEC_TOKENS,
    OPT_SPEC_ACCEPT, OPT_SPEC_DRAFT, OPT_TTFT_TARGET, OPT_TPOT_TARGET, OPT_PRICE, OPT_POWER_W, OPT_PUE,
    OPT_TRAIN_TOKENS, OPT_TRAIN_MFU, OPT_TRAIN_CHIP_HOURS, OPT_FLOPS_CONVENTION, OPT_OP, OPT_KERNELS_FROM,
    OPT_PREFILL_TP, OPT_PREFILL_DP, OPT_MOE_EP, OPT_ARRIVAL_RATE, OPT_BENCH_ROUNDS, OPT_PREFIX_CACHE,
    OPT_PREFILL_MOE_EP, OPT_SPEC_VERIFY};

/* A message from scenario_check that starts "--FLAG NUMBER ..." quotes the
 * number as the scenario holds it (1e-320 reads back as
 * 9.99988867182683e-321); when FLAG was given on the command line, puts the
 * user's own text there instead, and the flag's name as typed (an alias),
 * so the message names what was typed. */
static void echo_given_text(const struct pending *pend, char *err, size_t errsize)
{
    for (const struct option *o = long_options; o->name; o++) {
        const char *given = o->val > OPT_REPORT && o->val < OPT_COUNT ? pend->text[o->val] : NULL;
        size_t n = strlen(o->name);
        if (!given || !given[0] || strncmp(err, "--", 2) != 0 || strncmp(err + 2, o->name, n) != 0 ||
            err[2 + n] != ' ')
            continue;
        const char *number = err + 3 + n, *end = strchr(number, ' ');
        char token[64], rest[512];
        size_t len = end ? (size_t)(end - number) : strlen(number);
        double ignored;
        if (len == 0 || len >= sizeof token)
            return;
        memcpy(token, number, len);
        token[len] = '\0';
        bool numeric = parse_number(token, &ignored) == 0;
        const char *typed = flag_name(o->val); /* an alias names itself (--concurrency, not --batch) */
        if (strcmp(typed, o->name) == 0 && (!numeric || strcmp(token, given) == 0))
            return;
        snprintf(rest, sizeof rest, "%s", number + len);
        snprintf(err, errsize, "--%s %s%s", typed, numeric ? given : token, rest);
        return;
    }
}

/* Parses a layout degree flag (--tp, --pp, --ep): a whole number >= 1. */
static int parse_degree(int id, const char *text, int64_t *out, char *err, size_t errsize)
{
    if (parse_whole(id, text, out, err, errsize) != 0)
        return 2;
    if (*out < 1 || *out > RT_MAX_CHIPS) {
        snprintf(err, errsize, "--%s %s is out of range: give a whole number from 1 to %lld", flag_name(id), text,
                 (long long)RT_MAX_CHIPS);
        return 2;
    }
    return 0;
}

/* Sets the replica's layout from --tp, --pp, --ep, --chips and --disagg
 * P:D: chips = tp x pp x ep; without --tp, tp = chips / (pp x ep) (or 1
 * when --chips is not given either). Returns 0 or 2 with err naming the
 * flags that disagree. */
static int apply_layout(const struct pending *pend, struct scenario *s, char *err, size_t errsize)
{
    int64_t tp = 0, pp = 1, ep = 1, p_chips = 0, d_chips = 0;
    if ((pend->text[OPT_TP] && parse_degree(OPT_TP, pend->text[OPT_TP], &tp, err, errsize)) ||
        (pend->text[OPT_PP] && parse_degree(OPT_PP, pend->text[OPT_PP], &pp, err, errsize)) ||
        (pend->text[OPT_EP] && parse_degree(OPT_EP, pend->text[OPT_EP], &ep, err, errsize)))
        return 2;
    if (pend->text[OPT_DISAGG]) {
        const char *t = pend->text[OPT_DISAGG];
        const char *colon = strchr(t, ':');
        char left[64];
        if (!colon || strchr(colon + 1, ':') || (size_t)(colon - t) >= sizeof left) {
            snprintf(err, errsize, "--disagg '%s': give P:D, the prefill and decode pools' chips (e.g. 8:8)", t);
            return 2;
        }
        memcpy(left, t, (size_t)(colon - t));
        left[colon - t] = '\0';
        if (parse_degree(OPT_DISAGG, left, &p_chips, err, errsize) ||
            parse_degree(OPT_DISAGG, colon + 1, &d_chips, err, errsize))
            return 2;
        s->disagg_prefill_chips = p_chips;
    }
    if (!pend->text[OPT_TP] && !pend->text[OPT_PP] && !pend->text[OPT_EP] && !d_chips)
        return 0; /* --chips alone: tensor parallel, as always */
    bool chips_given = pend->text[OPT_CHIPS] != NULL;
    int64_t given = chips_given ? s->chips : d_chips;
    if (chips_given && d_chips && d_chips != s->chips) {
        snprintf(err, errsize, "--disagg %s decodes on %lld chips but --chips is %lld: give one", pend->text[OPT_DISAGG],
                 (long long)d_chips, (long long)s->chips);
        return 2;
    }
    if (!tp) {
        if (given <= 0) {
            tp = 1;
        } else if (given % (pp * ep) != 0) {
            snprintf(err, errsize, "%s %lld is not a multiple of --pp %lld x --ep %lld: a replica is tp x pp x ep chips",
                     chips_given ? "--chips" : "--disagg's decode pool", (long long)given, (long long)pp,
                     (long long)ep);
            return 2;
        } else {
            tp = given / (pp * ep);
        }
    }
    if ((double)tp * (double)pp * (double)ep > (double)RT_MAX_CHIPS) {
        snprintf(err, errsize, "--tp x --pp x --ep is above %lld chips", (long long)RT_MAX_CHIPS);
        return 2;
    }
    int64_t chips = tp * pp * ep;
    if (given > 0 && chips != given) {
        snprintf(err, errsize, "--tp %lld x --pp %lld x --ep %lld = %lld chips, but %s %lld: --chips counts one "
                 "replica's chips (--dp adds replicas)",
                 (long long)tp, (long long)pp, (long long)ep, (long long)chips,
                 chips_given ? "--chips is" : "--disagg decodes on", (long long)given);
        return 2;
    }
    s->chips = chips;
    s->pp = pp;
    s->ep = ep;
    return 0;
}

/* $ENV/rooftop/KIND when ENV holds an absolute path, else
 * $HOME/UNDER_HOME/rooftop/KIND, into out; NULL when neither is set or the
 * path does not fit (out is then ""). */
static char *xdg_dir(char *out, size_t size, const char *env, const char *under_home, const char *kind)
{
    const char *xdg = getenv(env);
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(out, size, "%s/rooftop/%s", xdg, kind);
    else if (home && home[0])
        n = snprintf(out, size, "%s/%s/rooftop/%s", home, under_home, kind);
    else
        return NULL;
    if (n < 0 || (size_t)n >= size) { /* cut short, it would name another folder */
        if (size > 0)
            out[0] = '\0';
        return NULL;
    }
    return out;
}

char *cli_config_dir(char *out, size_t size, const char *kind)
{
    return xdg_dir(out, size, "XDG_CONFIG_HOME", ".config", kind);
}

/* The user's folder of one kind (cli_config_dir) into out, or NULL; a
 * folder whose path does not fit is not read, and a warning says so. */
static const char *user_folder(const char *kind, char *out, size_t size, struct load_warnings *w)
{
    if (cli_config_dir(out, size, kind))
        return out;
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if ((xdg && xdg[0] == '/') || (home && home[0]))
        warn_add(w, "the user's %s folder is not read: its path (from %s) is longer than %zu bytes", kind,
                 xdg && xdg[0] == '/' ? "XDG_CONFIG_HOME" : "HOME", size - 1);
    return NULL;
}

/* Adds the chips of one file of the user's chips folder to the chip set. */
static int add_chip_file(const char *path, const char *text, size_t len, void *ctx, char *err, size_t errsize)
{
    struct cli_options *o = ctx;
    struct chip_spec chips[64];
    size_t count = 0;
    char shown[200];
    if (chips_from_text(text, len, path_shown(shown, sizeof shown, path), chips, 64, &count, &o->warnings, err,
                        errsize) != 0)
        return -1;
    for (size_t c = 0; c < count; c++)
        chip_db_add(&o->chips, &chips[c], &o->warnings);
    return 0;
}

/* Adds every chip of every *.json file in the user's chips folder to the
 * chip set, in name order. A file that fails is skipped with a warning. */
static void load_user_chips(struct cli_options *o)
{
    char dir[4096];
    if (user_folder("chips", dir, sizeof dir, &o->warnings))
        load_json_folder(dir, add_chip_file, o, &o->warnings);
}

/* The folder the running executable lives in (for themes/ beside a
 * build), or "" when it cannot be told. */
static void exe_dir(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    out[n > 0 && (size_t)n < size - 1 ? n : 0] = '\0'; /* a full buffer may be cut short: unknown */
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    else
        out[0] = '\0';
}

#ifndef ROOFTOP_DATADIR
#define ROOFTOP_DATADIR "/usr/local/share/rooftop"
#endif

/* Loads the theme set (installed, beside the executable, the user's; later
 * ones override) and selects --theme NAME|PATH. Returns 0 or 2 with err. */
static int load_themes(struct cli_options *o, const char *wanted, char *err, size_t errsize)
{
    o->themes = malloc(sizeof *o->themes);
    if (!o->themes) {
        snprintf(err, errsize, "out of memory");
        return 2;
    }
    theme_set_init(o->themes);
    for (size_t i = 0; i < builtin_theme_count; i++) { /* compiled in: a shipped file cannot fail */
        char e[256];
        theme_set_add_text(o->themes, builtin_themes[i].text, builtin_themes[i].len, "built-in", &o->warnings, e,
                           sizeof e);
    }
    char dir[4096], here[4000];
    theme_set_add_dir(o->themes, ROOFTOP_DATADIR "/themes", &o->warnings);
    exe_dir(here, sizeof here);
    if (here[0]) {
        /* Installed under any prefix (PREFIX/bin beside PREFIX/share), or run
         * from the source tree (themes/ beside ./rooftop). */
        const char *beside[] = {"/../share/rooftop/themes", "/themes"};
        for (size_t i = 0; i < 2; i++) {
            char real_dir[PATH_MAX], real_data[PATH_MAX];
            if (snprintf(dir, sizeof dir, "%s%s", here, beside[i]) < (int)sizeof dir && realpath(dir, real_dir) &&
                !(realpath(ROOFTOP_DATADIR "/themes", real_data) && strcmp(real_dir, real_data) == 0))
                theme_set_add_dir(o->themes, real_dir, &o->warnings);
        }
    }
    if (user_folder("themes", dir, sizeof dir, &o->warnings))
        theme_set_add_dir(o->themes, dir, &o->warnings);
    o->explorer.themes = o->themes;
    o->explorer.theme_index = 0;
    if (!wanted)
        return 0;
    if (wanted[0] == '\0') {
        snprintf(err, errsize, "--theme: no name or file given (the value is empty)");
        return 2;
    }
    int at = userfile_written_as_path(wanted) ? -1 : theme_set_find(o->themes, wanted);
    if (at < 0 && looks_like_path(wanted)) {
        char *text;
        size_t len;
        if (read_flag_file(OPT_THEME, wanted, &text, &len, err, errsize) != 0)
            return 2;
        char shown[200];
        at = theme_set_add_text(o->themes, text, len, path_shown(shown, sizeof shown, wanted), &o->warnings, err,
                                errsize);
        free(text);
        if (at < 0)
            return 2;
    }
    if (at < 0) {
        const char *names[RT_MAX_THEMES];
        for (size_t i = 0; i < o->themes->count && i < RT_MAX_THEMES; i++)
            names[i] = o->themes->names[i];
        char hint[300];
        snprintf(err, errsize, "--theme '%s': unknown theme%srooftop --list-themes shows the %zu known", wanted,
                 did_you_mean(wanted, names, o->themes->count < RT_MAX_THEMES ? o->themes->count : RT_MAX_THEMES, "",
                              hint, sizeof hint),
                 o->themes->count);
        return 2;
    }
    o->explorer.theme_index = at;
    o->explorer.theme_named = true;
    return 0;
}

void cli_options_free(struct cli_options *o)
{
    chip_db_free(&o->chips);
    free(o->themes);
    o->themes = NULL;
    free(o->tour);
    o->tour = NULL;
}

char *cli_data_dir(char *out, size_t size, const char *kind)
{
    return xdg_dir(out, size, "XDG_DATA_HOME", ".local/share", kind);
}

/* Loads --tour's tour: "" or "guide" the built-in one, a path a file, any
 * other name NAME.json in the user's tours folder. Returns 0 or 2 with err. */
static int load_tour(struct cli_options *o, const char *wanted, char *err, size_t errsize)
{
    char *text = NULL, path[4200];
    size_t len = 0;
    const char *shown = "built-in tour";
    char shown_buf[200];
    if (wanted[0] && strcmp(wanted, "guide") != 0) {
        if (looks_like_path(wanted)) {
            if (read_flag_file(OPT_TOUR, wanted, &text, &len, err, errsize) != 0)
                return 2;
            shown = path_shown(shown_buf, sizeof shown_buf, wanted);
        } else {
            char dir[4096];
            if (!cli_data_dir(dir, sizeof dir, "tours") ||
                snprintf(path, sizeof path, "%s/%s.json", dir, wanted) >= (int)sizeof path) {
                snprintf(err, errsize, "--tour '%s': no tours folder (set HOME or XDG_DATA_HOME), and not a file",
                         wanted);
                return 2;
            }
            struct stat st;
            if (stat(path, &st) != 0) {
                snprintf(err, errsize, "--tour '%s': no such tour (the built-in one is 'guide'; yours go in %s/)",
                         wanted, dir);
                return 2;
            }
            if (read_file(path, &text, &len, err, errsize) != 0)
                return 2;
            shown = path_shown(shown_buf, sizeof shown_buf, path);
        }
    }
    o->tour = malloc(sizeof *o->tour);
    const char *knobs[SLIDER_COUNT + 1];
    int rc = -1;
    if (!o->tour)
        snprintf(err, errsize, "out of memory for the tour");
    else
        rc = tour_parse(text ? text : tour_builtin_text(), text ? len : strlen(tour_builtin_text()), shown,
                        tour_knob_names(knobs), o->tour, &o->warnings, err, errsize);
    free(text);
    if (rc != 0)
        return 2;
    o->explorer.tour = o->tour;
    o->explorer.start_tour = true;
    return 0;
}

/* What cli_parse carries from reading the flags to checking and applying them. */
struct parse_state {
    struct pending pend;                     /* each scenario flag's text, applied after all are read */
    const char *format_text, *report_text, *theme_text, *tour_text;
    enum rt_latency_model latency_model;
    int latency_flags;
    bool report, sweep;
    int modes;
};

/* Reads argv's flags (getopt_long over long_options): the modes and their
 * files into out, each scenario flag's text into ps->pend. Returns -1 to go
 * on, or the status cli_parse returns (0 for --help and --version, 2 with
 * err set) (the getopt switch, a case a flag: long, and flat). */
static int read_flags(int argc, char **argv, struct cli_options *out, struct parse_state *ps, char *err,
                      size_t errsize)
{
    optind = 0; /* GNU: full re-initialisation, so tests can parse repeatedly */
    opterr = 0;
    memset(typed_name, 0, sizeof typed_name);
    int c, at = -1;
    while ((c = getopt_long(argc, argv, ":hV", long_options, &at)) != -1) {
        if (at >= 0 && c > OPT_REPORT && c < OPT_COUNT) {
            if (typed_name[c] && strcmp(typed_name[c], long_options[at].name) != 0) { /* two names, one knob */
                snprintf(err, errsize, "--%s and --%s are the same knob: give one", typed_name[c],
                         long_options[at].name);
                return 2;
            }
            typed_name[c] = long_options[at].name;
        }
        at = -1;
        switch (c) {
        case 'h':
            out->mode = CLI_HELP;
            return 0;
        case 'V':
            out->mode = CLI_VERSION;
            return 0;
        case OPT_REPORT:
            ps->report = true, ps->modes++;
            ps->report_text = optarg;
            break;
        case OPT_SWEEP:
            ps->sweep = true, ps->modes++;
            if (sweep_kind_parse(optarg, &out->sweep) != 0) {
                const char *kinds[RT_SWEEP_COUNT];
                for (int k = 0; k < RT_SWEEP_COUNT; k++)
                    kinds[k] = sweep_kind_name((enum rt_sweep_kind)k);
                char hint[300];
                snprintf(err, errsize, "--sweep '%s': unknown sweep%sgive chips, params, batch or kv-heads", optarg,
                         did_you_mean(optarg, kinds, RT_SWEEP_COUNT, "", hint, sizeof hint));
                return 2;
            }
            break;
        case OPT_VALUES:
            if (parse_list(OPT_VALUES, optarg, out->values, RT_SWEEP_MAX_VALUES, &out->value_count, err, errsize))
                return 2;
            break;
        case OPT_FORMAT:
            ps->format_text = optarg;
            break;
        case OPT_LIST_CHIPS:
            out->mode = CLI_LIST_CHIPS, ps->modes++;
            break;
        case OPT_LIST_MODELS:
            out->mode = CLI_LIST_MODELS, ps->modes++;
            break;
        case OPT_NAPKIN:
            ps->latency_model = RT_LATENCY_NAPKIN, ps->latency_flags++;
            break;
        case OPT_DETAILED:
            ps->latency_model = RT_LATENCY_DETAILED, ps->latency_flags++;
            break;
        case OPT_ESTIMATE:
            ps->latency_flags++;
            if (strcmp(optarg, "napkin") == 0)
                ps->latency_model = RT_LATENCY_NAPKIN;
            else if (strcmp(optarg, "floor") == 0 || strcmp(optarg, "detailed") == 0)
                ps->latency_model = RT_LATENCY_DETAILED;
            else if (strcmp(optarg, "realistic") == 0)
                ps->latency_model = RT_LATENCY_REALISTIC;
            else {
                snprintf(err, errsize, "--estimate '%s': give napkin, floor or realistic", optarg);
                return 2;
            }
            break;
        case OPT_CALIBRATE:
            out->mode = CLI_CALIBRATE, ps->modes++;
            out->calibrate_path = optarg;
            if (!optarg[0]) {
                snprintf(err, errsize, "--calibrate: no file named (the path is empty)");
                return 2;
            }
            break;
        case OPT_CALIBRATE_SCOPE:
            if (strcmp(optarg, "chip") != 0 && strcmp(optarg, "all") != 0) {
                snprintf(err, errsize, "--calibrate-scope '%s': give chip or all", optarg);
                return 2;
            }
            out->calibrate_all = strcmp(optarg, "all") == 0;
            break;
        case OPT_WRITE_CHIP:
            out->write_chip = optarg;
            if (!optarg[0]) {
                snprintf(err, errsize, "--write-chip: no file named (the path is empty)");
                return 2;
            }
            break;
        case OPT_VALIDATE:
            out->mode = CLI_VALIDATE, ps->modes++;
            out->validate_path = optarg;
            if (!optarg[0]) {
                snprintf(err, errsize, "--validate: no file named (the path is empty)");
                return 2;
            }
            break;
        case OPT_WRITE_PROFILES:
            out->write_profiles = optarg;
            if (!optarg[0]) {
                snprintf(err, errsize, "--write-profiles: no file named (the path is empty)");
                return 2;
            }
            break;
        case OPT_POINTS: {
            if (!optarg[0]) {
                snprintf(err, errsize, "--points: no file named (the path is empty)");
                return 2;
            }
            char shown[200];
            if (measured_points_read_path(optarg, path_shown(shown, sizeof shown, optarg), out->points, RT_MAX_POINTS,
                                          &out->point_count, &out->points_context, &out->warnings, err, errsize) != 0)
                return 2;
            break;
        }
        case OPT_ASCII:
            if (!out->explorer_only)
                out->explorer_only = "--ascii";
            out->explorer.force_ascii = true;
            break;
        case OPT_NO_COLOR:
            if (!out->explorer_only)
                out->explorer_only = "--no-color";
            out->explorer.no_color = true;
            break;
        case OPT_BASELINE: {
            char *text;
            size_t len;
            if (read_flag_file(OPT_BASELINE, optarg, &text, &len, err, errsize) != 0)
                return 2;
            char shown[200];
            scenario_default(&out->explorer.baseline);
            int rc = scenario_from_json(text, len, path_shown(shown, sizeof shown, optarg), &out->explorer.baseline,
                                        &out->warnings, err, errsize);
            free(text);
            if (rc != 0)
                return 2;
            out->explorer.has_baseline = true;
            out->baseline_path = optarg;
            break;
        }
        case OPT_WRITE_SCENARIO:
            out->write_scenario = optarg;
            if (!optarg[0]) {
                snprintf(err, errsize, "--write-scenario: no file named (the path is empty)");
                return 2;
            }
            /* The explorer's 's' offers this path: never a shortened one. */
            if (snprintf(out->explorer.save_path, sizeof out->explorer.save_path, "%s", optarg) >=
                (int)sizeof out->explorer.save_path) {
                snprintf(err, errsize, "--write-scenario: the path is too long (%zu bytes; at most %zu)",
                         strlen(optarg), sizeof out->explorer.save_path - 1);
                return 2;
            }
            break;
        case OPT_THEME:
            if (!out->explorer_only)
                out->explorer_only = "--theme";
            ps->theme_text = optarg;
            break;
        case OPT_BACKGROUND:
            if (!out->explorer_only)
                out->explorer_only = "--background";
            if (strcmp(optarg, "light") != 0 && strcmp(optarg, "dark") != 0) {
                snprintf(err, errsize, "--background '%s': must be light or dark", optarg);
                return 2;
            }
            out->explorer.background = strcmp(optarg, "light") == 0 ? EXPLORER_BG_LIGHT : EXPLORER_BG_DARK;
            break;
        case OPT_PRESENT:
            if (!out->explorer_only)
                out->explorer_only = "--present";
            out->explorer.present = true;
            break;
        case OPT_LIST_THEMES:
            out->mode = CLI_LIST_THEMES, ps->modes++;
            break;
        case OPT_SEARCH:
            out->mode = CLI_SEARCH, ps->modes++;
            break;
        case OPT_PLOT:
            out->plot = true;
            break;
        case OPT_TOUR:
            if (!out->explorer_only)
                out->explorer_only = "--tour";
            /* --tour, --tour=NAME or --tour NAME: the next argument when it is not a flag. */
            ps->tour_text = optarg ? optarg : optind < argc && argv[optind][0] != '-' ? argv[optind++] : "";
            break;
        case OPT_DIFF:
            out->mode = CLI_DIFF, ps->modes++;
            out->diff_a = optarg;
            if (!optarg[0]) {
                snprintf(err, errsize, "--diff: no file named (the path is empty)");
                return 2;
            }
            break;
        case ':':
            snprintf(err, errsize, "%s needs a value (rooftop --help)", argv[optind - 1]);
            return 2;
        case '?':
            unknown_option(argv[optind - 1], err, errsize);
            return 2;
        default:
            if (c > OPT_REPORT && c < OPT_COUNT)
                ps->pend.text[c] = optarg ? optarg : ""; /* "" marks a flag without a value as given */
            break;
        }
    }
    if (out->mode == CLI_DIFF && !out->diff_baseline) {
        /* --diff A.json B.json: B is the one argument that is not a flag. */
        if (optind >= argc || !argv[optind][0]) {
            snprintf(err, errsize, "--diff %s needs a second scenario file: rooftop --diff A.json B.json",
                     out->diff_a);
            return 2;
        }
        out->diff_b = argv[optind++];
        for (int id = OPT_REPORT + 1; id < OPT_COUNT; id++)
            if (ps->pend.text[id]) {
                snprintf(err, errsize, "--diff compares two saved scenarios as they are: drop --%s (--baseline FILE "
                                       "compares FILE with the scenario the flags give)",
                         flag_name(id));
                return 2;
            }
    }
    if (optind < argc) {
        snprintf(err, errsize, "unexpected argument '%s' (flags take the form --name VALUE; rooftop --help)",
                 argv[optind]);
        return 2;
    }
    return -1;
}

/* The modes and formats that go together, and the files they read and
 * write, before any scenario flag is applied. Returns -1 to go on, or the
 * status cli_parse returns (2 with err set) (one rule after another, each
 * its own message). */
static int check_modes(struct cli_options *out, struct parse_state *ps, char *err, size_t errsize)
{
    /* Only now, so that --help and --version (returned above) read no user
     * file: a broken chips folder cannot stop them. */
    load_user_chips(out);
    if (ps->modes > 1) {
        snprintf(err, errsize,
                 "choose one of --report, --sweep, --search, --diff, --calibrate, --validate, "
                 "--list-chips, --list-models, --list-themes");
        return 2;
    }
    if (ps->pend.text[OPT_GATED] && ps->pend.text[OPT_PLAIN_MLP]) {
        snprintf(err, errsize, "choose one of --gated and --plain-mlp");
        return 2;
    }
    if (ps->pend.text[OPT_TIED] && ps->pend.text[OPT_UNTIED]) {
        snprintf(err, errsize, "choose one of --tied and --untied");
        return 2;
    }
    if (ps->latency_flags > 1) {
        snprintf(err, errsize, "choose one of --napkin, --detailed and --estimate");
        return 2;
    }
    if ((out->write_chip || out->calibrate_all || out->write_profiles) && out->mode != CLI_CALIBRATE) {
        snprintf(err, errsize, "--write-chip, --write-profiles and --calibrate-scope go with --calibrate FILE");
        return 2;
    }
    if (out->write_chip && out->calibrate_all) {
        snprintf(err, errsize, "--write-chip saves one chip: it goes with --calibrate-scope chip, not all");
        return 2;
    }
    const char *outputs[2] = {out->write_chip, out->write_profiles};
    for (int i = 0; i < 2 && out->calibrate_path; i++) { /* the measurements are never overwritten by the fit */
        struct stat a, b;
        if (outputs[i] && stat(outputs[i], &a) == 0 && stat(out->calibrate_path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            snprintf(err, errsize, "--%s %s is the --calibrate file itself: the fit would replace its measurements; "
                                   "name another file",
                     i == 0 ? "write-chip" : "write-profiles", outputs[i]);
            return 2;
        }
    }
    if (ps->report)
        out->mode = CLI_REPORT;
    if (ps->sweep)
        out->mode = CLI_SWEEP;
    if (out->value_count > 0 && !ps->sweep) {
        snprintf(err, errsize, "--values goes with --sweep");
        return 2;
    }
    if (ps->format_text && ps->report_text) {
        snprintf(err, errsize, "--report=%s and --format=%s: give the format once", ps->report_text, ps->format_text);
        return 2;
    }
    /* --baseline FILE pins FILE in the explorer; with --format (no other
     * mode) it prints the diff of FILE against the flags' scenario instead,
     * and so it does where the explorer would fall back to text. */
    if (out->baseline_path && (ps->report || ps->sweep || (out->mode != CLI_EXPLORE && out->mode != CLI_DIFF))) {
        snprintf(err, errsize, "--baseline goes with the explorer, or with --format=text|markdown|json for the "
                               "diff of FILE against the flags");
        return 2;
    }
    if (ps->tour_text && (ps->report || ps->sweep || out->mode != CLI_EXPLORE)) {
        snprintf(err, errsize, "--tour opens the explorer: give it without --report, --sweep, --diff or a list");
        return 2;
    }
    if (ps->tour_text && load_tour(out, ps->tour_text, err, errsize) != 0)
        return 2;
    if (out->baseline_path && out->mode == CLI_DIFF) {
        snprintf(err, errsize, "--diff A B compares two saved scenarios; --baseline FILE compares FILE with the "
                               "flags: give one of them");
        return 2;
    }
    if (out->baseline_path && ps->format_text) {
        out->mode = CLI_DIFF;
        out->diff_baseline = true;
        out->diff_a = out->baseline_path;
    }
    if (ps->format_text &&
        !(ps->sweep || ps->report || out->mode == CLI_LIST_CHIPS || out->mode == CLI_SEARCH || out->mode == CLI_DIFF ||
          out->mode == CLI_VALIDATE)) {
        snprintf(err, errsize,
                 "--format goes with --sweep, --search, --report, --diff, --baseline, --validate or --list-chips");
        return 2;
    }
    const char *fmt = ps->report_text ? ps->report_text : ps->format_text;
    if (fmt && format_parse(fmt, &out->format) != 0) { /* the formats this mode prints, no other */
        bool no_csv = out->mode == CLI_DIFF || out->mode == CLI_VALIDATE || out->mode == CLI_LIST_CHIPS;
        snprintf(err, errsize, "%s '%s': give %s", ps->report_text ? "--report" : "--format", fmt,
                 out->mode == CLI_LIST_CHIPS ? "text or json" : no_csv ? "text, markdown or json" : "text, json, markdown or csv");
        return 2;
    }
    if (fmt && out->mode == CLI_LIST_CHIPS && out->format != RT_FORMAT_TEXT && out->format != RT_FORMAT_JSON) {
        snprintf(err, errsize, "--list-chips --format=%s: give text or json", fmt);
        return 2;
    }
    if (out->plot && !(out->mode == CLI_REPORT && (out->format == RT_FORMAT_TEXT || out->format == RT_FORMAT_MARKDOWN))) {
        snprintf(err, errsize, "--plot goes with --report=markdown or --report=text");
        return 2;
    }
    out->kernels_from = ps->pend.text[OPT_KERNELS_FROM];
    if (fmt && out->mode == CLI_VALIDATE && out->format == RT_FORMAT_CSV) {
        snprintf(err, errsize, "--validate --format=csv: give text, markdown or json");
        return 2;
    }
    if (ps->pend.text[OPT_OP] && (out->mode == CLI_SWEEP || out->mode == CLI_SEARCH)) {
        snprintf(err, errsize, "--op puts one operation on the roof: it does not go with %s (a model's)",
                 out->mode == CLI_SWEEP ? "--sweep" : "--search");
        return 2;
    }
    if (ps->pend.text[OPT_OP] && out->write_scenario) { /* a scenario file holds no operation: it would report the model */
        snprintf(err, errsize, "--op and --write-scenario: a scenario file saves a model's scenario, not one "
                               "operation; give the --op flags again instead");
        return 2;
    }
    if (ps->pend.text[OPT_OP] && out->mode == CLI_REPORT && out->format == RT_FORMAT_CSV) {
        snprintf(err, errsize, "--op --report=csv: give text, markdown or json");
        return 2;
    }
    if (fmt && out->mode == CLI_DIFF && out->format == RT_FORMAT_CSV) {
        snprintf(err, errsize, "--%s --format=csv: give text, markdown or json", out->diff_baseline ? "baseline" : "diff");
        return 2;
    }
    return -1;
}

/* Applies the scenario flags in their order (chip and model first), the
 * layout and speculative decoding's counts, then the checks that need the
 * scenario whole. Returns cli_parse's status (0, or 2 with err set) (the
 * rules that need the applied scenario, one after another). */
static int apply_flags(struct cli_options *out, struct parse_state *ps, char *err, size_t errsize)
{
    /* A design review changes the baseline: without --scenario, the flags
     * start from FILE, so "--baseline before.json --batch 64" is before.json
     * at batch 64, not the default scenario at batch 64. */
    if (out->baseline_path && !ps->pend.text[OPT_SCENARIO])
        out->scenario = out->explorer.baseline;
    for (size_t i = 0; i < sizeof apply_order / sizeof apply_order[0]; i++) {
        int id = apply_order[i];
        if (ps->pend.text[id] && apply_flag(id, ps->pend.text[id], out, err, errsize) != 0)
            return 2;
    }
    if (ps->pend.text[OPT_DATA_PARALLEL] && ps->pend.text[OPT_DP]) {
        snprintf(err, errsize, "--dp and --data-parallel are one flag: give it once");
        return 2;
    }
    if (apply_layout(&ps->pend, &out->scenario, err, errsize) != 0)
        return 2;
    /* a list of acceptances by position gives the drafts' count when --spec-tokens does not */
    if (ps->pend.text[OPT_SPEC_ACCEPT] && !ps->pend.text[OPT_SPEC_TOKENS] && out->scenario.spec_accept_positions > 0)
        out->scenario.spec_tokens = out->scenario.spec_accept_positions;
    /* --spec-tokens 0 turns speculative decoding off, whatever a loaded scenario's rates and tree were */
    if (ps->pend.text[OPT_SPEC_TOKENS] && out->scenario.spec_tokens == 0 && !ps->pend.text[OPT_SPEC_ACCEPT] &&
        !ps->pend.text[OPT_SPEC_VERIFY]) {
        out->scenario.spec_accept_positions = 0;
        out->scenario.spec_verify_tokens = 0;
    }
    /* a new count of drafts with a loaded scenario's rates by position: they no longer match */
    if (ps->pend.text[OPT_SPEC_TOKENS] && !ps->pend.text[OPT_SPEC_ACCEPT] && out->scenario.spec_accept_positions > 0 &&
        out->scenario.spec_accept_positions != out->scenario.spec_tokens) {
        snprintf(err, errsize, "--spec-tokens %lld: the scenario's acceptance by position has %lld rates; give "
                               "--spec-accept for %lld drafts",
                 (long long)out->scenario.spec_tokens, (long long)out->scenario.spec_accept_positions,
                 (long long)out->scenario.spec_tokens);
        return 2;
    }
    if (ps->pend.text[OPT_SPEC_VERIFY] && out->scenario.spec_tokens == 0) {
        snprintf(err, errsize, "--spec-verify goes with --spec-tokens K (or --spec-accept's list): the drafts it "
                               "verifies");
        return 2;
    }
    if (ps->pend.text[OPT_SPEC_TOKENS] && out->scenario.spec_tokens > 0 && !ps->pend.text[OPT_SPEC_ACCEPT] &&
        !ps->pend.text[OPT_SCENARIO] && !out->baseline_path) {
        snprintf(err, errsize, "--spec-tokens %lld needs --spec-accept A: the chance each draft token is accepted, "
                               "from 0 up to 1",
                 (long long)out->scenario.spec_tokens);
        return 2;
    }
    if ((ps->pend.text[OPT_SPEC_ACCEPT] || ps->pend.text[OPT_SPEC_DRAFT]) && out->scenario.spec_tokens == 0) {
        snprintf(err, errsize, "--spec-accept and --spec-draft go with --spec-tokens K, K from 1 to 16 (draft tokens "
                               "per pass)");
        return 2;
    }
    if (ps->latency_flags)
        out->scenario.latency_model = ps->latency_model;
    out->precision_given = ps->pend.text[OPT_PRECISION] != NULL;
    out->max_chips_given = ps->pend.text[OPT_MAX_CHIPS] != NULL;
    if (out->mode == CLI_SEARCH && (ps->pend.text[OPT_TP] || ps->pend.text[OPT_PP] || ps->pend.text[OPT_EP] ||
                                    ps->pend.text[OPT_DISAGG] || ps->pend.text[OPT_BATCH] || ps->pend.text[OPT_CHIPS] ||
                                    ps->pend.text[OPT_DP] || ps->pend.text[OPT_DATA_PARALLEL])) {
        snprintf(err, errsize, "--search chooses the layout and the batch itself: drop --chips, --tp, --pp, --ep, "
                               "--dp, --disagg and --%s (--max-chips bounds it)",
                 flag_name(OPT_BATCH));
        return 2;
    }
    if (out->mode == CLI_SEARCH && (ps->pend.text[OPT_ARRIVAL_RATE] || ps->pend.text[OPT_MOE_EP] ||
                                    ps->pend.text[OPT_PREFILL_TP] || ps->pend.text[OPT_PREFILL_DP] ||
                                    ps->pend.text[OPT_PREFILL_MOE_EP])) {
        snprintf(err, errsize, "--search ranks closed-loop designs it lays out itself: drop --arrival-rate, --moe-ep, "
                               "--prefill-tp, --prefill-dp and --prefill-moe-ep");
        return 2;
    }
    /* An open loop has no clients and no benchmark rounds: a flag for them would be silently ignored. */
    if (out->scenario.arrival_per_s > 0.0 && (ps->pend.text[OPT_BENCH_ROUNDS] ||
                                              (ps->pend.text[OPT_BATCH] && strcmp(flag_name(OPT_BATCH), "concurrency") == 0))) {
        snprintf(err, errsize, "--arrival-rate serves an open loop: --%s is a closed loop's; give one",
                 ps->pend.text[OPT_BENCH_ROUNDS] ? "bench-rounds" : "concurrency");
        return 2;
    }
    if (out->mode == CLI_SEARCH && ps->latency_flags) {
        snprintf(err, errsize, "--search ranks designs by the realistic estimate's serving figures: drop --napkin, "
                               "--detailed and --estimate");
        return 2;
    }
    if (ps->pend.text[OPT_PARAMS]) {
        double p;
        if (parse_real(OPT_PARAMS, ps->pend.text[OPT_PARAMS], &p, err, errsize) != 0)
            return 2;
        if (!(p >= 1.0)) {
            snprintf(err, errsize, "--params '%s': give a count of at least 1 (e.g. 70e9)", ps->pend.text[OPT_PARAMS]);
            return 2;
        }
        out->scenario.params = p;
        model_unassume(&out->scenario.model, "stated_params"); /* the given count wins over both */
    }
    if ((out->mode == CLI_EXPLORE || out->mode == CLI_LIST_THEMES || ps->theme_text) &&
        load_themes(out, ps->theme_text, err, errsize) != 0)
        return 2;
    if (out->mode == CLI_LIST_CHIPS || out->mode == CLI_LIST_MODELS || out->mode == CLI_LIST_THEMES)
        return 0;
    char shape_err[300];
    if (model_shape_check(&out->scenario.model, shape_err, sizeof shape_err) != 0) {
        /* A shape that no longer holds together after shape flags: name them, since the field the check
         * names (kv_heads) may not be the flag that broke it (--heads 5). */
        static const int shape_flags[] = {OPT_LAYERS, OPT_HEADS, OPT_KV_HEADS, OPT_D_MODEL, OPT_D_HEAD, OPT_D_FF,
                                          OPT_VOCAB, OPT_WINDOW};
        char given[200] = "";
        for (size_t i = 0; i < sizeof shape_flags / sizeof shape_flags[0]; i++) {
            int id = shape_flags[i];
            if (!ps->pend.text[id])
                continue;
            size_t used = strlen(given);
            snprintf(given + used, sizeof given - used, "%s--%s %.24s", used ? ", " : "", flag_name(id), ps->pend.text[id]);
        }
        if (given[0]) {
            snprintf(err, errsize, "%s: model %s: %s", given, out->scenario.model.name, shape_err);
            return 2;
        }
    }
    if (scenario_check(&out->scenario, err, errsize) != 0) {
        echo_given_text(&ps->pend, err, errsize);
        return 2;
    }
    return 0;
}

int cli_parse(int argc, char **argv, struct cli_options *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    scenario_default(&out->scenario);
    if (chip_db_init(&out->chips) != 0) {
        snprintf(err, errsize, "out of memory");
        return 1;
    }
    out->mode = CLI_EXPLORE;
    struct parse_state ps = {.latency_model = RT_LATENCY_NAPKIN};
    int rc = read_flags(argc, argv, out, &ps, err, errsize);
    if (rc < 0)
        rc = check_modes(out, &ps, err, errsize);
    if (rc < 0)
        rc = apply_flags(out, &ps, err, errsize);
    return rc;
}

void cli_say(FILE *errout, const char *fmt, ...)
{
    char msg[1024], safe[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(errout, "rooftop: %s\n", text_safe(safe, sizeof safe, msg, false));
}

void cli_print_warnings(FILE *errout, const struct load_warnings *w)
{
    for (int i = 0; i < w->count && i < RT_MAX_WARNINGS; i++) /* a note keeps its own word (note_add) */
        cli_say(errout, "%s%s", warning_word(w->text[i]), w->text[i]);
    if (w->dropped > 0)
        cli_say(errout, "warning: ... and %d more warning%s", w->dropped, w->dropped == 1 ? "" : "s");
}

int cli_scenario_from_flags(int argc, char **argv, struct scenario *out, char *why, size_t whysize)
{
    struct cli_options *o = malloc(sizeof *o);
    if (!o) {
        snprintf(why, whysize, "out of memory");
        return 1;
    }
    int rc = cli_parse(argc, argv, o, why, whysize);
    if (rc == 0 && o->mode != CLI_EXPLORE && o->mode != CLI_REPORT) {
        snprintf(why, whysize, "the flags must describe a scenario, not a mode");
        rc = 2;
    }
    if (rc == 0)
        *out = o->scenario;
    cli_options_free(o);
    free(o);
    return rc;
}
