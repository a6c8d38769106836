#!/bin/sh
# Makes the stores of format 1 (redb) that tests/store.rs converts, with the binary of a commit
# before the SQLite store (3e54d82 or older), and each store's export by that same binary:
#
#   sh tests/data/store-format1/make.sh path/to/old/othello-explorer
#
# clean.redb: a 4x4 book to 4 plies, the shipped 6x6 book (merged by `solve`, its hash in `meta`),
# and imported lines: bounds, both scorings, every source, an 8x8 key with a1 taken (the top bit).
# killed.redb: an import of every 4x4 position killed with SIGKILL among its commits, left as the
# killed writer left it (redb must replay it before reading).
set -eu
old=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$old" --store "$tmp/clean.redb" book --size 4 --plies 4 --threads 1 --hash-mb 8 >/dev/null
"$old" --store "$tmp/clean.redb" solve --size 6 --threads 1 --hash-mb 8 >/dev/null
cat >"$tmp/extra.txt" <<'LINES'
-----OX--XO----- X discs -8 - import
-------------XO----OX--------------- X standard -6..+2 - explorer
X--------------------------XO------OX--------------------------- X standard -64..+10 - explorer
---------------------------XO------OXX-------------------------- O discs -3 - book
LINES
"$old" --store "$tmp/clean.redb" store import --no-check "$tmp/extra.txt" >/dev/null
"$old" --store "$tmp/clean.redb" store export "$here/clean.txt" >/dev/null
cp "$tmp/clean.redb" "$here/clean.redb"

"$old" --store "$tmp/all.redb" book --size 4 --plies 20 --threads 1 --hash-mb 8 >/dev/null
"$old" --store "$tmp/all.redb" store export "$tmp/all.txt" >/dev/null
total=$(grep -vc '^;' "$tmp/all.txt")
for ms in 5 10 15 20 25 30 40 50 60 80 100 130 160 200 250 300; do
  rm -f "$tmp/k.redb" "$tmp/copy.redb"
  "$old" --store "$tmp/k.redb" store import --no-check "$tmp/all.txt" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%03d' "$ms")"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -s "$tmp/k.redb" ] || continue
  cp "$tmp/k.redb" "$tmp/copy.redb"
  n=$("$old" --store "$tmp/copy.redb" store stats --json 2>"$tmp/note" | sed -n 's/.*"entries":\([0-9]*\).*/\1/p')
  if grep -q 'not closed cleanly' "$tmp/note" && [ "${n:-0}" -gt 0 ] && [ "$n" -lt "$total" ]; then
    "$old" --store "$tmp/copy.redb" store export "$here/killed.txt" >/dev/null
    cp "$tmp/k.redb" "$here/killed.redb"
    echo "killed.redb: $n of $total entries, killed after $ms ms"
    exit 0
  fi
done
echo "no kill landed among the commits" >&2
exit 1
