; Masked gathers and scatters (what the loop vectorizer makes of a
; conditional access that is not consecutive across work-items) run only
; when their mask has an active lane; those of one address become scalar.
; RUN: %opt -passes=lockstep-masked-memory-guards -S %s | FileCheck %s

; `if (get_global_id(0) == 0) counter[0] += 1;` vectorized: a gather and a
; scatter of the one counter, under one mask.
define void @uniform_counter(ptr addrspace(1) %counter, <16 x i64> %ids) {
entry:
  %mask = icmp eq <16 x i64> %ids, zeroinitializer
  %ins = insertelement <16 x ptr addrspace(1)> poison, ptr addrspace(1) %counter, i64 0
  %ptrs = shufflevector <16 x ptr addrspace(1)> %ins, <16 x ptr addrspace(1)> poison, <16 x i32> zeroinitializer
  %old = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %ptrs, i32 4, <16 x i1> %mask, <16 x i32> poison)
  %new = add <16 x i32> %old, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  call void @llvm.masked.scatter.v16i32.v16p1(<16 x i32> %new, <16 x ptr addrspace(1)> %ptrs, i32 4, <16 x i1> %mask)
  ret void
}
; One test for the run; the shuffle that does not depend on it stays before.
; CHECK-LABEL: define void @uniform_counter(
; CHECK: %ptrs = shufflevector
; CHECK: [[ANY:%.*]] = call i1 @llvm.vector.reduce.or.v16i1(<16 x i1> %mask)
; CHECK-NEXT: br i1 [[ANY]], label %mask.any, label %mask.none
; CHECK: mask.any:
; CHECK-NEXT: [[LOAD:%.*]] = load i32, ptr addrspace(1) %counter, align 4
; The store keeps the last active lane's value, as the scatter would.
; CHECK: [[BITS:%.*]] = bitcast <16 x i1> %mask to i16
; CHECK-NEXT: [[LEAD:%.*]] = call i16 @llvm.ctlz.i16(i16 [[BITS]], i1 true)
; CHECK-NEXT: [[LANE:%.*]] = sub i16 15, [[LEAD]]
; CHECK-NEXT: [[VALUE:%.*]] = extractelement <16 x i32> %new, i16 [[LANE]]
; CHECK-NEXT: store i32 [[VALUE]], ptr addrspace(1) %counter, align 4
; CHECK-NOT: masked.scatter
; CHECK: ret void

; A gather and a scatter of different addresses stay so, behind the test.
; A value of the run used after it is the run's when it ran, else what it
; computes from the gather's pass-through.
define <8 x float> @gather_used_after(<8 x ptr> %ptrs, <8 x i1> %mask, <8 x float> %other) {
entry:
  %g = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %ptrs, i32 4, <8 x i1> %mask, <8 x float> %other)
  %twice = fadd <8 x float> %g, %g
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %twice, <8 x ptr> %ptrs, i32 4, <8 x i1> %mask)
  ret <8 x float> %twice
}
; CHECK-LABEL: define <8 x float> @gather_used_after(
; CHECK: br i1 %{{.*}}, label %mask.any, label %mask.none
; CHECK: mask.any:
; CHECK-NEXT: %g = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %ptrs, i32 4, <8 x i1> %mask, <8 x float> %other)
; CHECK-NEXT: %twice = fadd <8 x float> %g, %g
; CHECK-NEXT: call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %twice
; CHECK: mask.none:
; CHECK-NEXT: [[SKIPPED:%.*]] = fadd <8 x float> %other, %other
; CHECK: phi <8 x float> [ %twice, %mask.any ], [ [[SKIPPED]], %mask.none ]

; Two masks: two tests. A constant mask is not tested, and an access with
; side effects between two scatters ends the run.
define void @two_runs(<4 x ptr> %p, <4 x ptr> %q, <4 x i1> %m1, <4 x i1> %m2, <4 x i32> %v, ptr %r) {
entry:
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %p, i32 4, <4 x i1> %m1)
  store i32 0, ptr %r
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %q, i32 4, <4 x i1> %m1)
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %q, i32 4, <4 x i1> %m2)
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %p, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  ret void
}
; CHECK-LABEL: define void @two_runs(
; CHECK: call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %m1)
; CHECK: store i32 0, ptr %r
; CHECK: call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %m1)
; CHECK: call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %m2)
; CHECK-NOT: llvm.vector.reduce.or
; CHECK: call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %p, i32 4, <4 x i1> <i1 true
; CHECK-NEXT: ret void

; Gathers and scatters through a zero-extended 32-bit index get 32-bit
; indices (one vpgatherdd instead of two vpgatherqd): into __local memory
; the index sign-extended, elsewhere from a base 2^31 elements up with the
; index's top bit flipped. 64-bit indices stay as they are.
define void @local_indices(ptr addrspace(3) %tree, ptr addrspace(1) %g, <16 x i32> %i, <16 x i64> %j) {
  %wide = zext <16 x i32> %i to <16 x i64>
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %wide
  %v = call <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  call void @llvm.masked.scatter.v16i32.v16p3(<16 x i32> %v, <16 x ptr addrspace(3)> %p, i32 4, <16 x i1> splat (i1 true))
  %q = getelementptr inbounds i32, ptr addrspace(1) %g, <16 x i64> %wide
  call void @llvm.masked.scatter.v16i32.v16p1(<16 x i32> %v, <16 x ptr addrspace(1)> %q, i32 4, <16 x i1> splat (i1 true))
  %r = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %j
  call void @llvm.masked.scatter.v16i32.v16p3(<16 x i32> %v, <16 x ptr addrspace(3)> %r, i32 4, <16 x i1> splat (i1 true))
  ret void
}
; CHECK-LABEL: define void @local_indices(
; CHECK: %[[S1:.*]] = sext <16 x i32> %i to <16 x i64>
; CHECK-NEXT: %[[P1:.*]] = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %[[S1]]
; CHECK-NEXT: %v = call <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)> %[[P1]]
; CHECK: %[[S2:.*]] = sext <16 x i32> %i to <16 x i64>
; CHECK-NEXT: %[[P2:.*]] = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %[[S2]]
; CHECK-NEXT: call void @llvm.masked.scatter.v16i32.v16p3(<16 x i32> %v, <16 x ptr addrspace(3)> %[[P2]]
; CHECK-NEXT: %rebased = getelementptr i32, ptr addrspace(1) %g, i64 2147483648
; CHECK-NEXT: %[[F:.*]] = xor <16 x i32> %i, <i32 -2147483648,
; CHECK-NEXT: %[[S3:.*]] = sext <16 x i32> %[[F]] to <16 x i64>
; CHECK-NEXT: %[[P3:.*]] = getelementptr i32, ptr addrspace(1) %rebased, <16 x i64> %[[S3]]
; CHECK-NEXT: call void @llvm.masked.scatter.v16i32.v16p1(<16 x i32> %v, <16 x ptr addrspace(1)> %[[P3]]
; CHECK-NEXT: %r = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %j
; CHECK-NEXT: call void @llvm.masked.scatter.v16i32.v16p3(<16 x i32> %v, <16 x ptr addrspace(3)> %r
; CHECK-NOT: zext

; A gather from global memory whose lanes may fall in two runs of consecutive
; elements (a tile's row end, then the next row's start): every lane is
; checked against the run from lane 0's index and the run to lane 15's, and
; when each active lane is in one of them, two masked vector loads replace
; the gather; otherwise the gather (with its narrowed index) runs. On AMD Zen
; only, whose gathers are slow; elsewhere the gather stays (tile_rows_intel).
define <16 x float> @tile_rows(ptr addrspace(1) %in, <16 x i32> %i, <16 x i1> %m) "target-cpu"="znver4" {
  %wide = zext <16 x i32> %i to <16 x i64>
  %p = getelementptr inbounds float, ptr addrspace(1) %in, <16 x i64> %wide
  %v = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> %m, <16 x float> zeroinitializer)
  ret <16 x float> %v
}
; CHECK-LABEL: define <16 x float> @tile_rows(
; CHECK: mask.any:
; CHECK-NEXT: %[[FIRST:[0-9]+]] = extractelement <16 x i32> %i, i64 0
; CHECK-NEXT: %[[LAST:[0-9]+]] = extractelement <16 x i32> %i, i64 15
; CHECK: %[[D1:[0-9]+]] = sub <16 x i32> %i, %[[FS:[0-9a-z.]+]]
; CHECK-NEXT: %[[IN1:[0-9]+]] = icmp eq <16 x i32> %[[D1]], <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
; CHECK-NEXT: %[[D2:[0-9]+]] = sub <16 x i32> %i, %[[LS:[0-9a-z.]+]]
; CHECK-NEXT: %[[IN2:[0-9]+]] = icmp eq <16 x i32> %[[D2]], <i32 -15, i32 -14, i32 -13, i32 -12, i32 -11, i32 -10, i32 -9, i32 -8, i32 -7, i32 -6, i32 -5, i32 -4, i32 -3, i32 -2, i32 -1, i32 0>
; A zero-extended index must not wrap within its run.
; CHECK-NEXT: %[[NW1:[0-9]+]] = icmp uge <16 x i32> %i, %[[FS]]
; CHECK-NEXT: %[[R1:[0-9]+]] = and <16 x i1> %[[IN1]], %[[NW1]]
; CHECK-NEXT: %[[NW2:[0-9]+]] = icmp ule <16 x i32> %i, %[[LS]]
; CHECK-NEXT: %[[R2:[0-9]+]] = and <16 x i1> %[[IN2]], %[[NW2]]
; CHECK-NEXT: %[[M1:[0-9]+]] = and <16 x i1> %m, %[[R1]]
; CHECK: %[[REST:[0-9]+]] = and <16 x i1> %m, %{{[0-9]+}}
; CHECK-NEXT: %[[M2:[0-9]+]] = and <16 x i1> %[[REST]], %[[R2]]
; CHECK: %gather.runs = icmp eq i16 %{{[0-9]+}}, 0
; CHECK-NEXT: br i1 %gather.runs, label %[[RUNS:[0-9]+]], label %[[GATHER:[0-9]+]]
; CHECK: [[RUNS]]:
; CHECK-NEXT: %[[X1:[0-9]+]] = zext i32 %[[FIRST]] to i64
; CHECK-NEXT: %[[O1:[0-9]+]] = add i64 %[[X1]], 0
; CHECK-NEXT: %[[P1:[0-9]+]] = getelementptr float, ptr addrspace(1) %in, i64 %[[O1]]
; CHECK-NEXT: %[[L1:[0-9]+]] = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %[[P1]], i32 4, <16 x i1> %[[M1]], <16 x float> zeroinitializer)
; CHECK-NEXT: %[[X2:[0-9]+]] = zext i32 %[[LAST]] to i64
; CHECK-NEXT: %[[O2:[0-9]+]] = add i64 %[[X2]], -15
; CHECK-NEXT: %[[P2:[0-9]+]] = getelementptr float, ptr addrspace(1) %in, i64 %[[O2]]
; CHECK-NEXT: %[[L2:[0-9]+]] = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %[[P2]], i32 4, <16 x i1> %[[M2]], <16 x float> %[[L1]])
; CHECK: [[GATHER]]:
; CHECK: %v = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p.narrow, i32 4, <16 x i1> %m, <16 x float> zeroinitializer)
; CHECK: %v.runs = phi <16 x float> [ %[[L2]], %[[RUNS]] ], [ %v, %[[GATHER]] ]
; All of it behind the test of the mask, as for any gather.
; CHECK: %v.guarded = phi <16 x float> [ %v.runs, %{{[0-9]+}} ], [ zeroinitializer, %mask.none ]
; CHECK-NEXT: ret <16 x float> %v.guarded

define <16 x float> @tile_rows_intel(ptr addrspace(1) %in, <16 x i32> %i) "target-cpu"="sapphirerapids" {
  %wide = zext <16 x i32> %i to <16 x i64>
  %p = getelementptr inbounds float, ptr addrspace(1) %in, <16 x i64> %wide
  %v = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x float> zeroinitializer)
  ret <16 x float> %v
}
; CHECK-LABEL: define <16 x float> @tile_rows_intel(
; CHECK-NOT: masked.load
; CHECK: %v = call <16 x float> @llvm.masked.gather.v16f32.v16p1(
; CHECK-NEXT: ret <16 x float> %v

declare <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x float>)
declare <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)>, i32, <16 x i1>, <16 x i32>)
declare void @llvm.masked.scatter.v16i32.v16p1(<16 x i32>, <16 x ptr addrspace(1)>, i32, <16 x i1>)
declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p0(<8 x float>, <8 x ptr>, i32, <8 x i1>)
declare void @llvm.masked.scatter.v4i32.v4p0(<4 x i32>, <4 x ptr>, i32, <4 x i1>)
declare <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)>, i32, <16 x i1>, <16 x i32>)
declare void @llvm.masked.scatter.v16i32.v16p3(<16 x i32>, <16 x ptr addrspace(3)>, i32, <16 x i1>)
