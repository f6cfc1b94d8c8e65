; loader-drop: a dropped segment (the receiver's verdict 0: a bad CRC, a broken escape, an
; overlong body) changes nothing but the dropped-frame counter. From the start state with
; verdict 0, until the firmware waits again: no loader-memory write but to the counter's four
; bytes, the core left alone, no byte sent, the LEDs kept; then the counter is its low 16 bits
; plus one, or kept at 0xFFFF (saturating), and the firmware waits in WAITF.
(assert (ldr_closed s0 #b000000000))
(define-fun ldr_badf_after ((s |top_s|)) (_ BitVec 32)
  (let ((low ((_ extract 15 0) (ldr_word s0 LDR_BADF))))
    (ite (= low #xffff) (ldr_word s0 LDR_BADF) (bvadd ((_ zero_extend 16) low) #x00000001))))
(define-fun ldr_drop_done ((s |top_s|)) Bool
  (and (ldr_waiting s) (= (ldr_word s LDR_BADF) (ldr_badf_after s))))
