; The frontend's -fno-builtin leaves "no-builtins" on every function, which
; would keep the inliner from merging builtins into the work-group
; functions: it goes. (The nobuiltin marks on the builtins' calls of libm
; functions go only for those libmvec has accurate variants of on this
; host, VectorMath.cpp; a call of another function keeps its marks.)
; RUN: %opt -passes=lockstep-release-builtin-calls -S %s | FileCheck %s

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

declare float @not_math(float) #1

define spir_func float @helper(float %x) #2 {
  %y = call float @not_math(float %x) #1
  ret float %y
}

define spir_kernel void @kernel(ptr addrspace(1) %out) #0 {
  %v = call spir_func float @helper(float 1.0)
  store float %v, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "no-builtins" "uniform-work-group-size"="true" }
attributes #1 = { nobuiltin convergent }
attributes #2 = { "no-builtins" }

; CHECK: define spir_func float @helper(float %x) {
; CHECK: call float @not_math(float %x) #[[MARKS:[0-9]+]]
; CHECK: define spir_kernel void @kernel(ptr addrspace(1) %out) #[[KERNEL:[0-9]+]]
; CHECK-NOT: no-builtins
; CHECK-DAG: attributes #[[KERNEL]] = { "uniform-work-group-size"="true" }
; CHECK-DAG: attributes #[[MARKS]] = { convergent nobuiltin }
