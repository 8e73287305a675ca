# launch_config.gp: the launch-config experiment's charts (launch.csv, prepared by render.sh):
# kind 'map': a throughput heat map (cells: x index, y index, GB/s, x label, y label) with the
# best cell ringed; kind 'lines': one line per variant (error or GB/s against block size or
# accumulators; data files PREFIX.VARIANT.dat: x, y); kind 'bars': GB/s per variant at base
# offsets 0, 4, 8, 12 bytes and n - 1 (clustered bars; lines: variant o0 o4 o8 o12 tail; vec4's load
# widths as vec4-4B, vec4-8B, vec4-16B).
# Inputs (gnuplot -e): kind, data (map, bars), best (map: x y), prefix and series (lines),
# xl, yl, logy (lines: 1 for a log y axis), ttl, out, pngterm, dir.
load dir.'/common.gp'
set title ttl font ",12"
if (kind eq 'map') {
  set xlabel xl
  set ylabel yl
  set palette defined (0 "#f7fbff", 0.5 "#6baed6", 1 "#08306b")
  set cblabel "GB/s"
  set grid noxtics noytics
  set key outside top right vertical font ",9"
  set offsets 0.5, 0.5, 0.5, 0.5
  set xtics nomirror
  set ytics nomirror
}
if (kind eq 'lines') {
  set xlabel xl
  set ylabel yl
  set logscale x 2
  if (logy) { set logscale y }
  set key outside right top vertical font ",9"
}
if (kind eq 'bars') {
  set ylabel "GB/s (bytes read / median time)"
  set style data histograms
  set style histogram clustered gap 1.5
  set style fill solid 0.85 border lc rgb "#444444"
  set boxwidth 0.9
  set xtics rotate by -30 nomirror
  set grid noxtics ytics
  set key inside top right vertical box
  set yrange [0:*]
  set bmargin 6
}
do for [term = 1:2] {
  if (term == 1) { set terminal pngterm size 1100,620 font "sans,10"; set output out.'.png' }
  else { set terminal svg size 1100,620 dynamic font "sans,10"; set output out.'.svg' }
  if (kind eq 'map') {
    plot data using 1:2:3:xtic(4):ytic(5) with points pt 5 ps 5.5 lc palette notitle, \
         data using 1:2:(sprintf("%.0f", $3)) with labels font ",8" notitle, \
         best using 1:2 with points pt 6 ps 6.5 lw 3 lc rgb "#d62728" title "best cell"
  }
  if (kind eq 'lines') {
    plot for [i=1:words(series)] prefix.word(series, i).'.dat' using 1:2 with linespoints lw 1.5 ps 1 lc rgb col(i - 1) pt ptype(i - 1) title word(series, i)
  }
  if (kind eq 'bars') {
    plot data using 2:xtic(1) title "offset 0" lc rgb col(0), '' using 3 title "offset 4 B" lc rgb col(1), \
         '' using 4 title "offset 8 B" lc rgb col(2), '' using 5 title "offset 12 B" lc rgb col(3), \
         '' using 6 title "n - 1 (offset 0)" lc rgb col(4)
  }
}
set output
