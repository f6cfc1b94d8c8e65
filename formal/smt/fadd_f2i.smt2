; F2IF, F2IR (ARL, ARR, the address file's conversions): every b and rounding direction.
(assert (= OP ADD_OP_F2I))
(assert (not SUB))
(assert (not (= RESULT (ref_f2i ROUND B))))
