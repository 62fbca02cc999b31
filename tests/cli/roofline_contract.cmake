# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli roofline and bench memory: the datasheet roofline's hand values, a small measured run on
# this CPU, and the argument contract. matmul's bytes and intensity are in bench_contract.cmake.

# H100 SXM, bf16: ridge = 989.4e12 FLOP/s / 3.35e12 B/s = 295.343 FLOP/B.
napkin_add_cli_test(roofline_h100_bf16_ridge
  ARGS roofline --gpu H100-SXM --dtype bf16 --json
  CHECKS device=H100-SXM dtype=bf16 peak_flops_per_second=989400000000000
         bandwidth_bytes_per_second=3350000000000 ridge_flops_per_byte~295.3432:295.3433
         peak_source:string bandwidth_source:string formula:string)
# fp32 on an A100 SXM: 19.5e12 / 2.039e12 = 9.5635 FLOP/B.
napkin_add_cli_test(roofline_a100_fp32_ridge
  ARGS roofline --gpu A100-SXM --dtype fp32 --json
  CHECKS peak_flops_per_second=19500000000000 ridge_flops_per_byte~9.56:9.57)
# Measured on this CPU with small arrays (about a second: the FMA loop and a 1 MiB triad).
napkin_add_cli_test(roofline_cpu_measured
  ARGS roofline --device cpu --dtype fp64 --threads 1 --bytes 1M --json
  CHECKS dtype=fp64 peak_flops_per_second:number bandwidth_bytes_per_second:number
         ridge_flops_per_byte:number bandwidth.bytes_per_array=1048576 bandwidth.threads=1
         bandwidth.bytes_moved_per_run=3145728)

napkin_add_cli_test(bench_memory_cpu_small
  ARGS bench memory --device cpu --bytes 1M --repeats 3 --warmup 1 --threads 1 --json
  CHECKS benchmark=memory device=cpu bytes_per_array=1048576 bytes_moved_per_run=3145728 threads=1
         samples=3 warmup_runs=1 verified=ON bytes_per_second~1:1e15 promised_bytes_per_second:null
         "promise_source=none: no datasheet bandwidth for this CPU" "method=triad a[i] = b[i] + s·c[i], fp64"
         byte_convention:string size_rule:string)

# Bad input: one line on stderr naming the argument, exit 2, nothing on stdout.
napkin_add_cli_test(roofline_unknown_gpu EXPECT_EXIT 2
  ARGS roofline --gpu Z100 --dtype bf16 --json CHECKS stderr~--gpu)
napkin_add_cli_test(roofline_gpu_without_that_peak EXPECT_EXIT 2
  ARGS roofline --gpu A100-SXM --dtype fp8 --json CHECKS stderr~--dtype)
napkin_add_cli_test(roofline_gpu_unknown_dtype EXPECT_EXIT 2
  ARGS roofline --gpu H100-SXM --dtype fp64 --json CHECKS stderr~--dtype)
napkin_add_cli_test(roofline_device_not_cpu EXPECT_EXIT 2
  ARGS roofline --device cuda --dtype bf16 --json CHECKS stderr~--device)
napkin_add_cli_test(roofline_neither EXPECT_EXIT 2
  ARGS roofline --dtype bf16 --json CHECKS stderr~--gpu/--device)
napkin_add_cli_test(roofline_both EXPECT_EXIT 2
  ARGS roofline --gpu H100-SXM --device cpu --json CHECKS stderr~--gpu/--device)
napkin_add_cli_test(roofline_threads_with_gpu EXPECT_EXIT 2
  ARGS roofline --gpu H100-SXM --threads 2 --json CHECKS stderr~--threads)
napkin_add_cli_test(roofline_cpu_tf32 EXPECT_EXIT 2
  ARGS roofline --device cpu --dtype tf32 --json CHECKS stderr~--dtype)
napkin_add_cli_test(roofline_cpu_bad_bytes EXPECT_EXIT 2
  ARGS roofline --device cpu --bytes 4 --json CHECKS stderr~--bytes)
napkin_add_cli_test(bench_memory_zero_bytes EXPECT_EXIT 2
  ARGS bench memory --bytes 0 --json CHECKS stderr~--bytes)
napkin_add_cli_test(bench_memory_bytes_too_large EXPECT_EXIT 2
  ARGS bench memory --bytes 17G --json CHECKS stderr~--bytes)
napkin_add_cli_test(bench_memory_unknown_device EXPECT_EXIT 2
  ARGS bench memory --device tpu --json CHECKS stderr~--device)
napkin_add_cli_test(bench_memory_zero_repeats EXPECT_EXIT 2
  ARGS bench memory --repeats 0 --json CHECKS stderr~--repeats)
napkin_add_cli_test(bench_memory_threads_on_cuda EXPECT_EXIT 2
  ARGS bench memory --device cuda --threads 2 --json CHECKS stderr~--threads)
