#!/usr/bin/env bash
# tkernels_layout.sh: kernels/ keeps its layout rules (kernels/README.md): every quoted include
# names a file under kernels/ or include/ (path-qualified from those roots); a family folder
# includes only reduce/, exact/, the top-level headers and its own folder, exact/ and reduce/
# no family, the top level no family, rows/ any family (it runs them row-wise); no kernel reads
# the environment (getenv) except the harness's device selection (gpu_harness.cu).
#   usage: tkernels_layout.sh [SOURCE_DIR]
set -uo pipefail
src=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
k=$src/kernels
[ -d "$k" ] || { echo "tkernels_layout: no $k" >&2; exit 1; }
fail=0
bad() { echo "tkernels_layout: $*" >&2; fail=1; }
families="ladder accuracy superacc reproducible cub moments welford extrema lse moments_exact norm cublas dot"
n=0
while IFS= read -r f; do
  rel=${f#"$k"/}
  case $rel in */*) dir=${rel%%/*} ;; *) dir=. ;; esac
  while IFS= read -r inc; do
    n=$((n + 1))
    [ -f "$k/$inc" ] || [ -f "$src/include/$inc" ] ||
      bad "$rel includes \"$inc\": not a path under kernels/ or include/"
    case $inc in */*) top=${inc%%/*} ;; *) top=. ;; esac
    [ "$top" = . ] || [ "$top" = sumlab ] || [ "$top" = "$dir" ] && continue
    case $dir in
      .|reduce) [ "$top" = reduce ] || bad "$rel ($dir) includes \"$inc\": only reduce/ and the top level" ;;
      exact) [ "$top" = reduce ] || bad "$rel (exact/) includes \"$inc\": no family above it" ;;
      rows) ;;   # rows/ runs every family row-wise: it may call their headers (kernels/README.md)
      *) case " $families " in
           *" $dir "*) [ "$top" = reduce ] || [ "$top" = exact ] ||
                         bad "$rel ($dir/) includes \"$inc\": another family's header" ;;
           *) bad "$rel: folder $dir/ is not in kernels/README.md's table" ;;
         esac ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find "$k" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
[ "$n" -gt 50 ] || bad "only $n includes read under $k"
while IFS= read -r hit; do
  case $hit in "$k/gpu_harness.cu:"*) ;; *) bad "reads the environment: ${hit#"$src"/}" ;; esac
done < <(grep -rn --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' 'getenv' "$k")
[ "$fail" = 0 ] && echo "tkernels_layout: $n includes checked, no getenv outside the harness"
exit "$fail"
