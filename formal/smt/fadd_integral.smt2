; FLR, CEIL, TRUNC, ROUND: every b and rounding direction. `sub` is for ADD only (FmadPipe
; ties it low).
(assert (= OP ADD_OP_INTEGRAL))
(assert (not SUB))
(assert (not (encodes RESULT (ref_integral ROUND B))))
