; The specialized work-group function of bench's image_convert (RGBA
; UNORM_INT8 -> RGBA FLOAT, samplerless read_imagef and write_imagef), as
; the pipeline hands it to InteriorVersioningPass: the built-ins inlined and
; scalarized, the formats folded. The read clamps x into the image and the
; write checks its bounds, so the work-item loop gathers and scatters one
; lane at a time; its interior copy loads and stores whole vectors once the
; vectorizer has run (here for AVX-512).
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes=lockstep-interior-versioning,loop-vectorize -S %s | FileCheck %s
; RUN: %opt -mtriple=x86_64-unknown-linux-gnu -mattr=+avx512f,+avx512bw,+avx512vl,+avx512dq \
; RUN:   -passes=loop-vectorize -S %s | FileCheck --check-prefix=ALONE %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @image_convert(
; CHECK:       %interior = and i1
; CHECK:       vector.body:
; CHECK:         load <{{[0-9]+}} x i8>
; CHECK:         store <{{[0-9]+}} x float>
; The scalar interior loop (the vector loop's remainder) reads at x itself.
; CHECK:       wi.loop0.interior:
; CHECK:         sext i32 %conv.i.r.interior to i64
; CHECK:       wi.next1:

; Without the interior, the vectorizer leaves the loop scalar.
; ALONE-LABEL: define void @image_convert(
; ALONE-NOT:   vector.body:
; ALONE:       ret void
; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: write)
define void @image_convert(ptr noalias nocapture readonly %0, ptr noalias nocapture readonly %1, ptr noalias nocapture readnone %2, ptr noalias nocapture readnone %3) #0 {
prologue:
  %4 = getelementptr inbounds i8, ptr %1, i64 120
  %5 = load i64, ptr %4, align 8, !invariant.load !5
  %6 = getelementptr inbounds i8, ptr %1, i64 48
  %7 = load i64, ptr %6, align 8, !invariant.load !5
  %8 = load i64, ptr %1, align 8, !invariant.load !5
  %9 = mul i64 %8, %7
  %global.base = add i64 %9, %5
  %10 = getelementptr inbounds i8, ptr %1, i64 128
  %11 = load i64, ptr %10, align 8, !invariant.load !5
  %12 = getelementptr inbounds i8, ptr %1, i64 56
  %13 = load i64, ptr %12, align 8, !invariant.load !5
  %14 = getelementptr inbounds i8, ptr %1, i64 8
  %15 = load i64, ptr %14, align 8, !invariant.load !5
  %16 = mul i64 %15, %13
  %global.base2 = add i64 %16, %11
  %17 = getelementptr inbounds i8, ptr %0, i64 8
  %18 = load ptr addrspace(1), ptr %17, align 8, !invariant.load !5, !nonnull !5, !dereferenceable !6, !align !7, !noundef !5
  %19 = load ptr addrspace(1), ptr %0, align 8, !invariant.load !5, !nonnull !5, !dereferenceable !6, !align !7, !noundef !5
  %20 = getelementptr inbounds i8, ptr %1, i64 24
  %21 = load i64, ptr %20, align 8, !invariant.load !5
  %22 = getelementptr inbounds i8, ptr %1, i64 32
  %23 = load i64, ptr %22, align 8, !invariant.load !5
  %24 = getelementptr inbounds i8, ptr %1, i64 40
  %25 = load i64, ptr %24, align 8, !invariant.load !5
  %26 = and i64 %21, 63
  %.not = icmp eq i64 %26, 0
  %27 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 40
  %28 = load i32, ptr addrspace(1) %27, align 4, !invariant.load !5
  %29 = icmp eq i32 %28, 4277
  tail call void @llvm.assume(i1 %29)
  %30 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 44
  %31 = load i32, ptr addrspace(1) %30, align 4, !invariant.load !5
  %32 = icmp eq i32 %31, 4318
  tail call void @llvm.assume(i1 %32)
  %33 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 48
  %34 = load i32, ptr addrspace(1) %33, align 4, !invariant.load !5
  %35 = icmp eq i32 %34, 16
  tail call void @llvm.assume(i1 %35)
  %36 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 52
  %37 = load i32, ptr addrspace(1) %36, align 4, !invariant.load !5
  %38 = icmp eq i32 %37, 4
  tail call void @llvm.assume(i1 %38)
  %39 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 40
  %40 = load i32, ptr addrspace(1) %39, align 4, !invariant.load !5
  %41 = icmp eq i32 %40, 4277
  tail call void @llvm.assume(i1 %41)
  %42 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 44
  %43 = load i32, ptr addrspace(1) %42, align 4, !invariant.load !5
  %44 = icmp eq i32 %43, 4306
  tail call void @llvm.assume(i1 %44)
  %45 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 48
  %46 = load i32, ptr addrspace(1) %45, align 4, !invariant.load !5
  %47 = icmp eq i32 %46, 4
  tail call void @llvm.assume(i1 %47)
  %48 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 52
  %49 = load i32, ptr addrspace(1) %48, align 4, !invariant.load !5
  %50 = icmp eq i32 %49, 4
  tail call void @llvm.assume(i1 %50)
  %51 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 24
  %52 = load i32, ptr addrspace(1) %51, align 8, !invariant.load !5
  %53 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 28
  %54 = load i32, ptr addrspace(1) %53, align 4, !invariant.load !5
  %55 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 24
  %56 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 28
  %57 = getelementptr inbounds i8, ptr addrspace(1) %19, i64 8
  %58 = getelementptr inbounds i8, ptr addrspace(1) %18, i64 8
  br label %wi.loop2.preheader

wi.loop2.preheader:                               ; preds = %prologue
  %umax = call i64 @llvm.umax.i64(i64 %21, i64 1)
  %umax16 = call i64 @llvm.umax.i64(i64 %23, i64 1)
  %umax18 = call i64 @llvm.umax.i64(i64 %25, i64 1)
  br label %wi.loop2

common.ret:                                       ; preds = %wi.next2
  ret void

wi.loop2:                                         ; preds = %wi.loop2.preheader, %wi.next2
  %lid2 = phi i64 [ %59, %wi.next2 ], [ 0, %wi.loop2.preheader ]
  br label %wi.loop1

wi.next2:                                         ; preds = %wi.next1
  %59 = add nuw nsw i64 %lid2, 1
  %exitcond19.not = icmp eq i64 %59, %umax18
  br i1 %exitcond19.not, label %common.ret, label %wi.loop2

wi.loop1:                                         ; preds = %wi.next1, %wi.loop2
  %lid1 = phi i64 [ 0, %wi.loop2 ], [ %68, %wi.next1 ]
  %global.id3.r = add i64 %lid1, %global.base2
  %conv2.i.r = trunc i64 %global.id3.r to i32
  %60 = load i32, ptr addrspace(1) %55, align 8
  %61 = load i32, ptr addrspace(1) %56, align 4
  %62 = load ptr addrspace(1), ptr addrspace(1) %19, align 8
  %.i074 = add i32 %60, -1
  %.i175 = add i32 %61, -1
  %63 = load i64, ptr addrspace(1) %57, align 8
  %64 = load ptr addrspace(1), ptr addrspace(1) %18, align 8
  %sext11 = shl i64 %global.id3.r, 32
  %65 = ashr exact i64 %sext11, 32
  %66 = load i64, ptr addrspace(1) %58, align 8
  %67 = mul nsw i64 %66, %65
  %invariant.gep13 = getelementptr i8, ptr addrspace(1) %64, i64 %67
  br label %wi.loop0

wi.next1:                                         ; preds = %_Z12write_imagef14ocl_image2d_woDv2_iDv4_f.exit
  %68 = add nuw nsw i64 %lid1, 1
  %exitcond17.not = icmp eq i64 %68, %umax16
  br i1 %exitcond17.not, label %wi.next2, label %wi.loop1

wi.loop0:                                         ; preds = %_Z12write_imagef14ocl_image2d_woDv2_iDv4_f.exit, %wi.loop1
  %lid0 = phi i64 [ 0, %wi.loop1 ], [ %77, %_Z12write_imagef14ocl_image2d_woDv2_iDv4_f.exit ]
  %global.id.r = add i64 %lid0, %global.base
  %conv.i.r = trunc i64 %global.id.r to i32
  %.i076 = icmp ule i32 %52, %conv.i.r
  %.i177 = icmp ule i32 %54, %conv2.i.r
  %narrow.not279 = select i1 %.i076, i1 true, i1 %.i177
  br i1 %narrow.not279, label %_Z12write_imagef14ocl_image2d_woDv2_iDv4_f.exit, label %69

69:                                               ; preds = %wi.loop0
  %.i084 = icmp ule i32 %60, %conv.i.r
  %.i185 = icmp ule i32 %61, %conv2.i.r
  %narrow.not280 = select i1 %.i084, i1 true, i1 %.i185
  %.i092 = call i32 @llvm.smax.i32(i32 %conv.i.r, i32 0)
  %.i193 = call i32 @llvm.smax.i32(i32 %conv2.i.r, i32 0)
  %.i096 = call i32 @llvm.smin.i32(i32 %.i092, i32 %.i074)
  %.i197 = call i32 @llvm.smin.i32(i32 %.i193, i32 %.i175)
  %70 = sext i32 %.i096 to i64
  %71 = shl nsw i64 %70, 2
  %72 = getelementptr inbounds i8, ptr addrspace(1) %62, i64 %71
  %73 = sext i32 %.i197 to i64
  %74 = mul nsw i64 %63, %73
  %75 = getelementptr inbounds i8, ptr addrspace(1) %72, i64 %74
  %.i0100 = load i8, ptr addrspace(1) %75, align 1, !llvm.access.group !17
  %.i1101 = getelementptr i8, ptr addrspace(1) %75, i64 1
  %.i1102 = load i8, ptr addrspace(1) %.i1101, align 1, !llvm.access.group !17
  %.i2103 = getelementptr i8, ptr addrspace(1) %75, i64 2
  %.i2104 = load i8, ptr addrspace(1) %.i2103, align 1, !llvm.access.group !17
  %.i3105 = getelementptr i8, ptr addrspace(1) %75, i64 3
  %.i3106 = load i8, ptr addrspace(1) %.i3105, align 1, !llvm.access.group !17
  %.i0107 = uitofp i8 %.i0100 to float
  %.i1108 = uitofp i8 %.i1102 to float
  %.i2109 = uitofp i8 %.i2104 to float
  %.i3110 = uitofp i8 %.i3106 to float
  %.i0111 = fmul float %.i0107, 0x3F70101020000000
  %.i1112 = fmul float %.i1108, 0x3F70101020000000
  %.i2113 = fmul float %.i2109, 0x3F70101020000000
  %.i3114 = fmul float %.i3110, 0x3F70101020000000
  %.i0115 = fneg float %.i0111
  %.i1116 = fneg float %.i1112
  %.i2117 = fneg float %.i2113
  %.i3118 = fneg float %.i3114
  %.i0119 = call float @llvm.fma.f32(float %.i0115, float 2.550000e+02, float %.i0107)
  %.i1120 = call float @llvm.fma.f32(float %.i1116, float 2.550000e+02, float %.i1108)
  %.i2121 = call float @llvm.fma.f32(float %.i2117, float 2.550000e+02, float %.i2109)
  %.i3122 = call float @llvm.fma.f32(float %.i3118, float 2.550000e+02, float %.i3110)
  %.i0123 = call float @llvm.fma.f32(float %.i0119, float 0x3F70101020000000, float %.i0111)
  %.i1124 = call float @llvm.fma.f32(float %.i1120, float 0x3F70101020000000, float %.i1112)
  %.i2125 = call float @llvm.fma.f32(float %.i2121, float 0x3F70101020000000, float %.i2113)
  %.i3126 = call float @llvm.fma.f32(float %.i3122, float 0x3F70101020000000, float %.i3114)
  %.i0127 = select i1 %narrow.not280, float 0.000000e+00, float %.i0123
  %.i1128 = select i1 %narrow.not280, float 0.000000e+00, float %.i1124
  %.i2129 = select i1 %narrow.not280, float 0.000000e+00, float %.i2125
  %.i3130 = select i1 %narrow.not280, float 0.000000e+00, float %.i3126
  %sext = shl i64 %global.id.r, 32
  %76 = ashr exact i64 %sext, 28
  %gep14 = getelementptr i8, ptr addrspace(1) %invariant.gep13, i64 %76
  store float %.i0127, ptr addrspace(1) %gep14, align 4, !llvm.access.group !17
  %gep14.i1 = getelementptr i8, ptr addrspace(1) %gep14, i64 4
  store float %.i1128, ptr addrspace(1) %gep14.i1, align 4, !llvm.access.group !17
  %gep14.i2 = getelementptr i8, ptr addrspace(1) %gep14, i64 8
  store float %.i2129, ptr addrspace(1) %gep14.i2, align 4, !llvm.access.group !17
  %gep14.i3 = getelementptr i8, ptr addrspace(1) %gep14, i64 12
  store float %.i3130, ptr addrspace(1) %gep14.i3, align 4, !llvm.access.group !17
  br label %_Z12write_imagef14ocl_image2d_woDv2_iDv4_f.exit

_Z12write_imagef14ocl_image2d_woDv2_iDv4_f.exit:  ; preds = %wi.loop0, %69
  %77 = add nuw nsw i64 %lid0, 1
  %exitcond.not = icmp eq i64 %77, %umax
  br i1 %exitcond.not, label %wi.next1, label %wi.loop0, !llvm.loop !18

}

declare void @llvm.assume(i1)
declare float @llvm.fma.f32(float, float, float)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i64 @llvm.umax.i64(i64, i64)

attributes #0 = { nofree norecurse nosync nounwind "lockstep-work-group-code" }
!5 = !{}
!6 = !{i64 80}
!7 = !{i64 8}
!17 = distinct !{}
!18 = distinct !{!18, !19}
!19 = !{!"llvm.loop.parallel_accesses", !17}
