/* plotmath.h — log-axis arithmetic for plots: whole-decade ranges, the
 * position of a value on a log axis and the decade's SI label.
 *
 * Pure functions, no drawing: the explorer's roofline plot (tui/plot.c) and
 * any future report that draws a roofline use these, so the axis maths is
 * tested once, away from the terminal.
 */
#ifndef ROOFTOP_PLOTMATH_H
#define ROOFTOP_PLOTMATH_H

#include <stddef.h>

/* Widest axis log_axis_decades returns, in decades. */
#define PLOT_MAX_DECADES 16

/* The whole-decade range [10^*dec_lo, 10^*dec_hi] that covers [lo, hi]:
 * dec_lo = floor(log10(lo)) and dec_hi = floor(log10(hi)) + 1, so the
 * largest value always has headroom below the top of the axis. Widened
 * upward to at least min_decades (clamped to [1, PLOT_MAX_DECADES]) and
 * narrowed from the bottom to at most PLOT_MAX_DECADES. lo and hi must be
 * finite and > 0 (they are swapped when lo > hi). Returns 0, or -1 with the
 * outputs untouched on invalid input. */
int log_axis_decades(double lo, double hi, int min_decades, int *dec_lo, int *dec_hi);

/* Where value falls on a log axis from 10^dec_lo (position 0) to 10^dec_hi
 * (position span): (log10(value) - dec_lo) / (dec_hi - dec_lo) x span. Not
 * clamped: values outside the range fall outside [0, span]. Returns NAN when
 * value <= 0 or not finite, or dec_hi <= dec_lo. */
double log_axis_position(double value, int dec_lo, int dec_hi, double span);

/* The inverse of log_axis_position: the value at position pos of [0, span].
 * Returns NAN when span <= 0 or dec_hi <= dec_lo. */
double log_axis_value(double pos, int dec_lo, int dec_hi, double span);

/* Ticks on equal cell intervals for a log axis of `decades` whole decades
 * drawn over `cells` character cells (ticks on cells 0 .. cells-1): a tick
 * every *step decades, *gap cells apart, so that a decade always spans
 * *gap / *step cells and every tick lands on a whole cell (a log axis spaces
 * decades evenly). *gap >= min_gap and decades x *gap / *step <= cells - 1
 * (the range fits); among the steps 1 .. decades it takes the smallest whose
 * ticks fill at least three quarters of the cells, else the one that fills
 * most. decades in [1, PLOT_MAX_DECADES], cells >= 2, min_gap >= 1; returns
 * 0, or -1 with the outputs untouched when no step fits (too few cells) or
 * on invalid input. Example: 5 decades on 10 rows, min_gap 1: step 2, gap 3
 * (1 decade per row would fill 5 of 9 rows). */
int log_axis_ticks(int decades, int cells, int min_gap, int *step, int *gap);

/* The tick label of 10^exponent in ASCII SI style, never superscripts:
 * "1", "10", "100", "1k", "10k", "100k", "1M", "1G", "1T", "10T", "1P", "1E";
 * below 1, "0.1", "0.01", "0.001", then "1e-4". exponent in [-30, 30];
 * outside it, "?". Returns buf (size bytes, NUL-terminated). */
char *decade_label(char *buf, size_t size, int exponent);

#endif
