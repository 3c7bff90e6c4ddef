; A value a kernel loop carries across its barriers (`acc += ...` between a
; tile's two barriers) shares one private variable with its update: the
; update is stored to the phi's variable where it is computed and the phi's
; uses read it where they are, so the context keeps one slot for it and the
; region that reaches the back edge copies nothing (CarriedValues.cpp). With
; the sharing off, the update has a variable of its own, copied into the
; phi's after the second barrier.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s --check-prefix=SHARED
; RUN: %opt -passes=lockstep-work-group -lockstep-share-carried-phis=false -S %s | FileCheck %s --check-prefix=COPIED

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %n = load i32, ptr %args, align 4
  %out = getelementptr i8, ptr %args, i64 8
  %p = load ptr, ptr %out, align 8
  %tile = addrspacecast ptr %local to ptr addrspace(3)
  br label %header

header:
  %t = phi i32 [ 0, %prologue ], [ %t.next, %latch ]
  %acc = phi float [ 0.0, %prologue ], [ %acc.next, %latch ]
  %more = icmp slt i32 %t, %n
  br i1 %more, label %body, label %done

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %slot = getelementptr float, ptr addrspace(3) %tile, i64 %lid
  %tf = sitofp i32 %t to float
  store float %tf, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %other = xor i64 %lid, 1
  %oslot = getelementptr float, ptr addrspace(3) %tile, i64 %other
  %v = load float, ptr addrspace(3) %oslot
  %acc.next = fadd float %acc, %v
  br label %latch

latch:
  call void @_Z7barrierj(i32 1)
  %t.next = add i32 %t, 1
  br label %header

done:
  %lid2 = call i64 @__lockstep.local_id(i32 0)
  %q = getelementptr float, ptr %p, i64 %lid2
  store float %acc, ptr %q
  ret void
}

; SHARED-LABEL: define void @wg(
; SHARED: %acc.reg2mem = alloca float
; SHARED-NOT: %acc.next.reg2mem = alloca
; The update goes straight into the phi's variable...
; SHARED: %acc.next.r = fadd float %acc.reload{{[0-9]*}}.r, %v.r
; SHARED-NEXT: store float %acc.next.r, ptr %acc.reg2mem
; ...which is what the context keeps for the next trip.
; SHARED: %[[NEW:[0-9]+]] = load float, ptr %acc.reg2mem
; SHARED-NEXT: %[[AT:[0-9]+]] = getelementptr float, ptr %[[ACC:ctx.slot[0-9]*]], i64 %wi
; SHARED-NEXT: store float %[[NEW]], ptr %[[AT]]
; The region after the second barrier moves no float.
; SHARED: after.barrier{{[0-9]*}}.r:
; SHARED-NOT: load float
; SHARED: ret void

; COPIED-LABEL: define void @wg(
; COPIED-DAG: %acc.reg2mem = alloca float
; COPIED-DAG: %acc.next.reg2mem = alloca float
