#!/usr/bin/env bash
# Container test (npm run test:container): builds the image from this checkout, starts it with
# docker-compose.yml over a copy of the real brain home (test/fixtures/real/gemini-home,
# beside the repository) mounted read-only, checks exact API answers, the file download, the
# container's hardening (uid 1000, read-only root, no capabilities, healthcheck, prompt stop),
# the index's cache volume (writable by uid 1000, kept across containers), the native addon,
# and that the mounted tree is byte-for-byte unchanged, then removes everything it made.
#
# Engine: docker when a Docker engine answers (`docker info`), else podman + podman-compose
# (on a machine without Docker, run the workplace's tools/container-env.sh first, as .ci/run does).
# Environment (all optional):
#   BRAINQL_FIXTURE_HOME   the brain home to copy (default <repo>/test/fixtures/real/gemini-home)
#   BRAINQL_PULL           podman's base-image pull policy (default never: the base may exist only
#                          locally; use missing to let podman fetch it)
#   BRAINQL_KEEP_IMAGE=1   keep the image built by this run
#   BRAINQL_READY_TIMEOUT  seconds to wait for /readyz (default 90)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
fixture=${BRAINQL_FIXTURE_HOME:-$repo/test/fixtures/real/gemini-home}
ready_timeout=${BRAINQL_READY_TIMEOUT:-90}
run_id="$(date +%s)-$$"
project="brainql-ct-$run_id"
image="brainql-ct:$run_id"

step() { printf '\n== container test: %s\n' "$*"; }
pass() { printf '  ok      %s\n' "$*"; }
fail() {
  printf '  FAILED  %s\n' "$*" >&2
  exit 1
}

[[ -d $fixture ]] || fail "no brain home to copy at $fixture"
if docker info >/dev/null 2>&1 && ! docker --version 2>/dev/null | grep -qi podman; then
  engine=docker
  if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
elif command -v podman >/dev/null && command -v podman-compose >/dev/null; then
  engine=podman
  # docker format: the OCI format drops the image's HEALTHCHECK, which the compose file relies on.
  compose=(podman-compose "--podman-build-args=--pull=${BRAINQL_PULL:-never} --format docker")
else
  fail "no Docker engine answers and podman/podman-compose are missing (run the workplace's tools/container-env.sh first)"
fi
compose+=(-f "$repo/docker-compose.yml" -p "$project")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/brainql-ct.XXXXXX")
cid=
cleanup() {
  local rc=$?
  trap - EXIT
  trap "" INT TERM # finish cleaning up even when interrupted again
  if [[ -n $cid && $rc -ne 0 ]]; then
    printf '\n-- container log (last 40 lines)\n' >&2
    "$engine" logs --tail 40 "$cid" >&2 2>&1 || true
  fi
  if [[ $rc -ne 0 && -s $tmp/compose.log ]]; then
    printf '\n-- compose output (last 20 lines)\n' >&2
    tail -20 "$tmp/compose.log" >&2 || true
  fi
  "${compose[@]}" down -v >/dev/null 2>&1 || true
  if [[ -n $cid ]]; then "$engine" rm -f "$cid" >/dev/null 2>&1 || true; fi
  # podman-compose 1.0 leaves the project's network behind.
  for net in $("$engine" network ls -q --filter "label=com.docker.compose.project=$project" 2>/dev/null); do
    "$engine" network rm "$net" >/dev/null 2>&1 || true
  done
  for vol in $("$engine" volume ls -q --filter "label=com.docker.compose.project=$project" 2>/dev/null); do
    "$engine" volume rm -f "$vol" >/dev/null 2>&1 || true
  done
  [[ ${BRAINQL_KEEP_IMAGE:-} == 1 ]] || "$engine" rmi "$image" >/dev/null 2>&1 || true
  chmod -R u+w "$tmp" 2>/dev/null || true # the fixture copy keeps its read-only modes
  rm -rf "$tmp"
  if [[ $rc -eq 0 ]]; then printf '\n== container test: passed\n'; else printf '\n== container test: FAILED (exit %s)\n' "$rc" >&2; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A listing of every entry under a tree: type, mode, size, mtime (ns) and the content's SHA-256.
snapshot() {
  node - "$1" <<'JS'
const fs = require('node:fs'), path = require('node:path'), crypto = require('node:crypto');
const walk = (dir, rel) => fs.readdirSync(dir).sort().flatMap((name) => {
  const p = path.join(dir, name), r = rel ? `${rel}/${name}` : name, st = fs.lstatSync(p, { bigint: true });
  const kind = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : st.isFile() ? 'f' : 'o';
  const hash = kind === 'f' ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')
    : kind === 'l' ? fs.readlinkSync(p) : '';
  const line = `${r} ${kind} ${(st.mode & 0o7777n).toString(8)} ${st.size} ${st.mtimeNs} ${hash}`;
  return kind === 'd' ? [line, ...walk(p, r)] : [line];
});
const st = fs.statSync(process.argv[2], { bigint: true });
console.log([`. d ${(st.mode & 0o7777n).toString(8)} ${st.mtimeNs}`, ...walk(process.argv[2], '')].join('\n'));
JS
}
free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}
http_status() {
  node -e "fetch(process.argv[1],{signal:AbortSignal.timeout(2000)}).then(r=>console.log(r.status),()=>console.log(0))" "$1"
}
in_container() { "$engine" exec "$cid" "$@"; }

step "engine $engine (${compose[*]:0:2}), project $project"
home="$tmp/gemini-home"
cp -a "$fixture" "$home"
chmod -R a+rX "$home" # the container's uid 1000 reads it
snapshot "$home" >"$tmp/before.txt"
pass "copied $(grep -c ' f ' "$tmp/before.txt") files from $fixture"
# ALLOW_ANONYMOUS: the server listens on 0.0.0.0 in the container and this test has no API keys.
export GEMINI_HOME="$home" BRAINQL_IMAGE="$image" BRAINQL_PORT ALLOW_ANONYMOUS=true
BRAINQL_PORT=$(free_port)

step "build the image ($image)"
started=$SECONDS
"${compose[@]}" build >"$tmp/compose.log" 2>&1 || fail "compose build failed"
"$engine" image inspect "$image" >/dev/null 2>&1 || fail "compose build made no image $image"
size=$("$engine" image inspect "$image" --format '{{.Size}}')
pass "built in $((SECONDS - started)) s, $((size / 1000000)) MB"

step "start it with compose on 127.0.0.1:$BRAINQL_PORT"
"${compose[@]}" up -d >>"$tmp/compose.log" 2>&1 || fail "compose up failed"
cid=$("$engine" ps -aq --filter "label=com.docker.compose.project=$project" | head -1)
[[ -n $cid ]] || fail "compose started no container"
base="http://127.0.0.1:$BRAINQL_PORT"
started=$SECONDS
until [[ $(http_status "$base/readyz") == 200 ]]; do
  [[ $("$engine" inspect "$cid" --format '{{.State.Running}}') == true ]] || fail "the container stopped"
  ((SECONDS - started < ready_timeout)) || fail "/readyz not 200 after $ready_timeout s"
  sleep 0.5
done
pass "/readyz is 200 after $((SECONDS - started)) s"

step "API answers"
BASE_URL="$base" HOME_DIR="$home" node -r ts-node/register/transpile-only test/container/check.ts ||
  fail "API checks"

step "the command line on the image's PATH"
listed=$(in_container brainql list --json -n 1) || fail "brainql list failed in the container"
[[ $(node -e 'const d = JSON.parse(process.argv[1]); console.log(d.items.length, d.totalCount > 0)' "$listed") == "1 true" ]] ||
  fail "brainql list in the container printed: $listed"
pass "brainql list answers in the container (docker compose exec brainql brainql list)"

step "live: an append made on the host reaches a subscriber through the published port"
BASE_URL="$base" HOME_DIR="$home" node -r ts-node/register/transpile-only test/container/live-check.ts ||
  fail "live check"

step "hardening"
[[ $(in_container id -u) == 1000 && $(in_container id -g) == 1000 ]] || fail "exec runs as $(in_container id)"
pass "the container user is uid/gid 1000 ($(in_container id -un))"
# shellcheck disable=SC2016 # expanded in the container's shell
# By command line: Node 24 names its main thread MainThread, so comm is no help.
server=$(in_container sh -c 'for d in /proc/[0-9]*; do
  case "$(tr "\0" " " <"$d/cmdline" 2>/dev/null)" in "node "*dist/main.js*) echo "$d" && break ;; esac
done' || true)
[[ -n $server ]] || fail "no node process in the container"
status=$(in_container cat "$server/status")
grep -Eq '^Uid:\s+1000\s' <<<"$status" || fail "the server process is not uid 1000: $(grep '^Uid' <<<"$status")"
grep -Eq '^CapEff:\s+0+$' <<<"$status" || fail "the server has capabilities: $(grep '^CapEff' <<<"$status")"
grep -Eq '^NoNewPrivs:\s+1$' <<<"$status" || fail "no-new-privileges is off"
pass "the server process ($server) runs as uid 1000 with no capabilities and no-new-privileges"
for dir in /app /data/gemini /; do
  ! out=$(in_container touch "$dir/.brainql-write-test" 2>&1) || fail "$dir is writable"
  grep -qi 'read-only' <<<"$out" || fail "writing to $dir failed for another reason: $out"
done
pass "/, /app and /data/gemini are read-only"
in_container sh -c 'echo x >/tmp/.w && rm /tmp/.w' || fail "/tmp is not writable"
pass "/tmp is writable"
mounts=$("$engine" inspect "$cid" --format '{{range .Mounts}}{{.Type}} {{.Destination}} {{.RW}} {{.Name}}{{"\n"}}{{end}}')
grep -Eqx 'bind /data/gemini false ?' <<<"$mounts" || fail "the brain home is not a read-only bind mount: $mounts"
grep -Eqx "volume /var/cache/brainql true ${project}_brainql-cache" <<<"$mounts" ||
  fail "/var/cache/brainql is not the read-write named volume ${project}_brainql-cache: $mounts"
pass "mounts: the brain home read-only, the named volume ${project}_brainql-cache read-write"
[[ $(in_container printenv CACHE_DIR) == /var/cache/brainql ]] || fail "CACHE_DIR is $(in_container printenv CACHE_DIR)"
[[ $(in_container stat -c '%u:%g %a' /var/cache/brainql) == '1000:1000 700' ]] ||
  fail "/var/cache/brainql is $(in_container stat -c '%u:%g %a' /var/cache/brainql), not 1000:1000 700"
in_container test -w /var/cache/brainql || fail "/var/cache/brainql is not writable by uid 1000"
# A marker the next container on the same volume must see (removed there).
in_container sh -c 'echo kept >/var/cache/brainql/.ct-marker' || fail "cannot write in /var/cache/brainql"
pass "CACHE_DIR=/var/cache/brainql, owned by uid 1000 (mode 700) and writable by it"
in_container test -s /var/cache/brainql/index.sqlite || fail "the home index file is not in /var/cache/brainql"
pass "the home index is a file in the volume (/var/cache/brainql/index.sqlite)"
in_container node -e "require('better-sqlite3')(':memory:').close()" ||
  fail "better-sqlite3 does not load in the image"
pass "better-sqlite3 loads in the image (built for $(in_container node --version))"
ports=$("$engine" port "$cid" 3000)
[[ $ports == "127.0.0.1:$BRAINQL_PORT" ]] || fail "port 3000 is published as: $ports"
pass "port 3000 is published on 127.0.0.1:$BRAINQL_PORT only"
health=$("$engine" inspect "$cid" --format '{{json .Config.Healthcheck.Test}}')
argv=$(node -e '
const t = JSON.parse(process.argv[1] || "null");
if (!Array.isArray(t) || t.length < 2) process.exit(1);
const argv = t[0] === "CMD-SHELL" ? ["/bin/sh", "-c", t[1]] : t[0] === "CMD" ? t.slice(1) : null;
if (!argv) process.exit(1);
for (const a of argv) console.log(a);' "$health") || fail "no usable healthcheck: $health"
check_cmd=()
while IFS= read -r arg; do check_cmd+=("$arg"); done <<<"$argv"
in_container "${check_cmd[@]}" || fail "the healthcheck command fails in the container"
if [[ $engine == podman ]]; then podman healthcheck run "$cid" >/dev/null 2>&1 || fail "podman healthcheck run: unhealthy"; fi
pass "the healthcheck (${check_cmd[0]} ...) passes in the container"

step "stop"
started=$SECONDS
"$engine" stop -t 10 "$cid" >/dev/null 2>>"$tmp/compose.log"
took=$((SECONDS - started))
code=$("$engine" inspect "$cid" --format '{{.State.ExitCode}}')
((took < 9)) || fail "stopping took $took s: SIGTERM does not stop the server"
[[ $code == 0 || $code == 143 ]] || fail "the server exited with $code on SIGTERM"
pass "SIGTERM stops it in ${took} s (exit $code)"
"${compose[@]}" down >>"$tmp/compose.log" 2>&1 || fail "compose down failed"
[[ -z $("$engine" ps -aq --filter "label=com.docker.compose.project=$project") ]] || fail "compose down left containers"
cid=
pass "compose down removed the container"

step "the team-service recipe: keys made by keygen in the image, published with keys and ALLOWED_HOSTS"
mkdir -p "$tmp/keys" && chmod 0777 "$tmp/keys" # the image's uid 1000 writes the keys file
keygen_out=$("$engine" run --rm --read-only --user 1000 --network none -v "$tmp/keys:/keys" "$image" \
  node dist/cli/keygen.js --name team --write /keys/keys.json) || fail "keygen in the image failed"
key=$(grep -E '^bql_' <<<"$keygen_out" | head -1)
[[ -n $key && -s $tmp/keys/keys.json ]] || fail "keygen printed no key or wrote no file: $keygen_out"
chmod a+r "$tmp/keys/keys.json"
pass "keygen ran in the production image (compiled JS) and wrote $(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).length)' "$tmp/keys/keys.json") key"
team=("${compose[@]}" -f "$repo/docker-compose.team.yml")
# As the README's recipe, with ALLOW_ANONYMOUS=true still exported: the team file overrides it.
BRAINQL_KEYS_FILE="$tmp/keys/keys.json" ALLOWED_HOSTS=brainql.test BRAINQL_BIND=127.0.0.1 \
  "${team[@]}" up -d >>"$tmp/compose.log" 2>&1 || fail "compose up with the recipe failed"
cid=$("$engine" ps -aq --filter "label=com.docker.compose.project=$project" | head -1)
[[ -n $cid ]] || fail "compose started no container"
started=$SECONDS
until [[ $(http_status "$base/readyz") == 200 ]]; do
  [[ $("$engine" inspect "$cid" --format '{{.State.Running}}') == true ]] || fail "the container stopped (recipe)"
  ((SECONDS - started < ready_timeout)) || fail "/readyz not 200 after $ready_timeout s (recipe)"
  sleep 0.5
done
gql() { # "status body" of {roots{flavor}} with the given extra headers (as JSON); Host may be set
  node -e '
const http = require("node:http");
const [url, headers] = [new URL(process.argv[1]), JSON.parse(process.argv[2])];
const body = JSON.stringify({ query: "{ roots { flavor } }" });
const req = http.request({ host: url.hostname, port: url.port, path: "/graphql", method: "POST",
  headers: { "Content-Type": "application/json", ...headers }, timeout: 5000 }, (res) => {
  let text = ""; res.on("data", (c) => (text += c)); res.on("end", () => console.log(res.statusCode, text));
});
req.on("error", (e) => console.log(0, String(e))); req.end(body);' "$base" "$1"
}
answer=$(gql '{}')
[[ $answer == 401* && $answer == *'"code":"UNAUTHENTICATED"'* ]] || fail "no key: $answer"
pass "no key: 401 UNAUTHENTICATED"
answer=$(gql "{\"Authorization\":\"Bearer $key\"}")
[[ $answer == '200 {"data":{"roots":[{"flavor":"antigravity-ide"}]}}' ]] || fail "with the key: $answer"
pass "the key made by keygen reads the roots"
[[ $(in_container cat /var/cache/brainql/.ct-marker) == kept ]] || fail "the cache volume was not kept across containers"
in_container rm /var/cache/brainql/.ct-marker
pass "the recipe's container has the same cache volume (a file written by the first one is there)"
answer=$(gql "{\"Authorization\":\"Bearer $key\",\"Host\":\"brainql.test\"}")
[[ $answer == 200* ]] || fail "Host brainql.test (in ALLOWED_HOSTS): $answer"
answer=$(gql "{\"Authorization\":\"Bearer $key\",\"Host\":\"evil.test\"}")
[[ $answer == 421* && $answer == *'"code":"MISDIRECTED_REQUEST"'* ]] || fail "Host evil.test: $answer"
pass "ALLOWED_HOSTS passed through: brainql.test answered, evil.test 421"
BRAINQL_KEYS_FILE="$tmp/keys/keys.json" "${team[@]}" down >>"$tmp/compose.log" 2>&1 || fail "compose down failed (recipe)"
cid=

step "the mounted brain home is unchanged"
snapshot "$home" >"$tmp/after.txt"
diff -u "$tmp/before.txt" "$tmp/after.txt" >&2 || fail "the mounted tree changed (diff above)"
pass "$(wc -l <"$tmp/after.txt") entries: same bytes, modes and mtimes"
