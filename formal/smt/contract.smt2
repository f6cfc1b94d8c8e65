; The project's numeric contract (shared/notes/decisions.md section 2), written for the proofs
; on SMT-LIB's FloatingPoint theory. This is the independent reference every float proof
; compares a unit against: it follows the contract's words, not the units' or the models' code.
;
;  - a binary32 operand of a float operation with a zero exponent field (zero or subnormal)
;    counts as a zero of its sign;
;  - results are rounded to nearest-even exactly as IEEE binary32 rounds (on the subnormal
;    grid: SMT-LIB's Float32 operations do just that), then a subnormal result is flushed to a
;    zero of its sign;
;  - every NaN result is 0x7FC00000.

; An operand as the float operations read it.
(define-fun flush_in ((x (_ BitVec 32))) Float32
  (ite (= ((_ extract 30 23) x) #x00)
       (ite (= ((_ extract 31 31) x) #b1) (_ -zero 8 24) (_ +zero 8 24))
       ((_ to_fp 8 24) x)))

; A rounded result with the flush rule applied.
(define-fun flush_out ((r Float32)) Float32
  (ite (fp.isSubnormal r)
       (ite (fp.isNegative r) (_ -zero 8 24) (_ +zero 8 24))
       r))

; `bits` encodes the contract's result `r`: the one NaN for any NaN, else exactly r (SMT
; equality tells +0 from -0).
(define-fun encodes ((bits (_ BitVec 32)) (r Float32)) Bool
  (ite (fp.isNaN r)
       (= bits #x7fc00000)
       (= ((_ to_fp 8 24) bits) r)))

; ---- The adder's operations (FAdd) ----

; ADD / SUB: a + b, or a - b (b's sign flipped before anything else).
(define-fun ref_add ((a (_ BitVec 32)) (b (_ BitVec 32)) (sub Bool)) Float32
  (flush_out (fp.add RNE (flush_in a)
                         (ite sub (fp.neg (flush_in b)) (flush_in b)))))

; The round-to-integral directions, by the hardware's RoundMode encoding: 0 floor (FLR,
; F2IF, EXPX), 1 ceil (CEIL), 2 trunc (TRUNC), 3 nearest-even (ROUND, ARR's F2IR).
(define-fun rounding ((mode (_ BitVec 2))) RoundingMode
  (ite (= mode #b00) RTN (ite (= mode #b01) RTP (ite (= mode #b10) RTZ RNE))))

; FLR, CEIL, TRUNC, ROUND: IEEE roundToIntegral (keeps the sign of a zero result).
(define-fun ref_integral ((mode (_ BitVec 2)) (x (_ BitVec 32))) Float32
  (flush_out (fp.roundToIntegral (rounding mode) (flush_in x))))

; A float written to the ADDRESS file (section 2): rounded in `mode`, NaN gives 0, values
; beyond int32 saturate.
(define-fun ref_f2i ((mode (_ BitVec 2)) (x (_ BitVec 32))) (_ BitVec 32)
  (let ((r (fp.roundToIntegral (rounding mode) (flush_in x))))
    (ite (fp.isNaN r) #x00000000
    (ite (fp.geq r ((_ to_fp 8 24) #x4f000000)) #x7fffffff          ; r >= 2^31
    (ite (fp.lt r ((_ to_fp 8 24) #xcf000000)) #x80000000           ; r < -2^31
         ((_ fp.to_sbv 32) RTZ r))))))

; I2F / U2F: the int32 or uint32 rounded to nearest-even (never subnormal).
(define-fun ref_i2f ((x (_ BitVec 32))) Float32
  (flush_out ((_ to_fp 8 24) RNE x)))
(define-fun ref_u2f ((x (_ BitVec 32))) Float32
  (flush_out ((_ to_fp_unsigned 8 24) RNE x)))

; EXP.x: 2^floor(x), then the flush rule (2^n for n < -126 is subnormal or zero: +0); infinity
; above 2^127; NaN stays NaN. 2^n for -126 <= n <= 127 is the binary32 with exponent field
; n + 127 and a zero fraction.
(define-fun ref_expx ((x (_ BitVec 32))) Float32
  (let ((n (fp.roundToIntegral RTN (flush_in x))))
    (ite (fp.isNaN n) (_ NaN 8 24)
    (ite (fp.geq n ((_ to_fp 8 24) #x43000000)) (_ +oo 8 24)        ; n >= 128
    (ite (fp.lt n ((_ to_fp 8 24) #xc2fc0000)) (_ +zero 8 24)       ; n < -126
         ((_ to_fp 8 24) (concat #b0
                                 (bvadd ((_ extract 7 0) ((_ fp.to_sbv 32) RTZ n)) #x7f)
                                 #b00000000000000000000000)))))))

; ---- Compares and selects (FCmp, MiscUnit) ----

; A comparison of the ISA's condition field (microcode::core::isa::Cond) on the operands as
; float operations read them: IEEE's ordered comparisons (any NaN: only NE and TR hold; -0 and
; +0 are equal).
(define-fun ref_cond ((c (_ BitVec 3)) (a (_ BitVec 32)) (b (_ BitVec 32))) Bool
  (let ((x (flush_in a)) (y (flush_in b)))
    (ite (= c COND_LT) (fp.lt x y)
    (ite (= c COND_GE) (fp.geq x y)
    (ite (= c COND_EQ) (fp.eq x y)
    (ite (= c COND_NE) (not (fp.eq x y))
    (ite (= c COND_GT) (fp.gt x y)
    (ite (= c COND_LE) (fp.leq x y)
    (ite (= c COND_FL) false
         true)))))))))

; A select returns the chosen operand's bits, except that a chosen subnormal becomes a zero of
; its sign (section 2, "Moves keep bits").
(define-fun chosen_bits ((x (_ BitVec 32))) (_ BitVec 32)
  (ite (= ((_ extract 30 23) x) #x00) (concat ((_ extract 31 31) x) #b0000000000000000000000000000000) x))

; ---- LOG's exact parts (EXPN, MANT) and the integer sign (ISGN, USGN) ----

; LOG.x: the unbiased exponent of |x| as a float (exact); LOG(0) = -inf (subnormals are zeros),
; LOG(inf) = inf, NaN stays NaN.
(define-fun ref_expn ((x (_ BitVec 32))) Float32
  (let ((e ((_ extract 30 23) x)))
    (ite (= e #x00) (_ -oo 8 24)
    (ite (= e #xff) (ite (= ((_ extract 22 0) x) #b00000000000000000000000) (_ +oo 8 24) (_ NaN 8 24))
         ((_ to_fp 8 24) RNE (bvsub ((_ zero_extend 24) e) #x0000007f))))))

; LOG.y: the significand of |x| in [1, 2) (exact: 1.fraction); NaN for zero, infinity and NaN
; (LOG(0).y = LOG(inf).y = NaN).
(define-fun ref_mant ((x (_ BitVec 32))) Float32
  (let ((e ((_ extract 30 23) x)))
    (ite (or (= e #x00) (= e #xff)) (_ NaN 8 24)
         (fp #b0 #x7f ((_ extract 22 0) x)))))

; ISGN / USGN: -1.0, 0.0 or 1.0 by the sign of the int32 (uint32: 0.0 or 1.0).
(define-fun ref_sign ((signed Bool) (x (_ BitVec 32))) Float32
  (ite (= x #x00000000) (_ +zero 8 24)
  (ite (and signed (bvslt x #x00000000)) (fp.neg ((_ to_fp 8 24) RNE 1.0))
       ((_ to_fp 8 24) RNE 1.0))))

; ---- The integer ALU (section 2, "Integers") ----

; Two's complement, wrapping; shifts by (b & 31); SHR is arithmetic.
(define-fun ref_int ((op (_ BitVec 3)) (a (_ BitVec 32)) (b (_ BitVec 32))) (_ BitVec 32)
  (let ((s (bvand b #x0000001f)))
    (ite (= op INT_IADD) (bvadd a b)
    (ite (= op INT_ISUB) (bvsub a b)
    (ite (= op INT_AND) (bvand a b)
    (ite (= op INT_OR) (bvor a b)
    (ite (= op INT_XOR) (bvxor a b)
    (ite (= op INT_NOT) (bvnot a)
    (ite (= op INT_SHL) (bvshl a s)
         (bvashr a s)))))))))) ; INT_SHR, the last of the eight codes

; ---- The multiplier (FMul) ----

; MUL: a * b rounded to nearest-even, flush and NaN rules.
(define-fun ref_mul ((a (_ BitVec 32)) (b (_ BitVec 32))) Float32
  (flush_out (fp.mul RNE (flush_in a) (flush_in b))))
