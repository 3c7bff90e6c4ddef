; Values the same for every work-item are kept once: the counter of a loop
; with a barrier (its trip count comes from an argument) is loaded before a
; region's work-item loop and stored after it, not per work-item; a value
; derived from the local id, and one assigned under a branch on it, stay per
; work-item.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %n = load i32, ptr %args, align 4
  %out = getelementptr i8, ptr %args, i64 8
  %p = load ptr, ptr %out, align 8
  br label %header

header:
  %i = phi i32 [ 0, %prologue ], [ %next, %latch ]
  %acc = phi i64 [ 0, %prologue ], [ %acc.next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %odd = and i64 %lid, 1
  %isodd = icmp ne i64 %odd, 0
  %acc.add = add i64 %acc, %lid
  %acc.next = select i1 %isodd, i64 %acc.add, i64 %acc
  br label %latch

latch:
  call void @_Z7barrierj(i32 1)
  %next = add i32 %i, 1
  br label %header

done:
  %slot = getelementptr i64, ptr %p, i64 %acc
  store i64 %acc, ptr %slot
  ret void
}

; CHECK-LABEL: define void @wg(
; The counter: stored once after the first region's work-item loop...
; CHECK: region.done:
; CHECK-NEXT: %[[LAST:[0-9]+]] = load i32, ptr %i.reg2mem
; CHECK-NEXT: store i32 %[[LAST]], ptr %[[C:ctx.slot[0-9]*]], align 4
; CHECK-NOT: getelementptr i32, ptr %[[C]], i64
; ...loaded once before the loop region's work-item loop, never per work-item.
; CHECK: %uniform = load i32, ptr %[[C]]
; CHECK-NEXT: br label %wi.loop2
; CHECK-NOT: getelementptr i32, ptr %[[C]], i64
; The accumulator depends on the local id: kept per work-item.
; CHECK-DAG: getelementptr i64, ptr %ctx.slot{{[0-9]*}}, i64 %wi
