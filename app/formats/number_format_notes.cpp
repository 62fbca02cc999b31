// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/formats/number_format_notes.h"

#include <QCoreApplication>

// Sources: Micikevicius et al. 2018, "Mixed Precision Training" (fp16 + loss scaling, fp32 master
// weights); Kalamkar et al. 2019, "A Study of BFLOAT16 for Deep Learning Training"; Micikevicius et
// al. 2022, "FP8 Formats for Deep Learning" (E4M3 for weights and activations, E5M2 for gradients).
QString numberFormatNote(napkin::FloatFormat format) {
    switch (format) {
    case napkin::FloatFormat::fp32:
        return QCoreApplication::translate(
            "NumberFormatNotes", "PyTorch's default dtype; in mixed precision it holds the master weights "
                                 "and optimizer state (4 bytes each).");
    case napkin::FloatFormat::fp16:
        return QCoreApplication::translate(
            "NumberFormatNotes", "Mixed-precision compute since V100. Range ends at 65504 and normals at "
                                 "6.1e-5, so small gradients underflow: training needs loss scaling.");
    case napkin::FloatFormat::bf16:
        return QCoreApplication::translate(
            "NumberFormatNotes", "fp32's 8-bit exponent (same range) with only 8 significant bits: no loss "
                                 "scaling needed; the usual training dtype on A100 and H100.");
    case napkin::FloatFormat::fp8_e4m3:
        return QCoreApplication::translate(
            "NumberFormatNotes", "FP8 training (H100 and later): weights and activations, more precision, "
                                 "max 448, used with per-tensor scale factors.");
    case napkin::FloatFormat::fp8_e5m2:
        return QCoreApplication::translate("NumberFormatNotes",
                                           "FP8 training: gradients, which need range more than precision "
                                           "(max 57344, 2 mantissa bits).");
    }
    return {};
}
