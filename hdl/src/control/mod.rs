//! The core's control: the top of the core, the decoder, the sequencer with its mask and address stacks, relative indexing, the operand read and writeback paths, and the host port through which the loader drives the core.

pub mod address_stack;
pub mod decoder;
pub mod flow_eval;
pub mod host_port;
pub mod mask_stack;
pub mod operand_read;
pub mod rel_index;
pub mod sequencer;
pub mod shader_core;
pub mod slot_ring;
pub mod writeback;
