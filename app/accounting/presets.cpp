// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/presets.h"

#include "engine/models/model_zoo.h"
#include "engine/accounting/preset_groups.h"
#include "engine/accounting/setup_presets.h"
#include "engine/numerics/quantity_format.h"
#include "engine/scenario/accounting_fields.h"
#include "widgets/controls/grouped_combo_box.h"

#include <QComboBox>
#include <QCoreApplication>

using namespace napkin;

// The engine's table of whole setups (the one napkin-cli's --preset reads), in Qt's strings.
const std::vector<Preset>& builtInPresets() {
    static const std::vector<Preset> presets = [] {
        std::vector<Preset> list;
        for (const SetupPreset& p : setupPresets())
            list.push_back({QString::fromUtf8(p.id.data(), qsizetype(p.id.size())),
                            QString::fromUtf8(p.name.data(), qsizetype(p.name.size())),
                            QString::fromUtf8(p.expectation.data(), qsizetype(p.expectation.size())),
                            p.input});
        return list;
    }();
    return presets;
}

// The zoo's configs, each read through the engine's config reader (a shipped config always reads).
const std::vector<Preset>& modelPresets() {
    static const std::vector<Preset> presets = [] {
        std::vector<Preset> list;
        for (const ZooModel& z : zooModels()) {
            const HfConfigResult read = zooModelConfig(z);
            if (!read.ok())
                continue;
            Preset p{QString::fromUtf8(z.id.data(), qsizetype(z.id.size())),
                     QCoreApplication::translate("Preset", "%1 · config.json")
                         .arg(QString::fromUtf8(z.name.data(), qsizetype(z.name.size()))),
                     QCoreApplication::translate("Preset", "%1 parameters")
                         .arg(QString::fromStdString(formatNumber(z.publishedParameters))),
                     AccountingScenario{}.input, true};
            p.input.model = read.config->model;
            list.push_back(std::move(p));
        }
        return list;
    }();
    return presets;
}

const Preset* findPreset(const QString& idOrName) {
    for (const auto* list : {&builtInPresets(), &modelPresets()})
        for (const Preset& p : *list)
            if (p.id.compare(idOrName, Qt::CaseInsensitive) == 0 ||
                p.name.compare(idOrName, Qt::CaseInsensitive) == 0)
                return &p;
    return nullptr;
}

QString presetIdList() {
    return QString::fromStdString(setupPresetIds() + ", " + zooModelIds());
}

void addPresetEntries(QComboBox* box) {
    for (const PresetGroup& group : accountingPresetGroups()) {
        addGroupHeader(box, QString::fromUtf8(group.family.data(), qsizetype(group.family.size())));
        for (const PresetEntry& entry : group.entries) {
            const Preset* p = findPreset(QString::fromUtf8(entry.id.data(), qsizetype(entry.id.size())));
            if (!p)
                continue;
            box->addItem(p->name, p->id);
            box->setItemData(
                box->count() - 1,
                p->modelOnly ? QCoreApplication::translate("Preset", "Sets the model from its config.json "
                                                                     "(%1); the training and hardware stay.")
                                   .arg(p->expectation)
                             : p->expectation,
                Qt::ToolTipRole);
        }
    }
}

napkin::AccountingScenario withPreset(const napkin::AccountingScenario& fields, const Preset& preset) {
    napkin::AccountingScenario s =
        preset.modelOnly ? withModel(fields, preset.input.model) : withInput(fields, preset.input);
    s.preset = preset.id.toStdString();
    return s;
}
