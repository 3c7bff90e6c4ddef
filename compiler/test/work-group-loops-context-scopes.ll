; The context's slots are disjoint, but their offsets scale with the local
; size, which alias analysis cannot see through: each slot has an alias scope,
; and the accesses addressed from a slot are marked apart from the others.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64 }

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

; Two values cross the barrier: two slots.
define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %out = load ptr addrspace(1), ptr %args, align 8
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %p = getelementptr float, ptr addrspace(1) %out, i64 %lid
  %x = load float, ptr addrspace(1) %p, align 4
  %y = fmul float %x, 2.0
  %z = fadd float %x, 1.0
  call void @_Z7barrierj(i32 1)
  %q = getelementptr float, ptr addrspace(1) %out, i64 %lid
  %s = fsub float %y, %z
  store float %s, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @wg(
; CHECK: %[[A:ctx.slot[0-9]*]] = getelementptr i8, ptr %context
; CHECK: %[[B:ctx.slot[0-9]*]] = getelementptr i8, ptr %context
; Saved before the barrier, each under its own slot's scope and apart from
; the other's (with two slots, one slot's "apart" list is the other's scope).
; CHECK-DAG: %[[SA:[0-9]+]] = getelementptr float, ptr %[[A]], i64 %wi
; CHECK-DAG: store float %{{.*}}, ptr %[[SA]], align 4, !alias.scope ![[LA:[0-9]+]], !noalias ![[LB:[0-9]+]]
; CHECK-DAG: %[[SB:[0-9]+]] = getelementptr float, ptr %[[B]], i64 %wi
; CHECK-DAG: store float %{{.*}}, ptr %[[SB]], align 4, !alias.scope ![[LB]], !noalias ![[LA]]
; Reloaded after it under the same scopes.
; CHECK: region{{[0-9]+}}:
; CHECK-DAG: %[[RA:[0-9]+]] = getelementptr float, ptr %[[A]], i64 %wi{{[0-9]+}}
; CHECK-DAG: load float, ptr %[[RA]], align 4, !alias.scope ![[LA]], !noalias ![[LB]]
; CHECK-DAG: %[[RB:[0-9]+]] = getelementptr float, ptr %[[B]], i64 %wi{{[0-9]+}}
; CHECK-DAG: load float, ptr %[[RB]], align 4, !alias.scope ![[LB]], !noalias ![[LA]]
; One scope per slot, in one domain.
; CHECK-DAG: ![[LA]] = !{![[SA_ID:[0-9]+]]}
; CHECK-DAG: ![[LB]] = !{![[SB_ID:[0-9]+]]}
; CHECK-DAG: ![[SA_ID]] = distinct !{![[SA_ID]], ![[DOMAIN:[0-9]+]]}
; CHECK-DAG: ![[SB_ID]] = distinct !{![[SB_ID]], ![[DOMAIN]]}
; CHECK-DAG: ![[DOMAIN]] = distinct !{![[DOMAIN]], !"lockstep.context"}
