; A loop that reads a short run of consecutive elements each time round an
; outer loop that jumps far (a grid-stride loop's rounds as the work-group
; loops leave them) prefetches, before it starts, the run it will read four
; outer iterations later, a cache line at a time, when the run is short and
; the jump is longer than the run.
; RUN: %opt -passes=lockstep-strided-run-prefetch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; for (round = 0; round < rounds; ++round)
;   for (x = 0; x < size; ++x) sum += in[first + round * stride + x];
define float @grid_stride(ptr addrspace(1) %in, i64 %first, i64 %stride, i64 %size, i64 %rounds) {
entry:
  br label %round.loop

round.loop:
  %round = phi i64 [ 0, %entry ], [ %round.next, %round.latch ]
  %sum = phi float [ 0.0, %entry ], [ %sum.x, %round.latch ]
  %offset = mul i64 %round, %stride
  %base = add i64 %first, %offset
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %round.loop ], [ %x.next, %x.loop ]
  %acc = phi float [ %sum, %round.loop ], [ %acc.next, %x.loop ]
  %i = add i64 %base, %x
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %acc.next = fadd float %acc, %v
  %x.next = add nuw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %size
  br i1 %x.more, label %x.loop, label %round.latch

round.latch:
  %sum.x = phi float [ %acc.next, %x.loop ]
  %round.next = add nuw i64 %round, 1
  %more = icmp ult i64 %round.next, %rounds
  br i1 %more, label %round.loop, label %done

done:
  ret float %sum.x
}

; CHECK-LABEL: define float @grid_stride(
; The run is size * 4 bytes; the outer loop jumps stride * 4 bytes. Four
; rounds on, the run starts at in + 4 * first + 16 * stride + 4 * stride * round.
; CHECK: entry:
; CHECK: %[[BYTES:[0-9]+]] = shl i64 %umax, 2
; CHECK-NEXT: %[[JUMP:[0-9]+]] = shl i64 %stride, 2
; CHECK-NEXT: %[[FOUR:[0-9]+]] = shl i64 %stride, 4
; CHECK-NEXT: %[[FIRST:[0-9]+]] = shl i64 %first, 2
; CHECK-NEXT: %[[START:[0-9]+]] = add i64 %[[FOUR]], %[[FIRST]]
; CHECK-NEXT: %[[STEP:[0-9]+]] = shl i64 %stride, 2
; CHECK: round.loop:
; CHECK: %[[R:[0-9]+]] = mul i64 %[[STEP]], %round
; CHECK-NEXT: %[[OFF:[0-9]+]] = add i64 %[[START]], %[[R]]
; CHECK-NEXT: %[[AHEAD:[a-z0-9]+]] = getelementptr i8, ptr addrspace(1) %in, i64 %[[OFF]]
; CHECK: %[[FAR:[0-9]+]] = icmp sgt i64 %[[JUMP]], %[[BYTES]]
; CHECK-NEXT: %[[SHORT:[0-9]+]] = icmp ule i64 %[[BYTES]], 2048
; CHECK-NEXT: %prefetch.worth = and i1 %[[SHORT]], %[[FAR]]
; CHECK-NEXT: br i1 %prefetch.worth, label %[[LINE:[0-9]+]], label %[[X:[0-9]+]]
; One line at a time, up to the line of the run's last byte.
; CHECK: [[LINE]]:
; CHECK-NEXT: %prefetch.offset = phi i64 [ 0, %round.loop ], [ %[[NEXT:[0-9]+]], %[[LINE]] ]
; CHECK-NEXT: %[[AT:[0-9]+]] = getelementptr i8, ptr addrspace(1) %[[AHEAD]], i64 %prefetch.offset
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) %[[AT]], i32 0, i32 3, i32 1)
; CHECK-NEXT: %[[NEXT]] = add i64 %prefetch.offset, 64
; CHECK-NEXT: %[[END:[0-9]+]] = add i64 %[[BYTES]], 63
; CHECK-NEXT: %[[AGAIN:[0-9]+]] = icmp ult i64 %[[NEXT]], %[[END]]
; CHECK-NEXT: br i1 %[[AGAIN]], label %[[LINE]], label %[[X]]
; CHECK: [[X]]:
; CHECK-NEXT: br label %x.loop

; The same nest over __local memory, which is in the cache already: nothing.
define float @local_memory(ptr addrspace(3) %in, i64 %first, i64 %stride, i64 %size, i64 %rounds) {
entry:
  br label %round.loop

round.loop:
  %round = phi i64 [ 0, %entry ], [ %round.next, %round.latch ]
  %sum = phi float [ 0.0, %entry ], [ %sum.x, %round.latch ]
  %offset = mul i64 %round, %stride
  %base = add i64 %first, %offset
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %round.loop ], [ %x.next, %x.loop ]
  %acc = phi float [ %sum, %round.loop ], [ %acc.next, %x.loop ]
  %i = add i64 %base, %x
  %p = getelementptr inbounds float, ptr addrspace(3) %in, i64 %i
  %v = load float, ptr addrspace(3) %p, align 4
  %acc.next = fadd float %acc, %v
  %x.next = add nuw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %size
  br i1 %x.more, label %x.loop, label %round.latch

round.latch:
  %sum.x = phi float [ %acc.next, %x.loop ]
  %round.next = add nuw i64 %round, 1
  %more = icmp ult i64 %round.next, %rounds
  br i1 %more, label %round.loop, label %done

done:
  ret float %sum.x
}

; CHECK-LABEL: define float @local_memory(
; CHECK-NOT: prefetch
; CHECK: ret float

; A run read with a stride of 1 KiB per element is no run: nothing.
define float @strided_inner(ptr addrspace(1) %in, i64 %first, i64 %stride, i64 %size, i64 %rounds) {
entry:
  br label %round.loop

round.loop:
  %round = phi i64 [ 0, %entry ], [ %round.next, %round.latch ]
  %sum = phi float [ 0.0, %entry ], [ %sum.x, %round.latch ]
  %offset = mul i64 %round, %stride
  %base = add i64 %first, %offset
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %round.loop ], [ %x.next, %x.loop ]
  %acc = phi float [ %sum, %round.loop ], [ %acc.next, %x.loop ]
  %xs = mul i64 %x, 256
  %i = add i64 %base, %xs
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %acc.next = fadd float %acc, %v
  %x.next = add nuw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %size
  br i1 %x.more, label %x.loop, label %round.latch

round.latch:
  %sum.x = phi float [ %acc.next, %x.loop ]
  %round.next = add nuw i64 %round, 1
  %more = icmp ult i64 %round.next, %rounds
  br i1 %more, label %round.loop, label %done

done:
  ret float %sum.x
}

; CHECK-LABEL: define float @strided_inner(
; CHECK-NOT: prefetch
; CHECK: ret float
