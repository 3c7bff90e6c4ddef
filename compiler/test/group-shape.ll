; Each kernel's global accesses have a slope along get_global_id(0): small
; everywhere ("rows"), a row's pitch somewhere ("columns"), or one the pass
; cannot read (no shape). A kernel that never asks for its group is
; "lockstep-group-free". A kernel whose global stores all run down columns
; (a row's pitch along x, at most 16 bytes along y: a transpose's), but
; those that stay in one place along y, is "lockstep-column-stores"; one
; that reads down a column and stores along rows, or stores both ways, is
; not.
; RUN: %opt -passes=lockstep-group-shape -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-group-shape -lockstep-group-shapes=false -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=lockstep-group-shape -lockstep-column-stores=false -S %s | FileCheck %s --check-prefix=NOCOLUMNS

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare void @opaque(ptr addrspace(1))
declare i32 @llvm.smax.i32(i32, i32)

@tile = internal addrspace(3) global [256 x float] undef

; in[y * W + max(x - 1, 0)] and out[y * W + x] with `int` indices, sign
; extended the way InstCombine writes it: rows.
; CHECK: define void @stencil({{.*}} #[[STENCIL:[0-9]+]]
define void @stencil(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %W) "lockstep-kernel"="stencil" {
  %gx = call i64 @_Z13get_global_idj(i32 0)
  %gy = call i64 @_Z13get_global_idj(i32 1)
  %x = trunc i64 %gx to i32
  %y = trunc i64 %gy to i32
  %row = mul nsw i32 %y, %W
  %left = add nsw i32 %x, -1
  %clamped = call i32 @llvm.smax.i32(i32 %left, i32 0)
  %i = add nsw i32 %row, %clamped
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i64
  %v = load float, ptr addrspace(1) %p
  %j = add nsw i32 %row, %x
  %j64s = zext i32 %j to i64
  %j64 = shl i64 %j64s, 32
  %j64e = ashr exact i64 %j64, 32
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %j64e
  store float %v, ptr addrspace(1) %q
  ret void
}

; out[x * H + y] = in[y * W + x]: the store walks down a column.
; CHECK: define void @transpose({{.*}} #[[TRANSPOSE:[0-9]+]]
define void @transpose(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %W, i64 %H) "lockstep-kernel"="transpose" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %yw = mul i64 %y, %W
  %i = add i64 %yw, %x
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p
  %xh = mul i64 %x, %H
  %j = add i64 %xh, %y
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %j
  store float %v, ptr addrspace(1) %q
  ret void
}

; Gaussian elimination's row update: a[x * W + y] -= m[x * W] * a[y], and
; b[x] where y is 0, a store that stays in one place along y: column stores.
; CHECK: define void @eliminate({{.*}} #[[ELIMINATE:[0-9]+]]
define void @eliminate(ptr addrspace(1) %a, ptr addrspace(1) %m, ptr addrspace(1) %b, i64 %W) "lockstep-kernel"="eliminate" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %row = mul i64 %x, %W
  %i = add i64 %row, %y
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %va = load float, ptr addrspace(1) %pa
  %pm = getelementptr inbounds float, ptr addrspace(1) %m, i64 %row
  %vm = load float, ptr addrspace(1) %pm
  %pt = getelementptr inbounds float, ptr addrspace(1) %a, i64 %y
  %vt = load float, ptr addrspace(1) %pt
  %prod = fmul float %vm, %vt
  %new = fsub float %va, %prod
  store float %new, ptr addrspace(1) %pa
  %first = icmp eq i64 %y, 0
  br i1 %first, label %rhs, label %done
rhs:
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %x
  %vb = load float, ptr addrspace(1) %pb
  %nb = fsub float %vb, %vm
  store float %nb, ptr addrspace(1) %pb
  br label %done
done:
  ret void
}

; Reads down a column, stores along a row.
; CHECK: define void @read_columns({{.*}} #[[READ_COLUMNS:[0-9]+]]
define void @read_columns(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %W, i64 %H) "lockstep-kernel"="read_columns" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %xh = mul i64 %x, %H
  %i = add i64 %xh, %y
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p
  %yw = mul i64 %y, %W
  %j = add i64 %yw, %x
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %j
  store float %v, ptr addrspace(1) %q
  ret void
}

; Stores down a column and along a row.
; CHECK: define void @both_ways({{.*}} #[[BOTH_WAYS:[0-9]+]]
define void @both_ways(ptr addrspace(1) %out, ptr addrspace(1) %out2, i64 %W, i64 %H) "lockstep-kernel"="both_ways" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %xh = mul i64 %x, %H
  %i = add i64 %xh, %y
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float 1.0, ptr addrspace(1) %p
  %yw = mul i64 %y, %W
  %j = add i64 %yw, %x
  %q = getelementptr inbounds float, ptr addrspace(1) %out2, i64 %j
  store float 2.0, ptr addrspace(1) %q
  ret void
}

; An index helper the kernel calls: read with the call's arguments.
define internal i64 @index(i64 %col, i64 %row, i64 %pitch) {
  %r = mul i64 %row, %pitch
  %i = add i64 %r, %col
  ret i64 %i
}

; CHECK: define void @helper_rows({{.*}} #[[HELPER_ROWS:[0-9]+]]
define void @helper_rows(ptr addrspace(1) %out, i64 %W) "lockstep-kernel"="helper_rows" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %i = call i64 @index(i64 %x, i64 %y, i64 %W)
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float 1.0, ptr addrspace(1) %q
  ret void
}

; CHECK: define void @helper_columns({{.*}} #[[HELPER_COLUMNS:[0-9]+]]
define void @helper_columns(ptr addrspace(1) %out, i64 %W) "lockstep-kernel"="helper_columns" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %y = call i64 @_Z13get_global_idj(i32 1)
  %i = call i64 @index(i64 %y, i64 %x, i64 %W)
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float 1.0, ptr addrspace(1) %q
  ret void
}

; in[idx[x]]: a slope the pass cannot read, no shape; still free.
; CHECK: define void @gather({{.*}} #[[GATHER:[0-9]+]]
define void @gather(ptr addrspace(1) %in, ptr addrspace(1) %idx, ptr addrspace(1) %out) "lockstep-kernel"="gather" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %x
  %i = load i32, ptr addrspace(1) %pi
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i64
  %v = load float, ptr addrspace(1) %p
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %q
  ret void
}

; A function the pass cannot see into, given a moving global pointer.
; CHECK: define void @opaque_call({{.*}} #[[OPAQUE_CALL:[0-9]+]]
define void @opaque_call(ptr addrspace(1) %out) "lockstep-kernel"="opaque_call" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  call void @opaque(ptr addrspace(1) %q)
  ret void
}

; Asks for its local id: rows, not free.
; CHECK: define void @local_id({{.*}} #[[LOCAL_ID:[0-9]+]]
define void @local_id(ptr addrspace(1) %out) "lockstep-kernel"="local_id" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %l = call i64 @_Z12get_local_idj(i32 0)
  %q = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %x
  store i64 %l, ptr addrspace(1) %q
  ret void
}

; __local memory: not free.
; CHECK: define void @local_memory({{.*}} #[[LOCAL_MEMORY:[0-9]+]]
define void @local_memory(ptr addrspace(1) %out) "lockstep-kernel"="local_memory" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %t = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 0
  %v = load float, ptr addrspace(3) %t
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %q
  ret void
}

; An atomic at work-group scope: not free. At device scope ("agent"): free.
; CHECK: define void @group_atomic({{.*}} #[[GROUP_ATOMIC:[0-9]+]]
define void @group_atomic(ptr addrspace(1) %out) "lockstep-kernel"="group_atomic" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  %old = atomicrmw add ptr addrspace(1) %q, i32 1 syncscope("workgroup") seq_cst
  ret void
}

; CHECK: define void @device_atomic({{.*}} #[[DEVICE_ATOMIC:[0-9]+]]
define void @device_atomic(ptr addrspace(1) %out) "lockstep-kernel"="device_atomic" {
  %x = call i64 @_Z13get_global_idj(i32 0)
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  %old = atomicrmw add ptr addrspace(1) %q, i32 1 syncscope("agent") seq_cst
  ret void
}

; CHECK-DAG: attributes #[[STENCIL]] = { "lockstep-group-free" "lockstep-group-shape"="rows" "lockstep-kernel"="stencil" }
; CHECK-DAG: attributes #[[TRANSPOSE]] = { "lockstep-column-stores" "lockstep-group-free" "lockstep-group-shape"="columns" "lockstep-kernel"="transpose" }
; CHECK-DAG: attributes #[[ELIMINATE]] = { "lockstep-column-stores" "lockstep-group-free" "lockstep-group-shape"="columns" "lockstep-kernel"="eliminate" }
; CHECK-DAG: attributes #[[READ_COLUMNS]] = { "lockstep-group-free" "lockstep-group-shape"="columns" "lockstep-kernel"="read_columns" }
; CHECK-DAG: attributes #[[BOTH_WAYS]] = { "lockstep-group-free" "lockstep-group-shape"="columns" "lockstep-kernel"="both_ways" }
; CHECK-DAG: attributes #[[HELPER_ROWS]] = { "lockstep-group-free" "lockstep-group-shape"="rows" "lockstep-kernel"="helper_rows" }
; CHECK-DAG: attributes #[[HELPER_COLUMNS]] = { "lockstep-column-stores" "lockstep-group-free" "lockstep-group-shape"="columns" "lockstep-kernel"="helper_columns" }
; CHECK-DAG: attributes #[[GATHER]] = { "lockstep-group-free" "lockstep-kernel"="gather" }
; CHECK-DAG: attributes #[[OPAQUE_CALL]] = { "lockstep-group-free" "lockstep-kernel"="opaque_call" }
; CHECK-DAG: attributes #[[LOCAL_ID]] = { "lockstep-group-shape"="rows" "lockstep-kernel"="local_id" }
; CHECK-DAG: attributes #[[LOCAL_MEMORY]] = { "lockstep-group-shape"="rows" "lockstep-kernel"="local_memory" }
; CHECK-DAG: attributes #[[GROUP_ATOMIC]] = { "lockstep-group-shape"="rows" "lockstep-kernel"="group_atomic" }
; CHECK-DAG: attributes #[[DEVICE_ATOMIC]] = { "lockstep-group-free" "lockstep-group-shape"="rows" "lockstep-kernel"="device_atomic" }

; OFF-NOT: lockstep-group-shape"=
; OFF-NOT: lockstep-group-free
; NOCOLUMNS-NOT: lockstep-column-stores
