/* fuzz_chipfile.c — libFuzzer harness: any bytes as a chip file, then each
 * chip it yields through analyze(). */
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "chipfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct chip_spec chips[8];
    size_t n = 0;
    struct load_warnings w = {0};
    char err[512];
    if (chips_from_text((const char *)data, size, "fuzz.json", chips, 8, &n, &w, err, sizeof err) == 0) {
        for (size_t i = 0; i < n; i++) {
            struct scenario s;
            scenario_default(&s);
            s.chip = chips[i];
            struct analysis a;
            analyze(&s, &a, err, sizeof err);
        }
    }
    return 0;
}
