# ranks.sh: the `ranks` chart kind (sourced by render.sh; uses its $res, $tmp, gp, note and
# colour): error in ulps vs K per variant and combine strategy, one chart per dataset and dtype,
# from the rows of the `ranks` experiment (experiments/mpi/exp_ranks.c).
src=$tmp/ranks; mkdir -p "$src"
awk -F, -v out="$src" '
  NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
  index($0, "ranks,") != 1 { next }
  $c["experiment"] != "ranks" || $c["status"] != "ok" || $c["algorithm"] != "default" { next }
  $c["ulps"] == "" || $c["ulps"] ~ /inf|nan/ { next }
  { g = $c["dataset"] "__" $c["dtype"]; if (!(g in seen)) { seen[g]=1; print g > (out "/groups") }
    y = $c["ulps"] + 0; if (y == 0) y = 0.125
    d = out "/" g; f = d "@" $c["combine"] "@" $c["variant"]
    print $c["ranks"], y >> f; close(f) }
' "$res"
if [ ! -s "$src/groups" ]; then
  note "ranks: no rows of the ranks experiment in this run: skipped"
else
  while read -r g; do
    mkdir -p "$src/$g.d"
    s_mpi=""; s_ord=""; s_state=""; cols=""
    while IFS= read -r v; do
      for c in mpi-sum ordered state; do
        f=$src/$g@$c@$v
        [ -f "$f" ] || continue
        sort -g -k1,1 "$f" > "$src/$g.d/$c@$v.dat"
        case $c in mpi-sum) s_mpi="$s_mpi $v" ;; ordered) s_ord="$s_ord $v" ;; state) s_state="$s_state $v" ;; esac
      done
      cols="$cols $v:$(colour "$v")"
    done < "$tmp/vars"
    gp ranks.gp "ranks_$g" "datadir='$src/$g.d'; s_mpi='${s_mpi# }'; s_ord='${s_ord# }'; s_state='${s_state# }'; colors='$cols '; floor=0.125; ttl='ranks: error vs K, ${g%__*}, ${g##*__} (library-chosen allreduce algorithm)'"
  done < "$src/groups"
fi
