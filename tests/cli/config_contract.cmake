# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli account|infer --config: a Hugging Face config.json as the model (the exact counts are
# derived in tests/engine/accounting/tst_model_zoo.cpp), and the refusals: one line, exit 2.
set(models "${PROJECT_SOURCE_DIR}/resources/models")
set(configs "${CMAKE_CURRENT_SOURCE_DIR}/configs")

# Mistral 7B v0.1: 7,241,732,096 parameters; the JSON says which keys were read.
napkin_add_cli_test(config_mistral_account
  ARGS account --config ${models}/mistral-7b-v0.1.json --json
  CHECKS parameters=7241732096 config.model_type=mistral config.keys_used:array config.keys_ignored:array)

# DeepSeek-V3 through the zoo's id: 671,026,419,200; MLA caches 61·(512 + 64)·2 = 70,272 B per token.
napkin_add_cli_test(config_deepseek_v3_infer
  ARGS infer --model-preset deepseek-v3 --context 4096 --gpus 8 --json
  CHECKS kv_cache_bytes_per_token=70272 kv_cache_bytes=287834112)

# Mistral at 32k: the windowed layers keep 4,096 tokens, 4096 × 131,072 B.
napkin_add_cli_test(config_mistral_window_caps_cache
  ARGS infer --config ${models}/mistral-7b-v0.1.json --context 32768 --json
  CHECKS kv_cache_bytes_per_token=131072 kv_cache_bytes=536870912 config.model_type=mistral)

# Other flags override the file: Llama 2 7B with 8 KV heads has 2·32·8·128·2 = 131,072 B per token.
napkin_add_cli_test(config_flag_overrides_file
  ARGS infer --config ${models}/llama-2-7b.json --kv-heads 8 --context 1024 --json
  CHECKS kv_cache_bytes_per_token=131072)

# Damaged or foreign files: exit 2, one line naming the problem.
napkin_add_cli_test(config_truncated EXPECT_EXIT 2
  ARGS account --config ${configs}/truncated.json CHECKS "stderr~not valid JSON")
napkin_add_cli_test(config_wrong_type EXPECT_EXIT 2
  ARGS infer --config ${configs}/wrong_type.json CHECKS "stderr~hidden_size: expected a whole number")
napkin_add_cli_test(config_unknown_model_type EXPECT_EXIT 2
  ARGS account --config ${configs}/unknown_model_type.json CHECKS "stderr~'bert' is not supported")
napkin_add_cli_test(config_tokenizer_config EXPECT_EXIT 2
  ARGS account --config ${configs}/tokenizer_config.json CHECKS "stderr~model_type: missing")
napkin_add_cli_test(config_deep_nesting EXPECT_EXIT 2
  ARGS account --config ${configs}/deep_nesting.json CHECKS "stderr~nested deeper")
napkin_add_cli_test(config_directory EXPECT_EXIT 2
  ARGS account --config ${configs} CHECKS "stderr~not a regular file")
napkin_add_cli_test(config_missing_file EXPECT_EXIT 2
  ARGS account --config ${configs}/absent.json CHECKS "stderr~no such file")
napkin_add_cli_test(config_and_preset EXPECT_EXIT 2
  ARGS account --config ${models}/gpt2.json --preset gpt2-small CHECKS "stderr~not both")

# Issue 40. Gemma 3 4B as Google published it: four text keys, Gemma3TextConfig's defaults for the rest;
# the language model 3,880,263,168 and the SigLIP tower with its projector counted apart, 419,816,304.
napkin_add_cli_test(config_gemma3_class_defaults
  ARGS account --config ${models}/gemma-3-4b-it.json --json
  CHECKS parameters=3880263168 config.read_as=gemma3 config.vision_parameters=419816304
         config.keys_defaulted:array config.notes:array)

# Kimi K2 (model_type kimi_k2) reads as DeepSeek-V3: 1,026,408,232,448 parameters, derived from the shapes.
napkin_add_cli_test(config_kimi_k2_alias
  ARGS account --config ${models}/kimi-k2-instruct.json --json
  CHECKS parameters=1026408232448 config.model_type=kimi_k2 config.read_as=deepseek_v3
         config.checkpoint_format.weights=fp8-block128 config.training_assumes:string)

# gpt-oss-20b serves in its checkpoint's format: MXFP4 experts (0.5 + 1/32 B), the rest bf16:
# 13,761,264,768 B (12.8 GiB, the model card's checkpoint size); --weights bf16 asks for 2 B each.
napkin_add_cli_test(config_gpt_oss_checkpoint_format
  ARGS infer --config ${models}/gpt-oss-20b.json --context 8192 --json
  CHECKS weights=mxfp4 weights_bytes=13761264768 weights_format.source=checkpoint
         weights_format.experts_only=ON quantized_parameters=19110297600 kv_cache_bytes=204472320)
napkin_add_cli_test(config_gpt_oss_weights_option_wins
  ARGS infer --config ${models}/gpt-oss-20b.json --weights bf16 --context 8192 --json
  CHECKS weights=bf16 weights_bytes=41829514368 weights_format.source=option weights_format.checkpoint=mxfp4)

# Kimi K2 through the zoo's id: fp8 with 128×128 block scales, 1,029,173,196,976 B of weights.
napkin_add_cli_test(config_kimi_k2_fp8_blocks
  ARGS infer --model-preset kimi-k2-instruct --context 4096 --gpus 8 --json
  CHECKS weights=fp8-block128 weights_bytes=1029173196976 weights_format.source=checkpoint)

# An unknown model_type names the families read and the nearest one.
napkin_add_cli_test(config_unknown_model_type_nearest EXPECT_EXIT 2
  ARGS account --config ${configs}/unknown_model_type.json CHECKS "stderr~nearest: " "stderr~gpt_oss")
