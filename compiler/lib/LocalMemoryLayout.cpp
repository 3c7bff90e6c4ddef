// LocalMemoryLayoutPass: kernel-scope __local variables are module globals in
// address space 3 after Clang. Each work-group function gets its own layout of
// the ones it uses, at offsets in the local memory block the runtime passes in
// (per worker thread, reused from group to group), and the globals' uses in
// that function become addresses in that block. The size, rounded up to
// kLocalMemoryAlignment, is where the runtime starts placing __local arguments.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/Support/MathExtras.h>

#include "Internal.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

bool usedIn(const GlobalVariable &global, const Function &F) {
  SmallVector<const User *, 16> work(global.users());
  SmallPtrSet<const User *, 16> seen;
  while (!work.empty()) {
    const User *user = work.pop_back_val();
    if (!seen.insert(user).second) continue;
    if (auto *I = dyn_cast<Instruction>(user)) {
      if (I->getFunction() == &F) return true;
    } else {
      append_range(work, user->users());
    }
  }
  return false;
}

void layOut(Function &F, ArrayRef<GlobalVariable *> locals) {
  const DataLayout &layout = F.getParent()->getDataLayout();
  SmallVector<GlobalVariable *, 8> used;
  for (GlobalVariable *global : locals)
    if (usedIn(*global, F)) used.push_back(global);
  uint64_t size = 0;
  if (!used.empty()) {
    SmallVector<Constant *, 8> constants(used.begin(), used.end());
    convertUsersOfConstantsToInstructions(constants, &F);
    IRBuilder<> builder(F.getEntryBlock().getTerminator());
    Value *base = builder.CreateAddrSpaceCast(F.getArg(kLocalMemoryParam),
                                              builder.getPtrTy(kLocalAddressSpace), "local.base");
    for (GlobalVariable *global : used) {
      Align align = global->getAlign().value_or(layout.getABITypeAlign(global->getValueType()));
      size = alignTo(size, align);
      Value *address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), base, size,
                                                          global->getName());
      size += layout.getTypeAllocSize(global->getValueType());
      global->replaceUsesWithIf(address, [&](Use &use) {
        auto *I = dyn_cast<Instruction>(use.getUser());
        return I && I->getFunction() == &F;
      });
    }
  }
  F.addFnAttr(kStaticLocalBytesAttr, std::to_string(alignTo(size, kLocalMemoryAlignment)));
}

}  // namespace

PreservedAnalyses LocalMemoryLayoutPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<GlobalVariable *, 8> locals;
  for (GlobalVariable &global : M.globals())
    if (global.getAddressSpace() == kLocalAddressSpace) locals.push_back(&global);
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(kKernelNameAttr)) layOut(F, locals);
  for (GlobalVariable *global : locals)
    if (global->use_empty()) global->eraseFromParent();
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler
