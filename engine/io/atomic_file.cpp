// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace napkin {
namespace {

std::runtime_error failure(const char* what, const std::string& path) {
    return std::runtime_error(std::string(what) + " " + path + ": " + std::strerror(errno));
}

} // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path))
    , tempPath_(path_ + ".tmp") {
    fd_ = ::open(tempPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw failure("cannot create", tempPath_);
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0)
        ::close(fd_);
    if (!committed_)
        std::remove(tempPath_.c_str());
}

void AtomicFile::write(const void* data, std::size_t bytes) {
    const auto* next = static_cast<const unsigned char*>(data);
    while (bytes > 0) {
        const ::ssize_t n = ::write(fd_, next, bytes);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw failure("cannot write", tempPath_);
        next += n;
        bytes -= static_cast<std::size_t>(n);
    }
}

void AtomicFile::commit(bool dropFromPageCache) {
    if (::fdatasync(fd_) != 0)
        throw failure("cannot flush", tempPath_);
    if (dropFromPageCache)
        ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0)
        throw failure("cannot close", tempPath_);
    if (std::rename(tempPath_.c_str(), path_.c_str()) != 0)
        throw std::runtime_error("cannot rename " + tempPath_ + " to " + path_ + ": " + std::strerror(errno));
    committed_ = true;
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    AtomicFile file(path);
    file.write(bytes);
    file.commit();
}

} // namespace napkin
