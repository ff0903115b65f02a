"""The judge's side of a Python answer: runs one function on the judge's cases.

    JUDGE_CASES=cases.jsonl JUDGE_REPLIES=replies.jsonl \
        python3 -I harness.py answer.py function arity

The protocol is the one the Rust practice package speaks (`judge::harness`):
`JUDGE_CASES` names a file with one JSON array of arguments per line, and the
replies go to the file `JUDGE_REPLIES` names, one JSON object per line, flushed
after each: `{"case": i, "ok": value}`, `{"case": i, "todo": true}` for a
`NotImplementedError`, `{"case": i, "raised": {...}}` for another exception, and
a few more kinds below. Case 0 is the loading of the file: a syntax error, an
exception at import, a missing function or a wrong number of parameters stop
there. Before case i runs, the marker `\x1e[judge case i]\x1e` goes to standard
output, so the judge can tell which case printed what.

With `JUDGE_ROUNDS=1` the process grades a round of cases per line read on
standard input (the judge's shrinking, main()).

Values travel in the judge's wire encoding: JSON, with non-finite floats as
`{"$float": "NaN" | "inf" | "-inf"}`. An int is a Python int and a float a
Python float; lists, tuples and dicts with str keys nest; None is "no value".

The judge runs its own copy of this file; the copy in a practice folder's
`judge/` is there to read. The browser runs the same file on Pyodide
(`app/python-worker.js`), driving `Session` itself. Python 3.9 or newer.
"""

import json
import math
import os
import sys

WIRE_FLOAT = "$float"
# Set to "1" by the judge for a process that grades several rounds of cases
# (main()).
ROUNDS_ENV = "JUDGE_ROUNDS"
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


class Unsupported(Exception):
    """A returned value the judge cannot compare."""


class TooBig(Exception):
    """A returned int outside 64 bits."""


def from_wire(v):
    if isinstance(v, dict):
        if len(v) == 1 and WIRE_FLOAT in v:
            return {"NaN": math.nan, "inf": math.inf, "-inf": -math.inf}[v[WIRE_FLOAT]]
        return {k: from_wire(x) for k, x in v.items()}
    if isinstance(v, list):
        return [from_wire(x) for x in v]
    return v


def to_wire(v, depth=0):
    if depth > 64:
        raise Unsupported("value nested more than 64 deep")
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        if not INT_MIN <= v <= INT_MAX:
            raise TooBig(v)
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {WIRE_FLOAT: "NaN"}
        if math.isinf(v):
            return {WIRE_FLOAT: "inf" if v > 0 else "-inf"}
        return v
    if isinstance(v, (list, tuple)):
        return [to_wire(x, depth + 1) for x in v]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise Unsupported("dict with a %s key" % type(k).__name__)
            out[k] = to_wire(x, depth + 1)
        return out
    # NumPy's and PyTorch's scalars and arrays, which engineers reach for.
    if hasattr(v, "tolist") and callable(v.tolist):
        return to_wire(v.tolist(), depth + 1)
    if hasattr(type(v), "__index__"):
        return to_wire(int(v.__index__()), depth)
    raise Unsupported(type(v).__name__)


def where(exc, filename):
    """The last line of the learner's file in the exception's traceback."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def describe(exc, filename):
    message = str(exc)
    if len(message) > 500:
        message = message[:500] + "…"
    return {"kind": type(exc).__name__, "message": message, "line": where(exc, filename)}


def marker(i):
    return "\x1e[judge case %d]\x1e" % i


def outcome(call, filename):
    """The reply for one call, without its case number."""
    try:
        value = call()
    except NotImplementedError:
        return {"todo": True}
    except RecursionError:
        return {"limit": "recursion"}
    except MemoryError:
        return {"limit": "memory"}
    except SystemExit as e:
        return {"exit": repr(e.code) if e.code is not None else ""}
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # the learner's exception, whatever it is
        return {"raised": describe(e, filename)}
    try:
        return {"ok": to_wire(value)}
    except TooBig as e:
        digits = str(e.args[0])
        if len(digits) > 40:
            digits = digits[:30] + "… (%d digits)" % len(digits.lstrip("-"))
        return {"bigint": digits}
    except Unsupported as e:
        return {"unsupported": str(e)}
    except RecursionError:
        return {"unsupported": "value nested too deeply"}


class Session:
    """One learner's file, loaded once and called once per case. The CLI's
    main() and the browser's worker (on Pyodide) both drive it."""

    def __init__(self, source, filename, name, arity):
        self.source, self.filename = source, filename
        self.name, self.arity = name, arity
        self.f = None

    def load(self):
        """Compiles and runs the file: None when the function is ready, else
        the reply for case 0 (why it could not be loaded)."""
        if sys.version_info < (3, 9):
            return {"python": "%d.%d.%d" % sys.version_info[:3]}
        try:
            code = compile(self.source, self.filename, "exec")
        except SyntaxError as e:
            message = "%s: %s" % (type(e).__name__, e.msg)
            return {"syntax": message, "line": e.lineno or 1, "column": e.offset or 1}
        namespace = {"__name__": "__answer__", "__file__": self.filename}
        loaded = outcome(lambda: exec(code, namespace), self.filename)
        if "ok" not in loaded:
            return loaded
        f = namespace.get(self.name)
        if not callable(f):
            return {"missing": self.name}
        code_of = getattr(f, "__code__", None)
        if code_of is not None and not (code_of.co_flags & 0x04):  # no *args
            defaults = len(getattr(f, "__defaults__", None) or ())
            most = code_of.co_argcount
            if not most - defaults <= self.arity <= most:
                return {"arity": most}
        self.f = f
        return None

    def call(self, line):
        """The reply for one case: `line` is its JSON array of arguments."""
        args = [from_wire(a) for a in json.loads(line)]
        return outcome(lambda: self.f(*args), self.filename)


def reply_line(case, body):
    """One line of the replies file: `body` with its case number, as JSON."""
    return json.dumps(dict(body, case=case), allow_nan=False)


# What learner code must not import in the browser, where Python runs inside
# the page's worker: `js` and `pyodide_js` are the worker's globals, and the
# others reach them or the network.
PAGE_MODULES = {"js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_kernel"}


class _NoPage:
    """A finder that refuses the modules of PAGE_MODULES, with a message."""

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in PAGE_MODULES:
            raise ImportError(
                "`%s` is not available to answers: they run apart from the page" % name)
        return None


def close_the_page():
    """Called once by the browser's worker after it imported this module:
    forgets the page's modules and refuses to import them again."""
    for m in list(sys.modules):
        if m.partition(".")[0] in PAGE_MODULES:
            del sys.modules[m]
    sys.meta_path.insert(0, _NoPage())


def run_round(path, name, arity):
    """Grades the cases of the file `JUDGE_CASES` names: a new Session (the
    file loaded again, as the browser loads it for each job), its replies
    written to the file `JUDGE_REPLIES` names."""
    with open(os.environ["JUDGE_REPLIES"], "w", encoding="utf-8") as replies:

        def reply(case, body):
            sys.stdout.flush()
            sys.stderr.flush()
            replies.write(reply_line(case, body) + "\n")
            replies.flush()

        with open(path, encoding="utf-8") as f:
            session = Session(f.read(), os.path.basename(path), name, arity)
        failed = session.load()
        if failed is not None:
            reply(0, failed)
            return
        with open(os.environ["JUDGE_CASES"], encoding="utf-8") as cases:
            for i, line in enumerate(cases, start=1):
                sys.stdout.write(marker(i))
                sys.stdout.flush()
                reply(i, session.call(line))


def main():
    path, name, arity = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if os.environ.get(ROUNDS_ENV) != "1":
        run_round(path, name, arity)
        return
    # Rounds (the judge's shrinking): one process for them all, a round per
    # line the judge writes on standard input once it has read the last
    # round's replies and written the next round's cases. The learner's code
    # reads an empty standard input, as it does in a single run.
    control = os.fdopen(os.dup(0), "r", encoding="utf-8")
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    while True:
        run_round(path, name, arity)
        if not control.readline():
            return


if __name__ == "__main__":
    main()
