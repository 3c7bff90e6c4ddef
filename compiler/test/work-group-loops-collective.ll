; A collective is a cut that exchanges data: each work-item's operand goes
; to the context, the code between the loop nests combines them in linear-id
; order and each work-item reads its result after the cut.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare i32 @_Z21work_group_reduce_addi(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-sub-group-size"="16" {
prologue:
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %x = trunc i64 %lid to i32
  %sum = call i32 @_Z21work_group_reduce_addi(i32 %x)
  %p = getelementptr i32, ptr %args, i64 %lid
  store i32 %sum, ptr %p, align 4
  ret void
}

; CHECK-LABEL: define void @wg(
; CHECK-NOT: call i32 @_Z21work_group_reduce_addi
; The operands are saved per work-item...
; CHECK-DAG: %collective.in = alloca i32
; CHECK-DAG: %collective.out = alloca i32
; ...summed by one loop between the loop nests, then handed back.
; CHECK-DAG: combine.loop:
; CHECK-DAG: add i32 %{{.*}}, %{{.*}}
; CHECK-DAG: %combine.acc = alloca i32
; CHECK: "lockstep-barriers"="0"
