// Name-based UUIDs (DeviceUuid.h): two 64-bit FNV-1a hashes of the name,
// each finished by a 64-bit mixer, with the version and variant bits of an
// RFC 9562 version-8 UUID.
#include "DeviceUuid.h"

#include <cstdint>
#include <fstream>
#include <string>

#include "Platform.h"

namespace lockstep::runtime::uuid {
namespace {

// Hashes the bytes fed to it into 128 bits.
class NameHash {
 public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      low_ = (low_ ^ c) * kPrime;
      high_ = (high_ ^ c) * kPrime;
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    low_ = (low_ ^ 0xff) * kPrime;
    high_ = (high_ ^ 0xff) * kPrime;
  }

  Uuid finish() const {
    Uuid id{};
    uint64_t halves[2] = {mix(low_), mix(high_ ^ low_)};
    for (int i = 0; i < 16; ++i) id[i] = cl_uchar(halves[i / 8] >> (8 * (i % 8)));
    id[6] = cl_uchar((id[6] & 0x0f) | 0x80);  // version 8
    id[8] = cl_uchar((id[8] & 0x3f) | 0x80);  // variant 10
    return id;
  }

 private:
  static constexpr uint64_t kPrime = 0x100000001b3ull;
  static uint64_t mix(uint64_t x) {  // splitmix64's finalizer
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  uint64_t low_ = 0xcbf29ce484222325ull;   // FNV-1a's offset basis
  uint64_t high_ = 0x84222325cbf29ce4ull;  // another start for the other half
};

// The OS's id of this installation (systemd's, or D-Bus's), or "".
std::string machineId() {
  for (const char *path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
    std::ifstream file(path);
    std::string id;
    if (file >> id && !id.empty()) return id;
  }
  return {};
}

}  // namespace

Uuid rootDevice(std::string_view cpuIdentity) {
  NameHash hash;
  hash.add("Lockstep CPU device");
  hash.add(cpuIdentity);
  hash.add(machineId());
  return hash.finish();
}

Uuid subDevice(const Uuid &root, const topology::CpuList &cpus) {
  NameHash hash;
  hash.add("Lockstep sub-device");
  hash.add(std::string_view(reinterpret_cast<const char *>(root.data()), root.size()));
  for (int cpu : cpus) hash.add(std::to_string(cpu));
  return hash.finish();
}

Uuid driver() {
  NameHash hash;
  hash.add("Lockstep driver");
  hash.add(version());
  return hash.finish();
}

}  // namespace lockstep::runtime::uuid
