#!/usr/bin/env bash
# Drives "ptxmm repl" in a real terminal, as a person would: tmux starts it
# in a detached session, send-keys types (including Tab for completion and
# the Up arrow for history), capture-pane reads the screen. Prints the
# captured screen; exits non-zero if an expected line is missing.
#
# usage: scripts/repl-tmux.sh PTXMM_BINARY [TEST]
set -euo pipefail
bin=$1
test=${2:-examples/MP.litmus}
session=ptxmm-repl-$$
tmux new-session -d -s "$session" -x 200 -y 50 "$bin repl $test"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
type_line() { tmux send-keys -t "$session" "$1" Enter; sleep 0.4; }
sleep 1
# ":fi" + Tab completes to ":find ".
tmux send-keys -t "$session" ":fi" Tab
sleep 0.3
tmux send-keys -t "$session" 'P1:%r0 == 1 /\ P1:%r1 == 0' Enter
sleep 0.5
type_line ":checks"
# "?- sync_b" + Tab completes the relation name sync_barrier.
tmux send-keys -t "$session" "?- sync_b" Tab
sleep 0.3
tmux send-keys -t "$session" "(X, Y)." Enter
sleep 0.4
# Up arrow recalls the last line from history; Ctrl-C cancels the line
# being typed (the session goes on), and an ambiguous Tab lists the
# candidates.
tmux send-keys -t "$session" Up
sleep 0.3
tmux send-keys -t "$session" C-c
sleep 0.3
tmux send-keys -t "$session" ":rel" Tab
sleep 0.3
tmux send-keys -t "$session" C-c
sleep 0.3
type_line ":checks"
screen=$(tmux capture-pane -p -t "$session")
echo "$screen"
status=0
for want in \
  "ptxmm> :find P1:%r0 == 1 /\\ P1:%r1 == 0" \
  "execution 3: forbidden: causality" \
  "causality          fails: P1:ld.global.u32 %r1, [data] =0 -fr->" \
  "ptxmm> ?- sync_barrier(X, Y)." \
  "0 answer(s)" \
  "ptxmm> ?- sync_barrier(X, Y).^C" \
  ":relations  :reload" \
  "ptxmm> :rel^C" \
  "ptxmm> :checks" \
  "causality          fails"
do
  if ! grep -qF -- "$want" <<<"$screen"; then
    echo "MISSING: $want" >&2
    status=1
  fi
done
exit $status
