/* test_families.c — the 2025-26 model families as rooftop reads and costs
 * them, worked by hand: sparse attention's top-k reads (DeepSeek-V3.2 tech
 * report, sec. 2.1; DeepSeek-V3.2-Exp's inference/model.py), DeepSeek-V4's
 * compressed entries (modeling_deepseek_v4.py), per-kind attention
 * geometry (Gemma 4), the short convolution's state (LFM2), cross-attention
 * to an image (Llama 3.2 Vision), quantized checkpoints (ModelOpt's
 * hf_quant_config.json, quantization_config) and Python's Infinity/NaN
 * literals. The configs are in tests/fixtures/hf/ with their sources. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "detailed.h"
#include "fileio.h"
#include "hfconfig.h"
#include "hfquant.h"
#include "jsonio.h"
#include "parallel.h"
#include "scenariofile.h"

#define ASSERT_CONTAINS(haystack, needle)                                                                              \
    do {                                                                                                               \
        if (!strstr((haystack), (needle)))                                                                             \
            fail_msg("'%s' does not contain '%s'", (haystack), (needle));                                              \
    } while (0)


/* Reads a fixture's hf_quant_config.json into m. */
static void load_quant(const char *dir, struct model_shape *m)
{
    char path[256], err[400], *text;
    size_t len;
    snprintf(path, sizeof path, "tests/fixtures/hf/%s/hf_quant_config.json", dir);
    if (read_file(path, &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct load_warnings w = {0};
    if (hf_quant_from_file(text, len, path, m, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(text);
}


/* One request of model m at context tokens on one H200, bf16. */
static struct analysis one_request(const struct model_shape *m, int64_t context)
{
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, m);
    s.chip = *chip_find("h200");
    s.batch = 1;
    s.context_tokens = context;
    s.prefill_tokens = 8192;
    s.precision = s.kv_precision = RT_BF16;
    return must_analyze(&s);
}

/* A sparse layer attends to min(context, top-k) keys, caches every token,
 * and its prompt pairs are a window's; the indexer scores all of them. */
static void test_sparse_layer_by_hand(void **state)
{
    (void)state;
    struct layer_kind k = {.mixer = RT_MIXER_SPARSE, .window = 2048};
    ASSERT_NEAR(layer_kv_tokens(&k, 131072), 131072, 0);
    ASSERT_NEAR(layer_decode_keys(&k, 131072), 2048, 0);
    ASSERT_NEAR(layer_decode_keys(&k, 100), 100, 0);
    /* P = 4096 > W = 2048: W(W+1)/2 + (P - W) W */
    ASSERT_NEAR(layer_prefill_pairs(&k, 4096), 2048.0 * 2049 / 2 + 2048.0 * 2048, 0);
    assert_true(mixer_is_attention(RT_MIXER_SPARSE));
}

/* GLM-5.1 at 128k: a decode step reads 2048 latents a layer and the
 * indexer's 132-byte key for every cached token; prefill counts top-k
 * attention, not full. */
static void test_glm5_decode_reads_top_k(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("glm-5.1");
    assert_int_equal(m.index_heads, 32);
    assert_int_equal(m.index_head_dim, 128);
    ASSERT_NEAR(model_index_bytes_per_token_per_layer(&m), 132, 0);
    /* wq_b 2048 x 32 x 128 + wk 6144 x 128 + k_norm 2 x 128 + weights_proj 6144 x 32 */
    ASSERT_NEAR(model_indexer_params(&m), 2048.0 * 4096 + 6144.0 * 128 + 256 + 6144.0 * 32, 0);
    struct analysis a = one_request(&m, 131072);
    const struct phase_cost *dec = &a.phases[RT_PHASE_DECODE];
    /* the latent (512 + 64) x 2 B of 2048 keys in each of 78 layers */
    ASSERT_NEAR(test_op(dec, "attention scores")->kv_bytes, 78.0 * 2048 * 576 * 2, 0);
    /* the indexer reads every cached index key and writes the new one */
    ASSERT_NEAR(test_op(dec, "sparse indexer")->kv_bytes, 78.0 * (131072 + 1) * 132, 0);
    /* 7.7x fewer cache bytes than reading every latent, as the issue measured */
    double full = 78.0 * 131072 * 1152;
    double sparse = test_op(dec, "attention scores")->kv_bytes + test_op(dec, "sparse indexer")->kv_bytes;
    ASSERT_NEAR(full / sparse, 7.6799, 1e-4);
    /* Prefill of 8192: each head scores min(i, 2048) keys */
    const struct phase_cost *pre = &a.phases[RT_PHASE_PREFILL];
    double pairs = 2048.0 * 2049 / 2 + (8192.0 - 2048) * 2048;
    ASSERT_NEAR(test_op(pre, "attention scores")->flops, 78.0 * 2 * 64 * 256 * pairs, 1e-6 * 78.0 * 2 * 64 * 256 * pairs);
}

/* GLM-5's indexer_types: a "shared" layer reuses the top-k of the layer
 * before, so it neither caches an index key nor scores; its weights stay. */
static void test_glm5_shared_indexer(void **state)
{
    (void)state;
    char path[] = "tests/fixtures/hf/glm-5.1/config.json", err[400], *text;
    size_t len;
    if (read_file(path, &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    cJSON *c = cJSON_Parse(text);
    free(text);
    cJSON *types = cJSON_AddArrayToObject(c, "indexer_types");
    for (int i = 0; i < 78; i++)
        cJSON_AddItemToArray(types, cJSON_CreateString(i % 2 == 0 ? "full" : "shared"));
    char *edited = cJSON_PrintUnformatted(c);
    cJSON_Delete(c);
    struct model_shape m;
    struct load_warnings w = {0};
    if (model_from_hf_config(edited, strlen(edited), path, "glm", &m, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(edited);
    ASSERT_NEAR(model_param_count(&m).total, 743911218432, 0);
    ASSERT_NEAR(model_kv_bytes_per_token(&m, 2.0), 78.0 * 1152 + 39.0 * 132, 0);
    struct analysis a = one_request(&m, 131072);
    ASSERT_NEAR(test_op(&a.phases[RT_PHASE_DECODE], "sparse indexer")->kv_bytes, 39.0 * (131072 + 1) * 132, 0);
}

/* Compressed entries (DeepSeek-V4): floor(context / ratio), the window
 * beside them, top-k for CSA; the prompt's pairs in closed form against a
 * sum over its queries. */
static void test_compressed_layer_by_hand(void **state)
{
    (void)state;
    struct layer_kind csa = {.mixer = RT_MIXER_COMPRESSED, .window = 128, .ratio = 4, .topk = 512};
    struct layer_kind hca = {.mixer = RT_MIXER_COMPRESSED, .window = 128, .ratio = 128};
    ASSERT_NEAR(layer_kv_tokens(&csa, 8192), 128 + 2048, 0);
    ASSERT_NEAR(layer_kv_tokens(&hca, 8192), 128 + 64, 0);
    ASSERT_NEAR(layer_kv_tokens(&csa, 100), 100 + 25, 0);
    ASSERT_NEAR(layer_decode_keys(&csa, 131072), 128 + 512, 0);
    ASSERT_NEAR(layer_decode_keys(&hca, 131072), 128 + 1024, 0);
    ASSERT_NEAR(layer_compressed_entries(&csa, 8191), 2047, 0);
    int64_t prompts[] = {1, 3, 4, 127, 128, 129, 2047, 2048, 2049, 5000, 8192};
    for (size_t j = 0; j < sizeof prompts / sizeof prompts[0]; j++) {
        const struct layer_kind *kinds[] = {&csa, &hca};
        for (int c = 0; c < 2; c++) {
            const struct layer_kind *k = kinds[c];
            double want = 0.0;
            for (int64_t i = 1; i <= prompts[j]; i++) {
                double entries = floor((double)i / (double)k->ratio);
                want += fmin((double)i, 128.0) + (k->topk > 0 ? fmin(entries, (double)k->topk) : entries);
            }
            ASSERT_NEAR(layer_prefill_pairs(k, (double)prompts[j]), want, 0);
        }
    }
}

/* DeepSeek-V4-Flash's decode step at 128k: the rows each layer reads, one
 * 1024-byte key-value tensor each at bf16, and the CSA indexer's keys. */
static void test_deepseek_v4_decode(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("deepseek-v4-flash");
    assert_true(m.kv_single);
    ASSERT_NEAR(model_kv_elements_per_token_per_layer(&m), 512, 0);
    /* the grouped output: 8 groups of 4096 to 1024, then 8192 to 4096 */
    ASSERT_NEAR(model_o_params(&m), 4096.0 * 8192 + 8192.0 * 4096, 0);
    struct analysis a = one_request(&m, 131072);
    const struct phase_cost *dec = &a.phases[RT_PHASE_DECODE];
    double rows = 2 * 128.0 + 21 * (128.0 + 512) + 20 * (128.0 + 1024);
    ASSERT_NEAR(test_op(dec, "attention scores")->kv_bytes, rows * 1024, 0);
    ASSERT_NEAR(test_op(dec, "attention x V")->kv_bytes, 0, 0); /* the one tensor is read once */
    ASSERT_NEAR(test_op(dec, "sparse indexer")->kv_bytes, 21 * (32768 + 0.25) * 132, 1e-6);
    /* 43 layers x 2 modules of (2 + 4) 4 x 4 x 4096 + 24 + 3 parameters, 2 FLOPs each for the one token */
    ASSERT_NEAR(test_op(dec, "hyper-connections")->flops, 43.0 * 2 * 2 * (24.0 * 16384 + 27), 0);
}

/* Gemma 4's full layers at their own geometry: the decode step reads each
 * kind's cache at its width, and the two attention reads add up to the
 * cache the request holds. */
static void test_gemma4_kinds(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("gemma-4-26b-a4b");
    assert_true(model_mixed_geometry(&m));
    int full = -1;
    for (int i = 0; i < m.kind_count; i++)
        if (m.kinds[i].mixer == RT_MIXER_FULL)
            full = i;
    assert_true(full >= 0);
    struct attn_geometry g = model_kind_geometry(&m, &m.kinds[full]);
    assert_int_equal(g.kv_heads, 2);
    assert_int_equal(g.d_head, 512);
    assert_true(m.kinds[full].k_eq_v);
    /* q 2816 x 8192, k 2816 x 1024, no v, o 8192 x 2816, q/k norms 512 each */
    ASSERT_NEAR(model_kind_mixer_params(&m, &m.kinds[full]), 2816.0 * 8192 + 2816.0 * 1024 + 8192.0 * 2816 + 1024,
                0);
    struct analysis a = one_request(&m, 8192);
    const struct phase_cost *dec = &a.phases[RT_PHASE_DECODE];
    double read = test_op(dec, "attention scores")->kv_bytes + test_op(dec, "attention x V")->kv_bytes;
    ASSERT_NEAR(read, 377487360, 0);
    ASSERT_NEAR(a.memory.kv_cache_bytes_per_request, 377487360, 0);
    /* Two tensor-parallel chips hold half of each kind's KV heads (2 of 2 -> 1, 8 -> 4). */
    ASSERT_NEAR(model_kv_share_per_chip(&m, 8192, 2), 0.5, 1e-15);
    /* Eight hold one of the full layers' 2 KV heads (a copy on 4 chips each) and one of 8. */
    double full_bytes = 5.0 * 8192 * 4096, sliding_bytes = 25.0 * 1024 * 8192;
    ASSERT_NEAR(model_kv_share_per_chip(&m, 8192, 8), (full_bytes * 0.5 + sliding_bytes * 0.125) / 377487360,
                1e-15);
}

/* Gemma 4 E2B's shared-KV layers read an earlier layer's cache each step
 * and write none; its per-layer inputs read one row of their table a token. */
static void test_gemma4_shared_kv(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("gemma-4-e2b");
    struct analysis a = one_request(&m, 8192);
    const struct phase_cost *dec = &a.phases[RT_PHASE_DECODE];
    double own = 12.0 * 512 * 1024 + 3.0 * 8192 * 2048, shared = 16.0 * 512 * 1024 + 4.0 * 8192 * 2048;
    ASSERT_NEAR(test_op(dec, "attention scores")->kv_bytes + test_op(dec, "attention x V")->kv_bytes, own + shared, 0);
    ASSERT_NEAR(test_op(dec, "qkv projection")->kv_bytes, 18432, 0); /* the new token, in the 15 layers that keep it */
    ASSERT_NEAR(test_op(dec, "embedding lookup")->weight_bytes, (1536.0 + 35 * 256) * 2, 0);
    /* the stream to 35 x 256 inputs, and each layer's gate and projection back (and norm): 2 FLOPs a weight */
    ASSERT_NEAR(test_op(dec, "per-layer inputs")->flops, 2.0 * (35 * 256.0 * 1536 + 35 * (2 * 256.0 * 1536 + 1536)),
                0);
}

/* LFM2's convolution keeps its last kernel - 1 inputs; Llama 3.2 Vision's
 * cross layers keep one image's encoder keys and values, and a decode step
 * reads them (once: they are not written back). */
static void test_fixed_state_mixers(void **state)
{
    (void)state;
    struct model_shape lfm = test_load_fixture("lfm2-1.2b");
    ASSERT_NEAR(model_state_bytes_per_layer(&lfm, RT_MIXER_CONV, 2.0), 2.0 * 2048 * 2, 0);
    ASSERT_NEAR(model_mixer_params(&lfm, RT_MIXER_CONV), 3.0 * 2048 * 2048 + 2048.0 * 3 + 2048.0 * 2048, 0);
    struct model_shape v = test_load_fixture("llama-3.2-11b-vision");
    assert_int_equal(v.cross_tokens, 6404);
    ASSERT_NEAR(model_state_bytes_per_layer(&v, RT_MIXER_CROSS, 2.0), 6404.0 * 2048 * 2, 0);
    ASSERT_NEAR(model_state_bytes_per_layer(&v, RT_MIXER_CROSS, 1.0), 6404.0 * 2048, 0); /* an fp8 cache */
    struct analysis a = one_request(&v, 8192);
    ASSERT_NEAR(test_op(&a.phases[RT_PHASE_DECODE], "state update")->kv_bytes, 8.0 * 6404 * 2048 * 2, 0);
    /* a decode step reads the cross layers' q and o (and their norms and gates), not the image's k and v */
    ASSERT_NEAR(test_op(&a.phases[RT_PHASE_DECODE], "state-mixer projections")->weight_bytes,
                8.0 * (2.0 * 4096 * 4096 + 2 * 128 + 2) * 2, 0);
    /* a prefill projects the image's 6404 tokens to k and v once: 8 layers x 2 x 6404 x 4096 x 2048 */
    const struct op_cost *pre = test_op(&a.phases[RT_PHASE_PREFILL], "state-mixer projections");
    ASSERT_NEAR(pre->flops, 2.0 * 8192 * 8.0 * (2.0 * 4096 * 4096 + 258) + 8.0 * 2 * 6404 * 4096 * 2048, 1.0);
}

/* Nemotron-NAS: a skipped attention has no cache and no input norm. */
static void test_nas_blocks(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("llama-3.3-nemotron-super-49b");
    ASSERT_NEAR(model_attention_layers(&m), 49, 0);
    ASSERT_NEAR(model_layer_norms(&m), 49 + 80, 0);
    assert_int_equal(m.kv_heads, 8);
    assert_int_equal(m.d_ff, 28672); /* int(2 x 5.25 x 8192 / 3) = 28672, a multiple of 256 */
}

/* ModelOpt's hf_quant_config.json and quantization_config set the
 * checkpoint's precisions, and the assumption says what stays wider. */
static void test_quantized_checkpoints(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("qwen3.6-27b");
    load_quant("qwen3.6-27b", &m); /* MIXED_PRECISION: MLPs W4A16_NVFP4, attention FP8, FP8 KV */
    assert_true(m.checkpoint_quantized);
    assert_int_equal(m.checkpoint_precision, RT_NVFP4);
    assert_true(m.checkpoint_kv_quantized);
    assert_int_equal(m.checkpoint_kv_precision, RT_FP8);
    assert_true(m.checkpoint_weight_only);
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, &m);
    scenario_use_checkpoint(&s);
    assert_int_equal(s.precision, RT_NVFP4);
    assert_int_equal(s.kv_precision, RT_FP8);
    assert_int_equal(s.act_precision, RT_BF16);

    m = test_load_fixture("kimi-k2.6"); /* NVFP4, attention, shared experts and layer 0 excluded */
    load_quant("kimi-k2.6", &m);
    assert_int_equal(m.checkpoint_precision, RT_NVFP4);
    assert_false(m.checkpoint_weight_only);
    bool said = false;
    for (int i = 0; i < m.assumption_count; i++)
        said = said || (strcmp(m.assumptions[i].key, "quantization") == 0 &&
                        strstr(m.assumptions[i].why, "norms, LM head, excluded") != NULL);
    assert_true(said);

    m = test_load_fixture("minimax-m2.7"); /* quantization_config: fp8 with 128 x 128 blocks */
    assert_true(m.checkpoint_quantized);
    assert_int_equal(m.checkpoint_precision, RT_FP8_BLOCK);
    assert_false(m.checkpoint_kv_quantized);
    m = test_load_fixture("gpt-oss-20b");
    assert_int_equal(m.checkpoint_precision, RT_MXFP4);
    m = test_load_fixture("glm-5.1"); /* bf16: nothing stated */
    assert_false(m.checkpoint_quantized);

    const char *forms[][2] = {
        {"{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128}", "int4"},
        {"{\"quant_method\": \"gptq\", \"bits\": 8}", "int8"},
        {"{\"quant_method\": \"compressed-tensors\", \"config_groups\": {\"g\": {\"weights\": {\"num_bits\": 4, "
         "\"type\": \"float\", \"group_size\": 16}}}}", "nvfp4"},
        {"{\"quant_method\": \"compressed-tensors\", \"config_groups\": {\"g\": {\"weights\": {\"num_bits\": 8, "
         "\"type\": \"float\", \"strategy\": \"block\"}}}}", "fp8-block"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char text[600], err[300];
        snprintf(text, sizeof text, "{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                                    "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128, "
                                    "\"quantization_config\": %s}", forms[i][0]);
        struct model_shape q;
        struct load_warnings w = {0};
        if (model_from_hf_config(text, strlen(text), "q.json", "q", &q, &w, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(q.checkpoint_quantized);
        assert_string_equal(precision_name((enum rt_precision)q.checkpoint_precision), forms[i][1]);
    }
}

/* hf_quant_config.json's other forms: a mixed checkpoint's other format is
 * counted in the assumption, an NVFP4 KV cache read, an unknown one said,
 * W4A8 runs fp8 matmuls, and malformed sizes and lists are refused by name. */
static void test_quant_file_forms(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("qwen3.6-27b");
    load_quant("qwen3.6-27b", &m);
    bool said = false;
    for (int i = 0; i < m.assumption_count; i++)
        said = said || (strcmp(m.assumptions[i].key, "quantization") == 0 &&
                        strstr(m.assumptions[i].why, "7.24B at fp8") != NULL);
    assert_true(said); /* its FP8 attention and linear-attention projections beside the NVFP4 MLPs */
    struct {
        const char *text, *error;
        int kv, act; /* -1: not stated */
    } cases[] = {
        {"{\"quantization\": {\"quant_algo\": \"FP8\", \"kv_cache_quant_algo\": \"NVFP4\"}}", NULL, RT_NVFP4, -1},
        {"{\"quantization\": {\"quant_algo\": \"FP8\", \"kv_cache_quant_algo\": \"BOGUS\"}}", NULL, -1, -1},
        {"{\"quantization\": {\"quant_algo\": \"W4A8_AWQ\"}}", NULL, -1, RT_FP8},
        {"{\"quantization\": {\"quant_algo\": \"NVFP4\", \"group_size\": 0}}", "'quantization.group_size'", -1, -1},
        {"{\"quantization\": {\"quant_algo\": \"NVFP4\", \"exclude_modules\": [1]}}",
         "'quantization.exclude_modules' must be a list of module names", -1, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct model_shape q = test_load_fixture("llama-3.1-8b");
        char err[300] = "";
        struct load_warnings w = {0};
        int rc = hf_quant_from_file(cases[i].text, strlen(cases[i].text), "h.json", &q, &w, err, sizeof err);
        if (cases[i].error) {
            assert_int_equal(rc, -1);
            ASSERT_CONTAINS(err, cases[i].error);
            continue;
        }
        assert_int_equal(rc, 0);
        assert_int_equal(q.checkpoint_kv_quantized, cases[i].kv >= 0);
        if (cases[i].kv >= 0)
            assert_int_equal(q.checkpoint_kv_precision, cases[i].kv);
        assert_int_equal(q.checkpoint_act_set, cases[i].act >= 0);
        if (cases[i].act >= 0)
            assert_int_equal(q.checkpoint_act_precision, cases[i].act);
        bool unknown_kv = false;
        for (int j = 0; j < q.assumption_count; j++)
            unknown_kv = unknown_kv || strcmp(q.assumptions[j].key, "kv cache format") == 0;
        assert_int_equal(unknown_kv, strstr(cases[i].text, "BOGUS") != NULL);
    }
    const char *bad_config[][2] = {
        {"{\"quant_method\": \"fp8\", \"weight_block_size\": [0, 0]}", "'quantization_config.weight_block_size'"},
        {"{\"quant_method\": \"mxfp4\", \"modules_to_not_convert\": 5}", "modules_to_not_convert"},
    };
    for (size_t i = 0; i < sizeof bad_config / sizeof bad_config[0]; i++) {
        char text[600], err[300];
        snprintf(text, sizeof text, "{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                                    "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128, "
                                    "\"quantization_config\": %s}", bad_config[i][0]);
        struct model_shape q;
        struct load_warnings w = {0};
        assert_int_equal(model_from_hf_config(text, strlen(text), "q.json", "q", &q, &w, err, sizeof err), -1);
        ASSERT_CONTAINS(err, bad_config[i][1]);
    }
}

/* Python's literals: Infinity and NaN load with a warning pointing at the
 * first; an error after a NaN still names the file's own column; a NaN
 * where a number is needed is named. */
static void test_python_literals(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("nemotron-3-super-120b-a12b"); /* time_step_limit [0.0, Infinity] */
    assert_int_equal(m.moe_latent, 1024);
    const char *ok = "{\"a\": [NaN, -Infinity, Infinity], \"s\": \"NaN Infinity\", \"NaNa\": 1}";
    char err[300];
    struct load_warnings w = {0};
    cJSON *root = json_parse_text(ok, strlen(ok), "x.json", &w, err, sizeof err);
    assert_non_null(root);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "a");
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(a, 0)));
    assert_true(isinf(cJSON_GetArrayItem(a, 1)->valuedouble) && cJSON_GetArrayItem(a, 1)->valuedouble < 0);
    assert_true(isinf(cJSON_GetArrayItem(a, 2)->valuedouble) && cJSON_GetArrayItem(a, 2)->valuedouble > 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(root, "s")->valuestring, "NaN Infinity");
    cJSON_Delete(root);
    assert_int_equal(w.count, 1);
    ASSERT_CONTAINS(w.text[0], "x.json:1:8: 3 Infinity/NaN literals");
    const char *bad = "{\"a\": [NaN, NaN,, 1]}";
    struct load_warnings w2 = {0};
    assert_null(json_parse_text(bad, strlen(bad), "x.json", &w2, err, sizeof err));
    ASSERT_CONTAINS(err, "x.json:1:17:"); /* the second comma, as the file has it */
    const char *nan_width = "{\"model_type\": \"llama\", \"hidden_size\": NaN, \"num_hidden_layers\": 2, "
                            "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}";
    struct model_shape q;
    assert_int_equal(model_from_hf_config(nan_width, strlen(nan_width), "q.json", "q", &q, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "'hidden_size' is null (or NaN)");
}

/* Refusals name the key and what it holds. */
static void test_refusals_name_the_cause(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"{\"model_type\": \"newthing\", \"compress_ratios\": [0, 4], \"hidden_size\": 64, \"num_hidden_layers\": 2, "
         "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}",
         "model_type 'newthing' has 'compress_ratios'"},
        {"{\"model_type\": \"llama\", \"layer_types\": [\"conv\", \"full_attention\"], \"hidden_size\": 64, "
         "\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}",
         "'layer_types[0]' is 'conv', a layer rooftop does not model in this family"},
        {"{\"model_type\": \"gemma4_text\", \"num_kv_shared_layers\": 4, \"hidden_size\": 64, "
         "\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}",
         "'num_kv_shared_layers' (4) must leave a layer of its own keys and values"},
        {"{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"num_hidden_layers\": 1, "
         "\"num_attention_heads\": 4, \"vocab_size\": 100, \"block_configs\": [{\"attention\": "
         "{\"replace_with_linear\": true}, \"ffn\": {\"ffn_mult\": 1.0}}]}",
         "'block_configs[0].attention.replace_with_linear' is true"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[400];
        struct model_shape m;
        struct load_warnings w = {0};
        assert_int_equal(model_from_hf_config(cases[i][0], strlen(cases[i][0]), "c.json", "c", &m, &w, err,
                                              sizeof err),
                         -1);
        ASSERT_CONTAINS(err, cases[i][1]);
    }
}

/* Every new field survives a scenario file: the same figures after a save
 * and a load. */
static void test_scenario_round_trip(void **state)
{
    (void)state;
    const char *dirs[] = {"glm-5.1", "deepseek-v4-flash", "gemma-4-26b-a4b", "gemma-4-e2b", "kimi-linear-48b-a3b",
                          "mimo-v2-flash", "llama-3.3-nemotron-super-49b", "lfm2-1.2b", "llama-3.2-11b-vision",
                          "step-3.7-flash-mfa", "nemotron-3-super-120b-a12b", "qwen3.5-122b-a10b"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        struct model_shape m = test_load_fixture(dirs[i]);
        struct scenario s;
        scenario_default(&s);
        scenario_set_model(&s, &m);
        s.chip = *chip_find("h200");
        s.chips = 2;
        struct analysis a = must_analyze(&s);
        char *text = scenario_to_json(&s), err[400];
        struct scenario back;
        struct load_warnings w = {0};
        if (scenario_from_json(text, strlen(text), "rt.json", &back, &w, err, sizeof err) != 0)
            fail_msg("%s: %s", dirs[i], err);
        free(text);
        struct analysis b = must_analyze(&back);
        if (a.params != b.params || a.memory.kv_cache_bytes_per_request != b.memory.kv_cache_bytes_per_request ||
            a.memory.state_bytes_per_request != b.memory.state_bytes_per_request ||
            a.latency.total_s != b.latency.total_s || a.realistic.total_s != b.realistic.total_s)
            fail_msg("%s: the figures changed through a scenario file", dirs[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_layer_by_hand),
        cmocka_unit_test(test_glm5_decode_reads_top_k),
        cmocka_unit_test(test_glm5_shared_indexer),
        cmocka_unit_test(test_compressed_layer_by_hand),
        cmocka_unit_test(test_deepseek_v4_decode),
        cmocka_unit_test(test_gemma4_kinds),
        cmocka_unit_test(test_gemma4_shared_kv),
        cmocka_unit_test(test_fixed_state_mixers),
        cmocka_unit_test(test_nas_blocks),
        cmocka_unit_test(test_quantized_checkpoints),
        cmocka_unit_test(test_quant_file_forms),
        cmocka_unit_test(test_python_literals),
        cmocka_unit_test(test_refusals_name_the_cause),
        cmocka_unit_test(test_scenario_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
