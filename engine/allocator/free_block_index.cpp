#include "engine/allocator/free_block_index.h"

#include <algorithm>
#include <iterator>

namespace napkin {
namespace {

bool below(const FreeBlockKey& k, std::uint64_t size, std::uint64_t address) {
    return k.size != size ? k.size < size : k.address < address;
}

} // namespace

FreeBlockIndex::FreeBlockIndex()
    : runs_(1) {
    runs_.front().reserve(32);
}

std::size_t FreeBlockIndex::runFor(std::uint64_t size, std::uint64_t address) const {
    const auto run =
        std::partition_point(runs_.begin(), runs_.end(), [&](const std::vector<FreeBlockKey>& r) {
            return below(r.back(), size, address);
        });
    return static_cast<std::size_t>(run - runs_.begin());
}

FreeBlockIndex::Position FreeBlockIndex::lowerBound(std::uint64_t size, std::uint64_t address) const {
    if (empty())
        return end();
    const std::size_t r = runFor(size, address);
    if (r == runs_.size())
        return end();
    const std::vector<FreeBlockKey>& run = runs_[r];
    const auto at = std::partition_point(run.begin(), run.end(),
                                         [&](const FreeBlockKey& k) { return below(k, size, address); });
    return {r, static_cast<std::size_t>(at - run.begin())};
}

bool FreeBlockIndex::insert(const FreeBlockKey& key) {
    if (empty()) {
        runs_.front().push_back(key);
        return true;
    }
    const std::size_t r = std::min(runFor(key.size, key.address), runs_.size() - 1);
    std::vector<FreeBlockKey>& run = runs_[r];
    const auto at = std::partition_point(
        run.begin(), run.end(), [&](const FreeBlockKey& k) { return below(k, key.size, key.address); });
    if (at != run.end() && at->size == key.size && at->address == key.address)
        return false;
    run.insert(at, key);
    if (run.size() > 2 * kFreeBlockChunk) { // split: the upper half becomes the next run
        std::vector<FreeBlockKey> upper;
        upper.reserve(2 * kFreeBlockChunk + 1);
        const auto half = run.begin() + static_cast<std::ptrdiff_t>(kFreeBlockChunk);
        upper.assign(std::make_move_iterator(half), std::make_move_iterator(run.end()));
        run.erase(half, run.end());
        runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(r + 1), std::move(upper));
    }
    return true;
}

void FreeBlockIndex::eraseAt(Position p) {
    std::vector<FreeBlockKey>& run = runs_[p.run];
    run.erase(run.begin() + static_cast<std::ptrdiff_t>(p.index));
    if (run.empty() && runs_.size() > 1)
        runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(p.run));
}

bool FreeBlockIndex::erase(std::uint64_t size, std::uint64_t address) {
    const Position p = lowerBound(size, address);
    if (p == end())
        return false;
    const FreeBlockKey& k = at(p);
    if (k.size != size || k.address != address)
        return false;
    eraseAt(p);
    return true;
}

} // namespace napkin
