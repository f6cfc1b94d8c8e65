; EXPX (EXP.x = 2^floor(x)): every b; the decoder always sends the floor direction.
(assert (= OP ADD_OP_EXPX))
(assert (= ROUND ROUND_FLOOR))
(assert (not SUB))
(assert (not (encodes RESULT (ref_expx B))))
