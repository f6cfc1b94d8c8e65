; ADD and SUB: every a, b, sub.
(assert (= OP ADD_OP_ADD))
(assert (not (encodes RESULT (ref_add A B SUB))))
