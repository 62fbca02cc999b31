#include "engine/lessons/token_file_generator.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

namespace napkin {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Closes the descriptor and removes the temp file unless released: every error path cleans up.
class TempFile {
public:
    explicit TempFile(std::string path)
        : path_(std::move(path)) {
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw std::runtime_error("cannot create " + path_ + ": " + std::strerror(errno));
    }
    ~TempFile() {
        if (fd_ >= 0)
            ::close(fd_);
        if (!committed_)
            std::remove(path_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    void write(const unsigned char* data, std::size_t bytes) {
        while (bytes > 0) {
            const ::ssize_t n = ::write(fd_, data, bytes);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
            data += n;
            bytes -= static_cast<std::size_t>(n);
        }
    }
    void finish(const std::string& finalPath) {
        if (::fdatasync(fd_) != 0)
            throw std::runtime_error("cannot flush " + path_ + ": " + std::strerror(errno));
        // Written pages stay in the page cache; drop them so the lesson's mapping starts cold.
        ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd_);
        fd_ = -1;
        if (std::rename(path_.c_str(), finalPath.c_str()) != 0)
            throw std::runtime_error("cannot rename " + path_ + " to " + finalPath + ": " +
                                     std::strerror(errno));
        committed_ = true;
    }

private:
    std::string path_;
    int fd_ = -1;
    bool committed_ = false;
};

} // namespace

std::int32_t demoTokenAt(std::uint64_t index, std::uint64_t seed, TokenType type) {
    const std::uint64_t h = splitmix64(index ^ splitmix64(seed));
    return type == TokenType::uint16 ? static_cast<std::int32_t>(h % 50257)
                                     : static_cast<std::int32_t>(h % 2147483647);
}

void writeDemoTokenFile(const std::string& path, std::uint64_t tokens, TokenType type, std::uint64_t seed,
                        const std::function<bool(double)>& progress) {
    if (tokens == 0)
        throw std::runtime_error("a demo token file needs at least one token");
    TempFile file(path + ".tmp");
    const std::size_t width = tokenBytes(type);
    constexpr std::uint64_t kChunkTokens = 1 << 20;
    std::vector<unsigned char> chunk(kChunkTokens * width);
    for (std::uint64_t start = 0; start < tokens; start += kChunkTokens) {
        const std::uint64_t count = std::min(kChunkTokens, tokens - start);
        for (std::uint64_t i = 0; i < count; ++i) {
            const auto v = static_cast<std::uint32_t>(demoTokenAt(start + i, seed, type));
            for (std::size_t b = 0; b < width; ++b) // little-endian, whatever the host
                chunk[i * width + b] = static_cast<unsigned char>(v >> (8 * b));
        }
        file.write(chunk.data(), count * width);
        if (progress && !progress(static_cast<double>(start + count) / static_cast<double>(tokens)))
            throw std::runtime_error("cancelled");
    }
    file.finish(path);
}

DatasetSizing sizeDataset(double bytes, TokenType type, long batch, long context, double pageBytes) {
    DatasetSizing s;
    const auto width = static_cast<double>(tokenBytes(type));
    s.bytes = bytes;
    s.tokens = std::floor(bytes / width);
    s.pages = std::ceil(bytes / pageBytes);
    s.batchBytes = static_cast<double>(batch) * static_cast<double>(context) * width;
    s.batchPagesAtMost =
        static_cast<double>(batch) * (std::ceil(static_cast<double>(context) * width / pageBytes) + 1);
    return s;
}

} // namespace napkin
