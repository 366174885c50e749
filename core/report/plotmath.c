/* plotmath.c — log-axis arithmetic. */
#include "plotmath.h"

#include <math.h>
#include <stdio.h>

int log_axis_decades(double lo, double hi, int min_decades, int *dec_lo, int *dec_hi)
{
    if (!(isfinite(lo) && isfinite(hi) && lo > 0.0 && hi > 0.0))
        return -1;
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (min_decades < 1)
        min_decades = 1;
    if (min_decades > PLOT_MAX_DECADES)
        min_decades = PLOT_MAX_DECADES;
    /* Nudge by a hair so that exact powers of ten (1000 -> 3, not 2.9999) land right. */
    int a = (int)floor(log10(lo) + 1e-9);
    int b = (int)floor(log10(hi) + 1e-9) + 1;
    if (b - a < min_decades)
        b = a + min_decades;
    if (b - a > PLOT_MAX_DECADES)
        a = b - PLOT_MAX_DECADES;
    *dec_lo = a;
    *dec_hi = b;
    return 0;
}

double log_axis_position(double value, int dec_lo, int dec_hi, double span)
{
    if (!(isfinite(value) && value > 0.0) || dec_hi <= dec_lo)
        return NAN;
    return (log10(value) - dec_lo) / (double)(dec_hi - dec_lo) * span;
}

double log_axis_value(double pos, int dec_lo, int dec_hi, double span)
{
    if (!(span > 0.0) || dec_hi <= dec_lo || !isfinite(pos))
        return NAN;
    return pow(10.0, dec_lo + pos / span * (double)(dec_hi - dec_lo));
}

int log_axis_ticks(int decades, int cells, int min_gap, int *step, int *gap)
{
    if (decades < 1 || decades > PLOT_MAX_DECADES || cells < 2 || min_gap < 1)
        return -1;
    int best_s = 0, best_k = 0;
    double best_fill = 0.0;
    for (int s = 1; s <= decades; s++) {
        int k = (int)((long)(cells - 1) * s / decades); /* the most cells per step that still fit */
        if (k < min_gap)
            continue;
        double fill = (double)k * decades / ((double)s * (cells - 1));
        if (fill > best_fill + 1e-12) {
            best_fill = fill;
            best_s = s;
            best_k = k;
        }
        if (fill >= 0.75)
            break;
    }
    if (best_s == 0)
        return -1;
    *step = best_s;
    *gap = best_k;
    return 0;
}

char *decade_label(char *buf, size_t size, int exponent)
{
    static const char prefixes[] = "kMGTPEZYRQ";
    if (exponent < -30 || exponent > 30) {
        snprintf(buf, size, "?");
    } else if (exponent < -3) {
        snprintf(buf, size, "1e%d", exponent);
    } else if (exponent < 0) {
        snprintf(buf, size, "%.*f", -exponent, pow(10.0, exponent));
    } else if (exponent < 3) {
        snprintf(buf, size, "%.0f", pow(10.0, exponent));
    } else {
        int group = exponent / 3;
        snprintf(buf, size, "%.0f%c", pow(10.0, exponent % 3), prefixes[group - 1]);
    }
    return buf;
}
