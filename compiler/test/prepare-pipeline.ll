; The prepare pipeline (the work-group passes, as a build runs them) at the
; vector widths of AVX2 and AVX-512. Two kernels, as the frontend and the
; builtins link leave them (LOCKSTEP_DUMP_IR=input): `wide`, a loop of
; float4 arithmetic on float8 data, and `add`, straight-line.
;
; With 256-bit vectors the float8 values fill a register, so the kernel's
; vectors stay whole and its loop runs whole inside the work-item loop. With
; 512-bit vectors they are narrower than a register: split for widening, so
; the loop, whose trip count every work-item shares, is cut (the work-item
; loop moves inside it, its exit test a uniform condition). On AVX-512 the
; straight-line kernel also gets a copy with masked loop tails for groups
; narrower than a vector loop's step (fold-narrow-rows).
; RUN: %opt -passes='lockstep-prepare<vector-bits=256>' -S %s | FileCheck %s --check-prefixes=CHECK,AVX2
; RUN: %opt -passes='lockstep-prepare<fold-narrow-rows;vector-bits=512>' -S %s | FileCheck %s --check-prefixes=CHECK,AVX512
; The optimize pipeline after it (on this host: the vector widths are the
; host's) makes the module the host's and widens the work-item loops.
; RUN: %opt -passes='lockstep-prepare<vector-bits=512>' -S %s \
; RUN:   | %opt -mtriple=x86_64-unknown-linux-gnu -passes=lockstep-optimize -S | FileCheck %s --check-prefix=FINAL

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"


; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @wide(ptr addrspace(1) noundef align 32 %out, ptr addrspace(1) noundef align 32 %in, i32 noundef %n) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !4 !kernel_arg_type !5 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {
entry:
  %out.addr = alloca ptr addrspace(1), align 8
  %in.addr = alloca ptr addrspace(1), align 8
  %n.addr = alloca i32, align 4
  %i = alloca i64, align 8
  %acc = alloca <4 x float>, align 16
  %k = alloca i32, align 4
  %.compoundliteral = alloca <8 x float>, align 32
  store ptr addrspace(1) %out, ptr %out.addr, align 8, !tbaa !9
  store ptr addrspace(1) %in, ptr %in.addr, align 8, !tbaa !9
  store i32 %n, ptr %n.addr, align 4, !tbaa !13
  call void @llvm.lifetime.start.p0(i64 8, ptr %i) #4
  %call = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  store i64 %call, ptr %i, align 8, !tbaa !15
  call void @llvm.lifetime.start.p0(i64 16, ptr %acc) #4
  store <4 x float> zeroinitializer, ptr %acc, align 16, !tbaa !17
  call void @llvm.lifetime.start.p0(i64 4, ptr %k) #4
  store i32 0, ptr %k, align 4, !tbaa !13
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %k, align 4, !tbaa !13
  %1 = load i32, ptr %n.addr, align 4, !tbaa !13
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.cond
  call void @llvm.lifetime.end.p0(i64 4, ptr %k) #4
  br label %for.end

for.body:                                         ; preds = %for.cond
  %2 = load <4 x float>, ptr %acc, align 16, !tbaa !17
  %3 = load ptr addrspace(1), ptr %in.addr, align 8, !tbaa !9
  %4 = load i64, ptr %i, align 8, !tbaa !15
  %arrayidx = getelementptr inbounds <8 x float>, ptr addrspace(1) %3, i64 %4
  %5 = load <8 x float>, ptr addrspace(1) %arrayidx, align 32
  %6 = shufflevector <8 x float> %5, <8 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %7 = load ptr addrspace(1), ptr %in.addr, align 8, !tbaa !9
  %8 = load i64, ptr %i, align 8, !tbaa !15
  %arrayidx1 = getelementptr inbounds <8 x float>, ptr addrspace(1) %7, i64 %8
  %9 = load <8 x float>, ptr addrspace(1) %arrayidx1, align 32
  %10 = shufflevector <8 x float> %9, <8 x float> poison, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
  %11 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %2, <4 x float> %6, <4 x float> %10)
  store <4 x float> %11, ptr %acc, align 16, !tbaa !17
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %12 = load i32, ptr %k, align 4, !tbaa !13
  %inc = add nsw i32 %12, 1
  store i32 %inc, ptr %k, align 4, !tbaa !13
  br label %for.cond

for.end:                                          ; preds = %for.cond.cleanup
  %13 = load <4 x float>, ptr %acc, align 16, !tbaa !17
  %vext = shufflevector <4 x float> %13, <4 x float> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %vecinit = shufflevector <8 x float> %vext, <8 x float> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %14 = load <4 x float>, ptr %acc, align 16, !tbaa !17
  %vext2 = shufflevector <4 x float> %14, <4 x float> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %vecinit3 = shufflevector <8 x float> %vecinit, <8 x float> %vext2, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
  store <8 x float> %vecinit3, ptr %.compoundliteral, align 32, !tbaa !17
  %15 = load <8 x float>, ptr %.compoundliteral, align 32, !tbaa !17
  %16 = load ptr addrspace(1), ptr %out.addr, align 8, !tbaa !9
  %17 = load i64, ptr %i, align 8, !tbaa !15
  %arrayidx4 = getelementptr inbounds <8 x float>, ptr addrspace(1) %16, i64 %17
  store <8 x float> %15, ptr addrspace(1) %arrayidx4, align 32, !tbaa !17
  call void @llvm.lifetime.end.p0(i64 16, ptr %acc) #4
  call void @llvm.lifetime.end.p0(i64 8, ptr %i) #4
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @add(ptr addrspace(1) noundef align 4 %c, ptr addrspace(1) noundef align 4 %a, ptr addrspace(1) noundef align 4 %b) #0 !kernel_arg_addr_space !18 !kernel_arg_access_qual !4 !kernel_arg_type !19 !kernel_arg_base_type !19 !kernel_arg_type_qual !20 !kernel_arg_name !21 {
entry:
  %c.addr = alloca ptr addrspace(1), align 8
  %a.addr = alloca ptr addrspace(1), align 8
  %b.addr = alloca ptr addrspace(1), align 8
  %i = alloca i64, align 8
  store ptr addrspace(1) %c, ptr %c.addr, align 8, !tbaa !9
  store ptr addrspace(1) %a, ptr %a.addr, align 8, !tbaa !9
  store ptr addrspace(1) %b, ptr %b.addr, align 8, !tbaa !9
  call void @llvm.lifetime.start.p0(i64 8, ptr %i) #4
  %call = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #5
  store i64 %call, ptr %i, align 8, !tbaa !15
  %0 = load ptr addrspace(1), ptr %a.addr, align 8, !tbaa !9
  %1 = load i64, ptr %i, align 8, !tbaa !15
  %arrayidx = getelementptr inbounds float, ptr addrspace(1) %0, i64 %1
  %2 = load float, ptr addrspace(1) %arrayidx, align 4, !tbaa !22
  %3 = load ptr addrspace(1), ptr %b.addr, align 8, !tbaa !9
  %4 = load i64, ptr %i, align 8, !tbaa !15
  %arrayidx1 = getelementptr inbounds float, ptr addrspace(1) %3, i64 %4
  %5 = load float, ptr addrspace(1) %arrayidx1, align 4, !tbaa !22
  %add = fadd float %2, %5
  %6 = load ptr addrspace(1), ptr %c.addr, align 8, !tbaa !9
  %7 = load i64, ptr %i, align 8, !tbaa !15
  %arrayidx2 = getelementptr inbounds float, ptr addrspace(1) %6, i64 %7
  store float %add, ptr addrspace(1) %arrayidx2, align 4, !tbaa !22
  call void @llvm.lifetime.end.p0(i64 8, ptr %i) #4
  ret void
}

attributes #0 = { convergent norecurse nounwind "lockstep-uniform-groups" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nounwind }
attributes #5 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0}
!opencl.ocl.version = !{!1}
!opencl.spir.version = !{!1}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 1, i32 2}
!3 = !{i32 1, i32 1, i32 0}
!4 = !{!"none", !"none", !"none"}
!5 = !{!"float8*", !"float8*", !"int"}
!6 = !{!"float __attribute__((ext_vector_type(8)))*", !"float __attribute__((ext_vector_type(8)))*", !"int"}
!7 = !{!"", !"const", !""}
!8 = !{!"out", !"in", !"n"}
!9 = !{!10, !10, i64 0}
!10 = !{!"any pointer", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{!14, !14, i64 0}
!14 = !{!"int", !11, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"long", !11, i64 0}
!17 = !{!11, !11, i64 0}
!18 = !{i32 1, i32 1, i32 1}
!19 = !{!"float*", !"float*", !"float*"}
!20 = !{!"", !"const", !"const"}
!21 = !{!"c", !"a", !"b"}
!22 = !{!23, !23, i64 0}
!23 = !{!"float", !11, i64 0}

; CHECK-LABEL: define void @__lockstep_wg_wide(
; AVX2-NOT: uniform.condition
; AVX512: %uniform.condition = load i32
; CHECK-LABEL: define void @__lockstep_wg_add(
; AVX2-NOT: narrow.rows
; AVX512: narrow.rows:
; AVX512-NEXT: call void @__lockstep_wg_add.narrow_rows(
; AVX512-LABEL: define internal void @__lockstep_wg_add.narrow_rows(
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"lockstep-context-bytes"="0"{{.*}}"lockstep-kernel"="add"{{.*}}"lockstep-straight-line"
; AVX512: !"llvm.loop.vectorize.predicate.enable", i1 true

; FINAL: target triple = "x86_64-
; FINAL-LABEL: define void @__lockstep_wg_add(
; FINAL: load <{{[0-9]+}} x float>
; FINAL: fadd <{{[0-9]+}} x float>
; FINAL: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"=
