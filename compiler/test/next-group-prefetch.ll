; Global loads and stores of a work-item loop whose address moves with the
; group id along x (GroupInfo::groupId[0], offset 0 of the GroupInfo) also
; prefetch what they touch two groups later: the address plus twice the
; slope, computed once in the prologue. Not in a kernel loop (depth 3), not
; an access the group id does not move, not in a group-free kernel.
; RUN: %opt -passes=lockstep-next-group-prefetch -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-next-group-prefetch -lockstep-prefetch-groups-ahead=0 -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: define void @tile(
; CHECK: prologue:
; CHECK: %gx = load i64, ptr %group
; CHECK: %lsz = load i64, ptr %lszp
; The int index moves by the group's width in 32 bits, sign extended.
; CHECK: %[[NARROW:.*]] = trunc i64 %lsz to i32
; CHECK: %[[WIDE:.*]] = sext i32 %[[NARROW]] to i64
; CHECK: %[[INT_BYTES:.*]] = shl nsw i64 %[[WIDE]], 3
; CHECK: %[[BYTES:.*]] = shl i64 %lsz, 3
; CHECK: loop:
; CHECK: %prefetch.group = getelementptr i8, ptr addrspace(1) %p, i64 %[[INT_BYTES]]
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) %prefetch.group, i32 0, i32 3, i32 1)
; CHECK-NEXT: %v = load float, ptr addrspace(1) %p
; CHECK: %prefetch.group{{.*}} = getelementptr i8, ptr addrspace(1) %q, i64 %[[BYTES]]
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) %prefetch.group{{.*}}, i32 1, i32 3, i32 1)
; CHECK-NEXT: store float %v, ptr addrspace(1) %q
; The table the groups share does not move: no prefetch.
; CHECK-NOT: prefetch
; CHECK: %w = load float, ptr addrspace(1) %table
; CHECK: ret void
define void @tile(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-work-group-code" {
prologue:
  %gx = load i64, ptr %group
  %lszp = getelementptr inbounds i8, ptr %group, i64 120
  %lsz = load i64, ptr %lszp
  %in = load ptr addrspace(1), ptr %args
  %outp = getelementptr inbounds i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %outp
  %tablep = getelementptr inbounds i8, ptr %args, i64 16
  %table = load ptr addrspace(1), ptr %tablep
  %base = mul i64 %gx, %lsz
  br label %loop

loop:
  %lx = phi i64 [ 0, %prologue ], [ %next, %loop ]
  %x = add i64 %base, %lx
  %x32 = trunc i64 %x to i32
  %i = sext i32 %x32 to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %q
  %w = load float, ptr addrspace(1) %table
  store float %w, ptr %context
  %next = add i64 %lx, 1
  %done = icmp eq i64 %next, %lsz
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The same access three loops deep (a kernel loop around the work-item
; loops): no prefetch.
; CHECK-LABEL: define void @in_kernel_loop(
; CHECK-NOT: prefetch
; CHECK: ret void
define void @in_kernel_loop(ptr %args, ptr %group, ptr %local, ptr %context, i64 %tiles) "lockstep-work-group-code" {
prologue:
  %gx = load i64, ptr %group
  %in = load ptr addrspace(1), ptr %args
  %base = mul i64 %gx, 16
  br label %tile

tile:
  %t = phi i64 [ 0, %prologue ], [ %tnext, %rows.done ]
  br label %rows

rows:
  %ly = phi i64 [ 0, %tile ], [ %lynext, %xs.done ]
  br label %xs

xs:
  %lx = phi i64 [ 0, %rows ], [ %lxnext, %xs ]
  %x = add i64 %base, %lx
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr %context
  %lxnext = add i64 %lx, 1
  %xend = icmp eq i64 %lxnext, 16
  br i1 %xend, label %xs.done, label %xs

xs.done:
  %lynext = add i64 %ly, 1
  %yend = icmp eq i64 %lynext, 16
  br i1 %yend, label %rows.done, label %rows

rows.done:
  %tnext = add i64 %t, 1
  %tend = icmp eq i64 %tnext, %tiles
  br i1 %tend, label %exit, label %tile

exit:
  ret void
}

; A kernel free to run in any groups runs in long rows: no prefetch.
; CHECK-LABEL: define void @free(
; CHECK-NOT: prefetch
; CHECK: ret void
define void @free(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-work-group-code" "lockstep-group-free" {
prologue:
  %gx = load i64, ptr %group
  %in = load ptr addrspace(1), ptr %args
  %base = mul i64 %gx, 16
  br label %loop

loop:
  %lx = phi i64 [ 0, %prologue ], [ %next, %loop ]
  %x = add i64 %base, %lx
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr %context
  %next = add i64 %lx, 1
  %done = icmp eq i64 %next, 16
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; OFF-NOT: @llvm.prefetch

; An access in the prologue itself (straight-line code of a group of one
; work-item): the distance is computed before it.
; CHECK-LABEL: define void @in_prologue(
; CHECK: %gx = load i64, ptr %group
; CHECK: %[[BYTES:.*]] = shl i64 %lsz, 3
; CHECK-NEXT: %prefetch.group = getelementptr i8, ptr addrspace(1) %p, i64 %[[BYTES]]
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) %prefetch.group, i32 1, i32 3, i32 1)
; CHECK-NEXT: store float 1.000000e+00, ptr addrspace(1) %p
define void @in_prologue(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-work-group-code" {
prologue:
  %gx = load i64, ptr %group
  %lszp = getelementptr inbounds i8, ptr %group, i64 120
  %lsz = load i64, ptr %lszp
  %out = load ptr addrspace(1), ptr %args
  %x = mul i64 %gx, %lsz
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float 1.0, ptr addrspace(1) %p
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 1
  store float 2.0, ptr addrspace(1) %q
  ret void
}
