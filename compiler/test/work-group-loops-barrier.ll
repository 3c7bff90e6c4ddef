; A barrier splits the body into two regions, each a loop nest over the
; work-items; a value live across the barrier goes through the context block.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64 }

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %out = load ptr addrspace(1), ptr %args, align 8
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %x = load float, ptr addrspace(1) %out, align 4
  %y = fmul float %x, 2.0
  call void @_Z7barrierj(i32 1)
  %p = getelementptr float, ptr addrspace(1) %out, i64 %lid
  store float %y, ptr addrspace(1) %p, align 4
  ret void
}

; The local sizes are read once, in the prologue, which then enters the
; first region's loop nest.
; CHECK-LABEL: define void @wg(
; CHECK: prologue:
; CHECK: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 1
; CHECK: %ctx.slot = getelementptr i8, ptr %context
; CHECK: br label %region
; First region: computes %y per work-item and saves it in the context at the
; work-item's index; the innermost latch carries the parallel-loop marker.
; CHECK-DAG: %wi = add i64
; CHECK-DAG: %y.r = fmul float
; CHECK-DAG: %[[SAVE:.*]] = getelementptr float, ptr %ctx.slot, i64 %wi
; CHECK-DAG: store float %{{.*}}, ptr %[[SAVE]], align 4, {{.*}}!llvm.access.group [[GROUP:![0-9]+]]
; CHECK-DAG: br i1 %{{.*}}, label %wi.loop0, label %wi.next1, !llvm.loop [[LOOP:![0-9]+]]
; The loop over the rows is marked parallel with the same accesses.
; CHECK-DAG: br i1 %{{.*}}, label %wi.loop1, label %wi.next2, !llvm.loop [[ROWS:![0-9]+]]
; A local-memory barrier leaves no fence: one thread runs the group.
; CHECK-NOT: fence
; Second region: reloads %y for its work-item and stores it at its local id.
; CHECK-DAG: %[[LOAD:.*]] = getelementptr float, ptr %ctx.slot, i64 %wi12
; CHECK-DAG: load float, ptr %[[LOAD]]
; CHECK-DAG: getelementptr float, ptr addrspace(1) %out, i64 %lid011
; CHECK-NOT: call void @_Z7barrierj
; CHECK: attributes {{.*}}"lockstep-barriers"="1"{{.*}}"lockstep-context-bytes"="16"
; CHECK-DAG: [[ROWS]] = distinct !{[[ROWS]], [[PARALLEL:![0-9]+]]}
; CHECK-DAG: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", [[GROUP]]}
; CHECK-DAG: [[GROUP]] = distinct !{}
; CHECK-DAG: [[LOOP]] = distinct !{[[LOOP]], [[PARALLEL]]}
