/* hfquant.h — a quantized checkpoint's stored format, from config.json's
 * quantization_config and ModelOpt's hf_quant_config.json.
 *
 * The forms read (each a published convention):
 *   quant_method fp8 (with weight_block_size: 128x128 blocks, fp8-block),
 *     transformers' integrations/finegrained_fp8.py;
 *   quant_method mxfp4 (gpt-oss: 4-bit elements, one e8m0 scale per 32),
 *     transformers' integrations/mxfp4.py;
 *   quant_method modelopt / compressed-tensors: config_groups' weights
 *     {num_bits, type, strategy, group_size} and kv_cache_scheme (vLLM's
 *     quantization/modelopt.py and compressed_tensors);
 *   quant_method awq / gptq (bits 4 or 8: weights only, bf16 matmuls);
 *   hf_quant_config.json {quantization: {quant_algo FP8 | NVFP4 |
 *     W4A16_NVFP4 | MIXED_PRECISION, kv_cache_quant_algo, exclude_modules,
 *     quantized_layers}} (NVIDIA ModelOpt's export).
 * The weights' precision is that of the bulk of the weights (the narrowest
 * format a group or layer uses: the MLPs and experts); what the checkpoint
 * keeps wider (its excluded modules, embeddings, norms) is named in the
 * assumption, with the parameters and bytes the single precision leaves
 * out. Pure: text in, fields of the shape out. */
#ifndef ROOFTOP_HFQUANT_H
#define ROOFTOP_HFQUANT_H

#include <stddef.h>

#include "jsonio.h"
#include "models.h"

/* Reads config.json's quantization_config object qc (path names the file
 * in messages) into m's checkpoint fields and assumptions. qc NULL or null:
 * nothing. Returns 0; an unknown quant_method is not an error (it is said,
 * and the weights stay bf16); -1 with one line in err only for a
 * quantization_config that is not an object. */
int hf_quant_from_config(const cJSON *qc, const char *path, struct model_shape *m, char *err, size_t errsize);

/* Reads hf_quant_config.json text (len bytes, named path) into m's
 * checkpoint fields and assumptions; it wins over config.json's
 * quantization_config, which repeats it. Returns 0, or -1 with one line in
 * err for malformed JSON or a 'quantization' that is not an object;
 * duplicate keys go to w. */
int hf_quant_from_file(const char *text, size_t len, const char *path, struct model_shape *m, struct load_warnings *w,
                       char *err, size_t errsize);

#endif
