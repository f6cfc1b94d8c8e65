; ShaderCore (hdl/src/shader_core.rs), the board build. The first state s0 is ANY state: every
; register and every block RAM (program, register files, constants, the slot-control buffer,
; the address stack) holds anything, and the host port is driven freely every clock. So each
; property holds for every program, every register content and everything the host does, from
; any point of any run, once enough clocks have passed since s0 for its cone to be refilled.
(define-fun bit_of ((v (_ BitVec 4)) (i (_ BitVec 2))) Bool
  (= ((_ extract 0 0) (bvlshr v ((_ zero_extend 2) i))) #b1))
; The lane of the slot the sequencer issues in state s (slot = 4 * lane + component).
(define-fun issue_lane ((s |top_s|)) (_ BitVec 2) ((_ extract 3 2) (|top_n seq.slot| s)))
;
; What every reachable state of the sequencer satisfies (after reset it is IDLE with every
; register 0, and each clock keeps it: the proofs that assume it of an arbitrary first state
; also prove that step):
;  - while a run fetches or executes, the fault register is 0 (a run clears it; a fault ends
;    execution), and a pause code is pending only while draining after the pausing
;    instruction's last clock;
;  - FETCH starts at instruction 0; while executing, the instruction memory's read registers
;    hold the word of the instruction at pc (the host cannot write while busy), so the decoder
;    sees one instruction throughout it and, after its first clock, agrees with the fields the
;    sequencer registered then.
(define-fun seq_state_is ((s |top_s|) (v (_ BitVec 3))) Bool (= (|top_n seq.state.q| s) v))
(define-fun core_inv ((s |top_s|)) Bool
  (and
    (=> (or (seq_state_is s SEQ_FETCH) (seq_state_is s SEQ_RESUME) (seq_state_is s SEQ_EXEC))
        (= (|top_n seq.fault_q.q| s) #x0))
    (=> (distinct (|top_n seq.pause.q| s) #x0)
        (and (seq_state_is s SEQ_DRAIN) (|top_n seq.first_q.q| s)))
    (=> (seq_state_is s SEQ_FETCH) (= (|top_n seq.pc.q| s) #x00))
    (=> (seq_state_is s SEQ_EXEC)
        (and (= (|top_n imem$0.rd| s) (select (|top_m imem$0.mem| s) (|top_n seq.pc.q| s)))
             (= (|top_n imem$1.rd| s) (select (|top_m imem$1.mem| s) (|top_n seq.pc.q| s)))
             (= (|top_n imem$2.rd| s) (select (|top_m imem$2.mem| s) (|top_n seq.pc.q| s)))
             ; bank 3 holds bits 96..111 of the word: its upper half is never read
             (= ((_ extract 15 0) (|top_n imem$3.rd| s))
                ((_ extract 15 0) (select (|top_m imem$3.mem| s) (|top_n seq.pc.q| s))))))
    (=> (and (seq_state_is s SEQ_EXEC) (not (|top_n seq.first_q.q| s)))
        (and (= (|top_n seq.kind_q.q| s) (|top_n seq.kind| s))
             (= (|top_n seq.flow_q.q| s) (|top_n seq.flow| s))
             ; a missing unit faults in the instruction's first clock
             (distinct (|top_n seq.kind_q.q| s) KIND_MISSING)))))
