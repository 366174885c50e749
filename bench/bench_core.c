/* bench_core.c — how fast the model is: the median time of one analyze()
 * call, and the throughput of a chips-for-budget sweep (scenarios per second
 * on one core). Medians over repeated samples, so a noisy shared machine
 * shifts them less than a mean; compare figures measured in one run. Each
 * figure is printed with its target and whether it was met; none fails the
 * run. BENCH_QUICK=1 takes 5 samples instead of 101. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchutil.h"

#include "analysis.h"
#include "roofline.h"

#define SAMPLES 101
#define QUICK_SAMPLES 5

static volatile double sink;

int main(void)
{
    struct scenario s;
    scenario_default(&s);
    struct analysis a;
    char err[256];
    double per_call[SAMPLES];
    const int calls = 2000;
    const int samples = bench_quick() ? QUICK_SAMPLES : SAMPLES;

    /* analyze() on the default scenario, with the chips knob moving as a
     * slider would move it. */
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++) {
            s.chips = (int64_t)1 << (i & 7);
            if (analyze(&s, &a, err, sizeof err) != 0) {
                fprintf(stderr, "bench: %s\n", err);
                return 1;
            }
            sink += a.latency.total_s;
        }
        per_call[k] = (now_s() - t0) / calls;
    }
    double analyze_s = median(per_call, (size_t)samples);

    /* analyze() on a 126-layer model with a mixed schedule: Llama 3.1
     * 405B's shape with every 6th layer full attention and the others a
     * 4096-token window, every other layer 16 experts (top-2), on 8 H100s
     * at batch 32 and a 32k context. */
    struct scenario mixed;
    scenario_default(&mixed);
    struct model_shape m = *model_find("llama-3.1-405b");
    m.experts = 16;
    m.experts_per_token = 2;
    m.kind_count = 0;
    for (int i = 0; i < 126; i++) {
        struct layer_kind k = {.mixer = (i + 1) % 6 ? RT_MIXER_SLIDING : RT_MIXER_FULL,
                               .window = (i + 1) % 6 ? 4096 : 0,
                               .moe = i % 2 == 1};
        m.layer_kind[i] = (uint8_t)model_kind_index(&m, &k);
    }
    model_schedule_fix(&m);
    scenario_set_model(&mixed, &m);
    mixed.chip = *chip_find("h100");
    mixed.batch = 32;
    mixed.context_tokens = 32768;
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++) {
            mixed.chips = (int64_t)1 << (i & 7);
            if (analyze(&mixed, &a, err, sizeof err) != 0) {
                fprintf(stderr, "bench: %s\n", err);
                return 1;
            }
            sink += a.latency.total_s;
        }
        per_call[k] = (now_s() - t0) / calls;
    }
    double mixed_s = median(per_call, (size_t)samples);

    /* A chips-for-budget sweep: for each scenario (a model size), the
     * smallest power-of-two chip count that meets the budget. */
    double rate[SAMPLES];
    const int scenarios = 20000;
    struct napkin_turn t = {.prefill_tokens = 8192, .decode_tokens = 128, .bytes_per_param = 2,
                            .peak_flops_per_s = 197e12, .hbm_bytes_per_s = 819e9, .mfu_fraction = 1.0,
                            .overhead_s = 0.25};
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        for (int i = 0; i < scenarios; i++) {
            t.flop_params = t.byte_params = 1e9 + 1e7 * (double)i;
            int64_t chips = 0;
            chips_for_latency_budget(&t, 1.0, 65536, &chips, err, sizeof err);
            sink += (double)chips;
        }
        rate[k] = scenarios / (now_s() - t0);
    }
    double sweep_rate = median(rate, (size_t)samples);

    /* The same sweep through the whole analyze(). */
    const int full = 2000;
    for (int k = 0; k < samples; k++) {
        double t0 = now_s();
        for (int i = 0; i < full; i++) {
            s.chips = 1;
            s.params = 1e9 + 1e7 * (double)i;
            analyze(&s, &a, err, sizeof err);
            sink += (double)a.latency.chips_for_budget;
        }
        rate[k] = full / (now_s() - t0);
    }
    double analyze_rate = median(rate, (size_t)samples);

    printf("analyze() median          %8.3f us per call   (the guide's scenario; target < 2 us: %s)\n",
           analyze_s * 1e6, target_met(analyze_s < 2e-6));
    printf("analyze() median          %8.3f us per call   (126 layers, %d kinds: %s; target < 5 us: %s)\n",
           mixed_s * 1e6, m.kind_count, model_schedule_summary(&m, err, sizeof err), target_met(mixed_s < 5e-6));
    printf("chips-for-budget sweep    %8.2f M scenarios/s (napkin search alone; target >= 1 M/s: %s)\n",
           sweep_rate / 1e6, target_met(sweep_rate >= 1e6));
    printf("chips-for-budget sweep    %8.2f M scenarios/s (each through the whole analyze(); no target)\n",
           analyze_rate / 1e6);
    printf("(medians of %d samples%s; struct analysis is %zu bytes)\n", samples,
           samples < SAMPLES ? ", BENCH_QUICK: rough figures" : "", sizeof(struct analysis));
    return 0;
}
