// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/pickle_data.h"

#include <bit>
#include <cstring>
#include <unordered_map>

namespace napkin {
namespace {

// The opcodes this reader refuses by name: each names, calls or builds a Python object, or is a protocol
// 0/1 text form a memory snapshot never holds. Anything else unknown is refused as well.
const char* refusedName(unsigned char op) {
    switch (op) {
    case 'c':
        return "GLOBAL";
    case 0x93:
        return "STACK_GLOBAL";
    case 'R':
        return "REDUCE";
    case 'b':
        return "BUILD";
    case 'i':
        return "INST";
    case 'o':
        return "OBJ";
    case 0x81:
        return "NEWOBJ";
    case 0x92:
        return "NEWOBJ_EX";
    case 'P':
        return "PERSID";
    case 'Q':
        return "BINPERSID";
    case 0x82:
        return "EXT1";
    case 0x83:
        return "EXT2";
    case 0x84:
        return "EXT4";
    case 0x97:
        return "NEXT_BUFFER";
    case 0x98:
        return "READONLY_BUFFER";
    case 0x8f:
        return "EMPTY_SET";
    case 0x90:
        return "ADDITEMS";
    case 0x91:
        return "FROZENSET";
    case 0x96:
        return "BYTEARRAY8";
    case 'I':
        return "INT";
    case 'L':
        return "LONG";
    case 'F':
        return "FLOAT";
    case 'S':
        return "STRING";
    case 'V':
        return "UNICODE";
    case 'p':
        return "PUT";
    case 'g':
        return "GET";
    default:
        return nullptr;
    }
}

bool namesCode(unsigned char op) {
    return op == 'c' || op == 0x93 || op == 'R' || op == 'b' || op == 'i' || op == 'o' || op == 0x81 ||
           op == 0x92 || op == 'P' || op == 'Q' || op == 0x82 || op == 0x83 || op == 0x84;
}

std::string hexByte(unsigned char op) {
    const char* digits = "0123456789abcdef";
    return std::string("0x") + digits[op >> 4] + digits[op & 15];
}

class Reader {
public:
    Reader(std::string_view bytes, const PickleLimits& limits, PickleData& out)
        : bytes_(bytes)
        , limits_(limits)
        , out_(out) {}

    void run() {
        if (bytes_.size() < 2 || static_cast<unsigned char>(bytes_[0]) != 0x80) {
            fail("not a pickle of protocol 2 to 5 (it does not start with PROTO)");
            return;
        }
        while (out_.error.empty()) {
            if (pos_ >= bytes_.size()) {
                fail("cut short: no STOP at its end");
                return;
            }
            opAt_ = pos_;
            const auto op = static_cast<unsigned char>(bytes_[pos_++]);
            if (op == '.') {
                if (stack_.empty())
                    fail("STOP with nothing on the stack");
                else
                    out_.root = stack_.back();
                return;
            }
            step(op);
        }
    }

private:
    std::string_view bytes_;
    const PickleLimits& limits_;
    PickleData& out_;
    std::size_t pos_ = 0, opAt_ = 0;
    std::vector<std::uint32_t> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<std::uint64_t, std::uint32_t> memo_;

    void fail(const std::string& why) {
        if (out_.error.empty())
            out_.error = why;
    }
    void failAt(const std::string& why) { fail(why + " at byte " + std::to_string(opAt_)); }

    bool need(std::size_t n) {
        if (bytes_.size() - pos_ < n) {
            failAt("cut short");
            return false;
        }
        return true;
    }
    std::uint64_t little(std::size_t n) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
        pos_ += n;
        return v;
    }
    bool readLength(std::size_t width, std::uint64_t& n) {
        if (!need(width))
            return false;
        n = little(width);
        if (width == 4 && static_cast<unsigned char>(bytes_[opAt_]) == 'T' && (n & 0x80000000u)) {
            failAt("a negative length");
            return false;
        }
        if (n > bytes_.size() - pos_) {
            failAt("cut short: a length of " + std::to_string(n) + " bytes");
            return false;
        }
        return true;
    }

    bool push(std::uint32_t index) {
        if (stack_.size() >= limits_.maxValues) {
            failAt("the stack holds more than " + std::to_string(limits_.maxValues) + " values");
            return false;
        }
        stack_.push_back(index);
        return true;
    }
    bool make(PickleValue v) {
        if (out_.values.size() >= limits_.maxValues) {
            failAt("more than " + std::to_string(limits_.maxValues) + " values");
            return false;
        }
        out_.values.push_back(std::move(v));
        return push(static_cast<std::uint32_t>(out_.values.size() - 1));
    }
    bool makeContainer(PickleValue::Kind kind) {
        PickleValue v;
        v.kind = kind;
        v.depth = 1;
        return make(std::move(v));
    }
    bool text(PickleValue::Kind kind, std::size_t n) {
        PickleValue v;
        v.kind = kind;
        if (n > limits_.maxStringBytes)
            v.truncated = true;
        else
            v.text.assign(bytes_.data() + pos_, n);
        pos_ += n;
        return make(std::move(v));
    }
    bool integer(std::int64_t i) {
        PickleValue v;
        v.kind = PickleValue::Kind::integer;
        v.integer = i;
        return make(std::move(v));
    }

    // Adds `item` to container `into`, keeping the depth bound (a container nested into itself through the
    // memo grows deeper at each add, so it is refused too).
    bool add(std::uint32_t into, std::uint32_t item) {
        PickleValue& c = out_.values[into];
        const int depth = out_.values[item].depth + 1;
        if (depth > limits_.maxDepth) {
            failAt("nested more than " + std::to_string(limits_.maxDepth) + " deep");
            return false;
        }
        if (depth > c.depth)
            c.depth = depth;
        c.items.push_back(item);
        return true;
    }

    bool popMark(std::size_t& from) {
        if (marks_.empty()) {
            failAt("no MARK before it");
            return false;
        }
        from = marks_.back();
        marks_.pop_back();
        if (from > stack_.size()) {
            failAt("its MARK lies above the stack");
            return false;
        }
        return true;
    }

    // LIST, TUPLE, DICT, APPENDS, SETITEMS: the values above the last MARK into a container.
    void fromMark(unsigned char op) {
        std::size_t from = 0;
        if (!popMark(from))
            return;
        const std::vector<std::uint32_t> items(stack_.begin() + static_cast<std::ptrdiff_t>(from),
                                               stack_.end());
        stack_.resize(from);
        std::uint32_t target = 0;
        if (op == 'e' || op == 'u') {
            if (stack_.empty()) {
                failAt("nothing to add to");
                return;
            }
            target = stack_.back();
            const auto kind = out_.values[target].kind;
            if ((op == 'e' && kind != PickleValue::Kind::list) ||
                (op == 'u' && kind != PickleValue::Kind::dict)) {
                failAt(op == 'e' ? "APPENDS to something not a list" : "SETITEMS to something not a dict");
                return;
            }
        } else {
            const auto kind = op == 'l'   ? PickleValue::Kind::list
                              : op == 't' ? PickleValue::Kind::tuple
                                          : PickleValue::Kind::dict;
            if (!makeContainer(kind))
                return;
            target = stack_.back();
        }
        if ((op == 'd' || op == 'u') && items.size() % 2 != 0) {
            failAt("a dict's keys and values do not pair up");
            return;
        }
        for (std::uint32_t item : items)
            if (!add(target, item))
                return;
    }

    void tupleOf(std::size_t n) {
        if (stack_.size() < n) {
            failAt("a tuple of more values than the stack holds");
            return;
        }
        const std::vector<std::uint32_t> items(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
        stack_.resize(stack_.size() - n);
        if (!makeContainer(PickleValue::Kind::tuple))
            return;
        for (std::uint32_t item : items)
            if (!add(stack_.back(), item))
                return;
    }

    bool top(std::uint32_t& index) {
        if (stack_.empty()) {
            failAt("an empty stack");
            return false;
        }
        index = stack_.back();
        return true;
    }

    void memoPut(std::uint64_t key) {
        std::uint32_t index = 0;
        if (!top(index))
            return;
        if (memo_.size() >= limits_.maxValues && !memo_.count(key)) {
            failAt("the memo holds more than " + std::to_string(limits_.maxValues) + " entries");
            return;
        }
        memo_[key] = index;
    }
    void memoGet(std::uint64_t key) {
        const auto it = memo_.find(key);
        if (it == memo_.end()) {
            failAt("a memo entry that was never stored");
            return;
        }
        push(it->second);
    }

    void step(unsigned char op) {
        using K = PickleValue::Kind;
        std::uint64_t n = 0;
        switch (op) {
        case 0x80: // PROTO
            if (!need(1))
                return;
            n = little(1);
            if (n < 2 || n > 5)
                failAt("protocol " + std::to_string(n) + " (2 to 5 are read)");
            return;
        case 0x95: // FRAME: a length hint only
            if (need(8))
                pos_ += 8;
            return;
        case '}':
            makeContainer(K::dict);
            return;
        case ']':
            makeContainer(K::list);
            return;
        case ')':
            makeContainer(K::tuple);
            return;
        case '(':
            if (marks_.size() >= limits_.maxValues)
                failAt("too many MARKs");
            else
                marks_.push_back(stack_.size());
            return;
        case 'd':
        case 'l':
        case 't':
        case 'e':
        case 'u':
            fromMark(op);
            return;
        case 0x85:
            tupleOf(1);
            return;
        case 0x86:
            tupleOf(2);
            return;
        case 0x87:
            tupleOf(3);
            return;
        case 'a': { // APPEND
            if (stack_.size() < 2) {
                failAt("APPEND with too few values");
                return;
            }
            const std::uint32_t item = stack_.back();
            stack_.pop_back();
            if (out_.values[stack_.back()].kind != K::list) {
                failAt("APPEND to something not a list");
                return;
            }
            add(stack_.back(), item);
            return;
        }
        case 's': { // SETITEM
            if (stack_.size() < 3) {
                failAt("SETITEM with too few values");
                return;
            }
            const std::uint32_t value = stack_.back();
            stack_.pop_back();
            const std::uint32_t key = stack_.back();
            stack_.pop_back();
            if (out_.values[stack_.back()].kind != K::dict) {
                failAt("SETITEM to something not a dict");
                return;
            }
            if (add(stack_.back(), key))
                add(stack_.back(), value);
            return;
        }
        case 'J':
            if (need(4))
                integer(static_cast<std::int32_t>(static_cast<std::uint32_t>(little(4))));
            return;
        case 'K':
            if (need(1))
                integer(static_cast<std::int64_t>(little(1)));
            return;
        case 'M':
            if (need(2))
                integer(static_cast<std::int64_t>(little(2)));
            return;
        case 0x8a:
        case 0x8b: { // LONG1, LONG4: little-endian two's complement
            if (!readLength(op == 0x8a ? 1 : 4, n))
                return;
            if (n > 8) {
                failAt("an integer wider than 64 bits");
                return;
            }
            std::uint64_t v = little(static_cast<std::size_t>(n));
            if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1)
                v |= ~std::uint64_t{0} << (8 * n); // sign-extend
            integer(static_cast<std::int64_t>(v));
            return;
        }
        case 'G': { // BINFLOAT: big-endian double
            if (!need(8))
                return;
            std::uint64_t bits = 0;
            for (int i = 0; i < 8; ++i)
                bits = (bits << 8) | static_cast<unsigned char>(bytes_[pos_ + static_cast<std::size_t>(i)]);
            pos_ += 8;
            PickleValue v;
            v.kind = K::real;
            v.real = std::bit_cast<double>(bits);
            make(std::move(v));
            return;
        }
        case 'N':
            make(PickleValue{});
            return;
        case 0x88:
        case 0x89: {
            PickleValue v;
            v.kind = K::boolean;
            v.integer = op == 0x88 ? 1 : 0;
            make(std::move(v));
            return;
        }
        case 0x8c:
            if (readLength(1, n))
                text(K::text, n);
            return; // SHORT_BINUNICODE
        case 'X':
            if (readLength(4, n))
                text(K::text, n);
            return; // BINUNICODE
        case 0x8d:
            if (readLength(8, n))
                text(K::text, n);
            return; // BINUNICODE8
        case 'U':
            if (readLength(1, n))
                text(K::text, n);
            return; // SHORT_BINSTRING
        case 'T':
            if (readLength(4, n))
                text(K::text, n);
            return; // BINSTRING
        case 'C':
            if (readLength(1, n))
                text(K::bytes, n);
            return; // SHORT_BINBYTES
        case 'B':
            if (readLength(4, n))
                text(K::bytes, n);
            return; // BINBYTES
        case 0x8e:
            if (readLength(8, n))
                text(K::bytes, n);
            return; // BINBYTES8
        case 0x94:
            memoPut(memo_.size());
            return; // MEMOIZE
        case 'q':
            if (need(1))
                memoPut(little(1));
            return; // BINPUT
        case 'r':
            if (need(4))
                memoPut(little(4));
            return; // LONG_BINPUT
        case 'h':
            if (need(1))
                memoGet(little(1));
            return; // BINGET
        case 'j':
            if (need(4))
                memoGet(little(4));
            return; // LONG_BINGET
        case '0':   // POP
            if (!stack_.empty() && (marks_.empty() || marks_.back() < stack_.size()))
                stack_.pop_back();
            else if (!marks_.empty())
                marks_.pop_back();
            else
                failAt("POP on an empty stack");
            return;
        case '1': { // POP_MARK
            std::size_t from = 0;
            if (popMark(from))
                stack_.resize(from);
            return;
        }
        case '2': { // DUP
            std::uint32_t index = 0;
            if (top(index))
                push(index);
            return;
        }
        default:
            break;
        }
        const std::string at = " (" + hexByte(op) + ") at byte " + std::to_string(opAt_);
        if (const char* name = refusedName(op))
            fail(std::string("refused opcode ") + name + at +
                 (namesCode(op) ? ": it would name or run Python code, and a memory snapshot is data only"
                                : ": not a data opcode of protocols 2 to 5"));
        else
            fail("unknown opcode" + at);
    }
};

} // namespace

std::optional<std::uint32_t> PickleData::find(std::uint32_t dict, std::string_view key) const {
    const PickleValue& d = values[dict];
    if (d.kind != PickleValue::Kind::dict)
        return std::nullopt;
    // The last pair with the key: a pickle that sets a key twice means the later value, as Python's dict
    // does.
    for (std::size_t i = d.items.size(); i >= 2; i -= 2) {
        const PickleValue& k = values[d.items[i - 2]];
        if (k.kind == PickleValue::Kind::text && !k.truncated && k.text == key)
            return d.items[i - 1];
    }
    return std::nullopt;
}

PickleData readPickleData(std::string_view bytes, const PickleLimits& limits) {
    PickleData out;
    try {
        Reader(bytes, limits, out).run();
    } catch (const std::bad_alloc&) {
        out.error = "too large to hold in memory";
    }
    if (!out.error.empty())
        out.values.clear();
    return out;
}

} // namespace napkin
