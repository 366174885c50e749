/* kernelfit.c — Levenberg-Marquardt over a kernel model's constants. */
#include "kernelfit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A constant's position in its range as an unbounded coordinate: u =
 * logit((v - lo) / (hi - lo)); v = lo + (hi - lo) / (1 + e^-u). */
static double to_coord(double v, double lo, double hi)
{
    double f = (v - lo) / (hi - lo);
    f = fmin(fmax(f, 1e-6), 1.0 - 1e-6);
    return log(f / (1.0 - f));
}

static double to_value(double u, double lo, double hi)
{
    return lo + (hi - lo) / (1.0 + exp(-u));
}

/* The free constants of kind for shapes like s: those with a range wider
 * than a point that the shapes use (kernel_param_used). */
static int free_params(enum rt_kernel_kind kind, const struct kernel_shape *s, int idx[RT_KERNEL_PARAMS], double lo[],
                       double hi[])
{
    int n = 0;
    for (int i = 0; i < kernel_param_count(kind); i++) {
        double a, b;
        kernel_param_range(kind, i, &a, &b);
        if (b > a && kernel_param_used(s, i)) {
            idx[n] = i;
            lo[n] = a;
            hi[n] = b;
            n++;
        }
    }
    return n;
}

static void coords_to_params(const double *u, int np, const int *idx, const double *lo, const double *hi, float *p)
{
    for (int j = 0; j < np; j++)
        p[idx[j]] = (float)to_value(u[j], lo[j], hi[j]);
}

/* The loss is soft-L1 on the relative error (as scipy's least_squares
 * calls it): about r^2 for errors well under DELTA, growing as |r| above,
 * so that a few rows a model cannot follow (a kernel the library swaps in
 * at one shape) do not pull every other row off. */
#define LOSS_DELTA 0.15

static double loss_of(double r)
{
    double z = r / LOSS_DELTA;
    return 2.0 * LOSS_DELTA * LOSS_DELTA * (sqrt(1.0 + z * z) - 1.0);
}

/* Relative residuals of p over the rows, and their total loss. */
static double residuals(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, const float *p,
                        double *r)
{
    double ss = 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = kernel_time(&rows[i].shape, c, p, 1.0, 1.0, NULL);
        r[i] = t / rows[i].measured_s - 1.0;
        ss += loss_of(r[i]);
    }
    return ss;
}

/* Solves the np x np system a x = b in place by Gaussian elimination with
 * partial pivoting; returns -1 when singular. */
static int solve(double *a, double *b, int np)
{
    for (int col = 0; col < np; col++) {
        int piv = col;
        for (int r = col + 1; r < np; r++)
            if (fabs(a[r * np + col]) > fabs(a[piv * np + col]))
                piv = r;
        if (fabs(a[piv * np + col]) < 1e-300)
            return -1;
        if (piv != col) {
            for (int k = 0; k < np; k++) {
                double t = a[col * np + k];
                a[col * np + k] = a[piv * np + k];
                a[piv * np + k] = t;
            }
            double t = b[col];
            b[col] = b[piv];
            b[piv] = t;
        }
        for (int r = col + 1; r < np; r++) {
            double f = a[r * np + col] / a[col * np + col];
            for (int k = col; k < np; k++)
                a[r * np + k] -= f * a[col * np + k];
            b[r] -= f * b[col];
        }
    }
    for (int r = np - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < np; k++)
            s -= a[r * np + k] * b[k];
        b[r] = s / a[r * np + r];
    }
    return 0;
}

/* Levenberg-Marquardt over the continuous constants of p (the discrete ones held); returns the total
 * loss at the end. */
static double fit_continuous(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c,
                             enum rt_kernel_kind kind, float p[RT_KERNEL_PARAMS], int iterations);

double kernel_fit_params(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, enum rt_kernel_kind kind,
                         float p[RT_KERNEL_PARAMS], int iterations)
{
    if (n == 0)
        return -1.0;
    /* Three starts (the defaults, a faster and a slower kernel), each refitted briefly; the best kept. */
    double best = fit_continuous(rows, n, c, kind, p, iterations / 2);
    if (isinf(best)) /* no memory for the fit's work arrays */
        return -1.0;
    for (int k = 1; k <= 2; k++) {
        float trial[RT_KERNEL_PARAMS];
        memcpy(trial, p, sizeof trial);
        kernel_alt_start(kind, k, trial);
        double ss = fit_continuous(rows, n, c, kind, trial, iterations / 2);
        if (ss < best) {
            best = ss;
            memcpy(p, trial, sizeof trial);
        }
    }
    /* The discrete constants (a kernel's tile, its dispatch switches): each value tried in turn, the others
     * held, the continuous constants refitted briefly for each; the best kept, then a full fit. */
    for (int i = 0; i < kernel_param_count(kind); i++) {
        const float *values;
        int nv = kernel_param_choices(kind, i, &values);
        for (int v = 0; v < nv; v++) {
            if (values[v] == p[i])
                continue;
            float trial[RT_KERNEL_PARAMS];
            memcpy(trial, p, sizeof trial);
            trial[i] = values[v];
            double ss = fit_continuous(rows, n, c, kind, trial, iterations / 2);
            if (ss < best) {
                best = ss;
                memcpy(p, trial, sizeof trial);
            }
        }
    }
    fit_continuous(rows, n, c, kind, p, iterations);
    return kernel_mape(rows, n, c, p);
}

static double fit_continuous(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c,
                             enum rt_kernel_kind kind, float p[RT_KERNEL_PARAMS], int iterations)
{
    int idx[RT_KERNEL_PARAMS];
    double lo[RT_KERNEL_PARAMS], hi[RT_KERNEL_PARAMS], u[RT_KERNEL_PARAMS] = {0};
    int np = free_params(kind, &rows[0].shape, idx, lo, hi);
    for (int j = 0; j < np; j++)
        u[j] = to_coord(p[idx[j]], lo[j], hi[j]);
    double *r = malloc(n * sizeof *r), *rt = malloc(n * sizeof *rt), *jac = malloc((n ? n : 1) * (size_t)(np ? np : 1) * sizeof *jac);
    if (!r || !rt || !jac) {
        free(r), free(rt), free(jac);
        return INFINITY;
    }
    float trial[RT_KERNEL_PARAMS];
    memcpy(trial, p, sizeof trial);
    coords_to_params(u, np, idx, lo, hi, trial);
    double ss = residuals(rows, n, c, trial, r), lambda = 1e-2;
    for (int it = 0; it < iterations && np > 0; it++) {
        /* Jacobian by forward differences in the unbounded coordinates. */
        for (int j = 0; j < np; j++) {
            double h = 1e-4 * fmax(1.0, fabs(u[j]));
            double keep = u[j];
            u[j] += h;
            coords_to_params(u, np, idx, lo, hi, trial);
            residuals(rows, n, c, trial, rt);
            for (size_t i = 0; i < n; i++)
                jac[i * (size_t)np + j] = (rt[i] - r[i]) / h;
            u[j] = keep;
        }
        /* Iteratively reweighted: each row weighted by the soft-L1 loss's curvature at its residual. */
        double jtj[RT_KERNEL_PARAMS * RT_KERNEL_PARAMS] = {0}, jtr[RT_KERNEL_PARAMS] = {0};
        for (size_t i = 0; i < n; i++) {
            double z = r[i] / LOSS_DELTA, w = 1.0 / sqrt(1.0 + z * z);
            for (int a = 0; a < np; a++) {
                double ja = jac[i * (size_t)np + a] * w;
                jtr[a] += ja * r[i];
                for (int b = 0; b < np; b++)
                    jtj[a * np + b] += ja * jac[i * (size_t)np + b];
            }
        }
        bool improved = false;
        for (int tries = 0; tries < 8 && !improved; tries++) {
            double a[RT_KERNEL_PARAMS * RT_KERNEL_PARAMS], step[RT_KERNEL_PARAMS], un[RT_KERNEL_PARAMS];
            memcpy(a, jtj, sizeof a);
            for (int d = 0; d < np; d++) {
                a[d * np + d] += lambda * (jtj[d * np + d] + 1e-9);
                step[d] = -jtr[d];
            }
            if (solve(a, step, np) != 0) {
                lambda *= 10.0;
                continue;
            }
            for (int d = 0; d < np; d++)
                un[d] = u[d] + fmax(-4.0, fmin(4.0, step[d]));
            coords_to_params(un, np, idx, lo, hi, trial);
            double ss_new = residuals(rows, n, c, trial, rt);
            if (ss_new < ss) {
                memcpy(u, un, sizeof(double) * (size_t)np);
                memcpy(r, rt, n * sizeof *r);
                bool small = ss - ss_new < 1e-9 * (1.0 + ss);
                ss = ss_new;
                lambda = fmax(lambda / 3.0, 1e-9);
                improved = true;
                if (small)
                    it = iterations;
            } else {
                lambda *= 4.0;
            }
        }
        if (!improved)
            break;
    }
    coords_to_params(u, np, idx, lo, hi, p);
    free(r), free(rt), free(jac);
    return ss;
}

double kernel_mape(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, const float *p)
{
    if (n == 0)
        return -1.0;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += fabs(kernel_time(&rows[i].shape, c, p, 1.0, 1.0, NULL) - rows[i].measured_s) / rows[i].measured_s;
    return sum / (double)n;
}

/* A small fixed-seed generator (xorshift32) for the fold permutation. */
static unsigned next_random(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

double kernel_fit_cv(const struct kernel_obs *rows, size_t n, const struct kernel_chip *c, enum rt_kernel_kind kind,
                     const float start[RT_KERNEL_PARAMS], int folds, unsigned seed, int iterations)
{
    if (folds < 2 || n < (size_t)folds)
        return -1.0;
    size_t *perm = malloc(n * sizeof *perm);
    struct kernel_obs *train = malloc(n * sizeof *train);
    if (!perm || !train) {
        free(perm), free(train);
        return -1.0;
    }
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    unsigned state = seed ? seed : 0x9e3779b9u;
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = next_random(&state) % (i + 1);
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    double sum = 0.0;
    for (int f = 0; f < folds; f++) {
        size_t lo = n * (size_t)f / (size_t)folds, hi = n * (size_t)(f + 1) / (size_t)folds, m = 0;
        for (size_t i = 0; i < n; i++)
            if (i < lo || i >= hi)
                train[m++] = rows[perm[i]];
        float p[RT_KERNEL_PARAMS];
        memcpy(p, start, sizeof p);
        kernel_fit_params(train, m, c, kind, p, iterations);
        for (size_t i = lo; i < hi; i++) {
            const struct kernel_obs *o = &rows[perm[i]];
            double t = kernel_time(&o->shape, c, p, 1.0, 1.0, NULL);
            sum += fabs(t - o->measured_s) / o->measured_s;
        }
    }
    free(perm), free(train);
    return sum / (double)n;
}
