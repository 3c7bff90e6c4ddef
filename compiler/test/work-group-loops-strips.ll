; A kernel whose only cuts are its loops' (no barrier or collective of its
; own, no y or z id) runs its region machine strip by strip (Strips.cpp):
; strips of 64 work-items of a row (4 vectors of 16 floats), each running
; every trip of the cut loop before the next strip starts, over a work-item
; loop of a constant 64 trips counted from 0. Decisions and uniform
; variables are kept once; a masked loop's count is over the strip and is
; compared with the strip's size. The kernel records its strip width, and a
; version with loop cuts over whole rows (whole_rows) is kept for widths the
; strips do not divide. A kernel that reads its y id keeps whole rows.
; In strips, a sign extension of `nsw` arithmetic on an `int` global id is
; that arithmetic in 64 bits (the truncation is exact where the launch's ids
; along x are at most INT_MAX, which the kernel records and the dispatch
; tests, sending other launches to whole_rows). A loop that touches no
; memory at a work-item's own address (it only computes) keeps whole rows:
; its dependent chains want more work-items in flight than a strip has.
; RUN: %opt -passes=lockstep-work-group -lockstep-last-round-max-size=0 -S %s | FileCheck %s
; RUN: %opt -passes=lockstep-work-group -lockstep-last-round-max-size=0 -lockstep-strip-vectors=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64, ptr }

declare i64 @__lockstep.local_id(i32) memory(none)

; int i = get_global_id(0); for (k = 0; k < n; k++) acc += in[i + k]; out[i] = acc
define void @int_ids(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="int_ids" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  %ids = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 0
  %idx.p = getelementptr inbounds [3 x i64], ptr %ids, i32 0, i32 0
  %group.x = load i64, ptr %idx.p, align 8
  %sizes = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 2
  %size.p = getelementptr inbounds [3 x i64], ptr %sizes, i32 0, i32 0
  %size.x = load i64, ptr %size.p, align 8
  %offsets = getelementptr inbounds %lockstep.GroupInfo, ptr %group, i32 0, i32 5
  %offset.p = getelementptr inbounds [3 x i64], ptr %offsets, i32 0, i32 0
  %offset.x = load i64, ptr %offset.p, align 8
  %first = mul i64 %group.x, %size.x
  %global.base = add i64 %first, %offset.x
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %gid = add i64 %global.base, %lid
  %i = trunc i64 %gid to i32
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %at = add nsw i32 %i, %k
  %at64 = sext i32 %at to i64
  %p = getelementptr float, ptr %in, i64 %at64
  %v = load float, ptr %p
  %acc.next = fadd float %acc, %v
  %k.next = add nsw i32 %k, 1
  br label %header

done:
  %i64 = sext i32 %i to i64
  %q = getelementptr float, ptr %out, i64 %i64
  store float %acc, ptr %q
  ret void
}

; for (k = 0; k < n; k++) acc += in[lid + k]; out[lid] = acc
define void @conv(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="conv" {
prologue:
  %n = load i32, ptr %args, align 4
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %idx = add i64 %lid, %k64
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %acc.next = fadd float %acc, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %acc, ptr %q
  ret void
}

; for (i = 0; i < lid % 7; i++) acc += in[i * 64 + lid]: a masked loop (its
; trip count differs), its count of active work-items over the strip.
define void @masked(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="masked" {
prologue:
  %inp = getelementptr i8, ptr %args, i64 8
  %in = load ptr, ptr %inp, align 8
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %trips = urem i64 %lid, 7
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %more = icmp ult i64 %i, %trips
  br i1 %more, label %body, label %done

body:
  %row = mul i64 %i, 64
  %idx = add i64 %row, %lid
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %acc.next = fadd float %acc, %v
  %i.next = add i64 %i, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %acc, ptr %q
  ret void
}

; for (k = 0; k < n; k++) v = v * v + 1: no memory in the loop.
define void @compute(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="compute" {
prologue:
  %n = load i32, ptr %args, align 4
  %outp = getelementptr i8, ptr %args, i64 16
  %out = load ptr, ptr %outp, align 8
  br label %entry

entry:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %v0 = uitofp i64 %lid to float
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %v = phi float [ %v0, %entry ], [ %v.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %sq = fmul float %v, %v
  %v.next = fadd float %sq, 1.0
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %lid
  store float %v, ptr %q
  ret void
}

; The same loop as @conv over a 2-D group: rows keep their cuts over the group.
define void @rows(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="rows" {
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
  %base = mul i64 %lid1, 1024
  %at = add i64 %base, %lid
  br label %header

header:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done

body:
  %k64 = zext i32 %k to i64
  %idx = add i64 %at, %k64
  %p = getelementptr float, ptr %in, i64 %idx
  %v = load float, ptr %p
  %acc.next = fadd float %acc, %v
  %k.next = add i32 %k, 1
  br label %header

done:
  %q = getelementptr float, ptr %out, i64 %at
  store float %acc, ptr %q
  ret void
}

; CHECK-LABEL: define void @int_ids(
; CHECK:       %[[REST:[0-9]+]] = urem i64 %{{[0-9]+}}, 64
; CHECK-NEXT:  %[[PARTIAL:[0-9]+]] = icmp ne i64 %[[REST]], 0
; CHECK:       %[[END:[0-9]+]] = add i64 %[[OFFSET:[0-9]+]], %[[SIZE:[0-9]+]]
; CHECK-NEXT:  %[[PAST:[0-9]+]] = icmp ugt i64 %[[END]], 2147483648
; CHECK-NEXT:  %[[LONG:[0-9]+]] = or i1 %{{[0-9]+}}, %[[PAST]]
; CHECK-NEXT:  %[[WHOLE:[0-9]+]] = or i1 %[[PARTIAL]], %[[LONG]]
; CHECK:       br i1 %[[WHOLE]], label %whole.rows, label %dispatch.next
; out[i]: the extension of the id is the id.
; CHECK:       %[[GID:[0-9]+]] = add i64 %global.base, %lid0{{[0-9]*}}
; CHECK-NOT:   sext
; CHECK:       getelementptr float, ptr %out, i64 %[[GID]]
; in[i + k]: the 32-bit sum widened, k extended.
; CHECK:       %[[GID2:[0-9]+]] = add i64 %global.base, %lid0{{[0-9]*}}
; CHECK:       %[[K:[0-9]+]] = sext i32 %k.reload{{.*}} to i64
; CHECK-NEXT:  %at.r.wide = add nsw i64 %[[GID2]], %[[K]]
; CHECK-NEXT:  %p.r = getelementptr float, ptr %in, i64 %at.r.wide
; CHECK-LABEL: define void @conv(
; CHECK:       %[[REST:[0-9]+]] = urem i64 %{{[0-9]+}}, 64
; CHECK-NEXT:  %[[PARTIAL:[0-9]+]] = icmp ne i64 %[[REST]], 0
; CHECK:       br i1 %[[PARTIAL]], label %whole.rows, label %dispatch.next
; CHECK:       sg:
; CHECK-NEXT:  %sg.id = phi i64
; CHECK-NEXT:  %sg.first = mul i64 %sg.id, 64
; CHECK-NEXT:  %strip.end = add nuw nsw i64 %sg.first, 64
; CHECK:       sg.next:
; CHECK-NEXT:  %[[NEXT:[0-9]+]] = add i64 %sg.id, 1
; CHECK-NEXT:  %[[FIRST:[0-9]+]] = mul i64 %[[NEXT]], 64
; CHECK-NEXT:  %[[MORE:[0-9]+]] = icmp ult i64 %[[FIRST]], %{{[0-9]+}}
; CHECK-NEXT:  br i1 %[[MORE]], label %sg, label %sg.done
; The loop over a strip's work-items counts 64 from 0.
; CHECK:       strip.lane:
; CHECK-NEXT:  %lane = phi i64 [ 0, %region ], [ %[[STEP:[0-9]+]], %strip.lane.next ]
; CHECK-NEXT:  %wi = add nuw nsw i64 %sg.first, %lane
; CHECK-NEXT:  %lid0 = add nuw nsw i64 %sg.lid0, %lane
; CHECK:       strip.lane.next:
; CHECK-NEXT:  %[[STEP]] = add nuw nsw i64 %lane, 1
; CHECK-NEXT:  %[[IN:[0-9]+]] = icmp ult i64 %[[STEP]], 64
; CHECK-NEXT:  br i1 %[[IN]], label %strip.lane, label %region.done
; The loop's decision is made once, read where it was stored.
; CHECK:       store i32 %{{[0-9]+}}, ptr %[[DECISION:ctx.slot[0-9]*]], align 4
; CHECK-NOT:   getelementptr i32, ptr %[[DECISION]]
; CHECK:       define void @masked(
; A masked loop counts the strip's flags and compares with its size.
; CHECK:       region.done:
; CHECK:       %[[SIZE:[0-9]+]] = sub i64 %strip.end, %sg.first
; CHECK:       combine.loop:
; CHECK-NEXT:  %i = phi i64 [ %sg.first, %count.flags ], [ %{{[0-9]+}}, %combine.loop ]
; CHECK:       icmp ult i64 %{{[0-9]+}}, %strip.end
; CHECK:       %[[COUNT:[0-9]+]] = zext i32 %collective.result.r to i64
; CHECK-NEXT:  icmp eq i64 %[[COUNT]], 64
; CHECK:       define void @compute(
; CHECK-NOT:   sg.first
; CHECK:       wi.loop0:
; CHECK:       define void @rows(
; CHECK-NOT:   sg.first
; CHECK:       wi.loop0:
; CHECK:       define internal void @conv.whole_rows(
; CHECK-NOT:   sg.first
; CHECK:       wi.loop0:
; CHECK:       attributes #{{[0-9]+}} = { {{.*}}"lockstep-kernel"="int_ids" {{.*}}"lockstep-strip-int-ids" "lockstep-strip-width"="64"
; CHECK:       attributes #{{[0-9]+}} = { {{.*}}"lockstep-kernel"="conv" {{.*}}"lockstep-strip-width"="64"
; CHECK:       attributes #{{[0-9]+}} = { {{.*}}"lockstep-kernel"="masked" {{.*}}"lockstep-strip-width"="64"
; CHECK-NOT:   "lockstep-kernel"="compute" {{.*}}"lockstep-strip-width"
; CHECK-NOT:   "lockstep-kernel"="rows" {{.*}}"lockstep-strip-width"

; OFF-LABEL:   define void @conv(
; OFF-NOT:     sg.first
; OFF-NOT:     whole.rows
; OFF:         wi.loop0:
; OFF-NOT:     lockstep-strip-width
