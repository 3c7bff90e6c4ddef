; Global atomic adds whose results the kernel ignores, to an argument the
; kernel touches in no other way, go through the thread's AtomicCombiner
; (GroupInfo field 15) when the launch has one: the entry at
; (address >> 2) % 512 holds the sum when its key is the address, otherwise
; the runtime's miss function takes the add. The work-group function names
; the arguments (by their offsets in the argument block) in
; "lockstep-combined-atomics". Outside loops each add tests for the
; combiner; a loop of adds tests once, before two copies of itself. (With
; the window off: adds to a byte's bin, as @hist's, go to the combiner's
; window otherwise, global-atomic-combining-window.ll.)
; RUN: %opt -passes=lockstep-global-atomic-combining -lockstep-combiner-window=false -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; A histogram: bins (offset 16) only receives adds; data (offset 0) is read.
; CHECK-LABEL: define void @hist(
; CHECK: %[[GI:.*]] = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 15
; CHECK: %[[COMBINER:.*]] = load ptr, ptr %[[GI]]
; The loop runs in two copies, and one test before them picks: with no
; combiner, the atomics as they were; with one, the lookups, untested.
; CHECK: %combiner.none = icmp eq ptr %[[COMBINER]], null
; CHECK: br i1 %combiner.none, label %entry.split.none, label %entry.split
; CHECK: loop.none:
; CHECK-NOT: combine.lookup
; CHECK: atomicrmw volatile add ptr addrspace(1) %bin.none, i32 1 monotonic
; CHECK: loop:
; CHECK-NOT: icmp eq ptr %[[COMBINER]], null
; CHECK: combine.lookup:
; CHECK: %[[ADDR:.*]] = ptrtoint ptr addrspace(1) %bin to i64
; CHECK: %[[SHIFT:.*]] = lshr i64 %[[ADDR]], 2
; CHECK: %[[SLOT:.*]] = and i64 %[[SHIFT]], 511
; CHECK: %combine.entry = getelementptr { i64, i64 }, ptr %[[COMBINER]], i64 %[[SLOT]]
; CHECK: %combine.key = load i64, ptr %combine.entry
; CHECK: icmp eq i64 %combine.key, %[[ADDR]]
; CHECK: combine.hit:
; CHECK: add i64 %{{.*}}, 1
; CHECK: combine.miss:
; CHECK: call void @__lockstep_atomic_combiner_miss(ptr %[[COMBINER]], i64 %[[ADDR]], i64 1)
define void @hist(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="hist" {
entry:
  %data = load ptr addrspace(1), ptr %args, align 8
  %bins.slot = getelementptr inbounds i8, ptr %args, i64 16
  %bins = load ptr addrspace(1), ptr %bins.slot, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %at = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %i
  %byte = load i8, ptr addrspace(1) %at, align 1
  %index = zext i8 %byte to i64
  %bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %index
  %old = atomicrmw volatile add ptr addrspace(1) %bin, i32 1 monotonic, align 4
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 1024
  br i1 %more, label %loop, label %done

done:
  ret void
}

; A 64-bit sub: the key is the address ORed with 1, the delta negated.
; CHECK-LABEL: define void @wide_sub(
; CHECK: %[[ADDR64:.*]] = ptrtoint ptr addrspace(1) %sums to i64
; CHECK: %[[KEY64:.*]] = or i64 %[[ADDR64]], 1
; CHECK: %[[DELTA:.*]] = sub i64 0, %v
; CHECK: icmp eq i64 %combine.key, %[[KEY64]]
; CHECK: call void @__lockstep_atomic_combiner_miss(ptr %{{.*}}, i64 %[[KEY64]], i64 %[[DELTA]])
define void @wide_sub(ptr %args, ptr %group, ptr %local, ptr %context, i64 %v) "lockstep-kernel"="wide_sub" {
  %sums = load ptr addrspace(1), ptr %args, align 8
  %old = atomicrmw sub ptr addrspace(1) %sums, i64 %v monotonic, align 8
  ret void
}

; Not combined: the kernel also reads the counters.
; CHECK-LABEL: define void @read_back(
; CHECK-NOT: combine.
; CHECK: ret void
define void @read_back(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="read_back" {
  %counters = load ptr addrspace(1), ptr %args, align 8
  %old = atomicrmw add ptr addrspace(1) %counters, i32 1 monotonic, align 4
  %now = load i32, ptr addrspace(1) %counters, align 4
  %out.slot = getelementptr inbounds i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %out.slot, align 8
  store i32 %now, ptr addrspace(1) %out, align 4
  ret void
}

; Not combined: the add's result is used, or it is not relaxed.
; CHECK-LABEL: define void @used_or_ordered(
; CHECK-NOT: combine.
; CHECK: ret void
define void @used_or_ordered(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="used_or_ordered" {
  %counters = load ptr addrspace(1), ptr %args, align 8
  %old = atomicrmw add ptr addrspace(1) %counters, i32 1 monotonic, align 4
  %slot = getelementptr inbounds i32, ptr addrspace(1) %counters, i64 1
  %ordered = atomicrmw add ptr addrspace(1) %slot, i32 1 seq_cst, align 4
  %out.slot = getelementptr inbounds i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %out.slot, align 8
  %counters2.slot = getelementptr inbounds i8, ptr %args, i64 16
  %counters2 = load ptr addrspace(1), ptr %counters2.slot, align 8
  store i32 %old, ptr addrspace(1) %out, align 4
  ret void
}

; Not combined: a pointer loaded from a buffer may reach the counters.
; CHECK-LABEL: define void @unnamed_access(
; CHECK-NOT: combine.
; CHECK: ret void
define void @unnamed_access(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="unnamed_access" {
  %counters = load ptr addrspace(1), ptr %args, align 8
  %old = atomicrmw add ptr addrspace(1) %counters, i32 1 monotonic, align 4
  %table.slot = getelementptr inbounds i8, ptr %args, i64 8
  %table = load ptr addrspace(1), ptr %table.slot, align 8
  %somewhere = load ptr addrspace(1), ptr addrspace(1) %table, align 8
  store i32 0, ptr addrspace(1) %somewhere, align 4
  ret void
}

; A version -O3 left as a function of its own, whose parameters lost the
; argument block's and the context's places: the GroupInfo is the parameter
; its caller passes the group in.
; CHECK-LABEL: define internal void @versioned.rows(
; CHECK-SAME: ptr %g, ptr %a)
; CHECK: getelementptr inbounds %lockstep.GroupInfo, ptr %g, i32 0, i32 15
; CHECK: combine.lookup:
define void @versioned(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="versioned" {
  call void @versioned.rows(ptr %group, ptr %args)
  ret void
}

define internal void @versioned.rows(ptr %g, ptr %a) {
  %slot = getelementptr inbounds i8, ptr %a, i64 8
  %counter = load ptr addrspace(1), ptr %slot, align 8
  %old = atomicrmw add ptr addrspace(1) %counter, i32 3 monotonic, align 4
  ret void
}

; A version whose pointer argument -O3 promoted: every call passes the load
; of the argument's slot (offset 8; the slot at 0 is read).
; CHECK-LABEL: define internal void @promoted.rows(
; CHECK: combine.lookup:
define void @promoted(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="promoted" {
  %in = load ptr addrspace(1), ptr %args, align 8
  %slot = getelementptr inbounds i8, ptr %args, i64 8
  %bins = load ptr addrspace(1), ptr %slot, align 8
  call void @promoted.rows(ptr addrspace(1) %in, ptr addrspace(1) %bins, ptr %group)
  ret void
}

define internal void @promoted.rows(ptr addrspace(1) %in, ptr addrspace(1) %bins, ptr %g) {
  %v = load i32, ptr addrspace(1) %in, align 4
  %index = zext i32 %v to i64
  %bin = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %index
  %old = atomicrmw add ptr addrspace(1) %bin, i32 1 monotonic, align 4
  ret void
}

; The arguments whose adds were combined, per work-group function.
; CHECK-LABEL: attributes #0 = { "lockstep-combined-atomics"="16" "lockstep-kernel"="hist" }
; CHECK-NEXT: attributes #1 = { "lockstep-combined-atomics"="0" "lockstep-kernel"="wide_sub" }
; CHECK-NEXT: attributes #2 = { "lockstep-kernel"="read_back" }
; CHECK-NEXT: attributes #3 = { "lockstep-kernel"="used_or_ordered" }
; CHECK-NEXT: attributes #4 = { "lockstep-kernel"="unnamed_access" }
; CHECK-NEXT: attributes #5 = { "lockstep-combined-atomics"="8" "lockstep-kernel"="versioned" }
; CHECK-NEXT: attributes #6 = { "lockstep-combined-atomics"="8" "lockstep-kernel"="promoted" }
