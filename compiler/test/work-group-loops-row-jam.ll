; Row jam (RowJam.cpp): a region whose rows of work-items share a load and
; whose body is straight-line has its y loop unrolled and jammed into its x
; loop: while at least R rows are left (rows.jam) a copy of the x loop runs
; the body for rows y .. y + R - 1 in one trip, each copy with its own y id
; (lid1.row) and work-item index (wi.row, for its context slots), and the y
; loop steps by R (rows.step); the rows left over run the original x loop.
; Here the loop-cut SGEMM region, whose B[k * n + col] every row shares; a
; 1D kernel (no y id read) and a region with a loop in it are not jammed.
; With -lockstep-cut-loop-unroll=2 (CutLoopUnroll.cpp) the cut k loop is
; unrolled twice with a remainder loop, and both are cut.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -lockstep-row-jam=1 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=lockstep-work-group -lockstep-row-jam=3 -S %s | FileCheck %s --check-prefix=THREE
; RUN: %opt -passes=lockstep-work-group -lockstep-cut-loop-unroll=2 -S %s | FileCheck %s --check-prefix=UNROLL

declare i64 @__lockstep.local_id(i32) memory(none)

; CHECK-LABEL: define void @sgemm(
; CHECK: %rows.jam = icmp ule i64 %{{.*}}, %{{.*}}
; CHECK-NEXT: br i1 %rows.jam, label %[[JAM:wi.loop0[0-9]*.jam]], label %wi.loop0{{[0-9]*}}
; CHECK: %rows.step = phi i64 [ 1, %wi.next0{{[0-9]*}} ], [ 4, %wi.next0{{[0-9]*}}.jam ]
; CHECK-NEXT: add nuw nsw i64 %[[ROW:lid1[0-9]*]], %rows.step
; CHECK: [[JAM]]:
; CHECK: %wi.row = add i64 %{{.*}}, %{{.*}}
; CHECK: %lid1.row = add i64 %[[ROW]], 1
; CHECK: %lid1.row{{[0-9]+}} = add i64 %[[ROW]], 2
; CHECK: %lid1.row{{[0-9]+}} = add i64 %[[ROW]], 3
; OFF-LABEL: define void @sgemm(
; OFF-NOT: rows.jam
; THREE-LABEL: define void @sgemm(
; THREE: %rows.step = phi i64 [ 1, %wi.next0{{[0-9]*}} ], [ 3, %wi.next0{{[0-9]*}}.jam ]
; UNROLL-LABEL: define void @sgemm(
; UNROLL: epil
; UNROLL: define void @one_dimension(
define void @sgemm(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="sgemm" {
prologue:
  %n = load i32, ptr %args, align 4
  %ap = getelementptr i8, ptr %args, i64 8
  %a = load ptr, ptr %ap, align 8
  %bp = getelementptr i8, ptr %args, i64 16
  %b = load ptr, ptr %bp, align 8
  %cp = getelementptr i8, ptr %args, i64 24
  %c = load ptr, ptr %cp, align 8
  br label %entry

entry:
  %col64 = call i64 @__lockstep.local_id(i32 0)
  %row64 = call i64 @__lockstep.local_id(i32 1)
  %col = trunc i64 %col64 to i32
  %row = trunc i64 %row64 to i32
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %arow = mul nsw i32 %row, %n
  %aidx = add nsw i32 %arow, %k
  %aidx64 = sext i32 %aidx to i64
  %pa = getelementptr float, ptr %a, i64 %aidx64
  %va = load float, ptr %pa
  %brow = mul nsw i32 %k, %n
  %bidx = add nsw i32 %brow, %col
  %bidx64 = sext i32 %bidx to i64
  %pb = getelementptr float, ptr %b, i64 %bidx64
  %vb = load float, ptr %pb
  %acc.next = call float @llvm.fmuladd.f32(float %va, float %vb, float %acc)
  %k.next = add nsw i32 %k, 1
  br label %header

done:
  %crow = mul nsw i32 %row, %n
  %cidx = add nsw i32 %crow, %col
  %cidx64 = sext i32 %cidx to i64
  %pc = getelementptr float, ptr %c, i64 %cidx64
  store float %acc, ptr %pc
  ret void
}

; The same loop over x alone: no row read, no jam.
; CHECK-LABEL: define void @one_dimension(
; CHECK-NOT: rows.jam
; CHECK: ret void
define void @one_dimension(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="one" {
prologue:
  %n = load i32, ptr %args, align 4
  %bp = getelementptr i8, ptr %args, i64 16
  %b = load ptr, ptr %bp, align 8
  %cp = getelementptr i8, ptr %args, i64 24
  %c = load ptr, ptr %cp, align 8
  br label %entry

entry:
  %col64 = call i64 @__lockstep.local_id(i32 0)
  %col = trunc i64 %col64 to i32
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %brow = mul nsw i32 %k, %n
  %bidx = add nsw i32 %brow, %col
  %bidx64 = sext i32 %bidx to i64
  %pb = getelementptr float, ptr %b, i64 %bidx64
  %vb = load float, ptr %pb
  %acc.next = fadd float %vb, %acc
  %k.next = add nsw i32 %k, 1
  br label %header

done:
  %cidx64 = sext i32 %col to i64
  %pc = getelementptr float, ptr %c, i64 %cidx64
  store float %acc, ptr %pc
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
