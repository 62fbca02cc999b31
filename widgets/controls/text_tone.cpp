// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/text_tone.h"

#include <QColor>
#include <QEvent>
#include <QLabel>
#include <QPalette>
#include <QVariant>

namespace {

constexpr const char* kKeeperName = "napkinTextTone";
constexpr const char* kToneProperty = "napkinTextTone"; ///< the label's tone, absent when plain

// Sets the label's text colour for the window it has now, and again whenever its palette changes (the
// window's palette reaches it as a PaletteChange).
class ToneKeeper : public QObject {
public:
    ToneKeeper(QLabel* label, TextTone tone)
        : QObject(label)
        , m_label(label)
        , m_tone(tone) {
        setObjectName(QLatin1String(kKeeperName));
        label->installEventFilter(this);
        apply();
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == m_label && event->type() == QEvent::PaletteChange)
            apply();
        return QObject::eventFilter(watched, event);
    }

private:
    void apply() {
        const bool dark = m_label->palette().color(QPalette::Window).lightness() < 128;
        const QColor ink = m_tone == TextTone::caution
                               ? (dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xa0, 0x50, 0x00))
                               : (dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc0, 0x39, 0x2b));
        if (m_label->palette().color(QPalette::WindowText) == ink)
            return; // setting it again would be another PaletteChange
        QPalette palette = m_label->palette();
        palette.setColor(QPalette::WindowText, ink);
        m_label->setPalette(palette);
    }

    QLabel* m_label;
    TextTone m_tone;
};

} // namespace

void setTextTone(QLabel* label, TextTone tone) {
    // The same tone again (the Number formats page sets each row's on every keystroke) changes nothing.
    if (label->property(kToneProperty) == QVariant(static_cast<int>(tone)) && label->styleSheet().isEmpty())
        return;
    clearTextTone(label);
    label->setProperty(kToneProperty, static_cast<int>(tone));
    if (tone == TextTone::note) {
        label->setForegroundRole(QPalette::PlaceholderText);
        return;
    }
    new ToneKeeper(label, tone); // owned by the label
}

void clearTextTone(QLabel* label) {
    if (!label->property(kToneProperty).isValid() && label->styleSheet().isEmpty())
        return; // plain already: no palette change to propagate
    label->setProperty(kToneProperty, QVariant());
    label->setStyleSheet(QString());
    for (QObject* keeper :
         label->findChildren<QObject*>(QLatin1String(kKeeperName), Qt::FindDirectChildrenOnly))
        delete keeper; // its event filter goes with it
    label->setForegroundRole(QPalette::WindowText);
    QPalette inherited = label->palette();
    inherited.setResolveMask(0); // every colour from the parent again
    label->setPalette(inherited);
}

void setTextBold(QLabel* label, bool bold) {
    QFont weight; // only the weight is set: the size and family are inherited
    weight.setBold(bold);
    label->setFont(weight);
}
