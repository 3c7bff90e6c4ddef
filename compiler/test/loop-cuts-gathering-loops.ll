; lockstep-loop-cuts on loops whose rounds differ between the work-items and
; that masked would only gather (LoopCutCost's gathersWhenMasked): SHOC's
; CSR-vector SpMV, `for (j = rowStart[row] + lane; j < rowStart[row + 1];
; j += width) sum += val[j] * vec[cols[j]]`, whose start comes from memory,
; so no access is known consecutive across the work-items. Masked, every
; round gathered val, cols and vec across the group and kept each
; work-item's counter, bound and sum in the context (2.3x slower than whole).
; Such a loop stays whole, behind its guard or not; one that does enough
; arithmetic per gathered access, or whose accesses stream across the
; work-items, is masked as before.
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -lockstep-masked-arithmetic-per-gather=0 \
; RUN:   -S %s | FileCheck %s --check-prefix=MASK

declare i64 @__lockstep.local_id(i32) memory(none)
declare float @llvm.fmuladd.f32(float, float, float)

; if (row < dim) { for (j = start[row] + lane; j < start[row + 1]; j += w) sum += val[j] * vec[cols[j]]; }
define void @rows_behind_guard(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="rows_behind_guard" {
prologue:
  %dim = load i64, ptr %args, align 8
  %wp = getelementptr i8, ptr %args, i64 8
  %w = load i64, ptr %wp, align 8
  %startp = getelementptr i8, ptr %args, i64 16
  %start = load ptr, ptr %startp, align 8
  %valp = getelementptr i8, ptr %args, i64 24
  %val = load ptr, ptr %valp, align 8
  %colsp = getelementptr i8, ptr %args, i64 32
  %cols = load ptr, ptr %colsp, align 8
  %vecp = getelementptr i8, ptr %args, i64 40
  %vec = load ptr, ptr %vecp, align 8
  %outp = getelementptr i8, ptr %args, i64 48
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %row = udiv i64 %lid, %w
  %lane = urem i64 %lid, %w
  %inside = icmp ult i64 %row, %dim
  br i1 %inside, label %then, label %end

then:
  %sp = getelementptr i64, ptr %start, i64 %row
  %first = load i64, ptr %sp
  %next = add i64 %row, 1
  %ep = getelementptr i64, ptr %start, i64 %next
  %last = load i64, ptr %ep
  %j0 = add i64 %first, %lane
  br label %header

header:
  %j = phi i64 [ %j0, %then ], [ %j.next, %body ]
  %sum = phi float [ 0.0, %then ], [ %sum.next, %body ]
  %more = icmp ult i64 %j, %last
  br i1 %more, label %body, label %done

body:
  %cp = getelementptr i32, ptr %cols, i64 %j
  %col = load i32, ptr %cp
  %col64 = sext i32 %col to i64
  %vp = getelementptr float, ptr %val, i64 %j
  %v = load float, ptr %vp
  %xp = getelementptr float, ptr %vec, i64 %col64
  %x = load float, ptr %xp
  %sum.next = call float @llvm.fmuladd.f32(float %v, float %x, float %sum)
  %j.next = add i64 %j, %w
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; CHECK-LABEL: define void @rows_behind_guard(
; CHECK-NOT: guard.entered
; CHECK-NOT: loop.active
; CHECK: ret void
; MASK-LABEL: define void @rows_behind_guard(
; MASK: store i32 1, ptr %guard.entered
; MASK: store i32 %{{.+}}, ptr %loop.active
; MASK: ret void

; The same loop reached by every work-item (no guard).
define void @rows_alike(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="rows_alike" {
prologue:
  %wp = getelementptr i8, ptr %args, i64 8
  %w = load i64, ptr %wp, align 8
  %startp = getelementptr i8, ptr %args, i64 16
  %start = load ptr, ptr %startp, align 8
  %valp = getelementptr i8, ptr %args, i64 24
  %val = load ptr, ptr %valp, align 8
  %colsp = getelementptr i8, ptr %args, i64 32
  %cols = load ptr, ptr %colsp, align 8
  %vecp = getelementptr i8, ptr %args, i64 40
  %vec = load ptr, ptr %vecp, align 8
  %outp = getelementptr i8, ptr %args, i64 48
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %row = udiv i64 %lid, %w
  %lane = urem i64 %lid, %w
  %sp = getelementptr i64, ptr %start, i64 %row
  %first = load i64, ptr %sp
  %next = add i64 %row, 1
  %ep = getelementptr i64, ptr %start, i64 %next
  %last = load i64, ptr %ep
  %j0 = add i64 %first, %lane
  br label %header

header:
  %j = phi i64 [ %j0, %entry ], [ %j.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i64 %j, %last
  br i1 %more, label %body, label %done

body:
  %cp = getelementptr i32, ptr %cols, i64 %j
  %col = load i32, ptr %cp
  %col64 = sext i32 %col to i64
  %vp = getelementptr float, ptr %val, i64 %j
  %v = load float, ptr %vp
  %xp = getelementptr float, ptr %vec, i64 %col64
  %x = load float, ptr %xp
  %sum.next = call float @llvm.fmuladd.f32(float %v, float %x, float %sum)
  %j.next = add i64 %j, %w
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

; CHECK-LABEL: define void @rows_alike(
; CHECK-NOT: loop.active
; CHECK-NOT: lockstep.masked_count
; CHECK: ret void
; MASK-LABEL: define void @rows_alike(
; MASK: loop.active
; MASK: ret void

; A loop that does much arithmetic on each gathered value (a polynomial of
; the value, twelve multiply-adds) is masked: widened, its arithmetic pays
; for the gather.
define void @arithmetic_on_gathers(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="arith" {
prologue:
  %wp = getelementptr i8, ptr %args, i64 8
  %w = load i64, ptr %wp, align 8
  %startp = getelementptr i8, ptr %args, i64 16
  %start = load ptr, ptr %startp, align 8
  %valp = getelementptr i8, ptr %args, i64 24
  %val = load ptr, ptr %valp, align 8
  %outp = getelementptr i8, ptr %args, i64 48
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %sp = getelementptr i64, ptr %start, i64 %lid
  %first = load i64, ptr %sp
  %next = add i64 %lid, 1
  %ep = getelementptr i64, ptr %start, i64 %next
  %last = load i64, ptr %ep
  br label %header

header:
  %j = phi i64 [ %first, %entry ], [ %j.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i64 %j, %last
  br i1 %more, label %body, label %done

body:
  %vp = getelementptr float, ptr %val, i64 %j
  %v = load float, ptr %vp
  %p1 = call float @llvm.fmuladd.f32(float %v, float 0.5, float 1.0)
  %p2 = call float @llvm.fmuladd.f32(float %v, float %p1, float 2.0)
  %p3 = call float @llvm.fmuladd.f32(float %v, float %p2, float 3.0)
  %p4 = call float @llvm.fmuladd.f32(float %v, float %p3, float 4.0)
  %p5 = call float @llvm.fmuladd.f32(float %v, float %p4, float 5.0)
  %p6 = call float @llvm.fmuladd.f32(float %v, float %p5, float 6.0)
  %p7 = call float @llvm.fmuladd.f32(float %v, float %p6, float 7.0)
  %p8 = call float @llvm.fmuladd.f32(float %v, float %p7, float 8.0)
  %p9 = call float @llvm.fmuladd.f32(float %v, float %p8, float 9.0)
  %p10 = call float @llvm.fmuladd.f32(float %v, float %p9, float 10.0)
  %p11 = call float @llvm.fmuladd.f32(float %v, float %p10, float 11.0)
  %sum.next = call float @llvm.fmuladd.f32(float %v, float %p11, float %sum)
  %j.next = add i64 %j, %w
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

; CHECK-LABEL: define void @arithmetic_on_gathers(
; CHECK: loop.active
; CHECK: ret void
