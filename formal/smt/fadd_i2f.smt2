; I2F and U2F: every int32 and uint32.
(assert (or (= OP ADD_OP_I2FS) (= OP ADD_OP_I2FU)))
(assert (not SUB))
(assert (not (encodes RESULT (ite (= OP ADD_OP_I2FS) (ref_i2f B) (ref_u2f B)))))
