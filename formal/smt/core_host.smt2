; The idle core answers the host port: with the core idle (or paused) and the host starting
; nothing and writing nothing for two clocks, a read of any program, register or constant word
; presented at s0 returns that word of the memory on rdata two edges later (host_port's
; READ_LATENCY); busy stays low.
(define-fun idle ((s |top_s|)) Bool
  (or (= (|top_n seq.state.q| s) SEQ_IDLE) (= (|top_n seq.state.q| s) SEQ_PAUSED)))
(define-fun calm ((s |top_s|)) Bool
  (not (or (|top_n host$start| s) (|top_n host$clear| s) (|top_n host$resume| s) (|top_n host$we| s))))
(assert (idle s0))
(assert (calm s0))
(assert (calm s1))
(define-fun ADDR () (_ BitVec 16) (|top_n host$addr| s0))
(define-fun WORD () (_ BitVec 8) ((_ extract 9 2) ADDR))
(define-fun BANK () (_ BitVec 2) ((_ extract 1 0) ADDR))
(define-fun R8 () (_ BitVec 8) ((_ extract 7 0) ADDR))
(define-fun PROGRAM () (_ BitVec 32)
  (ite (= BANK #b00) (select (|top_m imem$0.mem| s0) WORD)
  (ite (= BANK #b01) (select (|top_m imem$1.mem| s0) WORD)
  (ite (= BANK #b10) (select (|top_m imem$2.mem| s0) WORD)
       (bvand (select (|top_m imem$3.mem| s0) WORD) #x0000ffff)))))
(define-fun RDATA () (_ BitVec 32) (|top_n host$rdata| s2))
(assert (not (and
  (not (|top_n host$busy| s0)) (not (|top_n host$busy| s1)) (not (|top_n host$busy| s2))
  (=> (= ((_ extract 15 10) ADDR) #b000000) (= RDATA PROGRAM))
  (=> (= ((_ extract 15 8) ADDR) #x04) (= RDATA (select (|top_m kmem.mem| s0) R8)))
  (=> (= ((_ extract 15 8) ADDR) #x08) (= RDATA (select (|top_m opa.mem.mem| s0) R8))))))
