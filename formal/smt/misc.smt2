; MiscUnit (hdl/src/misc_unit.rs) of a build with the integer ALU: operands and controls before
; the first edge (s0) give `result` after the fourth (s4).
(define-fun A () (_ BitVec 32) (|top_n a| s0))
(define-fun B () (_ BitVec 32) (|top_n b| s0))
(define-fun SELECT () (_ BitVec 4) (|top_n sel| s0))
(define-fun RESULT () (_ BitVec 32) (|top_n result| s4))
