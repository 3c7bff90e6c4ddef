# Finds LLVM and Clang 19 (Debian's llvm-19-dev / libclang-19-dev) and the
# clang-19 binary used at build time to compile the builtins to bitcode.
set(LOCKSTEP_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "LLVM 19 prefix")
find_package(LLVM REQUIRED CONFIG PATHS ${LOCKSTEP_LLVM_ROOT}/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "Lockstep needs LLVM 19, found ${LLVM_PACKAGE_VERSION}")
endif()
find_package(Clang REQUIRED CONFIG PATHS ${LOCKSTEP_LLVM_ROOT}/lib/cmake/clang NO_DEFAULT_PATH)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_INSTALL_PREFIX}")

find_program(LOCKSTEP_CLANG clang HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
if(NOT LOCKSTEP_CLANG)
  find_program(LOCKSTEP_CLANG clang-19 REQUIRED)
endif()
find_program(LOCKSTEP_LLVM_LINK llvm-link HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(LOCKSTEP_OPT opt HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
find_program(LOCKSTEP_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)

# Clang's resource directory holds opencl-c-base.h, needed at run time by the
# in-process frontend.
execute_process(COMMAND ${LOCKSTEP_CLANG} -print-resource-dir
                OUTPUT_VARIABLE LOCKSTEP_CLANG_RESOURCE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)

# The Khronos LLVM/SPIR-V translator (Debian's llvm-spirv-15), run by the
# compiler as a separate process to read SPIR-V programs
# (compiler/lib/Spirv/SpirvTranslation.cpp). Looked up again at run time:
# the device offers SPIR-V only while the tool is there.
find_path(LOCKSTEP_SPIRV_HEADERS spirv/unified1/spirv.hpp REQUIRED)  # Debian's spirv-headers
set(LOCKSTEP_LLVM_SPIRV "/usr/bin/llvm-spirv-15" CACHE FILEPATH
    "the llvm-spirv tool that reads SPIR-V for clCreateProgramWithIL")
