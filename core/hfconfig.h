/* hfconfig.h — a model shape from a HuggingFace config.json.
 *
 * Reads the standard keys (hidden_size, intermediate_size, num_hidden_layers,
 * num_attention_heads, num_key_value_heads, head_dim, vocab_size,
 * tie_word_embeddings, torch_dtype, model_type), the sliding-window keys
 * (sliding_window, use_sliding_window, max_window_layers, layer_types), and
 * the MoE and latent-attention keys (num_local_experts / n_routed_experts /
 * num_experts, num_experts_per_tok, n_shared_experts, moe_intermediate_size,
 * first_k_dense_replace, kv_lora_rank, q_lora_rank, qk_rope_head_dim,
 * qk_nope_head_dim, v_head_dim). Pure: text in, shape out.
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
 * not dividing num_attention_heads, a dimension out of range. Rules:
 * head_dim given explicitly wins over hidden_size / heads; a missing or null
 * num_key_value_heads means one KV head per query head (MHA); a window
 * applies only where the config turns it on (use_sliding_window false turns
 * it off; layer_types names the windowed layers; Qwen2's max_window_layers
 * keeps the lower layers full); tie_word_embeddings missing means untied,
 * with a warning. Notes on what was assumed go to w. */
int model_from_hf_config(const char *text, size_t len, const char *path, const char *name, struct model_shape *out,
                         struct load_warnings *w, char *err, size_t errsize);

#endif
