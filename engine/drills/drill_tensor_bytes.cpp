// SPDX-License-Identifier: GPL-3.0-or-later
// Bytes of a dense tensor: Π shape × bytes per element (torch.Tensor.element_size()).
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/numerics/quantity_format.h"
#include "engine/tensor/tensor_layout.h"

namespace napkin {

using namespace drill_detail;

DrillQuestion tensorBytesDrill(DrillRandom& dice) {
    static constexpr std::int64_t kSizes[] = {3,   8,   16,   32,   64,   128,   256,
                                              512, 768, 1024, 2048, 4096, 12288, 50257};
    static constexpr const char* kDTypes[] = {"fp32", "fp16", "bf16", "fp64", "int8", "int64"};
    const int dims = static_cast<int>(dice.between(2, 4));
    std::vector<std::int64_t> shape;
    double numel = 1;
    for (int d = 0; d < dims; ++d) {
        std::int64_t size = dice.pick(kSizes);
        if (numel * static_cast<double>(size) > 1e12) // stays a tensor one could hold
            size = numel * 8 > 1e12 ? 1 : 8;
        shape.push_back(size);
        numel *= static_cast<double>(size);
    }
    const std::string dtypeName = dice.pick(kDTypes);
    const TensorDType dtype = *tensorDTypeFromName(dtypeName);
    const TensorLayout layout = freshTensor(shape, dtype.bytes, 0);

    DrillQuestion q;
    q.topic = DrillTopic::tensorBytes;
    q.kind = "bytes";
    q.text = "How many bytes does a tensor of shape " + tupleText(shape) + " take in " + dtypeName + "?";
    q.unit = DrillUnit::bytes;
    q.answer = static_cast<double>(layout.storageBytes());
    q.answerText = formatExact(q.answer) + " B (" + formatBytes(q.answer) + ", " +
                   formatBytes(q.answer, ByteUnits::binary) + ")";
    q.relativeTolerance = 0.005; // "2.33 GiB" for 2.5e9 B: three significant digits in either unit
    std::string product;
    for (std::size_t i = 0; i < shape.size(); ++i)
        product += (i ? " × " : "") + std::to_string(shape[i]);
    q.formula = "elements = " + product + " = " + formatExact(static_cast<double>(layout.numel())) + "\n" +
                "bytes = elements × " + std::to_string(dtype.bytes) + " B (" + dtypeName +
                ") = " + formatExact(q.answer) + " B";
    q.page = ScenarioPage::tensor;
    q.setupJson = nlohmann::json{{"tensor",
                                  {{"shape",
                                    [&] {
                                        std::string text;
                                        for (std::size_t i = 0; i < shape.size(); ++i)
                                            text += (i ? "," : "") + std::to_string(shape[i]);
                                        return text;
                                    }()},
                                   {"dtype", dtypeName},
                                   {"expression", "x"},
                                   {"step", -1}}}}
                      .dump();
    std::vector<double> shapeValues(shape.begin(), shape.end());
    q.parameters = {listParameter("shape", shapeValues), textParameter("dtype", dtypeName)};
    return q;
}

} // namespace napkin
