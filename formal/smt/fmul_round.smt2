; MUL with the significand product as a cut point: yosys replaces what stage 4 registers (the
; product's bits 47..8 and the two sticky bits) by a free 48-bit P, so this query holds for
; every P in [2^46, 2^48) (every product of two 24-bit significands with their hidden bits
; lies there). The reference reads the same P as the exact significand product: for normal
; operands |a * b| = P * 2^(ea + eb - 300) exactly, built in binary64 (48 significant bits,
; exponent well inside binary64's range, so the multiplication by a power of two is exact), then
; rounded to binary32 by SMT-LIB's to_fp (RNE, on the subnormal grid) and flushed. Special
; operands (zero, subnormal, infinity, NaN) go straight to fp.mul. fmul-product proves that
; the unit's P is the product.
(declare-const P (_ BitVec 48))
(assert (bvuge P #x400000000000))
(assert (= (|top_n s4_p$d| s3) ((_ extract 47 8) P)))
(assert (= (|top_n s4_sticky47$d| s3) (not (= ((_ extract 22 0) P) #b00000000000000000000000))))
(assert (= (|top_n s4_sticky46$d| s3) (not (= ((_ extract 21 0) P) #b0000000000000000000000))))
(define-fun EA () (_ BitVec 8) ((_ extract 30 23) A))
(define-fun EB () (_ BitVec 8) ((_ extract 30 23) B))
(define-fun NORMAL () Bool
  (and (distinct EA #x00) (distinct EA #xff) (distinct EB #x00) (distinct EB #xff)))
; 2^(ea + eb - 300) in binary64: biased exponent ea + eb - 300 + 1023 (725..1231).
(define-fun POW2 () (_ FloatingPoint 11 53)
  (fp #b0 (bvadd ((_ zero_extend 3) EA) ((_ zero_extend 3) EB) #b01011010011) #x0000000000000))
(define-fun EXACT () (_ FloatingPoint 11 53)
  (fp.mul RNE ((_ to_fp_unsigned 11 53) RNE P) POW2))
(define-fun NEGATIVE () Bool (distinct ((_ extract 31 31) A) ((_ extract 31 31) B)))
(define-fun ROUNDED () Float32
  (flush_out ((_ to_fp 8 24) RNE (ite NEGATIVE (fp.neg EXACT) EXACT))))
(assert (not (encodes RESULT (ite NORMAL ROUNDED (ref_mul A B)))))
