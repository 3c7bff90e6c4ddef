; A barrier inside a loop: the loop test becomes a decision, evaluated per
; work-item, and the code between the loop nests branches on work-item 0's
; answer.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %n = load i32, ptr %args, align 4
  br label %header

header:
  %i = phi i32 [ 0, %prologue ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done

latch:
  call void @_Z7barrierj(i32 2)
  %next = add i32 %i, 1
  br label %header

done:
  ret void
}

; CHECK-LABEL: define void @wg(
; The loop test is stored per work-item...
; CHECK-DAG: %[[MORE:.*]] = icmp slt i32
; CHECK-DAG: %[[WIDE:.*]] = zext i1 %[[MORE]] to i32
; CHECK-DAG: store i32 %[[WIDE]], ptr
; ...and read back for work-item 0 between the loop nests.
; CHECK-DAG: %uniform.condition = load i32, ptr %ctx.slot
; CHECK-DAG: %[[TAKEN:.*]] = icmp ne i32 %uniform.condition, 0
; CHECK-DAG: br i1 %[[TAKEN]], label %region{{[0-9]+}}, label %region{{[0-9]+}}
; A global-memory barrier is a real fence.
; CHECK-DAG: fence acq_rel
; CHECK: "lockstep-barriers"="1"
