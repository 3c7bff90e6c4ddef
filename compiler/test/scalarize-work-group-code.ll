; Vector values split into scalars in work-group code only, where the loop
; vectorizer widens each element across the work-items, and only where they
; are narrower than a vector register. A helper -O3 left uninlined runs one
; work-item a call: its uint16 arithmetic stays in vector registers (split,
; it ran scalar, 16 times the instructions). Work-group code whose uint16
; values fill a 512-bit register stays whole too; with 256-bit registers
; (AVX2) float4 is still split and float8 is not. A uchar4 or short2 load or
; store becomes one of an i32 whose elements are shifts of it (a pixel a
; work-item, consecutive words across work-items), not four byte accesses.
; A float4 taken through double (the built-ins' float log) is a <4 x double>
; that fills a 256-bit register but is no vector of the kernel's own: split.
; RUN: %opt -passes=lockstep-scalarize-work-group-code -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define <16 x i32> @helper(<16 x i32> %a, <16 x i32> %b) #0 {
  %sum = add <16 x i32> %a, %b
  %rotated = call <16 x i32> @llvm.fshl.v16i32(<16 x i32> %sum, <16 x i32> %sum, <16 x i32> splat (i32 7))
  ret <16 x i32> %rotated
}

define void @work_group(ptr %out, <4 x float> %a, <4 x float> %b) #1 {
  %sum = fadd <4 x float> %a, %b
  store <4 x float> %sum, ptr %out
  ret void
}

define void @full_width(ptr %out, <16 x i32> %a, <16 x i32> %b) #1 {
  %sum = add <16 x i32> %a, %b
  store <16 x i32> %sum, ptr %out
  ret void
}

define void @avx2_float8(ptr %out, <8 x float> %a, <8 x float> %b, <4 x float> %c, <4 x float> %d) #2 {
  %sum = fadd <8 x float> %a, %b
  store <8 x float> %sum, ptr %out
  ret void
}

define void @avx2_float4(ptr %out, <4 x float> %a, <4 x float> %b) #2 {
  %sum = fadd <4 x float> %a, %b
  store <4 x float> %sum, ptr %out
  ret void
}

define void @avx2_float4_log(ptr %out, <4 x float> %a) #2 {
  %wide = fpext <4 x float> %a to <4 x double>
  %log = call <4 x double> @llvm.log.v4f64(<4 x double> %wide)
  %narrow = fptrunc <4 x double> %log to <4 x float>
  store <4 x float> %narrow, ptr %out
  ret void
}

define void @avx2_double4(ptr %out, <4 x double> %a, <4 x double> %b) #2 {
  %sum = fadd <4 x double> %a, %b
  store <4 x double> %sum, ptr %out
  ret void
}

define void @pixels(ptr %in, ptr %out) #1 {
  %p = load <4 x i8>, ptr %in, align 4
  %q = add <4 x i8> %p, <i8 1, i8 2, i8 3, i8 4>
  store <4 x i8> %q, ptr %out, align 4
  ret void
}

declare <16 x i32> @llvm.fshl.v16i32(<16 x i32>, <16 x i32>, <16 x i32>)

attributes #0 = { "target-cpu"="znver4" "prefer-vector-width"="512" }
attributes #1 = { "lockstep-work-group-code" "target-cpu"="znver4" "prefer-vector-width"="512" }
attributes #2 = { "lockstep-work-group-code" "target-cpu"="haswell" }

; CHECK-LABEL: define <16 x i32> @helper(
; CHECK-NEXT: %sum = add <16 x i32> %a, %b
; CHECK-NEXT: call <16 x i32> @llvm.fshl.v16i32(
; CHECK-LABEL: define void @work_group(
; CHECK-NOT: fadd <4 x float>
; CHECK-COUNT-4: fadd float
; CHECK-NOT: store <4 x float>
; CHECK-COUNT-4: store float
; CHECK-LABEL: define void @full_width(
; CHECK-NEXT: %sum = add <16 x i32> %a, %b
; CHECK-NEXT: store <16 x i32> %sum
; CHECK-LABEL: define void @avx2_float8(
; CHECK-NEXT: %sum = fadd <8 x float> %a, %b
; CHECK-LABEL: define void @avx2_float4(
; CHECK-COUNT-4: fadd float
; CHECK-LABEL: define void @avx2_float4_log(
; CHECK-NOT: <4 x double>
; CHECK-COUNT-4: call double @llvm.log.f64(
; CHECK-LABEL: define void @avx2_double4(
; CHECK-NEXT: %sum = fadd <4 x double> %a, %b
; CHECK-LABEL: define void @pixels(
; CHECK-NOT: load <4 x i8>
; CHECK: %p = load i32, ptr %in, align 4
; CHECK: lshr i32 %p, 8
; CHECK: lshr i32 %p, 16
; CHECK: lshr i32 %p, 24
; CHECK-COUNT-4: add i8
; CHECK: shl i32 %{{.*}}, 24
; CHECK-NOT: store <4 x i8>
; CHECK: store i32 %{{.*}}, ptr %out, align 4
