// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A part the user defined ("Custom GPU…"), as a catalog file that napkin-cli's --gpu-catalog reads: what
// Edit ▸ Copy as command and an exported page's `command` name, so that their line reproduces the page
// whether or not the user ever saved the part. The file lives in the app's data folder and is named by a
// digest of its text: a later part with the same name is another file, and an earlier line still reads
// the part it was copied with.
#include "engine/hardware/gpu_catalog.h"

#include <QString>

struct UserGpuCatalogFile {
    QString path;  ///< where the part is; empty when it could not be written
    QString error; ///< why not, for the user; empty when written
};

/// The file holding `gpu` alone (AppDataLocation/gpu-catalogs/ID-DIGEST.json), written (again) each time:
/// a file someone edited since is put back as the line expects it.
UserGpuCatalogFile userGpuCatalogFile(const napkin::GpuSpec& gpu);
