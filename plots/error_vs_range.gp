# error_vs_range.gp: relative error vs the dynamic range of the input in binades
# (emax - emin of the log-uniform family, accuracy-vs-range rows); log-log.
xlab = "dynamic range of |x| (binades: emax - emin)"
xlog = 2
xfmt = "%g"
guide = 0
load dir.'/error_common.gp'
