/* test_fixtures.c — every published config.json in tests/fixtures/hf/ against
 * the figures in its expected.json: the published parameter count (within
 * 0.1%, or to the digit it is published to), the active count under the
 * convention its publisher used, KV-cache and fixed-state bytes exactly, the
 * tied embedding, and the same figures through analyze() and the JSON
 * report. Each expected.json names its sources. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "fileio.h"
#include "hfconfig.h"
#include "jsonio.h"
#include "report.h"

#define FIXTURES "tests/fixtures/hf"

/* Reads a number key of e, or NAN when absent. */
static double number(const cJSON *e, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Half a unit in the last of sig significant figures of x: how far a count
 * published as x (e.g. 20.91B, 4 figures) may lie from the true one. */
static double rounding(double x, double sig)
{
    double exponent = floor(log10(fabs(x)));
    return 0.5 * pow(10.0, exponent - sig + 1.0);
}

/* Loads folder's config.json into *m. */
static void load(const char *folder, struct model_shape *m)
{
    char path[512], err[400], *text;
    size_t len;
    snprintf(path, sizeof path, FIXTURES "/%s/config.json", folder);
    if (read_file(path, &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct load_warnings w = {0};
    if (model_from_hf_config(text, len, path, folder, m, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(text);
}

/* Checks one fixture; returns how many figures it checked. */
static int check_fixture(const char *folder)
{
    char path[512], err[400], *text;
    size_t len;
    snprintf(path, sizeof path, FIXTURES "/%s/expected.json", folder);
    if (read_file(path, &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    cJSON *e = json_parse_text(text, len, path, NULL, err, sizeof err);
    free(text);
    if (!e)
        fail_msg("%s", err);
    struct model_shape m;
    load(folder, &m);
    struct param_count c = model_param_count(&m);
    int checked = 0;
    print_message("%-26s %s total %.0f active %.0f\n", folder, model_schedule_summary(&m, path, sizeof path),
                  c.total, c.active);

    double total = number(e, "params_total");
    if (isnan(total))
        total = number(e, "params_text"); /* a multimodal config: the language model */
    if (!isnan(total)) {
        const cJSON *precision = cJSON_GetObjectItemCaseSensitive(e, "params_total_precision");
        bool exact = cJSON_IsString(precision) && strcmp(precision->valuestring, "exact") == 0;
        /* A rounded count: within 0.1%, or half a unit of its last published figure when that is more. */
        int sig = 0;
        if (cJSON_IsString(precision))
            sscanf(precision->valuestring, "rounded to %d", &sig);
        double tol = exact ? 0.0 : fmax(1e-3 * total, sig > 0 ? rounding(total, sig) : 0.0);
        if (fabs(c.total - total) > tol)
            fail_msg("%s: %.0f parameters, published %.0f (%s, tolerance %.0f)", folder, c.total, total,
                     exact ? "exact" : "rounded", tol);
        checked++;
    }
    const cJSON *excludes = cJSON_GetObjectItemCaseSensitive(e, "active_excludes");
    double active = number(e, "params_active");
    if (!isnan(active) && cJSON_IsString(excludes)) {
        double embedding = (double)m.vocab * (double)m.d_model;
        double got = c.active;
        if (strcmp(excludes->valuestring, "embedding") == 0)
            got -= embedding;
        else if (strcmp(excludes->valuestring, "embedding and lm_head") == 0)
            got -= embedding + c.lm_head;
        double sig = number(e, "params_active_sig");
        /* A published active count may be cut or rounded: one unit of its last figure. */
        double tol = isnan(sig) ? 0.0 : 2.0 * rounding(active, sig);
        if (fabs(got - active) > tol)
            fail_msg("%s: %.0f active parameters (%s left out), published %.0f", folder, got, excludes->valuestring,
                     active);
        checked++;
    }
    double hand_active = number(e, "params_active_hand_with_embeddings");
    if (!isnan(hand_active)) {
        ASSERT_NEAR(c.active, hand_active, 0);
        checked++;
    }
    double per_token = number(e, "kv_cache_bytes_per_token");
    if (isnan(per_token))
        per_token = number(e, "kv_cache_bytes_per_token_full");
    if (!isnan(per_token)) {
        if (model_kv_bytes_per_token(&m, 2.0) != per_token)
            fail_msg("%s: KV %.0f B per token, want %.0f", folder, model_kv_bytes_per_token(&m, 2.0), per_token);
        checked++;
    }
    double context = number(e, "context"), per_request = number(e, "kv_cache_bytes_per_request");
    if (!isnan(context) && !isnan(per_request)) {
        if (model_kv_bytes_per_request(&m, context, 2.0) != per_request)
            fail_msg("%s: KV %.0f B per request at %.0f tokens, want %.0f", folder,
                     model_kv_bytes_per_request(&m, context, 2.0), context, per_request);
        /* The same figure through analyze() and the JSON report. */
        struct scenario s;
        scenario_default(&s);
        scenario_set_model(&s, &m);
        s.chip = *chip_find("h200");
        s.context_tokens = (int64_t)context;
        s.prefill_tokens = 512;
        struct analysis a = must_analyze(&s);
        ASSERT_NEAR(a.memory.kv_cache_bytes_per_request, per_request, 0);
        char *json = report_render(RT_FORMAT_JSON, &s, &a);
        cJSON *r = cJSON_Parse(json);
        free(json);
        const cJSON *mem = cJSON_GetObjectItemCaseSensitive(r, "memory");
        ASSERT_NEAR(number(mem, "kv_cache_bytes_per_request"), per_request, 0);
        const cJSON *model = cJSON_GetObjectItemCaseSensitive(r, "model");
        assert_true(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(model, "layer_schedule")));
        cJSON_Delete(r);
        checked++;
    }
    double state = number(e, "state_bytes_per_request");
    if (!isnan(state)) {
        if (model_state_bytes_per_request(&m, 2.0) != state)
            fail_msg("%s: fixed state %.0f B per request, want %.0f", folder, model_state_bytes_per_request(&m, 2.0),
                     state);
        checked++;
    }
    const cJSON *tied = cJSON_GetObjectItemCaseSensitive(e, "tied_embeddings");
    if (cJSON_IsBool(tied)) {
        assert_int_equal(m.tied_embeddings, cJSON_IsTrue(tied));
        checked++;
    }
    cJSON_Delete(e);
    return checked;
}

/* Every fixture folder: at least 25 of them, each checking two figures or more. */
static void test_every_fixture(void **state)
{
    (void)state;
    DIR *dir = opendir(FIXTURES);
    assert_non_null(dir);
    struct dirent *d;
    int folders = 0, figures = 0;
    while ((d = readdir(dir)) != NULL) {
        if (d->d_name[0] == '.')
            continue;
        int n = check_fixture(d->d_name);
        if (n < 2)
            fail_msg("%s: only %d figure checked; give its expected.json a count and a KV figure", d->d_name, n);
        folders++;
        figures += n;
    }
    closedir(dir);
    print_message("%d configs, %d figures checked\n", folders, figures);
    assert_true(folders >= 25);
}

/* Schedules named in words: the explorer's memory panel and the report. */
static void test_schedule_in_words(void **state)
{
    (void)state;
    struct model_shape m;
    char words[160];
    const struct {
        const char *folder, *want;
    } cases[] = {
        {"gemma-2-2b", "13 sliding (4096) + 13 full layers"},
        {"qwen3-next-80b-a3b", "36 linear + 12 full layers, all MoE"},
        {"qwen2.5-3b-window-28", "28 full + 8 sliding (4096) layers"},
        {"nemotron-3-nano-30b-a3b", "23 mamba2 + 23 MoE-only + 6 full layers"},
        {"deepseek-v3", "3 dense + 58 MoE layers"},
        {"llama-3.1-8b", "32 full layers"},
        {"gpt-oss-20b", "12 sliding (128) + 12 full layers, all MoE"},
        {"minimax-m1", "70 linear + 10 full layers, all MoE"},
        {"mixtral-8x7b-v0.1", "32 full layers, all MoE"},
        {"gemma-3-1b-it", "22 sliding (512) + 4 full layers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        load(cases[i].folder, &m);
        assert_string_equal(model_schedule_summary(&m, words, sizeof words), cases[i].want);
    }
}

/* The order of layers is kept: Gemma 2 starts sliding, Qwen3-Next's every
 * 4th layer is full, DeepSeek's first three are dense, Nemotron-H's blocks
 * follow its pattern string. */
static void test_schedule_order(void **state)
{
    (void)state;
    struct model_shape m;
    load("gemma-2-2b", &m);
    assert_int_equal(m.kinds[m.layer_kind[0]].mixer, RT_MIXER_SLIDING);
    assert_int_equal(m.kinds[m.layer_kind[1]].mixer, RT_MIXER_FULL);
    load("qwen3-next-80b-a3b", &m);
    for (int i = 0; i < 48; i++)
        assert_int_equal(m.kinds[m.layer_kind[i]].mixer, (i + 1) % 4 == 0 ? RT_MIXER_FULL : RT_MIXER_LINEAR);
    load("deepseek-v3", &m);
    for (int i = 0; i < 61; i++)
        assert_int_equal(m.kinds[m.layer_kind[i]].moe, i >= 3);
    load("nemotron-3-nano-30b-a3b", &m);
    const char *pattern = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
    for (int i = 0; i < 52; i++) {
        const struct layer_kind *k = &m.kinds[m.layer_kind[i]];
        enum rt_mixer want = pattern[i] == 'M' ? RT_MIXER_MAMBA2 : pattern[i] == '*' ? RT_MIXER_FULL : RT_MIXER_NONE;
        assert_int_equal(k->mixer, want);
        assert_int_equal(k->moe, pattern[i] == 'E');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fixture),
        cmocka_unit_test(test_schedule_in_words),
        cmocka_unit_test(test_schedule_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
