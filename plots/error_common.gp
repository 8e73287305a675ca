# error_common.gp: the body of the three error charts (error_vs_n, error_vs_cond,
# error_vs_range): one line per variant, the variants' a-priori bounds (dashed, variants with
# the same bound curve share one line), the unit roundoff u (dotted), exact zeros clamped to
# a floor that the key names. Inputs (gnuplot -e): datadir, series, colors (registry index
# per series), bounds (file stems in datadir) and bcolors (their colour index), u, floor, haszero, ttl, xlab, ylab, xlog,
# guide (1: draw u*x, the first-order error of a correctly rounded sum of a cond-x input).
load dir.'/common.gp'
set title ttl font ",12"
set xlabel xlab offset 0,0.7
set ylabel ylab
set logscale y
set format y "10^{%L}"
if (!exists("xfmt")) xfmt = "2^{%L}"
if (xlog == 2) { set logscale x 2; set format x xfmt }
if (xlog == 10) { set logscale x 10; set format x "10^{%L}" }
set mytics 10
f(i) = datadir.'/'.word(series, i).'.dat'
b(i) = datadir.'/'.word(bounds, i).'.dat'
set terminal pngterm size 1280,900 font "sans,10"
set output out.'.png'
# (a `for` over an empty list still evaluates its body once in gnuplot 5.4: build it as a macro)
BND = words(bounds) > 0 ? "for [i=1:words(bounds)] b(i) using 1:2 with lines dt 2 lw 1.2 lc rgb col(word(bcolors,i)) title columnheader(1)," : ""
plot for [i=1:words(series)] f(i) using 1:2 with linespoints lw 1.5 ps 0.9 lc rgb col(word(colors,i)) pt ptype(word(colors,i)) title word(series,i), \
     @BND \
     u with lines dt 3 lw 2 lc rgb "#000000" title sprintf("u = %.3g (unit roundoff)", u), \
     (guide ? u*x : 1/0) with lines dt 4 lw 1.5 lc rgb "#aa0000" title (guide ? "u · cond" : ""), \
     (haszero ? floor : 1/0) with lines dt 1 lw 0.8 lc rgb "#cc9900" title (haszero ? sprintf("floor %.2g: results with error 0 are drawn here", floor) : "")
set terminal svg size 1280,900 dynamic font "sans,10"
set output out.'.svg'
replot
set output
