; Integer divisions that could trap on x86 divide by a guarded divisor.
; RUN: %opt -passes=lockstep-safe-integer-division -S %s | FileCheck %s

define i32 @signed(i32 %a, i32 %b) {
  %q = sdiv i32 %a, %b
  ret i32 %q
}
; The guard depends on the divisor alone; a division by -1 is a negation.
; CHECK-LABEL: define i32 @signed(
; CHECK: %[[ZERO:[0-9]+]] = icmp eq i32 %b, 0
; CHECK: %[[MINUS:[0-9]+]] = icmp eq i32 %b, -1
; CHECK: %[[EITHER:[0-9]+]] = or i1 %[[ZERO]], %[[MINUS]]
; CHECK: %safe.divisor = select i1 %[[EITHER]], i32 1, i32 %b
; CHECK: %q = sdiv i32 %a, %safe.divisor
; CHECK: %[[NEG:[0-9]+]] = sub i32 0, %a
; CHECK: %safe.result = select i1 %[[MINUS]], i32 %[[NEG]], i32 %q
; CHECK: ret i32 %safe.result

define i32 @signedRemainder(i32 %a, i32 %b) {
  %r = srem i32 %a, %b
  ret i32 %r
}
; x % -1 is 0.
; CHECK-LABEL: define i32 @signedRemainder(
; CHECK: %r = srem i32 %a, %safe.divisor
; CHECK: %safe.result = select i1 %{{[0-9]+}}, i32 0, i32 %r
; CHECK: ret i32 %safe.result

define <4 x i32> @unsigned(<4 x i32> %a, <4 x i32> %b) {
  %r = urem <4 x i32> %a, %b
  ret <4 x i32> %r
}
; CHECK-LABEL: define <4 x i32> @unsigned(
; CHECK: icmp eq <4 x i32> %b, zeroinitializer
; CHECK: urem <4 x i32> %a, %safe.divisor

define i32 @constant(i32 %a) {
  %q = sdiv i32 %a, 7
  ret i32 %q
}
; A divisor that is neither 0 nor -1 needs nothing.
; CHECK-LABEL: define i32 @constant(
; CHECK-NEXT: sdiv i32 %a, 7
