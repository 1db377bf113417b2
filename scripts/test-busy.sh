#!/usr/bin/env bash
# Runs the whole suite several times while busy loops keep the cores occupied, to find tests
# that pass only on an idle machine (a fixed sleep, an assumed order, a speed bound).
#
#   npm run test:busy                          3 runs, 2 busy loops
#   npm run test:busy -- --runs 5 --busy 3     5 runs, 3 busy loops
#   npm run test:busy -- --runs 5 test/live/watch.e2e   extra arguments go to jest
#
# RUNS and BUSY in the environment set the defaults too. Each run's jest output is kept in a log
# directory (printed at the start); the summary gives each run's duration and its failed tests.
# `--help` says the rest. Written for bash 3.2 too (macOS): no empty "${array[@]}" under set -u.
set -u

usage() {
  cat <<'EOF'
usage: npm run test:busy -- [--runs N] [--busy N] [jest arguments...]
  --runs N   whole-suite runs, one after the other: 1 or more (default 3, or RUNS)
  --busy N   busy loops (node -e 'for (;;) {}') beside them: 0 or more (default 2, or BUSY)
  anything else goes to jest: file patterns (regular expressions; a file that matches any one
  runs), -t 'test name', ... Without `--` npm keeps the options to itself.
Logs: one folder per call (printed first, kept), run-N.log (jest's output, `tail -f` it to
follow a run) and run-N.json (jest's report). Exit: 0 every run passed, 1 a run failed or
wrote no report, 2 usage, 130/143/129 stopped by INT/TERM/HUP (the loops and jest stopped too).
EOF
}
usage_error() {
  echo "test:busy: $1" >&2
  echo "(npm run test:busy -- --help says what is accepted)" >&2
  exit 2
}

# `npm run test:busy --runs=1` (no `--`) reaches us as npm_config_runs; a bare `--runs 1` as
# npm_config_runs=true, which the check below refuses.
runs=${npm_config_runs:-${RUNS:-3}}
busy=${npm_config_busy:-${BUSY:-2}}
jest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --runs | --busy)
      [ $# -ge 2 ] || usage_error "$1 needs a number after it"
      if [ "$1" = --runs ]; then runs=$2; else busy=$2; fi
      shift 2 ;;
    --runs=*) runs=${1#--runs=}; shift ;;
    --busy=*) busy=${1#--busy=}; shift ;;
    --json | --outputFile | --outputFile=*) usage_error "$1 is this script's own: each run's report is run-N.json in its log folder" ;;
    *) jest_args+=("$1"); shift ;;
  esac
done
case "$runs$busy" in *true*) usage_error "npm took --runs/--busy for itself: put them after --, as in npm run test:busy -- --runs 1" ;; esac
whole() { case "$1" in '' | *[!0-9]*) return 1 ;; esac; }
whole "$runs" && [ "$runs" -ge 1 ] || usage_error "--runs takes a whole number of 1 or more, not '$runs'"
whole "$busy" || usage_error "--busy takes a whole number of 0 or more, not '$busy'"

cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/brainql-test-busy.XXXXXX")
# The runs' own temporary folders (test/environment.js makes one per file under TMPDIR and
# removes it at teardown, which a stopped run never reaches): a short path of our own, removed
# at the end whatever happened.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bqb.XXXXXX")
loop_pids=()
jest_pid=
watch_pid=
run=0
summary=()

stop() {
  # Only what this script started: the jest run (its process group) and the loops.
  if [ -n "$jest_pid" ]; then
    kill -- "-$jest_pid" 2>/dev/null || kill "$jest_pid" 2>/dev/null
    wait "$jest_pid" 2>/dev/null
    jest_pid=
  fi
  for pid in ${loop_pids[@]+"${loop_pids[@]}"}; do kill "$pid" 2>/dev/null; done
  loop_pids=()
  if [ -n "$watch_pid" ]; then kill "$watch_pid" 2>/dev/null; watch_pid=; fi
  rm -rf "$scratch"
}
print_summary() {
  echo
  echo "test:busy: summary ($busy busy loop(s), logs in $logs)"
  if [ ${#summary[@]} -gt 0 ]; then printf '%s\n' "${summary[@]}"; fi
}
interrupted() {
  trap - INT TERM HUP
  stop
  echo "test:busy: stopped by SIG$2 during run $run of $runs" >&2
  print_summary
  exit "$1"
}
trap stop EXIT
trap 'interrupted 130 INT' INT
trap 'interrupted 143 TERM' TERM
trap 'interrupted 129 HUP' HUP

# Under npm (which `exec`s this script) npm is the parent: if npm is killed, stop too, instead of
# running on unseen with the cores busy. A loop left by a `kill -9` of this script ends itself
# once its parent is gone.
if [ -n "${npm_lifecycle_event:-}" ] && [ "$PPID" -gt 1 ]; then
  parent=$PPID
  ( while kill -0 "$parent" 2>/dev/null; do sleep 2; done; kill -HUP $$ 2>/dev/null ) &
  watch_pid=$!
  disown "$watch_pid"
fi
for _ in $(seq 1 "$busy"); do
  node -e 'const p = process.ppid; for (let i = 1; ; i++) if (i % 1e8 === 0 && process.ppid !== p) process.exit();' &
  disown "$!" # no "Terminated" notice when stop() ends it
  loop_pids+=($!)
done
echo "test:busy: $runs run(s) with $busy busy loop(s) (pids ${loop_pids[*]:-none}); logs in $logs"

# Jest's --json report lists failed tests per file, and files that failed without any test
# failing (a suite that did not load, an error in afterAll): for those, the first line of the
# error under jest's "● Test suite failed to run" heading.
summarize='
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const cwd = process.cwd() + "/";
let listed = 0;
for (const file of r.testResults) {
  const failed = file.assertionResults.filter((a) => a.status === "failed");
  if (file.status !== "failed" && failed.length === 0) continue;
  console.log("  FAIL " + file.name.replace(cwd, ""));
  listed++;
  for (const a of failed) console.log("       - " + a.fullName);
  const why = (file.message || "").split("\n").map((l) => l.trim()).find((l) => l && !l.startsWith("●"));
  if (failed.length === 0) console.log("       - " + (why || "the file failed without a failing test"));
}
console.log("  tests: " + r.numPassedTests + " passed, " + r.numFailedTests + " failed, " + r.numTotalTests + " total");
if (r.numTotalTests === 0 && listed === 0) process.exitCode = 3; // nothing ran, nothing said why
'
# A run without a report, or without a test, ran nothing of the suite (a bad jest option, no file
# matching the patterns, --help): it counts as failed, with jest's first words on it.
jest_said() { grep -v '^[[:space:]]*$' "$1" | grep -v '^npm warn' | head -n 3 | sed 's/^/  jest: /'; }

set -m # each jest run gets its own process group, so stop() can end it with its children
failed_runs=0
for run in $(seq 1 "$runs"); do
  start=$(date +%s)
  TMPDIR=$scratch npx jest --json --outputFile="$logs/run-$run.json" ${jest_args[@]+"${jest_args[@]}"} >"$logs/run-$run.log" 2>&1 &
  jest_pid=$!
  wait "$jest_pid"
  code=$?
  jest_pid=
  secs=$(($(date +%s) - start))
  if [ -s "$logs/run-$run.json" ]; then
    details=$(node -e "$summarize" "$logs/run-$run.json")
    if [ $? -eq 3 ]; then
      details="$details
$(jest_said "$logs/run-$run.log")"
      [ "$code" -eq 0 ] && code=1
    fi
  else
    details="  (no jest report: see $logs/run-$run.log)
$(jest_said "$logs/run-$run.log")"
    [ "$code" -eq 0 ] && code=1
  fi
  line="run $run: $((secs / 60))m$((secs % 60))s, exit $code"
  if [ "$code" -ne 0 ]; then failed_runs=$((failed_runs + 1)); fi
  echo "$line"
  echo "$details"
  summary+=("$line" "$details")
done

stop
print_summary
if [ "$failed_runs" -gt 0 ]; then
  echo "test:busy: $failed_runs of $runs run(s) failed"
  exit 1
fi
echo "test:busy: all $runs run(s) passed"
