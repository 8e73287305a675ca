# error_vs_n.gp: relative error vs n (log-log) for one dataset family and dtype, from the
# accuracy-vs-n rows of results.csv (prefiltered by render.sh); bounds dashed, u dotted.
xlab = "n (elements)"
xlog = 2
guide = 0
load dir.'/error_common.gp'
