// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/caching_allocator.h"

#include <cmath>

namespace napkin {

double allocatorBlockBytes(double bytes) {
    if (!(bytes > 0))
        return 0;
    return kAllocatorMinBlockBytes * std::ceil(bytes / kAllocatorMinBlockBytes);
}

double allocatorSegmentBytes(double bytes) {
    const double size = allocatorBlockBytes(bytes); // malloc() rounds the request before sizing a segment
    if (size == 0)
        return 0;
    if (size <= kAllocatorSmallSizeBytes)
        return kAllocatorSmallBufferBytes;
    if (size < kAllocatorMinLargeAllocBytes)
        return kAllocatorLargeBufferBytes;
    return kAllocatorRoundLargeBytes * std::ceil(size / kAllocatorRoundLargeBytes);
}

double allocatorRoundingBytes(double bytes) {
    return allocatorBlockBytes(bytes) - (bytes > 0 ? bytes : 0);
}

} // namespace napkin
