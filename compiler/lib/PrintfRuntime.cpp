// The printf formatter kernels call (see PrintfRecord.h). Each conversion is
// printed with the C library's snprintf after mapping the OpenCL length and
// vector modifiers onto one C conversion per element.
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>

#include "PrintfRecord.h"

namespace lockstep::compiler {
namespace {

struct Argument {
  PrintfArgumentHeader header;
  const uint8_t *data;
};

class RecordReader {
 public:
  RecordReader(const void *record, unsigned count)
      : cursor(static_cast<const uint8_t *>(record)), remaining(count) {}
  bool next(Argument &argument) {
    if (remaining == 0) return false;
    --remaining;
    std::memcpy(&argument.header, cursor, sizeof argument.header);
    argument.data = cursor + sizeof argument.header;
    size_t bytes = size_t(argument.header.elementBytes) * argument.header.elements;
    cursor += sizeof argument.header + ((bytes + 7) & ~size_t(7));
    return true;
  }

 private:
  const uint8_t *cursor;
  unsigned remaining;
};

int64_t signedElement(const Argument &argument, unsigned i) {
  const uint8_t *p = argument.data + i * argument.header.elementBytes;
  switch (argument.header.elementBytes) {
    case 1: return int8_t(*p);
    case 2: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

// A half (cl_khr_fp16) decoded exactly: its bits are 1.f * 2^(e - 15), or
// f * 2^-24 for denormals. Scalar halves reach printf promoted to double;
// half vectors (%v4hf) come as they are.
double halfValue(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  double magnitude = exponent == 0    ? std::ldexp(double(fraction), -24)
                     : exponent == 31 ? (fraction ? std::numeric_limits<double>::quiet_NaN()
                                                  : std::numeric_limits<double>::infinity())
                                      : std::ldexp(double(fraction | 0x400), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

double floatElement(const Argument &argument, unsigned i) {
  const uint8_t *p = argument.data + i * argument.header.elementBytes;
  if (argument.header.elementBytes == 2) { uint16_t v; std::memcpy(&v, p, 2); return halfValue(v); }
  if (argument.header.elementBytes == 4) { float v; std::memcpy(&v, p, 4); return v; }
  double v;
  std::memcpy(&v, p, 8);
  return v;
}

void appendf(std::string &out, const char *spec, ...) {
  char buffer[512];
  va_list args;
  va_start(args, spec);
  int n = std::vsnprintf(buffer, sizeof buffer, spec, args);
  va_end(args);
  if (n < 0) return;
  if (size_t(n) < sizeof buffer) {
    out.append(buffer, n);
    return;
  }
  std::string big(n + 1, '\0');
  va_start(args, spec);
  std::vsnprintf(big.data(), big.size(), spec, args);
  va_end(args);
  out.append(big.data(), n);
}

// Narrows an integer to the width its length modifier names (%hhd prints a
// char even though the argument was promoted to int).
int64_t narrowSigned(int64_t v, int bits) {
  if (bits == 8) return int8_t(v);
  if (bits == 16) return int16_t(v);
  if (bits == 32) return int32_t(v);
  return v;
}
uint64_t narrowUnsigned(int64_t v, int bits) {
  if (bits >= 64) return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << bits) - 1);
}

// One conversion: `spec` is "%[flags][width][.precision]", `conversion` its
// letter, `bits` the width of the length modifier (0: default).
bool formatOne(std::string &out, const std::string &spec, char conversion, int bits, int vectorSize,
               const Argument &argument) {
  unsigned elements = vectorSize ? unsigned(vectorSize) : 1;
  if (argument.header.elements != elements) return false;
  for (unsigned i = 0; i < elements; ++i) {
    if (i) out += ',';
    switch (conversion) {
      case 'd': case 'i': {
        if (argument.header.kind != uint8_t(PrintfKind::Integer)) return false;
        int width = bits ? bits : (vectorSize ? argument.header.elementBytes * 8 : 32);
        appendf(out, (spec + "lld").c_str(), (long long)narrowSigned(signedElement(argument, i), width));
        break;
      }
      case 'o': case 'u': case 'x': case 'X': {
        if (argument.header.kind != uint8_t(PrintfKind::Integer)) return false;
        int width = bits ? bits : (vectorSize ? argument.header.elementBytes * 8 : 32);
        std::string c = spec + "ll" + conversion;
        appendf(out, c.c_str(), (unsigned long long)narrowUnsigned(signedElement(argument, i), width));
        break;
      }
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        if (argument.header.kind != uint8_t(PrintfKind::Float)) return false;
        appendf(out, (spec + conversion).c_str(), floatElement(argument, i));
        break;
      }
      case 'c': {
        if (argument.header.kind != uint8_t(PrintfKind::Integer)) return false;
        appendf(out, (spec + "c").c_str(), int(signedElement(argument, i)));
        break;
      }
      case 's': {
        if (argument.header.kind != uint8_t(PrintfKind::Pointer)) return false;
        uint64_t address;
        std::memcpy(&address, argument.data, 8);
        appendf(out, (spec + "s").c_str(), address ? reinterpret_cast<const char *>(address) : "(null)");
        break;
      }
      case 'p': {
        if (argument.header.kind != uint8_t(PrintfKind::Pointer)) return false;
        uint64_t address;
        std::memcpy(&address, argument.data, 8);
        appendf(out, (spec + "p").c_str(), reinterpret_cast<void *>(address));
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

std::mutex outputMutex;

}  // namespace

int formatPrintf(const char *format, const void *record, unsigned count) {
  RecordReader reader(record, count);
  std::string out;
  for (const char *p = format; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    std::string spec = "%";
    ++p;
    while (*p && std::strchr("-+ #0", *p)) spec += *p++;
    while (*p >= '0' && *p <= '9') spec += *p++;
    if (*p == '.') {
      spec += *p++;
      while (*p >= '0' && *p <= '9') spec += *p++;
    }
    int vectorSize = 0;
    if (*p == 'v') {
      ++p;
      while (*p >= '0' && *p <= '9') vectorSize = vectorSize * 10 + (*p++ - '0');
      if (vectorSize != 2 && vectorSize != 3 && vectorSize != 4 && vectorSize != 8 && vectorSize != 16)
        return -1;
    }
    int bits = 0;
    if (p[0] == 'h' && p[1] == 'h') bits = 8, p += 2;
    else if (p[0] == 'h' && p[1] == 'l') bits = 32, p += 2;
    else if (p[0] == 'h') bits = 16, ++p;
    else if (p[0] == 'l') bits = 64, ++p;
    if (!*p) return -1;
    Argument argument;
    if (!reader.next(argument)) return -1;
    if (!formatOne(out, spec, *p, bits, vectorSize, argument)) return -1;
  }
  std::lock_guard lock(outputMutex);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace lockstep::compiler
