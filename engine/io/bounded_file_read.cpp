// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/io/bounded_file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace napkin {
namespace {

// Whole bytes with their unit, so a refusal reads "2097152 bytes, more than the 1048576 allowed".
std::string bytesText(std::uint64_t bytes) {
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

class Descriptor {
public:
    explicit Descriptor(int fd)
        : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

} // namespace

BoundedFileRead readBoundedFile(const std::string& path, std::uint64_t maxBytes) {
    BoundedFileRead r;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
    const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) {
        r.error = "cannot open " + path + ": " + std::strerror(errno);
        return r;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        r.error = "cannot read " + path + ": " + std::strerror(errno);
        return r;
    }
    if (!S_ISREG(st.st_mode)) {
        r.error = path + " is not a regular file";
        return r;
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > maxBytes) {
        r.error = path + " is " + bytesText(size) + ", more than the " + bytesText(maxBytes) + " allowed";
        return r;
    }
    // Read one byte past the size fstat gave, so a file that grew since is refused rather than cut short.
    r.bytes.resize(static_cast<std::size_t>(size) + 1);
    std::size_t got = 0;
    while (got < r.bytes.size()) {
        const ssize_t n = ::read(fd.get(), r.bytes.data() + got, r.bytes.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            r.error = "cannot read " + path + ": " + std::strerror(errno);
            r.bytes.clear();
            return r;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    if (got > size) {
        r.error = path + " changed while it was read";
        r.bytes.clear();
        return r;
    }
    r.bytes.resize(got);
    return r;
}

} // namespace napkin
