// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's one way to write a file: PATH holds either its old content or the whole new content,
// never half of it. The bytes go to PATH.tmp in the same folder, are flushed to disk (fdatasync) and
// only then renamed over PATH; a failure or an early exit removes the temp file.
#include <cstddef>
#include <string>
#include <string_view>

namespace napkin {

class AtomicFile {
public:
    /// Creates PATH.tmp; throws std::runtime_error naming the file and the system's reason.
    explicit AtomicFile(std::string path);
    /// Removes the temp file unless commit() succeeded.
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Appends `bytes` bytes; throws std::runtime_error (disk full, I/O error).
    void write(const void* data, std::size_t bytes);
    void write(std::string_view text) { write(text.data(), text.size()); }
    /// Flushes to disk and renames over the final path. `dropFromPageCache` also evicts the written
    /// pages (a file about to be memory-mapped cold). Throws std::runtime_error.
    void commit(bool dropFromPageCache = false);

    const std::string& path() const { return path_; }

private:
    std::string path_, tempPath_;
    int fd_ = -1;
    bool committed_ = false;
};

/// Writes `bytes` to `path` through an AtomicFile.
void writeFileAtomically(const std::string& path, std::string_view bytes);

} // namespace napkin
