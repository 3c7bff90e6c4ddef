; Loops of a work-group function whose trip count scalar evolution cannot
; compute poll GroupInfo::stop (field 14) on their back edges (all of them
; through one block), after the trip's stores, and call the runtime to leave the group when it is set (which comes
; back to a frame that holds the call: willreturn, so that LICM may still keep
; what the loop stores in registers); counted loops do not. So do
; the versions of a kernel it calls for narrow groups (KernelVersions.cpp), and
; a kernel that calls a polling version is marked as polling.
; RUN: %opt -passes=lockstep-stop-poll -S %s | FileCheck %s

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64, ptr }

define void @__lockstep_wg_k(ptr %args, ptr %group, ptr %local, ptr %context) #0 {
entry:
  %flag = load ptr, ptr %args, align 8
  br label %counted

counted:
  %i = phi i64 [ 0, %entry ], [ %i.next, %counted ]
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 16
  br i1 %done, label %wait, label %counted

wait:
  %v = load volatile i32, ptr %flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %wait, label %exit

exit:
  ret void
}

define void @__lockstep_wg_v(ptr %args, ptr %group, ptr %local, ptr %context) #0 {
entry:
  call void @__lockstep_wg_v.narrow(ptr %args, ptr %group, ptr %local, ptr %context)
  ret void
}

define internal void @__lockstep_wg_v.narrow(ptr %args, ptr %group, ptr %local, ptr %context) #1 {
entry:
  %flag = load ptr, ptr %args, align 8
  br label %wait

wait:
  %v = load volatile i32, ptr %flag, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %wait, label %exit

exit:
  ret void
}

; A latch whose switch goes back by two cases: both go through the poll.
define void @__lockstep_wg_s(ptr %args, ptr %group, ptr %local, ptr %context) #2 {
entry:
  %flag = load ptr, ptr %args, align 8
  br label %wait

wait:
  %n = phi i32 [ 0, %entry ], [ %v, %wait ], [ %v, %wait ]
  %v = load volatile i32, ptr %flag, align 4
  switch i32 %v, label %exit [
    i32 1, label %wait
    i32 2, label %wait
  ]

exit:
  ret void
}

; A sparse row's loop, `for (k = rowptr[r]; k < rowptr[r + 1]; k++)`: its
; bound is loaded in the header from an address the loop does not change,
; and the loop writes nothing; the load moves to the preheader, the count
; becomes computable and the loop does not poll. The second loop stores
; where its bound may be: it keeps its load and polls.
define void @__lockstep_wg_r(ptr %args, ptr %group, ptr %local, ptr %context) #3 {
entry:
  %rowptr = load ptr, ptr %args, align 8
  %out = getelementptr i8, ptr %args, i64 8
  %r = load i32, ptr %out, align 4
  %first = load i32, ptr %rowptr, align 4
  br label %row

row:
  %k = phi i32 [ %first, %entry ], [ %k.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %r.ext = sext i32 %r to i64
  %endp = getelementptr i32, ptr %rowptr, i64 %r.ext
  %end = load i32, ptr %endp, align 4
  %more = icmp slt i32 %k, %end
  br i1 %more, label %body, label %wpre

body:
  %s.next = add i32 %s, %k
  %k.next = add nsw i32 %k, 1
  br label %row

wpre:
  br label %written

written:
  %k2 = phi i32 [ 0, %wpre ], [ %k2.next, %wbody ]
  %end2 = load i32, ptr %rowptr, align 4
  %more2 = icmp slt i32 %k2, %end2
  br i1 %more2, label %wbody, label %exit

wbody:
  %slot = getelementptr i32, ptr %out, i32 %k2
  store i32 %s, ptr %slot, align 4
  %k2.next = add nsw i32 %k2, 1
  br label %written

exit:
  ret void
}

; A window's loop, `for (i = x; i < x + size.x; i++)` with `size` a vector
; argument: the header's arithmetic on values from outside the loop (the
; element, the sum) moves to the preheader, the count becomes computable
; and the loop does not poll.
define void @__lockstep_wg_e(ptr %args, ptr %group, ptr %local, ptr %context) #1 {
entry:
  %sizep = getelementptr i8, ptr %args, i64 8
  %size = load <2 x i32>, ptr %sizep, align 8
  %x = load i32, ptr %args, align 4
  br label %window

window:
  %i = phi i32 [ %x, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %w = extractelement <2 x i32> %size, i64 0
  %end = add i32 %x, %w
  %more = icmp ult i32 %i, %end
  br i1 %more, label %body, label %exit

body:
  %s.next = add i32 %s, %i
  %i.next = add i32 %i, 1
  br label %window

exit:
  store i32 %s, ptr %args, align 4
  ret void
}

attributes #0 = { "lockstep-kernel"="k" "lockstep-work-group-code" }
attributes #2 = { "lockstep-kernel"="s" "lockstep-work-group-code" }
attributes #1 = { "lockstep-work-group-code" }
attributes #3 = { "lockstep-kernel"="r" "lockstep-work-group-code" }

; CHECK-LABEL: define void @__lockstep_wg_k(
; CHECK: entry:
; CHECK: %[[FIELD:.*]] = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 14
; CHECK: %stop.word = load ptr, ptr %[[FIELD]], align 8, !invariant.load
; CHECK: counted:
; CHECK-NOT: load atomic
; CHECK: stop.poll:
; CHECK-NEXT: %stop = load atomic i32, ptr %stop.word monotonic, align 4
; CHECK-NEXT: %[[SET:.*]] = icmp ne i32 %stop, 0
; CHECK-NEXT: br i1 %[[SET]], label %stop.group, label %[[BACK:.*]], !prof
; CHECK: stop.group:
; CHECK-NEXT: call void @__lockstep_stop_group()
; CHECK-NEXT: br label %[[BACK]]
; CHECK: [[BACK]]:
; CHECK-NEXT: br label %wait
; CHECK: wait:
; CHECK-NEXT: %v = load volatile i32, ptr %flag
; CHECK-NEXT: %zero = icmp eq i32 %v, 0
; CHECK-NEXT: br i1 %zero, label %stop.poll, label %exit
; CHECK-LABEL: define void @__lockstep_wg_v(
; CHECK-NOT: load atomic
; CHECK: ret void
; CHECK-LABEL: define internal void @__lockstep_wg_v.narrow(
; CHECK: stop.poll:
; CHECK-NEXT: %stop = load atomic i32, ptr %stop.word monotonic, align 4
; CHECK-LABEL: define void @__lockstep_wg_s(
; CHECK: stop.poll: ; preds = %wait, %wait
; CHECK-NEXT: %stop = load atomic i32
; CHECK: wait: ; preds = %{{[0-9]+}}, %entry
; CHECK-NEXT: %n = phi i32 [ 0, %entry ], [ %v, %{{[0-9]+}} ]
; CHECK: switch i32 %v, label %exit [
; CHECK-NEXT: i32 1, label %stop.poll
; CHECK-NEXT: i32 2, label %stop.poll
; CHECK-LABEL: define void @__lockstep_wg_r(
; CHECK: %endp = getelementptr i32, ptr %rowptr, i64 %r.ext
; CHECK-NEXT: %end = load i32, ptr %endp, align 4
; CHECK: br label %row
; CHECK: row:
; CHECK-NOT: load
; CHECK: br i1 %more, label %body, label %wpre
; CHECK: stop.poll:
; CHECK: written:
; CHECK-NEXT: %k2 = phi
; CHECK-NEXT: %end2 = load i32, ptr %rowptr
; CHECK-LABEL: define void @__lockstep_wg_e(
; CHECK: %w = extractelement <2 x i32> %size, i64 0
; CHECK-NEXT: %end = add i32 %x, %w
; CHECK-NEXT: br label %window
; CHECK-NOT: load atomic
; CHECK: ret void
; CHECK: declare void @__lockstep_stop_group() #[[ATTRS:[0-9]+]]
; CHECK: attributes #0 = { "lockstep-kernel"="k" "lockstep-stop-polls" "lockstep-work-group-code" }
; CHECK: attributes #1 = { "lockstep-work-group-code" }
; CHECK: attributes #3 = { "lockstep-kernel"="r" "lockstep-stop-polls" "lockstep-work-group-code" }
; CHECK: attributes #[[ATTRS]] = { cold nounwind willreturn memory(inaccessiblemem: readwrite) }
