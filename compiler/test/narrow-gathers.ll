; A work-item loop's load of a byte or 2-aligned halfword from an address
; that is neither invariant nor affine in the loop (a table lookup at an
; index read from memory) becomes a call with masked vector variants, the
; pointer varying; after -O3 a scalar call is the load again, a widened one
; a gather of the aligned 32-bit words that hold the elements, shifted.
; Consecutive and invariant loads (also those consecutive once the
; vectorizer checks that an int index does not wrap), 32-bit loads,
; halfwords that may be misaligned, loops the vectorizer would not widen
; (an atomic), and loops that also scatter bytes or halfwords stay.
; On AMD Zen cores (target-cpu znver*) the loads stay, unless asked.
; RUN: %opt -passes=lockstep-narrow-gathers -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-narrow-gathers -lockstep-narrow-gathers-on-zen -S %s \
; RUN:   | FileCheck %s --check-prefix=ZEN
; RUN: %opt -passes='function(lockstep-narrow-gathers),lockstep-narrow-gathers-lowering' -S %s \
; RUN:   | FileCheck %s --check-prefix=LOWERED
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes='function(lockstep-narrow-gathers,loop-vectorize),lockstep-narrow-gathers-lowering' -S %s \
; RUN:   | FileCheck %s --check-prefix=WIDE

; out[i] = lut[in[i]]
; CHECK-LABEL: define void @lut(
; CHECK: %x = load i8, ptr addrspace(1) %ip
; CHECK: %v = call i8 @__lockstep_narrow_gather_i8_p2_a1(ptr addrspace(2) %lp) #[[VARIANTS:[0-9]+]], !llvm.access.group
; LOWERED-LABEL: define void @lut(
; LOWERED: %v = load i8, ptr addrspace(2) %lp, align 1
; LOWERED-NOT: __lockstep_narrow_gather
; WIDE-LABEL: define void @lut(
; WIDE: vector.body:
; WIDE: %[[IDX:.*]] = zext <[[N:[0-9]+]] x i8> %{{.*}} to <[[N]] x i32>
; WIDE: %[[BYTES:[0-9]+]] = mul <[[N]] x i32> %[[IDX]], <i32 1,
; WIDE: and i64 %{{[0-9]+}}, 3
; WIDE: %[[ALIGNED:[0-9]+]] = getelementptr i8, ptr addrspace(2) %lut, i64 %{{[0-9]+}}
; WIDE: and <[[N]] x i32> %{{[0-9]+}}, <i32 -4,
; WIDE: %[[WORDS:[0-9]+]] = getelementptr i8, ptr addrspace(2) %[[ALIGNED]], <[[N]] x i64>
; WIDE: call <[[N]] x i32> @llvm.masked.gather.v[[N]]i32.v[[N]]p2(<[[N]] x ptr addrspace(2)> %[[WORDS]], i32 4
; WIDE: lshr <[[N]] x i32>
; WIDE: trunc <[[N]] x i32> %{{[0-9]+}} to <[[N]] x i8>
; WIDE-NOT: __lockstep_narrow_gather
define void @lut(ptr addrspace(1) %in, ptr addrspace(2) %lut, ptr addrspace(1) %out) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %ip = getelementptr inbounds i8, ptr addrspace(1) %in, i64 %wi
  %x = load i8, ptr addrspace(1) %ip, align 1, !llvm.access.group !0
  %xi = zext i8 %x to i64
  %lp = getelementptr inbounds i8, ptr addrspace(2) %lut, i64 %xi
  %v = load i8, ptr addrspace(2) %lp, align 1, !llvm.access.group !0
  %op = getelementptr inbounds i8, ptr addrspace(1) %out, i64 %wi
  store i8 %v, ptr addrspace(1) %op, align 1, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !1
done:
  ret void
}

; A halfword table under a condition; a 1-aligned halfword stays.
; CHECK-LABEL: define void @shorts(
; CHECK: %s = call i16 @__lockstep_narrow_gather_i16_p0_a2(ptr %sp)
; CHECK: %u = load i16, ptr %up, align 1
; LOWERED-LABEL: define void @shorts(
; LOWERED: %s = load i16, ptr %sp, align 2
define void @shorts(ptr %in, ptr %table, ptr %out) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %ip = getelementptr inbounds i32, ptr %in, i64 %wi
  %x = load i32, ptr %ip, align 4, !llvm.access.group !0
  %odd = trunc i32 %x to i1
  br i1 %odd, label %look, label %latch
look:
  %xi = zext i32 %x to i64
  %sp = getelementptr inbounds i16, ptr %table, i64 %xi
  %s = load i16, ptr %sp, align 2, !llvm.access.group !0
  %up = getelementptr inbounds i8, ptr %table, i64 %xi
  %u = load i16, ptr %up, align 1, !llvm.access.group !0
  %sum = add i16 %s, %u
  br label %latch
latch:
  %r = phi i16 [ %sum, %look ], [ 0, %loop ]
  %op = getelementptr inbounds i16, ptr %out, i64 %wi
  store i16 %r, ptr %op, align 2, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !2
done:
  ret void
}

; Left alone: a row's bytes at an int index that may wrap (`in[y * w + x - 1]`),
; affine once the vectorizer checks it does not: consecutive, not a gather.
; CHECK-LABEL: define void @row(
; CHECK-NOT: __lockstep_narrow_gather
; CHECK: ret void
define void @row(ptr %in, ptr %out, i32 %offset) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %x = trunc i64 %wi to i32
  %i = add i32 %x, %offset
  %i.ext = sext i32 %i to i64
  %ip = getelementptr inbounds i8, ptr %in, i64 %i.ext
  %v = load i8, ptr %ip, align 1, !llvm.access.group !0
  %op = getelementptr inbounds i8, ptr %out, i64 %wi
  store i8 %v, ptr %op, align 1, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !5
done:
  ret void
}

; Left alone: a loop with an atomic, which the vectorizer does not widen.
; CHECK-LABEL: define void @atomics(
; CHECK-NOT: __lockstep_narrow_gather
; CHECK: ret void
define void @atomics(ptr %in, ptr %lut, ptr %bins) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %ip = getelementptr inbounds i8, ptr %in, i64 %wi
  %x = load i8, ptr %ip, align 1, !llvm.access.group !0
  %xi = zext i8 %x to i64
  %lp = getelementptr inbounds i8, ptr %lut, i64 %xi
  %v = load i8, ptr %lp, align 1, !llvm.access.group !0
  %vi = zext i8 %v to i64
  %bin = getelementptr inbounds i32, ptr %bins, i64 %vi
  %old = atomicrmw add ptr %bin, i32 1 monotonic, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !3
done:
  ret void
}

; Left alone: a loop that also stores bytes to computed addresses (each
; work-item counting into its byte column, `column[x * 64]++`), which would
; go out a lane at a time widened.
; CHECK-LABEL: define void @byte_counters(
; CHECK-NOT: __lockstep_narrow_gather
; CHECK: ret void
define void @byte_counters(ptr %in, ptr addrspace(3) %counts) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %ip = getelementptr inbounds i32, ptr %in, i64 %wi
  %x = load i32, ptr %ip, align 4, !llvm.access.group !0
  %bin = and i32 %x, 63
  %row = shl i32 %bin, 6
  %row64 = zext i32 %row to i64
  %slot = add i64 %row64, %wi
  %cp = getelementptr inbounds i8, ptr addrspace(3) %counts, i64 %slot
  %c = load i8, ptr addrspace(3) %cp, align 1, !llvm.access.group !0
  %c1 = add i8 %c, 1
  store i8 %c1, ptr addrspace(3) %cp, align 1, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 64
  br i1 %more, label %loop, label %done, !llvm.loop !6
done:
  ret void
}

; The same lookup compiled for a Zen core.
; CHECK-LABEL: define void @lut_on_zen(
; CHECK: %v = load i8, ptr addrspace(2) %lp, align 1
; CHECK-NOT: __lockstep_narrow_gather
; CHECK: ret void
; ZEN-LABEL: define void @lut_on_zen(
; ZEN: %v = call i8 @__lockstep_narrow_gather_i8_p2_a1(ptr addrspace(2) %lp)
define void @lut_on_zen(ptr addrspace(1) %in, ptr addrspace(2) %lut, ptr addrspace(1) %out) #1 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %ip = getelementptr inbounds i8, ptr addrspace(1) %in, i64 %wi
  %x = load i8, ptr addrspace(1) %ip, align 1, !llvm.access.group !0
  %xi = zext i8 %x to i64
  %lp = getelementptr inbounds i8, ptr addrspace(2) %lut, i64 %xi
  %v = load i8, ptr addrspace(2) %lp, align 1, !llvm.access.group !0
  %op = getelementptr inbounds i8, ptr addrspace(1) %out, i64 %wi
  store i8 %v, ptr addrspace(1) %op, align 1, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !1
done:
  ret void
}

; CHECK: attributes #[[VARIANTS]] = { "vector-function-abi-variant"="_ZGV_LLVM_M2v___lockstep_narrow_gather_i8_p2_a1(__lockstep_narrow_gather_i8_p2_a1_v2),{{.*}}_ZGV_LLVM_M64v___lockstep_narrow_gather_i8_p2_a1(__lockstep_narrow_gather_i8_p2_a1_v64)" }

attributes #0 = { "lockstep-work-group-code" }
attributes #1 = { "lockstep-work-group-code" "target-cpu"="znver4" }

!0 = distinct !{}
!1 = distinct !{!1, !4}
!2 = distinct !{!2, !4}
!3 = distinct !{!3, !4}
!4 = !{!"llvm.loop.parallel_accesses", !0}
!5 = distinct !{!5, !4}
!6 = distinct !{!6, !4}
