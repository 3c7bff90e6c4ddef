// Pipes (__opencl_c_pipes): the functions Clang 19 lowers the pipe built-ins
// to (read_pipe -> __read_pipe_2 or __read_pipe_4, reserve_read_pipe ->
// __reserve_read_pipe, get_pipe_num_packets -> __get_pipe_num_packets_ro or
// _wo, ...), each taking the pipe, its operands, and the packet's size and
// alignment. llvm-spirv-15 reverse-translates SPIR-V's pipe instructions to
// the same calls.
//
// A pipe is the address of its storage (lockstep/compiler/PipeAbi.h) and a
// reserve_id_t 64 bits: ImageTypeLoweringPass gives the pipe and reserve id
// types that representation and folds the accessors declared here
// (__lockstep_pipe_ro/_wo, __lockstep_reserve_id, __lockstep_reserve_bits)
// into their argument. The work on the pipe is in C++
// (compiler/lib/PipeRuntime.cpp, __lockstep_pipe_*, given to the JIT by
// address); only the work-group and sub-group forms are more than a call:
// they are collectives, written with the work-group and sub-group functions
// the work-group passes already lower (a reduction hands the one
// reservation the first work-item made to every work-item of the group; a
// barrier orders every work-item's packets before the first commits them).
#include "ls_common.h"

#define LS_PIPE_RO read_only pipe uchar
#define LS_PIPE_WO write_only pipe uchar

// The accessors: defined nowhere, folded by ImageTypeLoweringPass.
__global void *__lockstep_pipe_ro(LS_PIPE_RO p);
__global void *__lockstep_pipe_wo(LS_PIPE_WO p);
reserve_id_t __lockstep_reserve_id(ulong bits);
ulong __lockstep_reserve_bits(reserve_id_t id);

// compiler/lib/PipeRuntime.cpp. `write` is 1 for the writing side.
int __lockstep_pipe_read(__global void *storage, void *packet, uint size);
int __lockstep_pipe_write(__global void *storage, const void *packet, uint size);
ulong __lockstep_pipe_reserve(__global void *storage, uint count, int write);
int __lockstep_pipe_access(__global void *storage, ulong id, uint index, void *packet, uint size, int write);
void __lockstep_pipe_commit(__global void *storage, ulong id, int write);
uint __lockstep_pipe_num_packets(__global void *storage);
uint __lockstep_pipe_max_packets(__global void *storage);

// A reservation id no reservation has: CLK_NULL_RESERVE_ID's bits.
#define LS_NULL_RESERVE_ID ((ulong)-1)

LS_OVERLOAD bool is_valid_reserve_id(reserve_id_t id) {
  ulong bits = __lockstep_reserve_bits(id);
  return bits != 0 && bits != LS_NULL_RESERVE_ID;
}

// --- one work-item ---
int __read_pipe_2(LS_PIPE_RO p, void *packet, uint size, uint align) {
  return __lockstep_pipe_read(__lockstep_pipe_ro(p), packet, size);
}
int __write_pipe_2(LS_PIPE_WO p, const void *packet, uint size, uint align) {
  return __lockstep_pipe_write(__lockstep_pipe_wo(p), packet, size);
}
int __read_pipe_4(LS_PIPE_RO p, reserve_id_t id, uint index, void *packet, uint size, uint align) {
  return __lockstep_pipe_access(__lockstep_pipe_ro(p), __lockstep_reserve_bits(id), index, packet, size, 0);
}
int __write_pipe_4(LS_PIPE_WO p, reserve_id_t id, uint index, const void *packet, uint size, uint align) {
  return __lockstep_pipe_access(__lockstep_pipe_wo(p), __lockstep_reserve_bits(id), index, (void *)packet, size, 1);
}
reserve_id_t __reserve_read_pipe(LS_PIPE_RO p, uint count, uint size, uint align) {
  return __lockstep_reserve_id(__lockstep_pipe_reserve(__lockstep_pipe_ro(p), count, 0));
}
reserve_id_t __reserve_write_pipe(LS_PIPE_WO p, uint count, uint size, uint align) {
  return __lockstep_reserve_id(__lockstep_pipe_reserve(__lockstep_pipe_wo(p), count, 1));
}
void __commit_read_pipe(LS_PIPE_RO p, reserve_id_t id, uint size, uint align) {
  __lockstep_pipe_commit(__lockstep_pipe_ro(p), __lockstep_reserve_bits(id), 0);
}
void __commit_write_pipe(LS_PIPE_WO p, reserve_id_t id, uint size, uint align) {
  __lockstep_pipe_commit(__lockstep_pipe_wo(p), __lockstep_reserve_bits(id), 1);
}

// --- queries ---
uint __get_pipe_num_packets_ro(LS_PIPE_RO p, uint size, uint align) {
  return __lockstep_pipe_num_packets(__lockstep_pipe_ro(p));
}
uint __get_pipe_num_packets_wo(LS_PIPE_WO p, uint size, uint align) {
  return __lockstep_pipe_num_packets(__lockstep_pipe_wo(p));
}
uint __get_pipe_max_packets_ro(LS_PIPE_RO p, uint size, uint align) {
  return __lockstep_pipe_max_packets(__lockstep_pipe_ro(p));
}
uint __get_pipe_max_packets_wo(LS_PIPE_WO p, uint size, uint align) {
  return __lockstep_pipe_max_packets(__lockstep_pipe_wo(p));
}

// --- work-group and sub-group collectives ---
// The first work-item of the group reserves; the maximum over the group
// (every other work-item gives 0) is its reservation, for all of them.
reserve_id_t __work_group_reserve_read_pipe(LS_PIPE_RO p, uint count, uint size, uint align) {
  ulong id = 0;
  if (get_local_linear_id() == 0) id = __lockstep_pipe_reserve(__lockstep_pipe_ro(p), count, 0);
  return __lockstep_reserve_id(work_group_reduce_max(id));
}
reserve_id_t __work_group_reserve_write_pipe(LS_PIPE_WO p, uint count, uint size, uint align) {
  ulong id = 0;
  if (get_local_linear_id() == 0) id = __lockstep_pipe_reserve(__lockstep_pipe_wo(p), count, 1);
  return __lockstep_reserve_id(work_group_reduce_max(id));
}
// Every work-item has read or written its packets before the first one
// commits the reservation.
void __work_group_commit_read_pipe(LS_PIPE_RO p, reserve_id_t id, uint size, uint align) {
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0) __lockstep_pipe_commit(__lockstep_pipe_ro(p), __lockstep_reserve_bits(id), 0);
}
void __work_group_commit_write_pipe(LS_PIPE_WO p, reserve_id_t id, uint size, uint align) {
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0) __lockstep_pipe_commit(__lockstep_pipe_wo(p), __lockstep_reserve_bits(id), 1);
}

reserve_id_t __sub_group_reserve_read_pipe(LS_PIPE_RO p, uint count, uint size, uint align) {
  ulong id = 0;
  if (get_sub_group_local_id() == 0) id = __lockstep_pipe_reserve(__lockstep_pipe_ro(p), count, 0);
  return __lockstep_reserve_id(sub_group_reduce_max(id));
}
reserve_id_t __sub_group_reserve_write_pipe(LS_PIPE_WO p, uint count, uint size, uint align) {
  ulong id = 0;
  if (get_sub_group_local_id() == 0) id = __lockstep_pipe_reserve(__lockstep_pipe_wo(p), count, 1);
  return __lockstep_reserve_id(sub_group_reduce_max(id));
}
void __sub_group_commit_read_pipe(LS_PIPE_RO p, reserve_id_t id, uint size, uint align) {
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0) __lockstep_pipe_commit(__lockstep_pipe_ro(p), __lockstep_reserve_bits(id), 0);
}
void __sub_group_commit_write_pipe(LS_PIPE_WO p, reserve_id_t id, uint size, uint align) {
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0) __lockstep_pipe_commit(__lockstep_pipe_wo(p), __lockstep_reserve_bits(id), 1);
}
