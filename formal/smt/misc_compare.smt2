; SET (SLT, SGE, SEQ, SNE, SGT, SLE, SFL, STR and the predicates): every condition; MIN, MAX;
; SEL by the slot's predicate bit.
(assert (or (= SELECT SEL_SET) (= SELECT SEL_MIN) (= SELECT SEL_MAX) (= SELECT SEL_SEL)))
(define-fun TAKE_A () Bool
  (ite (= SELECT SEL_MIN) (ref_cond COND_LT A B)
  (ite (= SELECT SEL_MAX) (ref_cond COND_GT A B)
       (|top_n p| s0))))
(assert (not (ite (= SELECT SEL_SET)
  (= RESULT (ite (ref_cond (|top_n cond| s0) A B) #x3f800000 #x00000000))
  (= RESULT (chosen_bits (ite TAKE_A A B))))))
