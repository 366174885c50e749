/* serving.c — continuous batching at a concurrency or an arrival rate (serving.h). */
#include "serving.h"

#include <math.h>
#include <string.h>

#include "minmax.h"

double serving_decode_step_s(const struct serving_costs *c, double seqs)
{
    if (!c || c->points < 1)
        return 0.0;
    int k = c->points;
    if (seqs <= c->seqs[0])
        return c->decode_step_s[0];
    for (int i = 1; i < k; i++)
        if (seqs <= c->seqs[i]) {
            double f = (seqs - c->seqs[i - 1]) / (c->seqs[i] - c->seqs[i - 1]);
            return c->decode_step_s[i - 1] + f * (c->decode_step_s[i] - c->decode_step_s[i - 1]);
        }
    if (k == 1)
        return c->decode_step_s[0];
    /* past the last point: the last segment's slope, never below flat */
    double slope = (c->decode_step_s[k - 1] - c->decode_step_s[k - 2]) / (c->seqs[k - 1] - c->seqs[k - 2]);
    return c->decode_step_s[k - 1] + dmax(0.0, slope) * (seqs - c->seqs[k - 1]);
}

double serving_prompts_s(const struct serving_costs *c, double prompts)
{
    if (!c)
        return 0.0;
    double k = dmax(1.0, prompts);
    int m = c->prompt_points;
    if (m < 1 || k <= c->prompt_counts[0]) /* one prompt's pass, its marginal work once a prompt */
        return c->step_s + k * dmax(0.0, c->prompt_s - c->step_s);
    for (int i = 1; i < m; i++)
        if (k <= c->prompt_counts[i]) {
            double f = (k - c->prompt_counts[i - 1]) / (c->prompt_counts[i] - c->prompt_counts[i - 1]);
            return c->prompt_batch_s[i - 1] + f * (c->prompt_batch_s[i] - c->prompt_batch_s[i - 1]);
        }
    if (m == 1) /* past a lone point: its marginal work a prompt */
        return c->prompt_batch_s[0] + (k - c->prompt_counts[0]) * dmax(0.0, c->prompt_batch_s[0] - c->step_s) /
                                          c->prompt_counts[0];
    double slope = (c->prompt_batch_s[m - 1] - c->prompt_batch_s[m - 2]) / (c->prompt_counts[m - 1] - c->prompt_counts[m - 2]);
    return c->prompt_batch_s[m - 1] + dmax(0.0, slope) * (k - c->prompt_counts[m - 1]);
}

/* A prompt's marginal work when k prompts share a pass: the pass less the
 * engine's fixed step time (which the step pays anyway), over k. */
static double prompt_share_s(const struct serving_costs *c, double k)
{
    k = dmax(1.0, k);
    return dmax(0.0, serving_prompts_s(c, k) - c->step_s) / k;
}

/* The steady state with n requests decoding (serving.h). */
struct steady {
    double step_s, lambda, rho, own_s, wait_s, ttft_s, joins_per_step, population;
    double pm;          /* a prompt's marginal work at the prompts a step carries together */
    double together;    /* prompts a step carries together (>= 1) */
    double tpot_s;      /* the steps a request decodes through: others' prompts ride on them, not its own */
    double residual_s;  /* the mean wait for the step in flight: half a step, when others decode */
    double rho_queue;   /* the load a prompt queues behind: the others' share of rho */
    double others_share; /* closed loop: (N - 1) / N, the share of the load that is other clients'; 1 open loop */
    bool stable;
};

/* The steady state at n requests decoding an attention group (serving.h's
 * model, the two branches its two cases: a prefill pool, or prompts riding
 * on decode steps; 70 lines, one equation of the model after another). */
static struct steady steady_at(const struct serving_costs *c, const struct serving_load *l, double n)
{
    struct steady st = {0};
    double td = serving_decode_step_s(c, dmax(1.0, n));
    st.others_share = l->clients > 0.0 ? (l->clients - 1.0) / l->clients : 1.0;
    if (l->disaggregated) {
        /* decode steps alone; prompts queue on the pool, one server X times as fast */
        double s = c->prompt_s;
        st.pm = 0.0;
        st.together = 1.0;
        st.step_s = st.tpot_s = td;
        st.lambda = n / ((l->osl - 1.0) * td);
        st.rho = st.lambda * s / l->prefill_workers;
        st.own_s = s + c->kv_move_s;
        if (!(st.rho < 1.0))
            return st;
        st.rho_queue = st.rho * st.others_share;
        st.wait_s = st.rho_queue / (2.0 * (1.0 - st.rho)) * s / l->prefill_workers;
        st.ttft_s = st.own_s + st.wait_s + l->frontend_s;
    } else {
        /* Requests finish at lambda = n / ((osl - 1) TPOT); a decoding
         * request's steps carry the others' prompts, lambda x share x P of
         * each second: TPOT = decode / (1 - lambda share P), so lambda =
         * n / ((osl - 1) decode + n share P). The prompts that join a step
         * run together, as many as arrive a step (at most what the budget
         * holds), and P is a prompt's share of that pass: fixed point. */
        double share = st.others_share;
        /* Others decoding when a prompt arrives (a closed loop's own client is not among them): the
         * budget they leave a step is the prompts' room. */
        double busy = dmin(1.0, n * share);
        double room = dmax(1.0, l->token_budget - n * busy);
        double most_together = l->isl <= room ? dmax(1.0, floor(room / l->isl)) : 1.0;
        double k = 1.0, pm = prompt_share_s(c, 1.0);
        for (int it = 0; it < 8; it++) {
            pm = prompt_share_s(c, k);
            st.lambda = n / ((l->osl - 1.0) * td + n * share * pm);
            st.tpot_s = td / (1.0 - st.lambda * share * pm);
            double next = dmin(most_together, dmax(1.0, st.lambda * st.tpot_s));
            if (fabs(next - k) < 1e-3)
                break;
            k = next;
        }
        st.pm = pm;
        st.together = k;
        st.joins_per_step = st.lambda * st.tpot_s;
        st.step_s = td + st.joins_per_step * pm; /* the engine's mean step: a decode step and the prompts on it */
        /* The engine's time: every prompt's work and the decode steps, at most N requests decoding a
         * step (the clients, or an open loop's KV slots), cannot pass one second a second; a lone
         * client keeps it exactly busy. */
        double most = l->clients > 0.0 ? dmin(l->clients, l->kv_slots) : l->kv_slots;
        if (!(st.lambda * (pm + (l->osl - 1.0) * td / dmax(1.0, most)) <= 1.0 + 1e-9))
            return st;
        /* Others decoding when a prompt arrives (a closed loop's own client is not among them): a step
         * is then in flight, and the prompt's chunks ride on decode steps, in the budget the decoding
         * requests leave; with nobody decoding they run on bare steps of the engine's fixed time. */
        double ride = c->step_s + (td - c->step_s) * busy;
        st.own_s = ceil(l->isl / room) * ride + st.together * pm; /* the pass of the prompts beside it */
        /* the budget's load: prompt tokens riding on decode steps over the room those steps leave */
        st.rho = st.joins_per_step * l->isl / room * busy;
        if (!(st.rho < 1.0))
            return st;
        st.rho_queue = st.rho * share; /* a prompt queues behind the others' prompts, not its own */
        st.wait_s = st.rho_queue / (2.0 * (1.0 - st.rho)) * st.own_s;
        st.residual_s = 0.5 * st.tpot_s * busy;
        st.ttft_s = st.residual_s + st.wait_s + st.own_s + l->frontend_s;
    }
    st.population = n + st.lambda * st.ttft_s;
    st.stable = true;
    return st;
}

/* Percentiles of the steady state (serving.h): the wait's exponential
 * tail, the count of prompts joining a request's decode. */
static void percentiles(const struct serving_costs *c, const struct serving_load *l, const struct steady *st,
                        double n, double extra_wait_s, struct serving_loop *out)
{
    static const double q[3] = {0.5, 0.9, 0.99};
    static const double z[3] = {0.0, 1.2815515655446004, 2.3263478740408408}; /* the normal quantiles */
    double *tt[3] = {&out->ttft_p50_s, &out->ttft_p90_s, &out->ttft_p99_s};
    double *tp[3] = {&out->tpot_p50_s, &out->tpot_p90_s, &out->tpot_p99_s};
    /* its own prefill and any wait for a KV slot as they are; the step in flight uniform over [0, 2
     * residual]; the wait behind others' prompts by its tail (each quantile added: an upper bound) */
    double base = st->ttft_s - st->wait_s - st->residual_s + extra_wait_s;
    double td = serving_decode_step_s(c, dmax(1.0, n));
    double joins = l->disaggregated ? 0.0 : n * st->others_share; /* others' prompts during its osl - 1 steps */
    double pm = l->disaggregated ? 0.0 : st->pm;
    for (int i = 0; i < 3; i++) {
        double t = 0.0;
        double r = st->rho_queue;
        if (r > 0.0 && st->wait_s > 0.0 && q[i] > 1.0 - r)
            t = st->wait_s / r * log(r / (1.0 - q[i]));
        *tt[i] = base + 2.0 * st->residual_s * q[i] + t;
        double k = dmax(0.0, joins + z[i] * sqrt(joins));
        *tp[i] = l->osl > 1.0 ? td + k * pm / (l->osl - 1.0) : 0.0;
    }
}

/* The largest n in [0, cap] the load allows: closed loop, the n whose
 * steady population is at most the clients (the budget, or the pool,
 * keeping up); open loop, the n that finishes fewer requests than arrive
 * (so that n + 0 finishes as many). Both grow with n; bisection. */
static double running_for(const struct serving_costs *c, const struct serving_load *l, double cap)
{
    double lo = 0.0, hi = cap;
    for (int i = 0; i < 81; i++) {
        double mid = i == 0 ? cap : 0.5 * (lo + hi); /* the cap itself first: often it is the answer */
        struct steady st = steady_at(c, l, mid);
        bool ok = l->clients > 0.0 ? st.stable && st.population <= l->clients : st.lambda < l->arrival_per_s;
        if (ok && i == 0)
            return cap;
        if (ok)
            lo = mid;
        else if (i > 0)
            hi = mid;
    }
    return lo;
}

/* The first wave of a closed-loop benchmark (serving.h). */
static void first_wave(const struct serving_costs *c, const struct serving_load *l, double steady_tpot_s,
                       double *ttft_s, double *tpot_s)
{
    double N = l->clients;
    if (l->disaggregated) {
        double rounds = ceil(N / l->prefill_workers);
        *ttft_s = c->prompt_s * (rounds + 1.0) / 2.0 + c->kv_move_s + l->frontend_s;
        *tpot_s = steady_tpot_s;
        return;
    }
    double per_step = l->isl <= l->token_budget ? dmax(1.0, dmin(N, floor(l->token_budget / l->isl))) : 1.0;
    double steps_each = ceil(l->isl / l->token_budget);
    double group_s = dmax(0.0, serving_prompts_s(c, per_step) - c->step_s); /* a group's prompts, together */
    double groups = ceil(N / per_step);
    /* those already decoding while the rest prefill: half the others on average (none for one client) */
    double running = dmin(l->kv_slots, 0.5 * (N - 1.0));
    double step = (running >= 1.0 ? serving_decode_step_s(c, running) : c->step_s) + group_s / steps_each;
    *ttft_s = step * steps_each * (groups + 1.0) / 2.0 + l->frontend_s;
    /* a request of group j decodes through the (groups - j) x steps_each prefill steps behind it */
    double behind = dmin(l->osl - 1.0, 0.5 * (groups - 1.0) * steps_each);
    double full = serving_decode_step_s(c, dmin(N, l->kv_slots));
    *tpot_s = l->osl > 1.0 ? steady_tpot_s + behind * dmax(0.0, step - full) / (l->osl - 1.0) : 0.0;
}

/* An open loop past what the engine serves (serving.h): no steady state,
 * the queue grows without end; the engine runs at the most it can, the
 * largest stable n below `n`. */
static void overloaded(const struct serving_costs *c, const struct serving_load *l, double n, struct serving_loop *out)
{
    /* every KV slot decoding finishes fewer, or the prompts outrun the budget or the pool; TTFT has no
     * mean */
    out->overloaded = true;
    double lo = 0.0, hi = n;
    for (int i = 0; i < 80; i++) {
        double mid = 0.5 * (lo + hi);
        if (steady_at(c, l, mid).stable)
            lo = mid;
        else
            hi = mid;
    }
    n = lo;
    struct steady st = steady_at(c, l, n);
    out->running = n;
    out->requests_per_s = st.lambda;
    out->prefill_share = dmin(st.rho, 1.0);
    out->step_time_s = st.step_s;
    out->tpot_s = out->steady_tpot_s = st.tpot_s;
    out->kv_bound = n >= 0.99 * l->kv_slots; /* within 1%: the engine's time binds there too */
    out->saturated = !out->kv_bound;
    percentiles(c, l, &st, n, 0.0, out);
    out->ttft_p50_s = out->ttft_p90_s = out->ttft_p99_s = 0.0;
}

/* No output beyond the first token (osl 1, serving.h): every request is
 * its prompt, and they queue through the budget (several a step when they
 * fit) or the pool: Little's law closed, M/D/1 open. */
static void prompts_only(const struct serving_costs *c, const struct serving_load *l, struct serving_loop *out)
{
    out->frontend_s = l->frontend_s; /* inside every TTFT below, as in the loop's */
    double waiting = l->clients > 0.0 ? l->clients : 1.0;
    double per_step = l->isl <= l->token_budget ? dmax(1.0, dmin(waiting, floor(l->token_budget / l->isl))) : 1.0;
    double per_prompt = l->disaggregated ? c->prompt_s / l->prefill_workers : serving_prompts_s(c, per_step) / per_step;
    double own = c->prompt_s + (l->disaggregated ? c->kv_move_s : 0.0) + l->frontend_s;
    if (l->clients > 0.0) { /* Little's law: N prompts in the system, one finished every per_prompt */
        out->requests_per_s = per_prompt > 0.0 ? 1.0 / per_prompt : 0.0;
        out->ttft_s = dmax(own, l->clients * per_prompt);
        out->wait_s = out->ttft_s - own; /* behind the other clients' prompts */
        out->saturated = out->wait_s > 0.0;
        out->first_wave_ttft_s = out->ttft_s;
    } else { /* M/D/1 on the prompts */
        out->prefill_share = l->arrival_per_s * per_prompt;
        out->overloaded = !(out->prefill_share < 1.0);
        out->requests_per_s = out->overloaded ? 1.0 / per_prompt : l->arrival_per_s;
        out->prefill_share = dmin(out->prefill_share, 1.0);
        out->wait_s = out->overloaded ? 0.0 : out->prefill_share / (2.0 * (1.0 - out->prefill_share)) * per_prompt;
        out->ttft_s = out->overloaded ? 0.0 : own + out->wait_s; /* overloaded: no mean (serving.h) */
    }
    out->steady_ttft_s = out->ttft_p50_s = out->ttft_p90_s = out->ttft_p99_s = out->ttft_s;
    /* one output token comes with the prompt: no step to average; a lone decode step's time is shown */
    out->tpot_s = out->steady_tpot_s = out->step_time_s = serving_decode_step_s(c, 1.0);
    out->tpot_p50_s = out->tpot_p90_s = out->tpot_p99_s = out->tpot_s;
    return;
}

int serving_run(const struct serving_costs *c, const struct serving_load *l, struct serving_loop *out)
{
    memset(out, 0, sizeof *out);
    if (!c || !l || c->points < 1 || c->points > RT_SERVING_POINTS || !(c->prompt_s >= 0.0) ||
        !(c->step_s >= 0.0) || !(c->kv_move_s >= 0.0) || !(l->isl >= 1.0) || !(l->osl >= 1.0) ||
        !(l->token_budget >= 1.0) || !(l->kv_slots >= 1.0) || !(l->clients >= 0.0) ||
        (l->clients > 0.0 && !(l->rounds >= 1.0)) || (l->clients == 0.0 && !(l->arrival_per_s > 0.0)) ||
        (l->disaggregated && !(l->prefill_workers > 0.0)) || !(l->frontend_s >= 0.0))
        return -1;
    for (int i = 0; i < c->points; i++)
        if (!(c->seqs[i] >= 1.0) || (i > 0 && !(c->seqs[i] > c->seqs[i - 1])) || !(c->decode_step_s[i] >= 0.0))
            return -1;
    if (c->prompt_points < 0 || c->prompt_points > RT_SERVING_POINTS)
        return -1;
    for (int i = 0; i < c->prompt_points; i++)
        if (!(c->prompt_counts[i] >= 1.0) || (i > 0 && !(c->prompt_counts[i] > c->prompt_counts[i - 1])) ||
            !(c->prompt_batch_s[i] >= 0.0))
            return -1;

    if (l->osl < 2.0) {
        prompts_only(c, l, out);
        return 0;
    }

    double cap = l->clients > 0.0 ? dmin(l->kv_slots, l->clients) : l->kv_slots;
    double n = running_for(c, l, cap), extra = 0.0;
    struct steady st = steady_at(c, l, n);
    if (l->clients > 0.0) {
        if (st.population < l->clients && st.lambda > 0.0) { /* the rest queue: for a KV slot, or the engine */
            extra = (l->clients - st.population) / st.lambda;
            out->kv_bound = n >= 0.99 * l->kv_slots; /* within 1%: the engine's time binds there too */
            out->saturated = !out->kv_bound;
        }
    } else if (st.lambda < l->arrival_per_s * (1.0 - 1e-9) || !st.stable) {
        overloaded(c, l, n, out);
        return 0;
    }
    out->running = n;
    out->requests_per_s = st.lambda;
    out->prefill_share = dmin(st.rho, 1.0);
    out->step_time_s = st.step_s;
    out->wait_s = st.wait_s + extra;
    out->in_flight_s = st.residual_s;
    out->own_s = st.own_s;
    out->frontend_s = l->frontend_s;
    out->steady_ttft_s = st.ttft_s + extra;
    out->steady_tpot_s = st.tpot_s;
    percentiles(c, l, &st, n, extra, out);
    if (l->clients > 0.0) {
        first_wave(c, l, out->steady_tpot_s, &out->first_wave_ttft_s, &out->first_wave_tpot_s);
        double r = l->rounds;
        out->ttft_s = (out->first_wave_ttft_s + (r - 1.0) * out->steady_ttft_s) / r;
        out->tpot_s = (out->first_wave_tpot_s + (r - 1.0) * out->steady_tpot_s) / r;
    } else {
        out->ttft_s = out->steady_ttft_s;
        out->tpot_s = out->steady_tpot_s;
    }
    return 0;
}
