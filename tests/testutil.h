/* testutil.h — shared helpers for rooftop's cmocka tests. */
#ifndef ROOFTOP_TESTUTIL_H
#define ROOFTOP_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "analysis.h"

/* Asserts that v printed with fmt reads exactly want: the guide's figures are
 * checked to the printed digit, as the guide prints them. */
#define ASSERT_PRINTED(fmt, v, want)                                                                                   \
    do {                                                                                                               \
        char printed_[64];                                                                                             \
        snprintf(printed_, sizeof printed_, fmt, (v));                                                                 \
        assert_string_equal(printed_, want);                                                                           \
    } while (0)

/* Asserts |got - want| <= tol. */
#define ASSERT_NEAR(got, want, tol)                                                                                    \
    do {                                                                                                               \
        double got_ = (got), want_ = (want), tol_ = (tol);                                                             \
        if (!(got_ >= want_ - tol_ && got_ <= want_ + tol_))                                                           \
            fail_msg("%s = %.17g, want %.17g +/- %g", #got, got_, want_, tol_);                                         \
    } while (0)

/* The default scenario with the guide's napkin giving the verdict (the
 * default verdict is the realistic estimate's; the guide's tables are the
 * napkin's, exactly). */
static inline void guide_napkin(struct scenario *s)
{
    scenario_default(s);
    s->latency_model = RT_LATENCY_NAPKIN;
}

/* Analyzes s, failing the test with analyze()'s message when it refuses. */
static inline struct analysis must_analyze(const struct scenario *s)
{
    struct analysis a;
    char err[256];
    if (analyze(s, &a, err, sizeof err) != 0)
        fail_msg("analyze refused: %s", err);
    return a;
}

#endif
