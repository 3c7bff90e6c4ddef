; lockstep-loop-cuts alone, on work-group functions the kernel wrapper made:
; a loop every work-item runs the same number of times gets a barrier of its
; own at the top of its body, marked !lockstep.loop_cut; a grid-stride loop,
; whose trip count differs between work-items, is masked: its `active` flag
; marked !lockstep.resident, its `dirty` flag also !lockstep.group_wide with
; the node that marks the count of active work-items (!lockstep.masked_count),
; compared with the group's size through @lockstep.work_items(), which the
; work-group loops replace; a loop that walks a row per work-item is left
; alone. After lockstep-kernel-versions, the versions of a kernel the pass
; cut nothing in go (the vector-rows one too when the kernel has no barrier),
; and the narrow-cut and vector-rows versions are cut as their kernel is.
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -lockstep-strip-vectors=0 -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-kernel-versions,lockstep-loop-cuts -lockstep-last-round-max-size=0 -lockstep-strip-vectors=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=VERSIONS --implicit-check-not=@row_per_work_item.

declare i64 @__lockstep.local_id(i32) memory(none)

define void @uniform(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="uniform" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

define void @grid_stride(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="grid_stride" {
prologue:
  %n = load i64, ptr %args, align 8
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %i = phi i64 [ %lid, %entry ], [ %i.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done

body:
  %p = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %i.next = add i64 %i, 4096
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

define void @row_per_work_item(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="row" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %n64 = zext i32 %n to i64
  %rowStart = mul i64 %lid, %n64
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %idx = add i64 %rowStart, %k64
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

; CHECK-LABEL: define void @uniform(
; CHECK:       body:
; CHECK-NEXT:    call void @_Z7barrierj(i32 0), !lockstep.loop_cut [[CUT:![0-9]+]]
; CHECK-LABEL: define void @grid_stride(
; CHECK:         %loop.active = alloca i32, align 4, !lockstep.resident [[CUT]]
; CHECK:         %loop.dirty = alloca i32, align 4, !lockstep.resident [[CUT]], !lockstep.group_wide [[COUNT:![0-9]+]]
; CHECK:       masked.latch:
; CHECK:         [[ACTIVE:%[0-9]+]] = call i32 @_Z21work_group_reduce_addi(i32 {{%[0-9]+}}), !lockstep.masked_count [[COUNT]]
; CHECK-NEXT:    [[WIDE:%[0-9]+]] = zext i32 [[ACTIVE]] to i64
; CHECK-NEXT:    [[SIZE:%[0-9]+]] = call i64 @lockstep.work_items()
; CHECK-NEXT:    icmp eq i64 [[WIDE]], [[SIZE]]
; CHECK-LABEL: define void @row_per_work_item(
; CHECK-NOT:     _Z7barrierj
; CHECK-NOT:     work_group_reduce
; CHECK:         ret void
; CHECK:       attributes #{{[0-9]+}} = { "lockstep-kernel"="grid_stride" "lockstep-masked-loops"="1" }
; CHECK:       [[CUT]] = !{}
; CHECK:       [[COUNT]] = distinct !{}

; VERSIONS:     define void @uniform({{.*}}) #{{[0-9]+}} !lockstep.versions [[UNIFORM:![0-9]+]] {
; VERSIONS:     define void @row_per_work_item({{.*}}) #{{[0-9]+}} {
; VERSIONS:     define internal void @uniform.whole_loops(
; VERSIONS-NOT:   _Z7barrierj
; VERSIONS:     define internal void @uniform.narrow_cut(
; VERSIONS:       call void @_Z7barrierj(i32 0), !lockstep.loop_cut
; VERSIONS:     define internal void @uniform.vector_rows(
; VERSIONS:       call void @_Z7barrierj(i32 0), !lockstep.loop_cut
; VERSIONS:     define internal void @uniform.vector_rows4(
; VERSIONS:       call void @_Z7barrierj(i32 0), !lockstep.loop_cut
; VERSIONS:     [[UNIFORM]] = !{ptr @uniform.whole_loops, ptr @uniform.narrow_cut, ptr @uniform.vector_rows, ptr @uniform.vector_rows4}
