# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli compare: a measured run beside the prediction. The lecture's Cruncher (D 4, 2 layers, batch 2,
# AdaGrad, fp32) peaks at 464 B at the backward of layer 2; the runs are tests/engine/measured/data's: a
# Kineto-style trace (cuda:0 peaks at 1,536 B in "forward", 2 MiB reserved; the CPU at 40 B; it names 112 B
# of "the batch") and a CUDA memory snapshot (1,536 B at its peak, one 2 MiB segment).
set(measured "${PROJECT_SOURCE_DIR}/tests/engine/measured/data")
set(cruncher --model cruncher --dim 4 --layers 2 --batch 2 --optimizer adagrad)

# The synthetic CUDA trace holds two 32 B saved tensors in 512 B blocks: the overhead ledger's allocator
# rounding (PyTorch's caching allocator, 512-byte blocks) explains its 960 B to the byte; the trace has no
# cuBLAS workspaces, so only the rounding line is counted here (--overheads rounding).
napkin_add_cli_test(compare_trace_cruncher
  ARGS compare --trace "${measured}/trace_kineto.json" ${cruncher} --overheads rounding --json
  CHECKS "format=torch.profiler Chrome trace" device=cuda:0 devices.0=cuda:0 devices.1=cpu
         predicted.peak_bytes=464 "predicted.peak_event=backward layer 2"
         measured.peak_allocated_bytes=1536 measured.peak_phase=forward measured.peak_reserved_bytes=2097152
         measured.samples=1 difference_bytes=1072 "attributed.0.name=the batch" attributed.0.bytes=112
         "attributed.1.name=allocator rounding" attributed.1.bytes=960
         unexplained_bytes=0 reserved.measured_peak_bytes=2097152 reserved.predicted_bytes=1536
         phases.0.phase=forward phases.0.measured_peak_bytes=1536 phases.0.measured_ranges.0=forward
         "phases.1.predicted_peak_event=backward layer 2" phases.1.measured_peak_bytes:null
         timeline.0.allocated_bytes=1536 timeline.0.phase=forward timeline.0.range=forward)
# Every counted line on a CUDA run: the cuBLAS workspaces of an sm 9.0 card (2 handles × 32 MiB,
# CublasHandlePool.cpp) come off the allocated difference; this synthetic trace has none, so the rest is
# negative and says so.
napkin_add_cli_test(compare_trace_cuda_counts_the_workspaces
  ARGS compare --trace "${measured}/trace_kineto.json" ${cruncher} --json
  CHECKS "attributed.1.name=cuBLAS workspace" attributed.1.bytes=67108864
         "attributed.2.name=cuBLASLt workspace" attributed.2.bytes=2097152 unexplained_bytes=-69206016)
napkin_add_cli_test(compare_trace_cpu_device
  ARGS compare --trace "${measured}/trace_kineto.json" ${cruncher} --device cpu --json
  CHECKS device=cpu measured.peak_allocated_bytes=40 measured.peak_reserved_bytes:null reserved:null
         difference_bytes=-424 unexplained_bytes=-536)
napkin_add_cli_test(compare_snapshot_cruncher
  ARGS compare --snapshot "${measured}/snapshot.pickle" ${cruncher} --json
  CHECKS "format=CUDA memory snapshot" device=cuda:0 measured.peak_allocated_bytes=1536
         measured.peak_reserved_bytes=2097152 measured.samples=4 measured.peak_phase:null
         timeline.0.allocated_bytes=0 timeline.0.reserved_bytes=2097152 attributed:array)

# A measured run brings its setup: what the run held when its step began (less what it names) is the
# prediction's persistent bytes when the flags are the run's (the CPU trace of a one-layer GPT-2, made by
# scripts/measure-run.py with these flags), and not when they are another setup's (d-model 48): the output
# says the setup probably differs, and by how much, rather than leaving it all "unexplained".
set(gpt2_one_layer --model transformer --heads 2 --layers 1 --vocab 17 --seq 5 --ffn-dim 40 --batch 2
    --dropout off --activations-of pytorch-eager --optimizer-implementation single-tensor)
napkin_add_cli_test(compare_cpu_trace_its_own_setup
  ARGS compare --trace "${measured}/cpu_trace_gpt2_one_layer.json" --d-model 24 ${gpt2_one_layer} --json
  CHECKS unexplained_bytes=0 setup.probably_differs=OFF setup.difference_bytes:null
         setup.measured_start_bytes:number setup.predicted_start_bytes:number)
napkin_add_cli_test(compare_cpu_trace_another_setup
  ARGS compare --trace "${measured}/cpu_trace_gpt2_one_layer.json" --d-model 48 ${gpt2_one_layer} --json
  CHECKS setup.probably_differs=ON setup.difference_bytes:number)

# Time by phase: the measured step (ProfilerStep#2) and its phase ranges' durations beside the step-time
# ledger's seconds per phase. Without --hardware-profile the step is costed from the GPU's published figures,
# which have no fp32 GEMM (the run is fp32): not predicted, with the reason, every predicted figure null and
# the run's own durations still there; and a CPU run is said not to be comparable with a GPU's figures.
# With this CPU's catalog entry and a profile (round test figures, tests/cli/profiles) it is predicted and
# comparable; zero_grad has no ledger row: null, not 0. No timed assertion: the shipped trace's durations
# are what the file says, checked in tst_measured_step_time.
napkin_add_cli_test(compare_cpu_trace_time_against_a_gpu
  ARGS compare --trace "${measured}/cpu_trace_gpt2_one_layer.json" --d-model 24 ${gpt2_one_layer} --json
  CHECKS time.predicted=OFF time.why_not_predicted:string time.predicted_for=H100-SXM time.basis:string
         time.comparable=OFF time.comparability:string "time.measured_step_range=ProfilerStep#2"
         time.why_not_measured:null time.phases.0.phase=forward time.phases.0.measured_seconds:number
         time.phases.0.predicted_seconds:null time.phases.0.ratio:null time.phases.0.difference_seconds:null
         time.phases.0.predicted_by_kind:null time.phases.0.largest_rows:array time.phases.0.measured_ranges.0=forward
         time.phases.1.phase=backward "time.phases.2.phase=optimizer step"
         "time.phases.2.measured_ranges.1=Optimizer.step#AdamW.step" time.phases.3.phase=zero_grad
         time.phases.3.measured_seconds:number time.step.phase=step time.step.measured_seconds:number
         time.step.predicted_seconds:null "time.step.measured_ranges.0=ProfilerStep#2"
         time.predicted_outside_phases_seconds:null time.measured_outside_phases_seconds:number)
set(this_cpu --gpu-catalog "${PROJECT_SOURCE_DIR}/tests/cli/profiles/this_cpu_catalog.json" --gpu this-cpu
    --hardware-profile "${PROJECT_SOURCE_DIR}/tests/cli/profiles/this_cpu_round.json")
napkin_add_cli_test(compare_cpu_trace_time_this_cpu
  ARGS compare --trace "${measured}/cpu_trace_gpt2_one_layer.json" --d-model 24 ${gpt2_one_layer} ${this_cpu} --json
  CHECKS time.predicted=ON time.why_not_predicted:null time.predicted_for=this-cpu
         "time.basis=tests/cli/profiles/this_cpu_round.json (test input)" time.comparable=ON time.comparability:null
         time.phases.0.predicted_seconds:number time.phases.0.ratio:number time.phases.0.difference_seconds:number
         time.phases.0.predicted_by_kind.compute:number time.phases.0.largest_rows.0.seconds:number
         time.phases.1.predicted_seconds:number time.phases.2.predicted_seconds:number
         time.phases.3.predicted_seconds:null time.phases.3.ratio:null time.phases.3.measured_seconds:number
         time.step.predicted_seconds:number time.step.ratio:number time.predicted_outside_phases_seconds:number
         unexplained_bytes=0)
# A snapshot has no ranges: the measured side is null with its reason.
napkin_add_cli_test(compare_snapshot_time
  ARGS compare --snapshot "${measured}/snapshot.pickle" ${cruncher} --json
  CHECKS time.why_not_measured:string time.measured_step_range:null time.step.measured_seconds:null
         time.step.ratio:null time.phases.0.measured_seconds:null time.measured_outside_phases_seconds:null)
# A profile of another device than --gpu: refused as account refuses it (the same option code).
napkin_add_cli_test(compare_profile_of_another_device EXPECT_EXIT 2
  ARGS compare --trace "${measured}/cpu_trace_gpt2_one_layer.json" --d-model 24 ${gpt2_one_layer} --gpu A100-SXM
       --hardware-profile "${PROJECT_SOURCE_DIR}/tests/cli/profiles/this_cpu_round.json"
  CHECKS "stderr~--hardware-profile: device: the profile was measured on this-cpu, the account is for A100-SXM")

# Bad input: one line on stderr naming the option, exit 2.
napkin_add_cli_test(compare_no_run EXPECT_EXIT 2 ARGS compare ${cruncher} CHECKS "stderr~--trace or --snapshot")
napkin_add_cli_test(compare_both EXPECT_EXIT 2
  ARGS compare --trace "${measured}/trace_kineto.json" --snapshot "${measured}/snapshot.pickle" ${cruncher}
  CHECKS "stderr~give one measured run, not both")
napkin_add_cli_test(compare_missing_file EXPECT_EXIT 2
  ARGS compare --trace "${measured}/missing.json" ${cruncher} CHECKS "stderr~--trace: cannot open")
napkin_add_cli_test(compare_no_memory_events EXPECT_EXIT 2
  ARGS compare --trace "${measured}/trace_no_memory.json" ${cruncher} CHECKS "stderr~no memory events")
napkin_add_cli_test(compare_trace_is_a_pickle EXPECT_EXIT 2
  ARGS compare --trace "${measured}/snapshot.pickle" ${cruncher} CHECKS "stderr~--trace:" "stderr~not JSON")
napkin_add_cli_test(compare_hostile_pickle EXPECT_EXIT 2
  ARGS compare --snapshot "${measured}/snapshot_reduce.pickle" ${cruncher}
  CHECKS "stderr~--snapshot:" "stderr~refused opcode STACK_GLOBAL")
napkin_add_cli_test(compare_global_pickle EXPECT_EXIT 2
  ARGS compare --snapshot "${measured}/snapshot_global.pickle" ${cruncher} CHECKS "stderr~refused opcode GLOBAL")
napkin_add_cli_test(compare_cut_pickle EXPECT_EXIT 2
  ARGS compare --snapshot "${measured}/snapshot_cut.pickle" ${cruncher} CHECKS "stderr~cut short")
napkin_add_cli_test(compare_snapshot_without_history EXPECT_EXIT 2
  ARGS compare --snapshot "${measured}/snapshot_no_history.pickle" ${cruncher} CHECKS "stderr~no allocation history")
napkin_add_cli_test(compare_snapshot_is_json EXPECT_EXIT 2
  ARGS compare --snapshot "${measured}/trace_kineto.json" ${cruncher} CHECKS "stderr~not a pickle")
napkin_add_cli_test(compare_wrong_device EXPECT_EXIT 2
  ARGS compare --trace "${measured}/trace_kineto.json" ${cruncher} --device cuda:1
  CHECKS "stderr~--device:" "stderr~no memory events on cuda:1 (the run has cuda:0, cpu)")
napkin_add_cli_test(compare_bad_device_name EXPECT_EXIT 2
  ARGS compare --trace "${measured}/trace_kineto.json" ${cruncher} --device gpu CHECKS "stderr~--device")
napkin_add_cli_test(compare_bad_setup EXPECT_EXIT 2
  ARGS compare --trace "${measured}/trace_kineto.json" --model cruncher --dim 4 CHECKS "stderr~--layers")
