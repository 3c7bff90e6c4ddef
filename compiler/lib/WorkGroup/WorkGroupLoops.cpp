// WorkGroupLoopsPass, the driver: turns a work-group function whose body is the code of
// ONE work-item into code that runs EVERY work-item of the group, with no
// thread per work-item.
//
// The body is cut into regions at barriers. A region is the code reachable
// from a region entry (the body's start, the block after a barrier, a
// successor of a decision) without passing another barrier. Each region is
// cloned into a loop nest over the work-items (z, y, x), so all work-items
// finish a region before any starts the next one: that is what a barrier
// means. The innermost loop is marked parallel (work-items of one region never
// depend on each other without a barrier) so the loop vectorizer widens it.
//
// Every region must end at exactly one place so that the code between the
// loop nests stays uniform. Where paths from a region lead to different
// barriers (a barrier in a loop or in an `if`), the branch that chooses is
// made a *decision*: each work-item stores its branch condition, and the code
// between the loop nests branches on work-item 0's value. The OpenCL rule
// that barriers are reached in uniform control flow makes that exact.
//
// Values live across a region boundary are kept per work-item in the context
// block (GroupAbi.h): SSA values and promotable variables are copied in at the
// top of a work-item iteration and out at its end; addressable private arrays
// live there for good. Values computed in the prologue (arguments, group
// geometry) are uniform and stay in registers.
//
// This file runs the phases in order (WorkGroupLoops::run); each phase lives
// in a file of this folder named for it (WorkGroupLoops.h lists them). The
// pass (lockstep-work-group-loops<vector-bits=N>) builds each kernel and
// then its versions (KernelVersions.cpp), each as its version says; it
// comes after the loop cuts (LoopCuts.cpp), whose marks it reads and
// removes (PhaseMarkers.h).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "WorkGroup/WorkGroupLoops.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// The kernel's arguments and the group's geometry, read where the
// simplification before this pass sank them: into the prologue, where they
// are uniform values (kept once, recomputable after a barrier) rather than
// loads each work-item repeats. The argument block and the group info are
// immutable while the group runs, and readable at every offset used.
void hoistInvariantParameterLoads(Function &F, BasicBlock *prologue) {
  SmallVector<LoadInst *, 16> loads;
  for (BasicBlock &BB : F)
    if (&BB != prologue)
      for (Instruction &I : BB)
        if (auto *load = dyn_cast<LoadInst>(&I); load && load->getMetadata(LLVMContext::MD_invariant_load) &&
                                                 !load->isVolatile() && !load->isAtomic())
          loads.push_back(load);
  for (LoadInst *load : loads) {
    Value *pointer = load->getPointerOperand();
    auto *gep = dyn_cast<GetElementPtrInst>(pointer);
    Value *base = gep ? gep->getPointerOperand() : pointer;
    if (base != F.getArg(kArgBlockParam) && base != F.getArg(kGroupInfoParam)) continue;
    if (gep && !gep->hasAllConstantIndices()) continue;
    Instruction *at = prologue->getTerminator();
    if (gep && gep->getParent() != prologue) {
      if (gep->hasOneUse()) gep->moveBefore(at);
      else {
        auto *copy = gep->clone();
        copy->insertBefore(at);
        load->setOperand(0, copy);
      }
    }
    load->moveBefore(at);
  }
}

}  // namespace

void WorkGroupLoops::run() {
  prologue = &F.getEntryBlock();
  bodyEntry = prologue->getSingleSuccessor();
  if (!bodyEntry) report_fatal_error("lockstep: work-group function without a prologue");
  hoistInvariantParameterLoads(F, prologue);
  IRBuilder<> builder(prologue->getTerminator());
  for (int d = 0; d < 3; ++d) localSize[d] = loadGroupInfo(builder, F.getArg(kGroupInfoParam), kLocalSize, d);
  // The vector-rows version runs only groups this wide (VersionDispatch.cpp):
  // the kernel's own reads of its width (get_local_size(0)) are the constant
  // too, so that `ly * get_local_size(0) + lx` is the linear id the loops
  // count (WorkItemLoopFlatten.cpp).
  if (rowWidth != 0) {
    Value *width = builder.getInt64(rowWidth);
    // loadGroupInfo handed back the kernel's own read, where it has one.
    if (auto *read = dyn_cast<LoadInst>(localSize[0])) {
      read->replaceAllUsesWith(width);
      read->eraseFromParent();
    }
    localSize[0] = width;
  }
  workItemCount = builder.CreateMul(builder.CreateMul(localSize[0], localSize[1]), localSize[2]);
  Value *enqueued = builder.getInt64(1);
  for (int d = 0; d < 3; ++d)
    enqueued = builder.CreateMul(enqueued, loadGroupInfo(builder, F.getArg(kGroupInfoParam), kEnqueuedLocalSize, d));

  subGroupSize = std::max<uint64_t>(functionAttrNumber(F, kSubGroupSizeAttr), 1);
  maxSubGroupSize = builder.CreateTrunc(
      builder.CreateBinaryIntrinsic(Intrinsic::umin, builder.getInt64(subGroupSize), enqueued), builder.getInt32Ty());
  checking = F.hasFnAttribute(kCheckBarriersAttr);
  kernelName = F.getFnAttribute(kKernelNameAttr).getValueAsString().str();
  prepareCollectives();
  splitAtBarriers();
  for (auto &[block, call] : barrierBlocks) loopCuts += call && isLoopCut(*call);
  unifyReturns();
  if (!barrierBlocks.empty()) foldCheapDiamonds();
  // The body's blocks as they are now (the collectives and barriers split some),
  // which the regions replace.
  SmallPtrSet<BasicBlock *, 32> original;
  for (BasicBlock &BB : F) original.insert(&BB);
  original.erase(prologue);
  // Sub-group mode when every cut is a sub-group one.
  bool groupCuts = false, subGroupCuts = false;
  for (auto &[block, call] : barrierBlocks) {
    bool subGroup = call ? isSubGroupBarrier(call->getCalledFunction()->getName())
                         : collectives[collectiveAt.lookup(block)].op.subGroup;
    (subGroup ? subGroupCuts : groupCuts) = true;
  }
  subGroupMode = subGroupCuts && !groupCuts;
  // Lane mode also when sub-group and work-group cuts mix: a sub-group
  // function may stand in control flow that is uniform only per sub-group,
  // which a work-group-wide decision cannot follow.
  laneMode = (groupCuts && subGroupCuts) ||
             any_of(collectives, [](const Collective &c) { return c.op.nonUniform; });
  chooseStripMode();
  // The loop cuts compare their counts with the number of work-items that
  // run the machine: the group's, or a strip's.
  Value *machineItems = stripMode ? ConstantInt::get(workItemCount->getType(), stripWidth) : workItemCount;
  if (Function *placeholder = F.getParent()->getFunction(kWorkItemCountPlaceholder))
    for (User *user : make_early_inc_range(placeholder->users()))
      if (auto *call = dyn_cast<CallInst>(user); call && call->getFunction() == &F) {
        call->replaceAllUsesWith(machineItems);
        call->eraseFromParent();
      }
  columnMajor = F.hasFnAttribute(kColumnStoresAttr) && barrierBlocks.empty() && !subGroupMode && !laneMode;
  if (laneMode) numberStates();
  else
    while (addOneDecision()) {
    }
  if (!barrierBlocks.empty()) demoteCrossBlockValues();
  analyzeAllocas();
  if (!barrierBlocks.empty()) computeLiveness();
  else for (unsigned i = 0; i < allocas.size(); ++i) shared[i] = !promotable[i] && !resident[i];
  for (const Collective &collective : collectives) {
    if (collective.in) copied.set(allocaIndex.lookup(collective.in));
    copied.set(allocaIndex.lookup(collective.out));
    for (AllocaInst *id : collective.ids) copied.set(allocaIndex.lookup(id));
  }
  if (!barrierBlocks.empty()) findUniformVariables();
  else uniformVariable.resize(allocas.size());
  layOutContext();

  prologue->getTerminator()->eraseFromParent();
  if (subGroupMode) {
    // prologue → sg.header { region machine; Return → sg.next } → ret
    BasicBlock *header = BasicBlock::Create(context, "sg", &F);
    subGroupLatch = BasicBlock::Create(context, "sg.next", &F);
    BasicBlock *done = BasicBlock::Create(context, "sg.done", &F);
    BranchInst::Create(header, prologue);
    IRBuilder<> builder(header);
    PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2, "sg.id");
    index->addIncoming(builder.getInt64(0), prologue);
    // A strip is whole and within a row: the dispatch runs only rows the
    // strips divide.
    uint64_t segment = stripMode ? stripWidth : subGroupSize;
    subGroupFirst = builder.CreateMul(index, builder.getInt64(segment), "sg.first");
    subGroupEnd = stripMode ? builder.CreateAdd(subGroupFirst, builder.getInt64(segment), "strip.end", true, true)
                            : builder.CreateBinaryIntrinsic(
                                  Intrinsic::umin, builder.CreateAdd(subGroupFirst, builder.getInt64(segment)),
                                  workItemCount);
    subGroupIds = localIdsOf(builder, subGroupFirst);
    for (int d = 0; d < 3; ++d)
      if (isa<Instruction>(subGroupIds[d])) subGroupIds[d]->setName("sg.lid" + Twine(d));
    subGroupInRow = stripMode ? builder.getTrue()
                              : builder.CreateICmpULE(
                                    builder.CreateAdd(subGroupIds[0], builder.CreateSub(subGroupEnd, subGroupFirst)),
                                    localSize[0], "sg.in.row");
    BasicBlock *start = laneMode ? BasicBlock::Create(context, "lanes", &F) : regionFor(bodyEntry);
    builder.CreateBr(start);
    if (laneMode) buildLaneMachine(start, subGroupLatch);
    builder.SetInsertPoint(subGroupLatch);
    Value *next = builder.CreateAdd(index, builder.getInt64(1));
    index->addIncoming(next, subGroupLatch);
    builder.CreateCondBr(builder.CreateICmpULT(builder.CreateMul(next, builder.getInt64(segment)), workItemCount),
                         header, done);
    ReturnInst::Create(context, done);
  } else if (laneMode) {
    BasicBlock *start = BasicBlock::Create(context, "lanes", &F);
    BasicBlock *done = BasicBlock::Create(context, "lanes.done", &F);
    ReturnInst::Create(context, done);
    BranchInst::Create(start, prologue);
    buildLaneMachine(start, done);
  } else {
    BranchInst::Create(regionFor(bodyEntry), prologue);
  }
  while (!pendingRegions.empty()) {
    BasicBlock *entry = pendingRegions.front();
    pendingRegions.pop_front();
    buildRegion(entry, regionPre[entry]);
  }
  for (BasicBlock *block : original) block->dropAllReferences();
  for (BasicBlock *block : original) block->eraseFromParent();
  // Lifetime markers on per-work-item context memory mean nothing.
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *marker = dyn_cast<LifetimeIntrinsic>(&I))
      if (!isa<AllocaInst>(getUnderlyingObject(marker->getArgOperand(1)))) marker->eraseFromParent();

  scopeContextSlots();
  scopeKernelMemory();
  for (AllocaInst *variable : allocas)
    for (const char *marker : {kResidentMarker, kGroupWideMarker}) variable->setMetadata(marker, nullptr);
  F.addFnAttr(kContextBytesAttr, std::to_string(contextBytes));
  F.addFnAttr(kBarrierCountAttr, std::to_string(barrierBlocks.size() - collectives.size() - loopCuts));
  uint64_t privateBytes = 0;
  for (unsigned i = 0; i < allocas.size(); ++i)
    if (shared[i]) privateBytes += allocas[i]->getAllocationSize(layout)->getFixedValue();
  F.addFnAttr(kPrivateBytesAttr, std::to_string(privateBytes + contextBytes));
  F.addFnAttr(kFrameBytesAttr, std::to_string(privateBytes));
}

PreservedAnalyses WorkGroupLoopsPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> kernels = kernelsOf(M);
  for (Function *kernel : kernels) {
    WorkGroupLoops(*kernel, optionsFor(*kernel, vectorBits)).run();
    for (Function *version : versionsOf(*kernel)) WorkGroupLoops(*version, optionsFor(*version, vectorBits)).run();
  }
  if (Function *placeholder = M.getFunction(kWorkItemCountPlaceholder); placeholder && placeholder->use_empty())
    placeholder->eraseFromParent();
  return kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

}  // namespace lockstep::compiler
