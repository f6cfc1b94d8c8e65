; IADD, ISUB, AND, OR, XOR, NOT, SHL, SHR: every operation and operand pair.
(assert (= SELECT SEL_INT))
(assert (not (= RESULT (ref_int (|top_n int_op| s0) A B))))
