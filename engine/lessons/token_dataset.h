// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A tokenized corpus as the lecture stores it: one flat binary file of integers (uint16 or int32,
// little-endian, no header), opened memory-mapped so that only the pages a batch touches are read.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace napkin {

enum class TokenType { uint16, int32 };

/// 2 or 4.
std::size_t tokenBytes(TokenType type);
/// "uint16", "int32".
std::string_view tokenTypeName(TokenType type);
/// Accepts "uint16", "u16", "int32", "i32".
std::optional<TokenType> tokenTypeFromName(std::string_view name);
std::span<const TokenType> allTokenTypes();

/// A read-only memory mapping of a token file (POSIX mmap). Move-only; unmaps and closes on
/// destruction. Errors (missing file, empty file, a size that is not a whole number of tokens, a
/// failed mmap) throw std::runtime_error with a message that names the file.
class TokenDataset {
public:
    TokenDataset(const std::string& path, TokenType type);
    ~TokenDataset();
    TokenDataset(TokenDataset&& other) noexcept;
    TokenDataset& operator=(TokenDataset&& other) noexcept;
    TokenDataset(const TokenDataset&) = delete;
    TokenDataset& operator=(const TokenDataset&) = delete;

    const std::string& path() const { return path_; }
    TokenType type() const { return type_; }
    std::uint64_t fileBytes() const { return bytes_; }
    std::uint64_t tokens() const { return bytes_ / tokenBytes(type_); }
    /// Token i (0 ≤ i < tokens(), unchecked), read through the mapping: touching it may fault its page in.
    std::int64_t token(std::uint64_t i) const;
    /// Copies tokens [offset, offset + count) into `out`; throws std::out_of_range past the end.
    void copyTokens(std::uint64_t offset, std::uint64_t count, std::int32_t* out) const;

    /// Bytes of the mapping that are in memory now (mincore over the whole mapping, pages × page size).
    /// For a file this counts the page cache: pages another process read are resident here too.
    std::uint64_t residentBytes() const;
    /// The system's page size in bytes (what mincore counts in).
    static std::uint64_t pageBytes();

private:
    void release() noexcept;

    std::string path_;
    TokenType type_ = TokenType::uint16;
    int fd_ = -1;
    void* map_ = nullptr;
    std::uint64_t bytes_ = 0;
};

} // namespace napkin
