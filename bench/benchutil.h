/* benchutil.h — the clock, the median and the quick mode the benchmarks
 * share. */
#ifndef ROOFTOP_BENCHUTIL_H
#define ROOFTOP_BENCHUTIL_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n), n >= 1 (sorts v in place). */
static inline double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return v[n / 2];
}

/* True when the environment asks for a quick run (BENCH_QUICK set, and not
 * to "" or "0"): few samples, so that CI sees the benchmark run in a second
 * or two. Its figures are rough; a target it misses fails nothing. */
static inline int bench_quick(void)
{
    const char *q = getenv("BENCH_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* The word a benchmark prints after a target. */
static inline const char *target_met(int met)
{
    return met ? "met" : "NOT met";
}

#endif
