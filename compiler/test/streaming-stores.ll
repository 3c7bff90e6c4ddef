; In a straight-line kernel, a loop that stores whole vectors to consecutive
; global addresses gets a second copy with non-temporal stores, run when every
; store starts aligned to its size (a cache line for wider ones) and the launch stores at least the
; last-level cache (GroupInfo::streamingStoreMiB)
; (groups times what one run of the loop stores). The launcher fences the
; stores after each run of groups (WorkGroupLauncher.cpp).
; RUN: %opt -passes=lockstep-streaming-stores -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64 }

; c[x] = a[x] + b[x] for x in [0, 8 * n), eight at a time.
define void @add(ptr %args, ptr %group, ptr %local, ptr %context, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i64 %n) "lockstep-straight-line" {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %i
  %pb = getelementptr inbounds <8 x float>, ptr addrspace(1) %b, i64 %i
  %pc = getelementptr inbounds <8 x float>, ptr addrspace(1) %c, i64 %i
  %va = load <8 x float>, ptr addrspace(1) %pa, align 4
  %vb = load <8 x float>, ptr addrspace(1) %pb, align 4
  %sum = fadd <8 x float> %va, %vb
  store <8 x float> %sum, ptr addrspace(1) %pc, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  %last = phi <8 x float> [ %sum, %loop ]
  store <8 x float> %last, ptr %context, align 4
  ret void
}

; CHECK-LABEL: define void @add(
; CHECK-SAME: #[[STREAMS:[0-9]+]] {
; The check: c aligned to 32 bytes, and groups * runs * 32 at least the
; launch's streamingStoreMiB (GroupInfo field 7) MiB.
; CHECK: entry:
; CHECK: %[[C:[0-9]+]] = ptrtoint ptr addrspace(1) %c to i64
; CHECK-NEXT: %[[LOW:[0-9]+]] = and i64 %[[C]], 31
; CHECK-NEXT: %[[ALIGNED:[0-9]+]] = icmp eq i64 %[[LOW]], 0
; CHECK: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 3
; CHECK: %[[BYTES:[0-9]+]] = mul i64 %{{[0-9]+}}, 32
; CHECK-NEXT: %[[FIELD:[0-9]+]] = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 7
; CHECK-NEXT: %[[MIB:[0-9]+]] = load i32, ptr %[[FIELD]], align 4, !invariant.load
; CHECK-NEXT: %[[ENOUGH:[0-9]+]] = zext i32 %[[MIB]] to i64
; CHECK-NEXT: %[[LIMIT:[0-9]+]] = shl i64 %[[ENOUGH]], 20
; CHECK-NEXT: %[[BIG:[0-9]+]] = icmp uge i64 %[[BYTES]], %[[LIMIT]]
; CHECK-NEXT: %stream.stores = and i1 %[[ALIGNED]], %[[BIG]]
; CHECK-NEXT: br i1 %stream.stores, label %stream.not.stream, label %stream.not
; The copy: the same loop with aligned non-temporal stores.
; CHECK: loop.stream:
; CHECK: store <8 x float> %sum.stream, ptr addrspace(1) %pc.stream, align 32, !nontemporal ![[NT:[0-9]+]]
; CHECK: br i1 %more.stream, label %loop.stream, label %done
; The original loop keeps its ordinary stores.
; CHECK: loop:
; CHECK: store <8 x float> %sum, ptr addrspace(1) %pc, align 4{{$}}
; Both reach the exit, which takes each loop's last value.
; CHECK: done:
; CHECK-NEXT: %last = phi <8 x float> [ %sum, %loop ], [ %sum.stream, %loop.stream ]
; The launcher fences the stores after a run of groups, not each group.
; CHECK-NOT: sfence
; CHECK: ret void

; out[i] = x[i] with `int i = get_global_id(0)` on float4, as the vectorizer
; leaves it: eight float4s (128 bytes) a trip at a sign-extended 32-bit
; index. The copy runs when the first store is aligned to a cache line (the
; backend splits the store in two) and the 32-bit index does not wrap in
; the loop (the predicate's check, true where it fails, negated).
define void @copy_int_index(ptr %args, ptr %group, ptr %local, ptr %context, ptr addrspace(1) %x, ptr addrspace(1) %out, i64 %base, i64 %n) "lockstep-straight-line" {
entry:
  %runs = and i64 %n, -8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %g = add i64 %base, %i
  %high = shl i64 %g, 32
  %index = ashr exact i64 %high, 32
  %px = getelementptr inbounds <4 x float>, ptr addrspace(1) %x, i64 %index
  %v = load <32 x float>, ptr addrspace(1) %px, align 4
  %po = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %index
  store <32 x float> %v, ptr addrspace(1) %po, align 4
  %i.next = add nuw i64 %i, 8
  %more = icmp ne i64 %i.next, %runs
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define void @copy_int_index(
; CHECK-SAME: #[[STREAMS]] {
; CHECK: %[[FIRST:[0-9]+]] = ptrtoint ptr addrspace(1) %scevgep to i64
; CHECK-NEXT: %[[LOW:[0-9]+]] = and i64 %[[FIRST]], 63
; CHECK-NEXT: %[[ALIGNED:[0-9]+]] = icmp eq i64 %[[LOW]], 0
; CHECK: %[[BYTES:[0-9]+]] = mul i64 %{{[0-9]+}}, 128
; CHECK: %[[BIG:[0-9]+]] = icmp uge i64 %[[BYTES]],
; CHECK-NEXT: %[[BOTH:[0-9]+]] = and i1 %[[ALIGNED]], %[[BIG]]
; CHECK: @llvm.umul.with.overflow.i32
; CHECK: %[[WRAPS:[0-9]+]] = or i1 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: %[[NOWRAP:[0-9]+]] = xor i1 %[[WRAPS]], true
; CHECK-NEXT: %stream.stores = and i1 %[[BOTH]], %[[NOWRAP]]
; CHECK: loop.stream:
; CHECK: store <32 x float> %v.stream, ptr addrspace(1) %po.stream, align 64, !nontemporal
; CHECK: loop:
; CHECK: store <32 x float> %v, ptr addrspace(1) %po, align 4{{$}}
; CHECK: ret void

; A loop that also stores a scalar is left alone.
define void @mixed(ptr %args, ptr %group, ptr %local, ptr %context, ptr addrspace(1) %c, ptr addrspace(1) %d, i64 %n) "lockstep-straight-line" {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pc = getelementptr inbounds <8 x float>, ptr addrspace(1) %c, i64 %i
  store <8 x float> zeroinitializer, ptr addrspace(1) %pc, align 4
  %pd = getelementptr inbounds float, ptr addrspace(1) %d, i64 %i
  store float 0.0, ptr addrspace(1) %pd, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define void @mixed(
; CHECK-SAME: #[[PLAIN:[0-9]+]] {
; CHECK-NOT: nontemporal
; CHECK-NOT: sfence
; CHECK: ret void

; y[x] = y[x] * 2 + z[x] (an update in place) beside w[x] = z[x]: only the
; store to w, which the loop does not read, is streamed.
define void @in_place(ptr %args, ptr %group, ptr %local, ptr %context, ptr addrspace(1) %y, ptr addrspace(1) %z, ptr addrspace(1) %w, i64 %n) "lockstep-straight-line" {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %py = getelementptr inbounds <8 x float>, ptr addrspace(1) %y, i64 %i
  %pz = getelementptr inbounds <8 x float>, ptr addrspace(1) %z, i64 %i
  %pw = getelementptr inbounds <8 x float>, ptr addrspace(1) %w, i64 %i
  %vy = load <8 x float>, ptr addrspace(1) %py, align 4
  %vz = load <8 x float>, ptr addrspace(1) %pz, align 4
  %twice = fadd <8 x float> %vy, %vy
  %sum = fadd <8 x float> %twice, %vz
  store <8 x float> %sum, ptr addrspace(1) %py, align 4
  store <8 x float> %vz, ptr addrspace(1) %pw, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define void @in_place(
; CHECK: loop.stream:
; CHECK: store <8 x float> %sum.stream, ptr addrspace(1) %py.stream, align 4{{$}}
; CHECK-NEXT: store <8 x float> %vz.stream, ptr addrspace(1) %pw.stream, align 32, !nontemporal
; CHECK: ret void

; Only an update in place: no copy.
define void @only_in_place(ptr %args, ptr %group, ptr %local, ptr %context, ptr addrspace(1) %y, i64 %n) "lockstep-straight-line" {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %py = getelementptr inbounds <8 x float>, ptr addrspace(1) %y, i64 %i
  %vy = load <8 x float>, ptr addrspace(1) %py, align 4
  %twice = fadd <8 x float> %vy, %vy
  store <8 x float> %twice, ptr addrspace(1) %py, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define void @only_in_place(
; CHECK-NOT: nontemporal
; CHECK: ret void

; A kernel with loops of its own (not straight-line) is left alone.
define void @not_straight(ptr %args, ptr %group, ptr %local, ptr %context, ptr addrspace(1) %c, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pc = getelementptr inbounds <8 x float>, ptr addrspace(1) %c, i64 %i
  store <8 x float> zeroinitializer, ptr addrspace(1) %pc, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

; CHECK-LABEL: define void @not_straight(
; CHECK-NOT: nontemporal
; CHECK: ret void

; A kernel with such a copy is marked, so the launcher fences its stores;
; the others are not.
; CHECK: attributes #[[STREAMS]] = { "lockstep-straight-line" "lockstep-streaming-stores" }
; CHECK: attributes #[[PLAIN]] = { "lockstep-straight-line" }
; The marker of the copy's stores.
; CHECK: ![[NT]] = !{i32 1}
