; Kernels without loops, barriers or collectives are marked straight-line
; (on Zen 4 the pipeline gives them 256-bit vectors: they stream memory).
; With fold-narrow-rows (the pipeline's choice on AVX-512 targets), a
; straight-line kernel also gets a copy for groups whose width is not a
; multiple of 64 work-items, whose work-item loops ask the vectorizer to mask
; their tails (and not to interleave); the kernel's prologue calls it for
; such groups. Kernels with loops or barriers get no such copy, nor do
; straight-line kernels longer than -lockstep-masked-tail-max-instructions
; (long ones compute more than they store, and the copy doubles the build).
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s
; RUN: %opt -passes='lockstep-work-group<fold-narrow-rows>' -S %s | FileCheck %s --check-prefix=FOLD
; RUN: %opt -passes='lockstep-work-group<fold-narrow-rows>' -S %s | FileCheck %s --check-prefix=CODE
; RUN: %opt -passes='lockstep-work-group<fold-narrow-rows>' -lockstep-masked-tail-max-instructions=4 -S %s \
; RUN:   | FileCheck %s --check-prefix=LONG

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

; FOLD-LABEL: define void @add(
; The local size along x (GroupInfo field 1, element 0), tested last in
; the prologue.
; FOLD: %[[REST:[0-9]+]] = urem i64 %{{[0-9]+}}, 64
; FOLD-NEXT: %[[NARROW:[0-9]+]] = icmp ne i64 %[[REST]], 0
; FOLD-NEXT: br i1 %[[NARROW]], label %narrow.rows, label %{{.*}}
; FOLD: br i1 %{{[0-9]+}}, label %wi.loop0, label %wi.next1, !llvm.loop ![[PLAIN:[0-9]+]]
; FOLD: narrow.rows:
; FOLD-NEXT: call void @add.narrow_rows(ptr %args, ptr %group, ptr %local, ptr %context)
; FOLD-NEXT: ret void
; FOLD-LABEL: define void @loop(
; FOLD-NOT: narrow.rows
; FOLD-LABEL: define void @barrier(
; FOLD-NOT: narrow.rows
; FOLD-LABEL: define internal void @add.narrow_rows(
; FOLD: br i1 %{{[0-9]+}}, label %wi.loop0, label %wi.next1, !llvm.loop ![[FOLDED:[0-9]+]]
; FOLD: ![[PLAIN]] = distinct !{![[PLAIN]], ![[PARALLEL:[0-9]+]]}
; FOLD: ![[FOLDED]] = distinct !{![[FOLDED]], ![[PARALLEL2:[0-9]+]], ![[PREDICATE:[0-9]+]], ![[ONCE:[0-9]+]]}
; FOLD: ![[PREDICATE]] = !{!"llvm.loop.vectorize.predicate.enable", i1 true}
; FOLD: ![[ONCE]] = !{!"llvm.loop.interleave.count", i32 1}

; LONG-LABEL: define void @add(
; LONG-NOT: narrow.rows
; LONG-LABEL: define void @barrier(
; LONG-NOT: narrow_rows
; LONG: attributes #{{[0-9]+}} = {{{.*}}"lockstep-straight-line"

; Every work-group function and the copy it dispatches to is work-group code
; (ScalarizeWorkGroupCodePass scalarizes vector values there only).
; CODE: define void @add({{.*}}) #[[A:[0-9]+]]
; CODE: define void @loop({{.*}}) #[[L:[0-9]+]]
; CODE: define void @barrier({{.*}}) #[[B:[0-9]+]]
; CODE: define internal void @add.narrow_rows({{.*}}) #[[N:[0-9]+]]
; CODE-DAG: attributes #[[A]] = {{{.*}}"lockstep-work-group-code"
; CODE-DAG: attributes #[[L]] = {{{.*}}"lockstep-work-group-code"
; CODE-DAG: attributes #[[B]] = {{{.*}}"lockstep-work-group-code"
; CODE-DAG: attributes #[[N]] = {{{.*}}"lockstep-work-group-code"
