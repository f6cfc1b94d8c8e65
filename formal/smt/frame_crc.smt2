; The loader's frame receiver (hdl/src/frame_rx.rs) with its CRC unit (hdl/src/crc32_serial.rs).
; From reset, bytes arrive freely (any values, SLIP escapes and END included, the receiver
; enabled or not) but never while the CRC unit still absorbs the previous byte. R{j} is the
; reference CRC-32 register (zlib's: reflected polynomial 0xEDB88320, initial all ones) over
; the bytes the receiver wrote to the frame buffer since it last wrote address 0, one bit at a
; time as the standard defines it; a message followed by its own CRC-32 (little-endian) leaves
; the register at 0xDEBB20E3. Each step's ok{j}: a segment the receiver accepts has that residue.
(define-fun CRC32_RESIDUE () (_ BitVec 32) #xdebb20e3)
(define-fun crc_bit ((r (_ BitVec 32)) (b (_ BitVec 1))) (_ BitVec 32)
  (ite (= (bvxor ((_ extract 0 0) r) b) #b1)
       (bvxor (bvlshr r #x00000001) #xedb88320)
       (bvlshr r #x00000001)))
(define-fun crc_byte ((r (_ BitVec 32)) (d (_ BitVec 8))) (_ BitVec 32)
  (crc_bit (crc_bit (crc_bit (crc_bit (crc_bit (crc_bit (crc_bit (crc_bit r
    ((_ extract 0 0) d)) ((_ extract 1 1) d)) ((_ extract 2 2) d)) ((_ extract 3 3) d))
    ((_ extract 4 4) d)) ((_ extract 5 5) d)) ((_ extract 6 6) d)) ((_ extract 7 7) d)))
(declare-const R0 (_ BitVec 32))
