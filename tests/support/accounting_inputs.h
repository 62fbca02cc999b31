// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Accounting inputs for the lecture's models, shared by the accounting tests.
#include "engine/accounting/accounting.h"

#include <QtGlobal>

inline napkin::AccountingInput cruncherInput(double dim, double layers, double batch,
                                             napkin::OptimizerKind optimizer) {
    napkin::AccountingInput in;
    in.model.kind = napkin::ModelKind::cruncher;
    in.model.dim = dim;
    in.model.layers = layers;
    in.batch = batch;
    in.optimizer = optimizer;
    return in;
}

/// GPT-2 style (tied embeddings, learned positions), MLP width 4·d.
inline napkin::AccountingInput gptInput(double d, double layers, double heads, double vocab, double seq,
                                        double batch = 1) {
    napkin::AccountingInput in;
    in.model.kind = napkin::ModelKind::transformer;
    in.model.dModel = d;
    in.model.layers = layers;
    in.model.heads = heads;
    in.model.vocab = vocab;
    in.model.seq = seq;
    in.batch = batch;
    return in;
}

/// account() on the input's GPU; a test input that does not validate stops the test program.
inline napkin::AccountingResult accountValid(const napkin::AccountingInput& in) {
    const napkin::InputError error = napkin::validate(in);
    if (!error.ok())
        qFatal("invalid test input: %s: %s", error.field.c_str(), error.message.c_str());
    return napkin::account(in, *napkin::GpuCatalog::builtIn().find(in.gpu));
}
