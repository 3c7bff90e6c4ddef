; A load that jumps far each trip of its loop (a tile's rows, a row pitch
; apart), inside an outer loop that runs other loops too (the tile loop's
; regions), prefetches into the second-level cache what it will read on the
; outer loop's next trip: its address plus the outer step, computed before
; the outer loop. An `int` index's sign extension is seen through. Left
; alone: a load that runs along its loop (a stream the hardware follows), an
; outer loop that runs this loop alone, an outer step within a line, and
; everything with -lockstep-prefetch-trips-ahead=0.
; RUN: %opt -passes=lockstep-next-trip-prefetch -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-next-trip-prefetch -lockstep-prefetch-trips-ahead=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; for (t) { for (y < 16) tile[y] = b[(t * 16 + y) * n]; for (y < 16) use(tile[y]); }
; CHECK-LABEL: define void @tiles(
; CHECK: entry:
; CHECK: %[[STEP:[0-9]+]] = shl nsw i64 %{{[0-9]+}}, 2
; CHECK: load:
; CHECK: %prefetch.next = getelementptr i8, ptr addrspace(1) %p, i64 %[[STEP]]
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) %prefetch.next, i32 0, i32 2, i32 1)
; CHECK-NEXT: %v = load float, ptr addrspace(1) %p
; OFF-LABEL: define void @tiles(
; OFF-NOT: prefetch
; OFF: ret void
define void @tiles(ptr addrspace(1) %b, ptr %tile, i32 %n, i32 %tiles) {
entry:
  br label %t.loop
t.loop:
  %t = phi i32 [ 0, %entry ], [ %t.next, %use.done ]
  %row0 = shl nsw i32 %t, 4
  br label %load
load:
  %y = phi i32 [ 0, %t.loop ], [ %y.next, %load ]
  %row = add nsw i32 %row0, %y
  %index = mul nsw i32 %row, %n
  %wide = sext i32 %index to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %b, i64 %wide
  %v = load float, ptr addrspace(1) %p, align 4
  %slot = getelementptr float, ptr %tile, i32 %y
  store float %v, ptr %slot, align 4
  %y.next = add nuw nsw i32 %y, 1
  %y.more = icmp ult i32 %y.next, 16
  br i1 %y.more, label %load, label %use
use:
  %u = phi i32 [ 0, %load ], [ %u.next, %use ]
  %uslot = getelementptr float, ptr %tile, i32 %u
  %w = load float, ptr %uslot, align 4
  %twice = fadd float %w, %w
  store float %twice, ptr %uslot, align 4
  %u.next = add nuw nsw i32 %u, 1
  %u.more = icmp ult i32 %u.next, 16
  br i1 %u.more, label %use, label %use.done
use.done:
  %t.next = add nuw nsw i32 %t, 1
  %t.more = icmp slt i32 %t.next, %tiles
  br i1 %t.more, label %t.loop, label %done
done:
  ret void
}

; Loads that run along their loop, and one whose outer step is 4 bytes.
; CHECK-LABEL: define void @streams(
; CHECK-NOT: prefetch
; CHECK: ret void
define void @streams(ptr addrspace(1) %b, ptr %tile, i64 %n, i64 %outer) {
entry:
  br label %t.loop
t.loop:
  %t = phi i64 [ 0, %entry ], [ %t.next, %use.done ]
  %base = mul i64 %t, %n
  br label %load
load:
  %y = phi i64 [ 0, %t.loop ], [ %y.next, %load ]
  %along = add i64 %base, %y
  %p = getelementptr inbounds float, ptr addrspace(1) %b, i64 %along
  %v = load float, ptr addrspace(1) %p, align 4
  %down = mul i64 %y, %n
  %column = add i64 %down, %t
  %q = getelementptr inbounds float, ptr addrspace(1) %b, i64 %column
  %w = load float, ptr addrspace(1) %q, align 4
  %sum = fadd float %v, %w
  %slot = getelementptr float, ptr %tile, i64 %y
  store float %sum, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.more = icmp ult i64 %y.next, 16
  br i1 %y.more, label %load, label %use
use:
  %u = phi i64 [ 0, %load ], [ %u.next, %use ]
  %uslot = getelementptr float, ptr %tile, i64 %u
  store float 0.0, ptr %uslot, align 4
  %u.next = add nuw nsw i64 %u, 1
  %u.more = icmp ult i64 %u.next, 16
  br i1 %u.more, label %use, label %use.done
use.done:
  %t.next = add nuw nsw i64 %t, 1
  %t.more = icmp ult i64 %t.next, %outer
  br i1 %t.more, label %t.loop, label %done
done:
  ret void
}

; The tile rows again, but the outer loop runs nothing else.
; CHECK-LABEL: define void @alone(
; CHECK-NOT: prefetch
; CHECK: ret void
define void @alone(ptr addrspace(1) %b, ptr %tile, i64 %n, i64 %tiles) {
entry:
  br label %t.loop
t.loop:
  %t = phi i64 [ 0, %entry ], [ %t.next, %load.done ]
  %row0 = shl i64 %t, 4
  br label %load
load:
  %y = phi i64 [ 0, %t.loop ], [ %y.next, %load ]
  %row = add i64 %row0, %y
  %index = mul i64 %row, %n
  %p = getelementptr inbounds float, ptr addrspace(1) %b, i64 %index
  %v = load float, ptr addrspace(1) %p, align 4
  %slot = getelementptr float, ptr %tile, i64 %y
  store float %v, ptr %slot, align 4
  %y.next = add nuw nsw i64 %y, 1
  %y.more = icmp ult i64 %y.next, 16
  br i1 %y.more, label %load, label %load.done
load.done:
  %t.next = add nuw nsw i64 %t, 1
  %t.more = icmp ult i64 %t.next, %tiles
  br i1 %t.more, label %t.loop, label %done
done:
  ret void
}
