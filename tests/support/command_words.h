// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The words of a napkin-cli command line as a POSIX shell splits them (plain words and '…' quoting only:
// what shellQuoted writes), without the leading "napkin-cli": what the tests hand to runCli to run a line
// the app or the JSON printed.
#include <string>
#include <vector>

namespace napkin::test {

inline std::vector<std::string> commandWords(const std::string& line) {
    std::vector<std::string> out;
    std::string word;
    bool inWord = false, quoted = false;
    for (char c : line) {
        if (quoted) {
            if (c == '\'')
                quoted = false;
            else
                word += c;
        } else if (c == '\'') {
            quoted = inWord = true;
        } else if (c == ' ') {
            if (inWord)
                out.push_back(word);
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        out.push_back(word);
    if (!out.empty() && out.front() == "napkin-cli")
        out.erase(out.begin());
    return out;
}

} // namespace napkin::test
