/* bench_search.c — how fast the design search is: the median time of one
 * search_run() over an enumeration of about 10k candidates (the target is
 * 200 ms on one core), for a heavy model (DeepSeek-V3: latent attention,
 * 256 routed experts) and a light one (Mixtral 8x7B). Medians over repeated
 * runs, so a noisy shared machine shifts them less than a mean. Prints the
 * target and whether it was met; no threshold fails. BENCH_QUICK=1 times one
 * run of each instead of 9. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchutil.h"

#include "search.h"

#define SAMPLES 9
#define QUICK_SAMPLES 1
#define CAPACITY 65536
#define TARGET_S 0.200

/* Times `samples` (at most SAMPLES) searches of model on H100s up to max_chips, every option
 * on (bf16 and fp8, prefill pools); prints the candidate count and the
 * median. Returns 0, or 1 when the search refuses. */
static int bench(const char *model, int64_t max_chips, struct search_candidate *cands, int samples)
{
    struct scenario s;
    scenario_default(&s);
    scenario_set_model(&s, model_find(model));
    s.chip = *chip_find("h100");
    s.prefill_tokens = 8192;
    s.decode_tokens = 256;
    s.context_tokens = 8192 + 256;
    s.ttft_target_s = 1.0;
    s.tpot_target_s = 0.05;
    s.max_chips = max_chips;
    struct search_options opt;
    search_options_default(&s, &opt);
    opt.disaggregate = true;
    struct search_result r = {.candidates = cands, .capacity = CAPACITY};
    char err[256];
    double t[SAMPLES];
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        if (search_run(&s, &opt, &r, err, sizeof err) != 0) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        t[k] = now_s() - t0;
    }
    double mid = median(t, (size_t)samples);
    printf("search_run %-14s %6zu candidates (up to %lld chips, batch to %lld, bf16+fp8, prefill pools%s)\n", model,
           r.count, (long long)opt.max_chips, (long long)opt.max_batch, r.truncated ? ", TRUNCATED" : "");
    printf("  median %8.1f ms  (%.2f us per candidate; %zu accepted, %zu on the frontier)\n", mid * 1e3,
           mid / (double)(r.count ? r.count : 1) * 1e6, r.accepted, r.frontier);
    printf("  target %8.1f ms: %s\n", TARGET_S * 1e3, target_met(mid <= TARGET_S));
    return 0;
}

int main(void)
{
    struct search_candidate *cands = calloc(CAPACITY, sizeof *cands);
    if (!cands) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
    }
    const int samples = bench_quick() ? QUICK_SAMPLES : SAMPLES;
    int rc = bench("deepseek-v3", 512, cands, samples) || bench("mixtral-8x7b", 128, cands, samples);
    printf("(medians of %d runs on one core%s; struct search_candidate is %zu bytes)\n", samples,
           samples < SAMPLES ? ", BENCH_QUICK: rough figures" : "", sizeof(struct search_candidate));
    free(cands);
    return rc;
}
