/* hfconfig.h — a model shape from a HuggingFace config.json, read the way
 * transformers builds the model.
 *
 * A table keyed by model_type (hfconfig.c, each row citing the
 * transformers configuration and modeling files it follows) holds what each
 * family's configuration class does with absent keys and what its modeling
 * code builds: the tie_word_embeddings default, a gated or plain MLP, norms
 * and biases, the layer pattern (sliding, chunked, linear attention, Mamba),
 * which layers are MoE, nested configs (text_config, DBRX's attn_config and
 * ffn_config) and alias keys (n_embd, n_layer, n_head, n_inner,
 * multi_query, num_local_experts, n_routed_experts, ...). An explicit
 * layer_types list wins over any pattern. An unknown model_type falls back
 * to the generic keys. Every default and inferred pattern is recorded in the
 * shape's assumptions. Pure: text in, shape out.
 */
#ifndef ROOFTOP_HFCONFIG_H
#define ROOFTOP_HFCONFIG_H

#include <stddef.h>

#include "jsonio.h"
#include "models.h"

/* Parses config.json text (len bytes) named path in messages into *out.
 * name is the display name to give the shape (the model's folder, say); NULL
 * or "" uses model_type. Returns 0; or -1 with one line in err naming the
 * key: a missing required key, a wrong type, num_key_value_heads of zero or
 * not dividing num_attention_heads, a dimension out of range, a malformed
 * schedule key (layer_types of the wrong length or with an unknown entry,
 * mlp_only_layers outside the layers, a pattern period of zero). What was
 * assumed goes to out->assumptions; problems that do not stop the load
 * (duplicate keys) go to w. */
int model_from_hf_config(const char *text, size_t len, const char *path, const char *name, struct model_shape *out,
                         struct load_warnings *w, char *err, size_t errsize);

#endif
