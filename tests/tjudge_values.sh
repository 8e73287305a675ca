#!/usr/bin/env bash
# tjudge_values.sh: `judge --values` streams its lines in batches (cmd_judge.c), and its output is
# the one table of every value whatever the batches: a table's columns aligned over batches, JSON
# refused (nothing written) for a bad name far into the file, a pipe read like a file, default
# names numbered across --value and --values, every line's row in order.
#   usage: bash tests/tjudge_values.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tjudge_values.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tjudge_values.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }

"$sumlab" gen uniform --n 100 --seed "$seed" -o "$tmp/a.npy" 2> "$tmp/gen.err" || { cat "$tmp/gen.err" >&2; exit 1; }
# 2,600 values (three batches of 1,024); the longest name in the last batch
awk -v seed="$seed" 'BEGIN { srand(seed % 32768); print "name,value"; print "# a comment"
  for (i = 1; i <= 2600; i++) {
    name = (i == 2300) ? "a-name-longer-than-every-other-one-by-far" : "v" i
    printf "%s,%.9g\n", name, 40 + rand() * 20 } }' > "$tmp/v.csv"

# table: every line's second column starts where the header's does (widths over every batch)
"$sumlab" judge "$tmp/a.npy" --values "$tmp/v.csv" > "$tmp/t.txt" 2> "$tmp/t.err"
check "table exits 0 ($(head -c 200 "$tmp/t.err"))" test $? -eq 0
check "table: header, rule, 2,600 rows" test "$(grep -c '^v[0-9]* \|^a-name' "$tmp/t.txt")" -eq 2600
check "table: the columns aligned over the batches" python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
head = lines[0]
col = head.index("result_hex")
rows = [l for l in lines[2:2602]]
assert len(rows) == 2600, len(rows)
assert col == len("a-name-longer-than-every-other-one-by-far") + 2, col
bad = [l for l in rows if l[col - 2:col] != "  " or l[col] == " "]
assert not bad, bad[:2]
' "$tmp/t.txt"

# csv: one row per line, in order, the same values as json (which measures every batch first)
"$sumlab" judge "$tmp/a.npy" --values "$tmp/v.csv" --format csv > "$tmp/c.csv" 2>/dev/null
"$sumlab" judge "$tmp/a.npy" --values "$tmp/v.csv" --format json > "$tmp/j.json" 2>/dev/null
check "csv and json: every line's row in order" python3 -c '
import csv, json, sys
c = list(csv.DictReader(open(sys.argv[1])))
j = json.load(open(sys.argv[2]))
names = [l.split(",")[0] for l in open(sys.argv[3]).read().split("\n")[2:] if l]
assert [r["variant"] for r in c] == names, "csv order"
assert [r["variant"] for r in j] == names, "json order"
assert all(r["result_hex"] == s["result_hex"] for r, s in zip(c, j)), "csv and json differ"
' "$tmp/c.csv" "$tmp/j.json" "$tmp/v.csv"

# a pipe reads as the file does
"$sumlab" judge "$tmp/a.npy" --values <(cat "$tmp/v.csv") --format csv > "$tmp/p.csv" 2>/dev/null
check "a pipe: the file's output" cmp -s "$tmp/c.csv" "$tmp/p.csv"

# JSON: a name that is not UTF-8 in the third batch: refused, naming its row, nothing written
{ head -n 2502 "$tmp/v.csv"; printf 'bad\xff\xfename,1\n'; tail -n +2503 "$tmp/v.csv"; } > "$tmp/u.csv"
"$sumlab" judge "$tmp/a.npy" --values "$tmp/u.csv" --format json > "$tmp/u.json" 2> "$tmp/u.err"
last=$?
check "json: a non-UTF-8 name refused (exit $last)" test $last -eq 1
check "json: the refusal names row 2501 ($(head -c 300 "$tmp/u.err"))" grep -q 'row 2501, field .variant.' "$tmp/u.err"
check "json: nothing written" test ! -s "$tmp/u.json"

# a bad line far into the file: one message, nothing written, exit 2
{ cat "$tmp/v.csv"; echo "late,notanumber"; } > "$tmp/b.csv"
"$sumlab" judge "$tmp/a.npy" --values "$tmp/b.csv" --format csv > "$tmp/b.out" 2> "$tmp/b.err"
last=$?
check "a bad last line: exit 2 (got $last)" test $last -eq 2
check "a bad last line: named by file and line" grep -q "b.csv:2603" "$tmp/b.err"
check "a bad last line: nothing written" test ! -s "$tmp/b.out"

# default names count every value before them, --value and --values alike
head -n 4 "$tmp/v.csv" > "$tmp/three.csv"   # header, comment, two values
"$sumlab" judge "$tmp/a.npy" --value 50 --values "$tmp/three.csv" --value 51 --format csv > "$tmp/n.csv" 2>/dev/null
check "default names across --value and --values" test "$(cut -d, -f1 "$tmp/n.csv" | tr '\n' ' ')" = "variant value1 v1 v2 value4 "

# a value outside the --bound-of variant's bound is marked on stderr (once, in every format); one inside is not
S=$("$sumlab" sum "$tmp/a.npy" --variants serial --format csv --columns variant,result_hex 2> /dev/null | awk -F, '$1 == "exact" { print $2 }')
for fmt in table csv json; do
  "$sumlab" judge "$tmp/a.npy" --value "in=$S" --value far=1e6 --bound-of serial --format "$fmt" > /dev/null 2> "$tmp/b.err"
  check "judge --bound-of ($fmt): the value outside the bound marked once, the exact one not ($(head -c 200 "$tmp/b.err"))" \
    bash -c "[ \$(grep -c '^sumlab judge: far: outside the a-priori bound of serial' '$tmp/b.err') = 1 ] && ! grep -q '^sumlab judge: in:' '$tmp/b.err'"
done

echo "tjudge_values: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
