; The mask stack and the address stack never wrap. From any state s0 where the sequencer's
; invariant (core_inv) and the stacks' own hold, one clock later (s1):
;  - both still hold (so, by induction from reset, where every count is 0, in every reachable
;    state): the mask stack holds at most MASK_FRAMES frames, and while an instruction that
;    pushes (pops) an address runs, after its first clock (where the overflow / underflow check
;    faults), every executing lane has room (an entry);
;  - the mask stack's count changes only by one push onto a stack with room, by pops from a
;    non-empty stack (one frame, or down to the innermost call), or by a reset to 0;
;  - each lane's address-stack depth changes only by one (up from below ASTACK_ENTRIES, down
;    from above 0), or to 0 when a run starts; an entry is written only one above a depth
;    below ASTACK_ENTRIES (never at a wrapped address in the addend line).
(define-fun count ((s |top_s|)) (_ BitVec 5) (|top_n seq.stack.count.q| s))
; An ALU instruction after its first clock: `remain` clocks follow this one, `await_` of them
; before the next slot, and `aslot` slots have issued; slot 15, the last, issues in the last
; clock (the sequencer's slot schedule; inductive with the rest).
(define-fun alu_running ((s |top_s|)) Bool
  (and (seq_state_is s SEQ_EXEC) (not (|top_n seq.first_q.q| s))
       (= (|top_n seq.kind_q.q| s) KIND_ALU)))
(define-fun w7 ((x (_ BitVec 6))) (_ BitVec 7) ((_ zero_extend 1) x))
(define-fun schedule ((s |top_s|)) Bool
  (=> (alu_running s)
      (and (bvule (|top_n seq.aslot.q| s) #b10000)
           (= (bvadd (w7 (|top_n seq.remain.q| s)) ((_ zero_extend 2) (|top_n seq.aslot.q| s)))
              (bvadd #b0001111 ((_ zero_extend 2) (|top_n seq.await_.q| s)))))))
; A lane of the running PUSHA / POPA that has not yet moved its depth (slot 15 moves it).
(define-fun alane ((s |top_s|) (l (_ BitVec 2))) Bool
  (and (alu_running s) (bvule (|top_n seq.aslot.q| s) #b01111)
       (bit_of (|top_n astack.e| s) l)))
(define-fun depth ((s |top_s|) (l (_ BitVec 2))) (_ BitVec 4)
  (ite (= l #b00) (|top_n astack.depth$0.q| s)
  (ite (= l #b01) (|top_n astack.depth$1.q| s)
  (ite (= l #b10) (|top_n astack.depth$2.q| s) (|top_n astack.depth$3.q| s)))))
(define-fun lane_room ((s |top_s|) (l (_ BitVec 2))) Bool
  (and (=> (and (alane s l) (= (|top_n astack.op| s) #b01)) (bvult (depth s l) ASTACK_ENTRIES))
       (=> (and (alane s l) (= (|top_n astack.op| s) #b10)) (distinct (depth s l) #x0))
       (bvule (depth s l) ASTACK_ENTRIES)))
(define-fun stacks_inv ((s |top_s|)) Bool
  (and (core_inv s)
       (schedule s)
       (bvule (count s) MASK_FRAMES)
       (bvule (|top_n seq.stack.sp_q.q| s) MASK_FRAMES)
       ; frame i exists (thermometer code `valid`) for i below the count
       (= (|top_n seq.stack.valid.q| s)
          (bvsub (bvshl #x01 ((_ extract 7 0) ((_ zero_extend 3) (count s)))) #x01))
       ; the registered depth is the count one clock ago, and the count grows by one a clock
       (bvule (count s) (bvadd (|top_n seq.stack.sp_q.q| s) #b00001))
       ; an empty stack shows no top frame after an instruction's first clock
       (=> (and (seq_state_is s SEQ_EXEC) (not (|top_n seq.first_q.q| s)) (= (count s) #b00000))
           (= (|top_n seq.stack.top_kind_q.q| s) #b00))
       ; the registered depth the full test reads has caught up after an instruction's
       ; first clock (flow instructions act in their last clock, never the first)
       (=> (and (seq_state_is s SEQ_EXEC) (not (|top_n seq.first_q.q| s)))
           (= (|top_n seq.stack.sp_q.q| s) (count s)))
       (lane_room s #b00) (lane_room s #b01) (lane_room s #b10) (lane_room s #b11)))
(assert (stacks_inv s0))
(define-fun depth_step ((l (_ BitVec 2))) Bool
  (let ((d0 (depth s0 l)) (d1 (depth s1 l)))
    (or (= d1 d0)
        (and (bvult d0 ASTACK_ENTRIES) (= d1 (bvadd d0 #x1)))
        (and (distinct d0 #x0) (= d1 (bvsub d0 #x1)))
        (and (= d1 #x0) (|top_n astack.clear_depths| s0)))))
(define-fun PUSH_DEPTH () (_ BitVec 4) ((_ extract 7 4) (|top_n astack.push1_addr.d| s0)))
(assert (not (and
  (stacks_inv s1)
  (or (= (count s1) (count s0))
      (and (bvult (count s0) MASK_FRAMES) (= (count s1) (bvadd (count s0) #b00001)))
      (and (distinct (count s0) #b00000) (bvult (count s1) (count s0)))
      (= (count s1) #b00000))
  (depth_step #b00) (depth_step #b01) (depth_step #b10) (depth_step #b11)
  (=> (|top_n astack.push1_we.d| s0)
      (and (distinct PUSH_DEPTH #x0) (bvule PUSH_DEPTH ASTACK_ENTRIES))))))
