// SPDX-License-Identifier: GPL-3.0-or-later
// The parser half of tensor_expression.h: a small recursive-descent reader of PyTorch's spelling.
#include "engine/tensor/tensor_expression.h"

#include <cctype>
#include <limits>
#include <stdexcept>

namespace napkin {
namespace {

struct MethodSpec {
    std::string_view name;
    TensorOpKind kind;
    bool property;                                // x.T: no parentheses
    bool variadicSizes;                           // view(2, 3) or view((2, 3))
    std::vector<std::string_view> params;         // named parameters in order
    std::vector<std::optional<int64_t>> defaults; // nullopt: required (or "None" for squeeze)
    std::size_t required;                         // how many leading params must be given
};

const std::vector<MethodSpec>& methods() {
    static const std::vector<MethodSpec> kMethods = {
        {"view", TensorOpKind::view, false, true, {}, {}, 0},
        {"reshape", TensorOpKind::reshape, false, true, {}, {}, 0},
        {"expand", TensorOpKind::expand, false, true, {}, {}, 0},
        {"permute", TensorOpKind::permute, false, true, {}, {}, 0},
        {"transpose", TensorOpKind::transpose, false, false, {"dim0", "dim1"}, {{}, {}}, 2},
        {"swapaxes", TensorOpKind::transpose, false, false, {"axis0", "axis1"}, {{}, {}}, 2},
        {"swapdims", TensorOpKind::transpose, false, false, {"dim0", "dim1"}, {{}, {}}, 2},
        {"t", TensorOpKind::t, false, false, {}, {}, 0},
        {"T", TensorOpKind::T, true, false, {}, {}, 0},
        {"mT", TensorOpKind::mT, true, false, {}, {}, 0},
        {"contiguous", TensorOpKind::contiguous, false, false, {}, {}, 0},
        {"clone", TensorOpKind::clone, false, false, {}, {}, 0},
        {"unsqueeze", TensorOpKind::unsqueeze, false, false, {"dim"}, {{}}, 1},
        {"squeeze", TensorOpKind::squeeze, false, false, {"dim"}, {{}}, 0},
        {"flatten", TensorOpKind::flatten, false, false, {"start_dim", "end_dim"}, {0, -1}, 0},
        {"narrow", TensorOpKind::narrow, false, false, {"dim", "start", "length"}, {{}, {}, {}}, 3},
        {"select", TensorOpKind::select, false, false, {"dim", "index"}, {{}, {}}, 2},
        {"unfold", TensorOpKind::unfold, false, false, {"dimension", "size", "step"}, {{}, {}, {}}, 3},
        {"diagonal", TensorOpKind::diagonal, false, false, {"offset", "dim1", "dim2"}, {0, 0, 1}, 0},
    };
    return kMethods;
}

// PyTorch's words (1.13) for view/reshape/expand/permute called with no argument.
std::string missingSizesMessage(std::string_view name) {
    if (name == "view")
        return "view() received an invalid combination of arguments - got (), but expected one of: "
               "(torch.dtype dtype), (tuple of SymInts size)";
    const std::string_view parameter = name == "reshape" ? "shape" : name == "permute" ? "dims" : "size";
    return std::string(name) + "() missing 1 required positional arguments: \"" + std::string(parameter) +
           "\"";
}

struct ParseFailure {
    std::size_t at;
    std::string reason;
};

class Parser {
public:
    explicit Parser(std::string_view text)
        : text_(text) {}

    void parse(ParsedTensorExpression& out) {
        skipSpace();
        if (identifier() != "x")
            fail(0, "expected 'x' at the start");
        skipSpace();
        while (pos_ < text_.size()) {
            const std::size_t begin = pos_;
            TensorOpCall call;
            if (peek('.')) {
                ++pos_;
                call = method();
            } else if (peek('[')) {
                call = indexing();
            } else {
                fail(pos_, std::string("expected '.' or '[', found '") + text_[pos_] + "'");
            }
            call.begin = begin;
            call.end = pos_;
            out.calls.push_back(std::move(call));
            skipSpace();
        }
    }

private:
    [[noreturn]] void fail(std::size_t at, std::string reason) { throw ParseFailure{at, std::move(reason)}; }

    void skipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
            ++pos_;
    }
    bool peek(char c) {
        skipSpace();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    void expect(char c) {
        if (!peek(c))
            fail(pos_, std::string("expected '") + c + "'" + foundText());
        ++pos_;
    }
    // After an item of a list: a ',' (consumed) or the closing bracket (left for the caller).
    void expectSeparator(char close) {
        if (peek(close))
            return;
        if (!peek(','))
            fail(pos_, std::string("expected ',' or '") + close + "'" + foundText());
        ++pos_;
    }
    std::string foundText() const {
        if (pos_ >= text_.size())
            return " at the end";
        return std::string(", found '") + text_[pos_] + "'";
    }
    std::string_view identifier() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            ++pos_;
        return text_.substr(start, pos_ - start);
    }
    bool atInteger() {
        skipSpace();
        if (pos_ >= text_.size())
            return false;
        const char c = text_[pos_];
        return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+';
    }
    int64_t integer() {
        skipSpace();
        const std::size_t start = pos_;
        bool negative = false;
        if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
            negative = text_[pos_] == '-';
            ++pos_;
            skipSpace();
        }
        if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
            fail(pos_, "expected an integer" + foundText());
        int64_t value = 0;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            const int digit = text_[pos_] - '0';
            if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
                fail(start, "integer too large");
            value = value * 10 + digit;
            ++pos_;
        }
        if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E') &&
            pos_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))
            fail(start, "expected an integer, found a non-integer number");
        return negative ? -value : value;
    }
    // An int, or a tuple/list of ints: "2", "(2, 3)", "[2, 3]".
    std::vector<int64_t> intOrList(bool* wasList) {
        *wasList = false;
        if (peek('(') || peek('[')) {
            const char close = text_[pos_] == '(' ? ')' : ']';
            ++pos_;
            *wasList = true;
            std::vector<int64_t> values;
            while (!peek(close)) {
                values.push_back(integer());
                expectSeparator(close);
            }
            ++pos_;
            return values;
        }
        return {integer()};
    }

    TensorOpCall method() {
        skipSpace();
        const std::size_t nameAt = pos_;
        const std::string_view name = identifier();
        if (name.empty())
            fail(pos_, "expected an operation name after '.'" + foundText());
        const MethodSpec* spec = nullptr;
        for (const MethodSpec& m : methods())
            if (m.name == name)
                spec = &m;
        if (!spec)
            fail(nameAt, "unknown operation '" + std::string(name) + "'");
        TensorOpCall call;
        call.kind = spec->kind;
        call.args = spec->defaults;
        if (spec->property) {
            if (peek('('))
                fail(pos_, "'" + std::string(name) + "' is a property: write x." + std::string(name) +
                               ", not x." + std::string(name) + "()");
            return call;
        }
        if (!peek('('))
            fail(pos_, "expected '(' after '" + std::string(name) + "'" + foundText());
        ++pos_;
        std::vector<bool> given(spec->params.size(), false);
        std::size_t positional = 0;
        bool sawKeyword = false;
        bool sawSizeList = false;
        while (!peek(')')) {
            const std::size_t argAt = pos_;
            // keyword argument?
            std::string_view keyword;
            if (pos_ < text_.size() &&
                (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
                keyword = identifier();
                expect('=');
            }
            if (!keyword.empty()) {
                sawKeyword = true;
                std::size_t p = 0;
                while (p < spec->params.size() && spec->params[p] != keyword)
                    ++p;
                if (p == spec->params.size())
                    fail(argAt, std::string(name) + "() got an unexpected keyword argument '" +
                                    std::string(keyword) + "'");
                if (given[p])
                    fail(argAt, std::string(name) + "() got multiple values for argument '" +
                                    std::string(keyword) + "'");
                call.args[p] = integer();
                given[p] = true;
            } else if (sawKeyword) {
                fail(argAt, "positional argument follows keyword argument");
            } else if (spec->variadicSizes) {
                bool wasList = false;
                const std::vector<int64_t> values = intOrList(&wasList);
                if (wasList && (sawSizeList || !call.sizes.empty()))
                    fail(argAt, std::string(name) + "() takes the sizes either as integers or as one tuple");
                if (!wasList && sawSizeList)
                    fail(argAt, std::string(name) + "() takes the sizes either as integers or as one tuple");
                sawSizeList = sawSizeList || wasList;
                call.sizes.insert(call.sizes.end(), values.begin(), values.end());
            } else {
                if (positional >= spec->params.size())
                    fail(argAt, std::string(name) + "() takes " + std::to_string(spec->params.size()) +
                                    " arguments but more were given");
                call.args[positional] = integer();
                given[positional] = true;
                ++positional;
            }
            expectSeparator(')');
        }
        // PyTorch refuses a sizes method called with nothing at all (an empty tuple is a size: view(())).
        if (spec->variadicSizes && call.sizes.empty() && !sawSizeList)
            fail(pos_, missingSizesMessage(name));
        for (std::size_t p = 0; p < spec->required; ++p)
            if (!given[p])
                fail(pos_, std::string(name) + "() missing required argument '" +
                               std::string(spec->params[p]) + "'");
        ++pos_; // ')'
        return call;
    }

    TensorOpCall indexing() {
        const std::size_t open = pos_;
        ++pos_; // '['
        TensorOpCall call;
        call.kind = TensorOpKind::index;
        bool sawEllipsis = false;
        while (!peek(']')) {
            const std::size_t itemAt = pos_;
            TensorIndex item;
            if (text_.substr(pos_, 3) == "...") {
                if (sawEllipsis)
                    fail(itemAt, "an index can only have a single ellipsis ('...')");
                sawEllipsis = true;
                item.kind = TensorIndex::Kind::ellipsis;
                pos_ += 3;
            } else if (text_.substr(pos_, 4) == "None") {
                item.kind = TensorIndex::Kind::none;
                pos_ += 4;
            } else {
                std::optional<int64_t> first;
                if (atInteger())
                    first = integer();
                if (peek(':')) {
                    ++pos_;
                    item.kind = TensorIndex::Kind::slice;
                    item.start = first;
                    if (atInteger())
                        item.stop = integer();
                    if (peek(':')) {
                        ++pos_;
                        if (atInteger()) {
                            const std::size_t stepAt = pos_;
                            item.step = integer();
                            if (item.step == 0)
                                fail(stepAt, "slice step cannot be zero");
                        }
                    }
                } else if (first) {
                    item.integer = *first;
                } else {
                    fail(pos_, "expected an integer, a slice, '...' or None" + foundText());
                }
            }
            call.indices.push_back(item);
            expectSeparator(']');
        }
        if (call.indices.empty())
            fail(open, "empty index: write x[...] or x[:] for all elements");
        ++pos_; // ']'
        return call;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

} // namespace

ParsedTensorExpression parseTensorExpression(std::string_view text) {
    ParsedTensorExpression out;
    try {
        Parser(text).parse(out);
    } catch (const ParseFailure& f) {
        out.error = f.reason;
        out.errorAt = f.at;
    }
    return out;
}

} // namespace napkin
