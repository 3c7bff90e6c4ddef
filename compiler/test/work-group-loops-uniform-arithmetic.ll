; cl_khr_work_group_uniform_arithmetic's collectives are cuts like OpenCL C
; 2.0's work_group_reduce_add: each becomes a combine between the loop nests
; with its own operation (mul, fmul; and, or, xor; the logical ones compare
; each operand with 0 first and give 0 or 1), and none stays a call.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s --implicit-check-not="= call {{.*}}work_group_"

declare i64 @__lockstep.local_id(i32) memory(none)
declare i32 @_Z21work_group_reduce_muli(i32) convergent
declare float @_Z29work_group_scan_inclusive_mulf(float) convergent
declare i64 @_Z20work_group_reduce_orl(i64) convergent
declare i32 @_Z29work_group_scan_exclusive_xorj(i32) convergent
declare i32 @_Z21work_group_reduce_andj(i32) convergent
declare i32 @_Z37work_group_scan_inclusive_logical_andi(i32) convergent
declare i32 @_Z28work_group_reduce_logical_ori(i32) convergent
declare i32 @_Z37work_group_scan_exclusive_logical_xori(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" "lockstep-sub-group-size"="16" {
prologue:
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %x = trunc i64 %lid to i32
  %f = uitofp i32 %x to float
  %product = call i32 @_Z21work_group_reduce_muli(i32 %x)
  %fproduct = call float @_Z29work_group_scan_inclusive_mulf(float %f)
  %bits = call i64 @_Z20work_group_reduce_orl(i64 %lid)
  %parity = call i32 @_Z29work_group_scan_exclusive_xorj(i32 %x)
  %common = call i32 @_Z21work_group_reduce_andj(i32 %x)
  %all = call i32 @_Z37work_group_scan_inclusive_logical_andi(i32 %x)
  %any = call i32 @_Z28work_group_reduce_logical_ori(i32 %x)
  %odd = call i32 @_Z37work_group_scan_exclusive_logical_xori(i32 %x)
  %a = add i32 %product, %parity
  %b = add i32 %a, %common
  %c = add i32 %b, %all
  %d = add i32 %c, %any
  %e = add i32 %d, %odd
  %g = trunc i64 %bits to i32
  %h = add i32 %e, %g
  %p = getelementptr i32, ptr %args, i64 %lid
  store i32 %h, ptr %p, align 4
  %q = getelementptr float, ptr %args, i64 %lid
  store float %fproduct, ptr %q, align 4
  ret void
}

; CHECK-LABEL: define void @wg(
; Each operation's combine, in the order of the calls:
; CHECK: combine.loop
; CHECK: mul i32 %{{.*}}, %{{.*}}
; CHECK: combine.loop
; CHECK: fmul float %{{.*}}, %{{.*}}
; CHECK: combine.loop
; CHECK: or i64 %{{.*}}, %{{.*}}
; CHECK: combine.loop
; CHECK: xor i32 %{{.*}}, %{{.*}}
; CHECK: combine.loop
; CHECK: and i32 %{{.*}}, %{{.*}}
; The logical ones: operands as truth values, the result 0 or 1.
; CHECK: combine.loop
; CHECK: icmp ne i32
; CHECK: icmp ne i32
; CHECK: and i1
; CHECK: zext i1 %{{.*}} to i32
; CHECK: combine.loop
; CHECK: or i1
; CHECK: combine.loop
; CHECK: xor i1
; CHECK: "lockstep-barriers"="0"
