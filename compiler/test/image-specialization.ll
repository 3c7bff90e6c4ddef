; A kernel specialized for a launch's image formats and samplers: the image's
; descriptor fields are assumed at the entry (invariant loads under
; llvm.assume), the sampler argument becomes its bits, and the request is
; consumed. A kernel the metadata does not name is left alone.
; RUN: %opt -passes=lockstep-image-specialization -S %s | FileCheck %s
; After -O3's GVN, the built-in's own load of the channel type is the assumed
; constant and its switch folds:
; RUN: %opt -passes=lockstep-image-specialization,instcombine,gvn,simplifycfg -S %s | FileCheck %s --check-prefix=FOLD

target triple = "spir64-unknown-unknown"

; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %img, i32 %s, ptr addrspace(1) %out)
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[ORDER:.*]] = getelementptr inbounds i8, ptr addrspace(1) %img, i64 40
; CHECK-NEXT: %[[O:.*]] = load i32, ptr addrspace(1) %[[ORDER]], align 4, !invariant.load
; CHECK-NEXT: %[[OK:.*]] = icmp eq i32 %[[O]], 4277
; CHECK-NEXT: call void @llvm.assume(i1 %[[OK]])
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %img, i64 44
; CHECK: icmp eq i32 %{{.*}}, 4306
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %img, i64 48
; CHECK: icmp eq i32 %{{.*}}, 4
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %img, i64 52
; CHECK: icmp eq i32 %{{.*}}, 4
; CHECK: %texel = call i32 @read(ptr addrspace(1) %img, i32 18)
; FOLD-LABEL: define spir_kernel void @k
; FOLD-NOT: switch
; FOLD: store i32 8, ptr addrspace(1) %out
define spir_kernel void @k(ptr addrspace(1) %img, i32 %s, ptr addrspace(1) %out) {
entry:
  %texel = call i32 @read(ptr addrspace(1) %img, i32 %s)
  %type.p = getelementptr inbounds i8, ptr addrspace(1) %img, i64 44
  %type = load i32, ptr addrspace(1) %type.p, align 4, !invariant.load !2
  switch i32 %type, label %other [ i32 4306, label %unorm8 ]
unorm8:
  store i32 8, ptr addrspace(1) %out
  ret void
other:
  store i32 32, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define spir_kernel void @untouched(ptr addrspace(1) %img, i32 %s)
; CHECK-NEXT: call i32 @read(ptr addrspace(1) %img, i32 %s)
define spir_kernel void @untouched(ptr addrspace(1) %img, i32 %s) {
  call i32 @read(ptr addrspace(1) %img, i32 %s)
  ret void
}

declare i32 @read(ptr addrspace(1), i32)

; CHECK-NOT: lockstep.specialize
!lockstep.specialize = !{!0, !1}
!0 = !{!"k", i32 0, i32 4277, i32 4306, i32 4, i32 4}
!1 = !{!"k", i32 1, i32 18, i32 0, i32 0, i32 0}
!2 = !{}
