/* fuzz_kineto.c — libFuzzer harness: any bytes as a PyTorch profiler
 * (Kineto) trace, plain or gzip (profile_kineto.h). The reader must give a
 * trace or one error, never crash, leak, hang or read past the bytes; the
 * points it gives must be in range and place on a roof with finite
 * figures. Seeds: excerpts of the four fixtures' events (the H100 one also
 * gzip-compressed) and a bare event array. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "profile_kineto.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct measured_point points[64];
    char err[512];
    size_t count = 0;
    (void)kineto_looks_like((const char *)data, size);
    struct kineto_trace t;
    if (kineto_read_memory("fuzz.json", data, size, &t, err, sizeof err) != 0) {
        if (t.groups || t.group_count)
            abort(); /* a failed read leaves nothing behind */
        return 0;
    }
    struct load_warnings w = {0};
    if (kineto_points("fuzz.json", &t, points, 64, &count, NULL, &w, err, sizeof err) == 0) {
        struct scenario s;
        scenario_default(&s);
        for (size_t i = 0; i < count; i++) {
            const struct measured_point *p = &points[i];
            if (!(p->bytes > 0 && p->bytes <= 1e18 && p->flops >= 0 && p->flops <= 1e21 && p->seconds >= 1e-9 &&
                  p->seconds <= 86400))
                abort(); /* a point outside the ranges a kernel's figures hold */
            struct point_placement pp;
            if (point_place(p, &s, &pp) != 0 || !isfinite(pp.fraction_of_roof))
                abort();
        }
    }
    kineto_free(&t);
    return 0;
}
