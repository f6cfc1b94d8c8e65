; loader-write: a WRITE outside the area it may write is refused. The request in the frame
; buffer: length field LEN - 8, WRITE, any sequence number SEQ, region code R, u32 address
; ADDR, data (any); the receiver's verdict LEN, from a header and one data byte up to the
; receiver's largest body. Outside: R names no region, or one WRITE cannot reach (OUTPUTS,
; RESULTS), or ADDR + CNT (CNT: the data bytes; the sum not wrapped) passes the region's
; limit, the u32 the firmware keeps for it (ldr_wtab: the length BEGIN latched for an image
; region, the INFO record's size for INPUTS and PARAMS; any values: every state).
(declare-const SEQ (_ BitVec 8))
(declare-const LEN (_ BitVec 9))
(assert (bvuge LEN (bvadd #b000001000 ((_ extract 8 0) LDR_WRITE_HEADER) #b000000001)))
(assert (bvule LEN ((_ extract 8 0) LDR_FRAME_END)))
(define-fun PAYLOAD () (_ BitVec 16) ((_ zero_extend 7) (bvsub LEN #b000001000)))
(assert (= (ldr_byte s0 #b00000000000) ((_ extract 7 0) PAYLOAD)))
(assert (= (ldr_byte s0 #b00000000001) ((_ extract 15 8) PAYLOAD)))
(assert (= (ldr_byte s0 #b00000000010) LDR_CMD_WRITE))
(assert (= (ldr_byte s0 #b00000000011) SEQ))
(assert (= (ldr_byte s0 LDR_REASON) #x00))
(assert (ldr_closed s0 LEN))
(define-fun R () (_ BitVec 8) (ldr_byte s0 #b00000000100))
(define-fun ADDR () (_ BitVec 32)
  (concat (ldr_byte s0 #b00000001000) (ldr_byte s0 #b00000000111) (ldr_byte s0 #b00000000110)
          (ldr_byte s0 #b00000000101)))
(define-fun CNT () (_ BitVec 33) ((_ zero_extend 17) (bvsub PAYLOAD LDR_WRITE_HEADER)))
(define-fun LIMIT () (_ BitVec 33) ((_ zero_extend 1) (ldr_word s0 (ldr_wtab R))))
(assert (or (bvuge R LDR_REGIONS) (= (ldr_wtab R) #b00000000000)
            (bvugt (bvadd ((_ zero_extend 1) ADDR) CNT) LIMIT)))
(define-fun ldr_stuffed () Bool (or (= SEQ #xc0) (= SEQ #xdb)))
; Wire byte K of a NAK up to its reason: END, length 1, WRITE with the answer bit, SEQ.
(define-fun ldr_nak ((k (_ BitVec 8))) (_ BitVec 8)
  (ite (= k #x00) #xc0
  (ite (= k #x01) #x01
  (ite (= k #x02) #x00
  (ite (= k #x03) (bvor LDR_CMD_WRITE LDR_ANSWER_BIT)
  (ite (= k #x04) (ite ldr_stuffed #xdb SEQ)
  (ite (= SEQ #xc0) #xdc #xdd)))))))
; The wire byte that carries the reason.
(define-fun ldr_reason_byte () (_ BitVec 8) (ite ldr_stuffed #x06 #x05))
(define-fun W0 () (_ BitVec 8) #x00)
