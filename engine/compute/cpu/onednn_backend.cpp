// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/onednn_backend.h"

#include "engine/compute/cpu/matmul_memory_check.h"
#include "engine/compute/cpu/onednn_cruncher_trainer.h"
#include "engine/compute/cpu/onednn_gemm.h"
#include "engine/compute/cpu/onednn_matmul_problem.h"

#include <stdexcept>

namespace napkin {
namespace {

std::optional<GemmElement> gemmElement(BenchDtype dtype) {
    switch (dtype) {
    case BenchDtype::fp32:
        return GemmElement::f32;
    case BenchDtype::bf16:
        return GemmElement::bf16;
    case BenchDtype::fp16:
        return GemmElement::f16;
    case BenchDtype::fp64:
    case BenchDtype::tf32:
    case BenchDtype::fp8e4m3:
        break;
    }
    return std::nullopt;
}

// The bf16 promise relative to fp32, and why, for the ISA oneDNN dispatches to.
std::pair<double, std::string> bf16Factor(const std::string& isa) {
    if (isa == "avx512_core_amx")
        return {16.0, "16 × fp32: AMX-BF16 tiles, 1024 bf16 FLOP/cycle/core against 64 fp32 FLOP/cycle of "
                      "two 16-lane FMA units (Intel's figures)"};
    if (isa == "avx512_core_bf16")
        return {2.0, "2 × fp32: AVX512_BF16, vdpbf16ps does 32 bf16 products per 512-bit instruction where "
                     "vfmadd231ps does 16 fp32 ones"};
    return {1.0,
            "the fp32 figure: " + isa +
                " has no bf16 dot-product instructions (no avx512_bf16), so bf16 runs on the fp32 FMA units"};
}

} // namespace

OnednnBackend::OnednnBackend(OnednnBackendOptions options)
    : eigen_(options.cpu)
    , options_(options)
    , threads_(eigen_.threads()) {}

DeviceInfo OnednnBackend::deviceInfo() const {
    if (info_)
        return *info_;
    DeviceInfo d = eigen_.deviceInfo();
    d.cpuBackend = "onednn";
    d.cpuBackendVersion = onednnVersion();
    d.isa = onednnIsa();
    const auto fp32 = d.promisedFlopsPerSecond.find("fp32");
    if (fp32 != d.promisedFlopsPerSecond.end()) {
        const auto [factor, why] = bf16Factor(d.isa);
        d.promisedFlopsPerSecond["bf16"] = factor * fp32->second;
        d.promisedBasis = "fp32: " + d.promisedBasis + "; bf16: " + why;
    }
    // A type oneDNN cannot run keeps Eigen's promise when Eigen runs it, and has none when it is refused.
    for (BenchDtype t : {BenchDtype::fp64, BenchDtype::fp16})
        if (!onednnReason(t).empty() && !options_.eigenFallback)
            d.promisedFlopsPerSecond.erase(std::string(benchDtypeName(t)));
    info_ = d;
    return d;
}

std::string OnednnBackend::onednnReason(BenchDtype dtype) const {
    if (const auto it = probed_.find(dtype); it != probed_.end())
        return it->second;
    std::string why;
    const std::optional<GemmElement> e = gemmElement(dtype);
    if (!e) {
        why = "oneDNN " + onednnVersion() + " has no " + std::string(benchDtypeName(dtype)) + " matmul";
    } else {
        try { // a small GEMM of that type: which kernel would oneDNN run?
            OnednnGemm probe(1);
            const std::string impl = probe.implementation({256, 256, 256, false, false, *e, *e, *e});
            if (impl.rfind("ref", 0) == 0)
                why = "oneDNN " + onednnVersion() + " has only its reference loop (" + impl + ") for " +
                      std::string(benchDtypeName(dtype)) + " on this CPU (" + onednnIsa() + ")";
        } catch (const std::runtime_error&) {
            why = "oneDNN " + onednnVersion() + " has no " + std::string(benchDtypeName(dtype)) +
                  " matmul on this CPU (" + onednnIsa() + ")";
        }
    }
    probed_[dtype] = why;
    return why;
}

std::string OnednnBackend::unsupportedReason(BenchDtype dtype) const {
    if (dtype == BenchDtype::tf32 || dtype == BenchDtype::fp8e4m3)
        return eigen_.unsupportedReason(dtype);
    const std::string why = onednnReason(dtype);
    if (why.empty())
        return {};
    if (options_.eigenFallback)
        return eigen_.unsupportedReason(dtype);
    return "--dtype " + std::string(benchDtypeName(dtype)) + ": " + why + " (--backend eigen runs it)";
}

std::unique_ptr<MatmulProblem> OnednnBackend::prepareMatmul(const MatmulCase& shape, std::uint64_t seed) {
    if (std::string why = unsupportedReason(shape.dtype); !why.empty())
        throw std::invalid_argument(why);
    if (!onednnReason(shape.dtype).empty())
        return eigen_.prepareMatmul(shape, seed); // the default backend's fallback, named in the result
    requireMatmulFitsInMemory(shape);
    return makeOnednnMatmulProblem(shape, seed, threads_);
}

std::unique_ptr<CruncherTrainer> OnednnBackend::makeCruncherTrainer(const CruncherConfig& config) {
    if (std::string why = unsupportedPrecisionReason(config.precision); !why.empty())
        throw std::invalid_argument(why);
    return makeOnednnCruncherTrainer(config, threads_);
}

std::string OnednnBackend::unsupportedPrecisionReason(PrecisionRecipe recipe) const {
    const std::string name(precisionRecipeName(recipe));
    if (recipe == PrecisionRecipe::fp32)
        return {};
    if (recipe == PrecisionRecipe::mixedBf16) {
        const std::string why = onednnReason(BenchDtype::bf16);
        return why.empty() ? std::string() : "--precision " + name + " needs bf16 GEMMs: " + why;
    }
    return "--precision " + name + ": the onednn Cruncher trainer runs fp32 and mixed-bf16";
}

} // namespace napkin
