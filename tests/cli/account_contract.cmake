# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli account: the lecture's answers and the argument contract.

napkin_add_cli_test(account_70b_15t_1024_h100
  ARGS account --model dense --params 70e9 --tokens 15T --gpus 1024 --mfu 0.5 --precision mixed-bf16 --json
  CHECKS parameters=70000000000 training_flops~6.29999e24:6.30001e24 training_days~143.9:144.0
         gpu.dense_peak_flops_per_second=989400000000000 fits:boolean max_batch:null
         max_sequence:null)

# The lecture's convention: the datasheet's 80 GB = 80e9 B and no overheads (--memory-basis datasheet).
napkin_add_cli_test(account_largest_model_8_h100_adamw_fp32
  ARGS account --model dense --params 1B --gpu H100-SXM --gpus 8 --zero 3 --optimizer adamw --precision fp32
       --memory-basis datasheet --json
  CHECKS bytes_per_parameter=16 max_parameters=40000000000 "bytes_per_parameter_ledger=4 + 4 + 4 + 4 = 16 B"
         memory_basis=datasheet usable_memory_bytes=80000000000 overheads.total_bytes=0
         "command=napkin-cli account --model dense --params 1e9 --gpus 8 --zero 3 --memory-basis datasheet --json")

napkin_add_cli_test(account_cruncher_lecture
  ARGS account --model cruncher --dim 4 --layers 2 --batch 2 --optimizer adagrad --precision fp32 --json
  CHECKS parameters=36 memory_bytes.parameters=144 memory_bytes.gradients=144 memory_bytes.optimizer_state=144
         memory_bytes.activations=64 memory_bytes.master_weights=0 memory_bytes.total=496
         flops_per_step.forward=144 flops_per_step.backward=288 flops_per_step.total=432)

# Memory over one step of the same Cruncher (tests/engine/accounting/tst_memory_timeline.cpp by hand):
# the peak, 464 B at the backward of layer 2, is below the 496-byte sum.
napkin_add_cli_test(account_cruncher_lecture_timeline
  ARGS account --model cruncher --dim 4 --layers 2 --batch 2 --optimizer adagrad --precision fp32 --json
  CHECKS peak_memory_bytes=464 "peak_event=backward layer 2" memory_timeline.0.event=start
         memory_timeline.0.phase=start memory_timeline.0.bytes.total=288 memory_timeline.2.bytes.activations=64
         memory_timeline.6.bytes.temporary=64 memory_timeline.6.bytes.total=464
         memory_timeline.8.bytes.gradients=144 memory_timeline.9.phase=zero_grad
         "formulas.peak_memory_bytes=at backward layer 2: 144 + 80 + 0 + 144 + 32 + 64 = 464 B")

napkin_add_cli_test(account_gpt2_full_recompute_timeline
  ARGS account --model transformer --d-model 768 --layers 12 --heads 12 --vocab 50257 --seq 1024 --recompute full --json
  CHECKS "memory_timeline.16.event=recompute layer 12" memory_timeline.16.phase=recompute
         "memory_timeline.42.event=zero_grad" peak_memory_bytes:number peak_event:string)

napkin_add_cli_test(account_linear2_lecture
  ARGS account --model linear2 --batch 16384 --dim 32768 --out 8192 --json
  CHECKS flops_per_step.forward=43980465111040 flops_per_step.backward=87960930222080)

napkin_add_cli_test(account_gpt2_small
  ARGS account --model transformer --d-model 768 --layers 12 --heads 12 --vocab 50257 --seq 1024 --json
  CHECKS parameters=124439808 flops_per_step:object memory_bytes.activations:number)

napkin_add_cli_test(account_mixed_fp32_grads_18_bytes
  ARGS account --model dense --params 1e9 --precision mixed-bf16 --fp32-grads --json
  CHECKS bytes_per_parameter=18 "bytes_per_parameter_ledger=2 + 4 + 4 + 4 + 4 = 18 B")

napkin_add_cli_test(account_no_tokens_gives_null_totals
  ARGS account --model dense --params 1e9 --json
  CHECKS training_flops:null training_days:null parameters=1000000000)

napkin_add_cli_test(account_extreme_scale_is_finite
  ARGS account --model dense --params 1e13 --tokens 1e14 --gpus 1 --json
  CHECKS training_flops~5.99999e27:6.00001e27 parameters=10000000000000)

# Bad input: one line on stderr naming the argument, exit 2, nothing on stdout.
# Reserved memory of the same Cruncher: every block is under 1 MiB (the small pool) and the step holds at most
# 464 B in 512-byte blocks, so one 2 MiB small segment (kSmallBuffer) serves the whole replay, at every event.
napkin_add_cli_test(account_cruncher_lecture_reserved
  ARGS account --model cruncher --dim 4 --layers 2 --batch 2 --optimizer adagrad --precision fp32 --json
  CHECKS reserved_memory.peak_bytes=2097152 reserved_memory.segments=1 memory_timeline.0.reserved_bytes=2097152
         memory_timeline.6.reserved_bytes=2097152 reserved_memory.steps=2 "reserved_memory.granularity=timeline events"
         reserved_memory.error:null reserved_memory.allocated_peak_bytes:number
         fits=ON fits_on=reserved fits_verdict=ON reserved_memory.fits=ON reserved_memory.required_bytes:number)
napkin_add_cli_test(account_cruncher_lecture_reserved_expandable
  ARGS account --model cruncher --dim 4 --layers 2 --batch 2 --optimizer adagrad --precision fp32 --json
       --alloc-conf expandable_segments:True
  CHECKS reserved_memory.peak_bytes=2097152 reserved_memory.alloc_conf=expandable_segments:True)
napkin_add_cli_test(account_bad_alloc_conf EXPECT_EXIT 2
  ARGS account --model cruncher --dim 4 --layers 2 --batch 2 --json --alloc-conf max_split_size_mb:8
  CHECKS "stderr~--alloc-conf: max_split_size_mb: must be at least 20")
napkin_add_cli_test(account_bad_mfu EXPECT_EXIT 2
  ARGS account --model dense --params 1e9 --mfu 1.5 --json CHECKS stderr~--mfu)
napkin_add_cli_test(account_zero_mfu EXPECT_EXIT 2
  ARGS account --model dense --params 1e9 --mfu 0 --json CHECKS stderr~--mfu)
napkin_add_cli_test(account_unknown_model EXPECT_EXIT 2
  ARGS account --model lstm --json CHECKS stderr~--model)
napkin_add_cli_test(account_negative_params EXPECT_EXIT 2
  ARGS account --model dense --params -5 --json CHECKS stderr~--params)
napkin_add_cli_test(account_zero_dim EXPECT_EXIT 2
  ARGS account --model cruncher --dim 0 --layers 2 --json CHECKS stderr~--dim)
napkin_add_cli_test(account_not_a_number EXPECT_EXIT 2
  ARGS account --model dense --params seventy --json CHECKS stderr~--params)
napkin_add_cli_test(account_unknown_gpu EXPECT_EXIT 2
  ARGS account --model dense --params 1e9 --gpu TPUv5 --json CHECKS stderr~--gpu)
napkin_add_cli_test(account_missing_dim EXPECT_EXIT 2
  ARGS account --model cruncher --layers 2 --json CHECKS stderr~--dim)
napkin_add_cli_test(account_heads_must_divide EXPECT_EXIT 2
  ARGS account --model transformer --d-model 768 --layers 12 --heads 7 --vocab 50257 --seq 1024 --json
  CHECKS stderr~--heads)

# Architectures and presets (tests/engine/accounting/tst_model_architectures.cpp derives each count).
napkin_add_cli_test(account_llama3_8b_preset
  ARGS account --model-preset llama3-8b --json
  CHECKS parameters=8030261248 active_parameters=8030261248 architecture.kv_heads=8 architecture.ffn_dim=14336
         architecture.mlp=swiglu architecture.norm=rmsnorm architecture.bias=off architecture.embeddings=untied
         architecture.position=rope architecture.dropout=off architecture.attention_impl=flash
         parameter_components.4.name=output)
napkin_add_cli_test(account_llama3_8b_explicit_flags
  ARGS account --model transformer --d-model 4096 --layers 32 --heads 32 --kv-heads 8 --ffn-dim 14336
       --vocab 128256 --seq 8192 --mlp swiglu --norm rmsnorm --bias off --embeddings untied --position rope --json
  CHECKS parameters=8030261248)
napkin_add_cli_test(account_llama3_70b_preset
  ARGS account --model-preset llama3-70b --json CHECKS parameters=70553706496)
napkin_add_cli_test(account_llama3_405b_preset
  ARGS account --model-preset llama3-405b --json CHECKS parameters=405853388800)
napkin_add_cli_test(account_mixtral_total_and_active
  ARGS account --model-preset mixtral-8x7b --json
  CHECKS parameters=46702792704 active_parameters=12879925248 architecture.experts=8 architecture.top_k=2
         parameter_components.1.name=experts parameter_components.2.name=router parameter_components.2.count=1048576)
napkin_add_cli_test(account_preset_flags_override
  ARGS account --model-preset gpt2-small --layers 24 --d-model 1024 --heads 16 --json
  CHECKS parameters=354823168 architecture.mlp=gelu)
napkin_add_cli_test(account_gpt2_xl_preset
  ARGS account --model-preset gpt2-xl --json CHECKS parameters=1557611200)
napkin_add_cli_test(account_gpt3_preset
  ARGS account --model-preset gpt3-175b --json CHECKS parameters=174604259328)

# Parallel layouts. GPT-3, tp 8 + sp, selective: Korthikanti's 34·s·b·h/t per layer, 96 layers, plus the
# vocabulary-parallel fp32 logits 4·s·b·V/t: 96 × 34 × 2048 × 12288 / 8 + 4 × 2048 × 50257 / 8 = 10,319,119,360.
napkin_add_cli_test(account_gpt3_tp8_sp_selective
  ARGS account --model-preset gpt3-175b --precision mixed-bf16 --tp 8 --sp --gpus 8 --recompute selective --json
  CHECKS memory_bytes.activations=10319119360 parallelism.tp=8 parallelism.dp=1 parallelism.sp=ON
         communication_bytes_per_step.tensor_parallel=33999028224 communication_bytes_per_step.data_parallel=0
         communication_seconds_per_step.tensor_parallel:number fit_advice:string max_batch=0)
# Llama 3 70B, tp 8 × pp 4 × dp 2, 8 micro-batches: bubble 3/11, global batch 1 × 8 × 2 = 16.
napkin_add_cli_test(account_llama3_70b_3d_layout
  ARGS account --model-preset llama3-70b --precision mixed-bf16 --gpus 64 --tp 8 --pp 4 --sp --microbatches 8 --zero 1
       --memory-basis datasheet --json
  CHECKS parallelism.dp=2 parallelism.pp=4 parallelism.global_batch=16 pipeline_bubble_fraction~0.27272:0.27273
         pipeline_stage=first max_parameters_pooled=320000000000 fits=ON fit_advice:null
         activation_ledger.micro_batches_in_flight=4 activation_ledger.layers=20
         communication_ledger:array communication_bytes_per_step.pipeline_parallel:number
         formulas.pipeline_bubble_fraction:string formulas.max_parameters_pooled:string)
# Llama 3 405B as Meta trained it (The Llama 3 Herd of Models, section 3.3.2): 126 layers on 16 stages, a
# layer fewer on the first and last (7 + 14 × 8 + 7). With 16 micro-batches the second stage keeps 15 × 8
# layer activations against the first's 16 × 7: the second holds the most.
napkin_add_cli_test(account_llama3_405b_uneven_stages
  ARGS account --model-preset llama3-405b --precision mixed-bf16 --gpus 16 --pp 16 --first-stage-layers 7
       --last-stage-layers 7 --microbatches 16 --memory-basis datasheet --json
  CHECKS parallelism.first_stage_layers=7 parallelism.last_stage_layers=7 parallelism.uneven_stages=ON
         pipeline_stage=second pipeline_stages.0.layers=7 pipeline_stages.1.layers=8
         pipeline_stages.15.layers=7 pipeline_stages.1.micro_batches_in_flight=15
         "command=napkin-cli account --model-preset llama3-405b --precision mixed-bf16 --gpus 16 --pp 16 --microbatches 16 --first-stage-layers 7 --last-stage-layers 7 --memory-basis datasheet --json")
napkin_add_cli_test(account_uneven_stages_not_whole EXPECT_EXIT 2
  ARGS account --model-preset llama3-405b --gpus 16 --pp 16 --first-stage-layers 7 --json)
napkin_add_cli_test(account_default_layout_fields
  ARGS account --model transformer --d-model 768 --layers 12 --heads 12 --vocab 50257 --seq 1024
       --memory-basis datasheet --json
  CHECKS parallelism.dp=1 parallelism.microbatches=1 pipeline_bubble_fraction=0 pipeline_stage:null
         parallelism.first_stage_layers=12 parallelism.last_stage_layers=12 parallelism.uneven_stages=OFF
         communication_bytes_per_step.total=0 max_parameters_pooled=5000000000 fit_advice:null
         activation_ledger.tensors:array architecture.mlp=gelu)

# Bad combinations: exit 2 naming the flag.
napkin_add_cli_test(account_sp_without_tp EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --sp --json CHECKS stderr~--sp)
napkin_add_cli_test(account_tp_not_dividing_heads EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --tp 5 --gpus 5 --json CHECKS stderr~--tp)
napkin_add_cli_test(account_top_k_above_experts EXPECT_EXIT 2
  ARGS account --model-preset mixtral-8x7b --top-k 9 --json CHECKS stderr~--top-k)
napkin_add_cli_test(account_dp_not_whole EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --tp 8 --gpus 12 --json CHECKS stderr~--gpus)
napkin_add_cli_test(account_unknown_preset EXPECT_EXIT 2
  ARGS account --preset llama9 --json CHECKS stderr~--preset)
napkin_add_cli_test(account_transformer_flag_on_dense EXPECT_EXIT 2
  ARGS account --model dense --params 1e9 --kv-heads 8 --json CHECKS stderr~--kv-heads)
napkin_add_cli_test(account_cp_needs_flash EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --cp 2 --gpus 2 --json CHECKS stderr~--cp)
napkin_add_cli_test(account_ep_without_experts EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --ep 2 --gpus 2 --json CHECKS stderr~--ep)
napkin_add_cli_test(account_pp_not_dividing_layers EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --pp 5 --gpus 5 --json CHECKS stderr~--pp)

# One answer everywhere: "fits" judges the step's peak, not the sum. GPT-3 on 1024 H100s, ZeRO-3, full
# recompute, batch 12 (the app's preset with batch 12): the sum is 65.65 GB but backward's temporaries and
# the recomputed layer peak at 95.4 GB at the backward of layer 96, so it does not fit; the largest batch
# whose peak fits is 10 (79.9 GB; 11 peaks at 87.7 GB).
napkin_add_cli_test(account_gpt3_batch12_does_not_fit_on_its_peak
  ARGS account --preset gpt3-175b --batch 12 --json
  CHECKS fits=OFF peak_memory_bytes=95404798536 memory_bytes.total=65650714176 "peak_event=backward layer 96"
         peak_memory_basis=timeline max_batch=10
         "command=napkin-cli account --model-preset gpt3-175b --batch 12 --tokens 3e11 --precision mixed-bf16 --optimizer adam --gpus 1024 --zero 3 --recompute full --json")
# MFU divides model FLOPs (PaLM): full recompute leaves the time at MFU 0.5 at 7.28 days, raises the HFU.
napkin_add_cli_test(account_gpt3_recompute_keeps_time
  ARGS account --preset gpt3-175b --json
  CHECKS training_days~7.278:7.279 hfu~0.666:0.667 training_flops~3.18e23:3.19e23
         training_hardware_flops~4.24e23:4.25e23 mfu=0.5)
napkin_add_cli_test(account_gpt3_no_recompute_same_time
  ARGS account --preset gpt3-175b --recompute none --json
  CHECKS training_days~7.278:7.279 hfu=0.5)
# A preset is a whole setup: the app's numbers; --model-preset is the model alone.
napkin_add_cli_test(account_setup_preset_is_the_apps
  ARGS account --preset 70b-15t-1024-h100 --json
  CHECKS training_days~143.9:144.0 gpu.count=1024 zero_stage=3 "command=napkin-cli account --preset 70b-15t-1024-h100 --json")
napkin_add_cli_test(account_preset_and_model_preset_refused EXPECT_EXIT 2
  ARGS account --preset gpt3-175b --model-preset gpt2-small --json CHECKS stderr~--model-preset)
napkin_add_cli_test(presets_lists_both
  ARGS presets --json
  CHECKS presets.0.id=70b-15t-1024-h100 "presets.0.command=napkin-cli account --preset 70b-15t-1024-h100 --json"
         model_presets.0.id=gpt2-small)

# The lecture's run priced and powered (run_cost.h): 1024 × 1.2437e7 s / 3600 = 3.5375e6 GPU-hours; at $2
# per GPU-hour ≈ $7.075e6; at the H100 SXM's 700 W TDP ≈ 2,476 MWh; on the default U.S. grid (854 lb/MWh,
# U.S. EIA 2020) ≈ 959 t CO2eq.
napkin_add_cli_test(account_lecture_run_cost
  ARGS account --preset 70b-15t-1024-h100 --price-per-gpu-hour 2 --json
  CHECKS run_cost.gpu_hours~3.5374e6:3.5376e6 run_cost.dollars~7.074e6:7.076e6 run_cost.energy_mwh~2476.1:2476.4
         run_cost.emissions_tonnes~959.1:959.3 run_cost.power_watts_per_gpu=700 run_cost.pue=1
         run_cost.grid_intensity_source:string run_cost.missing:null gpu.capabilities.tdp_watts=700
         gpu.capabilities.compute_capability=9.0 warnings:array
         "command=napkin-cli account --preset 70b-15t-1024-h100 --price-per-gpu-hour 2 --json")

napkin_add_cli_test(account_run_cost_needs_tokens
  ARGS account --model dense --params 1e9 --json
  CHECKS run_cost:null)

napkin_add_cli_test(account_run_cost_user_grid_and_pue
  ARGS account --preset 70b-15t-1024-h100 --pue 1.1 --power-fraction 0.5 --grid-intensity 0.1 --json
  CHECKS run_cost.power_watts_per_gpu~384.999:385.001 run_cost.grid_kg_co2_per_kwh~0.0999:0.1001 run_cost.dollars:null
         "run_cost.grid_intensity_source=user supplied")

napkin_add_cli_test(account_bad_pue EXPECT_EXIT 2
  ARGS account --preset 70b-15t-1024-h100 --pue 0.5 --json CHECKS stderr~--pue)

# What a part cannot do: bf16 on a T4 runs emulated at the fp32 rate (a warning); fp8 on an A100 and any
# recipe on Apple's M4 Max (no source gives its peaks) get memory, fits and the largest batch, and no
# training time, with the reason (time_unavailable, and a warning); FlashAttention 2 falls back on a T4.
napkin_add_cli_test(account_bf16_on_t4_warns
  ARGS account --preset 70b-15t-1024-h100 --gpu T4 --json
  CHECKS gpu.dense_peak_flops_per_second=8100000000000 warnings.0:string
         gpu.capabilities.dense_peaks.bf16=none gpu.capabilities.architecture=Turing)

napkin_add_cli_test(account_fp8_on_a100_says_why
  ARGS account --model dense --params 1e9 --tokens 20e9 --gpu A100-SXM --precision fp8-mixed --json
  CHECKS training_flops~1.19e20:1.21e20 training_seconds:null training_days:null gpu_days:null run_cost:null
         time_unavailable:string warnings.0:string gpu.dense_peak_flops_per_second=0 fits:boolean
         max_parameters:number)

napkin_add_cli_test(account_m4_max_memory_without_a_peak
  ARGS account --model-preset gpt2-small --tokens 1e9 --gpu M4-Max-128GB --precision mixed-bf16 --json
  CHECKS training_seconds:null time_unavailable:string memory_bytes.total:number fits=ON
         max_batch:number max_sequence:number warnings.0:string)

napkin_add_cli_test(account_flash_on_t4_falls_back
  ARGS account --model-preset llama3-8b --seq 512 --gpu T4 --precision mixed-fp16 --json
  CHECKS warnings.0:string architecture.attention_impl=eager)

# The overhead ledger (docs/cli.md): an H100 SXM reports 81,559 MiB = 85,520,809,984 B (the catalog's
# driver_memory_bytes); PyTorch's cuBLAS workspace is 32 MiB on sm 9.0 (CublasHandlePool.cpp), one per
# handle, two handles in a training step; cuBLASLt's 1024 KiB each; the CUDA context has no cited figure
# for an H100 and counts 0.
napkin_add_cli_test(account_overheads_h100
  ARGS account --model-preset gpt2-small --precision mixed-bf16 --json
  CHECKS memory_basis=usable nominal_memory_bytes=80000000000 usable_memory_bytes=85520809984
         overheads.lines.cublas_workspace.bytes=67108864 overheads.lines.cublas_workspace.counted=ON
         overheads.lines.cublaslt_workspace.bytes=2097152 overheads.lines.cuda_context.measured=OFF
         overheads.lines.cuda_context.bytes=0 overheads.lines.cuda_context.source:string
         overheads.lines.allocator_rounding.formula:string overheads.lines.nccl_buffers.bytes=0
         predicted_memory_bytes:number peak_memory_bytes:number formulas.usable_memory_bytes:string
         overheads.settings.switches=all overheads.settings.nccl_channels:null)
# On CUDA 13 the H100 has a measured context: 612 MiB in nvidia-smi for a PyTorch 2.11.0+cu130 process that
# made one tensor (napkin's GPU run, 2026-11-27, scripts/gpu-bench.sh's cuda-context step).
napkin_add_cli_test(account_overheads_h100_cuda13_context
  ARGS account --model-preset gpt2-small --precision mixed-bf16 --cuda-major 13 --json
  CHECKS overheads.lines.cuda_context.measured=ON overheads.lines.cuda_context.bytes=641728512
         overheads.lines.cuda_context.counted=ON overheads.lines.cuda_context.source:string)
# NCCL_BUFFSIZE's default 4 MiB × 16 channels × 2 communicators (tp 2, dp 4).
napkin_add_cli_test(account_overheads_nccl_per_layout
  ARGS account --model-preset gpt2-small --gpus 8 --tp 2 --nccl-channels 16 --json
  CHECKS overheads.lines.nccl_buffers.bytes=134217728 overheads.lines.nccl_buffers.counted=ON
         "command=napkin-cli account --model-preset gpt2 --gpus 8 --tp 2 --nccl-channels 16 --json")
# Switches and the user's own figures, reproduced by the command line.
napkin_add_cli_test(account_overheads_settings_round_trip
  ARGS account --model-preset gpt2-small --overheads context,rounding --fragmentation 0.1 --cuda-context 5e8
       --cuda-major 13 --json
  CHECKS overheads.lines.cuda_context.bytes=500000000 overheads.lines.cuda_context.counted=ON
         overheads.lines.cublas_workspace.counted=OFF overheads.lines.fragmentation.counted=ON
         overheads.settings.switches=context,rounding overheads.settings.fragmentation~0.0999:0.1001
         "command=napkin-cli account --model-preset gpt2 --overheads context,rounding --fragmentation 0.1 --cuda-major 13 --cuda-context 5e8 --json")
napkin_add_cli_test(account_overheads_bad_fragmentation EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --fragmentation 1.5 --json CHECKS stderr~--fragmentation)
napkin_add_cli_test(account_overheads_bad_switch EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --overheads context,cuda --json CHECKS stderr~--overheads)
napkin_add_cli_test(account_overheads_bad_cuda_major EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --cuda-major 12.5 --json CHECKS stderr~--cuda-major)
napkin_add_cli_test(account_overheads_bad_channels EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --gpus 8 --nccl-channels 0 --json CHECKS stderr~--nccl-channels)
napkin_add_cli_test(account_overheads_bad_basis EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --memory-basis marketing --json CHECKS stderr~--memory-basis)

# Compared with other calculators (docs/cli.md, peer_estimates): GPT-2 small on 8 GPUs, ZeRO-2, mixed bf16.
# DeepSpeed's ZeRO-2 estimator gives 2·N + int(18·N/8) = 528,869,184 B, Napkin 2·N + 14·N/8: the 4·N/8 =
# 62,219,904 B between them is DeepSpeed's fp32 gradient partition beside the 16-bit one. Megatron's FLOP
# count pads the vocabulary to 50304: 6·768·47 = 216,576 FLOPs per token above Napkin's (its weights estimate,
# the distributed optimizer being ZeRO-1, is not set beside a ZeRO-2 setup).
napkin_add_cli_test(account_peer_estimates_gpt2_zero2
  ARGS account --model-preset gpt2-small --gpus 8 --zero 2 --precision mixed-bf16 --json
  CHECKS "peer_estimates.0.peer=DeepSpeed ZeRO-2 estimator" peer_estimates.0.applicable=ON
         peer_estimates.0.quantities.0.peer=528869184 peer_estimates.0.quantities.0.napkin=466649280
         peer_estimates.0.quantities.0.terms.1.name=gradients peer_estimates.0.quantities.0.terms.1.difference=62219904
         peer_estimates.1.peer=Megatron-LM "peer_estimates.1.quantities.1.name=FLOPs per token"
         peer_estimates.1.quantities.1.difference=216576 "peer_estimates.1.quantities.1.terms.1.name=logits")

napkin_add_cli_test(account_peer_estimates_not_applicable
  ARGS account --model dense --params 1e9 --gpus 8 --zero 1 --json
  CHECKS peer_estimates.0.applicable=OFF peer_estimates.0.not_applicable:string
         peer_estimates.1.applicable=OFF)

# The largest batch and sequence judged as fits_verdict is (docs/cli.md, searches_on; fit_searches.h): GPT-3 on
# 1024 H100s is modelled event by event, so on reserved: batch 9 (77.36 GB reserved with overheads; 10 needs
# 85.84 GB > 85.52 GB usable) where the allocated peak allows 10; the sequence stops at the 2048-row table.
napkin_add_cli_test(account_gpt3_searches_on_reserved
  ARGS account --preset gpt3-175b --json
  CHECKS searches_on=reserved max_batch=10 max_batch_verdict=9 max_sequence=2048 max_sequence_verdict=2048
         fit_advice_verdict:null formulas.max_batch_verdict:string formulas.max_sequence_verdict:string)
# The QLoRA fine-tuner's context on 24 GB: 13,733 tokens on allocated, 9,984 on reserved (the simulated
# segments of the long sequence's activations); in the datasheet basis, no allocator: the allocated answers.
napkin_add_cli_test(account_llama3_8b_qlora_24gb_searches_on_reserved
  ARGS account --preset llama3-8b-qlora-24gb --json
  CHECKS searches_on=reserved max_sequence=13733 max_sequence_verdict=9984 max_batch=6 max_batch_verdict=4)
napkin_add_cli_test(account_llama3_8b_qlora_24gb_searches_on_allocated
  ARGS account --preset llama3-8b-qlora-24gb --memory-basis datasheet --json
  CHECKS searches_on=allocated fits_on=allocated max_sequence_verdict=13748 max_batch_verdict=6)
