; lockstep-version-dispatch alone, after the work-group loops: a kernel with
; loop cuts calls its vector-rows versions in groups as wide as their rows
; (16, 4; the last listed tested first), its
; narrow-cut version in other groups narrower than 64 work-items along x,
; which calls the version without loop cuts below 4; a
; straight-line kernel calls its masked-tail version where the width is not
; a multiple of 64. Each function then reserves the context and private
; memory of the largest it may call, and a frame for both; the versions lose
; the kernel's name and their version mark, are marked with their kernel
; (for DeferVersionsPass) and are not inlined; the list of versions goes.
; RUN: %opt -passes=lockstep-version-dispatch -S %s | FileCheck %s \
; RUN:   --implicit-check-not=lockstep.versions --implicit-check-not=lockstep-work-group-version

define void @k(ptr %args, ptr %group, ptr %local, ptr %context) #0 !lockstep.versions !0 {
prologue:
  br label %body
body:
  ret void
}
define internal void @k.whole_loops(ptr %args, ptr %group, ptr %local, ptr %context) #1 {
prologue:
  br label %body
body:
  ret void
}
define internal void @k.narrow_cut(ptr %args, ptr %group, ptr %local, ptr %context) #2 {
prologue:
  br label %body
body:
  ret void
}
define internal void @k.vector_rows(ptr %args, ptr %group, ptr %local, ptr %context) #5 {
prologue:
  br label %body
body:
  ret void
}
define internal void @k.vector_rows4(ptr %args, ptr %group, ptr %local, ptr %context) #6 {
prologue:
  br label %body
body:
  ret void
}
define void @s(ptr %args, ptr %group, ptr %local, ptr %context) #3 !lockstep.versions !1 {
prologue:
  br label %body
body:
  ret void
}
define internal void @s.narrow_rows(ptr %args, ptr %group, ptr %local, ptr %context) #4 {
prologue:
  br label %body
body:
  ret void
}
attributes #0 = { "lockstep-kernel"="k" "lockstep-context-bytes"="64" "lockstep-private-bytes"="64" "lockstep-frame-bytes"="8" }
attributes #1 = { "lockstep-kernel"="k" "lockstep-work-group-version"="whole-loops" "lockstep-context-bytes"="16" "lockstep-private-bytes"="16" "lockstep-frame-bytes"="4" }
attributes #2 = { "lockstep-kernel"="k" "lockstep-work-group-version"="narrow-cut" "lockstep-context-bytes"="128" "lockstep-private-bytes"="128" "lockstep-frame-bytes"="2" }
attributes #3 = { "lockstep-kernel"="s" "lockstep-context-bytes"="0" "lockstep-private-bytes"="0" "lockstep-frame-bytes"="0" }
attributes #4 = { "lockstep-kernel"="s" "lockstep-work-group-version"="narrow-rows" "lockstep-context-bytes"="0" "lockstep-private-bytes"="0" "lockstep-frame-bytes"="0" }
attributes #5 = { "lockstep-kernel"="k" "lockstep-work-group-version"="vector-rows" "lockstep-row-width"="16" "lockstep-context-bytes"="256" "lockstep-private-bytes"="192" "lockstep-frame-bytes"="1" }
attributes #6 = { "lockstep-kernel"="k" "lockstep-work-group-version"="vector-rows" "lockstep-row-width"="4" "lockstep-context-bytes"="32" "lockstep-private-bytes"="32" "lockstep-frame-bytes"="1" }
!0 = !{ptr @k.whole_loops, ptr @k.narrow_cut, ptr @k.vector_rows, ptr @k.vector_rows4}
!1 = !{ptr @s.narrow_rows}

; CHECK-LABEL: define void @k(
; CHECK:         [[WIDTH:%[0-9]+]] = load i64, ptr {{%[0-9]+}}, align 4, !invariant.load
; CHECK-NEXT:    [[NARROW:%[0-9]+]] = icmp ult i64 [[WIDTH]], 64
; The widths with versions of their own are tested first.
; The width is read once (loadGroupInfo hands back the block's earlier read).
; CHECK-NEXT:    [[ROWS16:%[0-9]+]] = icmp eq i64 [[WIDTH]], 16
; CHECK-NEXT:    [[ROWS4:%[0-9]+]] = icmp eq i64 [[WIDTH]], 4
; CHECK-NEXT:    br i1 [[ROWS4]], label %vector.rows3, label %dispatch.next2
; CHECK:       dispatch.next2:
; CHECK-NEXT:    br i1 [[ROWS16]], label %vector.rows, label %dispatch.next1
; CHECK:       dispatch.next1:
; CHECK-NEXT:    br i1 [[NARROW]], label %narrow.cut, label %dispatch.next
; CHECK:       dispatch.next:
; CHECK-NEXT:    br label %body
; CHECK:       narrow.cut:
; CHECK-NEXT:    call void @k.narrow_cut(ptr %args, ptr %group, ptr %local, ptr %context)
; CHECK:       vector.rows:
; CHECK-NEXT:    call void @k.vector_rows(ptr %args, ptr %group, ptr %local, ptr %context)
; CHECK:       vector.rows3:
; CHECK-NEXT:    call void @k.vector_rows4(ptr %args, ptr %group, ptr %local, ptr %context)
; CHECK-LABEL: define internal void @k.whole_loops(
; CHECK-SAME:    #[[WHOLE:[0-9]+]]
; CHECK-LABEL: define internal void @k.narrow_cut(
; CHECK-SAME:    #[[NARROWCUT:[0-9]+]]
; CHECK:         [[NARROWEST:%[0-9]+]] = icmp ult i64 {{%[0-9]+}}, 4
; CHECK-NEXT:    br i1 [[NARROWEST]], label %narrow.group, label %dispatch.next
; CHECK:       narrow.group:
; CHECK-NEXT:    call void @k.whole_loops(
; CHECK-LABEL: define internal void @k.vector_rows(
; CHECK-SAME:    #[[VECTORROWS:[0-9]+]]
; CHECK-LABEL: define internal void @k.vector_rows4(
; CHECK-SAME:    #[[VECTORROWS4:[0-9]+]]
; CHECK-LABEL: define void @s(
; CHECK:         [[REST:%[0-9]+]] = urem i64 {{%[0-9]+}}, 64
; CHECK-NEXT:    [[PARTIAL:%[0-9]+]] = icmp ne i64 [[REST]], 0
; CHECK-NEXT:    br i1 [[PARTIAL]], label %narrow.rows, label %dispatch.next
; CHECK:       narrow.rows:
; CHECK-NEXT:    call void @s.narrow_rows(
; CHECK:       attributes #0 = { "lockstep-context-bytes"="256" "lockstep-frame-bytes"="16" "lockstep-kernel"="k" "lockstep-private-bytes"="192" }
; CHECK:       attributes #[[WHOLE]] = { noinline "lockstep-context-bytes"="16" "lockstep-dispatched-version"="k" "lockstep-frame-bytes"="4" "lockstep-private-bytes"="16" }
; CHECK:       attributes #[[NARROWCUT]] = { noinline "lockstep-context-bytes"="128" "lockstep-dispatched-version"="k" "lockstep-frame-bytes"="6" "lockstep-private-bytes"="128" }
; CHECK:       attributes #[[VECTORROWS]] = { noinline "lockstep-context-bytes"="256" "lockstep-dispatched-version"="k" "lockstep-frame-bytes"="1" "lockstep-private-bytes"="192" }
; CHECK:       attributes #[[VECTORROWS4]] = { noinline "lockstep-context-bytes"="32" "lockstep-dispatched-version"="k" "lockstep-frame-bytes"="1" "lockstep-private-bytes"="32" }
