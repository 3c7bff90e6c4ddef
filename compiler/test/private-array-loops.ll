; Loops of a few constant rounds that index a private array (an alloca SROA
; could not split, for its index changes from round to round) unroll fully,
; with every loop nested in them, and SROA then turns the array into values
; before the work-group loops would keep it in memory per work-item. Loops
; with a barrier, a trip count the compiler does not know, too many rounds
; or no such array are left as they are. Loops the kernel marked for
; unrolling (`#pragma unroll`) unroll here too, array or not.
; RUN: %opt -passes=lockstep-private-array-loops -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare void @_Z7barrierj(i32) convergent

; acc[w] += a[w] for w < 8, inside a k loop of 32: the whole nest.
define void @nest(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %acc = alloca [8 x float], align 4
  call void @llvm.memset.p0.i64(ptr %acc, i8 0, i64 32, i1 false)
  br label %k.loop

k.loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %k.latch ]
  br label %w.loop

w.loop:
  %w = phi i64 [ 0, %k.loop ], [ %w.next, %w.loop ]
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %w
  %x = load float, ptr addrspace(1) %pa, align 4
  %pacc = getelementptr inbounds [8 x float], ptr %acc, i64 0, i64 %w
  %old = load float, ptr %pacc, align 4
  %new = fadd float %old, %x
  store float %new, ptr %pacc, align 4
  %w.next = add nuw nsw i64 %w, 1
  %w.done = icmp eq i64 %w.next, 8
  br i1 %w.done, label %k.latch, label %w.loop

k.latch:
  %k.next = add nuw nsw i32 %k, 1
  %k.done = icmp eq i32 %k.next, 32
  br i1 %k.done, label %exit, label %k.loop

exit:
  %p0 = getelementptr inbounds [8 x float], ptr %acc, i64 0, i64 3
  %v = load float, ptr %p0, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}
; CHECK-LABEL: define void @nest(
; CHECK-NOT: alloca
; CHECK-NOT: br i1
; CHECK-NOT: load float, ptr %
; CHECK: %new.3.31 = fadd float %new.3.30, %x.3.31
; CHECK: store float %new.3.31, ptr addrspace(1) %out
; CHECK-NEXT: ret void

; The same loop with a barrier in it, one whose bound is an argument, one of
; 100 rounds, and one that indexes only global memory: none is marked.
define void @left_alone(ptr addrspace(1) %a, i64 %n) {
entry:
  %acc = alloca [128 x float], align 4
  br label %barrier.loop

barrier.loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %barrier.loop ]
  %pi = getelementptr inbounds [128 x float], ptr %acc, i64 0, i64 %i
  store float 1.0, ptr %pi, align 4
  call void @_Z7barrierj(i32 1)
  %i.next = add nuw nsw i64 %i, 1
  %i.done = icmp eq i64 %i.next, 8
  br i1 %i.done, label %unknown.loop, label %barrier.loop

unknown.loop:
  %j = phi i64 [ 0, %barrier.loop ], [ %j.next, %unknown.loop ]
  %pj = getelementptr inbounds [128 x float], ptr %acc, i64 0, i64 %j
  store float 2.0, ptr %pj, align 4
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp uge i64 %j.next, %n
  br i1 %j.done, label %long.loop, label %unknown.loop

long.loop:
  %l = phi i64 [ 0, %unknown.loop ], [ %l.next, %long.loop ]
  %pl = getelementptr inbounds [128 x float], ptr %acc, i64 0, i64 %l
  store float 3.0, ptr %pl, align 4
  %l.next = add nuw nsw i64 %l, 1
  %l.done = icmp eq i64 %l.next, 100
  br i1 %l.done, label %global.loop, label %long.loop

global.loop:
  %g = phi i64 [ 0, %long.loop ], [ %g.next, %global.loop ]
  %pg = getelementptr inbounds float, ptr addrspace(1) %a, i64 %g
  %pc = getelementptr inbounds [128 x float], ptr %acc, i64 0, i64 5
  %c = load float, ptr %pc, align 4
  store float %c, ptr addrspace(1) %pg, align 4
  %g.next = add nuw nsw i64 %g, 1
  %g.done = icmp eq i64 %g.next, 8
  br i1 %g.done, label %exit, label %global.loop

exit:
  ret void
}
; CHECK-LABEL: define void @left_alone(
; CHECK: %acc = alloca [128 x float]
; CHECK: br i1 %i.done, label %unknown.loop, label %barrier.loop
; CHECK: br i1 %j.done, label %long.loop, label %unknown.loop
; CHECK: br i1 %l.done, label %global.loop, label %long.loop
; CHECK: br i1 %g.done, label %exit, label %global.loop

; A loop the kernel marked with `#pragma unroll`, with no private array in
; the function: unrolled all the same.
define void @pragma(ptr addrspace(1) %a) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 4
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  ret void
}
; CHECK-LABEL: define void @pragma(
; CHECK-NOT: br i1
; CHECK: store float 1.000000e+00, ptr addrspace(1) %a
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %a, i64 12
; CHECK-NOT: br i1
; CHECK: ret void

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.enable"}
