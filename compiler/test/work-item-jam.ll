; A work-item loop (its accesses marked parallel) around one innermost kernel
; loop that carries a chain the vectorizer cannot widen (a float sum in
; program order, an integer hash) is unrolled and jammed by
; -lockstep-work-item-jam (8 chains in flight: eight work-items of one
; chain, four of two): the kernel loop's trip steps their chains, each in
; its own order, with one counter for all of them; the work-items left over
; run the loop as it was (`.epil`). The jammed loop is to be unrolled twice,
; no more. Left alone: a sum the vectorizer may reorder (reassoc) or widens
; (integers), a loop with an access not marked parallel, a loop of fewer
; work-items than the factor, a kernel loop behind a branch inside the
; work-item loop (its guard: -O3 unswitches a uniform one first where it
; can), a loop larger than -lockstep-work-item-jam-max-size over the factor,
; and everything with 1.
; (@rows is 14 instructions, @hashes 15: 8 copies of @rows fit in 112, of
; @hashes not.)
; RUN: %opt -passes=lockstep-work-item-jam -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-item-jam -lockstep-work-item-jam=1 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=lockstep-work-item-jam -lockstep-work-item-jam-max-size=112 -S %s \
; RUN:   | FileCheck %s --check-prefix=SIZE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; A row's float sum in program order: jammed.
define void @rows(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %acc.next = fadd float %acc, %v
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi float [ %acc.next, %k.loop ]
  %q = getelementptr float, ptr %out, i64 %x
  store float %s, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; The same sum, reassociable: the vectorizer widens the kernel loop itself.
define void @fast_rows(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %acc.next = fadd reassoc float %acc, %v
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi float [ %acc.next, %k.loop ]
  %q = getelementptr float, ptr %out, i64 %x
  store float %s, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; An integer sum: the same.
define void @int_sums(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi i32 [ 0, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr i32, ptr %a, i64 %i
  %v = load i32, ptr %p, align 4, !llvm.access.group !0
  %acc.next = add i32 %acc, %v
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi i32 [ %acc.next, %k.loop ]
  %q = getelementptr i32, ptr %out, i64 %x
  store i32 %s, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; An integer chain that is no reduction: jammed.
define void @hashes(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi i32 [ -2128831035, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr i32, ptr %a, i64 %i
  %v = load i32, ptr %p, align 4, !llvm.access.group !0
  %m = xor i32 %acc, %v
  %acc.next = mul i32 %m, 16777619
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi i32 [ %acc.next, %k.loop ]
  %q = getelementptr i32, ptr %out, i64 %x
  store i32 %s, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; A store not marked parallel (private memory the work-items share).
define void @shared(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %acc.next = fadd float %acc, %v
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi float [ %acc.next, %k.loop ]
  %q = getelementptr float, ptr %out, i64 %x
  store float %s, ptr %q, align 4
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; Four work-items, fewer than the factor.
define void @four_lanes(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %acc.next = fadd float %acc, %v
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi float [ %acc.next, %k.loop ]
  %q = getelementptr float, ptr %out, i64 %x
  store float %s, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, 4
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; Two sums a row (a sum and a sum of squares): 8 chains in flight take 4
; work-items.
define void @two_sums(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %sq = phi float [ 0.0, %wi ], [ %sq.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %acc.next = fadd float %acc, %v
  %v2 = fmul float %v, %v
  %sq.next = fadd float %sq, %v2
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi float [ %acc.next, %k.loop ]
  %s2 = phi float [ %sq.next, %k.loop ]
  %both = fadd float %s, %s2
  %q = getelementptr float, ptr %out, i64 %x
  store float %both, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; The kernel loop behind its guard (`%n` is not zero), inside the work-item
; loop: a trip of the work-item loop may skip it.
define void @guarded(ptr %a, ptr %out, i64 %lanes, i64 %n) #0 {
entry:
  %some = icmp ne i64 %n, 0
  br label %wi
wi:
  %x = phi i64 [ 0, %entry ], [ %x.next, %wi.latch ]
  %base = mul i64 %x, %n
  br i1 %some, label %k.loop, label %wi.latch
k.loop:
  %k = phi i64 [ 0, %wi ], [ %k.next, %k.loop ]
  %acc = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %i = add i64 %base, %k
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p, align 4, !llvm.access.group !0
  %acc.next = fadd float %acc, %v
  %k.next = add nuw nsw i64 %k, 1
  %k.more = icmp ult i64 %k.next, %n
  br i1 %k.more, label %k.loop, label %wi.latch
wi.latch:
  %s = phi float [ 0.0, %wi ], [ %acc.next, %k.loop ]
  %q = getelementptr float, ptr %out, i64 %x
  store float %s, ptr %q, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %lanes
  br i1 %x.more, label %wi, label %done, !llvm.loop !1
done:
  ret void
}

; CHECK-LABEL: define void @rows(
; CHECK: k.loop:
; CHECK-NEXT: %k = phi i64
; CHECK-NEXT: %acc = phi float
; CHECK-COUNT-7: %acc.{{[1-7]}} = phi float
; CHECK-NOT: phi
; CHECK: %acc.next = fadd float %acc, %v
; CHECK: %acc.next.1 = fadd float %acc.1, %v.1
; CHECK: %acc.next.7 = fadd float %acc.7, %v.7
; CHECK: icmp ult i64 %k.next, %n
; CHECK-NEXT: br i1 %k.more.7, label %k.loop, label %wi.latch, !llvm.loop ![[JAMMED:[0-9]+]]
; CHECK: wi.latch:
; CHECK-COUNT-8: store float
; CHECK: wi.epil:
; CHECK: k.loop.epil:
; CHECK-LABEL: define void @fast_rows(
; CHECK-NOT: %acc.1
; CHECK-LABEL: define void @int_sums(
; CHECK-NOT: %acc.1
; CHECK-LABEL: define void @hashes(
; CHECK: %acc.7 = phi i32
; CHECK: %m.7 = xor i32 %acc.7, %v.7
; CHECK: wi.epil:
; CHECK-LABEL: define void @shared(
; CHECK-NOT: %acc.1
; CHECK-LABEL: define void @four_lanes(
; CHECK-NOT: %acc.1
; CHECK-LABEL: define void @two_sums(
; CHECK: %sq.3 = phi float
; CHECK-NOT: %sq.4 = phi
; CHECK: wi.epil:
; CHECK-LABEL: define void @guarded(
; CHECK-NOT: %acc.1
; CHECK-LABEL: attributes
; CHECK: ![[JAMMED]] = distinct !{![[JAMMED]], ![[COUNT:[0-9]+]]}
; CHECK: ![[COUNT]] = !{!"llvm.loop.unroll.count", i32 2}

; OFF-NOT: %acc.1 =
; SIZE-LABEL: define void @rows(
; SIZE: %acc.7 = phi float
; SIZE-LABEL: define void @hashes(
; SIZE-NOT: %acc.1 =
; SIZE-LABEL: define void @shared(

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
