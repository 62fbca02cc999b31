# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli lesson init / data / determinism / mixed-precision: the JSON contract on small sizes, and bad arguments.

napkin_add_cli_test(lesson_init_three_schemes
  ARGS lesson init --dim 256 --layers 4 --seed 0 --json
  CHECKS dim=256 layers=4 curves.0.scheme=normal curves.0.predicted_growth_per_layer=16
         curves.0.measured_growth_per_layer~14.4:17.6 curves.0.std_per_layer.4~4e4:1e5 curves.0.fp32_overflow_layer:null
         curves.1.scheme=xavier curves.1.measured_growth_per_layer~0.9:1.1 curves.1.std_per_layer.4~0.5:2
         curves.2.scheme=truncated curves.2.predicted_growth_per_layer~0.98657:0.98659)

napkin_add_cli_test(lesson_init_fp32_overflow
  ARGS lesson init --dim 1024 --layers 30 --batch 4 --json
  CHECKS curves.0.fp32_overflow_layer~24:26 curves.1.fp32_overflow_layer:null)

napkin_add_cli_test(lesson_data_generate_uint16
  ARGS lesson data --file ${CMAKE_CURRENT_BINARY_DIR}/lesson_tokens_u16.bin --generate 1M --batch 4 --context 8 --seed 3 --json
  CHECKS generated_bytes=1000000 file_bytes=1000000 tokens=500000 dtype=uint16 batch.batch=4 batch.context=8
         batch.offsets.3~0:499991 batch.tokens.3.7~0:50256 page_bytes:number resident_bytes_after~1:1000000
         sizing.batch_bytes=64 lecture_example.bytes=2800000000000 lecture_example.tokens=700000000000)

napkin_add_cli_test(lesson_data_generate_int32
  ARGS lesson data --file ${CMAKE_CURRENT_BINARY_DIR}/lesson_tokens_i32.bin --dtype int32 --generate 4000 --batch 2 --context 999 --json
  CHECKS tokens=1000 file_bytes=4000 batch.offsets.1=0 batch.tokens.1:array)

napkin_add_cli_test(lesson_determinism_seeds
  ARGS lesson determinism --steps 20 --json
  CHECKS a_repeated_bit_identical=ON a_b_bit_identical=OFF same_init=ON same_dataset=ON same_order=OFF
         a.seed_data=1 b.seed_data=2 b.seed_init=0 a.losses.19:number)

napkin_add_cli_test(lesson_determinism_equal_seeds
  ARGS lesson determinism --steps 20 --seed-data 5 --b-seed-data 5 --json
  CHECKS a_b_bit_identical=ON same_order=ON)

napkin_add_cli_test(lesson_mixed_precision_five_recipes
  ARGS lesson mixed-precision --steps 120 --json
  CHECKS runs.0.recipe=fp32 runs.0.underflow_total=0 runs.0.gradient_values_per_step=2352
         runs.1.recipe=bf16-mixed runs.2.recipe=bf16-pure runs.2.losses.119:number
         runs.3.recipe=fp16 runs.3.underflow_total~1:1e9 runs.4.recipe=fp16-scaled runs.4.underflow_total=0)

# Bad input: one line on stderr naming the argument, exit 2, nothing on stdout.
napkin_add_cli_test(lesson_init_dim_too_big EXPECT_EXIT 2
  ARGS lesson init --dim 5000 --json CHECKS stderr~--dim)
napkin_add_cli_test(lesson_init_bad_layers EXPECT_EXIT 2
  ARGS lesson init --layers 2.5 --json CHECKS stderr~--layers)
napkin_add_cli_test(lesson_data_missing_file EXPECT_EXIT 2
  ARGS lesson data --file ${CMAKE_CURRENT_BINARY_DIR}/no_such_tokens.bin --json CHECKS stderr~--file)
napkin_add_cli_test(lesson_data_no_file EXPECT_EXIT 2
  ARGS lesson data --json CHECKS stderr~--file)
napkin_add_cli_test(lesson_data_bad_dtype EXPECT_EXIT 2
  ARGS lesson data --file x.bin --dtype int8 --json CHECKS stderr~--dtype)
napkin_add_cli_test(lesson_data_window_too_long EXPECT_EXIT 2
  ARGS lesson data --file ${CMAKE_CURRENT_BINARY_DIR}/lesson_tokens_short.bin --generate 100 --context 50 --json
  CHECKS stderr~--context)
napkin_add_cli_test(lesson_data_generate_too_small EXPECT_EXIT 2
  ARGS lesson data --file ${CMAKE_CURRENT_BINARY_DIR}/lesson_tokens_tiny.bin --dtype int32 --generate 3 --json
  CHECKS stderr~--generate)
napkin_add_cli_test(lesson_data_batch_too_large EXPECT_EXIT 2
  ARGS lesson data --file x.bin --batch 4096 --context 1000000 --json CHECKS stderr~--batch)
napkin_add_cli_test(lesson_mixed_precision_bad_recipe EXPECT_EXIT 2
  ARGS lesson mixed-precision --recipes fp32,fp8 --json CHECKS stderr~--recipes)
napkin_add_cli_test(lesson_mixed_precision_examples_below_batch EXPECT_EXIT 2
  ARGS lesson mixed-precision --batch 64 --examples 10 --json CHECKS stderr~--examples)
napkin_add_cli_test(lesson_determinism_bad_steps EXPECT_EXIT 2
  ARGS lesson determinism --steps 0 --json CHECKS stderr~--steps)
