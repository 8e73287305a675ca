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
#   usage: thtml_hostile.py SUMLAB SRC_DIR      exit 0 ok, 1 failure
import base64, csv, glob, gzip, html.parser, io, os, shutil, subprocess, sys, tempfile

PWN = "window.__slPwned=1"
NOTE = ('planted-note <SCRIPT>%s</SCRIPT> <img src=x onerror="%s"> <svg onload="%s"></svg> [a](javascript:%s) '
        '[b](JAVASCRIPT:%s) [c](javascript&#58;%s) [d](//evil.example/x) <a href="javascript:%s">e</a> '
        '![f](javascript:%s)' % ((PWN,) * 8))


def md_text(s):
    """The note as report.md quotes it (report/table.c's sl_report_md_text, no code span)."""
    return "".join("\\" + c if c in "<>[]&\\" else c for c in s)


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

    def handle_starttag(self, tag, attrs):
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

    def handle_data(self, data):
        if self.in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)


def main():
    sumlab, src = sys.argv[1], sys.argv[2]
    found = sorted(glob.glob(os.path.join(src, "experiments/measured/h200-*-study/results.csv.gz")))
    if not found:
        print("thtml_hostile: no committed study (experiments/measured/h200-*-study/results.csv.gz)", file=sys.stderr)
        return 1
    study = os.path.dirname(found[-1])
    tmp = tempfile.mkdtemp(prefix="thtml_hostile.")
    bad = []
    try:
        run = os.path.join(tmp, "run")
        os.makedirs(os.path.join(run, "charts"))
        for f in ("distribution.csv.gz", "run.conf", "meta.json"):
            shutil.copy(os.path.join(study, f), run)
        with gzip.open(os.path.join(study, "results.csv.gz"), "rt", newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        h = rows[0]
        rows[1][h.index("status")] = "skipped"
        rows[1][h.index("note")] = NOTE
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
