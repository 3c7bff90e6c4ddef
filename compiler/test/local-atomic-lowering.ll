; Atomics on __local memory become plain loads and stores: one thread runs
; all work-items of a group, in program order, so they need no lock prefix
; and no fence. A pointer is __local when it is of address space 3 or cast
; from one (through GEPs); atomics on other memory stay atomic.
; RUN: %opt -passes=lockstep-local-atomic-lowering -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i32 @local_add(ptr addrspace(3) %p, i32 %v) {
  %old = atomicrmw add ptr addrspace(3) %p, i32 %v seq_cst
  ret i32 %old
}

; CHECK-LABEL: define i32 @local_add(
; CHECK-NOT: atomicrmw
; CHECK: %[[OLD:.*]] = load i32, ptr addrspace(3) %p
; CHECK: %[[NEW:.*]] = add i32 %[[OLD]], %v
; CHECK: store i32 %[[NEW]], ptr addrspace(3) %p
; CHECK: ret i32 %[[OLD]]

; A generic pointer into a __local array, as atomic_cmpxchg on a pointer
; the kernel passed around gets it.
define i32 @generic_cmpxchg(ptr addrspace(3) %base, i64 %i, i32 %expected, i32 %new) {
  %generic = addrspacecast ptr addrspace(3) %base to ptr addrspace(4)
  %p = getelementptr i32, ptr addrspace(4) %generic, i64 %i
  %pair = cmpxchg ptr addrspace(4) %p, i32 %expected, i32 %new seq_cst seq_cst
  %old = extractvalue { i32, i1 } %pair, 0
  ret i32 %old
}

; CHECK-LABEL: define i32 @generic_cmpxchg(
; CHECK-NOT: cmpxchg
; CHECK: load i32, ptr addrspace(4) %p
; CHECK: store i32 {{.*}}, ptr addrspace(4) %p

define i32 @global_add(ptr addrspace(1) %p, i32 %v) {
  %old = atomicrmw add ptr addrspace(1) %p, i32 %v seq_cst
  ret i32 %old
}

; CHECK-LABEL: define i32 @global_add(
; CHECK: atomicrmw add ptr addrspace(1) %p, i32 %v seq_cst
