// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which library runs the CPU backend's GEMMs: oneDNN (PyTorch's own CPU kernels: AVX-512, bf16 dot
// products) or Eigen (portable; the numerical reference). The spelling of `--backend` and of scenario files.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace napkin {

enum class CpuBackendKind { onednn, eigen };

/// "onednn", "eigen".
std::string_view cpuBackendKindName(CpuBackendKind kind);
std::optional<CpuBackendKind> cpuBackendKindFromName(std::string_view name);
/// "onednn, eigen" (help texts, error messages).
std::string cpuBackendKindNames();
std::span<const CpuBackendKind> allCpuBackendKinds();

} // namespace napkin
