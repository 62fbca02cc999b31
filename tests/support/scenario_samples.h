// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A scenario shared by the engine's and the window's scenario tests.
#include "engine/models/model_presets.h"
#include "engine/scenario/scenario.h"

// Every field away from its default, so that a field the writer or reader forgets fails the test.
inline napkin::Scenario everyFieldChanged() {
    using namespace napkin;
    Scenario s;
    s.page = ScenarioPage::tensor;
    AccountingInput& in = s.accounting.input;
    in.model.kind = ModelKind::transformer;
    in.model.parameters = 7e10;
    in.model.dim = 1024;
    in.model.layers = 48;
    in.model.out = 17;
    in.model.dModel = 1600;
    in.model.heads = 32;
    in.model.vocab = 50000;
    in.model.seq = 2048;
    in.model.ffnMult = 2.5;
    in.model.kvHeads = 8;
    in.model.ffnDim = 4000;
    in.model.mlp = MlpKind::swiglu;
    in.model.norm = NormKind::rmsnorm;
    in.model.bias = false;
    in.model.embeddings = EmbeddingTying::untied;
    in.model.position = PositionKind::rope;
    in.model.experts = 4;
    in.model.topK = 2;
    in.model.dropout = false;
    in.model.attentionImpl = AttentionImpl::flash;
    in.model.headDim = 64;
    in.model.qkvBias = true;
    in.model.outBias = false; // mlpBias left following bias
    in.model.normBias = true;
    in.model.normPlacement = NormPlacement::sandwich;
    in.model.qkNorm = QkNorm::head;
    in.model.slidingWindow = 1024;
    in.model.globalEvery = 4;
    for (int layer = 0; layer < 48; ++layer)
        in.model.windowedLayers.push_back(layer % 6 != 5);
    in.model.qLoraRank = 768;
    in.model.kvLoraRank = 256;
    in.model.qkNopeHeadDim = 64;
    in.model.qkRopeHeadDim = 32;
    in.model.vHeadDim = 64;
    in.model.expertFfnDim = 1400;
    in.model.sharedFfnDim = 2800;
    in.model.sharedExpertGate = true;
    in.model.denseLayers = 3;
    in.model.routerBias = true;
    in.parallel.tp = 2;
    in.parallel.pp = 4;
    in.parallel.sp = true;
    in.parallel.cp = 2;
    in.parallel.ep = 2;
    in.parallel.microbatches = 16;
    in.batch = 16384;
    in.trainingTokens.reset();
    s.accounting.tokensShown = 1.5e13;
    in.precision = PrecisionRecipe::mixedBf16;
    in.fp32Gradients = true;
    in.optimizer = OptimizerKind::rmsprop;
    in.gpu = "A100-SXM";
    in.gpus = 1024;
    in.mfu = 0.37;
    in.zeroStage = 3;
    in.recompute = Recompute::selective;
    in.attention = AttentionMask::full;
    s.accounting.binaryUnits = true;
    s.accounting.preset = "gpt2-small";
    s.formats.value = 3.140625; // what the pinned bf16 pattern holds
    s.formats.saturate = true;
    s.formats.tensorShape = "12288*4, 12288";
    s.formats.pinnedFormat = FloatFormat::bf16;
    s.formats.pinnedBits = 0x4049;
    s.tensor.shape = "2,4,6";
    s.tensor.dtype = "bf16";
    s.tensor.expression = "x.view(2, 4, 2, 3).transpose(1, 2)";
    s.tensor.step = 1;
    s.benchmarks.device = "cuda";
    s.benchmarks.dtypes = {BenchDtype::bf16, BenchDtype::fp16};
    s.benchmarks.sizes = "64, 96";
    s.benchmarks.dim = 512;
    s.benchmarks.layers = 8;
    s.benchmarks.batch = 32;
    s.benchmarks.steps = 75;
    s.benchmarks.optimizer = OptimizerKind::adam;
    s.benchmarks.cpuBackend = CpuBackendKind::eigen;
    s.benchmarks.precision = PrecisionRecipe::mixedBf16;
    s.roofline.device = "A100-SXM";
    s.roofline.dtype = ComputeType::fp32;
    TrainingScenario& t = s.training;
    t.lesson = TrainingLesson::mixedPrecision;
    t.init = {2048, 64, 1000000};
    t.determinism.datasetSeed = 7;
    t.determinism.steps = 2000;
    t.determinism.initSeed[0] = 3;
    t.determinism.initSeed[1] = 4;
    t.determinism.dataSeed[0] = 5;
    t.determinism.dataSeed[1] = 6;
    t.data.path = "/data/fineweb/train-ü.bin";
    t.data.tokenType = "int32";
    t.data.demoMegabytes = 4000;
    t.data.batch = 512;
    t.data.context = 8192;
    t.data.batches = 10000;
    t.data.seed = 99;
    t.mixedPrecision.steps = 10;
    InferenceScenario& i = s.inference;
    i.preset = "llama3-70b";
    i.input.model = findModelPreset("llama3-70b")->model;
    i.input.model.slidingWindow = 2048; // edited in the Architecture group: the preset "(modified)"
    i.input.model.qkNorm = QkNorm::whole;
    i.input.model.mlpBias = true;
    i.input.context = 4096;
    i.input.prompt = 1000;
    i.promptShown = 1000;
    i.input.batch = 12;
    i.input.weights = WeightFormat::int4;
    i.input.groupSize = 64;
    i.input.kvCache = StorageType::fp8;
    i.input.gpu = "H200";
    i.input.gpus = 4;
    return s;
}
