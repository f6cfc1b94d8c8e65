; FAdd (hdl/src/fadd.rs): operands and controls presented before the first clock edge (state
; s0) give `result` after the fifth (s5). Every query below picks one operation; registers
; start anywhere, so whatever is in flight does not matter.
(define-fun A () (_ BitVec 32) (|top_n a| s0))
(define-fun B () (_ BitVec 32) (|top_n b| s0))
(define-fun SUB () Bool (|top_n sub| s0))
(define-fun OP () (_ BitVec 3) (|top_n op| s0))
(define-fun ROUND () (_ BitVec 2) (|top_n round| s0))
(define-fun RESULT () (_ BitVec 32) (|top_n result| s5))
