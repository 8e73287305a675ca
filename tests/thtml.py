#!/usr/bin/env python3
# thtml.py: report.html as a reader sees it, rendered by headless Chromium: every chart of
# report.md drawn (inline, or past the page's SVG budget linked as charts/NAME.svg, loaded from a
# copy of the run directory elsewhere), the page under 3 MB though its charts hold more SVG than
# that, no broken image or external resource, every table filled, a table sorted by a click,
# every string escaped, a Findings section showing its rows; and the same check fails on a page
# with a chart missing or a table emptied. On the committed H200 study (--report-only).
#   usage: thtml.py SUMLAB SRC_DIR      exit 0 ok, 1 failure, 77 no chromium / gnuplot
#   SUMLAB_HTML_SHOT=DIR keeps the screenshot (DIR/report.png) and the checked page there.
import glob, json, os, re, shutil, subprocess, sys, tempfile, zlib

PAGE_MAX = 3000000   # report.html's bound in bytes (issue 36)
LINKED = re.compile(r"^charts/[A-Za-z0-9][A-Za-z0-9._:=+-]*\.svg$")   # a chart linked, not embedded
HOSTILE = "</code><script>window.__slPwned=1</script><img src=x onerror=\"window.__slPwned=1\"> & \"q\" 'a'"

# Runs in the page after load; leaves what it measured as JSON in <pre id="sl-check">.
CHECK_JS = r"""
window.addEventListener('load', function () {
  var out = {}, LINKED = /^charts\/[A-Za-z0-9][A-Za-z0-9._:=+-]*\.svg$/;
  function drawn(el) { try { var b = el.getBBox(); return b.width > 0 || b.height > 0; } catch (e) { return false; } }
  out.title = document.title;
  out.h1 = (document.querySelector('h1') || {}).textContent || '';
  out.charts = Array.prototype.map.call(document.querySelectorAll('figure'), function (fig) {
    var svg = fig.querySelector('svg.chart'), cap = fig.querySelector('figcaption');
    var img = fig.querySelector('img.chart');
    var c = {caption: cap ? cap.textContent : '', svg: !!svg, img: img ? img.getAttribute('src') : null};
    /* drawn: loaded (a natural size) and laid out on the page (an SVG without width/height has
       a natural size of 300 px wide whatever it draws, so the laid-out box is what is checked) */
    if (img) { var ok = img.complete && img.naturalWidth > 0, ir = img.getBoundingClientRect();
               c.img_w = ok ? ir.width : 0; c.img_h = ok ? ir.height : 0; }
    if (!svg) return c;
    var r = svg.getBoundingClientRect();
    c.w = r.width; c.h = r.height;
    /* gnuplot puts each plotted series in <g id="gnuplot_plot_K">: series with drawn marks */
    c.series = 0; c.series_drawn = 0;
    svg.querySelectorAll('g[id*="gnuplot_plot_"]').forEach(function (g) {
      c.series++;
      var any = false;
      g.querySelectorAll('path,use,polygon,polyline,circle,rect').forEach(function (e) { any = any || drawn(e); });
      if (any) c.series_drawn++;
    });
    c.text = Array.prototype.map.call(svg.querySelectorAll('text'), function (t) { return t.textContent; }).join(' ').length;
    return c;
  });
  out.missing = Array.prototype.map.call(document.querySelectorAll('.missing'), function (e) { return e.textContent; });
  out.imgs = Array.prototype.map.call(document.images, function (i) { return {src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0}; });
  /* a chart linked as charts/NAME.svg (relative, inside the run directory) is not external */
  out.external = Array.prototype.filter.call(document.querySelectorAll('[src],link[href],object,embed,iframe'),
                                             function (e) { return !(e.tagName === 'IMG' && LINKED.test(e.getAttribute('src') || '')); })
                   .map(function (e) { return e.outerHTML.slice(0, 120); });
  out.scheme_links = Array.prototype.map.call(document.querySelectorAll('a[href]'), function (a) { return a.getAttribute('href'); })
                       .filter(function (h) { return /^[a-z][a-z0-9+.-]*:/i.test(h); });
  var heading = '';
  out.tables = [];
  document.querySelectorAll('h2,h3,table').forEach(function (e) {
    if (e.tagName !== 'TABLE') { heading = e.textContent; return; }
    var hdr = e.tHead ? e.tHead.rows[0].cells.length : 0, body = e.tBodies[0], rows = body ? body.rows : [];
    var t = {heading: heading, hdr: hdr, rows: rows.length, empty: [], ragged: 0};
    Array.prototype.forEach.call(rows, function (r, i) {
      if (r.cells.length !== hdr) t.ragged++;
      Array.prototype.forEach.call(r.cells, function (c, j) { if (!c.textContent.trim()) t.empty.push([i, j]); });
    });
    out.tables.push(t);
  });
  /* sorting: the first headline table, by its "median err" column, clicked twice */
  var tab = null, col = -1;
  document.querySelectorAll('table').forEach(function (t) {
    if (tab || !t.tHead) return;
    Array.prototype.forEach.call(t.tHead.rows[0].cells, function (th, j) { if (col < 0 && /^median err/.test(th.textContent)) col = j; });
    if (col >= 0) tab = t; else col = -1;
  });
  function column() { return Array.prototype.map.call(tab.tBodies[0].rows, function (r) { return r.cells[col].textContent.trim(); }); }
  function rowset() { return Array.prototype.map.call(tab.tBodies[0].rows, function (r) { return r.textContent; }).sort().join('\n'); }
  if (tab) {
    var th = tab.tHead.rows[0].cells[col], set0 = rowset();
    out.sort = {header: th.textContent, before: column()};
    th.click(); out.sort.asc = column(); out.sort.aria_asc = th.getAttribute('aria-sort');
    th.click(); out.sort.desc = column(); out.sort.aria_desc = th.getAttribute('aria-sort');
    out.sort.same_rows = rowset() === set0;
  }
  var cmd = Array.prototype.filter.call(document.querySelectorAll('ul.prov li'), function (li) { return /^command:/.test(li.textContent); });
  out.command = cmd.length ? cmd[0].textContent : null;
  out.pwned = window.__slPwned === 1;
  out.body_text = document.body.innerText.length;
  var pre = document.createElement('pre');
  pre.id = 'sl-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def browse(browser, tmp, args, url):
    prof = tempfile.mkdtemp(dir=tmp, prefix="profile.")
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           "--user-data-dir=" + prof, "--virtual-time-budget=20000"] + args + [url]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    if r.returncode != 0:
        raise RuntimeError("chromium exited %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[-800:]))
    return r.stdout.decode("utf-8", errors="replace")


def measure(browser, tmp, page):
    """Loads page (a report.html) with CHECK_JS appended and returns what the script measured."""
    with open(page, encoding="utf-8") as f:
        html = f.read()
    probe = os.path.join(os.path.dirname(page), "checked.html")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(html.replace("</body>", "<script>" + CHECK_JS + "</script>\n</body>"))
    dom = browse(browser, tmp, ["--dump-dom"], "file://" + probe)
    m = re.search(r'<pre id="sl-check">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError("the check script left no result (page did not load or script failed)")
    txt = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    return json.loads(txt)


def md_expect(md):
    """Charts (image lines) and tables (header + |---| lines) that report.md has."""
    lines = md.split("\n")
    charts = [l for l in lines if l.startswith("![")]
    tables = sum(1 for i in range(len(lines) - 1)
                 if lines[i].startswith("|") and re.match(r"^\|(\s*:?-+:?\s*\|)+\s*$", lines[i + 1])
                 and (i == 0 or not lines[i - 1].startswith("|")))
    return charts, tables


def problems(run, got):
    """What a reader would find wrong in the page of run dir `run` (empty list: nothing)."""
    bad = []
    with open(os.path.join(run, "report.md"), encoding="utf-8") as f:
        md = f.read()
    charts, ntables = md_expect(md)
    pngs = sorted(x for x in os.listdir(os.path.join(run, "charts")) if x.endswith(".png"))
    if len(charts) != len(pngs) or len(got["charts"]) != len(pngs):
        bad.append("charts: %d PNGs in charts/, %d in report.md, %d figures on the page"
                   % (len(pngs), len(charts), len(got["charts"])))
    for c in got["charts"]:
        if c.get("img") is not None:   # linked (past the page's SVG budget): the file, drawn
            if not LINKED.match(c["img"]) or c.get("img_w", 0) < 300 or c.get("img_h", 0) < 150:
                bad.append("chart %s: linked SVG %s not drawn (%dx%d px)"
                           % (c["caption"], c["img"][:80], c.get("img_w", 0), c.get("img_h", 0)))
        elif not c["svg"]:
            bad.append("chart %s: no inline SVG" % c["caption"])
        elif c["w"] < 300 or c["h"] < 150 or c["series"] < 1 or c["series_drawn"] < 1 or c["text"] < 20:
            bad.append("chart %s: not drawn (%.0fx%.0f px, %d of %d series drawn, %d chars of text)"
                       % (c["caption"], c["w"], c["h"], c["series_drawn"], c["series"], c["text"]))
    bad += ["marked missing: " + m for m in got["missing"]]
    bad += ["broken image: %s" % i["src"][:80] for i in got["imgs"] if not i["ok"]]
    bad += ["image on the page: %s" % i["src"][:80] for i in got["imgs"] if not LINKED.match(i["src"] or "")]
    # the page's size: the charts past its SVG budget are linked, not embedded
    size = os.path.getsize(os.path.join(run, "report.html"))
    if size >= PAGE_MAX:
        bad.append("report.html is %d bytes (bound %d)" % (size, PAGE_MAX))
    bad += ["external resource: " + e for e in got["external"]]
    bad += ["link with a scheme: " + h for h in got["scheme_links"]]
    if len(got["tables"]) != ntables + 1:   # + meta.json's
        bad.append("tables: %d on the page, report.md has %d (+1 provenance)" % (len(got["tables"]), ntables))
    for t in got["tables"]:
        if t["rows"] < 1:
            bad.append("table under '%s': no rows" % t["heading"])
        if t["empty"]:
            bad.append("table under '%s': %d empty cells, e.g. row %d col %d"
                       % (t["heading"], len(t["empty"]), t["empty"][0][0], t["empty"][0][1]))
        if t["ragged"]:
            bad.append("table under '%s': %d rows with another cell count than the header" % (t["heading"], t["ragged"]))
    s = got.get("sort")
    if not s:
        bad.append("sorting: no headline table with a 'median err' column")
    else:
        def num(v):
            m = re.match(r"^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?", v, re.I)
            return float(m.group(0)) if m else float("inf") if v.startswith("inf") else None
        asc = [num(v) for v in s["asc"] if num(v) is not None]
        desc = [num(v) for v in s["desc"] if num(v) is not None]
        if len(asc) < 5 or asc != sorted(asc) or desc != sorted(desc, reverse=True):
            bad.append("sorting '%s': ascending %s / descending %s" % (s["header"], s["asc"][:8], s["desc"][:8]))
        if s["before"] == s["asc"] or s["aria_asc"] != "ascending" or s["aria_desc"] != "descending":
            bad.append("sorting '%s': the click changed nothing visible (%s, %s)" % (s["header"], s["aria_asc"], s["aria_desc"]))
        if not s["same_rows"]:
            bad.append("sorting '%s': rows lost or changed" % s["header"])
    # the Findings section, generated from the rows, with the row that shows each finding
    with open(os.path.join(run, "report.html"), encoding="utf-8") as f:
        page = f.read()
    i = page.find(">Findings</h2>")
    if i < 0:
        bad.append("no Findings section")
    elif not re.search(r"result <code>[-0-9a-fx.p+]+</code>, exact <code>[-0-9a-fx.p+]+</code>", page[i:i + 200000]):
        bad.append("Findings: no finding shows its row (result and exact bits)")
    if got["pwned"]:
        bad.append("escaping: a script from meta.json ran")
    if got["command"] is None or HOSTILE not in got["command"]:
        bad.append("escaping: the command is not shown literally: %r" % got["command"])
    if not got["h1"].startswith("sumlab study") or not got["title"].startswith("sumlab study"):
        bad.append("title/h1: %r / %r" % (got["title"], got["h1"]))
    return bad


def png_ink(path):
    """Fraction of non-white pixels of an 8-bit RGB/RGBA PNG (filters undone)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, w, h, ct = 8, b"", 0, 0, 0
    while pos < len(data):
        ln = int.from_bytes(data[pos:pos + 4], "big"); typ = data[pos + 4:pos + 8]; body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            w, h, depth, ct = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big"), body[8], body[9]
            if depth != 8 or ct not in (2, 6):
                raise RuntimeError("screenshot PNG: unexpected format (depth %d, colour type %d)" % (depth, ct))
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    raw, bpp = zlib.decompress(idat), 3 if ct == 2 else 4
    stride, prev, ink, out = w * bpp, bytearray(w * bpp), 0, 0
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1: line[i] = (line[i] + a) & 255
            elif ft == 2: line[i] = (line[i] + b) & 255
            elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            out += 1
            ink += min(line[x], line[x + 1], line[x + 2]) < 200
        prev = line
    return ink / max(out, 1)


def main():
    sumlab, src = sys.argv[1], sys.argv[2]
    browser = chromium()
    if not browser:
        print("thtml: chromium not installed (apt-get install chromium): skipped", file=sys.stderr)
        return 77
    if not shutil.which("gnuplot"):
        print("thtml: gnuplot not installed: skipped", file=sys.stderr)
        return 77
    # the committed full study (experiments/measured/<machine>-<commit>-study; one keeps its data)
    found = sorted(glob.glob(os.path.join(src, "experiments/measured/*-study/results.csv*")))
    if not found:
        print("thtml: no committed study (experiments/measured/*-study/results.csv)", file=sys.stderr)
        return 1
    study = os.path.dirname(found[-1])
    tmp = tempfile.mkdtemp(prefix="thtml.")
    try:
        run = os.path.join(tmp, "run")
        os.makedirs(run)
        for f in ("results.csv", "distribution.csv", "ladder_ncu.csv", "run.conf"):
            p = os.path.join(study, f)   # committed as FILE.gz (experiments/measured/README.md)
            if f == "ladder_ncu.csv" and not os.path.exists(p) and not os.path.exists(p + ".gz"):
                continue                 # the Nsight Compute table: only where the run had ncu
            shutil.copy(p if os.path.exists(p) else p + ".gz", run)
        with open(os.path.join(study, "meta.json"), encoding="utf-8") as f:
            meta = json.load(f)
        meta["provenance"]["argv"] = HOSTILE
        with open(os.path.join(run, "meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f)
        env = dict(os.environ, SUMLAB_NO_GPU="1")
        subprocess.run([sumlab, "run", "all", "--report-only", "-q", "-o", run], check=True, env=env)
        # the bound means something here: this study's charts hold more SVG than the bound, so
        # embedding them all (the earlier form) makes a page over it
        svg_total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(run, "charts", "*.svg")))
        bad = []
        if svg_total <= PAGE_MAX:
            bad.append("the study's charts hold %d bytes of SVG: the page bound %d tests nothing" % (svg_total, PAGE_MAX))
        # the page read from a copy of the run directory elsewhere: its linked charts still load
        moved = os.path.join(tmp, "elsewhere", "copied-run")
        shutil.copytree(run, moved)
        got = measure(browser, tmp, os.path.join(moved, "report.html"))
        bad += problems(moved, got)
        nlinked = sum(1 for c in got["charts"] if c.get("img"))
        print("thtml: report.html %d bytes, %d charts inline, %d linked (charts/ %d bytes of SVG)"
              % (os.path.getsize(os.path.join(run, "report.html")), len(got["charts"]) - nlinked, nlinked, svg_total))
        for b in bad:
            print("thtml: FAIL: " + b, file=sys.stderr)
        nch = len(got["charts"])
        print("thtml: %d charts drawn, %d tables filled, sorted '%s' both ways"
              % (nch, len(got["tables"]), got.get("sort", {}).get("header")))

        # the screenshot: what the top of the page looks like, and that it is not blank
        shot = os.path.join(tmp, "report.png")
        browse(browser, tmp, ["--window-size=1400,1800", "--screenshot=" + shot], "file://" + os.path.join(run, "report.html"))
        ink = png_ink(shot)
        if ink < 0.02:
            bad.append("screenshot: %.3f of its pixels are not white" % ink)
            print("thtml: FAIL: screenshot nearly blank (%.3f)" % ink, file=sys.stderr)
        keep = os.environ.get("SUMLAB_HTML_SHOT")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(shot, os.path.join(keep, "report.png"))
            shutil.copy(os.path.join(run, "checked.html"), os.path.join(keep, "checked.html"))

        # the same check must fail on a broken page: a chart's SVG gone, and a table emptied
        broken = os.path.join(tmp, "broken")
        shutil.copytree(run, broken)
        os.remove(os.path.join(broken, "charts", "error_vs_cond_f32.svg"))
        subprocess.run([sumlab, "run", "all", "--report-only", "-q", "-o", broken], check=True,
                       env=dict(env, SUMLAB_NO_CHARTS="1"))
        b1 = problems(broken, measure(browser, tmp, os.path.join(broken, "report.html")))
        if not any("error_vs_cond_f32" in b for b in b1):
            bad.append("a missing chart went unnoticed: %s" % b1)
            print("thtml: FAIL: a missing chart went unnoticed", file=sys.stderr)
        page = os.path.join(broken, "report.html")
        with open(page, encoding="utf-8") as f:
            html = f.read()
        i = html.index(">Determinism (claimed class checked)</h2>")
        j, k = html.index("<tbody>", i) + 7, html.index("</tbody>", i)
        with open(page, "w", encoding="utf-8") as f:
            f.write(html[:j] + html[k:])
        b2 = problems(broken, measure(browser, tmp, page))
        if not any("no rows" in b and "Determinism" in b for b in b2):
            bad.append("an empty table went unnoticed: %s" % b2)
            print("thtml: FAIL: an empty table went unnoticed", file=sys.stderr)
        if not bad:
            print("thtml: ok (screenshot %.0f %% ink; a missing chart and an empty table are caught)" % (100 * ink))
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
