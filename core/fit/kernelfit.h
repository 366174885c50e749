/* kernelfit.h — fitting a kernel model's constants to measured kernels, and
 * scoring the fit on rows it did not see.
 *
 * The fit minimises a soft-L1 loss of the relative errors (predicted /
 * measured - 1: about their square below 0.15, growing as their size above,
 * so that a few rows a model cannot follow do not pull the rest off; scipy's
 * least_squares calls it soft_l1) over a group's rows (one kind, chip,
 * engine and format) by iteratively reweighted Levenberg-Marquardt
 * (Marquardt 1963) with a numerical Jacobian; each constant moves in an
 * unbounded coordinate mapped into its range (kernel_param_range) by a
 * logistic, so no step leaves the range. Cross-validation splits the rows
 * into k folds by a fixed pseudo-random permutation (seeded, so a rerun
 * gives the same figures), fits on k - 1 and predicts the held-out one.
 * Pure: no I/O; the fits allocate work arrays and free them before they
 * return (out of memory: -1).
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
 * error over the rows (a fraction), or -1 when n is 0 or memory runs out
 * (p is then left as it came). */
double kernel_fit_params(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, enum rt_kernel_kind kind,
                         float p[RT_KERNEL_PARAMS], int iterations);

/* The mean absolute percentage error of p over rows (a fraction); -1 when
 * n is 0. */
double kernel_mape(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, const float *p);

/* k-fold cross-validation (folds >= 2, at most n): each row predicted by a
 * fit on the other folds, started from start. Returns the mean absolute
 * percentage error of those predictions (a fraction); -1 on n < folds or no
 * memory. seed picks the permutation. */
double kernel_fit_cv(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, enum rt_kernel_kind kind,
                     const float start[RT_KERNEL_PARAMS], int folds, unsigned seed, int iterations);

#endif
