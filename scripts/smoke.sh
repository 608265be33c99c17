#!/usr/bin/env bash
# Smoke test of the README's serve command: `npm start` (wrangler dev on 127.0.0.1, here on
# another port than wrangler.toml's 8787 through PORT, as the README says),
# GET the page form, POST a valid fixture (200 with {id, url}), follow the url, POST an
# invalid one (204), an oversize one (204, and the server stays up), stop. Bounded: 90 s to come up, 10 s per request.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${SMOKE_PORT:-31087}
base=http://127.0.0.1:$port
work=$(mktemp -d)
log=$work/server.log
PORT=$port npm start >"$log" 2>&1 &
server=$!
stop() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"; }
trap stop EXIT

for _ in $(seq 1 90); do
  curl -fsS -m 2 -o /dev/null "$base/page" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; echo "smoke: npm start exited"; exit 1; }
  sleep 1
done

fail() { echo "smoke: $*"; cat "$log"; exit 1; }
get=$(curl -fsS -m 10 "$base/page")
node -e 'const d=JSON.parse(process.argv[1]); if (typeof d.p!=="string"||!Array.isArray(d.m)||typeof d.s!=="object") process.exit(1)' "$get" \
  || fail "GET /page is not {p, m, s}"

valid=test/fixtures/page/valid-recipe.json
status=$(curl -sS -m 10 -o "$work/act.json" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$valid" "$base/page")
[ "$status" = 200 ] || fail "POST $valid answered $status"
url=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).url)' "$work/act.json")
page=$(curl -fsS -m 10 "$url") || fail "GET $url failed"
grep -q '<html' <<<"$page" || fail "GET $url is not a page"

status=$(curl -sS -m 10 -o "$work/reject.out" -w '%{http_code}' --data-binary '{"title":"x","title":"y"}' "$base/page")
[ "$status" = 204 ] && [ ! -s "$work/reject.out" ] || fail "a duplicate member answered $status"

big=$work/big.bin
head -c 2097152 /dev/zero | tr '\0' ' ' >"$big"
status=$(curl -sS -m 30 -o "$work/reject.out" -w '%{http_code}' --data-binary @"$big" "$base/page")
[ "$status" = 204 ] && [ ! -s "$work/reject.out" ] || fail "a 2 MiB body answered $status"
curl -fsS -m 10 -o /dev/null "$base/page" || fail "the server is gone after a 2 MiB body"

echo "smoke: npm start serves /page; GET {p,m,s}, POST 200 → $url, duplicate member 204, 2 MiB body 204 and still serving"
