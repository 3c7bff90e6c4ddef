; An index computed from the local id and uniform values before a barrier
; and used after it is computed again after it, not kept per work-item in
; the context (where the access through it would become a gather). Up to
; sixteen instructions deep; anything else (here: a value loaded from memory)
; goes through the context.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64 }

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

; `size_t base = group * 2 * size; out[base + lid] = in[base + lid]`
; before and after a barrier: six instructions from the prologue's values.
define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %in = load ptr addrspace(1), ptr %args, align 8
  %outp = getelementptr i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %outp, align 8
  %gid = load i64, ptr %group, align 8
  %sizep = getelementptr i8, ptr %group, i64 24
  %size = load i64, ptr %sizep, align 8
  br label %body

body:
  %lid64 = call i64 @__lockstep.local_id(i32 0)
  %lid = trunc i64 %lid64 to i32
  %items = trunc i64 %size to i32
  %count = shl i32 %items, 1
  %count64 = zext i32 %count to i64
  %base = mul i64 %gid, %count64
  %lidw = zext i32 %lid to i64
  %index = add i64 %base, %lidw
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %index
  %v = load i32, ptr addrspace(1) %src, align 4
  call void @_Z7barrierj(i32 1)
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %index
  store i32 %v, ptr addrspace(1) %dst, align 4
  ret void
}

; CHECK-LABEL: define void @wg(
; Only the loaded value gets a private variable, kept in the context.
; CHECK-NOT: %index.reg2mem = alloca
; CHECK: %v.reg2mem = alloca i32
; CHECK-NOT: %index.reg2mem = alloca
; Second region: the index again, from its own work-item's local id.
; CHECK: after.barrier.r:
; CHECK-NEXT: %[[ITEMS:[0-9]+]] = trunc i64 %size to i32
; CHECK-NEXT: %[[COUNT:[0-9]+]] = shl i32 %[[ITEMS]], 1
; CHECK-NEXT: %[[WIDE:[0-9]+]] = zext i32 %[[COUNT]] to i64
; CHECK-NEXT: %[[BASE:[0-9]+]] = mul i64 %gid, %[[WIDE]]
; CHECK-NEXT: %[[LID:[0-9]+]] = trunc i64 %lid0{{[0-9]+}} to i32
; CHECK-NEXT: %[[LIDW:[0-9]+]] = zext i32 %[[LID]] to i64
; CHECK-NEXT: %[[INDEX:[0-9]+]] = add i64 %[[BASE]], %[[LIDW]]
; CHECK-NEXT: %dst.r = getelementptr i32, ptr addrspace(1) %out, i64 %[[INDEX]]

; A kernel argument read in the body (where the simplification sank it) is
; read in the prologue instead: a uniform value, so `lid + offset` is
; recomputed after the barrier like the rest.
define void @wg2(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k2" {
prologue:
  %out = load ptr addrspace(1), ptr %args, align 8
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %offp = getelementptr i8, ptr %args, i64 8
  %offset = load i64, ptr %offp, align 8, !invariant.load !0
  %index = add i64 %lid, %offset
  call void @_Z7barrierj(i32 1)
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %index
  store i32 1, ptr addrspace(1) %dst, align 4
  ret void
}

!0 = !{}

; CHECK-LABEL: define void @wg2(
; CHECK: prologue:
; CHECK: %offset = load i64, ptr %offp
; CHECK-NOT: reg2mem
; CHECK: after.barrier.r:
; CHECK-NEXT: %[[I:[0-9]+]] = add i64 %lid0{{[0-9]+}}, %offset
; CHECK-NEXT: %dst.r = getelementptr i32, ptr addrspace(1) %out, i64 %[[I]]
