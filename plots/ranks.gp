# ranks.gp: error in ulps vs the number of ranks K, one panel per combine strategy (mpi-sum,
# ordered, state), one line per variant, from the `ranks` experiment's results.csv
# (prefiltered by plots/ranks.sh; library-chosen allreduce algorithm). Errors of 0 are drawn at
# `floor` (named in the key).
# Inputs (gnuplot -e): datadir, s_mpi, s_ord, s_state (variants per strategy), colors (a
# "variant:index" list), floor, ttl, out, pngterm, dir.
load dir.'/common.gp'
set key outside below center horizontal maxrows 4 font ",8"
set logscale y 2
set xlabel "ranks K" offset 0,0.5
set xtics 1
set offsets 0.3, 0.3, 0, 0
set format y "2^{%L}"
ci(v) = (p = strstrt(colors, ' '.v.':'), p ? int(substr(colors, p + strlen(v) + 2, p + strlen(v) + 4)) : 0)
f(c, v) = datadir.'/'.c.'@'.v.'.dat'
panel(c, s, t) = 0
do for [term = 1:nterm] {
  eval termset(term, 1500, 620)
  set multiplot layout 1,3 title ttl font ",12"
  set ylabel sprintf("|result - S| in ulps (0 drawn at %g)", floor)
  set title "mpi-sum (MPI\\_Allreduce, MPI\\_SUM)"
  plot for [i=1:words(s_mpi)] f('mpi-sum', word(s_mpi,i)) using 1:2 with linespoints lw 1.5 pt ptype(ci(word(s_mpi,i))) lc rgb col(ci(word(s_mpi,i))) title word(s_mpi,i)
  unset ylabel
  set title "ordered (rank order on rank 0)"
  plot for [i=1:words(s_ord)] f('ordered', word(s_ord,i)) using 1:2 with linespoints lw 1.5 pt ptype(ci(word(s_ord,i))) lc rgb col(ci(word(s_ord,i))) title word(s_ord,i)
  set title "state (exact MPI\\_Op over states)"
  plot for [i=1:words(s_state)] f('state', word(s_state,i)) using 1:2 with linespoints lw 2 pt ptype(ci(word(s_state,i))) lc rgb col(ci(word(s_state,i))) title word(s_state,i)
  unset multiplot
}
set output
