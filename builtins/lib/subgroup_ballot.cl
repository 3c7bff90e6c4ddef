// cl_khr_subgroup_ballot (OpenCL C 3.0, "Built-in Sub-Group Ballot
// Functions"): the helpers that read only the caller's own bitfield and its
// place in the sub-group. The functions that exchange data between work-items
// (sub_group_ballot, sub_group_non_uniform_broadcast, sub_group_broadcast_first)
// are formed by the compiler (WorkGroupLoops) and must not be defined here.
//
// A ballot is 128 bits: bit i % 32 of component i / 32 stands for sub-group
// local id i. The count and the searches only look at the bits below
// get_max_sub_group_size(), as the spec words them; the scans look at the bits
// up to this work-item's own id.
#include "ls_common.h"

// The bits [0, n) of a ballot, n <= 128.
LS_HELPER uint4 ls_bits_below(uint n) {
  int4 inComponent = clamp((int4)(int)n - (int4)(0, 32, 64, 96), 0, 32);
  uint4 partial = ((uint4)1u << as_uint4(inComponent & 31)) - 1u;
  return select(partial, (uint4)~0u, inComponent == 32);
}

LS_HELPER uint ls_count(uint4 bits) {
  uint4 counts = popcount(bits);
  return counts.x + counts.y + counts.z + counts.w;
}

LS_HELPER uint4 ls_bits_of_sub_group(uint4 value) {
  return value & ls_bits_below(get_max_sub_group_size());
}

LS_OVERLOAD int sub_group_ballot_bit_extract(uint4 value, uint index) {
  // Indices of 128 and up are undefined behavior; masking keeps them in bounds.
  return (int)((value[(index >> 5) & 3] >> (index & 31)) & 1u);
}

LS_OVERLOAD int sub_group_inverse_ballot(uint4 value) {
  return sub_group_ballot_bit_extract(value, get_sub_group_local_id());
}

LS_OVERLOAD uint sub_group_ballot_bit_count(uint4 value) {
  return ls_count(ls_bits_of_sub_group(value));
}

LS_OVERLOAD uint sub_group_ballot_inclusive_scan(uint4 value) {
  return ls_count(value & ls_bits_below(get_sub_group_local_id() + 1));
}

LS_OVERLOAD uint sub_group_ballot_exclusive_scan(uint4 value) {
  return ls_count(value & ls_bits_below(get_sub_group_local_id()));
}

// With no bit set the result is undefined; these return 128 (lsb) and
// 0xffffffff (msb) then.
LS_OVERLOAD uint sub_group_ballot_find_lsb(uint4 value) {
  uint4 bits = ls_bits_of_sub_group(value);
  uint4 lowest = (uint4)(0, 32, 64, 96) + ctz(bits);  // ctz(0) is 32
  return bits.x ? lowest.x : bits.y ? lowest.y : bits.z ? lowest.z : lowest.w;
}

LS_OVERLOAD uint sub_group_ballot_find_msb(uint4 value) {
  uint4 bits = ls_bits_of_sub_group(value);
  uint4 highest = (uint4)(31, 63, 95, 127) - clz(bits);  // clz(0) is 32
  return bits.w ? highest.w : bits.z ? highest.z : bits.y ? highest.y : highest.x;
}

// The ge and gt masks stop below the maximum sub-group size, the le and lt
// masks need no bound: they end at this work-item's id.
LS_OVERLOAD uint4 get_sub_group_eq_mask(void) {
  uint id = get_sub_group_local_id();
  return ls_bits_below(id + 1) & ~ls_bits_below(id);
}

LS_OVERLOAD uint4 get_sub_group_ge_mask(void) {
  return ls_bits_below(get_max_sub_group_size()) & ~ls_bits_below(get_sub_group_local_id());
}

LS_OVERLOAD uint4 get_sub_group_gt_mask(void) {
  return ls_bits_below(get_max_sub_group_size()) & ~ls_bits_below(get_sub_group_local_id() + 1);
}

LS_OVERLOAD uint4 get_sub_group_le_mask(void) { return ls_bits_below(get_sub_group_local_id() + 1); }

LS_OVERLOAD uint4 get_sub_group_lt_mask(void) { return ls_bits_below(get_sub_group_local_id()); }
