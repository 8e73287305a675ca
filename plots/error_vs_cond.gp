# error_vs_cond.gp: relative error vs the measured condition number sum|x|/|sum x| (log-log)
# of the ill-conditioned family (accuracy-vs-cond rows), with u and u*cond as guides; for an
# operation that sweeps another parameter (lse: the logits' sigma) render.sh sets xlab to it and
# guide to 0.
if (!exists("xlab")) xlab = "condition number  sum|x| / |sum x|"
xlog = 10
if (!exists("guide")) guide = 1
load dir.'/error_common.gp'
