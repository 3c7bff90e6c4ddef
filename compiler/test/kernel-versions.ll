; lockstep-kernel-versions alone: a kernel with a loop is cloned into a
; version that keeps its loops whole, a narrow-cut version and ones for rows
; of 16 and of 4 work-items (vector rows, each with its width), and, since it
; has no barrier and reads no y or z id (so it may run in strips), one with
; loop cuts over whole rows (whole_rows); all internal,
; marked with their kind and listed on the kernel; a straight-line kernel
; gets a masked-tail version only with fold-narrow-rows (targets with masked
; vector memory access). Every one is marked as work-group code, a
; straight-line one as such.
; RUN: %opt -passes=lockstep-kernel-versions -S %s | FileCheck %s --check-prefixes=CHECK,PLAIN
; RUN: %opt -passes='lockstep-kernel-versions<fold-narrow-rows>' -S %s | FileCheck %s --check-prefixes=CHECK,FOLD

declare i64 @__lockstep.local_id(i32) memory(none)

define void @loop(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="loop" {
prologue:
  %n = load i32, ptr %args, align 4
  br label %entry

entry:
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %header ]
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %n
  br i1 %more, label %header, label %done

done:
  ret void
}

define void @straight(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="straight" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 8
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %q = getelementptr float, ptr %out, i64 %lid
  store float 1.0, ptr %q
  ret void
}

; CHECK:      define void @loop({{.*}}) #[[LOOP:[0-9]+]] !lockstep.versions [[LOOPVERSIONS:![0-9]+]] {
; PLAIN:      define void @straight({{.*}}) #[[STRAIGHT:[0-9]+]] {
; FOLD:       define void @straight({{.*}}) #[[STRAIGHT:[0-9]+]] !lockstep.versions [[ROWS:![0-9]+]] {
; CHECK:      define internal void @loop.whole_loops({{.*}}) #[[WHOLE:[0-9]+]] {
; CHECK:      define internal void @loop.whole_rows({{.*}}) #[[WHOLEROWS:[0-9]+]] {
; CHECK:      define internal void @loop.narrow_cut({{.*}}) #[[NARROWCUT:[0-9]+]] {
; CHECK:      define internal void @loop.vector_rows({{.*}}) #[[VECTORROWS:[0-9]+]] {
; CHECK:      define internal void @loop.vector_rows4({{.*}}) #[[VECTORROWS4:[0-9]+]] {
; PLAIN-NOT:  @straight.narrow_rows
; FOLD:       define internal void @straight.narrow_rows({{.*}}) #[[NARROWROWS:[0-9]+]] {
; CHECK:      attributes #[[LOOP]] = { "lockstep-kernel"="loop" "lockstep-work-group-code" }
; CHECK:      attributes #[[STRAIGHT]] = { "lockstep-kernel"="straight" "lockstep-straight-line" "lockstep-work-group-code" }
; CHECK:      attributes #[[WHOLE]] = { "lockstep-kernel"="loop" "lockstep-work-group-code" "lockstep-work-group-version"="whole-loops" }
; CHECK:      attributes #[[WHOLEROWS]] = { "lockstep-kernel"="loop" "lockstep-work-group-code" "lockstep-work-group-version"="whole-rows" }
; CHECK:      attributes #[[NARROWCUT]] = { "lockstep-kernel"="loop" "lockstep-work-group-code" "lockstep-work-group-version"="narrow-cut" }
; CHECK:      attributes #[[VECTORROWS]] = { "lockstep-kernel"="loop" "lockstep-row-width"="16" "lockstep-work-group-code" "lockstep-work-group-version"="vector-rows" }
; CHECK:      attributes #[[VECTORROWS4]] = { "lockstep-kernel"="loop" "lockstep-row-width"="4" "lockstep-work-group-code" "lockstep-work-group-version"="vector-rows" }
; FOLD:       attributes #[[NARROWROWS]] = { "lockstep-kernel"="straight" "lockstep-straight-line" "lockstep-work-group-code" "lockstep-work-group-version"="narrow-rows" }
; CHECK:      [[LOOPVERSIONS]] = !{ptr @loop.whole_loops, ptr @loop.whole_rows, ptr @loop.narrow_cut, ptr @loop.edge_groups, ptr @loop.vector_rows, ptr @loop.vector_rows4}
; FOLD:       [[ROWS]] = !{ptr @straight.narrow_rows}
