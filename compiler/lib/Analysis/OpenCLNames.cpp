// Recognizes OpenCL C's barriers and collective functions by their mangled
// names (OpenCLNames.h).
#include "Analysis/OpenCLNames.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace lockstep::compiler {

WorkItemQuery workItemQuery(StringRef name) {
  using Query = WorkItemQuery;
  return StringSwitch<Query>(name)
      .Case("_Z12get_work_dimv", Query::WorkDim)
      .Case("_Z15get_global_sizej", Query::GlobalSize)
      .Case("_Z13get_global_idj", Query::GlobalId)
      .Case("_Z14get_local_sizej", Query::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", Query::EnqueuedLocalSize)
      .Case("_Z12get_local_idj", Query::LocalId)
      .Case("_Z14get_num_groupsj", Query::NumGroups)
      .Case("_Z12get_group_idj", Query::GroupId)
      .Case("_Z17get_global_offsetj", Query::GlobalOffset)
      .Case("_Z20get_global_linear_idv", Query::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", Query::LocalLinearId)
      .Case("__lockstep_is_local_pointer", Query::IsLocalPointer)
      .Case("__lockstep_is_private_pointer", Query::IsPrivatePointer)
      .Case("_Z16get_sub_group_idv", Query::SubGroupId)
      .Case("_Z22get_sub_group_local_idv", Query::SubGroupLocalId)
      .Case("_Z18get_sub_group_sizev", Query::SubGroupSize)
      .Case("_Z22get_max_sub_group_sizev", Query::MaxSubGroupSize)
      .Case("_Z18get_num_sub_groupsv", Query::NumSubGroups)
      .Case("_Z27get_enqueued_num_sub_groupsv", Query::EnqueuedNumSubGroups)
      .Default(Query::None);
}

bool isGroupShapeFreeQuery(WorkItemQuery query) {
  switch (query) {
    case WorkItemQuery::WorkDim:
    case WorkItemQuery::GlobalSize:
    case WorkItemQuery::GlobalId:
    case WorkItemQuery::GlobalOffset:
    case WorkItemQuery::GlobalLinearId: return true;
    default: return false;
  }
}

bool isSubGroupBarrier(StringRef name) {
  return name == "_Z17sub_group_barrierj" || name == "_Z17sub_group_barrierj12memory_scope";
}

bool isBarrierCall(const Instruction &I) {
  auto *call = dyn_cast<CallInst>(&I);
  if (!call || !call->getCalledFunction()) return false;
  StringRef name = call->getCalledFunction()->getName();
  return name == "_Z7barrierj" || name == "_Z18work_group_barrierj" ||
         name == "_Z18work_group_barrierj12memory_scope" || isSubGroupBarrier(name);
}

bool hasBarrierOrCollective(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction())
        if (isBarrierCall(I) || parseCollective(call->getCalledFunction()->getName())) return true;
  return false;
}

bool isLocalIdPlaceholder(const Instruction &I) {
  auto *call = dyn_cast<CallInst>(&I);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName() == kLocalIdPlaceholder;
}

bool isWorkGroupFunctionName(StringRef name) {
  return name.starts_with("_Z12get_") || name.starts_with("_Z13get_") || name.starts_with("_Z14get_") ||
         name.starts_with("_Z15get_") || name.starts_with("_Z17get_") || name.starts_with("_Z19get_") ||
         name.starts_with("_Z20get_") || name.starts_with("_Z23get_") || name.contains("barrier") ||
         name == "__lockstep_is_local_pointer" || name == "__lockstep_is_private_pointer" ||
         name == kLocalIdPlaceholder || name.contains("work_group_") ||
         name.contains("sub_group");
}

namespace {

bool parseArith(StringRef name, CollectiveOp &op, bool extended) {
  op.arith = StringSwitch<CollectiveOp::Arith>(name)
                 .Case("add", CollectiveOp::Add)
                 .Case("min", CollectiveOp::Min)
                 .Case("max", CollectiveOp::Max)
                 .Case("mul", CollectiveOp::Mul)
                 .Case("and", CollectiveOp::And)
                 .Case("or", CollectiveOp::Or)
                 .Case("xor", CollectiveOp::Xor)
                 // The names llvm-spirv gives SPIR-V's OpGroupBitwise*KHR
                 // (SPV_KHR_uniform_group_instructions) when it reads them.
                 .Case("bitwise_and", CollectiveOp::And)
                 .Case("bitwise_or", CollectiveOp::Or)
                 .Case("bitwise_xor", CollectiveOp::Xor)
                 .Case("logical_and", CollectiveOp::LogicalAnd)
                 .Case("logical_or", CollectiveOp::LogicalOr)
                 .Case("logical_xor", CollectiveOp::LogicalXor)
                 .Default(CollectiveOp::None);
  if (op.arith == CollectiveOp::None) return false;
  return extended || op.arith <= CollectiveOp::Max;
}

}  // namespace

std::optional<CollectiveOp> parseCollective(StringRef mangled) {
  if (!mangled.consume_front("_Z")) return std::nullopt;
  unsigned length = 0;
  if (mangled.consumeInteger(10, length) || mangled.size() <= length) return std::nullopt;
  StringRef name = mangled.take_front(length), parameters = mangled.drop_front(length);
  CollectiveOp op;
  op.isSigned = parameters.starts_with("i") || parameters.starts_with("l") ||
                parameters.starts_with("c") || parameters.starts_with("s") || parameters.starts_with("a");
  auto reduction = [&](StringRef rest, bool extended) -> bool {
    if (rest.consume_front("reduce_")) op.kind = CollectiveOp::Reduce;
    else if (rest.consume_front("scan_exclusive_")) op.kind = CollectiveOp::ScanExclusive;
    else if (rest.consume_front("scan_inclusive_")) op.kind = CollectiveOp::ScanInclusive;
    else return false;
    return parseArith(rest, op, extended);
  };
  bool workGroup = name.consume_front("work_group_");
  if (!workGroup && !name.consume_front("sub_group_")) return std::nullopt;
  op.subGroup = !workGroup;
  // The functions without an arithmetic operation; those of the
  // cl_khr_subgroup_* extensions (non_uniform, elect, ballot, shuffles,
  // rotates) may be called by part of a sub-group.
  std::optional<std::pair<CollectiveOp::Kind, bool>> plain =
      StringSwitch<std::optional<std::pair<CollectiveOp::Kind, bool>>>(name)
          .Case("all", {{CollectiveOp::All, false}})
          .Case("any", {{CollectiveOp::Any, false}})
          .Case("broadcast", {{CollectiveOp::Broadcast, false}})
          .Case("elect", {{CollectiveOp::Elect, true}})
          .Case("non_uniform_all", {{CollectiveOp::All, true}})
          .Case("non_uniform_any", {{CollectiveOp::Any, true}})
          .Case("non_uniform_all_equal", {{CollectiveOp::AllEqual, true}})
          .Case("non_uniform_broadcast", {{CollectiveOp::Broadcast, true}})
          .Case("broadcast_first", {{CollectiveOp::BroadcastFirst, true}})
          .Case("ballot", {{CollectiveOp::Ballot, true}})
          .Case("shuffle", {{CollectiveOp::Shuffle, true}})
          .Case("shuffle_xor", {{CollectiveOp::ShuffleXor, true}})
          .Case("shuffle_up", {{CollectiveOp::ShuffleUp, true}})
          .Case("shuffle_down", {{CollectiveOp::ShuffleDown, true}})
          .Case("rotate", {{CollectiveOp::Rotate, true}})
          .Case("clustered_rotate", {{CollectiveOp::ClusteredRotate, true}})
          .Default(std::nullopt);
  if (plain) {
    if (workGroup && plain->second) return std::nullopt;
    std::tie(op.kind, op.nonUniform) = *plain;
    return op;
  }
  // Work-group reductions and scans of every operation: add, min and max
  // are OpenCL C 2.0's, the others cl_khr_work_group_uniform_arithmetic's
  // (mul; and, or, xor; logical_and, logical_or, logical_xor). A sub-group's
  // plain ones are add, min and max only.
  if (reduction(name, workGroup)) return op;
  if (workGroup) return std::nullopt;
  op.nonUniform = true;
  if (name.consume_front("clustered_reduce_")) {
    op.kind = CollectiveOp::ClusteredReduce;
    return parseArith(name, op, true) ? std::optional(op) : std::nullopt;
  }
  if (name.consume_front("non_uniform_") && reduction(name, true)) return op;
  return std::nullopt;
}

}  // namespace lockstep::compiler
