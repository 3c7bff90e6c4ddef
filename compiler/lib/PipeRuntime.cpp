// The pipe functions kernels call (through builtins/lib/pipe.cl), given to
// the JIT by address (Jit.cpp). A pipe is a ring of packet slots behind a
// header of four counters (lockstep/compiler/PipeAbi.h):
//
//   readFreed <= readReserved <= writeVisible <= writeReserved <= readFreed + capacity
//
// Writers reserve slots at writeReserved; a reservation becomes visible to
// readers (writeVisible passes it) once it and every reservation before it
// are committed, so packets come out in reservation order whatever order the
// commits came in. Readers reserve visible packets at readReserved, and the
// slots return to writers (readFreed) the same way. Each side keeps, per
// slot, the size of the committed reservation that starts there (the
// marks), so that the visible prefix can advance over reservations that
// were committed early.
//
// The counters and marks change under a spin lock in the header, held for a
// few dozen instructions (the unreserved read_pipe and write_pipe copy their
// one packet under it too); packets of a reservation are copied without it,
// since the slots are the reservation's alone until it is committed. Taking
// and releasing the lock orders a writer's packets before the commit that
// publishes them, and that commit before the reservation of a reader who
// copies them.
#include <sched.h>

#include <atomic>
#include <cstring>

#include "Internal.h"
#include "ThreadHandOff.h"
#include "lockstep/compiler/PipeAbi.h"

namespace lockstep::compiler {
namespace {

constexpr uint64_t kNoReservation = ~uint64_t{0};  // CLK_NULL_RESERVE_ID

class PipeLock {
 public:
  explicit PipeLock(lockstep_pipe *pipe) : address_(&pipe->lock), word_(pipe->lock) {
    unsigned spins = 0;
    while (word_.exchange(1, std::memory_order_acquire) != 0) {
      while (word_.load(std::memory_order_relaxed) != 0) {
        // The holder may be a thread the OS took off its core: after a
        // while, give the core away rather than spin through its slice.
        if (++spins < 256) __builtin_ia32_pause();
        else sched_yield();
      }
    }
    // This library is not instrumented: ThreadSanitizer sees the lock
    // through these marks (ThreadHandOff.h).
    takeOver(address_);
  }
  ~PipeLock() {
    handOff(address_);
    word_.store(0, std::memory_order_release);
  }
  PipeLock(const PipeLock &) = delete;
  PipeLock &operator=(const PipeLock &) = delete;

 private:
  const uint32_t *address_;
  std::atomic_ref<uint32_t> word_;
};

uint32_t *writeMarks(lockstep_pipe *pipe) { return reinterpret_cast<uint32_t *>(pipe + 1); }
uint32_t *readMarks(lockstep_pipe *pipe) { return writeMarks(pipe) + pipe->capacity; }
char *packet(lockstep_pipe *pipe, uint64_t slot) {
  return reinterpret_cast<char *>(pipe) + pipe->packetsOffset + slot * pipe->packetSize;
}

// Moves `visible` over the committed reservations that follow it (their
// marks), up to `reserved`. Under the lock.
void advance(lockstep_pipe *pipe, uint32_t *marks, uint64_t &visible, uint64_t reserved) {
  while (visible < reserved) {
    uint32_t &mark = marks[visible % pipe->capacity];
    if (mark == 0) return;
    visible += mark;
    mark = 0;
  }
}

// A packet's bytes: the pipe's packet size, or the kernel's type if smaller
// (the spec leaves a mismatch undefined; neither side is overrun).
size_t copyBytes(const lockstep_pipe *pipe, uint32_t size) {
  return size < pipe->packetSize ? size : pipe->packetSize;
}

// A reservation of this pipe: ids are only made by pipeReserve, but a
// kernel may pass any bits it stored (reserve_id_t lives in memory too).
bool isReservation(const lockstep_pipe *pipe, uint64_t id) {
  return id != kNoReservation && reserveCount(id) != 0 && reserveCount(id) <= pipe->capacity &&
         reserveSlot(id) < pipe->capacity;
}

}  // namespace

int32_t pipeRead(void *storage, void *data, uint32_t size) {
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  PipeLock lock(pipe);
  if (pipe->readReserved == pipe->writeVisible) return -1;  // empty
  uint64_t slot = pipe->readReserved++ % pipe->capacity;
  std::memcpy(data, packet(pipe, slot), copyBytes(pipe, size));
  readMarks(pipe)[slot] = 1;
  advance(pipe, readMarks(pipe), pipe->readFreed, pipe->readReserved);
  return 0;
}

int32_t pipeWrite(void *storage, const void *data, uint32_t size) {
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  PipeLock lock(pipe);
  if (pipe->writeReserved - pipe->readFreed >= pipe->capacity) return -1;  // full
  uint64_t slot = pipe->writeReserved++ % pipe->capacity;
  std::memcpy(packet(pipe, slot), data, copyBytes(pipe, size));
  writeMarks(pipe)[slot] = 1;
  advance(pipe, writeMarks(pipe), pipe->writeVisible, pipe->writeReserved);
  return 0;
}

uint64_t pipeReserve(void *storage, uint32_t count, int32_t write) {
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  if (count == 0 || count > pipe->capacity) return kNoReservation;
  PipeLock lock(pipe);
  uint64_t &next = write ? pipe->writeReserved : pipe->readReserved;
  // Writers need free slots, readers visible packets.
  uint64_t available = write ? pipe->capacity - (pipe->writeReserved - pipe->readFreed)
                             : pipe->writeVisible - pipe->readReserved;
  if (available < count) return kNoReservation;
  uint64_t first = next % pipe->capacity;
  next += count;
  return reserveId(count, uint32_t(first));
}

int32_t pipeAccess(void *storage, uint64_t id, uint32_t index, void *data, uint32_t size, int32_t write) {
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  if (!isReservation(pipe, id) || index >= reserveCount(id)) return -1;
  uint64_t slot = (uint64_t(reserveSlot(id)) + index) % pipe->capacity;
  if (write) std::memcpy(packet(pipe, slot), data, copyBytes(pipe, size));
  else std::memcpy(data, packet(pipe, slot), copyBytes(pipe, size));
  return 0;
}

void pipeCommit(void *storage, uint64_t id, int32_t write) {
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  if (!isReservation(pipe, id)) return;
  PipeLock lock(pipe);
  uint32_t *marks = write ? writeMarks(pipe) : readMarks(pipe);
  marks[reserveSlot(id)] = reserveCount(id);
  if (write) advance(pipe, marks, pipe->writeVisible, pipe->writeReserved);
  else advance(pipe, marks, pipe->readFreed, pipe->readReserved);
}

// Packets written and not yet reserved by a reader.
uint32_t pipeNumPackets(void *storage) {
  auto *pipe = static_cast<lockstep_pipe *>(storage);
  PipeLock lock(pipe);
  return uint32_t(pipe->writeVisible - pipe->readReserved);
}

uint32_t pipeMaxPackets(void *storage) { return static_cast<lockstep_pipe *>(storage)->capacity; }

}  // namespace lockstep::compiler
