// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario file read from disk: the engine's one bounded reader, then the parser. The app's Open and
// `napkin --scenario` both come here, so a file is judged the same way wherever it is opened.
#include "engine/scenario/scenario.h"

#include "engine/io/bounded_file_read.h"

namespace napkin {

ScenarioParse readScenarioFile(const std::string& path) {
    const BoundedFileRead file = readBoundedFile(path, kScenarioMaxBytes);
    if (!file.ok()) {
        ScenarioParse refused;
        refused.error = file.error; // names the file already
        return refused;
    }
    ScenarioParse parsed = parseScenario(file.bytes);
    if (!parsed.ok())
        parsed.error = path + ": " + parsed.error;
    return parsed;
}

} // namespace napkin
