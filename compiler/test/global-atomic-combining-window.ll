; A combined add to base + index * its size, index below 256 (a byte's bin),
; base known at the entry: the entry claims the combiner's window for base
; once, and each add goes to window[index] when it has it, to the table's
; lookup otherwise. A loop of such adds tests the window once, before two
; copies (after the combiner's own two). An index that may pass 255 keeps
; the lookup alone.
; RUN: %opt -passes=lockstep-global-atomic-combining -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-global-atomic-combining -lockstep-combiner-window=false -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @bytes(
; CHECK: %[[COMBINER:.*]] = load ptr, ptr
; CHECK: %bins = load ptr addrspace(1), ptr %bins.slot
; CHECK-NEXT: %[[BASE:.*]] = ptrtoint ptr addrspace(1) %bins to i64
; CHECK-NEXT: %window = call ptr @__lockstep_atomic_combiner_window(ptr %[[COMBINER]], i64 %[[BASE]], i64 0)
; Without a combiner: the atomics (the window, null then, still tested).
; CHECK: loop.none:
; CHECK: atomicrmw volatile add ptr addrspace(1) %bin.none, i32 1 monotonic
; With a combiner, one test of the window picks between the lookups and
; the copy whose adds go to the window by index, untested.
; CHECK: icmp eq ptr %window, null
; CHECK: combine.lookup.none:
; CHECK: call void @__lockstep_atomic_combiner_miss
; CHECK: loop:
; CHECK-NOT: combine.lookup
; CHECK: %window.slot = getelementptr i64, ptr %window, i64 %index
; CHECK-NEXT: %[[OLD:.*]] = load i64, ptr %window.slot
; CHECK-NEXT: %[[NEW:.*]] = add i64 %[[OLD]], 1
; CHECK-NEXT: store i64 %[[NEW]], ptr %window.slot
; CHECK: done:
; OFF-LABEL: define void @bytes(
; OFF-NOT: __lockstep_atomic_combiner_window(
; OFF: combine.lookup
define void @bytes(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="bytes" {
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

; A 64-bit sub to a byte's bin: the wide window, the delta negated.
; CHECK-LABEL: define void @wide_sub(
; CHECK: %window = call ptr @__lockstep_atomic_combiner_window(ptr %{{.*}}, i64 %{{.*}}, i64 1)
; CHECK: window.add:
; CHECK: %[[NEG:.*]] = sub i64 0, %v
; CHECK: %window.slot = getelementptr i64, ptr %window, i64 %index
; CHECK: add i64 %{{.*}}, %[[NEG]]
define void @wide_sub(ptr %args, ptr %group, ptr %local, ptr %context, i64 %v, i8 %byte) "lockstep-kernel"="wide_sub" {
entry:
  %sums.slot = getelementptr inbounds i8, ptr %args, i64 8
  %sums = load ptr addrspace(1), ptr %sums.slot, align 8
  %index = zext i8 %byte to i64
  %p = getelementptr inbounds i64, ptr addrspace(1) %sums, i64 %index
  %old = atomicrmw volatile sub ptr addrspace(1) %p, i64 %v monotonic, align 8
  ret void
}

; An index that may pass 255: the lookup alone.
; CHECK-LABEL: define void @wide_index(
; CHECK-NOT: __lockstep_atomic_combiner_window(
; CHECK: combine.lookup
; CHECK: ret void
define void @wide_index(ptr %args, ptr %group, ptr %local, ptr %context, i16 %short) "lockstep-kernel"="wide_index" {
entry:
  %bins.slot = getelementptr inbounds i8, ptr %args, i64 8
  %bins = load ptr addrspace(1), ptr %bins.slot, align 8
  %index = zext i16 %short to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %index
  %old = atomicrmw volatile add ptr addrspace(1) %p, i32 1 monotonic, align 4
  ret void
}
