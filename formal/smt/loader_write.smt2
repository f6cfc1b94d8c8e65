; loader-write: a WRITE outside the area it may write is refused. It starts where the
; dispatcher enters WRITE's handler (the request passed the receiver's and the dispatcher's
; checks: loader-info and loader-status cover that path): executing the handler's first
; instruction with A = the payload length PAYLOAD, the previous answer out, no core command
; pending; every other register, the CRC unit, the receiver (off: the firmware is not in
; WAITF) and the loader memory but the request hold anything. The request in the frame buffer:
; region code R, u32 address ADDR, data (any), PAYLOAD from the header and one data byte up
; to the largest payload. Outside: R names no region, or one WRITE cannot reach (OUTPUTS,
; RESULTS), or ADDR + CNT (CNT: the data bytes; the sum not wrapped) passes the region's
; limit, the u32 the firmware keeps for it (ldr_wtab: the length BEGIN latched for an image
; region, the INFO record's size for INPUTS and PARAMS; any values: every state), or the
; region is one of the image's while no upload is in progress.
(declare-const PAYLOAD (_ BitVec 16))
(assert (bvuge PAYLOAD (bvadd LDR_WRITE_HEADER #x0001)))
(assert (bvule PAYLOAD (bvsub ((_ zero_extend 5) LDR_FRAME_END) #x0008)))
(assert (|top_n go.q| s0))
(assert (not (|top_n fetch.q| s0)))
(assert (= (|top_n st.q| s0) #x0))
(assert (= (|top_n pc.q| s0) LDR_WRITE_PC))
(assert (= (|top_n ir.q| s0) LDR_WRITE_IR))
(assert (= (|top_n a.q| s0) ((_ zero_extend 16) PAYLOAD)))
(assert (not (|top_n txv.q| s0)))
(assert (not (|top_n clear_q.q| s0)))
(assert (not (|top_n start_q.q| s0)))
(assert (not (|top_n resume_q.q| s0)))
(define-fun R () (_ BitVec 8) (ldr_byte s0 #b00000000100))
(define-fun ADDR () (_ BitVec 32)
  (concat (ldr_byte s0 #b00000001000) (ldr_byte s0 #b00000000111) (ldr_byte s0 #b00000000110)
          (ldr_byte s0 #b00000000101)))
(define-fun CNT () (_ BitVec 33) ((_ zero_extend 17) (bvsub PAYLOAD LDR_WRITE_HEADER)))
(define-fun LIMIT () (_ BitVec 33) ((_ zero_extend 1) (ldr_word s0 (ldr_wtab R))))
; Or: an image region while no upload is in progress (the load state NO_IMAGE, or VALID: the
; committed image), whatever the range.
(define-fun LD () (_ BitVec 32) (ldr_word s0 LDR_LD))
(assert (or (bvuge R LDR_REGIONS) (= (ldr_wtab R) #b00000000000)
            (bvugt (bvadd ((_ zero_extend 1) ADDR) CNT) LIMIT)
            (and (ldr_image R) (or (= LD LDR_NO_IMAGE) (= LD LDR_VALID)))))
; The firmware executes `nak` (the first clock of its first instruction) with a reason.
(define-fun ldr_at_nak ((s |top_s|)) Bool
  (and (= (|top_n pc.q| s) LDR_NAK_PC) (not (|top_n fetch.q| s)) (= (|top_n st.q| s) #x0)
       (distinct (|top_n a.q| s) #x00000000)))
(define-fun N0 () Bool false)
