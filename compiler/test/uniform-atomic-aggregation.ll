; A relaxed atomic add (or sub) in a work-item loop, of a value and at an
; address the loop does not change, whose result is used, becomes a call to
; a function with masked vector variants, both parameters uniform; after
; -O3 a scalar call is the atomic again, a widened one a single atomic of
; the active lanes' total behind a test of the mask, each lane's result the
; old value plus its rank among the active lanes times the value; the loop
; asks the vectorizer for 64 lanes and up to 8 interleaved parts (4 for its
; 256 work-items), whose calls make one atomic. Atomics
; whose result is unused (GlobalAtomicCombining's), seq_cst ones, ones at an
; address the loop changes and exchanges stay.
; RUN: %opt -passes=lockstep-uniform-atomic-aggregation -S %s | FileCheck %s
; RUN: %opt -passes='function(lockstep-uniform-atomic-aggregation),lockstep-uniform-atomic-aggregation-lowering' \
; RUN:   -S %s | FileCheck %s --check-prefix=LOWERED
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes='function(lockstep-uniform-atomic-aggregation,loop-vectorize),lockstep-uniform-atomic-aggregation-lowering' \
; RUN:   -S %s | FileCheck %s --check-prefix=WIDE
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes='function(lockstep-uniform-atomic-aggregation,loop-vectorize),lockstep-uniform-atomic-aggregation-lowering' \
; RUN:   -lockstep-uniform-atomic-aggregation=false -S %s | FileCheck %s --check-prefix=OFF

; if (x > t) out[atomic_inc(count)] = x;
; CHECK-LABEL: define void @compact(
; CHECK: %slot = call i32 @__lockstep_atomic_add_volatile_i32_p1_a4(ptr addrspace(1) %count, i32 1) #[[VARIANTS:[0-9]+]], !llvm.access.group
; CHECK: br i1 %more, label %loop, label %done, !llvm.loop ![[COMPACT:[0-9]+]]
; LOWERED-LABEL: define void @compact(
; LOWERED: %slot = atomicrmw volatile add ptr addrspace(1) %count, i32 1 monotonic, align 4
; LOWERED-NOT: __lockstep_atomic
; WIDE-LABEL: define void @compact(
; WIDE: vector.body:
; WIDE: %[[BITS:[0-9]+]] = bitcast <[[N:[0-9]+]] x i1> %{{.*}} to i[[N]]
; WIDE-NEXT: %[[COUNT:[0-9]+]] = call i[[N]] @llvm.ctpop.i[[N]](i[[N]] %[[BITS]])
; WIDE-COUNT-2: = add i32
; WIDE: %[[TOTAL:[0-9]+]] = add i32
; WIDE-NEXT: %[[ANY:[0-9]+]] = icmp ne i32 %[[TOTAL]], 0
; WIDE-NEXT: br i1 %[[ANY]], label %[[THEN:.*]], label %[[JOIN:[0-9]+]]
; WIDE: [[THEN]]:
; WIDE-NEXT: %[[AMOUNT:[0-9]+]] = mul i32 1, %[[TOTAL]]
; WIDE-NEXT: %[[OLD:[0-9]+]] = atomicrmw volatile add ptr addrspace(1) %count, i32 %[[AMOUNT]] monotonic, align 4
; WIDE: %aggregated.base = phi i32 [ %[[OLD]], %[[THEN]] ], [ poison, %vector.body ]
; WIDE: and <[[N]] x i[[N]]>
; WIDE: call <[[N]] x i[[N]]> @llvm.ctpop.v[[N]]i[[N]]
; WIDE: add <[[N]] x i32>
; The loop's four vectors of 64 work-items (interleaved parts) share the
; one atomic: the second part's lanes start past the first's active ones.
; WIDE-NOT: atomicrmw
; WIDE: %[[STEP:[0-9]+]] = mul i32 1, %{{[0-9]+}}
; WIDE-NEXT: add i32 %aggregated.base, %[[STEP]]
; WIDE-NOT: atomicrmw
; WIDE: call void @llvm.masked.scatter
; WIDE-NOT: atomicrmw
; WIDE: middle.block:
; WIDE-NOT: __lockstep_atomic
; OFF-LABEL: define void @compact(
; OFF-NOT: vector.body:
; OFF: ret void
define void @compact(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %count, float %t) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %ip = getelementptr inbounds float, ptr addrspace(1) %in, i64 %wi
  %x = load float, ptr addrspace(1) %ip, align 4, !llvm.access.group !0
  %keep = fcmp ogt float %x, %t
  br i1 %keep, label %append, label %latch
append:
  %slot = atomicrmw volatile add ptr addrspace(1) %count, i32 1 monotonic, align 4, !llvm.access.group !0
  %slot.ext = sext i32 %slot to i64
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %slot.ext
  store float %x, ptr addrspace(1) %op, align 4, !llvm.access.group !0
  br label %latch
latch:
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !1
done:
  ret void
}

; Slots taken from the top by a 64-bit sub, the amount the group's: each
; work-item's result is the counter less its rank times the amount.
; CHECK-LABEL: define void @take(
; CHECK: %old = call i64 @__lockstep_atomic_sub_i64_p0_a8(ptr %top, i64 %amount)
; CHECK: br i1 %more, label %loop, label %done, !llvm.loop ![[TAKE:[0-9]+]]
; LOWERED-LABEL: define void @take(
; LOWERED: %old = atomicrmw sub ptr %top, i64 %amount monotonic, align 8
; WIDE-LABEL: define void @take(
; WIDE: atomicrmw sub ptr %top, i64 %{{[0-9]+}} monotonic, align 8
; WIDE: sub <{{[0-9]+}} x i64>
define void @take(ptr %top, i64 %amount, ptr %out) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %old = atomicrmw sub ptr %top, i64 %amount monotonic, align 8, !llvm.access.group !0
  %op = getelementptr inbounds i64, ptr %out, i64 %wi
  store i64 %old, ptr %op, align 8, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !2
done:
  ret void
}

; A group of `n` work-items, known at run time: a copy asking for 64 lanes in
; 8 parts runs when n >= 512, another asking for one vector of 64 when
; n >= 64; smaller groups run the loop with the vectorizer's own choice (a
; vector loop no group reaches would leave each work-item its own atomic).
; CHECK-LABEL: define void @group(
; CHECK: %[[MANY:[0-9]+]] = icmp uge i64 %{{[0-9]+}}, 511
; CHECK-NEXT: br i1 %[[MANY]], label %wide.not.wide, label %wide.not
; CHECK: br i1 %more.wide, label %loop.wide, label %{{.*}}, !llvm.loop ![[GROUPMANY:[0-9]+]]
; CHECK: %[[VECTOR:[0-9]+]] = icmp uge i64 %{{[0-9]+}}, 63
; CHECK-NEXT: br i1 %[[VECTOR]], label %vector.not.vector, label %vector.not
; CHECK: br i1 %more.vector, label %loop.vector, label %{{.*}}, !llvm.loop ![[GROUPVECTOR:[0-9]+]]
; CHECK: br i1 %more, label %loop, label %{{.*}}, !llvm.loop ![[GROUPOWN:[0-9]+]]
define void @group(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %count, float %t, i64 %n) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %ip = getelementptr inbounds float, ptr addrspace(1) %in, i64 %wi
  %x = load float, ptr addrspace(1) %ip, align 4, !llvm.access.group !0
  %keep = fcmp ogt float %x, %t
  br i1 %keep, label %append, label %latch
append:
  %slot = atomicrmw add ptr addrspace(1) %count, i32 1 monotonic, align 4, !llvm.access.group !0
  %slot.ext = sext i32 %slot to i64
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %slot.ext
  store float %x, ptr addrspace(1) %op, align 4, !llvm.access.group !0
  br label %latch
latch:
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !5
done:
  ret void
}

; Left alone: an unused result, a seq_cst add, an add at an address the
; loop changes (a histogram's bin), an exchange.
; CHECK-LABEL: define void @others(
; CHECK-NOT: __lockstep_atomic
; CHECK: br i1 %more, label %loop, label %done, !llvm.loop ![[OTHERS:[0-9]+]]
; CHECK: ret void
define void @others(ptr %count, ptr %bins, ptr %in, ptr %out) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %loop ]
  %unused = atomicrmw add ptr %count, i32 1 monotonic, align 4, !llvm.access.group !0
  %strict = atomicrmw add ptr %count, i32 1 seq_cst, align 4, !llvm.access.group !0
  %ip = getelementptr inbounds i32, ptr %in, i64 %wi
  %v = load i32, ptr %ip, align 4, !llvm.access.group !0
  %v.ext = zext i32 %v to i64
  %bin = getelementptr inbounds i32, ptr %bins, i64 %v.ext
  %before = atomicrmw add ptr %bin, i32 1 monotonic, align 4, !llvm.access.group !0
  %swapped = atomicrmw xchg ptr %count, i32 7 monotonic, align 4, !llvm.access.group !0
  %s1 = add i32 %strict, %before
  %s2 = add i32 %s1, %swapped
  %op = getelementptr inbounds i32, ptr %out, i64 %wi
  store i32 %s2, ptr %op, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !3
done:
  ret void
}

; The loops of aggregated atomics ask for 64 lanes in 4 parts; the others do
; not.
; CHECK: attributes #[[VARIANTS]] = { "vector-function-abi-variant"="_ZGV_LLVM_M2uu___lockstep_atomic_add_volatile_i32_p1_a4(__lockstep_atomic_add_volatile_i32_p1_a4_v2),{{.*}}_ZGV_LLVM_M64uu___lockstep_atomic_add_volatile_i32_p1_a4(__lockstep_atomic_add_volatile_i32_p1_a4_v64)" }

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !4}
!2 = distinct !{!2, !4}
!3 = distinct !{!3, !4}
!4 = !{!"llvm.loop.parallel_accesses", !0}
!5 = distinct !{!5, !4}
; CHECK: ![[COMPACT]] = distinct !{![[COMPACT]], ![[PARALLEL:[0-9]+]], ![[WIDTH:[0-9]+]], ![[PARTS:[0-9]+]]}
; CHECK: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 64}
; CHECK: ![[PARTS]] = !{!"llvm.loop.interleave.count", i32 4}
; CHECK: ![[TAKE]] = distinct !{![[TAKE]], ![[PARALLEL]], ![[WIDTH]], ![[PARTS]]}
; CHECK: ![[GROUPMANY]] = distinct !{![[GROUPMANY]], ![[PARALLEL]], ![[WIDTH]], ![[EIGHT:[0-9]+]]}
; CHECK: ![[EIGHT]] = !{!"llvm.loop.interleave.count", i32 8}
; CHECK: ![[GROUPVECTOR]] = distinct !{![[GROUPVECTOR]], ![[PARALLEL]], ![[WIDTH]]}
; CHECK: ![[GROUPOWN]] = distinct !{![[GROUPOWN]], ![[PARALLEL]]}
; CHECK: ![[OTHERS]] = distinct !{![[OTHERS]], ![[PARALLEL]]}
