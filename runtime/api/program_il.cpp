// Programs from SPIR-V: clCreateProgramWithIL (and cl_khr_il_program's
// clCreateProgramWithILKHR) and clSetProgramSpecializationConstant. The
// module is checked when the program is made (the compiler reads its header,
// capabilities and specialization constants); it is translated when built
// (docs/spirv.md).
#include "Program.h"

#include "Context.h"
#include "api/entry_points.h"

namespace lockstep::api {

using namespace runtime;

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret) {
  return guardedCreate(errcode_ret, [&]() -> cl_program {
    _cl_context *ctx = checked(context);
    compiler::Compiler &compiler = compiler::Compiler::instance();
    // "CL_INVALID_OPERATION if no devices in context support intermediate
    // language programs" (no translator installed: CL_DEVICE_IL_VERSION is
    // empty).
    check(!compiler.ilVersions().empty(), CL_INVALID_OPERATION);
    // "CL_INVALID_VALUE if il is NULL or if length is zero."
    check(il != nullptr && length != 0, CL_INVALID_VALUE);
    // "CL_INVALID_VALUE if the length-byte memory pointed to by il does not
    // contain well-formed intermediate language input that can be consumed
    // by the OpenCL runtime."
    std::span<const uint8_t> bytes(static_cast<const uint8_t *>(il), length);
    std::string error;
    std::optional<compiler::IntermediateLanguage> info = compiler.inspectIL(bytes, error);
    check(info.has_value(), CL_INVALID_VALUE);
    return new _cl_program(ctx, ctx->devices(), {bytes.begin(), bytes.end()}, std::move(*info));
  });
}

cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il, size_t length,
                                                cl_int *errcode_ret) {
  return api::clCreateProgramWithIL(context, il, length, errcode_ret);
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                      size_t spec_size, const void *spec_value) {
  return guarded([&] {
    _cl_program *p = checked(program);
    // "CL_INVALID_PROGRAM if program is not a valid program object created
    // from an intermediate language (e.g. SPIR-V)."
    check(p->origin() == _cl_program::Origin::IL, CL_INVALID_PROGRAM);
    p->setSpecConstant(spec_id, spec_size, spec_value);
  });
}

}  // namespace lockstep::api
