// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/io/writable_target.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace napkin {

std::string unwritableTargetReason(const std::string& path) {
    if (path.empty())
        return "no file named";
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return path + " is a folder; name a file inside it";
    // AtomicFile writes PATH.tmp beside PATH and renames it: the folder must exist and take new files.
    const std::size_t slash = path.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (::stat(folder.c_str(), &st) != 0)
        return "cannot write " + path + ": folder " + folder + ": " + std::strerror(errno);
    if (!S_ISDIR(st.st_mode))
        return "cannot write " + path + ": " + folder + " is not a folder";
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return "cannot write " + path + ": folder " + folder + ": " + std::strerror(errno);
    return {};
}

} // namespace napkin
