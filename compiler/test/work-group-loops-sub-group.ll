; A kernel whose only cuts are sub-group barriers runs the region machine
; once per sub-group, so sub-groups may take different paths; decisions are
; read at the sub-group's first work-item.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z17sub_group_barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-sub-group-size"="16" {
prologue:
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %first = icmp ult i64 %lid, 16
  br i1 %first, label %then, label %done

then:
  call void @_Z17sub_group_barrierj(i32 1)
  br label %done

done:
  ret void
}

; CHECK-LABEL: define void @wg(
; CHECK: sg:
; CHECK: %sg.id = phi i64
; CHECK: %sg.first = mul i64 %sg.id, 16
; CHECK-DAG: %wi = phi i64 [ %sg.first
; CHECK-DAG: %uniform.condition = load i32
; CHECK-DAG: sg.next:
; CHECK-DAG: sg.done:
; CHECK-NOT: call void @_Z17sub_group_barrierj
