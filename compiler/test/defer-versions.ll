; DeferVersionsPass: each call of a kernel's version goes through a slot that
; holds the version (a build that defers it empties the slot and compiles
; the version at its first call, through __lockstep_resolve_version). The
; slot is in the host's address space though spir64's globals default to
; __global's; a call of a function that is no version stays direct. The
; call keeps what the version does with its parameters and memory.
; RUN: %opt -passes=lockstep-defer-versions -S %s | FileCheck %s

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

; CHECK: @__lockstep.version.k.vector_rows = global [2 x ptr] [ptr @k.vector_rows, ptr null], align 8
; CHECK-NOT: @__lockstep.version.helper

; CHECK-LABEL: define void @k(
; CHECK:         br i1 %wide, label %vector.rows, label %rest
; CHECK:       vector.rows:
; CHECK-NEXT:    [[LOADED:%.*]] = load atomic ptr, ptr @__lockstep.version.k.vector_rows acquire, align 8
; CHECK-NEXT:    [[EMPTY:%.*]] = icmp eq ptr [[LOADED]], null
; CHECK-NEXT:    br i1 [[EMPTY]], label %version.resolve, label %version.call, !prof
; CHECK:       version.resolve:
; CHECK-NEXT:    [[RESOLVED:%.*]] = call ptr @__lockstep_resolve_version(ptr @__lockstep.version.k.vector_rows)
; CHECK-NEXT:    br label %version.call
; CHECK:       version.call:
; CHECK-NEXT:    [[CALLEE:%.*]] = phi ptr [ [[LOADED]], %vector.rows ], [ [[RESOLVED]], %version.resolve ]
; CHECK-NEXT:    call void [[CALLEE]](ptr %args, ptr nocapture readonly %group, ptr %local, ptr %context) #[[CALL:[0-9]+]]
; CHECK-NEXT:    ret void
; CHECK:       rest:
; CHECK-NEXT:    call void @helper(ptr %args)
; CHECK: declare ptr @__lockstep_resolve_version(ptr) #[[RESOLVE:[0-9]+]]
; CHECK: attributes #[[RESOLVE]] = { cold nounwind }
; CHECK: attributes #[[CALL]] = { nounwind memory(argmem: write) }

define void @k(ptr %args, ptr %group, ptr %local, ptr %context) #0 {
entry:
  %width = load i64, ptr %group, align 8
  %wide = icmp eq i64 %width, 16
  br i1 %wide, label %vector.rows, label %rest

vector.rows:
  call void @k.vector_rows(ptr %args, ptr %group, ptr %local, ptr %context)
  ret void

rest:
  call void @helper(ptr %args)
  ret void
}

define internal void @k.vector_rows(ptr %args, ptr nocapture readonly %group, ptr %local, ptr %context) #1 {
  store i32 1, ptr %args, align 4
  ret void
}

define internal void @helper(ptr %args) {
  store i32 2, ptr %args, align 4
  ret void
}

attributes #0 = { "lockstep-kernel"="k" }
attributes #1 = { noinline nounwind memory(argmem: write) "lockstep-dispatched-version"="k" }
