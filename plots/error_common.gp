# error_common.gp: the body of the three error charts (error_vs_n, error_vs_cond,
# error_vs_range): one panel per variant group (render.sh's panels: ladder, accuracy,
# anchors), one line per variant (the median over the point's instances, with a min-max band),
# the variants' a-priori bounds (dashed; variants with the same bound curve share one line), the
# unit roundoff u (dotted), exact zeros and non-finite results as markers at the bottom and top
# edges (no floor line), the key in two columns below each panel. One y range for all panels,
# fitted to the data; bounds beyond it are clipped at the edge and their key entry says how far.
# Inputs (gnuplot -e): datadir, np, per panel p: tP, sP, cP, kP, bP, bcP; ymin, ymax, kr, u,
# haszero, hasnf, ttl, xlab, ylab, xlog, guide (1: draw u*x, the first-order error of a correctly
# rounded sum of a cond-x input), prob (1: DATADIR/_prob.bnd, the probabilistic bound sqrt(n) u cond
# of Higham & Mary 2019, drawn beside the worst-case ones), clip (1: errors past 1 drawn at 1,
# a line at 1), band (1: several instances per point; each series' data file
# holds "x median min max zero nonfinite" (render.sh's extract_error), the median drawn as the
# line, min-max of the nonzero errors as a translucent band; an exact instance is a marker).
load dir.'/common.gp'
if (!exists("clip")) clip = 0
if (!exists("prob")) prob = 0
# accuracy-vs-cond: errors past 1 are drawn at 1 (render.sh), the range ends a little above
if (clip && ymax > 3) ymax = 3
set xlabel xlab offset 0,0.5
set logscale y
set format y "10^{%L}"
set yrange [ymin:ymax]
# decade ticks: a labelled tick per decade (per 2, 3 ... decades past 14, the others minor)
ystep = ceil(log10(ymax / ymin) / 14.0)
ystep = ystep < 1 ? 1 : ystep
set ytics 10**ystep
set mytics (ystep > 1 ? ystep : 10)
if (!exists("xfmt")) xfmt = "2^{%L}"
if (xlog == 2) { set logscale x 2; set format x xfmt }
xstep = (xlog == 10 && xmin > 0 && xmax > xmin) ? ceil(log10(xmax / xmin) / 8.0) : 1
if (xlog == 10) {
  set logscale x 10; set format x "10^{%L}"
  set xtics 10**xstep
  set mxtics (xstep > 1 ? xstep : 10)
}
# the marks of results without a finite non-zero error, at the plot's bottom and top edges
zmark = ymin * (ymax / ymin)**0.025
nfmark = ymax / (ymax / ymin)**0.025
# Layout in pixels: a title band, a plot area of PH pixels, the x label, then each panel's key
# in two columns below its own plot area, kr rows (render.sh: the tallest panel's), so the key
# takes the height it needs, never the plot's.
PH = 380.0; TOPB = paper ? 175.0 : 70.0; XLB = paper ? 100.0 : 60.0; ROWH = paper ? 30.0 : 15.0
# (paper: the key in one column, its font being larger against the panel)
if (!exists("kr1")) kr1 = 2 * kr
KR = paper ? kr1 : kr
H = int(TOPB + PH + XLB + KR * ROWH + 20)
# (screen: room right of the last panel for its key's second column)
W = panelw(np) + (paper ? 0 : 140)
KF = paper ? ",9" : ",8"
do for [term = 1:nterm] {
  eval termset(term, W, H)
  set multiplot title ttl font ",12"
  do for [p = 1:np] {
    S = value('s'.p); C = value('c'.p); B = value('b'.p); BC = value('bc'.p)
    # (nbP: 0 for a series whose data repeats an earlier one of the panel: its band not drawn again)
    NBW = exists('nb'.p) ? value('nb'.p) : ""
    # (kP: per series its key entry, quoted words; "-" for a series drawn as the same line as a
    # later one of the panel: that one's entry names them all)
    KW = exists('k'.p) ? value('k'.p) : S
    set lmargin at screen px0(p, W); set rmargin at screen px1(p, W)
    set tmargin at screen 1 - TOPB / H; set bmargin at screen 1 - (TOPB + PH) / H
    # (key font 8 on screen: at 9 a long bound label, e.g. "bound: smem-interleaved +2 (to 3e-02)",
    # ran into the next panel's key in the PNG)
    set key at screen px0(p, W), screen 1 - (TOPB + PH + XLB) / H left top vertical Left reverse nobox font KF \
        spacing 1.0 samplen 2 maxrows KR width -2
    set title value('t'.p) font ",11"
    # one y range for all panels: the tick labels only left of the first (wide labels such as
    # 10^{-18} of the next panels ran into the previous panel's right edge)
    if (p == 1) { set ylabel ylab; set format y "10^{%L}" } else { unset ylabel; set format y "" }
    last = (p == np)
    # (a `for` over an empty list still runs its body once in gnuplot 5.4, and a macro in a
    # `do` loop is expanded once: the plot command is built as a string and eval'd)
    BND = words(B) > 0 ? "for [i=1:words(B)] datadir.'/'.word(B,i).'.dat' using 1:2 with lines dt 2 lw 1.2 lc rgb col(word(BC,i)) title columnheader(1), " : ""
    # the bands' opacity: 0.18 each up to 4 bands in the panel, less past that (0.72 shared), so
    # where they all overlap they stay about half opaque (13 bands of 0.18 hid the lines under them)
    NBD = 0; do for [i=1:words(S)] { if (word(NBW,i) ne '0') { NBD = NBD + 1 } }
    BOP = NBD > 4 ? 0.72 / NBD : 0.18
    BOP = BOP < 0.05 ? 0.05 : BOP
    BAND = band ? "for [i=1:words(S)] (word(NBW,i) eq '0' ? '/dev/null' : datadir.'/'.word(S,i).'.dat') using 1:($3 > 0 ? $3 : ymin):($4 > 0 ? $4 : ymin) with filledcurves fs transparent solid ".sprintf("%.3f", BOP)." noborder lc rgb col(word(C,i)) notitle, " : ""
    # exact zeros (median 0) and non-finite results: the variant's colour, filled triangles down
    # at the bottom edge, crosses at the top edge (one key entry each, in the last panel)
    MARK = "for [i=1:words(S)] datadir.'/'.word(S,i).'.dat' using 1:($5 > 0 ? zmark : NaN) with points pt 11 ps 1.3 lc rgb col(word(C,i)) notitle, ". \
           "for [i=1:words(S)] datadir.'/'.word(S,i).'.dat' using 1:($6 > 0 ? nfmark : NaN) with points pt 2 ps 1.4 lw 2 lc rgb col(word(C,i)) notitle, "
    eval "plot ".BAND.MARK."for [i=1:words(S)] datadir.'/'.word(S,i).'.dat' using 1:2 with linespoints lw 1.5 ps 0.9 lc rgb col(word(C,i)) pt ptype(word(C,i)) title (word(KW,i) eq '-' ? '' : word(KW,i)), ".BND. \
         "u with lines dt 3 lw 2 lc rgb '#000000' title (last ? sprintf('u = %.3g (unit roundoff)', u) : ''), ". \
         (prob ? "datadir.'/_prob.bnd' using 1:2 with lines dt 5 lw 1.5 lc rgb '#555555' title (last ? 'probabilistic bound √n·u·cond' : ''), " : ""). \
         (clip ? "1 with lines dt 1 lw 1 lc rgb '#999999' title (last ? 'relative error 1 (larger errors drawn at 1)' : ''), " : ""). \
         "(guide ? u*x : 1/0) with lines dt 4 lw 1.5 lc rgb '#aa0000' title (guide && last ? 'u · cond' : ''), ". \
         "(haszero ? NaN : 1/0) with points pt 11 ps 1.3 lc rgb '#000000' title (haszero && last ? 'error 0 (exact)' : ''), ". \
         "(hasnf ? NaN : 1/0) with points pt 2 ps 1.4 lw 2 lc rgb '#000000' title (hasnf && last ? 'non-finite result' : '')"
  }
  unset multiplot
}
set output
