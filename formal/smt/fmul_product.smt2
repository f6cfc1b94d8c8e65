; The significand product P = ma * mb (ma, mb: the 24-bit significands with the hidden bit,
; which the unit sets whatever the exponent), as three solver-checked lemmas about the unit's
; three product stages and one step of algebra:
;  (1) stages 1-2 (from the operands at s0, rows at s1): p_m = ma * mb[4m+3:4m], m = 0..5
;      (each a 24x4 product, < 2^28);
;  (2) stage 3 (any state w, whatever its registers hold, given p_m <= 15 (2^24 - 1)):
;      t_n = p_2n + 16 p_2n+1 exactly, n = 0..2;
;  (3) stage 4 (any state w, given t_n <= 255 (2^24 - 1)): the registered bits 47..8 of
;      P = t0 + 2^8 t1 + 2^16 t2 and the sticky bits |P[22:0], |P[21:0].
; Then P = sum_n 2^8n t_n = sum_m 16^m p_m = sum_m 16^m ma mb[4m+3:4m] = ma * mb
; (distributivity), which is what fmul-round assumes of its cut point. The bounds of (2) and (3)
; follow from (1) and (2), so no step wraps.
(define-fun MA () (_ BitVec 24) (concat #b1 ((_ extract 22 0) A)))
(define-fun MB () (_ BitVec 24) (concat #b1 ((_ extract 22 0) B)))
(define-fun row ((n (_ BitVec 4))) (_ BitVec 28)
  (bvmul ((_ zero_extend 4) MA) ((_ zero_extend 24) n)))
(define-fun lemma1 () Bool (and
  (= (|top_n s2_p0$d| s1) (row ((_ extract 3 0) MB)))
  (= (|top_n s2_p1$d| s1) (row ((_ extract 7 4) MB)))
  (= (|top_n s2_p2$d| s1) (row ((_ extract 11 8) MB)))
  (= (|top_n s2_p3$d| s1) (row ((_ extract 15 12) MB)))
  (= (|top_n s2_p4$d| s1) (row ((_ extract 19 16) MB)))
  (= (|top_n s2_p5$d| s1) (row ((_ extract 23 20) MB)))))
(declare-const w |top_s|)
(define-fun p ((x (_ BitVec 28))) (_ BitVec 36) ((_ zero_extend 8) x))
(define-fun P_MAX () (_ BitVec 28) #xefffff1)
(define-fun sum3 ((lo (_ BitVec 28)) (hi (_ BitVec 28))) (_ BitVec 36)
  (bvadd (p lo) (bvshl (p hi) #x000000004)))
(define-fun lemma2 () Bool
  (=> (and (bvule (|top_n s2_p0$q| w) P_MAX) (bvule (|top_n s2_p1$q| w) P_MAX)
           (bvule (|top_n s2_p2$q| w) P_MAX) (bvule (|top_n s2_p3$q| w) P_MAX)
           (bvule (|top_n s2_p4$q| w) P_MAX) (bvule (|top_n s2_p5$q| w) P_MAX))
      (and (= ((_ zero_extend 4) (|top_n s3_t0$d| w)) (sum3 (|top_n s2_p0$q| w) (|top_n s2_p1$q| w)))
           (= ((_ zero_extend 4) (|top_n s3_t1$d| w)) (sum3 (|top_n s2_p2$q| w) (|top_n s2_p3$q| w)))
           (= ((_ zero_extend 4) (|top_n s3_t2$d| w)) (sum3 (|top_n s2_p4$q| w) (|top_n s2_p5$q| w))))))
(define-fun t ((x (_ BitVec 32))) (_ BitVec 48) ((_ zero_extend 16) x))
(define-fun T_MAX () (_ BitVec 32) #xfeffff01)
(define-fun PRODUCT () (_ BitVec 48)
  (bvadd (t (|top_n s3_t0$q| w))
         (bvshl (t (|top_n s3_t1$q| w)) #x000000000008)
         (bvshl (t (|top_n s3_t2$q| w)) #x000000000010)))
(define-fun lemma3 () Bool
  (=> (and (bvule (|top_n s3_t0$q| w) T_MAX) (bvule (|top_n s3_t1$q| w) T_MAX)
           (bvule (|top_n s3_t2$q| w) T_MAX))
      (and (= (|top_n s4_p$d| w) ((_ extract 47 8) PRODUCT))
           (= (|top_n s4_sticky47$d| w) (distinct ((_ extract 22 0) PRODUCT) #b00000000000000000000000))
           (= (|top_n s4_sticky46$d| w) (distinct ((_ extract 21 0) PRODUCT) #b0000000000000000000000)))))
(assert (not (and lemma1 lemma2 lemma3)))
