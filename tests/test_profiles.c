/* test_profiles.c — profiler exports read as measured kernels, against the
 * figures read by hand in each fixture's .source.txt (tests/fixtures/
 * profiles/, copied byte for byte from ../shared/fixtures/profiles/ with
 * their sources): Nsight Compute's long and raw CSV shapes, ==PROF== lines,
 * TraceLens operation tables,
 * thousands separators, SI units, "n/a", a failed run's log; and a kernel
 * with no FLOPs placed by its bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "calibrate.h"
#include "fileio.h"
#include "measured.h"
#include "profile_ncu.h"
#include "profile_rocprof.h"

#define NCU "tests/fixtures/profiles/ncu/"

/* Reads a fixture export into kernels; returns ncu_read's status. */
static int read_ncu(const char *file, struct ncu_kernel *k, size_t max, size_t *n, char *err, size_t errsize)
{
    char path[256], *text;
    size_t len;
    snprintf(path, sizeof path, NCU "%s", file);
    if (read_file(path, &text, &len, err, errsize) != 0)
        fail_msg("%s", err);
    assert_true(ncu_looks_like(text, len));
    int rc = ncu_read(path, text, len, k, max, n, err, errsize);
    free(text);
    return rc;
}

/* RTX 5090, cutlass bf16 GEMM, long form of ncu 2025: 404.70 us; DRAM
 * 63.77 Mbyte + 197.38 Kbyte read and written (decimal prefixes, which the
 * RooflineChart section's 158.07 GB/s confirms); tensor FLOPs 45,902,462,976
 * from sm__ops_path_tensor_src_bf16_dst_fp32; flop_count_sp "n/a". */
static void test_ncu_long_tensor(void **state)
{
    (void)state;
    struct ncu_kernel k[4];
    size_t n;
    char err[300];
    assert_int_equal(read_ncu("rtx5090_dsocr_bf16_gemm_long_2025.csv", k, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    ASSERT_NEAR(k[0].time_s, 404.70e-6, 1e-12);
    ASSERT_NEAR(k[0].dram_bytes, 63970000.0 - 2620.0, 1e-3); /* 63,770,000 + 197,380 */
    ASSERT_NEAR(k[0].dram_bytes / k[0].time_s / 1e9, 158.06, 0.01);
    ASSERT_NEAR(k[0].tensor_flops, 45902462976.0, 0);
    assert_int_equal(k[0].tensor_precision, RT_BF16);
    ASSERT_NEAR(k[0].tensor_flops / k[0].dram_bytes, 717.6, 0.05);
}

/* A100, cuDNN fp32 conv: 12 lines of program output before the header,
 * ragged rows, rule rows; no gpu__time_duration: 6,387.24 cycles at
 * 959,621,505.52 cycle/s = 6.656 us; fp32 0 + 16,384 + 2 x 524,288 and fp16
 * 2 x 20,480 SASS FLOPs; 66,048 DRAM, 877,856 L2, 344,064 L1 bytes; its
 * pipe_tensor instructions not read as FLOPs. */
static void test_ncu_long_sass(void **state)
{
    (void)state;
    struct ncu_kernel k[4];
    size_t n;
    char err[300];
    assert_int_equal(read_ncu("a100_cudnn_conv2d_sgemm_long_rules.csv", k, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    ASSERT_NEAR(k[0].time_s, 6387.24 / 959621505.52, 1e-15);
    ASSERT_NEAR(k[0].sass_flops, 1064960.0 + 40960.0, 0);
    ASSERT_NEAR(k[0].dram_bytes, 66048, 0);
    ASSERT_NEAR(k[0].l2_bytes, 877856, 0);
    ASSERT_NEAR(k[0].l1_bytes, 344064, 0);
    assert_true(k[0].tensor_flops < 0.0); /* no tensor ops counter: absent, not 0 */
}

/* A100, cutlass fp16 GEMM: 11 kernels whose names run to 5,000
 * characters; ID 4 131.697 ms (cycles over rate) and 147,469,918,080 DRAM
 * bytes; ID 10 (cuBLAS) 106.975 ms. No FLOP counters: placed by bytes. */
static void test_ncu_long_names_and_copies(void **state)
{
    (void)state;
    struct ncu_kernel k[16];
    size_t n;
    char err[300];
    assert_int_equal(read_ncu("a100_cutlass_fp16_gemm_long_progstdout.csv", k, 16, &n, err, sizeof err), 0);
    assert_int_equal(n, 11);
    ASSERT_NEAR(k[4].time_s * 1e3, 131.697, 0.001);
    ASSERT_NEAR(k[4].dram_bytes, 147469918080.0, 0);
    ASSERT_NEAR(k[10].time_s * 1e3, 106.975, 0.001);
    double total = 0.0;
    for (size_t i = 0; i < n; i++)
        total += k[i].time_s;
    ASSERT_NEAR(total * 1e3, 906.23, 0.01);
    struct measured_point p[16];
    size_t count, skipped;
    assert_int_equal(ncu_points("x.csv", k, n, p, 16, &count, &skipped, err, sizeof err), 0);
    assert_int_equal(count, 11);
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("a100");
    struct point_placement pp;
    assert_int_equal(point_place(&p[4], &s, &pp), 0);
    assert_true(pp.by_bytes); /* no FLOPs: its bandwidth, never 0% */
    ASSERT_NEAR(pp.fraction_of_roof, 147469918080.0 / k[4].time_s / s.chip.hbm_bytes_per_s, 1e-12);
}

/* B200 raw page: a units row under 475 columns, 16 kernels of 687.4 us
 * mean (10,998,400 ns in all); no DRAM bytes or FLOPs, so nothing to place,
 * and the message says what to profile. */
static void test_ncu_raw(void **state)
{
    (void)state;
    struct ncu_kernel k[32];
    size_t n;
    char err[300];
    assert_int_equal(read_ncu("b200_sdpa_flash_decode_raw.csv", k, 32, &n, err, sizeof err), 0);
    assert_int_equal(n, 16);
    ASSERT_NEAR(k[0].time_s, 687488e-9, 1e-15);
    double total = 0.0;
    for (size_t i = 0; i < n; i++)
        total += k[i].time_s;
    ASSERT_NEAR(total, 10998400e-9, 1e-12);
    struct measured_point p[32];
    size_t count, skipped;
    assert_int_equal(ncu_points("raw.csv", k, n, p, 32, &count, &skipped, err, sizeof err), -1);
    assert_non_null(strstr(err, "none of its 16 kernels has a time and DRAM bytes"));
}

/* A failed run's log: no kernel rows, and its ==ERROR== line said. */
static void test_ncu_failed_run(void **state)
{
    (void)state;
    struct ncu_kernel k[4];
    size_t n;
    char err[300];
    assert_int_equal(read_ncu("b200_failed_run_no_data.csv", k, 4, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "no kernel rows: ==ERROR== The application returned an error code (1)."));
}

/* --points takes an export, and a rooftop points file as before. */
static void test_points_files(void **state)
{
    (void)state;
    char *text, err[300];
    size_t len, count;
    if (read_file(NCU "rtx5090_dsocr_bf16_gemm_long_2025.csv", &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct measured_point p[RT_MAX_POINTS];
    struct load_warnings w = {0};
    assert_int_equal(measured_points_read("x.csv", text, len, p, RT_MAX_POINTS, &count, &w, err, sizeof err), 0);
    free(text);
    assert_int_equal(count, 1);
    ASSERT_NEAR(p[0].flops, 45902462976.0, 0);
    const char *own = "label,flops,bytes,seconds\ncopy,0,1e9,0.001\n";
    assert_int_equal(measured_points_read("own.csv", own, strlen(own), p, RT_MAX_POINTS, &count, &w, err, sizeof err),
                     0);
    struct scenario s;
    scenario_default(&s);
    s.chip = *chip_find("h100");
    struct point_placement pp;
    assert_int_equal(point_place(&p[0], &s, &pp), 0);
    assert_true(pp.by_bytes);
    ASSERT_NEAR(pp.fraction_of_roof, 1e12 / s.chip.hbm_bytes_per_s, 1e-12); /* 1 TB/s of H100's 3.35 */
}

/* TraceLens (H100, Qwen1.5-0.5B prefill): aten::mm 8944 x 2816 x 1024 in
 * bf16, 51.581550592 GFLOPs, 71.0078125 "MB" that are MiB (74,457,088 B),
 * 4055.25244 us over 48 calls (a call's mean 84.48 us); flash attention
 * 10.239377408 GFLOPs, 69.875 MiB, 2722.70434 us over 24 calls. */
static void test_tracelens(void **state)
{
    (void)state;
    const char *files[] = {"tests/fixtures/profiles/tracelens/h100_qwen1.5-0.5b_GEMM.csv",
                           "tests/fixtures/profiles/tracelens/h100_qwen1.5-0.5b_SDPA_fwd.csv"};
    struct measured_point p[RT_MAX_POINTS];
    size_t count;
    char err[300], *text;
    size_t len;
    struct load_warnings w = {0};
    for (int f = 0; f < 2; f++) {
        if (read_file(files[f], &text, &len, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(tracelens_looks_like(text, len));
        assert_int_equal(measured_points_read(files[f], text, len, p, RT_MAX_POINTS, &count, &w, err, sizeof err), 0);
        free(text);
        if (f == 0) {
            assert_int_equal(count, 5);
            assert_string_equal(p[0].label, "aten::mm 8944x2816x1024");
            /* the row is its 48 calls: name_count x a call's figures */
            ASSERT_NEAR(p[0].flops, 48 * 51581550592.0, 0);
            ASSERT_NEAR(p[0].bytes, 48 * 74457088.0, 0);
            ASSERT_NEAR(p[0].seconds, 4055.25244e-6, 1e-11);
            ASSERT_NEAR(p[0].kernels, 48, 0);
            assert_int_equal(p[0].kind, POINT_KIND_GEMM);
            ASSERT_NEAR(p[0].gemm_m, 8944, 0);
            ASSERT_NEAR(p[0].gemm_k, 1024, 0);
            ASSERT_NEAR(p[0].gemm_n, 2816, 0);
        } else {
            assert_int_equal(count, 1);
            ASSERT_NEAR(p[0].flops, 24 * 10239377408.0, 0);
            ASSERT_NEAR(p[0].bytes, 24 * 69.875 * 1048576, 0);
            ASSERT_NEAR(p[0].seconds, 2722.70434e-6, 1e-11);
            assert_int_equal(p[0].kind, POINT_KIND_ATTENTION);
        }
    }
}

/* Hostile exports: a malformed thousands group, an unknown unit and a value
 * past a kernel's range are refused by name, not read as 123 us, a zero
 * roof or an infinite rate. */
static void test_ncu_hostile(void **state)
{
    (void)state;
    const char *head = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    struct {
        const char *time, *bytes, *flops, *want;
    } cases[] = {
        {"\"us\",\"1,2,3\"", "\"byte\",\"1,000\"", "\"\",\"10\"", "gpu__time_duration.sum = '1,2,3' in 'us'"},
        {"\"fortnight\",\"5\"", "\"byte\",\"1,000\"", "\"\",\"10\"", "in 'fortnight'"},
        {"\"us\",\"5\"", "\"Mbyte\",\"1e307\"", "\"\",\"10\"", "inf bytes"},
        {"\"us\",\"5\"", "\"byte\",\"1,000\"", "\"\",\"1e308\"", "1e+308 FLOPs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], err[400];
        snprintf(text, sizeof text,
                 "%s\"0\",\"k\",\"gpu__time_duration.sum\",%s\n\"0\",\"k\",\"dram__bytes.sum\",%s\n"
                 "\"0\",\"k\",\"sm__ops_path_tensor_src_fp8_dst_fp32.sum\",%s\n",
                 head, cases[i].time, cases[i].bytes, cases[i].flops);
        struct measured_point p[4];
        size_t count;
        struct load_warnings w = {0};
        assert_int_equal(measured_points_read("h.csv", text, strlen(text), p, 4, &count, &w, err, sizeof err), -1);
        if (!strstr(err, cases[i].want))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].want);
    }
    /* well-formed, the same file places at fp8: 1,000 bytes in 5 us */
    char text[1024], err[400];
    snprintf(text, sizeof text,
             "%s\"0\",\"k\",\"gpu__time_duration.sum\",\"us\",\"5\"\n\"0\",\"k\",\"dram__bytes.sum\",\"byte\","
             "\"1,000\"\n\"0\",\"k\",\"sm__ops_path_tensor_src_fp8_dst_fp32.sum\",\"\",\"10\"\n",
             head);
    struct measured_point p[4];
    size_t count;
    struct load_warnings w = {0};
    assert_int_equal(measured_points_read("h.csv", text, strlen(text), p, 4, &count, &w, err, sizeof err), 0);
    ASSERT_NEAR(p[0].bytes, 1000, 0);
    ASSERT_NEAR(p[0].seconds, 5e-6, 1e-18);
    assert_int_equal(p[0].precision, RT_FP8);
}

/* Reads a fixture (tests/fixtures/profiles/DIR/FILE) whole; free it. */
static char *fixture(const char *dir_file, size_t *len)
{
    char path[256], err[300], *text;
    snprintf(path, sizeof path, "tests/fixtures/profiles/%s", dir_file);
    if (read_file(path, &text, len, err, sizeof err) != 0)
        fail_msg("%s", err);
    return text;
}

/* MI210 (gfx90a), rocprof-compute's roofline counters on its vcopy test
 * (3 dispatches of a double-precision copy): dispatch 0 lasts 20,160 ns and
 * moves 64 x 131,080 read + 64 x 131,072 written = 16,777,728 HBM bytes
 * (2 x 8 MiB ideal), L2 64 x (131,072 + 131,072) = 16,777,216, L1 64 x
 * 524,288 = 33,554,432; no FLOPs. Dispatch 1 writes only 64 x 91,060. */
static void test_rocprof_pmc_mi210(void **state)
{
    (void)state;
    size_t len, n;
    char *text = fixture("rocprof/mi210_omniperf_vcopy_roof_pmc_perf.csv", &len);
    assert_true(rocprof_pmc_looks_like(text, len));
    assert_false(ncu_looks_like(text, len));
    struct rocprof_dispatch d[8];
    char err[300];
    assert_int_equal(rocprof_pmc_read("mi210", text, len, d, 8, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(d[0].name, "vecCopy");
    ASSERT_NEAR(d[0].time_s, 20160e-9, 1e-15);
    ASSERT_NEAR(d[1].time_s, 15840e-9, 1e-15);
    ASSERT_NEAR(d[2].time_s, 16800e-9, 1e-15);
    ASSERT_NEAR(d[0].hbm_bytes, 16777728, 0);
    ASSERT_NEAR(d[1].hbm_bytes, 64.0 * 131081 + 64.0 * 91060, 0);
    ASSERT_NEAR(d[0].l2_bytes, 16777216, 0);
    ASSERT_NEAR(d[0].l1_bytes, 33554432, 0);
    ASSERT_NEAR(d[0].flops, 0, 0);
    struct measured_point p[8];
    size_t count;
    assert_int_equal(measured_points_read("mi210", text, len, p, 8, &count, NULL, err, sizeof err), 0);
    assert_int_equal(count, 3);
    assert_string_equal(p[0].label, "vecCopy #0");
    ASSERT_NEAR(p[0].flops, 0, 0); /* a copy: placed by its bytes */
    /* two points at most: one a kernel name, its dispatches summed */
    struct load_warnings w = {0};
    assert_int_equal(measured_points_read("mi210", text, len, p, 2, &count, &w, err, sizeof err), 0);
    assert_int_equal(count, 1);
    assert_string_equal(p[0].label, "vecCopy");
    ASSERT_NEAR(p[0].seconds, (20160 + 15840 + 16800) * 1e-9, 1e-15);
    ASSERT_NEAR(p[0].kernels, 3, 0);
    assert_int_equal(w.count, 1);
    free(text);
}

/* MI300A (gfx942: TCC_EA0_* and TCC_BUBBLE_sum, 590 columns), a Fortran
 * OpenMP offload in fp64: dispatch 4 lasts 1,738,166 ns, its FP64 FLOPs 64
 * x (12,582,912 + 2,097,152 + 2 x 12,582,912 + 2,097,152) = 2,684,354,560
 * and FP32 64 x (3,648 + 3,648) = 466,944; HBM read 128 x 32,145,755 + 64 x
 * (33,542,940 - 32,145,755 - 0) = 4,204,076,480, written 64 x 16,747,919 +
 * 32 x (17,449,973 - 16,747,919) = 1,094,332,544; L1 64 x 400,556,032. The
 * first dispatch's 430,646,701 ns (first touch on the APU) stays its own
 * point. */
static void test_rocprof_pmc_mi300a(void **state)
{
    (void)state;
    size_t len, n;
    char *text = fixture("rocprof/mi300a_omniperf_openmp_fp64_pmc_perf.csv", &len);
    struct rocprof_dispatch d[8];
    char err[300];
    assert_int_equal(rocprof_pmc_read("mi300a", text, len, d, 8, &n, err, sizeof err), 0);
    assert_int_equal(n, 6);
    ASSERT_NEAR(d[4].time_s, 1738166e-9, 1e-15);
    ASSERT_NEAR(d[4].flops, 2684354560.0 + 466944.0, 0);
    assert_true(d[4].vector_unit);
    ASSERT_NEAR(d[4].hbm_bytes, 4204076480.0 + 1094332544.0, 0);
    ASSERT_NEAR(d[4].l1_bytes, 64.0 * 400556032, 0);
    ASSERT_NEAR(d[0].time_s, 430646701e-9, 1e-15);
    assert_string_equal(d[4].name, "__omp_offloading_32_6b6b__QQmain_l61");
    free(text);
}

/* Files that hold kernel times only are told for what they are, with what
 * they hold: rocprof's kernel trace (1,004 dispatches; laplacian_kernel
 * 2,646,378,558 ns over 1,001 of them, its longest 2,659,219 ns) and its
 * --stats summary, Nsight Systems' kernel summary (46 kernels, 179,072,697
 * ns), rocprof-compute's roofline.csv of measured peaks. */
static void test_time_only_files(void **state)
{
    (void)state;
    static const struct {
        const char *file, *want;
    } cases[] = {
        {"rocprof/mi250x_rocprofv1_laplacian_kernel_trace.csv",
         "a rocprof kernel trace: 1004 rows, 2648.557 ms of kernel time (the largest laplacian_kernel, 2.659 ms)"},
        {"rocprof/mi250x_rocprofv1_laplacian_stats.csv",
         "rocprof's --stats summary: 4 rows, 2648.557 ms of kernel time (the largest laplacian_kernel, 2646.379 ms)"},
        {"nsys/rtx5090_dsocr_decode_cuda_gpu_kern_sum.csv", "cuda_gpu_kern_sum): 46 rows, 179.073 ms of kernel time"},
        {"rocprof/mi210_omniperf_vcopy_roofline.csv", "roofline.csv, the chip's measured peaks"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len, count;
        char *text = fixture(cases[i].file, &len), err[500];
        struct measured_point p[4];
        assert_int_equal(measured_points_read("f.csv", text, len, p, 4, &count, NULL, err, sizeof err), -1);
        if (!strstr(err, cases[i].want))
            fail_msg("%s: '%s' lacks '%s'", cases[i].file, err, cases[i].want);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ncu_long_tensor),   cmocka_unit_test(test_ncu_long_sass),
        cmocka_unit_test(test_ncu_long_names_and_copies), cmocka_unit_test(test_ncu_raw),
        cmocka_unit_test(test_ncu_failed_run),    cmocka_unit_test(test_points_files),
        cmocka_unit_test(test_tracelens),         cmocka_unit_test(test_ncu_hostile),
        cmocka_unit_test(test_rocprof_pmc_mi210), cmocka_unit_test(test_rocprof_pmc_mi300a),
        cmocka_unit_test(test_time_only_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
