; A kernel whose only cuts are sub-group barriers runs the region machine
; once per sub-group, so sub-groups may take different paths; decisions are
; read at the sub-group's first work-item. A sub-group within one row counts
; its work-items' x from its first one's; others divide each linear id.
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
; CHECK: %sg.lid0 = urem i64 %sg.first,
; CHECK: %sg.in.row = icmp ule i64
; CHECK: br i1 %sg.in.row, label %sg.lane.row, label %sg.lane.div
; CHECK: sg.lane.row:
; CHECK-NEXT: [[OFFSET:%.*]] = sub i64 %wi, %sg.first
; CHECK-NEXT: add nuw nsw i64 %sg.lid0, [[OFFSET]]
; CHECK: sg.lane.div:
; CHECK: urem i64 %wi,
; CHECK-DAG: %wi = phi i64 [ %sg.first
; CHECK-DAG: %uniform.condition = load i32
; CHECK-DAG: sg.next:
; CHECK-DAG: sg.done:
; CHECK-NOT: call void @_Z17sub_group_barrierj
