/* fuzz_scenario.c — libFuzzer harness: any bytes as a scenario file. A
 * scenario that loads must analyze, and must survive a write and re-read
 * unchanged in what it reports. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "report.h"
#include "scenariofile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct scenario s, back;
    struct load_warnings w = {0};
    char err[512];
    if (scenario_from_json((const char *)data, size, "fuzz.json", &s, &w, err, sizeof err) != 0)
        return 0;
    struct analysis a, b;
    if (analyze(&s, &a, err, sizeof err) != 0)
        return 0;
    char *text = scenario_to_json(&s);
    if (!text)
        return 0;
    if (scenario_from_json(text, strlen(text), "again.json", &back, &w, err, sizeof err) != 0 ||
        analyze(&back, &b, err, sizeof err) != 0)
        abort(); /* a scenario that loaded once must load again */
    char *r1 = report_render(RT_FORMAT_JSON, &s, &a), *r2 = report_render(RT_FORMAT_JSON, &back, &b);
    if (r1 && r2 && strcmp(r1, r2) != 0)
        abort(); /* the round trip must be exact */
    free(r1);
    free(r2);
    cJSON_free(text);
    return 0;
}
