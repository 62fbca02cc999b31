#include "app/classroom/tour_keys.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>

namespace {

constexpr std::array kKeys{
    TourKey{Qt::Key_Right, TourCommand::next, true},    TourKey{Qt::Key_PageDown, TourCommand::next, false},
    TourKey{Qt::Key_Left, TourCommand::previous, true}, TourKey{Qt::Key_PageUp, TourCommand::previous, false},
    TourKey{Qt::Key_Space, TourCommand::reveal, true},  TourKey{Qt::Key_Escape, TourCommand::leave, false},
};

} // namespace

std::span<const TourKey> tourKeys() {
    return kKeys;
}

const TourKey* findTourKey(int key) {
    const auto* found =
        std::find_if(kKeys.begin(), kKeys.end(), [key](const TourKey& k) { return k.key == key; });
    return found == kKeys.end() ? nullptr : found;
}

QString tourCommandName(TourCommand command) {
    switch (command) {
    case TourCommand::next:
        return QCoreApplication::translate("TourKeys", "Lecture tour: next step");
    case TourCommand::previous:
        return QCoreApplication::translate("TourKeys", "Lecture tour: previous step");
    case TourCommand::reveal:
        return QCoreApplication::translate("TourKeys",
                                           "Lecture tour: reveal the answer, then its derivation");
    case TourCommand::leave:
        return QCoreApplication::translate("TourKeys", "Lecture tour: leave (and presentation mode)");
    }
    return {};
}
