#!/usr/bin/env bash
# Runs the whole suite several times while busy loops keep the cores occupied, to find tests
# that pass only on an idle machine (a fixed sleep, an assumed order, a speed bound).
#
#   npm run test:busy                          3 runs, 2 busy loops
#   npm run test:busy -- --runs 5 --busy 4     5 runs, 4 busy loops
#   npm run test:busy -- --runs 5 test/browser explorer   extra arguments go to jest
#
# RUNS and BUSY in the environment set the defaults too. Each run's jest output is kept in a log
# directory (printed at the start); the summary gives each run's duration and its failed tests.
# Exits 1 when any run failed.
set -u

runs=${RUNS:-3}
busy=${BUSY:-2}
jest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --runs=*) runs=${1#--runs=}; shift ;;
    --busy) busy=$2; shift 2 ;;
    --busy=*) busy=${1#--busy=}; shift ;;
    *) jest_args+=("$1"); shift ;;
  esac
done
case "$runs$busy" in *[!0-9]*) echo "test:busy: --runs and --busy take a number" >&2; exit 2 ;; esac

cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/brainql-test-busy.XXXXXX")
loop_pids=()
jest_pid=

stop() {
  # Kill only what this script started: the jest run (and its children) and the loops.
  if [ -n "$jest_pid" ]; then kill -- "-$jest_pid" 2>/dev/null || kill "$jest_pid" 2>/dev/null; fi
  for pid in "${loop_pids[@]}"; do kill "$pid" 2>/dev/null; done
  loop_pids=()
}
trap stop EXIT
trap 'echo "test:busy: interrupted" >&2; exit 130' INT TERM HUP

for _ in $(seq 1 "$busy"); do
  node -e 'for (;;) {}' &
  disown "$!" # no "Terminated" notice when stop() ends it
  loop_pids+=($!)
done
echo "test:busy: $runs run(s) with $busy busy loop(s) (pids ${loop_pids[*]:-none}); logs in $logs"

# Jest's --json report lists failed tests per file, and files that failed without any test
# failing (a suite that did not load, an error in afterAll).
summarize='
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const cwd = process.cwd() + "/";
for (const file of r.testResults) {
  const failed = file.assertionResults.filter((a) => a.status === "failed");
  if (file.status !== "failed" && failed.length === 0) continue;
  console.log("  FAIL " + file.name.replace(cwd, ""));
  for (const a of failed) console.log("       - " + a.fullName);
  if (failed.length === 0) console.log("       - " + (file.message.split("\n").find((l) => l.trim()) || "suite failed").trim());
}
console.log("  tests: " + r.numPassedTests + " passed, " + r.numFailedTests + " failed, " + r.numTotalTests + " total");
'

set -m # each jest run gets its own process group, so stop() can end it with its children
failed_runs=0
summary=()
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  npx jest --json --outputFile="$logs/run-$i.json" "${jest_args[@]}" >"$logs/run-$i.log" 2>&1 &
  jest_pid=$!
  wait "$jest_pid"
  code=$?
  jest_pid=
  secs=$(($(date +%s) - start))
  line="run $i: $((secs / 60))m$((secs % 60))s, exit $code"
  if [ "$code" -ne 0 ]; then failed_runs=$((failed_runs + 1)); fi
  echo "$line"
  details=$( [ -s "$logs/run-$i.json" ] && node -e "$summarize" "$logs/run-$i.json" || echo "  (no jest report: see $logs/run-$i.log)")
  echo "$details"
  summary+=("$line" "$details")
done

stop
echo
echo "test:busy: summary ($busy busy loop(s), logs in $logs)"
printf '%s\n' "${summary[@]}"
if [ "$failed_runs" -gt 0 ]; then
  echo "test:busy: $failed_runs of $runs run(s) failed"
  exit 1
fi
echo "test:busy: all $runs run(s) passed"
