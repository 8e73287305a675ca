# common.gp: shared look of every sumlab chart (loaded by the chart scripts; not a chart).
# Inputs from render.sh (gnuplot -e): out (path without extension), pngterm (pngcairo|png).
# One colour and point type per variant in every chart of every run: the index is a function of
# the variant's name alone (render.sh's fixed table, else a hash of the name); 28 colours and
# 13 point types.
palette = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #393b79 #e6550d #31a354 #843c39 #7b4173 #ff00ff #a55194 #6b6ecf #8ca252 #bd9e39 #ad494a #637939 #d6616b #5254a3 #00a087 #b15928 #e7969c #525252"
col(i) = word(palette, (int(i) % words(palette)) + 1)
ptype(i) = (int(i) % 13) + 1
# Small multiples (render.sh's panels): panel p of np, plot areas side by side with fixed
# margins (PW pixels wide each, aligned), each panel's key below its own plot area.
PW = 560.0; PL = 90.0; PG = 40.0
panelw(np) = int(PL + np * PW + 20)
px0(p, W) = (PL + (p - 1) * PW) / W
px1(p, W) = (PL + p * PW - PG) / W
set encoding utf8
set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1
set border lw 1.2
set key outside below center horizontal maxrows 6 spacing 1.0 width 1 font ",9" box lc rgb "#bbbbbb"
set tics font ",10"
set datafile separator whitespace
set datafile missing "?"
