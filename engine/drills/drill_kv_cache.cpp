// SPDX-License-Identifier: GPL-3.0-or-later
// KV-cache bytes per token: a key and a value of g·(d/a) elements in each of L layers.
#include "engine/drills/drill_generators.h"

#include "engine/inference/inference_accounting.h"
#include "engine/numerics/quantity_format.h"

#include <stdexcept>

namespace napkin {

using namespace drill_detail;

DrillQuestion kvCacheDrill(DrillRandom& dice) {
    static constexpr double kWidths[] = {2048, 4096, 5120, 8192};
    static constexpr double kLayers[] = {24, 32, 40, 48, 80};
    static constexpr StorageType kTypes[] = {StorageType::bf16, StorageType::fp16, StorageType::fp8,
                                             StorageType::fp32};
    InferenceInput in;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = dice.pick(kWidths);
    in.model.heads = in.model.dModel / 128;
    const double groups[] = {in.model.heads, 8, 4, 1};
    in.model.kvHeads = dice.pick(groups);
    in.model.layers = dice.pick(kLayers);
    in.model.vocab = 32000;
    in.model.seq = 4096;
    in.context = 4096;
    in.kvCache = dice.pick(kTypes);
    if (const InputError error = validateInference(in); !error.ok())
        throw std::logic_error("drill input refused: " + error.field + ": " + error.message);
    const InferenceResult r = accountInference(in, *GpuCatalog::builtIn().find(in.gpu));
    const std::string dtype(storageTypeName(in.kvCache));

    DrillQuestion q;
    q.topic = DrillTopic::kvCache;
    q.kind = "bytes-per-token";
    q.text = "A transformer with " + formatExact(in.model.layers) +
             " layers, d = " + formatExact(in.model.dModel) + ", " + formatExact(in.model.heads) +
             " query heads and " + formatExact(in.model.kvHeads) +
             " key/value heads caches keys and values in " + dtype +
             ": how many bytes of KV cache per token?";
    q.unit = DrillUnit::bytes;
    q.answer = r.kvCacheBytesPerToken.value;
    q.answerText = formatExact(q.answer) + " B (" + formatBytes(q.answer, ByteUnits::binary) + ")";
    q.relativeTolerance = 0.005;
    q.formula = "a key and a value per layer, each g·(d/a) elements\n" + r.kvCacheBytesPerToken.formula;
    q.page = ScenarioPage::inference;
    q.parameters = {numberParameter("layers", in.model.layers), numberParameter("d_model", in.model.dModel),
                    numberParameter("heads", in.model.heads), numberParameter("kv_heads", in.model.kvHeads),
                    textParameter("dtype", dtype)};
    return q;
}

} // namespace napkin
