# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli tensor: PyTorch's strides, offsets, views and copies, and the argument contract.
# (CMake reads JSON booleans as ON/OFF.)

napkin_add_cli_test(tensor_element_offset_4x4
  ARGS tensor --shape 4,4 x --json
  CHECKS steps.0.expr=x steps.0.stride.0=4 steps.0.stride.1=1 steps.0.offsets.6=6 steps.0.storage_bytes=64
         steps.0.contiguous=ON error:null)

napkin_add_cli_test(tensor_row_and_column
  ARGS tensor --shape 2,3 "x[:, 1]" --json
  CHECKS steps.1.shape.0=2 steps.1.stride.0=3 steps.1.offset=1 steps.1.contiguous=OFF steps.1.storage=0
         steps.1.is_view=ON steps.1.offsets.0=1 steps.1.offsets.1=4)

napkin_add_cli_test(tensor_transpose_view_fails
  ARGS tensor --shape 2,3 "x.transpose(1,0).view(2,3)" --json
  CHECKS steps.1.stride.0=1 steps.1.stride.1=3 steps.1.contiguous=OFF error.step=2 error.position:null
         "error.message=view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")

napkin_add_cli_test(tensor_contiguous_fix_copies
  ARGS tensor --shape 2,3 --dtype fp32 "x.transpose(1,0).contiguous().view(2,3)" --json
  CHECKS steps.2.storage=1 steps.2.is_view=OFF steps.2.bytes_copied=24 steps.2.storage_bytes=24
         steps.3.storage=1 steps.3.stride.0=3 steps.3.stride.1=1 steps.3.is_view=ON error:null)

napkin_add_cli_test(tensor_contiguous_fix_bf16
  ARGS tensor --shape 2,3 --dtype bf16 "x.t().contiguous()" --json
  CHECKS steps.2.bytes_copied=12 steps.0.storage_bytes=12 input.element_bytes=2)

napkin_add_cli_test(tensor_head_split
  ARGS tensor --shape 2,4,6 "x.view(2,4,2,3).transpose(1,2)" --json
  CHECKS steps.2.shape.1=2 steps.2.shape.2=4 steps.2.stride.0=24 steps.2.stride.1=3 steps.2.stride.2=6
         steps.2.stride.3=1 steps.2.storage=0)

napkin_add_cli_test(tensor_expand_view
  ARGS tensor --shape 3,1 "x.expand(3,4).view(3,2,2)" --json
  CHECKS steps.1.stride.1=0 steps.2.stride.0=1 steps.2.stride.1=0 steps.2.stride.2=0 error:null)

napkin_add_cli_test(tensor_shape_mismatch
  ARGS tensor --shape 2,3 "x.view(2,4)" --json
  CHECKS error.step=1 "error.message=shape '[2, 4]' is invalid for input of size 6")

napkin_add_cli_test(tensor_parse_error_has_position
  ARGS tensor --shape 2,3 "x.t().foo()" --json
  CHECKS error.step=2 error.position=6 steps.1.stride.0=1 steps.1.expr:string)

# Bad input: one line on stderr naming the argument, exit 2, nothing on stdout.
napkin_add_cli_test(tensor_bad_shape EXPECT_EXIT 2
  ARGS tensor --shape 2,x "x" --json CHECKS stderr~--shape)
napkin_add_cli_test(tensor_unknown_dtype EXPECT_EXIT 2
  ARGS tensor --shape 2,3 --dtype fp31 "x" --json CHECKS stderr~--dtype)
napkin_add_cli_test(tensor_missing_expression EXPECT_EXIT 2
  ARGS tensor --shape 2,3 --json CHECKS stderr~EXPR)

# clone() of a tensor that is not non-overlapping and dense: dense strides in the input's stride order, as
# PyTorch's preserve_format gives them (torch 1.13: (48, 12, 1, 4)), and the chain after it inherits them.
napkin_add_cli_test(tensor_clone_keeps_stride_order
  ARGS tensor --shape 4,3,4 "x.expand(2,4,-1,4).transpose(3,-2).clone()" --json
  CHECKS steps.2.stride.0=0 steps.3.stride.0=48 steps.3.stride.1=12 steps.3.stride.2=1 steps.3.stride.3=4
         steps.3.is_view=OFF steps.3.storage=1 steps.3.bytes_copied=384 steps.3.contiguous=OFF error:null)
napkin_add_cli_test(tensor_clone_of_diagonal_then_view_fails
  ARGS tensor --shape 5,5,5 "x.diagonal(-1,1,0).squeeze(-1).clone().view(20)" --json
  CHECKS steps.3.stride.0=1 steps.3.stride.1=5 error.step=4)

# () is a 0-d tensor; a blank shape is refused (more often an empty variable than a wish for a scalar).
napkin_add_cli_test(tensor_zero_d
  ARGS tensor --shape "()" "x.unsqueeze(0)" --json
  CHECKS steps.0.numel=1 steps.0.storage_bytes=4 steps.1.shape.0=1 steps.1.stride.0=1 error:null)
# (An empty argument cannot pass through these lists; tst_cli_tensor checks --shape '' in-process.)
napkin_add_cli_test(tensor_blank_shape EXPECT_EXIT 2
  ARGS tensor "--shape=  " "x" --json CHECKS "stderr~--shape: empty value; write () for a 0-d tensor")
