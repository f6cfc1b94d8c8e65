(assert (= (ldr_byte s0 #b00000000010) LDR_CMD_INFO))
(define-fun ldr_len () (_ BitVec 16) LDR_INFO_LEN)
(define-fun ldr_cmd () (_ BitVec 8) LDR_CMD_INFO)
