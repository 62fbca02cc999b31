# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli account's step_time (docs/cli.md): the published profile's basis, the ledger's rows, --mfu
# predicted, --hardware-profile, and the refusals (one line, exit 2). The figures' own checks are
# tests/engine/steptime/.
set(profiles "${CMAKE_CURRENT_SOURCE_DIR}/profiles")

# GPT-2 small on one H100 in mixed bf16: timed from mamf-finder's published H100 rate; the assumed MFU stays.
napkin_add_cli_test(step_time_gpt2_small_published
  ARGS account --model-preset gpt2-small --batch 8 --precision mixed-bf16 --json
  CHECKS step_time.predicted:boolean step_time.seconds:number step_time.mfu~0.05:0.81 step_time.hfu:number
         step_time.tokens_per_second:number step_time.why_not:null
         "step_time.basis=maximum achievable matmul FLOPS (mamf-finder.py), ml-engineering compute/accelerator/README.md, https://github.com/stas00/ml-engineering, CUDA-12.1"
         step_time.ledger.0.phase=forward step_time.ledger.0.kind:string step_time.ledger.0.formula:string
         step_time.ledger:array mfu=0.5)

# --mfu predicted: the training time follows the step time's MFU.
napkin_add_cli_test(step_time_mfu_predicted
  ARGS account --model-preset gpt2-small --batch 8 --precision mixed-bf16 --tokens 1e9 --mfu predicted --json
  CHECKS step_time.seconds:number mfu~0.05:0.81 training_seconds:number)

# A profile file: its source is the basis, its per-op overhead a row of its own.
napkin_add_cli_test(step_time_profile_file
  ARGS account --model-preset gpt2-small --precision mixed-bf16 --hardware-profile ${profiles}/h100_two_shapes.json --json
  CHECKS step_time.seconds:number "step_time.basis=tests/cli/profiles/h100_two_shapes.json (test input)")

# Not predicted: fp32 on a bf16-only published profile, a GPU with none published; the rest still answers.
napkin_add_cli_test(step_time_not_predicted_fp32
  ARGS account --model-preset gpt2-small --precision fp32 --json
  CHECKS step_time.seconds:null step_time.mfu:null step_time.why_not:string parameters=124439808)
napkin_add_cli_test(step_time_not_predicted_t4
  ARGS account --model-preset gpt2-small --gpu T4 --precision mixed-fp16 --json
  CHECKS step_time.seconds:null step_time.why_not:string)

# Refusals: one line naming the field, exit 2.
napkin_add_cli_test(step_time_mfu_predicted_unpredictable EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --precision fp32 --mfu predicted
  CHECKS "stderr~--mfu: predicted, but the step time is not predicted")
napkin_add_cli_test(step_time_profile_damaged EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --hardware-profile ${profiles}/bad_rate.json
  CHECKS "stderr~--hardware-profile: " "stderr~gemm[0].flops_per_second: must lie in [1, 1.00e21]")
napkin_add_cli_test(step_time_profile_foreign EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --hardware-profile ${PROJECT_SOURCE_DIR}/resources/gpu_catalog.json
  CHECKS "stderr~format: missing")
napkin_add_cli_test(step_time_profile_other_gpu EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --gpu A100-SXM --hardware-profile ${profiles}/h100_two_shapes.json
  CHECKS "stderr~--hardware-profile: device: the profile was measured on H100-SXM, the account is for A100-SXM")
napkin_add_cli_test(step_time_profile_not_a_file EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --hardware-profile /dev/zero
  CHECKS "stderr~--hardware-profile: /dev/zero")

# compare costs its step from --hardware-profile as account does, but has no training time for --mfu
# predicted to change: refused rather than dropped.
napkin_add_cli_test(step_time_mfu_not_in_compare EXPECT_EXIT 2
  ARGS compare --model-preset gpt2-small --mfu predicted --trace /dev/null
  CHECKS "stderr~--mfu predicted: account's training time; compare compares one step")

# calibrate refuses a target it cannot write before it measures anything.
napkin_add_cli_test(calibrate_unwritable_out EXPECT_EXIT 2
  ARGS calibrate --out /nonexistent-folder/profile.json
  CHECKS "stderr~--out: cannot write /nonexistent-folder/profile.json")
