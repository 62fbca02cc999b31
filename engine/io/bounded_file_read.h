// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's one way to read a whole file that a user named: only a regular file, only up to a size
// cap, checked before a byte is read. /dev/zero, a FIFO or a folder is refused at once rather than
// read until memory runs out (or forever).
#include <cstdint>
#include <string>

namespace napkin {

struct BoundedFileRead {
    std::string bytes; ///< the whole file when ok()
    std::string error; ///< "PATH is not a regular file", "PATH is 5 MiB, more than the 1 MiB allowed", ...
    bool ok() const { return error.empty(); }
};

/// Reads `path` whole when it is a regular file of at most `maxBytes` bytes (a file that grows past the
/// cap while it is read is refused too); otherwise an error that names the file and the reason.
BoundedFileRead readBoundedFile(const std::string& path, std::uint64_t maxBytes);

} // namespace napkin
