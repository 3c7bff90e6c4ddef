; Integer divisions that could trap on x86 divide by a guarded divisor.
; RUN: %opt -passes=lockstep-safe-division -S %s | FileCheck %s

define i32 @signed(i32 %a, i32 %b) {
  %q = sdiv i32 %a, %b
  ret i32 %q
}
; CHECK-LABEL: define i32 @signed(
; CHECK: icmp eq i32 %b, 0
; CHECK: icmp eq i32 %b, -1
; CHECK: icmp eq i32 %a, -2147483648
; CHECK: %safe.divisor = select i1 %{{.*}}, i32 1, i32 %b
; CHECK: sdiv i32 %a, %safe.divisor

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
