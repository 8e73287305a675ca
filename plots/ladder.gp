# ladder.gp: one source text's ladder: speedup of every rung over the text's first rung, the
# H200's (measured in this run, 256 threads per block) beside the text's published figure when
# it gives one (clustered bars; log scale: the first rungs differ by orders of magnitude).
# Inputs (gnuplot -e): data (lines: rung-label measured published-or-?), pub (0: the text gives
# no published figure: one bar per rung, centred on its label, no key), ttl, cite (the source
# text's title, a second title line; may be empty), out, pngterm, dir.
load dir.'/common.gp'
if (!exists("cite")) cite = ""
if (!exists("pub")) pub = 1
set title (cite eq "" ? ttl : ttl."\n\"".cite."\"") font ",12"
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border lc rgb "#444444"
set boxwidth 0.9
set logscale y
set ylabel "speedup over the text's first rung (log scale)"
set xtics rotate by -30 nomirror
set grid noxtics ytics
if (pub) { set key inside top left vertical box } else { unset key }
set bmargin 6
set yrange [0.5:*]
do for [term = 1:nterm] {
  eval termset(term, 1100, 620)
  if (pub) {
    plot data using 2:xtic(1) title "H200, measured" lc rgb col(0), \
         '' using 3 title "published by the text" lc rgb col(1)
  } else {
    plot data using 2:xtic(1) title "H200, measured" lc rgb col(0)
  }
}
set output
