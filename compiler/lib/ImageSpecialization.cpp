// ImageSpecializationPass: a kernel compiled for the image formats and
// sampler values of a launch. An image's channel order and type are run-time
// values of its descriptor, so the image built-ins switch over them at every
// texel; inside a work-item loop those switches keep the loop scalar. Given
// the launch's values, as module metadata
//
//   !lockstep.specialize = !{!{!"kernel", i32 arg, i32 v0, i32 v1, i32 v2, i32 v3}, ...}
//
// (an image argument: its channel order, channel type, element size and
// channel count; a sampler argument: its CLK_* bits in v0), the pass states
// at the kernel's entry what each image's descriptor holds, as invariant
// loads of the fields under llvm.assume, and replaces a sampler argument by
// its bits. Once -O3 has inlined the built-ins, GVN takes the built-ins' own
// invariant loads of the same fields for the assumed constants, the switches
// fold to the one format's code and the work-item loop widens like a loop
// over a buffer. The runtime asks for such a version of a kernel when a
// launch is large enough to pay for the compile (Executable::specialize).
//
// Runs after ImageTypeLoweringPass (images are descriptor pointers, samplers
// i32) and before the kernel is wrapped.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>

#include <cstddef>

#include "Internal.h"
#include "Passes.h"
#include "Statistics.h"
#include "lockstep/compiler/ImageAbi.h"

#define DEBUG_TYPE "lockstep-image-specialization"

using namespace llvm;

LOCKSTEP_STATISTIC(NumImagesSpecialized, "Image arguments given their launch's format");
LOCKSTEP_STATISTIC(NumSamplersSpecialized, "Sampler arguments replaced by their launch's bits");

namespace lockstep::compiler {
namespace {

constexpr const char *kSpecializeMetadata = "lockstep.specialize";

// Assumes, at the kernel's entry, that the descriptor field at `offset` holds
// `value`.
void assumeField(IRBuilder<> &builder, Value *image, size_t offset, uint32_t value) {
  Value *field = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), image, offset);
  LoadInst *load = builder.CreateAlignedLoad(builder.getInt32Ty(), field, Align(4));
  load->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(builder.getContext(), {}));
  builder.CreateAssumption(builder.CreateICmpEQ(load, builder.getInt32(value)));
}

void specializeArgument(Argument &arg, ArrayRef<uint32_t> values) {
  if (arg.getType()->isIntegerTy(32)) {  // a sampler: its bits
    arg.replaceAllUsesWith(ConstantInt::get(arg.getType(), values[0]));
    ++NumSamplersSpecialized;
    return;
  }
  if (!arg.getType()->isPointerTy()) return;
  Function &F = *arg.getParent();
  IRBuilder<> builder(&*F.getEntryBlock().getFirstInsertionPt());
  assumeField(builder, &arg, offsetof(lockstep_image_descriptor, channelOrder), values[0]);
  assumeField(builder, &arg, offsetof(lockstep_image_descriptor, channelType), values[1]);
  assumeField(builder, &arg, offsetof(lockstep_image_descriptor, elementSize), values[2]);
  assumeField(builder, &arg, offsetof(lockstep_image_descriptor, channelCount), values[3]);
  ++NumImagesSpecialized;
}

}  // namespace

void requestSpecialization(Module &M, StringRef kernel, unsigned argument, ArrayRef<uint32_t> values) {
  LLVMContext &context = M.getContext();
  SmallVector<Metadata *, 6> operands{MDString::get(context, kernel)};
  Type *i32 = Type::getInt32Ty(context);
  operands.push_back(ConstantAsMetadata::get(ConstantInt::get(i32, argument)));
  for (unsigned i = 0; i < 4; ++i)
    operands.push_back(ConstantAsMetadata::get(ConstantInt::get(i32, i < values.size() ? values[i] : 0)));
  M.getOrInsertNamedMetadata(kSpecializeMetadata)->addOperand(MDNode::get(context, operands));
}

PreservedAnalyses ImageSpecializationPass::run(Module &M, ModuleAnalysisManager &) {
  NamedMDNode *requests = M.getNamedMetadata(kSpecializeMetadata);
  if (!requests) return PreservedAnalyses::all();
  for (MDNode *request : requests->operands()) {
    if (request->getNumOperands() != 6) continue;
    auto *name = dyn_cast<MDString>(request->getOperand(0));
    Function *kernel = name ? M.getFunction(name->getString()) : nullptr;
    SmallVector<uint32_t, 5> numbers;
    for (unsigned i = 1; i < 6; ++i)
      if (auto *value = mdconst::dyn_extract<ConstantInt>(request->getOperand(i))) numbers.push_back(value->getZExtValue());
    if (!kernel || kernel->isDeclaration() || numbers.size() != 5 || numbers[0] >= kernel->arg_size()) continue;
    LLVM_DEBUG(dbgs() << "specializing argument " << numbers[0] << " of " << kernel->getName() << "\n");
    specializeArgument(*kernel->getArg(numbers[0]), ArrayRef(numbers).drop_front());
  }
  requests->eraseFromParent();
  return PreservedAnalyses::none();
}

}  // namespace lockstep::compiler
