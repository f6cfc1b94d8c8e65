; MUL for every operand pair, the product included: the unit's radix-4 multiplier against the
; solver's own multiplier inside fp.mul (hard for SAT; the long run).
(assert (not (encodes RESULT (ref_mul A B))))
