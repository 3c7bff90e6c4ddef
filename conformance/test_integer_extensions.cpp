// cl_khr_extended_bit_ops and cl_khr_integer_dot_product: every builtin, for
// every integer type and vector width, against host references that work
// bit by bit (bit ops) or in 64-bit arithmetic (dot products), plus the
// device's queries and the macros kernels see.
#include <CL/cl_ext.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>

#include "ClTest.h"

namespace lockstep::test {
namespace {

bool listsExtension(cl_device_id device, const std::string &name) {
  std::string list = " " + deviceString(device, CL_DEVICE_EXTENSIONS) + " ";
  return list.find(" " + name + " ") != std::string::npos;
}

cl_version extensionVersion(cl_device_id device, const char *name) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> list(size / sizeof(cl_name_version));
  EXPECT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list.data(), nullptr), CL_SUCCESS);
  for (const cl_name_version &entry : list)
    if (std::string(entry.name) == name) return entry.version;
  return 0;
}

class IntegerExtensions : public ClTest {};

TEST_F(IntegerExtensions, DeviceQueries) {
  EXPECT_TRUE(listsExtension(device_, "cl_khr_extended_bit_ops"));
  EXPECT_TRUE(listsExtension(device_, "cl_khr_integer_dot_product"));
  EXPECT_EQ(extensionVersion(device_, "cl_khr_extended_bit_ops"), CL_MAKE_VERSION(1, 0, 0));
  EXPECT_EQ(extensionVersion(device_, "cl_khr_integer_dot_product"), CL_MAKE_VERSION(2, 0, 0));
  EXPECT_TRUE(hasFeature("__opencl_c_integer_dot_product_input_4x8bit"));
  EXPECT_TRUE(hasFeature("__opencl_c_integer_dot_product_input_4x8bit_packed"));
  auto capabilities =
      deviceInfo<cl_device_integer_dot_product_capabilities_khr>(device_, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR);
  EXPECT_EQ(capabilities,
            cl_bitfield(CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR));
  for (cl_device_info param : {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
                               CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR}) {
    size_t size = 0;
    ASSERT_CL(clGetDeviceInfo(device_, param, 0, nullptr, &size));
    EXPECT_EQ(size, sizeof(cl_device_integer_dot_product_acceleration_properties_khr));
    cl_device_integer_dot_product_acceleration_properties_khr properties;
    EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetDeviceInfo(device_, param, size - 1, &properties, nullptr));
  }
}

// ---- cl_khr_extended_bit_ops -------------------------------------------

template <typename T>
constexpr unsigned kBits = sizeof(T) * 8;

template <typename T>
using Unsigned = std::make_unsigned_t<T>;

template <typename T>
bool bitOf(T x, unsigned i) {
  return (Unsigned<T>(x) >> i) & 1u;
}

template <typename T>
T withBit(T x, unsigned i, bool set) {
  Unsigned<T> u = Unsigned<T>(x), one = Unsigned<T>(Unsigned<T>(1) << i);
  return T(set ? Unsigned<T>(u | one) : Unsigned<T>(u & Unsigned<T>(~one)));
}

template <typename T>
T refInsert(T base, T insert, unsigned offset, unsigned count) {
  T r = base;
  for (unsigned i = 0; i < count; ++i) r = withBit(r, offset + i, bitOf(insert, i));
  return r;
}

template <typename T>
Unsigned<T> refExtractUnsigned(T base, unsigned offset, unsigned count) {
  Unsigned<T> r = 0;
  for (unsigned i = 0; i < count; ++i) r = withBit(r, i, bitOf(base, offset + i));
  return r;
}

template <typename T>
std::make_signed_t<T> refExtractSigned(T base, unsigned offset, unsigned count) {
  Unsigned<T> r = refExtractUnsigned(base, offset, count);
  if (count > 0 && bitOf(r, count - 1))
    for (unsigned i = count; i < kBits<T>; ++i) r = withBit(r, i, true);
  return std::make_signed_t<T>(r);
}

template <typename T>
T refReverse(T x) {
  T r = 0;
  for (unsigned i = 0; i < kBits<T>; ++i) r = withBit(r, i, bitOf(x, kBits<T> - 1 - i));
  return r;
}

template <typename T>
const char *clName();
template <> const char *clName<int8_t>() { return "char"; }
template <> const char *clName<uint8_t>() { return "uchar"; }
template <> const char *clName<int16_t>() { return "short"; }
template <> const char *clName<uint16_t>() { return "ushort"; }
template <> const char *clName<int32_t>() { return "int"; }
template <> const char *clName<uint32_t>() { return "uint"; }
template <> const char *clName<int64_t>() { return "long"; }
template <> const char *clName<uint64_t>() { return "ulong"; }

constexpr int kWidths[] = {1, 2, 3, 4, 8, 16};

// One kernel per width: each work-item applies the four builtins to its
// gentype of `base` and `insert` with its own scalar offset and count.
template <typename T>
std::string bitOpsSource() {
  using S = std::make_signed_t<T>;
  using U = Unsigned<T>;
  std::string t = clName<T>(), s = clName<S>(), u = clName<U>(), text;
  for (int n : kWidths) {
    std::string w = n == 1 ? "" : std::to_string(n);
    auto load = [&](const std::string &p) { return n == 1 ? p + "[i]" : "vload" + w + "(i, " + p + ")"; };
    auto store = [&](const std::string &v, const std::string &p) {
      return n == 1 ? p + "[i] = " + v + ";" : "vstore" + w + "(" + v + ", i, " + p + ");";
    };
    text += "kernel void bits" + std::to_string(n) + "(global const " + t + " *base, global const " + t +
            " *ins, global const uint *off, global const uint *cnt, global " + t + " *oi, global " + s +
            " *os, global " + u + " *ou, global " + t + " *orv) {\n  size_t i = get_global_id(0);\n  " + t + w +
            " b = " + load("base") + ", x = " + load("ins") + ";\n  uint o = off[i], c = cnt[i];\n  " +
            store("bitfield_insert(b, x, o, c)", "oi") + "\n  " + store("bitfield_extract_signed(b, o, c)", "os") +
            "\n  " + store("bitfield_extract_unsigned(b, o, c)", "ou") + "\n  " + store("bit_reverse(b)", "orv") +
            "\n}\n";
  }
  return text;
}

template <typename T>
class BitOps : public ClTest {};
using IntegerTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
TYPED_TEST_SUITE(BitOps, IntegerTypes);

TYPED_TEST(BitOps, EveryWidthAgainstBitwiseReference) {
  using T = TypeParam;
  using S = std::make_signed_t<T>;
  using U = Unsigned<T>;
  constexpr unsigned B = kBits<T>;
  const size_t items = 512;
  cl_program program = this->build(bitOpsSource<T>(), "-cl-std=CL3.0");
  ASSERT_NE(program, nullptr);
  for (int n : kWidths) {
    SCOPED_TRACE(std::string(clName<T>()) + " width " + std::to_string(n));
    const size_t count = items * n;
    std::vector<uint64_t> rawBase = this->template randomValues<uint64_t>(count, 0, UINT64_MAX);
    std::vector<uint64_t> rawIns = this->template randomValues<uint64_t>(count, 0, UINT64_MAX);
    std::vector<T> base(count), ins(count);
    for (size_t i = 0; i < count; ++i) base[i] = T(rawBase[i]), ins[i] = T(rawIns[i]);
    // Fields of every length, the empty and the whole one included, at
    // every offset that keeps them inside the type.
    std::vector<cl_uint> off(items), cnt(items);
    for (size_t i = 0; i < items; ++i) {
      cnt[i] = i < 4 ? (i % 2 ? B : 0) : this->template randomValues<cl_uint>(1, 0, B)[0];
      off[i] = this->template randomValues<cl_uint>(1, 0, B - cnt[i])[0];
    }
    cl_kernel k = this->kernelOf(program, ("bits" + std::to_string(n)).c_str());
    ASSERT_NE(k, nullptr);
    cl_mem mb = this->bufferFrom(base), mi = this->bufferFrom(ins), mo = this->bufferFrom(off),
           mc = this->bufferFrom(cnt);
    cl_mem oi = this->buffer(CL_MEM_WRITE_ONLY, count * sizeof(T)), os = this->buffer(CL_MEM_WRITE_ONLY, count * sizeof(T)),
           ou = this->buffer(CL_MEM_WRITE_ONLY, count * sizeof(T)), orv = this->buffer(CL_MEM_WRITE_ONLY, count * sizeof(T));
    ASSERT_TRUE(this->setArgs(k, mb, mi, mo, mc, oi, os, ou, orv));
    ASSERT_TRUE(this->run(k, {items}));
    std::vector<T> gotInsert = this->template read<T>(oi, count), gotReverse = this->template read<T>(orv, count);
    std::vector<S> gotSigned = this->template read<S>(os, count);
    std::vector<U> gotUnsigned = this->template read<U>(ou, count);
    int failures = 0;
    for (size_t e = 0; e < count && failures < 10; ++e) {
      size_t i = e / n;
      unsigned o = off[i], c = cnt[i];
      bool ok = gotInsert[e] == refInsert(base[e], ins[e], o, c) &&
                gotSigned[e] == refExtractSigned(base[e], o, c) &&
                gotUnsigned[e] == refExtractUnsigned(base[e], o, c) && gotReverse[e] == refReverse(base[e]);
      if (!ok) {
        ++failures;
        ADD_FAILURE() << "element " << e << " base " << uint64_t(U(base[e])) << " insert " << uint64_t(U(ins[e]))
                      << " offset " << o << " count " << c << ": insert " << uint64_t(U(gotInsert[e])) << " vs "
                      << uint64_t(U(refInsert(base[e], ins[e], o, c))) << ", signed " << int64_t(gotSigned[e])
                      << " vs " << int64_t(refExtractSigned(base[e], o, c)) << ", unsigned "
                      << uint64_t(gotUnsigned[e]) << " vs " << uint64_t(refExtractUnsigned(base[e], o, c))
                      << ", reverse " << uint64_t(U(gotReverse[e])) << " vs " << uint64_t(U(refReverse(base[e])));
      }
    }
  }
}

// ---- cl_khr_integer_dot_product ----------------------------------------

// Each work-item: the four vector dot products and dot_acc_sat, and the
// eight packed forms, of its a, b (4 bytes each) and accumulators.
const char *kDotSource = R"CLC(
kernel void dots(global const uint *a, global const uint *b, global const int *sacc, global const uint *uacc,
                 global uint *out) {
  size_t i = get_global_id(0);
  uint pa = a[i], pb = b[i];
  int sa = sacc[i];
  uint ua = uacc[i];
  uchar4 ua4 = as_uchar4(pa), ub4 = as_uchar4(pb);
  char4 sa4 = as_char4(pa), sb4 = as_char4(pb);
  global uint *o = out + i * 16;
  o[0] = dot(ua4, ub4);
  o[1] = as_uint(dot(sa4, sb4));
  o[2] = as_uint(dot(ua4, sb4));
  o[3] = as_uint(dot(sa4, ub4));
  o[4] = dot_acc_sat(ua4, ub4, ua);
  o[5] = as_uint(dot_acc_sat(sa4, sb4, sa));
  o[6] = as_uint(dot_acc_sat(ua4, sb4, sa));
  o[7] = as_uint(dot_acc_sat(sa4, ub4, sa));
  o[8] = dot_4x8packed_uu_uint(pa, pb);
  o[9] = as_uint(dot_4x8packed_ss_int(pa, pb));
  o[10] = as_uint(dot_4x8packed_us_int(pa, pb));
  o[11] = as_uint(dot_4x8packed_su_int(pa, pb));
  o[12] = dot_acc_sat_4x8packed_uu_uint(pa, pb, ua);
  o[13] = as_uint(dot_acc_sat_4x8packed_ss_int(pa, pb, sa));
  o[14] = as_uint(dot_acc_sat_4x8packed_us_int(pa, pb, sa));
  o[15] = as_uint(dot_acc_sat_4x8packed_su_int(pa, pb, sa));
}
)CLC";

// Byte k of x (component k: the least significant byte is component 0),
// read as signed or unsigned.
int64_t component(uint32_t x, int k, bool isSigned) {
  uint8_t byte = uint8_t(x >> (8 * k));
  return isSigned ? int64_t(int8_t(byte)) : int64_t(byte);
}

int64_t refDot(uint32_t a, uint32_t b, bool aSigned, bool bSigned) {
  int64_t sum = 0;
  for (int k = 0; k < 4; ++k) sum += component(a, k, aSigned) * component(b, k, bSigned);
  return sum;
}

uint32_t saturated(int64_t v, bool toUnsigned) {
  if (toUnsigned) return uint32_t(std::clamp<int64_t>(v, 0, UINT32_MAX));
  return uint32_t(int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)));
}

TEST_F(IntegerExtensions, DotProductsAgainstReference) {
  const size_t items = 4096;
  std::vector<cl_uint> a = randomValues<cl_uint>(items, 0, UINT32_MAX), b = randomValues<cl_uint>(items, 0, UINT32_MAX);
  std::vector<cl_int> sacc = randomValues<cl_int>(items, INT32_MIN, INT32_MAX);
  std::vector<cl_uint> uacc = randomValues<cl_uint>(items, 0, UINT32_MAX);
  // The extremes: all-0x80 and all-0xff bytes, and accumulators one dot
  // product away from saturating either way.
  const cl_uint extremes[] = {0x80808080u, 0xffffffffu, 0x7f7f7f7fu, 0u, 0x807f80ffu};
  for (size_t i = 0; i < 25; ++i) a[i] = extremes[i % 5], b[i] = extremes[i / 5];
  for (size_t i = 0; i < 64; ++i) {
    sacc[i] = i % 2 ? INT32_MAX - int32_t(i) : INT32_MIN + int32_t(i);
    uacc[i] = UINT32_MAX - cl_uint(i * 1000);
  }
  cl_kernel k = kernel(kDotSource, "dots", "-cl-std=CL3.0");
  ASSERT_NE(k, nullptr);
  cl_mem out = buffer(CL_MEM_WRITE_ONLY, items * 16 * sizeof(cl_uint));
  ASSERT_TRUE(setArgs(k, bufferFrom(a), bufferFrom(b), bufferFrom(sacc), bufferFrom(uacc), out));
  ASSERT_TRUE(run(k, {items}));
  std::vector<cl_uint> got = read<cl_uint>(out, items * 16);
  int failures = 0;
  for (size_t i = 0; i < items && failures < 10; ++i) {
    // Signedness of a's and b's components: uu, ss, us, su.
    const bool aSigned[] = {false, true, false, true}, bSigned[] = {false, true, true, false};
    for (int form = 0; form < 4; ++form) {
      int64_t d = refDot(a[i], b[i], aSigned[form], bSigned[form]);
      bool resultUnsigned = form == 0;
      uint32_t plain = uint32_t(d);
      uint32_t acc = saturated(d + (resultUnsigned ? int64_t(uacc[i]) : int64_t(sacc[i])), resultUnsigned);
      for (int packed = 0; packed < 2; ++packed) {
        uint32_t gotPlain = got[i * 16 + packed * 8 + form], gotAcc = got[i * 16 + packed * 8 + 4 + form];
        if (gotPlain != plain || gotAcc != acc) {
          ++failures;
          ADD_FAILURE() << "a " << std::hex << a[i] << " b " << b[i] << " form " << form << " packed " << packed
                        << ": dot " << gotPlain << " vs " << plain << ", dot_acc_sat " << gotAcc << " vs " << acc;
        }
      }
    }
  }
}

// The extension macros in OpenCL C 1.2 and 3.0, the feature macros in 3.0.
TEST_F(IntegerExtensions, MacrosInEveryVersion) {
  const std::string source = R"CLC(
#ifndef cl_khr_extended_bit_ops
#error no cl_khr_extended_bit_ops
#endif
#ifndef cl_khr_integer_dot_product
#error no cl_khr_integer_dot_product
#endif
#if !defined(__opencl_c_integer_dot_product_input_4x8bit) || !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
#error no dot product feature macros
#endif
kernel void k(global uint *out) {
  out[0] = bit_reverse(1u) + dot((uchar4)(1, 2, 3, 4), (uchar4)(5, 6, 7, 8)) + dot_4x8packed_uu_uint(0x01010101u, 0x02020202u);
}
)CLC";
  for (const char *options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    cl_kernel k = kernel(source, "k", options);
    ASSERT_NE(k, nullptr) << options;
    cl_mem out = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_uint));
    ASSERT_TRUE(setArgs(k, out));
    ASSERT_TRUE(run(k, {1}));
    uint32_t expected = refReverse<uint32_t>(1u) + uint32_t(refDot(0x04030201u, 0x08070605u, false, false)) +
                        uint32_t(refDot(0x01010101u, 0x02020202u, false, false));
    EXPECT_EQ(read<cl_uint>(out, 1)[0], expected) << options;
  }
}

}  // namespace
}  // namespace lockstep::test
