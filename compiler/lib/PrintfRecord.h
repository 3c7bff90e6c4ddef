// The record PrintfLoweringPass writes for each printf call and the formatter
// that reads it (PrintfRuntime.cpp). No LLVM here: the formatter runs inside
// kernels.
#pragma once

#include <cstdint>

namespace lockstep::compiler {

enum class PrintfKind : uint8_t { Integer = 0, Float = 1, Pointer = 2 };

struct PrintfArgumentHeader {
  uint8_t kind;  // PrintfKind
  uint8_t elementBytes;
  uint16_t elements;
  uint32_t reserved;
};
static_assert(sizeof(PrintfArgumentHeader) == 8);

inline constexpr const char *kPrintfSymbol = "__lockstep_printf";

// OpenCL C printf (6.15.14): C99 conversions plus vector specifiers (%v4f,
// %v2hd, %v8hhx, %v4hlf). Writes to stdout and flushes; returns 0, or -1 if
// the format does not match the arguments.
int formatPrintf(const char *format, const void *record, unsigned count);

}  // namespace lockstep::compiler
