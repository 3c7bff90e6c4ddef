; A function that calls one of libmvec's AVX-512 variants (_ZGVe...) may
; use 512-bit registers to pass its vectors ("min-legal-vector-width"), even
; where it prefers 256-bit vectors; callers of narrower variants are left
; alone.
; RUN: %opt -passes=lockstep-vector-math-callers -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare <16 x float> @_ZGVeN16v_expf(<16 x float>)
declare <8 x float> @_ZGVdN8v_expf(<8 x float>)

define <16 x float> @wide(<16 x float> %x) #0 {
  %y = call <16 x float> @_ZGVeN16v_expf(<16 x float> %x)
  ret <16 x float> %y
}

define <8 x float> @narrow(<8 x float> %x) #0 {
  %y = call <8 x float> @_ZGVdN8v_expf(<8 x float> %x)
  ret <8 x float> %y
}

attributes #0 = { "prefer-vector-width"="256" }

; CHECK: define <16 x float> @wide(<16 x float> %x) #[[WIDE:[0-9]+]]
; CHECK: define <8 x float> @narrow(<8 x float> %x) #[[NARROW:[0-9]+]]
; CHECK: attributes #[[WIDE]] = { "min-legal-vector-width"="512" "prefer-vector-width"="256" }
; CHECK: attributes #[[NARROW]] = { "prefer-vector-width"="256" }
