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

attributes #0 = { "target-cpu"="znver4" }
attributes #1 = { "target-cpu"="sapphirerapids" }
