# anchors.gp: the frameworks' sums of a study's inputs (DIR/anchors/anchors.csv, study_anchors.py):
# per input (x, categorical) and framework, the largest error over the repetitions in ulps of the
# exact sum (upper panel, log scale; error 0 a filled triangle pointing down at the bottom edge, as in the error charts, a non-finite
# result a cross at the top edge, an error against an exact sum of 0 a star at the top edge: an ulp of 0 is the smallest subnormal, not a scale for it) and the distinct results of the repetitions (lower panel: 1 is
# repeatable). A framework's points sit side by side around their input.
# Inputs (gnuplot -e): datadir (fw_K.dat: a header line with the framework's name, then lines
# "x ulps distinct", ulps 0 for an exact result, -1 for a non-finite one, -2 for a non-zero result
# where the exact sum is 0), nf, ni, cl, pl (per
# framework its colour and point type index), lo, hi (the non-zero errors' range), dmax, rmax
# (most distinct results, repetitions), xt (the x tick list), hasz (1: some input's exact sum is
# 0), ttl.
load dir.'/common.gp'
if (!exists("hasz")) hasz = 0
W = 1300; TOPB = 70.0; PH = 330.0; RG = 20.0; RH = 170.0; XLB = 110.0; KH = 90.0
H = int(TOPB + PH + RG + RH + XLB + KH)
ymin = lo / 4.0; ymax = hi * 8.0
if (ymax < 10 * ymin) ymax = 10 * ymin
zmark = ymin * (ymax / ymin)**0.03
nfmark = ymax / (ymax / ymin)**0.03
ystep = ceil(log10(ymax / ymin) / 8.0)
ystep = ystep < 1 ? 1 : ystep
do for [term = 1:nterm] {
  eval termset(term, W, H)
  set multiplot title ttl font ",12"
  set lmargin at screen 90.0 / W; set rmargin at screen 1 - 30.0 / W
  set xrange [0.4 : ni + 0.6]
  # upper: largest error
  set tmargin at screen 1 - TOPB / H; set bmargin at screen 1 - (TOPB + PH) / H
  set logscale y; set format y "10^{%L}"; set ytics 10**ystep; set mytics (ystep > 1 ? ystep : 10)
  set yrange [ymin : ymax]
  set xtics 1 format ""
  set grid xtics ytics
  set ylabel "largest error (ulps of the exact sum)"
  set key at screen 0.5, screen (KH - 5) / H center top horizontal maxrows 3 font ",9" samplen 1.5 spacing 1.0 width 1 box lc rgb "#bbbbbb"
  plot for [f=1:nf] datadir.'/fw_'.f.'.dat' using 1:($2 > 0 ? $2 : NaN) with points pt ptype(word(pl,f)) ps 1.2 lw 1.5 lc rgb col(word(cl,f)) title columnheader(1), \
       for [f=1:nf] datadir.'/fw_'.f.'.dat' using 1:($2 == 0 ? zmark : NaN) with points pt 11 ps 1.1 lc rgb col(word(cl,f)) notitle, \
       for [f=1:nf] datadir.'/fw_'.f.'.dat' using 1:($2 == -1 ? nfmark : NaN) with points pt 2 ps 1.3 lw 2 lc rgb col(word(cl,f)) notitle, \
       for [f=1:nf] datadir.'/fw_'.f.'.dat' using 1:($2 == -2 ? nfmark : NaN) with points pt 3 ps 1.3 lw 1.5 lc rgb col(word(cl,f)) notitle, \
       NaN with points pt 11 ps 1.1 lc rgb '#000000' title 'error 0 (exact)', \
       NaN with points pt 2 ps 1.3 lw 2 lc rgb '#000000' title 'Inf or NaN (exact value finite)', \
       (hasz ? NaN : 1/0) with points pt 3 ps 1.3 lw 1.5 lc rgb '#000000' title (hasz ? 'non-zero result, exact value 0 (not in ulps)' : '')
  # lower: distinct results of the repetitions
  set tmargin at screen 1 - (TOPB + PH + RG) / H; set bmargin at screen 1 - (TOPB + PH + RG + RH) / H
  unset logscale y; set format y "%.0f"
  set yrange [0.5 : (dmax > 1 ? dmax : 1) + 0.5]
  set xtics scale 0
  set ytics 1; set mytics 1
  if (dmax > 8) { set ytics autofreq }
  eval "set xtics (".xt.") rotate by 30 right format '%g' font ',10'"
  set ylabel sprintf("distinct results of %d", rmax)
  unset key; unset title
  plot for [f=1:nf] datadir.'/fw_'.f.'.dat' using 1:($3 > 1 ? $3 : NaN) with impulses lw 3 lc rgb col(word(cl,f)) notitle, \
       for [f=1:nf] datadir.'/fw_'.f.'.dat' using 1:3 with points pt ptype(word(pl,f)) ps 1.0 lw 1.5 lc rgb col(word(cl,f)) notitle
  unset multiplot
}
set output
