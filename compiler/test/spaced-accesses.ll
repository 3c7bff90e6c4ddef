; A gather or scatter whose active lanes turn out, at run time, to be 1, 2, 4
; or 8 elements apart runs as that many masked vector loads (and shuffles
; that pick every other element until one vector is left) or as shuffles and
; masked stores, each part's mask holding the active lanes whose elements it
; covers. Every active lane is checked against lane 0's index plus its lane
; times the spacing, and an extended index must not wrap; anything else runs
; as the gather or scatter it was. Only for AMD's Zen cores.
; RUN: %opt -passes=lockstep-spaced-accesses -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; A tree level's loads through a sign-extended index: the spacing is lane 1's
; index less lane 0's, compared in the index's own type.
define <16 x i32> @tree_level(ptr addrspace(3) %tree, <16 x i32> %i) #0 {
  %wide = sext <16 x i32> %i to <16 x i64>
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %wide
  %v = call <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  ret <16 x i32> %v
}
; CHECK-LABEL: define <16 x i32> @tree_level(
; CHECK: %[[FIRST:[0-9]+]] = extractelement <16 x i32> %i, i64 0
; CHECK: %[[WIDE0:[0-9]+]] = sext i32 %[[FIRST]] to i64
; CHECK: %[[BASE:[0-9]+]] = getelementptr i32, ptr addrspace(3) %tree, i64 %[[WIDE0]]
; CHECK: %spaced.by = sub i32
; CHECK-NEXT: switch i32 %spaced.by, label %spaced.any [
; CHECK-NEXT: i32 1, label %spaced.check
; CHECK-NEXT: i32 2, label %[[CHECK2:spaced.check[0-9]+]]
; CHECK-NEXT: i32 4, label %[[CHECK4:spaced.check[0-9]+]]
; CHECK-NEXT: i32 8, label %[[CHECK8:spaced.check[0-9]+]]
; CHECK: [[CHECK2]]:
; CHECK-NEXT: %[[EXPECTED:[0-9]+]] = add <16 x i32> %.splat, <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14, i32 16, i32 18, i32 20, i32 22, i32 24, i32 26, i32 28, i32 30>
; CHECK-NEXT: %[[ASTRAY:[0-9]+]] = icmp ne <16 x i32> %i, %[[EXPECTED]]
; CHECK-NEXT: %[[ORDERED:[0-9]+]] = icmp sge <16 x i32> %i, %.splat
; CHECK: br i1 %spaced.exact{{[0-9]*}}, label %spaced.2, label %spaced.any
; CHECK: spaced.2:
; CHECK-NEXT: %[[A:[0-9]+]] = getelementptr i32, ptr addrspace(3) %[[BASE]], i64 0
; CHECK-NEXT: %[[LA:[0-9]+]] = call <16 x i32> @llvm.masked.load.v16i32.p3(ptr addrspace(3) %[[A]], i32 4, <16 x i1> <i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false>, <16 x i32> poison)
; CHECK-NEXT: %[[B:[0-9]+]] = getelementptr i32, ptr addrspace(3) %[[BASE]], i64 16
; CHECK-NEXT: %[[LB:[0-9]+]] = call <16 x i32> @llvm.masked.load.v16i32.p3(ptr addrspace(3) %[[B]]
; CHECK-NEXT: %[[PICKED:[0-9]+]] = shufflevector <16 x i32> %[[LA]], <16 x i32> %[[LB]], <16 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14, i32 16, i32 18, i32 20, i32 22, i32 24, i32 26, i32 28, i32 30>
; CHECK-NEXT: br label %spaced.tail
; CHECK: spaced.8:
; CHECK-COUNT-8: call <16 x i32> @llvm.masked.load.v16i32.p3(
; CHECK-COUNT-7: shufflevector <16 x i32>
; CHECK-NEXT: br label %spaced.tail
; CHECK: spaced.any:
; CHECK-NEXT: %[[P:[0-9]+]] = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %wide
; CHECK-NEXT: %v = call <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)> %[[P]]
; CHECK: spaced.tail:
; CHECK-NEXT: %v.spaced = phi <16 x i32> [ %v, %spaced.any ], [ %{{[0-9]+}}, %spaced.1 ], [ %[[PICKED]], %spaced.2 ], [ %{{[0-9]+}}, %spaced.4 ], [ %{{[0-9]+}}, %spaced.8 ]

; A masked scatter through a zero-extended index: unsigned order, and each
; part's lanes and mask spread to every other element.
define void @scatter_masked(ptr addrspace(3) %tree, <8 x i32> %i, <8 x i32> %v, <8 x i1> %m) #0 {
  %wide = zext <8 x i32> %i to <8 x i64>
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, <8 x i64> %wide
  call void @llvm.masked.scatter.v8i32.v8p3(<8 x i32> %v, <8 x ptr addrspace(3)> %p, i32 4, <8 x i1> %m)
  ret void
}
; CHECK-LABEL: define void @scatter_masked(
; CHECK: zext i32 %{{[0-9]+}} to i64
; CHECK: icmp uge <8 x i32> %i, %.splat
; CHECK: spaced.2:
; CHECK-NEXT: %[[M0:[0-9]+]] = shufflevector <8 x i1> %m, <8 x i1> zeroinitializer, <8 x i32> <i32 0, i32 8, i32 1, i32 8, i32 2, i32 8, i32 3, i32 8>
; CHECK-NEXT: %[[A0:[0-9]+]] = getelementptr i32, ptr addrspace(3) %{{[0-9]+}}, i64 0
; CHECK-NEXT: %[[V0:[0-9]+]] = shufflevector <8 x i32> %v, <8 x i32> poison, <8 x i32> <i32 0, i32 poison, i32 1, i32 poison, i32 2, i32 poison, i32 3, i32 poison>
; CHECK-NEXT: call void @llvm.masked.store.v8i32.p3(<8 x i32> %[[V0]], ptr addrspace(3) %[[A0]], i32 4, <8 x i1> %[[M0]])
; CHECK-NEXT: %[[M1:[0-9]+]] = shufflevector <8 x i1> %m, <8 x i1> zeroinitializer, <8 x i32> <i32 4, i32 8, i32 5, i32 8, i32 6, i32 8, i32 7, i32 8>
; CHECK-NEXT: %[[A1:[0-9]+]] = getelementptr i32, ptr addrspace(3) %{{[0-9]+}}, i64 8
; CHECK-NEXT: %[[V1:[0-9]+]] = shufflevector <8 x i32> %v, <8 x i32> poison, <8 x i32> <i32 4, i32 poison, i32 5, i32 poison, i32 6, i32 poison, i32 7, i32 poison>
; CHECK-NEXT: call void @llvm.masked.store.v8i32.p3(<8 x i32> %[[V1]], ptr addrspace(3) %[[A1]], i32 4, <8 x i1> %[[M1]])
; CHECK: spaced.any:
; CHECK: call void @llvm.masked.scatter.v8i32.v8p3(

; Vectors shorter than the spacing: 4 lanes 8 elements apart span 8 parts,
; and only every other part holds a lane (at its first element); the parts
; between store nothing (they once stored lane 0 at element 4).
define void @scatter_short(ptr addrspace(1) %o, <4 x i64> %i, <4 x i32> %v) #0 {
  %p = getelementptr inbounds i32, ptr addrspace(1) %o, <4 x i64> %i
  call void @llvm.masked.scatter.v4i32.v4p1(<4 x i32> %v, <4 x ptr addrspace(1)> %p, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  ret void
}
; CHECK-LABEL: define void @scatter_short(
; CHECK: spaced.8:
; CHECK-NEXT: %[[A0:[0-9]+]] = getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 0
; CHECK-NEXT: %[[V0:[0-9]+]] = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 0, i32 poison, i32 poison, i32 poison>
; CHECK-NEXT: call void @llvm.masked.store.v4i32.p1(<4 x i32> %[[V0]], ptr addrspace(1) %[[A0]], i32 4, <4 x i1> <i1 true, i1 false, i1 false, i1 false>)
; CHECK-NEXT: %[[A2:[0-9]+]] = getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 8
; CHECK-NEXT: %[[V2:[0-9]+]] = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> <i32 1, i32 poison, i32 poison, i32 poison>
; CHECK-NEXT: call void @llvm.masked.store.v4i32.p1(<4 x i32> %[[V2]], ptr addrspace(1) %[[A2]], i32 4, <4 x i1> <i1 true, i1 false, i1 false, i1 false>)
; CHECK-NEXT: getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 16
; CHECK-NOT: i64 4,
; CHECK: spaced.any:

; The same for a gather: the parts between hold no lane and are not loaded;
; lane k comes from element 8k.
define <4 x i32> @gather_short(ptr addrspace(1) %o, <4 x i64> %i) #0 {
  %p = getelementptr inbounds i32, ptr addrspace(1) %o, <4 x i64> %i
  %v = call <4 x i32> @llvm.masked.gather.v4i32.v4p1(<4 x ptr addrspace(1)> %p, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x i32> poison)
  ret <4 x i32> %v
}
; CHECK-LABEL: define <4 x i32> @gather_short(
; CHECK: spaced.8:
; CHECK-NEXT: getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 0
; CHECK-NEXT: %[[L0:[0-9]+]] = call <4 x i32> @llvm.masked.load.v4i32.p1(
; CHECK-NEXT: getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 8
; CHECK-NEXT: %[[L2:[0-9]+]] = call <4 x i32> @llvm.masked.load.v4i32.p1(
; CHECK-NEXT: getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 16
; CHECK-NEXT: %[[L4:[0-9]+]] = call <4 x i32> @llvm.masked.load.v4i32.p1(
; CHECK-NEXT: getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 24
; CHECK-NEXT: %[[L6:[0-9]+]] = call <4 x i32> @llvm.masked.load.v4i32.p1(
; CHECK-NEXT: %[[H0:[0-9]+]] = shufflevector <4 x i32> %[[L0]], <4 x i32> poison, <4 x i32> <i32 0, i32 2, i32 4, i32 6>

; Pointers of no known base: their addresses in bytes, the cases the
; element size times the spacing; inactive lanes keep the pass-through.
define <4 x double> @pointers(<4 x ptr> %p, <4 x i1> %m, <4 x double> %other) #0 {
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %p, i32 8, <4 x i1> %m, <4 x double> %other)
  ret <4 x double> %v
}
; CHECK-LABEL: define <4 x double> @pointers(
; CHECK: %[[ADDR:[0-9]+]] = ptrtoint <4 x ptr> %p to <4 x i64>
; CHECK: switch i64 %spaced.by, label %spaced.any [
; CHECK-NEXT: i64 8, label
; CHECK-NEXT: i64 16, label
; CHECK-NEXT: i64 32, label
; CHECK-NEXT: i64 64, label
; CHECK: spaced.1:
; CHECK: getelementptr double
; CHECK-NEXT: %[[L:[0-9]+]] = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %{{[0-9]+}}, i32 8, <4 x i1> %{{[0-9]+}}, <4 x double> poison)
; CHECK-NEXT: select <4 x i1> %m, <4 x double> %[[L]], <4 x double> %other

; Left alone: a mask of no lanes, one address for every lane, 16-bit elements.
define <16 x i32> @left_alone(ptr addrspace(3) %q, <16 x ptr> %p, <16 x i16> %i) #0 {
  %a = call <16 x i32> @llvm.masked.gather.v16i32.v16p0(<16 x ptr> %p, i32 4, <16 x i1> zeroinitializer, <16 x i32> poison)
  %pq = getelementptr i16, ptr addrspace(3) %q, <16 x i16> %i
  %h = call <16 x i16> @llvm.masked.gather.v16i16.v16p3(<16 x ptr addrspace(3)> %pq, i32 2, <16 x i1> splat (i1 true), <16 x i16> poison)
  %s = insertelement <16 x ptr addrspace(3)> poison, ptr addrspace(3) %q, i64 0
  %splat = shufflevector <16 x ptr addrspace(3)> %s, <16 x ptr addrspace(3)> poison, <16 x i32> zeroinitializer
  %u = call <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)> %splat, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %w = zext <16 x i16> %h to <16 x i32>
  %r = add <16 x i32> %a, %w
  %r2 = add <16 x i32> %r, %u
  ret <16 x i32> %r2
}
; CHECK-LABEL: define <16 x i32> @left_alone(
; CHECK-NOT: spaced
; CHECK: ret <16 x i32>

; Left alone for other processors (Intel's gathers take a few cycles).
define <16 x i32> @intel(ptr addrspace(3) %tree, <16 x i32> %i) #1 {
  %wide = sext <16 x i32> %i to <16 x i64>
  %p = getelementptr inbounds i32, ptr addrspace(3) %tree, <16 x i64> %wide
  %v = call <16 x i32> @llvm.masked.gather.v16i32.v16p3(<16 x ptr addrspace(3)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  ret <16 x i32> %v
}
; CHECK-LABEL: define <16 x i32> @intel(
; CHECK-NOT: spaced
; CHECK: call <16 x i32> @llvm.masked.gather.v16i32.v16p3(
; CHECK-NEXT: ret <16 x i32>

; Left alone: lanes that only a step of a whole private array apart can
; separate (a work-item's array in its context slot, 512 bytes a lane), and a
; column of a 16 x 17 tile (68 bytes): no spacing of 1, 2, 4 or 8 floats is a
; multiple of either. A 2-float struct's lanes may be 2 floats apart: split.
define <16 x float> @never_spaced(ptr %slot, ptr addrspace(3) %tile, ptr addrspace(1) %pairs, <16 x i64> %wi, i64 %k) #0 {
  %pa = getelementptr [64 x <2 x float>], ptr %slot, <16 x i64> %wi, i64 %k, i64 1
  %a = call <16 x float> @llvm.masked.gather.v16f32.v16p0(<16 x ptr> %pa, i32 4, <16 x i1> splat (i1 true), <16 x float> poison)
  %pt = getelementptr inbounds [17 x float], ptr addrspace(3) %tile, <16 x i64> %wi, i64 3
  %t = call <16 x float> @llvm.masked.gather.v16f32.v16p3(<16 x ptr addrspace(3)> %pt, i32 4, <16 x i1> splat (i1 true), <16 x float> poison)
  %pp = getelementptr [2 x float], ptr addrspace(1) %pairs, <16 x i64> %wi, i64 1
  %p = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %pp, i32 4, <16 x i1> splat (i1 true), <16 x float> poison)
  %r = fadd <16 x float> %a, %t
  %r2 = fadd <16 x float> %r, %p
  ret <16 x float> %r2
}
; CHECK-LABEL: define <16 x float> @never_spaced(
; CHECK: %a = call <16 x float> @llvm.masked.gather.v16f32.v16p0(
; CHECK-NEXT: %pt = getelementptr
; CHECK-NEXT: %t = call <16 x float> @llvm.masked.gather.v16f32.v16p3(
; CHECK: switch i64 %spaced.by, label %spaced.any [
; CHECK: %p = call <16 x float> @llvm.masked.gather.v16f32.v16p1(
; CHECK-NOT: switch
; CHECK: ret <16 x float>

; A function with more than 64 accesses to split (a kernel whose loops
; unrolled into hundreds of gathers) keeps them all: the checks would
; double its hot loop and its compile time grew tenfold.
define <16 x i32> @over_budget(ptr addrspace(1) %o, <16 x i64> %i) #0 {
  %p = getelementptr inbounds i32, ptr addrspace(1) %o, <16 x i64> %i
  %v0 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %v1 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s1 = add <16 x i32> %v0, %v1
  %v2 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s2 = add <16 x i32> %s1, %v2
  %v3 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s3 = add <16 x i32> %s2, %v3
  %v4 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s4 = add <16 x i32> %s3, %v4
  %v5 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s5 = add <16 x i32> %s4, %v5
  %v6 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s6 = add <16 x i32> %s5, %v6
  %v7 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s7 = add <16 x i32> %s6, %v7
  %v8 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s8 = add <16 x i32> %s7, %v8
  %v9 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s9 = add <16 x i32> %s8, %v9
  %v10 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s10 = add <16 x i32> %s9, %v10
  %v11 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s11 = add <16 x i32> %s10, %v11
  %v12 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s12 = add <16 x i32> %s11, %v12
  %v13 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s13 = add <16 x i32> %s12, %v13
  %v14 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s14 = add <16 x i32> %s13, %v14
  %v15 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s15 = add <16 x i32> %s14, %v15
  %v16 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s16 = add <16 x i32> %s15, %v16
  %v17 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s17 = add <16 x i32> %s16, %v17
  %v18 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s18 = add <16 x i32> %s17, %v18
  %v19 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s19 = add <16 x i32> %s18, %v19
  %v20 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s20 = add <16 x i32> %s19, %v20
  %v21 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s21 = add <16 x i32> %s20, %v21
  %v22 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s22 = add <16 x i32> %s21, %v22
  %v23 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s23 = add <16 x i32> %s22, %v23
  %v24 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s24 = add <16 x i32> %s23, %v24
  %v25 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s25 = add <16 x i32> %s24, %v25
  %v26 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s26 = add <16 x i32> %s25, %v26
  %v27 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s27 = add <16 x i32> %s26, %v27
  %v28 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s28 = add <16 x i32> %s27, %v28
  %v29 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s29 = add <16 x i32> %s28, %v29
  %v30 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s30 = add <16 x i32> %s29, %v30
  %v31 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s31 = add <16 x i32> %s30, %v31
  %v32 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s32 = add <16 x i32> %s31, %v32
  %v33 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s33 = add <16 x i32> %s32, %v33
  %v34 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s34 = add <16 x i32> %s33, %v34
  %v35 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s35 = add <16 x i32> %s34, %v35
  %v36 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s36 = add <16 x i32> %s35, %v36
  %v37 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s37 = add <16 x i32> %s36, %v37
  %v38 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s38 = add <16 x i32> %s37, %v38
  %v39 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s39 = add <16 x i32> %s38, %v39
  %v40 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s40 = add <16 x i32> %s39, %v40
  %v41 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s41 = add <16 x i32> %s40, %v41
  %v42 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s42 = add <16 x i32> %s41, %v42
  %v43 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s43 = add <16 x i32> %s42, %v43
  %v44 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s44 = add <16 x i32> %s43, %v44
  %v45 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s45 = add <16 x i32> %s44, %v45
  %v46 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s46 = add <16 x i32> %s45, %v46
  %v47 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s47 = add <16 x i32> %s46, %v47
  %v48 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s48 = add <16 x i32> %s47, %v48
  %v49 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s49 = add <16 x i32> %s48, %v49
  %v50 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s50 = add <16 x i32> %s49, %v50
  %v51 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s51 = add <16 x i32> %s50, %v51
  %v52 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s52 = add <16 x i32> %s51, %v52
  %v53 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s53 = add <16 x i32> %s52, %v53
  %v54 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s54 = add <16 x i32> %s53, %v54
  %v55 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s55 = add <16 x i32> %s54, %v55
  %v56 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s56 = add <16 x i32> %s55, %v56
  %v57 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s57 = add <16 x i32> %s56, %v57
  %v58 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s58 = add <16 x i32> %s57, %v58
  %v59 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s59 = add <16 x i32> %s58, %v59
  %v60 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s60 = add <16 x i32> %s59, %v60
  %v61 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s61 = add <16 x i32> %s60, %v61
  %v62 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s62 = add <16 x i32> %s61, %v62
  %v63 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s63 = add <16 x i32> %s62, %v63
  %v64 = call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %p, i32 4, <16 x i1> splat (i1 true), <16 x i32> poison)
  %s64 = add <16 x i32> %s63, %v64
  ret <16 x i32> %s64
}
; CHECK-LABEL: define <16 x i32> @over_budget(
; CHECK-NOT: spaced
; CHECK: ret <16 x i32> %s64

attributes #0 = { "target-cpu"="znver4" }
attributes #1 = { "target-cpu"="sapphirerapids" }
