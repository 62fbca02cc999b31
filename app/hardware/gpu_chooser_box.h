// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU box of every page: the session's parts (built-in and the user's), then "This machine's GPU" and
// "Custom GPU…". Choosing one of the last two does not change the GPU until it is resolved: the box goes
// back to the GPU it showed, and then selects the part the device matched or the dialog defined. Only an
// explicit choice (a click, or Enter in the open list) acts: the arrow keys, the wheel and typing on the
// closed box step through the parts and pass over the two.
#include <QComboBox>

#include <functional>
#include <optional>

namespace napkin {
struct GpuSpec;
}

class GpuChooserBox : public QComboBox {
    Q_OBJECT
public:
    explicit GpuChooserBox(QWidget* parent = nullptr);

    /// The chosen part's id ("" while none is chosen).
    QString currentId() const;
    /// Selects the part `id` (case as the catalog has it); false, and nothing changes, when unknown.
    bool selectId(const QString& id);

    /// How "Custom GPU…" asks for a part: a modal CustomGpuDialog by default; tests replace it.
    using CustomGpuAsker = std::function<std::optional<napkin::GpuSpec>(QWidget* parent)>;
    void setCustomGpuAsker(CustomGpuAsker asker) { m_askCustomGpu = std::move(asker); }
    /// How "This machine's GPU" reports a device with no catalog part, or no device: a message box by
    /// default; tests replace it.
    using MessageShower = std::function<void(QWidget* parent, const QString& message)>;
    void setMessageShower(MessageShower shower) { m_showMessage = std::move(shower); }

    static constexpr const char* kThisMachine = "::this-machine";
    static constexpr const char* kCustom = "::custom";

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void refill();
    void onIndexChanged(int index);
    void resolve(const QString& special);
    void useThisMachinesGpu();

    QString m_lastId;
    bool m_stepping = false; ///< inside a key or wheel step of the closed box, not an explicit choice
    CustomGpuAsker m_askCustomGpu;
    MessageShower m_showMessage;
};
