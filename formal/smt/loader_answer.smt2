; loader-info, loader-status: the request in the frame buffer (length field 0, the command,
; any sequence number SEQ) and the receiver's verdict 8 (its body: the 4-byte header and the
; CRC); REASON, the answer's result byte, is 0 (the firmware's invariant between requests:
; only `nak` sets it, and resets it once the byte is sent).
(declare-const SEQ (_ BitVec 8))
(assert (= (ldr_byte s0 #b00000000000) #x00))
(assert (= (ldr_byte s0 #b00000000001) #x00))
(assert (= (ldr_byte s0 #b00000000011) SEQ))
(assert (= (ldr_byte s0 LDR_REASON) #x00))
(assert (ldr_closed s0 #b000001000))
; Wire byte K of the answer (SLIP: END, then the body stuffed), for K up to its result byte:
; END, the length (LEN: the result byte and the data), the command with the answer bit, the
; sequence number (ESC ESC_END or ESC ESC_ESC if it is END or ESC), ACK (0).
(define-fun ldr_stuffed () Bool (or (= SEQ #xc0) (= SEQ #xdb)))
(define-fun ldr_head ((k (_ BitVec 8)) (len (_ BitVec 16)) (cmd (_ BitVec 8))) (_ BitVec 8)
  (ite (= k #x00) #xc0
  (ite (= k #x01) ((_ extract 7 0) len)
  (ite (= k #x02) ((_ extract 15 8) len)
  (ite (= k #x03) (bvor cmd LDR_ANSWER_BIT)
  (ite (= k #x04) (ite ldr_stuffed #xdb SEQ)
  (ite (= k #x05) (ite (= SEQ #xc0) #xdc (ite (= SEQ #xdb) #xdd #x00))
  #x00)))))))
; Wire bytes up to the result byte.
(define-fun ldr_head_bytes () (_ BitVec 8) (ite ldr_stuffed #x07 #x06))
(define-fun W0 () (_ BitVec 8) #x00)
