; A nest of work-item loops whose indices sign-extend 32-bit arithmetic on
; truncated ids (`int x = get_global_id(0)`, `in[y * w + x]`) gets a copy
; with that arithmetic in 64 bits, run when the corners of the nest's
; iteration space all give values in the 32-bit range; the nest as written
; (".narrow") runs otherwise, kept scalar. An index that steps along the
; inner loop by a value known only at run time (a gather) and one the nest
; does not change are left alone.
; RUN: %opt -passes=lockstep-wide-indices -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-wide-indices -lockstep-wide-indices-checks=0 -S %s | FileCheck %s --check-prefix=OFF

define void @rows(ptr %in, ptr %out, i64 %gx, i64 %gy, i32 %w, i64 %nx, i64 %ny) #0 {
entry:
  br label %ly.loop
ly.loop:
  %ly = phi i64 [ 0, %entry ], [ %ly.next, %ly.latch ]
  %yl = add i64 %gy, %ly
  %y = trunc i64 %yl to i32
  %row = mul i32 %y, %w
  br label %lx.loop
lx.loop:
  %lx = phi i64 [ 0, %ly.loop ], [ %lx.next, %lx.loop ]
  %xl = add i64 %gx, %lx
  %x = trunc i64 %xl to i32
  %i = add i32 %row, %x
  %i64 = sext i32 %i to i64
  %src = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %src, align 4, !llvm.access.group !0
  %dst = getelementptr float, ptr %out, i64 %i64
  store float %v, ptr %dst, align 4, !llvm.access.group !0
  %lx.next = add nuw nsw i64 %lx, 1
  %lx.more = icmp ult i64 %lx.next, %nx
  br i1 %lx.more, label %lx.loop, label %ly.latch, !llvm.loop !1
ly.latch:
  %ly.next = add nuw nsw i64 %ly, 1
  %ly.more = icmp ult i64 %ly.next, %ny
  br i1 %ly.more, label %ly.loop, label %exit, !llvm.loop !3
exit:
  ret void
}
; CHECK-LABEL: define void @rows(
; The corners checked once, before the nest:
; CHECK: entry:
; CHECK: %wide.in.range{{[0-9]*}} = and i1
; CHECK: %wide.wraps = xor i1 %wide.in.range{{[0-9]*}}, true
; CHECK: br i1 %wide.wraps, label %{{.*}}.narrow, label %{{.*}}, !prof
; The nest as written, for groups whose indices leave the range, kept
; scalar:
; CHECK: lx.loop.narrow:
; CHECK: %i64.narrow = sext i32 %i.narrow to i64
; CHECK: br i1 %lx.more.narrow, {{.*}} !llvm.loop [[NARROW:![0-9]+]]
; The copy with 64-bit indices, no extension left in it:
; CHECK: lx.loop:
; CHECK-NOT: sext
; CHECK: %src = getelementptr float, ptr %in, i64 %{{.*}}
; CHECK: ly.latch:
; OFF-LABEL: define void @rows(
; OFF-NOT: wide
; OFF: ret void

define void @gather(ptr %in, ptr %out, i64 %gx, i32 %stride, i64 %n) #0 {
entry:
  br label %loop
loop:
  %lx = phi i64 [ 0, %entry ], [ %next, %loop ]
  %xl = add i64 %gx, %lx
  %x = trunc i64 %xl to i32
  %i = mul i32 %x, %stride
  %i64 = sext i32 %i to i64
  %src = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %src, align 4, !llvm.access.group !0
  %dst = getelementptr float, ptr %out, i64 %lx
  store float %v, ptr %dst, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lx, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !1
exit:
  ret void
}
; CHECK-LABEL: define void @gather(
; CHECK-NOT: wide
; CHECK: %i64 = sext i32 %i to i64
; CHECK: ret void

define void @invariant(ptr %in, ptr %out, i64 %g, i64 %n) #0 {
entry:
  br label %loop
loop:
  %lx = phi i64 [ 0, %entry ], [ %next, %loop ]
  %x = trunc i64 %g to i32
  %x2 = add i32 %x, 7
  %i64 = sext i32 %x2 to i64
  %src = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %src, align 4, !llvm.access.group !0
  %dst = getelementptr float, ptr %out, i64 %lx
  store float %v, ptr %dst, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %lx, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !1
exit:
  ret void
}
; CHECK-LABEL: define void @invariant(
; CHECK-NOT: wide
; CHECK: ret void

; A row's loop behind a guard (`if (y < h)`), whose exit is the block the
; guard skips to: the nest (its root the x loop, the row loop not a work-item
; loop here) gets an exit of its own and is copied.
define void @guarded(ptr %out, i64 %gx, i32 %y, i32 %h, i32 %w, i64 %nx, i64 %ny) #0 {
entry:
  br label %row
row:
  %r = phi i64 [ 0, %entry ], [ %r.next, %row.latch ]
  %inside = icmp slt i32 %y, %h
  %base = mul i32 %y, %w
  br i1 %inside, label %lx.loop, label %row.latch
lx.loop:
  %lx = phi i64 [ 0, %row ], [ %lx.next, %lx.loop ]
  %xl = add i64 %gx, %lx
  %x = trunc i64 %xl to i32
  %i = add i32 %base, %x
  %i64 = sext i32 %i to i64
  %dst = getelementptr float, ptr %out, i64 %i64
  store float 1.0, ptr %dst, align 4, !llvm.access.group !0
  %lx.next = add nuw nsw i64 %lx, 1
  %lx.more = icmp ult i64 %lx.next, %nx
  br i1 %lx.more, label %lx.loop, label %row.latch, !llvm.loop !1
row.latch:
  %r.next = add nuw nsw i64 %r, 1
  %r.more = icmp ult i64 %r.next, %ny
  br i1 %r.more, label %row, label %exit
exit:
  ret void
}
; CHECK-LABEL: define void @guarded(
; CHECK: %wide.wraps = xor i1
; CHECK: lx.loop.narrow:
; CHECK: sext i32 %i.narrow to i64
; CHECK: lx.loop:
; CHECK-NOT: sext
; CHECK: store float 1.000000e+00
; CHECK: ret void

; The copy as written is marked vectorized (and not to unroll):
; CHECK: [[NARROW]] = distinct !{[[NARROW]], !{{[0-9]+}}, [[VEC:![0-9]+]], [[NOUNROLL:![0-9]+]]}
; CHECK: [[VEC]] = !{!"llvm.loop.isvectorized", i32 1}
; CHECK: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
