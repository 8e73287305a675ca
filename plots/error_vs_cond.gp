# error_vs_cond.gp: relative error vs the measured condition number sum|x|/|sum x| (log-log)
# of the ill-conditioned family (accuracy-vs-cond rows), with u and u*cond as guides.
xlab = "condition number  sum|x| / |sum x|"
xlog = 10
guide = 1
load dir.'/error_common.gp'
