/* test_models.c — built-in shapes against the published configs and counts. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "models.h"

/* Asserts that got is within 1% of want (the tolerance). */
static void assert_within_one_percent(const char *what, double got, double want)
{
    if (fabs(got - want) > 0.01 * want)
        fail_msg("%s: derived %.4g, published %.4g (%.2f%% off)", what, got, want, 100 * (got - want) / want);
}

/* Published parameter counts (model cards): Llama 3.1 8B 8.03B, 70B 70.6B,
 * 405B 405B (Meta), Mistral 7B 7.24B, Mixtral 8x7B 46.7B total / 12.9B active
 * (Mistral AI), Qwen2.5 72B 72.7B (Qwen), DeepSeek-V3 671B total / 37B
 * active (DeepSeek-V3 technical report, arXiv:2412.19437). */
static void test_parameter_counts_match_published_figures(void **state)
{
    (void)state;
    static const struct { const char *name; double total, active; } rows[] = {
        {"llama-3.1-8b", 8.03e9, 8.03e9},      {"llama-3.1-70b", 70.6e9, 70.6e9},
        {"llama-3.1-405b", 405e9, 405e9},      {"mistral-7b", 7.24e9, 7.24e9},
        {"mixtral-8x7b", 46.7e9, 12.9e9},      {"qwen2.5-72b", 72.7e9, 72.7e9},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct model_shape *m = model_find(rows[i].name);
        assert_non_null(m);
        struct param_count c = model_param_count(m);
        assert_within_one_percent(rows[i].name, c.total, rows[i].total);
        assert_within_one_percent(rows[i].name, c.active, rows[i].active);
    }
    /* DeepSeek-V3: latent attention, 1 shared + 8 of 256 routed experts, 3
     * dense leading layers. The report rounds the active count to two
     * figures ("37B"), so it is held to that rounding; the total to 1%. */
    struct param_count ds = model_param_count(model_find("deepseek-v3"));
    assert_within_one_percent("deepseek-v3", ds.total, 671e9);
    assert_true(ds.active >= 36.5e9 && ds.active < 37.6e9);
    /* Exact arithmetic for Llama 3.1 8B: embeddings and head untied. */
    struct param_count c = model_param_count(model_find("llama-3.1-8b"));
    double per_layer = 4096.0 * 4096 * 2 + 2.0 * 4096 * 1024 + 3.0 * 4096 * 14336 + 2 * 4096;
    ASSERT_NEAR(c.total, 2.0 * 128256 * 4096 + 32 * per_layer + 4096, 0.5);
}

/* Reads an integer key of a config.json; fails the test when missing. */
static long long config_int(const cJSON *root, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!cJSON_IsNumber(v))
        fail_msg("config.json has no number %s", key);
    return (long long)v->valuedouble;
}

/* Reads a whole file; NULL when it cannot. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    (void)n;
    fclose(f);
    return buf;
}

/* The presets carry the shapes of the published HuggingFace configs. */
static void test_presets_match_huggingface_configs(void **state)
{
    (void)state;
    static const struct { const char *preset, *dir; } rows[] = {
        {"llama-3.1-8b", "llama-3.1-8b"}, {"llama-3.1-70b", "llama-3.1-70b"},
        {"mistral-7b", "mistral-7b-v0.1"}, {"mixtral-8x7b", "mixtral-8x7b-v0.1"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fixtures/hf/%s/config.json", rows[i].dir);
        char *text = slurp(path);
        assert_non_null(text);
        cJSON *root = cJSON_Parse(text);
        assert_non_null(root);
        const struct model_shape *m = model_find(rows[i].preset);
        assert_non_null(m);
        assert_int_equal(m->layers, config_int(root, "num_hidden_layers"));
        assert_int_equal(m->d_model, config_int(root, "hidden_size"));
        assert_int_equal(m->heads, config_int(root, "num_attention_heads"));
        assert_int_equal(m->kv_heads, config_int(root, "num_key_value_heads"));
        assert_int_equal(m->d_ff, config_int(root, "intermediate_size"));
        assert_int_equal(m->vocab, config_int(root, "vocab_size"));
        assert_int_equal(m->d_head, m->d_model / m->heads);
        const cJSON *experts = cJSON_GetObjectItemCaseSensitive(root, "num_local_experts");
        assert_int_equal(m->experts, cJSON_IsNumber(experts) ? (long long)experts->valuedouble : 1);
        assert_int_equal(m->tied_embeddings,
                         cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "tie_word_embeddings")));
        cJSON_Delete(root);
        free(text);
    }
}

/* Names match case-insensitively and ignore punctuation. */
static void test_model_find(void **state)
{
    (void)state;
    assert_non_null(model_find("LLAMA-3.1-70B"));
    assert_string_equal(model_find("Llama 3.1 70B")->name, "llama-3.1-70b");
    assert_non_null(model_find("Mixtral-8x7B"));
    assert_null(model_find("gpt-5"));
    assert_null(model_find(""));
    assert_null(model_find(NULL));
    for (size_t i = 0; i < model_builtin_count(); i++) {
        char err[200];
        assert_int_equal(model_shape_check(model_builtin(i), err, sizeof err), 0);
    }
    assert_null(model_builtin(model_builtin_count()));
}

/* Shape checks name the field: kv heads that do not divide, zero layers. */
static void test_shape_check_names_the_field(void **state)
{
    (void)state;
    char err[200];
    struct model_shape m = *model_find("llama-3.1-70b");
    m.kv_heads = 3;
    assert_int_equal(model_shape_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "kv_heads"));
    m.kv_heads = 128;
    assert_int_equal(model_shape_check(&m, err, sizeof err), -1);
    m = *model_find("llama-3.1-70b");
    m.layers = 0;
    assert_int_equal(model_shape_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "layers"));
    m = *model_find("mixtral-8x7b");
    m.experts_per_token = 9;
    assert_int_equal(model_shape_check(&m, err, sizeof err), -1);
    assert_non_null(strstr(err, "experts_per_token"));
}

/* The kv-heads counts a model can take: the divisors of its heads, in
 * order (64: seven of them), listed to RT_KV_CHOICES_SHOWN and then "...";
 * 720720 = 2^4 x 3^2 x 5 x 7 x 11 x 13 has 240 divisors. */
static void test_head_divisors(void **state)
{
    (void)state;
    int64_t d[512];
    assert_int_equal(model_head_divisors(64, d, 512), 7);
    assert_int_equal(d[0], 1);
    assert_int_equal(d[6], 64);
    assert_int_equal(model_head_divisors(36, d, 512), 9); /* 1 2 3 4 6 9 12 18 36: the square root once */
    assert_int_equal(d[4], 6);
    assert_int_equal(d[5], 9);
    assert_int_equal(model_head_divisors(720720, d, 512), 240);
    for (int i = 1; i < 240; i++)
        assert_true(d[i - 1] < d[i] && 720720 % d[i] == 0);
    assert_int_equal(model_head_divisors(0, d, 512), 0);
    char buf[400];
    assert_string_equal(kv_heads_choices(64, buf, sizeof buf), "1, 2, 4, 8, 16, 32, 64");
    kv_heads_choices(720720, buf, sizeof buf);
    assert_non_null(strstr(buf, ", 28, 30, ...")); /* the 24 smallest: 1 .. 16, 18, 20, 21, 22, 24, 26, 28, 30 */
    assert_null(strstr(buf, ", 33"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameter_counts_match_published_figures),
        cmocka_unit_test(test_head_divisors),
        cmocka_unit_test(test_presets_match_huggingface_configs),
        cmocka_unit_test(test_model_find),
        cmocka_unit_test(test_shape_check_names_the_field),
    };
    return cmocka_run_group_tests_name("models", tests, NULL, NULL);
}
