/* fuzz_hfconfig.c — libFuzzer harness: any bytes as a config.json, and the
 * same bytes as the hf_quant_config.json beside it. The loaders must return
 * a shape or an error, never crash, leak or misbehave; a shape they return
 * must analyze to finite figures or be refused (analyze() refuses any
 * figure that is not finite). The seeds hold the 2025-26 families' keys
 * (block_configs, index_topk, layer_types with conv, cross_attention_layers,
 * quantization_config) and Python's Infinity and NaN literals. */
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "hfconfig.h"
#include "hfquant.h"

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
        if (hf_quant_from_file((const char *)data, size, "hf_quant_config.json", &s.model, &w, err, sizeof err) == 0)
            scenario_use_checkpoint(&s);
        struct analysis a;
        analyze(&s, &a, err, sizeof err);
    }
    return 0;
}
