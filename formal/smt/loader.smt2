; The loader proofs' common part (`loader-*` in formal/src/proofs.rs). The unit is the whole
; `hdl::loader::Loader` of the board build: the processor, its firmware memory as logic holding
; the firmware (`Flow::Firmware`), the loader memory (an array, any contents), the frame
; receiver, the CRC unit, the transmitter's handshake. The LDR_* constants come from the
; firmware, `hdl::loader_layout` and `microcode::protocol` (formal/src/loader.rs).

(define-fun ldr_byte ((s |top_s|) (a (_ BitVec 11))) (_ BitVec 8) (select (|top_m mem.mem| s) a))
(define-fun ldr_word ((s |top_s|) (a (_ BitVec 11))) (_ BitVec 32)
  (concat (ldr_byte s (bvadd a #b00000000011)) (ldr_byte s (bvadd a #b00000000010))
          (ldr_byte s (bvadd a #b00000000001)) (ldr_byte s a)))

; The start of every loader proof: the firmware waits for a request in WAITF at `idle` (its
; only WAITF; the processor's registers A, T, P, H, N, C, E, LR hold anything, and so do the
; loader memory, that is every variable of every protocol state, the LEDs, the CRC unit and
; the core's status), the previous answer is out (the transmitter holds no byte, no core
; command pending), and the receiver has just closed a segment: the clock after its END, with
; verdict LEN (0: dropped; else the body length of a frame whose CRC matched, which
; `frame-crc` proves is the only way to a length that is not 0). The CRC unit has absorbed the
; segment's last byte (bytes arrive at least 9 clocks apart, PROTOCOL.md).
(define-fun ldr_closed ((s |top_s|) (len (_ BitVec 9))) Bool
  (and (|top_n go.q| s) (not (|top_n fetch.q| s)) (= (|top_n st.q| s) #x0)
       (= (|top_n pc.q| s) LDR_IDLE_PC) (= (|top_n ir.q| s) LDR_WAITF)
       (not (|top_n txv.q| s))
       (not (|top_n clear_q.q| s)) (not (|top_n start_q.q| s)) (not (|top_n resume_q.q| s))
       (|top_n frame_rx.closed_q.q| s) (= (|top_n frame_rx.body_len_q.q| s) len)
       (= (|top_n frame_rx.count.q| s) #b000000000)
       (not (|top_n frame_rx.escaped.q| s)) (not (|top_n frame_rx.error.q| s))
       (not (|top_n crc.busy| s))))

; Waiting in WAITF at `idle` again.
(define-fun ldr_waiting ((s |top_s|)) Bool
  (and (|top_n go.q| s) (not (|top_n fetch.q| s)) (= (|top_n st.q| s) #x0)
       (= (|top_n pc.q| s) LDR_IDLE_PC) (= (|top_n ir.q| s) LDR_WAITF)))

; The inputs every clock: no reset (the button restarts the firmware, outside these proofs),
; no byte on the line (the host waits for the answer; bytes that came would be discarded
; until WAITF, where these proofs end), the transmitter takes every byte at once (the line's
; own pace only adds waits).
(define-fun ldr_inputs ((s |top_s|)) Bool
  (and (not (|top_n reset| s)) (not (|top_n rx_valid| s)) (|top_n tx_ready| s)))

; The core is left alone: no host-port write, no clear, start or resume.
(define-fun ldr_core_quiet ((s |top_s|)) Bool
  (and (not (|top_n host$we| s)) (not (|top_n host$clear| s)) (not (|top_n host$start| s))
       (not (|top_n host$resume| s))))

; A loader-memory write in this clock, if any, is to [lo, hi).
(define-fun ldr_writes_within ((s |top_s|) (lo (_ BitVec 11)) (hi (_ BitVec 11))) Bool
  (=> (|top_n mem.we| s)
      (and (bvuge (|top_n mem.wa| s) lo) (bvult (|top_n mem.wa| s) hi))))
