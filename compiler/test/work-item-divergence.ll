; WorkItemDivergence on the SSA form: the local id and what derives from it
; differ; a kernel argument, the group geometry and arithmetic on them do
; not; a branch on a differing condition differs, and a phi that merges its
; paths differs even when its incoming values are uniform; a load through a
; kernel argument's pointer (memory other than the argument block) differs.
; RUN: %opt -passes='print<lockstep-divergence>' -disable-output %s 2>&1 | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) {
prologue:
  %n = load i32, ptr %args, align 4
  %out.slot = getelementptr i8, ptr %args, i64 8
  br label %body

body:
  %m = load i32, ptr %args, align 4
  %twice = mul i32 %m, 2
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid32 = trunc i64 %lid to i32
  %sum = add i32 %lid32, %twice
  %p = load ptr, ptr %out.slot, align 8
  %x = load i32, ptr %p, align 4
  %small = icmp ult i32 %sum, %n
  br i1 %small, label %then, label %join

then:
  br label %join

join:
  %merged = phi i32 [ 1, %then ], [ 2, %body ]
  %uniform.again = add i32 %twice, 1
  ret void
}

; CHECK-LABEL: work-item divergence of wg:
; CHECK-NOT:   differs: {{.*}}%m =
; CHECK-NOT:   differs: {{.*}}%twice =
; CHECK:       differs: {{.*}}%lid =
; CHECK:       differs: {{.*}}%lid32 =
; CHECK:       differs: {{.*}}%sum =
; CHECK-NOT:   differs: {{.*}}%p =
; CHECK:       differs: {{.*}}%x =
; CHECK:       differs: {{.*}}%small =
; CHECK:       branch differs: body
; CHECK:       differs: {{.*}}%merged =
; CHECK-NOT:   differs: {{.*}}%uniform.again
