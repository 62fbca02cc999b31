# napkin-cli account: the lecture's answers and the argument contract.

napkin_add_cli_test(account_70b_15t_1024_h100
  ARGS account --model dense --params 70e9 --tokens 15T --gpus 1024 --mfu 0.5 --precision mixed-bf16 --json
  CHECKS parameters=70000000000 training_flops~6.29999e24:6.30001e24 training_days~143.9:144.0
         gpu.dense_peak_flops_per_second=989400000000000 fits:boolean max_batch:null)

napkin_add_cli_test(account_largest_model_8_h100_adamw_fp32
  ARGS account --model dense --params 1B --gpu H100-SXM --gpus 8 --zero 3 --optimizer adamw --precision fp32 --json
  CHECKS bytes_per_parameter=16 max_parameters=40000000000 "bytes_per_parameter_ledger=4 + 4 + 4 + 4 = 16 B")

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
napkin_add_cli_test(account_fp8_on_a100 EXPECT_EXIT 2
  ARGS account --model dense --params 1e9 --gpu A100-SXM --precision fp8-mixed --json CHECKS stderr~--precision)
napkin_add_cli_test(account_heads_must_divide EXPECT_EXIT 2
  ARGS account --model transformer --d-model 768 --layers 12 --heads 7 --vocab 50257 --seq 1024 --json
  CHECKS stderr~--heads)
