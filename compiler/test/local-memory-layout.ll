; Kernel-scope __local variables become offsets in the local memory block.
; RUN: %opt -passes=lockstep-local-memory-layout -S %s | FileCheck %s

@k.a = internal addrspace(3) global [16 x float] undef, align 4
@k.b = internal addrspace(3) global i64 undef, align 8

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  br label %body
body:
  store float 1.0, ptr addrspace(3) getelementptr ([16 x float], ptr addrspace(3) @k.a, i64 0, i64 3)
  store i64 2, ptr addrspace(3) @k.b
  ret void
}

; CHECK-NOT: @k.a =
; CHECK-LABEL: define void @wg(
; CHECK: %local.base = addrspacecast ptr %local to ptr addrspace(3)
; CHECK: %k.a = getelementptr inbounds i8, ptr addrspace(3) %local.base, i64 0
; CHECK: %k.b = getelementptr inbounds i8, ptr addrspace(3) %local.base, i64 64
; CHECK: store i64 2, ptr addrspace(3) %k.b
; CHECK: "lockstep-static-local-bytes"="128"
