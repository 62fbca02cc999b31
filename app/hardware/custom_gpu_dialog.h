// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Custom GPU…": a part the user defines by hand (name, memory, bandwidth, dense peaks per dtype, TDP),
// each field checked as it is typed with its message right under it (engine/hardware/custom_gpu_form.h
// decides); the part can also be saved as a catalog file that `napkin-cli --gpu-catalog` reads.
#include "engine/hardware/custom_gpu_form.h"

#include <QDialog>

#include <array>
#include <map>
#include <optional>
#include <string>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

class CustomGpuDialog : public QDialog {
    Q_OBJECT
public:
    explicit CustomGpuDialog(QWidget* parent = nullptr);

    /// The part the fields describe; nullopt while a field is invalid.
    std::optional<napkin::GpuSpec> gpu() const { return m_check.gpu; }
    /// The field's input box: "name", "memory", "bandwidth", "tdp", or a peak ("fp32" … "fp8").
    QLineEdit* field(const std::string& name) const;
    /// The message shown under that field; empty when it is valid.
    QString errorText(const std::string& name) const;
    QPushButton* addButton() const { return m_add; }
    QPushButton* saveButton() const { return m_save; }
    /// Writes the part as a catalog file (QSaveFile); an error message for the user, or empty.
    QString saveTo(const QString& path) const;

private:
    void check();
    void chooseFileAndSave();

    std::map<std::string, QLineEdit*> m_fields;
    std::map<std::string, QLabel*> m_errors;
    napkin::CustomGpuCheck m_check;
    QPushButton* m_add = nullptr;
    QPushButton* m_save = nullptr;
};
