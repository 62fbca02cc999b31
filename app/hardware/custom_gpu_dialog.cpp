// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware/custom_gpu_dialog.h"

#include "app/export/file_dialogs.h"
#include "app/export/save_file.h"
#include "engine/hardware/gpu_catalog_writer.h"
#include "widgets/controls/text_tone.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

using namespace napkin;

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
} // namespace

CustomGpuDialog::CustomGpuDialog(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Custom GPU"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("A GPU of your own, in the units its datasheet prints. Leave a peak empty "
                                "when no source gives it (it stays unknown, never guessed); type \"none\" "
                                "when the GPU has no such path (bf16 on a T4)."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    layout->addLayout(form);
    auto addField = [&](const std::string& key, const QString& label, const QString& placeholder,
                        const QString& tip) {
        auto* edit = new QLineEdit(this);
        edit->setObjectName(q(key));
        edit->setPlaceholderText(placeholder);
        edit->setToolTip(tip);
        auto* error = new QLabel(this);
        error->setObjectName(q(key + "Error"));
        setTextTone(error, TextTone::alert);
        error->setWordWrap(true);
        error->setVisible(false);
        form->addRow(label, edit);
        form->addRow(QString(), error);
        m_fields[key] = edit;
        m_errors[key] = error;
        connect(edit, &QLineEdit::textChanged, this, &CustomGpuDialog::check);
    };
    addField("name", tr("&Name:"), tr("e.g. Lab A100"),
             tr("Shown in the GPU boxes; its id is the name with "
                "dashes for spaces."));
    addField("memory", tr("&Memory (GB):"), tr("80"), tr("The datasheet's capacity in GB (1e9 bytes)."));
    addField("bandwidth", tr("&Bandwidth (GB/s):"), tr("2039"), tr("The datasheet's memory bandwidth."));
    const std::array<QString, 5> peakLabels = {tr("FP&32 peak (TFLOP/s):"), tr("&TF32 peak (TFLOP/s):"),
                                               tr("FP&16 peak (TFLOP/s):"), tr("&BF16 peak (TFLOP/s):"),
                                               tr("FP&8 peak (TFLOP/s):")};
    for (std::size_t i = 0; i < 5; ++i)
        addField(customGpuPeakNames()[i], peakLabels[i], tr("dense, or none, or empty"),
                 tr("The dense (no sparsity) peak for matmuls in this dtype."));
    addField("tdp", tr("T&DP (W):"), tr("optional"), tr("The board's power; energy and carbon need it."));

    layout->addStretch(1); // a taller dialog grows below the fields, not around the introduction
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_add = buttons->addButton(tr("&Add to this session"), QDialogButtonBox::AcceptRole);
    m_save = buttons->addButton(tr("&Save as catalog file…"), QDialogButtonBox::ActionRole);
    m_save->setToolTip(tr("A JSON file in the GPU catalog's format, which napkin-cli --gpu-catalog reads."));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &CustomGpuDialog::chooseFileAndSave);
    check();
}

QLineEdit* CustomGpuDialog::field(const std::string& name) const {
    const auto it = m_fields.find(name);
    return it == m_fields.end() ? nullptr : it->second;
}

QString CustomGpuDialog::errorText(const std::string& name) const {
    const auto it = m_errors.find(name);
    return it == m_errors.end() || it->second->isHidden() ? QString() : it->second->text();
}

void CustomGpuDialog::check() {
    CustomGpuForm form;
    auto text = [&](const std::string& key) { return m_fields.at(key)->text().toStdString(); };
    form.name = text("name");
    form.memoryGb = text("memory");
    form.bandwidthGbPerSecond = text("bandwidth");
    for (std::size_t i = 0; i < 5; ++i)
        form.peaksTflops[i] = text(customGpuPeakNames()[i]);
    form.tdpWatts = text("tdp");
    m_check = checkCustomGpu(form);
    for (auto& [key, label] : m_errors) {
        // A field not yet typed in is not scolded; its message shows once the user has written there.
        const std::string message = m_check.errorFor(key);
        const bool show = !message.empty() && (m_fields.at(key)->isModified() || !text(key).empty());
        label->setText(q(message));
        label->setVisible(show);
    }
    m_add->setEnabled(m_check.gpu.has_value());
    m_save->setEnabled(m_check.gpu.has_value());
}

QString CustomGpuDialog::saveTo(const QString& path) const {
    if (!m_check.gpu)
        return tr("The GPU is not complete: every field must be valid first.");
    return saveFile(path, QByteArray::fromStdString(gpuCatalogJson({*m_check.gpu})));
}

void CustomGpuDialog::chooseFileAndSave() {
    if (!m_check.gpu)
        return;
    const QString path = chooseSaveFile(this, tr("Save GPU as catalog file"), q(m_check.gpu->id) + ".json",
                                        tr("GPU catalog (*.json)"));
    if (path.isEmpty())
        return;
    if (const QString error = saveTo(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Save GPU"), error);
}
