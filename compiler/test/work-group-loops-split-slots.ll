; A vector value that crosses a barrier is kept in a split slot: element k
; of every work-item in an array of its own, at the slot's base plus k times
; the work-item count, so the widened work-item loop reads and writes each
; element with whole vectors. A scalar keeps a plain slot.
; RUN: %opt -passes=lockstep-work-group -S %s | FileCheck %s

%lockstep.GroupInfo = type { [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, i64, ptr, ptr, ptr, i64 }

declare i64 @__lockstep.local_id(i32) memory(none)
declare void @_Z7barrierj(i32) convergent

define void @wg(ptr %args, ptr %group, ptr %local, ptr %context) "lockstep-kernel"="k" {
prologue:
  %out = load ptr addrspace(1), ptr %args, align 8
  br label %body

body:
  %lid = call i64 @__lockstep.local_id(i32 0)
  %p = getelementptr <3 x float>, ptr addrspace(1) %out, i64 %lid
  %v = load <3 x float>, ptr addrspace(1) %p, align 16
  %w = fmul <3 x float> %v, %v
  %s = extractelement <3 x float> %v, i64 0
  call void @_Z7barrierj(i32 1)
  %q = getelementptr <3 x float>, ptr addrspace(1) %out, i64 %lid
  %sw = insertelement <3 x float> %w, float %s, i64 1
  store <3 x float> %sw, ptr addrspace(1) %q, align 16
  ret void
}

; CHECK-LABEL: define void @wg(
; The split slot takes 12 bytes per work-item (no padding to 16), then the
; scalar's slot.
; CHECK: mul i64 [[COUNT:%[0-9]+]], 12
; Saved before the barrier: three floats, one in each element's array.
; CHECK: region.exit:
; CHECK: [[W:%[0-9]+]] = load <3 x float>, ptr %w.reg2mem
; CHECK: [[K0:%[0-9]+]] = mul i64 [[COUNT]], 0
; CHECK: [[I0:%[0-9]+]] = add i64 [[K0]], %wi
; CHECK: [[A0:%[0-9]+]] = getelementptr float, ptr %[[SLOT:ctx.slot[0-9]*]], i64 [[I0]]
; CHECK: [[E0:%[0-9]+]] = extractelement <3 x float> [[W]], i64 0
; CHECK: store float [[E0]], ptr [[A0]], align 4
; CHECK: [[K1:%[0-9]+]] = mul i64 [[COUNT]], 1
; CHECK: [[I1:%[0-9]+]] = add i64 [[K1]], %wi
; CHECK: [[A1:%[0-9]+]] = getelementptr float, ptr %[[SLOT]], i64 [[I1]]
; CHECK: [[E1:%[0-9]+]] = extractelement <3 x float> [[W]], i64 1
; CHECK: store float [[E1]], ptr [[A1]], align 4
; CHECK: [[K2:%[0-9]+]] = mul i64 [[COUNT]], 2
; CHECK: [[I2:%[0-9]+]] = add i64 [[K2]], %wi
; CHECK: [[A2:%[0-9]+]] = getelementptr float, ptr %[[SLOT]], i64 [[I2]]
; CHECK: [[E2:%[0-9]+]] = extractelement <3 x float> [[W]], i64 2
; CHECK: store float [[E2]], ptr [[A2]], align 4
; The scalar keeps a plain slot.
; CHECK: store float %{{[0-9]+}}, ptr %{{[0-9]+}}, align 4
; Reloaded after the barrier element by element.
; CHECK: wi.loop0{{[0-9]+}}:
; CHECK: [[L0:%[0-9]+]] = load float, ptr %{{[0-9]+}}, align 4
; CHECK: [[V0:%[0-9]+]] = insertelement <3 x float> poison, float [[L0]], i64 0
; CHECK: [[L1:%[0-9]+]] = load float, ptr %{{[0-9]+}}, align 4
; CHECK: [[V1:%[0-9]+]] = insertelement <3 x float> [[V0]], float [[L1]], i64 1
; CHECK: [[L2:%[0-9]+]] = load float, ptr %{{[0-9]+}}, align 4
; CHECK: insertelement <3 x float> [[V1]], float [[L2]], i64 2
; CHECK-NOT: load <3 x float>, ptr %ctx.slot
