/* minmax.h — the larger and the smaller of two finite figures, inline:
 * libm's fmax and fmin are calls (for their NaN rules), and the kernel
 * models call these on the hot path of every GEMM. Neither argument may be
 * a NaN. */
#ifndef ROOFTOP_MINMAX_H
#define ROOFTOP_MINMAX_H

static inline double dmax(double a, double b)
{
    return a > b ? a : b;
}

static inline double dmin(double a, double b)
{
    return a < b ? a : b;
}

#endif
