// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The keys the tour reads while it runs, in one table: the tour acts on them (LectureTourController),
// Help ▸ Keyboard shortcuts lists them and the caption's hint names them, so none of them can disagree
// (and a test holds README.md's tour line to the same table). Enter in the caption's guess field judges
// the room's guess and reveals the answer (the field keeps the key); anywhere else Enter reveals as
// Space does.
#include <QString>
#include <Qt>

#include <span>

enum class TourCommand { next, previous, reveal, leave };

struct TourKey {
    Qt::Key key;
    TourCommand command;
    bool textFieldKeepsIt; ///< a text field with the focus takes the key (→ moves its cursor)
};

/// Every key of the tour, the order the shortcuts list shows them.
std::span<const TourKey> tourKeys();
/// The tour key bound to `key`, or nullptr.
const TourKey* findTourKey(int key);
/// What `command` does, for the shortcuts list ("Next step of the tour").
QString tourCommandName(TourCommand command);
/// The key as README.md and the caption's hint spell it: "→", "PgDn", "Space", "Enter", "Esc".
QString tourKeyName(Qt::Key key);
/// The caption's hint: each command once, with its first key ("→ next · ← back · Space reveal · Esc leave").
QString tourKeyHint();
