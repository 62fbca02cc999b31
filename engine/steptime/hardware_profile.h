// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What one machine achieves, as a benchmark measured it: GEMM throughput at a few shapes per dtype, the
// bandwidth of memory-bound ops and the fixed cost of launching one op. The step-time model
// (step_time.h) costs every op of a training step from it; the profile always names where its figures
// came from (a calibration run on this machine, torch's own kernels timed by
// scripts/calibrate-torch.py, or a published measurement), so no prediction rests on a guessed
// efficiency.
#include "engine/accounting/optimizer_implementation.h"
#include "engine/numerics/storage_type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// Which of a linear layer's three GEMMs a rate was measured on, each as torch calls it for y = x·Wᵀ with
/// x [m×k], W [n×k] (F.linear; autograd's mm_mat1_backward and mm_mat2_backward): `forward` y = x·Wᵀ,
/// `inputGradient` g·W, `weightGradient` gᵀ·x. A generic BLAS runs each orientation through a different
/// loop nest at a different rate (torch 1.13 built with BLAS_INFO=generic: aten/src/ATen/native/cpu/
/// BlasKernel.cpp's gemm_notrans_, gemm_transa_, gemm_transb_); `any`: the three timed together (a
/// profile written before orientations were recorded, or a backend that does not distinguish them).
enum class GemmOrientation { any, forward, inputGradient, weightGradient };
std::string_view
gemmOrientationName(GemmOrientation orientation); ///< "any", "forward", "input_gradient", ...
std::optional<GemmOrientation> gemmOrientationFromName(std::string_view name);

/// One measured GEMM: C[m×n] = A[m×k]·B[k×n] in `dtype`, at `flopsPerSecond` = 2·m·n·k / seconds. With an
/// orientation other than `any`, m, n and k are the layer's forward shape (tokens, outputs, inputs) and
/// the orientation says which of its three GEMMs (all 2·m·n·k FLOPs) was timed.
struct GemmRate {
    ComputeType dtype = ComputeType::fp32;
    double m = 0, n = 0, k = 0;
    double flopsPerSecond = 0;
    GemmOrientation orientation = GemmOrientation::any;
    bool operator==(const GemmRate&) const = default;
};

/// A streaming elementwise op's bytes read + written per second on tensors of one storage dtype (a CPU
/// without native bf16 arithmetic converts every element, so its bf16 ops stream far slower than fp32's).
struct ElementwiseRate {
    StorageType dtype = StorageType::fp32;
    double bytesPerSecond = 0;
    bool operator==(const ElementwiseRate&) const = default;
};

/// An optimizer's whole update as torch runs it (torch.optim's step over a parameter of `elements`), in
/// bytes per second with the bytes counted as the step's ledger counts them (step_ops_builder.cpp's
/// accesses per element × the state's size): the in-place ops of the update stream faster than an
/// out-of-place add into a third tensor, and its out-of-place ones (AdamW's sqrt and div) write fresh
/// memory; timing the update itself measures that mix instead of assuming one streaming rate.
struct UpdateRate {
    OptimizerKind optimizer = OptimizerKind::adamw;
    OptimizerImplementation implementation = OptimizerImplementation::singleTensor;
    StorageType dtype = StorageType::fp32; ///< the parameters' and state's dtype it was timed in
    double elements = 0;                   ///< the size of the parameter it was timed on
    double bytesPerSecond = 0;
    bool operator==(const UpdateRate&) const = default;
};

struct HardwareProfile {
    /// The catalog id of the device it was measured on ("H100-SXM"; a CPU profile names the catalog
    /// entry its script wrote for the CPU). Must match the GPU an account is for.
    std::string device;
    std::string deviceName; ///< as the driver or the OS names it: "NVIDIA H100 80GB HBM3"
    std::string source;     ///< what measured it: "napkin-cli calibrate", "scripts/calibrate-torch.py", a URL
    /// CPU threads the rates were measured with (napkin-cli calibrate on the CPU); 0: not recorded (a GPU's,
    /// a published or an older profile; optional in the file: "threads"). A CPU run at another count runs
    /// its GEMMs at other rates: bench train refuses such a profile.
    int threads = 0;
    std::vector<GemmRate> gemms;
    /// Bytes read + written per second by a streaming elementwise op; 0: not measured.
    double memoryBandwidthBytesPerSecond = 0;
    std::string bandwidthSource;
    /// Measured per dtype where that differs from the bandwidth above; an op on activations of a dtype
    /// listed here streams at its rate (optional in the file: "elementwise": [{dtype, bytes_per_second}]).
    std::vector<ElementwiseRate> elementwise;
    /// Optimizer updates timed whole (optional in the file: "optimizer_update": [{optimizer, implementation,
    /// dtype, elements, bytes_per_second}]); an update with none streams at its dtype's elementwise rate.
    std::vector<UpdateRate> updates;
    /// N(0, 1) samples per second of the counter-based generator Napkin's CPU trainers draw their batch
    /// with (engine/compute/counter_normal.h), timed by `napkin-cli calibrate`; 0: not measured (optional in
    /// the file: "normal_draws_per_second"). Its arithmetic (a hash, a log, a cosine per element), not its
    /// bytes, is what the Cruncher's CPU step spends on the draw.
    double normalDrawsPerSecond = 0;
    double perOpOverheadSeconds = 0; ///< launch or dispatch cost of one op, paid once per op
    std::string overheadSource;
    bool operator==(const HardwareProfile&) const = default;
};

/// The file format's name and version, written into every profile and checked on reading.
inline constexpr std::string_view kHardwareProfileFormat = "napkin-hardware-profile";
inline constexpr int kHardwareProfileVersion = 1;
/// Largest profile file read: 1 MiB (a profile of 1,000 GEMMs is about 100 KiB).
inline constexpr std::uint64_t kMaxHardwareProfileBytes = 1 << 20;

struct HardwareProfileRead {
    std::optional<HardwareProfile> profile;
    std::string error; ///< one line naming the file and the field at fault; empty when read
};

/// Parses a profile from JSON text, every field checked (a positive, finite rate; a dtype Napkin knows;
/// the format and version); the error names the field ("gemm[3].flops_per_second: must be > 0").
HardwareProfileRead hardwareProfileFromJson(std::string_view jsonText);
/// As hardwareProfileFromJson, from the file at `path` through the bounded reader (a regular file of at
/// most kMaxHardwareProfileBytes); the error starts with the path.
HardwareProfileRead readHardwareProfile(const std::string& path);
/// The profile as JSON text in the format hardwareProfileFromJson reads (indented, one trailing newline).
std::string hardwareProfileToJson(const HardwareProfile& profile);

/// The bytes per second of a memory-bound op on `dtype` tensors: its elementwise rate, or the bandwidth.
double memoryBytesPerSecond(const HardwareProfile& profile, StorageType dtype);

/// The bytes per second of `optimizer`'s update run as `implementation` on `dtype` state: the measured
/// update's (the one timed on the parameter nearest `elements` in size), or 0 when none was measured.
double updateBytesPerSecond(const HardwareProfile& profile, OptimizerKind optimizer,
                            OptimizerImplementation implementation, StorageType dtype, double elements);

/// The profile's fastest measured GEMM in `dtype`, FLOP/s: no GEMM of a step runs faster
/// (gemmFlopsPerSecond interpolates between measured rates). 0 when none was measured.
double fastestGemmFlopsPerSecond(const HardwareProfile& profile, ComputeType dtype);

/// The achievable FLOP/s of a GEMM of m·n·k in `dtype`, `orientation` one of a layer's three GEMMs at
/// that forward shape: the rate measured at exactly this shape and orientation when the profile has it
/// (the shape-blind interpolation below misses a generic BLAS's loop nests by up to 2×: docs/
/// benchmarks.md, "Where the CPU prediction went wrong"); otherwise interpolated in log(m·n·k) between the
/// nearest measured shapes of that dtype (of this orientation, or `any`) below and above it, and held at the
/// end points outside them (a GEMM larger than any measured runs at the largest's rate; a smaller one at the
/// smallest's). Unset when the profile measured no GEMM in `dtype`.
std::optional<double> gemmFlopsPerSecond(const HardwareProfile& profile, ComputeType dtype, double m,
                                         double n, double k,
                                         GemmOrientation orientation = GemmOrientation::any);

} // namespace napkin
