; The EdgeGroups version (KernelVersions.cpp, LoopCuts.cpp, GuardedLoops.cpp,
; VersionDispatch.cpp), through the work-group pipeline. A kernel whose
; guarded loop gets a copy for the groups whose work-items all pass keeps,
; in its own body, the loop whole per work-item for the groups the guard
; splits; its version for the groups at the grid's edges masks that loop
; instead. The kernel's prologue tests first whether its group is the first
; or last along a dimension of more than one work-item (group id 0 or
; number of groups - 1, global size > 1) and calls the version if so. A
; kernel without a guarded loop gets no such version.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -lockstep-edge-group-versions=false -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF


declare i64 @__lockstep.local_id(i32) memory(none)

; if (lid0 < n && lid1 < n) { sum over k < n of in[k * 1024 + lid0]; out[lid0] = sum }
define void @guarded(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="guarded" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %lid1 = call i64 @__lockstep.local_id(i32 1)
  %n64 = zext i32 %n to i64
  %in.x = icmp ult i64 %lid, %n64
  br i1 %in.x, label %check.y, label %end

check.y:
  %in.y = icmp ult i64 %lid1, %n64
  br i1 %in.y, label %then, label %end

then:
  br label %header

header:
  %k = phi i32 [ 0, %then ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %then ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; A kernel without a guarded loop: no version for the edges.
define void @plain(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="plain" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %in, i64 %lid
  store float %sum, ptr %q
  ret void
}

; A guard on the data (`if (keep[lid])`): the groups it splits lie anywhere,
; and it gets no version for the edges.
define void @on_data(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="on_data" {
prologue:
  %n = load i32, ptr %args, align 4, !invariant.load !{}
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8, !invariant.load !{}
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %kp = getelementptr i32, ptr %in, i64 %lid
  %keep = load i32, ptr %kp, align 4
  %kept = icmp ne i32 %keep, 0
  br i1 %kept, label %then, label %end

then:
  br label %header

header:
  %k = phi i32 [ 0, %then ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %then ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %row = mul i64 %k64, 1024
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %sum.next = fadd float %sum, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %in, i64 %lid
  store float %sum, ptr %q
  br label %end

end:
  ret void
}

; CHECK-LABEL: define void @guarded(
; CHECK-NOT: masked.loop
; CHECK: prologue:
; CHECK: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 3
; CHECK-NEXT: getelementptr inbounds [3 x i64], ptr %{{[0-9]+}}, i32 0, i32 0
; CHECK-NEXT: %[[GROUPSX:[0-9]+]] = load i64
; CHECK-NEXT: %[[LASTX:[0-9]+]] = sub i64 %[[GROUPSX]], 1
; CHECK-NEXT: %[[ATLASTX:[0-9]+]] = icmp eq i64 %[[IDX:[0-9]+]], %[[LASTX]]
; CHECK-NEXT: %[[ATFIRSTX:[0-9]+]] = icmp eq i64 %[[IDX]], 0
; CHECK-NEXT: %[[ENDX:[0-9]+]] = or i1 %[[ATFIRSTX]], %[[ATLASTX]]
; CHECK-NEXT: getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 4
; CHECK-NEXT: getelementptr inbounds [3 x i64]
; CHECK-NEXT: %[[GLOBALX:[0-9]+]] = load i64
; CHECK-NEXT: %[[SPREADX:[0-9]+]] = icmp ugt i64 %[[GLOBALX]], 1
; CHECK-NEXT: and i1 %[[SPREADX]], %[[ENDX]]
; CHECK: br i1 %{{[0-9]+}}, label %edge.groups, label %dispatch.next
; The whole groups' copy is cut; the split groups run the loop whole.
; CHECK: guard.some{{.*}}:
; CHECK: edge.groups:
; CHECK-NEXT: call void @guarded.edge_groups(ptr %args, ptr %group, ptr %local, ptr %context)
; CHECK-NEXT: ret void

; CHECK-LABEL: define void @plain(
; CHECK-NOT: edge.groups
; CHECK: ret void
; CHECK-LABEL: define void @on_data(
; CHECK-NOT: edge.groups
; The whole groups' copy is still made.
; CHECK: guard.all{{.*}}:
; CHECK: ret void
; CHECK-LABEL: define internal void @guarded.whole_loops(

; In the version, the split groups' loop is masked: its `active` flags
; start from the guard's, and a count of them decides each round.
; CHECK-LABEL: define internal void @guarded.edge_groups(
; CHECK: masked.loop.r:
; CHECK: masked.latch.r:
; CHECK: _Z21work_group_reduce_addi
; CHECK-NOT: define internal void @plain.edge_groups(
; CHECK-NOT: define internal void @on_data.edge_groups(

; OFF-NOT: edge_groups
; OFF-NOT: masked.loop
