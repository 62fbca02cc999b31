// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GEMMs through oneDNN's matmul primitive, the library PyTorch runs its CPU matmuls on: AVX-512 and
// AVX512_BF16 dot-product kernels chosen at run time. A primitive is made once per shape and kept (making
// one JIT-compiles its kernel: far slower than running it). oneDNN's headers stay inside the .cpp.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <tuple>

namespace napkin {

/// The element type of one GEMM operand as stored: fp32, bf16 (the upper half of an fp32), or IEEE fp16.
enum class GemmElement { f32, bf16, f16 };

/// C[m×n] = op(A)·op(B), every matrix dense and row-major. op(A) is m×k (A stored k×m when transA), op(B)
/// is k×n (B stored n×k when transB). Products accumulate in fp32 whatever the element types.
struct GemmShape {
    long m = 0, n = 0, k = 0;
    bool transA = false, transB = false;
    GemmElement a = GemmElement::f32, b = GemmElement::f32, c = GemmElement::f32;
    /// The primitive cache's order: every field, in turn.
    friend bool operator<(const GemmShape& x, const GemmShape& y) {
        return std::tie(x.m, x.n, x.k, x.transA, x.transB, x.a, x.b, x.c) <
               std::tie(y.m, y.n, y.k, y.transA, y.transB, y.a, y.b, y.c);
    }
};

class OnednnGemm {
public:
    /// Called with the bytes the shared scratchpad grows by (negative when it is freed), so that an
    /// accounting allocator can charge oneDNN's packing buffers to the trainer.
    using ScratchpadListener = std::function<void(double bytes)>;

    /// Every GEMM runs on `threads` OpenMP threads (oneDNN's OpenMP runtime takes the calling thread's
    /// count, so it is set before each primitive is made and run).
    explicit OnednnGemm(int threads, ScratchpadListener scratchpadListener = {});
    ~OnednnGemm();
    OnednnGemm(const OnednnGemm&) = delete;
    OnednnGemm& operator=(const OnednnGemm&) = delete;

    /// C = op(A)·op(B). Throws std::runtime_error when oneDNN has no implementation for `shape`.
    void run(const GemmShape& shape, const void* a, const void* b, void* c);
    /// The implementation oneDNN chose for `shape`: "brg:avx512_core_bf16", "gemm:jit", "ref:any" (a slow
    /// reference loop), ... Makes and keeps the primitive; throws as run() does.
    std::string implementation(const GemmShape& shape);
    int threads() const { return threads_; }
    /// Primitives made so far (one per distinct shape).
    std::size_t cachedPrimitives() const;
    /// The scratchpad every primitive shares (they run one at a time): the largest one asked for, bytes.
    double scratchpadBytes() const;

private:
    struct Impl;
    int threads_;
    std::unique_ptr<Impl> impl_;
};

/// oneDNN's version, "2.6.3".
std::string onednnVersion();
/// The instruction set oneDNN dispatches to on this CPU: "avx512_core_bf16", "avx512_core_amx", "avx2", ...
std::string onednnIsa();

} // namespace napkin
