/* test_loaders.c — config.json, chip files and scenario files: the rules of
 * each loader, its error messages, and the round trips. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "analysis.h"
#include "chipfile.h"
#include "fileio.h"
#include "hfconfig.h"
#include "jsonio.h"
#include "report.h"
#include "scenariofile.h"


/* Parses an inline config; returns the loader's status and fills err. */
static int load_text(const char *text, struct model_shape *m, struct load_warnings *w, char *err, size_t errsize)
{
    return model_from_hf_config(text, strlen(text), "config.json", "test", m, w, err, errsize);
}

#define ASSERT_CONTAINS(haystack, needle)                                                                              \
    do {                                                                                                               \
        if (!strstr((haystack), (needle)))                                                                             \
            fail_msg("'%s' does not contain '%s'", (haystack), (needle));                                              \
    } while (0)

/* Layers of the shape whose mixer is mixer (and, when window > 0, whose
 * window is window). */
static int64_t layers_with(const struct model_shape *m, enum rt_mixer mixer, int64_t window)
{
    int64_t n = 0;
    for (int i = 0; i < m->kind_count; i++)
        if (m->kinds[i].mixer == mixer && (window == 0 || m->kinds[i].window == window))
            n += m->kinds[i].count;
    return n;
}

/* The real configs: totals within 1% of the published figures; Mixtral's
 * active count; KV bytes per token; Mistral's window on, Qwen2's off. */
static void test_real_configs(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("llama-3.1-8b");
    ASSERT_NEAR(model_param_count(&m).total, 8.03e9, 0.0803e9);
    assert_int_equal(layers_with(&m, RT_MIXER_FULL, 0), 32);
    m = test_load_fixture("llama-3.1-70b");
    ASSERT_NEAR(model_param_count(&m).total, 70.6e9, 0.706e9);
    /* 2 (K, V) x 80 layers x 8 kv heads x 128 x 2 bytes = 327,680 bytes per token. */
    ASSERT_NEAR(m.layers * model_kv_elements_per_token_per_layer(&m) * 2, 327680, 0);
    m = test_load_fixture("mistral-7b-v0.1");
    ASSERT_NEAR(model_param_count(&m).total, 7.24e9, 0.0724e9);
    assert_int_equal(layers_with(&m, RT_MIXER_SLIDING, 4096), 32);
    ASSERT_NEAR(model_kv_bytes_per_request(&m, 32768, 2), 131072.0 * 4096, 0);
    ASSERT_NEAR(model_kv_bytes_per_request(&m, 1000, 2), 131072.0 * 1000, 0);
    m = test_load_fixture("mixtral-8x7b-v0.1");
    struct param_count c = model_param_count(&m);
    ASSERT_NEAR(c.total, 46.7e9, 0.467e9);
    ASSERT_NEAR(c.active, 12.9e9, 0.129e9);
    assert_int_equal(layers_with(&m, RT_MIXER_FULL, 0), 32); /* "sliding_window": null */
    m = test_load_fixture("qwen2-window-off");
    assert_int_equal(layers_with(&m, RT_MIXER_FULL, 0), 80);
    assert_true(m.qkv_bias);
    ASSERT_NEAR(model_param_count(&m).total, 72.7e9, 0.727e9);
}

/* Latent attention caches the latent plus the rotary key; shared experts and
 * dense leading layers count. DeepSeek-V3: 671B total, 37B active. */
static void test_latent_attention_and_shared_experts(void **state)
{
    (void)state;
    struct model_shape m = test_load_fixture("deepseek-v3");
    assert_int_equal(m.kv_lora_rank, 512);
    ASSERT_NEAR(model_kv_elements_per_token_per_layer(&m), 512 + 64, 0);
    /* 61 layers x 576 elements x 2 bytes = 70,272 bytes per token, against
     * 2 x 61 x 128 heads x 192 x 2 = 5.996 MB for full K and V. */
    ASSERT_NEAR(m.layers * model_kv_elements_per_token_per_layer(&m) * 2, 70272, 0);
    struct param_count c = model_param_count(&m);
    ASSERT_NEAR(c.total, 671e9, 6.71e9);
    assert_true(c.active > 36.5e9 && c.active < 37.6e9);
    assert_int_equal(m.shared_experts, 1);
    int64_t dense = 0;
    for (int i = 0; i < m.kind_count; i++)
        dense += m.kinds[i].moe ? 0 : m.kinds[i].count;
    assert_int_equal(dense, 3);
    assert_int_equal(m.layer_kind[0], m.layer_kind[2]); /* the first three */
    assert_true(m.kinds[m.layer_kind[3]].moe);
    /* The preset and the config agree. */
    struct param_count preset = model_param_count(model_find("deepseek-v3"));
    ASSERT_NEAR(preset.total, c.total, 0);
}

/* head_dim wins; missing or null kv heads mean MHA; zero or a non-divisor is
 * an error naming the key; tied embeddings are counted once. */
static void test_config_rules(void **state)
{
    (void)state;
    struct model_shape m;
    struct load_warnings w = {0};
    char err[400];
    assert_int_equal(load_text("{\"hidden_size\": 4096, \"num_hidden_layers\": 2, \"num_attention_heads\": 32, "
                               "\"num_key_value_heads\": 8, \"head_dim\": 256, \"vocab_size\": 1000, "
                               "\"intermediate_size\": 8192, \"tie_word_embeddings\": true}",
                               &m, &w, err, sizeof err),
                     0);
    assert_int_equal(m.d_head, 256);
    struct param_count tied = model_param_count(&m);
    assert_true(m.tied_embeddings);
    ASSERT_NEAR(tied.lm_head, 0, 0);
    m.tied_embeddings = false;
    ASSERT_NEAR(model_param_count(&m).total - tied.total, 1000.0 * 4096, 0);

    const char *mha[] = {"{\"hidden_size\": 64, \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"vocab_size\": "
                         "10, \"intermediate_size\": 128}",
                         "{\"hidden_size\": 64, \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"vocab_size\": "
                         "10, \"intermediate_size\": 128, \"num_key_value_heads\": null}"};
    for (int i = 0; i < 2; i++) {
        w.count = 0;
        assert_int_equal(load_text(mha[i], &m, &w, err, sizeof err), 0);
        assert_int_equal(m.kv_heads, 4);
        assert_int_equal(m.d_head, 16);
        assert_true(m.assumption_count >= 1); /* tie_word_embeddings missing: said */
    }
    const char *bad_kv[] = {"0", "3"};
    for (int i = 0; i < 2; i++) {
        char text[300];
        snprintf(text, sizeof text,
                 "{\"hidden_size\": 64, \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                 "\"intermediate_size\": 128, \"num_key_value_heads\": %s}",
                 bad_kv[i]);
        assert_int_equal(load_text(text, &m, &w, err, sizeof err), -1);
        ASSERT_CONTAINS(err, "num_key_value_heads");
    }
    assert_int_equal(load_text("{\"hidden_size\": 64}", &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "missing key 'num_hidden_layers'");
    assert_int_equal(load_text("{\"hidden_size\": \"64\", \"num_hidden_layers\": 1}", &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "'hidden_size' must be a number (got a string)");
    assert_int_equal(load_text("{\"hidden_size\": 1e999}", &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "not a finite number");
    assert_int_equal(load_text("{\"hidden_size\": 9007199254740993}", &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "2^53");
    /* GPT-2's keys are aliases; the missing one is named with its aliases. */
    assert_int_equal(load_text("{\"n_embd\": 768, \"n_layer\": 12}", &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "missing key 'num_attention_heads' (or n_head");
    assert_int_equal(load_text("[1, 2]", &m, &w, err, sizeof err), -1);
    /* A window named by layer_types applies to those layers only. */
    assert_int_equal(load_text("{\"hidden_size\": 64, \"num_hidden_layers\": 4, \"num_attention_heads\": 4, "
                               "\"vocab_size\": 10, \"intermediate_size\": 128, \"tie_word_embeddings\": true, "
                               "\"sliding_window\": 512, \"layer_types\": [\"sliding_attention\", \"full_attention\", "
                               "\"sliding_attention\", \"full_attention\"]}",
                               &m, &w, err, sizeof err),
                     0);
    assert_int_equal(layers_with(&m, RT_MIXER_SLIDING, 512), 2);
    assert_int_equal(m.kinds[m.layer_kind[0]].mixer, RT_MIXER_SLIDING);
    assert_int_equal(m.kinds[m.layer_kind[1]].mixer, RT_MIXER_FULL);
}

/* warn_add keeps the first RT_MAX_WARNINGS and counts the rest. */
static void test_warnings_count_what_they_drop(void **state)
{
    (void)state;
    struct load_warnings w = {0};
    for (int i = 0; i < RT_MAX_WARNINGS + 5; i++)
        warn_add(&w, "warning %d", i);
    assert_int_equal(w.count, RT_MAX_WARNINGS);
    assert_int_equal(w.dropped, 5);
    assert_string_equal(w.text[RT_MAX_WARNINGS - 1], "warning 15");
    warn_add(NULL, "nowhere"); /* no list: ignored */
}

/* Syntax errors carry FILE:LINE:COLUMN and what was expected. */
static void test_json_errors_have_line_and_column(void **state)
{
    (void)state;
    char err[400];
    struct load_warnings w = {0};
    static const struct { const char *text, *want; } cases[] = {
        {"{\n  \"a\": 1,\n}", "f.json:3:1: expected a value after ','"},
        {"{\n  \"a\": [1, 2,]\n}", "f.json:2:14: expected a value after ','"},
        {"{'a': 1}", "f.json:1:"},
        {"{\"a\": 1", "f.json:1:1: expected a closing '}' or ']'"},
        {"{\"a\": \"unterminated}", "f.json:1:7: expected a closing '\"'"},
        {"{\"a\": 1} trailing", "f.json:1:10: expected the end of the file"},
        {"", "f.json: the file is empty"},
        {"   \n ", "f.json: the file is empty"},
        {"{\"a\" 1}", "expected ':' after the key"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *root = json_parse_text(cases[i].text, strlen(cases[i].text), "f.json", &w, err, sizeof err);
        assert_null(root);
        ASSERT_CONTAINS(err, cases[i].want);
    }
}

/* Encodings, depth and duplicate keys. */
static void test_json_encodings_depth_duplicates(void **state)
{
    (void)state;
    char err[400];
    struct load_warnings w = {0};
    const char bom[] = "\xEF\xBB\xBF{\"a\": 1}";
    cJSON *root = json_parse_text(bom, strlen(bom), "f.json", &w, err, sizeof err);
    assert_non_null(root);
    cJSON_Delete(root);
    const char utf16[] = "\xFF\xFE{\0\"\0a\0\"\0";
    assert_null(json_parse_text(utf16, sizeof utf16 - 1, "f.json", &w, err, sizeof err));
    ASSERT_CONTAINS(err, "save the file as UTF-8");
    char deep[300];
    memset(deep, '[', 200);
    memset(deep + 200, ']', 99);
    deep[299] = '\0';
    assert_null(json_parse_text(deep, strlen(deep), "f.json", &w, err, sizeof err));
    ASSERT_CONTAINS(err, "f.json:1:65: nested deeper than 64 levels");
    const char dup[] = "{\"a\": 1, \"b\": 2, \"a\": 3}";
    root = json_parse_text(dup, strlen(dup), "f.json", &w, err, sizeof err);
    assert_non_null(root);
    ASSERT_NEAR(cJSON_GetObjectItemCaseSensitive(root, "a")->valuedouble, 3, 0);
    assert_int_equal(w.count, 1);
    ASSERT_CONTAINS(w.text[0], "'a' appears more than once");
    /* Lookups are case-sensitive. */
    double v;
    assert_int_equal(json_number(root, "A", "f.json", "", false, 0, 10, false, &v, err, sizeof err), JSON_ABSENT);
    cJSON_Delete(root);
}

/* A chip file: one object or a list; sparse peaks halved exactly once. */
static void test_chip_files(void **state)
{
    (void)state;
    char err[400];
    struct load_warnings w = {0};
    struct chip_spec chips[4];
    size_t n = 0;
    const char one[] = "{\"name\": \"My accelerator\", \"peak_flops_per_s\": {\"bf16\": 989.4e12, \"fp8\": 1978.9e12, "
                       "\"int8\": 1978.9e12, \"int4\": null}, \"hbm_bytes\": 80e9, \"hbm_bytes_per_s\": 3.35e12, "
                       "\"interconnect_bytes_per_s\": 900e9, \"tdp_w\": 700, \"source\": \"test\"}";
    assert_int_equal(chips_from_text(one, strlen(one), "my.json", chips, 4, &n, &w, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_string_equal(chips[0].key, "my-accelerator");
    assert_string_equal(chips[0].origin, "my.json");
    ASSERT_NEAR(chips[0].peak_flops_per_s[RT_BF16], 989.4e12, 0);
    ASSERT_NEAR(chips[0].peak_flops_per_s[RT_INT4], 0, 0);
    assert_false(chips[0].sparse_halved);
    /* A 80 GiB capacity is read as a double, not clipped to INT_MAX. */
    const char gib[] = "[{\"name\": \"a\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 85899345920, "
                       "\"hbm_bytes_per_s\": 1e12, \"source\": \"s\", \"sparse\": true},"
                       " {\"name\": \"b\", \"peak_flops_per_s\": {\"bf16\": 2e15}, \"hbm_bytes\": 1e9, "
                       "\"hbm_bytes_per_s\": 1e12, \"source\": \"s\"}]";
    assert_int_equal(chips_from_text(gib, strlen(gib), "two.json", chips, 4, &n, &w, err, sizeof err), 0);
    assert_int_equal(n, 2);
    ASSERT_NEAR(chips[0].hbm_bytes, 85899345920.0, 0);
    ASSERT_NEAR(chips[0].peak_flops_per_s[RT_BF16], 0.5e15, 0);
    assert_true(chips[0].sparse_halved);
    /* Saved and reloaded, the halved chip is not halved again. */
    cJSON *obj = cJSON_CreateObject();
    chip_to_json(obj, &chips[0]);
    struct chip_spec again;
    assert_int_equal(chip_from_json(obj, "saved.json", "", &again, &w, err, sizeof err), 0);
    ASSERT_NEAR(again.peak_flops_per_s[RT_BF16], 0.5e15, 0);
    assert_true(again.sparse_halved);
    cJSON_Delete(obj);
    /* Errors name the key. */
    const char no_bf16[] = "{\"name\": \"x\", \"peak_flops_per_s\": {\"fp8\": 1e15}, \"hbm_bytes\": 1e9, "
                           "\"hbm_bytes_per_s\": 1e12}";
    assert_int_equal(chips_from_text(no_bf16, strlen(no_bf16), "x.json", chips, 4, &n, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "x.json: missing key 'peak_flops_per_s.bf16'");
    /* A chip without its bandwidth is told the key the README names. */
    const char no_bw[] = "{\"name\": \"x\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 1e9}";
    assert_int_equal(chips_from_text(no_bw, strlen(no_bw), "x.json", chips, 4, &n, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "x.json: missing key 'hbm_bytes_per_s'");
    /* The old spelling still loads. */
    const char old_bw[] = "{\"name\": \"x\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 1e9, "
                          "\"hbm_bw_bytes_per_s\": 2e12}";
    assert_int_equal(chips_from_text(old_bw, strlen(old_bw), "x.json", chips, 4, &n, &w, err, sizeof err), 0);
    ASSERT_NEAR(chips[0].hbm_bytes_per_s, 2e12, 0);
    /* A price per chip-hour and its source are read, saved and read back;
     * none is 0 on load and null (with "unpublished") when saved. */
    const char priced[] = "{\"name\": \"p\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 1e9, "
                          "\"hbm_bytes_per_s\": 1e12, \"price_usd_per_chip_hour\": 2.5, "
                          "\"price_source\": \"a quote, 2026-01\"}";
    assert_int_equal(chips_from_text(priced, strlen(priced), "p.json", chips, 4, &n, &w, err, sizeof err), 0);
    ASSERT_NEAR(chips[0].price_usd_per_chip_hour, 2.5, 0);
    assert_string_equal(chips[0].price_source, "a quote, 2026-01");
    cJSON *saved = cJSON_CreateObject();
    chip_to_json(saved, &chips[0]);
    assert_int_equal(chip_from_json(saved, "saved.json", "", &again, &w, err, sizeof err), 0);
    ASSERT_NEAR(again.price_usd_per_chip_hour, 2.5, 0);
    assert_string_equal(again.price_source, "a quote, 2026-01");
    cJSON_Delete(saved);
    chips[0].price_usd_per_chip_hour = 0.0;
    chips[0].price_source[0] = '\0';
    saved = cJSON_CreateObject();
    chip_to_json(saved, &chips[0]);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(saved, "price_usd_per_chip_hour")));
    assert_string_equal(cJSON_GetObjectItem(saved, "price_source")->valuestring, "unpublished");
    cJSON_Delete(saved);
    const char negative[] = "[{\"name\": \"x\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": -1, "
                            "\"hbm_bytes_per_s\": 1e12}]";
    assert_int_equal(chips_from_text(negative, strlen(negative), "x.json", chips, 4, &n, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "'hbm_bytes' must be from");
    ASSERT_CONTAINS(err, "chip [0]");
    /* Figures outside a physical range are refused by FILE and key, not carried into absurd counts. */
    const struct {
        const char *extra, *want;
    } absurd[] = {
        {"\"vector_flops_per_s\": 1e-300", "x.json: 'vector_flops_per_s' must be 0 (unpublished) or from"},
        {"\"interconnect_bytes_per_s\": 1e-300", "x.json: 'interconnect_bytes_per_s' must be 0 (unpublished)"},
        {"\"scale_out_bytes_per_s\": 1e30", "x.json: 'scale_out_bytes_per_s' must be 0 (unpublished)"},
        {"\"tdp_w\": 1e-300", "x.json: 'tdp_w' must be 0 (unpublished)"},
        {"\"price_usd_per_chip_hour\": 1e5", "x.json: 'price_usd_per_chip_hour' must be 0 (unpublished) or from"},
        {"\"hbm_bytes\": 1e-320", "x.json: 'hbm_bytes' must be from 1000000 to 1e+15"},
        {"\"hbm_bytes_per_s\": 1e30", "x.json: 'hbm_bytes_per_s' must be from 1000000 to 1e+17"},
        {"\"peak_flops_per_s\": {\"bf16\": 1e-300}", "x.json: 'peak_flops_per_s.bf16' must be from 1000000000"},
    };
    for (size_t i = 0; i < sizeof absurd / sizeof absurd[0]; i++) {
        char text[400];
        /* a later duplicate key wins (with a warning), so each case overrides a sane chip */
        snprintf(text, sizeof text, "{\"name\": \"x\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 1e9, "
                                    "\"hbm_bytes_per_s\": 1e12, %s}", absurd[i].extra);
        assert_int_equal(chips_from_text(text, strlen(text), "x.json", chips, 4, &n, &w, err, sizeof err), -1);
        ASSERT_CONTAINS(err, absurd[i].want);
    }
    /* A sparse chip's halved peak stays loadable once saved (marked sparse_halved). */
    const char least[] = "{\"name\": \"s\", \"peak_flops_per_s\": {\"bf16\": 1e9}, \"hbm_bytes\": 1e9, "
                         "\"hbm_bytes_per_s\": 1e12, \"sparse\": true}";
    assert_int_equal(chips_from_text(least, strlen(least), "s.json", chips, 4, &n, &w, err, sizeof err), 0);
    obj = cJSON_CreateObject();
    chip_to_json(obj, &chips[0]);
    assert_int_equal(chip_from_json(obj, "saved.json", "", &again, &w, err, sizeof err), 0);
    ASSERT_NEAR(again.peak_flops_per_s[RT_BF16], 0.5e9, 0);
    cJSON_Delete(obj);
}

/* The built-in table carries the researched reference figures exactly. */
static void test_builtin_chips_match_the_reference(void **state)
{
    (void)state;
    char err[400], *text;
    size_t len, n = 0;
    struct load_warnings w = {0};
    struct chip_spec ref[32];
    assert_int_equal(read_file("tests/fixtures/chips-reference.json", &text, &len, err, sizeof err), 0);
    assert_int_equal(chips_from_text(text, len, "chips-reference.json", ref, 32, &n, &w, err, sizeof err), 0);
    free(text);
    assert_int_equal(n, chip_builtin_count());
    for (size_t i = 0; i < n; i++) {
        const struct chip_spec *b = chip_builtin(i);
        for (int p = 0; p < RT_PRECISION_COUNT; p++) /* int4: none of the reference's rows has one */
            if (p != RT_INT4 && b->peak_flops_per_s[p] != ref[i].peak_flops_per_s[p])
                fail_msg("%s %s peak %g != reference %g", b->key, precision_name((enum rt_precision)p),
                         b->peak_flops_per_s[p], ref[i].peak_flops_per_s[p]);
        ASSERT_NEAR(b->hbm_bytes, ref[i].hbm_bytes, 0);
        ASSERT_NEAR(b->hbm_bytes_per_s, ref[i].hbm_bytes_per_s, 0);
        ASSERT_NEAR(b->interconnect_bytes_per_s, ref[i].interconnect_bytes_per_s, 0);
        ASSERT_NEAR(b->tdp_w, ref[i].tdp_w, 0);
    }
}

/* Renders a scenario as --report=json; caller frees. */
static char *report_json(const struct scenario *s)
{
    struct analysis a = must_analyze(s);
    return report_render(RT_FORMAT_JSON, s, &a);
}

/* A scenario written and read back reports byte-identically. */
static void test_scenario_round_trip(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    s.peak_flops_override = 990e12;
    scenario_set_model(&s, model_find("deepseek-v3"));
    s.batch = 64;
    s.precision = RT_FP8;
    s.kv_precision = RT_INT4;
    s.context_tokens = 32768;
    s.budget_s = 2.5;
    s.reserve_bytes = 10e9;
    s.mfu = 0.55;
    s.has_step_times = true;
    const double t[RT_PART_COUNT] = {0.1, 0.045, 0.06, 0.05, 0.025};
    memcpy(s.step_times_s, t, sizeof t);
    s.recompute = RT_RECOMPUTE_SELECTIVE;
    s.latency_model = RT_LATENCY_DETAILED;
    s.unfused_attention = true;
    s.data_parallel = 16;
    s.comm_overlap = 0.5;
    s.measured_tpot_s = 0.05;
    char *text = scenario_to_json(&s);
    assert_non_null(text);
    struct scenario back;
    struct load_warnings w = {0};
    char err[400];
    assert_int_equal(scenario_from_json(text, strlen(text), "s.json", &back, &w, err, sizeof err), 0);
    assert_int_equal(w.count, 0);
    char *a = report_json(&s), *b = report_json(&back);
    assert_string_equal(a, b);
    free(a);
    free(b);
    cJSON_free(text);
    /* Unknown keys warn; a newer version is refused; bad values name the key. */
    const char unknown[] = "{\"version\": 1, \"chips\": 4, \"colour\": \"red\"}";
    assert_int_equal(scenario_from_json(unknown, strlen(unknown), "s.json", &back, &w, err, sizeof err), 0);
    assert_int_equal(back.chips, 4);
    ASSERT_CONTAINS(w.text[w.count - 1], "unknown key 'colour'");
    const char newer[] = "{\"version\": 2}";
    assert_int_equal(scenario_from_json(newer, strlen(newer), "s.json", &back, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "newer rooftop");
    const char bad[] = "{\"version\": 1, \"batch\": \"many\"}";
    assert_int_equal(scenario_from_json(bad, strlen(bad), "s.json", &back, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "'batch' must be a number");
    const char zero[] = "{\"version\": 1, \"chips\": 0}";
    assert_int_equal(scenario_from_json(zero, strlen(zero), "s.json", &back, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "chips");
    const char huge[] = "{\"version\": 1, \"batch\": 9007199254740991}";
    assert_int_equal(scenario_from_json(huge, strlen(huge), "s.json", &back, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "(got 9007199254740991)"); /* exactly, not 9.00719925474099e+15 */
    const char no_version[] = "{\"chips\": 2}";
    assert_int_equal(scenario_from_json(no_version, strlen(no_version), "s.json", &back, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "missing key 'version'");
}

/* The rest of a small shape, for scenario files that test something else. */
#define TINY_SHAPE "\"d_model\": 64, \"heads\": 4, \"d_ff\": 128, \"vocab\": 100, \"gated_mlp\": true, "

/* Schedules survive a save: Gemma 2's alternation, Nemotron-H's blocks and
 * fp32 state, MiniMax's lightning layers, with their assumptions; a file
 * from before layer_schedule (sliding_window, sliding_layers,
 * dense_layers) still reads; a bad schedule names its key. */
static void test_scenario_schedules(void **state)
{
    (void)state;
    const char *folders[] = {"gemma-2-2b", "nemotron-3-nano-30b-a3b", "minimax-m1", "deepseek-v3", "qwen3-next-80b-a3b"};
    char err[400];
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        struct scenario s;
        scenario_default(&s);
        scenario_set_model(&s, (struct model_shape[]){test_load_fixture(folders[i])});
        char *text = scenario_to_json(&s);
        struct scenario back;
        struct load_warnings w = {0};
        assert_int_equal(scenario_from_json(text, strlen(text), "s.json", &back, &w, err, sizeof err), 0);
        assert_int_equal(w.count, 0);
        assert_int_equal(back.model.assumption_count, s.model.assumption_count);
        assert_memory_equal(back.model.layer_kind, s.model.layer_kind, sizeof s.model.layer_kind);
        char *a = report_json(&s), *b = report_json(&back);
        assert_string_equal(a, b);
        free(a);
        free(b);
        cJSON_free(text);
    }
    /* The keys of files written before the schedule: the top 8 of 32 layers windowed, 2 dense of 32 MoE. */
    struct scenario old;
    struct load_warnings w = {0};
    const char legacy[] = "{\"version\": 1, \"model\": {\"name\": \"old\", \"layers\": 32, \"d_model\": 4096, "
                          "\"heads\": 32, \"kv_heads\": 8, \"d_head\": 128, \"d_ff\": 14336, \"vocab\": 32000, "
                          "\"experts\": 8, \"experts_per_token\": 2, \"dense_layers\": 2, \"sliding_window\": 4096, "
                          "\"sliding_layers\": 8}}";
    assert_int_equal(scenario_from_json(legacy, strlen(legacy), "old.json", &old, &w, err, sizeof err), 0);
    char words[160];
    assert_string_equal(model_schedule_summary(&old.model, words, sizeof words),
                        "24 full + 8 sliding (4096) layers, 30 MoE");
    assert_false(old.model.kinds[old.model.layer_kind[0]].moe);
    assert_true(old.model.kinds[old.model.layer_kind[2]].moe);
    assert_true(old.model.stated_params == 0.0); /* a model written out is counted from its shape */
    /* A window on a full run, a width on an MoE run: ignored, so the kinds stay one per meaning and
     * the file round-trips (found by the scenario fuzzer). */
    const char odd[] = "{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"experts\": 4, \"experts_per_token\": 1, "
                       "\"layer_schedule\": [{\"count\": 1, \"mixer\": \"full\", \"window\": 64}, {\"count\": 1, "
                       "\"mixer\": \"full\"}, {\"count\": 1, \"mixer\": \"full\", \"mlp\": \"moe\", \"d_ff\": 9}, "
                       "{\"count\": 1, \"mixer\": \"full\", \"mlp\": \"moe\"}]}}";
    assert_int_equal(scenario_from_json(odd, strlen(odd), "odd.json", &old, &w, err, sizeof err), 0);
    assert_int_equal(old.model.kind_count, 2);
    assert_string_equal(model_schedule_summary(&old.model, words, sizeof words), "2 dense + 2 MoE layers");
    /* A model written out without its schedule is read as full attention, and warned about. */
    w.count = 0;
    const char bare[] = "{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"experts\": 1}}";
    assert_int_equal(scenario_from_json(bare, strlen(bare), "bare.json", &old, &w, err, sizeof err), 0);
    ASSERT_CONTAINS(w.text[w.count - 1], "no 'model.layer_schedule'");
    const struct {
        const char *json, *want;
    } bad[] = {
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"layer_schedule\": [{\"count\": 4, \"mixer\": null}]}}",
         "missing key 'model.layer_schedule[0].mixer'"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"experts\": 4, \"experts_per_token\": 2, \"layer_schedule\": "
         "[{\"count\": 4, \"mixer\": \"full\", \"mlp\": \"moe\", \"experts\": 64}]}}",
         "must match 'model.experts'"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"layer_schedule\": [{\"count\": 3, \"mixer\": \"full\"}]}}",
         "counts 3 layers but 'model.layers' is 4"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"layer_schedule\": [{\"count\": 4, \"mixer\": \"lstm\"}]}}",
         "'model.layer_schedule[0].mixer' must be full, sliding"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"layer_schedule\": [{\"count\": 4, \"mixer\": \"sliding\"}]}}",
         "window must be a whole number from 1"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"layer_schedule\": [{\"mixer\": \"full\"}]}}",
         "missing key 'model.layer_schedule[0].count'"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"layer_schedule\": {\"count\": 4}}}",
         "'model.layer_schedule' must be a list"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(scenario_from_json(bad[i].json, strlen(bad[i].json), "s.json", &old, &w, err, sizeof err), -1);
        ASSERT_CONTAINS(err, bad[i].want);
    }
}

/* A model written out in a scenario file is read onto an empty shape, not
 * over the default guide-70b: a Llama-3.1-8B-like shape without
 * stated_params is counted from its own shape (8.03B, not the guide's
 * 70e9), takes no name or source from the default, and a key the shape
 * cannot do without is refused by name rather than inherited. */
static void test_scenario_model_reads_onto_an_empty_shape(void **state)
{
    (void)state;
    const char eight[] = "{\"version\": 1, \"model\": {\"layers\": 32, \"d_model\": 4096, \"heads\": 32, "
                         "\"kv_heads\": 8, \"d_head\": 128, \"d_ff\": 14336, \"vocab\": 128256}}";
    struct scenario s;
    struct load_warnings w = {0};
    char err[400];
    assert_int_equal(scenario_from_json(eight, strlen(eight), "s.json", &s, &w, err, sizeof err), 0);
    assert_true(s.model.stated_params == 0.0);
    struct analysis a = must_analyze(&s);
    double want = model_param_count(model_find("llama-3.1-8b")).total;
    ASSERT_NEAR(a.params, want, 0.5);
    ASSERT_NEAR(a.params, 8.03e9, 0.01e9);
    assert_string_not_equal(s.model.name, "guide-70b");
    assert_null(strstr(s.model.source, "70e9"));
    bool said_gated = false;
    for (int i = 0; i < w.count; i++)
        said_gated |= strstr(w.text[i], "'model.gated_mlp'") != NULL;
    assert_true(said_gated); /* the implied gated MLP is said, not silent */
    /* The same shape stating plain MLPs counts two matrices, not three. */
    const char plain[] = "{\"version\": 1, \"model\": {\"layers\": 32, \"d_model\": 4096, \"heads\": 32, "
                         "\"d_ff\": 14336, \"vocab\": 128256, \"gated_mlp\": false}}";
    assert_int_equal(scenario_from_json(plain, strlen(plain), "s.json", &s, &w, err, sizeof err), 0);
    assert_false(s.model.gated_mlp);
    assert_int_equal(s.model.kv_heads, 32); /* no kv_heads: MHA, as a config.json without one */
    assert_int_equal(s.model.d_head, 128);  /* no d_head: d_model / heads */
    /* What the shape cannot do without is refused by name, not taken from guide-70b. */
    const char no_width[] = "{\"version\": 1, \"model\": {\"layers\": 32, \"heads\": 32, \"d_ff\": 14336, "
                            "\"vocab\": 128256}}";
    assert_int_equal(scenario_from_json(no_width, strlen(no_width), "s.json", &s, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "s.json: missing key 'model.d_model'");
    const char moe[] = "{\"version\": 1, \"model\": {\"layers\": 4, \"d_model\": 64, \"heads\": 4, "
                       "\"d_ff\": 128, \"vocab\": 100, \"experts\": 8}}";
    assert_int_equal(scenario_from_json(moe, strlen(moe), "s.json", &s, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "'model.experts_per_token'");
}

/* A scenario file's absurd figures are refused naming the file and the key
 * (and the flag that sets the same knob); a shape whose dimensions are
 * each in range but multiply past 1e16 parameters is refused as such. */
static void test_scenario_figures_in_physical_ranges(void **state)
{
    (void)state;
    struct scenario s;
    struct load_warnings w = {0};
    char err[400];
    const struct {
        const char *json, *want;
    } bad[] = {
        {"{\"version\": 1, \"peak_flops_override\": 1e-300}",
         "s.json: 'peak_flops_override' (--peak-flops) 1e-300 is out of range"},
        {"{\"version\": 1, \"hbm_bytes_override\": 1e-300}", "s.json: 'hbm_bytes_override' (--hbm-bytes)"},
        {"{\"version\": 1, \"hbm_bytes_per_s_override\": 1e20}", "s.json: 'hbm_bytes_per_s_override' (--hbm-bw)"},
        {"{\"version\": 1, \"mfu\": 1e-9}", "s.json: 'mfu' (--mfu) 1e-09 is out of range"},
        {"{\"version\": 1, \"measured_ttft_s\": 1e-300}", "s.json: 'measured_ttft_s' (--measured-ttft-s)"},
        {"{\"version\": 1, \"chips\": 0}", "s.json: 'chips' (--chips) 0 is out of range"},
        {"{\"version\": 1, \"model\": {" TINY_SHAPE "\"layers\": 4, \"d_model\": 1099511627776}}",
         "d_model must be a whole number from 1 to 1048576 (got 1099511627776)"},
        {"{\"version\": 1, \"model\": {\"layers\": 512, \"d_model\": 1048576, \"heads\": 1024, "
         "\"d_ff\": 16777216, \"vocab\": 1000}}",
         "model custom: the shape counts 2.93e+16 parameters, above the 1e16"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(scenario_from_json(bad[i].json, strlen(bad[i].json), "s.json", &s, &w, err, sizeof err), -1);
        ASSERT_CONTAINS(err, bad[i].want);
    }
    /* The largest published shapes stay well inside (DeepSeek-V3: 671B). */
    char why[200];
    for (size_t i = 0; i < model_builtin_count(); i++)
        assert_int_equal(model_shape_check(model_builtin(i), why, sizeof why), 0);
}

/* A malformed schedule key in a config.json is an error naming the key. */
static void test_config_schedule_errors(void **state)
{
    (void)state;
    struct model_shape m;
    struct load_warnings w = {0};
    char err[400];
    const char *base = "{\"hidden_size\": 64, \"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"vocab_size\": 10, "
                       "\"intermediate_size\": 128, \"tie_word_embeddings\": true, ";
    const struct {
        const char *rest, *want;
    } bad[] = {
        {"\"layer_types\": [\"full_attention\", \"full_attention\"]}", "'layer_types' lists 2 layers but num_hidden_layers is 4"},
        {"\"layer_types\": [\"full_attention\", \"lstm\", \"full_attention\", \"full_attention\"]}", "'layer_types[1]' is 'lstm', a layer rooftop does not model"},
        {"\"layer_types\": \"full\"}", "'layer_types' must be a list"},
        {"\"layer_types\": [\"sliding_attention\", \"full_attention\", \"full_attention\", \"full_attention\"]}",
         "layer 0 is sliding_attention but 'sliding_window' is absent"},
        {"\"model_type\": \"qwen2_moe\", \"num_experts\": 4, \"num_experts_per_tok\": 2, \"mlp_only_layers\": [7]}",
         "'mlp_only_layers' must list layer indices from 0 to 3"},
        {"\"model_type\": \"nemotron_h\", \"hybrid_override_pattern\": \"M*X-\", \"mamba_num_heads\": 2, \"mamba_head_dim\": 8}",
         "'hybrid_override_pattern' block 2 is 'X'"},
        {"\"model_type\": \"nemotron_h\", \"hybrid_override_pattern\": \"M*\", \"mamba_num_heads\": 2, \"mamba_head_dim\": 8}",
         "'hybrid_override_pattern' must be a string of 4 blocks"},
        {"\"model_type\": \"minimax_m1\", \"attn_type_list\": [0, 1, 2, 1]}", "'attn_type_list[2]' must be 0 (linear) or 1"},
        {"\"model_type\": \"llama4_text\", \"attention_chunk_size\": 64, \"no_rope_layers\": [1, 0]}",
         "'no_rope_layers' lists 2 layers but num_hidden_layers is 4"},
        {"\"model_type\": \"gemma3_text\", \"sliding_window\": 64, \"sliding_window_pattern\": 0}",
         "'sliding_window_pattern' must be from 1"},
        {"\"model_type\": \"qwen3_next\", \"full_attention_interval\": 2}", "'linear_num_value_heads' is absent"},
        {"\"model_type\": \"qwen\", \"intermediate_size\": 127}", "intermediate_size (127) must be even"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[600];
        snprintf(text, sizeof text, "%s%s", base, bad[i].rest);
        if (load_text(text, &m, &w, err, sizeof err) != -1)
            fail_msg("accepted: %s", text);
        ASSERT_CONTAINS(err, bad[i].want);
    }
}

/* Family rules that a generic reading gets wrong (each found by reading
 * transformers' configuration and modeling files; see core/model/hfconfig.c). */
static void test_family_rules(void **state)
{
    (void)state;
    struct model_shape m;
    struct load_warnings w = {0};
    char err[400];
    /* Falcon-7B's published keys: multi-query (one KV head), parallel attention (one LayerNorm a layer),
     * no biases, tied. By hand: embedding 65024 x 4544 + 32 x (QKV 4544 x (4544 + 2 x 64) + dense 4544^2 +
     * MLP 2 x 4544 x 18176 + LayerNorm 2 x 4544) + final LayerNorm 2 x 4544 = 6,921,720,704. */
    const char falcon7[] = "{\"model_type\": \"falcon\", \"hidden_size\": 4544, \"n_head\": 71, \"n_layer\": 32, "
                           "\"vocab_size\": 65024, \"multi_query\": true, \"parallel_attn\": true, \"bias\": false, "
                           "\"new_decoder_architecture\": false, \"alibi\": false}";
    assert_int_equal(load_text(falcon7, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.kv_heads, 1);
    ASSERT_NEAR(model_param_count(&m).total, 6921720704.0, 0);
    /* A RefinedWeb (Falcon-40B remote-code) config: n_head_kv and no new_decoder_architecture is the new
     * architecture (transformers' convert_custom_code_checkpoint.py): 8 KV heads, two LayerNorms a layer. */
    const char refined[] = "{\"model_type\": \"RefinedWeb\", \"hidden_size\": 8192, \"n_head\": 128, \"n_head_kv\": 8, "
                           "\"n_layer\": 60, \"vocab_size\": 65024, \"parallel_attn\": true, \"bias\": false}";
    assert_int_equal(load_text(refined, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.kv_heads, 8);
    assert_int_equal(m.norms_per_layer, 2);
    /* Gemma 3's text_config as transformers saves it, without the keys equal to the class defaults. */
    const char gemma3[] = "{\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": \"gemma3_text\", "
                          "\"hidden_size\": 2560, \"intermediate_size\": 10240, \"num_hidden_layers\": 34, "
                          "\"sliding_window\": 1024}, \"vision_config\": {\"hidden_size\": 1152}}";
    assert_int_equal(load_text(gemma3, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.heads, 8);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(m.d_head, 256);
    assert_int_equal(m.vocab, 262208);
    char words[160];
    assert_string_equal(model_schedule_summary(&m, words, sizeof words), "29 sliding (1024) + 5 full layers");
    assert_true(m.assumption_count >= 5); /* the vision tower and each class default */
    /* ChatGLM: multi_query_group_num KV groups, kv_channels per head. */
    const char glm[] = "{\"model_type\": \"chatglm\", \"hidden_size\": 4096, \"num_layers\": 28, "
                       "\"num_attention_heads\": 32, \"multi_query_attention\": true, \"multi_query_group_num\": 2, "
                       "\"kv_channels\": 128, \"ffn_hidden_size\": 13696, \"padded_vocab_size\": 65024, "
                       "\"add_qkv_bias\": true, \"add_bias_linear\": false}";
    assert_int_equal(load_text(glm, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.kv_heads, 2);
    ASSERT_NEAR(model_kv_bytes_per_token(&m, 2), 28 * 2 * 2 * 128 * 2, 0);
    /* GLM-4.5-style MoE: dense below first_k_dense_replace. */
    const char glm4[] = "{\"model_type\": \"glm4_moe\", \"hidden_size\": 256, \"num_hidden_layers\": 6, "
                        "\"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"intermediate_size\": 512, "
                        "\"moe_intermediate_size\": 64, \"vocab_size\": 1000, \"n_routed_experts\": 8, "
                        "\"num_experts_per_tok\": 2, \"n_shared_experts\": 1, \"first_k_dense_replace\": 1}";
    assert_int_equal(load_text(glm4, &m, &w, err, sizeof err), 0);
    assert_string_equal(model_schedule_summary(&m, words, sizeof words), "1 dense + 5 MoE layers");
    /* GPT-BigCode (StarCoder): plain MLP, learned positions, multi-query. */
    const char bigcode[] = "{\"model_type\": \"gpt_bigcode\", \"n_embd\": 256, \"n_layer\": 2, \"n_head\": 8, "
                           "\"n_positions\": 512, \"vocab_size\": 1000, \"multi_query\": true, \"n_inner\": null}";
    assert_int_equal(load_text(bigcode, &m, &w, err, sizeof err), 0);
    assert_false(m.gated_mlp);
    assert_int_equal(m.kv_heads, 1);
    assert_int_equal(m.position_rows, 512);
    assert_int_equal(m.d_ff, 1024);
    /* MPT: transformers builds one KV head per query head whatever attn_config says. */
    const char mpt[] = "{\"model_type\": \"mpt\", \"d_model\": 256, \"n_layers\": 2, \"n_heads\": 8, "
                       "\"vocab_size\": 1000, \"expansion_ratio\": 4, \"no_bias\": true, \"attn_config\": "
                       "{\"kv_n_heads\": 1}}";
    assert_int_equal(load_text(mpt, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.kv_heads, 8);
    assert_int_equal(m.d_ff, 1024);
    /* Cohere's q/k norms exist only with use_qk_norm, and are full width. */
    const char cohere[] = "{\"model_type\": \"cohere\", \"hidden_size\": 256, \"num_hidden_layers\": 2, "
                          "\"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"intermediate_size\": 512, "
                          "\"vocab_size\": 1000, \"use_qk_norm\": %s}";
    char text[400];
    snprintf(text, sizeof text, cohere, "false");
    assert_int_equal(load_text(text, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.qk_norm_width, 0);
    snprintf(text, sizeof text, cohere, "true");
    assert_int_equal(load_text(text, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.qk_norm_width, (8 + 2) * 32);
    /* Gemma 2's class defaults fill what a config leaves out: the window, kv heads, the head width. */
    const char gemma2[] = "{\"model_type\": \"gemma2\", \"hidden_size\": 2304, \"num_hidden_layers\": 26, "
                          "\"num_attention_heads\": 8, \"intermediate_size\": 9216, \"vocab_size\": 256000}";
    assert_int_equal(load_text(gemma2, &m, &w, err, sizeof err), 0);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(m.d_head, 256);
    ASSERT_NEAR(model_kv_bytes_per_request(&m, 8192, 2), 654311424.0, 0); /* the published gemma-2-2b's */
    /* text_config that is not an object is an error, not an empty language model. */
    assert_int_equal(load_text("{\"text_config\": \"x\", \"hidden_size\": 64}", &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "'text_config' must be an object");
    /* A hybrid state-space model of a family rooftop does not know is refused, not read as attention. */
    const char zamba[] = "{\"model_type\": \"zamba2\", \"hidden_size\": 256, \"num_hidden_layers\": 4, "
                         "\"num_attention_heads\": 8, \"intermediate_size\": 512, \"vocab_size\": 1000, "
                         "\"mamba_d_state\": 64}";
    assert_int_equal(load_text(zamba, &m, &w, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "model_type 'zamba2' mixes state-space and attention layers");
}

/* Counts the entries of a folder (besides . and ..). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* Writes are atomic: on failure the old file is untouched and no temporary
 * file is left; on success the new content is all there. */
static void test_atomic_write(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[300], err[400], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/s.json", dir);
    assert_int_equal(write_file_atomic(path, "old\n", 4, err, sizeof err), 0);
    assert_int_equal(write_file_atomic(path, "new content\n", 12, err, sizeof err), 0);
    assert_int_equal(read_file(path, &text, &len, err, sizeof err), 0);
    assert_string_equal(text, "new content\n");
    free(text);
    /* A folder is refused; it and the file beside it stay, and no temporary
     * file is left behind. */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/folder", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(write_file_atomic(sub, "x", 1, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "not a plain file");
    assert_int_equal(entries(dir), 2);
    /* A path under a file cannot be created: the message says so. (A failure
     * after the temporary file is written, a full disk, is not reproducible
     * here: as root, permissions do not stop a write.) */
    snprintf(sub, sizeof sub, "%s/s.json/x.json", dir);
    assert_int_equal(write_file_atomic(sub, "x", 1, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "not written");
    assert_int_equal(entries(dir), 2);
    snprintf(sub, sizeof sub, "%s/missing/s.json", dir);
    assert_int_equal(write_file_atomic(sub, "x", 1, err, sizeof err), -1);
    assert_int_equal(read_file(dir, &text, &len, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "is a directory");
    /* A symbolic link is followed: the file it names is replaced, the link stays. */
    char link_path[300], fifo[300];
    snprintf(link_path, sizeof link_path, "%s/link.json", dir);
    assert_int_equal(symlink("s.json", link_path), 0);
    assert_int_equal(write_file_atomic(link_path, "via link\n", 9, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(lstat(link_path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(read_file(path, &text, &len, err, sizeof err), 0);
    assert_string_equal(text, "via link\n");
    free(text);
    /* What is not a plain file (a fifo here; /dev/null alike) is refused, not replaced. */
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(write_file_atomic(fifo, "x", 1, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "not a plain file");
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    unlink(fifo);
    unlink(link_path);
    snprintf(sub, sizeof sub, "%s/folder", dir);
    rmdir(sub);
    unlink(path);
    rmdir(dir);
}

/* The signal-safe slot for a save's temporary file: what is recorded is
 * what the cleanup removes, once; NULL forgets; a name too long is refused. */
static void test_temp_path_slot(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/.s.json.abc123", dir);
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(fileio_temp_cleanup_signal_safe(), 0); /* nothing recorded yet */
    assert_int_equal(fileio_temp_path_set(path), 0);
    assert_int_equal(fileio_temp_cleanup_signal_safe(), 1);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(fileio_temp_cleanup_signal_safe(), 0); /* forgotten after one cleanup */
    /* Recorded, then forgotten: the file stays. */
    fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(fileio_temp_path_set(path), 0);
    assert_int_equal(fileio_temp_path_set(NULL), 0);
    assert_int_equal(fileio_temp_cleanup_signal_safe(), 0);
    assert_int_equal(access(path, F_OK), 0);
    /* A file already gone: -1, errno untouched. */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(fileio_temp_path_set(path), 0);
    errno = 1234;
    assert_int_equal(fileio_temp_cleanup_signal_safe(), -1);
    assert_int_equal(errno, 1234);
    /* Too long for the slot: refused, and what was recorded is forgotten. */
    char *longer = malloc(FILEIO_TEMP_PATH_MAX + 1);
    assert_non_null(longer);
    memset(longer, 'a', FILEIO_TEMP_PATH_MAX);
    longer[FILEIO_TEMP_PATH_MAX] = '\0';
    assert_int_equal(fileio_temp_path_set(path), 0);
    assert_int_equal(fileio_temp_path_set(longer), -1);
    assert_int_equal(fileio_temp_cleanup_signal_safe(), 0);
    free(longer);
    /* write_file_atomic forgets its temporary file when done, saved or not. */
    snprintf(path, sizeof path, "%s/s.json", dir);
    char err[400];
    assert_int_equal(write_file_atomic(path, "x\n", 2, err, sizeof err), 0);
    assert_int_equal(fileio_temp_cleanup_signal_safe(), 0);
    assert_int_equal(access(path, F_OK), 0);
    unlink(path);
    rmdir(dir);
}

/* In a child: SIGXFSZ's handler, as the program's would, removes the
 * temporary file and says whether there was one. */
static void remove_temp_and_exit(int sig)
{
    (void)sig;
    _exit(fileio_temp_cleanup_signal_safe() == 1 ? 42 : 43);
}

/* A save that a signal ends halfway (here SIGXFSZ from the first write()
 * under a file-size limit of 0, in a child process): the handler finds the
 * temporary file recorded and removes it; nothing is left in the folder. */
static void test_signal_during_save_leaves_no_temp_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/s.json", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temp_and_exit;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGXFSZ, &sa, NULL);
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_FSIZE, &none);
        char err[400];
        write_file_atomic(path, "does not fit\n", 13, err, sizeof err);
        _exit(44); /* the signal never came */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 42);
    assert_int_equal(entries(dir), 0);
    rmdir(dir);
}

/* Duplicate keys: each earlier occurrence is removed and warned about in
 * the order written, the last value stays where it was written; and an
 * object of 200k keys (a 16 MiB file holds about 1.2M) is checked whole:
 * its one duplicate found, or none reported. (How fast: bench_json.) */
static char *many_keys(size_t n, bool duplicate, size_t *len)
{
    char *text = malloc(n * 24 + 16);
    assert_non_null(text);
    size_t used = 0;
    text[used++] = '{';
    for (size_t i = 0; i < n; i++) {
        size_t key = duplicate && i == n - 1 ? 7 : i; /* the last key repeats the 8th */
        used += (size_t)sprintf(text + used, "%s\"k%07zu\": %zu", i ? ", " : "", key, i);
    }
    text[used++] = '}';
    text[used] = '\0';
    *len = used;
    return text;
}

static void test_duplicate_keys(void **state)
{
    (void)state;
    char err[400];
    struct load_warnings w = {0};
    const char dups[] = "{\"a\": 1, \"b\": 2, \"a\": 3, \"c\": {\"x\": 1, \"x\": 2}, \"b\": 4, \"a\": 5}";
    cJSON *root = json_parse_text(dups, strlen(dups), "f.json", &w, err, sizeof err);
    assert_non_null(root);
    assert_int_equal(w.count, 4);
    assert_string_equal(w.text[0], "f.json: key 'x' appears more than once; the last value is used");
    assert_string_equal(w.text[1], "f.json: key 'a' appears more than once; the last value is used");
    assert_string_equal(w.text[2], "f.json: key 'b' appears more than once; the last value is used");
    assert_string_equal(w.text[3], "f.json: key 'a' appears more than once; the last value is used");
    char *printed = cJSON_PrintUnformatted(root);
    assert_string_equal(printed, "{\"c\":{\"x\":2},\"b\":4,\"a\":5}");
    free(printed);
    cJSON_Delete(root);

    size_t len;
    char *text = many_keys(200000, true, &len);
    w.count = 0;
    root = json_parse_text(text, len, "big.json", &w, err, sizeof err);
    assert_non_null(root);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.text[0], "big.json: key 'k0000007' appears more than once; the last value is used");
    assert_int_equal(cJSON_GetArraySize(root), 199999);
    ASSERT_NEAR(cJSON_GetObjectItemCaseSensitive(root, "k0000007")->valuedouble, 199999, 0);
    ASSERT_NEAR(cJSON_GetArrayItem(root, 7)->valuedouble, 8, 0); /* k0000008 moved up: the old 7th went */
    cJSON_Delete(root);
    free(text);
    text = many_keys(200000, false, &len);
    w.count = 0;
    root = json_parse_text(text, len, "big.json", &w, err, sizeof err);
    assert_non_null(root);
    assert_int_equal(w.count, 0);
    assert_int_equal(cJSON_GetArraySize(root), 200000);
    cJSON_Delete(root);
    free(text);
}

/* Only regular files are read: a fifo is refused at once (opening one for
 * reading would wait for a writer forever), and so is a device; in a user
 * folder such an entry is skipped with a warning and the rest still load. */
static int count_loaded(const char *path, const char *text, size_t len, void *ctx, char *err, size_t errsize)
{
    (void)path, (void)text, (void)len, (void)err, (void)errsize;
    (*(int *)ctx)++;
    return 0;
}

static void test_only_regular_files_are_read(void **state)
{
    (void)state;
    alarm(10); /* were the fifo waited on, fail rather than hang */
    char dir[] = "/tmp/rooftop-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[300], good[300], want[400], err[600], *text = (char *)"untouched";
    size_t len = 7;
    snprintf(fifo, sizeof fifo, "%s/a.json", dir);
    snprintf(good, sizeof good, "%s/b.json", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(read_file(fifo, &text, &len, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: not a regular file (a fifo)", fifo);
    assert_string_equal(err, want);
    assert_null(text);
    assert_int_equal(len, 0);
    assert_int_equal(read_file("/dev/null", &text, &len, err, sizeof err), -1);
    assert_string_equal(err, "/dev/null: not a regular file (a character device)");
    assert_int_equal(read_file(dir, &text, &len, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: is a directory", dir);
    assert_string_equal(err, want);

    FILE *f = fopen(good, "w");
    assert_non_null(f);
    fputs("{}\n", f);
    fclose(f);
    struct load_warnings w = {0};
    int loaded = 0;
    load_json_folder(dir, count_loaded, &loaded, &w);
    assert_int_equal(loaded, 1);
    assert_int_equal(w.count, 1);
    snprintf(want, sizeof want, "%s: not a regular file (a fifo) (file skipped)", fifo);
    assert_string_equal(w.text[0], want);
    unlink(fifo);
    unlink(good);
    rmdir(dir);
    alarm(0);
}

/* A file whose write fails part way (here: the file-size limit, which
 * stops root too): an existing file is untouched and the message says so;
 * a new one is not created and the message does not claim an old file. */
static void test_failed_write_says_what_is_left(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char old_path[300], new_path[300], want[600], err[600], *text;
    size_t len;
    snprintf(old_path, sizeof old_path, "%s/old.json", dir);
    snprintf(new_path, sizeof new_path, "%s/new.json", dir);
    assert_int_equal(write_file_atomic(old_path, "old\n", 4, err, sizeof err), 0);
    struct rlimit saved;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    struct rlimit small = {16, saved.rlim_max};
    void (*handler)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    const char big[64] = "a scenario longer than the sixteen bytes the limit allows";
    int old_rc = write_file_atomic(old_path, big, sizeof big, err, sizeof err);
    char old_err[600];
    snprintf(old_err, sizeof old_err, "%s", err);
    int new_rc = write_file_atomic(new_path, big, sizeof big, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, handler);
    assert_int_equal(old_rc, -1);
    snprintf(want, sizeof want, "%s: not written (%s); the old file is untouched", old_path, strerror(EFBIG));
    assert_string_equal(old_err, want);
    assert_int_equal(new_rc, -1);
    snprintf(want, sizeof want, "%s: not written (%s)", new_path, strerror(EFBIG));
    assert_string_equal(err, want);
    assert_int_equal(read_file(old_path, &text, &len, err, sizeof err), 0);
    assert_string_equal(text, "old\n");
    free(text);
    assert_int_equal(access(new_path, F_OK), -1);
    assert_int_equal(entries(dir), 1); /* no temporary file left */
    unlink(old_path);
    rmdir(dir);
}

/* Saving over a file keeps its mode, and (when root saves over another
 * user's file) its owner and group. */
static void test_write_keeps_owner_and_mode(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[300], err[600];
    snprintf(path, sizeof path, "%s/s.json", dir);
    assert_int_equal(write_file_atomic(path, "old\n", 4, err, sizeof err), 0);
    assert_int_equal(chmod(path, 0640), 0);
    bool root = geteuid() == 0;
    if (root)
        assert_int_equal(chown(path, 12345, 23456), 0);
    assert_int_equal(write_file_atomic(path, "new\n", 4, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    if (root) {
        assert_int_equal(st.st_uid, 12345);
        assert_int_equal(st.st_gid, 23456);
    } else {
        assert_int_equal(st.st_uid, geteuid());
        print_message("not root: the owner of another user's file cannot be kept, so it is not checked\n");
    }
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_configs),
        cmocka_unit_test(test_latent_attention_and_shared_experts),
        cmocka_unit_test(test_config_rules),
        cmocka_unit_test(test_json_errors_have_line_and_column),
        cmocka_unit_test(test_json_encodings_depth_duplicates),
        cmocka_unit_test(test_chip_files),
        cmocka_unit_test(test_builtin_chips_match_the_reference),
        cmocka_unit_test(test_scenario_round_trip),
        cmocka_unit_test(test_scenario_schedules),
        cmocka_unit_test(test_scenario_model_reads_onto_an_empty_shape),
        cmocka_unit_test(test_scenario_figures_in_physical_ranges),
        cmocka_unit_test(test_warnings_count_what_they_drop),
        cmocka_unit_test(test_config_schedule_errors),
        cmocka_unit_test(test_family_rules),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_temp_path_slot),
        cmocka_unit_test(test_signal_during_save_leaves_no_temp_file),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_only_regular_files_are_read),
        cmocka_unit_test(test_failed_write_says_what_is_left),
        cmocka_unit_test(test_write_keeps_owner_and_mode),
    };
    return cmocka_run_group_tests_name("loaders", tests, NULL, NULL);
}
