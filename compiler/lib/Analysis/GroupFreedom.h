// Whether a kernel can tell one shape of its work-groups from another: a
// kernel that never asks for its group (no local or group id, local size,
// group count, sub-group query, barrier or collective, no __local memory,
// no device-side enqueue or indirect call, no atomic or fence narrower than
// the device) computes the same results under any shape of group, since
// what its work-items share is global memory at device scope.
// GroupShapePass marks such kernels kGroupFreeAttr.
#pragma once

namespace llvm {
class Function;
}

namespace lockstep::compiler {

// Whether F's results are the same under any shape of group. Functions F
// calls cannot ask for their group (KernelWrapperPass inlined every one
// that does) but may enqueue kernels or narrow atomics: they are read too.
bool isGroupShapeFree(const llvm::Function &F);

}  // namespace lockstep::compiler
