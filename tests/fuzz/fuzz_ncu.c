/* fuzz_ncu.c — libFuzzer harness: any bytes as an Nsight Compute CSV export,
 * a TraceLens operation table (profile_ncu.h), a rocprof-compute
 * pmc_perf.csv or a time-only kernel summary (profile_rocprof.h). The reader must give kernels or one error, never crash,
 * leak or read past the text; the kernels it gives must place on a roof or
 * be refused, with finite figures. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "profile_ncu.h"
#include "profile_rocprof.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct ncu_kernel kernels[256];
    static struct measured_point points[256];
    char err[512];
    size_t n = 0, count = 0, skipped = 0;
    (void)ncu_looks_like((const char *)data, size);
    if (tracelens_looks_like((const char *)data, size))
        (void)tracelens_points("fuzz.csv", (const char *)data, size, points, 256, &count, NULL, err, sizeof err);
    (void)profile_time_only("fuzz.csv", (const char *)data, size, err, sizeof err);
    if (rocprof_pmc_looks_like((const char *)data, size) &&
        rocprof_pmc_points("fuzz.csv", (const char *)data, size, points, 256, &count, NULL, err, sizeof err) == 0) {
        struct scenario s;
        scenario_default(&s);
        for (size_t i = 0; i < count; i++) {
            struct point_placement pp;
            if (!(points[i].seconds > 0) || !(points[i].bytes > 0) ||
                (point_place(&points[i], &s, &pp) == 0 && !isfinite(pp.fraction_of_roof)))
                abort(); /* a dispatch placed without a time or bytes, or at a rate that is not a number */
        }
    }
    if (ncu_read("fuzz.csv", (const char *)data, size, kernels, 256, &n, err, sizeof err) != 0)
        return 0;
    if (ncu_points("fuzz.csv", kernels, n, points, 256, &count, &skipped, err, sizeof err) != 0)
        return 0;
    struct scenario s;
    scenario_default(&s);
    for (size_t i = 0; i < count; i++) {
        struct point_placement pp;
        if (point_place(&points[i], &s, &pp) == 0 && !isfinite(pp.fraction_of_roof) &&
            points[i].seconds >= 1e-300)
            abort(); /* a placement that is not a number */
    }
    return 0;
}
