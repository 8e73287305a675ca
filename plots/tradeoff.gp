# tradeoff.gp: one point per variant: median error (ulps, over the tradeoff datasets) vs median
# throughput (GB/s), from the tradeoff rows; errors of 0 are drawn at `floor` (named in the key).
# Inputs (gnuplot -e): data (lines: GB/s ulps name colour-index), colors (the colour indices),
# names (the variants, same order: the key's entries), floor, haszero, ttl, ttl2 (second title
# line: what the throughput is: GPU, or the CPU twin's wall clock), xlab (x-axis label), out,
# pngterm, dir.
load dir.'/common.gp'
if (!exists("ttl2")) ttl2 = ""
if (!exists("xlab")) xlab = "median throughput (GB/s)"
set title (ttl2 eq "" ? ttl : ttl."\n".ttl2) font ",12"
set xlabel xlab offset 0,0.3
set bmargin 8
set ylabel "median error (ulps of the exact sum; log scale)"
set logscale y
set logscale x
set mytics 10
set offsets graph 0.05, graph 0.15, graph 0.1, graph 0.1
set autoscale xfix   # the data's own range (the offsets add the margins), not whole decades
set autoscale yfix
set terminal pngterm size 1280,760 font "sans,10"
set output out.'.png'
# one point per line of `data`, coloured and shaped by the variant's registry index (colors,
# same order) as in the other charts, named in the key below the plot (outside: it hides no
# point); text labels next to the points would print over each other where variants cluster
if (!exists("names")) names = ""
plot for [i=1:words(colors)] data every ::(i-1)::(i-1) using 1:2 with points pt ptype(word(colors,i)) ps 2 lw 2 lc rgb col(word(colors,i)) title word(names,i), \
     (haszero ? floor : 1/0) with lines dt 1 lw 0.8 lc rgb "#cc9900" title (haszero ? sprintf("floor %.2g: error 0 drawn here", floor) : "")
set terminal svg size 1280,760 dynamic font "sans,10"
set output out.'.svg'
replot
set output
