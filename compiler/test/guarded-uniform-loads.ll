; A load of an address a work-item loop does not change, in a block only
; some work-items reach, becomes a call to a function the vectorizer widens
; through masked variants with a uniform pointer; after -O3 the calls are
; loads again, the widened ones masked gathers of one address (which
; MaskedMemoryGuardsPass makes one scalar load behind a test of the mask).
; Loads every trip makes, loads of addresses the loop changes, volatile
; loads, loads outside the loop's access group and loops that are not
; work-item loops stay.
; RUN: %opt -passes=lockstep-guarded-uniform-loads -S %s | FileCheck %s
; RUN: %opt -passes='function(lockstep-guarded-uniform-loads),lockstep-guarded-uniform-loads-lowering' -S %s \
; RUN:   | FileCheck %s --check-prefix=LOWERED
; A substring search's round, byte loads: the vectorizer widens it only with
; the calls (without them it prices the byte gather as not beneficial).
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes='function(lockstep-guarded-uniform-loads,loop-vectorize),lockstep-guarded-uniform-loads-lowering' -S %s \
; RUN:   | FileCheck %s --check-prefix=WIDE
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes='function(lockstep-guarded-uniform-loads,loop-vectorize),lockstep-guarded-uniform-loads-lowering' \
; RUN:   -lockstep-guarded-uniform-loads=false -S %s | FileCheck %s --check-prefix=OFF

; while (j < m && text[i + j] == pat[j]) j++, one round: work-items still
; active compare their byte with pat[j], the round's one address.
; CHECK-LABEL: define void @round(
; CHECK: %t = load i8, ptr addrspace(1) %tp
; CHECK: %c = call i8 @__lockstep_uniform_load_i8_p2_a1(ptr addrspace(2) %pj) #[[VARIANTS:[0-9]+]], !llvm.access.group
; CHECK-NOT: load i8, ptr addrspace(2)
; LOWERED-LABEL: define void @round(
; LOWERED: %c = load i8, ptr addrspace(2) %pj, align 1
; LOWERED-NOT: __lockstep_uniform_load
; WIDE-LABEL: define void @round(
; WIDE: vector.body:
; WIDE: call <{{[0-9]+}} x i8> @llvm.masked.load
; WIDE: call <{{[0-9]+}} x i8> @llvm.masked.gather.{{.*}}(<{{[0-9]+}} x ptr addrspace(2)> %{{.*}}splat
; WIDE-NOT: __lockstep_uniform_load
; OFF-LABEL: define void @round(
; OFF-NOT: vector.body:
; OFF: ret void
define void @round(ptr addrspace(1) %text, ptr addrspace(2) %pat, ptr %active, i64 %j) #0 {
entry:
  %pj = getelementptr inbounds i8, ptr addrspace(2) %pat, i64 %j
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %ap = getelementptr inbounds i32, ptr %active, i64 %wi
  %a = load i32, ptr %ap, align 4, !llvm.access.group !0
  %on = icmp ne i32 %a, 0
  br i1 %on, label %compare, label %latch
compare:
  %ij = add i64 %wi, %j
  %tp = getelementptr inbounds i8, ptr addrspace(1) %text, i64 %ij
  %t = load i8, ptr addrspace(1) %tp, align 1, !llvm.access.group !0
  %c = load i8, ptr addrspace(2) %pj, align 1, !llvm.access.group !0
  %same = icmp eq i8 %t, %c
  %stay = zext i1 %same to i32
  store i32 %stay, ptr %ap, align 4, !llvm.access.group !0
  br label %latch
latch:
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !1
done:
  ret void
}

; A float under `x > 0`, through a pointer of the generic address space.
; CHECK-LABEL: define void @scale(
; CHECK: %k = call float @__lockstep_uniform_load_f32_p0_a4(ptr %kp)
; LOWERED-LABEL: define void @scale(
; LOWERED: %k = load float, ptr %kp, align 4
define void @scale(ptr %in, ptr %out, ptr %kp) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %ip = getelementptr inbounds float, ptr %in, i64 %wi
  %x = load float, ptr %ip, align 4, !llvm.access.group !0
  %pos = fcmp ogt float %x, 0.0
  br i1 %pos, label %mul, label %latch
mul:
  %k = load float, ptr %kp, align 4, !llvm.access.group !0
  %y = fmul float %x, %k
  br label %latch
latch:
  %r = phi float [ %y, %mul ], [ %x, %loop ]
  %op = getelementptr inbounds float, ptr %out, i64 %wi
  store float %r, ptr %op, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !2
done:
  ret void
}

; Left alone: a load every trip makes (LICM's), a load whose address the
; loop changes (a gather), a volatile load, a load outside the access
; group.
; CHECK-LABEL: define void @others(
; CHECK-NOT: __lockstep_uniform_load
; CHECK: ret void
define void @others(ptr %in, ptr %out, ptr %kp, ptr %vp, ptr %np) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %every = load float, ptr %kp, align 4, !llvm.access.group !0
  %ip = getelementptr inbounds float, ptr %in, i64 %wi
  %x = load float, ptr %ip, align 4, !llvm.access.group !0
  %pos = fcmp ogt float %x, %every
  br i1 %pos, label %some, label %latch
some:
  %gp = getelementptr inbounds float, ptr %kp, i64 %wi
  %g = load float, ptr %gp, align 4, !llvm.access.group !0
  %v = load volatile float, ptr %vp, align 4, !llvm.access.group !0
  %n = load float, ptr %np, align 4
  %s1 = fadd float %g, %v
  %s2 = fadd float %s1, %n
  br label %latch
latch:
  %r = phi float [ %s2, %some ], [ %x, %loop ]
  %op = getelementptr inbounds float, ptr %out, i64 %wi
  store float %r, ptr %op, align 4, !llvm.access.group !0
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !3
done:
  ret void
}

; A loop that is not a work-item loop (no parallel accesses).
; CHECK-LABEL: define void @serial(
; CHECK-NOT: __lockstep_uniform_load
; CHECK: ret void
define void @serial(ptr %in, ptr %out, ptr %kp) #0 {
entry:
  br label %loop
loop:
  %wi = phi i64 [ 0, %entry ], [ %next, %latch ]
  %ip = getelementptr inbounds float, ptr %in, i64 %wi
  %x = load float, ptr %ip, align 4
  %pos = fcmp ogt float %x, 0.0
  br i1 %pos, label %mul, label %latch
mul:
  %k = load float, ptr %kp, align 4
  %y = fmul float %x, %k
  br label %latch
latch:
  %r = phi float [ %y, %mul ], [ %x, %loop ]
  %op = getelementptr inbounds float, ptr %out, i64 %wi
  store float %r, ptr %op, align 4
  %next = add nuw nsw i64 %wi, 1
  %more = icmp ult i64 %next, 256
  br i1 %more, label %loop, label %done
done:
  ret void
}

; The variants: masked, 2 to 64 lanes, the pointer uniform.
; CHECK: attributes #[[VARIANTS]] = { "vector-function-abi-variant"="_ZGV_LLVM_M2u___lockstep_uniform_load_i8_p2_a1(__lockstep_uniform_load_i8_p2_a1_v2),{{.*}}_ZGV_LLVM_M64u___lockstep_uniform_load_i8_p2_a1(__lockstep_uniform_load_i8_p2_a1_v64)" }

attributes #0 = { "lockstep-work-group-code" }

!0 = distinct !{}
!1 = distinct !{!1, !4}
!2 = distinct !{!2, !4}
!3 = distinct !{!3, !4}
!4 = !{!"llvm.loop.parallel_accesses", !0}
