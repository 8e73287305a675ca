# throughput_vs_n.gp: GB/s vs n per GPU variant (log-log) from the throughput-vs-n rows, one
# panel per variant group (render.sh's panels), with CUB's DeviceReduce::Sum and the
# streaming-read ceiling (same buffer, same run) as thick reference lines in every panel.
# Inputs (gnuplot -e): datadir, series (all), np, tP/sP/cP per panel, ymin, ymax, ttl, out,
# pngterm, dir.
load dir.'/common.gp'
set xlabel "n (elements)" offset 0,0.5
set logscale x 2
set format x "2^{%L}"
set logscale y
set mytics 10
set yrange [ymin:ymax/10]
has(s) = strstrt(" ".series." ", " ".s." ") > 0
isref(s) = (s eq "cub" || s eq "read-ceiling")
W = panelw(np); H = 700
do for [term = 1:2] {
  if (term == 1) { set terminal pngterm size W,H font "sans,10"; set output out.'.png' }
  else { set terminal svg size W,H dynamic font "sans,10"; set output out.'.svg' }
  set multiplot title ttl font ",12"
  do for [p = 1:np] {
    S = value('s'.p); C = value('c'.p)
    set lmargin at screen px0(p, W); set rmargin at screen px1(p, W)
    set tmargin at screen 0.89; set bmargin at screen 0.42
    set key at screen px0(p, W), screen 0.33 left top vertical Left reverse nobox font ",9" spacing 1.0 samplen 3 maxrows 40
    set title value('t'.p) font ",11"
    if (p == 1) { set ylabel "throughput (GB/s = bytes read / median time)" } else { unset ylabel }
    last = (p == np)
    plot for [i=1:words(S)] (isref(word(S,i)) ? '/dev/null' : datadir.'/'.word(S,i).'.dat') using 1:2 with linespoints lw 1.5 ps 0.9 lc rgb col(word(C,i)) pt ptype(word(C,i)) title (isref(word(S,i)) ? "" : word(S,i)), \
         (has("cub") ? datadir.'/cub.dat' : '/dev/null') using 1:2 with lines lw 4 lc rgb "#000000" title (has("cub") && last ? "CUB DeviceReduce::Sum" : ""), \
         (has("read-ceiling") ? datadir.'/read-ceiling.dat' : '/dev/null') using 1:2 with lines lw 4 dt 2 lc rgb "#888888" title (has("read-ceiling") && last ? "read ceiling (streaming read)" : "")
  }
  unset multiplot
}
set output
