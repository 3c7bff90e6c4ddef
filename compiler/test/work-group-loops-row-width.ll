; The vector-rows versions run only groups as wide as their rows: the
; kernel's own reads of its width (get_local_size(0), a load of the group's
; localSize[0] in the prologue) become the row width, so that
; `ly * get_local_size(0) + lx` is the linear id the loops count
; (WorkItemLoopFlattenPass then runs such regions as one loop). The other
; versions keep the read, and their loops count to that same read
; (loadGroupInfo hands back a block's earlier read of a field), as does the
; dispatch's test of the width.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-group-shape"="rows" {
prologue:
  %out = load ptr addrspace(1), ptr %args, align 8, !invariant.load !0
  %wp = getelementptr inbounds i8, ptr %group, i64 24
  %w = load i64, ptr %wp, align 8, !invariant.load !0
  br label %body

body:
  %x = call i64 @__lockstep.local_id(i32 0)
  %y = call i64 @__lockstep.local_id(i32 1)
  %row = mul i64 %y, %w
  %l = add i64 %row, %x
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %l
  store float 1.0, ptr addrspace(1) %p, align 4
  call void @_Z7barrierj(i32 1)
  store float 2.0, ptr addrspace(1) %p, align 4
  ret void
}
!0 = !{}

; CHECK-LABEL: define void @wg(
; CHECK: %w = load i64, ptr %wp
; CHECK-NOT: = load i64, ptr %wp
; CHECK: icmp eq i64 %w, 16
; CHECK: icmp ult i64 %{{[0-9]+}}, %w
; CHECK: %row.r = mul i64 %lid1, %w
; CHECK-LABEL: define internal void @wg.vector_rows(
; CHECK-NOT: %w = load
; CHECK: %row.r = mul i64 %lid1, 16
; CHECK-LABEL: define internal void @wg.vector_rows4(
; CHECK-NOT: %w = load
; CHECK: %row.r = mul i64 %lid1, 4
