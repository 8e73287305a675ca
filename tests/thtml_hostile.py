#!/usr/bin/env python3
# thtml_hostile.py: report.html of a run directory holding issue 29's payloads holds none of
# them as live markup. Planted: a note (free text that report.md quotes: results.csv's note
# column, the run's notes in run_notes.txt, render.sh's charts/notes.txt) with <SCRIPT>, <img
# onerror>, <svg onload>, javascript:, JAVASCRIPT:, javascript&#58; and //host links; SVGs in
# charts/ with <svg onload>, <SCRIPT>, javascript: links, <img onerror> after </svg>, <image
# onerror>, foreignObject. The page is parsed (html.parser) and, where Chromium is installed,
# loaded: no script but the page's sort script, no on* attribute, no link but http(s) and
# relative ones, no planted SVG inline (they become <img src="data:...">); each note is in
# report.md escaped as Markdown text and on the page as the text planted, character for character.
# A second note ('|', a code span holding '|' and markup, an unclosed run of backticks, <SCRIPT>,
# a javascript: link, <br>, \n and \r\n typed as text, U+2028, U+0085) on every determinism row
# of one variant reaches the verdicts table's detail cell: escaped as a GFM cell in report.md (the
# row keeps its 7 cells, on one line), and the page's cell shows it as typed.
#   usage: thtml_hostile.py SUMLAB SRC_DIR      exit 0 ok, 1 failure
import base64, csv, html.parser, io, os, re, shutil, subprocess, sys, tempfile
import study_check

PWN = "window.__slPwned=1"
NOTE = ('planted-note <SCRIPT>%s</SCRIPT> <img src=x onerror="%s"> <svg onload="%s"></svg> [a](javascript:%s) '
        '[b](JAVASCRIPT:%s) [c](javascript&#58;%s) [d](//evil.example/x) <a href="javascript:%s">e</a> '
        '![f](javascript:%s)' % ((PWN,) * 8))


def md_text(s):
    """The note as report.md quotes it (report/table.c's sl_report_md_text, no code span)."""
    return "".join("\\" + c if c in "<>[]&\\" else c for c in s)


# The verdict note, in parts: (text, 0) is text, (text, 1) code (a code span, or a run of
# backticks that no run of its length closes), which Markdown shows as it is.
VERDICT_VARIANT = "kahan"
VNOTE_PARTS = [("verdict-note a|b || ", 0), ("`x | <b>y</b>`", 1),
               (" <SCRIPT>%s</SCRIPT> [v](javascript:%s) <br> a\\nb \\r\\n c\u2028d\u0085e " % (PWN, PWN), 0),
               ("```", 1), (" end |", 0)]
VNOTE = "".join(p for p, _ in VNOTE_PARTS)
VDETAIL = "not run on this backend: "


def md_cell(parts):
    """The parts as a report.md table cell (sl_report_md_cell): text as md_text, and '|' as
    '\\|' everywhere, code included."""
    return "".join((p if code else md_text(p)).replace("|", "\\|") for p, code in parts)


def shown(parts):
    """The parts as the page shows them: a code span without its backticks."""
    return "".join(p.strip("`") if code and p.count("`") == 2 else p for p, code in parts)


def md_cells(line):
    """The cells of a GFM table line: split at every '|' that no backslash precedes."""
    return re.split(r"(?<!\\)\|", line.strip())[1:-1]


SVGS = [
    '<svg xmlns="http://www.w3.org/2000/svg" onload="%s"><g/></svg>' % PWN,
    '<svg xmlns="http://www.w3.org/2000/svg"><SCRIPT>%s</SCRIPT></svg>' % PWN,
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
    '<a xlink:href="javascript:%s"><text>x</text></a></svg>' % PWN,
    '<svg xmlns="http://www.w3.org/2000/svg"><g/></svg><img src=x onerror="%s">' % PWN,
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="x" onerror="%s"/></svg>' % PWN,
    '<svg xmlns="http://www.w3.org/2000/svg"><use href="javascript&#58;%s"/></svg>' % PWN,
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body onload="%s"/></foreignObject></svg>' % PWN,
]


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.bad, self.scripts, self.imgs, self.text, self.in_script = [], [], [], [], False
        self.tables, self.links, self.cell = [], [], None   # per table: rows of cells' text, links in cells

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
            self.links.append(0)
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self.tables[-1][-1].append("")
            self.cell = self.tables[-1][-1]
        elif tag in ("a", "img") and self.cell is not None:
            self.links[-1] += 1
        if tag in ("script",):
            self.scripts.append("")
            self.in_script = True
        if tag in ("image", "foreignobject", "iframe", "object", "embed", "frame", "base", "form", "meta") and tag != "meta":
            self.bad.append("element <%s>" % tag)
        for k, v in attrs:
            v = v or ""
            if k.startswith("on"):
                self.bad.append("<%s %s=%r>" % (tag, k, v[:60]))
            if k in ("href", "src", "xlink:href", "action", "formaction", "data"):
                u = "".join(c for c in v if c > " ").lower()
                if tag == "img" and k == "src" and u.startswith("data:image/svg+xml;base64,"):
                    self.imgs.append(v)
                    continue
                if u.startswith("//") or (":" in u.split("/")[0].split("?")[0].split("#")[0]
                                          and not u.startswith(("http:", "https:"))):
                    self.bad.append("<%s %s=%r>" % (tag, k, v[:60]))
                if tag in ("use",) and not u.startswith("#"):
                    self.bad.append("<%s %s=%r>" % (tag, k, v[:60]))

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False
        if tag in ("td", "th", "tr", "table"):
            self.cell = None

    def handle_data(self, data):
        if self.in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)
            if self.cell is not None:
                self.cell[-1] += data


def main():
    sumlab, src = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="thtml_hostile.")
    bad = []
    try:
        got = study_check.committed_study_copy(src, "thtml_hostile", tmp, charts=True)
        if got is None:
            return 1
        run, rows = got
        h = rows[0]
        rows[1][h.index("status")] = "skipped"
        rows[1][h.index("note")] = NOTE
        vrows = 0   # the verdict note: every determinism row of one variant skipped with it
        for row in rows[2:]:
            if row[h.index("experiment")] == "determinism" and row[h.index("variant")] == VERDICT_VARIANT:
                row[h.index("status")], row[h.index("note")] = "skipped", VNOTE
                vrows += 1
        if not vrows or rows[1][h.index("variant")] == VERDICT_VARIANT:
            print("thtml_hostile: the committed study has no determinism rows of %s apart from row 1" % VERDICT_VARIANT,
                  file=sys.stderr)
            return 1
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        with open(os.path.join(run, "results.csv"), "w", encoding="utf-8") as f:
            f.write(out.getvalue())
        with open(os.path.join(run, "run_notes.txt"), "w", encoding="utf-8") as f:
            f.write("# sumlab run notes v1\nrun-" + NOTE + "\n")
        with open(os.path.join(run, "charts", "notes.txt"), "w", encoding="utf-8") as f:
            f.write("chart-" + NOTE + "\n")
        for i, s in enumerate(SVGS):
            with open(os.path.join(run, "charts", "error_vs_n_planted%d.png" % i), "wb") as f:
                f.write(b"\x89PNG\r\n\x1a\n")
            with open(os.path.join(run, "charts", "error_vs_n_planted%d.svg" % i), "w") as f:
                f.write(s)
        # charts not re-rendered: the planted SVGs stay (a results directory as received)
        env = dict(os.environ, SUMLAB_NO_GPU="1", SUMLAB_NO_CHARTS="1")
        r = subprocess.run([sumlab, "run", "all", "--report-only", "-q", "-o", run], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            print("thtml_hostile: FAIL: --report-only exited %d: %s" % (r.returncode, r.stderr.decode()[-400:]), file=sys.stderr)
            return 1
        with open(os.path.join(run, "report.md"), encoding="utf-8") as f:
            md = f.read()
        for where, note in (("results.csv", '"' + NOTE + '"'), ("run_notes.txt", "- run-" + NOTE),
                            ("charts/notes.txt", "- chart-" + NOTE)):
            if md_text(note) not in md:
                bad.append("the planted note of %s is not in report.md as escaped text" % where)
        # the verdict note: one line of the verdicts table, its 7 cells, the detail escaped
        lines = md.split("\n")
        head = [i for i, l in enumerate(lines) if l.startswith("| variant | claimed | verdict |")]
        if not head:
            bad.append("report.md has no verdicts table")
        for i in head:
            body = []
            for l in lines[i + 2:]:
                if not l.startswith("|"):
                    break
                body.append(l)
            broken = [l[:80] for l in body if len(md_cells(l)) != 7]
            if broken:
                bad.append("verdicts table: rows without 7 cells: %r" % broken)
            want = "| %s | " % VERDICT_VARIANT
            mine = [l for l in body if l.startswith(want)]
            if len(mine) != 1 or not mine[0].endswith(" | " + md_cell([(VDETAIL, 0)] + VNOTE_PARTS) + " |"):
                bad.append("verdicts table: the row of %s does not end in the note escaped as a cell: %r"
                           % (VERDICT_VARIANT, mine))
        with open(os.path.join(run, "report.html"), encoding="utf-8") as f:
            page = f.read()
        p = Page()
        p.feed(page)
        bad += ["live markup: " + b for b in p.bad]
        if len(p.scripts) != 1 or not p.scripts[0].lstrip().startswith("(function(){"):
            bad.append("scripts: %d on the page (only the sort script expected): %r" % (len(p.scripts), [s[:40] for s in p.scripts]))
        if len(p.imgs) != len(SVGS):
            bad.append("planted SVGs: %d shown as <img src=data:...>, %d planted" % (len(p.imgs), len(SVGS)))
        for v in p.imgs:   # the image is the planted file itself, unchanged (it runs no script as an image)
            if base64.b64decode(v.split(",", 1)[1]).decode() not in SVGS:
                bad.append("a data: image that is no planted SVG")
        vtabs = [k for k, t in enumerate(p.tables) if t and t[0][:1] == ["variant"] and t[0][-1:] == ["detail"]]
        if len(vtabs) != len(head):
            bad.append("page: %d verdicts tables, report.md has %d" % (len(vtabs), len(head)))
        for k in vtabs:
            t = p.tables[k]
            if any(len(r) != 7 for r in t):
                bad.append("page: a verdicts row without 7 cells")
            mine = [r for r in t if r[0] == VERDICT_VARIANT]
            if len(mine) != 1 or mine[0][-1] != VDETAIL + shown(VNOTE_PARTS):
                bad.append("page: the detail of %s is not the note as typed: %r" % (VERDICT_VARIANT, mine))
            if p.links[k]:
                bad.append("page: %d links or images in the verdicts table" % p.links[k])
        text = "".join(p.text)
        for where, note in (("results.csv", NOTE), ("run_notes.txt", "run-" + NOTE), ("charts/notes.txt", "chart-" + NOTE)):
            if note not in text:
                bad.append("the planted note of %s is not on the page as its text" % where)
        # in a browser, where there is one: nothing planted ran
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import thtml
        browser = thtml.chromium()
        if browser:
            got = thtml.measure(browser, tmp, os.path.join(run, "report.html"))
            if got["pwned"]:
                bad.append("Chromium: a planted script ran")
            bad += ["Chromium: link with a scheme: " + h for h in got["scheme_links"] if not h.startswith(("http:", "https:"))]
            print("thtml_hostile: loaded in Chromium: nothing ran")
        else:
            print("thtml_hostile: no Chromium here: the page was checked by parsing only")
        for b in bad:
            print("thtml_hostile: FAIL: " + b, file=sys.stderr)
        if not bad:
            print("thtml_hostile: ok: %d planted SVGs as images, the note's payload as text, 1 script" % len(p.imgs))
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
