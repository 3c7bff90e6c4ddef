; PrivateArraySelectsPass: a small private array indexed by a value becomes
; one alloca per element (which SROA then makes values); a load at a value
; index is a chain of selects over the elements, a store at one writes every
; element through a select, initializers (memset to zero, a copy of a
; constant) store each element. Arrays reached otherwise, larger than the
; limit, or indexed by constants only (SROA's own case) stay.
; RUN: %opt -passes=lockstep-private-array-selects -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-private-array-selects,sroa -S %s | FileCheck %s --check-prefix=VALUES

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@table = private unnamed_addr addrspace(2) constant [4 x float] [float 1.5, float 2.5, float 3.5, float 4.5]

; int t[4]; t[k] = k + i (constant indices, one as bytes); return t[j].
define i32 @lookup(i32 %i, i64 %j) {
entry:
  %t = alloca [4 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 16, ptr %t)
  store i32 %i, ptr %t, align 4
  %p1 = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 1
  %v1 = add i32 %i, 1
  store i32 %v1, ptr %p1, align 4
  %p2 = getelementptr inbounds i8, ptr %t, i64 8
  %v2 = add i32 %i, 2
  store i32 %v2, ptr %p2, align 4
  %p3 = getelementptr inbounds i32, ptr %t, i64 3
  %v3 = add i32 %i, 3
  store i32 %v3, ptr %p3, align 4
  %pj = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %j
  %r = load i32, ptr %pj, align 4
  call void @llvm.lifetime.end.p0(i64 16, ptr %t)
  ret i32 %r
}
; CHECK-LABEL: define i32 @lookup(
; CHECK:         %t.0 = alloca i32
; CHECK:         %t.3 = alloca i32
; CHECK-NOT:     alloca [4 x i32]
; CHECK-NOT:     lifetime
; CHECK:         store i32 %v3, ptr %t.3
; CHECK:         [[E0:%.*]] = load i32, ptr %t.0
; CHECK:         [[IS1:%.*]] = icmp eq i64 %j, 1
; CHECK:         [[E1:%.*]] = load i32, ptr %t.1
; CHECK:         [[R1:%.*]] = select i1 [[IS1]], i32 [[E1]], i32 [[E0]]
; CHECK:         [[IS3:%.*]] = icmp eq i64 %j, 3
; CHECK:         [[E3:%.*]] = load i32, ptr %t.3
; CHECK:         %r = select i1 [[IS3]], i32 [[E3]],
; CHECK:         ret i32 %r
; VALUES-LABEL: define i32 @lookup(
; VALUES-NOT:    alloca
; VALUES-NOT:    load
; VALUES:        ret i32 %r

; int h[3] = {0}; h[k]++; return h[1].
define i32 @count(i64 %k) {
entry:
  %h = alloca [3 x i32], align 4
  call void @llvm.memset.p0.i64(ptr align 4 %h, i8 0, i64 12, i1 false)
  %pk = getelementptr inbounds [3 x i32], ptr %h, i64 0, i64 %k
  %old = load i32, ptr %pk, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr %pk, align 4
  %p1 = getelementptr inbounds [3 x i32], ptr %h, i64 0, i64 1
  %r = load i32, ptr %p1, align 4
  ret i32 %r
}
; CHECK-LABEL: define i32 @count(
; CHECK-NOT:     memset
; CHECK:         store i32 0, ptr %h.0
; CHECK:         store i32 0, ptr %h.2
; The store at %k: each element keeps its value unless %k names it.
; CHECK:         [[IS0:%.*]] = icmp eq i64 %k, 0
; CHECK-NEXT:    [[OLD0:%.*]] = load i32, ptr %h.0
; CHECK-NEXT:    [[NEW0:%.*]] = select i1 [[IS0]], i32 %new, i32 [[OLD0]]
; CHECK-NEXT:    store i32 [[NEW0]], ptr %h.0
; CHECK:         %r = load i32, ptr %h.1
; VALUES-LABEL: define i32 @count(
; VALUES-NOT:    alloca
; VALUES:        ret i32

; float f[4] = {1.5, 2.5, 3.5, 4.5} (a copy of a constant); f[k] = x; return f[2].
define float @initialized(i64 %k, float %x) {
entry:
  %f = alloca [4 x float], align 4
  call void @llvm.memcpy.p0.p2.i64(ptr align 4 %f, ptr addrspace(2) align 4 @table, i64 16, i1 false)
  %pk = getelementptr inbounds [4 x float], ptr %f, i64 0, i64 %k
  store float %x, ptr %pk, align 4
  %p2 = getelementptr inbounds [4 x float], ptr %f, i64 0, i64 2
  %r = load float, ptr %p2, align 4
  ret float %r
}
; CHECK-LABEL: define float @initialized(
; CHECK-NOT:     memcpy
; CHECK:         store float 1.500000e+00, ptr %f.0
; CHECK:         store float 4.500000e+00, ptr %f.3
; VALUES-LABEL: define float @initialized(
; VALUES:        [[IS2:%.*]] = icmp eq i64 %k, 2
; VALUES-NEXT:   [[R:%.*]] = select i1 [[IS2]], float %x, float 3.500000e+00
; VALUES:        ret float [[R]]

; Passed to a call: left alone.
define i32 @escapes(i64 %k) {
entry:
  %a = alloca [4 x i32], align 4
  call void @fill(ptr %a)
  %pk = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %k
  %r = load i32, ptr %pk, align 4
  ret i32 %r
}
; CHECK-LABEL: define i32 @escapes(
; CHECK:         %a = alloca [4 x i32]

; More elements than the limit (8): left alone.
define i32 @large(i64 %k) {
entry:
  %a = alloca [9 x i32], align 4
  call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 36, i1 false)
  %pk = getelementptr inbounds [9 x i32], ptr %a, i64 0, i64 %k
  %r = load i32, ptr %pk, align 4
  ret i32 %r
}
; CHECK-LABEL: define i32 @large(
; CHECK:         %a = alloca [9 x i32]

; Constant indices only: SROA's case, left alone here.
define i32 @constant_indices(i32 %x) {
entry:
  %a = alloca [2 x i32], align 4
  store i32 %x, ptr %a, align 4
  %p1 = getelementptr inbounds [2 x i32], ptr %a, i64 0, i64 1
  store i32 %x, ptr %p1, align 4
  %r = load i32, ptr %p1, align 4
  ret i32 %r
}
; CHECK-LABEL: define i32 @constant_indices(
; CHECK:         %a = alloca [2 x i32]

declare void @fill(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p2.i64(ptr, ptr addrspace(2), i64, i1)
