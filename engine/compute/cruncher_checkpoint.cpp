#include "engine/compute/cruncher_checkpoint.h"

#include "engine/io/atomic_file.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace napkin {
namespace {

constexpr char kMagic[8] = {'N', 'A', 'P', 'K', 'C', 'R', 'U', '1'};
constexpr std::int64_t kMaxGeneratorText = 1 << 20; // mt19937_64's text is about 6.5 KB

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
    std::int64_t int64() {
        std::int64_t v = 0;
        read(&v, sizeof v);
        return v;
    }
    bool atEnd() const { return at_ == bytes_.size(); }

private:
    const std::string& bytes_;
    const std::string& path_;
    std::size_t at_ = 0;
};

} // namespace

void saveCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                            const CruncherCheckpoint& checkpoint) {
    AtomicFile file(path);
    file.write(kMagic, sizeof kMagic);
    for (std::int64_t v : headerOf(config, checkpoint.step))
        file.write(&v, sizeof v);
    for (const std::vector<float>& t : checkpoint.tensors)
        file.write(t.data(), t.size() * sizeof(float));
    std::ostringstream generator;
    generator << checkpoint.dataGenerator;
    const std::string text = generator.str();
    const auto length = static_cast<std::int64_t>(text.size());
    file.write(&length, sizeof length);
    file.write(text);
    file.commit();
}

CruncherCheckpoint loadCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                                          std::span<const std::size_t> tensorSizes) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read checkpoint " + path);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        throw std::runtime_error("cannot read checkpoint " + path);
    Reader reader(bytes, path);

    char magic[sizeof kMagic] = {};
    if (bytes.size() >= sizeof magic)
        reader.read(magic, sizeof magic);
    if (std::memcmp(magic, kMagic, sizeof kMagic) != 0)
        throw std::runtime_error(path + " is not a napkin Cruncher checkpoint");
    const std::vector<std::int64_t> expected = headerOf(config, 0);
    CruncherCheckpoint checkpoint;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::int64_t v = reader.int64();
        if (i + 1 < expected.size() && v != expected[i])
            throw std::runtime_error(path + " was saved for another Cruncher configuration");
        if (i + 1 == expected.size()) {
            if (v < 0)
                throw std::runtime_error(path + " has a negative step count");
            checkpoint.step = static_cast<long>(v);
        }
    }
    for (std::size_t size : tensorSizes) {
        std::vector<float> tensor(size);
        reader.read(tensor.data(), size * sizeof(float));
        checkpoint.tensors.push_back(std::move(tensor));
    }
    const std::int64_t length = reader.int64();
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
