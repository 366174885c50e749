/* kernels.h — one kernel's realistic time, from a physical model whose
 * constants are fitted to measured kernels.
 *
 * The kernels an LLM forward pass is made of (a GEMM, prefill and decode
 * attention, latent attention, a fused MoE layer, a collective) each have a
 * closed-form model: the work and the bytes the shape implies, how that work
 * divides over the chip's streaming multiprocessors (tiles and waves, work
 * units and splits), the achieved fraction of the tensor peak and of the
 * memory bandwidth, the fixed costs of a launch. The constants of each model
 * are fitted per chip, serving engine and number format to AIConfigurator's
 * measured tables (github:ai-dynamo/aiconfigurator @ 095f58a5,
 * systems/data/, Apache-2.0; 226,399 rows on seven GPU systems) by
 * kernel_fit_params() and kernel_fit_cv() (kernelfit.h), by `make profiles`; every constant has
 * a name (kernel_param_name) and each fit carries its cross-validated error.
 *
 * A chip without measurements of its own borrows the profile of its nearest
 * measured sibling: the fitted fractions are kept, the chip's own peaks,
 * bandwidth, SMs and cache are used, and a published derating (where the
 * vendor's kernels are known to reach less) scales the fractions; the
 * estimate says which profile it used.
 *
 * Pure: no I/O, no allocation, no globals beyond const tables.
 */
#ifndef ROOFTOP_KERNELS_H
#define ROOFTOP_KERNELS_H

/* One H100 SM's share of its dense bf16 peak (989.4 TFLOP/s over 132 SMs,
 * the Hopper whitepaper): the SM count taken for a chip that states none
 * and borrows no measured sibling's. */
#define RT_SM_EQUIVALENT_FLOPS_PER_S (989.4e12 / 132.0)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "units.h" /* enum rt_precision */

/* What a kernel does. */
enum rt_kernel_kind {
    RT_KERNEL_GEMM = 0,         /* y[m,n] = x[m,k] W[k,n] */
    RT_KERNEL_ATTENTION,        /* causal prefill attention (FlashAttention-class), batch x seq */
    RT_KERNEL_DECODE_ATTENTION, /* one decode step over a paged KV cache of kv_len tokens */
    RT_KERNEL_MLA,              /* latent attention (DeepSeek MLA), prefill */
    RT_KERNEL_DECODE_MLA,       /* latent attention, one decode step */
    RT_KERNEL_MOE,              /* a fused MoE layer's routed experts (gate/up, activation, down) */
    RT_KERNEL_ALLREDUCE,        /* the serving engine's own all-reduce */
    RT_KERNEL_NCCL_ALLREDUCE,   /* NCCL's collectives */
    RT_KERNEL_NCCL_ALLGATHER,
    RT_KERNEL_NCCL_REDUCE_SCATTER,
    RT_KERNEL_NCCL_ALLTOALL,
    RT_KERNEL_KIND_COUNT
};

/* "gemm", "attention", "decode-attention", "mla", "decode-mla", "moe",
 * "all-reduce", "nccl-all-reduce", "nccl-all-gather",
 * "nccl-reduce-scatter", "nccl-all-to-all"; "?" out of range. The --op
 * names. */
const char *kernel_kind_name(enum rt_kernel_kind k);

/* Parses a kind name (kernel_kind_name's, ignoring case and punctuation;
 * "all-gather", "reduce-scatter", "all-to-all" name NCCL's). Returns 0 and
 * sets *out, or -1. */
int kernel_kind_parse(const char *text, enum rt_kernel_kind *out);

/* The number formats the measured kernels run in: weights and activations
 * together (the tables' dtype names). */
enum rt_kernel_format {
    RT_KF_BF16 = 0,   /* bfloat16 both */
    RT_KF_FP8,        /* fp8 e4m3, per-tensor scales (W8A8) */
    RT_KF_FP8_BLOCK,  /* fp8 with 128x128 weight-block and 1x128 activation scales (DeepSeek-V3, DeepGEMM) */
    RT_KF_NVFP4,      /* NVFP4 both (W4A4: e2m1, an e4m3 scale per 16 elements) */
    RT_KF_MXFP4,      /* MXFP4 both (W4A4: e2m1, an e8m0 scale per 32 elements) */
    RT_KF_INT8,       /* int8 both (SmoothQuant W8A8) */
    RT_KF_INT8_WO,    /* int8 weights, bf16 activations (W8A16) */
    RT_KF_INT4_WO,    /* int4 weights, bf16 activations (W4A16, AWQ/GPTQ-class) */
    RT_KF_MXFP4_WO,   /* MXFP4 weights, bf16 activations (W4A16) */
    RT_KF_MXFP4_A8,   /* MXFP4 weights, MXFP8 activations (W4A8) */
    RT_KF_FP8_WO,     /* fp8 weights, bf16 activations (W8A16 on a chip without fp8) */
    RT_KF_COUNT
};

/* The tables' spelling: "bfloat16", "fp8", "fp8_block", "nvfp4",
 * "mxfp4", "sq", "int8_wo", "int4_wo", "w4a16_mxfp4", "w4a8_mxfp4_mxfp8",
 * "fp8_wo"; "?" out of range. */
const char *kernel_format_name(enum rt_kernel_format f);

/* Parses a table's dtype name (also "bf16", "float16", "half", "int8" for
 * sq). Returns 0 and sets *out, or -1. */
int kernel_format_parse(const char *text, enum rt_kernel_format *out);

/* Bytes of one weight element in format f, block scales counted: bf16 2;
 * fp8 1; fp8_block 1 + 4/16384 (an fp32 scale per 128 x 128 block); nvfp4
 * 0.5625 (4 bits + an 8-bit scale per 16: NVIDIA's NVFP4); mxfp4 0.53125
 * (4 bits + an 8-bit scale per 32: OCP MX v1.0); int8 1; int4 0.5 + 2/128
 * (an fp16 scale per group of 128, AWQ/GPTQ). 0 out of range. */
double kernel_format_weight_bytes(enum rt_kernel_format f);

/* Bytes of one activation element as the kernel reads it: 2 for the
 * weight-only formats (bf16 activations), 1 for fp8/int8 (fp8_block 1 +
 * 4/128), 0.5625 nvfp4, 0.53125 mxfp4, 1 + 1/32 for MXFP8. */
double kernel_format_act_bytes(enum rt_kernel_format f);

/* The kernel format (kernels.h) of matmuls whose weights are at w and
 * whose inputs (the compute precision) are at a: bf16 -> bfloat16; fp8,
 * fp8-block, int8, nvfp4, mxfp4 natively when a is the same; any of them
 * weight-only (W8A16, W4A16) when a is bf16; int4 always W4A16; nvfp4 or
 * mxfp4 weights on fp8 inputs W4A8 (w4a8_mxfp4_mxfp8). */
enum rt_kernel_format kernel_format_for(enum rt_precision w, enum rt_precision a);

/* Which tensor-core rate a format's matmuls run at. */
enum rt_kernel_rate { RT_RATE_BF16 = 0, RT_RATE_FP8, RT_RATE_INT8, RT_RATE_FP4, RT_RATE_COUNT };

/* The rate of format f: bf16 for the weight-only formats, fp8 for fp8,
 * fp8_block and W4A8, int8 for sq, fp4 for nvfp4 and mxfp4. */
enum rt_kernel_rate kernel_format_rate(enum rt_kernel_format f);

/* Serving engines whose kernels were measured. */
enum rt_kernel_engine { RT_KE_TRTLLM = 0, RT_KE_VLLM, RT_KE_SGLANG, RT_KE_COUNT };

/* "trtllm", "vllm", "sglang"; "?" out of range. */
const char *kernel_engine_name(enum rt_kernel_engine e);

/* The measured engine whose kernels an engine name runs: "trtllm",
 * "tensorrt-llm", "nim", "dynamo" -> trtllm; "vllm" -> vllm; "sglang" ->
 * sglang; anything else (lmdeploy, llama.cpp, pytorch, generic) -> trtllm,
 * with *guessed set true. */
enum rt_kernel_engine kernel_engine_for(const char *engine_name, bool *guessed);

/* True for NCCL's collectives (whose fits are no engine's), and for any
 * collective (the engines' all-reduce too): no FLOPs, bytes over a link. */
bool kernel_kind_is_nccl(enum rt_kernel_kind k);
bool kernel_kind_is_collective(enum rt_kernel_kind k);

/* True for the attention kinds (prefill and decode, MLA too): a KV cache, heads. */
bool kernel_kind_is_attention(enum rt_kernel_kind k);

/* Whose kernels an operation of kind k on engine e is, as reports name it:
 * "nccl" for NCCL's collectives, else kernel_engine_name(e). */
const char *kernel_engine_label(enum rt_kernel_kind k, enum rt_kernel_engine e);

/* The kernel library that runs a kernel, as the measured tables name it
 * (kernel_source): engines ship several for the same work, and they differ.
 * RT_KFAM_ANY picks the one an engine runs (the family with the most
 * measurements for that work). */
enum rt_kernel_family {
    RT_KFAM_ANY = 0, RT_KFAM_DEFAULT, RT_KFAM_DEEPGEMM, RT_KFAM_CUTLASS, RT_KFAM_FLASHINFER, RT_KFAM_TRTLLM,
    RT_KFAM_TRITON, RT_KFAM_MARLIN, RT_KFAM_FA2, RT_KFAM_FA3, RT_KFAM_FA4, RT_KFAM_FLASH_ATTN, RT_KFAM_FLASHMLA,
    RT_KFAM_PLUGIN, RT_KFAM_NONGATED, RT_KFAM_GRAPH, RT_KFAM_EAGER, RT_KFAM_XQA, RT_KFAM_MMHA, RT_KFAM_COUNT
};

/* "any", "default", "deepgemm", "cutlass", "flashinfer", "trtllm",
 * "triton", "marlin", "fa2", "fa3", "fa4", "flash-attn", "flashmla",
 * "plugin", "nongated", "graph", "eager", "xqa", "mmha"; "?" out of range. */
const char *kernel_family_name(enum rt_kernel_family f);

/* The kernel TensorRT-LLM's decode attention dispatches to: XQA for a group
 * of 2 to 32 query heads a KV head, else masked multi-head attention (one
 * unit a head), as its attention op chooses. */
enum rt_kernel_family kernel_trtllm_decode_family(double heads, double kv_heads);

/* The family of a kernel_source name as the tables write it
 * ("DeepGemmFp8BlockScaledMMKernel" -> deepgemm, "vllm_flash_attn_fa3" ->
 * fa3, "SGLang_CustomAllReduce_graph" -> graph, "torch_flow" -> default),
 * or of a family name itself. Never fails: unknown names are default. */
enum rt_kernel_family kernel_family_of(const char *kernel_source);

/* One kernel's shape. Unused fields are 0. Dimensions are element counts
 * (>= 1 where used); kernel_shape_check says which are needed per kind. */
struct kernel_shape {
    enum rt_kernel_kind kind;
    enum rt_kernel_format format;    /* GEMM, MoE: weights and activations; attention: bf16, or fp8
                                        compute (FP8 context FMHA); collectives: the elements (bf16) */
    bool kv_fp8;                     /* attention: the KV cache is fp8 (else bf16) */
    enum rt_kernel_family family;    /* the kernel library; RT_KFAM_ANY: the engine's usual one */
    enum rt_kernel_engine engine;    /* whose kernels: an engine's dispatch rules pick the kernel (MLA's
                                        head dims, vLLM's seq_len counting the new token) */
    /* GEMM */
    double m, n, k;
    /* attention: batch sequences of seq tokens (prefill), or kv_len cached
     * tokens (decode); heads and kv_heads on this chip; window 0 = full */
    double batch, seq, kv_len, heads, kv_heads, head_dim, window;
    double queries;                  /* decode: query tokens a sequence scores this step (k + 1 verifying k
                                        drafts); 0 or 1 = one */
    /* MoE: tokens entering the layer, widths, routing, and the shard one
     * chip runs (experts / ep of them, each inter / tp wide); skew 0 =
     * balanced, else the power-law exponent of the experts' token counts */
    double tokens, hidden, inter, topk, experts, moe_tp, moe_ep, skew;
    /* collectives: chips taking part and bytes per chip */
    double gpus, message_bytes;
    /* Timed alone and repeatedly, as a benchmark does: operands that fit in
     * the L2 cache are read from it. False inside a model's forward pass. */
    bool warm_cache;
    /* A MoE layer timed as SGLang's collector times expert parallelism:
     * rank 0 is fed only the tokens with a slot on it, and their remote
     * slots are clamped onto its expert 0 (set for SGLang benchmarks). */
    bool rank0_only;
};

/* Checks that s has the dimensions its kind needs, each finite, >= 1 (window
 * and skew >= 0) and at most 2^40. Returns 0, or -1 with one line naming the
 * field in err. */
int kernel_shape_check(const struct kernel_shape *s, char *err, size_t errsize);

/* The chip figures a kernel model reads. */
struct kernel_chip {
    double peak_flops_per_s[RT_RATE_COUNT]; /* dense tensor peaks; 0 = no such rate */
    double hbm_bytes_per_s;
    double l2_bytes;                 /* last-level cache; 0 = unknown (no cache term) */
    double sm_count;                 /* streaming multiprocessors; 0 = no wave model */
    double link_bytes_per_s;         /* one direction of the scale-up link (NVLink, PCIe) */
    double exp_per_s;                /* special-function (exp2) results per second: SMs x 16 a clock x the
                                        boost clock (CUDA C Programming Guide, arithmetic instruction
                                        throughput); 0 = unknown (no softmax term) */
    /* How the cache and the memory behave under a kernel timed alone
     * (kernel_profiles.c measures them per chip): the share of L2 reusable
     * across replays (one partition of two), the sharpness of the
     * resident-to-evicted transition, whether L2 keeps dirty output lines
     * (Ada), the fraction of HBM bandwidth an output's write-back reaches,
     * the sustained-load clock drop. */
    double l2_usable, l2_sharpness;
    bool l2_keeps_output;
    double write_fraction, power_drop;
};

#define RT_KERNEL_PARAMS 12

/* The kernel models' version: raised whenever a model's formula or
 * constants change, so that fits made for another version are never read
 * as this one's (kernel_builtin_fits refuses them; `make profiles` refits). */
#define RT_KERNEL_MODEL_VERSION 9

/* One fitted parameter set: a kind's model constants for one chip,
 * engine and format. */
struct kernel_fit {
    uint8_t kind;                    /* enum rt_kernel_kind */
    uint8_t engine;                  /* enum rt_kernel_engine (collectives: the engine, or 0 for NCCL) */
    uint8_t format;                  /* enum rt_kernel_format (attention: bf16 or fp8 compute) */
    uint8_t kv_fp8;                  /* attention: fitted on fp8 KV caches */
    uint8_t family;                  /* enum rt_kernel_family */
    uint16_t rows;                   /* measured rows it was fitted on */
    float cv_error;                  /* 5-fold cross-validated MAPE on those rows, fraction */
    float p[RT_KERNEL_PARAMS];       /* the model's constants, kernel_param_name names them */
};

#define RT_KERNEL_FITS_MAX 160
#define RT_KERNEL_FROM_MAX 32
#define RT_KERNEL_DERATE_SOURCE_MAX 200

/* A chip's kernel profile as a chip file gives it: where its fits come
 * from, and the fits themselves when they are the chip's own (written by
 * --calibrate). A built-in chip has none: kernel_view_for() finds its
 * measured sibling in the built-in map. */
struct kernel_profile {
    char from[RT_KERNEL_FROM_MAX];   /* the measured chip whose built-in fits to use; "" = none */
    char from2[RT_KERNEL_FROM_MAX];  /* a second sibling for the formats the first lacks (FP4); "" = none */
    bool measured;                   /* the fits were measured on this chip itself */
    float compute_derate;            /* a borrowed profile's correction of the peak fractions, (0, 1]; 0 = 1 */
    float memory_derate;             /* of the bandwidth fractions, (0, 1]; 0 = 1 */
    double l2_bytes;                 /* the chip's last-level cache; 0 = unknown */
    char source[RT_KERNEL_DERATE_SOURCE_MAX]; /* where the derates and the cache size come from */
    bool sibling;                    /* from is the same architecture (its transfer error is a sibling's) */
    uint16_t count;                  /* fits of its own (0: the built-in set of from) */
    struct kernel_fit fits[RT_KERNEL_FITS_MAX];
};

/* The fits a kernel is looked up in, resolved once per scenario. */
struct kernel_view {
    const struct kernel_fit *fits;   /* the chip's own, or its sibling's (built-in) */
    int count;
    const struct kernel_fit *fits2;  /* the second sibling's */
    int count2;
    bool measured;                   /* fits are the chip's own measurements */
    double compute_derate, memory_derate; /* 1 = none */
    bool sibling;                    /* borrowed from a chip of the same architecture (else another's) */
    double l2_bytes;
    const char *from;                /* the chip the fits were measured on ("" = defaults) */
    const char *source;              /* why (the derates' and the cache's sources) */
    /* Each kind's fits lie in [lo, hi) of fits (and of fits2): found once,
     * so that a lookup scans its kind's few rather than all. */
    uint8_t lo[RT_KERNEL_KIND_COUNT], hi[RT_KERNEL_KIND_COUNT];
    uint8_t lo2[RT_KERNEL_KIND_COUNT], hi2[RT_KERNEL_KIND_COUNT];
};

/* The compiled-in fits of a measured chip (its key, e.g. "h100"), made by
 * `make profiles` (kernel_profiles.inc); NULL with *count 0 for a chip
 * without measurements, or when the table was fitted for another
 * RT_KERNEL_MODEL_VERSION (kernel_builtin_version says which). */
const struct kernel_fit *kernel_builtin_fits(const char *chip_key, int *count);

/* The RT_KERNEL_MODEL_VERSION the compiled-in fits were made for. */
int kernel_builtin_version(void);

/* The view of chip_key's kernels: prof's when it names a source or has fits
 * (a chip file), else the built-in map's row for chip_key (its measured
 * sibling, derates and cache), else defaults. prof may be NULL. The view
 * points into prof and static tables: it lives as long as prof. */
void kernel_view_for(const char *chip_key, const struct kernel_profile *prof, struct kernel_view *out);

struct chip_spec;

/* The kernel figures of chip c (chips.h): its dense peaks per rate, HBM
 * bandwidth, SMs, one direction of its interconnect, and the cache v says
 * (c's own first). */
void kernel_chip_of(const struct chip_spec *c, const struct kernel_view *v, struct kernel_chip *out);

/* Finds each kind's slice of v's fits (kernel_view_for calls it; a view
 * built by hand must call it before a lookup). */
void kernel_view_index(struct kernel_view *v);

/* The built-in map's row for a chip: its sibling(s), derates and cache, as
 * a profile without fits; false when the chip has no row. */
bool kernel_builtin_profile(const char *chip_key, struct kernel_profile *out);

/* The architecture of a built-in chip ("ampere", "hopper", "blackwell",
 * "ada", "cdna3", "tpu", ...), or NULL for a chip rooftop does not know:
 * another chip's fits borrowed within one architecture are a sibling's. */
const char *kernel_chip_architecture(const char *chip_key);

/* Names of kind's constants, p[0..kernel_param_count(kind)), e.g. for a
 * GEMM "peak_fraction", "k_step_s", "hbm_fraction", "launch_s", ...; NULL
 * past the count. */
const char *kernel_param_name(enum rt_kernel_kind kind, int i);
int kernel_param_count(enum rt_kernel_kind kind);

/* Whether constant i matters for shapes like s (a GEMM's recipe switches
 * some off: a split-K fix-up only where the library splits K, a quantiser
 * only where one runs); the fit moves only those. */
bool kernel_param_used(const struct kernel_shape *s, int i);

/* Index of kind's constant named name, or -1. */
int kernel_param_index(enum rt_kernel_kind kind, const char *name);

/* The model's constants when nothing was fitted: a starting point for the
 * fit, and the uncalibrated estimate. Fills p[0..count). */
void kernel_default_params(enum rt_kernel_kind kind, float p[RT_KERNEL_PARAMS]);

/* Another start for the fit (k = 1: a faster kernel, k = 2: a slower
 * one): every fraction (a name ending "fraction" or "speedup") scaled up
 * or down and every time down or up, within its range; the GEMM's its
 * prototype's (a high and a low per-CTA load rate). Changes p in place. */
void kernel_alt_start(enum rt_kernel_kind kind, int k, float p[RT_KERNEL_PARAMS]);

/* Each constant's range, [lo, hi], for the fit and for chip files. A
 * discrete constant (a kernel's tile, whether it packs GQA heads) has
 * lo == hi == its default and its values in kernel_param_choices. */
void kernel_param_range(enum rt_kernel_kind kind, int i, double *lo, double *hi);

/* The values a discrete constant i of kind may take (the fit tries each):
 * their count, and *values pointed at them; 0 for a continuous one. */
int kernel_param_choices(enum rt_kernel_kind kind, int i, const float **values);

/* Where an estimate's constants came from. */
enum rt_kernel_source {
    RT_KSRC_MEASURED = 0,  /* fitted on this chip, engine and format */
    RT_KSRC_NEAR,          /* fitted on this chip, for another engine or a near format (named) */
    RT_KSRC_BORROWED,      /* fitted on a sibling chip (profile.from) */
    RT_KSRC_DEFAULT        /* nothing fitted: the kind's default constants */
};

/* The fit to use for shape s under profile prof and engine e: the exact
 * (kind, engine, format, kv, family) set (RT_KFAM_ANY: the family with the
 * most rows), else another family, else the other KV precision, else the
 * same kind and format for another engine, else a near format of the same
 * rate, else NULL (defaults).
 * *src says which (BORROWED when the profile is not the chip's own). */
const struct kernel_fit *kernel_fit_lookup(const struct kernel_view *v, const struct kernel_shape *s,
                                           enum rt_kernel_engine e, enum rt_kernel_source *src);

/* Collectives were measured on 2 to 8 GPUs, one node (AIConfigurator's
 * nccl_perf and custom_allreduce_perf tables). Past 8 the engines' own
 * all-reduce is not used (vLLM's custom all-reduce takes world sizes 2, 4, 6
 * and 8 on one node; TensorRT-LLM's and SGLang's are intra-node too): NCCL's
 * is, and its per-step latency grows by one tree level a doubling (two
 * steps: reduce up, broadcast down) rather than one ring step a GPU, as
 * NCCL's tree and hierarchical algorithms do across nodes. */
#define RT_KERNEL_MEASURED_GPUS_MAX 8
/* The band of a collective past RT_KERNEL_MEASURED_GPUS_MAX GPUs, an
 * extrapolation: at least as unsure as a phase on a borrowed profile. */
#define RT_KERNEL_EXTRAPOLATED_ERROR 0.30

/* The collective that runs for kind k over gpus GPUs: RT_KERNEL_NCCL_ALLREDUCE
 * for the engines' all-reduce past RT_KERNEL_MEASURED_GPUS_MAX, else k. */
enum rt_kernel_kind kernel_collective_kind(enum rt_kernel_kind k, double gpus);

/* Latency steps of collective kind k over n >= 2 GPUs, for its per-step
 * costs: n - 1 (ring; all-reduce's doubling is in its fitted constants), and
 * for an all-reduce past RT_KERNEL_MEASURED_GPUS_MAX, 7 + 2 log2(n / 8)
 * (tree levels). 0 for n < 2. */
double kernel_collective_latency_steps(enum rt_kernel_kind k, double n);

/* Steps of collective kind k over n >= 2 chips that each pay a scale-out
 * hop when the group leaves its scale-up domain (parallel.h
 * RT_SCALE_OUT_EXTRA_STEP_S): an all-reduce's ring 2(n - 1) or tree
 * 2 ceil(log2 n), the fewer (NCCL's tuner; Thakur et al. 2005); n - 1 for
 * the others. 0 for n < 2. */
double kernel_collective_hop_steps(enum rt_kernel_kind k, double n);

/* Why a kernel runs at what it runs: codes with numbers; the report words
 * them (kernel_reason_text). */
enum rt_kernel_reason_code {
    RT_KWHY_WAVES = 1,     /* a: work units (tiles), b: SMs, c: fraction of the waves in use */
    RT_KWHY_SPLIT_K,       /* a: splits of K */
    RT_KWHY_L2,            /* a: share of the bytes read from L2 */
    RT_KWHY_FIXED,         /* a: fixed time (launch, setup), b: its share of the total */
    RT_KWHY_PEAK,          /* a: achieved fraction of the tensor peak, b: the peak (FLOP/s) */
    RT_KWHY_BANDWIDTH,     /* a: achieved fraction of HBM bandwidth */
    RT_KWHY_EXPERTS,       /* a: experts on this chip touched, b: tokens of the busiest expert */
    RT_KWHY_STEPS,         /* a: collective steps, b: bus bytes factor */
    RT_KWHY_NCCL_BEYOND,   /* a: GPUs (past RT_KERNEL_MEASURED_GPUS_MAX): NCCL's all-reduce stands in */
    RT_KWHY_QUANTISER,     /* a: the input quantiser's time, b: its share of the total */
};

struct kernel_reason {
    uint8_t code;
    double a, b, c;
};

#define RT_KERNEL_REASONS_MAX 5

/* One kernel's estimate. */
struct kernel_estimate {
    double flops;           /* work, FLOPs (2 per multiply-add) */
    double bytes;           /* bytes it must move from HBM (or over the link: collectives) at least once */
    double floor_s;         /* max(flops / peak, bytes / bandwidth): the roofline floor */
    double compute_s;       /* the model's compute time (before combining with memory) */
    double memory_s;        /* the model's memory (or link) time */
    double fixed_s;         /* fixed costs: launch, setup, per-step latency */
    double realistic_s;     /* the estimate */
    double peak_flops_per_s;  /* the rate its matmuls run at */
    enum rt_kernel_source source;
    const struct kernel_fit *fit; /* NULL: defaults */
    double error_fraction;  /* how sure: the fit's cross-validated error (borrowed, default: wider) */
    struct kernel_reason why[RT_KERNEL_REASONS_MAX];
    int why_count;
};

/* True for the formats whose GEMMs quantise their input activations
 * (fp8, fp8_block, nvfp4, mxfp4, W4A8 MXFP4) in a kernel of their own
 * before the GEMM. */
bool kernel_format_quantises_input(enum rt_kernel_format f);

/* Kernels a GEMM of format f launches in a forward pass: 2 where its input
 * is quantised by a kernel of its own (kernel_format_quantises_input, and
 * SmoothQuant's int8), else 1. Each launches as a plain (bf16) GEMM does
 * from a CUDA graph, whatever the fit of its format timed alone paid. */
int kernel_in_pass_launches(enum rt_kernel_format f);

/* A fit's cross-validated error as a fraction, to the 4 decimals it is
 * written with (0.0673, not the float's 0.06729999929...); f not NULL. */
double kernel_fit_error(const struct kernel_fit *f);

/* The launch time, seconds, of a plain (bf16) GEMM on the view's chip for
 * engine e (its fit's launch_s, else the default). Inside a forward pass a
 * quantised GEMM and its quantiser launch at twice this: the fitted launch
 * of a quantised GEMM timed alone also carries the collector's Python-side
 * dynamic-scale kernels, which a CUDA graph does not replay. */
float kernel_plain_gemm_launch_s(const struct kernel_view *v, enum rt_kernel_engine e);

/* Estimates kernel s on chip c with the constants p (kernel_param_count
 * of them). Returns the time in seconds (> 0) and, when out is not NULL,
 * fills it (its source, fit and error_fraction are left for the caller).
 * s must pass kernel_shape_check; c's peaks and bandwidth must be > 0 where
 * used (a missing rate falls back to bf16's). derate scales the peak and
 * bandwidth fractions (1 = none). */
double kernel_time(const struct kernel_shape *s, const struct kernel_chip *c, const float *p, double compute_derate,
                   double memory_derate, struct kernel_estimate *out);

/* kernel_time through a view: looks up the fit (kernel_fit_lookup), or
 * the defaults, applies the view's derates, and sets source, fit and
 * error_fraction. A quantised GEMM in a forward pass (warm_cache false)
 * launches with its quantiser as two plain kernels (kernel_plain_gemm_launch_s); the engines' own
 * all-reduce past RT_KERNEL_MEASURED_GPUS_MAX GPUs is NCCL's. */
double kernel_estimate(const struct kernel_shape *s, const struct kernel_chip *c, const struct kernel_view *v,
                       enum rt_kernel_engine e, struct kernel_estimate *out);

/* The FLOPs and floor of s on c (no constants): what the roofline allows. */
double kernel_floor(const struct kernel_shape *s, const struct kernel_chip *c, double *flops, double *bytes);

/* Writes reason r in words into buf (size bytes): "128 tiles on 132 SMs:
 * 0.97 of the waves in use", "split-K x4", "62% of the bytes from L2 (timed
 * alone)", "fixed 3.1 us (41%)", "0.81 of the 989 TFLOP/s peak", "0.83 of HBM
 * bandwidth", "the input's quantiser 12.0 us (8%)". An unknown code writes
 * "?". Returns buf. */
char *kernel_reason_text(char *buf, size_t size, const struct kernel_reason *r);

/* The error of an estimate without a fit of its own, measured by
 * predicting a measured chip with another's fits (`rooftop --validate
 * DATA/SYSTEM --kernels-from CHIP`, every table of the system): a sibling of
 * the same architecture, gb200 from b200's 12.9%, b300 from b200's 13.7%,
 * h200 from h100's 13.6%, h100 from h200's 14.1%; another architecture,
 * a100-80 from h100's 27.3%, l40s from h100's 64.8%. A near kernel (another
 * engine's or format's on the same chip) is taken as a sibling; nothing
 * measured, the defaults, is no better than another architecture. */
#define RT_KERNEL_SIBLING_ERROR 0.15
#define RT_KERNEL_FOREIGN_ERROR 0.65
#define RT_KERNEL_NEAR_ERROR RT_KERNEL_SIBLING_ERROR
#define RT_KERNEL_DEFAULT_ERROR RT_KERNEL_FOREIGN_ERROR

/* The error band of a fit from source src with its own cross-validated
 * error own, under view v: its own when measured, at least the sibling's
 * or another architecture's transfer error when borrowed, the defaults'
 * when nothing was fitted. */
double kernel_error_for(enum rt_kernel_source src, double own, const struct kernel_view *v);

#endif
