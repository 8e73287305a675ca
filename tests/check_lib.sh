# check_lib.sh: what the shell tests share, sourced (after `set -u`) by those that use it.
#   check_init NAME VAR  a fresh directory NAME.XXXXXX under $TMPDIR (or /tmp) in $VAR, removed at
#                        exit; fails=0, checks=0; check_dir: this folder (tests/), for its helpers
#   fail WHAT            counts a failure and says "FAIL [seed S]: WHAT" ("FAIL: WHAT" where the
#                        test sets no $seed) on stderr
#   check WHAT CMD...    counts a check and runs CMD; fail WHAT when it fails
check_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

check_init() {
  local d
  d=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  printf -v "$2" '%s' "$d"
  check_tmp=$d
  trap 'rm -rf "$check_tmp"' EXIT
  fails=0
  checks=0
}
fail() { fails=$((fails + 1)); echo "FAIL${seed:+ [seed $seed]}: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }
