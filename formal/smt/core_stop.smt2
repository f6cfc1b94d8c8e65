; A run stops cleanly. In state s0 the sequencer executes (EXEC) and at the edge to s1 it
; leaves execution (END, the end of the program, a fault, the budget, a lost last lane, or a
; pause at EMIT / ENDPRIM). Then:
;  - the drain timer is loaded with DRAIN_CLOCKS (the multiply-add's latency: the writes of
;    slots issued before s0 land) and, DRAIN_CLOCKS clocks later (s14), the core is idle (or
;    paused), not busy, and pulses done: it answers the host port again (core-host);
;  - no slot issues from s1 on: nothing executes after the stop;
;  - a fault is raised in the faulting instruction's first clock (before any of its slots) or
;    by a flow instruction (which issues no slots), and the clock that raises it enables no
;    register, predicate or address-stack write (its slot 0 may issue in that clock, with
;    every write enable off): a faulting instruction writes nothing;
;  - the fault code set at the stop is the one the host reads when idle (a pause reports its
;    pause code instead).
;
; The sequencer's invariant (core.smt2's core_inv) holds in s0: it is proven inductive here,
; on any state w0 and its successor w1, and it holds after reset (IDLE, pause 0).
(declare-const w0 |top_s|)
(declare-const w1 |top_s|)
(assert (|top_t| w0 w1))
(define-fun INVARIANT_KEPT () Bool (=> (core_inv w0) (core_inv w1)))
(assert (core_inv s0))
(assert (seq_state_is s0 SEQ_EXEC))
(assert (not (seq_state_is s1 SEQ_EXEC)))
(define-fun FAULT () (_ BitVec 4) (|top_n seq.fault_q.q| s1))
(define-fun FAULTED () Bool (distinct FAULT #x0))
(define-fun quiet ((s |top_s|)) Bool (not (|top_n seq.slot_valid| s)))
(assert (not (and
  INVARIANT_KEPT
  (seq_state_is s1 SEQ_DRAIN)
  (= (|top_n seq.timer.q| s1) DRAIN_CLOCKS)
  (quiet s1) (quiet s2) (quiet s3) (quiet s4) (quiet s5) (quiet s6) (quiet s7) (quiet s8)
  (quiet s9) (quiet s10) (quiet s11) (quiet s12) (quiet s13)
  (not (|top_n seq.busy| s14))
  (|top_n seq.done| s14)
  (=> FAULTED (and (not (|top_n we_slot| s0))
                   (not (|top_n astack.push1_we.d| s0))
                   (not (|top_n wp_slot| s0))
                   (or (|top_n seq.first_q.q| s0) (= (|top_n seq.kind_q.q| s0) KIND_FLOW))))
  (=> (= (|top_n seq.pause.q| s1) #x0)
      (and (seq_state_is s14 SEQ_IDLE) (= (|top_n host$fault| s14) FAULT))))))
