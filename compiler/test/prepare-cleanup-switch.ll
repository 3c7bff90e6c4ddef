; The prepare pipeline on a kernel loop with a `continue` out of a scope with
; a local (`int v = in[i + k]; if (v & 1) continue; s += v;`), as the front
; end leaves it (LOCKSTEP_DUMP_IR=input): the continue and the fall-through
; meet at a switch over a cleanup slot with an unreachable default.
; SimplifyCFG, before the kernel wrapper, threads the switch, so the loop's
; exits are branches and its trip count `n` is what every work-item shares:
; it gets its cut and runs in strips ("lockstep-strip-width"), where it ran
; whole inside the work-item loop, scalar.
; RUN: %opt -passes='lockstep-prepare<fold-narrow-rows;vector-bits=512>' -S %s | FileCheck %s

; CHECK-LABEL: define void @__lockstep_wg_skip_odd(
; CHECK-SAME:    #[[MAIN:[0-9]+]]
; CHECK-NOT:     switch i32
; CHECK:       define internal void @__lockstep_wg_skip_odd.whole_loops(
; CHECK:       attributes #[[MAIN]] = { {{.*}}"lockstep-strip-width"="64"

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"


; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @skip_odd(ptr addrspace(1) noundef align 4 %in, ptr addrspace(1) noundef align 4 %out, i32 noundef %n) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !4 !kernel_arg_type !5 !kernel_arg_base_type !5 !kernel_arg_type_qual !6 !kernel_arg_name !7 {
entry:
  %in.addr = alloca ptr addrspace(1), align 8
  %out.addr = alloca ptr addrspace(1), align 8
  %n.addr = alloca i32, align 4
  %i = alloca i32, align 4
  %s = alloca i32, align 4
  %k = alloca i32, align 4
  %cleanup.dest.slot = alloca i32, align 4
  %v = alloca i32, align 4
  store ptr addrspace(1) %in, ptr %in.addr, align 8, !tbaa !8
  store ptr addrspace(1) %out, ptr %out.addr, align 8, !tbaa !8
  store i32 %n, ptr %n.addr, align 4, !tbaa !12
  call void @llvm.lifetime.start.p0(i64 4, ptr %i) #3
  %call = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %conv = trunc i64 %call to i32
  store i32 %conv, ptr %i, align 4, !tbaa !12
  call void @llvm.lifetime.start.p0(i64 4, ptr %s) #3
  store i32 0, ptr %s, align 4, !tbaa !12
  call void @llvm.lifetime.start.p0(i64 4, ptr %k) #3
  store i32 0, ptr %k, align 4, !tbaa !12
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %k, align 4, !tbaa !12
  %1 = load i32, ptr %n.addr, align 4, !tbaa !12
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.cond
  store i32 2, ptr %cleanup.dest.slot, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %k) #3
  br label %for.end

for.body:                                         ; preds = %for.cond
  call void @llvm.lifetime.start.p0(i64 4, ptr %v) #3
  %2 = load ptr addrspace(1), ptr %in.addr, align 8, !tbaa !8
  %3 = load i32, ptr %i, align 4, !tbaa !12
  %4 = load i32, ptr %k, align 4, !tbaa !12
  %add = add nsw i32 %3, %4
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds i32, ptr addrspace(1) %2, i64 %idxprom
  %5 = load i32, ptr addrspace(1) %arrayidx, align 4, !tbaa !12
  store i32 %5, ptr %v, align 4, !tbaa !12
  %6 = load i32, ptr %v, align 4, !tbaa !12
  %and = and i32 %6, 1
  %tobool = icmp ne i32 %and, 0
  br i1 %tobool, label %if.then, label %if.end

if.then:                                          ; preds = %for.body
  store i32 4, ptr %cleanup.dest.slot, align 4
  br label %cleanup

if.end:                                           ; preds = %for.body
  %7 = load i32, ptr %v, align 4, !tbaa !12
  %8 = load i32, ptr %s, align 4, !tbaa !12
  %add2 = add nsw i32 %8, %7
  store i32 %add2, ptr %s, align 4, !tbaa !12
  store i32 0, ptr %cleanup.dest.slot, align 4
  br label %cleanup

cleanup:                                          ; preds = %if.end, %if.then
  call void @llvm.lifetime.end.p0(i64 4, ptr %v) #3
  %cleanup.dest = load i32, ptr %cleanup.dest.slot, align 4
  switch i32 %cleanup.dest, label %unreachable [
    i32 0, label %cleanup.cont
    i32 4, label %for.inc
  ]

cleanup.cont:                                     ; preds = %cleanup
  br label %for.inc

for.inc:                                          ; preds = %cleanup.cont, %cleanup
  %9 = load i32, ptr %k, align 4, !tbaa !12
  %inc = add nsw i32 %9, 1
  store i32 %inc, ptr %k, align 4, !tbaa !12
  br label %for.cond

for.end:                                          ; preds = %for.cond.cleanup
  %10 = load i32, ptr %s, align 4, !tbaa !12
  %11 = load ptr addrspace(1), ptr %out.addr, align 8, !tbaa !8
  %12 = load i32, ptr %i, align 4, !tbaa !12
  %idxprom4 = sext i32 %12 to i64
  %arrayidx5 = getelementptr inbounds i32, ptr addrspace(1) %11, i64 %idxprom4
  store i32 %10, ptr addrspace(1) %arrayidx5, align 4, !tbaa !12
  call void @llvm.lifetime.end.p0(i64 4, ptr %s) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr %i) #3
  ret void

unreachable:                                      ; preds = %cleanup
  unreachable
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare spir_func i64 @_Z13get_global_idj(i32 noundef) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

attributes #0 = { convergent norecurse nounwind "lockstep-uniform-groups" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nounwind willreturn memory(none) "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nounwind }
attributes #4 = { convergent nobuiltin nounwind willreturn memory(none) "no-builtins" }

!llvm.module.flags = !{!0}
!opencl.ocl.version = !{!1}
!opencl.spir.version = !{!1}
!llvm.ident = !{!2}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 1, i32 2}
!2 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!3 = !{i32 1, i32 1, i32 0}
!4 = !{!"none", !"none", !"none"}
!5 = !{!"int*", !"int*", !"int"}
!6 = !{!"const", !"", !""}
!7 = !{!"in", !"out", !"n"}
!8 = !{!9, !9, i64 0}
!9 = !{!"any pointer", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C/C++ TBAA"}
!12 = !{!13, !13, i64 0}
!13 = !{!"int", !10, i64 0}
