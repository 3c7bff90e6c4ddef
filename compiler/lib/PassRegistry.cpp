// Lockstep's passes, analyses and pipelines by name, for `opt` (through
// compiler/test/PassPlugin.cpp) and for the pass instrumentation of a build
// (-print-after=lockstep-spread-loops in LOCKSTEP_LLVM_OPTIONS): every name
// comes from Passes.def.
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <initializer_list>
#include <type_traits>

#include "Analysis/WorkItemDivergence.h"
#include "Internal.h"
#include "PassPipeline.h"
#include "Passes.h"

using namespace llvm;

namespace lockstep::compiler {
namespace {

// Parameters in LLVM's form, `flag;no-flag;key=value`, of those `accepted`
// names (flags by their name, values by `key=`).
Expected<PipelineOptions> parseParameters(StringRef parameters, StringRef pass,
                                          std::initializer_list<StringRef> accepted) {
  PipelineOptions options;
  while (!parameters.empty()) {
    StringRef parameter;
    std::tie(parameter, parameters) = parameters.split(';');
    StringRef name = parameter;
    bool enable = !name.consume_front("no-");
    auto [key, value] = name.split('=');
    std::string accepts = name.contains('=') ? (key + "=").str() : key.str();
    bool valid = is_contained(accepted, StringRef(accepts));
    if (!valid) {
      // reported below
    } else if (key == "check-bounds") {
      options.checkBounds = enable;
    } else if (key == "fold-narrow-rows") {
      options.foldNarrowRows = enable;
    } else if (key == "O1" || key == "O3") {
      options.optDisable = key == "O1";
      valid = enable;
    } else if (key == "vector-bits") {
      valid = enable && !value.getAsInteger(10, options.vectorBits) &&
              (options.vectorBits == 128 || options.vectorBits == 256 || options.vectorBits == 512);
    }
    if (!valid)
      return make_error<StringError>("invalid " + pass + " parameter '" + parameter + "'", inconvertibleErrorCode());
  }
  return options;
}

Expected<PipelineOptions> parseKernelVersionsParameters(StringRef parameters) {
  return parseParameters(parameters, "lockstep-kernel-versions", {"fold-narrow-rows"});
}

Expected<PipelineOptions> parseLoopCutsParameters(StringRef parameters) {
  return parseParameters(parameters, "lockstep-loop-cuts", {"vector-bits="});
}

Expected<PipelineOptions> parseWorkGroupLoopsParameters(StringRef parameters) {
  return parseParameters(parameters, "lockstep-work-group-loops", {"vector-bits="});
}

Expected<PipelineOptions> parseWorkGroupParameters(StringRef parameters) {
  return parseParameters(parameters, "lockstep-work-group", {"fold-narrow-rows", "vector-bits="});
}

Expected<PipelineOptions> parsePrepareParameters(StringRef parameters) {
  return parseParameters(parameters, "lockstep-prepare", {"check-bounds", "fold-narrow-rows", "vector-bits="});
}

Expected<PipelineOptions> parseOptimizeParameters(StringRef parameters) {
  return parseParameters(parameters, "lockstep-optimize", {"check-bounds", "O1", "O3"});
}

// The optimize pipeline for this host, built by a PassBuilder of its own:
// the pipeline's callbacks and tuning stay out of the caller's builder (and
// its `default<O3>`).
ModulePassManager buildHostOptimizePipeline(const PipelineOptions &options) {
  PassBuilder builder(&hostTargetMachine(), optimizeTuning());
  return buildOptimizePipeline(builder, hostTargetMachine(), options);
}

// Reports a parameter error where `opt` would only say the name is unknown.
bool rejected(Error error) {
  errs() << toString(std::move(error)) << "\n";
  return false;
}

}  // namespace

std::string pipelineName(StringRef pipeline, const PipelineOptions &options) {
  SmallVector<std::string, 3> parameters;
  if (options.checkBounds) parameters.push_back("check-bounds");
  if (pipeline == "lockstep-prepare") {
    if (options.foldNarrowRows) parameters.push_back("fold-narrow-rows");
    parameters.push_back("vector-bits=" + std::to_string(options.vectorBits));
  } else if (options.optDisable) {
    parameters.push_back("O1");
  }
  return parameters.empty() ? pipeline.str() : (pipeline + "<" + join(parameters, ";") + ">").str();
}

void registerLockstepPasses(PassBuilder &builder) {
  if (PassInstrumentationCallbacks *instrumentation = builder.getPassInstrumentationCallbacks()) {
#define MODULE_PASS(NAME, CREATE_PASS) instrumentation->addClassToPassName(decltype(CREATE_PASS)::name(), NAME);
#define MODULE_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS) \
  instrumentation->addClassToPassName(CLASS::name(), NAME);
#define FUNCTION_PASS(NAME, CREATE_PASS) instrumentation->addClassToPassName(decltype(CREATE_PASS)::name(), NAME);
#define FUNCTION_ANALYSIS(NAME, CREATE_PASS) \
  instrumentation->addClassToPassName(decltype(CREATE_PASS)::name(), NAME);
#include "Passes.def"
  }
  builder.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &analyses) {
#define FUNCTION_ANALYSIS(NAME, CREATE_PASS) analyses.registerPass([] { return CREATE_PASS; });
#include "Passes.def"
  });
  builder.registerPipelineParsingCallback(
      [](StringRef name, ModulePassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
#define MODULE_PASS(NAME, CREATE_PASS) \
  if (name == NAME) {                  \
    passes.addPass(CREATE_PASS);       \
    return true;                       \
  }
#define MODULE_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS)                 \
  if (PassBuilder::checkParametrizedPassName(name, NAME)) {                              \
    Expected<PipelineOptions> options = PassBuilder::parsePassParameters(PARSER, name, NAME); \
    if (!options) return rejected(options.takeError());                                   \
    passes.addPass(CREATE_PASS(*options));                                                \
    return true;                                                                          \
  }
#define MODULE_PIPELINE_WITH_PARAMS(NAME, BUILD, PARSER, PARAMS)                          \
  if (PassBuilder::checkParametrizedPassName(name, NAME)) {                              \
    Expected<PipelineOptions> options = PassBuilder::parsePassParameters(PARSER, name, NAME); \
    if (!options) return rejected(options.takeError());                                   \
    passes.addPass(BUILD(*options));                                                      \
    return true;                                                                          \
  }
#include "Passes.def"
        return false;
      });
  builder.registerPipelineParsingCallback(
      [](StringRef name, FunctionPassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
#define FUNCTION_PASS(NAME, CREATE_PASS) \
  if (name == NAME) {                    \
    passes.addPass(CREATE_PASS);         \
    return true;                         \
  }
#define FUNCTION_ANALYSIS(NAME, CREATE_PASS)                                                            \
  if (name == "require<" NAME ">") {                                                                  \
    passes.addPass(RequireAnalysisPass<std::remove_reference_t<decltype(CREATE_PASS)>, Function>()); \
    return true;                                                                                      \
  }                                                                                                   \
  if (name == "invalidate<" NAME ">") {                                                               \
    passes.addPass(InvalidateAnalysisPass<std::remove_reference_t<decltype(CREATE_PASS)>>());        \
    return true;                                                                                      \
  }
#include "Passes.def"
        return false;
      });
}

}  // namespace lockstep::compiler
