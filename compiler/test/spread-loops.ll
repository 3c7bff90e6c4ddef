; A work-item loop that stores through a zero-extended uint index whose step
; only the run knows (a tree level's `tree[stride * (2 * lid + 1) - 1]`) gets
; a scalar copy whose indices are 64-bit recurrences, which the vectorizer
; leaves alone (llvm.loop.isvectorized) and nothing unrolls. The copy runs
; when no index of the run passes 2^32 - 1 (its last value, start + step *
; trips, tells) and some index steps more than 2 elements. When every index
; steps by a constant times one uniform value, a copy for each value that
; makes the step at most 2 elements comes first: there the step and the
; offsets between the indices are constants, which the vectorizer loads and
; stores as whole vectors and shuffles. The loop runs as it was otherwise.
; RUN: %opt -passes=lockstep-spread-loops -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; An up-sweep level: tree[left + stride] += tree[left].
define void @level(ptr addrspace(3) %tree, i32 %stride, i64 %n) {
entry:
  %any = icmp ne i64 %n, 0
  br i1 %any, label %loop, label %done

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %lid32 = trunc i64 %lid to i32
  %twice = shl i32 %lid32, 1
  %odd = or disjoint i32 %twice, 1
  %scaled = mul i32 %odd, %stride
  %left = add i32 %scaled, -1
  %left.wide = zext i32 %left to i64
  %p.left = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 %left.wide
  %a = load i32, ptr addrspace(3) %p.left, align 4, !llvm.access.group !0
  %right = add i32 %left, %stride
  %right.wide = zext i32 %right to i64
  %p.right = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 %right.wide
  %b = load i32, ptr addrspace(3) %p.right, align 4, !llvm.access.group !0
  %sum = add i32 %a, %b
  store i32 %sum, ptr addrspace(3) %p.right, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %n
  br i1 %again, label %loop, label %done, !llvm.loop !1

done:
  ret void
}
; CHECK-LABEL: define void @level(
; The check, in the preheader: the trip count bounded, each index's last
; value (start + step * trips) below 2^32, some step above 2 elements.
; CHECK: loop.preheader:
; CHECK-NEXT: [[TRIPS:%.*]] = add i64 %n, -1
; CHECK-NEXT: icmp ule i64 [[TRIPS]], 1048576
; CHECK: [[STEP:%.*]] = zext i32 {{%.*}} to i64
; CHECK-NEXT: [[SPAN:%.*]] = mul i64 [[STEP]], [[TRIPS]]
; CHECK: [[LAST:%.*]] = add i64 {{%.*}}, [[SPAN]]
; CHECK-NEXT: icmp ule i64 [[LAST]], 4294967295
; CHECK: icmp ugt i64 [[STEP]], 2
; The step is 2 * %stride: a copy for stride 1, whose indices are 2 * lid
; and 2 * lid + 1.
; CHECK: [[ONE:%.*]] = icmp eq i32 %stride, 1
; CHECK-NEXT: %spread.fixed = and i1 {{%.*}}, [[ONE]]
; CHECK-NEXT: br i1 %spread.fixed, label %fixed1.not.fixed1, label %fixed1.not
; CHECK: loop.fixed1:
; CHECK-NEXT: %lid.fixed1 = phi i64
; CHECK-NEXT: [[EVEN:%.*]] = shl nuw i64 %lid.fixed1, 1
; CHECK-NEXT: [[ODD:%.*]] = add i64 [[EVEN]], 1
; CHECK: %p.left.fixed1 = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 [[EVEN]]
; CHECK: %p.right.fixed1 = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 [[ODD]]
; CHECK: br i1 %again.fixed1, label %loop.fixed1, label %done.loopexit, !llvm.loop [[FIXED:![0-9]+]]
; CHECK: fixed1.not:
; CHECK-NEXT: %spread.scalar = and i1
; CHECK-NEXT: br i1 %spread.scalar, label %spread.not.spread, label %spread.not
; The copy: both indices 64-bit recurrences, no zero extension left.
; CHECK: loop.spread:
; CHECK-NEXT: %lid.spread = phi i64
; CHECK-NEXT: [[OFF:%.*]] = mul i64 {{%.*}}, %lid.spread
; CHECK-NEXT: [[LEFT:%.*]] = add i64 {{%.*}}, [[OFF]]
; CHECK-NEXT: [[RIGHT:%.*]] = add i64 {{%.*}}, [[OFF]]
; CHECK-NOT: zext
; CHECK: %p.left.spread = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 [[LEFT]]
; CHECK: %p.right.spread = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 [[RIGHT]]
; CHECK: store i32 %sum.spread, ptr addrspace(3) %p.right.spread
; CHECK: br i1 %again.spread, label %loop.spread, label %done.loopexit, !llvm.loop [[COPY:![0-9]+]]
; The loop as it was, for the vectorizer.
; CHECK: loop:
; CHECK: %left.wide = zext i32 %left to i64
; CHECK: br i1 %again, label %loop, label %done.loopexit, !llvm.loop [[KEPT:![0-9]+]]
; CHECK: done.loopexit:
; CHECK-NEXT: br label %done

; Only reads through the spread index: a gather alone is cheaper than the
; scalar loop, so the loop stays as it is.
define i32 @gather_only(ptr addrspace(3) %tree, ptr %out, i32 %stride, i64 %n) {
entry:
  br label %loop

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %lid32 = trunc i64 %lid to i32
  %at = mul i32 %lid32, %stride
  %at.wide = zext i32 %at to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 %at.wide
  %v = load i32, ptr addrspace(3) %p, align 4, !llvm.access.group !0
  %q = getelementptr inbounds i32, ptr %out, i64 %lid
  store i32 %v, ptr %q, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %n
  br i1 %again, label %loop, label %done, !llvm.loop !1

done:
  ret i32 0
}
; CHECK-LABEL: define i32 @gather_only(
; CHECK-NOT: spread
; CHECK: ret i32 0

; A step known at compile time: the vectorizer's own strided accesses.
define void @constant_step(ptr addrspace(3) %tree, i64 %n) {
entry:
  br label %loop

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %lid32 = trunc i64 %lid to i32
  %at = mul i32 %lid32, 6
  %at.wide = zext i32 %at to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 %at.wide
  store i32 1, ptr addrspace(3) %p, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %n
  br i1 %again, label %loop, label %done, !llvm.loop !1

done:
  ret void
}
; CHECK-LABEL: define void @constant_step(
; CHECK-NOT: spread
; CHECK: ret void

; Not a work-item loop (no parallel accesses): a kernel's own loop.
define void @own_loop(ptr addrspace(3) %tree, i32 %stride, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %i32 = trunc i64 %i to i32
  %at = mul i32 %i32, %stride
  %at.wide = zext i32 %at to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, i64 %at.wide
  store i32 1, ptr addrspace(3) %p, align 4
  %next = add nuw nsw i64 %i, 1
  %again = icmp ult i64 %next, %n
  br i1 %again, label %loop, label %done

done:
  ret void
}
; CHECK-LABEL: define void @own_loop(
; CHECK-NOT: spread
; CHECK: ret void

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}

; The copy keeps the parallel accesses and is marked as vectorized and not
; to be unrolled; the loop keeps its own, distinct, properties.
; The stride-1 copy is for the vectorizer too, with its own id.
; CHECK: [[FIXED]] = distinct !{[[FIXED]], [[PARALLEL:![0-9]+]]}
; CHECK: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", !0}
; CHECK: [[COPY]] = distinct !{[[COPY]], [[PARALLEL]], [[ISVEC:![0-9]+]], [[NOUNROLL:![0-9]+]]}
; CHECK: [[ISVEC]] = !{!"llvm.loop.isvectorized", i32 1}
; CHECK: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK: [[KEPT]] = distinct !{[[KEPT]], [[PARALLEL]]}
