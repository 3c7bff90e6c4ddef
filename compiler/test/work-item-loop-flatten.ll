; A region whose work-items' ids reach memory, compares and branches only as
; the linear local id (ly * size_x + lx, lz * size_x * size_y + ...) runs as
; one loop over it: x counts to the group's size, the outer loops run once
; at id 0. Regions that use lx or ly in any other way keep their rows.
; RUN: %opt -passes=lockstep-work-item-loop-flatten -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-item-loop-flatten -lockstep-work-item-loop-flatten=false -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

; A tree level over 16 x 16 groups (the vector-rows version's x loop counts
; to 16): `int l = ly * 16 + lx; if (l < o) part[l] += part[l + o];`.
define void @tree(ptr %part, i32 %o, i64 %sy, i64 %sz) {
pre:
  br label %wi.loop2
wi.loop2:
  %lid2 = phi i64 [ 0, %pre ], [ %n2, %wi.next2 ]
  br label %wi.loop1
wi.loop1:
  %lid1 = phi i64 [ 0, %wi.loop2 ], [ %n1, %wi.next1 ]
  br label %wi.loop0
wi.loop0:
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %n0, %wi.next0 ]
  %ty = trunc i64 %lid1 to i32
  %ry = shl nsw i32 %ty, 4
  %tx = trunc i64 %lid0 to i32
  %l = add nsw i32 %ry, %tx
  %c = icmp slt i32 %l, %o
  br i1 %c, label %then, label %wi.next0
then:
  %i = sext i32 %l to i64
  %p = getelementptr inbounds float, ptr %part, i64 %i
  %lo = add nsw i32 %l, %o
  %j = sext i32 %lo to i64
  %q = getelementptr inbounds float, ptr %part, i64 %j
  %a = load float, ptr %p
  %b = load float, ptr %q
  %s = fadd float %a, %b
  store float %s, ptr %p
  br label %wi.next0
wi.next0:
  %n0 = add nuw nsw i64 %lid0, 1
  %m0 = icmp ult i64 %n0, 16
  br i1 %m0, label %wi.loop0, label %wi.next1, !lockstep.work_item_loop !0
wi.next1:
  %n1 = add nuw nsw i64 %lid1, 1
  %m1 = icmp ult i64 %n1, %sy
  br i1 %m1, label %wi.loop1, label %wi.next2
wi.next2:
  %n2 = add nuw nsw i64 %lid2, 1
  %m2 = icmp ult i64 %n2, %sz
  br i1 %m2, label %wi.loop2, label %done
done:
  ret void
}
; The z loop stays (l does not grow with lz: the work-items of the next
; layer would get new linear ids); x counts to 16 * sy.
; CHECK-LABEL: define void @tree(
; CHECK: wi.loop2:
; CHECK-NEXT: %lid2 = phi i64
; CHECK-NEXT: %[[XY:linear.count[0-9]*]] = mul nuw nsw i64 16, %sy
; CHECK: wi.loop0:
; CHECK-NEXT: %lid0 = phi i64
; CHECK-NEXT: %tx = trunc i64 %lid0 to i32
; CHECK-NEXT: %c = icmp slt i32 %tx, %o
; CHECK: %m0 = icmp ult i64 %n0, %[[XY]]
; CHECK: wi.next1:
; CHECK: br i1 false, label %wi.loop1, label %wi.next2
; CHECK: wi.next2:
; CHECK: %m2 = icmp ult i64 %n2, %sz
; OFF-LABEL: define void @tree(
; OFF-NOT: linear.count
; OFF: %m0 = icmp ult i64 %n0, 16

; The context slot of a work-item, (lz * sy + ly) * sx + lx with the x loop
; counting to the run-time sx, and `ly * sx * 4 + lx * 4` (byte offsets):
; lx * 4 takes values it never had, and loses its no-wrap flags.
define void @runtime_width(ptr %ctx, ptr %out, i64 %sx, i64 %sy) {
pre:
  br label %wi.loop1
wi.loop1:
  %lid1 = phi i64 [ 0, %pre ], [ %n1, %wi.next1 ]
  br label %wi.loop0
wi.loop0:
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %n0, %wi.next0 ]
  %row = mul i64 %lid1, %sx
  %wi = add i64 %row, %lid0
  %slot = getelementptr i32, ptr %ctx, i64 %wi
  %v = load i32, ptr %slot
  %rb = mul i64 %row, 4
  %xb = mul nuw nsw i64 %lid0, 4
  %off = add i64 %rb, %xb
  %p = getelementptr i8, ptr %out, i64 %off
  store i32 %v, ptr %p
  br label %wi.next0
wi.next0:
  %n0 = add nuw nsw i64 %lid0, 1
  %m0 = icmp ult i64 %n0, %sx
  br i1 %m0, label %wi.loop0, label %wi.next1, !lockstep.work_item_loop !0
wi.next1:
  %n1 = add nuw nsw i64 %lid1, 1
  %m1 = icmp ult i64 %n1, %sy
  br i1 %m1, label %wi.loop1, label %done
done:
  ret void
}
; CHECK-LABEL: define void @runtime_width(
; CHECK: %[[XY:linear.count[0-9]*]] = mul nuw nsw i64 %sx, %sy
; CHECK: %slot = getelementptr i32, ptr %ctx, i64 %lid0
; CHECK: %xb = mul i64 %lid0, 4
; CHECK: %m0 = icmp ult i64 %n0, %[[XY]]
; CHECK: br i1 false, label %wi.loop1, label %done

; The 3-D linear id, (lz * sy + ly) * sx + lx: all three loops are one.
define void @three(ptr %out, i64 %sx, i64 %sy, i64 %sz) {
pre:
  br label %wi.loop2
wi.loop2:
  %lid2 = phi i64 [ 0, %pre ], [ %n2, %wi.next2 ]
  br label %wi.loop1
wi.loop1:
  %lid1 = phi i64 [ 0, %wi.loop2 ], [ %n1, %wi.next1 ]
  br label %wi.loop0
wi.loop0:
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %n0, %wi.next0 ]
  %zy = mul i64 %lid2, %sy
  %zy1 = add i64 %zy, %lid1
  %zyx = mul i64 %zy1, %sx
  %l = add i64 %zyx, %lid0
  %p = getelementptr i32, ptr %out, i64 %l
  store i32 1, ptr %p
  br label %wi.next0
wi.next0:
  %n0 = add nuw nsw i64 %lid0, 1
  %m0 = icmp ult i64 %n0, %sx
  br i1 %m0, label %wi.loop0, label %wi.next1, !lockstep.work_item_loop !0
wi.next1:
  %n1 = add nuw nsw i64 %lid1, 1
  %m1 = icmp ult i64 %n1, %sy
  br i1 %m1, label %wi.loop1, label %wi.next2
wi.next2:
  %n2 = add nuw nsw i64 %lid2, 1
  %m2 = icmp ult i64 %n2, %sz
  br i1 %m2, label %wi.loop2, label %done
done:
  ret void
}
; CHECK-LABEL: define void @three(
; CHECK: pre:
; CHECK-NEXT: %[[XY:linear.count[0-9]*]] = mul nuw nsw i64 %sx, %sy
; CHECK-NEXT: %[[XYZ:linear.count[0-9]*]] = mul nuw nsw i64 %[[XY]], %sz
; CHECK: %p = getelementptr i32, ptr %out, i64 %lid0
; CHECK: %m0 = icmp ult i64 %n0, %[[XYZ]]
; CHECK: br i1 false, label %wi.loop1, label %wi.next2
; CHECK: br i1 false, label %wi.loop2, label %done

; `ly * 8 + lx` in rows of 16: not the linear id.
define void @other_width(ptr %out) {
pre:
  br label %wi.loop1
wi.loop1:
  %lid1 = phi i64 [ 0, %pre ], [ %n1, %wi.next1 ]
  br label %wi.loop0
wi.loop0:
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %n0, %wi.next0 ]
  %r = mul i64 %lid1, 8
  %l = add i64 %r, %lid0
  %p = getelementptr i32, ptr %out, i64 %l
  store i32 1, ptr %p
  br label %wi.next0
wi.next0:
  %n0 = add nuw nsw i64 %lid0, 1
  %m0 = icmp ult i64 %n0, 16
  br i1 %m0, label %wi.loop0, label %wi.next1, !lockstep.work_item_loop !0
wi.next1:
  %n1 = add nuw nsw i64 %lid1, 1
  %m1 = icmp ult i64 %n1, 16
  br i1 %m1, label %wi.loop1, label %done
done:
  ret void
}
; CHECK-LABEL: define void @other_width(
; CHECK-NOT: linear.count
; CHECK: %m0 = icmp ult i64 %n0, 16
; CHECK: %m1 = icmp ult i64 %n1, 16

; A global id (group base + lx) and `if (lx == 0)`: lx alone.
define void @lx_alone(ptr %out, i64 %base) {
pre:
  br label %wi.loop1
wi.loop1:
  %lid1 = phi i64 [ 0, %pre ], [ %n1, %wi.next1 ]
  br label %wi.loop0
wi.loop0:
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %n0, %wi.next0 ]
  %r = mul i64 %lid1, 16
  %l = add i64 %r, %lid0
  %first = icmp eq i64 %lid0, 0
  br i1 %first, label %then, label %wi.next0
then:
  %p = getelementptr i32, ptr %out, i64 %l
  store i32 1, ptr %p
  br label %wi.next0
wi.next0:
  %n0 = add nuw nsw i64 %lid0, 1
  %m0 = icmp ult i64 %n0, 16
  br i1 %m0, label %wi.loop0, label %wi.next1, !lockstep.work_item_loop !0
wi.next1:
  %n1 = add nuw nsw i64 %lid1, 1
  %m1 = icmp ult i64 %n1, 16
  br i1 %m1, label %wi.loop1, label %done
done:
  ret void
}
; CHECK-LABEL: define void @lx_alone(
; CHECK-NOT: linear.count
; CHECK: %m1 = icmp ult i64 %n1, 16

; A division by a value of lx (not the linear id) could trap where no
; work-item did: `l + 64 / (lx + 1) - 64 / (lx + 1)`.
define void @division(ptr %out) {
pre:
  br label %wi.loop1
wi.loop1:
  %lid1 = phi i64 [ 0, %pre ], [ %n1, %wi.next1 ]
  br label %wi.loop0
wi.loop0:
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %n0, %wi.next0 ]
  %r = mul i64 %lid1, 16
  %l = add i64 %r, %lid0
  %x1 = add i64 %lid0, 1
  %d = udiv i64 64, %x1
  %u = add i64 %l, %d
  %v = sub i64 %u, %d
  %p = getelementptr i32, ptr %out, i64 %v
  store i32 1, ptr %p
  br label %wi.next0
wi.next0:
  %n0 = add nuw nsw i64 %lid0, 1
  %m0 = icmp ult i64 %n0, 16
  br i1 %m0, label %wi.loop0, label %wi.next1, !lockstep.work_item_loop !0
wi.next1:
  %n1 = add nuw nsw i64 %lid1, 1
  %m1 = icmp ult i64 %n1, 16
  br i1 %m1, label %wi.loop1, label %done
done:
  ret void
}
; CHECK-LABEL: define void @division(
; CHECK-NOT: linear.count
; CHECK: ret void

!0 = !{}
