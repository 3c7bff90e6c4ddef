; Vector values split into scalars in work-group code only, where the loop
; vectorizer widens each element across the work-items. A helper -O3 left
; uninlined runs one work-item a call: its uint16 arithmetic stays in vector
; registers (split, it ran scalar, 16 times the instructions).
; RUN: %opt -passes=lockstep-scalarize-work-group-code -S %s | FileCheck %s

define <16 x i32> @helper(<16 x i32> %a, <16 x i32> %b) {
  %sum = add <16 x i32> %a, %b
  %rotated = call <16 x i32> @llvm.fshl.v16i32(<16 x i32> %sum, <16 x i32> %sum, <16 x i32> splat (i32 7))
  ret <16 x i32> %rotated
}

define void @work_group(ptr %out, <4 x float> %a, <4 x float> %b) "lockstep-work-group-code" {
  %sum = fadd <4 x float> %a, %b
  store <4 x float> %sum, ptr %out
  ret void
}

declare <16 x i32> @llvm.fshl.v16i32(<16 x i32>, <16 x i32>, <16 x i32>)

; CHECK-LABEL: define <16 x i32> @helper(
; CHECK-NEXT: %sum = add <16 x i32> %a, %b
; CHECK-NEXT: call <16 x i32> @llvm.fshl.v16i32(
; CHECK-LABEL: define void @work_group(
; CHECK-NOT: fadd <4 x float>
; CHECK-COUNT-4: fadd float
; CHECK-NOT: store <4 x float>
; CHECK-COUNT-4: store float
