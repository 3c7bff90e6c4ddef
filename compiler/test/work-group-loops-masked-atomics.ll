; A loop whose trip count differs between work-items is masked so that its
; body widens across work-items (work-group-loops-loop-cut.ll). One that
; makes atomics (makesAtomics in Analysis/LoopCutCost), itself or in a
; function it calls, does not widen (the vectorizer widens no loop with an
; atomic instruction, and __local ones become plain read-modify-writes only
; after -O3): it is masked only if it reads or writes memory across the
; work-items (runsAcrossWorkItems), which the group then streams through
; instead of each work-item striding through it a round at a time (a
; histogram's grid-stride loop over its data); otherwise it stays whole
; inside the work-item loop, as a loop without a cut does. A loop without
; atomics is masked as before. -lockstep-mask-atomic-loops masks them all.
; RUN: %opt -passes=lockstep-work-group -lockstep-last-round-max-size=0 -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -lockstep-mask-atomic-loops -lockstep-last-round-max-size=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=ALL

declare i64 @__lockstep.local_id(i32) memory(none)

; for (i = lid; i < n; i += 256) atomic_inc(&bins[data[i]]), bins in __local:
; data[i] runs across the work-items.
define void @histogram(ptr %args, ptr %group, ptr addrspace(3) %local, ptr %context) "lockstep-kernel"="h" {
prologue:
  %n = load i32, ptr %args, align 4
  %datap = getelementptr i8, ptr %args, i64 8
  %data = load ptr, ptr %datap, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid32 = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %lid32, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %i64 = sext i32 %i to i64
  %p = getelementptr i8, ptr %data, i64 %i64
  %byte = load i8, ptr %p
  %bin = zext i8 %byte to i64
  %b = getelementptr i32, ptr addrspace(3) %local, i64 %bin
  %old = atomicrmw add ptr addrspace(3) %b, i32 1 monotonic
  %i.next = add i32 %i, 256
  br label %header

done:
  ret void
}

; The same loop adding into __global counters at consecutive addresses: the
; atomic stays an atomic instruction, which does not widen, and the loop
; touches no other memory.
define void @global_counters(ptr %args, ptr %group, ptr addrspace(3) %local, ptr %context) "lockstep-kernel"="g" {
prologue:
  %n = load i32, ptr %args, align 4
  %outp = getelementptr i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid32 = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %lid32, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %c = getelementptr i32, ptr addrspace(1) %out, i64 %lid
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic
  %i.next = add i32 %i, 256
  br label %header

done:
  ret void
}

; An atomic in a called function (a built-in not inlined yet) counts.
define internal i32 @atomic_inc_local(ptr addrspace(3) %p) {
  %old = atomicrmw add ptr addrspace(3) %p, i32 1 monotonic
  ret i32 %old
}

define void @called_atomic(ptr %args, ptr %group, ptr addrspace(3) %local, ptr %context) "lockstep-kernel"="c" {
prologue:
  %n = load i32, ptr %args, align 4
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid32 = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %lid32, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %a = getelementptr i32, ptr addrspace(3) %local, i64 %lid
  %old = call i32 @atomic_inc_local(ptr addrspace(3) %a)
  %i.next = add i32 %i, 256
  br label %header

done:
  ret void
}

; The same loop with a plain store: masked, it widens.
define void @own_local_element(ptr %args, ptr %group, ptr addrspace(3) %local, ptr %context) "lockstep-kernel"="o" {
prologue:
  %n = load i32, ptr %args, align 4
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid32 = trunc i64 %lid to i32
  br label %header

header:
  %i = phi i32 [ %lid32, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %a = getelementptr i32, ptr addrspace(3) %local, i64 %lid
  store i32 %i, ptr addrspace(3) %a
  %i.next = add i32 %i, 256
  br label %header

done:
  ret void
}

; CHECK-LABEL: define void @histogram(
; CHECK: masked.loop
; CHECK: atomicrmw add ptr addrspace(3)
; CHECK-LABEL: define void @global_counters(
; CHECK-NOT: masked.loop
; CHECK: atomicrmw add ptr addrspace(1)
; CHECK-NOT: masked.loop
; CHECK-LABEL: define void @called_atomic(
; CHECK-NOT: masked.loop
; CHECK: call i32 @atomic_inc_local
; CHECK-NOT: masked.loop
; CHECK-LABEL: define void @own_local_element(
; CHECK: masked.loop

; ALL-LABEL: define void @histogram(
; ALL: masked.loop
; ALL-LABEL: define void @global_counters(
; ALL: masked.loop
; ALL-LABEL: define void @called_atomic(
; ALL: masked.loop
; ALL-LABEL: define void @own_local_element(
; ALL: masked.loop
