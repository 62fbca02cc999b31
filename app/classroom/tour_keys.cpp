// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/tour_keys.h"

#include <QCoreApplication>
#include <QKeySequence>
#include <QStringList>

#include <algorithm>
#include <array>
#include <vector>

namespace {

constexpr std::array kKeys{
    TourKey{Qt::Key_Right, TourCommand::next, true},    TourKey{Qt::Key_PageDown, TourCommand::next, false},
    TourKey{Qt::Key_Left, TourCommand::previous, true}, TourKey{Qt::Key_PageUp, TourCommand::previous, false},
    TourKey{Qt::Key_Space, TourCommand::reveal, true},  TourKey{Qt::Key_Return, TourCommand::reveal, true},
    TourKey{Qt::Key_Enter, TourCommand::reveal, true},  TourKey{Qt::Key_Escape, TourCommand::leave, false},
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

QString tourKeyName(Qt::Key key) {
    switch (key) {
    case Qt::Key_Right:
        return QStringLiteral("→");
    case Qt::Key_Left:
        return QStringLiteral("←");
    case Qt::Key_PageDown:
        return QStringLiteral("PgDn");
    case Qt::Key_PageUp:
        return QStringLiteral("PgUp");
    case Qt::Key_Space:
        return QStringLiteral("Space");
    case Qt::Key_Return:
    case Qt::Key_Enter: // the keypad's
        return QStringLiteral("Enter");
    case Qt::Key_Escape:
        return QStringLiteral("Esc");
    default:
        return QKeySequence(key).toString(QKeySequence::NativeText);
    }
}

QString tourKeyHint() {
    QStringList parts;
    std::vector<TourCommand> named;
    for (const TourKey& k : kKeys) {
        if (std::find(named.begin(), named.end(), k.command) != named.end())
            continue;
        named.push_back(k.command);
        const char* verb = k.command == TourCommand::next       ? QT_TRANSLATE_NOOP("TourKeys", "next")
                           : k.command == TourCommand::previous ? QT_TRANSLATE_NOOP("TourKeys", "back")
                           : k.command == TourCommand::reveal   ? QT_TRANSLATE_NOOP("TourKeys", "reveal")
                                                                : QT_TRANSLATE_NOOP("TourKeys", "leave");
        parts << tourKeyName(k.key) + QLatin1Char(' ') + QCoreApplication::translate("TourKeys", verb);
    }
    return parts.join(QStringLiteral(" · "));
}
