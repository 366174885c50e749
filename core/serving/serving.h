/* serving.h — an engine serving many requests at once: the step loop of
 * continuous batching at a closed-loop concurrency or an open-loop arrival
 * rate, in steady state and through a benchmark's first wave.
 *
 * The engine (vLLM, SGLang, TensorRT-LLM) runs steps. Each step decodes one
 * token for every running request and fills what is left of a token budget
 * (max_num_batched_tokens, chunked_prefill_size, max_num_tokens) with
 * prompt tokens of waiting requests, first come first served; a request
 * holds a KV slot from its prefill to its last token, and waits when none
 * is free. Every request has the same prompt (isl) and output (osl)
 * lengths, as a benchmark sends them.
 *
 * The model is a mean-value one, not a simulation:
 * - steady state: n requests decoding; a request's steps carry the other
 *   requests' prompts, P each (its share of the pass that prefills the k
 *   prompts arriving a step together, k = lambda TPOT at most what the
 *   budget holds, less the engine's fixed step time, which the step pays
 *   anyway: k prompts' GEMMs run at all their tokens, cheaper than k
 *   passes of one), so its time per output
 *   token is TPOT = decode(n) / (1 - lambda s P), s = (N - 1) / N the
 *   others' share of a closed loop of N (1 open loop), and requests finish
 *   at lambda = n / ((osl - 1) TPOT) per second.
 *   A prompt waits for the step in flight (half a step, when others are
 *   decoding: a closed loop's own client is not among them), for the other
 *   prompts ahead of it (M/D/1, Pollaczek-Khinchine: r / (2 (1 - r)) x its
 *   own prefill, r = s rho, rho the share of the budget prompts use), then
 *   takes ceil(isl / (budget - n)) steps (decode steps when others decode,
 *   else bare ones of the engine's fixed time) and the pass of the k
 *   prompts beside it; a closed loop of N clients
 *   holds n + lambda x TTFT = N requests (Little's law), which fixes n.
 *   The engine's time caps the loop: lambda (P + (osl - 1) decode / N) <= 1,
 *   at most N requests decoding a step (a lone client keeps it exactly
 *   busy). Clients past the KV slots, or past that cap, wait: (N - that
 *   population) / lambda.
 * - first wave: a closed-loop benchmark starts its N clients at once; the
 *   prompts go through the budget in turn (floor(budget / isl) a step in
 *   one pass, or
 *   ceil(isl / budget) steps each), the j-th group reaching its first token
 *   after j groups' steps, and the requests already decoding are slowed by
 *   the prefill steps behind them. A benchmark of R x N requests (R rounds;
 *   InferenceMAX and AIConfigurator's collectors send 10 x the concurrency)
 *   reports the mean of one first wave and R - 1 steady rounds.
 * - open loop at lambda requests/s: the same steady state with lambda given,
 *   or, past what the engine serves, overloaded: no steady state (the queue
 *   grows without end), the engine at its largest stable n.
 * - percentiles: the step in flight uniform over [0, a step], the wait's
 *   exponential tail (P(W > t) = r exp(-r t / E[W]), Kingman's heavy-traffic
 *   form), each quantile added (an upper bound); TPOT's from the Poisson
 *   count of the others' prompts joining a request's decode (normal
 *   approximation).
 * - disaggregated (xPyD): prefill on X workers of their own, one prompt at a
 *   time each, then the KV's move; decode steps carry no prompts. The pool
 *   queues as one server X times as fast (M/D/1).
 * - no output beyond the first token (osl 1): the prompts alone, by Little's
 *   law (closed) or M/D/1 (open).
 * - the engine's frontend time (load.frontend_s): a constant each request
 *   spends before its first token outside the engine's steps, in every TTFT
 *   above, and out of the engine (its client is waiting it: Little's law
 *   counts it among the N).
 * Pure: no I/O, no allocation, no globals.
 */
#ifndef ROOFTOP_SERVING_H
#define ROOFTOP_SERVING_H

#include <stdbool.h>

/* Points of the decode-step curve the loop interpolates (sequences ->
 * seconds). */
#define RT_SERVING_POINTS 8

/* Benchmark rounds when none is given: requests sent = 10 x concurrency,
 * as InferenceMAX's runs (num_prompts = concurrency x 10) and the
 * AIConfigurator collectors' benchmarks send them. */
#define RT_DEFAULT_BENCH_ROUNDS 10

/* The step costs the loop runs on, seconds, from the realistic estimate. */
struct serving_costs {
    int points;                              /* 1..RT_SERVING_POINTS */
    double seqs[RT_SERVING_POINTS];          /* increasing, >= 1 */
    double decode_step_s[RT_SERVING_POINTS]; /* one decode step of that many sequences (one attention group) */
    double prompt_s;       /* one prompt's prefill alone (aggregated: on the replica; disaggregated: on a worker) */
    /* Prompts prefilled together in one pass: prompt_batch_s[i] is the pass of prompt_counts[i] prompts
     * (increasing, the first >= 1); their GEMMs run at that many prompts' tokens, so k prompts cost less
     * than k passes of one. 0 points: every prompt costs prompt_s less step_s, however many share a pass. */
    int prompt_points;                            /* 0..RT_SERVING_POINTS */
    double prompt_counts[RT_SERVING_POINTS];
    double prompt_batch_s[RT_SERVING_POINTS];
    double step_s;         /* the engine's fixed time per step, inside both of the above */
    double kv_move_s;      /* disaggregated: one request's KV to its decode ranks; 0 aggregated */
};

/* The workload and the engine's limits. */
struct serving_load {
    double clients;        /* closed loop: concurrent clients per attention group (> 0), or 0 for open loop */
    double arrival_per_s;  /* open loop: requests per second per attention group (> 0); ignored when clients > 0 */
    double isl, osl;       /* prompt tokens (>= 1) and output tokens (>= 1) of every request */
    double token_budget;   /* tokens a step may carry (>= 1) */
    double kv_slots;       /* requests whose KV cache fits at once per attention group (>= 1) */
    double rounds;         /* closed loop: benchmark rounds (>= 1); 1 = the first wave alone */
    bool disaggregated;    /* prompts on a prefill pool of their own */
    double frontend_s;     /* a request's time outside the engine's steps before its first token (>= 0): in its
                              TTFT, and out of the engine (a closed loop's client waits it, Little's law) */
    double prefill_workers;/* disaggregated: prefill workers per attention group's share (> 0) */
};

/* What the loop gives, seconds unless named. */
struct serving_loop {
    double ttft_s, tpot_s;       /* means as a benchmark reports them (closed loop: over its rounds) */
    double steady_ttft_s, steady_tpot_s; /* in steady state */
    double first_wave_ttft_s, first_wave_tpot_s; /* closed loop: the first wave's means; 0 open loop */
    double ttft_p50_s, ttft_p90_s, ttft_p99_s; /* steady state */
    double tpot_p50_s, tpot_p90_s, tpot_p99_s;
    double running;              /* requests decoding at once (steady state) */
    double requests_per_s;       /* finished per second */
    double prefill_share;        /* rho: the share of the prompts' capacity in use (budget or pool), [0, 1) */
    double wait_s;               /* a prompt's mean wait for those ahead of it (and for a KV slot) */
    /* The steady TTFT's other two parts (steady_ttft_s = in_flight_s + wait_s + own_s): the mean wait
     * for the step in flight when it arrives (half a step, when others decode; 0 disaggregated), and
     * (with frontend_s, the fourth part) its own prefill among the others' work (its chunks on their decode steps; on a pool, with the
     * KV's move), which can exceed the prompt alone. */
    double in_flight_s, own_s;
    double frontend_s;           /* the load's frontend time, the steady TTFT's fourth part (0 when it has none) */
    double step_time_s;          /* mean step time in steady state */
    bool overloaded;             /* open loop: requests arrive faster than the engine serves them; there is no
                                    steady state, the TTFT figures are 0 (no mean: show none) and the rest
                                    describe the engine at the most it serves */
    bool kv_bound;               /* the KV slots, not the clients, cap the running requests */
    bool saturated;              /* the engine's time, its token budget or a prefill pool caps them (not the KV) */
};

/* Seconds of a decode step of `seqs` sequences on c's curve: linear
 * between the points, the first point's time below it, and linear in seqs
 * past the last (the step grows with the batch). seqs >= 0; 0 when c has no
 * points. */
double serving_decode_step_s(const struct serving_costs *c, double seqs);

/* Seconds of one pass prefilling `prompts` prompts together on c's curve
 * (prompts >= 1): linear between the points, linear past the last at the
 * last segment's slope (never below flat), and below the first point, or
 * with no points, step_s + prompts x (prompt_s - step_s). 0 when c is NULL. */
double serving_prompts_s(const struct serving_costs *c, double prompts);

/* Runs the loop of `load` on `costs` into *out. Returns 0; -1 when an
 * input is outside its range above (out is then zeroed). */
int serving_run(const struct serving_costs *costs, const struct serving_load *load, struct serving_loop *out);

#endif
