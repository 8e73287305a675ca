# common.gp: shared look of every sumlab chart (loaded by the chart scripts; not a chart).
# Inputs from render.sh (gnuplot -e): out (path without extension), pngterm (pngcairo|png).
palette = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #17becf #bcbd22 #393b79 #e6550d #31a354 #843c39 #7b4173 #3182bd #636363 #a55194 #6b6ecf #8ca252 #bd9e39"
col(i) = word(palette, (int(i) % words(palette)) + 1)
ptype(i) = (int(i) % 12) + 1
set encoding utf8
set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1
set border lw 1.2
set key outside below center horizontal maxrows 6 spacing 1.0 width 1 font ",9" box lc rgb "#bbbbbb"
set tics font ",10"
set datafile separator whitespace
set datafile missing "?"
