; An integer scan's combine takes whole vectors of operands from the context:
; each vector is scanned in registers (log2(16) = 4 steps, each combining a
; lane with the one 1, 2, 4, 8 lanes before it, the identity before the
; first), combined with the running value, and stored whole; an exclusive
; scan's vector is the inclusive one moved a lane up behind the running
; value. The work-items past the last whole vector go one at a time. A float
; scan keeps the linear-id order (its rounding depends on it).
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare i32 @_Z29work_group_scan_exclusive_addj(i32) convergent
declare i32 @_Z29work_group_scan_inclusive_maxi(i32) convergent
declare float @_Z29work_group_scan_inclusive_addf(float) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-sub-group-size"="16" {
prologue:
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %x = trunc i64 %lid to i32
  %f = uitofp i32 %x to float
  %sum = call i32 @_Z29work_group_scan_exclusive_addj(i32 %x)
  %max = call i32 @_Z29work_group_scan_inclusive_maxi(i32 %x)
  %fsum = call float @_Z29work_group_scan_inclusive_addf(float %f)
  %a = add i32 %sum, %max
  %p = getelementptr i32, ptr %args, i64 %lid
  store i32 %a, ptr %p, align 4
  %q = getelementptr float, ptr %args, i64 %lid
  store float %fsum, ptr %q, align 4
  ret void
}

; CHECK-LABEL: define void @wg(
; The exclusive add: whole vectors, then the rest.
; CHECK: combine.loop
; CHECK: [[V:%.*]] = load <16 x i32>, ptr %{{.*}}, align 4
; CHECK: [[S1:%.*]] = shufflevector <16 x i32> [[V]], <16 x i32> zeroinitializer, <16 x i32> <i32 16, i32 0, i32 1,
; CHECK: [[A1:%.*]] = add <16 x i32> [[V]], [[S1]]
; CHECK: shufflevector <16 x i32> [[A1]], <16 x i32> zeroinitializer, <16 x i32> <i32 16, i32 16, i32 0,
; CHECK: shufflevector <16 x i32> %{{.*}}, <16 x i32> zeroinitializer, <16 x i32> <i32 16, i32 16, i32 16, i32 16, i32 0,
; CHECK: shufflevector <16 x i32> %{{.*}}, <16 x i32> zeroinitializer, <16 x i32> <i32 16, i32 16, i32 16, i32 16, i32 16, i32 16, i32 16, i32 16, i32 0,
; CHECK-NEXT: add <16 x i32>
; CHECK-NEXT: [[INC:%.*]] = add <16 x i32> %{{.*}}, %{{.*}}
; CHECK: [[EXC:%.*]] = shufflevector <16 x i32> [[INC]], <16 x i32> %{{.*}}, <16 x i32> <i32 16, i32 0, i32 1,
; CHECK: store <16 x i32> [[EXC]], ptr %{{.*}}, align 4
; CHECK: extractelement <16 x i32> [[INC]], i64 15
; CHECK: combine.loop
; CHECK: add i32
; The inclusive signed max: its identity is INT_MIN.
; CHECK: load <16 x i32>
; CHECK: shufflevector <16 x i32> %{{.*}}, <16 x i32> <i32 -2147483648,
; CHECK: call <16 x i32> @llvm.smax.v16i32(
; CHECK: store <16 x i32>
; The float scan: one work-item at a time.
; CHECK: combine.loop
; CHECK-NOT: <16 x float>
; CHECK: fadd float
; CHECK: "lockstep-barriers"="0"
