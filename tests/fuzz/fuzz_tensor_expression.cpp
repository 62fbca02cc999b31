// SPDX-License-Identifier: GPL-3.0-or-later
// Property: any text on any small shape is either evaluated or refused with a message; it never
// crashes, every step's layout stays inside its storage, and a parse error's position is in the text.
#include "engine/tensor/tensor_expression.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2)
        return 0;
    // First byte picks a shape of up to 4 dims with sizes 0..5; the rest is the expression.
    const std::vector<std::vector<int64_t>> shapes{{2, 3}, {4, 4},       {3, 1}, {2, 4, 6},
                                                   {5},    {2, 2, 2, 2}, {0, 3}, {}};
    const std::vector<int64_t>& shape = shapes[data[0] % shapes.size()];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const napkin::TensorEvaluation e = napkin::evaluateTensorExpression(text, shape, 4);
    if (e.steps.empty())
        std::abort();
    for (const napkin::TensorStep& step : e.steps) {
        const napkin::TensorLayout& t = step.layout;
        if (t.numel() == 0)
            continue;
        int64_t last = t.offset; // the largest offset any element reads
        for (std::size_t d = 0; d < t.shape.size(); ++d)
            last += (t.shape[d] - 1) * t.stride[d];
        if (t.offset < 0 || last >= t.storageElements)
            std::abort();
    }
    if (e.error && e.error->message.empty())
        std::abort();
    if (e.error && e.error->position && *e.error->position > text.size())
        std::abort();
    return 0;
}
