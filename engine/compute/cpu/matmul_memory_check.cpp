// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/matmul_memory_check.h"

#include "engine/numerics/quantity_format.h"

#include <unistd.h>

#include <stdexcept>

namespace napkin {

void requireMatmulFitsInMemory(const MatmulCase& shape) {
    const double elements = static_cast<double>(shape.m) * static_cast<double>(shape.k) +
                            static_cast<double>(shape.k) * static_cast<double>(shape.n) +
                            static_cast<double>(shape.m) * static_cast<double>(shape.n);
    const double bytes = elements * benchDtypeBytes(shape.dtype);
    const double physical =
        static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
    if (physical > 0 && bytes > physical / 2)
        throw std::runtime_error("A, B and C need " + formatBytes(bytes, ByteUnits::binary) +
                                 ", more than half of this machine's " +
                                 formatBytes(physical, ByteUnits::binary) + " of memory");
}

} // namespace napkin
