// Shared machinery of the synchronization corpus: NDRange shapes (1D local
// sizes 1, 7, 64, 256; 2D and 3D ranges with global offsets and non-uniform
// remainder groups), the host's view of which work-items form which group, and
// a runner that builds one kernel, runs it over every shape and compares each
// output element with a host reference computed group by group.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "ClTest.h"

namespace lockstep::test::sync {

// Prepended to every kernel source: linear ids that work in 1, 2 and 3
// dimensions, so that one kernel runs over every shape. LSZ is the size of
// this group (smaller in a remainder group), GIDX the item's output slot.
extern const char *const kPreamble;

struct Shape {
  cl_uint dims = 1;
  std::array<size_t, 3> global{1, 1, 1}, local{1, 1, 1}, offset{0, 0, 0};

  size_t items() const { return global[0] * global[1] * global[2]; }
  size_t groupItems() const { return local[0] * local[1] * local[2]; }
  size_t groups(int d) const { return (global[d] + local[d] - 1) / local[d]; }
  size_t groupCount() const { return groups(0) * groups(1) * groups(2); }
  bool uniform() const;
  std::string name() const;
};

// One work-item as the host reference sees it.
struct Item {
  std::array<size_t, 3> global, local;
  size_t index;  // linear global id without offset: the item's output slot
};

// The items of one work-group in linear local id order.
struct Group {
  std::array<size_t, 3> id, size;
  size_t linearId;
  std::vector<Item> items;
  size_t count() const { return items.size(); }
};

std::vector<Group> groupsOf(const Shape &shape);

// A shape of `dims` dimensions (unused dimensions 1).
Shape shapeN(cl_uint dims, std::array<size_t, 3> global, std::array<size_t, 3> local,
             std::array<size_t, 3> offset = {0, 0, 0});

// 1D shapes with local sizes 1, 7, 64 and 256 (uniform; some with offsets).
std::vector<Shape> linearShapes();
// 1D with a remainder group, 2D and 3D with offsets and remainders.
std::vector<Shape> multiDimShapes();
// Both lists; the non-uniform ones only where the device supports them.
std::vector<Shape> allShapes(cl_device_id device);

// clSetKernelArg from `first` on, one argument per value (LocalBytes for __local).
template <typename... Args>
cl_int setKernelArgs(cl_kernel kernel, cl_uint first, const Args &...args);

class SyncTest : public ClTest {
 protected:
  // Builds kPreamble + source (OpenCL C 3.0 unless told) and returns the kernel.
  cl_kernel make(const std::string &source, const char *name,
                 const std::string &options = "-cl-std=CL3.0") {
    return kernel(kPreamble + source, name, options);
  }
  cl_program makeProgram(const std::string &source, const std::string &options = "-cl-std=CL3.0") {
    return build(kPreamble + source, options);
  }
  // Runs the kernel over one shape and waits; failures name the shape.
  ::testing::AssertionResult launch(cl_kernel kernel, const Shape &shape);
  // Whether the kernel can run with this shape's group size on the device.
  bool fits(cl_kernel kernel, const Shape &shape);
  bool hasFeature(const std::string &feature);  // __opencl_c_* or cl_khr_*
  std::vector<int> randomInts(size_t n, int lo = -1000, int hi = 1000);

  // The common form of a test: kernel(global const In *in, global Out *out,
  // extra...) writes `perItem` outputs per work-item at out[GIDX * perItem
  // + k]; `extra` sets the arguments from index 2 on for a shape; `reference`
  // fills the wanted outputs of one group. Runs every shape in `shapes`.
  template <typename In, typename Out>
  struct PerItem {
    size_t perItem = 1;
    std::function<In(size_t index)> input;
    std::function<cl_int(cl_kernel, const Shape &)> extra;
    std::function<void(const Shape &, const Group &, const std::vector<In> &, std::vector<Out> &)>
        reference;
  };
  template <typename In, typename Out>
  void checkPerItem(cl_kernel kernel, const std::vector<Shape> &shapes,
                    const PerItem<In, Out> &spec);

  // Compares element by element and reports the first few differences.
  template <typename T>
  static ::testing::AssertionResult sameValues(const std::vector<T> &got,
                                               const std::vector<T> &want);
};

// Tests of sub-group functions: skipped where the device has no sub-groups.
// Their programs append kSubGroupSizeKernel, whose sg_max tells the sub-group
// size the device uses for a shape (a property of the kernel and dispatch).
extern const char *const kSubGroupSizeKernel;
class SubGroupTest : public SyncTest {
 protected:
  void SetUp() override;
  cl_uint maxSubGroupSize(cl_program program, const Shape &shape);
};

namespace detail {
template <typename T>
cl_int setOne(cl_kernel kernel, cl_uint index, const T &value) {
  return clSetKernelArg(kernel, index, sizeof(T), &value);
}
inline cl_int setOne(cl_kernel kernel, cl_uint index, const LocalBytes &local) {
  return clSetKernelArg(kernel, index, local.bytes, nullptr);
}
}  // namespace detail

template <typename... Args>
cl_int setKernelArgs(cl_kernel kernel, cl_uint first, const Args &...args) {
  cl_int err = CL_SUCCESS;
  cl_uint index = first;
  ((err = err == CL_SUCCESS ? detail::setOne(kernel, index++, args) : err), ...);
  return err;
}

template <typename T>
::testing::AssertionResult SyncTest::sameValues(const std::vector<T> &got,
                                                const std::vector<T> &want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "sizes " << got.size() << " vs " << want.size();
  size_t bad = 0;
  auto failure = ::testing::AssertionFailure();
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (++bad <= 8) failure << "\n  [" << i << "] got " << +got[i] << ", want " << +want[i];
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return failure << "\n  " << bad << " of " << got.size() << " elements differ";
}

template <typename In, typename Out>
void SyncTest::checkPerItem(cl_kernel kernel, const std::vector<Shape> &shapes,
                            const PerItem<In, Out> &spec) {
  ASSERT_NE(kernel, nullptr);
  for (const Shape &shape : shapes) {
    SCOPED_TRACE("shape " + shape.name());
    if (!fits(kernel, shape)) continue;
    const size_t n = shape.items();
    std::vector<In> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = spec.input(i);
    // The output starts as a pattern no reference produces by accident.
    std::vector<Out> sentinel(n * spec.perItem, Out(0x5a5a5a5));
    cl_mem mi = bufferFrom(in), mo = bufferFrom(sentinel);
    ASSERT_CL(setKernelArgs(kernel, 0, mi, mo));
    if (spec.extra) ASSERT_CL(spec.extra(kernel, shape));
    ASSERT_TRUE(launch(kernel, shape));
    std::vector<Out> want = sentinel;
    for (const Group &group : groupsOf(shape)) spec.reference(shape, group, in, want);
    ASSERT_TRUE(sameValues(read<Out>(mo, want.size()), want));
  }
}

// Kernel source text with every "TYPE" replaced by `type`.
inline std::string instantiate(std::string text, const std::string &type) {
  for (size_t at = text.find("TYPE"); at != std::string::npos; at = text.find("TYPE", at))
    text.replace(at, 4, type);
  return text;
}

}  // namespace lockstep::test::sync
