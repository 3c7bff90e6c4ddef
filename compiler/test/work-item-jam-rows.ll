; Rows of work-items around their x loop: a loop over rows (marked parallel
; like its x loop) whose x loop runs a few trips (a row of the vector-rows
; version), each trip a long chain of float operations that reads values no
; row changes (Bs[k][tx] of a 16 x 16 tile) is unrolled and jammed by
; -lockstep-work-item-jam: 4 rows with 512-bit vectors (2 with 256). Each
; instruction of the x loop's trip lies next to its copies for the other
; rows, so the 4 chains advance together, and a copy that computes or loads
; what the one before it did (Bs[k][tx]) is that one. The row's own loads
; that GVN hoisted out of the x loop (As[ty][k]) lost their parallel marks;
; they read no private memory, so the rows stay independent. Left alone: a
; chain shorter than -lockstep-work-item-jam-row-chain (8), a row loop that
; reads a private variable the work-items share (an alloca, never marked),
; and everything with -lockstep-work-item-jam-row-chain=0.
; RUN: %opt -passes=lockstep-work-item-jam -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-item-jam -lockstep-work-item-jam-row-chain=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Eight multiply-adds a trip: jammed by 4, interleaved, Bs loaded once.
define void @tile(ptr %acc, ptr addrspace(3) %as, ptr addrspace(3) %bs, i64 %rows, ptr %shared) #0 {
entry:
  br label %y
y:
  %ty = phi i64 [ 0, %entry ], [ %ty.next, %y.latch ]
  %arow = getelementptr [16 x float], ptr addrspace(3) %as, i64 %ty
  %a0p = getelementptr float, ptr addrspace(3) %arow, i64 0
  %a0 = load float, ptr addrspace(3) %a0p, align 4
  %a1p = getelementptr float, ptr addrspace(3) %arow, i64 1
  %a1 = load float, ptr addrspace(3) %a1p, align 4
  %a2p = getelementptr float, ptr addrspace(3) %arow, i64 2
  %a2 = load float, ptr addrspace(3) %a2p, align 4
  %a3p = getelementptr float, ptr addrspace(3) %arow, i64 3
  %a3 = load float, ptr addrspace(3) %a3p, align 4
  %a4p = getelementptr float, ptr addrspace(3) %arow, i64 4
  %a4 = load float, ptr addrspace(3) %a4p, align 4
  %a5p = getelementptr float, ptr addrspace(3) %arow, i64 5
  %a5 = load float, ptr addrspace(3) %a5p, align 4
  %a6p = getelementptr float, ptr addrspace(3) %arow, i64 6
  %a6 = load float, ptr addrspace(3) %a6p, align 4
  %a7p = getelementptr float, ptr addrspace(3) %arow, i64 7
  %a7 = load float, ptr addrspace(3) %a7p, align 4
  %rowbase = shl i64 %ty, 4
  br label %x
x:
  %tx = phi i64 [ 0, %y ], [ %tx.next, %x ]
  %wi = add i64 %rowbase, %tx
  %cp = getelementptr float, ptr %acc, i64 %wi
  %c = load float, ptr %cp, align 4, !llvm.access.group !0
  %b0p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 0, i64 %tx
  %b0 = load float, ptr addrspace(3) %b0p, align 4, !llvm.access.group !0
  %f0 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c)
  %b1p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 1, i64 %tx
  %b1 = load float, ptr addrspace(3) %b1p, align 4, !llvm.access.group !0
  %f1 = call float @llvm.fmuladd.f32(float %a1, float %b1, float %f0)
  %b2p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 2, i64 %tx
  %b2 = load float, ptr addrspace(3) %b2p, align 4, !llvm.access.group !0
  %f2 = call float @llvm.fmuladd.f32(float %a2, float %b2, float %f1)
  %b3p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 3, i64 %tx
  %b3 = load float, ptr addrspace(3) %b3p, align 4, !llvm.access.group !0
  %f3 = call float @llvm.fmuladd.f32(float %a3, float %b3, float %f2)
  %b4p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 4, i64 %tx
  %b4 = load float, ptr addrspace(3) %b4p, align 4, !llvm.access.group !0
  %f4 = call float @llvm.fmuladd.f32(float %a4, float %b4, float %f3)
  %b5p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 5, i64 %tx
  %b5 = load float, ptr addrspace(3) %b5p, align 4, !llvm.access.group !0
  %f5 = call float @llvm.fmuladd.f32(float %a5, float %b5, float %f4)
  %b6p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 6, i64 %tx
  %b6 = load float, ptr addrspace(3) %b6p, align 4, !llvm.access.group !0
  %f6 = call float @llvm.fmuladd.f32(float %a6, float %b6, float %f5)
  %b7p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 7, i64 %tx
  %b7 = load float, ptr addrspace(3) %b7p, align 4, !llvm.access.group !0
  %f7 = call float @llvm.fmuladd.f32(float %a7, float %b7, float %f6)
  store float %f7, ptr %cp, align 4, !llvm.access.group !0
  %tx.next = add nuw nsw i64 %tx, 1
  %more = icmp ult i64 %tx.next, 16
  br i1 %more, label %x, label %y.latch, !llvm.loop !1
y.latch:
  %ty.next = add nuw nsw i64 %ty, 1
  %ymore = icmp ult i64 %ty.next, %rows
  br i1 %ymore, label %y, label %done, !llvm.loop !3
done:
  ret void
}
; CHECK-LABEL: define void @tile(
; CHECK: x:
; CHECK: %b0 = load float, ptr addrspace(3) %b0p
; CHECK-NEXT: %f0 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c)
; CHECK-NEXT: %f0.1 = call float @llvm.fmuladd.f32(float %a0.1, float %b0, float %c.1)
; CHECK-NEXT: %f0.2 = call float @llvm.fmuladd.f32(float %a0.2, float %b0, float %c.2)
; CHECK-NEXT: %f0.3 = call float @llvm.fmuladd.f32(float %a0.3, float %b0, float %c.3)
; CHECK-NOT: load float, ptr addrspace(3) %b0p
; CHECK: %f7.3 = call float @llvm.fmuladd.f32(float %a7.3, float %b7, float %f6.3)
; CHECK: store float %f7.3, ptr %cp.3
; CHECK: br i1 {{.*}}, label %x, label %y.latch
; The rows left over run one a trip.
; CHECK: y.epil:
; CHECK-NOT: lockstep.jam.position
; OFF-LABEL: define void @tile(
; OFF-NOT: %f0.1
; OFF: ret void

; With 256-bit vectors: 2 rows.
define void @narrow(ptr %acc, ptr addrspace(3) %as, ptr addrspace(3) %bs, i64 %rows, ptr %shared) #1 {
entry:
  br label %y
y:
  %ty = phi i64 [ 0, %entry ], [ %ty.next, %y.latch ]
  %arow = getelementptr [16 x float], ptr addrspace(3) %as, i64 %ty
  %a0p = getelementptr float, ptr addrspace(3) %arow, i64 0
  %a0 = load float, ptr addrspace(3) %a0p, align 4
  %a1p = getelementptr float, ptr addrspace(3) %arow, i64 1
  %a1 = load float, ptr addrspace(3) %a1p, align 4
  %a2p = getelementptr float, ptr addrspace(3) %arow, i64 2
  %a2 = load float, ptr addrspace(3) %a2p, align 4
  %a3p = getelementptr float, ptr addrspace(3) %arow, i64 3
  %a3 = load float, ptr addrspace(3) %a3p, align 4
  %a4p = getelementptr float, ptr addrspace(3) %arow, i64 4
  %a4 = load float, ptr addrspace(3) %a4p, align 4
  %a5p = getelementptr float, ptr addrspace(3) %arow, i64 5
  %a5 = load float, ptr addrspace(3) %a5p, align 4
  %a6p = getelementptr float, ptr addrspace(3) %arow, i64 6
  %a6 = load float, ptr addrspace(3) %a6p, align 4
  %a7p = getelementptr float, ptr addrspace(3) %arow, i64 7
  %a7 = load float, ptr addrspace(3) %a7p, align 4
  %rowbase = shl i64 %ty, 4
  br label %x
x:
  %tx = phi i64 [ 0, %y ], [ %tx.next, %x ]
  %wi = add i64 %rowbase, %tx
  %cp = getelementptr float, ptr %acc, i64 %wi
  %c = load float, ptr %cp, align 4, !llvm.access.group !0
  %b0p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 0, i64 %tx
  %b0 = load float, ptr addrspace(3) %b0p, align 4, !llvm.access.group !0
  %f0 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c)
  %b1p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 1, i64 %tx
  %b1 = load float, ptr addrspace(3) %b1p, align 4, !llvm.access.group !0
  %f1 = call float @llvm.fmuladd.f32(float %a1, float %b1, float %f0)
  %b2p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 2, i64 %tx
  %b2 = load float, ptr addrspace(3) %b2p, align 4, !llvm.access.group !0
  %f2 = call float @llvm.fmuladd.f32(float %a2, float %b2, float %f1)
  %b3p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 3, i64 %tx
  %b3 = load float, ptr addrspace(3) %b3p, align 4, !llvm.access.group !0
  %f3 = call float @llvm.fmuladd.f32(float %a3, float %b3, float %f2)
  %b4p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 4, i64 %tx
  %b4 = load float, ptr addrspace(3) %b4p, align 4, !llvm.access.group !0
  %f4 = call float @llvm.fmuladd.f32(float %a4, float %b4, float %f3)
  %b5p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 5, i64 %tx
  %b5 = load float, ptr addrspace(3) %b5p, align 4, !llvm.access.group !0
  %f5 = call float @llvm.fmuladd.f32(float %a5, float %b5, float %f4)
  %b6p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 6, i64 %tx
  %b6 = load float, ptr addrspace(3) %b6p, align 4, !llvm.access.group !0
  %f6 = call float @llvm.fmuladd.f32(float %a6, float %b6, float %f5)
  %b7p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 7, i64 %tx
  %b7 = load float, ptr addrspace(3) %b7p, align 4, !llvm.access.group !0
  %f7 = call float @llvm.fmuladd.f32(float %a7, float %b7, float %f6)
  store float %f7, ptr %cp, align 4, !llvm.access.group !0
  %tx.next = add nuw nsw i64 %tx, 1
  %more = icmp ult i64 %tx.next, 16
  br i1 %more, label %x, label %y.latch, !llvm.loop !1
y.latch:
  %ty.next = add nuw nsw i64 %ty, 1
  %ymore = icmp ult i64 %ty.next, %rows
  br i1 %ymore, label %y, label %done, !llvm.loop !3
done:
  ret void
}
; CHECK-LABEL: define void @narrow(
; CHECK: %f0.1 = call float @llvm.fmuladd.f32
; CHECK-NOT: %f0.2 =
; CHECK: ret void

; Four multiply-adds a trip: too short a chain to pay.
; CHECK-LABEL: define void @short(
; CHECK-NOT: %f0.1 =
; CHECK: ret void
define void @short(ptr %acc, ptr addrspace(3) %as, ptr addrspace(3) %bs, i64 %rows, ptr %shared) #0 {
entry:
  br label %y
y:
  %ty = phi i64 [ 0, %entry ], [ %ty.next, %y.latch ]
  %arow = getelementptr [16 x float], ptr addrspace(3) %as, i64 %ty
  %a0p = getelementptr float, ptr addrspace(3) %arow, i64 0
  %a0 = load float, ptr addrspace(3) %a0p, align 4
  %a1p = getelementptr float, ptr addrspace(3) %arow, i64 1
  %a1 = load float, ptr addrspace(3) %a1p, align 4
  %a2p = getelementptr float, ptr addrspace(3) %arow, i64 2
  %a2 = load float, ptr addrspace(3) %a2p, align 4
  %a3p = getelementptr float, ptr addrspace(3) %arow, i64 3
  %a3 = load float, ptr addrspace(3) %a3p, align 4
  %rowbase = shl i64 %ty, 4
  br label %x
x:
  %tx = phi i64 [ 0, %y ], [ %tx.next, %x ]
  %wi = add i64 %rowbase, %tx
  %cp = getelementptr float, ptr %acc, i64 %wi
  %c = load float, ptr %cp, align 4, !llvm.access.group !0
  %b0p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 0, i64 %tx
  %b0 = load float, ptr addrspace(3) %b0p, align 4, !llvm.access.group !0
  %f0 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c)
  %b1p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 1, i64 %tx
  %b1 = load float, ptr addrspace(3) %b1p, align 4, !llvm.access.group !0
  %f1 = call float @llvm.fmuladd.f32(float %a1, float %b1, float %f0)
  %b2p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 2, i64 %tx
  %b2 = load float, ptr addrspace(3) %b2p, align 4, !llvm.access.group !0
  %f2 = call float @llvm.fmuladd.f32(float %a2, float %b2, float %f1)
  %b3p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 3, i64 %tx
  %b3 = load float, ptr addrspace(3) %b3p, align 4, !llvm.access.group !0
  %f3 = call float @llvm.fmuladd.f32(float %a3, float %b3, float %f2)
  store float %f3, ptr %cp, align 4, !llvm.access.group !0
  %tx.next = add nuw nsw i64 %tx, 1
  %more = icmp ult i64 %tx.next, 16
  br i1 %more, label %x, label %y.latch, !llvm.loop !1
y.latch:
  %ty.next = add nuw nsw i64 %ty, 1
  %ymore = icmp ult i64 %ty.next, %rows
  br i1 %ymore, label %y, label %done, !llvm.loop !3
done:
  ret void
}

; A row loop that reads a private variable all work-items share.
; CHECK-LABEL: define void @shared_variable(
; CHECK-NOT: %f0.1 =
; CHECK: ret void
define void @shared_variable(ptr %acc, ptr addrspace(3) %as, ptr addrspace(3) %bs, i64 %rows, ptr %shared) #0 {
entry:
  %variable = alloca float, align 4
  br label %y
y:
  %ty = phi i64 [ 0, %entry ], [ %ty.next, %y.latch ]
  %arow = getelementptr [16 x float], ptr addrspace(3) %as, i64 %ty
  %a0p = getelementptr float, ptr addrspace(3) %arow, i64 0
  %a0 = load float, ptr addrspace(3) %a0p, align 4
  %a1p = getelementptr float, ptr addrspace(3) %arow, i64 1
  %a1 = load float, ptr addrspace(3) %a1p, align 4
  %a2p = getelementptr float, ptr addrspace(3) %arow, i64 2
  %a2 = load float, ptr addrspace(3) %a2p, align 4
  %a3p = getelementptr float, ptr addrspace(3) %arow, i64 3
  %a3 = load float, ptr addrspace(3) %a3p, align 4
  %a4p = getelementptr float, ptr addrspace(3) %arow, i64 4
  %a4 = load float, ptr addrspace(3) %a4p, align 4
  %a5p = getelementptr float, ptr addrspace(3) %arow, i64 5
  %a5 = load float, ptr addrspace(3) %a5p, align 4
  %a6p = getelementptr float, ptr addrspace(3) %arow, i64 6
  %a6 = load float, ptr addrspace(3) %a6p, align 4
  %a7p = getelementptr float, ptr addrspace(3) %arow, i64 7
  %a7 = load float, ptr addrspace(3) %a7p, align 4
  %seen = load float, ptr %variable, align 4
  %rowbase = shl i64 %ty, 4
  br label %x
x:
  %tx = phi i64 [ 0, %y ], [ %tx.next, %x ]
  %wi = add i64 %rowbase, %tx
  %cp = getelementptr float, ptr %acc, i64 %wi
  %c = load float, ptr %cp, align 4, !llvm.access.group !0
  %b0p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 0, i64 %tx
  %b0 = load float, ptr addrspace(3) %b0p, align 4, !llvm.access.group !0
  %f0 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c)
  %b1p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 1, i64 %tx
  %b1 = load float, ptr addrspace(3) %b1p, align 4, !llvm.access.group !0
  %f1 = call float @llvm.fmuladd.f32(float %a1, float %b1, float %f0)
  %b2p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 2, i64 %tx
  %b2 = load float, ptr addrspace(3) %b2p, align 4, !llvm.access.group !0
  %f2 = call float @llvm.fmuladd.f32(float %a2, float %b2, float %f1)
  %b3p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 3, i64 %tx
  %b3 = load float, ptr addrspace(3) %b3p, align 4, !llvm.access.group !0
  %f3 = call float @llvm.fmuladd.f32(float %a3, float %b3, float %f2)
  %b4p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 4, i64 %tx
  %b4 = load float, ptr addrspace(3) %b4p, align 4, !llvm.access.group !0
  %f4 = call float @llvm.fmuladd.f32(float %a4, float %b4, float %f3)
  %b5p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 5, i64 %tx
  %b5 = load float, ptr addrspace(3) %b5p, align 4, !llvm.access.group !0
  %f5 = call float @llvm.fmuladd.f32(float %a5, float %b5, float %f4)
  %b6p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 6, i64 %tx
  %b6 = load float, ptr addrspace(3) %b6p, align 4, !llvm.access.group !0
  %f6 = call float @llvm.fmuladd.f32(float %a6, float %b6, float %f5)
  %b7p = getelementptr [16 x float], ptr addrspace(3) %bs, i64 7, i64 %tx
  %b7 = load float, ptr addrspace(3) %b7p, align 4, !llvm.access.group !0
  %f7 = call float @llvm.fmuladd.f32(float %a7, float %b7, float %f6)
  store float %f7, ptr %cp, align 4, !llvm.access.group !0
  %tx.next = add nuw nsw i64 %tx, 1
  %more = icmp ult i64 %tx.next, 16
  br i1 %more, label %x, label %y.latch, !llvm.loop !1
y.latch:
  %ty.next = add nuw nsw i64 %ty, 1
  %ymore = icmp ult i64 %ty.next, %rows
  br i1 %ymore, label %y, label %done, !llvm.loop !3
done:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" "lockstep-work-group-code" }
attributes #1 = { "target-cpu"="x86-64-v3" "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
