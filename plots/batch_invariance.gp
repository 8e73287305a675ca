# batch_invariance.gp: the batch-invariance experiment for one format and row length: a bar per
# method (sumlab's operation and variant, or PyTorch's call), its height the throughput of the
# largest batch, green when every tracked row of X[:B] kept one bit pattern over the batch sizes
# (batch-invariant) and red when one did not, that row's count of patterns written above it.
# Inputs (gnuplot -e): data (lines: index GB/s-or-? patterns "op variant"), nb (the bars), ylab,
# ttl, out, pngterm, dir.
load dir.'/common.gp'
set title ttl font ",12"
set style fill solid 0.85 border lc rgb "#444444"
set boxwidth 0.75
set logscale y
set ylabel ylab
set xtics rotate by -50 nomirror noenhanced font ",9"
set grid noxtics ytics
set xrange [0.4:nb + 0.6]
set offsets 0, 0, graph 0.08, 0
set bmargin 12
set key inside top left vertical box font ",9"
W = nb * 24 > 800 ? 300 + nb * 24 : 1100
inv(d) = d <= 1 ? 0x2ca02c : 0xd62728
do for [term = 1:nterm] {
  eval termset(term, W, 680)
  plot data using 1:2:(inv($3)):xtic(4) with boxes lc rgb variable notitle, \
       '' using 1:2:(sprintf("%d", int($3))) with labels offset 0, 0.8 font ",8" notitle, \
       NaN with boxes lc rgb "#2ca02c" title "batch-invariant: 1 bit pattern per row over every B", \
       NaN with boxes lc rgb "#d62728" title "not batch-invariant (above a bar: the patterns of its worst row)"
}
set output
