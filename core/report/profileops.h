/* profileops.h — a profile's kernels grouped into rooftop's operations,
 * their measured time beside the floor and the realistic estimate of the
 * same operations in the scenario: where the real run spends its time
 * against where the model says it should (the guide's companion post: when
 * the model-level roofline misleads, go per operation, then to the
 * profiler). Pure: no I/O. */
#ifndef ROOFTOP_PROFILEOPS_H
#define ROOFTOP_PROFILEOPS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "calibrate.h"

#define RT_PROFILE_OPS 12

/* One of rooftop's operations (or a kind of kernel the model has no
 * operation for), with the measured kernels it holds. */
struct profile_op_row {
    char name[40];        /* "qkv projection", "mlp", "attention", ..., "copies and memsets", "other kernels" */
    double measured_s;    /* the kernels' summed time (one chip) */
    size_t points;        /* measured points grouped here */
    bool in_model;        /* the scenario has this operation in the chosen phase */
    double floor_s;       /* the scenario's floor for it, per chip (0 when not in the model) */
    double realistic_s;   /* the scenario's realistic estimate for it, per chip */
};

/* The comparison. */
struct profile_ops {
    char phase[16];          /* the scenario's phase compared: "prefill", "decode" or "training" */
    double model_flops;      /* that phase's operations' FLOPs per chip */
    double counted_flops;    /* the points' FLOPs */
    bool comparable;         /* the two within 3x of each other: the scenario describes the profiled step */
    size_t above_left_out;   /* points above their roofs, left out (as points_utilization leaves them out) */
    int count;               /* rows in use, in a fixed order, empty ones left out */
    struct profile_op_row rows[RT_PROFILE_OPS];
};

/* Groups n points into rooftop's operations for scenario s analysed as a:
 * a GEMM by its shape against the model's widths (N = vocab: lm head; d_ff
 * in or out: mlp; d_model in and the query, key/value or fused width out:
 * qkv projection; the query width in and d_model out: output projection;
 * both at once, when those widths are equal and the profile has no fused
 * QKV projection to tell the output one by: "qkv + output projection"),
 * each width also divided by the tensor-parallel degree; attention, norms,
 * element-wise work, experts, copies and communication by their kind
 * (measured_point.kind, else point_kind_from_name); when the profile has
 * no norm kernels but element-wise ones, the model's norms join that row
 * ("element-wise + norms": an eager RMSNorm is pow, mean, rsqrt and mul).
 * The phase compared is
 * the one whose operations' FLOPs per chip are nearest the counted FLOPs
 * (each placement's time_s and realistic_time_s are per chip already).
 * Returns 0, or
 * -1 when no point has a time (out is then empty). */
int profile_by_operation(const struct measured_point *pts, size_t n, const struct scenario *s,
                         const struct analysis *a, struct profile_ops *out);

#endif
