# common.gp: shared look of every sumlab chart (loaded by the chart scripts; not a chart).
# Inputs from render.sh (gnuplot -e): out (path without extension), pngterm (pngcairo|png),
# paper (1: `--figures paper`, a third output: PDF by pdfcairo at PPI layout pixels per inch, so
# a one-panel chart is 3.5 inches wide, a journal column, and two panels fit a two-column
# figure; every font scaled by 0.75, so 10 becomes 7.5 pt; render.sh checks pdfcairo exists).
# One colour and point type per variant in every chart of every run: the index is a function of
# the variant's name alone (render.sh's fixed table, else a hash of the name into the first
# 28); 30 colours and 13 point types.
palette = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #393b79 #e6550d #31a354 #843c39 #7b4173 #ff00ff #a55194 #6b6ecf #8ca252 #bd9e39 #ad494a #637939 #d6616b #5254a3 #00a087 #b15928 #e7969c #525252 #006d2c #b8860b"
col(i) = word(palette, (int(i) % words(palette)) + 1)
ptype(i) = (int(i) % 13) + 1
# Small multiples (render.sh's panels): panel p of np, plot areas side by side with fixed
# margins (PW pixels wide each, aligned), each panel's key below its own plot area.
if (!exists("paper")) paper = 0
# (paper mode: fonts are relatively larger, so a wider left margin and gap between panels)
PW = 560.0; PL = paper ? 190.0 : 90.0; PG = paper ? 100.0 : 40.0
panelw(np) = int(PL + np * PW + (paper ? 60 : 20))
px0(p, W) = (PL + (p - 1) * PW) / W
px1(p, W) = (PL + p * PW - PG) / W
set encoding utf8
set grid xtics ytics lc rgb "#dddddd" lw 1   # (major ticks only: the minor grid was a fifth of an SVG)
set border lw 1.2
set key outside below center horizontal maxrows 6 spacing 1.0 width 1 font ",9" box lc rgb "#bbbbbb"
set tics font ",10"
set datafile separator whitespace
set datafile missing "?"
# The outputs of a chart: nterm terminals; termset(t, W, H) the commands that select the t-th
# (1 PNG, 2 SVG, 3 PDF in paper mode), eval'd by the chart scripts in their output loop.
if (!exists("paper")) paper = 0
nterm = paper ? 3 : 2
PPI = (PL + PW + 60) / 3.5
termset(t, W, H) = t == 1 ? sprintf("set terminal %s size %d,%d font 'sans,10'; set output out.'.png'", pngterm, W, H) : \
                   t == 2 ? sprintf("set terminal svg size %d,%d dynamic font 'sans,10'; set output out.'.svg'", W, H) : \
                   sprintf("set terminal pdfcairo size %.3fin,%.3fin font 'sans,10' fontscale 0.75 linewidth 0.7; set output out.'.pdf'", W / PPI, H / PPI)
