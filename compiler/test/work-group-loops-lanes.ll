; A function of the cl_khr_subgroup_* extensions (here sub_group_elect in a
; divergent branch) puts the kernel in lane mode: each work-item keeps its own
; state in the context, a dispatcher picks the lowest state any work-item is
; in, the exchange runs among the work-items in that state only, and regions
; may end in several places (no decisions, no uniform condition).
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare i32 @_Z15sub_group_electv() convergent
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-sub-group-size"="16" {
prologue:
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %odd = and i64 %lid, 1
  %isodd = icmp ne i64 %odd, 0
  br i1 %isodd, label %then, label %join

then:
  %e = call i32 @_Z15sub_group_electv()
  store i32 %e, ptr %args
  br label %join

join:
  call void @_Z7barrierj(i32 1)
  ret void
}

; States: 0 start, 1 the elect, 2 the barrier, 3 done. The work-group barrier
; is a hard state, run once every work-item is in it.
; CHECK: @lanes.hard = private constant [4 x i8] c"\00\00\01\00"
; CHECK-LABEL: define void @wg(
; CHECK: lanes:
; CHECK: store i32 0, ptr
; CHECK: lanes.dispatch:
; CHECK: %lanes.state{{[0-9]*}} = select i1
; CHECK: switch i32 %lanes.state{{[0-9]*}}, label %lanes.done [
; CHECK-NEXT: i32 0, label %region
; CHECK-NEXT: i32 1, label %lanes.cut
; CHECK-NEXT: i32 2, label %lanes.cut
; The exchange of sub_group_elect: the leader is the first work-item in state 1.
; CHECK: %leader = load i64
; CHECK: icmp eq i64 %{{.*}}, %leader
; Regions only run the work-items in their state.
; CHECK: %lane.state = load i32
; CHECK-NOT: uniform.condition
; CHECK-NOT: call i32 @_Z15sub_group_electv
