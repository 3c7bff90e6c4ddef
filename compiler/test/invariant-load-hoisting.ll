; InvariantLoadHoistingPass: invariant loads of an image descriptor's fields
; (the pointer loaded from the argument block, dereferenceable for the whole
; descriptor) move out of the work-item loop and its conditions to just
; after the pointer's load, and loads of one field become one; a field that
; an assumption states (a specialized launch's format) becomes its value.
; RUN: %opt -passes=lockstep-invariant-load-hoisting -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @write_rows(
; CHECK:       prologue:
; CHECK-NEXT:    %image = load ptr addrspace(1), ptr %args
; CHECK-NEXT:    [[D:%.*]] = getelementptr inbounds i8, ptr addrspace(1) %image, i64 0
; CHECK-NEXT:    [[DATA:%.*]] = load ptr addrspace(1), ptr addrspace(1) [[D]], align 8, !invariant.load
; CHECK-NEXT:    [[W:%.*]] = getelementptr inbounds i8, ptr addrspace(1) %image, i64 24
; CHECK-NEXT:    [[WIDTH:%.*]] = load i32, ptr addrspace(1) [[W]], align 8, !tbaa !{{[0-9]+}}, !invariant.load
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     load
; CHECK:         %inside = icmp ult i32 %x32, [[WIDTH]]
; The field past the descriptor and the untrusted pointer's field stay.
; CHECK:       write:
; CHECK-NEXT:    %far.ptr =
; CHECK-NEXT:    %far = load i32, ptr addrspace(1) %far.ptr, align 4, !invariant.load
; CHECK-NEXT:    %plain.ptr =
; CHECK-NEXT:    %plain = load i32, ptr addrspace(1) %plain.ptr, align 4, !invariant.load
; CHECK-NEXT:    %bound = icmp ult i32 %x32, [[WIDTH]]
; CHECK-NEXT:    %texel = getelementptr inbounds i32, ptr addrspace(1) [[DATA]], i64 %x
define void @write_rows(ptr %args, ptr addrspace(1) %untrusted, i64 %n) {
prologue:
  %image = load ptr addrspace(1), ptr %args, align 8, !invariant.load !0, !dereferenceable !1
  br label %loop

loop:
  %x = phi i64 [ 0, %prologue ], [ %next, %latch ]
  %x32 = trunc i64 %x to i32
  %width.ptr = getelementptr inbounds i8, ptr addrspace(1) %image, i64 24
  %width.loop = load i32, ptr addrspace(1) %width.ptr, align 8, !tbaa !2, !invariant.load !0
  %inside = icmp ult i32 %x32, %width.loop
  br i1 %inside, label %write, label %latch

write:
  %data = load ptr addrspace(1), ptr addrspace(1) %image, align 8, !invariant.load !0
  %width.again = load i32, ptr addrspace(1) %width.ptr, align 4, !invariant.load !0
  %far.ptr = getelementptr inbounds i8, ptr addrspace(1) %image, i64 88
  %far = load i32, ptr addrspace(1) %far.ptr, align 4, !invariant.load !0
  %plain.ptr = getelementptr inbounds i8, ptr addrspace(1) %untrusted, i64 4
  %plain = load i32, ptr addrspace(1) %plain.ptr, align 4, !invariant.load !0
  %bound = icmp ult i32 %x32, %width.again
  %texel = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %x
  %sum = add i32 %far, %plain
  store i32 %sum, ptr addrspace(1) %texel, align 4
  br label %latch

latch:
  %next = add nuw i64 %x, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The field loaded again under the assumption is the prologue's load; what
; the assumption dominates reads 4277, what it does not the load.
; CHECK-LABEL: define i32 @assumed_format(
; CHECK:       entry.body:
; CHECK-NEXT:    %is.rgba = icmp eq i32 %order.before, 4277
; CHECK-NEXT:    call void @llvm.assume(i1 %is.rgba)
; CHECK:       body:
; CHECK-NEXT:    switch i32 4277, label %other [
; CHECK:       other:
; CHECK-NEXT:    ret i32 %order.before
define i32 @assumed_format(ptr %args, i1 %c) {
prologue:
  %image = load ptr addrspace(1), ptr %args, align 8, !invariant.load !0, !dereferenceable !1
  %order.ptr = getelementptr inbounds i8, ptr addrspace(1) %image, i64 40
  %order.before = load i32, ptr addrspace(1) %order.ptr, align 4, !invariant.load !0
  br i1 %c, label %entry.body, label %other

entry.body:
  %order = load i32, ptr addrspace(1) %order.ptr, align 4, !invariant.load !0
  %is.rgba = icmp eq i32 %order, 4277
  call void @llvm.assume(i1 %is.rgba)
  br label %body

body:
  switch i32 %order, label %other [
    i32 4277, label %rgba
  ]

rgba:
  ret i32 1

other:
  ret i32 %order.before
}

declare void @llvm.assume(i1)

!0 = !{}
!1 = !{i64 88}
!2 = !{!3, !3, i64 0}
!3 = !{!"int", !4}
!4 = !{!"Simple C/C++ TBAA"}
