; A straight-line kernel whose stores all run down columns
; ("lockstep-column-stores", GroupShapePass: out[x * H + y] = in[y * W + x])
; runs its work-item loops z, x, y from the outside in: the vectorizer widens
; the loop over y, along which the stores are consecutive. The passes that
; reshape the loop over x (WorkItemLoopFlatten, WorkItemLoopSplit) find no
; mark on it; the loop over y is parallel. A kernel with a barrier keeps z,
; y, x.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @transpose(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="transpose" "lockstep-column-stores" {
prologue:
  %in = load ptr addrspace(1), ptr %args, align 8
  %outp = getelementptr i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %outp, align 8
  br label %body
body:
  %x = call i64 @__lockstep.local_id(i32 0)
  %y = call i64 @__lockstep.local_id(i32 1)
  %yw = mul i64 %y, 64
  %i = add i64 %yw, %x
  %p = getelementptr float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %xh = mul i64 %x, 64
  %j = add i64 %xh, %y
  %q = getelementptr float, ptr addrspace(1) %out, i64 %j
  store float %v, ptr addrspace(1) %q, align 4
  ret void
}

define void @with_barrier(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="with_barrier" "lockstep-column-stores" {
prologue:
  %outp = getelementptr i8, ptr %args, i64 8
  %out = load ptr addrspace(1), ptr %outp, align 8
  br label %body
body:
  %x = call i64 @__lockstep.local_id(i32 0)
  %y = call i64 @__lockstep.local_id(i32 1)
  call void @_Z7barrierj(i32 1)
  %xh = mul i64 %x, 64
  %j = add i64 %xh, %y
  %q = getelementptr float, ptr addrspace(1) %out, i64 %j
  store float 1.0, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @transpose(
; CHECK:       wi.loop2:
; CHECK:       br label %wi.loop0
; CHECK:       wi.loop0:
; CHECK-NEXT:  %lid0 = phi i64 [ 0, %wi.loop2 ], [ %{{[0-9]+}}, %wi.next0 ]
; CHECK-NEXT:  br label %wi.loop1
; CHECK:       wi.loop1:
; CHECK-NEXT:  %lid1 = phi i64 [ 0, %wi.loop0 ], [ %{{[0-9]+}}, %wi.next1 ]
; CHECK:       wi.next1:
; CHECK-NEXT:  %[[NEXT:[0-9]+]] = add nuw nsw i64 %lid1, 1
; CHECK-NEXT:  %[[MORE:[0-9]+]] = icmp ult i64 %[[NEXT]], %{{[0-9]+}}
; CHECK-NEXT:  br i1 %[[MORE]], label %wi.loop1, label %wi.next0, !llvm.loop ![[YLOOP:[0-9]+]]{{$}}
; CHECK-LABEL: define void @with_barrier(
; CHECK:       wi.next0:
; CHECK:       br i1 %{{[0-9]+}}, label %wi.loop0, label %wi.next1, !llvm.loop !{{[0-9]+}}, !lockstep.work_item_loop
; CHECK:       ![[YLOOP]] = distinct !{![[YLOOP]], ![[PARALLEL:[0-9]+]]}
; CHECK:       ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses",
