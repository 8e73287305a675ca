# tradeoff.gp: one point per variant: median error (ulps, over the tradeoff datasets) vs median
# throughput (GB/s), from the tradeoff rows; errors of 0 are drawn at `floor` (named in the key).
# Inputs (gnuplot -e): data (lines: GB/s ulps name colour-index), colors (the colour indices), floor, haszero, ttl, out, pngterm, dir.
load dir.'/common.gp'
set title ttl font ",12"
set xlabel "median throughput (GB/s)" offset 0,0.7
set ylabel "median error (ulps of the exact sum)"
set logscale y
set logscale x
set mytics 10
set offsets graph 0.05, graph 0.15, graph 0.1, graph 0.1
set terminal pngterm size 1280,760 font "sans,10"
set output out.'.png'
# one point per line of `data`, coloured by the variant's registry index (colors, same order);
# labels alternate above/below so neighbours do not print over each other
plot for [i=1:words(colors)] data every ::(i-1)::(i-1) using 1:2 with points pt 7 ps 2 lc rgb col(word(colors,i)) notitle, \
     for [i=1:words(colors)] data every ::(i-1)::(i-1) using 1:2:3 with labels offset char 1,(i%2 ? 0.9 : -0.9) left font ",9" tc rgb col(word(colors,i)) notitle, \
     (haszero ? floor : 1/0) with lines dt 1 lw 0.8 lc rgb "#cc9900" title (haszero ? sprintf("floor %.2g: error 0 drawn here", floor) : "")
set terminal svg size 1280,760 dynamic font "sans,10"
set output out.'.svg'
replot
set output
