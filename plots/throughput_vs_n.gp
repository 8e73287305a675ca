# throughput_vs_n.gp: GB/s vs n per GPU variant (log-log) from the throughput-vs-n rows, one
# panel per variant group (render.sh's panels), with CUB's DeviceReduce::Sum and the
# streaming-read ceiling (same buffer, same run) as thick reference lines in every panel, and the
# operation's PyTorch call (torch.logsumexp, ...) as a series of the anchors panel; below
# each, for n >= 2^20, every variant's GB/s over CUB's at the same n on a linear axis (the log
# scale above hides 0.98x against 1.0x); the key in two columns under the panels.
# Ratios off the panel's scale (below 0.5 or above 1.5) are filled triangles at the bottom or
# top edge pointing out, and the variant's key entry gives their range ("serial (▼0.0011x ...)");
# the variants off scale at one n are a cluster side by side (render.sh's x and row columns of
# VARIANT.rat), not one marker drawn over the others.
# The markers lie in a band beyond the scale's end (a dashed line at 0.5 or 1.5, no tick past it),
# so that no ratio on the scale, 0.50x say, is drawn among them.
# Inputs (gnuplot -e): datadir, series (all), np, tP/sP/cP per panel, ymin, ymax, kr, hasrat,
# rlo, rhi (the ratios' range), lrows, hrows (rows of markers below and above the scale), offs (words "variant=RANGE" of the off-scale ratios, render.sh),
# ttl, out, pngterm, dir.
load dir.'/common.gp'
set logscale x 2
set format x "2^{%L}"
has(s) = strstrt(" ".series." ", " ".s." ") > 0
isref(s) = (s eq "cub" || s eq "read-ceiling")
if (!exists("offs")) offs = ""
offk(s) = strstrt(" ".offs." ", " ".s."=")
offv(s) = offk(s) > 0 ? word(substr(" ".offs." ", offk(s) + strlen(s) + 2, strlen(offs) + 2), 1) : ""
vtitle(s) = s.(offv(s) eq "" ? "" : " ".offv(s))
# pixels: title band, throughput panel, (ratio panel), x label, key rows
TOPB = paper ? 175.0 : 70.0; PH = 340.0; RG = paper ? 50.0 : 28.0; RH = hasrat ? 170.0 : 0.0; XLB = paper ? 100.0 : 60.0; ROWH = paper ? 30.0 : 15.0
# (paper: the key in one column, its font being larger against the panel)
if (!exists("kr1")) kr1 = 2 * kr
KR = paper ? kr1 : kr
H = int(TOPB + PH + (hasrat ? RG + RH : 0) + XLB + KR * ROWH + 20)
W = panelw(np)
# the ratio axis spans the measured ratios within 0.5 .. 1.5 (a variant far off CUB, e.g. the
# atomic or serial ones, is off it; the panel above shows them): a 2 % gap stays visible
ylo = rlo < 0.5 ? 0.5 : rlo; yhi = rhi > 1.5 ? 1.5 : rhi
ylo = ylo > 0.98 ? 0.98 : ylo; yhi = yhi < 1.02 ? 1.02 : yhi
rpad = (yhi - ylo) * 0.06
if (!exists("lrows")) lrows = 0
if (!exists("hrows")) hrows = 0
# the ratio axis: the scale [ra, rz], and below / above it the markers' bands (where a variant has
# a marker: the read ceiling past 1.5 has none), each 0.08 of the axis a row and 0.03 more (a
# row's centre 0.04 + 0.08 row from the axis' end)
ra = rlo < 0.5 ? 0.5 : ylo - rpad; rz = rhi > 1.5 ? 1.5 : yhi + rpad
fl = lrows > 0 ? 0.08 * lrows + 0.03 : 0.0
fh = hrows > 0 ? 0.08 * hrows + 0.03 : 0.0
RR = (rz - ra) / (1.0 - fl - fh)
rb = ra - fl * RR; rt = rz + fh * RR
# ticks on the scale only: a step of 1, 2 or 5 times a power of 10, about five of them
rstep = 10.0 ** floor(log10((rz - ra) / 5.0))
rstep = (rz - ra) / rstep >= 25 ? 5 * rstep : (rz - ra) / rstep >= 10 ? 2 * rstep : rstep
do for [term = 1:nterm] {
  eval termset(term, W, H)
  set multiplot title ttl font ",12"
  do for [p = 1:np] {
    S = value('s'.p); C = value('c'.p)
    last = (p == np)
    set lmargin at screen px0(p, W); set rmargin at screen px1(p, W)
    # throughput
    set tmargin at screen 1 - TOPB / H; set bmargin at screen 1 - (TOPB + PH) / H
    set logscale y; set format y "10^{%L}"; set ytics 10; set mytics 10
    set yrange [ymin:ymax/10]; set autoscale x
    if (hasrat) { set xlabel ""; set format x "" } else { set xlabel "n (elements)" offset 0,0.5; set format x "2^{%L}" }
    set key at screen px0(p, W), screen 1 - (TOPB + PH + (hasrat ? RG + RH : 0) + XLB) / H left top vertical Left reverse nobox \
        font ",9" spacing 1.0 samplen 2 maxrows KR width -2
    set title value('t'.p) font ",11"
    if (p == 1) { set ylabel "throughput (GB/s = bytes read / median time)" } else { unset ylabel }
    plot for [i=1:words(S)] (isref(word(S,i)) ? '/dev/null' : datadir.'/'.word(S,i).'.dat') using 1:2 with linespoints lw 1.5 ps 0.9 lc rgb col(word(C,i)) pt ptype(word(C,i)) title (isref(word(S,i)) ? "" : vtitle(word(S,i))) noenhanced, \
         (has("cub") ? datadir.'/cub.dat' : '/dev/null') using 1:2 with lines lw 4 lc rgb "#000000" title (has("cub") && last ? "CUB DeviceReduce::Sum" : ""), \
         (has("read-ceiling") ? datadir.'/read-ceiling.dat' : '/dev/null') using 1:2 with lines lw 4 dt 2 lc rgb "#888888" title (has("read-ceiling") && last ? "read ceiling (streaming read)" : ""), \
         (offs ne "" && last ? NaN : 1/0) with points pt 11 ps 1.4 lc rgb "#000000" title (offs ne "" && last ? "▼▲ GB/s / CUB's off the lower panel's scale (its range after the name)" : "")
    if (hasrat) {
      # ratio to CUB, same x range, linear y
      # (a hair past the top panel's end: a point at the last n lies on the border, and one exactly at
      # GPVAL_X_MAX was dropped as outside: no marker for 2^28)
      set xrange [2**19.7:GPVAL_X_MAX * 1.0001]
      unset title; unset key
      set tmargin at screen 1 - (TOPB + PH + RG) / H; set bmargin at screen 1 - (TOPB + PH + RG + RH) / H
      unset logscale y; set format y "%.2f"; set mytics 2
      # (the scale ends at 0.5 or 1.5 exactly, so a point is off scale, a triangle in the band
      # past that end, exactly when render.sh lists its ratio in the key)
      set ytics ceil(ra / rstep - 1e-9) * rstep, rstep, rz + 1e-9
      set yrange [rb : rt]
      set xlabel "n (elements)" offset 0,0.5; set format x "2^{%L}"
      if (p == 1) { set ylabel "GB/s / CUB's at the same n" } else { unset ylabel }
      plot for [i=1:words(S)] (isref(word(S,i)) ? '/dev/null' : datadir.'/'.word(S,i).'.rat') using 1:($2 < 0.5 || $2 > 1.5 ? NaN : $2) with linespoints lw 1.5 ps 0.9 lc rgb col(word(C,i)) pt ptype(word(C,i)) notitle, \
           (has("read-ceiling") ? datadir.'/read-ceiling.rat' : '/dev/null') using 1:2 with lines lw 4 dt 2 lc rgb "#888888" notitle, \
           1 with lines lw 2 lc rgb "#000000" notitle, \
           (fl > 0 ? 0.5 : NaN) with lines lw 1 dt 3 lc rgb "#888888" notitle, \
           (fh > 0 ? 1.5 : NaN) with lines lw 1 dt 3 lc rgb "#888888" notitle, \
           for [i=1:words(S)] (isref(word(S,i)) ? '/dev/null' : datadir.'/'.word(S,i).'.rat') using ($2 < 0.5 ? $3 : NaN):(rb + (rt - rb) * (0.04 + 0.08 * $4)) with points pt 11 ps 1.2 lc rgb col(word(C,i)) notitle, \
           for [i=1:words(S)] (isref(word(S,i)) ? '/dev/null' : datadir.'/'.word(S,i).'.rat') using ($2 > 1.5 ? $3 : NaN):(rt - (rt - rb) * (0.04 + 0.08 * $4)) with points pt 9 ps 1.2 lc rgb col(word(C,i)) notitle
      set autoscale x
    }
  }
  unset multiplot
}
set output
