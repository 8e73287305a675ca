#!/usr/bin/env python3
# treport_long.py: the longest fields report/check.c lets through reach the determinism verdicts
# whole (the rule: nothing is truncated silently). On the committed study, every determinism row
# of one variant is skipped with a note of SL_REPORT_NOTE_MAX (4096) bytes of UTF-8 text whose
# multi-byte characters straddle every short buffer's end; a second variant claims a det_class
# of SL_REPORT_NAME_MAX (64) bytes and has one row of another experiment, named with 64 bytes,
# that gave 2^53 distinct results. report.md's verdicts table must hold the note as typed (the
# detail once was a char[512]: cut mid-character, U+FFFD on the page), the 64-byte class (once a
# char[32]) and the whole "(up to 2^53, EXPERIMENT)" clause (once a char[160]); report.html,
# where cmark-gfm is built in, the same cells.
#   usage: treport_long.py SUMLAB SRC_DIR      exit 0 ok, 1 failure
import csv, html.parser, io, os, re, shutil, subprocess, sys, tempfile
import study_check

NOTE_MAX, NAME_MAX = 4096, 64
NOTE_VARIANT = "kahan"
DETAIL = "not run on this backend: "


def long_note():
    """NOTE_MAX bytes of valid UTF-8: ASCII words and 2-, 3- and 4-byte characters, with no
    character that report.md escapes, ending in a 4-byte character."""
    unit = "note é € 𝄞 ü ✓ "          # 5 + 2 + 1 + 3 + 1 + 4 + 1 + 2 + 1 + 3 + 1 bytes
    s = ""
    while len((s + unit).encode()) <= NOTE_MAX - 4:
        s += unit
    while len(s.encode()) < NOTE_MAX - 4:
        s += "x"
    s += "𝄞"
    assert len(s.encode()) == NOTE_MAX
    return s


NOTE = long_note()
CLASS = ("claimed-class-" + "c" * NAME_MAX)[:NAME_MAX]
EXP = ("other-experiment-" + "e" * NAME_MAX)[:NAME_MAX]
DISTINCT = str(2 ** 53)


def md_cells(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


class Cells(html.parser.HTMLParser):
    """The text of every table cell of the page, per table row."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") and self.rows:
            self.rows[-1].append("")
            self.cell = True

    def handle_endtag(self, tag):
        if tag in ("td", "th", "tr"):
            self.cell = None

    def handle_data(self, data):
        if self.cell and self.rows:
            self.rows[-1][-1] += data


def main():
    sumlab, src = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="treport_long.")
    bad = []
    try:
        got = study_check.committed_study_copy(src, "treport_long", tmp)
        if got is None:
            return 1
        run, rows = got
        h = rows[0]
        col = {name: h.index(name) for name in ("experiment", "variant", "status", "note", "det_class", "distinct")}
        det = [r for r in rows[1:] if r[col["experiment"]] == "determinism"]
        for r in det:
            if r[col["variant"]] == NOTE_VARIANT:
                r[col["status"]], r[col["note"]] = "skipped", NOTE
        # the second variant: determinism rows measured, and a measured row of another experiment
        claim = None
        for r in det:
            v = r[col["variant"]]
            if v != NOTE_VARIANT and r[col["status"]] == "ok" and any(
                    q[col["variant"]] == v and q[col["experiment"]] != "determinism" and q[col["status"]] == "ok"
                    and q[col["distinct"]] for q in rows[1:]):
                claim = v
                break
        if not claim or not any(r[col["variant"]] == NOTE_VARIANT for r in det):
            print("treport_long: the committed study lacks the determinism rows this test plants in", file=sys.stderr)
            return 1
        for r in det:
            if r[col["variant"]] == claim:
                r[col["det_class"]] = CLASS
        for r in rows[1:]:
            if (r[col["variant"]] == claim and r[col["experiment"]] != "determinism" and r[col["status"]] == "ok"
                    and r[col["distinct"]]):
                r[col["experiment"]], r[col["distinct"]] = EXP, DISTINCT
                break
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        with open(os.path.join(run, "results.csv"), "w", encoding="utf-8") as f:
            f.write(out.getvalue())
        env = dict(os.environ, SUMLAB_NO_GPU="1", SUMLAB_NO_CHARTS="1")
        r = subprocess.run([sumlab, "run", "all", "--report-only", "-q", "-o", run], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            print("treport_long: FAIL: --report-only exited %d: %s" % (r.returncode, r.stderr.decode()[-400:]),
                  file=sys.stderr)
            return 1
        with open(os.path.join(run, "report.md"), encoding="utf-8", errors="replace") as f:
            md = f.read()
        if "\ufffd" in md:
            bad.append("report.md holds U+FFFD or a byte of no UTF-8 (a character cut)")
        lines = md.split("\n")
        head = [i for i, l in enumerate(lines) if l.startswith("| variant | claimed | verdict |")]
        if not head:
            bad.append("report.md has no verdicts table")
        want_other = "(up to %s, %s)" % (DISTINCT, EXP)
        for i in head:
            body = []
            for l in lines[i + 2:]:
                if not l.startswith("|"):
                    break
                body.append(md_cells(l))
            mine = [c for c in body if c and c[0] == NOTE_VARIANT]
            if len(mine) != 1 or len(mine[0]) != 7 or mine[0][-1] != DETAIL + NOTE:
                got = mine[0][-1] if mine and mine[0] else ""
                bad.append("verdicts table: the detail of %s is not the %d-byte note whole (%d bytes, ends %r)"
                           % (NOTE_VARIANT, NOTE_MAX, len(got.encode()), got[-24:]))
            theirs = [c for c in body if c and c[0] == claim]
            if len(theirs) != 1 or len(theirs[0]) != 7:
                bad.append("verdicts table: no row of 7 cells for %s" % claim)
                continue
            if theirs[0][1] != CLASS:
                bad.append("verdicts table: the claimed class of %s is %r, not the %d-byte %r"
                           % (claim, theirs[0][1], NAME_MAX, CLASS))
            if want_other not in theirs[0][-1]:
                bad.append("verdicts table: the detail of %s lacks %r: %r" % (claim, want_other, theirs[0][-1][-120:]))
        page_path = os.path.join(run, "report.html")
        if os.path.exists(page_path):   # a build with cmark-gfm
            with open(page_path, encoding="utf-8", errors="replace") as f:
                p = Cells()
                p.feed(f.read())
            cells = [row for row in p.rows if row and row[0] == NOTE_VARIANT and len(row) == 7]
            if not any(row[-1] == DETAIL + NOTE for row in cells):
                bad.append("report.html: no verdicts cell holds the note whole")
            if not any(row[0] == claim and row[1] == CLASS and want_other in row[-1] for row in p.rows if len(row) == 7):
                bad.append("report.html: the row of %s lacks its class or its other-experiments clause whole" % claim)
        for b in bad:
            print("treport_long: FAIL: " + b, file=sys.stderr)
        if not bad:
            print("treport_long: ok: a %d-byte note, a %d-byte class and experiment name whole in the verdicts"
                  % (NOTE_MAX, NAME_MAX))
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
