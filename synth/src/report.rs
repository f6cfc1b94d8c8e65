//! nextpnr-ice40's `--report` JSON: utilisation per resource and achieved clock frequency.

use serde_json::Value;

/// One resource: how many are used out of how many the device has.
#[derive(Clone, Debug, PartialEq)]
pub struct Usage {
    pub used: u64,
    pub available: u64,
}

/// What place-and-route achieved.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Logic cells (ICESTORM_LC).
    pub logic_cells: Usage,
    /// Block RAMs (ICESTORM_RAM).
    pub block_rams: Usage,
    /// PLLs (ICESTORM_PLL).
    pub plls: Usage,
    /// I/O pads (SB_IO).
    pub io: Usage,
    /// Per clock net: (name, achieved MHz, constraint MHz).
    pub clocks: Vec<(String, f64, f64)>,
}

impl Report {
    /// Parses the report; `None` names the first missing field.
    pub fn parse(json: &str) -> Result<Report, String> {
        let v: Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
        let usage = |name: &str| -> Result<Usage, String> {
            let u = &v["utilization"][name];
            match (u["used"].as_u64(), u["available"].as_u64()) {
                (Some(used), Some(available)) => Ok(Usage { used, available }),
                _ => Err(format!("utilization.{name} missing")),
            }
        };
        let mut clocks = Vec::new();
        if let Some(map) = v["fmax"].as_object() {
            for (name, c) in map {
                let achieved = c["achieved"].as_f64().ok_or("fmax.achieved missing")?;
                let constraint = c["constraint"].as_f64().ok_or("fmax.constraint missing")?;
                clocks.push((name.clone(), achieved, constraint));
            }
        }
        Ok(Report {
            logic_cells: usage("ICESTORM_LC")?,
            block_rams: usage("ICESTORM_RAM")?,
            plls: usage("ICESTORM_PLL")?,
            io: usage("SB_IO")?,
            clocks,
        })
    }

    /// The slowest clock's achieved frequency in MHz.
    pub fn fmax(&self) -> Option<f64> {
        self.clocks.iter().map(|c| c.1).reduce(f64::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_utilisation_and_fmax() {
        // Written by hand in the shape nextpnr-ice40 0.11 writes.
        let json = r#"{
          "utilization": {
            "ICESTORM_LC": {"used": 2412, "available": 7680},
            "ICESTORM_RAM": {"used": 3, "available": 32},
            "ICESTORM_PLL": {"used": 0, "available": 2},
            "SB_IO": {"used": 12, "available": 96}
          },
          "fmax": {"clock$SB_IO_IN_$glb_clk": {"achieved": 81.5, "constraint": 100.0}}
        }"#;
        let r = Report::parse(json).unwrap();
        assert_eq!(
            r.logic_cells,
            Usage {
                used: 2412,
                available: 7680
            }
        );
        assert_eq!(r.block_rams.used, 3);
        assert_eq!(r.io.available, 96);
        assert_eq!(r.fmax(), Some(81.5));
        assert_eq!(r.clocks[0].2, 100.0);
    }

    #[test]
    fn names_what_is_missing() {
        let e = Report::parse(r#"{"utilization": {}}"#).unwrap_err();
        assert!(e.contains("ICESTORM_LC"), "{e}");
        assert!(Report::parse("not json").is_err());
    }
}
