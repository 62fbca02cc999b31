# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli drill: the JSON contract (docs/cli.md, "napkin-cli drill"), the same seed giving the same
# questions, answers read with units, and bad arguments refused with one line.

napkin_add_cli_test(drill_document
  ARGS drill --seed 1 --count 11 --json
  CHECKS format=napkin-drill version=1 seed=1 topic:null count=11
         questions.0.topic=tensor-bytes questions.0.unit=bytes questions.0.page=tensor
         questions.0.parameters.shape:array questions.0.parameters.dtype:string questions.0.formula:array
         questions.0.answer:number questions.0.relative_tolerance~0.00499:0.00501 questions.0.text:string
         questions.1.topic=dtype questions.1.page=formats
         questions.2.topic=strides questions.2.unit=elements questions.2.relative_tolerance=0
         questions.3.topic=views questions.3.unit=choice questions.3.choices.0=view questions.3.choices.1=copy
         questions.3.setup.tensor.expression:string questions.4.setup:object
         questions.4.topic=matmul-flops questions.5.topic=linear-stack-flops
         questions.6.topic=training-time questions.6.unit=days questions.6.relative_tolerance~0.0499:0.0501
         questions.7.topic=bytes-per-parameter questions.7.relative_tolerance=0
         questions.8.topic=largest-model questions.8.unit=parameters
         questions.9.topic=activations questions.10.topic=kv-cache questions.10.page=inference)

napkin_add_cli_test(drill_one_topic
  ARGS drill --topic kv-cache --seed 3 --count 2 --json
  CHECKS topic=kv-cache count=2 questions.0.topic=kv-cache questions.1.topic=kv-cache
         questions.0.parameters.layers:number questions.0.parameters.dtype:string)

# 2 · 8 · 8 · 128 · 2 B would be a kv-cache answer; here: the verdict's fields on a wrong and a right answer.
napkin_add_cli_test(drill_verdict
  ARGS drill --topic bytes-per-parameter --seed 1 --count 1 --answer "1000 B" --json
  CHECKS questions.0.verdict.read=ON questions.0.verdict.correct=OFF questions.0.verdict.answer_given=1000\ B
         questions.0.verdict.orders_of_magnitude:number questions.0.verdict.error:null)

napkin_add_cli_test(drill_answer_unreadable EXPECT_EXIT 2
  ARGS drill --seed 1 --count 1 --answer banana
  CHECKS "stderr~--answer 1: cannot read 'banana'")
napkin_add_cli_test(drill_too_many_answers EXPECT_EXIT 2
  ARGS drill --seed 1 --count 1 --answer 1 --answer 2
  CHECKS "stderr~--answer")
napkin_add_cli_test(drill_bad_topic EXPECT_EXIT 2
  ARGS drill --topic cooking
  CHECKS "stderr~--topic")
napkin_add_cli_test(drill_bad_count EXPECT_EXIT 2
  ARGS drill --count 0
  CHECKS "stderr~--count")
napkin_add_cli_test(drill_negative_seed EXPECT_EXIT 2
  ARGS drill --seed -1
  CHECKS "stderr~--seed")
