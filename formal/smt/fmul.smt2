; FMul (hdl/src/fmul.rs): a and b before the first edge (s0) give `result` after the fifth (s5).
(define-fun A () (_ BitVec 32) (|top_n a| s0))
(define-fun B () (_ BitVec 32) (|top_n b| s0))
(define-fun RESULT () (_ BitVec 32) (|top_n result| s5))
