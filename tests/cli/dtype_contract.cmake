# SPDX-License-Identifier: GPL-3.0-or-later
# napkin-cli dtype: the lecture's answers (fp16(1e-8) = 0, bf16(1e-8) ≠ 0, fp8 largest finite 448 /
# 57344), finfo's facts, overflow rules, and the argument contract.

napkin_add_cli_test(dtype_1e-8_underflows_in_fp16_not_in_bf16
  ARGS dtype 1e-8 --json
  CHECKS values.0.input=1e-8 values.0.formats.0.name=fp32 values.0.formats.1.name=fp16
         values.0.formats.2.name=bf16 values.0.formats.3.name=fp8-e4m3 values.0.formats.4.name=fp8-e5m2
         values.0.formats.1.value=0 values.0.formats.1.class=zero values.0.formats.1.bits=0x0000
         values.0.formats.1.rel_error=1
         values.0.formats.2.value~1.0e-8:1.01e-8 values.0.formats.2.bits=0x322c values.0.formats.2.class=normal
         values.0.formats.0.bits=0x322bcc77)

napkin_add_cli_test(dtype_fp8_largest_finite
  ARGS dtype 448 57344 --json
  CHECKS values.0.formats.3.value=448 values.0.formats.3.bits=0x7e values.1.input=57344
         values.1.formats.4.value=57344 values.1.formats.4.bits=0x7b values.1.formats.3.value=nan)

napkin_add_cli_test(dtype_overflow_rules
  ARGS dtype 65520 464 1e6 --json
  CHECKS values.0.formats.1.value=inf values.0.formats.1.bits=0x7c00 values.0.formats.1.class=inf
         values.0.formats.1.abs_error=inf
         values.1.formats.3.value=448 values.2.formats.3.value=nan values.2.formats.3.bits=0x7f
         values.2.formats.4.value=inf values.2.formats.2.value=999424)

napkin_add_cli_test(dtype_saturate
  ARGS dtype 1e6 -1e6 --saturate --json
  CHECKS values.0.formats.3.value=448 values.1.formats.3.value=-448 values.0.formats.4.value=57344
         values.0.formats.1.value=inf)

napkin_add_cli_test(dtype_specials_and_signed_zero
  ARGS dtype -inf nan -1e-8 --json
  CHECKS values.0.formats.1.value=-inf values.0.formats.3.value=nan values.1.formats.0.class=nan
         values.1.formats.1.bits=0x7e00 values.2.formats.1.bits=0x8000 values.2.formats.1.class=zero
         values.0.formats.1.abs_error:null)

napkin_add_cli_test(dtype_fields_and_neighbours
  ARGS dtype 1 --json
  CHECKS values.0.formats.1.bits=0x3c00 values.0.formats.1.sign=0 values.0.formats.1.exponent=15
         values.0.formats.1.mantissa=0 "values.0.formats.1.binary=0 01111 0000000000"
         values.0.formats.1.next=1.0009765625 values.0.formats.1.previous=0.99951171875
         values.0.formats.1.ulp=0.0009765625 values.0.formats.3.next=1.125)

napkin_add_cli_test(dtype_info_matches_finfo
  ARGS dtype --info --json
  CHECKS formats.0.name=fp32 formats.0.mantissa_bits=23 formats.0.bias=127
         formats.1.max=65504 formats.1.eps=0.0009765625 formats.1.min_normal=6.103515625e-05
         formats.2.eps=0.0078125 formats.2.max~3.38953e38:3.38954e38
         formats.3.name=fp8-e4m3 formats.3.max=448 formats.3.eps=0.125 formats.3.min_normal=0.015625
         formats.3.min_subnormal=0.001953125 formats.3.bias=7 formats.3.exponent_bits=4 formats.3.mantissa_bits=3
         formats.3.finite_values=253
         formats.4.max=57344 formats.4.eps=0.25 formats.4.min_normal=6.103515625e-05
         formats.4.min_subnormal=1.52587890625e-05 formats.4.bias=15)

# Bad input: one line on stderr naming the argument, exit 2, nothing on stdout.
napkin_add_cli_test(dtype_bad_value EXPECT_EXIT 2
  ARGS dtype 1 seventy --json CHECKS stderr~seventy)
napkin_add_cli_test(dtype_no_value EXPECT_EXIT 2
  ARGS dtype --json CHECKS stderr~VALUE)
napkin_add_cli_test(dtype_unknown_option_is_named EXPECT_EXIT 2
  ARGS dtype 1 --jsn CHECKS stderr~--jsn)
