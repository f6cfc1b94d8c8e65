//! Structure of the control flow: which instruction closes which block.
//!
//! Structured flow (IF/ELSE/ENDIF, the three loop kinds, subroutine bodies) is matched once before
//! the run, so that a block no lane enters can be skipped and a loop end knows its start.

use microcode::tgsi::opcode::Flow;
use microcode::tgsi::Instruction;

/// Partner of every structured-flow instruction, and the blocks around every instruction.
#[derive(Debug, Default)]
pub struct Structure {
    /// IF/IFC -> its ELSE or ENDIF; ELSE -> ENDIF; loop start <-> loop end; BGNSUB -> ENDSUB.
    pub partner: Vec<Option<usize>>,
    /// Openers (IF/IFC, loop starts, BGNSUB) of the blocks that contain each instruction,
    /// outermost first. A block contains the instructions after its opener up to and including its
    /// closer (ELSE belongs to its IF's block).
    pub enclosing: Vec<Vec<usize>>,
}

/// What kind of block an opener starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    If,
    Else,
    Loop,
    For,
    Rep,
    Sub,
}

fn closes(b: Block, f: Flow) -> bool {
    matches!(
        (b, f),
        (Block::If | Block::Else, Flow::EndIf)
            | (Block::Loop, Flow::EndLoop)
            | (Block::For, Flow::EndFor)
            | (Block::Rep, Flow::EndRep)
            | (Block::Sub, Flow::EndSub)
    )
}

impl Structure {
    /// Matches every block; the error names the offending instruction index.
    pub fn build(insts: &[Instruction]) -> Result<Structure, (usize, String)> {
        let mut partner = vec![None; insts.len()];
        let mut enclosing = Vec::with_capacity(insts.len());
        let mut stack: Vec<(Block, usize)> = Vec::new();
        // Opener of each open block (an ELSE keeps its IF as the opener).
        let mut openers: Vec<usize> = Vec::new();
        for (i, inst) in insts.iter().enumerate() {
            enclosing.push(openers.clone());
            let Some(f) = inst.opcode.info().flow() else {
                continue;
            };
            let open = match f {
                Flow::If | Flow::Ifc => Some(Block::If),
                Flow::BgnLoop => Some(Block::Loop),
                Flow::BgnFor => Some(Block::For),
                Flow::Rep => Some(Block::Rep),
                Flow::BgnSub => Some(Block::Sub),
                _ => None,
            };
            if let Some(b) = open {
                stack.push((b, i));
                openers.push(i);
                continue;
            }
            match f {
                Flow::Else => match stack.pop() {
                    Some((Block::If, j)) => {
                        partner[j] = Some(i);
                        stack.push((Block::Else, i));
                    }
                    _ => return Err((i, "ELSE without IF".into())),
                },
                Flow::EndIf | Flow::EndLoop | Flow::EndFor | Flow::EndRep | Flow::EndSub => {
                    match stack.pop() {
                        Some((b, j)) if closes(b, f) => {
                            partner[j] = Some(i);
                            partner[i] = Some(j);
                            openers.pop();
                        }
                        Some((_, j)) => {
                            return Err((
                                i,
                                format!("{} closes the block opened at {j}", inst.opcode),
                            ))
                        }
                        None => {
                            return Err((
                                i,
                                format!("{} without an opening instruction", inst.opcode),
                            ))
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some((_, j)) = stack.pop() {
            return Err((j, "block is never closed".into()));
        }
        Ok(Structure { partner, enclosing })
    }
}
