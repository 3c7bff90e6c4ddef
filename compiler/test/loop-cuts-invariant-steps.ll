; The loop cuts' access order (LoopCutCost) on a kernel as it arrives,
; unoptimized: `B[col * (N / 4) + k]` divides N on every round of the k loop.
; The division is computed from values outside the loop, so it does not move
; along it: the address walks a row per work-item (consecutive along k, not
; across the work-items) and the loop stays whole, where a cut would gather
; B a row apart across the work-items each round. Without that view
; (-lockstep-loop-steps-see-invariants=false) the quotient looked like
; something the loop changes, nothing seemed to move along it, and the loop
; was cut.
; RUN: %opt -passes=lockstep-loop-cuts -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-loop-steps-see-invariants=false -S %s \
; RUN:   | FileCheck %s --check-prefix=BLIND

declare i64 @__lockstep.local_id(i32) memory(none)

define void @row_of_float4(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="row_of_float4" {
prologue:
  %n = load i32, ptr %args, align 4
  %bp = getelementptr i8, ptr %args, i64 8
  %b = load ptr addrspace(1), ptr %bp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr addrspace(1), ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %col = trunc i64 %lid to i32
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %body ]
  %quarter.bound = sdiv i32 %n, 4
  %more = icmp slt i32 %k, %quarter.bound
  br i1 %more, label %body, label %done

body:
  %quarter = sdiv i32 %n, 4
  %start = mul nsw i32 %col, %quarter
  %index = add nsw i32 %start, %k
  %index64 = sext i32 %index to i64
  %p = getelementptr inbounds <4 x float>, ptr addrspace(1) %b, i64 %index64
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %acc.next = fadd <4 x float> %acc, %v
  %k.next = add nsw i32 %k, 1
  br label %header

done:
  %sum = extractelement <4 x float> %acc, i64 0
  %q = getelementptr float, ptr addrspace(1) %out, i64 %lid
  store float %sum, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @row_of_float4(
; CHECK-NOT: _Z7barrierj
; CHECK: ret void
; BLIND-LABEL: define void @row_of_float4(
; BLIND: body:
; BLIND-NEXT: call void @_Z7barrierj(i32 0), !lockstep.loop_cut
