/* chips.h — accelerator descriptions and the built-in chip table.
 *
 * Every figure is the vendor's DENSE (no 2:4 sparsity) datasheet peak, in SI
 * units: FLOP/s, bytes, bytes/s, watts. The table's sources and the conflicts
 * between sources are carried per row (see ../shared/data/chips-reference.json
 * from which they were researched, and the `source` and `notes` fields).
 */
#ifndef ROOFTOP_CHIPS_H
#define ROOFTOP_CHIPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "realistic.h"
#include "units.h"

#define RT_CHIP_KEY_MAX 32
#define RT_CHIP_NAME_MAX 64
#define RT_CHIP_SOURCE_MAX 1024
#define RT_CHIP_NOTES_MAX 512
#define RT_CHIP_CONFLICTS_MAX 768
#define RT_CHIP_CONFLICT_LINE_MAX 320 /* one statement of conflicts */
#define RT_CHIP_ORIGIN_MAX 256
#define RT_CHIP_PRICE_SOURCE_MAX 160
#define RT_MAX_PRICE_USD_PER_CHIP_HOUR 1e4 /* a chip-hour dearer than this is a typo */

/* The physical range of a chip's figures, for chip files, scenario files
 * and the override flags alike. Wide enough for anything built or planned
 * (a wafer-scale chip's on-chip SRAM runs at ~2e16 B/s; the largest HBM
 * stacks hold ~3e11 bytes); narrow enough that a typo (1e-300, 1e30) is
 * refused rather than turned into an absurd count of chips. */
#define RT_MIN_PEAK_FLOPS 1e9     /* FLOP/s: a tensor or vector peak */
#define RT_MAX_PEAK_FLOPS 1e21
#define RT_MIN_HBM_BYTES 1e6      /* bytes of memory per chip */
#define RT_MAX_HBM_BYTES 1e15
#define RT_MIN_BYTES_PER_S 1e6    /* memory, interconnect and scale-out bandwidth */
#define RT_MAX_BYTES_PER_S 1e17

/* One accelerator. A value type: copying it copies everything (no pointers),
 * so a scenario that holds one stays valid on its own. */
struct chip_spec {
    char key[RT_CHIP_KEY_MAX];   /* short name, the CLI contract: "h100", "tpu-v5e" */
    char name[RT_CHIP_NAME_MAX]; /* display name: "NVIDIA H100 SXM5 80GB" */
    /* Dense matmul peak per precision in FLOP/s (OP/s for integers); 0 when
     * the chip has no native matmul at that precision. */
    double peak_flops_per_s[RT_PRECISION_COUNT];
    double hbm_bytes;                /* device memory capacity, bytes */
    double hbm_bytes_per_s;          /* device memory bandwidth, bytes/s */
    double interconnect_bytes_per_s; /* chip-to-chip, aggregate bidirectional, bytes/s */
    double tdp_w;                    /* board power, W; 0 when unpublished */
    char source[RT_CHIP_SOURCE_MAX]; /* where the figures come from */
    char notes[RT_CHIP_NOTES_MAX];   /* caveats: what the figures mean, what the chip lacks */
    char origin[RT_CHIP_ORIGIN_MAX]; /* "built-in", or the file it was read from */
    bool sparse_halved;              /* the file gave sparse peaks; they were halved once on load */
    /* Vector-unit (non-tensor) throughput in FLOP/s for element-wise work:
     * norms, activations, softmax, residuals; 0 when unpublished. */
    double vector_flops_per_s;
    /* What real kernels achieve on this chip (realistic.h): fitted for the
     * chips with published measurements, else not present (the generic
     * profile applies); sm_count is the datasheet's SM or CU count. */
    struct efficiency_profile efficiency;
    /* Beyond one chip (parallel.h): how many chips one scale-up domain
     * joins at interconnect_bytes_per_s (an NVLink/NVSwitch box, a TPU ICI
     * pod, an Infinity Fabric node), and what each chip has to chips outside
     * it (InfiniBand, Ethernet), aggregate bidirectional bytes/s like the
     * interconnect. 0 = unpublished: the domain is then taken to hold every
     * chip, and a report says so. */
    int64_t scale_up_domain;
    double scale_out_bytes_per_s;
    /* An indicative rental price: USD per chip-hour, on-demand list price of
     * a public cloud, divided by the chips of the instance; 0 = unpublished
     * (never "free"). price_source names the offer and its date. */
    double price_usd_per_chip_hour;
    char price_source[RT_CHIP_PRICE_SOURCE_MAX];
    /* What measured kernels achieve on this chip (kernels.h): empty for a
     * built-in chip (kernel_view_for finds its measured sibling in the
     * built-in map); a chip file may name a sibling or carry fits of its
     * own (--calibrate writes them). */
    struct kernel_profile kernels;
    /* The caches' bandwidths, bytes/s, for the hierarchical roofline of
     * measured kernels that carry their L2 and L1 bytes; 0 = unpublished
     * (vendors publish none for these chips: a chip file may state them,
     * with its source, and a rocprof-compute roofline.csv measures them). */
    double l2_bytes_per_s, l1_bytes_per_s;
    /* Figures where the sources disagree, one statement a line ('\n' between
     * them, none at the end): "HBM bandwidth: 819 GB/s (docs, the guide) vs
     * 8.1e11 / 8.2e11 (scaling-book, JAX)". Empty when none is known. */
    char conflicts[RT_CHIP_CONFLICTS_MAX];
};

/* A run of chips to choose from: the built-ins, or the built-ins and the
 * user's chip files (chip_db_list). Borrowed storage. */
struct chip_list {
    const struct chip_spec *items;
    size_t count;
};

/* The built-in chips as a list (static storage). */
struct chip_list chip_builtin_list(void);

/* Finds a chip of list by short name, alias or display name, ignoring case
 * and every character that is not a letter or digit ("TPU v5e" = "tpu-v5e"
 * = "tpuv5e"; the aliases "v5e", "a100", "ironwood" ... name built-in keys).
 * Returns NULL when none matches. */
const struct chip_spec *chip_list_find(struct chip_list list, const char *name);

/* Index in list of the chip whose key is key, or -1. */
int chip_list_index(struct chip_list list, const char *key);

/* Number of built-in chips (at least the 14 the CLI contract names). */
size_t chip_builtin_count(void);

/* The i-th built-in chip, i in [0, chip_builtin_count()); NULL outside. */
const struct chip_spec *chip_builtin(size_t i);

/* chip_list_find over the built-in chips. */
const struct chip_spec *chip_find(const char *name);

#endif
