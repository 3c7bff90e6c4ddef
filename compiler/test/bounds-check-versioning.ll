; BoundsCheckVersioningPass settles bounds checks before a loop nest when
; every access they guard is in range, and runs a copy of the nest without
; them; the nest as it was runs otherwise, its loops trying again (a mark
; naming the depth it failed at). Offsets are linear in the nest's trip
; numbers, or bounded: clamps (min/max of what the pass reads, or of what
; scalar evolution bounds), products with an invariant, a round of a loop
; guarded by a comparison with the recurrence.
; RUN: %opt -passes=lockstep-bounds-check-versioning -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @report(i64)

; A row loop over x in a column loop over y reads in[clamp(y - 1, 0, hi) * n
; + clamp(x - 1, 0, hi)]: clamps bound the two indices, the product with
; the invariant n its corners.
; CHECK-LABEL: define void @clamped(
; The clamps' bounds, in 128 bits, and the product's corners:
; CHECK:         call i128 @llvm.smax.i128(
; CHECK:         call i128 @llvm.smin.i128(
; CHECK:         %bounds.hold = and i1
; CHECK-NEXT:    br i1 %bounds.hold, label %[[COPY:.*]], label %[[ORIGINAL:.*]]
; CHECK:       [[COPY]]:
; CHECK:       x.loop.in.bounds:
; CHECK:         br i1 true, label %load.in.bounds, label %fail.in.bounds
; The nest as it was: each row's loop is tried again.
; CHECK:       y.loop:
; CHECK:         %[[ROW:bounds.hold[0-9]+]] = and i1
; CHECK-NEXT:    br i1 %[[ROW]], label
; CHECK:       x.loop:
; CHECK:         br i1 %ok, label %load, label %fail, !lockstep.bounds_check ![[DEPTH:[0-9]+]]
define void @clamped(ptr %in, ptr %out, i32 %n, i32 %hi, i64 %rows, i64 %cols, i64 %bytes) #0 {
entry:
  br label %y.loop

y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  %y32 = trunc i64 %y to i32
  %ym = add nsw i32 %y32, -1
  %ymax = call i32 @llvm.smax.i32(i32 %ym, i32 0)
  %sy = call i32 @llvm.smin.i32(i32 %ymax, i32 %hi)
  %row = mul i32 %sy, %n
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
  %x32 = trunc i64 %x to i32
  %xm = add nsw i32 %x32, -1
  %xmax = call i32 @llvm.smax.i32(i32 %xm, i32 0)
  %sx = call i32 @llvm.smin.i32(i32 %xmax, i32 %hi)
  %index = add i32 %row, %sx
  %wide = zext i32 %index to i64
  %offset = shl i64 %wide, 2
  %ok = icmp ult i64 %offset, %bytes
  br i1 %ok, label %load, label %fail, !lockstep.bounds_check !0

fail:
  call void @report(i64 %offset)
  br label %x.latch

load:
  %address = getelementptr inbounds i8, ptr %in, i64 %offset
  %value = load float, ptr %address, align 4
  store float %value, ptr %out, align 4
  br label %x.latch

x.latch:
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %cols
  br i1 %x.more, label %x.loop, label %y.latch

y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %y.more = icmp ult i64 %y.next, %rows
  br i1 %y.more, label %y.loop, label %exit

exit:
  ret void
}

; A second round of a two-round loop, peeled: it stores tile[i + 256] only
; when i + 256 < 324, with i = 16 * y + x. The nest's test over all
; work-items fails (the round's unguarded extreme is past the tile); in the
; nest as it was, each row's loop bounds the site's last trip by the guard.
; CHECK-LABEL: define void @guarded(
; CHECK:         br i1 %bounds.hold, label
; CHECK:         br i1 true, label %store.in.bounds, label %fail.in.bounds
; In each row: the last trip that passes the guard, (323 - (16 y + 256)) / 1.
; CHECK:       y.loop:
; CHECK:         %[[LEFT:.*]] = sub i128 323, %{{.*}}
; CHECK-NEXT:    %[[LAST:.*]] = sdiv i128 %[[LEFT]], 1
; CHECK-NEXT:    call i128 @llvm.smin.i128(i128 %{{.*}}, i128 %[[LAST]])
; CHECK:         %[[ROW:bounds.hold[0-9]+]] = and i1
; CHECK-NEXT:    br i1 %[[ROW]], label
; CHECK:         br i1 true, label %store.in.bounds{{[0-9]+}}, label
define void @guarded(ptr %tile, i64 %rows, i64 %cols) #0 {
entry:
  br label %y.loop

y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  %y32 = trunc i64 %y to i32
  %base = shl nsw i32 %y32, 4
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
  %x32 = trunc i64 %x to i32
  %i = add nsw i32 %base, %x32
  %i2 = add nsw i32 %i, 256
  %round = icmp slt i32 %i2, 324
  br i1 %round, label %check, label %x.latch

check:
  %wide = sext i32 %i2 to i64
  %offset = shl nsw i64 %wide, 2
  %ok = icmp ult i64 %offset, 1296
  br i1 %ok, label %store, label %fail, !lockstep.bounds_check !0

fail:
  call void @report(i64 %offset)
  br label %x.latch

store:
  %address = getelementptr inbounds i8, ptr %tile, i64 %offset
  store float 1.0, ptr %address, align 4
  br label %x.latch

x.latch:
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %cols
  br i1 %x.more, label %x.loop, label %y.latch

y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %y.more = icmp ult i64 %y.next, %rows
  br i1 %y.more, label %y.loop, label %exit

exit:
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

attributes #0 = { "lockstep-check-bounds" }

!0 = !{}
; CHECK: ![[DEPTH]] = !{i32 2}
