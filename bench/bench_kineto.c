/* bench_kineto.c — how fast and in how much memory a PyTorch profiler
 * (Kineto) trace is read (issue 20's target: under a second per 100k
 * events, in bounded memory, for a 50 MB trace). It writes a synthetic
 * trace in today's layout to a temporary file — per operator call a
 * python_function, a cpu_op with Input Dims, a cuda_runtime launch, a
 * kernel with a long templated name, and a flow event, as torch.profiler
 * writes them — plain and gzip-compressed, and reads each through
 * kineto_read_path. Medians of repeated reads; the peak resident set is
 * the process's (getrusage), before and after. BENCH_QUICK=1 writes a
 * tenth of the trace and reads it 3 times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include "benchutil.h"

#include "profile_kineto.h"

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Writes calls operator calls (5 events each) as a trace to path, plain or
 * gzip. Returns the events written, or 0 on failure. */
static size_t write_trace(const char *path, size_t calls, int gz)
{
    gzFile g = gzopen(path, gz ? "wb6" : "wbT"); /* T: a plain file */
    if (!g)
        return 0;
    gzprintf(g, "{\"schemaVersion\": 1, \"deviceProperties\": [{\"name\": \"Synthetic GPU\"}],\n\"traceEvents\": [\n");
    static const char *const shapes[] = {"[[8192, 4096], [4096, 4096]]", "[[8192, 4096], [4096, 14336]]",
                                         "[[8192, 14336], [14336, 4096]]"};
    size_t events = 0;
    double ts = 1.0e12;
    for (size_t i = 0; i < calls; i++, ts += 100.0) {
        const char *shape = shapes[i % 3];
        gzprintf(g,
                 "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"torch/nn/modules/linear.py(125): "
                 "forward\", \"pid\": 1, \"tid\": 1, \"ts\": %.3f, \"dur\": 40.5, \"args\": {\"Python parent id\": "
                 "%zu, \"Python id\": %zu, \"Python thread\": 0}},\n",
                 ts, i, i + 1);
        gzprintf(g,
                 "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": %.3f, "
                 "\"dur\": 30.25, \"args\": {\"External id\": %zu, \"Record function id\": 0, \"Concrete Inputs\": "
                 "[\"\", \"\"], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"], \"Input Strides\": [[4096, "
                 "1], [1, 4096]], \"Input Dims\": %s, \"Ev Idx\": %zu}},\n",
                 ts + 1, i + 1, shape, i);
        gzprintf(g,
                 "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
                 "\"ts\": %.3f, \"dur\": 5.5, \"args\": {\"External id\": %zu, \"cbid\": 211, \"correlation\": "
                 "%zu}},\n",
                 ts + 2, i + 1, 100000 + i);
        gzprintf(g,
                 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_"
                 "tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas\", \"pid\": 0, "
                 "\"tid\": 7, \"ts\": %.3f, \"dur\": 80.125, \"args\": {\"queued\": 0, \"device\": 0, \"context\": "
                 "1, \"stream\": 7, \"correlation\": %zu, \"registers per thread\": 168, \"shared memory\": "
                 "213248, \"blocks per SM\": 1.939394, \"warps per SM\": 7.757576, \"grid\": [256, 1, 1], "
                 "\"block\": [384, 1, 1], \"est. achieved occupancy %%\": 12}},\n",
                 ts + 10, 100000 + i);
        gzprintf(g,
                 "{\"ph\": \"f\", \"id\": %zu, \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"cat\": \"ac2g\", \"name\": "
                 "\"ac2g\", \"bp\": \"e\"}%s\n",
                 100000 + i, ts + 10, i + 1 < calls ? "," : "");
        events += 5;
    }
    gzprintf(g, "]}\n");
    return gzclose(g) == Z_OK ? events : 0;
}

static long file_bytes(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* Reads path reps times; returns the median seconds, or -1. */
static double time_reads(const char *path, int reps, size_t *groups)
{
    double s[16];
    char err[400];
    for (int r = 0; r < reps; r++) {
        struct kineto_trace t;
        double t0 = now_s();
        if (kineto_read_path(path, path, &t, err, sizeof err) != 0) {
            fprintf(stderr, "bench_kineto: %s\n", err);
            return -1.0;
        }
        s[r] = now_s() - t0;
        *groups = t.group_count;
        kineto_free(&t);
    }
    return median(s, (size_t)reps);
}

int main(void)
{
    const int quick = bench_quick();
    const size_t calls = quick ? 3700 : 37000; /* 185k events, ~50 MB plain */
    const int reps = quick ? 3 : 7;
    char plain[] = "/tmp/rooftop-bench-kineto-XXXXXX";
    int fd = mkstemp(plain);
    if (fd < 0) {
        perror("bench_kineto: mkstemp");
        return 1;
    }
    close(fd);
    char gz[sizeof plain + 3];
    snprintf(gz, sizeof gz, "%s.gz", plain);
    size_t events = write_trace(plain, calls, 0);
    if (!events || !write_trace(gz, calls, 1)) {
        fprintf(stderr, "bench_kineto: cannot write the trace\n");
        unlink(plain);
        unlink(gz);
        return 1;
    }
    long before = peak_rss_kib();
    size_t groups = 0;
    double plain_s = time_reads(plain, reps, &groups);
    double gz_s = time_reads(gz, reps, &groups);
    long after = peak_rss_kib();
    long plain_bytes = file_bytes(plain), gz_bytes = file_bytes(gz);
    unlink(plain);
    unlink(gz);
    if (plain_s < 0 || gz_s < 0)
        return 1;
    double per100k_plain = plain_s * 1e5 / (double)events, per100k_gz = gz_s * 1e5 / (double)events;
    printf("kineto trace, %zu events, %.1f MB plain, %.1f MB gzip, %zu groups (median of %d reads)\n", events,
           plain_bytes / 1e6, gz_bytes / 1e6, groups, reps);
    printf("  plain  %.3f s  = %.3f s per 100k events   (target < 1 s: %s)\n", plain_s, per100k_plain,
           target_met(per100k_plain < 1.0));
    printf("  gzip   %.3f s  = %.3f s per 100k events   (target < 1 s: %s)\n", gz_s, per100k_gz,
           target_met(per100k_gz < 1.0));
    printf("  peak resident set %ld KiB before the reads, %ld KiB after: +%ld KiB for a %.1f MB trace "
           "(target < 64 MiB: %s)\n",
           before, after, after - before, plain_bytes / 1e6, target_met(after - before < 64 * 1024));
    return 0;
}
