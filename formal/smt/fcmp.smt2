; FCmp (hdl/src/fcmp.rs): a and b before the first edge (s0) give lt, eq, gt and unordered
; after it (s1); the caller presents the same operands, registered, on a1/b1 after the edge, and
; `mode` then (free here: every mode is checked) chooses what `pick` returns.
(define-fun A () (_ BitVec 32) (|top_n a| s0))
(define-fun B () (_ BitVec 32) (|top_n b| s0))
(assert (= (|top_n a1| s1) A))
(assert (= (|top_n b1| s1) B))
(define-fun MODE () (_ BitVec 2) (|top_n mode| s1))
(define-fun TAKE_A () Bool
  (ite (= MODE #b00) (ref_cond COND_LT A B)     ; MIN: lt ? a : b
  (ite (= MODE #b01) (ref_cond COND_GT A B)     ; MAX: gt ? a : b
  (ite (= MODE #b10) false true))))             ; SEL: b or a
(assert (not (and
  (= (|top_n lt| s1) (ref_cond COND_LT A B))
  (= (|top_n eq| s1) (ref_cond COND_EQ A B))
  (= (|top_n gt| s1) (ref_cond COND_GT A B))
  (= (|top_n unordered| s1) (or (fp.isNaN (flush_in A)) (fp.isNaN (flush_in B))))
  (= (|top_n pick| s1) (chosen_bits (ite TAKE_A A B))))))
