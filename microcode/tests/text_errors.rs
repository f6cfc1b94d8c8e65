//! Parse errors name the right line and column and say what is wrong.

use microcode::tgsi::text::parse;

/// (source, line, column, message)
const CASES: &[(&str, u32, u32, &str)] = &[
    (
        "",
        1,
        1,
        "expected a header (FRAG, VERT or GEOM), found end of input",
    ),
    (
        "FRAG2.0\n",
        1,
        5,
        "unsupported header `FRAG2.0`; expected `FRAG` or `FRAG1.1`",
    ),
    ("FRAG\nMOV OUT[0, IN[0]\n", 2, 10, "expected `]`, found `,`"),
    ("FRAG\nFOO TEMP[0]\n", 2, 1, "unknown opcode `FOO`"),
    ("FRAG\n  7: foo_sat TEMP[0]\n", 2, 6, "unknown opcode `foo`"),
    (
        "FRAG\nMAD TEMP[0], IN[0], IN[1]\n",
        2,
        26,
        "MAD takes 3 source operands, found 2",
    ),
    (
        "FRAG\nMOV TEMP[0], IN[0], IN[1]\n",
        2,
        21,
        "MOV takes 1 source operand, found 2",
    ),
    (
        "FRAG\nMOV\n",
        2,
        4,
        "MOV takes 1 destination operand, found 0",
    ),
    (
        "FRAG\nDCL TEMP[0]\n\nMOV TEMP[0] IN[0]\n",
        4,
        13,
        "expected `,`, found `IN`",
    ),
    ("FRAG\nKILP TEMP[0]\n", 2, 6, "KILP takes no operands"),
    (
        "FRAG\nMOV TEMP[0], IN[0] junk\n",
        2,
        20,
        "expected end of line, found `junk`",
    ),
    (
        "FRAG\nIMM[1] FLT32 {1.0}\n",
        2,
        5,
        "immediate `IMM[1]` is out of order: the next immediate is IMM[0]",
    ),
    (
        "FRAG\nIMM FLT32 {1.0, 2.0.0}\n",
        2,
        17,
        "invalid number `2.0.0`",
    ),
    (
        "FRAG\nIMM INT32 {2147483648}\n",
        2,
        12,
        "`2147483648` is out of the INT32 range",
    ),
    (
        "FRAG\nIMM FLT32 {1, 2, 3, 4, 5}\n",
        2,
        24,
        "too many values: at most 4",
    ),
    (
        "FRAG\nIMM FLT64 {1}\n",
        2,
        5,
        "unknown immediate type `FLT64`; expected FLT32, UINT32 or INT32",
    ),
    (
        "FRAG\nTEX TEMP[0], IN[0], SAMP[0]\n",
        2,
        28,
        "TEX needs a texture target such as `, 2D`, found end of line",
    ),
    (
        "FRAG\nMOV TEMP[0], IN[0], 2D\n",
        2,
        21,
        "MOV takes no texture target",
    ),
    (
        "FRAG\nMOV TEMP[0], 2*(|IN[0]|)\n",
        2,
        17,
        "`|x|` cannot appear inside `2*(x)`: source modifiers nest outermost first as \
         -( | 2*( ( 1-( -REG ) ) - 0.5 ) | ), each at most once",
    ),
    (
        "FRAG\nMOV TEMP[0], ||IN[0]||\n",
        2,
        15,
        "`|x|` cannot appear inside `|x|`: source modifiers nest outermost first as \
         -( | 2*( ( 1-( -REG ) ) - 0.5 ) | ), each at most once",
    ),
    (
        "FRAG\nMOV TEMP[0], (IN[0])-0.25\n",
        2,
        22,
        "expected `0.5` (the bias form is `(x)-0.5`), found `0`",
    ),
    (
        "FRAG\nMOV TEMP[0].yx, IN[0]\n",
        2,
        14,
        "mask letters must be in xyzw order, each at most once",
    ),
    (
        "FRAG\nMOV TEMP[0], IN[0].xy\n",
        2,
        20,
        "a swizzle has 1 or 4 letters, found 2",
    ),
    (
        "FRAG\nMOV TEMP[0]_X3, IN[0]\n",
        2,
        12,
        "unknown destination scale `_X3`; expected _X2, _X4, _X8, _D2, _D4 or _D8",
    ),
    (
        "FRAG\nMOV TEMP[0], IN[0]{x,y,z}\n",
        2,
        25,
        "expected `,`, found `}`",
    ),
    (
        "FRAG\nMOV TEMP[0], IN[0]{x,y,z,q}\n",
        2,
        26,
        "expected an extended swizzle selector (x, y, z, w, 0 or 1), found `q`",
    ),
    (
        "FRAG\nBRA\n",
        2,
        4,
        "BRA needs a label `:N`, found end of line",
    ),
    ("FRAG\nMOV TEMP[0], IN[0] :3\n", 2, 20, "MOV takes no label"),
    ("FRAG\n(GT BRA :1\n", 2, 5, "expected `)`, found `BRA`"),
    (
        "FRAG\n(GQ) BRA :1\n",
        2,
        2,
        "unknown condition `GQ`; expected GT, EQ, LT, GE, LE, NE, TR or FL",
    ),
    (
        "FRAG\nMOV.CC2.F64 TEMP[0], IN[0]\n",
        2,
        8,
        "unknown instruction suffix `.F64`; expected .CC, .CC0, .CC1, .F32, .F16 or .X12",
    ),
    ("FRAG\nDCL FOO[0]\n", 2, 5, "unknown register file `FOO`"),
    (
        "FRAG\nDCL TEMP[3..1]\n",
        2,
        13,
        "range `3..1` ends before it starts",
    ),
    (
        "FRAG\nDCL IN[0], COLOUR\n",
        2,
        12,
        "unknown semantic or interpolation `COLOUR`",
    ),
    (
        "FRAG\nDCL IN[0], LINEAR, COLOR\n",
        2,
        20,
        "the semantic comes once, before the interpolation",
    ),
    (
        "FRAG\nDCL IMMX[0..1] {{1, 2, 3, 4}}\n",
        2,
        16,
        "IMMX[0..1] declares 2 elements, found 1 data row",
    ),
    (
        "FRAG\nDCL IMMX[0] {{1, 2, 3}}\n",
        2,
        22,
        "expected 4 values, found 3",
    ),
    (
        "FRAG\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLEZ\n",
        2,
        29,
        "unknown GS_INPUT_PRIMITIVE value `TRIANGLEZ`",
    ),
    (
        "FRAG\nPROPERTY GS_FOO 3\n",
        2,
        10,
        "unknown property `GS_FOO`",
    ),
    (
        "FRAG\nMOV TEMP[0], TEMP[40000]\n",
        2,
        19,
        "index `40000` is outside the signed 16-bit range",
    ),
    (
        "FRAG\nMOV TEMP[0], CONST[ADDR[0].x+40000]\n",
        2,
        30,
        "offset `+40000` is outside the signed 16-bit range",
    ),
    (
        "FRAG\nMOV TEMP[0], CONST[ADDR[0]+1]\n",
        2,
        27,
        "expected `.`, found `+`",
    ),
    (
        "FRAG\nMOV TEMP[0], IN[0] /* open\n",
        2,
        20,
        "unterminated comment `/*`",
    ),
];

#[test]
fn messages_and_locations() {
    let mut failures = Vec::new();
    for &(src, line, col, msg) in CASES {
        match parse(src) {
            Ok(_) => failures.push(format!("{src:?}: parsed")),
            Err(e) => {
                if (e.line, e.col, e.message.as_str()) != (line, col, msg) {
                    failures.push(format!(
                        "{src:?}:\n  expected {line}:{col}: {msg}\n  got      {}:{}: {}",
                        e.line, e.col, e.message
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rendered_diagnostics() {
    let src = "FRAG\nDCL IN[0], COLOR, LINEAR\nMAD OUT[0], IN[0], IN[0]\nEND\n";
    assert_eq!(
        parse(src).unwrap_err().render(src, "mad.tgsi"),
        "mad.tgsi:3:25: error: MAD takes 3 source operands, found 2\n\
         MAD OUT[0], IN[0], IN[0]\n\
         \x20                       ^\n"
    );
    let src = "VERT\n\tMOV OUT[0], IN[0].xz\n";
    assert_eq!(
        parse(src).unwrap_err().render(src, "tab.tgsi"),
        "tab.tgsi:2:20: error: a swizzle has 1 or 4 letters, found 2\n\
         \tMOV OUT[0], IN[0].xz\n\
         \t                  ^\n"
    );
    let src = "FRAG\r\nUDIV OUT[1].x, IN[1].xxxx, IMM[0].xxxx\r\n";
    assert_eq!(
        parse(src).unwrap_err().render(src, "udiv.sh"),
        "udiv.sh:2:1: error: unknown opcode `UDIV`: added to TGSI after Mesa 7.9, not supported\n\
         UDIV OUT[1].x, IN[1].xxxx, IMM[0].xxxx\n\
         ^\n"
    );
}

#[test]
fn display_carries_the_location() {
    let e = parse("GEOM\nEMIT EMIT\n").unwrap_err();
    assert_eq!(e.to_string(), "2:6: EMIT takes no operands");
}
