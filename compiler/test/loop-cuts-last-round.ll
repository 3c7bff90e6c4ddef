; lockstep-loop-cuts splits a loop whose work-items start a local id apart
; and step at least the group's width (LastRound.cpp): a loop of the rounds
; every work-item runs (`shared.round` counts to `shared.rounds`, the
; counter is `start + round * step`, in the body the shared part plus the
; local id), cut like any uniform loop, then the
; last round, at most one more, as straight-line code (the original loop's
; blocks, whose latch leaves through a copy of the header), and, for
; launches the checks reject (starts not consecutive in the counter's
; width, a step below the group's width, a counter that would wrap), the
; loop as it was, marked !lockstep.whole_loop and neither cut nor masked.
; Left alone: a start that is not a local id plus a shared value, a step
; the group does not share, and everything with
; -lockstep-last-round-max-size=0 (masked as before).
; RUN: %opt -passes=lockstep-loop-cuts -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-uniform-bounds=false -S %s \
; RUN:   | FileCheck %s --check-prefix=UNIFORM-OFF

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64, ptr, ptr }

declare i64 @__lockstep.local_id(i32) memory(none)

; for (int i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
; (the int step converts from size_t: no nsw).
; CHECK-LABEL: define void @grid_stride(
; CHECK: %shared.rounds = select i1
; CHECK: br i1 %{{.*}}, label %shared.entry, label %whole.loop
; CHECK: last.round:
; CHECK: %i.last = add i32
; CHECK: br label %header
; CHECK: header.done:
; CHECK: br label %done
; CHECK: shared.entry:
; CHECK: %shared.round = phi i32 [ 0, %shared.entry ]
; CHECK: %[[COUNT:.*]] = icmp ult i32 %shared.round, %shared.rounds
; CHECK: br i1 %[[COUNT]], label %{{.*}}, label %last.round
; CHECK: call void @_Z7barrierj(i32 0), !lockstep.loop_cut
; In the body the counter is s0 + round * step, shared, plus the local id,
; summed in 64 bits (the rounds stay below n: no wrap), which the index's
; sign extension is.
; CHECK: %i.round = add i32
; CHECK: %[[LID:.*]] = call i64 @__lockstep.local_id(i32 0)
; CHECK: %[[ROUND:.*]] = sext i32 %i.round to i64
; CHECK: %i.wide = add nsw i64 %[[ROUND]], %[[LID]]
; CHECK: trunc nsw i64 %i.wide to i32
; CHECK: %p.shared = getelementptr float, ptr %in, i64 %i.wide
; CHECK: whole.loop:
; CHECK: !lockstep.whole_loop
; CHECK-NOT: lockstep.masked_count
; OFF-LABEL: define void @grid_stride(
; OFF-NOT: shared.round
; OFF: lockstep.masked_count
define void @grid_stride(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="grid_stride" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  %gsp = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 4, i32 0
  %gsize = load i64, ptr %gsp, align 8, !invariant.load !0
  %gbp = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 0, i32 0
  %gid = load i64, ptr %gbp, align 8, !invariant.load !0
  %lsp = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 1, i32 0
  %lsize = load i64, ptr %lsp, align 8, !invariant.load !0
  %base = mul i64 %gid, %lsize
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %global = add i64 %lid, %base
  %start = trunc i64 %global to i32
  %step = trunc i64 %gsize to i32
  br label %header

header:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %i64 = sext i32 %i to i64
  %p = getelementptr float, ptr %in, i64 %i64
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %i.next = add i32 %i, %step
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

; A tree level, `for (i = lid; i < s; i += size)` inside a loop around a
; barrier whose counter `s` bounds it: uniform, though no expression of the
; prologue's values, so split like the rest (masked with
; -lockstep-last-round-uniform-bounds=false).
; CHECK-LABEL: define void @tree_level(
; CHECK: %shared.rounds = select i1
; UNIFORM-OFF-LABEL: define void @tree_level(
; UNIFORM-OFF-NOT: shared.rounds
; UNIFORM-OFF: lockstep.masked_count
define void @tree_level(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="tree_level" {
prologue:
  %tile = load ptr addrspace(3), ptr %args, align 8
  %lsp = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 1, i32 0
  %lsize = load i64, ptr %lsp, align 8, !invariant.load !0
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %start = trunc i64 %lid to i32
  %step = trunc i64 %lsize to i32
  br label %level

level:
  %s = phi i32 [ 512, %entry ], [ %s.next, %level.end ]
  call void @_Z7barrierj(i32 1)
  br label %header

header:
  %i = phi i32 [ %start, %level ], [ %i.next, %body ]
  %more = icmp ult i32 %i, %s
  br i1 %more, label %body, label %level.end

body:
  %far = add i32 %i, %s
  %pf = getelementptr float, ptr addrspace(3) %tile, i32 %far
  %vf = load float, ptr addrspace(3) %pf
  %pi = getelementptr float, ptr addrspace(3) %tile, i32 %i
  %vi = load float, ptr addrspace(3) %pi
  %sum = fadd float %vi, %vf
  store float %sum, ptr addrspace(3) %pi
  %i.next = add nuw i32 %i, %step
  br label %header

level.end:
  %s.next = lshr i32 %s, 1
  %again = icmp ne i32 %s.next, 0
  br i1 %again, label %level, label %done

done:
  ret void
}

declare void @_Z7barrierj(i32) convergent

; The start is twice the local id: not split (masked).
; CHECK-LABEL: define void @spread_start(
; CHECK-NOT: shared.round
; CHECK: lockstep.masked_count
define void @spread_start(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="spread_start" {
prologue:
  %n = load i64, ptr %args, align 8
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %start = shl i64 %lid, 1
  br label %header

header:
  %i = phi i64 [ %start, %entry ], [ %i.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done

body:
  %p = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %i.next = add i64 %i, 4096
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  ret void
}

!0 = !{}
