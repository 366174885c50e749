/* test_cli.c — the command-line contract, in process: flags, error paths,
 * the JSON keys scripts rely on, and the guide's tables as printed. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
#include <limits.h>

#include "testutil.h"

#include "fileio.h"

#include "commands.h"

/* What one run of the program printed. */
struct run {
    int status;
    char *out;
    char *err;
};

/* Runs cli_main on a NULL-terminated list of arguments (argv[0] added). */
static struct run run_argv(const char *const *args)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"rooftop";
    for (; *args && argc < 63; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    struct run r = {0};
    size_t out_len = 0, err_len = 0;
    FILE *out = open_memstream(&r.out, &out_len);
    FILE *err = open_memstream(&r.err, &err_len);
    assert_non_null(out);
    assert_non_null(err);
    r.status = cli_main(argc, argv, out, err);
    fclose(out);
    fclose(err);
    return r;
}

#define RUN(...) run_argv((const char *const[]){__VA_ARGS__, NULL})

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

/* Counts newlines in text. */
static int lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Asserts a usage error: exit 2, nothing on stdout, exactly one line on
 * stderr that mentions `needle`. */
static void assert_usage_error(struct run r, const char *needle)
{
    if (r.status != 2 || r.out[0] != '\0' || lines(r.err) != 1 || !strstr(r.err, needle))
        fail_msg("status %d, stdout '%s', stderr '%s' (want exit 2 and one line naming '%s')", r.status, r.out, r.err,
                 needle);
    assert_int_equal(strncmp(r.err, "rooftop: ", 9), 0);
    run_free(&r);
}

static void test_bad_input_is_one_clear_line_and_exit_2(void **state)
{
    (void)state;
    assert_usage_error(RUN("--report", "--chips", "0"), "--chips 0");
    assert_usage_error(RUN("--report", "--batch", "-4"), "--batch -4");
    assert_usage_error(RUN("--report", "--params", "abc"), "--params 'abc'");
    assert_usage_error(RUN("--report", "--chip", "h1000"), "--chip 'h1000'");
    assert_usage_error(RUN("--report", "--model", "gpt-9"), "--model 'gpt-9'");
    assert_usage_error(RUN("--report", "--kv-heads", "3"), "--kv-heads 3: kv heads must divide 64 heads: 1, 2, 4, 8, 16, 32, 64");
    assert_usage_error(RUN("--report", "--budget", "0.2"), "--overhead");
    assert_usage_error(RUN("--report", "--budget", "0.25"), "--budget");
    assert_usage_error(RUN("--report", "--precision", "fp16"), "--precision 'fp16'");
    assert_usage_error(RUN("--report=yaml"), "--report 'yaml'");
    assert_usage_error(RUN("--sweep=depth"), "--sweep 'depth'");
    assert_usage_error(RUN("--sweep=chips", "--values", "1,x,4"), "'x'");
    assert_usage_error(RUN("--sweep=kv-heads", "--values", "64,3"), "3");
    assert_usage_error(RUN("--sweep=chips", "--values", "0"), "0");
    assert_usage_error(RUN("--frobnicate"), "--frobnicate");
    assert_usage_error(RUN("--report", "--chips"), "--chips");
    assert_usage_error(RUN("--report", "--chips", "1.5"), "--chips '1.5'");
    assert_usage_error(RUN("--report", "--chips", "1e30"), "out of range");
    assert_usage_error(RUN("--report", "--measured-ttft-s", "0"), "--measured-ttft-s");
    assert_usage_error(RUN("--list-models", "--format=csv"), "--format");
    assert_usage_error(RUN("--format=json"), "--format");
    assert_usage_error(RUN("--report=json", "--format=csv"), "once");
    assert_usage_error(RUN("--report", "--mfu", "0"), "--mfu");
    assert_usage_error(RUN("--report", "--step-times", "1,2,3"), "--step-times");
    assert_usage_error(RUN("--report", "--recompute", "some"), "--recompute");
    assert_usage_error(RUN("--report", "--recompute", "1.5"), "--recompute");
    assert_usage_error(RUN("--report", "--napkin", "--detailed"), "--detailed");
    assert_usage_error(RUN("--report", "--attention", "flash"), "--attention");
    assert_usage_error(RUN("--report", "--comm-overlap", "2"), "--comm-overlap");
    assert_usage_error(RUN("--report", "--peak-flops", "0"), "--peak-flops");
    assert_usage_error(RUN("--report", "--sweep=chips"), "one of");
    assert_usage_error(RUN("--values", "1,2"), "--values");
    assert_usage_error(RUN("stray"), "stray");
    /* An empty list item is refused by flag and position, never dropped. */
    assert_usage_error(RUN("--sweep=chips", "--values", "1,,2"), "--values '1,,2': item 2 is empty");
    assert_usage_error(RUN("--sweep=chips", "--values", ",1"), "item 1 is empty");
    assert_usage_error(RUN("--sweep=chips", "--values", "1,4,"), "item 3 is empty");
    assert_usage_error(RUN("--sweep=chips", "--values", ""), "item 1 is empty");
    assert_usage_error(RUN("--report", "--step-times", "1,,2,3,4,5"), "--step-times '1,,2,3,4,5': item 2 is empty");
    assert_usage_error(RUN("--sweep=chips", "--values", "1,x,4"), "item 2, 'x', is not a number");
    /* Too large is out of range, not "not a whole number"; numbers are quoted exactly. */
    assert_usage_error(RUN("--sweep=chips", "--values", "1e308"), "--values 1e+308 is out of range for --sweep=chips");
    assert_usage_error(RUN("--sweep=chips", "--values", "4,16777217"), "--values 16777217 is out of range");
    assert_usage_error(RUN("--sweep=batch", "--values", "9007199254740991"), "--values 9007199254740991 is out");
    assert_usage_error(RUN("--sweep=chips", "--values", "2.5"), "--values 2.5: --sweep=chips takes whole numbers");
    assert_usage_error(RUN("--report", "--ep-imbalance", "16777217"), "--ep-imbalance 16777217 is out of range");
    /* Absurd figures are refused by flag, as typed, with the physical range. */
    assert_usage_error(RUN("--report", "--hbm-bytes", "1e-320"), "--hbm-bytes 1e-320 is out of range: give 1000000 to");
    assert_usage_error(RUN("--report", "--peak-flops", "1e-300"), "--peak-flops 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--peak-flops", "1e30"), "--peak-flops 1e30 is out of range");
    assert_usage_error(RUN("--report", "--hbm-bw", "1e-300"), "--hbm-bw 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--mfu", "1e-300"), "--mfu 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--measured-ttft-s", "1e-300"), "--measured-ttft-s 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--measured-tpot-s", "1e-300"), "--measured-tpot-s 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--ttft-target", "1e-300"), "--ttft-target 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--budget", "1e-300", "--overhead", "0"), "--budget 1e-300 is out of range");
    assert_usage_error(RUN("--report", "--d-model", "2M"), "--d-model '2M' is out of range: give a whole number");
    assert_usage_error(RUN("--report", "--vocab", "1099511627776"), "--vocab '1099511627776' is out of range");
    assert_usage_error(RUN("--report", "--d-ff", "1099511627776"), "--d-ff '1099511627776' is out of range");
    assert_usage_error(RUN("--report", "--heads", "2097152"), "--heads '2097152' is out of range");
    assert_usage_error(RUN("--report", "--layers", "512", "--d-model", "1048576", "--heads", "1024", "--d-ff",
                           "16777216"),
                       "parameters, above the 1e16");
    assert_usage_error(RUN("--report", "--budget", "0.1", "--overhead", "0.123456789"),
                       "--budget 0.1 s must exceed the --overhead of 0.123456789 s");
}

/* Looks up a dotted path ("latency.total_s") in a JSON object. */
static double json_at(const cJSON *root, const char *path);

static const cJSON *json_path(const cJSON *root, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *node = root;
    char *save = NULL;
    for (char *key = strtok_r(buf, ".", &save); key && node; key = strtok_r(NULL, ".", &save))
        node = cJSON_GetObjectItemCaseSensitive(node, key);
    return node;
}

/* Every key the issue names is present in --report=json, with the right type. */
static void test_report_json_keys(void **state)
{
    (void)state;
    struct run r = RUN("--report=json", "--napkin");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_non_null(root);
    const char *numbers[] = {
        "ridge_flop_per_byte", "chip.peak_flops_per_s", "chip.hbm_bytes", "chip.hbm_bytes_per_s", "chips",
        "model.params", "model.layers", "model.kv_heads", "model.d_head", "model.d_ff", "latency.prefill_s",
        "latency.decode_s", "latency.overhead_s", "latency.total_s", "latency.budget_s", "latency.chips_for_budget",
        "memory.weights_bytes", "memory.weights_fit_chips", "memory.kv_cache_bytes",
        "memory.kv_cache_bytes_per_token", "memory.max_concurrent_requests", "decode_batch_intensity_flop_per_byte",
        "tile_efficiency.d_model", "tile_efficiency.d_ff", "tile_efficiency.d_head"};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (!cJSON_IsNumber(json_path(root, numbers[i])))
            fail_msg("--report=json lacks the number %s", numbers[i]);
    assert_true(cJSON_IsString(json_path(root, "chip.name")));
    assert_string_equal(json_path(root, "latency.verdict")->valuestring, "MISS");
    ASSERT_NEAR(json_path(root, "latency.chips_for_budget")->valuedouble, 64, 0);
    ASSERT_NEAR(json_path(root, "latency.total_s")->valuedouble, 27.952067768666755, 1e-12);
    ASSERT_NEAR(json_path(root, "memory.weights_fit_chips")->valuedouble, 9, 0);
    const cJSON *placement = json_path(root, "placement");
    assert_true(cJSON_IsArray(placement));
    const char *row_keys[] = {"name", "phase", "flops", "bytes", "intensity_flop_per_byte", "bound",
                              "attainable_flops_per_s", "fraction_of_peak", "lever", "operation", "unit", "time_s",
                              "share"};
    const cJSON *row;
    int phases = 0, operations = 0;
    cJSON_ArrayForEach(row, placement)
    {
        for (size_t i = 0; i < sizeof row_keys / sizeof row_keys[0]; i++)
            assert_non_null(cJSON_GetObjectItemCaseSensitive(row, row_keys[i]));
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "operation")))
            operations++;
        else
            phases++;
    }
    assert_int_equal(phases, 3); /* prefill, decode, training step */
    assert_true(operations >= 3 * 9);
    /* The detailed model's keys (issue 5). */
    const char *detailed[] = {"latency.napkin.prefill_s", "latency.napkin.total_s", "latency.detailed.prefill_s",
                              "latency.detailed.decode_s", "latency.detailed.ttft_s", "latency.detailed.tpot_s",
                              "training.model_flops_per_token", "training.hardware_flops_per_token",
                              "training.state_bytes_per_chip", "mfu_budget.matmul_s", "mfu_budget.vector_s",
                              "mfu_budget.memory_s", "mfu_budget.comms_s", "mfu_budget.optimizer_s"};
    for (size_t i = 0; i < sizeof detailed / sizeof detailed[0]; i++)
        if (!cJSON_IsNumber(json_path(root, detailed[i])))
            fail_msg("--report=json lacks the number %s", detailed[i]);
    /* 70B on one 16 GB TPU v5e: Adam's 16 bytes a parameter (1.12e12) do not fit, so the step has no MFU (issue 21
     * item 4); on 16 H100s (70 GB a chip) it has one. */
    ASSERT_NEAR(json_path(root, "training.state_bytes_per_chip")->valuedouble, 1.12e12, 0);
    assert_true(cJSON_IsFalse(json_path(root, "training.state_fits")));
    const char *none[] = {"training.mfu", "training.hfu", "training.causal_mfu", "mfu_budget.mfu", "mfu_budget.hfu",
                          "mfu_budget.causal_mfu"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (!cJSON_IsNull(json_path(root, none[i])))
            fail_msg("%s is given for a step that cannot run", none[i]);
    assert_string_equal(json_path(root, "mfu_budget.shown")->valuestring, "none");
    struct run fits = RUN("--report=json", "--napkin", "--chip", "h100", "--chips", "16");
    cJSON *fr = cJSON_Parse(fits.out);
    assert_non_null(fr);
    assert_true(cJSON_IsTrue(json_path(fr, "training.state_fits")));
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (!cJSON_IsNumber(json_path(fr, none[i])))
            fail_msg("--report=json on 16 H100s lacks the number %s", none[i]);
    assert_string_equal(json_path(fr, "mfu_budget.shown")->valuestring, "plain");
    cJSON_Delete(fr);
    run_free(&fits);
    assert_true(cJSON_IsNull(json_path(root, "prefill.mfu")));
    assert_true(cJSON_IsNull(json_path(root, "decode.mbu")));
    assert_string_equal(json_path(root, "latency.model")->valuestring, "napkin");
    assert_string_equal(json_path(root, "mfu_budget.source")->valuestring, "shape");
    cJSON_Delete(root);
    run_free(&r);
}

/* The model flags: a shape change gives way to the shape's count (and says
 * so), --kv-heads keeps the stated count, --window windows every attention
 * layer, --plain-mlp and --untied change the count by hand-derived amounts,
 * and the schedule and assumptions reach the JSON. */
static void test_model_flags(void **state)
{
    (void)state;
    /* guide-70b is 70e9 stated; with 40 layers it is the shape's count: 8192 x 128256 x 2 embeddings +
     * 40 x (attention 2 x 8192 x 8192 + 2 x 8192 x 1024, MLP 3 x 8192 x 28672, norms 2 x 8192) + 8192. */
    double per_layer = 2.0 * 8192 * 8192 + 2.0 * 8192 * 1024 + 3.0 * 8192 * 28672 + 2.0 * 8192;
    double shape_40 = 2.0 * 8192 * 128256 + 40 * per_layer + 8192;
    struct run r = RUN("--report=json", "--layers", "40");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "model.params")->valuedouble, shape_40, 0);
    assert_string_equal(json_path(root, "model.params_source")->valuestring, "shape");
    const cJSON *assumed = json_path(root, "model.assumptions");
    assert_int_equal(cJSON_GetArraySize(assumed), 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(assumed, 0), "key")->valuestring,
                        "stated_params");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(assumed, 0), "value")->valuestring,
                        "dropped");
    const cJSON *run0 = cJSON_GetArrayItem(json_path(root, "model.layer_schedule"), 0);
    ASSERT_NEAR(cJSON_GetObjectItemCaseSensitive(run0, "count")->valuedouble, 40, 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(run0, "mixer")->valuestring, "full");
    cJSON_Delete(root);
    run_free(&r);

    /* --kv-heads keeps the guide's 70e9 and says so. */
    r = RUN("--report=json", "--kv-heads", "64");
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "model.params")->valuedouble, 70e9, 0);
    assert_int_equal(cJSON_GetArraySize(json_path(root, "model.assumptions")), 1);
    cJSON_Delete(root);
    run_free(&r);

    /* --plain-mlp drops one of three MLP matrices; --untied on a tied model adds the LM head. */
    r = RUN("--report=json", "--model", "llama-3.1-8b", "--plain-mlp");
    root = cJSON_Parse(r.out);
    double gated_8b = 8030261248.0;
    ASSERT_NEAR(json_path(root, "model.params")->valuedouble, gated_8b - 32.0 * 4096 * 14336, 0);
    assert_false(cJSON_IsTrue(json_path(root, "model.gated_mlp")));
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report=json", "--model", "llama-3.1-8b", "--tied");
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "model.params")->valuedouble, gated_8b - 128256.0 * 4096, 0);
    cJSON_Delete(root);
    run_free(&r);

    /* --window 4096 on Llama 3.1 8B at 32k: each layer holds 4096 tokens of 131,072 B / 32. */
    r = RUN("--report=json", "--model", "llama-3.1-8b", "--window", "4096", "--context", "32768");
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "memory.kv_cache_bytes_per_request")->valuedouble, 131072.0 * 4096, 0);
    ASSERT_NEAR(json_path(root, "memory.kv_cache_bytes_per_token")->valuedouble, 131072.0, 0);
    ASSERT_NEAR(json_path(root, "model.params")->valuedouble, gated_8b, 0); /* a window changes no weight */
    assert_string_equal(json_path(root, "model.layer_pattern")->valuestring, "32 sliding (4096) layers");
    cJSON_Delete(root);
    run_free(&r);

    /* Flags that change nothing keep the stated count; an explicit flag replaces the matching assumption. */
    r = RUN("--report=json", "--layers", "80", "--untied", "--gated");
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "model.params")->valuedouble, 70e9, 0);
    assert_int_equal(cJSON_GetArraySize(json_path(root, "model.assumptions")), 0);
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report=json", "--model", "tests/fixtures/hf/gemma-2-2b", "--untied", "--window", "0");
    root = cJSON_Parse(r.out);
    const cJSON *a;
    cJSON_ArrayForEach(a, json_path(root, "model.assumptions"))
    {
        const char *key = cJSON_GetObjectItemCaseSensitive(a, "key")->valuestring;
        if (strcmp(key, "tie_word_embeddings") == 0 || strcmp(key, "layer_types") == 0)
            fail_msg("--untied --window 0 still shows the assumption about %s", key);
    }
    assert_string_equal(json_path(root, "model.layer_pattern")->valuestring, "26 full layers");
    cJSON_Delete(root);
    run_free(&r);
    /* More layers than an irregular pattern repeat the whole pattern, and say so. */
    r = RUN("--report=json", "--model", "tests/fixtures/hf/nemotron-3-nano-30b-a3b", "--layers", "104");
    root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "model.layer_pattern")->valuestring, "46 mamba2 + 46 MoE-only + 12 full layers");
    ASSERT_NEAR(json_path(root, "memory.kv_cache_bytes_per_token")->valuedouble, 2 * 6144.0, 0);
    ASSERT_NEAR(json_path(root, "memory.state_bytes_per_request")->valuedouble, 2 * 49082368.0, 0);
    cJSON_Delete(root);
    run_free(&r);
    assert_usage_error(RUN("--report", "--model", "deepseek-v3", "--kv-heads", "1"),
                       "deepseek-v3 uses latent attention; its KV cache does not depend on kv heads");
    assert_usage_error(RUN("--report", "--kv-heads", "0"), "--kv-heads '0' is out of range: give a whole number from 1");
    assert_usage_error(RUN("--report", "--layers", "513"), "--layers '513': give 1 to 512 layers");
    assert_usage_error(RUN("--report", "--window", "-1"), "--window '-1'");
    assert_usage_error(RUN("--report", "--gated", "--plain-mlp"), "choose one of --gated and --plain-mlp");
}

/* chips_for_budget is null when no count meets the budget; mfu_budget
 * appears with --step-times. */
static void test_report_json_null_and_mfu_budget(void **state)
{
    (void)state;
    struct run r = RUN("--report=json", "--max-chips", "32", "--step-times", "0.1,0.045,0.06,0.05,0.025", "--recompute",
                       "full");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_true(cJSON_IsNull(json_path(root, "latency.chips_for_budget")));
    ASSERT_NEAR(json_path(root, "mfu_budget.mfu")->valuedouble, 0.1 / 0.28, 1e-12);
    ASSERT_NEAR(json_path(root, "mfu_budget.hfu")->valuedouble, 0.1 / 0.28 * 8 / 6, 1e-12);
    assert_string_equal(json_path(root, "mfu_budget.biggest_lever")->valuestring, "memory");
    assert_true(cJSON_IsNumber(json_path(root, "mfu_budget.vector_fraction")));
    cJSON_Delete(root);
    run_free(&r);
}

/* The chips sweep prints the guide's table, line for line. */
static void test_sweep_chips_text_is_the_guides_table(void **state)
{
    (void)state;
    struct run r = RUN("--sweep=chips", "--napkin");
    assert_int_equal(r.status, 0);
    const char *want = "   1 chips: prefill   5.822s  decode  21.880s  total  27.952s  MISS\n"
                       "   4 chips: prefill   1.455s  decode   5.470s  total   7.176s  MISS\n"
                       "  16 chips: prefill   0.364s  decode   1.368s  total   1.981s  MISS\n"
                       "  64 chips: prefill   0.091s  decode   0.342s  total   0.683s  OK\n"
                       " 128 chips: prefill   0.045s  decode   0.171s  total   0.466s  OK\n";
    const char *table = strchr(r.out, '\n') + 1; /* after the "# scenario" line */
    assert_string_equal(table, want);
    run_free(&r);

    r = RUN("--sweep=params", "--napkin");
    table = strchr(r.out, '\n') + 1;
    assert_string_equal(table, "N= 70.0B ->    64 chips for a 1.0s turn   (9 just to hold weights)\n"
                               "N= 35.0B ->    32 chips for a 1.0s turn   (5 just to hold weights)\n"
                               "N= 17.0B ->    16 chips for a 1.0s turn   (3 just to hold weights)\n"
                               "N=  8.0B ->     8 chips for a 1.0s turn   (1 just to hold weights)\n");
    run_free(&r);

    r = RUN("--sweep=batch", "--chip", "h100", "--peak-flops", "990e12", "--napkin");
    assert_non_null(strstr(r.out, "ridge point: 296 FLOP/byte\n"));
    assert_non_null(strstr(r.out, "batch=    1: AI=    1.0 FLOP/byte  MEMORY bound  ( 0.3%"));
    assert_non_null(strstr(r.out, "batch=  256: AI=   43.3 FLOP/byte  MEMORY bound  (14.7%"));
    assert_non_null(strstr(r.out, "batch= 1024: AI=   49.6 FLOP/byte  MEMORY bound  (16.8%"));
    /* issue 21 item 3: 1.4e11 FLOPs over 2,684,354,560 bytes of KV a request, whatever the batch */
    assert_non_null(strstr(r.out, "ceiling: 52.2 FLOP/byte however large the batch (each request reads its own KV at "
                                  "8192 tokens): below the ridge;"));
    run_free(&r);
    /* issue 21 item 5: with targets set the verdict is theirs, the turn budget's second */
    r = RUN("--report", "--chip", "h100", "--chips", "8", "--ttft-target", "0.5", "--tpot-target", "0.05");
    assert_non_null(strstr(r.out, "\nVerdict      OK: the serving targets (see Serving); the 1.000 s turn budget, "
                                  "second: MISS ("));
    run_free(&r);
    r = RUN("--report=markdown", "--chip", "h100", "--chips", "8", "--ttft-target", "0.001");
    assert_non_null(strstr(r.out, "\n\nVerdict: **MISS** against the serving targets (see Serving); the 1.000 s turn "
                                  "budget, second: MISS ("));
    run_free(&r);
    r = RUN("--sweep=batch", "--chip", "h100", "--context", "1024", "--prefill-tokens", "512", "--napkin");
    assert_non_null(strstr(r.out, "ceiling: 417.2 FLOP/byte as the batch grows, past the ridge: decode reaches it at "
                                  "batch 1011\n"));
    run_free(&r);

    r = RUN("--sweep=kv-heads", "--batch", "32", "--napkin");
    assert_non_null(strstr(r.out, "64 kv heads (group  1):   687.2 GB of KV cache     1.0x  (MHA)"));
    assert_non_null(strstr(r.out, " 8 kv heads (group  8):    85.9 GB of KV cache     8.0x smaller"));
    assert_non_null(strstr(r.out, " 1 kv heads (group 64):    10.7 GB of KV cache    64.0x smaller"));
    run_free(&r);
}

/* Sweep JSON rows carry the keys the issue names. */
static void test_sweep_json_rows(void **state)
{
    (void)state;
    static const struct { const char *kind; const char *keys[5]; } cases[] = {
        {"--sweep=chips", {"chips", "prefill_s", "decode_s", "total_s", "verdict"}},
        {"--sweep=params", {"params", "chips_for_budget", "weights_fit_chips", NULL}},
        {"--sweep=batch", {"batch", "decode_batch_intensity_flop_per_byte", "bound", NULL}},
        {"--sweep=kv-heads", {"kv_heads", "kv_cache_bytes", "gqa_saving", "max_concurrent_requests", NULL}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct run r = RUN(cases[c].kind, "--format=json", "--napkin");
        assert_int_equal(r.status, 0);
        cJSON *root = cJSON_Parse(r.out);
        assert_true(cJSON_IsArray(root));
        assert_true(cJSON_GetArraySize(root) >= 3);
        const cJSON *row;
        cJSON_ArrayForEach(row, root)
        {
            for (int k = 0; k < 5 && cases[c].keys[k]; k++)
                if (!cJSON_GetObjectItemCaseSensitive(row, cases[c].keys[k]))
                    fail_msg("%s row lacks %s", cases[c].kind, cases[c].keys[k]);
        }
        cJSON_Delete(root);
        run_free(&r);
    }
    struct run r = RUN("--sweep=chips", "--values", "16,64", "--format=json", "--napkin");
    cJSON *root = cJSON_Parse(r.out);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(root, 0), "verdict")->valuestring, "MISS");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(root, 1), "verdict")->valuestring, "OK");
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--sweep=params", "--values", "70B", "--max-chips", "16", "--format=json", "--napkin");
    root = cJSON_Parse(r.out);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(root, 0), "chips_for_budget")));
    cJSON_Delete(root);
    run_free(&r);
    /* The bound column is the decode phase's, as the text says: at batch 256
     * and 1024 the guide's 70B decodes at 43.3 and 49.6 FLOP/byte, far below
     * the v5e's ridge of 241, so memory (one operation row said compute). */
    r = RUN("--sweep=batch", "--values", "256,1024", "--format=json");
    root = cJSON_Parse(r.out);
    assert_int_equal(cJSON_GetArraySize(root), 2);
    for (int i = 0; i < 2; i++) {
        const cJSON *row = cJSON_GetArrayItem(root, i);
        assert_true(cJSON_GetObjectItem(row, "fraction_of_ridge")->valuedouble < 1.0);
        assert_string_equal(cJSON_GetObjectItem(row, "bound")->valuestring, "memory");
    }
    cJSON_Delete(root);
    run_free(&r);
}

/* CSV: a header and one line per value. */
static void test_sweep_csv(void **state)
{
    (void)state;
    struct run r = RUN("--sweep=chips", "--format=csv", "--values", "1,64", "--napkin");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "chips,prefill_s,decode_s,total_s,verdict,estimate\n"
                               "1,5.821725888324873,21.88034188034188,27.952067768666755,MISS,napkin\n"
                               "64,0.09096446700507614,0.3418803418803419,0.682844808885418,OK,napkin\n");
    run_free(&r);
}

/* Number spellings and chip spellings of the contract. */
static void test_number_and_name_spellings(void **state)
{
    (void)state;
    const char *spellings[][2] = {{"--params", "70e9"}, {"--params", "70B"}, {"--params", "0.07T"}};
    for (size_t i = 0; i < 3; i++) {
        struct run r = RUN("--report=json", spellings[i][0], spellings[i][1]);
        cJSON *root = cJSON_Parse(r.out);
        ASSERT_NEAR(json_path(root, "model.params")->valuedouble, 70e9, 1);
        cJSON_Delete(root);
        run_free(&r);
    }
    const char *chips[] = {"tpu-v5e", "TPU v5e", "tpuv5e", "TPU-V5E"};
    for (size_t i = 0; i < 4; i++) {
        struct run r = RUN("--report=json", "--chip", chips[i], "--context", "8k");
        assert_int_equal(r.status, 0);
        cJSON *root = cJSON_Parse(r.out);
        assert_string_equal(json_path(root, "chip.key")->valuestring, "tpu-v5e");
        ASSERT_NEAR(json_path(root, "workload.context_tokens")->valuedouble, 8192, 0); /* a token k is 1024 */
        cJSON_Delete(root);
        run_free(&r);
    }
}

/* Flag order never matters: shape edits apply after --model. */
static void test_flag_order_does_not_matter(void **state)
{
    (void)state;
    struct run a = RUN("--report=json", "--kv-heads", "16", "--model", "llama-3.1-8b", "--chip", "h100");
    struct run b = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-8b", "--kv-heads", "16");
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    cJSON *root = cJSON_Parse(a.out);
    ASSERT_NEAR(json_path(root, "model.kv_heads")->valuedouble, 16, 0);
    cJSON_Delete(root);
    run_free(&a);
    run_free(&b);
}

/* Huge values: no NaN or inf reaches any output. */
static void test_huge_values_print_no_nan(void **state)
{
    (void)state;
    const char *formats[] = {"--report=json", "--report=text", "--report=markdown", "--report=csv"};
    for (size_t i = 0; i < 4; i++) {
        struct run r = RUN(formats[i], "--params", "1e13", "--context", "1000000", "--chips", "65536");
        assert_int_equal(r.status, 0);
        if (strstr(r.out, "nan") || strstr(r.out, "inf") || strstr(r.out, "NaN"))
            fail_msg("%s printed a non-finite value:\n%s", formats[i], r.out);
        run_free(&r);
    }
}

/* --help, --version and the lists succeed and say what they should. */
static void test_help_version_lists(void **state)
{
    (void)state;
    struct run r = RUN("--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--sweep=chips|params|batch|kv-heads"));
    assert_non_null(strstr(r.out, "--estimate napkin|floor|realistic"));
    /* It fits an 80-column terminal. */
    for (const char *line = r.out; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 80)
            fail_msg("--help has a line of %zu columns: %.*s", len, (int)len, line);
        line = end ? end + 1 : line + len;
    }
    run_free(&r);
    r = RUN("--version");
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(r.out, "rooftop ", 8), 0);
    run_free(&r);
    r = RUN("--list-chips");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "tpu-v5e"));
    assert_non_null(strstr(r.out, "gaudi3"));
    run_free(&r);
    r = RUN("--list-chips", "--format=json");
    cJSON *root = cJSON_Parse(r.out);
    assert_true(cJSON_IsArray(root));
    assert_true(cJSON_IsString(cJSON_GetObjectItem(cJSON_GetArrayItem(root, 0), "source")));
    /* The README's promise: each chip's conflicts between sources are an array of lines. TPU v5e's
     * bandwidth is 819 GB/s in its docs and the guide, 8.1e11 / 8.2e11 in scaling-book and JAX. */
    int with_conflicts = 0;
    const cJSON *chip;
    cJSON_ArrayForEach(chip, root)
    {
        const cJSON *c = cJSON_GetObjectItem(chip, "conflicts");
        assert_true(cJSON_IsArray(c));
        with_conflicts += cJSON_GetArraySize(c) > 0;
        const char *key = cJSON_GetObjectItem(chip, "key")->valuestring;
        if (strcmp(key, "tpu-v5e") == 0) {
            assert_int_equal(cJSON_GetArraySize(c), 1);
            assert_string_equal(cJSON_GetArrayItem(c, 0)->valuestring,
                                "HBM bandwidth: 819 GB/s (docs, the guide) vs 8.1e11 / 8.2e11 (scaling-book, JAX)");
            assert_null(strstr(cJSON_GetObjectItem(chip, "notes")->valuestring, "819"));
        }
        if (strcmp(key, "b300") == 0)
            assert_int_equal(cJSON_GetArraySize(c), 4); /* FP4 peak, capacity, bandwidth, TDP */
    }
    assert_int_equal(with_conflicts, 16);
    cJSON_Delete(root);
    run_free(&r);
    /* A chip file's conflicts come back as they were given; a line break inside one is refused. */
    char path[] = "/tmp/rooftop-conflicts-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"name\": \"Conf chip\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 8e10, "
          "\"hbm_bytes_per_s\": 3e12, \"conflicts\": [\"bf16 peak: 1 PF (a) vs 0.9 PF (b)\", \"HBM: 80 vs 96 GB\"]}",
          f);
    fclose(f);
    char saved[] = "/tmp/rooftop-conflicts-scenario-XXXXXX";
    int sfd = mkstemp(saved);
    assert_true(sfd >= 0);
    close(sfd);
    r = RUN("--chip", path, "--write-scenario", saved);
    assert_int_equal(r.status, 0);
    run_free(&r);
    char *text = NULL;
    size_t len = 0;
    f = fopen(saved, "r");
    assert_non_null(f);
    FILE *mem = open_memstream(&text, &len);
    for (int ch; (ch = fgetc(f)) != EOF;)
        fputc(ch, mem);
    fclose(mem);
    fclose(f);
    root = cJSON_Parse(text);
    free(text);
    const cJSON *mc = json_path(root, "chip.conflicts");
    assert_int_equal(cJSON_GetArraySize(mc), 2);
    assert_string_equal(cJSON_GetArrayItem(mc, 1)->valuestring, "HBM: 80 vs 96 GB");
    cJSON_Delete(root);
    unlink(saved);
    f = fopen(path, "w");
    fputs("{\"name\": \"Conf chip\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 8e10, "
          "\"hbm_bytes_per_s\": 3e12, \"conflicts\": [\"two\\nlines\"]}",
          f);
    fclose(f);
    r = RUN("--report", "--chip", path);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "conflicts[0] must be a non-empty string of one line"));
    run_free(&r);
    unlink(path);
    r = RUN("--list-models");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "mixtral-8x7b"));
    run_free(&r);
}

/* Serving layouts from the command line: --tp/--pp/--ep set the replica's
 * chips (the JSON says so), a layout that disagrees with --chips, a --pp
 * above the layers, an --ep that does not divide the experts, a dense
 * model's --ep, an acceptance outside [0, 1) and a malformed --disagg are
 * each one line naming the flag, exit 2; --search gives JSON with the
 * documented keys. */
static void test_layout_flags(void **state)
{
    (void)state;
    struct run r = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--pp", "2",
                       "--dp", "3", "--spec-tokens", "3", "--spec-accept", "0.6", "--ttft-target", "1");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_int_equal((int)json_path(root, "chips")->valuedouble, 16);
    assert_int_equal((int)json_path(root, "parallel.tp")->valuedouble, 8);
    assert_int_equal((int)json_path(root, "parallel.pp")->valuedouble, 2);
    assert_int_equal((int)json_path(root, "parallel.chips_total")->valuedouble, 48);
    ASSERT_NEAR(json_path(root, "decode.speculative.tokens_per_pass")->valuedouble, (1 - 0.6 * 0.6 * 0.6 * 0.6) / 0.4,
                1e-12);
    const char *keys[] = {"memory.kv_replication", "memory.per_chip.weights_bytes", "memory.per_chip.kv_cache_bytes",
                          "memory.per_chip.activation_bytes", "memory.per_chip.free_bytes", "serving.ttft_s",
                          "serving.tpot_s", "serving.tokens_per_s_per_user", "serving.tokens_per_s_per_chip",
                          "serving.ttft_target_s", "decode.speculative.speedup"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!cJSON_IsNumber(json_path(root, keys[i])))
            fail_msg("--report=json lacks the number %s", keys[i]);
    assert_true(cJSON_IsNull(json_path(root, "serving.tpot_target_s")));
    cJSON_Delete(root);
    run_free(&r);
    /* Acceptance by position: the list gives the drafts' count; JSON carries the rates, a scenario file keeps
     * them, and the tree's verified nodes; a rate outside [0, 1], a list of the wrong length, and a tree without
     * drafts are one line each. */
    char saved[] = "/tmp/rooftop-spec-scenario-XXXXXX";
    int sfd = mkstemp(saved);
    assert_true(sfd >= 0);
    close(sfd);
    r = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "8",
            "--spec-accept", "0.9,0.5,0.2", "--spec-verify", "12", "--write-scenario", saved);
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_int_equal((int)json_path(root, "decode.speculative.draft_tokens")->valuedouble, 3);
    assert_true(cJSON_IsNull(json_path(root, "decode.speculative.acceptance")));
    assert_int_equal(cJSON_GetArraySize(json_path(root, "decode.speculative.acceptance_by_position")), 3);
    ASSERT_NEAR(json_path(root, "decode.speculative.tokens_per_pass")->valuedouble, 2.44, 1e-12);
    ASSERT_NEAR(json_path(root, "decode.speculative.verify_tokens")->valuedouble, 12.0, 0);
    double tpot = json_path(root, "decode.speculative.tpot_s")->valuedouble;
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report=json", "--scenario", saved);
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_true(json_path(root, "decode.speculative.tpot_s")->valuedouble == tpot); /* the same scenario back */
    ASSERT_NEAR(cJSON_GetArrayItem(json_path(root, "decode.speculative.acceptance_by_position"), 1)->valuedouble, 0.5, 0);
    cJSON_Delete(root);
    run_free(&r);
    /* --spec-tokens 0 turns it off over the saved rates and tree (a newcomer could not); a new count
     * without new rates is refused by what it lacks */
    r = RUN("--report=json", "--scenario", saved, "--spec-tokens", "0");
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_true(cJSON_IsNull(json_path(root, "decode.speculative")));
    cJSON_Delete(root);
    run_free(&r);
    assert_usage_error(RUN("--scenario", saved, "--spec-tokens", "4"),
                       "--spec-tokens 4: the scenario's acceptance by position has 3 rates; give --spec-accept for 4 "
                       "drafts");
    unlink(saved);
    assert_usage_error(RUN("--spec-accept", "0.9,1.5"), "--spec-accept '0.9,1.5': position 2's 1.5 is not a probability "
                                                        "from 0 to 1");
    assert_usage_error(RUN("--spec-tokens", "4", "--spec-accept", "0.9,0.5"),
                       "--spec-accept gives 2 acceptances by position for --spec-tokens 4");
    assert_usage_error(RUN("--spec-verify", "8"), "--spec-verify goes with --spec-tokens K");
    assert_usage_error(RUN("--chips", "16", "--tp", "4"), "--tp 4 x --pp 1 x --ep 1 = 4 chips, but --chips is 16");
    /* A shape flag that breaks another field is the one named (found by a newcomer: the message named kv_heads). */
    assert_usage_error(RUN("--heads", "5"), "--heads 5: model guide-70b: kv_heads must be");
    assert_usage_error(RUN("--pp", "81", "--model", "llama-3.1-70b"), "--pp 81 is out of range");
    assert_usage_error(RUN("--model", "mixtral-8x7b", "--ep", "3"), "--ep 3 does not divide the 8 experts");
    /* An alias is named as typed; two names for one knob, and a closed loop's flags on an open loop, are
     * refused rather than one silently winning (found by a newcomer). */
    assert_usage_error(RUN("--concurrency", "0"), "--concurrency 0 is out of range");
    assert_usage_error(RUN("--max-num-tokens", "-1"), "--max-num-tokens -1 is out of range");
    assert_usage_error(RUN("--batch", "4", "--concurrency", "8"), "--batch and --concurrency are the same knob");
    assert_usage_error(RUN("--arrival-rate", "1", "--bench-rounds", "3"), "--bench-rounds is a closed loop's");
    assert_usage_error(RUN("--arrival-rate", "1", "--concurrency", "8"), "--concurrency is a closed loop's");
    assert_usage_error(RUN("--moe-ep", "3", "--model", "mixtral-8x7b", "--chips", "8"),
                       "--moe-ep 3 does not divide a stage's 8 chips");
    assert_usage_error(RUN("--prefill-tp", "2"), "give --disagg P:D");
    assert_usage_error(RUN("--prefix-cache", "1"), "--prefix-cache 1 is out of range");
    {
        /* an overloaded open loop has no TTFT: the report says unbounded, JSON null, never 0 */
        struct run over = RUN("--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--arrival-rate", "100",
                              "--report");
        assert_int_equal(over.status, 0);
        assert_non_null(strstr(over.out, "\n  TTFT               unbounded: requests arrive faster than the engine "));
        assert_non_null(strstr(over.out, "MISS: the requests arrive faster than they are served"));
        assert_null(strstr(over.out, "TTFT               0.000 s"));
        run_free(&over);
        over = RUN("--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--arrival-rate", "100",
                   "--report=json");
        cJSON *doc = cJSON_Parse(over.out);
        const cJSON *sv = cJSON_GetObjectItemCaseSensitive(doc, "serving");
        assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(sv, "ttft_s")));
        assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sv, "overloaded")));
        cJSON_Delete(doc);
        run_free(&over);
    }
    assert_usage_error(RUN("--ep", "2"), "--ep 2 needs a mixture-of-experts model");
    assert_usage_error(RUN("--spec-tokens", "4", "--spec-accept", "1"), "--spec-accept 1 is out of range");
    assert_usage_error(RUN("--spec-tokens", "4"), "--spec-tokens 4 needs --spec-accept");
    assert_usage_error(RUN("--disagg", "8"), "--disagg '8': give P:D");
    assert_usage_error(RUN("--search", "--tp", "8"), "--search chooses the layout");
    r = RUN("--search", "--format=json", "--chip", "h100", "--model", "llama-3.1-8b", "--max-chips", "8",
            "--tpot-target", "0.05");
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_non_null(root);
    const cJSON *first = cJSON_GetArrayItem(json_path(root, "candidates"), 0);
    const char *ckeys[] = {"tp", "pp", "ep", "dp", "batch", "chips", "ttft_s", "tpot_s", "tokens_per_s_per_user",
                           "tokens_per_s_per_chip"};
    for (size_t i = 0; i < sizeof ckeys / sizeof ckeys[0]; i++)
        if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(first, ckeys[i])))
            fail_msg("a --search candidate lacks the number %s", ckeys[i]);
    assert_true(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(first, "frontier")));
    assert_true(cJSON_IsObject(json_path(root, "fewest_chips")));
    /* Llama-3.1-8B (16 GB of bf16 weights) fits one H100: the fewest chips is 1. */
    assert_int_equal((int)json_path(root, "fewest_chips.chips")->valuedouble, 1);
    cJSON_Delete(root);
    run_free(&r);
}

/* JSON numbers are exact, as the CSV's are: a budget of 1.0000000000000002
 * reads back as that double, and a sweep's JSON and CSV give the same
 * digits (cJSON alone printed 15 and lost the last unit). A message about a
 * very long path keeps its reason: the path is shortened in the middle. */
static void test_json_numbers_exact_and_long_paths_keep_the_reason(void **state)
{
    (void)state;
    struct run r = RUN("--report=json", "--budget", "1.0000000000000002", "--overhead", "0.30000000000000004");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"budget_s\":\t1.0000000000000002"));
    assert_non_null(strstr(r.out, "\"overhead_s\":\t0.30000000000000004"));
    run_free(&r);
    r = RUN("--napkin", "--sweep=chips", "--format=json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "5.821725888324873"));
    run_free(&r);
    r = RUN("--napkin", "--sweep=chips", "--format=csv");
    assert_non_null(strstr(r.out, "1,5.821725888324873,"));
    run_free(&r);
    static char path[1400];
    snprintf(path, sizeof path, "/tmp/no-such-rooftop-dir/");
    size_t n = strlen(path);
    memset(path + n, 'e', 1200);
    snprintf(path + n + 1200, sizeof path - n - 1200, "/missing.json");
    r = RUN("--scenario", path, "--report");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "/missing.json: No such file or directory"));
    assert_non_null(strstr(r.err, "..."));
    assert_true(strlen(r.err) < 300);
    run_free(&r);
}

/* Markdown is a document with tables. */
static void test_markdown_report(void **state)
{
    (void)state;
    struct run r = RUN("--report=markdown", "--chips", "64", "--napkin");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "| **total** | **0.683 s** | **1.111 s** | **")); /* the realistic: golden chips64 */
    assert_non_null(strstr(r.out, "Verdict (the napkin estimate): **OK**"));
    assert_non_null(strstr(r.out, "The three estimates disagree"));
    run_free(&r);
    /* By default the verdict is the realistic estimate's, and says so. */
    r = RUN("--report=markdown", "--chips", "64");
    assert_non_null(strstr(r.out, "Verdict (the realistic estimate): **MISS**"));
    run_free(&r);
    /* The operations table: floor and realistic side by side; a fused softmax is on chip, not 0.0 FLOP/byte. */
    r = RUN("--report=markdown");
    assert_non_null(strstr(r.out, "| FLOP/byte | bound | floor | realistic | share |"));
    assert_non_null(strstr(r.out, "| prefill | softmax (vector) | 859 GFLOP | 0 B | on chip | compute | 218.0 ms |"));
    run_free(&r);
    /* The text report and the JSON say it too. */
    r = RUN("--report", "--chips", "64");
    assert_non_null(strstr(r.out, "\n  The three estimates disagree on the verdict: read the table.\n"));
    run_free(&r);
    r = RUN("--report=json", "--chips", "64");
    cJSON *root = cJSON_Parse(r.out);
    assert_true(cJSON_IsTrue(json_path(root, "latency.estimates_disagree")));
    assert_true(cJSON_IsTrue(json_path(root, "latency.verdicts_split")));
    cJSON_Delete(root);
    run_free(&r);
    /* Verdicts that agree while the totals differ by more than 25% are told apart from a split verdict. */
    r = RUN("--report=markdown", "--chip", "h100", "--chips", "8", "--model", "llama-3.1-8b", "--prefill-tokens", "512",
            "--decode-tokens", "32");
    assert_non_null(strstr(r.out, "The three estimates agree on the verdict but differ "));
    assert_non_null(strstr(r.out, "x (0.270 s to ")); /* from the floor's figure to the realistic one */
    run_free(&r);
}

/* Writes text to path, failing the test on error. */
static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The realistic estimate's keys and flags: latency.realistic.*, each
 * operation's realistic_time_s, the fused softmax's own row, chip.efficiency;
 * --engine by name and from a file, --estimate, --points, --calibrate and
 * --write-chip end to end, and their errors. */
static void test_realistic_flags_and_keys(void **state)
{
    (void)state;
    struct run r = RUN("--report=json", "--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--engine",
                       "vllm");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "latency.model")->valuestring, "realistic");
    const char *keys[] = {"latency.realistic.prefill_s", "latency.realistic.decode_s", "latency.realistic.ttft_s",
                          "latency.realistic.tpot_s", "latency.realistic.overhead_s", "latency.realistic.total_s",
                          "latency.realistic.prefill_comms_s", "latency.realistic.decode_comms_s",
                          "chip.efficiency.memory", "chip.efficiency.matmul.bf16", "chip.efficiency.kernel_overhead_s"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!cJSON_IsNumber(json_path(root, keys[i])))
            fail_msg("--report=json lacks the number %s", keys[i]);
    assert_true(cJSON_IsString(json_path(root, "latency.realistic.verdict")));
    assert_true(cJSON_IsTrue(json_path(root, "chip.efficiency.calibrated")));
    assert_string_equal(json_path(root, "latency.realistic.engine")->valuestring, "vllm");
    ASSERT_NEAR(json_path(root, "latency.total_s")->valuedouble, json_path(root, "latency.realistic.total_s")->valuedouble, 0);
    int softmax = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, json_path(root, "placement"))
    {
        assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(row, "realistic_time_s")));
        if (strcmp(cJSON_GetObjectItemCaseSensitive(row, "name")->valuestring, "softmax") == 0) {
            softmax++;
            assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, "intensity_flop_per_byte")));
        }
    }
    assert_int_equal(softmax, 3); /* prefill, decode, training */
    cJSON_Delete(root);
    run_free(&r);
    /* A chip with no measurements is on the generic, uncalibrated profile. */
    r = RUN("--report=json", "--estimate", "floor");
    root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "latency.model")->valuestring, "floor");
    assert_true(cJSON_IsFalse(json_path(root, "chip.efficiency.calibrated")));
    assert_true(cJSON_IsTrue(json_path(root, "chip.efficiency.generic")));
    cJSON_Delete(root);
    run_free(&r);

    char dir[] = "/tmp/rooftop-real-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char engine[300], points[300], chip[300];
    snprintf(engine, sizeof engine, "%s/engine.json", dir);
    snprintf(points, sizeof points, "%s/points.csv", dir);
    snprintf(chip, sizeof chip, "%s/chip.json", dir);
    put_file(engine, "{\"name\": \"lab-engine\", \"step_overhead_s\": 0.002, \"attention\": 0.5}\n");
    r = RUN("--report=json", "--chip", "h100", "--engine", engine);
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "latency.realistic.engine")->valuestring, "lab-engine");
    ASSERT_NEAR(json_path(root, "latency.realistic.step_overhead_s")->valuedouble, 0.002, 0);
    cJSON_Delete(root);
    run_free(&r);
    put_file(engine, "{\"name\": \"x\", \"attention\": 2}\n");
    assert_usage_error(RUN("--report", "--engine", engine), "'attention' must be from");
    assert_usage_error(RUN("--report", "--engine", "tgi"), "--engine 'tgi'");
    assert_usage_error(RUN("--report", "--estimate", "fast"), "--estimate 'fast'");

    /* --points: placed on the roof, one above it flagged. */
    put_file(points, "label,flops,bytes,seconds\ngemm,1.1e12,4e8,0.00142\nwrong units,1e12,1e9,1e-6\n");
    r = RUN("--report=json", "--chip", "h100", "--points", points);
    root = cJSON_Parse(r.out);
    const cJSON *p0 = cJSON_GetArrayItem(json_path(root, "points"), 0);
    const cJSON *p1 = cJSON_GetArrayItem(json_path(root, "points"), 1);
    ASSERT_NEAR(cJSON_GetObjectItemCaseSensitive(p0, "intensity_flop_per_byte")->valuedouble, 2750, 1e-9);
    ASSERT_NEAR(cJSON_GetObjectItemCaseSensitive(p0, "fraction_of_roof")->valuedouble, 1.1e12 / 0.00142 / 989.4e12,
                1e-12);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(p0, "above_roof")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p1, "above_roof")));
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--points", points);
    assert_non_null(strstr(r.out, "ABOVE THE ROOF"));
    run_free(&r);
    r = RUN("--report=markdown", "--chip", "h100", "--points", points);
    assert_non_null(strstr(r.out, "| measured kernel | FLOP/byte | achieved | roof | of roof | time | note |"));
    assert_non_null(strstr(r.out, " | 1.0 us | above the roof: a units error (FLOPs, bytes or seconds) or the wrong chip |\n"));
    run_free(&r);
    /* Above the roof, the likeliest cause (h100: bf16 989.4, fp8 1978.9 TFLOP/s dense, 3.35 TB/s):
       bf16 work at 1.5 PFLOP/s fits under the fp8 peak; fp8 at 3 PFLOP/s is within twice it (2:4 sparse);
       a copy at 5 TB/s moved fewer DRAM bytes than counted; 1e18 FLOP/s is units. */
    put_file(points, "label,flops,bytes,seconds,precision\nlow precision,1.5e12,1e9,0.001,bf16\n"
                     "sparse,3e12,1e9,0.001,fp8\ncached,0,5e9,0.001,bf16\nunits,1e12,1e9,1e-6,bf16\n");
    r = RUN("--report=json", "--chip", "h100", "--points", points);
    root = cJSON_Parse(r.out);
    static const char *const causes[] = {"precision", "sparsity", "scope", "units"};
    for (int i = 0; i < 4; i++) {
        const cJSON *p = cJSON_GetArrayItem(json_path(root, "points"), i);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "above_roof")));
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(p, "above_roof_cause")->valuestring, causes[i]);
    }
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--points", points);
    assert_non_null(strstr(r.out, "ABOVE THE ROOF: it fits under the fp8 peak, so it ran at fp8, not bf16"));
    assert_non_null(strstr(r.out, "ABOVE THE ROOF: within the 2:4 sparse peak"));
    assert_non_null(strstr(r.out, "ABOVE THE ROOF: faster than HBM allows"));
    run_free(&r);

    /* --calibrate from a profiler's points, then --write-chip; the chip file carries the fit. */
    /* Each time: max(flops / (989.4e12 x 0.6), bytes / (3.35e12 x 0.7)) + 5 us. */
    put_file(points, "label,flops,bytes,seconds\n"
                     "a,1e12,1e9,0.001689523\nb,4e12,2e9,0.006743090\nc,1e9,4e9,0.001710757\n"
                     "d,2e9,8e8,0.000346151\ne,8e11,1e7,0.001352618\nf,3e10,6e9,0.002563635\n");
    r = RUN("--calibrate", points, "--chip", "h100", "--write-chip", chip);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Calibrating h100 from 6 rows"));
    assert_non_null(strstr(r.out, "leave-one-out MAPE 0.0%"));
    assert_non_null(strstr(r.out, "note: 6 rows for 3 fitted parameters"));
    /* Times in their unit, four figures: 0.000346151 s measured against a 238.8 us floor. */
    assert_non_null(strstr(r.out, "\n  d                        point            346.2 us    238.8 us    346.2 us   1.000\n"));
    run_free(&r);
    /* What the kernel fit says before it starts is a note, not an error. */
    r = RUN("--calibrate", "tests/fixtures/kernels/h100_sxm/trtllm/gemm_perf.csv", "--chip", "h100");
    assert_int_equal(r.status, 0);
    const char *said = "rooftop: note: fitting 3 groups over 40 rows of 1 table (0 skipped): about ";
    assert_int_equal(strncmp(r.err, said, strlen(said)), 0);
    run_free(&r);
    r = RUN("--report=json", "--chip", chip);
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "chip.efficiency.matmul.bf16")->valuedouble, 0.6, 0.01);
    ASSERT_NEAR(json_path(root, "chip.efficiency.memory")->valuedouble, 0.7, 0.01);
    assert_true(cJSON_IsTrue(json_path(root, "chip.efficiency.calibrated")));
    cJSON_Delete(root);
    run_free(&r);
    /* A point faster than the roofline allows is refused, naming the row. */
    put_file(points, "label,flops,bytes,seconds\na,1e12,1e9,0.002\nb,1e12,1e9,1e-7\nc,1e9,4e9,0.002\n"
                     "d,2e9,8e8,0.0004\n");
    r = RUN("--calibrate", points, "--chip", "h100");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "row b: measured 1e-07 s is faster than the roofline allows"));
    run_free(&r);
    assert_usage_error(RUN("--report", "--write-chip", chip), "--write-chip, --write-profiles and --calibrate-scope go with --calibrate");
    assert_usage_error(RUN("--calibrate", points, "--calibrate-scope", "all", "--write-chip", chip),
                       "--write-chip saves one chip");
    /* A spreadsheet's UTF-8 byte-order mark before the header is skipped. */
    put_file(points, "\xef\xbb\xbflabel,flops,bytes,seconds\ngemm,1.1e12,4e8,0.00142\n");
    r = RUN("--report=json", "--chip", "h100", "--points", points);
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(json_path(root, "points"), 0), "label")
                            ->valuestring,
                        "gemm");
    cJSON_Delete(root);
    run_free(&r);
    unlink(engine);
    unlink(points);
    unlink(chip);
    rmdir(dir);
}

/* Files on the command line: a config.json folder, a chip file, a saved
 * scenario that reports byte-identically, and the user's chip folder. */
static void test_files_on_the_command_line(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char scenario[300], chipdir[300], chipfile[400], xdg[300];
    snprintf(scenario, sizeof scenario, "%s/review.json", dir);

    struct run r = RUN("--report=json", "--model", "tests/fixtures/hf/mixtral-8x7b-v0.1");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "model.name")->valuestring, "mixtral-8x7b-v0.1");
    assert_true(json_path(root, "model.active_params")->valuedouble < json_path(root, "model.params")->valuedouble);
    cJSON_Delete(root);
    run_free(&r);
    /* A config saved under the model's name (not config.json) is named by its file: gpt-j-6b.json -> gpt-j-6b. */
    r = RUN("--report=json", "--model", "tests/fixtures/measured/configs/gpt-j-6b.json");
    assert_int_equal(r.status, 0);
    root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "model.name")->valuestring, "gpt-j-6b");
    cJSON_Delete(root);
    run_free(&r);

    const char *flags[] = {"--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--batch", "32",
                           "--precision", "fp8", "--reserve", "10GB", "--step-times", "0.1,0.045,0.06,0.05,0.025"};
    const char *write[32] = {"--write-scenario", scenario, "--report=json"};
    const char *plain[32] = {"--report=json"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        write[3 + i] = plain[1 + i] = flags[i];
    struct run written = run_argv(write), direct = run_argv(plain);
    assert_int_equal(written.status, 0);
    assert_string_equal(written.out, direct.out);
    struct run loaded = RUN("--report=json", "--scenario", scenario);
    assert_int_equal(loaded.status, 0);
    assert_string_equal(loaded.out, direct.out);
    run_free(&written);
    run_free(&direct);
    run_free(&loaded);
    /* Flags override the file. */
    r = RUN("--report=json", "--scenario", scenario, "--chips", "16");
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "chips")->valuedouble, 16, 0);
    cJSON_Delete(root);
    run_free(&r);

    /* A chip file given by path, and the user's chip folder. */
    snprintf(chipdir, sizeof chipdir, "%s/rooftop", dir);
    mkdir(chipdir, 0755);
    snprintf(chipdir, sizeof chipdir, "%s/rooftop/chips", dir);
    mkdir(chipdir, 0755);
    snprintf(chipfile, sizeof chipfile, "%s/lab.json", chipdir);
    FILE *f = fopen(chipfile, "w");
    assert_non_null(f);
    fputs("{\"name\": \"Lab Chip\", \"peak_flops_per_s\": {\"bf16\": 400e12}, \"hbm_bytes\": 64e9, "
          "\"hbm_bytes_per_s\": 2e12, \"source\": \"bench notes\", \"sparse\": true}\n",
          f);
    fclose(f);
    r = RUN("--report=json", "--chip", chipfile);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "were halved once, on load")); /* the report says so */
    root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "chip.peak_flops_per_s")->valuedouble, 200e12, 0);
    cJSON_Delete(root);
    run_free(&r);
    snprintf(xdg, sizeof xdg, "%s", dir);
    setenv("XDG_CONFIG_HOME", xdg, 1);
    r = RUN("--list-chips");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "lab-chip"));
    assert_non_null(strstr(r.out, "(sparse peaks halved)"));
    run_free(&r);
    r = RUN("--report=json", "--chip", "Lab Chip");
    assert_int_equal(r.status, 0);
    run_free(&r);
    setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test-config", 1);

    /* Broken files: exit 2, one line with the place and the reason. */
    f = fopen(scenario, "w");
    fputs("{\n  \"version\": 1,\n  \"chips\": 4,\n}\n", f);
    fclose(f);
    assert_usage_error(RUN("--report", "--scenario", scenario), "review.json:4:1: expected a value after ','");
    assert_usage_error(RUN("--report", "--model", "tests/fixtures"), "config.json");
    assert_usage_error(RUN("--report", "--chip", "/nonexistent/chip.json"), "No such file");
    /* A write that cannot happen exits 1 and says why. */
    r = RUN("--write-scenario", "/nonexistent/dir/s.json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "not written"));
    run_free(&r);

    unlink(chipfile);
    rmdir(chipdir);
    snprintf(chipdir, sizeof chipdir, "%s/rooftop", dir);
    rmdir(chipdir);
    unlink(scenario);
    rmdir(dir);
}

/* More warnings than are kept: the first 16 are printed, then how many
 * more there were, never a silent stop. */
static void test_warnings_say_how_many_more(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-warn-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[400], keys[2048] = "";
    size_t used = 0;
    for (int i = 0; i < 20; i++)
        used += (size_t)snprintf(keys + used, sizeof keys - used, ", \"odd_%d\": 1", i);
    snprintf(path, sizeof path, "%s/chip.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"name\": \"Chatty\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 80e9, "
               "\"hbm_bytes_per_s\": 3e12%s}\n", keys);
    fclose(f);
    /* One file's unknown keys: three by name, the rest counted in one line (a file of thousands must not
     * crowd out the warnings after it). */
    struct run r = RUN("--report", "--chip", path);
    assert_int_equal(r.status, 0);
    assert_int_equal(lines(r.err), 4);
    assert_non_null(strstr(r.err, "'odd_2'"));
    assert_null(strstr(r.err, "'odd_3'"));
    assert_non_null(strstr(r.err, "and 17 more unknown keys ignored\n"));
    run_free(&r);
    /* More warnings than are kept: 20 chip files in the user's folder, one unknown key each. */
    char sub[600];
    snprintf(sub, sizeof sub, "%s/rooftop", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/rooftop/chips", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (int i = 0; i < 20; i++) {
        char file[700];
        snprintf(file, sizeof file, "%s/c%02d.json", sub, i);
        f = fopen(file, "w");
        assert_non_null(f);
        fprintf(f, "{\"name\": \"Chip %d\", \"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 80e9, "
                   "\"hbm_bytes_per_s\": 3e12, \"odd\": 1}\n", i);
        fclose(f);
    }
    setenv("XDG_CONFIG_HOME", dir, 1);
    r = RUN("--list-chips");
    unsetenv("XDG_CONFIG_HOME");
    assert_int_equal(r.status, 0);
    assert_int_equal(lines(r.err), 17);
    assert_non_null(strstr(r.err, "c15.json: unknown key 'odd'"));
    assert_null(strstr(r.err, "c16.json"));
    assert_non_null(strstr(r.err, "rooftop: warning: ... and 4 more warnings\n"));
    run_free(&r);
    for (int i = 0; i < 20; i++) {
        char file[700];
        snprintf(file, sizeof file, "%s/c%02d.json", sub, i);
        unlink(file);
    }
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/rooftop", dir);
    rmdir(sub);
    unlink(path);
    rmdir(dir);
}

/* Fails when text holds a byte a terminal acts on: a C0 control other than
 * newline and tab, DEL, or a C1 control (U+0080..U+009F). */
static void assert_no_controls(const char *text, const char *what)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        bool c0 = *p < 0x20 && *p != '\n' && *p != '\t';
        bool c1 = p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
        if (c0 || *p == 0x7F || c1)
            fail_msg("%s: raw control byte 0x%02x at offset %zu", what, *p, (size_t)(p - (const unsigned char *)text));
    }
}

/* Writes text to dir/name; returns the path in a static buffer. */
static const char *write_text(const char *dir, const char *name, const char *text)
{
    static char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* A chip named with ESC sequences (clear the screen, set the window title,
 * ring the bell), a C1 CSI and DEL, from a chip file and from the user's
 * chip folder, with an unknown key that is warned about, and a theme named
 * likewise: no output of any mode or format, nor any message, carries a raw
 * control byte; JSON keeps the name, escaped, so a reader gets it back. */
static void test_control_bytes_never_reach_the_terminal(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-evil-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[400];
    const char *evil_name = "Evil\x1b[2J\x1b]0;pwned\x07";
    const char *chip = "{\"name\": \"Evil\\u001b[2J\\u001b]0;pwned\\u0007\", \"key\": \"evil\", "
                       "\"peak_flops_per_s\": {\"bf16\": 1e15}, \"hbm_bytes\": 80e9, \"hbm_bytes_per_s\": 3e12, "
                       "\"source\": \"bench \\u009b2J\\u007f\", \"x\\u001b[5m\": 1}";
    snprintf(sub, sizeof sub, "%s/rooftop", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/rooftop/chips", dir);
    mkdir(sub, 0755);
    char chip_path[400];
    snprintf(chip_path, sizeof chip_path, "%s", write_text(sub, "evil.json", chip));
    snprintf(sub, sizeof sub, "%s/rooftop/themes", dir);
    mkdir(sub, 0755);
    char theme_path[400];
    snprintf(theme_path, sizeof theme_path, "%s",
             write_text(sub, "evil.json", "{\"name\": \"evil\\u001b]0;t\\u0007\", \"roles\": {}}"));
    setenv("XDG_CONFIG_HOME", dir, 1);

    const char *formats[] = {"text", "json", "markdown", "csv"};
    for (size_t i = 0; i < 4; i++) {
        char report[32], format[32], what[96];
        snprintf(report, sizeof report, "--report=%s", formats[i]);
        snprintf(format, sizeof format, "--format=%s", formats[i]);
        struct run runs[] = {
            RUN(report, "--chip", chip_path),
            RUN(report, "--chip", "evil"),
            RUN("--sweep=chips", format, "--chip", "evil", "--values", "1,8"),
            RUN("--search", format, "--chip", "evil", "--max-chips", "4"),
        };
        for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
            snprintf(what, sizeof what, "%s, run %zu", formats[i], k);
            assert_int_equal(runs[k].status, 0);
            assert_no_controls(runs[k].out, what);
            assert_no_controls(runs[k].err, what);
            assert_non_null(strstr(runs[k].err, "x\\x1b[5m")); /* the unknown key, quoted visibly */
            if (k < 2 && i != 2 && i != 3)  /* text and JSON reports name the chip */
                assert_non_null(strstr(runs[k].out, i == 1 ? "Evil\\u001b[2J" : "Evil\\x1b[2J\\x1b]0;pwned\\x07"));
            if (k == 0 && i == 1) { /* JSON keeps the very name */
                cJSON *root = cJSON_Parse(runs[k].out);
                assert_non_null(root);
                assert_string_equal(json_path(root, "chip.name")->valuestring, evil_name);
                cJSON_Delete(root);
            }
            run_free(&runs[k]);
        }
    }
    struct run lists[] = {RUN("--list-chips"), RUN("--list-chips", "--format=json"), RUN("--list-models"),
                          RUN("--list-themes"), RUN("--list-themes", "--theme", theme_path)};
    for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
        assert_int_equal(lists[k].status, 0);
        assert_no_controls(lists[k].out, "a list");
        assert_no_controls(lists[k].err, "a list's warnings");
        run_free(&lists[k]);
    }
    lists[0] = RUN("--list-chips");
    assert_non_null(strstr(lists[0].out, "Evil\\x1b[2J"));
    run_free(&lists[0]);
    lists[0] = RUN("--list-themes");
    assert_non_null(strstr(lists[0].out, "evil\\x1b]0;t\\x07"));
    run_free(&lists[0]);
    setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test-config", 1);
    /* Errors that quote the input: one line, visibly escaped. */
    struct run r = RUN("--report", "--chip", "no\x1b[2Jsuch\nchip");
    assert_no_controls(r.err, "an error quoting --chip");
    assert_usage_error(r, "--chip 'no\\x1b[2Jsuch\\x0achip'");
    r = RUN("--report", "--points", "/nonexistent/\x1b]0;x\x07.csv");
    assert_no_controls(r.err, "an error quoting a path");
    assert_usage_error(r, "\\x1b]0;x\\x07.csv");
    unlink(theme_path);
    unlink(chip_path);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/rooftop/chips", dir);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/rooftop", dir);
    rmdir(sub);
    rmdir(dir);
}

/* Asserts a usage error whose one line is exactly "rooftop: " want "\n". */
static void assert_usage_line(struct run r, const char *want)
{
    char line[5000];
    snprintf(line, sizeof line, "rooftop: %s\n", want);
    if (r.status != 2 || r.out[0] != '\0' || strcmp(r.err, line) != 0)
        fail_msg("status %d, stdout '%.200s', stderr '%.300s' (want exit 2 and '%.300s')", r.status, r.out, r.err,
                 line);
    run_free(&r);
}

/* Every name the command line matches offers the nearest known names
 * (suggest.h) when it matches none: flags, chips, models, themes, engines,
 * sweep kinds; a prefix of two flags is ambiguous and lists them. */
static void test_did_you_mean(void **state)
{
    (void)state;
    assert_usage_line(RUN("--report", "--chps", "3"),
                      "unknown option '--chps'; did you mean --chips? (rooftop --help lists them)");
    assert_usage_line(RUN("--report", "--kvheads=4"),
                      "unknown option '--kvheads=4'; did you mean --kv-heads? (rooftop --help lists them)");
    assert_usage_line(RUN("--report", "--zzz"), "unknown option '--zzz' (rooftop --help lists them)");
    assert_usage_line(RUN("--report", "--pre", "8"),
                      "ambiguous option '--pre' (it begins --precision, --prefill-tokens, --present, --prefill-tp, --prefill-dp, --prefill-moe-ep, --prefix-cache) (rooftop --help lists them)");
    assert_usage_line(RUN("--report", "--chip", "h10"),
                      "--chip 'h10': unknown chip; did you mean h100, h20, h200, h800? rooftop --list-chips shows "
                      "the 27 known");
    assert_usage_line(RUN("--report", "--chip", "zzz"), "--chip 'zzz': unknown chip; rooftop --list-chips shows the 27 known");
    assert_usage_line(RUN("--report", "--model", "lama-3.1-8b"),
                      "--model 'lama-3.1-8b': unknown model; did you mean llama-3.1-8b? rooftop --list-models shows "
                      "the 8 built in, or give a config.json");
    assert_usage_line(RUN("--report", "--engine", "vlm"),
                      "--engine 'vlm': unknown engine; did you mean vllm? give vllm, trtllm, sglang, lmdeploy, "
                      "llama.cpp, nim, pytorch, generic, or an engine JSON file");
    assert_usage_line(RUN("--report", "--spec-tokens", "2", "--spec-accept", "0.5", "--spec-draft", "llama-3.1-7b"),
                      "--spec-draft 'llama-3.1-7b'; did you mean llama-3.1-70b, llama-3.1-8b? give a built-in model "
                      "(rooftop --list-models), a config.json, or the draft's parameter count (e.g. 1B)");
    assert_usage_line(RUN("--sweep=chip"), "--sweep 'chip': unknown sweep; did you mean chips? give chips, params, "
                                           "batch or kv-heads");
    /* How many themes are known depends on where the binary runs from. */
    assert_usage_error(RUN("--report", "--theme", "drak"), "--theme 'drak': unknown theme; did you mean dark? rooftop");
}

/* --kv-heads that do not divide the heads lists the ones that do. */
static void test_kv_heads_lists_the_divisors(void **state)
{
    (void)state;
    assert_usage_line(RUN("--report", "--kv-heads", "7"), "--kv-heads 7: kv heads must divide 64 heads: 1, 2, 4, 8, 16, "
                                                          "32, 64");
    assert_usage_line(RUN("--report", "--heads", "48", "--kv-heads", "7"),
                      "--kv-heads 7: kv heads must divide 48 heads: 1, 2, 3, 4, 6, 8, 12, 16, 24, 48");
    assert_usage_line(RUN("--report", "--heads", "60"),
                      "--heads 60: model guide-70b: kv_heads must divide heads (60): 8 does not; give 1, 2, 3, 4, 5, "
                      "6, 10, 12, 15, 20, 30, 60");
}

/* A prompt longer than the context: analyze() sizes the KV cache and the
 * decode's reads for the context and prefills the whole prompt; the text
 * and JSON reports say so in their notes, and only then. */
static void test_prompt_longer_than_the_context(void **state)
{
    (void)state;
    const char *note = "The prompt (8192 tokens) is longer than the context (4096 tokens): the KV cache, the requests "
                       "that fit and each decode step's KV read are sized for the 4096-token context, while prefill "
                       "computes over all 8192 prompt tokens; memory and decode time are under-counted for this "
                       "prompt (a server would cut or refuse it). Give a context of at least the prompt.";
    struct run r = RUN("--report", "--context", "4096");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, note));
    run_free(&r);
    r = RUN("--report=json", "--context", "4096");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    const cJSON *notes = json_path(root, "notes"), *n;
    int found = 0;
    cJSON_ArrayForEach(n, notes) found += cJSON_IsString(n) && strcmp(n->valuestring, note) == 0;
    assert_int_equal(found, 1);
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--context", "8192");
    assert_null(strstr(r.out, "longer than the context"));
    run_free(&r);
}

/* The model's name in --report=json for --model path. */
static void assert_model_name(const char *path, const char *want)
{
    struct run r = RUN("--report=json", "--model", path);
    if (r.status != 0)
        fail_msg("--model %s: exit %d: %s", path, r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    const cJSON *name = json_path(root, "model.name");
    if (!cJSON_IsString(name) || strcmp(name->valuestring, want) != 0)
        fail_msg("--model %s is named '%s', want '%s'", path, cJSON_IsString(name) ? name->valuestring : "?", want);
    cJSON_Delete(root);
    run_free(&r);
}

/* Hostile files: a fifo anywhere rooftop reads is refused at once, naming
 * it (opening one waits for a writer forever); one in the user's chips
 * folder is skipped with a warning, and --help and --version read no user
 * folder at all. */
static void test_fifos_are_never_waited_on(void **state)
{
    (void)state;
    alarm(20); /* a fifo waited on fails the test instead of hanging it */
    char dir[] = "/tmp/rooftop-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char chips[300], fifo[400], model_dir[400], model_fifo[500], want[700];
    snprintf(chips, sizeof chips, "%s/rooftop", dir);
    assert_int_equal(mkdir(chips, 0755), 0);
    snprintf(chips, sizeof chips, "%s/rooftop/chips", dir);
    assert_int_equal(mkdir(chips, 0755), 0);
    snprintf(fifo, sizeof fifo, "%s/pipe.json", chips);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    setenv("XDG_CONFIG_HOME", dir, 1);
    struct run r = RUN("--version");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "rooftop " ROOFTOP_VERSION "\n");
    assert_string_equal(r.err, ""); /* the folder was not even looked at */
    run_free(&r);
    r = RUN("--help");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    run_free(&r);
    r = RUN("--list-chips");
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "rooftop: warning: %s: not a regular file (a fifo) (file skipped)\n", fifo);
    assert_string_equal(r.err, want);
    run_free(&r);
    setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test-config", 1);

    /* The same fifo given to each flag that reads a file. */
    snprintf(want, sizeof want, "%s: not a regular file (a fifo)", fifo);
    const char *flags[] = {"--model", "--chip", "--scenario", "--theme", "--engine", "--points", "--spec-draft"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        assert_usage_line(RUN("--report", "--spec-tokens", "2", "--spec-accept", "0.5", flags[i], fifo), want);
    r = RUN("--calibrate", fifo);
    assert_int_not_equal(r.status, 0);
    snprintf(want, sizeof want, "rooftop: %s: not a regular file (a fifo)\n", fifo);
    assert_string_equal(r.err, want);
    run_free(&r);
    /* A model folder whose config.json is a fifo. */
    snprintf(model_dir, sizeof model_dir, "%s/model", dir);
    assert_int_equal(mkdir(model_dir, 0755), 0);
    snprintf(model_fifo, sizeof model_fifo, "%s/config.json", model_dir);
    assert_int_equal(mkfifo(model_fifo, 0600), 0);
    snprintf(want, sizeof want, "%s: not a regular file (a fifo)", model_fifo);
    assert_usage_line(RUN("--report", "--model", model_dir), want);
    unlink(model_fifo);
    rmdir(model_dir);
    unlink(fifo);
    rmdir(chips);
    snprintf(chips, sizeof chips, "%s/rooftop", dir);
    rmdir(chips);
    rmdir(dir);
    alarm(0);
}

/* A path too long for rooftop's buffers is refused naming the flag, never
 * cut short: a model folder whose path leaves no room for "/config.json"
 * must not load the file "conf" that the shortened path would name. */
static void test_too_long_paths(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char deep[4096], conf[4200], want[200];
    size_t n = (size_t)snprintf(deep, sizeof deep, "%s", dir);
    while (n + 201 < 4090) { /* components of 200 bytes, to 4090 bytes in all */
        deep[n++] = '/';
        memset(deep + n, 'd', 199);
        n += 199;
        deep[n] = '\0';
        assert_int_equal(mkdir(deep, 0755), 0);
    }
    deep[n++] = '/';
    memset(deep + n, 'm', 4090 - n);
    n = 4090;
    deep[n] = '\0';
    assert_int_equal(mkdir(deep, 0755), 0);
    snprintf(conf, sizeof conf, "%s/conf", deep); /* 4095 bytes: what "/config.json" was cut to */
    assert_int_equal(strlen(conf), 4095);
    char *text;
    size_t len;
    char err[600];
    assert_int_equal(read_file("tests/fixtures/measured/configs/gpt-j-6b.json", &text, &len, err, sizeof err), 0);
    put_file(conf, text);
    free(text);
    assert_usage_line(RUN("--report", "--model", deep),
                      "--model: the path is too long (4102 bytes with /config.json; at most 4095)");
    assert_usage_line(RUN("--report", "--spec-tokens", "2", "--spec-accept", "0.5", "--spec-draft", deep),
                      "--spec-draft: the path is too long (4102 bytes with /config.json; at most 4095)");
    /* A file path beyond any buffer, and a save path beyond the explorer's. */
    char longer[5001];
    memset(longer, 'x', 5000);
    longer[0] = '/';
    longer[5000] = '\0';
    snprintf(want, sizeof want, "--model: the path is too long (5000 bytes; at most 4095)");
    assert_usage_line(RUN("--report", "--model", longer), want);
    longer[4000] = '\0';
    snprintf(want, sizeof want, "--write-scenario: the path is too long (4000 bytes; at most 1023)");
    assert_usage_line(RUN("--report", "--write-scenario", longer), want);
    /* The user's chips folder: a file whose path does not fit is skipped
     * with a warning; a folder whose own path does not fit is not read. */
    char xdg[4096], chips[4200], name[260], here[PATH_MAX];
    snprintf(xdg, sizeof xdg, "%.*s", (int)(strrchr(deep, '/') - deep), deep); /* 4023 bytes */
    snprintf(chips, sizeof chips, "%s/rooftop", xdg);
    assert_int_equal(mkdir(chips, 0755), 0);
    snprintf(chips, sizeof chips, "%s/rooftop/chips", xdg);
    assert_int_equal(mkdir(chips, 0755), 0);
    memset(name, 'c', 250);
    snprintf(name + 250, sizeof name - 250, ".json");
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(chips), 0);
    put_file(name, "{}\n"); /* its whole path, 4293 bytes, is too long to open */
    assert_int_equal(chdir(here), 0);
    setenv("XDG_CONFIG_HOME", xdg, 1);
    struct run r = RUN("--list-chips");
    char line[600];
    snprintf(line, sizeof line, "rooftop: warning: %.100s.../%.60s: path longer than 4095 bytes (file skipped)\n",
             chips, name);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, line);
    run_free(&r);
    setenv("XDG_CONFIG_HOME", deep, 1); /* deep/rooftop/chips: 4104 bytes */
    r = RUN("--list-chips");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "rooftop: warning: the user's chips folder is not read: its path (from "
                               "XDG_CONFIG_HOME) is longer than 4095 bytes\n");
    run_free(&r);
    setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test-config", 1);
    unlink(conf);
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* An empty path names the flag, not an empty file name. */
static void test_empty_paths_name_the_flag(void **state)
{
    (void)state;
    assert_usage_line(RUN("--report", "--scenario", ""), "--scenario: no file named (the path is empty)");
    assert_usage_line(RUN("--report", "--points", ""), "--points: no file named (the path is empty)");
    assert_usage_line(RUN("--calibrate", ""), "--calibrate: no file named (the path is empty)");
    assert_usage_line(RUN("--calibrate", "tests/fixtures/measured/cases.csv", "--write-chip", ""),
                      "--write-chip: no file named (the path is empty)");
    assert_usage_line(RUN("--report", "--write-scenario", ""), "--write-scenario: no file named (the path is empty)");
}

/* A model's name comes from its file or folder, whichever way the path is
 * spelled: never "." or "conf". */
static void test_model_names_from_paths(void **state)
{
    (void)state;
    const char *folder = "tests/fixtures/hf/mixtral-8x7b-v0.1";
    assert_model_name("tests/fixtures/hf/mixtral-8x7b-v0.1/", "mixtral-8x7b-v0.1");
    assert_model_name("tests/fixtures/hf/mixtral-8x7b-v0.1/.", "mixtral-8x7b-v0.1");
    assert_model_name("tests/fixtures/hf/mixtral-8x7b-v0.1/./", "mixtral-8x7b-v0.1");
    assert_model_name("tests/fixtures/hf/mixtral-8x7b-v0.1/config.json", "mixtral-8x7b-v0.1");
    assert_model_name("./tests/fixtures/measured/configs/gpt-j-6b.json", "gpt-j-6b");
    char here[PATH_MAX];
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(folder), 0);
    assert_model_name(".", "mixtral-8x7b-v0.1");
    assert_model_name("./", "mixtral-8x7b-v0.1");
    assert_model_name("./config.json", "mixtral-8x7b-v0.1");
    assert_model_name("config.json", "mixtral-8x7b-v0.1");
    assert_model_name("../mixtral-8x7b-v0.1/.", "mixtral-8x7b-v0.1");
    assert_int_equal(chdir("../../measured/configs"), 0);
    assert_model_name("./gpt-j-6b.json", "gpt-j-6b");
    assert_int_equal(chdir(here), 0);
}

/* --diff of two saved scenarios (tests/fixtures/scenarios): the head and the
 * inputs exactly, figures as lines of their own; --baseline FILE with flags;
 * the usage errors. */
static void test_diff_of_two_saved_scenarios(void **state)
{
    (void)state;
    const char *a = "tests/fixtures/scenarios/review-a.json", *b = "tests/fixtures/scenarios/review-b.json";
    struct run r = RUN("--diff", a, b);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    const char *want_inputs = "\n\nInputs that differ\n"
                              "  batch: 1 -> 8  (+7, +700.0%)\n"
                              "  budget_s: 1.000 s -> 2.000 s  (+1.000 s, +100.0%)\n"
                              "\nFigures that differ\n"
                              "  latency.estimates_disagree: false -> true\n";
    assert_int_equal(strncmp(r.out, "rooftop diff: A tests/fixtures/scenarios/review-a.json, B "
                                    "tests/fixtures/scenarios/review-b.json; 2 inputs and ", 106), 0);
    assert_non_null(strstr(r.out, want_inputs));
    /* the realistic figures move with the fits: pinned by the golden frames, here only their direction (eight
     * times the batch: a slower turn) */
    const char *total = strstr(r.out, "\n  latency.total_s: ");
    assert_non_null(total);
    const char *eol = strchr(total + 1, '\n'), *up = strstr(total, "  (+");
    assert_true(up && eol && up < eol);
    assert_non_null(strstr(r.out, "\n  latency.budget_s: 1.000 s -> 2.000 s  (+1.000 s, +100.0%)\n"));
    assert_null(strstr(r.out, "workload.")); /* the report's echo of the inputs is not a figure */
    run_free(&r);

    r = RUN("--diff", a, b, "--format=json");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_non_null(root);
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(root, "inputs");
    assert_int_equal(cJSON_GetArraySize(in), 2);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(in, 1), "key")->valuestring, "budget_s");
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "figures")) > 10);
    cJSON_Delete(root);
    run_free(&r);

    /* --baseline FILE: FILE against the flags' scenario, the same figures. */
    r = RUN("--baseline", a, "--batch", "8", "--budget", "2", "--format", "markdown");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "A: `tests/fixtures/scenarios/review-a.json`, B: `the flags`; 2 inputs and "));
    assert_non_null(strstr(r.out, "| batch | 1 | 8 | +7 (+700.0%) |\n| budget_s | 1.000 s | 2.000 s | +1.000 s (+100.0%) |\n"));
    run_free(&r);

    /* Without a terminal the explorer would fall back to text: with a
     * baseline pinned, that text is the diff. */
    r = RUN("--baseline", a, "--batch", "8", "--budget", "2");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "B the flags; 2 inputs and "));
    assert_non_null(strstr(r.out, "\n  batch: 1 -> 8  (+7, +700.0%)\n"));
    run_free(&r);
    /* The flags start from the baseline: B is review-b at batch 16, one
     * input apart, not the default scenario at batch 16. */
    r = RUN("--baseline", b, "--batch", "16", "--format=text");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "; 1 input and "));
    assert_non_null(strstr(r.out, "\nInputs that differ\n  batch: 8 -> 16  (+8, +100.0%)\n\nFigures"));
    run_free(&r);
    assert_usage_error(RUN("--baseline", a, "--report"), "--baseline goes with the explorer, or with --format");
    assert_usage_error(RUN("--baseline", a, "--sweep=batch"), "--baseline goes with the explorer");
    assert_usage_error(RUN("--baseline", a, "--diff", a, b), "give one of them");

    /* The same file twice: nothing differs. */
    r = RUN("--diff", a, a);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 inputs and 0 figures differ"));
    run_free(&r);

    assert_usage_error(RUN("--diff", a), "needs a second scenario file");
    assert_usage_error(RUN("--diff", a, b, "--batch", "4"), "drop --batch");
    assert_usage_error(RUN("--diff", a, b, "--format=csv"), "give text, markdown or json");
    assert_usage_error(RUN("--diff", a, b, "--report"), "choose one of");
    assert_usage_error(RUN("--diff", "tests/fixtures/no-such.json", b), "--diff: ");
}

/* An explorer's flag given to a mode that prints does nothing there: a
 * warning says so, once, and the output is the same as without it. */
static void test_explorer_flags_in_reports_are_named(void **state)
{
    (void)state;
    struct run plain = RUN("--report");
    struct run r = RUN("--report", "--theme", "projector", "--ascii");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, plain.out);
    assert_string_equal(r.err, "rooftop: warning: --theme is for the explorer; --report ignores it\n");
    run_free(&r);
    r = RUN("--sweep=chips", "--present");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "rooftop: warning: --present is for the explorer; --sweep ignores it\n");
    run_free(&r);
    /* Without a terminal the explorer falls back to the text report. */
    r = RUN("--background", "light");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, plain.out);
    assert_non_null(strstr(r.err, "--background is for the explorer; the text report printed without a terminal"));
    run_free(&r);
    /* The man page's promise: without a terminal, one line on stderr says why, and --report is
     * how a script asks for the report without it. */
    /* Standard input and output on /dev/null, whatever ran the tests: never a terminal here. */
    fflush(stdout);
    int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO), null_fd = open("/dev/null", O_RDWR);
    assert_true(saved_in >= 0 && saved_out >= 0 && null_fd >= 0);
    dup2(null_fd, STDIN_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    r = run_argv((const char *const[]){NULL});
    dup2(saved_in, STDIN_FILENO);
    dup2(saved_out, STDOUT_FILENO);
    close(saved_in), close(saved_out), close(null_fd);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, plain.out);
    assert_string_equal(r.err, "rooftop: note: standard input and output are not a terminal, so the explorer "
                               "cannot open; printing the text report (--report asks for it without this line)\n");
    run_free(&r);
    r = RUN("--list-themes", "--theme", "projector"); /* themes are what it lists */
    assert_string_equal(r.err, "");
    run_free(&r);
    run_free(&plain);
}

/* The serving section's words (issue 21, item 15): the turn's prefill is never called a time to
 * first token (that is one served request's wait and prefill); chips_total counts a disaggregated
 * prefill pool, which the per-chip throughput divides by; the requests that fit after the
 * workspace are a replica's, each expert-parallel rank holding its own; the engine's token budget
 * is not a bare "budget" beside the serving verdict. */
static void test_serving_words_mean_one_thing(void **state)
{
    (void)state;
    struct run r = RUN("--report");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "time to first token"));
    assert_non_null(strstr(r.out, "   (one prompt alone; a served request's TTFT: Serving)\n"));
    assert_non_null(strstr(r.out, "  realistic: ±65% prefill, ±65% a decode step, ±"));
    assert_non_null(strstr(r.out, " tokens a step (the engine's token budget)"));
    assert_null(strstr(r.out, "; budget "));
    run_free(&r);
    r = RUN("--report=markdown", "--batch", "8");
    assert_non_null(strstr(r.out, "| prefill (every prompt at once) |"));
    assert_null(strstr(r.out, "TTFT) |"));
    run_free(&r);

    /* 2 replicas of tp 8 and a shared prefill pool of 8: 24 chips, and per chip is per those 24. */
    r = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "8", "--disagg",
            "8:8", "--dp", "2");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_int_equal((int)json_at(root, "parallel.chips_total"), 24);
    double rate = json_at(root, "serving.requests_per_s") * 2.0 * 128.0; /* a replica's, 128 tokens each */
    ASSERT_NEAR(json_at(root, "serving.tokens_per_s_per_chip"), rate / 24.0, 1e-9 * rate);
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "8", "--disagg", "8:8",
            "--dp", "2");
    assert_non_null(strstr(r.out, "= 8 chips a replica, 2 replicas; prefill on its own 8 chips; 24 chips in all\n"));
    run_free(&r);

    /* Mixtral on 8 H100s as ep 8: each rank holds its own requests' KV. The rank's free HBM after
     * 14.5 GB of weights and a 1.17 GB workspace, over 1.07 GB a request, holds 59; the replica 472. */
    r = RUN("--report=json", "--chip", "h100", "--model", "mixtral-8x7b", "--tp", "1", "--ep", "8", "--batch", "64");
    root = cJSON_Parse(r.out);
    assert_int_equal((int)json_at(root, "memory.per_chip.max_concurrent_requests"), 59);
    assert_int_equal((int)json_at(root, "memory.max_concurrent_requests_after_workspace"), 472);
    double room = 80e9 - json_at(root, "memory.per_chip.weights_bytes") - json_at(root, "memory.per_chip.activation_bytes");
    assert_int_equal(59, (int)floor(room / json_at(root, "memory.per_chip.kv_cache_bytes_per_request")));
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--model", "mixtral-8x7b", "--tp", "1", "--ep", "8", "--batch", "64");
    assert_non_null(strstr(r.out, "472 requests fit a replica after the activation workspace (59 on each of its 8 "
                                  "expert-parallel ranks)"));
    assert_non_null(strstr(r.out, "concurrent requests that fit at 8192 tokens: 488 a replica\n"));
    run_free(&r);
}

/* A measured figure over 100% is never bare (issue 21 item 4's kind): a training rate PaLM's count
 * puts over 100% gives the causal count first; one over 100% even counted causally, a prefill
 * MFU (counted causally already) or an MBU over 100% is called a measurement no chip could make. */
static void test_measured_over_peak_is_named(void **state)
{
    (void)state;
    struct run r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-8b", "--tp", "8", "--dp", "16", "--batch",
                       "8", "--measured-train-tokens-per-s", "5e6");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  measured: 5.00M tokens/s on 128 chips -> MFU 241.1%, HFU 241.1% (215.7% counted "
                                  "causally): over 100%, and no chip runs above its peak, so the rate, the chip count "
                                  "or the peak is off\n"));
    assert_null(strstr(r.out, "compare the figures with other PaLM MFUs")); /* no overcount explains it */
    assert_non_null(strstr(r.out, "implies MFU above 100% even counted causally (216%)"));
    run_free(&r);
    /* At a 128k context PaLM's whole-context attention is most of the count: 120.5% PaLM is 71.7% causal. */
    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-8b", "--tp", "8", "--dp", "16", "--batch", "8",
            "--context", "128k", "--measured-train-tokens-per-s", "6e5");
    assert_non_null(strstr(r.out, "-> MFU 71.7% causal, HFU 71.7% causal (PaLM counts 120.5%, 120.5%: non-causal "
                                  "attention)\n"));
    assert_null(strstr(r.out, "implies MFU above 100% even counted causally"));
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-8b", "--batch", "1", "--measured-ttft-s", "0.05",
            "--measured-tpot-s", "0.001");
    assert_non_null(strstr(r.out, "measured prefill: TTFT 50.0 ms -> MFU 301.5%: over 100%, and no chip runs above its "
                                  "peak, so the measurement or the chip's figures are off\n"));
    assert_non_null(strstr(r.out, "measured decode: TPOT 1.0 ms -> MBU "));
    assert_non_null(strstr(strstr(r.out, "measured decode: TPOT"), ": over 100%, and no chip runs above its peak"));
    run_free(&r);
    /* Step times that give the matmuls the whole step leave full recompute (4/3 the FLOPs) no time:
     * HFU 133.3%, said to be that, not PaLM's attention count. */
    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--step-times", "0.1,0,0,0,0",
            "--recompute", "full");
    assert_non_null(strstr(r.out, "HFU                 133.3% (recompute factor 1.33)  above 100%: the step times leave "
                                  "recompute no time"));
    assert_non_null(strstr(r.out, "HFU above 100%: the step times give the matmuls 100.0% of the step, and full "
                                  "recompute redoes 1.33x their FLOPs"));
    assert_null(strstr(r.out, "PaLM counts non-causal attention"));
    run_free(&r);
    r = RUN("--report=markdown", "--chip", "h100", "--model", "llama-3.1-8b", "--batch", "1", "--measured-ttft-s",
            "0.05");
    assert_non_null(strstr(r.out, "Measured prefill MFU: **301.5%**: over 100%, and no chip runs above its peak"));
    run_free(&r);
}

/* What the README and the man page promise, as a newcomer auditing them found it broken (issue 21,
 * item 14's kind): chip.sm_count in the report; a scenario file cannot hold --op, so the pair is
 * refused, not saved without it; a bad --format names only the formats the mode prints; an empty
 * name-or-path is named; a run's totals with no MFU to time them say so (JSON null) rather than use
 * the MFU the same report says does not exist; a profile's summaries are notes, not warnings. */
static void test_doc_promises_hold(void **state)
{
    (void)state;
    struct run r = RUN("--report=json", "--chip", "h100");
    cJSON *root = cJSON_Parse(r.out);
    assert_int_equal((int)json_at(root, "chip.sm_count"), 132); /* Hopper whitepaper: 132 SMs on H100 SXM5 */
    cJSON_Delete(root);
    run_free(&r);
    assert_usage_line(RUN("--write-scenario", "/tmp/rooftop-never-written.json", "--op", "gemm:m=1", "--chip", "h100"),
                      "--op and --write-scenario: a scenario file saves a model's scenario, not one operation; give "
                      "the --op flags again instead");
    assert_int_equal(access("/tmp/rooftop-never-written.json", F_OK), -1);
    assert_usage_line(RUN("--diff", "tests/fixtures/scenarios/review-a.json", "tests/fixtures/scenarios/review-b.json",
                          "--format=xml"),
                      "--format 'xml': give text, markdown or json");
    assert_usage_line(RUN("--list-chips", "--format=xml"), "--format 'xml': give text or json");
    r = RUN("--report", "--chip", "h100", "--peak-flops", "990e12", "--hbm-bw", "3.3e12");
    assert_non_null(strstr(r.out, "This scenario overrides the h100's peak, HBM bandwidth: its datasheet values are not used"));
    run_free(&r);
    assert_usage_line(RUN("--report", "--model", ""), "--model: no name or file given (the value is empty)");
    assert_usage_line(RUN("--report", "--chip", ""), "--chip: no name or file given (the value is empty)");
    assert_usage_line(RUN("--report", "--engine", ""), "--engine: no name or file given (the value is empty)");
    assert_usage_line(RUN("--report", "--spec-draft", ""), "--spec-draft: no name or file given (the value is empty)");

    /* 70B's Adam state (141 GB a chip over 8) does not fit an H100: no MFU, so no chip-hours at it. */
    r = RUN("--report", "--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--train-tokens", "1T");
    assert_non_null(strstr(r.out, "    no chip-hours: the step cannot run here, so it has no MFU; give --train-mfu\n"));
    assert_null(strstr(r.out, "(the step's):"));
    run_free(&r);
    r = RUN("--report=json", "--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--train-tokens", "1T");
    root = cJSON_Parse(r.out);
    assert_true(cJSON_IsNull(json_path(root, "training.totals_mfu")));
    assert_true(cJSON_IsNull(json_path(root, "training.chip_hours")));
    ASSERT_NEAR(json_at(root, "training.total_flops"), 1e12 * json_at(root, "training.model_flops_per_token"), 1e9);
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--train-tokens", "1T",
            "--train-mfu", "0.4");
    assert_non_null(strstr(r.out, "    at MFU 40.0% (--train-mfu): "));
    run_free(&r);

    r = RUN("--report", "--chip", "h100", "--points", "tests/fixtures/profiles/kineto/h100_qwen1.5-0.5b_bf16_prefill.json.gz");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "rooftop: note: tests/fixtures/profiles/kineto/h100_qwen1.5-0.5b_bf16_prefill.json.gz: "
                                  "from shapes: GEMMs 2MKN FLOPs"));
    assert_non_null(strstr(r.err, "rooftop: note: tests/fixtures/profiles/kineto/h100_qwen1.5-0.5b_bf16_prefill.json.gz: "
                                  "1 ProfilerStep span on the GPU"));
    assert_null(strstr(r.err, "warning: note:"));
    assert_non_null(strstr(r.err, "rooftop: warning: ")); /* what was left off stays a warning */
    run_free(&r);
}

/* A planner's findings (issue 21 review): the same design's work reads the same whatever its
 * layout; the floor-minus-napkin terms under --ep put nothing on the MFU factor at --mfu 1; the
 * search says every reason whole; the report's first line counts every chip of the design. */
static void test_layouts_count_the_same_work(void **state)
{
    (void)state;
    /* DeepSeek-V3 on 8 H200s at fp8: tp 8 and ep 8 prefill the same 32 prompts. ep's phases are one
     * rank's (4 prompts on one chip): x 8 is the batch's, 24.08 PFLOP either way. */
    double flops[2], bytes[2];
    const char *layouts[2][2] = {{"--tp", "8"}, {"--ep", "8"}};
    for (int i = 0; i < 2; i++) {
        struct run r = RUN("--report=json", "--chip", "h200", "--model", "deepseek-v3", layouts[i][0], layouts[i][1],
                           "--batch", "32", "--precision", "fp8");
        cJSON *root = cJSON_Parse(r.out);
        flops[i] = json_at(root, "latency.prefill_flops");
        bytes[i] = json_at(root, "latency.decode_bytes");
        cJSON_Delete(root);
        run_free(&r);
    }
    ASSERT_NEAR(flops[1], flops[0], 1e-9 * flops[0]);
    ASSERT_NEAR(bytes[1], bytes[0], 0.05 * bytes[0]); /* tp 8 copies the latent past its 1 head; ep 8 does not */
    /* Llama 3.1 70B, tp 4 x pp 2 decodes 32 sequences as 2 micro-batches, each reading every stage's
     * weights: one more pass's weights a step than tp 8's one pass, x 128 steps (a pass reads a
     * little less than the 70.6 GB stored: the embedding table is a gather of its rows). */
    struct run r = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "32",
                       "--precision", "fp8");
    cJSON *root = cJSON_Parse(r.out);
    double tp8 = json_at(root, "latency.decode_bytes"), weights = json_at(root, "memory.weights_bytes");
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "4", "--pp", "2", "--batch", "32",
            "--precision", "fp8");
    root = cJSON_Parse(r.out);
    double pp2 = json_at(root, "latency.decode_bytes");
    cJSON_Delete(root);
    run_free(&r);
    assert_true(pp2 - tp8 > 0.9 * 128.0 * weights && pp2 - tp8 < 128.0 * weights);

    r = RUN("--report", "--chip", "h200", "--model", "deepseek-v3", "--ep", "8", "--batch", "32", "--precision", "fp8");
    assert_non_null(strstr(r.out, "             0 s  the napkin's achieved-MFU factor\n"));
    assert_non_null(strstr(r.out, "  expert all-to-alls\n")); /* tp 1: no all-reduce */
    assert_null(strstr(r.out, " ns  layout")); /* rounding noise is 0 s, not +0.0 ns */
    run_free(&r);

    r = RUN("--search", "--chip", "h100", "--model", "llama-3.1-70b", "--ttft-target", "1", "--tpot-target", "0.05",
            "--format=json");
    root = cJSON_Parse(r.out);
    const cJSON *c, *cands = cJSON_GetObjectItemCaseSensitive(root, "candidates");
    int both = 0;
    cJSON_ArrayForEach(c, cands)
    {
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(c, "rejected_because");
        if (!cJSON_IsString(why))
            continue;
        assert_null(strstr(why->valuestring, "..."));
        both += strstr(why->valuestring, "prefill pool") && strstr(why->valuestring, "TTFT ");
    }
    assert_true(both > 0); /* the pool's reason and the TTFT's, side by side */
    cJSON_Delete(root);
    run_free(&r);

    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "16", "--precision",
            "fp8", "--disagg", "32:8");
    assert_int_equal(strncmp(r.out, "rooftop: llama-3.1-70b (70.6B params, shape) on 8 x NVIDIA H100 SXM5 80GB a replica "
                                    "(40 chips in all), fp8 weights",
                             110),
                     0);
    run_free(&r);
    /* A MISS with the targets missed too still names the weights not fitting (70B bf16 on one H100). */
    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-70b", "--ttft-target", "1", "--tpot-target", "0.05");
    assert_non_null(strstr(r.out, "\nVerdict      MISS (weights do not fit): the serving targets (see Serving); "));
    run_free(&r);
    /* The steady TTFT, part by part: the step in flight, the wait, its own prefill add up to it. */
    const char *serve_layouts[3][4] = {{"--batch", "16", "--tp", "8"}, {"--arrival-rate", "2.5", "--tp", "8"},
                                       {"--batch", "16", "--disagg", "8:8"}};
    for (int i = 0; i < 3; i++) {
        r = RUN("--report=json", "--chip", "h100", "--model", "llama-3.1-70b", "--precision", "fp8",
                serve_layouts[i][0], serve_layouts[i][1], serve_layouts[i][2], serve_layouts[i][3]);
        root = cJSON_Parse(r.out);
        double sum = json_at(root, "serving.frontend_s") + json_at(root, "serving.in_flight_s") +
                     json_at(root, "serving.queue_wait_s") + json_at(root, "serving.own_prefill_s");
        assert_true(json_at(root, "serving.frontend_s") > 0.0); /* the engine's (vLLM's, generic's) frontend */
        ASSERT_NEAR(sum, json_at(root, "serving.ttft_s"), 1e-12 * sum);
        cJSON_Delete(root);
        run_free(&r);
    }
    /* A one-token answer has no loop to split its TTFT into: no parts line that would not add up. */
    r = RUN("--report", "--chip", "b200", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "1", "--context", "1k",
            "--prefill-tokens", "16", "--decode-tokens", "1");
    assert_null(strstr(r.out, "TTFT's parts"));
    assert_null(strstr(r.out, "waits 0.000 s"));
    run_free(&r);
    /* The pool's row is the same words in markdown as in text. */
    r = RUN("--report=markdown", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--batch", "16",
            "--disagg", "32:8");
    assert_non_null(strstr(r.out, "| prefill pool | 32 chips as 4 workers of tp 8 x dp 1, load "));
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--model", "llama-3.1-70b", "--tp", "8", "--arrival-rate", "20");
    const char *nl = strchr(r.out, '\n');
    assert_non_null(strstr(r.out, ", 20 requests/s arriving"));
    assert_true(strstr(r.out, ", 20 requests/s arriving") < nl);
    run_free(&r);
}

/* Latent attention is not GQA: DeepSeek-V3 caches a 512 + 64 = 576-wide
 * latent per token and layer against MHA's 128 heads x (192 + 128), so
 * 40960 / 576 = 71.1x; and a mixture of experts' decode row, which counts
 * the experts a step reads, is named beside the guide's count. */
static void test_latent_attention_and_moe_shape_lines(void **state)
{
    (void)state;
    struct run r = RUN("--model", "deepseek-v3", "--chip", "h100", "--batch", "1024", "--report");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n  latent KV saving        71.1x (MLA: a 576-wide latent per token and layer, "
                                  "against 128 heads of K and V)\n"));
    assert_null(strstr(r.out, "GQA saving"));
    assert_non_null(strstr(r.out, "the decode row counts the floor step's FLOPs and the bytes of the experts it reads: "));
    run_free(&r);
    r = RUN("--model", "deepseek-v3", "--report=json");
    cJSON *root = cJSON_Parse(r.out);
    ASSERT_NEAR(json_path(root, "kv_saving")->valuedouble, 40960.0 / 576.0, 1e-12);
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report");
    assert_non_null(strstr(r.out, "\n  GQA saving              8.0x (64 heads / 8 kv heads)\n"));
    assert_null(strstr(r.out, "the decode row counts")); /* dense: one count */
    run_free(&r);
}

/* The text report writes large figures in the screen's one number style,
 * never an exponent: 15T tokens at the step's MFU on 8 H100s are millions of
 * chip-hours ("3.04M"), thousands of days; a million-second time is "M s";
 * a training rate of 162 thousand tokens per kWh is "162k". Training FLOPs
 * keep the papers' exponent form (3.8e25). */
static void test_report_numbers_without_exponents(void **state)
{
    (void)state;
    struct run r = RUN("--chip", "h100", "--chips", "8", "--model", "llama-3.1-70b", "--batch", "64", "--pue", "1.2",
                       "--train-tokens", "15T", "--train-mfu", "0.4", "--report");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " tokens per kWh (700 W per chip x PUE 1.20"));
    assert_non_null(strstr(r.out, "k tokens per kWh"));
    assert_non_null(strstr(r.out, "  training run: 15.0T tokens x "));
    assert_non_null(strstr(r.out, "M chip-hours, "));
    /* Line by line: an exponent only on a line about FLOPs. */
    for (const char *line = r.out; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char copy[1024];
        snprintf(copy, sizeof copy, "%.*s", (int)(n < sizeof copy - 1 ? n : sizeof copy - 1), line);
        if (strstr(copy, "e+") && !strstr(copy, "FLOP"))
            fail_msg("an exponent outside a FLOP count: %s", copy);
        line += n + (end ? 1 : 0);
    }
    run_free(&r);
    /* No targets: the serving line says so rather than 'OK' beside a turn that misses. */
    r = RUN("--chip", "h100", "--chips", "8", "--report");
    assert_non_null(strstr(r.out, "\n  serving verdict    fits; no targets set (--ttft-target, --tpot-target)\n"));
    run_free(&r);
    r = RUN("--chip", "h100", "--chips", "8", "--ttft-target", "1", "--batch", "2", "--report");
    assert_non_null(strstr(r.out, "\n  serving verdict    OK\n"));
    /* The target's '<=' sits beside the TTFT it judges, not the turn's longer prefill. */
    assert_non_null(strstr(r.out, " (a request's frontend, wait and its prefill) <= target 1.000 s\n"));
    run_free(&r);
    r = RUN("--batch", "1024", "--prefill-tokens", "1000000", "--context", "1000000", "--report");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "e+0 s"));
    assert_null(strstr(r.out, "e+06 s"));
    assert_null(strstr(r.out, "e+07 s"));
    assert_non_null(strstr(r.out, "M s"));
    run_free(&r);
}

/* The kv-heads sweep includes the model's own count where it is not the
 * guide's MHA, GQA-8 or MQA (Llama 3.1 8B: 32, 8, 4, 1), and says why MQA
 * stops helping on 8 chips: tensor parallelism copies the one KV head to
 * every chip (8x), so 186 requests fit as with 8 heads. */
static void test_kv_heads_sweep(void **state)
{
    (void)state;
    struct run r = RUN("--sweep=kv-heads", "--model", "llama-3.1-8b", "--format=csv");
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(r.out, "kv_heads,kv_cache_bytes,gqa_saving,max_concurrent_requests\n32,", 62), 0);
    assert_non_null(strstr(r.out, "\n8,1073741824,4,"));
    assert_non_null(strstr(r.out, "\n4,536870912,8,"));
    run_free(&r);
    r = RUN("--sweep=kv-heads", "--chip", "h100", "--chips", "8");
    assert_non_null(strstr(r.out, " 8 kv heads (group  8):     2.7 GB of KV cache     8.0x smaller  186 concurrent\n"));
    assert_non_null(strstr(r.out, "(MQA)  186 concurrent (KV copied 8x: tp 8 > kv heads)\n"));
    run_free(&r);
}

/* A name written as a path is the path: "./llama-3.1-8b" is that folder
 * (here a 16-layer config), never the built-in llama-3.1-8b it normalises
 * to; the bare name is the built-in one, with a warning that a folder of
 * that name is here too. */
static void test_a_path_is_never_a_builtin_name(void **state)
{
    (void)state;
    char dir[] = "/tmp/rooftop-names-XXXXXX", sub[300], cfg[320], cwd[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/llama-3.1-8b", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    char *text;
    size_t len;
    char err[300];
    assert_int_equal(read_file("tests/fixtures/hf/llama-3.1-8b/config.json", &text, &len, err, sizeof err), 0);
    cJSON *c = cJSON_Parse(text);
    free(text);
    assert_non_null(c);
    cJSON_ReplaceItemInObject(c, "num_hidden_layers", cJSON_CreateNumber(16));
    char *printed = cJSON_Print(c);
    cJSON_Delete(c);
    snprintf(cfg, sizeof cfg, "%s/config.json", sub);
    put_file(cfg, printed);
    free(printed);
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    struct run r = RUN("--model", "./llama-3.1-8b", "--report=json");
    struct run bare = RUN("--model", "llama-3.1-8b", "--report=json");
    assert_int_equal(chdir(cwd), 0);
    unlink(cfg);
    rmdir(sub);
    rmdir(dir);
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_int_equal(json_path(root, "model.layers")->valueint, 16);
    cJSON_Delete(root);
    root = cJSON_Parse(bare.out);
    assert_int_equal(json_path(root, "model.layers")->valueint, 32);
    cJSON_Delete(root);
    assert_string_equal(bare.err, "rooftop: warning: --model 'llama-3.1-8b' is the built-in llama-3.1-8b; a folder "
                                  "of that name is here too: write ./llama-3.1-8b to read it\n");
    run_free(&r);
    run_free(&bare);
}

/* The markdown diff of the two saved review scenarios against its golden
 * file, whole (tests/golden/diff_review.md; `make golden` rewrites it with
 * ROOFTOP_UPDATE_GOLDEN=1; review it with git diff). */
static void test_diff_golden(void **state)
{
    (void)state;
    struct run r = RUN("--diff", "tests/fixtures/scenarios/review-a.json", "tests/fixtures/scenarios/review-b.json",
                       "--format=markdown");
    assert_int_equal(r.status, 0);
    const char *path = "tests/golden/diff_review.md";
    char err[300];
    const char *update = getenv("ROOFTOP_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        assert_int_equal(write_file_atomic(path, r.out, strlen(r.out), err, sizeof err), 0);
        printf("wrote %s\n", path);
    } else {
        char *want;
        size_t len;
        if (read_file(path, &want, &len, err, sizeof err) != 0)
            fail_msg("no golden %s (%s): run `make golden` and review it", path, err);
        if (strcmp(want, r.out) != 0) {
            size_t i = 0;
            int line = 1;
            for (; want[i] && want[i] == r.out[i]; i++)
                line += want[i] == '\n';
            free(want);
            fail_msg("the diff differs from %s from line %d (`make golden` accepts it)", path, line);
        }
        free(want);
    }
    run_free(&r);
}

/* --report=markdown --plot: the report, then the roofline as text in a
 * fenced block with its axis labels; --plot with other modes refused. */
static void test_report_markdown_plot(void **state)
{
    (void)state;
    struct run plain = RUN("--report=markdown");
    struct run r = RUN("--report=markdown", "--plot");
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(r.out, plain.out, strlen(plain.out)), 0); /* the report first, unchanged */
    const char *pic = strstr(r.out, "\n## Roofline\n\n```text\nRoofline  FLOP/s (bf16) vs FLOP/byte");
    assert_non_null(pic);
    static const char *const labels[] = {"\n  1P+", "\n100T+", "\n 10T+", "\n  1T+", "\n100G+", "\n    0.1 ",
                                         " 1k ", " 10k\n```\n\nKey: o a phase", "ridge 241", "decode"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (!strstr(pic, labels[i]))
            fail_msg("the plot lacks '%s':\n%s", labels[i], pic);
    run_free(&plain);
    run_free(&r);
    r = RUN("--report", "--plot");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nRoofline  FLOP/s (bf16) vs FLOP/byte"));
    run_free(&r);
    assert_usage_error(RUN("--report=json", "--plot"), "--plot goes with --report=markdown");
    assert_usage_error(RUN("--sweep=chips", "--plot"), "--plot goes with");
}

/* The block formats and --act-precision on the command line: a bare fp4 is
 * refused naming both formats; W4A8 reports the fp8 peak, the act
 * precision asked for and the bytes an element takes (mxfp4 4.25 bits: OCP
 * MX v1.0); an act precision the chip lacks is one line naming what it has;
 * --list-chips shows the FP4 column and lists every precision in JSON. */
static void test_block_formats_and_act_precision(void **state)
{
    (void)state;
    assert_usage_line(RUN("--report", "--precision", "fp4"),
                      "--precision 'fp4': 'fp4' is two formats: give nvfp4 (NVIDIA's, an e4m3 scale per 16 elements, "
                      "4.5 bits) or mxfp4 (OCP MX, an e8m0 scale per 32, 4.25 bits)");
    assert_usage_line(RUN("--report", "--kv-precision", "fp6"),
                      "--kv-precision 'fp6': give bf16, fp8, fp8-block, int8, nvfp4, mxfp4 or int4");
    assert_usage_line(RUN("--report", "--act-precision", "int4"),
                      "--act-precision 'int4': int4 activations are not modelled (int4 runs weight-only, W4A16); give "
                      "auto, bf16, fp8, fp8-block, int8, nvfp4 or mxfp4");
    assert_usage_line(RUN("--report", "--chip", "h100", "--precision", "nvfp4", "--act-precision", "nvfp4"),
                      "--act-precision nvfp4: h100 has no native nvfp4 peak; its precisions are bf16, fp8, fp8-block, "
                      "int8 (or give --act-precision auto)");
    struct run r = RUN("--report=json", "--chip", "b200", "--precision", "mxfp4", "--act-precision", "fp8",
                       "--kv-precision", "fp8");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_string_equal(json_path(root, "chip.compute_precision")->valuestring, "fp8");
    assert_true(json_path(root, "chip.peak_flops_per_s")->valuedouble == 4500e12);
    assert_false(cJSON_IsTrue(json_path(root, "chip.weight_only_quantization")));
    assert_string_equal(json_path(root, "workload.precision")->valuestring, "mxfp4");
    assert_string_equal(json_path(root, "workload.act_precision")->valuestring, "fp8");
    assert_true(json_path(root, "workload.bytes_per_weight")->valuedouble == 0.53125);
    assert_true(json_path(root, "workload.bytes_per_activation")->valuedouble == 1.0);
    assert_true(json_path(root, "workload.bytes_per_kv_element")->valuedouble == 1.0);
    assert_true(cJSON_IsNumber(json_path(root, "chip.efficiency.matmul.mxfp4")));
    cJSON_Delete(root);
    run_free(&r);
    r = RUN("--report", "--chip", "h100", "--precision", "nvfp4");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "nvfp4 weights (bf16 matmuls), bf16 KV cache"));
    assert_non_null(strstr(r.out, "W4A16, weights stored at 4.5 bits (nvfp4)"));
    run_free(&r);
    r = RUN("--list-chips");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  fp4 "));
    assert_non_null(strstr(r.out, "10100.0T mx"));
    assert_non_null(strstr(r.out, "rtx-pro-6000 NVIDIA RTX PRO 6000 Blackwell Server"));
    run_free(&r);
    r = RUN("--list-chips", "--format=json");
    root = cJSON_Parse(r.out);
    const cJSON *chip;
    cJSON_ArrayForEach(chip, root) {
        const cJSON *peaks = cJSON_GetObjectItem(chip, "peak_flops_per_s");
        for (int p = 0; p < RT_PRECISION_COUNT; p++)
            assert_non_null(cJSON_GetObjectItemCaseSensitive(peaks, precision_name((enum rt_precision)p)));
    }
    cJSON_Delete(root);
    run_free(&r);
}

/* The number at a dotted path ("operation.realistic_s") of a JSON report. */
static double json_at(const cJSON *root, const char *path)
{
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *x = root;
    for (char *part = strtok(buf, "."); part && x; part = strtok(NULL, "."))
        x = cJSON_GetObjectItemCaseSensitive(x, part);
    if (!cJSON_IsNumber(x))
        fail_msg("no number at %s", path);
    return x->valuedouble;
}

/* Reruns a --validate JSON row's "args" as `rooftop ARGS --report=json`
 * and reads the report's figures at paths[0..n) into out. */
static void rerun_row(const cJSON *row, const char *const *paths, double *out, int n)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(row, "args");
    const char *argv[64];
    int argc = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, args) if (argc < 62) argv[argc++] = a->valuestring;
    argv[argc++] = "--report=json";
    argv[argc] = NULL;
    struct run again = run_argv(argv);
    assert_int_equal(again.status, 0);
    cJSON *rep = cJSON_Parse(again.out);
    assert_non_null(rep);
    for (int i = 0; i < n; i++)
        out[i] = json_at(rep, paths[i]);
    cJSON_Delete(rep);
    run_free(&again);
}

/* --validate's contract (issue 17): each row's "args" run as `rooftop
 * ARGS --report=json` give its predicted_s at its "figure", exactly; rows
 * name the file and line they came from (a CRLF file counted right); and
 * formats or modes it does not print are refused, not ignored. */
static void test_validate_rows_rerun_exactly(void **state)
{
    (void)state;
    const char *table = "tests/fixtures/kernels/h100_sxm/trtllm/gemm_perf.csv";
    struct run r = RUN("--validate", table, "--format=json");
    assert_int_equal(r.status, 0);
    cJSON *doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 40);
    const cJSON *first = cJSON_GetArrayItem(rows, 0);
    assert_int_equal((int)json_at(first, "line"), 2);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(first, "file")->valuestring, table);
    for (int i = 0; i < 40; i += 13) {
        const cJSON *row = cJSON_GetArrayItem(rows, i);
        const char *figure = cJSON_GetObjectItemCaseSensitive(row, "figure")->valuestring;
        assert_string_equal(figure, "operation.realistic_s");
        const char *paths[1] = {figure};
        double again[1];
        rerun_row(row, paths, again, 1);
        assert_true(again[0] == json_at(row, "predicted_s")); /* exactly: the same computation */
    }
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    assert_int_equal((int)json_at(sum, "rows"), 40);
    assert_int_equal((int)json_at(sum, "skipped"), 0);
    cJSON_Delete(doc);
    run_free(&r);

    /* measured serving runs: each run's args rerun give its TTFT and TPOT exactly, at the paths it names */
    r = RUN("--validate", "tests/fixtures/serving/runs.csv", "--format=json");
    assert_int_equal(r.status, 0);
    doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 7);
    for (int i = 0; i < 6; i++) {
        const cJSON *row = cJSON_GetArrayItem(rows, i);
        assert_null(cJSON_GetObjectItemCaseSensitive(row, "skipped"));
        const cJSON *fig = cJSON_GetObjectItemCaseSensitive(row, "figures");
        const cJSON *pred = cJSON_GetObjectItemCaseSensitive(row, "predicted");
        const char *paths[2] = {cJSON_GetObjectItemCaseSensitive(fig, "ttft_s")->valuestring,
                                cJSON_GetObjectItemCaseSensitive(fig, "tpot_s")->valuestring};
        double again[2];
        rerun_row(row, paths, again, 2);
        assert_true(again[0] == json_at(pred, "ttft_s"));
        assert_true(again[1] == json_at(pred, "tpot_s"));
    }
    /* line 2 is a GB200 DeepSeek-V3 xPyD run: 1 prefill worker of tp 1 x attention-dp 8 (moe ep 8),
     * 1 decode worker of tp 1 x attention-dp 32 (moe ep 32), 2048 clients: rooftop's flags say the same */
    const cJSON *disagg = cJSON_GetArrayItem(rows, 0);
    assert_int_equal((int)json_at(disagg, "line"), 2);
    char joined[1200] = "";
    const cJSON *arg;
    cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(disagg, "args"))
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), " %s", arg->valuestring);
    assert_non_null(strstr(joined, " --concurrency 2048 "));
    assert_non_null(strstr(joined, " --tp 1 --pp 1 --ep 32 --moe-ep 32 "));
    assert_non_null(strstr(joined, " --disagg 8:32 --prefill-tp 1 --prefill-dp 8 --prefill-moe-ep 8"));
    /* its GEMMs are labelled fp8 and its experts fp8_block: the checkpoint's 128x128 block scales run */
    assert_non_null(strstr(joined, " --precision fp8-block "));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(disagg, "mode")->valuestring, "disagg");
    ASSERT_NEAR(json_at(cJSON_GetObjectItemCaseSensitive(disagg, "measured"), "tpot_s"), 0.024497003443363074, 1e-15);
    /* line 7: 416 clients on engines of batch 13 ran on 32 of them (batch_size is each rank's share) */
    joined[0] = '\0';
    cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 5), "args"))
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), " %s", arg->valuestring);
    assert_non_null(strstr(joined, " --concurrency 13 "));
    assert_non_null(strstr(joined, " --dp 32"));
    /* line 8: a disaggregated run with no workers recorded is skipped, and says why */
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 6), "skipped");
    assert_non_null(why);
    assert_non_null(strstr(why->valuestring, "records no prefill or decode workers"));
    sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    assert_int_equal((int)json_at(sum, "skipped"), 1);
    ASSERT_NEAR(json_at(sum, "expressed"), 6.0 / 7.0, 1e-12);
    cJSON_Delete(doc);
    run_free(&r);
    /* with no models.csv beside them nothing is predicted: that is a failure, said once, not a pass */
    char lone[] = "/tmp/rooftop-runs-XXXXXX";
    assert_non_null(mkdtemp(lone));
    char copy[64];
    snprintf(copy, sizeof copy, "%s/runs.csv", lone);
    FILE *in = fopen("tests/fixtures/serving/runs.csv", "rb"), *to = fopen(copy, "wb");
    assert_true(in && to);
    for (int ch; (ch = fgetc(in)) != EOF;)
        fputc(ch, to);
    fclose(in);
    fclose(to);
    r = RUN("--validate", copy);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "runs.csv: no row could be predicted (7 skipped: the reasons are above)"));
    run_free(&r);
    unlink(copy);
    rmdir(lone);
    /* a prefill worker's expert layout is in the report it changes */
    r = RUN("--report=json", "--chip", "h200", "--model", "deepseek-v3", "--tp", "8", "--batch", "64", "--disagg", "16:8",
            "--prefill-tp", "8", "--prefill-moe-ep", "8");
    assert_int_equal(r.status, 0);
    doc = cJSON_Parse(r.out);
    ASSERT_NEAR(json_at(doc, "serving.prefill_pool_moe_ep"), 8.0, 0);
    cJSON_Delete(doc);
    run_free(&r);

    /* cases.csv (CRLF lines): its first row is on line 2, its last on line 93 */
    r = RUN("--validate", "tests/fixtures/measured/cases.csv", "--format=json");
    assert_int_equal(r.status, 0);
    doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 89);
    assert_int_equal((int)json_at(cJSON_GetArrayItem(rows, 0), "line"), 2);
    assert_int_equal((int)json_at(cJSON_GetArrayItem(rows, 88), "line"), 93);
    cJSON_Delete(doc);
    run_free(&r);

    /* every sample table's rows are expressible (NCCL's int8 rows among them) */
    r = RUN("--validate", "tests/fixtures/kernels", "--format=json");
    assert_int_equal(r.status, 0);
    doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    assert_int_equal((int)json_at(sum, "rows"), 560);
    assert_int_equal((int)json_at(sum, "skipped"), 0);
    cJSON_Delete(doc);
    run_free(&r);

    /* --kernels-from goes to every row as a flag of its own (a transfer test anyone can rerun) */
    r = RUN("--validate", "tests/fixtures/kernels/h200_sxm", "--kernels-from", "h100", "--format=json");
    assert_int_equal(r.status, 0);
    doc = cJSON_Parse(r.out);
    assert_non_null(doc);
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "rows"), 0),
                                                         "args");
    int na = cJSON_GetArraySize(args);
    assert_true(na >= 2);
    assert_string_equal(cJSON_GetArrayItem(args, na - 2)->valuestring, "--kernels-from");
    assert_string_equal(cJSON_GetArrayItem(args, na - 1)->valuestring, "h100");
    cJSON_Delete(doc);
    run_free(&r);

    r = RUN("--validate", table, "--format=csv");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--validate --format=csv: give text, markdown or json"));
    run_free(&r);
    r = RUN("--op", "gemm", "--report=csv");
    assert_int_equal(r.status, 2);
    run_free(&r);
    r = RUN("--op", "gemm", "--sweep=chips");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "does not go with --sweep"));
    run_free(&r);
    r = RUN("--validate", "tests/fixtures/no-such-table.csv");
    assert_int_equal(r.status, 2);
    run_free(&r);
}

int main(void)
{
    /* Hermetic: no user chip files from the machine running the tests. */
    setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test-config", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_on_the_command_line),
        cmocka_unit_test(test_bad_input_is_one_clear_line_and_exit_2),
        cmocka_unit_test(test_report_json_keys),
        cmocka_unit_test(test_report_json_null_and_mfu_budget),
        cmocka_unit_test(test_model_flags),
        cmocka_unit_test(test_realistic_flags_and_keys),
        cmocka_unit_test(test_sweep_chips_text_is_the_guides_table),
        cmocka_unit_test(test_sweep_json_rows),
        cmocka_unit_test(test_sweep_csv),
        cmocka_unit_test(test_number_and_name_spellings),
        cmocka_unit_test(test_flag_order_does_not_matter),
        cmocka_unit_test(test_huge_values_print_no_nan),
        cmocka_unit_test(test_help_version_lists),
        cmocka_unit_test(test_markdown_report),
        cmocka_unit_test(test_layout_flags),
        cmocka_unit_test(test_json_numbers_exact_and_long_paths_keep_the_reason),
        cmocka_unit_test(test_warnings_say_how_many_more),
        cmocka_unit_test(test_control_bytes_never_reach_the_terminal),
        cmocka_unit_test(test_fifos_are_never_waited_on),
        cmocka_unit_test(test_too_long_paths),
        cmocka_unit_test(test_empty_paths_name_the_flag),
        cmocka_unit_test(test_model_names_from_paths),
        cmocka_unit_test(test_diff_of_two_saved_scenarios),
        cmocka_unit_test(test_report_markdown_plot),
        cmocka_unit_test(test_diff_golden),
        cmocka_unit_test(test_a_path_is_never_a_builtin_name),
        cmocka_unit_test(test_kv_heads_sweep),
        cmocka_unit_test(test_report_numbers_without_exponents),
        cmocka_unit_test(test_latent_attention_and_moe_shape_lines),
        cmocka_unit_test(test_explorer_flags_in_reports_are_named),
        cmocka_unit_test(test_serving_words_mean_one_thing),
        cmocka_unit_test(test_measured_over_peak_is_named),
        cmocka_unit_test(test_doc_promises_hold),
        cmocka_unit_test(test_layouts_count_the_same_work),
        cmocka_unit_test(test_did_you_mean),
        cmocka_unit_test(test_block_formats_and_act_precision),
        cmocka_unit_test(test_kv_heads_lists_the_divisors),
        cmocka_unit_test(test_prompt_longer_than_the_context),
        cmocka_unit_test(test_validate_rows_rerun_exactly),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
