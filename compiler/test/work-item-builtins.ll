; Work-item functions become GroupInfo reads and the local-id placeholder.
; RUN: %opt -passes=lockstep-work-item-builtins -S %s | FileCheck %s

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i32 @_Z12get_work_dimv()

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context, i32 %d) "lockstep-kernel"="k" {
prologue:
  br label %body
body:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %size = call i64 @_Z14get_local_sizej(i32 %d)
  %outside = call i64 @_Z14get_local_sizej(i32 7)
  %dim = call i32 @_Z12get_work_dimv()
  store i64 %gid, ptr %args
  store i64 %size, ptr %args
  store i64 %outside, ptr %args
  store i32 %dim, ptr %args
  ret void
}

; CHECK-LABEL: define void @wg(
; Uniform parts are computed in the prologue: group id, enqueued size, offset.
; CHECK: prologue:
; CHECK-DAG: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 0
; CHECK-DAG: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 2
; CHECK-DAG: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 5
; CHECK: %global.base = add i64
; CHECK: body:
; CHECK: %[[LID:.*]] = call i64 @__lockstep.local_id(i32 0)
; CHECK: %global.id = add i64 %global.base, %[[LID]]
; A dimension known only at run time selects, and is 1 out of range.
; CHECK: icmp ult i32 %d, 3
; CHECK: select i1
; CHECK: store i64 1, ptr %args
; CHECK-NOT: call {{.*}}@_Z
; CHECK: ret void
