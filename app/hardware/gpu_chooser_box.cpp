// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware/gpu_chooser_box.h"

#include "app/hardware/custom_gpu_dialog.h"
#include "app/hardware/session_gpu_catalog.h"
#include "engine/benchmarks/local_gpus.h"

#include <QKeyEvent>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QTimer>
#include <QWheelEvent>

using namespace napkin;

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

std::optional<GpuSpec> askWithDialog(QWidget* parent) {
    CustomGpuDialog dialog(parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.gpu();
}

void showInBox(QWidget* parent, const QString& message) {
    QMessageBox::information(parent, GpuChooserBox::tr("This machine's GPU"), message);
}
} // namespace

GpuChooserBox::GpuChooserBox(QWidget* parent)
    : QComboBox(parent)
    , m_askCustomGpu(askWithDialog)
    , m_showMessage(showInBox) {
    refill();
    // Connected first, so the page's own slots (connected later) already see the reverted GPU.
    connect(this, &QComboBox::currentIndexChanged, this, &GpuChooserBox::onIndexChanged);
    connect(&SessionGpuCatalog::instance(), &SessionGpuCatalog::changed, this, &GpuChooserBox::refill);
}

QString GpuChooserBox::currentId() const {
    const QString id = currentData().toString();
    return id.startsWith(QLatin1String("::")) ? QString() : id;
}

bool GpuChooserBox::selectId(const QString& id) {
    const GpuSpec* gpu = sessionGpuCatalog().find(id.toStdString());
    if (!gpu)
        return false;
    setCurrentIndex(findData(q(gpu->id)));
    return true;
}

void GpuChooserBox::refill() {
    const QString keep = m_lastId.isEmpty() ? currentId() : m_lastId;
    const QSignalBlocker quiet(this); // the GPU shown does not change
    clear();
    for (const GpuSpec& gpu : sessionGpuCatalog().gpus())
        addItem(q(gpu.id), q(gpu.id));
    insertSeparator(count());
    addItem(tr("This machine's GPU"), QString::fromLatin1(kThisMachine));
    setItemData(count() - 1, tr("Read this machine's CUDA device and choose its catalog part"),
                Qt::ToolTipRole);
    addItem(tr("Custom GPU…"), QString::fromLatin1(kCustom));
    setItemData(count() - 1, tr("Define a GPU of your own: memory, bandwidth, peaks, TDP"), Qt::ToolTipRole);
    setCurrentIndex(std::max(0, findData(keep)));
    m_lastId = currentId();
}

// QComboBox moves the closed box's selection (and emits activated()) on these as on a click, so a step
// onto a special item is told apart here and undone without acting.
void GpuChooserBox::keyPressEvent(QKeyEvent* event) {
    const QScopedValueRollback stepping(m_stepping, true);
    QComboBox::keyPressEvent(event);
}

void GpuChooserBox::wheelEvent(QWheelEvent* event) {
    const QScopedValueRollback stepping(m_stepping, true);
    QComboBox::wheelEvent(event);
}

void GpuChooserBox::onIndexChanged(int index) {
    const QString data = itemData(index).toString();
    if (!data.startsWith(QLatin1String("::"))) {
        m_lastId = data;
        return;
    }
    {
        const QSignalBlocker quiet(this);
        setCurrentIndex(std::max(0, findData(m_lastId)));
    }
    if (m_stepping)
        return; // passed over on the way, not chosen
    // After this signal has reached every slot: a dialog opened inside it would run a nested event loop.
    QTimer::singleShot(0, this, [this, data] { resolve(data); });
}

void GpuChooserBox::resolve(const QString& special) {
    if (special == QLatin1String(kThisMachine)) {
        useThisMachinesGpu();
        return;
    }
    const std::optional<GpuSpec> gpu = m_askCustomGpu(this);
    if (!gpu)
        return;
    SessionGpuCatalog::instance().add(*gpu); // every page's box gets it (refill)
    selectId(q(gpu->id));
}

void GpuChooserBox::useThisMachinesGpu() {
    const ThisMachineGpus machine = thisMachineGpus(sessionGpuCatalog());
    if (!machine.noDeviceReason.empty()) {
        m_showMessage(this, q(machine.noDeviceReason));
        return;
    }
    const LocalGpuAnswer& first = machine.gpus.front();
    if (first.match.catalogId.empty()) {
        m_showMessage(this, tr("%1: %2").arg(q(first.device.name), q(first.match.reason)));
        return;
    }
    selectId(q(first.match.catalogId));
}
