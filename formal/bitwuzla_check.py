"""Decides one SMT-LIB2 query with Bitwuzla (the formal proofs' solver; `formal/src/run.rs`).

usage: python3 bitwuzla_check.py QUERY.smt2 [--time-limit SECONDS] [TERM...]

The query declares and asserts; this script calls check-sat once. It prints `unsat` (the
property holds: no counterexample exists), or `sat` followed by one line `TERM = VALUE` per
TERM (the counterexample's values), or `unknown` (also when the time limit ran out). Exit status
0 for any of these, 2 for an error (a parse error names the line).
"""
import sys

try:
    import bitwuzla
except ImportError as error:
    print(f"error: this Python ({sys.executable}) has no bitwuzla module: {error}", file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    terms = argv[2:]
    limit = None
    if len(terms) >= 2 and terms[0] == "--time-limit":
        try:
            limit = int(terms[1])
        except ValueError:
            print(f"error: --time-limit takes whole seconds, got {terms[1]!r}", file=sys.stderr)
            return 2
        terms = terms[2:]
    tm = bitwuzla.TermManager()
    options = bitwuzla.Options()
    options.set(bitwuzla.Option.PRODUCE_MODELS, True)
    if limit is not None:
        options.set(bitwuzla.Option.TIME_LIMIT_PER, limit * 1000)
    parser = bitwuzla.Parser(tm, options)
    try:
        parser.parse(argv[1], parse_only=True)
    except bitwuzla.BitwuzlaException as error:
        print(f"error: {argv[1]}: {error}", file=sys.stderr)
        return 2
    solver = parser.bitwuzla()
    result = solver.check_sat()
    if result == bitwuzla.Result.UNSAT:
        print("unsat")
    elif result == bitwuzla.Result.SAT:
        print("sat")
        for text in terms:
            try:
                value = solver.get_value(parser.parse_term(text))
            except bitwuzla.BitwuzlaException as error:
                print(f"error: cannot evaluate {text}: {error}", file=sys.stderr)
                return 2
            print(f"{text} = {value.value(16) if value.sort().is_bv() else value}")
    else:
        print("unknown")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
