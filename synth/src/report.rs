//! nextpnr's `--report` JSON (nextpnr-ice40 and nextpnr-ecp5): utilisation per resource and
//! achieved clock frequency.

use serde_json::Value;

/// One resource: how many are used out of how many the device has.
#[derive(Clone, Debug, PartialEq)]
pub struct Usage {
    /// Units the placed design takes.
    pub used: u64,
    /// Units the device has.
    pub available: u64,
}

/// What place-and-route achieved.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The FPGA family the report is of (told by its resource names).
    pub family: microcode::board::Family,
    /// Logic: the iCE40's logic cells (ICESTORM_LC, a LUT4 and a flip-flop each), the ECP5's
    /// LUT4s (TRELLIS_COMB, the halves of carry cells included).
    pub logic_cells: Usage,
    /// The ECP5's flip-flops (TRELLIS_FF); the iCE40's are part of its logic cells.
    pub flip_flops: Option<Usage>,
    /// Block RAMs (ICESTORM_RAM, DP16KD).
    pub block_rams: Usage,
    /// The ECP5's 18x18 multipliers (MULT18X18D); the iCE40 HX8K has none.
    pub multipliers: Option<Usage>,
    /// PLLs (ICESTORM_PLL, EHXPLLL).
    pub plls: Usage,
    /// I/O pads (SB_IO, TRELLIS_IO).
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
        use microcode::board::Family;
        if v["utilization"].get("TRELLIS_COMB").is_some() {
            return Ok(Report {
                family: Family::Ecp5,
                logic_cells: usage("TRELLIS_COMB")?,
                flip_flops: Some(usage("TRELLIS_FF")?),
                block_rams: usage("DP16KD")?,
                multipliers: Some(usage("MULT18X18D")?),
                plls: usage("EHXPLLL")?,
                io: usage("TRELLIS_IO")?,
                clocks,
            });
        }
        Ok(Report {
            family: Family::Ice40,
            logic_cells: usage("ICESTORM_LC")?,
            flip_flops: None,
            block_rams: usage("ICESTORM_RAM")?,
            multipliers: None,
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
    fn parses_an_ecp5_report() {
        // The shape nextpnr-ecp5 0.11 writes (other resources left out).
        let json = r#"{
          "utilization": {
            "TRELLIS_COMB": {"used": 7492, "available": 83640},
            "TRELLIS_FF": {"used": 2030, "available": 83640},
            "DP16KD": {"used": 16, "available": 208},
            "MULT18X18D": {"used": 2, "available": 156},
            "EHXPLLL": {"used": 1, "available": 4},
            "TRELLIS_IO": {"used": 12, "available": 365}
          },
          "fmax": {"$glbnet$board$clock": {"achieved": 49.1, "constraint": 40.0}}
        }"#;
        let r = Report::parse(json).unwrap();
        assert_eq!(r.family, microcode::board::Family::Ecp5);
        assert_eq!(r.logic_cells.used, 7492);
        assert_eq!(r.flip_flops.as_ref().unwrap().used, 2030);
        assert_eq!(r.multipliers.as_ref().unwrap().available, 156);
        assert_eq!((r.block_rams.used, r.plls.used, r.io.used), (16, 1, 12));
        assert_eq!(r.fmax(), Some(49.1));
        let e = Report::parse(r#"{"utilization": {"TRELLIS_COMB": {"used": 1, "available": 2}}}"#)
            .unwrap_err();
        assert!(e.contains("TRELLIS_FF"), "{e}");
    }

    #[test]
    fn names_what_is_missing() {
        let e = Report::parse(r#"{"utilization": {}}"#).unwrap_err();
        assert!(e.contains("ICESTORM_LC"), "{e}");
        assert!(Report::parse("not json").is_err());
    }
}
