// The layout of a pipe's storage (OpenCL 2.x/3.0 pipes, __opencl_c_pipes),
// shared by the runtime, which creates it (clCreatePipe), and the pipe
// functions kernels call (compiler/lib/PipeRuntime.cpp, reached through
// builtins/lib/pipe.cl). A kernel's pipe argument is the address of the
// header; docs/pipes.md says how the counters move.
//
//   [lockstep_pipe header][uint32 writeMarks[capacity]][uint32 readMarks[capacity]]
//   [packets: capacity x packetSize, from packetsOffset]
//
// The four counters only grow (64 bits never wrap in practice); a packet's
// slot is its counter modulo capacity. Every field but the packets is read
// and written under `lock`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lockstep::compiler {

struct lockstep_pipe {
  uint32_t lock;          // 0 free, 1 held (a spin lock)
  uint32_t packetSize;    // CL_PIPE_PACKET_SIZE
  uint32_t capacity;      // CL_PIPE_MAX_PACKETS
  uint32_t reserved0;
  uint64_t packetsOffset;  // bytes from the header to packet slot 0
  uint64_t writeReserved;  // packets handed to writers so far
  uint64_t writeVisible;   // of those, the committed prefix readers may take
  uint64_t readReserved;   // packets handed to readers so far
  uint64_t readFreed;      // of those, the committed prefix writers may reuse
};

// A reserve_id_t is 64 bits (kernels hold it as a pointer whose address
// they are, as the SPIR-V translator types it): the number of packets
// reserved (1..capacity) in the high half, the slot of the first in the
// low half. All ones (CLK_NULL_RESERVE_ID, what a failed reservation
// returns) and 0 are no reservation: is_valid_reserve_id is false.
constexpr uint64_t reserveId(uint32_t count, uint32_t firstSlot) {
  return uint64_t(count) << 32 | firstSlot;
}
constexpr uint32_t reserveCount(uint64_t id) { return uint32_t(id >> 32); }
constexpr uint32_t reserveSlot(uint64_t id) { return uint32_t(id); }

// Packets start at a multiple of 128 bytes (long16, the largest type a
// packet may hold, and what buffers promise).
constexpr uint64_t kPipePacketAlignment = 128;

constexpr uint64_t pipePacketsOffset(uint64_t capacity) {
  uint64_t marks = sizeof(lockstep_pipe) + 2 * sizeof(uint32_t) * capacity;
  return (marks + kPipePacketAlignment - 1) / kPipePacketAlignment * kPipePacketAlignment;
}

// Bytes a pipe of `capacity` packets of `packetSize` bytes occupies.
constexpr uint64_t pipeStorageBytes(uint64_t packetSize, uint64_t capacity) {
  return pipePacketsOffset(capacity) + packetSize * capacity;
}

// An empty pipe in `storage` (pipeStorageBytes(packetSize, capacity) bytes,
// aligned to kPipePacketAlignment): header and marks zero, packets as they are.
inline void initPipe(void *storage, uint32_t packetSize, uint32_t capacity) {
  std::memset(storage, 0, pipePacketsOffset(capacity));
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  pipe->packetSize = packetSize;
  pipe->capacity = capacity;
  pipe->packetsOffset = pipePacketsOffset(capacity);
}

}  // namespace lockstep::compiler
