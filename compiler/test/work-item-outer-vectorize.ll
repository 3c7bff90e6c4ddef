; A work-item loop around a nest of kernel loops whose trip counts the
; work-items share (k-means' assignment: for c < k, for j < dim) is marked
; for LLVM's VPlan-native path (vectorize.enable and a width) where
; neighbouring work-items' addresses are at most 64 bytes apart: at once
; when every distance is a constant, in a copy run under a check when one is
; known at run time (`i * dim`). Rows 4 KiB apart, a branch the work-items
; take differently, a call and an access not marked parallel stay as they
; were. Widened, the nest runs
; once per vector of work-items, and UniformVectorPhis makes the inner
; counters scalars and the gather of one address (`cent`) a load.
; RUN: %opt -passes=lockstep-outer-vectorize -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-outer-vectorize -S %s | FileCheck %s --check-prefix=LEAVES
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -enable-vplan-native-path \
; RUN:   -passes='function(lockstep-outer-vectorize,loop-vectorize,lockstep-uniform-vector-phis)' -S %s \
; RUN:   | FileCheck %s --check-prefix=WIDE
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -enable-vplan-native-path -lockstep-outer-vectorize=false \
; RUN:   -passes='function(lockstep-outer-vectorize,loop-vectorize,lockstep-uniform-vector-phis)' -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

; Points of 4 floats: neighbours 16 bytes apart.
; CHECK-LABEL: define void @assign4(
; CHECK-NOT: .outer
; CHECK: br i1 %done, label %exit, label %wi, !llvm.loop ![[ASSIGN4:[0-9]+]]
; WIDE-LABEL: define void @assign4(
; WIDE: vector.body:
; WIDE: %[[J:vec.phi[0-9]+.scalar]] = phi i64 [ 0, %{{.*}} ], [ %{{.*}}, %{{.*}} ]
; WIDE: call <16 x float> @llvm.masked.gather.v16f32
; WIDE: %[[C:[0-9]+]] = load float, ptr addrspace(1) %{{.*}}, align 4
; WIDE: call <16 x float> @llvm.fmuladd.v16f32
; WIDE: add nuw nsw i64 %[[J]], 1
; WIDE: call void @llvm.masked.scatter.v16i64
; OFF-LABEL: define void @assign4(
; OFF-NOT: <16 x float>
; OFF: ret void
define void @assign4(ptr addrspace(1) %pts, ptr addrspace(1) %cent, ptr addrspace(1) %label, i64 %k, i64 %dim) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  %row = mul i64 %i, 4
  br label %c.loop
c.loop:
  %c = phi i64 [ 0, %wi ], [ %c.next, %c.latch ]
  %best = phi float [ 0x7FF0000000000000, %wi ], [ %best.next, %c.latch ]
  %bi = phi i64 [ 0, %wi ], [ %bi.next, %c.latch ]
  %crow = mul i64 %c, %dim
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %c.loop ], [ %j.next, %j.loop ]
  %d = phi float [ 0.0, %c.loop ], [ %d.next, %j.loop ]
  %pi = add i64 %row, %j
  %pp = getelementptr inbounds float, ptr addrspace(1) %pts, i64 %pi
  %x = load float, ptr addrspace(1) %pp, align 4, !llvm.access.group !0
  %ci = add i64 %crow, %j
  %cp = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %ci
  %y = load float, ptr addrspace(1) %cp, align 4, !llvm.access.group !0
  %t = fsub float %x, %y
  %d.next = call float @llvm.fmuladd.f32(float %t, float %t, float %d)
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %dim
  br i1 %j.done, label %c.latch, label %j.loop
c.latch:
  %d.out = phi float [ %d.next, %j.loop ]
  %less = fcmp olt float %d.out, %best
  %best.next = select i1 %less, float %d.out, float %best
  %bi.next = select i1 %less, i64 %c, i64 %bi
  %c.next = add nuw nsw i64 %c, 1
  %c.done = icmp eq i64 %c.next, %k
  br i1 %c.done, label %wi.latch, label %c.loop
wi.latch:
  %bi.out = phi i64 [ %bi.next, %c.latch ]
  %lp = getelementptr inbounds i64, ptr addrspace(1) %label, i64 %i
  store i64 %bi.out, ptr addrspace(1) %lp, align 8, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !1
exit:
  ret void
}

; Points of `dim` floats, a 32-bit index (`(i * dim) << 32 >> 30`, InstCombine's
; sign extension): a copy of the loop, marked, runs when -64 <= 4 * dim <= 64.
; CHECK-LABEL: define void @assign(
; CHECK: %[[BYTES:[0-9]+]] = mul i64 4, %dim
; CHECK-NEXT: %[[SHIFTED:[0-9]+]] = add i64 %[[BYTES]], 64
; CHECK-NEXT: %[[NEAR:[0-9]+]] = icmp ule i64 %[[SHIFTED]], 128
; CHECK-NEXT: br i1 %[[NEAR]], label %outer.not.outer, label %outer.not
; CHECK: br i1 %done.outer, label %exit{{.*}}, label %wi.outer, !llvm.loop ![[COPY:[0-9]+]]
; CHECK: br i1 %done, label %exit{{.*}}, label %wi, !llvm.loop ![[KEPT:[0-9]+]]
; WIDE-LABEL: define void @assign(
; WIDE: call <16 x float> @llvm.fmuladd.v16f32
define void @assign(ptr addrspace(1) %pts, ptr addrspace(1) %cent, ptr addrspace(1) %label, i64 %k, i64 %dim) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  %row = mul i64 %i, %dim
  %row.wide = shl i64 %row, 32
  %row.ext = ashr exact i64 %row.wide, 32
  br label %c.loop
c.loop:
  %c = phi i64 [ 0, %wi ], [ %c.next, %c.latch ]
  %best = phi float [ 0x7FF0000000000000, %wi ], [ %best.next, %c.latch ]
  %bi = phi i64 [ 0, %wi ], [ %bi.next, %c.latch ]
  %crow = mul i64 %c, %dim
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %c.loop ], [ %j.next, %j.loop ]
  %d = phi float [ 0.0, %c.loop ], [ %d.next, %j.loop ]
  %pi = add i64 %row.ext, %j
  %pp = getelementptr inbounds float, ptr addrspace(1) %pts, i64 %pi
  %x = load float, ptr addrspace(1) %pp, align 4, !llvm.access.group !0
  %ci = add i64 %crow, %j
  %cp = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %ci
  %y = load float, ptr addrspace(1) %cp, align 4, !llvm.access.group !0
  %t = fsub float %x, %y
  %d.next = call float @llvm.fmuladd.f32(float %t, float %t, float %d)
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %dim
  br i1 %j.done, label %c.latch, label %j.loop
c.latch:
  %d.out = phi float [ %d.next, %j.loop ]
  %less = fcmp olt float %d.out, %best
  %best.next = select i1 %less, float %d.out, float %best
  %bi.next = select i1 %less, i64 %c, i64 %bi
  %c.next = add nuw nsw i64 %c, 1
  %c.done = icmp eq i64 %c.next, %k
  br i1 %c.done, label %wi.latch, label %c.loop
wi.latch:
  %bi.out = phi i64 [ %bi.next, %c.latch ]
  %lp = getelementptr inbounds i64, ptr addrspace(1) %label, i64 %i
  store i64 %bi.out, ptr addrspace(1) %lp, align 8, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !2
exit:
  ret void
}

; Behind a guard on the id (`gid < n`, Rodinia's k-means): the copy runs when
; the guard holds at the first and the last work-item with the id not
; wrapping between, and in it the guard is true.
; CHECK-LABEL: define void @guarded(
; CHECK: %[[END:[0-9]+]] = add i64 %base, 255
; CHECK-NEXT: %[[FIRST:[0-9]+]] = icmp ult i64 %base, %n
; CHECK-NEXT: %[[LAST:[0-9]+]] = icmp ult i64 %[[END]], %n
; CHECK-NEXT: %[[ORDERED:[0-9]+]] = icmp uge i64 %[[END]], %base
; CHECK-NEXT: %[[BOTH:[0-9]+]] = and i1 %[[FIRST]], %[[LAST]]
; CHECK-NEXT: %[[USE:[0-9]+]] = and i1 %[[BOTH]], %[[ORDERED]]
; CHECK-NEXT: br i1 %[[USE]], label %outer.not.outer, label %outer.not
; CHECK: wi.outer:
; CHECK: br i1 true, label %c.pre.outer, label %wi.latch.outer
; CHECK: br i1 %done.outer, label %exit{{.*}}, label %wi.outer, !llvm.loop ![[GUARDCOPY:[0-9]+]]
; CHECK: wi:
; CHECK: br i1 %in, label %c.pre, label %wi.latch
; WIDE-LABEL: define void @guarded(
; WIDE: fmul <16 x float>
define void @guarded(ptr addrspace(1) %pts, ptr addrspace(1) %cent, ptr addrspace(1) %label, i64 %k, i64 %n, i64 %base) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  %gid = add i64 %base, %i
  %in = icmp ult i64 %gid, %n
  br i1 %in, label %c.pre, label %wi.latch
c.pre:
  br label %c.loop
c.loop:
  %c = phi i64 [ 0, %c.pre ], [ %c.next, %c.loop ]
  %best = phi float [ 0x7FF0000000000000, %c.pre ], [ %best.next, %c.loop ]
  %ci = mul i64 %c, %n
  %pi = add i64 %ci, %gid
  %pp = getelementptr inbounds float, ptr addrspace(1) %pts, i64 %pi
  %x = load float, ptr addrspace(1) %pp, align 4, !llvm.access.group !0
  %cp = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %c
  %y = load float, ptr addrspace(1) %cp, align 4, !llvm.access.group !0
  %t = fsub float %x, %y
  %d = fmul float %t, %t
  %less = fcmp olt float %d, %best
  %best.next = select i1 %less, float %d, float %best
  %c.next = add nuw nsw i64 %c, 1
  %c.done = icmp eq i64 %c.next, %k
  br i1 %c.done, label %c.exit, label %c.loop
c.exit:
  %best.out = phi float [ %best.next, %c.loop ]
  %lp = getelementptr inbounds float, ptr addrspace(1) %label, i64 %gid
  store float %best.out, ptr addrspace(1) %lp, align 4, !llvm.access.group !0
  br label %wi.latch
wi.latch:
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !11
exit:
  ret void
}

; Left alone: rows of 1024 floats (a row walk, 4 KiB between work-items); a
; branch on the loaded value; a call.
; CHECK-LABEL: define void @others(
; CHECK-NOT: .outer
; CHECK: br i1 %done1, label %second, label %wi1, !llvm.loop ![[ROWS:[0-9]+]]
; CHECK: br i1 %done2, label %third, label %wi2, !llvm.loop ![[BRANCH:[0-9]+]]
; CHECK: br i1 %done3, label %exit, label %wi3, !llvm.loop ![[CALL:[0-9]+]]
define void @others(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %wi1
wi1:
  %i1 = phi i64 [ 0, %entry ], [ %i1.next, %wi1.latch ]
  %row1 = mul i64 %i1, 1024
  br label %k1
k1:
  %k = phi i64 [ 0, %wi1 ], [ %k.next, %k1 ]
  %s = phi float [ 0.0, %wi1 ], [ %s.next, %k1 ]
  %p1 = add i64 %row1, %k
  %a1 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %p1
  %v1 = load float, ptr addrspace(1) %a1, align 4, !llvm.access.group !0
  %s.next = fadd float %s, %v1
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, %n
  br i1 %k.done, label %wi1.latch, label %k1
wi1.latch:
  %s.out = phi float [ %s.next, %k1 ]
  %o1 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i1
  store float %s.out, ptr addrspace(1) %o1, align 4, !llvm.access.group !0
  %i1.next = add nuw nsw i64 %i1, 1
  %done1 = icmp eq i64 %i1.next, 256
  br i1 %done1, label %second, label %wi1, !llvm.loop !3
second:
  br label %wi2
wi2:
  %i2 = phi i64 [ 0, %second ], [ %i2.next, %wi2.latch ]
  br label %k2
k2:
  %m = phi i64 [ 0, %wi2 ], [ %m.next, %k2.latch ]
  %p2 = add i64 %i2, %m
  %a2 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %p2
  %v2 = load float, ptr addrspace(1) %a2, align 4, !llvm.access.group !0
  %positive = fcmp ogt float %v2, 0.0
  br i1 %positive, label %k2.store, label %k2.latch
k2.store:
  %o2 = getelementptr inbounds float, ptr addrspace(1) %out, i64 %p2
  store float %v2, ptr addrspace(1) %o2, align 4, !llvm.access.group !0
  br label %k2.latch
k2.latch:
  %m.next = add nuw nsw i64 %m, 1
  %m.done = icmp eq i64 %m.next, %n
  br i1 %m.done, label %wi2.latch, label %k2
wi2.latch:
  %i2.next = add nuw nsw i64 %i2, 1
  %done2 = icmp eq i64 %i2.next, 256
  br i1 %done2, label %third, label %wi2, !llvm.loop !4
third:
  br label %wi3
wi3:
  %i3 = phi i64 [ 0, %third ], [ %i3.next, %wi3.latch ]
  br label %k3
k3:
  %q = phi i64 [ 0, %wi3 ], [ %q.next, %k3 ]
  %p3 = add i64 %i3, %q
  %a3 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %p3
  %v3 = load float, ptr addrspace(1) %a3, align 4, !llvm.access.group !0
  %r3 = call float @opaque(float %v3)
  store float %r3, ptr addrspace(1) %a3, align 4, !llvm.access.group !0
  %q.next = add nuw nsw i64 %q, 1
  %q.done = icmp eq i64 %q.next, %n
  br i1 %q.done, label %wi3.latch, label %k3
wi3.latch:
  %i3.next = add nuw nsw i64 %i3, 1
  %done3 = icmp eq i64 %i3.next, 256
  br i1 %done3, label %exit, label %wi3, !llvm.loop !5
exit:
  ret void
}

; Left alone: a load not marked parallel (private memory the work-items
; share, say), which the lanes would interleave.
; CHECK-LABEL: define void @unmarked(
; CHECK-NOT: .outer
; CHECK: br i1 %done, label %exit, label %wi, !llvm.loop ![[UNMARKED:[0-9]+]]
define void @unmarked(ptr addrspace(1) %in, ptr %scratch, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  br label %k
k:
  %j = phi i64 [ 0, %wi ], [ %j.next, %k ]
  %s = phi float [ 0.0, %wi ], [ %s.next, %k ]
  %p = add i64 %i, %j
  %a = getelementptr inbounds float, ptr addrspace(1) %in, i64 %p
  %v = load float, ptr addrspace(1) %a, align 4, !llvm.access.group !0
  %sp = getelementptr inbounds float, ptr %scratch, i64 %j
  %w = load float, ptr %sp, align 4
  %s.next = call float @llvm.fmuladd.f32(float %v, float %w, float %s)
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %n
  br i1 %j.done, label %wi.latch, label %k
wi.latch:
  %s.out = phi float [ %s.next, %k ]
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %s.out, ptr addrspace(1) %o, align 4, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !7
exit:
  ret void
}

; A row window, as an unsigned C loop leaves it (`for (i = x; i < x + mw;
; i++)`, AMD's SimpleConvolution in a run of one row): the guard is a
; logical `and` of a shared test and `x < x + mw` (the window does not
; wrap), whose sides both step by one, so the first and the last work-item
; decide it; the inner counter starts at the work-item's column, one
; element from its neighbour's (its step adds nothing to that distance).
; CHECK-LABEL: define void @window(
; CHECK: %[[WFIRST:[0-9]+]] = add i32 %mw, %x0
; CHECK-NEXT: %[[WLAST:[0-9]+]] = add i32 %[[WFIRST]], 255
; CHECK-NEXT: icmp ult i32 %x0, %[[WFIRST]]
; CHECK-NEXT: %[[XLAST:[0-9]+]] = add i32 %x0, 255
; CHECK-NEXT: icmp ult i32 %[[XLAST]], %[[WLAST]]
; CHECK: br i1 %{{[0-9]+}}, label %outer.not.outer, label %outer.not
; In the copy the branch takes a condition from before the loop.
; CHECK: outer.not.outer:
; CHECK-NEXT: %ok.outer = select i1 %rowok, i1 true, i1 false
; CHECK: wi.outer:
; CHECK: br i1 %ok.outer, label %i.pre.outer, label %wi.latch.outer
; CHECK: !llvm.loop ![[WINDOWCOPY:[0-9]+]]
; WIDE-LABEL: define void @window(
; WIDE: fmul <16 x float>
define void @window(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %x0, i32 %mw, i1 %rowok) #0 {
entry:
  br label %wi
wi:
  %lid = phi i64 [ 0, %entry ], [ %lid.next, %wi.latch ]
  %lid32 = trunc i64 %lid to i32
  %x = add i32 %x0, %lid32
  %xend = add i32 %x, %mw
  %nowrap = icmp ult i32 %x, %xend
  %ok = select i1 %rowok, i1 %nowrap, i1 false
  br i1 %ok, label %i.pre, label %wi.latch
i.pre:
  %x64 = zext i32 %x to i64
  br label %i.loop
i.loop:
  %n = phi i32 [ 0, %i.pre ], [ %n.next, %i.loop ]
  %ii = phi i64 [ %x64, %i.pre ], [ %ii.next, %i.loop ]
  %sum = phi float [ 0.0, %i.pre ], [ %sum.next, %i.loop ]
  %ip = getelementptr inbounds float, ptr addrspace(1) %in, i64 %ii
  %v = load float, ptr addrspace(1) %ip, align 4, !llvm.access.group !0
  %vv = fmul float %v, %v
  %sum.next = fadd float %sum, %vv
  %ii.next = add nuw nsw i64 %ii, 1
  %n.next = add nuw i32 %n, 1
  %n.done = icmp eq i32 %n.next, %mw
  br i1 %n.done, label %i.exit, label %i.loop
i.exit:
  %s = phi float [ %sum.next, %i.loop ]
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %lid
  store float %s, ptr addrspace(1) %op, align 4, !llvm.access.group !0
  br label %wi.latch
wi.latch:
  %lid.next = add nuw nsw i64 %lid, 1
  %done = icmp eq i64 %lid.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !14
exit:
  ret void
}

; IndVars' test of a 64-bit inner counter against a 32-bit bound,
; `trunc(next) == k`: the native path takes only the counter's own update,
; so the test becomes `next == zext(k - 1) + 1` (the same first trip for
; every k, 0 being 2^32), the bound computed before the work-item loop.
; CHECK-LABEL: define void @narrow_bound(
; CHECK: entry:
; CHECK: %[[KM1:[0-9]+]] = sub i32 %k, 1
; CHECK-NEXT: %[[KZ:[0-9]+]] = zext i32 %[[KM1]] to i64
; CHECK-NEXT: %wide.bound = add i64 %[[KZ]], 1
; CHECK: %c.done = icmp eq i64 %c.next, %wide.bound
; CHECK: !llvm.loop ![[NARROWBOUND:[0-9]+]]
define void @narrow_bound(ptr addrspace(1) %pts, ptr addrspace(1) %cent, ptr addrspace(1) %label, i32 %k) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  br label %c.loop
c.loop:
  %c = phi i64 [ 0, %wi ], [ %c.next, %c.loop ]
  %best = phi float [ 0x7FF0000000000000, %wi ], [ %best.next, %c.loop ]
  %ci = mul i64 %c, 256
  %pi = add i64 %ci, %i
  %pp = getelementptr inbounds float, ptr addrspace(1) %pts, i64 %pi
  %x = load float, ptr addrspace(1) %pp, align 4, !llvm.access.group !0
  %cp = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %c
  %y = load float, ptr addrspace(1) %cp, align 4, !llvm.access.group !0
  %d = fsub float %x, %y
  %less = fcmp olt float %d, %best
  %best.next = select i1 %less, float %d, float %best
  %c.next = add nuw nsw i64 %c, 1
  %c.next32 = trunc i64 %c.next to i32
  %c.done = icmp eq i32 %c.next32, %k
  br i1 %c.done, label %wi.latch, label %c.loop
wi.latch:
  %best.out = phi float [ %best.next, %c.loop ]
  %lp = getelementptr inbounds float, ptr addrspace(1) %label, i64 %i
  store float %best.out, ptr addrspace(1) %lp, align 4, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !15
exit:
  ret void
}

; A kernel's own vectorize(enable) on an outer loop (its iterations
; depend on each other through %acc): the native path would take it
; without a dependence check, so the hint goes (the loop is marked
; vectorized); the inner loop keeps its own.
; CHECK-LABEL: define void @pragma(
; CHECK: br i1 %c.done, label %exit, label %c.loop, !llvm.loop ![[PRAGMA:[0-9]+]]
; WIDE-LABEL: define void @pragma(
; WIDE-NOT: <16 x float>
; WIDE: ret void
define void @pragma(ptr addrspace(1) %acc, i64 %n, i64 %m) {
entry:
  br label %c.loop
c.loop:
  %c = phi i64 [ 0, %entry ], [ %c.next, %c.latch ]
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %c.loop ], [ %j.next, %j.loop ]
  %prev = getelementptr inbounds float, ptr addrspace(1) %acc, i64 %c
  %v = load float, ptr addrspace(1) %prev, align 4
  %c1 = add i64 %c, 1
  %nextp = getelementptr inbounds float, ptr addrspace(1) %acc, i64 %c1
  %w = load float, ptr addrspace(1) %nextp, align 4
  %sum = fadd float %v, %w
  store float %sum, ptr addrspace(1) %nextp, align 4
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %m
  br i1 %j.done, label %c.latch, label %j.loop
c.latch:
  %c.next = add nuw nsw i64 %c, 1
  %c.done = icmp eq i64 %c.next, %n
  br i1 %c.done, label %exit, label %c.loop, !llvm.loop !8
exit:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
declare float @opaque(float)

attributes #0 = { "lockstep-work-group-code" }

; A row of partial sums per work-item (Parboil's SGEMM: `c[kk] += a *
; b_s[j * 32 + kk]`, the kk loop unrolled, its index `(j << 4) | kk` a
; disjoint or), here 12: as many carried values as the target has vector
; registers are taken (32 with AVX-512).
; WIDE-LABEL: define void @row_of_sums(
; WIDE: vector.body:
; WIDE: call <16 x float> @llvm.masked.gather.v16f32
; WIDE: load float, ptr addrspace(3)
; WIDE: call <16 x float> @llvm.fmuladd.v16f32
; WIDE: call void @llvm.masked.scatter.v16f32
define void @row_of_sums(ptr addrspace(1) %a, ptr addrspace(3) %b, ptr addrspace(1) %c, i64 %n) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %wi ], [ %j.next, %j.loop ]
  %s0 = phi float [ 0.0, %wi ], [ %t0, %j.loop ]
  %s1 = phi float [ 0.0, %wi ], [ %t1, %j.loop ]
  %s2 = phi float [ 0.0, %wi ], [ %t2, %j.loop ]
  %s3 = phi float [ 0.0, %wi ], [ %t3, %j.loop ]
  %s4 = phi float [ 0.0, %wi ], [ %t4, %j.loop ]
  %s5 = phi float [ 0.0, %wi ], [ %t5, %j.loop ]
  %s6 = phi float [ 0.0, %wi ], [ %t6, %j.loop ]
  %s7 = phi float [ 0.0, %wi ], [ %t7, %j.loop ]
  %s8 = phi float [ 0.0, %wi ], [ %t8, %j.loop ]
  %s9 = phi float [ 0.0, %wi ], [ %t9, %j.loop ]
  %s10 = phi float [ 0.0, %wi ], [ %t10, %j.loop ]
  %s11 = phi float [ 0.0, %wi ], [ %t11, %j.loop ]
  %jn = mul i64 %j, %n
  %ai = add i64 %jn, %i
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ai
  %x = load float, ptr addrspace(1) %ap, align 4, !llvm.access.group !0
  %row = shl i64 %j, 4
  %bp0 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %row
  %b0 = load float, ptr addrspace(3) %bp0, align 4, !llvm.access.group !0
  %t0 = call float @llvm.fmuladd.f32(float %x, float %b0, float %s0)
  %r1 = or disjoint i64 %row, 1
  %bp1 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r1
  %b1 = load float, ptr addrspace(3) %bp1, align 4, !llvm.access.group !0
  %t1 = call float @llvm.fmuladd.f32(float %x, float %b1, float %s1)
  %r2 = or disjoint i64 %row, 2
  %bp2 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r2
  %b2 = load float, ptr addrspace(3) %bp2, align 4, !llvm.access.group !0
  %t2 = call float @llvm.fmuladd.f32(float %x, float %b2, float %s2)
  %r3 = or disjoint i64 %row, 3
  %bp3 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r3
  %b3 = load float, ptr addrspace(3) %bp3, align 4, !llvm.access.group !0
  %t3 = call float @llvm.fmuladd.f32(float %x, float %b3, float %s3)
  %r4 = or disjoint i64 %row, 4
  %bp4 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r4
  %b4 = load float, ptr addrspace(3) %bp4, align 4, !llvm.access.group !0
  %t4 = call float @llvm.fmuladd.f32(float %x, float %b4, float %s4)
  %r5 = or disjoint i64 %row, 5
  %bp5 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r5
  %b5 = load float, ptr addrspace(3) %bp5, align 4, !llvm.access.group !0
  %t5 = call float @llvm.fmuladd.f32(float %x, float %b5, float %s5)
  %r6 = or disjoint i64 %row, 6
  %bp6 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r6
  %b6 = load float, ptr addrspace(3) %bp6, align 4, !llvm.access.group !0
  %t6 = call float @llvm.fmuladd.f32(float %x, float %b6, float %s6)
  %r7 = or disjoint i64 %row, 7
  %bp7 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r7
  %b7 = load float, ptr addrspace(3) %bp7, align 4, !llvm.access.group !0
  %t7 = call float @llvm.fmuladd.f32(float %x, float %b7, float %s7)
  %r8 = or disjoint i64 %row, 8
  %bp8 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r8
  %b8 = load float, ptr addrspace(3) %bp8, align 4, !llvm.access.group !0
  %t8 = call float @llvm.fmuladd.f32(float %x, float %b8, float %s8)
  %r9 = or disjoint i64 %row, 9
  %bp9 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r9
  %b9 = load float, ptr addrspace(3) %bp9, align 4, !llvm.access.group !0
  %t9 = call float @llvm.fmuladd.f32(float %x, float %b9, float %s9)
  %r10 = or disjoint i64 %row, 10
  %bp10 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r10
  %b10 = load float, ptr addrspace(3) %bp10, align 4, !llvm.access.group !0
  %t10 = call float @llvm.fmuladd.f32(float %x, float %b10, float %s10)
  %r11 = or disjoint i64 %row, 11
  %bp11 = getelementptr inbounds float, ptr addrspace(3) %b, i64 %r11
  %b11 = load float, ptr addrspace(3) %bp11, align 4, !llvm.access.group !0
  %t11 = call float @llvm.fmuladd.f32(float %x, float %b11, float %s11)
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, 16
  br i1 %j.done, label %wi.latch, label %j.loop
wi.latch:
  %u0 = phi float [ %t0, %j.loop ]
  %u1 = phi float [ %t1, %j.loop ]
  %u2 = phi float [ %t2, %j.loop ]
  %u3 = phi float [ %t3, %j.loop ]
  %u4 = phi float [ %t4, %j.loop ]
  %u5 = phi float [ %t5, %j.loop ]
  %u6 = phi float [ %t6, %j.loop ]
  %u7 = phi float [ %t7, %j.loop ]
  %u8 = phi float [ %t8, %j.loop ]
  %u9 = phi float [ %t9, %j.loop ]
  %u10 = phi float [ %t10, %j.loop ]
  %u11 = phi float [ %t11, %j.loop ]
  %cp0 = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  store float %u0, ptr addrspace(1) %cp0, align 4, !llvm.access.group !0
  %cp1 = getelementptr inbounds float, ptr addrspace(1) %cp0, i64 %n
  store float %u1, ptr addrspace(1) %cp1, align 4, !llvm.access.group !0
  %cp2 = getelementptr inbounds float, ptr addrspace(1) %cp1, i64 %n
  store float %u2, ptr addrspace(1) %cp2, align 4, !llvm.access.group !0
  %cp3 = getelementptr inbounds float, ptr addrspace(1) %cp2, i64 %n
  store float %u3, ptr addrspace(1) %cp3, align 4, !llvm.access.group !0
  %cp4 = getelementptr inbounds float, ptr addrspace(1) %cp3, i64 %n
  store float %u4, ptr addrspace(1) %cp4, align 4, !llvm.access.group !0
  %cp5 = getelementptr inbounds float, ptr addrspace(1) %cp4, i64 %n
  store float %u5, ptr addrspace(1) %cp5, align 4, !llvm.access.group !0
  %cp6 = getelementptr inbounds float, ptr addrspace(1) %cp5, i64 %n
  store float %u6, ptr addrspace(1) %cp6, align 4, !llvm.access.group !0
  %cp7 = getelementptr inbounds float, ptr addrspace(1) %cp6, i64 %n
  store float %u7, ptr addrspace(1) %cp7, align 4, !llvm.access.group !0
  %cp8 = getelementptr inbounds float, ptr addrspace(1) %cp7, i64 %n
  store float %u8, ptr addrspace(1) %cp8, align 4, !llvm.access.group !0
  %cp9 = getelementptr inbounds float, ptr addrspace(1) %cp8, i64 %n
  store float %u9, ptr addrspace(1) %cp9, align 4, !llvm.access.group !0
  %cp10 = getelementptr inbounds float, ptr addrspace(1) %cp9, i64 %n
  store float %u10, ptr addrspace(1) %cp10, align 4, !llvm.access.group !0
  %cp11 = getelementptr inbounds float, ptr addrspace(1) %cp10, i64 %n
  store float %u11, ptr addrspace(1) %cp11, align 4, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %wi, !llvm.loop !13
exit:
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !6}
!2 = distinct !{!2, !6}
!3 = distinct !{!3, !6}
!4 = distinct !{!4, !6}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.parallel_accesses", !0}
!7 = distinct !{!7, !6}
!11 = distinct !{!11, !6}
!8 = distinct !{!8, !9, !10}
!9 = !{!"llvm.loop.vectorize.enable", i1 true}
!10 = !{!"llvm.loop.vectorize.width", i32 16}
; CHECK: ![[ASSIGN4]] = distinct !{![[ASSIGN4]], ![[PARALLEL:[0-9]+]], ![[ENABLE:[0-9]+]], ![[WIDTH:[0-9]+]]}
; CHECK: ![[ENABLE]] = !{!"llvm.loop.vectorize.enable", i32 1}
; CHECK: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 {{4|8|16}}}
; CHECK: ![[COPY]] = distinct !{![[COPY]], ![[PARALLEL]], ![[ENABLE]], ![[WIDTH]]}
; CHECK: ![[KEPT]] = distinct !{![[KEPT]], ![[PARALLEL]]}
; CHECK: ![[GUARDCOPY]] = distinct !{![[GUARDCOPY]], ![[PARALLEL]], ![[ENABLE]], ![[WIDTH]]}
; CHECK: ![[ROWS]] = distinct !{![[ROWS]], ![[PARALLEL]]}
; CHECK: ![[BRANCH]] = distinct !{![[BRANCH]], ![[PARALLEL]]}
; CHECK: ![[CALL]] = distinct !{![[CALL]], ![[PARALLEL]]}
; CHECK: ![[UNMARKED]] = distinct !{![[UNMARKED]], ![[PARALLEL]]}
; CHECK: ![[WINDOWCOPY]] = distinct !{![[WINDOWCOPY]], ![[PARALLEL]], ![[ENABLE]], ![[WIDTH]]}
; CHECK: ![[NARROWBOUND]] = distinct !{![[NARROWBOUND]], ![[PARALLEL]], ![[ENABLE]], ![[WIDTH]]}
; CHECK: ![[PRAGMA]] = distinct !{![[PRAGMA]], ![[VECTORIZED:[0-9]+]]}
; CHECK: ![[VECTORIZED]] = !{!"llvm.loop.isvectorized", i32 1}

; A value the work-item loop leaves with (LICM moved the store of the one
; work-item that makes it, `if (lid == 0) c[g] = sum`, past the loop): the
; native path's live-outs came out poison, so the loop stays as it was: its
; metadata is the parallel mark alone.
; LEAVES-LABEL: define void @leaves_with_sum(
; LEAVES: br i1 %done, label %exit, label %wi, !llvm.loop ![[L:[0-9]+]]
; LEAVES: exit:
; LEAVES: store i32 %total.out
; LEAVES: ![[L]] = distinct !{![[L]], ![[P:[0-9]+]]}
define void @leaves_with_sum(ptr addrspace(3) %acc, ptr addrspace(1) %c, i64 %n) #0 {
entry:
  br label %wi
wi:
  %i = phi i64 [ 0, %entry ], [ %i.next, %wi.latch ]
  br label %j.loop
j.loop:
  %j = phi i64 [ 0, %wi ], [ %j.next, %j.loop ]
  %s = phi i32 [ 0, %wi ], [ %s.next, %j.loop ]
  %ap = getelementptr inbounds i32, ptr addrspace(3) %acc, i64 %j
  %a = load i32, ptr addrspace(3) %ap, align 4, !llvm.access.group !0
  %s.next = add i32 %s, %a
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, 300
  br i1 %j.done, label %wi.latch, label %j.loop
wi.latch:
  %total = phi i32 [ %s.next, %j.loop ]
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %wi, !llvm.loop !12
exit:
  %total.out = phi i32 [ %total, %wi.latch ]
  store i32 %total.out, ptr addrspace(1) %c, align 4
  ret void
}
!12 = distinct !{!12, !6}

!13 = distinct !{!13, !6}
!14 = distinct !{!14, !6}
!15 = distinct !{!15, !6}
