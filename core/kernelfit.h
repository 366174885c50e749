/* kernelfit.h — fitting a kernel model's constants to measured kernels, and
 * scoring the fit on rows it did not see.
 *
 * The fit minimises the squared relative errors (predicted / measured - 1,
 * the least-squares neighbour of the MAPE it is scored by) over a group's
 * rows (one kind, chip, engine and format) by Levenberg-Marquardt
 * (Marquardt 1963) with a numerical Jacobian; each constant moves in an
 * unbounded coordinate mapped into its range (kernel_param_range) by a
 * logistic, so no step leaves the range. Cross-validation splits the rows
 * into k folds by a fixed pseudo-random permutation (seeded, so a rerun
 * gives the same figures), fits on k - 1 and predicts the held-out one.
 * Pure: no I/O, allocation only in kernel_fit_cv (freed before it returns).
 */
#ifndef ROOFTOP_KERNELFIT_H
#define ROOFTOP_KERNELFIT_H

#include <stddef.h>

#include "kernels.h"

/* One measured kernel. */
struct kernel_obs {
    struct kernel_shape shape;
    double measured_s;    /* > 0 */
};

/* Fits p (kernel_param_count(kind) constants; their values on entry are
 * the start) to rows[0..n) of one kind on chip c, through at most
 * iterations Levenberg-Marquardt steps (60 is ample). rows[i].shape.kind
 * must all be kind; n >= 1. Returns the fitted mean absolute percentage
 * error over the rows (a fraction), or -1 when n is 0. */
double kernel_fit_params(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, enum rt_kernel_kind kind,
                         float p[RT_KERNEL_PARAMS], int iterations);

/* The mean absolute percentage error of p over rows (a fraction); the
 * median absolute error in *median when not NULL. -1 when n is 0. */
double kernel_mape(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, const float *p,
                   double *median);

/* k-fold cross-validation (folds >= 2, at most n): each row predicted by a
 * fit on the other folds, started from start. Writes each row's absolute
 * percentage error into err[0..n) when err is not NULL, and returns their
 * mean (a fraction); -1 on n < folds or no memory. seed picks the
 * permutation. */
double kernel_fit_cv(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, enum rt_kernel_kind kind,
                     const float start[RT_KERNEL_PARAMS], int folds, unsigned seed, int iterations, double *err);

#endif
