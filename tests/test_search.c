/* test_search.c — the design search (search.h) and its reports
 * (searchreport.h): the frontier is undominated and meets the targets, the
 * fewest chips is the brute-force answer, llama-3.1-70b in bf16 needs two
 * H100s, the reports parse and fit 80 columns, and a small array says it was
 * truncated. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "chips.h"
#include "search.h"
#include "searchreport.h"

#define CAPACITY 40000

/* Llama 3.1 70B on H100s, 8192 prompt and 256 output tokens, TTFT within
 * ttft_s and TPOT within 50 ms, up to 64 chips. */
static void seventy_b(struct scenario *s, double ttft_s)
{
    scenario_default(s);
    scenario_set_model(s, model_find("llama-3.1-70b"));
    s->chip = *chip_find("h100");
    s->prefill_tokens = 8192;
    s->decode_tokens = 256;
    s->context_tokens = 8192 + 256;
    s->ttft_target_s = ttft_s;
    s->tpot_target_s = 0.05;
    s->max_chips = 64;
}

/* Runs the search into a fresh array (the caller frees r->candidates),
 * failing the test when it refuses. */
static struct search_result must_search(const struct scenario *s, const struct search_options *opt, size_t cap)
{
    struct search_result r = {.candidates = calloc(cap, sizeof(struct search_candidate)), .capacity = cap};
    assert_non_null(r.candidates);
    char err[256];
    if (search_run(s, opt, &r, err, sizeof err) != 0)
        fail_msg("search refused: %s", err);
    return r;
}

/* The scenario a candidate stands for, rebuilt from base by hand. */
static struct scenario candidate_scenario(const struct scenario *base, const struct search_candidate *c)
{
    struct scenario s = *base;
    s.chips = c->tp * c->pp * c->ep;
    s.pp = c->pp;
    s.ep = c->ep;
    s.batch = c->batch;
    s.precision = c->precision;
    s.disagg_prefill_chips = c->prefill_chips;
    s.data_parallel = 1;
    return s;
}

/* x at least as good as y on both throughputs and better on one. */
static bool dominates(const struct search_candidate *x, const struct search_candidate *y)
{
    return x->tokens_per_s_per_chip >= y->tokens_per_s_per_chip &&
           x->tokens_per_s_per_user >= y->tokens_per_s_per_user &&
           (x->tokens_per_s_per_chip > y->tokens_per_s_per_chip ||
            x->tokens_per_s_per_user > y->tokens_per_s_per_user);
}

/* The 70B scenario with every option on: both precisions and prefill pools. */
static struct search_result rich_search(struct scenario *s, struct search_options *opt)
{
    seventy_b(s, 1.0);
    search_options_default(s, opt);
    opt->disaggregate = true;
    return must_search(s, opt, CAPACITY);
}

/* (1) No accepted candidate dominates a frontier point, and every accepted
 * candidate off the frontier is dominated by one on it; the counts agree. */
static void test_frontier_is_undominated(void **state)
{
    (void)state;
    struct scenario s;
    struct search_options opt;
    struct search_result r = rich_search(&s, &opt);
    assert_false(r.truncated);
    assert_true(r.frontier >= 2);
    size_t accepted = 0, frontier = 0;
    for (size_t i = 0; i < r.count; i++) {
        const struct search_candidate *c = &r.candidates[i];
        accepted += c->accepted;
        frontier += c->frontier;
        if (c->frontier)
            assert_true(c->accepted);
        if (!c->accepted)
            continue;
        bool dominated = false;
        for (size_t j = 0; j < r.count; j++) {
            const struct search_candidate *o = &r.candidates[j];
            if (!o->accepted || j == i || !dominates(o, c))
                continue;
            if (c->frontier)
                fail_msg("frontier candidate %zu is dominated by accepted candidate %zu", i, j);
            dominated = true;
        }
        if (!c->frontier && !dominated)
            fail_msg("accepted candidate %zu is undominated but off the frontier", i);
    }
    assert_int_equal(accepted, r.accepted);
    assert_int_equal(frontier, r.frontier);
    free(r.candidates);
}

/* (2) Every frontier point meets both targets and fits, by its own figures
 * and by an independent analyze() of the scenario it stands for. */
static void test_frontier_meets_targets_and_fits(void **state)
{
    (void)state;
    struct scenario s;
    struct search_options opt;
    struct search_result r = rich_search(&s, &opt);
    assert_true(r.frontier >= 2); /* the loop below checks something */
    /* Every candidate's reasons come as bits and as words; the words may be
     * cut at RT_SEARCH_WHY_MAX, the bits never are, so a reason in words
     * has its bit. */
    size_t rejected = 0;
    for (size_t i = 0; i < r.count; i++) {
        const struct search_candidate *c = &r.candidates[i];
        assert_int_equal(c->rejected == 0, c->accepted);
        assert_int_equal(c->rejected == 0, c->rejected_because[0] == '\0');
        if (strstr(c->rejected_because, "does not fit in HBM"))
            assert_true(c->rejected & RT_REJECT_HBM);
        if (strstr(c->rejected_because, "TTFT "))
            assert_true(c->rejected & RT_REJECT_TTFT);
        if (strstr(c->rejected_because, "TPOT "))
            assert_true(c->rejected & RT_REJECT_TPOT);
        rejected += c->rejected != 0;
    }
    assert_true(rejected > 0);
    for (size_t i = 0; i < r.count; i++) {
        const struct search_candidate *c = &r.candidates[i];
        if (!c->frontier)
            continue;
        assert_string_equal(c->rejected_because, "");
        assert_true(c->ttft_s <= s.ttft_target_s);
        assert_true(c->tpot_s <= s.tpot_target_s);
        assert_int_equal(c->dp, 1);
        assert_int_equal(c->chips, c->tp * c->pp * c->ep + c->prefill_chips);
        assert_true(c->chips <= opt.max_chips);
        struct scenario cs = candidate_scenario(&s, c);
        struct scenario core_cs = search_candidate_scenario(&s, c); /* what the Pareto view loads */
        assert_memory_equal(&core_cs, &cs, sizeof cs);
        struct analysis a = must_analyze(&cs);
        assert_true(a.memory.batch_fits);
        assert_true(a.serving.ok);
        ASSERT_NEAR(a.serving.ttft_s, c->ttft_s, 0);
        ASSERT_NEAR(a.serving.tpot_s, c->tpot_s, 0);
        ASSERT_NEAR(a.serving.tokens_per_s_per_chip, c->tokens_per_s_per_chip, 0);
        if (c->prefill_chips > 0) /* the pool holds the weights */
            assert_true(c->prefill_chips >= a.memory.weights_fit_chips);
    }
    free(r.candidates);
}

/* (3) fewest_chips is the brute-force answer over the accepted candidates:
 * the fewest chips, ties by the most tokens/s per chip; -1 when none is. */
static void test_fewest_chips_is_brute_force(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct scenario s;
        struct search_options opt;
        struct search_result r = rich_search(&s, &opt);
        if (k > 0) { /* a tighter TTFT, then an impossible TPOT */
            free(r.candidates);
            s.ttft_target_s = k == 1 ? 0.35 : 1.0;
            s.tpot_target_s = k == 1 ? 0.05 : 1e-4;
            r = must_search(&s, &opt, CAPACITY);
        }
        int64_t best_chips = 0;
        double best_rate = 0.0;
        bool any = false;
        for (size_t i = 0; i < r.count; i++) {
            const struct search_candidate *c = &r.candidates[i];
            if (!c->accepted)
                continue;
            if (!any || c->chips < best_chips || (c->chips == best_chips && c->tokens_per_s_per_chip > best_rate)) {
                best_chips = c->chips;
                best_rate = c->tokens_per_s_per_chip;
            }
            any = true;
        }
        if (k == 2) {
            assert_false(any);
            assert_int_equal(r.fewest_chips, -1);
            assert_int_equal(r.accepted, 0);
        } else {
            assert_true(any);
            assert_true(r.fewest_chips >= 0 && (size_t)r.fewest_chips < r.count);
            const struct search_candidate *f = &r.candidates[r.fewest_chips];
            assert_true(f->accepted);
            assert_int_equal(f->chips, best_chips);
            ASSERT_NEAR(f->tokens_per_s_per_chip, best_rate, 0);
        }
        free(r.candidates);
    }
}

/* (4) Llama 3.1 70B in bf16 on H100s: 70.6B parameters x 2 bytes = 141 GB
 * of weights, more than one H100's 80 GB and less than two's 160 GB, so the
 * fewest chips is 2 when two chips also hold the batch-1 KV cache (8448
 * tokens x 80 layers x 2 x 8 KV heads x 128 x 2 bytes = 2.8 GB) and meet the
 * targets. The TTFT target is 2 s: two H100s prefill 8192 tokens in about
 * 1 s, so memory decides, not a timing at the target's edge. Checked against
 * independent analyses of one chip and of the answer's layout. */
static void test_seventy_b_bf16_needs_two_h100s(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b(&s, 2.0);
    struct search_options opt;
    search_options_default(&s, &opt);
    opt.precisions = 1u << RT_BF16;

    /* The derivation: the smallest power of two whose HBM holds the weights. */
    struct analysis one = must_analyze(&s);
    assert_false(one.memory.weights_fit);
    int64_t expected = 1;
    while ((double)expected * s.chip.hbm_bytes < one.memory.weights_bytes)
        expected *= 2;
    assert_int_equal(expected, 2);
    ASSERT_NEAR(one.memory.weights_bytes / 1e9, 141.0, 1.0);
    ASSERT_NEAR(one.memory.kv_cache_bytes_per_request / 1e9, 8448.0 * 80 * 2 * 8 * 128 * 2 / 1e9, 0.01);

    struct search_result r = must_search(&s, &opt, CAPACITY);
    assert_true(r.fewest_chips >= 0);
    const struct search_candidate *f = &r.candidates[r.fewest_chips];
    assert_int_equal(f->chips, expected);
    assert_int_equal(f->chips & (f->chips - 1), 0);
    assert_int_equal(f->precision, RT_BF16);
    assert_int_equal(f->prefill_chips, 0);

    /* Every one-chip candidate was turned away for memory. */
    for (size_t i = 0; i < r.count; i++)
        if (r.candidates[i].chips == 1)
            assert_int_equal(strncmp(r.candidates[i].rejected_because, "does not fit in HBM", 19), 0);

    /* The answer's layout, analyzed on its own, fits and meets the targets. */
    struct scenario fs = candidate_scenario(&s, f);
    assert_int_equal(scenario_tp(&fs), f->tp);
    struct analysis a = must_analyze(&fs);
    assert_true(a.memory.weights_fit);
    assert_true(a.memory.batch_fits);
    assert_true(a.serving.ok);
    assert_true(a.serving.ttft_s <= 2.0 && a.serving.tpot_s <= 0.05);
    ASSERT_NEAR(a.serving.tokens_per_s_per_chip, f->tokens_per_s_per_chip, 0);
    free(r.candidates);
}

/* The value of key in obj, failing when it is absent. */
static const cJSON *must_key(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        fail_msg("JSON has no \"%s\"", key);
    return v;
}

/* Every documented key of a candidate object, with its type. */
static void check_candidate_json(const cJSON *c)
{
    static const char *const numbers[] = {"tp", "pp", "ep", "dp", "batch", "prefill_chips", "chips", "ttft_s",
                                          "tpot_s", "tokens_per_s_per_user", "tokens_per_s_per_chip"};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        assert_true(cJSON_IsNumber(must_key(c, numbers[i])));
    assert_true(cJSON_IsString(must_key(c, "precision")));
    assert_true(cJSON_IsBool(must_key(c, "frontier")));
    assert_true(cJSON_IsBool(must_key(c, "accepted")));
    const cJSON *why = must_key(c, "rejected_because");
    assert_true(cJSON_IsTrue(must_key(c, "accepted")) ? cJSON_IsNull(why) : cJSON_IsString(why));
}

/* The longest line of text, in bytes (the reports are ASCII). */
static size_t longest_line(const char *text)
{
    size_t best = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > best)
            best = n;
        p += n;
        if (*p)
            p++;
    }
    return best;
}

/* Lines of text (a last line without a newline counts). */
static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n + (text[0] && text[strlen(text) - 1] != '\n');
}

/* text with each wrapped line joined back to the one before (a newline and
 * the two-space indent become one space), in place. */
static char *unwrap(char *text)
{
    char *w = text;
    for (const char *p = text; *p; p++) {
        if (p[0] == '\n' && p[1] == ' ' && p[2] == ' ') {
            *w++ = ' ';
            p += 2;
        } else {
            *w++ = *p;
        }
    }
    *w = '\0';
    return text;
}

/* The search's JSON says the speculative decoding every candidate runs:
 * a chain's rates by position, or one rate with a tree of 9 nodes. */
static void test_json_speculative(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct scenario s;
        seventy_b(&s, 1.0);
        s.spec_tokens = k == 0 ? 2 : 3;
        if (k == 0) {
            s.spec_accept_positions = 2;
            s.spec_accept_by_position[0] = 0.8;
            s.spec_accept_by_position[1] = 0.6;
        } else {
            s.spec_accept = 0.7;
            s.spec_verify_tokens = 9;
        }
        struct search_options opt;
        search_options_default(&s, &opt);
        opt.max_chips = 8;
        struct search_result r = must_search(&s, &opt, CAPACITY);
        char *json = search_render(RT_FORMAT_JSON, &s, &opt, &r);
        cJSON *root = cJSON_Parse(json);
        assert_non_null(root);
        const cJSON *spec = must_key(root, "speculative");
        assert_string_equal(must_key(spec, "draft")->valuestring, "mtp");
        ASSERT_NEAR(must_key(spec, "tokens")->valuedouble, k == 0 ? 2.0 : 3.0, 0);
        const cJSON *by = must_key(spec, "acceptance_by_position");
        if (k == 0) {
            assert_true(cJSON_IsNull(must_key(spec, "acceptance")));
            assert_int_equal(cJSON_GetArraySize(by), 2);
            ASSERT_NEAR(cJSON_GetArrayItem(by, 0)->valuedouble, 0.8, 0);
            ASSERT_NEAR(cJSON_GetArrayItem(by, 1)->valuedouble, 0.6, 0);
            ASSERT_NEAR(must_key(spec, "verify_tokens")->valuedouble, 3.0, 0); /* a chain: k + 1 */
        } else {
            assert_true(cJSON_IsNull(by));
            ASSERT_NEAR(must_key(spec, "acceptance")->valuedouble, 0.7, 0);
            ASSERT_NEAR(must_key(spec, "verify_tokens")->valuedouble, 9.0, 0);
        }
        cJSON_Delete(root);
        free(json);
        free(r.candidates);
    }
}

/* (5) JSON parses with every documented key; CSV has a header and a row
 * per candidate; text lines fit 80 columns; markdown is a table. Over a
 * search with answers, with prefill pools, and with none. */
static void test_reports(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct scenario s;
        seventy_b(&s, 1.0);
        if (k == 2) { /* nothing meets 0.3 s on 64 H100s: 405B's 8192-token prompt is 6.6 PFLOP */
            scenario_set_model(&s, model_find("llama-3.1-405b"));
            s.ttft_target_s = 0.3;
        }
        struct search_options opt;
        search_options_default(&s, &opt);
        opt.disaggregate = k == 1;
        struct search_result r = must_search(&s, &opt, CAPACITY);
        assert_true(r.count > 0);

        char *json = search_render(RT_FORMAT_JSON, &s, &opt, &r);
        assert_non_null(json);
        cJSON *root = cJSON_Parse(json);
        assert_non_null(root);
        assert_string_equal(must_key(root, "model")->valuestring, s.model.name);
        assert_string_equal(must_key(root, "chip")->valuestring, "h100");
        const cJSON *targets = must_key(root, "targets");
        ASSERT_NEAR(must_key(targets, "ttft_s")->valuedouble, k == 2 ? 0.3 : 1.0, 0);
        ASSERT_NEAR(must_key(targets, "tpot_s")->valuedouble, 0.05, 0);
        const cJSON *list = must_key(root, "candidates");
        assert_true(cJSON_IsArray(list));
        assert_int_equal((size_t)cJSON_GetArraySize(list), r.count);
        const cJSON *c;
        size_t frontier = 0;
        cJSON_ArrayForEach(c, list)
        {
            check_candidate_json(c);
            frontier += cJSON_IsTrue(must_key(c, "frontier"));
        }
        assert_int_equal(frontier, r.frontier);
        const cJSON *fewest = must_key(root, "fewest_chips");
        if (r.fewest_chips >= 0) {
            check_candidate_json(fewest);
            ASSERT_NEAR(must_key(fewest, "chips")->valuedouble, (double)r.candidates[r.fewest_chips].chips, 0);
        } else {
            assert_true(cJSON_IsNull(fewest));
        }
        assert_true(cJSON_IsFalse(must_key(root, "truncated")));
        assert_true(cJSON_IsNull(must_key(root, "speculative"))); /* none asked */
        cJSON_Delete(root);
        free(json);

        char *csv = search_render(RT_FORMAT_CSV, &s, &opt, &r);
        assert_non_null(csv);
        assert_int_equal(count_lines(csv), r.count + 1);
        const char *head = "tp,pp,ep,dp,batch,precision,compute_precision,prefill_chips,chips,ttft_s,tpot_s,";
        assert_true(strncmp(csv, head, strlen(head)) == 0);
        free(csv);

        char *text = search_render(RT_FORMAT_TEXT, &s, &opt, &r);
        assert_non_null(text);
        if (longest_line(text) > 80)
            fail_msg("a text line is %zu columns:\n%s", longest_line(text), text);
        unwrap(text);
        assert_non_null(strstr(text, "dp not varied: replicas do not change per-chip figures"));
        assert_non_null(strstr(text, "Quality of lower precisions is not modelled"));
        assert_non_null(strstr(text, k == 2 ? "none up to 64 chips" : "Fewest chips that meet the targets: "));
        free(text);

        char *md = search_render(RT_FORMAT_MARKDOWN, &s, &opt, &r);
        assert_non_null(md);
        if (r.frontier > 0) {
            size_t rows = 0;
            for (const char *p = strstr(md, "\n| "); p; p = strstr(p + 1, "\n| "))
                rows++;
            assert_int_equal(rows, r.frontier + 2); /* the header, the rule, a row per frontier point */
        }
        free(md);
        free(r.candidates);
    }
}

/* (6) An array smaller than the enumeration fills up and says so; one large
 * enough holds it all and does not. */
static void test_small_capacity_is_truncated(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b(&s, 1.0);
    struct search_options opt;
    search_options_default(&s, &opt);
    struct search_result full = must_search(&s, &opt, CAPACITY);
    assert_false(full.truncated);
    assert_true(full.count > 10);
    struct search_result small = must_search(&s, &opt, 10);
    assert_true(small.truncated);
    assert_int_equal(small.count, 10);
    /* The first ten are the same candidates in the same order. */
    for (size_t i = 0; i < 10; i++) {
        assert_int_equal(small.candidates[i].chips, full.candidates[i].chips);
        assert_int_equal(small.candidates[i].batch, full.candidates[i].batch);
        ASSERT_NEAR(small.candidates[i].tpot_s, full.candidates[i].tpot_s, 0);
    }
    /* Exactly full: not truncated. */
    struct search_result exact = must_search(&s, &opt, full.count);
    assert_false(exact.truncated);
    assert_int_equal(exact.count, full.count);
    char *json = search_render(RT_FORMAT_JSON, &s, &opt, &small);
    cJSON *root = cJSON_Parse(json);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "truncated")));
    cJSON_Delete(root);
    free(json);
    char *text = search_render(RT_FORMAT_TEXT, &s, &opt, &small);
    assert_non_null(strstr(text, "truncated"));
    free(text);
    free(full.candidates);
    free(small.candidates);
    free(exact.candidates);
}

/* The enumeration's rules on a mixture of experts: tp divides the heads,
 * ep the experts, batch >= ep, pp <= 16, chips within the limit, pools hold
 * the weights, every layout and precision asked for appears. */
static void test_moe_enumeration(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b(&s, 1.0);
    scenario_set_model(&s, model_find("mixtral-8x7b"));
    struct search_options opt;
    search_options_default(&s, &opt);
    opt.max_chips = 32;
    opt.max_batch = 256;
    opt.disaggregate = true;
    struct search_result r = must_search(&s, &opt, CAPACITY);
    bool seen_ep[9] = {false}, seen_fp8 = false, seen_pool = false, seen_overload = false;
    for (size_t i = 0; i < r.count; i++) {
        const struct search_candidate *c = &r.candidates[i];
        assert_int_equal(s.model.heads % c->tp, 0);
        assert_int_equal(s.model.experts % c->ep, 0);
        assert_true(c->pp >= 1 && c->pp <= 16);
        assert_true(c->batch >= c->ep && c->batch <= opt.max_batch);
        assert_int_equal(c->batch & (c->batch - 1), 0);
        assert_int_equal(c->chips, c->tp * c->pp * c->ep + c->prefill_chips);
        assert_true(c->chips <= opt.max_chips);
        assert_int_equal(c->dp, 1);
        assert_true(c->ep <= 8);
        seen_ep[c->ep] = true;
        seen_fp8 |= c->precision == RT_FP8;
        seen_pool |= c->prefill_chips > 0;
        seen_overload |= strncmp(c->rejected_because, "prefill pool", 12) == 0;
        assert_true(c->accepted == (c->rejected_because[0] == '\0'));
    }
    assert_true(seen_ep[1] && seen_ep[2] && seen_ep[4] && seen_ep[8]);
    assert_true(seen_fp8 && seen_pool && seen_overload);
    free(r.candidates);
}

/* Refusals: no room, an invalid base, invalid options. */
static void test_refusals(void **state)
{
    (void)state;
    struct scenario s;
    seventy_b(&s, 1.0);
    struct search_options opt;
    search_options_default(&s, &opt);
    assert_int_equal(opt.max_chips, 64);
    assert_int_equal(opt.precisions, (1u << RT_BF16) | (1u << RT_FP8));
    struct search_candidate one;
    struct search_result r = {.candidates = &one, .capacity = 0};
    char err[256] = "";
    assert_int_equal(search_run(&s, &opt, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "capacity"));
    r.capacity = 1;
    s.batch = 0;
    assert_int_equal(search_run(&s, &opt, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "--batch"));
    s.batch = 1;
    opt.max_chips = 0;
    assert_int_equal(search_run(&s, &opt, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "max chips"));
    opt.max_chips = 64;
    opt.precisions = 1u << RT_PRECISION_COUNT;
    assert_int_equal(search_run(&s, &opt, &r, err, sizeof err), -1);
    assert_int_equal(r.count, 0);
    assert_int_equal(r.fewest_chips, -1);
    /* The defaults cap the chips at 1024 and drop fp8 on a chip without it. */
    s.max_chips = 65536;
    s.chip = *chip_find("a100-80");
    search_options_default(&s, &opt);
    assert_int_equal(opt.max_chips, 1024);
    assert_int_equal(opt.precisions, 1u << RT_BF16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frontier_is_undominated),
        cmocka_unit_test(test_frontier_meets_targets_and_fits),
        cmocka_unit_test(test_fewest_chips_is_brute_force),
        cmocka_unit_test(test_seventy_b_bf16_needs_two_h100s),
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_json_speculative),
        cmocka_unit_test(test_small_capacity_is_truncated),
        cmocka_unit_test(test_moe_enumeration),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
