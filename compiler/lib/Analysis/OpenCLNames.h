// The names of OpenCL C's synchronization functions as Clang mangles them:
// barriers and the work-group and sub-group collective functions, where the
// work-group passes cut the code. (parseCollective, declared in Internal.h
// beside CollectiveOp, reads the collective functions' names.)
#pragma once

#include <llvm/ADT/StringRef.h>

#include "Internal.h"

namespace llvm {
class Function;
class Instruction;
}

namespace lockstep::compiler {

// sub_group_barrier, with or without a memory scope.
bool isSubGroupBarrier(llvm::StringRef name);

// The work-item and group queries, by the function a call names
// (WorkItemBuiltinsPass lowers them; GroupShapePass asks which a kernel
// makes), and Lockstep's address-space tests; None for any other name.
enum class WorkItemQuery {
  None, WorkDim, GlobalSize, GlobalId, LocalSize, EnqueuedLocalSize, LocalId, NumGroups, GroupId,
  GlobalOffset, GlobalLinearId, LocalLinearId, IsLocalPointer, IsPrivatePointer,
  SubGroupId, SubGroupLocalId, SubGroupSize, MaxSubGroupSize, NumSubGroups, EnqueuedNumSubGroups
};
WorkItemQuery workItemQuery(llvm::StringRef name);
// Whether a query's answer is the same whatever the shape of the work-items'
// groups: the global id, size and offset, the linear global id, work_dim.
bool isGroupShapeFreeQuery(WorkItemQuery query);

// A call of barrier, work_group_barrier or sub_group_barrier.
bool isBarrierCall(const llvm::Instruction &I);

// Whether F calls a barrier or a work-group or sub-group collective: its
// body has more than one region.
bool hasBarrierOrCollective(const llvm::Function &F);

// A function that the work-group passes define rather than the builtins:
// the work-item and group queries (get_local_id, get_group_id, ...), the
// barriers, the work-group and sub-group functions, Lockstep's address-space
// tests (__lockstep_is_local_pointer, __lockstep_is_private_pointer) and the
// local-id placeholder. A function that calls one is inlined into its kernel
// (KernelWrapperPass); a declaration of one is not an undefined function
// (checkUndefined).
bool isWorkGroupFunctionName(llvm::StringRef name);

// The call standing for get_local_id until the work-item loops give each
// work-item its ids (kLocalIdPlaceholder).
bool isLocalIdPlaceholder(const llvm::Instruction &I);

}  // namespace lockstep::compiler
