// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The answers a tour step can hide and reveal (napkin::tourAnswerFields()), each computed from the engine
// for the scenario the step set up: the number the room guesses, the caption the lecture gives, and that
// caption as derivation lines revealed one press at a time.
#include "engine/drills/drill_question.h"
#include "engine/scenario/scenario.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>

struct TourAnswer {
    bool ok = false;             ///< false: the page shows no valid result for this scenario
    QString text;                ///< the whole caption, as the tour shows it with hiding off
    QString headline;            ///< the answer itself, shown first on reveal: "143.9 days"
    std::optional<double> value; ///< what a guess is judged against; unset where the answer is not a number
    napkin::DrillUnit unit = napkin::DrillUnit::number;
    double relativeTolerance = 0.05; ///< a napkin estimate within 5 % is right; 0 for exact counts
    QStringList derivation;          ///< `text`, one line per step of the reasoning
    /// The convention the answer counts by, said with the question where the page could read otherwise
    /// (the datasheet's capacity where the page's memory chart says "usable"); empty: none to say.
    QString convention;
};

/// The answer `field` for `scenario`; an unknown field gives ok = false.
TourAnswer tourAnswer(std::string_view field, const napkin::Scenario& scenario);
