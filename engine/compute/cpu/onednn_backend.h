// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The oneDNN CPU backend: GEMMs on oneDNN's matmul primitive (fp32; bf16 with fp32 accumulation, on
// AVX512_BF16 dot products where the CPU has them; fp16 where the library has kernels for it), the
// Cruncher trainer in fp32 and mixed bf16. The CPU's facts and measured FMA peak are the Eigen backend's,
// which also stays as the fallback and the numerical reference.
#include "engine/compute/cpu/cpu_backend.h"

#include <map>
#include <optional>
#include <string>

namespace napkin {

struct OnednnBackendOptions {
    CpuBackendOptions cpu;
    /// Run what oneDNN has no kernel for (fp64; fp16 in oneDNN 2.6) on Eigen, saying so in each result:
    /// the default CPU backend does; one asked for by name (--backend onednn) refuses those types instead.
    bool eigenFallback = false;
};

class OnednnBackend final : public BenchmarkBackend {
public:
    explicit OnednnBackend(OnednnBackendOptions options = {});

    /// The Eigen backend's device (fp32 promise and its basis), with oneDNN's version and ISA. bf16 promise:
    /// twice fp32 where oneDNN dispatches to AVX512_BF16 (vdpbf16ps: 32 bf16 products per 512-bit
    /// instruction, vfmadd231ps 16 fp32 ones), 16× with AMX tiles (1024 bf16 FLOP/cycle/core against
    /// 2·16·2 = 64 fp32, Intel's figures), the fp32 figure where the ISA has no bf16 dot products.
    DeviceInfo deviceInfo() const override;
    std::string unsupportedReason(BenchDtype dtype) const override;
    std::unique_ptr<MatmulProblem> prepareMatmul(const MatmulCase& shape, std::uint64_t seed) override;
    /// fp32 and mixed-bf16 (engine/compute/cpu/onednn_cruncher_trainer.h).
    std::unique_ptr<CruncherTrainer> makeCruncherTrainer(const CruncherConfig& config) override;
    std::string unsupportedPrecisionReason(PrecisionRecipe recipe) const override;

    /// Empty when oneDNN itself has a kernel (not its reference loop) for `dtype` on this CPU, else why not.
    std::string onednnReason(BenchDtype dtype) const;

private:
    CpuBackend eigen_;
    OnednnBackendOptions options_;
    int threads_ = 1;
    mutable std::map<BenchDtype, std::string> probed_;
    mutable std::optional<DeviceInfo> info_;
};

} // namespace napkin
