# tightness.gp: bound tightness, one operation and dtype: the empirical distribution (ECDF) of
# |error| / a-priori bound per variant over every accuracy row with a finite bound (render.sh's
# extract_ti); x = 1 is the bound (right of it: a violation), exact results (ratio 0) start
# their curve at the left edge.
# Inputs (gnuplot -e): datadir, series, colors, over (per variant: rows over the bound), lo, hi
# (smallest non-zero and largest ratio), haszero, ttl.
load dir.'/common.gp'
xmin = lo / 10.0
xmax = hi * 10.0 > 10.0 ? hi * 10.0 : 10.0
zx = xmin * 1.5   # where ratio-0 rows sit (the curve's first step)
set logscale x 10
set format x "10^{%L}"
xstep = ceil(log10(xmax / xmin) / 10.0)
xstep = xstep < 1 ? 1 : xstep
set xtics 10**xstep
set mxtics (xstep > 1 ? xstep : 10)
set xrange [xmin:xmax]
set yrange [0:1.02]
set ytics 0.1
# (the rows over the bound are also marked each at the bottom, in their variant's colour and symbol:
# a few rows over it are a step too small to see in a curve of thousands)
set xlabel "|error| / a-priori bound   (right of 1: over the bound, each such row also a mark at the bottom" . (haszero ? "; error 0 at the left edge)" : ")")
set ylabel "fraction of rows with ratio <= x"
# the plot area's bottom fixed, the key placed below the x label (auto placement put the key's
# box over the label)
set lmargin at screen 0.08; set rmargin at screen 0.96; set tmargin at screen 0.90
set bmargin at screen 0.30
set key at screen 0.52, screen 0.205 center top horizontal maxrows 8 font ",9" spacing 1.0 samplen 2 width -1 box lc rgb "#bbbbbb"
set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb "#000000" front
set label 1 "bound" at 1, graph 1.02 center font ",9"
lab(i) = word(series, i) . (word(over, i) + 0 > 0 ? sprintf(" (%s over)", word(over, i)) : "")
do for [term = 1:nterm] {
  eval termset(term, 1100, 760)
  set title ttl font ",12"
  plot for [i=1:words(series)] datadir.'/'.word(series,i).'.dat' using ($1 > 0 ? $1 : zx):(1) smooth cnormal \
       with steps lw 1.6 lc rgb col(word(colors,i)) title lab(i), \
       for [i=1:words(series)] datadir.'/'.word(series,i).'.dat' using ($1 > 1 ? $1 : NaN):(0.02) \
       with points pt ptype(word(colors,i)) ps 1.1 lc rgb col(word(colors,i)) notitle
}
set output
