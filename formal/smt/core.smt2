; ShaderCore (hdl/src/shader_core.rs), the board build. The first state s0 is ANY state: every
; register and every block RAM (program, register files, constants, the slot-control buffer,
; the address stack) holds anything, and the host port is driven freely every clock. So each
; property holds for every program, every register content and everything the host does, from
; any point of any run, once enough clocks have passed since s0 for its cone to be refilled.
(define-fun bit_of ((v (_ BitVec 4)) (i (_ BitVec 2))) Bool
  (= ((_ extract 0 0) (bvlshr v ((_ zero_extend 2) i))) #b1))
; The lane of the slot the sequencer issues in state s (slot = 4 * lane + component).
(define-fun issue_lane ((s |top_s|)) (_ BitVec 2) ((_ extract 3 2) (|top_n seq.slot| s)))
