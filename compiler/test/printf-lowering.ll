; printf calls become calls of the runtime formatter with a typed record:
; per argument an 8-byte header (kind | element bytes << 8 | elements << 16)
; and the value, padded to 8 bytes.
; RUN: %opt -passes=lockstep-printf-lowering -S %s | FileCheck %s

@.str = private addrspace(2) constant [9 x i8] c"%d %v4f\0A\00"

declare i32 @printf(ptr addrspace(2), ...)

define i32 @k(i32 %i, <4 x float> %v) {
  %r = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @.str, i32 %i, <4 x float> %v)
  ret i32 %r
}

; CHECK-LABEL: define i32 @k(
; CHECK: %[[RECORD:.*]] = alloca [40 x i8], align 16
; An int: kind 0, 4 bytes, 1 element, then its value.
; CHECK: store i64 66560, ptr
; CHECK: store i32 %i
; A float4: kind 1, 4 bytes, 4 elements, 16 bytes into the record.
; CHECK: getelementptr inbounds i8, ptr %[[RECORD]], i64 16
; CHECK: store i64 263169, ptr
; CHECK: store <4 x float> %v
; CHECK: %[[R:.*]] = call i32 @__lockstep_printf(ptr addrspacecast (ptr addrspace(2) @.str to ptr), ptr %[[RECORD]], i32 2)
; CHECK: ret i32 %[[R]]
