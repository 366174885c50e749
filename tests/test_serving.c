/* test_serving.c — the step loop of continuous batching (serving.h), by hand. */
#include <math.h>
#include <string.h>

#include "testutil.h"

#include "analysis.h"
#include "chips.h"
#include "models.h"
#include "serving.h"

/* A flat decode step of 10 ms, a 50 ms prompt, no fixed step time. */
static struct serving_costs flat(void)
{
    struct serving_costs c = {.points = 1, .seqs = {1.0}, .decode_step_s = {0.010}, .prompt_s = 0.050};
    return c;
}

static struct serving_load closed(double clients)
{
    struct serving_load l = {.clients = clients, .isl = 1000, .osl = 101, .token_budget = 8192, .kv_slots = 1000,
                             .rounds = 10};
    return l;
}

/* One client: nothing to wait for, nobody else decoding: TTFT is its
 * prompt, TPOT the decode step, the first wave the same, and it finishes
 * one request per 50 ms + 100 x 10 ms. */
static void test_one_client_by_hand(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    struct serving_load l = closed(1);
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.steady_ttft_s, 0.050, 1e-12);
    ASSERT_NEAR(o.steady_tpot_s, 0.010, 1e-12);
    ASSERT_NEAR(o.ttft_s, 0.050, 1e-12);
    ASSERT_NEAR(o.tpot_s, 0.010, 1e-12);
    ASSERT_NEAR(o.wait_s, 0.0, 0);
    /* Little's law on the one client: decoding 1.0 s of the 1.05 s cycle */
    ASSERT_NEAR(o.requests_per_s, 1.0 / 1.05, 1e-6);
    ASSERT_NEAR(o.running, 1.0 / 1.05, 1e-6);
}

/* Ten clients answering 1000 tokens each: the loop's figures obey their
 * own definitions at the n it finds, worked here apart from serving.c:
 * requests finish at lambda = n / (1000 x 10 ms + n x 0.9 x 50 ms), a
 * decoding request's steps carry the others' 0.9 of the prompts (TPOT = 10
 * ms / (1 - lambda 0.9 50 ms)), a prompt rides one decode step (its 1000
 * tokens fit the 8192 - n the decoders leave), waits behind the others'
 * 0.9 of rho = lambda TPOT 1000 / (8192 - n) (Pollaczek-Khinchine), and
 * Little's law closes the loop at 10; the engine's time is not the limit
 * (lambda x (50 ms + 1000 x 10 ms / 10) < 1). */
static void test_ten_clients_by_their_definitions(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    struct serving_load l = closed(10);
    l.osl = 1001;
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    assert_false(o.saturated || o.kv_bound);
    double n = o.running;
    double lambda = n / (1000.0 * 0.010 + n * 0.9 * 0.050);
    assert_true(lambda * (0.050 + 1000.0 * 0.010 / 10.0) < 1.0);
    double tpot = 0.010 / (1.0 - lambda * 0.9 * 0.050);
    double rho = lambda * tpot * 1000.0 / (8192.0 - n);
    double own = 0.010 + 0.050;
    double wait = rho * 0.9 / (2.0 * (1.0 - rho)) * own; /* the queue of the others' prompts */
    double residual = 0.5 * tpot;                         /* the step in flight, others decoding */
    double ttft = residual + wait + own;
    ASSERT_NEAR(o.step_time_s, 0.010 + lambda * tpot * 0.050, 1e-12); /* a decode step and the prompts on it */
    ASSERT_NEAR(o.requests_per_s, lambda, 1e-12);
    ASSERT_NEAR(o.prefill_share, rho, 1e-12);
    ASSERT_NEAR(o.wait_s, wait, 1e-12);
    ASSERT_NEAR(o.steady_ttft_s, ttft, 1e-12);
    ASSERT_NEAR(o.steady_tpot_s, tpot, 1e-12);
    ASSERT_NEAR(n + lambda * ttft, 10.0, 1e-6); /* Little's law: the ten clients */
    assert_true(n > 9.0 && n < 10.0);
    /* percentiles: the step in flight uniform over [0, a step], the queue's exponential tail past the
     * share 1 - 0.9 rho that does not wait; p99 above the mean */
    double r = 0.9 * rho;
    ASSERT_NEAR(o.ttft_p50_s, own + residual, 1e-12);
    ASSERT_NEAR(o.ttft_p99_s, own + 2.0 * residual * 0.99 + (r > 0.01 ? wait / r * log(r / 0.01) : 0.0), 1e-12);
    assert_true(o.ttft_p99_s > o.steady_ttft_s);
    assert_true(o.tpot_p99_s > o.tpot_p50_s);
}

/* Prompts that share a pass run their GEMMs at all their tokens: the
 * curve of k prompts together, by hand (linear between points, the last
 * slope past them, k passes' marginal work without points); a benchmark's
 * first wave of four 1000-token prompts, which fit one 8192-token step,
 * reaches its first tokens after one decode step and the four prompts'
 * pass (110 ms less the 5 ms the step pays anyway); and in steady state
 * the prompts a step carries together are as many as arrive a step. */
static void test_prompts_share_a_pass(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    c.step_s = 0.005;
    ASSERT_NEAR(serving_prompts_s(&c, 3.0), 0.005 + 3.0 * 0.045, 1e-15); /* no curve: one prompt's work each */
    c.prompt_points = 2;
    c.prompt_counts[0] = 1.0, c.prompt_batch_s[0] = 0.050;
    c.prompt_counts[1] = 4.0, c.prompt_batch_s[1] = 0.110;
    ASSERT_NEAR(serving_prompts_s(&c, 2.0), 0.050 + 0.060 / 3.0, 1e-15);
    ASSERT_NEAR(serving_prompts_s(&c, 8.0), 0.110 + 4.0 * 0.020, 1e-15);
    ASSERT_NEAR(serving_prompts_s(&c, 0.5), 0.050, 1e-15); /* at least one prompt's pass */

    struct serving_load l = closed(4);
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.first_wave_ttft_s, 0.010 + (0.110 - 0.005), 1e-12);

    /* A curve no cheaper than k passes of one changes nothing. */
    struct serving_costs lin = flat(), none = flat();
    lin.step_s = none.step_s = 0.005;
    lin.prompt_points = 3;
    for (int i = 0; i < 3; i++)
        lin.prompt_counts[i] = (double)(1 << (2 * i)), lin.prompt_batch_s[i] = 0.005 + 0.045 * lin.prompt_counts[i];
    struct serving_load many = closed(64);
    many.osl = 11; /* short answers: several prompts join each step */
    struct serving_loop a, b;
    assert_int_equal(serving_run(&lin, &many, &a), 0);
    assert_int_equal(serving_run(&none, &many, &b), 0);
    ASSERT_NEAR(a.steady_tpot_s, b.steady_tpot_s, 1e-12);
    ASSERT_NEAR(a.steady_ttft_s, b.steady_ttft_s, 1e-12);

    /* Cheaper together: the fixed point holds, TPOT = decode / (1 - lambda s P(k)) with k the prompts
     * arriving a step (lambda TPOT, at most the 8 the budget holds), P(k) a prompt's share of their pass. */
    struct serving_costs cheap = lin;
    cheap.prompt_batch_s[1] = 0.100, cheap.prompt_batch_s[2] = 0.300; /* 4 and 16 prompts */
    assert_int_equal(serving_run(&cheap, &many, &a), 0);
    double lambda = a.requests_per_s, tpot = a.steady_tpot_s;
    double k = fmin(floor((8192.0 - a.running) / 1000.0), fmax(1.0, lambda * tpot));
    assert_true(k > 1.0);
    double pm = (serving_prompts_s(&cheap, k) - 0.005) / k;
    ASSERT_NEAR(tpot, 0.010 / (1.0 - lambda * (63.0 / 64.0) * pm), 2e-3 * tpot);
    assert_true(a.steady_tpot_s < b.steady_tpot_s); /* the same prompts cost less together */
}

/* Ten clients answering 100 tokens with 50 ms prompts: eight decoding a
 * step would need 100 x 10 ms / 10 = 0.1 s of steps a request beside its
 * prompt, so the engine serves at most 1 / 0.15 s = 6.67 requests/s; the
 * loop stops there and the rest queue (saturated, not KV-bound). */
static void test_engine_time_caps_the_loop(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    struct serving_load l = closed(10);
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    assert_true(o.saturated && !o.kv_bound);
    ASSERT_NEAR(o.requests_per_s, 1.0 / 0.15, 1e-6);
    ASSERT_NEAR(o.running + o.requests_per_s * o.steady_ttft_s, 10.0, 1e-6);
}

/* The first wave of 16 clients with 1024-token prompts: 8 prompts fill a
 * step of 8192, so two groups; a wave step is 8 x 50 ms of prompts on a
 * decode step of the 7.5 already running (10 ms): 0.41 s, and the groups'
 * first tokens come after 1 and 2 steps, 0.615 s on average. Over 10
 * rounds the benchmark's TTFT is (wave + 9 x steady) / 10. */
static void test_first_wave_by_hand(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    struct serving_load l = closed(16);
    l.isl = 1024;
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.first_wave_ttft_s, 0.41 * 1.5, 1e-12);
    ASSERT_NEAR(o.ttft_s, (o.first_wave_ttft_s + 9.0 * o.steady_ttft_s) / 10.0, 1e-12);
    /* the requests of the first group decode through the second's prefill step: 0.5 steps on average */
    ASSERT_NEAR(o.first_wave_tpot_s, o.steady_tpot_s + 0.5 * (0.41 - 0.010) / 100.0, 1e-12);
    l.rounds = 1;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.ttft_s, o.first_wave_ttft_s, 0);
}

/* KV slots cap the running requests: the other clients wait for a slot,
 * (N - population) / lambda more in TTFT. */
static void test_kv_slots_queue_the_rest(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    struct serving_load l = closed(64);
    l.kv_slots = 8;
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    /* 8 decoding at once need 100 / 8 steps of 10 ms a request beside its 50 ms prompt: the engine's
     * time allows 1 / 0.175 s = 5.714 requests/s, reached just short of the 8 slots */
    assert_true(o.kv_bound && !o.saturated);
    ASSERT_NEAR(o.requests_per_s, 1.0 / 0.175, 1e-6);
    assert_true(o.running > 0.99 * 8.0 && o.running <= 8.0);
    ASSERT_NEAR(o.running + o.requests_per_s * o.steady_ttft_s, 64.0, 1e-9);
}

/* Disaggregated: one client's TTFT is its prompt on the pool plus the KV's
 * move, and decode steps carry no prompts; an open loop faster than the
 * pool (2 workers x 20 prompts/s) is overloaded. */
static void test_disaggregated_and_open_loop(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    c.kv_move_s = 0.004;
    struct serving_load l = closed(1);
    l.disaggregated = true;
    l.prefill_workers = 2;
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.steady_ttft_s, 0.054, 1e-12);
    ASSERT_NEAR(o.steady_tpot_s, 0.010, 1e-12);
    l.clients = 0;
    l.arrival_per_s = 30; /* rho = 30 x 0.05 / 2 = 0.75: M/D/1 wait 0.75 / 0.5 x 0.025 / 2 */
    assert_int_equal(serving_run(&c, &l, &o), 0);
    assert_false(o.overloaded);
    ASSERT_NEAR(o.requests_per_s, 30.0, 1e-6);
    ASSERT_NEAR(o.prefill_share, 0.75, 1e-6);
    ASSERT_NEAR(o.wait_s, 0.75 / (2.0 * 0.25) * 0.025, 1e-6);
    /* the wait's tail: P(W > t) = rho exp(-rho t / E[W]); p99 at t = E[W] / rho x ln(rho / 0.01) */
    ASSERT_NEAR(o.ttft_p99_s - 0.054, o.wait_s / 0.75 * log(0.75 / 0.01), 1e-6);
    l.arrival_per_s = 50;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    assert_true(o.overloaded);
}

/* One output token: no decode steps, every request is its prompt. Four
 * clients' 1000-token prompts fit one step of 8192, so a step of 4 x 40
 * ms of prompt and 10 ms of the engine finishes 4: 42.5 ms each, and by
 * Little's law the four wait 4 x 42.5 = 170 ms; an open loop's prompts
 * arrive apart, one a step of 50 ms: at 10/s the engine is half busy and a
 * prompt waits 0.5 / (2 x 0.5) x 50 ms (M/D/1). */
static void test_prompts_only_by_hand(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    c.step_s = 0.010;
    struct serving_load l = closed(4);
    l.osl = 1;
    struct serving_loop o;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.requests_per_s, 1.0 / 0.0425, 1e-9);
    ASSERT_NEAR(o.ttft_s, 4 * 0.0425, 1e-12);
    l.clients = 1; /* one client: its prompt alone */
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.ttft_s, 0.050, 1e-12);
    l.clients = 0;
    l.arrival_per_s = 10;
    assert_int_equal(serving_run(&c, &l, &o), 0);
    ASSERT_NEAR(o.prefill_share, 0.5, 1e-12);
    ASSERT_NEAR(o.ttft_s, 0.050 + 0.5 / (2 * 0.5) * 0.050, 1e-12);
}

/* Inputs outside their ranges are refused, and the curve interpolates. */
static void test_refusals_and_curve(void **state)
{
    (void)state;
    struct serving_costs c = flat();
    struct serving_load l = closed(4);
    struct serving_loop o;
    l.isl = 0;
    assert_int_equal(serving_run(&c, &l, &o), -1);
    l = closed(4);
    l.rounds = 0;
    assert_int_equal(serving_run(&c, &l, &o), -1);
    l = closed(0); /* open loop without a rate */
    assert_int_equal(serving_run(&c, &l, &o), -1);
    l = closed(4);
    c.points = 0;
    assert_int_equal(serving_run(&c, &l, &o), -1);
    struct serving_costs k = {.points = 2, .seqs = {1, 11}, .decode_step_s = {0.010, 0.020}};
    ASSERT_NEAR(serving_decode_step_s(&k, 6), 0.015, 1e-15);
    ASSERT_NEAR(serving_decode_step_s(&k, 0.5), 0.010, 0);
    ASSERT_NEAR(serving_decode_step_s(&k, 21), 0.030, 1e-15); /* the last slope carries on */
}

/* The analysis: one client's serving TTFT is its prompt alone (the
 * realistic prefill of one prompt), and with a prefix cache of half the
 * prompt it is shorter; the benchmark's figures sit in the report. */
static void test_analysis_one_client(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.prefill_tokens = 2048;
    s.decode_tokens = 256;
    s.context_tokens = 4096;
    char err[256];
    struct analysis a;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    /* the prompt alone and the engine's frontend (the generic engine's: vLLM's fitted 26 ms) */
    ASSERT_NEAR(a.serving.loop.frontend_s, 0.026, 0);
    ASSERT_NEAR(a.serving.ttft_s, a.serving.prompt_s + 0.026, 1e-12);
    ASSERT_NEAR(a.serving.prompt_s, a.realistic.prefill_s, 1e-12); /* batch 1: the turn's prefill is the prompt */
    ASSERT_NEAR(a.serving.mean_context_tokens, 2048 + 128, 0);
    double whole = a.serving.ttft_s;
    s.prefix_hit = 0.5;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_true(a.serving.ttft_s < 0.75 * whole);
}

/* An open loop faster than the engine serves (Llama 3.1 70B on 8 H100s
 * serves about 2.7 requests/s of 8192 + 128 tokens): overloaded, no TTFT
 * (the report says unbounded, JSON null), the target missed, and the
 * throughput is what the engine serves, not what arrives. */
static void test_analysis_overloaded(void **state)
{
    (void)state;
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    s.chips = 8;
    scenario_set_model(&s, model_find("llama-3.1-70b"));
    s.ttft_target_s = 1.0;
    char err[256];
    struct analysis a;
    s.arrival_per_s = 1.0;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_false(a.serving.loop.overloaded);
    ASSERT_NEAR(a.serving.requests_per_s, 1.0, 1e-6);
    double served = 0.0;
    s.arrival_per_s = 100.0;
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    assert_true(a.serving.loop.overloaded);
    assert_false(a.serving.ttft_ok);
    assert_false(a.serving.ok);
    served = a.serving.requests_per_s;
    assert_true(served > 1.0 && served < 10.0);
    ASSERT_NEAR(a.serving.tokens_per_s_per_chip, served * 128.0 / 8.0, 1e-9);
    s.arrival_per_s = 1000.0; /* more arrivals, the same engine: it serves no more */
    assert_int_equal(analyze(&s, &a, err, sizeof err), 0);
    ASSERT_NEAR(a.serving.requests_per_s, served, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_client_by_hand),
        cmocka_unit_test(test_ten_clients_by_their_definitions),
        cmocka_unit_test(test_engine_time_caps_the_loop),
        cmocka_unit_test(test_first_wave_by_hand),
        cmocka_unit_test(test_kv_slots_queue_the_rest),
        cmocka_unit_test(test_disaggregated_and_open_loop),
        cmocka_unit_test(test_prompts_only_by_hand),
        cmocka_unit_test(test_refusals_and_curve),
        cmocka_unit_test(test_prompts_share_a_pass),
        cmocka_unit_test(test_analysis_one_client),
        cmocka_unit_test(test_analysis_overloaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
