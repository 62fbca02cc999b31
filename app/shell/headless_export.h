// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin --export FILE --page PAGE [--scenario FILE | --preset NAME]`: one page or chart rendered
// offscreen to PNG, SVG or PDF. Needs a QApplication (any platform; main() picks offscreen).
#include <QString>

struct CommandLine;

struct HeadlessExportResult {
    int exitCode = 0; ///< 0 written; 1 could not render or write; 2 a bad scenario file
    QString error;    ///< one line for stderr; empty on success
};

HeadlessExportResult runHeadlessExport(const CommandLine& commandLine);

/// Drops Qt's notes about the session an export runs in ("XDG_RUNTIME_DIR not set", ...): a script that
/// exports reads stderr for napkin's own errors. Every other message still goes to stderr.
void quietSessionNotes();
