; lockstep-loop-cuts on a search loop that each work-item leaves by a
; `break` at its own round: its two exit blocks, the bound's empty one that
; only goes on to the code after the loop and that code itself (the
; break's), become one (the empty block goes, the phi after the loop takes
; its value from the header), and the loop, its trip count differing
; between work-items, is masked (which gives the phi's values to memory). A loop whose second exit block does work of
; its own keeps both exits and is left alone.
; RUN: %opt -passes=lockstep-loop-cuts -lockstep-last-round-max-size=0 -lockstep-strip-vectors=0 -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)

; h = -1; for (s = 0; s < n; s++) if (table[s] == key[lid]) { h = s; break; }
define void @search(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="search" {
prologue:
  %n = load i32, ptr %args, align 4
  %tp = getelementptr i8, ptr %args, i64 8
  %table = load ptr, ptr %tp, align 8
  %kp = getelementptr i8, ptr %args, i64 16
  %keys = load ptr, ptr %kp, align 8
  %outp = getelementptr i8, ptr %args, i64 24
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %kq = getelementptr i32, ptr %keys, i64 %lid
  %key = load i32, ptr %kq, align 4
  br label %header

header:
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  %more = icmp slt i32 %s, %n
  br i1 %more, label %body, label %cleanup

body:
  %s64 = zext i32 %s to i64
  %p = getelementptr i32, ptr %table, i64 %s64
  %t = load i32, ptr %p, align 4
  %hit = icmp eq i32 %t, %key
  br i1 %hit, label %after, label %latch

latch:
  %s.next = add nsw i32 %s, 1
  br label %header

cleanup:
  br label %after

after:
  %h = phi i32 [ -1, %cleanup ], [ %s, %body ]
  %q = getelementptr i32, ptr %out, i64 %lid
  store i32 %h, ptr %q, align 4
  ret void
}

; The same loop, but what the bound's exit does before the code after the
; loop is work of its own: two exits stay, and the loop is not masked.
define void @search_with_work(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="search_with_work" {
prologue:
  %n = load i32, ptr %args, align 4
  %tp = getelementptr i8, ptr %args, i64 8
  %table = load ptr, ptr %tp, align 8
  %kp = getelementptr i8, ptr %args, i64 16
  %keys = load ptr, ptr %kp, align 8
  %outp = getelementptr i8, ptr %args, i64 24
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %kq = getelementptr i32, ptr %keys, i64 %lid
  %key = load i32, ptr %kq, align 4
  br label %header

header:
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  %more = icmp slt i32 %s, %n
  br i1 %more, label %body, label %cleanup

body:
  %s64 = zext i32 %s to i64
  %p = getelementptr i32, ptr %table, i64 %s64
  %t = load i32, ptr %p, align 4
  %hit = icmp eq i32 %t, %key
  br i1 %hit, label %after, label %latch

latch:
  %s.next = add nsw i32 %s, 1
  br label %header

cleanup:
  %q0 = getelementptr i32, ptr %out, i64 %lid
  store i32 0, ptr %q0, align 4
  br label %after

after:
  %h = phi i32 [ -1, %cleanup ], [ %s, %body ]
  %q = getelementptr i32, ptr %out, i64 %lid
  store i32 %h, ptr %q, align 4
  ret void
}

; The phi after the loop, masked, goes through memory: -1 stored where the
; header leaves, the round's s where the body does.
; CHECK-LABEL: define void @search(
; CHECK:         %loop.active = alloca i32
; CHECK-NOT:   cleanup:
; CHECK:         store i32 -1, ptr %h.reg2mem
; CHECK:         store i32 %s.at.round, ptr %h.reg2mem
; CHECK-NEXT:    br i1 %hit, label %masked.exit, label %latch
; CHECK:       after:
; CHECK-NEXT:    %h.reload = load i32, ptr %h.reg2mem
; CHECK-LABEL: define void @search_with_work(
; CHECK-NOT:     %loop.active
; CHECK:       cleanup:
; CHECK-NEXT:    %q0 =
; CHECK:       after:
; CHECK-NEXT:    %h = phi i32 [ -1, %cleanup ], [ %s, %body ]
