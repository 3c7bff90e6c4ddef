; `tile[i / W][i % W]` addresses element i of the tile: the pair of indices
; becomes one, so the vectorizer sees a consecutive access.
; RUN: %opt -passes=lockstep-flatten-div-rem-indices -S %s | FileCheck %s

@tile = internal addrspace(3) global [18 x [18 x float]] poison

; Signed quotient and remainder, sign-extended (Clang's form for int i).
define void @signed_pair(i32 %i, float %v) {
  %div = sdiv i32 %i, 18
  %row = sext i32 %div to i64
  %rem = srem i32 %i, 18
  %col = sext i32 %rem to i64
  %p = getelementptr inbounds [18 x [18 x float]], ptr addrspace(3) @tile, i64 0, i64 %row, i64 %col
  store float %v, ptr addrspace(3) %p
  ret void
}
; CHECK-LABEL: define void @signed_pair(
; CHECK: [[I:%.*]] = sext i32 %i to i64
; CHECK-NEXT: %p = getelementptr inbounds float, ptr addrspace(3) @tile, i64 [[I]]
; CHECK-NEXT: store float %v, ptr addrspace(3) %p

; Unsigned and 64-bit, the pair first, and an index after it, kept.
define ptr @unsigned_with_rest(ptr %m, i64 %x, i64 %k) {
  %q = udiv i64 %x, 5
  %r = urem i64 %x, 5
  %p = getelementptr [5 x [4 x i32]], ptr %m, i64 %q, i64 %r, i64 %k
  ret ptr %p
}
; CHECK-LABEL: define ptr @unsigned_with_rest(
; CHECK: %r = urem
; CHECK-NEXT: %p = getelementptr [4 x i32], ptr %m, i64 %x, i64 %k

; Not the same pair: another divisor than the row length, mixed signedness,
; a zext of a signed pair, or two different dividends.
define void @left_alone(i32 %i, i32 %j, float %v) {
  %d1 = sdiv i32 %i, 16
  %r1 = srem i32 %i, 16
  %a1 = sext i32 %d1 to i64
  %b1 = sext i32 %r1 to i64
  %p1 = getelementptr [18 x [18 x float]], ptr addrspace(3) @tile, i64 0, i64 %a1, i64 %b1
  store float %v, ptr addrspace(3) %p1
  %d2 = sdiv i32 %i, 18
  %r2 = urem i32 %i, 18
  %a2 = sext i32 %d2 to i64
  %b2 = zext i32 %r2 to i64
  %p2 = getelementptr [18 x [18 x float]], ptr addrspace(3) @tile, i64 0, i64 %a2, i64 %b2
  store float %v, ptr addrspace(3) %p2
  %r3 = srem i32 %i, 18
  %a3 = zext i32 %d2 to i64
  %b3 = zext i32 %r3 to i64
  %p3 = getelementptr [18 x [18 x float]], ptr addrspace(3) @tile, i64 0, i64 %a3, i64 %b3
  store float %v, ptr addrspace(3) %p3
  %r4 = srem i32 %j, 18
  %b4 = sext i32 %r4 to i64
  %p4 = getelementptr [18 x [18 x float]], ptr addrspace(3) @tile, i64 0, i64 %a2, i64 %b4
  store float %v, ptr addrspace(3) %p4
  ret void
}
; CHECK-LABEL: define void @left_alone(
; CHECK-NOT: getelementptr {{.*}}float, ptr
; CHECK: ret void
