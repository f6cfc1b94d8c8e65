; A lane whose execution mask is off is never written. Every register-file or predicate write
; (the writeback's registered enables, the write at the end of that clock) belongs to a slot
; issued 12 clocks earlier (the multiply-add's long path) or 6 (the short path), and that slot's
; lane had its bit set in the execution mask e at issue. Checked at s12: the write's slot was
; issued at s0 or s6.
(define-fun WLANE () (_ BitVec 2) ((_ extract 3 2) (|top_n wb_wa.q| s12)))
(define-fun issued_enabled ((s |top_s|)) Bool
  (and (|top_n seq.slot_valid| s) (= (issue_lane s) WLANE) (bit_of (|top_n seq.e| s) WLANE)))
(assert (or (|top_n wb_we.q| s12) (|top_n wb_pwe.q| s12)))
(assert (not (or (issued_enabled s0) (issued_enabled s6))))
