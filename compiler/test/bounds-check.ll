; Bounds checking: each access through a marked buffer argument or a
; __local variable is checked against its size (read from the argument
; block at the offset the function's attribute names), skipped outside it
; with a report naming the kernel, the place and the argument; accesses to
; private memory are not checked; the markers go.
; RUN: %opt -passes=lockstep-bounds-check -S %s | FileCheck %s

@k.tile = internal addrspace(3) global [16 x i32] poison

declare ptr @__lockstep_buffer_argument(ptr, i32)
declare i64 @_Z13get_global_idj(i32)

define void @__lockstep_wg_k(ptr %args, ptr %group, ptr %local, ptr %context) #0 {
prologue:
  %slot = load ptr addrspace(1), ptr %args, align 8
  %generic = addrspacecast ptr addrspace(1) %slot to ptr
  %marked = call ptr @__lockstep_buffer_argument(ptr %generic, i32 0), !__lockstep_buffer_argument !1
  %out = addrspacecast ptr %marked to ptr addrspace(1)
  br label %body

body:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %private = alloca i32, align 4
  store i32 1, ptr %private, align 4
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  %v = load i32, ptr addrspace(1) %p, align 4, !dbg !10
  %t = getelementptr inbounds [16 x i32], ptr addrspace(3) @k.tile, i64 0, i64 %gid
  store i32 %v, ptr addrspace(3) %t, align 4
  ret void
}

attributes #0 = { "lockstep-kernel"="k" "lockstep-check-bounds"="16" }

!llvm.module.flags = !{!0, !20}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!20 = !{i32 2, !"lockstep-check-bounds", i32 1}
!1 = !{!"argument 0 'out' (__global int*)"}
!llvm.dbg.cu = !{!2}
!2 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !3, emissionKind: LineTablesOnly)
!3 = !DIFile(filename: "program.cl", directory: "/")
!4 = distinct !DISubprogram(name: "k", scope: !3, file: !3, line: 1, type: !5, unit: !2, spFlags: DISPFlagDefinition)
!5 = !DISubroutineType(types: !6)
!6 = !{}
!10 = !DILocation(line: 3, column: 11, scope: !4)

; CHECK: @bounds.site = private unnamed_addr constant {{.*}} c"in kernel 'k', the 4-byte load at program.cl:3:11 to argument 0 'out' (__global int*)\00"
; CHECK: @bounds.site.1 = {{.*}} c"in kernel 'k', the 4-byte store to __local variable 'k.tile'\00"
; CHECK-LABEL: define void @__lockstep_wg_k(
; The size of argument 0, from the argument block at byte 16.
; CHECK: %[[SLOT:.*]] = getelementptr inbounds i8, ptr %args, i64 16
; CHECK: %[[BYTES:.*]] = load i64, ptr %[[SLOT]], align 8, !invariant.load
; CHECK: %[[BASE:.*]] = ptrtoint ptr %generic to i64
; CHECK-NOT: __lockstep_buffer_argument
; CHECK: store i32 1, ptr %private
; CHECK-NOT: br
; CHECK: %[[OFFSET:.*]] = sub i64 %{{.*}}, %[[BASE]]
; CHECK: %[[LIMIT:.*]] = call i64 @llvm.usub.sat.i64(i64 %[[BYTES]], i64 3)
; CHECK: %[[OK:.*]] = icmp ult i64 %[[OFFSET]], %[[LIMIT]]
; CHECK: br i1 %[[OK]], label %in.bounds, label %out.of.bounds, {{.*}}!prof
; CHECK: in.bounds:
; CHECK: %v = load i32, ptr addrspace(1) %p
; CHECK: out.of.bounds:
; CHECK: call void @__lockstep_report_out_of_bounds(ptr @bounds.site, i64 %[[OFFSET]], i64 %[[BYTES]],
; CHECK: %[[V:.*]] = phi i32 [ %v, %in.bounds ], [ 0, %out.of.bounds ]
; A 64-byte __local array: the limit is a constant.
; CHECK: call i64 @llvm.usub.sat.i64(i64 64, i64 3)
; CHECK: store i32 %[[V]], ptr addrspace(3) %t
; CHECK: call void @__lockstep_report_out_of_bounds(ptr @bounds.site.1,
; CHECK-NOT: declare ptr @__lockstep_buffer_argument
