# error_common.gp: the body of the three error charts (error_vs_n, error_vs_cond,
# error_vs_range): one panel per variant group (render.sh's panels: ladder, accuracy,
# anchors), one line per variant (the median over the point's instances, with a min-max band), the variants' a-priori bounds (dashed; variants with the same
# bound curve share one line), the unit roundoff u (dotted), exact zeros clamped to a floor
# that the key names. One y range for all panels, fitted to the data; bounds beyond it are
# clipped at the edge and their key entry says how far they go.
# Inputs (gnuplot -e): datadir, np, per panel p: tP, sP, cP, bP, bcP; ymin, ymax, u, floor,
# haszero, ttl, xlab, ylab, xlog, guide (1: draw u*x, the first-order error of a correctly
# rounded sum of a cond-x input), band (1: several instances per point; each series' data file
# holds "x median min max", the median drawn as the line, min-max as a translucent band).
load dir.'/common.gp'
set xlabel xlab offset 0,0.5
set logscale y
set format y "10^{%L}"
set yrange [ymin:ymax]
if (!exists("xfmt")) xfmt = "2^{%L}"
if (xlog == 2) { set logscale x 2; set format x xfmt }
if (xlog == 10) { set logscale x 10; set format x "10^{%L}" }
set mytics 10
W = panelw(np); H = 820
do for [term = 1:2] {
  if (term == 1) { set terminal pngterm size W,H font "sans,10"; set output out.'.png' }
  else { set terminal svg size W,H dynamic font "sans,10"; set output out.'.svg' }
  set multiplot title ttl font ",12"
  do for [p = 1:np] {
    S = value('s'.p); C = value('c'.p); B = value('b'.p); BC = value('bc'.p)
    set lmargin at screen px0(p, W); set rmargin at screen px1(p, W)
    set tmargin at screen 0.90; set bmargin at screen 0.47
    set key at screen px0(p, W), screen 0.405 left top vertical Left reverse nobox font ",9" spacing 1.0 samplen 3 maxrows 40
    set title value('t'.p) font ",11"
    if (p == 1) { set ylabel ylab } else { unset ylabel }
    last = (p == np)
    # (a `for` over an empty list still runs its body once in gnuplot 5.4, and a macro in a
    # `do` loop is expanded once: the plot command is built as a string and eval'd)
    BND = words(B) > 0 ? "for [i=1:words(B)] datadir.'/'.word(B,i).'.dat' using 1:2 with lines dt 2 lw 1.2 lc rgb col(word(BC,i)) title columnheader(1), " : ""
    BAND = band ? "for [i=1:words(S)] datadir.'/'.word(S,i).'.dat' using 1:3:4 with filledcurves fs transparent solid 0.18 noborder lc rgb col(word(C,i)) notitle, " : ""
    eval "plot ".BAND."for [i=1:words(S)] datadir.'/'.word(S,i).'.dat' using 1:2 with linespoints lw 1.5 ps 0.9 lc rgb col(word(C,i)) pt ptype(word(C,i)) title word(S,i), ".BND. \
         "u with lines dt 3 lw 2 lc rgb '#000000' title (last ? sprintf('u = %.3g (unit roundoff)', u) : ''), ". \
         "(guide ? u*x : 1/0) with lines dt 4 lw 1.5 lc rgb '#aa0000' title (guide && last ? 'u · cond' : ''), ". \
         "(haszero ? floor : 1/0) with lines dt 1 lw 0.8 lc rgb '#cc9900' title (haszero && last ? sprintf('floor %.2g: error 0 drawn here', floor) : '')"
  }
  unset multiplot
}
set output
