/* benchutil.h — the clock and the median the benchmarks share. */
#ifndef ROOFTOP_BENCHUTIL_H
#define ROOFTOP_BENCHUTIL_H

#include <stdlib.h>
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

#endif
