// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting page's answers for a drill's inputs: the same account() the page runs.
#include "engine/accounting/accounting.h"

namespace napkin::drill_detail {

/// A dense model of `parameters` on `gpus` × `gpu`: the accounting's input the drills start from.
AccountingInput denseTrainingInput(double parameters, const std::string& gpu, double gpus);
/// account() of a valid input. Precondition: validate(input).ok() (the drills only draw valid inputs).
AccountingResult accountDrill(const AccountingInput& input);

} // namespace napkin::drill_detail
