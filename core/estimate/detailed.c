/* detailed.c — operation-by-operation costs of prefill, decode and training.
 * See detailed.h for the conventions and their sources. */
#include "detailed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minmax.h"
#include "models.h"
#include "parallel.h"
#include "roofline.h"

const char *phase_name(enum rt_phase p)
{
    static const char *const names[RT_PHASE_COUNT] = {"prefill", "decode", "training"};
    return ((int)p >= 0 && p < RT_PHASE_COUNT) ? names[p] : "?";
}

double experts_touched(double experts, double k, double tokens)
{
    if (!(experts >= 1.0) || !(k >= 1.0) || k > experts || !(tokens >= 0.0))
        return 0.0;
    return experts * (1.0 - pow(1.0 - k / experts, tokens));
}

double palm_model_flops_per_token(double n_params, double layers, double heads, double d_head, double seq_len)
{
    return 6.0 * n_params + 12.0 * layers * heads * d_head * seq_len;
}

/* Tile efficiency of a dimension split over n chips (ceil to whole elements). */
static double shard_tile(double dim, double n, int64_t tile)
{
    double per_chip = ceil(dim / n);
    if (per_chip < 1.0)
        per_chip = 1.0;
    return tile_efficiency((int64_t)(per_chip < 4e18 ? per_chip : 4e18), tile);
}

/* Appends an operation and times it on hw (the floor); returns it, or NULL
 * when the list is full. */
static struct op_cost *add_op(struct phase_cost *pc, const struct hw_rates *hw, const char *name, bool matrix,
                              double flops, double weight_bytes, double kv_bytes, double act_bytes, double tile_eff)
{
    if (pc->count >= RT_MAX_OPS)
        return NULL;
    struct op_cost *op = &pc->ops[pc->count++];
    op->name = name;
    op->matrix = matrix;
    op->flops = flops;
    op->weight_bytes = weight_bytes;
    op->kv_bytes = kv_bytes;
    op->act_bytes = act_bytes;
    op->tile_efficiency = matrix ? tile_eff : 1.0;
    double rate = matrix ? hw->peak_flops_per_s * op->tile_efficiency : hw->vector_flops_per_s;
    op->compute_s = flops / rate;
    op->memory_s = (weight_bytes + kv_bytes + act_bytes) / hw->hbm_bytes_per_s;
    op->time_s = op->compute_s > op->memory_s ? op->compute_s : op->memory_s; /* both finite, >= 0 */
    op->kernels = 0.0;
    op->waves = 1.0;
    op->realistic_s = op->time_s;
    op->error_fraction = 0.0;
    return op;
}

/* What kind of kernel an operation runs, for the realistic estimate. */
enum { KIND_PLAIN = 0, KIND_ATTENTION = 1 };

/* The realistic time of op (realistic.h): its floor's compute time over the
 * achieved matmul fraction at the compute precision times waves (the
 * fraction of the chip its tiles keep busy), its memory time over the
 * achieved bandwidth,
 * unfused attention over the engine's attention efficiency, plus kernels x
 * the launch time. fill (0, 1] scales the memory rate of decode attention
 * (few work units). */
static void realistic_op_fill(struct op_cost *op, const struct hw_rates *hw, double kernels, double waves, int kind,
                              double kv_fill, double fill);

static void realistic_op(struct op_cost *op, const struct hw_rates *hw, double kernels, double waves, int kind,
                         double fill)
{
    realistic_op_fill(op, hw, kernels, waves, kind, fill, fill);
}

/* realistic_op with the KV-cache bytes at their own fill: decode attention
 * splits the cache over more work units than it has (sequence, kv head)
 * pairs, while its query and output bytes stay with the pairs. */
static void realistic_op_fill(struct op_cost *op, const struct hw_rates *hw, double kernels, double waves, int kind,
                              double kv_fill, double fill)
{
    if (!op)
        return;
    const struct efficiency_profile *e = &hw->eff;
    double attention = kind == KIND_ATTENTION ? hw->engine.attention : 1.0;
    double compute_eff = op->matrix ? e->matmul[hw->compute_precision] * waves : 1.0;
    double compute = op->compute_s / (compute_eff * attention);
    double memory = kv_fill == fill ? op->memory_s / (e->memory * attention * fill)
                                    : (op->kv_bytes / kv_fill + (op->weight_bytes + op->act_bytes) / fill) /
                                          (hw->hbm_bytes_per_s * e->memory * attention);
    op->kernels = kernels;
    op->waves = waves;
    op->realistic_s = (compute > memory ? compute : memory) + kernels * e->kernel_s;
    /* elementwise work runs at the bandwidth and launch time the memory-bound GEMMs showed */
    op->error_fraction = hw->kerror[RT_KERNEL_GEMM];
}

/* ---- the measured kernel models (kernels.h) in a forward pass ---- */

/* The constants of kind k for the scenario's engine, format and KV
 * precision (family: the engine's usual kernel, or fam); the defaults when
 * nothing was measured. */
static enum rt_kernel_source resolve_kind(const struct kernel_view *v, enum rt_kernel_kind k, enum rt_kernel_format f,
                                          bool kv_fp8, enum rt_kernel_family fam, enum rt_kernel_engine e,
                                          float out[RT_KERNEL_PARAMS], double *error, enum rt_kernel_family *got)
{
    struct kernel_shape probe = {.kind = k, .format = f, .kv_fp8 = kv_fp8, .family = fam};
    enum rt_kernel_source src;
    const struct kernel_fit *fit = kernel_fit_lookup(v, &probe, e, &src);
    if (got)
        *got = fit ? (enum rt_kernel_family)fit->family : fam;
    if (fit)
        memcpy(out, fit->p, sizeof fit->p);
    else
        kernel_default_params(k, out);
    *error = kernel_error_for(src, fit ? kernel_fit_error(fit) : RT_KERNEL_DEFAULT_ERROR, v);
    return src;
}

/* The profile for elementwise work and links that a chip's kernel fits
 * imply: its memory-bound bf16 GEMMs' achieved bandwidth and launch time, its
 * all-reduce's step time and link fraction, each GEMM format's peak
 * fraction (for measured points). */
static struct efficiency_profile efficiency_from_kernels(const struct hw_rates *hw, const struct kernel_view *v,
                                                         int64_t sm_count)
{
    struct efficiency_profile e = *efficiency_generic();
    /* elementwise work reads and writes bf16 activations and launches as a plain kernel: the chip's bf16
     * GEMMs' achieved bandwidth and launch, whatever the weights' format */
    float g[RT_KERNEL_PARAMS];
    double g_err;
    resolve_kind(v, RT_KERNEL_GEMM, RT_KF_BF16, false, RT_KFAM_ANY, hw->kengine, g, &g_err, NULL);
    const float *ar = hw->kparams[RT_KERNEL_NCCL_ALLREDUCE];
    int hbm = kernel_param_index(RT_KERNEL_GEMM, "hbm_fraction"), launch = kernel_param_index(RT_KERNEL_GEMM, "launch_s");
    int peak = kernel_param_index(RT_KERNEL_GEMM, "peak_fraction");
    int step = kernel_param_index(RT_KERNEL_NCCL_ALLREDUCE, "step_s");
    int link = kernel_param_index(RT_KERNEL_NCCL_ALLREDUCE, "simple_link_fraction");
    if (hbm >= 0)
        e.memory = dmin(1.0, float_shortest_double(g[hbm]) * hw->kmemory_derate);
    if (launch >= 0)
        e.kernel_s = float_shortest_double(g[launch]);
    if (step >= 0)
        e.allreduce_step_s = float_shortest_double(ar[step]);
    if (link >= 0)
        e.link = dmin(1.0, float_shortest_double(ar[link]));
    for (int p = 0; p < RT_PRECISION_COUNT && peak >= 0; p++) {
        float q[RT_KERNEL_PARAMS];
        double err;
        enum rt_kernel_format f = kernel_format_for((enum rt_precision)p, (enum rt_precision)p);
        resolve_kind(v, RT_KERNEL_GEMM, f, false, RT_KFAM_ANY, hw->kengine, q, &err, NULL);
        e.matmul[p] = dmin(1.0, dmax(0.01, float_shortest_double(q[peak]) * hw->kcompute_derate));
    }
    e.present = true;
    e.calibrated = v->measured;
    e.sm_count = sm_count;
    snprintf(e.source, sizeof e.source, "%s%s kernel fits (%s)", v->measured ? "measured " : "",
             v->from[0] ? v->from : "default", kernel_engine_name(hw->kengine));
    return e;
}

void hw_rates_kernels(struct hw_rates *hw, const struct scenario *s)
{
    struct kernel_view *v = &hw->kview;
    kernel_view_for(s->chip.key, &s->chip.kernels, v);
    kernel_chip_of(&s->chip, v, &hw->kchip);
    hw->kchip.peak_flops_per_s[kernel_format_rate(hw->kformat)] = hw->peak_flops_per_s; /* overrides, weight-only */
    hw->kchip.hbm_bytes_per_s = hw->hbm_bytes_per_s;
    hw->kengine = kernel_engine_for(s->engine.name, NULL);
    if (s->chip.efficiency.present) {
        /* The chip's own efficiency profile (a chip file's, or --calibrate's from a profiler's kernels): the
         * kernels run at its matmul share and bandwidth, as derates of the bf16 GEMM fit they borrow. */
        float g[RT_KERNEL_PARAMS];
        double ignored;
        resolve_kind(v, RT_KERNEL_GEMM, RT_KF_BF16, false, RT_KFAM_ANY, hw->kengine, g, &ignored, NULL);
        double pf = g[kernel_param_index(RT_KERNEL_GEMM, "peak_fraction")];
        double hf = g[kernel_param_index(RT_KERNEL_GEMM, "hbm_fraction")];
        v->compute_derate = dmin(s->chip.efficiency.matmul[RT_BF16] / pf, 1.0 / pf);
        v->memory_derate = dmin(s->chip.efficiency.memory / hf, 1.0 / hf);
    }
    hw->kcompute_derate = v->compute_derate;
    hw->kmemory_derate = v->memory_derate;
    /* TensorRT-LLM's decode attention: XQA or MMHA by the group a chip holds */
    double heads = dmax(1.0, ceil((double)s->model.heads / hw->n_chips));
    double kv_heads = kv_heads_per_chip((double)(s->model.kv_heads > 0 ? s->model.kv_heads : 1), hw->n_chips);
    for (int k = 0; k < RT_KERNEL_KIND_COUNT; k++) {
        enum rt_kernel_format f = k == RT_KERNEL_GEMM || k == RT_KERNEL_MOE ? hw->kformat : RT_KF_BF16;
        enum rt_kernel_family fam = k == RT_KERNEL_ALLREDUCE ? RT_KFAM_GRAPH : RT_KFAM_ANY;
        if (k == RT_KERNEL_DECODE_ATTENTION && hw->kengine == RT_KE_TRTLLM)
            fam = kernel_trtllm_decode_family(heads, kv_heads);
        resolve_kind(v, (enum rt_kernel_kind)k, f, hw->kv_fp8, fam, hw->kengine, hw->kparams[k], &hw->kerror[k],
                     &hw->kfamily[k]);
    }
    double ignored;
    resolve_kind(v, RT_KERNEL_ALLREDUCE, RT_KF_BF16, false, RT_KFAM_EAGER, hw->kengine, hw->ar_eager, &ignored, NULL);
    /* In a forward pass a GEMM (and its input's quantiser) launch as plain kernels from a CUDA graph (kernels.h) */
    if (hw->kformat != RT_KF_BF16)
        hw->kparams[RT_KERNEL_GEMM][kernel_param_index(RT_KERNEL_GEMM, "launch_s")] =
            (float)kernel_in_pass_launches(hw->kformat) * kernel_plain_gemm_launch_s(v, hw->kengine);
    hw->eff = s->chip.efficiency.present ? efficiency_resolve(&s->chip.efficiency)
                                         : efficiency_from_kernels(hw, v, s->chip.efficiency.sm_count);
}

/* Seconds of one GEMM of m x n x k (fractional widths round up) in the
 * scenario's format, by the measured model; 0 for an empty one. */
static double gemm_s(const struct hw_rates *hw, double m, double n, double k)
{
    if (!(m > 0.0) || !(n > 0.0) || !(k > 0.0))
        return 0.0;
    struct kernel_shape g = {.kind = RT_KERNEL_GEMM, .format = hw->kformat, .engine = hw->kengine, .m = ceil(m),
                             .n = ceil(n), .k = ceil(k)};
    return kernel_time(&g, &hw->kchip, hw->kparams[RT_KERNEL_GEMM], hw->kcompute_derate, hw->kmemory_derate, NULL);
}

/* Sets op's realistic time to t (never below its floor) for `kernels`
 * launches of kernels of kind k (whose cross-validated error it carries). */
static void set_realistic(struct op_cost *op, const struct hw_rates *hw, enum rt_kernel_kind k, double t,
                          double kernels)
{
    if (!op)
        return;
    op->kernels = kernels;
    op->waves = 1.0;
    op->realistic_s = t > op->time_s ? t : op->time_s;
    op->error_fraction = hw->kerror[k];
}

/* Seconds of the phase's fused attention kernels, layer kind by layer
 * kind, on one chip of n: prefill (or a training forward) over seq tokens
 * per sequence, decode over the cached context. */
static double attention_s(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, double seqs,
                          double seq, double q)
{
    const struct model_shape *m = &s->model;
    bool mla = m->kv_lora_rank > 0;
    double heads = dmax(1.0, ceil((double)m->heads / hw->n_chips));
    double kv_heads = mla ? 1.0 : kv_heads_per_chip((double)m->kv_heads, hw->n_chips);
    struct kernel_shape k = {.format = RT_KF_BF16, .kv_fp8 = hw->kv_fp8, .engine = hw->kengine, .batch = seqs,
                             .heads = heads, .kv_heads = kv_heads, .head_dim = (double)m->d_head};
    if (p == RT_PHASE_DECODE) {
        k.kind = mla ? RT_KERNEL_DECODE_MLA : RT_KERNEL_DECODE_ATTENTION;
        k.family = hw->kfamily[k.kind];

        k.kv_len = (double)s->context_tokens;
        k.queries = q; /* verifying q tokens a sequence scores q queries a head over the same cache */
    } else {
        k.kind = mla ? RT_KERNEL_MLA : RT_KERNEL_ATTENTION;
        k.family = hw->kfamily[k.kind];
        k.seq = seq;
    }
    double total = 0.0, layers = 0.0;
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *lk = &m->kinds[i];
        if (!mixer_is_attention(lk->mixer) || lk->count <= 0)
            continue;
        k.window = lk->mixer == RT_MIXER_FULL ? 0.0 : (double)lk->window; /* a chunk read as its window */
        if (lk->mixer == RT_MIXER_COMPRESSED) /* the window and the entries it attends, as one window */
            k.window = layer_decode_keys(lk, p == RT_PHASE_DECODE ? (double)s->context_tokens : seq);
        total += (double)lk->count * kernel_time(&k, &hw->kchip, hw->kparams[k.kind], hw->kcompute_derate,
                                                 hw->kmemory_derate, NULL);
        layers += (double)lk->count;
    }
    if (layers == 0.0 && m->kind_count == 0) /* a shape without a schedule: every layer full attention */
        total = (double)m->layers * kernel_time(&k, &hw->kchip, hw->kparams[k.kind], hw->kcompute_derate,
                                                hw->kmemory_derate, NULL);
    return total;
}

/* Seconds of one MoE layer's routed experts for T tokens on one chip (the
 * fused kernel), and the shared experts as GEMMs. */
/* The experts' ranks of hw's layout (detailed.h, hw_rates.moe_ep). */
static double moe_ranks(const struct hw_rates *hw)
{
    if (hw->moe_ep >= 1.0)
        return hw->moe_ep;
    return hw->ep > 1.0 ? hw->n_chips * hw->ep : 1.0;
}

static double moe_layer_s(const struct scenario *s, const struct hw_rates *hw, double T, double busy, double e,
                          double ranks, double imbalance)
{
    const struct model_shape *m = &s->model;
    double ff_e = m->moe_d_ff > 0 ? (double)m->moe_d_ff : (double)m->d_ff;
    double ff_s = m->shared_d_ff > 0 ? (double)m->shared_d_ff : ff_e;
    struct kernel_shape k = {.kind = RT_KERNEL_MOE, .format = hw->kformat, .engine = hw->kengine,
                             .family = hw->kfamily[RT_KERNEL_MOE],
                             .tokens = dmax(1.0, ceil(T * busy)),
                             .hidden = (double)(m->moe_latent > 0 ? m->moe_latent : m->d_model), .inter = ff_e,
                             .topk = (double)m->experts_per_token,
                             .experts = (double)m->experts, .moe_tp = hw->n_chips * e / ranks,
                             .moe_ep = ranks};
    if (k.topk < 1.0)
        k.topk = 1.0;
    if (k.experts < k.topk)
        k.experts = k.topk;
    double t = kernel_time(&k, &hw->kchip, hw->kparams[RT_KERNEL_MOE], hw->kcompute_derate, hw->kmemory_derate, NULL);
    t *= imbalance; /* the busiest rank's experts */
    if (m->moe_latent > 0) /* a latent MoE's projections into and out of the experts' width */
        t += gemm_s(hw, T, (double)m->moe_latent / hw->n_chips, (double)m->d_model) +
             gemm_s(hw, T, (double)m->d_model, (double)m->moe_latent / hw->n_chips);
    double shared = (double)m->shared_experts;
    if (shared > 0.0) {
        double mats = m->gated_mlp ? 3.0 : 2.0;
        t += gemm_s(hw, T, (mats - 1.0) * shared * ff_s / hw->n_chips, (double)m->d_model) +
             gemm_s(hw, T, (double)m->d_model, shared * ff_s / hw->n_chips);
    }
    return t;
}

/* Seconds of one collective of kind k over n chips moving bytes per chip,
 * by the measured model (params p), over the link the group uses. */
static double collective_s(const struct hw_rates *hw, enum rt_kernel_kind k, const float *p, double n, double bytes,
                           double link_bytes_per_s, double extra_step_s)
{
    if (!(n > 1.0) || !(bytes > 0.0) || !(link_bytes_per_s > 0.0))
        return 0.0;
    struct kernel_chip c = hw->kchip;
    c.link_bytes_per_s = link_bytes_per_s;
    if (kernel_collective_kind(k, n) != k) { /* past one node the engines' all-reduce gives way to NCCL's */
        k = kernel_collective_kind(k, n);
        p = hw->kparams[k];
    }
    struct kernel_shape sh = {.kind = k, .format = RT_KF_BF16, .engine = hw->kengine, .gpus = n, .message_bytes = bytes};
    return kernel_time(&sh, &c, p, 1.0, 1.0, NULL) + kernel_collective_hop_steps(k, n) * extra_step_s;
}

/* State-update FLOPs per token of a fixed-state mixer, an estimate of
 * this model: Gated DeltaNet reads the state against the key, writes the
 * delta update and reads it against the query, about 6 x value_heads x
 * key_dim x value_dim (Yang et al. 2024); Mamba's selective scan about 6 x
 * d_inner x d_state (Gu & Dao 2023), each plus the convolution. */
static double scan_flops_per_token(const struct model_shape *m, enum rt_mixer mixer)
{
    if (mixer == RT_MIXER_LINEAR) {
        double kd = (double)(m->lin_key_heads * m->lin_key_head_dim);
        double vd = (double)(m->lin_value_heads * m->lin_value_head_dim);
        return 6.0 * (double)m->lin_value_heads * (double)m->lin_key_head_dim * (double)m->lin_value_head_dim +
               2.0 * (2.0 * kd + vd) * (double)m->lin_conv_kernel;
    }
    if (mixer == RT_MIXER_MAMBA || mixer == RT_MIXER_MAMBA2)
        return 6.0 * (double)m->ssm_d_inner * (double)m->ssm_d_state +
               2.0 * (double)m->ssm_d_inner * (double)m->ssm_d_conv;
    if (mixer == RT_MIXER_CROSS) /* each text token's scores and weighted sum over the encoder tokens */
        return 2.0 * (double)m->heads * (double)(m->d_head + model_v_head_dim(m)) * (double)m->cross_tokens;
    if (mixer == RT_MIXER_CONV) /* the depthwise kernel and the two gates (B x, C y) */
        return 2.0 * (double)m->d_model * (double)m->conv_kernel + 2.0 * (double)m->d_model;
    return 0.0;
}

struct phase_shape phase_shape(const struct scenario *s, enum rt_phase p, double bytes_per_kv)
{
    const struct model_shape *m = &s->model;
    const double B = (double)s->batch, context = (double)s->context_tokens;
    const double seq = p == RT_PHASE_PREFILL ? (double)s->prefill_tokens : context;
    const double T = p == RT_PHASE_DECODE ? B : B * seq;
    struct phase_shape z = {0};
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *k = &m->kinds[i];
        double n = (double)k->count;
        if (k->mixer == RT_MIXER_COMPRESSED && k->topk > 0) { /* CSA: the indexer scores every entry */
            struct layer_kind hca = *k;
            hca.topk = 0;
            hca.window = 1; /* its entries alone: one key of window less per query */
            double entries = layer_compressed_entries(k, context);
            z.index_layers += n;
            if (p == RT_PHASE_DECODE) {
                z.index_pairs += n * B * entries;
                z.index_read_tokens += n * B * entries;
                z.index_new_tokens += n * B / (double)k->ratio;
            } else {
                z.index_pairs += n * B * (layer_prefill_pairs(&hca, seq) - seq);
                z.index_new_tokens += p == RT_PHASE_PREFILL ? n * B * layer_compressed_entries(k, seq) : 0.0;
            }
        }
        if (k->mixer == RT_MIXER_SPARSE && !k->index_shared) { /* the indexer scores every cached key */
            struct layer_kind all = {.mixer = RT_MIXER_FULL};
            z.index_layers += n;
            if (p == RT_PHASE_DECODE) {
                z.index_pairs += n * B * context;
                z.index_read_tokens += n * B * context;
                z.index_new_tokens += n * B;
            } else {
                z.index_pairs += n * B * layer_prefill_pairs(&all, seq);
                z.index_new_tokens += p == RT_PHASE_PREFILL ? n * B * seq : 0.0;
            }
        }
        if (mixer_is_attention(k->mixer)) {
            z.attn_layers += n;
            if (p == RT_PHASE_DECODE) {
                double keys = layer_decode_keys(k, context);
                z.pairs += n * B * keys;
                z.kv_read_tokens += n * B * keys;
                z.kv_new_tokens += k->kv_shared ? 0.0 : n * B; /* the new token's keys and values */
            } else {
                z.pairs += n * B * layer_prefill_pairs(k, seq);
                if (p == RT_PHASE_PREFILL)
                    z.kv_new_tokens += n * B * layer_kv_tokens(k, seq);
            }
        } else if (k->mixer != RT_MIXER_NONE) {
            z.state_layers += n;
            z.mamba1_layers += k->mixer == RT_MIXER_MAMBA ? n : 0.0;
            double params = model_mixer_params(m, k->mixer);
            if (k->mixer == RT_MIXER_CROSS) { /* K and V project the image once (prefill), never a text token */
                double kv = (double)m->d_model * (double)m->kv_heads * (double)(m->d_head + model_v_head_dim(m));
                params -= kv;
                if (p != RT_PHASE_DECODE) {
                    z.encoder_kv_params += n * kv;
                    z.encoder_kv_flops += n * B * 2.0 * (double)m->cross_tokens * kv;
                }
            }
            z.state_params += n * params;
            z.scan_flops += n * T * scan_flops_per_token(m, k->mixer);
            if (p != RT_PHASE_TRAINING) /* read and written; an encoder's keys and values are only read */
                z.state_bytes += n * B * model_state_bytes_per_layer(m, k->mixer, bytes_per_kv) *
                                 (k->mixer == RT_MIXER_CROSS ? 1.0 : 2.0);
        }
        z.mixer_layers += k->mixer != RT_MIXER_NONE ? n : 0.0;
        z.mlp_layers += k->no_mlp ? 0.0 : n;
        if (k->no_mlp) {
        } else if (k->moe) {
            z.moe_layers += n;
        } else {
            z.dense_layers += n;
            z.dense_ff += n * (double)(k->d_ff > 0 ? k->d_ff : m->d_ff);
        }
    }
    return z;
}

void hw_rates_prepare(struct hw_rates *hw, const struct scenario *s)
{
    hw->count = model_param_count(&s->model);
    for (int p = 0; p < RT_PHASE_COUNT; p++)
        hw->shape[p] = phase_shape(s, (enum rt_phase)p, hw->bytes_per_kv);
    hw->prepared = true;
}

/* The attention operations (QKV projection, scores, softmax, x V, output
 * projection) of s's attention layers in phase shape z, at the model's
 * attention geometry, with attention_params weights in each layer. */
static void attention_ops(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, bool fused_attention,
                          const struct phase_shape *z, double attention_params, double T, double B, double q,
                          double seq, double stored_scores, struct phase_cost *out)
{
    const struct model_shape *m = &s->model;
    const double n = hw->n_chips, wb = hw->bytes_per_weight, kvb = hw->bytes_per_kv, ab = hw->bytes_per_act;
    const double hb = hw->bytes_per_stream;
    const double d = (double)m->d_model, H = (double)m->heads, kvh = (double)m->kv_heads;
    const double kv_units = m->kv_lora_rank > 0 ? 1.0 : kvh;
    const double kvs = kv_heads_per_chip(kv_units, n) / kv_units;
    const double dq = (double)m->d_head;
    const double dv = (double)model_v_head_dim(m);
    const int64_t tile = s->tile;
    const double La = z->attn_layers;
    const double fs = hw->flop_scale, ws = hw->weight_scale;
    const bool one_tensor = m->kv_lora_rank > 0 || m->kv_single; /* a latent, or DeepSeek-V4's key-value tensor */
    double kv_elems = model_kv_elements_per_token_per_layer(m); /* per token per attention layer */
    double o_params = model_o_params(m);
    double qkv_params = attention_params - o_params;
    double qkv_width = qkv_params / d;

    if (La > 0.0) {
        /* QKV projection; prefill and decode write the new keys and values to
         * the cache (a windowed layer keeps only its window of a prompt). */
        set_realistic(add_op(out, hw, "qkv projection", true, La * 2.0 * T * qkv_params * fs / n,
                             La * qkv_params * wb * ws / n, z->kv_new_tokens * kv_elems * kvb * kvs,
                             La * (T * d * ab + T * qkv_width * hb / n),
                             shard_tile(d, 1, tile) * shard_tile(qkv_width, n, tile)), hw, RT_KERNEL_GEMM,
                      La * gemm_s(hw, T, qkv_width / n, d), La);

        /* Attention: scores, softmax, x V. */
        double q_bytes = T * H * dq * hb / n;
        double k_cache, v_cache;
        if (one_tensor) { /* the latent (or V4's one tensor) serves K and V: read once, charged to the scores */
            k_cache = z->kv_read_tokens * kv_elems * kvb * kvs;
            v_cache = 0.0;
        } else {
            k_cache = z->kv_read_tokens * kvh * dq * kvb * kvs;
            v_cache = z->kv_read_tokens * kvh * dv * kvb * kvs;
        }
        double k_fresh = p == RT_PHASE_DECODE ? 0.0 : T * kvh * dq * hb * kvs;
        double v_fresh = p == RT_PHASE_DECODE ? 0.0 : T * kvh * dv * hb * kvs;
        double score_bytes = fused_attention ? 0.0 : stored_scores * H * hb / n;
        /* A fused kernel is one launch per layer; its work units are query blocks of 128 (prefill) or
         * (sequence, kv head) pairs, each split over chunks of about 256 cached tokens (decode, split-KV:
         * the cache is split evenly, so the count is fractional and one more token never makes a step
         * faster). The split reaches only the cache bytes: the query and output bytes stay with the
         * pairs. */
        double heads_here = dmax(1.0, H / n), kv_here = dmax(1.0, kvh / n);
        double units = p == RT_PHASE_DECODE ? B * kv_here * dmax(1.0, (double)s->context_tokens / 256.0)
                                            : B * heads_here * ceil(seq / 128.0);
        /* A prefill's part-filled last query block takes a whole block's time (decode splits the
         * cache evenly, so its chunks have no such tail). */
        double padded = p == RT_PHASE_DECODE ? 1.0 : seq / (ceil(seq / 128.0) * 128.0);
        double fill = p == RT_PHASE_DECODE ? wave_efficiency(units, hw->eff.sm_count) : 1.0;
        double pair_fill = p == RT_PHASE_DECODE ? wave_efficiency(B * kv_here, hw->eff.sm_count) : 1.0;
        double prefill_waves = p == RT_PHASE_DECODE ? 1.0 : padded * wave_efficiency(units, hw->eff.sm_count);
        double launches = fused_attention ? 0.0 : La;
        struct op_cost *scores = add_op(out, hw, "attention scores", true, 2.0 * H * dq * z->pairs / n, 0.0, k_cache,
                                        La * (q_bytes + k_fresh + score_bytes), shard_tile(dq, 1, tile));
        struct op_cost *softmax = add_op(out, hw, "softmax", false, 5.0 * H * z->pairs / n, 0.0, 0.0,
                                         La * 2.0 * score_bytes, 1.0);
        struct op_cost *xv = add_op(out, hw, "attention x V", true, 2.0 * H * dv * z->pairs / n, 0.0, v_cache,
                                    La * (v_fresh + score_bytes + T * H * dv * hb / n), shard_tile(dv, 1, tile));
        if (fused_attention && scores && softmax && xv) {
            /* One fused kernel a layer (the measured attention models): its
             * time is shared among the three rows as their floors are. */
            double fused = attention_s(s, hw, p, B, seq, q);
            double parts = scores->time_s + softmax->time_s + xv->time_s;
            double share = parts > 0.0 ? fused / parts : 0.0;
            enum rt_kernel_kind ak = m->kv_lora_rank > 0 ? (p == RT_PHASE_DECODE ? RT_KERNEL_DECODE_MLA : RT_KERNEL_MLA)
                                                         : (p == RT_PHASE_DECODE ? RT_KERNEL_DECODE_ATTENTION
                                                                                 : RT_KERNEL_ATTENTION);
            set_realistic(scores, hw, ak, share * scores->time_s, La);
            set_realistic(softmax, hw, ak, share * softmax->time_s, 0.0);
            set_realistic(xv, hw, ak, share * xv->time_s, 0.0);
        } else {
            realistic_op_fill(scores, hw, La, prefill_waves, KIND_ATTENTION, fill, pair_fill);
            realistic_op(softmax, hw, launches, 1.0, KIND_ATTENTION, 1.0);
            realistic_op_fill(xv, hw, launches, prefill_waves, KIND_ATTENTION, fill, pair_fill);
        }
        set_realistic(add_op(out, hw, "output projection", true, La * 2.0 * T * o_params * fs / n,
                             La * o_params * wb * ws / n, 0.0, La * (T * H * dv * ab / n + T * d * hb),
                             shard_tile(H * dv, n, tile) * shard_tile(d, 1, tile)), hw, RT_KERNEL_GEMM,
                      La * gemm_s(hw, T, d, o_params / d / n), La);
    }
}

/* Merges the operations from index start on that share a name (the
 * attention of each layer geometry) into the first of them: their work,
 * bytes and times add; tile efficiency, waves and error are weighted. */
static void merge_ops(struct phase_cost *out, int start)
{
    int count = start;
    for (int j = start; j < out->count; j++) {
        struct op_cost *b = &out->ops[j];
        int i = start;
        while (i < count && strcmp(out->ops[i].name, b->name) != 0)
            i++;
        if (i == count) {
            out->ops[count++] = *b;
            continue;
        }
        struct op_cost *a = &out->ops[i];
        double flops = a->flops + b->flops, compute = a->compute_s + b->compute_s, real = a->realistic_s + b->realistic_s;
        a->tile_efficiency = flops > 0.0 ? (a->tile_efficiency * a->flops + b->tile_efficiency * b->flops) / flops
                                         : a->tile_efficiency;
        a->waves = compute > 0.0 ? (a->waves * a->compute_s + b->waves * b->compute_s) / compute : a->waves;
        a->error_fraction = real > 0.0 ? (a->error_fraction * a->realistic_s + b->error_fraction * b->realistic_s) / real
                                       : a->error_fraction;
        a->flops = flops;
        a->weight_bytes += b->weight_bytes;
        a->kv_bytes += b->kv_bytes;
        a->act_bytes += b->act_bytes;
        a->compute_s = compute;
        a->memory_s += b->memory_s;
        a->time_s += b->time_s;
        a->kernels += b->kernels;
        a->realistic_s = real;
    }
    out->count = count;
}

void phase_allreduces_s(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, double tokens,
                        double *floor_s, double *realistic_s)
{
    *floor_s = *realistic_s = 0.0;
    const double n = hw->n_chips;
    if (!(n > 1.0) || !(hw->link_bytes_per_s > 0.0))
        return;
    struct phase_shape z_local;
    const struct phase_shape *z = &hw->shape[p];
    if (!hw->prepared) {
        z_local = phase_shape(s, p, hw->bytes_per_kv);
        z = &z_local;
    }
    const double d = (double)s->model.d_model, hb = hw->bytes_per_stream, allreduces = z->mixer_layers + z->mlp_layers;
    *floor_s = allreduces * 2.0 * (n - 1.0) / n * tokens * d * hb / hw->link_bytes_per_s;
    /* Alpha-beta (Thakur et al. 2005): a ring all-reduce is 2(n-1) steps of a fixed time plus 2(n-1)/n of
     * the bytes over the achieved link; a tree (or NCCL's small-message algorithms) 2 ceil(log2 n) steps
     * plus twice the bytes. The library picks the faster; so does this model. */
    /* The engine's own all-reduce (the measured model): captured in a CUDA graph for decode, eager for
     * a prefill or a training step. */
    const float *ar = p == RT_PHASE_DECODE ? hw->kparams[RT_KERNEL_ALLREDUCE] : hw->ar_eager;
    *realistic_s = allreduces * collective_s(hw, RT_KERNEL_ALLREDUCE, ar, n, tokens * d * hb, hw->link_bytes_per_s,
                                             hw->link_extra_step_s);
}

/* One phase's pass as phase_costs sees it: the scenario, the hardware and
 * what follows from them (widths, bytes per element, tokens, the shape at
 * this pass's sequences), shared by its steps. */
struct pass {
    const struct scenario *s;
    const struct hw_rates *hw;
    enum rt_phase p;
    const struct model_shape *m;
    const struct param_count *pc;
    const struct phase_shape *z;
    double n, wb, kvb, ab, hb, d, V, B, e, q, fs, ws;
    int64_t tile;
    double seq, T, stored_scores, head_tokens, zr;
    /* the MLP's, for the expert all-to-all */
    double moe_layers, k_routed, de, ranks;
    struct param_count pc_local;
    struct phase_shape z_local, z_scaled;
};

/* Fills *x for phase p: tokens processed, scores an unfused kernel stores,
 * tokens reaching the LM head, and the shape scaled to the pass's
 * sequences and query tokens. *x must not move afterwards (it points into
 * itself). */
static void pass_setup(struct pass *x, const struct scenario *s, const struct hw_rates *hw, enum rt_phase p)
{
    x->s = s;
    x->hw = hw;
    x->p = p;
    const struct model_shape *m = x->m = &s->model;
    x->pc = &hw->count;
    if (!hw->prepared) {
        x->pc_local = model_param_count(m);
        x->pc = &x->pc_local;
    }
    x->n = hw->n_chips, x->wb = hw->bytes_per_weight, x->kvb = hw->bytes_per_kv, x->ab = hw->bytes_per_act;
    x->hb = hw->bytes_per_stream; /* ab: what a GEMM reads; hb: the rest (detailed.h) */
    x->d = (double)m->d_model, x->V = (double)m->vocab;
    const double B = x->B = hw->seqs > 0.0 ? hw->seqs : (double)s->batch;
    x->e = hw->ep > 1.0 ? hw->ep : 1.0;
    /* Query tokens per sequence in a decode pass (verifying k draft tokens scores k + 1). */
    const double q = x->q = p == RT_PHASE_DECODE && hw->query_tokens > 1.0 ? hw->query_tokens : 1.0;
    x->tile = s->tile;
    x->fs = hw->flop_scale, x->ws = hw->weight_scale;

    /* Tokens processed, scores an unfused kernel stores, tokens reaching the LM head. */
    double seq = x->seq = p == RT_PHASE_PREFILL ? (double)s->prefill_tokens : (double)s->context_tokens;
    if (p == RT_PHASE_DECODE) {
        x->T = B * q;
        x->stored_scores = B * q * (double)s->context_tokens;
        x->head_tokens = B * q;
    } else {
        x->T = B * seq;
        x->stored_scores = B * seq * seq;         /* an unfused kernel materialises the square */
        x->head_tokens = p == RT_PHASE_PREFILL ? B : x->T; /* prefill: logits of the last position only */
    }
    const struct phase_shape *zp = &hw->shape[p];
    if (!hw->prepared) {
        x->z_local = phase_shape(s, p, x->kvb);
        zp = &x->z_local;
    }
    /* The shape is summed over the scenario's batch; a pass over fewer
     * sequences (or more query tokens) scales its per-sequence work. */
    double zr = x->zr = B / (double)s->batch;
    if (zr != 1.0 || q != 1.0) {
        x->z_scaled = *zp;
        struct phase_shape *zs = &x->z_scaled;
        zs->pairs *= zr * q;
        zs->kv_read_tokens *= zr;
        zs->kv_new_tokens *= zr * q;
        zs->scan_flops *= zr * q;
        zs->state_bytes *= zr;
        zs->index_pairs *= zr * q;
        zs->index_read_tokens *= zr;
        zs->index_new_tokens *= zr * q;
        zp = zs;
    }
    x->z = zp;
}

/* The pass's mixers: attention (each kind at its own geometry where the
 * model mixes them), DeepSeek Sparse Attention's indexer, and the
 * fixed-state (linear-attention, Mamba) layers. */
static void mixer_ops(const struct pass *x, bool fused_attention, struct phase_cost *out)
{
    const struct scenario *s = x->s;
    const struct hw_rates *hw = x->hw;
    const enum rt_phase p = x->p;
    const struct model_shape *m = x->m;
    const struct phase_shape *z = x->z;
    const double n = x->n, wb = x->wb, kvb = x->kvb, ab = x->ab, hb = x->hb, d = x->d, fs = x->fs, ws = x->ws;
    const double T = x->T, B = x->B, q = x->q, seq = x->seq, stored_scores = x->stored_scores, zr = x->zr;
    const int64_t tile = x->tile;
    if (!model_mixed_geometry(m)) {
        attention_ops(s, hw, p, fused_attention, z, x->pc->attention_per_layer, T, B, q, seq, stored_scores, out);
    } else {
        /* Each attention kind at its own geometry (Gemma 4's full and sliding layers): the model seen
         * through that kind alone, its operations merged with the others' by name. */
        int first = out->count;
        for (int i = 0; i < m->kind_count; i++) {
            const struct layer_kind *k = &m->kinds[i];
            if (!mixer_is_attention(k->mixer) || k->count <= 0)
                continue;
            struct scenario view = *s;
            struct model_shape *vm = &view.model;
            struct attn_geometry g = model_kind_geometry(m, k);
            vm->heads = g.heads;
            vm->kv_heads = g.kv_heads;
            vm->d_head = g.d_head;
            vm->v_head_dim = g.v_head_dim;
            for (int j = 0; j < vm->kind_count; j++)
                if (j != i && mixer_is_attention(vm->kinds[j].mixer))
                    vm->kinds[j].mixer = RT_MIXER_NONE;
            struct phase_shape zk = phase_shape(&view, p, kvb);
            zk.pairs *= zr * q;
            zk.kv_read_tokens *= zr;
            zk.kv_new_tokens *= zr * q;
            double params = model_kind_mixer_params(m, k) - (k->mixer == RT_MIXER_SPARSE ? model_indexer_params(m) : 0.0);
            attention_ops(&view, hw, p, fused_attention, &zk, params, T, B, q, seq, stored_scores, out);
        }
        merge_ops(out, first);
    }

    /* DeepSeek Sparse Attention's lightning indexer (DeepSeek-V3.2 tech
     * report, sec. 2.1; its inference/model.py): its projections, the fp8
     * scores of index_heads heads against every cached index key (with
     * their ReLU and weighted sum), and the index keys read and written at
     * their own fp8 bytes, whole on every chip like a latent. The top-k
     * selection rides with the scores. */
    if (z->index_layers > 0.0) {
        double ip = model_indexer_params(m), ih = (double)m->index_heads, iw = (double)m->index_head_dim;
        double ib = model_index_bytes_per_token_per_layer(m);
        realistic_op(add_op(out, hw, "sparse indexer", true,
                            (z->index_layers * 2.0 * T * ip * fs + 2.0 * ih * iw * z->index_pairs +
                             2.0 * ih * z->index_pairs) / n,
                            z->index_layers * ip * wb * ws / n, (z->index_read_tokens + z->index_new_tokens) * ib,
                            z->index_layers * T * (d * ab + ih * hb / n), shard_tile(iw, 1, tile)),
                     hw, 3.0 * z->index_layers, 1.0, KIND_ATTENTION, 1.0);
    }

    /* Linear-attention and Mamba layers: their projections, and the state
     * update, which reads and writes each sequence's state once a step
     * (decode) or once a prompt (prefill; the chunked scan keeps it on chip
     * in between). */
    if (z->state_layers > 0.0) {
        /* in and out projections of each layer, the in one about as wide as the rest of its parameters */
        double per_layer = z->state_params / z->state_layers;
        double in_cols = dmax(1.0, per_layer / d - d);
        set_realistic(add_op(out, hw, "state-mixer projections", true,
                             (2.0 * T * z->state_params + z->encoder_kv_flops * zr) * fs / n,
                             (z->state_params + z->encoder_kv_params) * wb * ws / n, 0.0,
                             z->state_layers * 2.0 * T * d * hb, shard_tile(d, 1, tile)), hw, RT_KERNEL_GEMM,
                      z->state_layers * (gemm_s(hw, T, in_cols / n, d) + gemm_s(hw, T, d, d / n)), 2.0 * z->state_layers);
        /* Mamba-2's and linear attention's chunked algorithms run on the tensor
         * unit; Mamba-1's selective scan runs on the vector unit. */
        bool on_tensor = z->mamba1_layers <= 0.0;
        realistic_op(add_op(out, hw, "state update", on_tensor, z->scan_flops / n, 0.0, z->state_bytes / n, 0.0, 1.0),
                     hw, 2.0 * z->state_layers, 1.0, KIND_PLAIN, 1.0);
    }

}

/* The pass's MLPs: dense layers at their width, or the router and the
 * routed and shared experts (expert parallel, the experts' own ranks, the
 * busiest rank's imbalance), and the activation. Leaves the MoE figures
 * the all-to-all needs in *x. */
static void mlp_ops(struct pass *x, struct phase_cost *out)
{
    const struct scenario *s = x->s;
    const struct hw_rates *hw = x->hw;
    const struct model_shape *m = x->m;
    const struct phase_shape *z = x->z;
    const double n = x->n, wb = x->wb, ab = x->ab, hb = x->hb, d = x->d, fs = x->fs, ws = x->ws, e = x->e, T = x->T;
    const int64_t tile = x->tile;
    /* MLP: dense layers (each its width), or routed + shared experts with a router. */
    double mats = m->gated_mlp ? 3.0 : 2.0;
    double moe_layers = z->moe_layers;
    double ff_e = m->moe_d_ff > 0 ? (double)m->moe_d_ff : (double)m->d_ff;
    double ff_s = m->shared_d_ff > 0 ? (double)m->shared_d_ff : ff_e;
    double k_routed = (double)m->experts_per_token, shared = (double)m->shared_experts;
    /* Expert parallel: the routed experts of the busy groups' tokens (all e
     * in steady state; one for a prompt alone) spread over n x e chips, so
     * a chip computes busy / e of one group's routed FLOPs and reads its 1/e
     * of the experts those tokens touch, each times the busiest rank's
     * imbalance (at most all of its experts). */
    /* The experts' own layout: `ranks` of them (moe_ep), each holding
     * ceil(E / ranks) whole experts sliced n e / ranks ways; a chip reads
     * its share of the experts the tokens touch, at most its own. */
    const double ranks = moe_ranks(hw);
    double imbalance = ranks > 1.0 && hw->ep_imbalance > 1.0 ? hw->ep_imbalance : 1.0;
    double busy = hw->ep_busy > 0.0 && hw->ep_busy < e ? hw->ep_busy : e; /* groups whose tokens arrive */
    double touched = moe_layers > 0.0
                         ? dmin(ceil((double)m->experts / ranks),
                                experts_touched((double)m->experts, k_routed, T * busy) / ranks * imbalance) * ranks / e
                         : 0.0;
    /* A latent MoE's routed experts work at its latent width, between two projections (Nemotron-3 Super). */
    const double de = m->moe_latent > 0 ? (double)m->moe_latent : d, lat = m->moe_latent > 0 ? 2.0 * d * de : 0.0;
    double mlp_flops = 2.0 * T * mats * d * z->dense_ff +
                       moe_layers * 2.0 * T * (mats * (de * k_routed * ff_e * imbalance * busy / e + d * shared * ff_s) + lat);
    double mlp_weights =
        (mats * d * z->dense_ff + moe_layers * (mats * (de * touched * ff_e + d * shared * ff_s) + lat)) * wb;
    double ff_tokens = T * z->dense_ff + moe_layers * T * (k_routed * ff_e + shared * ff_s); /* intermediate elements */
    if (moe_layers > 0.0)
        set_realistic(add_op(out, hw, "router", true, moe_layers * 2.0 * T * d * (double)m->experts * fs / n,
                             moe_layers * d * (double)m->experts * wb * ws / n, 0.0,
                             moe_layers * T * (double)m->experts * hb, 1.0), hw, RT_KERNEL_GEMM,
                      moe_layers * gemm_s(hw, T, (double)m->experts, d), moe_layers);
    double mlp_tile = shard_tile(d, 1, tile) * shard_tile(moe_layers > 0.0 ? ff_e : (double)m->d_ff, n, tile);
    /* Dense: the up (and gate) GEMM and the down GEMM; MoE: the fused kernel's two grouped GEMMs. */
    /* Dense layers: their up (and gate) and down GEMMs at their mean width; MoE layers: the fused kernel. */
    double dense_width = z->dense_layers > 0.0 ? z->dense_ff / z->dense_layers : 0.0;
    double mlp_real = z->dense_layers * (gemm_s(hw, T, (mats - 1.0) * dense_width / n, d) + gemm_s(hw, T, d, dense_width / n));
    if (moe_layers > 0.0)
        mlp_real += moe_layers * moe_layer_s(s, hw, T, busy, e, ranks, imbalance);
    set_realistic(add_op(out, hw, moe_layers > 0.0 ? "mlp (experts)" : "mlp", true, mlp_flops * fs / n,
                         mlp_weights * ws / n, 0.0, (z->mlp_layers * T * d * (ab + hb) + ff_tokens * ((mats - 1.0) * hb + ab)) / n,
                         mlp_tile), hw, moe_layers > 0.0 ? RT_KERNEL_MOE : RT_KERNEL_GEMM,
                  mlp_real, 2.0 * z->mlp_layers);
    realistic_op(add_op(out, hw, "activation", false, ff_tokens * (m->gated_mlp ? 5.0 : 8.0) / n, 0.0, 0.0,
                        ff_tokens * ((m->gated_mlp ? 2.0 : 1.0) * hb + ab) / n, 1.0),
                 hw, z->mlp_layers, 1.0, KIND_PLAIN, 1.0);

    x->moe_layers = moe_layers;
    x->k_routed = k_routed;
    x->de = de;
    x->ranks = ranks;
}

/* What runs on the residual stream: hyper-connections, the norms, the
 * residual adds, the embedding lookup, the per-layer inputs and the LM
 * head. */
static void stream_ops(const struct pass *x, struct phase_cost *out)
{
    const struct hw_rates *hw = x->hw;
    const struct model_shape *m = x->m;
    const struct phase_shape *z = x->z;
    const double n = x->n, wb = x->wb, ab = x->ab, hb = x->hb, d = x->d, V = x->V, fs = x->fs, ws = x->ws;
    const double T = x->T, head_tokens = x->head_tokens;
    const int64_t tile = x->tile;
    /* Replicated on every chip: the norms and two residual adds per layer. */
    if (m->hc_mult > 0) {
        /* DeepSeek-V4's hyper-connections: two a layer, each a (2 + hc) hc x hc d projection of the hc
         * copies of the stream (on the tensor unit) and the mixing of those copies, which read and write
         * hc d a token (modeling_deepseek_v4.py, DeepseekV4HyperConnection). */
        double hcp = model_hyper_connection_params_per_layer(m), hc = (double)m->hc_mult;
        double layers = (double)m->layers;
        realistic_op(add_op(out, hw, "hyper-connections", true, layers * 2.0 * T * hcp * fs, layers * hcp * wb,
                            0.0, layers * 2.0 * 2.0 * T * hc * d * hb, 1.0),
                     hw, 2.0 * layers, 1.0, KIND_PLAIN, 1.0);
    }
    double norms = model_layer_norms(m); /* norm weights of d_model over every layer */
    realistic_op(add_op(out, hw, "norms", false, norms * 5.0 * T * d, norms * d * wb, 0.0,
                        norms * T * d * (hb + ab), 1.0),
                 hw, norms, 1.0, KIND_PLAIN, 1.0);
    double adds = z->mixer_layers + z->mlp_layers; /* one residual add after each mixer and each MLP */
    /* Serving engines fuse the residual add into the next norm: no launch of its own. */
    realistic_op(add_op(out, hw, "residual adds", false, adds * T * d, 0.0, 0.0, adds * 3.0 * T * d * hb, 1.0), hw,
                 0.0, 1.0, KIND_PLAIN, 1.0);

    /* Embedding lookup reads only the rows used (and their per-layer inputs' rows); the LM head reads all
     * of its weights. */
    double ple = (double)m->per_layer_input * (double)m->layers; /* Gemma 4's per-layer input width */
    realistic_op(add_op(out, hw, "embedding lookup", false, 0.0,
                        (dmin(T, V) * d + dmin(T, (double)m->per_layer_vocab) * ple) * wb * ws / n, 0.0,
                        T * (d + ple) * hb, 1.0),
                 hw, 1.0, 1.0, KIND_PLAIN, 1.0);
    if (m->per_layer_input > 0) {
        /* the stream's projection to every layer's input, and each layer's gate and projection back
         * (Gemma4TextModel, Gemma4TextDecoderLayer) */
        double w = ple * d + (double)m->layers * model_per_layer_input_params(m);
        set_realistic(add_op(out, hw, "per-layer inputs", true, 2.0 * T * w * fs / n, w * wb * ws / n, 0.0,
                             T * (2.0 * ple + (double)m->layers * d) * hb, shard_tile(ple, n, tile)),
                      hw, RT_KERNEL_GEMM, gemm_s(hw, T, ple / n, d) + (double)m->layers * 2.0 *
                      gemm_s(hw, T, (double)m->per_layer_input, d), 1.0 + 2.0 * (double)m->layers);
    }
    set_realistic(add_op(out, hw, "lm head", true, 2.0 * head_tokens * d * V * fs / n, V * d * wb * ws / n, 0.0,
                         head_tokens * d * ab + head_tokens * V * hb / n,
                         shard_tile(d, 1, tile) * shard_tile(V, n, tile)), hw, RT_KERNEL_GEMM,
                  gemm_s(hw, head_tokens, V / n, d), 1.0);

}

/* The pass's collectives (the expert all-to-all, the tensor-parallel
 * all-reduces), the engine's fixed times, the totals and the error. */
static void pass_totals(const struct pass *x, struct phase_cost *out)
{
    const struct scenario *s = x->s;
    const struct hw_rates *hw = x->hw;
    const enum rt_phase p = x->p;
    const struct model_shape *m = x->m;
    const struct phase_shape *z = x->z;
    const double n = x->n, ab = x->ab, hb = x->hb, d = x->d, e = x->e, T = x->T;
    const double moe_layers = x->moe_layers, k_routed = x->k_routed, de = x->de, ranks = x->ranks;
    /* An all-reduce of the activations after each mixer and each MLP (two
     * per layer of a transformer), ring over n chips. */
    out->allreduces = out->realistic_comms_s = out->alltoall_bytes = 0.0;
    if (moe_layers > 0.0 && e > 1.0 && ranks > 1.0 && hw->ep_link_bytes_per_s > 0.0) {
        /* Each MoE layer's dispatch and combine (parallel.h): the group's
         * tokens split over its n chips, each sent once to every rank that
         * holds one of its k experts (DeepEP and the engines deduplicate per
         * rank), (ranks-1)/ranks of them elsewhere. */
        /* dispatch at the matmuls' input precision, combine in bf16 (the DeepSeek-V3 report, 3.3); a
         * latent MoE sends its latent width (Nemotron-3 Super) */
        double dest = alltoall_destinations(k_routed, (double)m->experts, ranks);
        out->alltoall_bytes = moe_layers * alltoall_bytes_per_chip(T / n, dest, de, 0.5 * (ab + hb), ranks);
        out->comms_bytes += out->alltoall_bytes;
        out->comms_s += out->alltoall_bytes / hw->ep_link_bytes_per_s;
        /* dispatch and combine: two NCCL all-to-alls a layer (the measured model) */
        out->realistic_comms_s += moe_layers * 2.0 * collective_s(hw, RT_KERNEL_NCCL_ALLTOALL,
                                                                  hw->kparams[RT_KERNEL_NCCL_ALLTOALL], n * e,
                                                                  out->alltoall_bytes / moe_layers / 2.0,
                                                                  hw->ep_link_bytes_per_s, hw->ep_link_extra_step_s);
    }
    if (n > 1.0 && hw->link_bytes_per_s > 0.0) {
        out->allreduces = z->mixer_layers + z->mlp_layers;
        double floor_s, realistic_s;
        phase_allreduces_s(s, hw, p, T, &floor_s, &realistic_s);
        out->comms_bytes += out->allreduces * 2.0 * (n - 1.0) / n * T * d * hb;
        out->comms_s += floor_s;
        out->realistic_comms_s += realistic_s;
    }
    out->step_s = p == RT_PHASE_TRAINING ? 0.0 : hw->engine.step_s;
    if (p == RT_PHASE_PREFILL) /* admitting the requests: once, in the time to first token */
        out->step_s += hw->engine.request_s;
    out->time_s = out->comms_s;
    out->realistic_s = out->realistic_comms_s + out->step_s;
    /* How sure: each part's cross-validated error weighted by its time (the collectives at the
     * all-reduce's; the engine's fixed times at the step level's, analysis.h). */
    /* past the 2-8 GPUs the collectives were measured on, an extrapolation: as unsure as a borrowed profile */
    double comms_error = n > RT_KERNEL_MEASURED_GPUS_MAX ? fmax(hw->kerror[RT_KERNEL_NCCL_ALLREDUCE], RT_KERNEL_EXTRAPOLATED_ERROR)
                                                         : hw->kerror[RT_KERNEL_ALLREDUCE];
    double weighted = out->realistic_comms_s * comms_error + out->step_s * RT_STEP_ERROR;
    for (int i = 0; i < out->count; i++) {
        out->time_s += out->ops[i].time_s;
        out->realistic_s += out->ops[i].realistic_s;
        weighted += out->ops[i].realistic_s * out->ops[i].error_fraction;
    }
    out->error_fraction = out->realistic_s > 0.0 ? weighted / out->realistic_s : 0.0;
}

void phase_costs(const struct scenario *s, const struct hw_rates *hw, enum rt_phase p, bool fused_attention,
                 struct phase_cost *out)
{
    out->count = 0; /* every field of each op is set by add_op; no need to clear the array */
    out->comms_bytes = out->comms_s = 0.0;
    struct pass x;
    pass_setup(&x, s, hw, p);
    out->tokens = x.T;
    mixer_ops(&x, fused_attention, out);
    mlp_ops(&x, out);
    stream_ops(&x, out);
    pass_totals(&x, out);
}

double palm_attention_flops_per_token(const struct model_shape *m, double seq_len)
{
    double keys = 0.0;
    if (model_mixed_geometry(m)) { /* each kind's keys at its own head widths */
        for (int i = 0; i < m->kind_count; i++) {
            struct attn_geometry g = model_kind_geometry(m, &m->kinds[i]);
            keys += (double)m->kinds[i].count * layer_palm_keys(&m->kinds[i], seq_len) * (double)g.heads *
                    (double)(g.d_head + g.v_head_dim);
        }
        return 6.0 * keys;
    }
    for (int i = 0; i < m->kind_count; i++)
        keys += (double)m->kinds[i].count * layer_palm_keys(&m->kinds[i], seq_len);
    return 6.0 * (double)m->heads * (double)(m->d_head + model_v_head_dim(m)) * keys;
}
