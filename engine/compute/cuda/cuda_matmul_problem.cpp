// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_matmul_problem.h"

#include "engine/compute/cuda/cublas_types.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_kernels.h"
#include "engine/compute/matmul_reference.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace napkin::cuda {
namespace {

ElementType inputElement(BenchDtype d) {
    switch (d) {
    case BenchDtype::fp64:
        return ElementType::f64;
    case BenchDtype::fp16:
        return ElementType::f16;
    case BenchDtype::bf16:
        return ElementType::bf16;
    case BenchDtype::fp8e4m3:
        return ElementType::e4m3;
    case BenchDtype::fp32:
    case BenchDtype::tf32:
        break;
    }
    return ElementType::f32;
}

double decode(cudaDataType_t type, const unsigned char* p) {
    switch (type) {
    case CUDA_R_64F: {
        double v = 0;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    case CUDA_R_16F: {
        __half v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(__half2float(v));
    }
    case CUDA_R_16BF: {
        __nv_bfloat16 v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(__bfloat162float(v));
    }
    case CUDA_R_8F_E4M3: {
        __nv_fp8_e4m3 v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(static_cast<float>(v));
    }
    default: {
        float v = 0;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(v);
    }
    }
}

// cuBLASLt descriptors as unique_ptrs with their destroy functions (status ignored: destructors).
struct DescDeleter {
    void operator()(cublasLtMatmulDescOpaque_t* d) const { (void)cublasLtMatmulDescDestroy(d); }
    void operator()(cublasLtMatrixLayoutOpaque_t* l) const { (void)cublasLtMatrixLayoutDestroy(l); }
    void operator()(cublasLtMatmulPreferenceOpaque_t* p) const { (void)cublasLtMatmulPreferenceDestroy(p); }
};
using MatmulDesc = std::unique_ptr<cublasLtMatmulDescOpaque_t, DescDeleter>;
using Layout = std::unique_ptr<cublasLtMatrixLayoutOpaque_t, DescDeleter>;
using Preference = std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, DescDeleter>;

Layout makeLayout(cudaDataType_t type, long rows, long cols, long ld) {
    cublasLtMatrixLayout_t l = nullptr;
    NAPKIN_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&l, type, static_cast<std::uint64_t>(rows),
                                                   static_cast<std::uint64_t>(cols), ld));
    return Layout(l);
}

class CudaMatmulProblem final : public MatmulProblem {
public:
    CudaMatmulProblem(std::shared_ptr<CudaContext> context, const MatmulCase& shape, std::uint64_t seed)
        : ctx_(std::move(context))
        , shape_(shape)
        , types_(gemmTypes(shape.dtype)) {
        if (const std::string why = shapeProblem(shape); !why.empty())
            throw std::invalid_argument(why);
        const auto m = static_cast<std::size_t>(shape.m), n = static_cast<std::size_t>(shape.n),
                   k = static_cast<std::size_t>(shape.k);
        a_ = DeviceBuffer(m * k * types_.abBytes);
        b_ = DeviceBuffer(k * n * types_.abBytes);
        c_ = DeviceBuffer(m * n * types_.cBytes);
        const cudaStream_t s = ctx_->stream.get();
        fillUniform(a_.get(), m * k, inputElement(shape.dtype), seed, s);
        fillUniform(b_.get(), k * n, inputElement(shape.dtype), seed ^ 0x5bd1e9955bd1e995ULL, s);
        NAPKIN_CUDA_CHECK(cudaMemsetAsync(c_.get(), 0, c_.bytes(), s));
        if (types_.lt)
            prepareLt();
        ctx_->stream.synchronize();
    }

    bool run(const KeepGoing& /*keepGoing: one cuBLAS call cannot be split*/) override {
        enqueue();
        ctx_->stream.synchronize();
        return true;
    }

    std::optional<double> timedRun(int calls, const KeepGoing& /*asked by the runner before*/) override {
        // Each call is timed alone between two events, with L2 flushed before it and outside the span,
        // so every GEMM reads A and B from HBM as a training step would.
        double total = 0;
        for (int i = 0; i < calls; ++i) {
            ctx_->flushL2();
            start_.record(ctx_->stream.get());
            enqueue();
            stop_.record(ctx_->stream.get());
            total += stop_.secondsSince(start_);
        }
        return total / std::max(1, calls);
    }

    double maxRelativeError(int samples, std::uint64_t seed) const override {
        // Copies back only what each sampled entry needs: row i of A (contiguous in the k×m layout),
        // column j of B and the entry c_ij; the reference sums the decoded inputs in long double.
        ctx_->stream.synchronize();
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<long> row(0, shape_.m - 1), col(0, shape_.n - 1);
        const auto k = static_cast<std::size_t>(shape_.k);
        std::vector<unsigned char> aRow(k * types_.abBytes), bCol(k * types_.abBytes), cEntry(types_.cBytes);
        double worst = 0;
        for (int s = 0; s < samples; ++s) {
            const auto i = static_cast<std::size_t>(row(rng)), j = static_cast<std::size_t>(col(rng));
            copyBack(aRow.data(), a_.as<unsigned char>() + i * k * types_.abBytes, aRow.size());
            copyBack(bCol.data(), b_.as<unsigned char>() + j * k * types_.abBytes, bCol.size());
            copyBack(cEntry.data(),
                     c_.as<unsigned char>() + (i + j * static_cast<std::size_t>(shape_.m)) * types_.cBytes,
                     cEntry.size());
            long double ref = 0, scale = 0;
            for (std::size_t p = 0; p < k; ++p) {
                const long double term =
                    static_cast<long double>(decode(types_.ab, aRow.data() + p * types_.abBytes)) *
                    static_cast<long double>(decode(types_.ab, bCol.data() + p * types_.abBytes));
                ref += term;
                scale += std::fabs(term);
            }
            const long double got = decode(types_.c, cEntry.data());
            if (scale > 0) // NaN stays NaN (a C entry that is not a number must not pass as exact)
                worst = worseRelativeError(worst, static_cast<double>(std::fabs(got - ref) / scale));
        }
        return worst;
    }

    Snapshot snapshot() const override {
        ctx_->stream.synchronize();
        const auto m = static_cast<std::size_t>(shape_.m), n = static_cast<std::size_t>(shape_.n),
                   k = static_cast<std::size_t>(shape_.k);
        auto fetch = [&](const DeviceBuffer& d, cudaDataType_t type, std::size_t bytesPer) {
            std::vector<unsigned char> raw(d.bytes());
            copyBack(raw.data(), d.get(), raw.size());
            std::vector<double> v(raw.size() / bytesPer);
            for (std::size_t i = 0; i < v.size(); ++i)
                v[i] = decode(type, raw.data() + i * bytesPer);
            return v;
        };
        Snapshot out;
        const std::vector<double> aStored =
            fetch(a_, types_.ab, types_.abBytes); // k×m: aStored[i·k + p] = A(i, p)
        out.a.resize(m * k);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t p = 0; p < k; ++p)
                out.a[i + p * m] = aStored[i * k + p];
        out.b = fetch(b_, types_.ab, types_.abBytes); // k×n column-major already
        out.c = fetch(c_, types_.c, types_.cBytes);
        (void)n;
        return out;
    }

private:
    void copyBack(void* host, const void* device, std::size_t bytes) const {
        NAPKIN_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, ctx_->stream.get()));
        ctx_->stream.synchronize();
    }

    void enqueue() { enqueueWith(types_.lt ? &algorithm_ : nullptr); }

    void enqueueWith(const cublasLtMatmulAlgo_t* algorithm) {
        const int m = static_cast<int>(shape_.m), n = static_cast<int>(shape_.n),
                  k = static_cast<int>(shape_.k);
        if (types_.lt) {
            const float alpha = 1, beta = 0;
            NAPKIN_CUBLAS_CHECK(cublasLtMatmul(ctx_->lt.get(), desc_.get(), &alpha, a_.get(), layoutA_.get(),
                                               b_.get(), layoutB_.get(), &beta, c_.get(), layoutC_.get(),
                                               c_.get(), layoutC_.get(), algorithm, ctx_->ltWorkspace.get(),
                                               CudaContext::kLtWorkspaceBytes, ctx_->stream.get()));
            return;
        }
        const double alpha64 = 1, beta64 = 0;
        const float alpha32 = 1, beta32 = 0;
        const bool f64 = types_.scale == CUDA_R_64F;
        NAPKIN_CUBLAS_CHECK(cublasGemmEx(ctx_->blas.get(), CUBLAS_OP_T, CUBLAS_OP_N, m, n, k,
                                         f64 ? static_cast<const void*>(&alpha64) : &alpha32, a_.get(),
                                         types_.ab, k, b_.get(), types_.ab, k,
                                         f64 ? static_cast<const void*>(&beta64) : &beta32, c_.get(),
                                         types_.c, m, types_.compute, CUBLAS_GEMM_DEFAULT));
    }

    // fp8: TN layout, per-tensor scales of 1 (the data are already in E4M3's range), fp32 accumulation,
    // bf16 output; the fastest of cuBLASLt's top heuristics for this shape, timed once and cached.
    // Each scale sits at its own 256-byte boundary: on an H100 (cuBLASLt 13.1) a B scale 4 bytes after A's
    // made every heuristic's launch return CUBLAS_STATUS_NOT_SUPPORTED, while separate allocations ran.
    static constexpr std::size_t kScaleStride = 256;
    void prepareLt() {
        scales_ = DeviceBuffer(2 * kScaleStride);
        std::vector<unsigned char> ones(2 * kScaleStride, 0);
        const float one = 1.0f;
        std::memcpy(ones.data(), &one, sizeof one);
        std::memcpy(ones.data() + kScaleStride, &one, sizeof one);
        NAPKIN_CUDA_CHECK(cudaMemcpyAsync(scales_.get(), ones.data(), ones.size(), cudaMemcpyHostToDevice,
                                          ctx_->stream.get()));
        ctx_->stream.synchronize(); // `ones` dies with this call
        cublasLtMatmulDesc_t desc = nullptr;
        NAPKIN_CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc, types_.compute, types_.scale));
        desc_.reset(desc);
        const cublasOperation_t transA = CUBLAS_OP_T, transB = CUBLAS_OP_N;
        const float* scaleA = scales_.as<float>();
        const float* scaleB = scales_.as<float>() + kScaleStride / sizeof(float);
        NAPKIN_CUBLAS_CHECK(
            cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA));
        NAPKIN_CUBLAS_CHECK(
            cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof transB));
        NAPKIN_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                           &scaleA, sizeof scaleA));
        NAPKIN_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                           &scaleB, sizeof scaleB));
        layoutA_ = makeLayout(types_.ab, shape_.k, shape_.m, shape_.k);
        layoutB_ = makeLayout(types_.ab, shape_.k, shape_.n, shape_.k);
        layoutC_ = makeLayout(types_.c, shape_.m, shape_.n, shape_.m);
        if (const cublasLtMatmulAlgo_t* cached = ctx_->fp8Algorithms.find(shape_)) {
            algorithm_ = *cached;
            return;
        }
        cublasLtMatmulPreference_t pref = nullptr;
        NAPKIN_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
        const Preference preference(pref);
        const std::uint64_t workspace = CudaContext::kLtWorkspaceBytes;
        NAPKIN_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(
            pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace));
        constexpr int kCandidates = 8;
        cublasLtMatmulHeuristicResult_t found[kCandidates] = {};
        int returned = 0;
        NAPKIN_CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(ctx_->lt.get(), desc, layoutA_.get(),
                                                           layoutB_.get(), layoutC_.get(), layoutC_.get(),
                                                           pref, kCandidates, found, &returned));
        std::vector<double> seconds(static_cast<std::size_t>(std::max(returned, 0)),
                                    std::numeric_limits<double>::infinity());
        std::string firstFailure; // why the first candidate could not run, for the message if none can
        for (int i = 0; i < returned; ++i) {
            if (found[i].state != CUBLAS_STATUS_SUCCESS)
                continue;
            try {                            // a candidate that fails to launch is skipped, not fatal
                enqueueWith(&found[i].algo); // warm-up
                double best = std::numeric_limits<double>::infinity();
                for (int rep = 0; rep < 3; ++rep) {
                    ctx_->flushL2();
                    start_.record(ctx_->stream.get());
                    enqueueWith(&found[i].algo);
                    stop_.record(ctx_->stream.get());
                    best = std::min(best, stop_.secondsSince(start_));
                }
                seconds[static_cast<std::size_t>(i)] = best;
            } catch (const CudaError& e) {
                if (firstFailure.empty())
                    firstFailure = e.what();
            }
        }
        const std::optional<std::size_t> fastest = fastestIndex(seconds);
        if (!fastest)
            throw std::runtime_error(
                "cuBLASLt offers no working fp8 algorithm for this shape on this GPU (" +
                std::to_string(returned) + " candidates" +
                (firstFailure.empty() ? std::string() : "; the first failed: " + firstFailure) + ")");
        algorithm_ = found[*fastest].algo;
        ctx_->fp8Algorithms.store(shape_, algorithm_);
    }

    std::shared_ptr<CudaContext> ctx_;
    MatmulCase shape_;
    GemmTypes types_;
    DeviceBuffer a_, b_, c_, scales_;
    Event start_, stop_;
    MatmulDesc desc_;
    Layout layoutA_, layoutB_, layoutC_;
    cublasLtMatmulAlgo_t algorithm_{};
};

} // namespace

CudaContext::CudaContext(const CudaDeviceFacts& deviceFacts)
    : facts(deviceFacts)
    , blas(stream.get())
    , ltWorkspace(kLtWorkspaceBytes)
    , l2Flush(std::max<std::size_t>(std::size_t{1} << 20,
                                    static_cast<std::size_t>(2 * deviceFacts.l2CacheBytes))) {
    // fp32 means fp32: no TF32 tensor-core shortcut unless the tf32 dtype asks for it per call.
    NAPKIN_CUBLAS_CHECK(cublasSetMathMode(blas.get(), CUBLAS_DEFAULT_MATH));
}

void CudaContext::flushL2() const {
    NAPKIN_CUDA_CHECK(cudaMemsetAsync(l2Flush.get(), 0, l2Flush.bytes(), stream.get()));
}

std::unique_ptr<MatmulProblem> makeCudaMatmulProblem(std::shared_ptr<CudaContext> context,
                                                     const MatmulCase& shape, std::uint64_t seed) {
    return std::make_unique<CudaMatmulProblem>(std::move(context), shape, seed);
}

} // namespace napkin::cuda
