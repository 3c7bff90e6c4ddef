; The context's slots are disjoint, but their offsets scale with the local
; size, which alias analysis cannot see through: each slot has an alias scope,
; and the accesses addressed from a slot are marked apart from the others and
; from kernel memory, whose own accesses get a scope of their own
; (KernelMemoryScope.cpp).
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s --check-prefix=LEAKS

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
; the other's and from kernel memory (KernelMemoryScope.cpp).
; CHECK-DAG: %[[SA:[0-9]+]] = getelementptr float, ptr %[[A]], i64 %wi
; CHECK-DAG: store float %{{.*}}, ptr %[[SA]], align 4, !alias.scope ![[LA:[0-9]+]], !noalias ![[NA:[0-9]+]]
; CHECK-DAG: %[[SB:[0-9]+]] = getelementptr float, ptr %[[B]], i64 %wi
; CHECK-DAG: store float %{{.*}}, ptr %[[SB]], align 4, !alias.scope ![[LB:[0-9]+]], !noalias ![[NB:[0-9]+]]
; The kernel's own load, in the kernel-memory scope.
; CHECK-DAG: load float, ptr addrspace(1) %p.r, align 4, !alias.scope ![[KL:[0-9]+]]
; Reloaded after it under the same scopes.
; CHECK: region{{[0-9]+}}:
; CHECK-DAG: %[[RA:[0-9]+]] = getelementptr float, ptr %[[A]], i64 %wi{{[0-9]+}}
; CHECK-DAG: load float, ptr %[[RA]], align 4, !alias.scope ![[LA]], !noalias ![[NA]]
; CHECK-DAG: %[[RB:[0-9]+]] = getelementptr float, ptr %[[B]], i64 %wi{{[0-9]+}}
; CHECK-DAG: load float, ptr %[[RB]], align 4, !alias.scope ![[LB]], !noalias ![[NB]]
; CHECK-DAG: store float %{{.*}}, ptr addrspace(1) %q.r, align 4, !alias.scope ![[KL]]
; One scope per slot, in one domain; kernel memory in a domain of its own.
; CHECK-DAG: ![[LA]] = !{![[SA_ID:[0-9]+]]}
; CHECK-DAG: ![[LB]] = !{![[SB_ID:[0-9]+]]}
; CHECK-DAG: ![[NA]] = !{![[SB_ID]], ![[KM:[0-9]+]]}
; CHECK-DAG: ![[NB]] = !{![[SA_ID]], ![[KM]]}
; CHECK-DAG: ![[KL]] = !{![[KM]]}
; CHECK-DAG: ![[SA_ID]] = distinct !{![[SA_ID]], ![[DOMAIN:[0-9]+]]}
; CHECK-DAG: ![[SB_ID]] = distinct !{![[SB_ID]], ![[DOMAIN]]}
; CHECK-DAG: ![[KM]] = distinct !{![[KM]], ![[KDOMAIN:[0-9]+]]}
; CHECK-DAG: ![[KDOMAIN]] = distinct !{![[KDOMAIN]], !"lockstep.kernel-memory"}
; CHECK-DAG: ![[DOMAIN]] = distinct !{![[DOMAIN]], !"lockstep.context"}

; A kernel that stores the address of its private array to memory could load
; it back and reach the context through it: its kernel memory is not scoped
; apart (no `lockstep.kernel_memory` on the function).
define void @leaks(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="leaks" {
prologue:
  %out = load ptr addrspace(1), ptr %args, align 8
  %arr = alloca [4 x float], align 4
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %slot = getelementptr ptr, ptr addrspace(1) %out, i64 %lid
  store ptr %arr, ptr addrspace(1) %slot, align 8
  %e = getelementptr float, ptr %arr, i64 %lid
  store float 1.0, ptr %e, align 4
  call void @_Z7barrierj(i32 1)
  %back = load ptr, ptr addrspace(1) %slot, align 8
  %v = load float, ptr %back, align 4
  %f = getelementptr float, ptr addrspace(1) %out, i64 %lid
  store float %v, ptr addrspace(1) %f, align 4
  ret void
}

; LEAKS: define void @leaks(ptr %args, ptr %group, ptr %local, ptr %context) #{{[0-9]+}} {
