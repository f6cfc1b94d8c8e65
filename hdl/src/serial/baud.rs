//! The baud divisor shared by the UART blocks: clock cycles per serial bit, validated once.

use thiserror::Error;

/// Clock cycles per bit of a UART, between [`BaudDivisor::MIN`] and `u16::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BaudDivisor(u16);

/// Why a baud divisor is unusable.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BaudError {
    /// Fewer clocks per bit than the receiver's input filter and mid-bit sampling need.
    #[error("baud divisor {0} is below the minimum of {min}", min = BaudDivisor::MIN)]
    TooSmall(u64),
    /// More clocks per bit than the 16-bit bit-timing counters hold.
    #[error("baud divisor {0} does not fit the 16-bit bit timer")]
    TooLarge(u64),
    /// A zero baud rate.
    #[error("the baud rate must not be zero")]
    ZeroBaud,
}

impl BaudDivisor {
    /// The smallest divisor: the receiver's 3-sample input filter delays edges and samples alike,
    /// but a bit must be long enough that a filtered glitch cannot look like one.
    pub const MIN: u16 = 8;

    /// A divisor of exactly `cycles` clocks per bit.
    pub fn new(cycles: u64) -> Result<Self, BaudError> {
        if cycles < u64::from(Self::MIN) {
            Err(BaudError::TooSmall(cycles))
        } else {
            u16::try_from(cycles)
                .map(BaudDivisor)
                .map_err(|_| BaudError::TooLarge(cycles))
        }
    }

    /// The divisor nearest to `clock_hz / baud` (100 MHz at 115,200 baud: 868, 0.01% slow).
    pub fn for_rate(clock_hz: u64, baud: u64) -> Result<Self, BaudError> {
        if baud == 0 {
            return Err(BaudError::ZeroBaud);
        }
        // In u128 so that no clock rate can overflow the rounding.
        let cycles = (u128::from(clock_hz) + u128::from(baud / 2)) / u128::from(baud);
        Self::new(u64::try_from(cycles).unwrap_or(u64::MAX))
    }

    /// Clock cycles per bit.
    pub fn cycles(self) -> u16 {
        self.0
    }
}
