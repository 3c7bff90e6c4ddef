// The dispatch table every Lockstep handle points to, filled from the one
// list in runtime/api/entry_points.h. The Direct3D slots stay null: they are
// Windows-only (void* on this platform) and the loader never calls them here.
#include "Object.h"
#include "api/entry_points.h"

namespace lockstep::runtime {

namespace {
constexpr cl_icd_dispatch makeDispatchTable() {
  cl_icd_dispatch table{};
#define LOCKSTEP_FILL_SLOT(name) table.name = &lockstep::api::name;
  LOCKSTEP_ENTRY_POINTS(LOCKSTEP_FILL_SLOT)
#undef LOCKSTEP_FILL_SLOT
  return table;
}
}  // namespace

const cl_icd_dispatch kDispatchTable = makeDispatchTable();

}  // namespace lockstep::runtime
