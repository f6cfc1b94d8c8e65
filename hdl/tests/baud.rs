//! BaudDivisor: limits and rounding.

use hdl::baud::{BaudDivisor, BaudError};

#[test]
fn divisor_for_common_rates_on_the_100_mhz_board() {
    // 100e6 / 115200 = 868.06; 100e6 / 3e6 = 33.33; 100e6 / 921600 = 108.5 (rounds up).
    assert_eq!(
        BaudDivisor::for_rate(100_000_000, 115_200).map(|d| d.cycles()),
        Ok(868)
    );
    assert_eq!(
        BaudDivisor::for_rate(100_000_000, 3_000_000).map(|d| d.cycles()),
        Ok(33)
    );
    assert_eq!(
        BaudDivisor::for_rate(100_000_000, 921_600).map(|d| d.cycles()),
        Ok(109)
    );
}

#[test]
fn limits_are_errors_not_panics() {
    assert_eq!(BaudDivisor::new(7), Err(BaudError::TooSmall(7)));
    assert_eq!(BaudDivisor::new(8).map(|d| d.cycles()), Ok(8));
    assert_eq!(BaudDivisor::new(65_535).map(|d| d.cycles()), Ok(65_535));
    assert_eq!(BaudDivisor::new(65_536), Err(BaudError::TooLarge(65_536)));
    assert_eq!(
        BaudDivisor::for_rate(100_000_000, 0),
        Err(BaudError::ZeroBaud)
    );
    assert_eq!(
        BaudDivisor::for_rate(100_000_000, 20_000_000),
        Err(BaudError::TooSmall(5))
    );
    assert_eq!(
        BaudDivisor::for_rate(u64::MAX, 1),
        Err(BaudError::TooLarge(u64::MAX))
    );
}
