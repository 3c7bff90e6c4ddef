; Kernels without loops, barriers or collectives are marked straight-line
; (on Zen 4 the pipeline gives them 256-bit vectors: they stream memory).
; RUN: %opt -passes=lockstep-work-group-loops -S %s | FileCheck %s

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64 }

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @add(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="add" {
prologue:
  %a = load ptr addrspace(1), ptr %args, align 8
  br label %body
body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %p = getelementptr float, ptr addrspace(1) %a, i64 %lid
  %x = load float, ptr addrspace(1) %p, align 4
  %y = fadd float %x, 1.0
  store float %y, ptr addrspace(1) %p, align 4
  ret void
}

define void @loop(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="loop" {
prologue:
  %a = load ptr addrspace(1), ptr %args, align 8
  br label %body
body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header
header:
  %k = phi i64 [ 0, %body ], [ %k.next, %header ]
  %p = getelementptr float, ptr addrspace(1) %a, i64 %k
  store float 0.0, ptr addrspace(1) %p, align 4
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %lid
  br i1 %more, label %header, label %done
done:
  ret void
}

define void @barrier(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="barrier" {
prologue:
  br label %body
body:
  call void @_Z7barrierj(i32 1)
  ret void
}

; CHECK: define void @add({{.*}}) #[[ADD:[0-9]+]]
; CHECK: define void @loop({{.*}}) #[[LOOP:[0-9]+]]
; CHECK: define void @barrier({{.*}}) #[[BARRIER:[0-9]+]]
; CHECK: attributes #[[ADD]] = {{{.*}}"lockstep-straight-line"
; CHECK-NOT: attributes #[[LOOP]] = {{{.*}}"lockstep-straight-line"
; CHECK-NOT: attributes #[[BARRIER]] = {{{.*}}"lockstep-straight-line"
