# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli infer: serving a transformer (the hand derivations are in
# tests/engine/accounting/tst_inference_accounting.cpp) and the argument contract.

# Llama 3 8B, bf16, 8192 tokens: 2·32·8·128·2 = 131,072 KV bytes per token, 131,072·8192 = 1 GiB per sequence.
napkin_add_cli_test(infer_llama3_8b_kv_one_gib
  ARGS infer --preset llama3-8b --context 8192 --json
  CHECKS kv_cache_bytes_per_token=131072 kv_cache_bytes=1073741824 memory_bytes.kv_cache=1073741824
         weights_bytes=16060522496 memory_bytes.weights=16060522496 fits=ON bound=memory weights=bf16
         kv_cache=bf16 group_size:null prompt=8192 max_batch=43 gpu.dense_peak_flops_per_second=989400000000000
         decode_bytes_per_token=16083599360 decode_seconds_per_token~0.0048010:0.0048011
         "formulas.kv_cache_bytes_per_token=2·L·g·(d/a)·bytes = 2 × 32 × 8 × 128 × 2 = 131072 B")

# "fits" as training judges it (tests/engine/accounting/tst_inference_accounting.cpp, maxBatchFormula): the
# usable basis counts one cuBLAS and one cuBLASLt workspace (34,603,008 B) against the H100's 81,559 MiB;
# the datasheet basis the lecture's 80e9 B and nothing else.
napkin_add_cli_test(infer_llama3_8b_usable_basis
  ARGS infer --preset llama3-8b --context 8192 --json
  CHECKS memory_basis=usable usable_memory_bytes=85520809984 overheads.total_bytes=34603008
         predicted_memory_bytes=17706251264 overheads.lines.cublas_workspace.bytes=33554432
         overheads.lines.allocator_rounding.counted=OFF "formulas.fits:string")
napkin_add_cli_test(infer_llama3_8b_datasheet_basis
  ARGS infer --preset llama3-8b --context 8192 --memory-basis datasheet --json
  CHECKS memory_basis=datasheet usable_memory_bytes=80000000000 overheads.total_bytes=0 max_batch=39)
napkin_add_cli_test(infer_bad_fragmentation EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --fragmentation 2 --json CHECKS stderr~--fragmentation)

# int4 with one fp16 scale per 128 weights: 6,979,321,856 × (0.5 + 2/128) + 1,050,939,392 × 2.
napkin_add_cli_test(infer_llama3_8b_int4_group_scales
  ARGS infer --preset llama3-8b --weights int4 --group-size 128 --kv-cache fp8 --json
  CHECKS weights_bytes=5700591616 group_size=128 kv_cache_bytes_per_token=65536 gpu.compute=bf16)

# A large batch at a short context is compute bound.
napkin_add_cli_test(infer_llama3_8b_large_batch_compute_bound
  ARGS infer --preset llama3-8b --context 128 --batch 1024 --json
  CHECKS bound=compute decode_step_flops~1.5438e13:1.5440e13)

# Mixtral, batch 1: the step reads 2 of the 8 experts (balanced routing).
napkin_add_cli_test(infer_mixtral_reads_routed_experts
  ARGS infer --preset mixtral-8x7b --context 4096 --gpus 2 --json
  CHECKS experts_read_per_step=2 gpu.count=2 memory_bytes.total:number)

# Bad input: one line on stderr naming the option, exit 2.
napkin_add_cli_test(infer_context_zero EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --context 0 --json CHECKS stderr~--context)
napkin_add_cli_test(infer_prompt_beyond_context EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --context 100 --prompt 101 --json CHECKS stderr~--prompt)
napkin_add_cli_test(infer_unknown_weights EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --weights int3 --json CHECKS stderr~--weights)
napkin_add_cli_test(infer_group_size_not_dividing_d EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --weights int4 --group-size 100 --json CHECKS stderr~--group-size)
napkin_add_cli_test(infer_gpus_not_dividing_kv_heads EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --gpus 16 --json CHECKS stderr~--gpus)
napkin_add_cli_test(infer_dense_model_refused EXPECT_EXIT 2
  ARGS infer --model dense --params 1e9 --json CHECKS stderr~--model)
napkin_add_cli_test(infer_unknown_gpu EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --gpu Z100 --json CHECKS stderr~--gpu)

# The cost of a million generated tokens at the decode rate: $3.6 per GPU-hour on one H100 at 1 / 0.0048010 s
# = 208.29 tokens/s: 3.6 / (208.29 × 3600) × 1e6 = $4.801.
napkin_add_cli_test(infer_llama3_8b_cost_per_million_tokens
  ARGS infer --preset llama3-8b --context 8192 --price-per-gpu-hour 3.6 --json
  CHECKS dollars_per_million_tokens~4.800:4.802 price_per_gpu_hour~3.599:3.601 warnings:array
         command:string)

napkin_add_cli_test(infer_no_price_no_cost
  ARGS infer --preset llama3-8b --json
  CHECKS dollars_per_million_tokens:null)

# bf16 weights on a V100: no bf16 tensor cores, the fp32 rate (15.7e12), said in warnings.
napkin_add_cli_test(infer_bf16_on_v100_warns
  ARGS infer --preset llama3-8b --gpu V100-32GB --context 1024 --json
  CHECKS gpu.dense_peak_flops_per_second=15700000000000 warnings.0:string)

# Qwen3 8B's config says 40960 positions; a 131072-token context is served as asked and said in warnings
# (engine/inference/inference_warnings.h), on stderr in text mode.
napkin_add_cli_test(infer_context_past_the_model_warns
  ARGS infer --model-preset qwen3-8b --context 131072 --json
  CHECKS warnings.0:string)

# The prefill and decode predicted by the training step's model (engine/steptime/inference_time.h) beside the
# roofline's bounds: Llama 3 8B at B = 1 reads its weights once per step, so the predicted decode step is the
# roofline's 4.8010 ms plus its activations (tests/engine/steptime/tst_step_time.cpp derives the 7B case by
# hand); from the H100's published profile unless --hardware-profile names one measured on the H100.
napkin_add_cli_test(infer_llama3_8b_predicted_times
  ARGS infer --preset llama3-8b --context 8192 --json
  CHECKS decode_time.predicted=ON decode_time.seconds~0.0048010:0.0048500 decode_time.why_not:null
         prefill_time.predicted=ON prefill_time.seconds:number prefill_time.tokens_per_second:number
         decode_time.basis:string prefill_time.ledger:array)
# Serving time for a mixture of experts (engine/steptime/inference_ops_experts.cpp): Mixtral 8x7B at B 1 reads 2
# of its 8 experts a decode step, 25,497,174,016 B of weights and 4096 × 131,072 B of cache
# (tests/engine/steptime/tst_inference_time.cpp derives both by hand), 7.771 ms over the H100's 3.35e12 B/s;
# its activations add a little. Latent attention (DeepSeek-V3) and a sliding window (Mistral 7B) are predicted.
napkin_add_cli_test(infer_mixtral_predicted_times
  ARGS infer --model-preset mixtral-8x7b --context 4096 --json
  CHECKS decode_time.predicted=ON decode_time.seconds~0.0077710:0.0078500 decode_time.why_not:null
         prefill_time.predicted=ON prefill_time.seconds:number)
napkin_add_cli_test(infer_latent_attention_predicted
  ARGS infer --model-preset deepseek-v3 --context 4096 --gpus 8 --json
  CHECKS decode_time.predicted=ON decode_time.seconds:number prefill_time.predicted=ON)
napkin_add_cli_test(infer_sliding_window_predicted
  ARGS infer --model-preset mistral-7b-v0.1 --context 32768 --json
  CHECKS decode_time.predicted=ON decode_time.seconds:number prefill_time.predicted=ON)
napkin_add_cli_test(infer_predicted_from_a_profile
  ARGS infer --preset llama3-8b --hardware-profile ${CMAKE_CURRENT_SOURCE_DIR}/profiles/h100_two_shapes.json --json
  CHECKS "decode_time.basis=tests/cli/profiles/h100_two_shapes.json (test input)" decode_time.seconds:number)
napkin_add_cli_test(infer_profile_of_another_device EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --gpu A100-SXM --hardware-profile ${CMAKE_CURRENT_SOURCE_DIR}/profiles/h100_two_shapes.json
  CHECKS "stderr~--hardware-profile: device: the profile was measured on H100-SXM")
napkin_add_cli_test(infer_not_predicted_says_why
  ARGS infer --preset llama3-8b --weights fp8 --json
  CHECKS decode_time.predicted=OFF decode_time.seconds:null decode_time.why_not:string)
napkin_add_cli_test(infer_profile_damaged EXPECT_EXIT 2
  ARGS infer --preset llama3-8b --hardware-profile ${CMAKE_CURRENT_SOURCE_DIR}/profiles/bad_rate.json
  CHECKS "stderr~--hardware-profile: " "stderr~gemm[0].flops_per_second: must lie in [1, 1.00e21]")
