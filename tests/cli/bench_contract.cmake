# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli bench matmul / bench train: the JSON contract on small sizes (fast), and bad arguments.

napkin_add_cli_test(bench_matmul_small_fp32
  ARGS bench matmul --device cpu --dtype fp32 --sizes 32,64 --repeats 3 --json
  CHECKS device.name:string device.promised_flops_per_second:object device.promised_basis:string
         results.0.m=32 results.0.n=32 results.0.k=32 results.0.dtype=fp32 results.0.flops=65536
         results.0.seconds_median~0:10 results.0.seconds_p20~0:10 results.0.seconds_p80~0:10
         results.0.flops_per_second~1:1e15 results.0.max_rel_error~0:1e-6 results.1.flops=524288
         results.1.promised_flops_per_second:number results.1.mfu:number cancelled=OFF)

napkin_add_cli_test(bench_matmul_shape_fp64
  ARGS bench matmul --dtype fp64 --shape 48x16x8 --repeats 3 --json
  CHECKS results.0.m=48 results.0.n=16 results.0.k=8 results.0.dtype=fp64 results.0.flops=12288
         results.0.max_rel_error~0:1e-14)

# The roofline's x axis: A, B and C once each, 3·n²·bytes; intensity 2n³ / (3n²·bytes) = 2n / (3·bytes).
# n = 64, fp32: 3·4096·4 = 49152 bytes, 2·64 / 12 = 10.667 FLOP/B; fp64: 98304 bytes, 5.333 FLOP/B.
napkin_add_cli_test(bench_matmul_bytes_and_intensity
  ARGS bench matmul --dtype fp32 --sizes 64 --repeats 1 --json
  CHECKS results.0.bytes=49152 results.0.arithmetic_intensity~10.6666:10.6667
         "method.arithmetic_intensity=flops / bytes")
napkin_add_cli_test(bench_matmul_bytes_fp64_shape
  ARGS bench matmul --dtype fp64 --shape 48x16x8 --repeats 1 --json
  CHECKS results.0.bytes=10240 results.0.arithmetic_intensity~1.2:1.2)

napkin_add_cli_test(bench_matmul_bf16
  ARGS bench matmul --dtype bf16 --sizes 16 --repeats 3 --json
  CHECKS results.0.dtype=bf16 results.0.ok=ON results.0.max_rel_error~0:0.05)

napkin_add_cli_test(bench_train_lecture_cruncher
  ARGS bench train --device cpu --dim 4 --layers 2 --batch 2 --steps 5 --optimizer adagrad --precision fp32 --json
  CHECKS flops_per_step=368 flops_per_step_6bp=432 step_seconds_median~0:10 flops_per_second:number mfu:number
         loss:array loss.4:number memory.predicted_bytes=496 memory.measured_bytes=496
         memory.activations.measured_bytes=64 memory.optimizer_state.measured_bytes=144
         memory.allocator_reported_bytes:null)

# Memory over the last step: the trainer's ledger at each event is the prediction, and the peak is not
# the sum (464 B against 496 B); one step only shows the first step, where AdaGrad's state is made.
napkin_add_cli_test(bench_train_lecture_timeline
  ARGS bench train --device cpu --backend eigen --dim 4 --layers 2 --batch 2 --steps 3 --optimizer adagrad --json
  CHECKS memory.timeline_agree=ON memory.timeline_step=steady memory.peak_predicted_bytes=464
         memory.peak_measured_bytes=464 "memory.peak_measured_event=backward layer 2"
         "memory.timeline.6.event=backward layer 2" memory.timeline.6.phase=backward
         memory.timeline.6.predicted_bytes=464 memory.timeline.6.measured_bytes=464 memory.measured_bytes=496)
napkin_add_cli_test(bench_train_lecture_first_step_timeline
  ARGS bench train --device cpu --backend eigen --dim 4 --layers 2 --batch 2 --steps 1 --optimizer adagrad --json
  CHECKS memory.timeline_agree=ON memory.timeline_step=first memory.peak_measured_bytes=432
         "memory.peak_measured_event=optimizer step" memory.timeline.0.measured_bytes=144 memory.measured_bytes=496)

# Frozen layers (--freeze 1,3 of L = 3: layer 2 and the head train; tst_frozen_cruncher.cpp derives the
# bytes): P = 52, trainable 16 + 4 = 20; gradients 80 B, Adam's state 160 B, activations h_1 and h_3
# (h_2 feeds frozen layer 3) 64 B; backward stops at layer 2, and its peak is there: 368 + 144 = 512 B.
# FLOPs: forward 208, the head's dw and dL/dh_3 32, dL/dh_2 through layer 3 64, dW_2 64 = 368.
napkin_add_cli_test(bench_train_frozen_layers
  ARGS bench train --backend eigen --dim 4 --layers 3 --batch 2 --steps 3 --optimizer adam --freeze 1,3 --json
  CHECKS model.frozen_layers.0=1 model.frozen_layers.1=3 model.trainable_parameters=20 flops_per_step=368
         memory.timeline_agree=ON memory.peak_predicted_bytes=512 memory.peak_measured_bytes=512
         "memory.peak_measured_event=backward layer 2" memory.gradients.measured_bytes=80
         memory.optimizer_state.measured_bytes=160 memory.activations.measured_bytes=64
         memory.predicted_bytes=512 memory.measured_bytes=512)
napkin_add_cli_test(bench_train_frozen_every_layer
  ARGS bench train --dim 4 --layers 3 --batch 2 --steps 2 --optimizer sgd --freeze 1-3 --json
  CHECKS model.trainable_parameters=4 flops_per_step=224 memory.timeline_agree=ON
         memory.gradients.measured_bytes=16 memory.activations.measured_bytes=32)
napkin_add_cli_test(bench_train_freeze_out_of_range EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 3 --batch 2 --freeze 4 --json
  CHECKS "stderr~--freeze: '4' is not a list of layers from 1 to 3")
napkin_add_cli_test(bench_train_freeze_blank EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 3 --batch 2 "--freeze= " --json CHECKS "stderr~--freeze: empty value")
napkin_add_cli_test(bench_train_freeze_save_refused EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 3 --batch 2 --freeze 1 --save frozen.ckpt --json
  CHECKS "stderr~--save: a Cruncher checkpoint holds every layer's optimizer state and does not record frozen")
napkin_add_cli_test(bench_train_freeze_cuda EXPECT_EXIT 2
  ARGS bench train --device cuda --dim 4 --layers 3 --batch 2 --freeze 1 --json
  CHECKS "stderr~--freeze: frozen layers train on the CPU trainers only")

napkin_add_cli_test(bench_train_seeds_adamw
  ARGS bench train --dim 8 --layers 3 --batch 5 --steps 3 --optimizer adamw --seed-init 3 --seed-data 4 --json
  CHECKS memory.predicted_bytes=3680 memory.measured_bytes=3680 model.seed_init=3 model.seed_data=4)

# Bad input: one line on stderr naming the argument, exit 2, nothing on stdout.
napkin_add_cli_test(bench_matmul_cuda_unavailable EXPECT_EXIT 2
  ARGS bench matmul --device cuda --dtype fp32 --sizes 64 --json CHECKS stderr~--device)
napkin_add_cli_test(bench_train_cuda_unavailable EXPECT_EXIT 2
  ARGS bench train --device cuda --dim 4 --layers 2 --batch 2 --json CHECKS stderr~--device)
napkin_add_cli_test(bench_matmul_tf32_on_cpu EXPECT_EXIT 2
  ARGS bench matmul --dtype tf32 --sizes 64 --json CHECKS stderr~--dtype)
napkin_add_cli_test(bench_matmul_fp8_on_cpu EXPECT_EXIT 2
  ARGS bench matmul --dtype fp8-e4m3 --sizes 64 --json CHECKS stderr~--dtype)
napkin_add_cli_test(bench_matmul_unknown_dtype EXPECT_EXIT 2
  ARGS bench matmul --dtype int4 --sizes 64 --json CHECKS stderr~--dtype)
napkin_add_cli_test(bench_matmul_bad_sizes EXPECT_EXIT 2
  ARGS bench matmul --sizes 64,zero --json CHECKS stderr~--sizes)
napkin_add_cli_test(bench_matmul_bad_shape EXPECT_EXIT 2
  ARGS bench matmul --shape 64x64 --json CHECKS stderr~--shape)
napkin_add_cli_test(bench_train_missing_dim EXPECT_EXIT 2
  ARGS bench train --layers 2 --batch 2 --json CHECKS stderr~--dim)
napkin_add_cli_test(bench_train_bad_optimizer EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --optimizer lion --json CHECKS stderr~--optimizer)
napkin_add_cli_test(bench_train_bf16_precision EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --precision bf16 --json CHECKS stderr~--precision)
# --precision LIST: TF32 is a tensor-core mode (refused on the CPU); a recipe named twice, an empty item and
# a checkpoint with several recipes are refused before anything runs.
napkin_add_cli_test(bench_train_tf32_on_cpu EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --precision tf32 --json
  CHECKS "stderr~--precision tf32: TF32 is a matmul mode of NVIDIA tensor cores")
napkin_add_cli_test(bench_train_recipe_twice EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --precision fp32,fp32 --json CHECKS "stderr~'fp32' is named twice")
napkin_add_cli_test(bench_train_recipe_empty_item EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --precision fp32, --json CHECKS "stderr~has an empty item")
napkin_add_cli_test(bench_train_recipes_one_checkpoint EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --precision fp32,mixed-bf16 --save ckpt.bin --json
  CHECKS "stderr~a checkpoint belongs to one run")

napkin_add_cli_test(bench_matmul_one_thread
  ARGS bench matmul --sizes 32 --repeats 2 --threads 1 --json
  CHECKS device.threads=1 results.0.ok=ON)
napkin_add_cli_test(bench_matmul_zero_threads EXPECT_EXIT 2
  ARGS bench matmul --sizes 32 --threads 0 --json CHECKS stderr~--threads)

# --device cuda gives the reason that applies to this build: the CUDA runtime's own when the backend is
# built (these machines have no GPU: cudaGetDeviceCount fails), "no CUDA backend" when it is not.
# (Where a GPU is present, napkin-cli runs the sweep instead; the GPU machine builds without tests.)
if(NAPKIN_HAVE_CUDA)
  napkin_add_cli_test(bench_matmul_cuda_no_device EXPECT_EXIT 2
    ARGS bench matmul --device cuda --dtype bf16 --sizes 64 --json CHECKS "stderr~--device cuda: no CUDA device: ")
  napkin_add_cli_test(bench_train_cuda_no_device EXPECT_EXIT 2
    ARGS bench train --device cuda --dim 4 --layers 2 --batch 2 --json CHECKS "stderr~--device cuda: no CUDA device: ")
else()
  napkin_add_cli_test(bench_matmul_cuda_not_built EXPECT_EXIT 2
    ARGS bench matmul --device cuda --dtype fp32 --sizes 64 --json CHECKS "stderr~no CUDA backend")
endif()

# bench copy / bench alloc: they need a CUDA device. Here (no GPU) both exit 2 with the registry's reason;
# the cpu has no device memory to copy to; bad sizes are refused before any device is asked.
if(NAPKIN_HAVE_CUDA)
  napkin_add_cli_test(bench_copy_cuda_no_device EXPECT_EXIT 2
    ARGS bench copy --device cuda --sizes 4K,1M --repeats 3 --json CHECKS "stderr~--device cuda: no CUDA device: ")
  napkin_add_cli_test(bench_alloc_cuda_no_device EXPECT_EXIT 2
    ARGS bench alloc --device cuda --json CHECKS "stderr~--device cuda: no CUDA device: ")
else()
  napkin_add_cli_test(bench_copy_cuda_not_built EXPECT_EXIT 2
    ARGS bench copy --device cuda --json CHECKS "stderr~no CUDA backend")
  napkin_add_cli_test(bench_alloc_cuda_not_built EXPECT_EXIT 2
    ARGS bench alloc --device cuda --json CHECKS "stderr~no CUDA backend")
endif()
napkin_add_cli_test(bench_copy_cpu_needs_gpu EXPECT_EXIT 2
  ARGS bench copy --device cpu --json CHECKS "stderr~--device cpu: host-device copies need a GPU")
napkin_add_cli_test(bench_alloc_cpu_needs_gpu EXPECT_EXIT 2
  ARGS bench alloc --device cpu --json CHECKS "stderr~--device cpu: device allocations need a GPU")
napkin_add_cli_test(bench_copy_unknown_device EXPECT_EXIT 2
  ARGS bench copy --device tpu --json CHECKS "stderr~unknown backend 'tpu'")
napkin_add_cli_test(bench_copy_zero_size EXPECT_EXIT 2
  ARGS bench copy --device cuda --sizes 4K,0 --json CHECKS "stderr~--sizes: '0' is zero bytes")
napkin_add_cli_test(bench_copy_size_too_big EXPECT_EXIT 2
  ARGS bench copy --device cuda --sizes 8G --json CHECKS "stderr~--sizes: '8G' is above the 4 GiB limit")
napkin_add_cli_test(bench_copy_bad_unit EXPECT_EXIT 2
  ARGS bench copy --device cuda --sizes 4KB --json CHECKS "stderr~--sizes: '4KB' has an unknown unit")
napkin_add_cli_test(bench_copy_zero_repeats EXPECT_EXIT 2
  ARGS bench copy --device cuda --repeats 0 --json CHECKS stderr~--repeats)

# --backend: the CPU's GEMM library. Eigen is always built; oneDNN where libdnnl-dev was found.
napkin_add_cli_test(bench_matmul_backend_eigen
  ARGS bench matmul --backend eigen --dtype bf16 --sizes 16 --repeats 2 --json
  CHECKS device.cpu_backend=eigen device.cpu_backend_version:string device.isa:string
         results.0.cpu_backend=eigen results.0.ok=ON)
napkin_add_cli_test(bench_matmul_unknown_backend EXPECT_EXIT 2
  ARGS bench matmul --backend mkl --sizes 16 --json CHECKS "stderr~--backend: unknown 'mkl'")
napkin_add_cli_test(bench_matmul_backend_with_cuda EXPECT_EXIT 2
  ARGS bench matmul --device cuda --backend onednn --sizes 16 --json CHECKS stderr~--backend)
napkin_add_cli_test(bench_train_mixed_bf16_on_eigen EXPECT_EXIT 2
  ARGS bench train --backend eigen --dim 4 --layers 2 --batch 2 --precision mixed-bf16 --json
  CHECKS "stderr~--precision mixed-bf16: the eigen Cruncher trainer runs fp32 only")
if(NAPKIN_HAVE_ONEDNN)
  # The default is oneDNN: fp32 and bf16 on it (bf16 within 2^-8 + k·2^-24), fp64 on Eigen, said per result.
  napkin_add_cli_test(bench_matmul_onednn_bf16
    ARGS bench matmul --dtype bf16 --sizes 64 --repeats 2 --json
    CHECKS device.cpu_backend=onednn device.cpu_backend_version:string device.isa:string
           device.promised_flops_per_second.bf16:number results.0.cpu_backend=onednn
           results.0.implementation:string results.0.max_rel_error~0:0.0039101)
  napkin_add_cli_test(bench_matmul_default_fp64_on_eigen
    ARGS bench matmul --dtype fp64 --sizes 16 --repeats 2 --json
    CHECKS device.cpu_backend=onednn results.0.cpu_backend=eigen results.0.implementation=eigen:double)
  napkin_add_cli_test(bench_matmul_onednn_refuses_fp64 EXPECT_EXIT 2
    ARGS bench matmul --backend onednn --dtype fp64 --sizes 16 --json CHECKS "stderr~--backend eigen")
  # Mixed bf16: measured bytes = the accounting's mixed-bf16 recipe, component by component. The lecture's
  # Cruncher (P = 36, B·D·L = 16, AdaGrad): params 2·36, grads 2·36, master 4·36, state 4·36, acts 2·16.
  napkin_add_cli_test(bench_train_mixed_bf16
    ARGS bench train --dim 4 --layers 2 --batch 2 --steps 5 --precision mixed-bf16 --json
    CHECKS model.precision=mixed-bf16 memory.predicted_bytes=464 memory.measured_bytes=464 memory.agree=ON
           memory.parameters.measured_bytes=72 memory.gradients.measured_bytes=72
           memory.master_weights.predicted_bytes=144 memory.master_weights.measured_bytes=144
           memory.optimizer_state.measured_bytes=144 memory.activations.measured_bytes=32
           device.cpu_backend=onednn loss.4:number)
  # Recipes side by side (--precision LIST): the lecture's Cruncher in fp32 (496 B) and mixed-bf16 (464 B, as
  # above) on the same data and initial weights, each run's own document in runs[], each MFU against its
  # own dtype's peak.
  napkin_add_cli_test(bench_train_recipes
    ARGS bench train --dim 4 --layers 2 --batch 2 --steps 5 --precision fp32,mixed-bf16 --json
    CHECKS benchmark=train_recipes recipes.0=fp32 recipes.1=mixed-bf16 comparison.0.recipe=fp32
           comparison.0.mfu_dtype=fp32 comparison.0.memory_predicted_bytes=496
           comparison.0.memory_measured_bytes=496 comparison.0.memory_agree=ON comparison.1.mfu_dtype=bf16
           comparison.1.memory_predicted_bytes=464 comparison.1.memory_measured_bytes=464
           comparison.1.memory_agree=ON comparison.1.mfu:number comparison.1.loss_last:number
           runs.0.model.precision=fp32 runs.1.model.precision=mixed-bf16 runs.1.mfu_dtype=bf16 runs.1.loss.4:number
           runs.1.memory.master_weights.measured_bytes=144)
  napkin_add_cli_test(bench_train_recipes_refused_before_any_run EXPECT_EXIT 2
    ARGS bench train --dim 4 --layers 2 --batch 2 --precision fp32,mixed-fp16 --json
    CHECKS "stderr~--precision mixed-fp16: the onednn Cruncher trainer runs fp32 and mixed-bf16")
  napkin_add_cli_test(bench_train_fp16_refused EXPECT_EXIT 2
    ARGS bench train --dim 4 --layers 2 --batch 2 --precision mixed-fp16 --json
    CHECKS "stderr~--precision mixed-fp16: the onednn Cruncher trainer runs fp32 and mixed-bf16")
else()
  napkin_add_cli_test(bench_matmul_onednn_not_built EXPECT_EXIT 2
    ARGS bench matmul --backend onednn --sizes 16 --json CHECKS "stderr~--backend onednn: the onednn backend is not available")
endif()

# bench account: one recompute timed, and the work it did counted (deterministic: one evaluation with
# formulas; GPT-2 small's largest batch takes three probes from its own batch, none of them spelled).
napkin_add_cli_test(bench_account_work
  ARGS bench account --repeats 5 --json
  CHECKS benchmark=account setup=gpt2-small target_seconds~2e-5:2e-5 seconds_median~0:1 meets_target:boolean
         work.peak_evaluations=1 work.fast_peaks~1:4 work.timeline_builds~2:5 work.formatted_numbers~1:220)
napkin_add_cli_test(bench_account_deepseek
  ARGS bench account --setup deepseek-v3 --repeats 5 --json
  CHECKS setup=deepseek-v3 target_seconds~5e-5:5e-5 work.peak_evaluations=1 work.fast_peaks~1:10)
napkin_add_cli_test(bench_account_unknown_setup EXPECT_EXIT 2
  ARGS bench account --setup gpt5 CHECKS stderr~gpt5)

# The predicted step beside the measured one (docs/cli.md, "The predicted step"): from a profile file, its
# ledger's rows and the ratio; none on the CPU without one; the recipe a profile lacks says why; and the
# refusals (one line, exit 2) for a damaged file, a GPU's profile and another CPU's. this_cpu_any.json names
# no device_name, so every CPU takes it; this_cpu_round.json names one no CPU has.
set(profiles "${CMAKE_CURRENT_SOURCE_DIR}/profiles")
napkin_add_cli_test(bench_train_predicted_from_profile
  ARGS bench train --dim 8 --layers 2 --batch 4 --steps 3 --hardware-profile ${profiles}/this_cpu_any.json --json
  CHECKS predicted_step.predicted=ON predicted_step.seconds:number predicted_step.why_not:null
         "predicted_step.basis=${profiles}/this_cpu_any.json (tests/cli/profiles/this_cpu_any.json (test input))"
         "predicted_step.ledger.0.name=batch draw B·D·4 B + 4·B + 4·D" predicted_step.ledger.0.phase=forward
         predicted_step.ledger.0.kind=memory predicted_step.ledger.1.flops=1024 predicted_step.ledger.1.formula:string
         predicted_step.not_modelled:array predicted_over_measured:number)
napkin_add_cli_test(bench_train_not_predicted_on_cpu
  ARGS bench train --dim 4 --layers 2 --batch 2 --steps 2 --json
  CHECKS predicted_step.predicted=OFF predicted_step.seconds:null predicted_step.basis:null
         "predicted_step.why_not=no profile for this CPU (napkin-cli calibrate writes one)"
         predicted_over_measured:null)
napkin_add_cli_test(bench_train_predicted_recipes
  ARGS bench train --dim 8 --layers 2 --batch 4 --steps 2 --precision fp32,mixed-bf16
       --hardware-profile ${profiles}/this_cpu_any.json --json
  CHECKS comparison.0.predicted_step_seconds:number comparison.0.predicted_over_measured:number
         comparison.1.predicted_step_seconds:null comparison.1.predicted_over_measured:null
         "runs.1.predicted_step.why_not=the profile (tests/cli/profiles/this_cpu_any.json (test input)) has no bf16 GEMM rate: calibrate with bf16")
napkin_add_cli_test(bench_train_profile_damaged EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --hardware-profile ${profiles}/bad_rate.json --json
  CHECKS "stderr~--hardware-profile: " "stderr~gemm[0].flops_per_second: must lie in [1, 1.00e21]")
napkin_add_cli_test(bench_train_profile_of_a_gpu EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --hardware-profile ${profiles}/h100_two_shapes.json --json
  CHECKS "stderr~--hardware-profile: device: the profile was measured on H100-SXM, this run is on this-cpu")
napkin_add_cli_test(bench_train_profile_of_another_cpu EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --hardware-profile ${profiles}/this_cpu_round.json --json
  CHECKS "stderr~--hardware-profile: device_name: the profile was measured on a test profile")
napkin_add_cli_test(bench_train_profile_not_a_file EXPECT_EXIT 2
  ARGS bench train --dim 4 --layers 2 --batch 2 --hardware-profile /dev/zero --json
  CHECKS "stderr~--hardware-profile: /dev/zero")
