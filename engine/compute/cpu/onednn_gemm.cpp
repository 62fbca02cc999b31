// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/onednn_gemm.h"

#include "engine/text/name_table.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

namespace napkin {
namespace {

using dnnl::memory;

constexpr NameTable<dnnl::cpu_isa, 11> kIsaNames{{{dnnl::cpu_isa::all, "all"},
                                                  {dnnl::cpu_isa::sse41, "sse41"},
                                                  {dnnl::cpu_isa::avx, "avx"},
                                                  {dnnl::cpu_isa::avx2, "avx2"},
                                                  {dnnl::cpu_isa::avx512_mic, "avx512_mic"},
                                                  {dnnl::cpu_isa::avx512_mic_4ops, "avx512_mic_4ops"},
                                                  {dnnl::cpu_isa::avx512_core, "avx512_core"},
                                                  {dnnl::cpu_isa::avx512_core_vnni, "avx512_core_vnni"},
                                                  {dnnl::cpu_isa::avx512_core_bf16, "avx512_core_bf16"},
                                                  {dnnl::cpu_isa::avx512_core_amx, "avx512_core_amx"},
                                                  {dnnl::cpu_isa::avx2_vnni, "avx2_vnni"}}};

memory::data_type dataType(GemmElement e) {
    switch (e) {
    case GemmElement::bf16:
        return memory::data_type::bf16;
    case GemmElement::f16:
        return memory::data_type::f16;
    case GemmElement::f32:
        break;
    }
    return memory::data_type::f32;
}

// A row-major rows×cols matrix, or, when `transposed`, the view of a stored cols×rows one.
memory::desc matrix(long rows, long cols, bool transposed, GemmElement e) {
    const memory::dims strides = transposed ? memory::dims{1, rows} : memory::dims{cols, 1};
    return {{rows, cols}, dataType(e), strides};
}

std::string describe(const GemmShape& s) {
    auto name = [](GemmElement e) {
        return e == GemmElement::bf16 ? "bf16" : e == GemmElement::f16 ? "f16" : "f32";
    };
    return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + " " + name(s.a) +
           (s.transA ? "ᵀ" : "") + "·" + name(s.b) + (s.transB ? "ᵀ" : "") + "→" + name(s.c);
}

struct AlignedFree {
    void operator()(void* p) const {
        std::free(p);
    } // NOLINT(cppcoreguidelines-no-malloc): aligned_alloc's pair
};

} // namespace

struct OnednnGemm::Impl {
    struct Entry {
        dnnl::matmul primitive;
        memory src, weights, dst, scratchpad;
        std::string implementation;
    };

    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
    std::map<GemmShape, Entry> cache;
    std::unique_ptr<void, AlignedFree> scratchpad;
    std::size_t scratchpadSize = 0;
    ScratchpadListener listener;

    Entry& entryFor(const GemmShape& s, int threads) {
        if (const auto it = cache.find(s); it != cache.end())
            return it->second;
        if (s.m <= 0 || s.n <= 0 || s.k <= 0)
            throw std::invalid_argument("GEMM sizes must be positive: " + describe(s));
        omp_set_num_threads(threads); // the kernel's work split is chosen for this count
        try {
            const memory::desc a = matrix(s.m, s.k, s.transA, s.a), b = matrix(s.k, s.n, s.transB, s.b),
                               c = matrix(s.m, s.n, false, s.c);
            dnnl::primitive_attr attr;
            attr.set_scratchpad_mode(
                dnnl::scratchpad_mode::user); // one buffer for all, charged to the caller
            const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), attr, engine);
            growScratchpad(pd.scratchpad_desc().get_size());
            Entry e{dnnl::matmul(pd),
                    memory(a, engine, DNNL_MEMORY_NONE),
                    memory(b, engine, DNNL_MEMORY_NONE),
                    memory(c, engine, DNNL_MEMORY_NONE),
                    memory(pd.scratchpad_desc(), engine, DNNL_MEMORY_NONE),
                    pd.impl_info_str()};
            return cache.emplace(s, std::move(e)).first->second;
        } catch (const dnnl::error& e) {
            throw std::runtime_error("oneDNN " + onednnVersion() + " has no matmul for " + describe(s) +
                                     " on " + onednnIsa() + ": " + e.what());
        }
    }

    void growScratchpad(std::size_t bytes) {
        if (bytes <= scratchpadSize)
            return;
        constexpr std::size_t kAlignment = 64; // a cache line: what oneDNN's own allocations use
        const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
        scratchpad.reset(std::aligned_alloc(kAlignment, rounded)); // NOLINT(cppcoreguidelines-no-malloc)
        if (!scratchpad)
            throw std::bad_alloc();
        if (listener)
            listener(static_cast<double>(rounded) - static_cast<double>(scratchpadSize));
        scratchpadSize = rounded;
    }
};

OnednnGemm::OnednnGemm(int threads, ScratchpadListener scratchpadListener)
    : threads_(threads > 0 ? threads : 1)
    , impl_(std::make_unique<Impl>()) {
    impl_->listener = std::move(scratchpadListener);
}

OnednnGemm::~OnednnGemm() {
    if (impl_->listener && impl_->scratchpadSize > 0)
        impl_->listener(-static_cast<double>(impl_->scratchpadSize));
}

void OnednnGemm::run(const GemmShape& shape, const void* a, const void* b, void* c) {
    Impl::Entry& e = impl_->entryFor(shape, threads_);
    e.src.set_data_handle(
        const_cast<void*>(a)); // oneDNN's memory handles are non-const; it only reads A and B
    e.weights.set_data_handle(const_cast<void*>(b));
    e.dst.set_data_handle(c);
    e.scratchpad.set_data_handle(impl_->scratchpad.get());
    omp_set_num_threads(threads_);
    e.primitive.execute(impl_->stream, {{DNNL_ARG_SRC, e.src},
                                        {DNNL_ARG_WEIGHTS, e.weights},
                                        {DNNL_ARG_DST, e.dst},
                                        {DNNL_ARG_SCRATCHPAD, e.scratchpad}});
    impl_->stream.wait();
}

std::string OnednnGemm::implementation(const GemmShape& shape) {
    return impl_->entryFor(shape, threads_).implementation;
}

std::size_t OnednnGemm::cachedPrimitives() const {
    return impl_->cache.size();
}

double OnednnGemm::scratchpadBytes() const {
    return static_cast<double>(impl_->scratchpadSize);
}

std::string onednnVersion() {
    const dnnl_version_t* v = dnnl_version();
    return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

std::string onednnIsa() {
    const std::string_view name = nameIn(kIsaNames, dnnl::get_effective_cpu_isa());
    return name.empty() ? "unknown" : std::string(name);
}

} // namespace napkin
