/* parallel.c — the formulas of parallel.h. */
#include "parallel.h"

#include <math.h>

double kv_heads_per_chip(double kv_heads, double tp)
{
    if (!(kv_heads >= 1.0) || !(tp >= 1.0))
        return 0.0;
    return ceil(kv_heads / tp);
}

double kv_replication(double kv_heads, double tp)
{
    if (!(kv_heads >= 1.0) || !(tp >= 1.0))
        return 0.0;
    return tp * kv_heads_per_chip(kv_heads, tp) / kv_heads;
}

double pipeline_stage_layers(double layers, double pp)
{
    if (!(layers >= 1.0) || !(pp >= 1.0) || pp > layers)
        return 0.0;
    return ceil(layers / pp);
}

double pipeline_bubble_fraction(double pp, double microbatches)
{
    if (!(pp >= 1.0) || !(microbatches >= 1.0))
        return 0.0;
    return (pp - 1.0) / microbatches;
}

double alltoall_bytes_per_chip(double tokens_per_chip, double copies, double d_model, double bytes_per_act, double ep)
{
    if (!(ep > 1.0) || !(tokens_per_chip > 0.0) || !(copies > 0.0) || !(d_model > 0.0) || !(bytes_per_act > 0.0))
        return 0.0;
    return tokens_per_chip * copies * d_model * bytes_per_act * (ep - 1.0) / ep * 2.0;
}

double allreduce_s(double n, double bytes, double alpha_s, double one_way_bytes_per_s)
{
    if (!(n > 1.0) || !(one_way_bytes_per_s > 0.0))
        return 0.0;
    double ring = 2.0 * (n - 1.0) * alpha_s + 2.0 * (n - 1.0) / n * bytes / one_way_bytes_per_s;
    double tree = 2.0 * ceil(log2(n)) * alpha_s + 2.0 * bytes / one_way_bytes_per_s;
    return ring < tree ? ring : tree;
}

struct link_choice link_for_group(const struct chip_spec *chip, double group)
{
    struct link_choice l = {chip->interconnect_bytes_per_s / 2.0, 0.0, false, false};
    if (chip->scale_up_domain > 0 && group > (double)chip->scale_up_domain) {
        l.crosses_domain = true;
        l.extra_step_s = RT_SCALE_OUT_EXTRA_STEP_S;
        if (chip->scale_out_bytes_per_s > 0.0)
            l.one_way_bytes_per_s = chip->scale_out_bytes_per_s / 2.0;
        else
            l.scale_out_unknown = true;
    }
    return l;
}

double spec_tokens_per_pass(double k, double a)
{
    if (!isfinite(k) || !isfinite(a) || a < 0.0 || a >= 1.0)
        return 0.0;
    if (k <= 0.0)
        return 1.0;
    return (1.0 - pow(a, k + 1.0)) / (1.0 - a);
}

double spec_tokens_per_pass_by_position(const double *a, int k)
{
    if (!a || k < 0 || k > 16)
        return 0.0;
    double tokens = 1.0, reach = 1.0;
    for (int i = 0; i < k; i++) {
        if (!(a[i] >= 0.0 && a[i] <= 1.0))
            return 0.0;
        reach *= a[i];
        tokens += reach;
    }
    return tokens;
}

double kv_transfer_s(double bytes, double one_way_bytes_per_s, double alpha_s)
{
    if (!(bytes > 0.0) || !(one_way_bytes_per_s > 0.0))
        return 0.0;
    return alpha_s + bytes / one_way_bytes_per_s;
}

int64_t pool_instance_tp(int64_t pool_chips, int64_t heads, int64_t domain)
{
    if (pool_chips < 1 || heads < 1)
        return 0;
    for (int64_t t = pool_chips; t > 1; t--)
        if (pool_chips % t == 0 && heads % t == 0 && (domain <= 0 || t <= domain))
            return t;
    return 1;
}

double alltoall_destinations(double k, double experts, double ranks)
{
    if (!(k >= 1.0) || !(experts >= 1.0) || !(ranks >= 1.0) || k > experts || !isfinite(k + experts + ranks))
        return 0.0;
    if (ranks <= 1.0)
        return 1.0;
    double per_rank = experts / ranks, none = 1.0;
    for (double i = 0.0; i < k && none > 0.0; i += 1.0)
        none *= fmax(0.0, (experts - per_rank - i) / (experts - i));
    double d = ranks * (1.0 - none);
    return fmin(fmin(k, ranks), fmax(1.0, d));
}

double model_kv_share_per_chip(const struct model_shape *m, double context_tokens, double tp)
{
    double kv_units = m->kv_lora_rank > 0 ? 1.0 : (double)m->kv_heads;
    if (!model_mixed_geometry(m))
        return kv_heads_per_chip(kv_units, tp) / kv_units;
    double all = 0.0, held = 0.0; /* elements of one request's cache, and those on one chip */
    for (int i = 0; i < m->kind_count; i++) {
        const struct layer_kind *k = &m->kinds[i];
        if (!mixer_is_attention(k->mixer) || k->count <= 0)
            continue;
        struct attn_geometry g = model_kind_geometry(m, k);
        double e = (double)k->count * layer_kv_tokens(k, context_tokens) * model_kind_kv_elements(m, k);
        all += e;
        held += e * kv_heads_per_chip((double)g.kv_heads, tp) / (double)g.kv_heads;
    }
    return all > 0.0 ? held / all : kv_heads_per_chip(kv_units, tp) / kv_units;
}
