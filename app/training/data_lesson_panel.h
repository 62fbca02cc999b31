// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The data-loading lesson: a flat token file memory-mapped, get_batch's B random windows of L tokens,
// the file's size next to the bytes actually resident (mincore), and the lecture's 2.8 TB by accounting.
#include "engine/scenario/scenario.h"

#include <QWidget>

class TaskRunner;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

class DataLessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataLessonPanel(QWidget* parent = nullptr);

    QLineEdit* pathEdit() const { return m_path; }
    QTableWidget* batchTable() const { return m_table; }
    QLabel* facts() const { return m_facts; }
    /// Writes a demo file of `megabytes` MB at the path, off the GUI thread, then draws a batch.
    void generate(int megabytes);
    /// Maps the file and draws the batch(es), off the GUI thread.
    void draw();
    /// The demo file's path in this machine's cache folder: the path a fresh panel shows.
    static QString demoPath();
    /// The controls for a scenario file (an empty path for the demo file); and back (page_scenarios.cpp).
    /// A token file that does not exist is a warning and stays typed in; an existing one is drawn
    /// from, off the GUI thread, if the controls moved.
    napkin::TrainingScenario::Data scenario() const;
    QStringList applyScenario(const napkin::TrainingScenario::Data& scenario);

signals:
    void updated();

private:
    void browse();

    QLineEdit* m_path;
    QComboBox* m_dtype;
    QSpinBox* m_megabytes;
    QSpinBox* m_batch;
    QSpinBox* m_context;
    QSpinBox* m_batches;
    QSpinBox* m_seed;
    QPushButton* m_generate;
    QPushButton* m_draw;
    QLabel* m_facts;
    QTableWidget* m_table;
    TaskRunner* m_runner;
};
