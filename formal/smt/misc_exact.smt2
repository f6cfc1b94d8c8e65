; MOV (bits kept), EXPN and MANT (LOG's exact parts), ISGN and USGN.
(assert (or (= SELECT SEL_MOV) (= SELECT SEL_EXPN) (= SELECT SEL_MANT) (= SELECT SEL_SIGN)))
(define-fun MODE () (_ BitVec 2) (|top_n i2f_mode| s0))
(assert (or (= MODE I2F_SIGNED) (= MODE I2F_UNSIGNED)))
(assert (not
  (ite (= SELECT SEL_MOV) (= RESULT A)
  (ite (= SELECT SEL_EXPN) (encodes RESULT (ref_expn A))
  (ite (= SELECT SEL_MANT) (encodes RESULT (ref_mant A))
       (encodes RESULT (ref_sign (= MODE I2F_SIGNED) A)))))))
