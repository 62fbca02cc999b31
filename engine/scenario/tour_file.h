// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A tour: an instructor's questions in order, each a scenario edit, the question, the answer it hides
// and reveals, and notes. Its versioned JSON file format follows the scenario loader's rules: bounded size
// and depth, "format" and "version" checked first, a field of the wrong type or out of range refuses the
// whole file with one line naming it, unknown keys are warnings.
//
//   {"format": "napkin-tour", "version": 2, "title": "...",
//    "base": {"accounting": {"overheads": {"basis": "datasheet"}}},
//    "steps": [{"id": "napkin-math", "page": "accounting", "question": "How long ...?",
//               "edit": {"accounting": {...}}, "answer": "training-time", "notes": "..."}]}
//
// A step is a whole setup: its scenario is a fresh window's (Scenario{}, what every section left out of a
// scenario file means) with the tour's `base` merged into it, then the step's `edit` merged into that,
// never the window's leftover state, so that a step answers its question the same from any window. Both
// are JSON merge patches (RFC 7396) over the scenario file format: applied to the scenario as written by
// writeScenario(), then read back by parseScenario(), so they can set anything a scenario file can, and
// are judged by the same rules. `page` brings that page to the front. `base` is optional (absent: a fresh
// window). History: 1 = steps alone, whose edits the app applied over the window's scenario; 2 = `base`,
// every step from the base. A version 1 file reads as a version 2 file without a base: each step from a
// fresh window (what its author saw when the tour was recorded from one).
#include "engine/scenario/scenario.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

inline constexpr int kTourFormatVersion = 2;
/// A real tour is a few tens of kilobytes; larger files are refused before parsing.
inline constexpr std::size_t kTourMaxBytes = 1 << 20;
/// A tour nests a scenario edit 3 levels below its root.
inline constexpr int kTourMaxDepth = kScenarioMaxDepth + 3;
/// More steps than any lecture has; a file with more is refused.
inline constexpr std::size_t kTourMaxSteps = 500;

struct TourStep {
    std::string id; ///< unique within the tour ("napkin-math"); may be empty in a recorded tour
    ScenarioPage page = ScenarioPage::accounting;
    std::string question;        ///< as the lecture asks it; never empty
    std::string editJson = "{}"; ///< the merge patch as compact JSON text (an object)
    std::string answer;          ///< which answer field the step hides and reveals (tourAnswerFields())
    std::string notes;           ///< for the instructor; may be empty
    bool operator==(const TourStep&) const = default;
};

struct Tour {
    std::string title;
    std::string baseJson = "{}"; ///< the merge patch every step starts from, over a fresh window (an object)
    std::vector<TourStep> steps;
    bool operator==(const Tour&) const = default;
};

struct TourParse {
    std::optional<Tour> tour;
    std::string error;                 ///< one line: "steps[2].edit: accounting.mfu: must be in (0, 1]"
    std::vector<std::string> warnings; ///< unknown keys, ignored
    bool ok() const { return tour.has_value(); }
};

/// The answers a step can hide and reveal, each what one page computes and shows ("training-time":
/// the accounting page's training days, "dtype-underflow": fp16 and bf16 of the Number formats value, ...).
/// The app formats each one; a tour naming another is refused.
std::span<const std::string_view> tourAnswerFields();

/// Parses and validates a tour's text; every step's edit is applied to a fresh scenario to check it.
TourParse parseTour(std::string_view text);
/// As parseTour, from a file read with the engine's bounded reader; errors name the file.
TourParse readTourFile(const std::string& path);
/// The tour as JSON text (version kTourFormatVersion, two-space indent, ends in a newline).
std::string writeTour(const Tour& tour);

/// `base` with the step's edit merged into it and the step's page in front; nullopt and `error` when the
/// result is not a valid scenario (which parseTour has ruled out for a loaded tour's steps).
std::optional<Scenario> applyTourStep(const Scenario& base, const TourStep& step,
                                      std::string* error = nullptr);

/// The scenario every step of `tour` starts from: a fresh window's with the tour's base merged in; nullopt
/// and `error` when that is not a valid scenario (which parseTour has ruled out for a loaded tour).
std::optional<Scenario> tourBase(const Tour& tour, std::string* error = nullptr);
/// Step `index`'s whole setup: applyTourStep(tourBase(tour), tour.steps[index]); nullopt for an index out
/// of range or an invalid setup.
std::optional<Scenario> tourStepScenario(const Tour& tour, std::size_t index, std::string* error = nullptr);

/// The step that recreates `scenario`'s page as it is now: its page's whole section as the edit.
TourStep recordTourStep(const Scenario& scenario, std::string question, std::string answer);

} // namespace napkin
