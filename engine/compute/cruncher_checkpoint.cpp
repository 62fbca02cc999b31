// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cruncher_checkpoint.h"

#include "engine/io/atomic_file.h"
#include "engine/io/bounded_file_read.h"
#include "engine/io/crc32.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace napkin {
namespace {

constexpr char kMagic[8] = {'N', 'A', 'P', 'K', 'C', 'R', 'U', '2'};
constexpr char kMagicPrefix[7] = {'N', 'A', 'P', 'K', 'C', 'R', 'U'}; // then the version digit
constexpr std::int64_t kMaxGeneratorText = 1 << 20;                   // mt19937_64's text is about 6.5 KB
constexpr std::size_t kHeaderBytes = sizeof kMagic + 5 * sizeof(std::int64_t) + 8 + 4 + 4;

std::vector<std::int64_t> headerOf(const CruncherConfig& c, long step) {
    return {c.dim, c.layers, c.batch, static_cast<std::int64_t>(c.optimizer), step};
}

// Reads fixed-size fields from a byte string, refusing to read past its end.
class Reader {
public:
    Reader(const std::string& bytes, const std::string& path)
        : bytes_(bytes)
        , path_(path) {}

    void read(void* into, std::size_t count) {
        if (count > bytes_.size() - at_)
            throw std::runtime_error(path_ + " is truncated");
        std::memcpy(into, bytes_.data() + at_, count);
        at_ += count;
    }
    template <typename T> T value() {
        T v{};
        read(&v, sizeof v);
        return v;
    }
    std::size_t left() const { return bytes_.size() - at_; }
    bool atEnd() const { return at_ == bytes_.size(); }
    const char* here() const { return bytes_.data() + at_; }

private:
    const std::string& bytes_;
    const std::string& path_;
    std::size_t at_ = 0;
};

// The magic, with a clear word for a napkin checkpoint of another version.
void checkMagic(const std::string& bytes, const std::string& path) {
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagicPrefix, sizeof kMagicPrefix) != 0)
        throw std::runtime_error(path + " is not a napkin Cruncher checkpoint");
    const char version = bytes[sizeof kMagicPrefix];
    if (version != kMagic[sizeof kMagicPrefix])
        throw std::runtime_error(
            path + " is a version " + std::string(1, version) +
            " Cruncher checkpoint; this Napkin reads version 2 (with a checksum): save it "
            "again with this version");
}

} // namespace

std::string checkpointRefusal(const CruncherConfig& config) {
    if (config.frozenLayers.empty())
        return {};
    return "a Cruncher checkpoint holds every layer's optimizer state and does not record frozen layers; "
           "train without --freeze to save or resume";
}

void saveCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                            const CruncherCheckpoint& checkpoint) {
    if (std::string why = checkpointRefusal(config); !why.empty())
        throw std::runtime_error(why);
    std::string payload;
    for (const std::vector<float>& t : checkpoint.tensors)
        payload.append(reinterpret_cast<const char*>(t.data()), t.size() * sizeof(float));
    std::ostringstream generator;
    generator << checkpoint.dataGenerator;
    const std::string text = generator.str();
    const auto length = static_cast<std::int64_t>(text.size());
    payload.append(reinterpret_cast<const char*>(&length), sizeof length);
    payload += text;

    AtomicFile file(path);
    file.write(kMagic, sizeof kMagic);
    for (std::int64_t v : headerOf(config, checkpoint.step))
        file.write(&v, sizeof v);
    const auto payloadBytes = static_cast<std::uint64_t>(payload.size());
    file.write(&payloadBytes, sizeof payloadBytes);
    const std::uint32_t crc = crc32(payload.data(), payload.size()), reserved = 0;
    file.write(&crc, sizeof crc);
    file.write(&reserved, sizeof reserved);
    file.write(payload);
    file.commit();
}

CruncherCheckpoint loadCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                                          std::span<const std::size_t> tensorSizes) {
    if (std::string why = checkpointRefusal(config); !why.empty())
        throw std::runtime_error(path + ": " + why);
    // The largest file this configuration's checkpoint can be: nothing larger is read at all.
    std::uint64_t tensorBytes = 0;
    for (std::size_t size : tensorSizes)
        tensorBytes += size * sizeof(float);
    const std::uint64_t maxBytes = kHeaderBytes + tensorBytes + 8 + kMaxGeneratorText;
    const BoundedFileRead file = readBoundedFile(path, maxBytes);
    if (!file.ok())
        throw std::runtime_error("cannot read checkpoint: " + file.error);
    const std::string& bytes = file.bytes;
    checkMagic(bytes, path);
    Reader reader(bytes, path);
    char magic[sizeof kMagic];
    reader.read(magic, sizeof magic);

    const std::vector<std::int64_t> expected = headerOf(config, 0);
    CruncherCheckpoint checkpoint;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto v = reader.value<std::int64_t>();
        if (i + 1 < expected.size() && v != expected[i])
            throw std::runtime_error(path + " was saved for another Cruncher configuration");
        if (i + 1 == expected.size()) {
            if (v < 0 || v > kMaxCheckpointStep)
                throw std::runtime_error(path + " records step " + std::to_string(v) + ", outside 0 to 2^53");
            checkpoint.step = static_cast<long>(v);
        }
    }
    const auto payloadBytes = reader.value<std::uint64_t>();
    const auto crc = reader.value<std::uint32_t>();
    reader.value<std::uint32_t>(); // reserved
    if (payloadBytes > reader.left())
        throw std::runtime_error(path + " is truncated: its payload is " + std::to_string(payloadBytes) +
                                 " bytes, " + std::to_string(reader.left()) + " are there");
    if (payloadBytes < reader.left())
        throw std::runtime_error(path + " has bytes after the checkpoint's end");
    if (crc32(reader.here(), reader.left()) != crc)
        throw std::runtime_error(path + " is damaged: its payload does not match its CRC-32 checksum");

    for (std::size_t size : tensorSizes) {
        std::vector<float> tensor(size);
        reader.read(tensor.data(), size * sizeof(float));
        for (std::size_t i = 0; i < size; ++i)
            if (!std::isfinite(tensor[i]))
                throw std::runtime_error(path + " holds a value that is not a finite number (tensor " +
                                         std::to_string(checkpoint.tensors.size()) + ", element " +
                                         std::to_string(i) + ")");
        checkpoint.tensors.push_back(std::move(tensor));
    }
    const auto length = reader.value<std::int64_t>();
    if (length <= 0 || length > kMaxGeneratorText)
        throw std::runtime_error(path + " is truncated");
    std::string text(static_cast<std::size_t>(length), '\0');
    reader.read(text.data(), text.size());
    std::istringstream generator(text);
    generator >> checkpoint.dataGenerator;
    if (!generator)
        throw std::runtime_error(path + " is truncated");
    if (!reader.atEnd())
        throw std::runtime_error(path + " has bytes after the checkpoint's end");
    return checkpoint;
}

} // namespace napkin
