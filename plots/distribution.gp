# distribution.gp: for the nondeterministic variants (and any variant with more than one
# distinct result), one panel per variant: each distinct result of the determinism repetitions
# as an impulse: signed distance from the exact sum in ulps (x) and how many repetitions gave
# it (y, integer ticks). Inputs (gnuplot -e): datadir, series, colors, ttl, out, pngterm, dir.
load dir.'/common.gp'
unset key
set xlabel "result - exact sum (ulps, signed)" offset 0,0.5
set offsets graph 0.05, graph 0.05, 0, 0
set format y "%.0f"
f(i) = datadir.'/'.word(series, i).'.dat'
np = words(series)
W = panelw(np); H = 560
do for [term = 1:nterm] {
  eval termset(term, W, H)
  set multiplot title ttl font ",12"
  do for [i = 1:np] {
    set yrange [*:*]; set xrange [*:*]; set autoscale xfix
    stats f(i) using 1 nooutput
    x0 = STATS_min; x1 = STATS_max
    # at most ~5 tick labels, in %g form: large ulp offsets (1e15 on ill-conditioned float64)
    # in gnuplot's default format ran into each other
    span = x1 - x0; step = span > 0 ? 10 ** floor(log10(span / 4.0)) : 1
    step = span / step > 10 ? step * 5 : span / step > 4 ? step * 2 : step
    set xtics step; set format x (abs(x1) >= 1e5 || abs(x0) >= 1e5 ? "%.3g" : "%g")
    stats f(i) using 2 nooutput
    m = STATS_max; k = STATS_records; r = STATS_sum
    set yrange [0:(m < 1 ? 1 : m) * 1.15]
    set ytics 0, (m <= 10 ? 1 : ceil(m / 8.0))
    unset mytics
    set lmargin at screen px0(i, W); set rmargin at screen px1(i, W)
    set tmargin at screen 0.85; set bmargin at screen 0.13
    set title sprintf("%s: %d distinct results in %d repetitions", word(series, i), k, r) font ",11" tc rgb col(word(colors, i))
    if (i == 1) { set ylabel "repetitions giving this result" } else { unset ylabel }
    # the exact sum (x = 0): a dashed line where it lies in the panel's range, else a note on
    # the side where it lies (a label at x = 0 would print outside the plot)
    if (x0 <= 0 && x1 >= 0) {
      set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb "#888888"
      set label 1 "exact sum" at 0, graph 0.96 right offset char -0.5,0 tc rgb "#666666" font ",9"
    } else {
      unset arrow 1
      if (x0 > 0) { set label 1 "exact sum (0): left of every result" at graph 0.02, graph 0.96 left tc rgb "#666666" font ",9" }
      else { set label 1 "exact sum (0): right of every result" at graph 0.98, graph 0.96 right tc rgb "#666666" font ",9" }
    }
    plot f(i) using 1:2 with impulses lw 3 lc rgb col(word(colors, i)), \
         f(i) using 1:2 with points pt 7 ps 0.9 lc rgb col(word(colors, i))
  }
  unset multiplot
}
set output
