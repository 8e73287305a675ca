#!/usr/bin/env python3
"""tcharts_svg.py: checks on the error charts' SVGs for tcharts.sh (issue 36): each variant's
colour and point type by name, the key outside the plot areas, the markers of exact-zero and
non-finite results at the plot areas' bottom and top edges.
  usage: tcharts_svg.py colours A.svg B.svg   (same colour and point type for the names in both;
                                               distinct colours within each)
         tcharts_svg.py colours-only A.svg B.svg  (the same, colours alone: a chart without point symbols)
         tcharts_svg.py legend X.svg...       (every key entry below every plot area)
         tcharts_svg.py markers zero|nf X.svg (a marker at the bottom|top edge, and its key entry)
         tcharts_svg.py yticks X.svg...       (y tick labels only left of the first panel: the panels share
                                               one y range, and wide labels ran into the previous panel)
         tcharts_svg.py keyfont X.svg...      (key entries at most 8 pt: a 9 pt bound label ran into the
                                               next panel's key in the PNG)
         tcharts_svg.py offscale X.svg RAT    (throughput: every ratio-to-CUB point below 0.5 a filled
                                               triangle at its panel's bottom edge, no two of them
                                               overlapping, its variant's key entry giving the range)
         tcharts_svg.py bands-distinct X.svg  (no two min-max bands drawn with the same outline: series of
                                               equal data stacked a dozen translucent bands into an opaque one;
                                               per panel the bands' opacities add up to at most 0.72, or 0.05 each;
                                               of series drawn as the same line, the band has the colour of the
                                               last, the one seen on top)
         tcharts_svg.py keymerge X.svg        (series drawn as the same line: one key entry between them, the
                                               line seen on top, naming the others)
         tcharts_svg.py marktop X.svg...      (each exact-zero or non-finite marker seen (the last drawn at its
                                               spot) has the colour of a series with a key entry: series merged
                                               into one entry drew their own markers under it)
         tcharts_svg.py bandcount X.svg       (as many min-max bands as distinct series lines: one per line,
                                               series drawn as the same line sharing one)
         tcharts_svg.py xticks X.svg...       (x tick labels under each plot area apart by their widths, about
                                               6 px a character at 10 pt, none past the panel's edges: 1e15-ulp
                                               offsets in gnuplot's default format ran into each other)
         tcharts_svg.py monotone NAME K X.svg (series NAME's line: x never decreasing along it, K vertices:
                                               accuracy-vs-cond's instances of neighbouring targets zigzagged)
  exit 0 ok, 1 failed (a line per failure on stderr)"""
import re
import sys

# a plot's group: its title, then everything up to the next plot's group (or the end)
GROUP = re.compile(r'<g id="gnuplot_plot_\d+[a-z]?" ><title>([^<]*)</title>(.*?)(?=<g id="gnuplot_plot_|</svg>)', re.S)
RECT = re.compile(r"d='M([\d.]+),([\d.]+) L\1,([\d.]+) L([\d.]+),\3 L\4,\2 L\1,\2 Z")
USE = re.compile(r"<use xlink:href='#(gpPt\d+)' transform='translate\(([\d.]+),([\d.]+)\) scale\(([\d.]+)\)' color='([^']*)'")
TEXT = re.compile(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*>\s*<text><tspan[^>]*>([^<]*)</tspan>')
STROKE = re.compile(r"<path stroke='(rgb\([^)]*\))'")


def load(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def areas(svg):
    """The plot areas (x0, top, x1, bottom) of the panels."""
    out = set()
    for m in RECT.finditer(svg):
        x0, top, bottom, x1 = (float(m.group(i)) for i in (1, 2, 3, 4))
        if x1 - x0 > 100 and bottom - top > 100:
            out.add((x0, top, x1, bottom))
    return sorted(out)


def series(svg):
    """name -> (colour, point symbol) of every named series (not bounds, u, guides, markers)."""
    out = {}
    for m in GROUP.finditer(svg):
        name, body = m.group(1), m.group(2)
        if name.startswith(("gnuplot_plot", "bound", "u = ", "u ·", "error 0", "non-finite", "probabilistic bound",
                            "relative error 1")):
            continue
        st = STROKE.search(body)
        pt = USE.search(body)
        if st:
            out[name] = (st.group(1).replace(" ", ""), pt.group(1) if pt else "")
    return out


def fail(msg):
    print("tcharts_svg: FAIL: " + msg, file=sys.stderr)
    return 1


def colours(a, b, colour_only=False):
    sa, sb = series(load(a)), series(load(b))
    if colour_only:   # a chart drawn without point symbols (tightness's ECDF steps)
        sa = {k: (c, "") for k, (c, _) in sa.items()}
        sb = {k: (c, "") for k, (c, _) in sb.items()}
    bad = 0
    common = sorted(set(sa) & set(sb))
    if not common:
        return fail("no variant in both %s and %s" % (a, b))
    for v in common:
        if sa[v] != sb[v]:
            bad += fail("%s: %s in %s, %s in %s" % (v, sa[v], a, sb[v], b))
    for path, s in ((a, sa), (b, sb)):
        cols = [c for c, _ in s.values()]
        if len(set(cols)) != len(cols):
            bad += fail("%s: two variants share a colour: %s" % (path, sorted(s.items(), key=lambda kv: kv[1])))
    return bad


def legend(paths):
    bad = 0
    for p in paths:
        svg = load(p)
        ar = areas(svg)
        if not ar:
            bad += fail("%s: no plot area found" % p)
            continue
        low = max(a[3] for a in ar)
        entries = 0
        for m in GROUP.finditer(svg):
            for t in TEXT.finditer(m.group(2)):
                if t.group(3) != m.group(1):   # a key entry's text is its plot's title
                    continue
                x, y = float(t.group(1)), float(t.group(2))
                entries += 1
                inside = [a for a in ar if a[0] <= x <= a[2] and a[1] <= y <= a[3]]
                if inside or y <= low:
                    bad += fail("%s: key entry '%s' at (%.0f, %.0f) is not below the plot areas (bottom %.0f)"
                                % (p, t.group(3), x, y, low))
        if not entries:
            bad += fail("%s: no key entries" % p)
    return bad


def markers(kind, path):
    svg = load(path)
    ar = areas(svg)
    sym, title = ("gpPt10", "error 0 (exact)") if kind == "zero" else ("gpPt1", "non-finite result")
    n = 0
    for m in USE.finditer(svg):
        if m.group(1) != sym:
            continue
        x, y = float(m.group(2)), float(m.group(3))
        for x0, top, x1, bottom in ar:
            edge = bottom - 15 <= y <= bottom if kind == "zero" else top <= y <= top + 15
            if x0 - 1 <= x <= x1 + 1 and edge:
                n += 1
    bad = 0
    if not n:
        bad += fail("%s: no %s marker at the plot area's %s edge" % (path, kind, "bottom" if kind == "zero" else "top"))
    if "<title>%s</title>" % title not in svg:
        bad += fail("%s: no key entry '%s'" % (path, title))
    return bad


KEYTEXT = re.compile(r'<g transform="translate\([\d.]+,[\d.]+\)"[^>]*font-size="([\d.]+)"[^>]*>\s*<text><tspan[^>]*>([^<]*)</tspan>')


def keyfont(paths):
    bad = 0
    for p in paths:
        svg = load(p)
        n, big = 0, []
        for m in GROUP.finditer(svg):
            for t in KEYTEXT.finditer(m.group(2)):
                if t.group(2) != m.group(1):   # a key entry's text is its plot's title
                    continue
                n += 1
                if float(t.group(1)) > 8.0:
                    big.append(t.group(2))
        if big:
            bad += fail("%s: %d key entries above 8 pt, e.g. '%s'" % (p, len(big), big[0]))
        if not n:
            bad += fail("%s: no key entries" % p)
    return bad


ENDTEXT = re.compile(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*text-anchor="end">\s*<text><tspan[^>]*>([^<]*)</tspan>')


def yticks(paths):
    bad = 0
    for p in paths:
        svg = load(p)
        ar = areas(svg)
        if len(ar) < 2:
            continue
        x0 = min(a[0] for a in ar)
        n, late = 0, []
        for t in ENDTEXT.finditer(svg):
            n += 1
            if float(t.group(1)) > x0:
                late.append("%s at x %s" % (t.group(3), t.group(1)))
        if not n:
            bad += fail("%s: no y tick labels" % p)
        if late:
            bad += fail("%s: %d y tick labels right of the first panel's left edge (%.0f), e.g. %s"
                        % (p, len(late), x0, late[0]))
    return bad


POLY = re.compile(r"<polygon fill = 'rgb\([ 0-9,]*\)' fill-opacity = '0\.[0-9]*' points = '([^']*)'")
POLYOP = re.compile(r"<polygon fill = 'rgb\([ 0-9,]*\)' fill-opacity = '(0\.[0-9]*)' points = '([\d.]+),")


def bands(paths):
    """No min-max band reaches a plot area's bottom edge: the y range starts a factor 4 below the
    least nonzero error, so a band there is an exact instance drawn as a band to the edge."""
    bad = 0
    for p in paths:
        svg = load(p)
        ar = areas(svg)
        n, low = 0, 0
        for m in POLY.finditer(svg):
            n += 1
            pts = [tuple(float(v) for v in xy.split(",")) for xy in m.group(1).split()]
            for x0, top, x1, bottom in ar:
                if any(x0 - 1 <= x <= x1 + 1 for x, _ in pts) and any(y >= bottom - 1 for _, y in pts):
                    low += 1
                    break
        if not n:
            bad += fail("%s: no min-max band" % p)
        if low:
            bad += fail("%s: %d of %d bands reach the bottom edge" % (p, low, n))
    return bad


PATHD = re.compile(r"<path stroke='rgb\([^)]*\)'[^>]*d='([^']*)'")


def monotone(name, k, path):
    """Series NAME's line: its vertices' x never decrease, and there are k of them."""
    svg = load(path)
    ar = areas(svg)
    for m in GROUP.finditer(svg):
        if m.group(1) != name:
            continue
        xs = []
        for d in PATHD.finditer(m.group(2)):
            # (the vertices in a plot area: not the key's sample line below it)
            xs += [float(x) for x, y in re.findall(r"[ML]\s*([\d.]+),([\d.]+)", d.group(1))
                   if any(x0 - 1 <= float(x) <= x1 + 1 and top - 1 <= float(y) <= bot + 1 for x0, top, x1, bot in ar)]
        back = sum(1 for a, b in zip(xs, xs[1:]) if b < a - 0.01)
        bad = 0
        if back:
            bad += fail("%s: %s's line goes back in x %d times (%d vertices)" % (path, name, back, len(xs)))
        if len(xs) != k:
            bad += fail("%s: %s's line has %d vertices, not %d" % (path, name, len(xs), k))
        return bad
    return fail("%s: no series %s" % (path, name))


def offscale(path, rat):
    """rat: lines "variant n ratio" of the chart's ratios; each ratio below 0.5 has a filled
    triangle (gpPt10) at the bottom edge of a ratio panel (the lower, shorter plot areas), and
    each such variant a key entry "variant ▼LO-HIx"."""
    svg = load(path)
    low = [a for a in areas(svg) if a[3] - a[1] < 250]
    if not low:
        return fail("%s: no ratio panel" % path)
    # the markers near a ratio panel's bottom edge (a cluster of rows where several variants are off
    # scale at one n): each glyph spans +-scale around its centre
    marks = [(float(m.group(2)), float(m.group(3)), float(m.group(4))) for m in USE.finditer(svg)
             if m.group(1) == "gpPt10" and any(x0 - 1 <= float(m.group(2)) <= x1 + 1 and
                                               bot - 45 <= float(m.group(3)) <= bot + 1 for x0, _, x1, bot in low)]
    edge = len(marks)
    want, names = 0, set()
    with open(rat, encoding="utf-8") as f:
        for line in f:
            v, _, r = line.split()
            if float(r) < 0.5:
                want += 1
                names.add(v)
    bad = 0
    if want == 0:
        bad += fail("%s: no ratio below 0.5 in %s (nothing to check)" % (path, rat))
    if edge < want:
        bad += fail("%s: %d triangles at a ratio panel's bottom edge for %d ratios below 0.5" % (path, edge, want))
    over = [(a, b) for i, a in enumerate(marks) for b in marks[i + 1:]
            if abs(a[0] - b[0]) < 1.6 * max(a[2], b[2]) and abs(a[1] - b[1]) < 1.6 * max(a[2], b[2])]
    for a, b in over[:5]:
        bad += fail("%s: off-scale markers at (%.1f, %.1f) and (%.1f, %.1f) overlap" % (path, a[0], a[1], b[0], b[1]))
    for v in sorted(names):
        if not re.search(r"<title>%s ▼[0-9.e-]+(-[0-9.e-]+)?x</title>" % re.escape(v), svg):
            bad += fail("%s: no key entry giving %s's off-scale range" % (path, v))
    return bad


NOT_SERIES = ("bound", "u = ", "probabilistic", "error 0", "non-finite", "relative error 1")


def series_lines(svg, untitled=False):
    """(title, colour, vertices in the plot areas) of each series line, in drawing order; the plots
    without a key entry (gnuplot_plot_N) too when untitled."""
    ar = areas(svg)
    for m in GROUP.finditer(svg):
        st = re.search(r"<path stroke='(rgb\([^)]*\))'[^>]*d='([^']*)'", m.group(2))
        if not st or m.group(1).startswith(NOT_SERIES) or (not untitled and m.group(1).startswith("gnuplot_plot")):
            continue
        pts = tuple(xy for xy in re.findall(r"[ML]\s*([\d.]+,[\d.]+)", st.group(2))
                    if any(x0 - 1 <= float(xy.split(",")[0]) <= x1 + 1 and t - 1 <= float(xy.split(",")[1]) <= b + 1
                           for x0, t, x1, b in ar))
        yield m.group(1), st.group(1).replace(" ", ""), pts


def lines_of(svg):
    """The distinct vertex lists (in the plot areas) of the series lines."""
    return {pts for _, _, pts in series_lines(svg) if len(pts) >= 2}


def bandcount(path):
    svg = load(path)
    nb, nl = len(POLY.findall(svg)), len(lines_of(svg))
    if nb != nl or nb == 0:
        return fail("%s: %d bands for %d distinct series lines" % (path, nb, nl))
    return 0


def bands_distinct(path):
    """Every min-max band polygon of the chart has its own outline (at least one band)."""
    polys = [m.group(1) for m in POLY.finditer(load(path))]
    if not polys:
        return fail("%s: no min-max band" % path)
    dup = len(polys) - len(set(polys))
    bad = 0
    if dup:
        bad += fail("%s: %d of %d bands repeat another's outline" % (path, dup, len(polys)))
    svg = load(path)
    # series whose lines coincide (the same vertices in the plot areas): only the last is seen
    # (series without a key entry too: equal series share the last one's)
    last, hidden = {}, set()
    for _, colour, pts in series_lines(svg, untitled=True):
        if pts in last:
            hidden.add(last[pts])
        last[pts] = colour
    seen = set(last.values())
    for m in re.finditer(r"<polygon fill = '(rgb\([^)]*\))' fill-opacity", svg):
        c = m.group(1).replace(" ", "")
        if c in hidden and c not in seen:
            bad += fail("%s: a band in %s, the colour of a line drawn under an equal one" % (path, c))
    for x0, _, x1, _ in areas(svg):
        ops = [float(m.group(1)) for m in POLYOP.finditer(svg) if x0 - 1 <= float(m.group(2)) <= x1 + 1]
        if ops and sum(ops) > max(0.73, 0.051 * len(ops)):
            bad += fail("%s: the panel at x %.0f has %d bands of opacity %.3g in all" % (path, x0, len(ops), sum(ops)))
    return bad


def keymerge(path):
    """Series drawn as the same line (the same vertices in the plot areas) have one key entry between
    them: the last one's (its line is the one seen, so the entry's colour is the colour on top), naming
    the others ("A = B", "A +K equal", "A = all N (equal results)"); at least one such group."""
    svg = load(path)
    groups = {}
    for title, colour, pts in series_lines(svg, untitled=True):
        if len(pts) >= 2:
            groups.setdefault(pts, []).append((title, colour))
    bad = n = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        n += 1
        titled = [t for t, _ in members if not t.startswith("gnuplot_plot")]
        if len(titled) != 1:
            bad += fail("%s: %d series drawn as one line have %d key entries (%s)" % (path, len(members), len(titled), ", ".join(titled)))
            continue
        t, c = next((t, c) for t, c in members if not t.startswith("gnuplot_plot"))
        if (t, c) != members[-1]:
            bad += fail("%s: the key entry %r is not the line drawn on top of its %d equal ones" % (path, t, len(members)))
        k = len(members)
        if not (" = " in t and (t.count(" = ") == k - 1 or "= all %d " % k in t) or t.endswith(" +%d equal" % (k - 1))):
            bad += fail("%s: the key entry %r does not name its %d equal series" % (path, t, k))
    if not n:
        bad += fail("%s: no series drawn as one line (nothing to check)" % path)
    return bad


XTICK = re.compile(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*text-anchor="middle">\s*<text><tspan[^>]*>([^<]*)</tspan>')


def xticks(paths):
    """Centred labels just under a plot area (x tick labels): consecutive ones at least half their
    widths apart plus a 4 px gap, each within the area widened by 40 px."""
    bad = 0
    for p in paths:
        svg = load(p)
        n = 0
        for x0, _, x1, bot in areas(svg):
            labs = sorted((float(m.group(1)), m.group(3)) for m in XTICK.finditer(svg)
                          if bot < float(m.group(2)) <= bot + 30 and x0 - 40 <= float(m.group(1)) <= x1 + 40)
            n += len(labs)
            for (xa, a), (xb, b) in zip(labs, labs[1:]):
                if xb - xa < (len(a) + len(b)) * 6.0 / 2 + 4:
                    bad += fail("%s: x tick labels %r and %r collide (%.0f px apart)" % (p, a, b, xb - xa))
        if not n:
            bad += fail("%s: no x tick labels found" % p)
    return bad


def marktop(paths):
    """At each spot of an exact-zero marker (bottom edge) or a non-finite one (top edge), the marker
    drawn last, the one seen, has the colour of a series that has a key entry; at least one marker."""
    bad = n = 0
    for p in paths:
        svg = load(p)
        ar = areas(svg)
        keyed = {c for c, _ in series(svg).values()}
        top = {}
        for m in USE.finditer(svg):
            if m.group(1) not in ("gpPt10", "gpPt1"):
                continue
            x, y = float(m.group(2)), float(m.group(3))
            for x0, t, x1, b in ar:
                zero = m.group(1) == "gpPt10" and b - 15 <= y <= b
                nf = m.group(1) == "gpPt1" and t <= y <= t + 15
                if x0 - 1 <= x <= x1 + 1 and (zero or nf):
                    top[(m.group(1), round(x), round(y))] = m.group(5).replace(" ", "")
        n += len(top)
        for (sym, x, y), c in sorted(top.items()):
            if c not in keyed:
                bad += fail("%s: the %s marker seen at (%d, %d) is %s, the colour of no series with a key entry"
                            % (p, "exact-zero" if sym == "gpPt10" else "non-finite", x, y, c))
    if not n:
        bad += fail("no exact-zero or non-finite marker in %s" % " ".join(paths))
    return bad


def main(argv):
    if len(argv) >= 3 and argv[1] == "marktop":
        return marktop(argv[2:])
    if len(argv) >= 3 and argv[1] == "xticks":
        return xticks(argv[2:])
    if len(argv) == 3 and argv[1] == "keymerge":
        return keymerge(argv[2])
    if len(argv) == 3 and argv[1] == "bandcount":
        return bandcount(argv[2])
    if len(argv) == 3 and argv[1] == "bands-distinct":
        return bands_distinct(argv[2])
    if len(argv) == 4 and argv[1] == "offscale":
        return offscale(argv[2], argv[3])
    if len(argv) == 5 and argv[1] == "monotone":
        return monotone(argv[2], int(argv[3]), argv[4])
    if len(argv) >= 3 and argv[1] == "colours" and len(argv) == 4:
        return colours(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "colours-only":
        return colours(argv[2], argv[3], True)
    if len(argv) >= 3 and argv[1] == "legend":
        return legend(argv[2:])
    if len(argv) >= 3 and argv[1] == "bands":
        return bands(argv[2:])
    if len(argv) >= 3 and argv[1] == "yticks":
        return yticks(argv[2:])
    if len(argv) >= 3 and argv[1] == "keyfont":
        return keyfont(argv[2:])
    if len(argv) == 4 and argv[1] == "markers" and argv[2] in ("zero", "nf"):
        return markers(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv) else 0)
