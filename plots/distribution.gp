# distribution.gp: for the nondeterministic variants (and any variant with more than one
# distinct result), each distinct result of the determinism repetitions as an impulse: signed
# distance from the exact sum in ulps (x) and how many repetitions gave it (y).
# Inputs (gnuplot -e): datadir, series, colors, ttl, out, pngterm, dir.
load dir.'/common.gp'
set title ttl font ",12"
set xlabel "result - exact sum (ulps of the correctly rounded exact sum, signed)" offset 0,0.7
set ylabel "repetitions giving this result"
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.08, 0
f(i) = datadir.'/'.word(series, i).'.dat'
set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2 lc rgb "#888888"
set label 1 "exact sum" at 0, graph 0.97 right offset char -0.5,0 tc rgb "#666666" font ",9"
set terminal pngterm size 1280,760 font "sans,10"
set output out.'.png'
plot for [i=1:words(series)] f(i) using 1:2 with impulses lw 3 lc rgb col(word(colors,i)) notitle, \
     for [i=1:words(series)] f(i) using 1:2 with points pt 7 ps 1.1 lc rgb col(word(colors,i)) title word(series,i)
set terminal svg size 1280,760 dynamic font "sans,10"
set output out.'.svg'
replot
set output
