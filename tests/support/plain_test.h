// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A few lines of test harness for the suites that must build where Qt is not installed (the GPU machine
// has CUDA, CMake and PyTorch, but no Qt): named cases, checks that report file and line, skips with a
// reason. main() returns 0 when every case passed, 1 when one failed, and 77 (CTest's SKIP_RETURN_CODE
// here) when every case was skipped.
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace plain_test {

struct Skip {
    std::string why;
};

struct Failure {
    std::string what;
};

inline void check(bool ok, const char* expression, const std::string& detail, const char* file, int line) {
    if (!ok)
        throw Failure{std::string(file) + ":" + std::to_string(line) + ": " + expression +
                      (detail.empty() ? std::string() : " (" + detail + ")")};
}

/// Runs every case; prints one line per case ("PASS name", "SKIP name: why", "FAIL name: where").
inline int run(const std::vector<std::pair<std::string, std::function<void()>>>& cases) {
    int failed = 0, skipped = 0;
    for (const auto& [name, body] : cases) {
        try {
            body();
            std::printf("PASS %s\n", name.c_str());
        } catch (const Skip& s) {
            ++skipped;
            std::printf("SKIP %s: %s\n", name.c_str(), s.why.c_str());
        } catch (const Failure& f) {
            ++failed;
            std::printf("FAIL %s: %s\n", name.c_str(), f.what.c_str());
        } catch (const std::exception& e) {
            ++failed;
            std::printf("FAIL %s: exception: %s\n", name.c_str(), e.what());
        }
    }
    std::printf("%zu cases: %zu passed, %d failed, %d skipped\n", cases.size(),
                cases.size() - static_cast<std::size_t>(failed + skipped), failed, skipped);
    if (failed)
        return 1;
    return skipped == static_cast<int>(cases.size()) ? 77 : 0;
}

} // namespace plain_test

#define PLAIN_CHECK(expression) plain_test::check((expression), #expression, {}, __FILE__, __LINE__)
#define PLAIN_CHECK_MSG(expression, detail) plain_test::check((expression), #expression, (detail), __FILE__, __LINE__)
#define PLAIN_SKIP(why) throw plain_test::Skip{why}
