; A loop over a group's work-items that reads (or writes) a run of
; consecutive global elements at an address set by the group id, and by
; nothing that changes within the group, prefetches after it the same run
; of the next group (group id + 1), a line at a time, at most 8 KiB: loads
; for reading, stores for writing. Not in straight-line kernels.
; RUN: %opt -passes=lockstep-next-group-prefetch -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; A block copied in: tile[lid] = in[group * 512 + lid], then used.
define void @stage(ptr %args, ptr %info, ptr addrspace(3) %tile, ptr %context, ptr addrspace(1) %in, i64 %size) {
entry:
  %group = load i64, ptr %info, align 8, !invariant.load !0
  %base = mul i64 %group, 512
  br label %loop

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %i = add i64 %base, %lid
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %lid
  store float %v, ptr addrspace(3) %q, align 4
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %size
  br i1 %again, label %loop, label %done

done:
  ret void
}
; CHECK-LABEL: define void @stage(
; CHECK: done:
; The next group's run starts (group + 1) * 2048 bytes on and has 4 bytes
; per work-item.
; CHECK-NEXT: [[SCALED:%.*]] = shl i64 %group, 11
; CHECK-NEXT: [[NEXT:%.*]] = add i64 [[SCALED]], 2048
; CHECK-NEXT: [[FIRST:%.*]] = getelementptr i8, ptr addrspace(1) %in, i64 [[NEXT]]
; CHECK-NEXT: [[ITEMS:%.*]] = call i64 @llvm.umax.i64(i64 %size, i64 1)
; CHECK-NEXT: [[SPAN:%.*]] = shl i64 [[ITEMS]], 2
; CHECK-NEXT: [[BYTES:%.*]] = call i64 @llvm.umin.i64(i64 [[SPAN]], i64 8192)
; CHECK-NEXT: %prefetch.next = icmp ne i64 [[BYTES]], 0
; CHECK-NEXT: br i1 %prefetch.next, label %[[BODY:.*]], label %[[AFTER:.*]]
; CHECK: [[BODY]]:
; CHECK-NEXT: %prefetch.offset = phi i64 [ 0, %done ], [ [[STEP:%.*]], %[[BODY]] ]
; CHECK-NEXT: [[AT:%.*]] = getelementptr i8, ptr addrspace(1) [[FIRST]], i64 %prefetch.offset
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[AT]], i32 0, i32 3, i32 1)
; CHECK-NEXT: [[STEP]] = add i64 %prefetch.offset, 64
; CHECK: [[AFTER]]:
; CHECK-NEXT: ret void

; Results written out: out[group * 256 + lid] = tile[lid], prefetched for
; writing.
define void @write_out(ptr %args, ptr %info, ptr addrspace(3) %tile, ptr %context, ptr addrspace(1) %out, i64 %size) {
entry:
  %group = load i64, ptr %info, align 8, !invariant.load !0
  %base = shl i64 %group, 8
  br label %loop

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %q = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %lid
  %v = load float, ptr addrspace(3) %q, align 4
  %i = add i64 %base, %lid
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %v, ptr addrspace(1) %p, align 4
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %size
  br i1 %again, label %loop, label %done

done:
  ret void
}
; CHECK-LABEL: define void @write_out(
; CHECK: call void @llvm.prefetch.p1(ptr addrspace(1) {{%.*}}, i32 1, i32 3, i32 1)

; The address does not depend on the group: nothing to prefetch.
define void @same_for_all(ptr %args, ptr %info, ptr addrspace(3) %tile, ptr %context, ptr addrspace(1) %in, i64 %size) {
entry:
  br label %loop

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %lid
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %lid
  store float %v, ptr addrspace(3) %q, align 4
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %size
  br i1 %again, label %loop, label %done

done:
  ret void
}
; CHECK-LABEL: define void @same_for_all(
; CHECK-NOT: prefetch
; CHECK: ret void

; The run moves with a loop of the kernel's (a tile per round of k, as a
; tiled matrix product reads): left to the hardware.
define void @moving_run(ptr %args, ptr %info, ptr addrspace(3) %tile, ptr %context, ptr addrspace(1) %in, i64 %size, i64 %rounds) {
entry:
  %group = load i64, ptr %info, align 8, !invariant.load !0
  %base = mul i64 %group, 512
  br label %round

round:
  %k = phi i64 [ 0, %entry ], [ %k.next, %round.end ]
  %shift = mul i64 %k, 4096
  %start = add i64 %base, %shift
  br label %loop

loop:
  %lid = phi i64 [ 0, %round ], [ %next, %loop ]
  %i = add i64 %start, %lid
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %lid
  store float %v, ptr addrspace(3) %q, align 4
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %size
  br i1 %again, label %loop, label %round.end

round.end:
  %k.next = add nuw nsw i64 %k, 1
  %more = icmp ult i64 %k.next, %rounds
  br i1 %more, label %round, label %done

done:
  ret void
}
; CHECK-LABEL: define void @moving_run(
; CHECK-NOT: prefetch
; CHECK: ret void

; A straight-line kernel only streams, which the hardware follows.
define void @straight_line(ptr %args, ptr %info, ptr addrspace(3) %tile, ptr %context, ptr addrspace(1) %in, i64 %size) #0 {
entry:
  %group = load i64, ptr %info, align 8, !invariant.load !0
  %base = mul i64 %group, 512
  br label %loop

loop:
  %lid = phi i64 [ 0, %entry ], [ %next, %loop ]
  %i = add i64 %base, %lid
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %lid
  store float %v, ptr addrspace(3) %q, align 4
  %next = add nuw nsw i64 %lid, 1
  %again = icmp ult i64 %next, %size
  br i1 %again, label %loop, label %done

done:
  ret void
}
; CHECK-LABEL: define void @straight_line(
; CHECK-NOT: prefetch
; CHECK: ret void

attributes #0 = { "lockstep-straight-line" }

!0 = !{}
