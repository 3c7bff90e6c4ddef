; lockstep-inner-unroll: a loop of a few constant rounds inside a work-item
; loop is unrolled whole before the vectorizer, so that the work-item loop is
; innermost and widens (AMD's URNG: 17 rounds of a Park-Miller step in a
; helper, which -O3's full unroller, counting each division by a constant
; as several instructions, had left a loop). Loops of more than 32 rounds,
; loops the kernel asked not to unroll, and loops outside work-item loops
; stay.
; RUN: %opt -passes=lockstep-inner-unroll -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-inner-unroll -lockstep-inner-unroll-size=0 -S %s | FileCheck %s --check-prefix=OFF

; for (j = 16; j >= 0; j--) { k = idum / 127773; idum = 16807 * (idum - k * 127773) - 2836 * k;
;                             if (j < 16) iv[16 * wi + j] = idum; }
; CHECK-LABEL: define void @shuffle_table(
; CHECK-NOT: br i1 %more.j
; CHECK-COUNT-17: sdiv i32
; CHECK: br i1 %done, label %exit, label %wi
; OFF-LABEL: define void @shuffle_table(
; OFF: br i1 %more.j, label %j.loop, label %wi.latch
define void @shuffle_table(ptr addrspace(3) %iv, ptr addrspace(1) %seed) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  %sp = getelementptr inbounds i32, ptr addrspace(1) %seed, i64 %i
  %s = load i32, ptr addrspace(1) %sp, align 4, !llvm.access.group !0
  %row = shl i64 %i, 4
  br label %j.loop
j.loop:
  %j = phi i32 [ 16, %wi ], [ %j.next, %j.latch ]
  %idum = phi i32 [ %s, %wi ], [ %idum.next, %j.latch ]
  %k = sdiv i32 %idum, 127773
  %kq = mul i32 %k, 127773
  %r = sub i32 %idum, %kq
  %a = mul i32 %r, 16807
  %b = mul i32 %k, 2836
  %idum.next = sub i32 %a, %b
  %keep = icmp slt i32 %j, 16
  br i1 %keep, label %j.store, label %j.latch
j.store:
  %j64 = sext i32 %j to i64
  %slot = add i64 %row, %j64
  %p = getelementptr inbounds i32, ptr addrspace(3) %iv, i64 %slot
  store i32 %idum.next, ptr addrspace(3) %p, align 4, !llvm.access.group !0
  br label %j.latch
j.latch:
  %j.next = add nsw i32 %j, -1
  %more.j = icmp sge i32 %j.next, 0
  br i1 %more.j, label %j.loop, label %wi.latch
wi.latch:
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 64
  br i1 %done, label %exit, label %wi, !llvm.loop !1
exit:
  ret void
}

; 40 rounds: left to the vectorizer as it is.
; CHECK-LABEL: define void @many_rounds(
; CHECK: br i1 %more.j, label %j.loop, label %wi.latch
define void @many_rounds(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %wi ], [ %j.next, %j.loop ]
  %sum = phi float [ 0.0, %wi ], [ %sum.next, %j.loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %j
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %sum.next = fadd float %sum, %v
  %j.next = add nuw nsw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 40
  br i1 %more.j, label %j.loop, label %wi.latch
wi.latch:
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %sum.next, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 64
  br i1 %done, label %exit, label %wi, !llvm.loop !2
exit:
  ret void
}

; `#pragma unroll 1` (unroll.disable): stays a loop.
; CHECK-LABEL: define void @kept(
; CHECK: br i1 %more.j, label %j.loop, label %wi.latch, !llvm.loop
define void @kept(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %wi ], [ %j.next, %j.loop ]
  %sum = phi float [ 0.0, %wi ], [ %sum.next, %j.loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %j
  %v = load float, ptr addrspace(1) %p, align 4, !llvm.access.group !0
  %sum.next = fadd float %sum, %v
  %j.next = add nuw nsw i64 %j, 1
  %more.j = icmp ult i64 %j.next, 4
  br i1 %more.j, label %j.loop, label %wi.latch, !llvm.loop !4
wi.latch:
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %sum.next, ptr addrspace(1) %q, align 4, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 64
  br i1 %done, label %exit, label %wi, !llvm.loop !3
exit:
  ret void
}

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !5}
!2 = distinct !{!2, !5}
!3 = distinct !{!3, !5}
!4 = distinct !{!4, !6}
!5 = !{!"llvm.loop.parallel_accesses", !0}
!6 = !{!"llvm.loop.unroll.disable"}
