; Pipe and reserve_id_t types become the storage's pointer and a pointer whose
; address is the id's bits (PipeAbi.h): signatures, allocas, loads and stores
; of reserve ids in memory (through a GEP over the type), constants, and the
; pipe builtins' accessors, which fold to their argument (through inttoptr
; and ptrtoint for a reserve id's bits). (Clang's CLK_NULL_RESERVE_ID, a
; bitcast of -1 to the type, has no textual form: the conformance tests
; check it.)
; RUN: %opt -passes=lockstep-image-type-lowering -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %ids, ptr addrspace(1) %out)
define spir_kernel void @k(target("spirv.Pipe", 1) %p, ptr addrspace(1) %ids, ptr addrspace(1) %out) {
entry:
; CHECK: %slot = alloca ptr addrspace(1)
  %slot = alloca target("spirv.Pipe", 1)
  store target("spirv.Pipe", 1) %p, ptr %slot
  %again = load target("spirv.Pipe", 1), ptr %slot
; CHECK: %r = call spir_func ptr @__reserve_write_pipe(ptr addrspace(1) %again, i32 1, i32 4, i32 4)
  %r = call spir_func target("spirv.ReserveId") @__reserve_write_pipe(target("spirv.Pipe", 1) %again, i32 1, i32 4, i32 4)
; CHECK: %at = getelementptr inbounds ptr, ptr addrspace(1) %ids, i64 2
; CHECK: store ptr %r, ptr addrspace(1) %at
; CHECK: %back = load ptr, ptr addrspace(1) %at
  %at = getelementptr inbounds target("spirv.ReserveId"), ptr addrspace(1) %ids, i64 2
  store target("spirv.ReserveId") %r, ptr addrspace(1) %at
  %back = load target("spirv.ReserveId"), ptr addrspace(1) %at
; CHECK: %valid = call spir_func i1 @is_valid(ptr poison)
  %valid = call spir_func i1 @is_valid(target("spirv.ReserveId") poison)
  %bits = call spir_func i64 @is_valid_bits(target("spirv.ReserveId") %back)
  store i64 %bits, ptr addrspace(1) %out
  ret void
}

declare spir_func target("spirv.ReserveId") @__reserve_write_pipe(target("spirv.Pipe", 1), i32, i32, i32)

; The accessors are gone: a pipe is its storage pointer, a reserve id's
; bits the pointer's address.
; CHECK-LABEL: define spir_func i64 @is_valid_bits(ptr %id)
; CHECK: %bits = ptrtoint ptr %id to i64
; CHECK: %made = inttoptr i64 %bits to ptr
; CHECK: %again = ptrtoint ptr %made to i64
; CHECK: ret i64 %again
define spir_func i64 @is_valid_bits(target("spirv.ReserveId") %id) {
  %bits = call i64 @__lockstep_reserve_bits(target("spirv.ReserveId") %id)
  %made = call target("spirv.ReserveId") @__lockstep_reserve_id(i64 %bits)
  %again = call i64 @__lockstep_reserve_bits(target("spirv.ReserveId") %made)
  ret i64 %again
}

; CHECK-LABEL: define spir_func i1 @is_valid(ptr %id)
define spir_func i1 @is_valid(target("spirv.ReserveId") %id) {
  %bits = call i64 @__lockstep_reserve_bits(target("spirv.ReserveId") %id)
  %ok = icmp ne i64 %bits, -1
  ret i1 %ok
}

; CHECK-LABEL: define spir_func ptr addrspace(1) @storage(ptr addrspace(1) %p)
; CHECK-NEXT: ret ptr addrspace(1) %p
define spir_func ptr addrspace(1) @storage(target("spirv.Pipe", 0) %p) {
  %s = call ptr addrspace(1) @__lockstep_pipe_ro(target("spirv.Pipe", 0) %p)
  ret ptr addrspace(1) %s
}

; CHECK-NOT: declare {{.*}}@__lockstep_reserve_bits
; CHECK-NOT: declare {{.*}}@__lockstep_reserve_id
; CHECK-NOT: declare {{.*}}@__lockstep_pipe_ro
declare i64 @__lockstep_reserve_bits(target("spirv.ReserveId"))
declare target("spirv.ReserveId") @__lockstep_reserve_id(i64)
declare ptr addrspace(1) @__lockstep_pipe_ro(target("spirv.Pipe", 0))
