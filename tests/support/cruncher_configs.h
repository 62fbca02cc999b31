// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A Cruncher training job for the trainer tests: D, L, B and the optimizer, at its default learning rate.
#include "engine/compute/cruncher_config.h"

inline napkin::CruncherConfig cruncherConfig(long d, long l, long b, napkin::OptimizerKind optimizer) {
    napkin::CruncherConfig c;
    c.dim = d;
    c.layers = l;
    c.batch = b;
    c.optimizer = optimizer;
    c.hyper.learningRate = napkin::defaultLearningRate(optimizer, d);
    return c;
}
