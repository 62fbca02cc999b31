// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lessons/token_dataset.h"

#include "engine/text/name_table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

namespace napkin {
namespace {
constexpr NameTable<TokenType, 2> kTokenTypeNames{
    {{TokenType::uint16, "uint16"}, {TokenType::int32, "int32"}}};
constexpr NameTable<TokenType, 2> kTokenTypeShortNames{
    {{TokenType::uint16, "u16"}, {TokenType::int32, "i32"}}};
constexpr auto kAllTokenTypes = valuesIn(kTokenTypeNames);
} // namespace

std::size_t tokenBytes(TokenType type) {
    return type == TokenType::uint16 ? 2 : 4;
}

std::string_view tokenTypeName(TokenType type) {
    return nameIn(kTokenTypeNames, type);
}

std::span<const TokenType> allTokenTypes() {
    return kAllTokenTypes;
}

std::optional<TokenType> tokenTypeFromName(std::string_view name) {
    if (const std::optional<TokenType> type = valueIn(kTokenTypeNames, name))
        return type;
    return valueIn(kTokenTypeShortNames, name);
}

TokenDataset::TokenDataset(const std::string& path, TokenType type)
    : path_(path)
    , type_(type) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it. (A regular file's
    // reads and mappings ignore the flag.)
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0)
        throw std::runtime_error("cannot open token file " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        release();
        throw std::runtime_error(path + " is not a regular file");
    }
    bytes_ = static_cast<std::uint64_t>(st.st_size);
    if (bytes_ == 0) {
        release();
        throw std::runtime_error(path + " is empty: a token file needs at least one token");
    }
    if (bytes_ % tokenBytes(type) != 0) {
        const std::uint64_t size = bytes_;
        release();
        throw std::runtime_error(path + " has " + std::to_string(size) + " bytes, not a whole number of " +
                                 std::string(tokenTypeName(type)) + " tokens (" +
                                 std::to_string(tokenBytes(type)) + " bytes each)");
    }
    map_ = ::mmap(nullptr, bytes_, PROT_READ, MAP_SHARED, fd_, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        const int error = errno;
        release();
        throw std::runtime_error("cannot map " + path + ": " + std::strerror(error));
    }
    // Random windows, as the sampler draws them: no read-ahead, so what is resident is what was touched.
    ::madvise(map_, bytes_, MADV_RANDOM);
}

TokenDataset::~TokenDataset() {
    release();
}

TokenDataset::TokenDataset(TokenDataset&& other) noexcept
    : path_(std::move(other.path_))
    , type_(other.type_)
    , fd_(std::exchange(other.fd_, -1))
    , map_(std::exchange(other.map_, nullptr))
    , bytes_(std::exchange(other.bytes_, 0)) {}

TokenDataset& TokenDataset::operator=(TokenDataset&& other) noexcept {
    if (this != &other) {
        release();
        path_ = std::move(other.path_);
        type_ = other.type_;
        fd_ = std::exchange(other.fd_, -1);
        map_ = std::exchange(other.map_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void TokenDataset::release() noexcept {
    if (map_ != nullptr)
        ::munmap(map_, bytes_);
    if (fd_ >= 0)
        ::close(fd_);
    map_ = nullptr;
    fd_ = -1;
    bytes_ = 0;
}

std::int64_t TokenDataset::token(std::uint64_t i) const {
    // memcpy, not a cast: the file promises no alignment beyond a byte.
    const auto* base = static_cast<const unsigned char*>(map_);
    if (type_ == TokenType::uint16) {
        std::uint16_t v = 0;
        std::memcpy(&v, base + i * 2, 2);
        return v;
    }
    std::int32_t v = 0;
    std::memcpy(&v, base + i * 4, 4);
    return v;
}

void TokenDataset::copyTokens(std::uint64_t offset, std::uint64_t count, std::int32_t* out) const {
    if (offset > tokens() || count > tokens() - offset)
        throw std::out_of_range("tokens [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                                ") lie past the end of " + path_ + " (" + std::to_string(tokens()) +
                                " tokens)");
    for (std::uint64_t i = 0; i < count; ++i)
        out[i] = static_cast<std::int32_t>(token(offset + i));
}

std::uint64_t TokenDataset::pageBytes() {
    return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::uint64_t TokenDataset::residentBytes() const {
    if (map_ == nullptr)
        return 0;
    const std::uint64_t page = pageBytes();
    std::vector<unsigned char> pages((bytes_ + page - 1) / page);
    if (::mincore(map_, bytes_, pages.data()) != 0)
        throw std::runtime_error("mincore failed on " + path_ + ": " + std::strerror(errno));
    std::uint64_t resident = 0;
    for (unsigned char p : pages)
        resident += p & 1u;
    return resident * page;
}

} // namespace napkin
