#pragma once
// Steps through lectureTourSteps(): switches the tab, applies the step, shows its caption. While the
// tour runs it reads the keyboard application-wide (→/PgDn next, ←/PgUp back, Esc leaves), except
// that arrows typed into a text field stay with the field.
#include "app/classroom/lecture_tour.h"

#include <QObject>

class CaptionBanner;

class LectureTourController : public QObject {
    Q_OBJECT
public:
    LectureTourController(const TourPages& pages, CaptionBanner* banner, QObject* parent = nullptr);
    ~LectureTourController() override;

    bool isActive() const { return m_active; }
    int currentIndex() const { return m_index; }
    static int stepCount();

public slots:
    /// Shows the banner and goes to the first step (or `index`).
    void start(int index = 0);
    void stop();
    void next();
    void previous();
    void goTo(int index);

signals:
    void activeChanged(bool active);
    void stepChanged(int index);
    /// Esc was pressed during the tour (the window also leaves presentation mode).
    void escapePressed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    TourPages m_pages;
    CaptionBanner* m_banner;
    int m_index = -1;
    bool m_active = false;
};
