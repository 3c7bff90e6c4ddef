; In a kernel with barriers, an if whose arms only compute (a ternary, a
; short-circuit &&) becomes selects before the values live across the
; barriers are chosen, so that a clamped neighbour's index is computed again
; after the barrier rather than kept per work-item in the context. An arm
; that could fault (a division) stays behind its branch. A bool kept per
; work-item in the context is stored and loaded as a byte.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -lockstep-diamond-selects=false -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

; W = (lid - 1 < lo) ? lo : lid - 1; ok = lid > 0 && lid < hi; both used
; after the barrier.
define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %tile = load ptr addrspace(3), ptr %args, align 8
  %lop = getelementptr i8, ptr %args, i64 8
  %lo = load i32, ptr %lop, align 4
  %hip = getelementptr i8, ptr %args, i64 12
  %hi = load i32, ptr %hip, align 4
  br label %body

body:
  %lid64 = call i64 @__lockstep.local_id(i32 0)
  %lid = trunc i64 %lid64 to i32
  %w0 = add nsw i32 %lid, -1
  %below = icmp slt i32 %w0, %lo
  br i1 %below, label %clamp, label %keep

clamp:
  br label %clamped

keep:
  br label %clamped

clamped:
  %w = phi i32 [ %lo, %clamp ], [ %w0, %keep ]
  %positive = icmp sgt i32 %lid, 0
  br i1 %positive, label %upper, label %tested

upper:
  %inside = icmp slt i32 %lid, %hi
  br label %tested

tested:
  %ok = phi i1 [ false, %clamped ], [ %inside, %upper ]
  %mine = getelementptr i32, ptr addrspace(3) %tile, i32 %lid
  store i32 %lid, ptr addrspace(3) %mine, align 4
  call void @_Z7barrierj(i32 1)
  br i1 %ok, label %read, label %done

read:
  %src = getelementptr i32, ptr addrspace(3) %tile, i32 %w
  %v = load i32, ptr addrspace(3) %src, align 4
  store i32 %v, ptr addrspace(3) %mine, align 4
  br label %done

done:
  ret void
}

; CHECK-LABEL: define void @wg(
; CHECK-NOT: %w.reg2mem = alloca
; CHECK-NOT: %ok.reg2mem = alloca
; CHECK: after.barrier.r:
; CHECK: %[[OK:[0-9]+]] = select i1 %{{[0-9]+}}, i1 %{{[0-9]+}}, i1 false
; CHECK-NEXT: br i1 %[[OK]]
; CHECK: %[[BELOW:[0-9]+]] = icmp slt i32 %{{[0-9]+}}, %lo
; CHECK-NEXT: %[[W:[0-9]+]] = select i1 %[[BELOW]], i32 %lo, i32 %{{[0-9]+}}
; CHECK-NEXT: getelementptr i32, ptr addrspace(3) %tile, i32 %[[W]]
; OFF-LABEL: define void @wg(
; OFF: %w.reg2mem = alloca i32
; OFF: %ok.reg2mem = alloca i1

; q = d != 0 ? n / d : -7 kept across a barrier: the division stays behind
; its test (a work-item with d == 0 would trap). The flag `big`, loaded from
; memory, is kept per work-item as a byte.
define void @wg2(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k2" {
prologue:
  %in = load ptr addrspace(1), ptr %args, align 8
  %outp = getelementptr i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %outp, align 8
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %lid
  %d = load i32, ptr addrspace(1) %src, align 4
  %big = icmp sgt i32 %d, 50
  %nonzero = icmp ne i32 %d, 0
  br i1 %nonzero, label %divide, label %joined

divide:
  %quotient = sdiv i32 1000, %d
  br label %joined

joined:
  %q = phi i32 [ %quotient, %divide ], [ -7, %body ]
  call void @_Z7barrierj(i32 1)
  %flag = zext i1 %big to i32
  %sum = add i32 %q, %flag
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %lid
  store i32 %sum, ptr addrspace(1) %dst, align 4
  ret void
}

; CHECK-LABEL: define void @wg2(
; CHECK: %q.reg2mem = alloca i32
; CHECK: sdiv i32 1000,
; CHECK: %[[FLAG:[0-9]+]] = zext i1 %{{[0-9]+}} to i8
; CHECK-NEXT: store i8 %[[FLAG]], ptr
; CHECK: %[[BYTE:[0-9]+]] = load i8, ptr
; CHECK-NEXT: trunc i8 %[[BYTE]] to i1
; CHECK: after.barrier.r:
