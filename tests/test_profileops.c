/* test_profileops.c — a profile's kernels grouped into rooftop's
 * operations (profileops.h): GEMMs by their shape against the model's
 * widths, whole and split tensor-parallel ways; the rest by kind; the phase
 * chosen by its operations' FLOPs. Shapes are Llama 3.1 8B's (d_model
 * 4096, 32 query and 8 KV heads of 128, d_ff 14336, vocab 128256; its
 * config.json), worked by hand. */
#include <string.h>

#include "testutil.h"

#include "calibrate.h"
#include "chips.h"
#include "profileops.h"

static const struct profile_op_row *row(const struct profile_ops *po, const char *name)
{
    for (int i = 0; i < po->count; i++)
        if (strcmp(po->rows[i].name, name) == 0)
            return &po->rows[i];
    return NULL;
}

static struct measured_point gemm(const char *label, double m, double k, double n, double seconds)
{
    struct measured_point p = {.flops = 2.0 * m * k * n, .bytes = 2.0 * (m * k + k * n + m * n), .seconds = seconds,
                               .kind = POINT_KIND_GEMM, .gemm_m = m, .gemm_k = k, .gemm_n = n};
    snprintf(p.label, sizeof p.label, "%s", label);
    return p;
}

/* One chip, a prefill of 4 x 1024 tokens: the fused QKV (4096 -> 4096 +
 * 2 x 1024 = 6144), the output projection (4096 -> 4096), gate+up (4096 ->
 * 2 x 14336) and down (14336 -> 4096), the lm head (4096 -> 128256); a
 * flash kernel, an RMSNorm kernel, a memcpy and a kernel of no known kind. */
static void test_shapes_to_operations(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.model = *model_find("llama-3.1-8b");
    s.chip = *chip_find("h100");
    s.batch = 4;
    s.prefill_tokens = 1024;
    static struct analysis a;
    char err[256];
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    const double t = 4096;
    struct measured_point pts[] = {
        gemm("qkv", t, 4096, 6144, 1e-3),  gemm("o", t, 4096, 4096, 2e-3),   gemm("gate_up", t, 4096, 28672, 3e-3),
        gemm("down", t, 14336, 4096, 4e-3), gemm("lm", 4, 4096, 128256, 5e-3), gemm("odd", t, 123, 456, 6e-3),
        {.label = "void flash_fwd_kernel<...>", .flops = 1e12, .bytes = 1e9, .seconds = 7e-3},
        {.label = "rmsnorm_kernel", .bytes = 1e8, .seconds = 8e-3},
        {.label = "Memcpy DtoD", .bytes = 1e8, .seconds = 9e-3},
        {.label = "mystery", .bytes = 1e8, .seconds = 10e-3},
    };
    struct profile_ops po;
    assert_int_equal(profile_by_operation(pts, sizeof pts / sizeof pts[0], &s, &a, &po), 0);
    assert_string_equal(po.phase, "prefill");
    ASSERT_NEAR(row(&po, "qkv projection")->measured_s, 1e-3, 1e-15);
    ASSERT_NEAR(row(&po, "output projection")->measured_s, 2e-3, 1e-15);
    ASSERT_NEAR(row(&po, "mlp")->measured_s, 3e-3 + 4e-3, 1e-15);
    ASSERT_NEAR(row(&po, "lm head")->measured_s, 5e-3, 1e-15);
    ASSERT_NEAR(row(&po, "attention")->measured_s, 7e-3, 1e-15);
    ASSERT_NEAR(row(&po, "norms")->measured_s, 8e-3, 1e-15);
    ASSERT_NEAR(row(&po, "copies and memsets")->measured_s, 9e-3, 1e-15);
    ASSERT_NEAR(row(&po, "other kernels")->measured_s, 6e-3 + 10e-3, 1e-15);
    assert_null(row(&po, "qkv + output projection")); /* 6144 and 4096 tell them apart */
    /* each row's model side is the sum of its operations in the phase */
    double mlp_floor = 0.0, attn_floor = 0.0;
    for (int i = 0; i < a.placement_count; i++) {
        const struct placement *p = &a.placements[i];
        if (!p->operation || strcmp(p->phase, "prefill") != 0)
            continue;
        if (strcmp(p->name, "mlp") == 0)
            mlp_floor += p->time_s;
        if (strcmp(p->name, "attention scores") == 0 || strcmp(p->name, "attention x V") == 0 ||
            strcmp(p->name, "softmax") == 0)
            attn_floor += p->time_s;
    }
    ASSERT_NEAR(row(&po, "mlp")->floor_s, mlp_floor, 1e-15);
    ASSERT_NEAR(row(&po, "attention")->floor_s, attn_floor, 1e-15);
    assert_true(row(&po, "mlp")->in_model);
    assert_false(row(&po, "copies and memsets")->in_model);
    /* at TP 4 a chip's kernels see a quarter of each split width: 1536, 1024 in, 7168 and 3584 */
    s.chips = 4;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    struct measured_point tp[] = {gemm("qkv/4", t, 4096, 1536, 1e-3), gemm("o/4", t, 1024, 4096, 2e-3),
                                  gemm("up/4", t, 4096, 7168, 3e-3), gemm("down/4", t, 3584, 4096, 4e-3)};
    assert_int_equal(profile_by_operation(tp, 4, &s, &a, &po), 0);
    ASSERT_NEAR(row(&po, "qkv projection")->measured_s, 1e-3, 1e-15);
    ASSERT_NEAR(row(&po, "output projection")->measured_s, 2e-3, 1e-15);
    ASSERT_NEAR(row(&po, "mlp")->measured_s, 7e-3, 1e-15);
}

/* A model whose query, key/value and output widths are all d_model (MHA,
 * d_head = d_model / heads) cannot tell a q, k or v projection from the
 * output one by shape: they are one row, against both of the model's. And
 * a profile far from every phase says it is not comparable. */
static void test_ambiguous_and_far(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.model = *model_find("llama-3.1-8b");
    s.model.kv_heads = 32; /* MHA: k and v are 4096 wide too */
    s.chip = *chip_find("h100");
    static struct analysis a;
    char err[256];
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    struct measured_point pts[] = {gemm("q", 8192, 4096, 4096, 1e-3)};
    struct profile_ops po;
    assert_int_equal(profile_by_operation(pts, 1, &s, &a, &po), 0);
    const struct profile_op_row *both = row(&po, "qkv + output projection");
    assert_non_null(both);
    ASSERT_NEAR(both->measured_s, 1e-3, 1e-15);
    assert_true(both->in_model);
    assert_null(row(&po, "qkv projection"));
    assert_false(po.comparable); /* 275 GFLOP against a whole 8k prefill of 8B */
    struct measured_point none[] = {{.label = "x", .bytes = 1, .seconds = 0}};
    assert_int_equal(profile_by_operation(none, 1, &s, &a, &po), -1);
}

/* Names tell kinds where no operator does (an ncu export, a kernel trace). */
static void test_kind_from_name(void **state)
{
    (void)state;
    assert_int_equal(point_kind_from_name("sm90_xmma_gemm_bf16bf16_bf16f32"), POINT_KIND_GEMM);
    assert_int_equal(point_kind_from_name("Cijk_Ailk_Bljk_BBS_BH_MT256x32x64"), POINT_KIND_GEMM);
    assert_int_equal(point_kind_from_name("paged_attention_ll4mi_QKV_mfma16_kernel"), POINT_KIND_ATTENTION);
    assert_int_equal(point_kind_from_name("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), POINT_KIND_COMM);
    assert_int_equal(point_kind_from_name("fused_moe_kernel"), POINT_KIND_MOE);
    assert_int_equal(point_kind_from_name("rms_norm_kernel"), POINT_KIND_NORM);
    assert_int_equal(point_kind_from_name("Memset (Device)"), POINT_KIND_COPY);
    assert_int_equal(point_kind_from_name("vectorized_elementwise_kernel"), POINT_KIND_ELEMENTWISE);
    assert_int_equal(point_kind_from_name("mystery_kernel"), POINT_KIND_UNKNOWN);
    /* PyTorch's matmul operators are GEMMs, though "addmm" holds "add" */
    assert_int_equal(point_kind_from_name("aten::addmm"), POINT_KIND_GEMM);
    assert_int_equal(point_kind_from_name("addmm M8944 K1024 N1024 bf16"), POINT_KIND_GEMM);
    assert_int_equal(point_kind_from_name("aten::mm 8944x2816x1024"), POINT_KIND_GEMM);
    assert_int_equal(point_kind_from_name("aten::add"), POINT_KIND_ELEMENTWISE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_to_operations),
        cmocka_unit_test(test_ambiguous_and_far),
        cmocka_unit_test(test_kind_from_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
