#!/bin/sh
# Runs each model given on herd7 (on the LISA ports) and on ptxmm (on the
# PTX originals), then compares the two logs (docs/cat.md, "Compared with
# herd7"). OUT holds the ports (herdcompare port OUT ...) and gets the logs.
#
#   run.sh HERD7 LIBDIR PTXMM OUT MODEL.cat...
#
# Extra options for both tools go in HERDCOMPARE_OPTS (for instance
# "-variant cos-opt"). A line per model says whether the logs agree.
set -u
if [ $# -lt 5 ]; then
  echo "usage: run.sh HERD7 LIBDIR PTXMM OUT MODEL.cat..." >&2
  exit 2
fi
herd=$1 lib=$2 ptxmm=$3 out=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$out" && pwd)
(cd "$here" && go build -o "$out/herdcompare" .) || exit 2
opts=${HERDCOMPARE_OPTS:-}
status=0
for m in "$@"; do
  base=$(basename "$m" .cat)
  # shellcheck disable=SC2086
  cut -f1 "$out/ports.tsv" | xargs "$herd" -set-libdir "$lib" -archcheck false $opts -model "$m" >"$out/$base.herd.log" 2>"$out/$base.herd.err"
  # shellcheck disable=SC2086
  cut -f2 "$out/ports.tsv" | xargs "$ptxmm" check -set-libdir "$lib" -archcheck false $opts -cat "$m" >"$out/$base.ptxmm.log" 2>"$out/$base.ptxmm.err"
  if "$out/herdcompare" compare "$out/ports.tsv" "$out/$base.herd.log" "$out/$base.ptxmm.log" >"$out/$base.diff"; then
    echo "same      $base: $(tail -1 "$out/$base.diff")"
  else
    echo "DIFFERENT $base: $(tail -1 "$out/$base.diff") (see $out/$base.diff)"
    status=1
  fi
done
exit $status
