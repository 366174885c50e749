/* bench_json.c — how long a hostile JSON file takes to read: one object of
 * 200k keys, and of 1.2M keys (about what the 16 MiB size cap admits),
 * through json_parse_text (cJSON's parse, then the duplicate-key pass), and
 * through cJSON's parse alone, to show what the duplicate pass adds. The
 * pass used to compare every pair of keys: 80k keys took 10 s and 200k
 * stalled for minutes. Medians of repeated samples. */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"

#include "jsonio.h"

#define SAMPLES 7

/* {"0":0,"1":1,...,"ff":255,...}: n distinct keys (hexadecimal, as short
 * as they come, so 1.2M keys fit under the 16 MiB cap), the last one
 * repeating the first when duplicate. Returns a new buffer. */
static char *object_of(size_t n, bool duplicate, size_t *len)
{
    char *text = malloc(n * 24 + 16);
    if (!text)
        return NULL;
    size_t used = 0;
    text[used++] = '{';
    for (size_t i = 0; i < n; i++)
        used += (size_t)sprintf(text + used, "%s\"%zx\":%zu", i ? "," : "", duplicate && i == n - 1 ? 0 : i, i % 10);
    text[used++] = '}';
    text[used] = '\0';
    *len = used;
    return text;
}

/* Median seconds of json_parse_text (full) or cJSON alone (!full) on text;
 * -1 when a parse fails. */
static double time_parse(const char *text, size_t len, bool full)
{
    double t[SAMPLES];
    char err[300];
    for (int k = 0; k < SAMPLES; k++) {
        struct load_warnings w = {0};
        double t0 = now_s();
        cJSON *root = full ? json_parse_text(text, len, "bench.json", &w, err, sizeof err)
                           : cJSON_ParseWithLength(text, len);
        t[k] = now_s() - t0;
        if (!root) {
            fprintf(stderr, "bench_json: %s\n", full ? err : "cJSON refused the text");
            return -1.0;
        }
        cJSON_Delete(root);
    }
    return median(t, SAMPLES);
}

int main(void)
{
    const size_t sizes[] = {200000, 1200000};
    const double targets_ms[] = {250, 2000};
    for (size_t i = 0; i < 2; i++) {
        size_t len;
        char *text = object_of(sizes[i], true, &len);
        if (!text) {
            fprintf(stderr, "bench_json: out of memory\n");
            return 1;
        }
        double full = time_parse(text, len, true), alone = time_parse(text, len, false);
        free(text);
        if (full < 0 || alone < 0)
            return 1;
        printf("json_parse_text %5zuk keys %8.1f ms median (%4.1f MiB; cJSON alone %7.1f ms; target < %.0f ms)\n",
               sizes[i] / 1000, full * 1e3, (double)len / (1 << 20), alone * 1e3, targets_ms[i]);
    }
    printf("(medians of %d samples; each object has one duplicate key)\n", SAMPLES);
    return 0;
}
