# tradeoff.gp: one point per variant: median error (ulps, over the tradeoff datasets) vs median
# throughput (GB/s), from the tradeoff rows; errors of 0 are drawn at `floor` (named in the key).
# Inputs (gnuplot -e): data (lines: GB/s ulps name colour-index), labels and clusters (optional:
# clusters of points drawn over each other, lines "x y \"(k)\"" and the words "'(k) a, b'"), colors (the colour indices),
# names (the variants, same order: the key's entries), fams (their panels in the other charts:
# ladder, accuracy, anchors; optional), floor, haszero, ttl, ttl2 (second title line: what the
# throughput is: GPU, or the CPU twin's wall clock), xlab (x-axis label), out, pngterm, dir.
load dir.'/common.gp'
if (!exists("ttl2")) ttl2 = ""
if (!exists("xlab")) xlab = "median throughput (GB/s)"
if (!exists("fams")) fams = ""
set title (ttl2 eq "" ? ttl : ttl."\n".ttl2) font ",12"
set xlabel xlab offset 0,0.3
set ylabel "median error (ulps of the exact sum; log scale)"
set logscale y
set logscale x
set mytics 10
set offsets graph 0.05, graph 0.15, graph 0.1, graph 0.1
set autoscale xfix   # the data's own range (the offsets add the margins), not whole decades
set autoscale yfix
# The key: outside the plot on the right (it hides no point and no axis label), one entry per
# variant with the point type and colour it has in every chart, grouped under the panel names
# of the other charts. Text labels beside every point would print over each other where
# variants cluster: a cluster of points drawn over each other gets a number, the key its names.
set key outside right top vertical Left reverse nobox font ",9" spacing 1.05 samplen 1 width 1 maxrows 60
if (!exists("names")) names = ""
P = ""
prev = ""
do for [i=1:words(colors)] {
  fm = words(fams) >= i ? word(fams, i) : ""
  if (fm ne prev && fm ne "") { P = P.sprintf("keyentry with lines lc rgb '#ffffff' title '{/:Bold %s}', ", fm) }
  prev = fm
  P = P.sprintf("data every ::%d::%d using 1:2 with points pt ptype(%s) ps 2 lw 2 lc rgb col(%s) title '%s', ", i-1, i-1, word(colors, i), word(colors, i), word(names, i))
}
# clusters of points drawn over each other: a number beside each (render.sh's labels file:
# "x y \"(k)\"", x the cluster's rightmost point), and in the key "(k) a, b, c" (clusters: quoted words)
if (exists("labels") && exists("clusters") && words(clusters) > 0) {
  P = P."labels using 1:2:3 with labels left offset char 1.4,0 font ',9' tc rgb '#333333' notitle, "
  P = P."keyentry with lines lc rgb '#ffffff' title '{/:Bold drawn over each other}', "
  do for [i=1:words(clusters)] { P = P.sprintf("keyentry with lines lc rgb '#ffffff' title '%s', ", word(clusters, i)) }
}
P = P."(haszero ? floor : 1/0) with lines dt 1 lw 0.8 lc rgb '#cc9900' title (haszero ? sprintf('floor %.2g: error 0 drawn here', floor) : '')"
do for [term = 1:nterm] {
  eval termset(term, 1280, 760)
  eval "plot ".P
}
set output
