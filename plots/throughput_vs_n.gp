# throughput_vs_n.gp: GB/s vs n per GPU variant (log-log) from the throughput-vs-n rows, with
# CUB's DeviceReduce::Sum and the streaming-read ceiling (same buffer, same run) as thick lines.
# Inputs (gnuplot -e): datadir, series, colors, ttl, out, pngterm, dir.
load dir.'/common.gp'
set title ttl font ",12"
set xlabel "n (elements)" offset 0,0.7
set ylabel "throughput (GB/s = bytes read / median time)"
set logscale x 2
set format x "2^{%L}"
set logscale y
set mytics 10
f(i) = datadir.'/'.word(series, i).'.dat'
has(s) = strstrt(" ".series." ", " ".s." ") > 0
isref(s) = (s eq "cub" || s eq "read-ceiling")
set terminal pngterm size 1280,760 font "sans,10"
set output out.'.png'
plot for [i=1:words(series)] (isref(word(series,i)) ? '/dev/null' : f(i)) using 1:2 with linespoints lw 1.5 ps 0.9 lc rgb col(word(colors,i)) pt ptype(word(colors,i)) title (isref(word(series,i)) ? "" : word(series,i)), \
     (has("cub") ? datadir.'/cub.dat' : '/dev/null') using 1:2 with lines lw 4 lc rgb "#000000" title (has("cub") ? "CUB DeviceReduce::Sum" : ""), \
     (has("read-ceiling") ? datadir.'/read-ceiling.dat' : '/dev/null') using 1:2 with lines lw 4 dt 2 lc rgb "#888888" title (has("read-ceiling") ? "read ceiling (streaming read)" : "")
set terminal svg size 1280,760 dynamic font "sans,10"
set output out.'.svg'
replot
set output
