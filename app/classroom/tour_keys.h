#pragma once
// The keys the tour reads while it runs, in one table: the tour acts on them (LectureTourController) and
// Help ▸ Keyboard shortcuts lists them, so the two cannot disagree.
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
