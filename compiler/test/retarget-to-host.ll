; The prepared spir64 module becomes the host's: its triple and data layout,
; the C calling convention on every function and call, and the host CPU and
; its features on every definition (with, depending on the CPU, the vector
; width each kind of kernel prefers).
; RUN: %opt -passes=lockstep-retarget-to-host -S %s | FileCheck %s

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

declare spir_func float @external(float)

define internal spir_func float @helper(float %x) {
  %y = call spir_func float @external(float %x)
  ret float %y
}

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-straight-line" {
  %v = call spir_func float @helper(float 1.0)
  store float %v, ptr %args
  ret void
}

; CHECK: target datalayout = "e-m:e-
; CHECK: target triple = "x86_64-
; CHECK: declare float @external(float)
; CHECK: define internal float @helper(float %x) #[[HELPER:[0-9]+]]
; CHECK: call float @external(float %x)
; CHECK: define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) #[[WG:[0-9]+]]
; CHECK: call float @helper(float 1.0
; CHECK: attributes #[[HELPER]] = { {{.*}}"target-cpu"="{{[a-z0-9-]+}}" "target-features"="{{.*}}" }
; CHECK: attributes #[[WG]] = { "lockstep-kernel"="k" "lockstep-straight-line" {{.*}}"target-cpu"=
