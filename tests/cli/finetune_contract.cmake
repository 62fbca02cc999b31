# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli account --finetune / --offload: the issue's question and the refusals.

# Llama 3 8B, QLoRA r = 16 on every linear layer, one 2048-token sequence, full recompute, on a 24 GB
# GPU: PEFT's 41,943,040 trainable of 8,072,204,288; the NF4 base 6,979,321,856 × 0.515869140625 +
# 1,050,939,392 × 2 = 5,702,295,552 B (tst_fine_tuning.cpp derives each figure).
napkin_add_cli_test(account_llama3_8b_qlora_24gb
  ARGS account --preset llama3-8b-qlora-24gb --json
  CHECKS fine_tuning.method=qlora fine_tuning.trainable_parameters=41943040
         fine_tuning.all_parameters=8072204288 fine_tuning.frozen_weight_bytes=5702295552
         fine_tuning.lora.targets=all-linear memory_bytes.gradients=83886080 fits=ON
         gpu.memory_bytes=24000000000)

# The student's next question, "how long a context can I train on?": at batch 1 the step's peak plus the
# overheads (cuBLAS/cuBLASLt workspaces, rounding) fit the 4090's 24e9 B up to 13,733 tokens; the datasheet
# basis (the peak alone) to 13,748 (24.00e9 B at 13,749). tst_max_sequence.cpp checks both against the engine.
napkin_add_cli_test(account_llama3_8b_qlora_24gb_max_sequence
  ARGS account --preset llama3-8b-qlora-24gb --json
  CHECKS max_sequence=13733 max_batch=6 formulas.max_sequence:string)
napkin_add_cli_test(account_llama3_8b_qlora_24gb_max_sequence_datasheet
  ARGS account --preset llama3-8b-qlora-24gb --memory-basis datasheet --json
  CHECKS max_sequence=13748 max_batch=6 memory_basis=datasheet)

# The same flags by hand give the same document's command back.
napkin_add_cli_test(account_lora_q_v_command
  ARGS account --model-preset llama3-8b --finetune lora --lora-rank 8 --lora-targets v_proj,q_proj --json
  CHECKS fine_tuning.trainable_parameters=3407872 fine_tuning.all_parameters=8033669120
         "command=napkin-cli account --model-preset llama3-8b --finetune lora --lora-rank 8 --lora-targets q,v --json")

# Offloading AdamW's states of full training: they leave the GPU for the host, byte for byte.
napkin_add_cli_test(account_offload_optimizer
  ARGS account --model-preset llama3-8b --precision mixed-bf16 --offload optimizer --json
  CHECKS memory_bytes.master_weights=0 memory_bytes.optimizer_state=0
         fine_tuning.host_memory_bytes=96363134976 fine_tuning.host_link_bytes_per_step.to_host=16060522496)

napkin_add_cli_test(account_lora_rank_without_lora EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --lora-rank 8 CHECKS "stderr~--lora-rank: needs --finetune")
napkin_add_cli_test(account_lora_bad_target EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --finetune lora --lora-targets q,lm_head CHECKS "stderr~--lora-targets:")
napkin_add_cli_test(account_lora_gate_on_gelu EXPECT_EXIT 2
  ARGS account --model-preset gpt2-small --finetune lora --lora-targets gate CHECKS "stderr~no gate projection")
napkin_add_cli_test(account_lora_with_tp EXPECT_EXIT 2
  ARGS account --model-preset llama3-8b --finetune lora --gpus 2 --tp 2 CHECKS "stderr~data parallelism alone")
napkin_add_cli_test(account_lora_dense EXPECT_EXIT 2
  ARGS account --model dense --params 1e9 --finetune qlora CHECKS "stderr~--finetune:")
