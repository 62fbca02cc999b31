// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/tensor_command.h"

#include "cli/number_option.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/tensor_report.h"
#include "engine/tensor/tensor_expression.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct TensorOptions {
    std::string shape;
    std::string dtype = "fp32";
    std::string expression;
    bool json = false;
};

std::vector<int64_t> parseShape(const std::string& text) {
    std::string error;
    const auto shape = parseShapeText(text, &error);
    if (!shape)
        throw UsageError("--shape: " + error);
    return *shape;
}

std::string listText(const std::vector<int64_t>& values) {
    std::string text = "(";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text + (values.size() == 1 ? ",)" : ")");
}

int execute(const TensorOptions& o, std::ostream& out) {
    const std::vector<int64_t> shape = parseShape(o.shape);
    const auto dtype = tensorDTypeFromName(o.dtype);
    if (!dtype) {
        std::string names;
        for (const std::string& n : tensorDTypeNames())
            names += (names.empty() ? "" : ", ") + n;
        throw UsageError("--dtype: unknown dtype '" + o.dtype + "' (expected one of " + names + ")");
    }
    if (o.expression.empty())
        throw UsageError("EXPR: missing expression, e.g. \"x.transpose(1,0).contiguous()\"");

    const TensorEvaluation e = evaluateTensorExpression(o.expression, shape, dtype->bytes);
    if (o.json) {
        out << jsonText(tensorEvaluationJson(shape, *dtype, o.expression, e));
        return 0;
    }
    for (std::size_t i = 0; i < e.steps.size(); ++i) {
        const TensorStep& s = e.steps[i];
        out << '[' << i << "] " << s.expr << "\n    shape " << listText(s.layout.shape) << "  stride "
            << listText(s.layout.stride) << "  offset " << s.layout.offset
            << (isContiguous(s.layout) ? "  contiguous" : "  non-contiguous") << "  storage #"
            << s.layout.storageId << " (" << formatBytes(static_cast<double>(s.layout.storageBytes())) << ")";
        if (i > 0 && !s.isView)
            out << "  copy: " << formatBytes(static_cast<double>(s.bytesCopied)) << " copied";
        out << '\n';
    }
    if (e.error)
        out << '[' << e.error->step << "] error: " << e.error->message << '\n';
    return 0;
}

} // namespace

Command addTensorCommand(CLI::App& parent) {
    auto options = std::make_shared<TensorOptions>();
    CLI::App* sub =
        parent.add_subcommand("tensor", "Shape, stride, storage offset and copies of PyTorch view chains");
    TensorOptions& o = *options;
    sub->add_option("--shape", o.shape, "sizes of x, comma-separated (2,3); () for a 0-d tensor")->required();
    sub->add_option("--dtype", o.dtype,
                    "element type: fp32 (default), fp16, bf16, fp8, fp64, int64, int32, ...");
    sub->add_option("expression", o.expression,
                    "a chain from x in PyTorch's spelling: \"x.transpose(1,0).view(2,3)\"");
    sub->add_flag("--json", o.json, "print one JSON document");
    return {sub, [options](std::ostream& out, std::ostream&) { return execute(*options, out); }};
}

} // namespace napkin::cli
