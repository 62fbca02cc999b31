// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_accounting.h"

#include "engine/accounting/memory_overheads.h"

#include <stdexcept>

namespace napkin::drill_detail {

AccountingInput denseTrainingInput(double parameters, const std::string& gpu, double gpus) {
    AccountingInput in;
    in.model.kind = ModelKind::dense;
    in.model.parameters = parameters;
    in.model.seq = 2048;
    in.gpu = gpu;
    in.gpus = gpus;
    // A napkin question states the datasheet's capacity ("One B200 (180 GB)") and counts no overheads:
    // the lecture's convention (memory_overheads.h), which the page it opens then shows selected.
    in.overheads = datasheetOverheads();
    return in;
}

AccountingResult accountDrill(const AccountingInput& input) {
    const InputError error = validate(input);
    if (!error.ok()) // a generator drew an input the engine refuses: a bug in the drills, never the user's
        throw std::logic_error("drill input refused: " + error.field + ": " + error.message);
    return account(input, *GpuCatalog::builtIn().find(input.gpu));
}

} // namespace napkin::drill_detail
