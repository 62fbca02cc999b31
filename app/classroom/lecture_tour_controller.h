#pragma once
// Steps through lectureTourSteps(): applies each step's scenario edit through the host (which brings
// its page to the front) and shows its caption. While the tour runs it reads the keyboard of the host's
// window (→/PgDn next, ←/PgUp back, Esc leaves), except that arrows typed into a text field stay there.
#include <QObject>

class CaptionBanner;
class QWidget;
class ScenarioHost;

class LectureTourController : public QObject {
    Q_OBJECT
public:
    /// `keyAnchor` takes the keyboard after each step (switching pages would hand it to a text field,
    /// where → moves the cursor): the window's tab bar, say.
    LectureTourController(ScenarioHost& host, CaptionBanner* banner, QWidget* keyAnchor,
                          QObject* parent = nullptr);
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
    /// Esc was pressed during the tour (the window also leaves presentation mode).
    void escapePressed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ScenarioHost& m_host;
    CaptionBanner* m_banner;
    QWidget* m_keyAnchor;
    int m_index = -1;
    bool m_active = false;
};
