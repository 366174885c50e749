/* fuzz_hfconfig.c — libFuzzer harness: any bytes as a config.json. The
 * loader must return a shape or an error, never crash, leak or misbehave;
 * a shape it returns must analyze to finite figures or be refused. */
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "hfconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct model_shape m;
    struct load_warnings w = {0};
    char err[512];
    if (model_from_hf_config((const char *)data, size, "fuzz.json", "fuzz", &m, &w, err, sizeof err) == 0) {
        struct scenario s;
        scenario_default(&s);
        scenario_set_model(&s, &m);
        struct analysis a;
        analyze(&s, &a, err, sizeof err);
    }
    return 0;
}
