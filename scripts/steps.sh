# Step helpers sourced by `.ci/run` and `npm test` (scripts/test.sh):
#   step NAME COMMAND...                  one step: prints "ok   NAME (N s)" or "FAIL NAME (N s)" and then its log
#   side_by_side "NAME CMD ; NAME CMD" ...  lanes at once; the steps of a lane (separated by " ; ") in order
#   wait_for NAME                         (as a step's command) waits until the step NAME of another lane ended
# Side by side, each step's output goes to $STEP_LOGS/NAME.log (printed whole when the step fails) so that the
# logs of parallel steps do not interleave; every step's time is also appended to $STEP_LOGS/times.txt.
# CI_SERIAL=1 runs every step one after another with its output live (a one-core machine, or to watch a step).

STEP_LOGS=${STEP_LOGS:-$(mktemp -d)}
export STEP_LOGS

# step NAME COMMAND...: runs COMMAND; its time is printed (and added to $STEP_LOGS/times.txt).
step() {
  local name=$1 start=$SECONDS rc=0
  shift
  if [ -n "${CI_SERIAL:-}" ]; then
    echo "---- $name: $*"
    "$@" || rc=$?
  else
    "$@" >"$STEP_LOGS/$name.log" 2>&1 || rc=$?
  fi
  if [ $rc -eq 0 ]; then
    echo "ok   $name ($((SECONDS - start)) s)" | tee -a "$STEP_LOGS/times.txt"
  else
    echo "FAIL $name ($((SECONDS - start)) s)" | tee -a "$STEP_LOGS/times.txt"
    [ -n "${CI_SERIAL:-}" ] || { sed 's/^/  | /' "$STEP_LOGS/$name.log"; echo "---- end of $name"; }
  fi
  return $rc
}

# lane "NAME COMMAND" ...: the given steps one after another, stopping at the first failure.
lane() {
  local s
  for s in "$@"; do
    # shellcheck disable=SC2086 # "NAME COMMAND ARGS" is split on purpose
    step $s || return 1
  done
}

# wait_for NAME: returns once the step NAME (run in another lane) has ended, 1 if it failed (its latest run, in
# $STEP_LOGS/times.txt). Under CI_SERIAL=1 the
# lanes run in order, so the lane that runs NAME must come first in side_by_side's arguments.
wait_for() {
  local name=$1 last
  while :; do
    last=$(grep -E "^(ok  |FAIL) $name " "$STEP_LOGS/times.txt" 2>/dev/null | tail -1 || true)
    case $last in
      ok*) return 0 ;;
      FAIL*)
        echo "$name failed" >&2
        return 1
        ;;
    esac
    sleep 1
  done
}

# side_by_side LANE ...: each LANE is a string of steps separated by " ; " ("lint npm run lint ; knip npm run knip"),
# the lanes run at once (one after another under CI_SERIAL=1); fails if any step fails, after all lanes end.
side_by_side() {
  local pids=() l rc=0 p
  for l in "$@"; do
    local IFS=';'
    # shellcheck disable=SC2206 # split the lane on ';'
    local steps=($l)
    unset IFS
    local trimmed=() s
    for s in "${steps[@]}"; do
      s="${s#"${s%%[![:space:]]*}"}"
      trimmed+=("${s%"${s##*[![:space:]]}"}")
    done
    if [ -n "${CI_SERIAL:-}" ]; then
      lane "${trimmed[@]}" || rc=1
    else
      lane "${trimmed[@]}" &
      pids+=($!)
    fi
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  return $rc
}
