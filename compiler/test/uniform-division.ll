; A division in a loop by a value the loop does not change becomes a
; multiplication by the divisor's reciprocal, computed in the preheader. A
; 64-bit division whose dividend steps through the loop gets a copy of the
; loop, run when the dividend's first and last values and the divisor are
; below 2^32, with the division narrowed to 32 bits.
; RUN: %opt -passes=lockstep-uniform-division -S %s | FileCheck %s

define void @unsigned32(ptr %out, i32 %d, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %x = trunc i64 %i to i32
  %q = udiv i32 %x, %d
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %q, ptr %p, align 4
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
; CHECK-LABEL: define void @unsigned32(
; The reciprocal, once:
; CHECK: entry:
; CHECK: %div.d = select i1 %{{[0-9]+}}, i32 1, i32 %d
; CHECK: call i32 @llvm.ctlz.i32(
; CHECK: %div.l = sub i32 32,
; CHECK: udiv i64
; CHECK: %div.m = trunc i64 %{{[0-9]+}} to i32
; In the loop: the high half of a product, two shifts, no division.
; CHECK: loop:
; CHECK-NOT: udiv
; CHECK: mul i64
; CHECK: lshr i64 %{{[0-9]+}}, 32
; CHECK: %q = lshr i32
; CHECK: exit:

define void @signedRemainder(ptr %out, i32 %d, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %x = trunc i64 %i to i32
  %y = sub i32 100, %x
  %r = srem i32 %y, %d
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %r, ptr %p, align 4
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
; Magnitudes, then the dividend's sign.
; CHECK-LABEL: define void @signedRemainder(
; CHECK: entry:
; CHECK: call i32 @llvm.abs.i32(i32 %d, i1 false)
; CHECK: loop:
; CHECK-NOT: srem
; CHECK: call i32 @llvm.abs.i32(i32 %y, i1 false)
; CHECK: %div.r = sub i32
; CHECK: icmp slt i32 %y, 0
; CHECK: %r = select i1

define void @wide(ptr %out, i64 %base, i64 %d, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %x = add i64 %base, %i
  %r = urem i64 %x, %d
  %p = getelementptr i64, ptr %out, i64 %i
  store i64 %r, ptr %p, align 8
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
; CHECK-LABEL: define void @wide(
; The check: trip count, first and last dividend, divisor below 2^32.
; CHECK: icmp ult i64 %{{.*}}, 4294967296
; CHECK: icmp ult i64 %base, 4294967296
; CHECK: icmp ult i64 %{{.*}}, 4294967296
; CHECK: icmp ult i64 %d, 4294967296
; CHECK: br i1 %{{.*}}, label %div32.not.div32, label %div32.not
; The copy narrows the dividend and multiplies; the original keeps the
; division.
; CHECK: loop.div32:
; CHECK-NOT: urem
; CHECK: trunc i64 %x.div32 to i32
; CHECK: %r.div32 = zext i32 %div.r to i64
; CHECK: loop:
; CHECK: %r = urem i64 %x, %d
