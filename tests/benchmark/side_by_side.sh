#!/usr/bin/env bash
# side_by_side.sh: rpgnav's A* (with jump points) beside warthog's jump point searches, on the
# same Moving AI maps and scenario lines, each query timed by the program itself.
#
#   tests/benchmark/side_by_side.sh [--rounds N] [--movingai DIR] [--rpgnav PATH_TO_rpgnav_TOOL]
#
# What it measures. For each map, every program solves every scenario line in one process
# pinned to one core (`taskset -c 1`), and the rounds (default 3) repeat that, the programs taking
# turns map by map. Per program and map: each query's fastest time over the rounds, then the
# median over the queries (microseconds).
#   - rpgnav: `rpgnav scen MAP SCEN --csv --jump-points-only`, column `micros`: one
#     SearchContext::findPath call timed from outside with steady_clock, returning the route's
#     jump points (SearchRequest::tilePath false), as warthog's search does.
#   - rpgnav with its tile path: the same without --jump-points-only: findPath also writes every
#     tile of the route (the default, which the character pipeline uses). A column of its own.
#   - warthog: `warthog-jps --alg ALG --scen SCEN --map MAP`, column `nanos`: warthog's own timer
#     around its search loop alone (unidirectional_search::search): it leaves out turning the
#     start and goal into node ids, extracting the path (warthog's path is the jump points, not
#     the tiles between them) and, for jps+ / jps2+, building the jump tables when the map loads.
#   So warthog's figure covers a little less work than rpgnav's even then (rpgnav's timer also
#   takes in checking the request and reading the chain of jump points).
# Lengths are checked too: rpgnav's `length` and warthog's `pcost` against the scenario's optimum
# (tolerance: 1e-4 relative plus one unit of the last decimal the scenario writes, as bg512's
# optima are rounded to 2 decimals); a query counts as wrong if any round got it wrong.
# Variants: the JPS variants the warthog binary names in its --help among jps, jps2 (JPS(B+P)
# of Harabor & Grastien, ICAPS 2014; also spelled jpsP), jps+ and jps2+ (JPS+ / JPS(B+P)+);
# RPGNAV_WARTHOG_ALGS="jps jps2+" picks some by hand.
# Maps (below the Moving AI folder): dao/brc202d, sc1/Aftershock, mazes/maze512-1-0 (every 4th
# scenario line), random/random512-40-0, cities/Berlin_0_1024, bg512/AR0011SR.
# Output (stdout, markdown): the best warthog variant against rpgnav per map, then every
# variant's median per map with the length mismatches, then the command, date and what the
# times include. Progress goes to stderr.
#
# Warthog is not part of this repository and must not be copied into it: build warthog-jps (with
# its submodule warthog-core) from its public repository, github.com/ShortestPathLab/warthog-jps,
# as its own README says, in Release, somewhere outside this repository, and name the
# executable it builds (warthog-jps) in RPGNAV_WARTHOG. Measured with warthog-jps 44afdd4 and
# warthog-core f379ef2 (v0.5.0), g++ 12.
#
# Environment:
#   RPGNAV_WARTHOG       path to the warthog-jps executable (one binary runs every JPS variant);
#                        unset or not executable: the script says so and exits 0 (skipped).
#   RPGNAV_WARTHOG_ALGS  optional: the --alg names to run (default: those the binary lists).
#
# Defaults: the rpgnav tool build/samples/rpgnav and the Moving AI folder
# ../shared/benchmarks/movingai, both relative to the repository root (as RPGNAV_MOVINGAI_DIR in
# CMakeLists.txt). Needs bash, awk (mawk will do), sort, taskset (else runs unpinned).

set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=3
movingai="$root/../shared/benchmarks/movingai"
rpgnav="$root/build/samples/rpgnav"
command_line="tests/benchmark/side_by_side.sh${*:+ $*}"

usage() {
  echo "usage: tests/benchmark/side_by_side.sh [--rounds N] [--movingai DIR] [--rpgnav PATH_TO_rpgnav_TOOL]"
  echo "       (warthog: RPGNAV_WARTHOG=path/to/warthog-jps, optional RPGNAV_WARTHOG_ALGS=\"jps jps2 jps+ jps2+\")"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || { usage >&2; exit 2; }; rounds=$2; shift 2 ;;
    --movingai) [ $# -ge 2 ] || { usage >&2; exit 2; }; movingai=$2; shift 2 ;;
    --rpgnav) [ $# -ge 2 ] || { usage >&2; exit 2; }; rpgnav=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "side_by_side: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "side_by_side: --rounds takes a whole number, 1 or more" >&2; exit 2 ;; esac

warthog=${RPGNAV_WARTHOG:-}
if [ -z "$warthog" ] || [ ! -f "$warthog" ] || [ ! -x "$warthog" ]; then
  echo "side_by_side: set RPGNAV_WARTHOG=... (build warthog from its public repository outside this repository: see tests/benchmark/README.md)"
  exit 0
fi
if [ ! -x "$rpgnav" ]; then
  echo "side_by_side: no rpgnav tool at $rpgnav (build the target rpgnav_tool, or give --rpgnav PATH)" >&2
  exit 1
fi
if [ ! -d "$movingai" ]; then
  echo "side_by_side: no Moving AI folder at $movingai (give --movingai DIR); skipped"
  exit 0
fi

# The variants: those the binary lists in its help (or RPGNAV_WARTHOG_ALGS), in this order.
if [ -n "${RPGNAV_WARTHOG_ALGS:-}" ]; then
  algs=(${RPGNAV_WARTHOG_ALGS})
else
  help_text=$("$warthog" --help 2>&1 || true)
  algs=()
  for name in jps jps2 jps+ jps2+; do
    if printf '%s\n' "$help_text" | tr ',\t' '  ' | tr ' ' '\n' | grep -qxF -- "$name"; then algs+=("$name"); fi
  done
  if [ ${#algs[@]} -eq 0 ]; then algs=(jps jps2 jps+ jps2+); fi
fi

pin=()
if command -v taskset > /dev/null 2>&1 && taskset -c 1 true > /dev/null 2>&1; then
  pin=(taskset -c 1)
else
  echo "side_by_side: taskset -c 1 unavailable: running unpinned" >&2
fi

maps=(dao/brc202d sc1/Aftershock mazes/maze512-1-0 random/random512-40-0 cities/Berlin_0_1024 bg512/AR0011SR)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/side_by_side.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Scenario files (the maze: every 4th line, header kept) and each line's optimum.
present=()
for map in "${maps[@]}"; do
  key=${map//\//_}
  if [ ! -f "$movingai/$map.map" ] || [ ! -f "$movingai/$map.map.scen" ]; then
    echo "side_by_side: $movingai/$map.map or its .scen is missing: skipped" >&2
    continue
  fi
  if [ "$map" = mazes/maze512-1-0 ]; then
    awk 'NR == 1 && /^version/ { print; next } { if (n++ % 4 == 0) print }' "$movingai/$map.map.scen" > "$tmp/$key.scen"
  else
    cp "$movingai/$map.map.scen" "$tmp/$key.scen"
  fi
  # "index optimum tolerance": 1e-4 relative, plus a unit of the last decimal written (bg512's
  # optima are rounded to 2 decimals).
  awk '!/^version/ && NF >= 9 { o = $NF + 0; p = index($NF, "."); d = p ? length($NF) - p : 0
    print n++, o, 1e-4 * (o > 1 ? o : 1) + 10 ^ -d }' "$tmp/$key.scen" > "$tmp/$key.optimal"
  present+=("$map")
done
[ ${#present[@]} -gt 0 ] || { echo "side_by_side: none of the maps is in $movingai; skipped"; exit 0; }

# One run; writes "index micros wrong" lines to $tmp/res/PROGRAM.KEY.ROUND.
mkdir -p "$tmp/res"
run_rpgnav() { # map key round label [flags...]
  local out="$tmp/res/$4.$2.$3"
  "${pin[@]}" "$rpgnav" scen "$movingai/$1.map" "$tmp/$2.scen" --csv "${@:5}" > "$tmp/out" 2> "$tmp/err" || true
  awk -v optfile="$tmp/$2.optimal" '
    BEGIN { FS = ","; while ((getline line < optfile) > 0) { split(line, f, " "); opt[f[1]] = f[2] + 0; tol[f[1]] = f[3] + 0 } }
    $1 ~ /^[0-9]+$/ && NF >= 9 {
      id = $1; len = $7 + 0; wrong = 1
      if (len >= 0 && (id in opt)) { d = len - opt[id]; if (d < 0) d = -d; wrong = d > tol[id] }
      print id, $9 + 0, wrong ? 1 : 0 }' "$tmp/out" > "$out"
  if [ ! -s "$out" ]; then echo "side_by_side: rpgnav failed on $1:" >&2; tail -3 "$tmp/err" >&2; fi
}
run_warthog() { # alg map key round
  local out="$tmp/res/$1.$3.$4"
  "${pin[@]}" "$warthog" --alg "$1" --scen "$tmp/$3.scen" --map "$movingai/$2.map" > "$tmp/out" 2> "$tmp/err" || true
  awk -v optfile="$tmp/$3.optimal" '
    BEGIN { FS = "\t"; while ((getline line < optfile) > 0) { split(line, f, " "); opt[f[1]] = f[2] + 0; tol[f[1]] = f[3] + 0 } }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1
              ic = ("id" in col) ? col["id"] : 0; it = ("nanos" in col) ? col["nanos"] : 0
              ip = ("pcost" in col) ? col["pcost"] : 0; next }
    ic && it && $ic ~ /^[0-9]+$/ {
      id = $ic; wrong = 0
      if (ip && (id in opt)) { d = $ip - opt[id]; if (d < 0) d = -d; wrong = d > tol[id] }
      print id, $it / 1000, wrong ? 1 : 0 }' "$tmp/out" > "$out"
  if [ ! -s "$out" ]; then echo "side_by_side: warthog --alg $1 failed on $2:" >&2; tail -3 "$tmp/err" >&2; fi
}

for ((round = 1; round <= rounds; round++)); do
  for map in "${present[@]}"; do
    key=${map//\//_}
    echo "side_by_side: round $round/$rounds, $map" >&2
    run_rpgnav "$map" "$key" "$round" rpgnav --jump-points-only
    run_rpgnav "$map" "$key" "$round" rpgnav-tiles
    for alg in "${algs[@]}"; do run_warthog "$alg" "$map" "$key" "$round"; done
  done
done

# Per program and map: "median queries wrong" (each query's fastest round, then the median), or
# "- 0 0" when a run failed.
summarise() { # program key
  local files=() round
  for ((round = 1; round <= rounds; round++)); do
    local f="$tmp/res/$1.$2.$round"
    if [ ! -s "$f" ]; then echo "- 0 0"; return; fi
    files+=("$f")
  done
  awk -v counts="$tmp/counts" '
    { if (!($1 in best) || $2 < best[$1]) best[$1] = $2; if ($3) wrong[$1] = 1 }
    END { n = 0; w = 0; for (i in best) { print best[i]; n++ } for (i in wrong) w++; print n, w > counts }' \
    "${files[@]}" | sort -g > "$tmp/sorted"
  awk -v counts="$tmp/counts" '
    { v[NR] = $1 }
    END { getline c < counts; m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%.2f %s\n", m, c }' "$tmp/sorted"
}

# "a / b" to 2 decimals, or - when either is missing.
ratio_to() { # a b
  if [ "$1" != - ] && [ "$2" != - ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.2f" : "-"), a / b }'; else echo -; fi
}

declare -A median queries wrong
for map in "${present[@]}"; do
  key=${map//\//_}
  for program in rpgnav rpgnav-tiles "${algs[@]}"; do
    read -r m q w < <(summarise "$program" "$key")
    median[$program,$map]=$m; queries[$program,$map]=$q; wrong[$program,$map]=$w
  done
done

echo "| map | rpgnav | best warthog | which | ratio | rpgnav, tile path too | ratio |"
echo "|---|---:|---:|---|---:|---:|---:|"
for map in "${present[@]}"; do
  best=- which=-
  for alg in "${algs[@]}"; do
    m=${median[$alg,$map]}
    [ "$m" = - ] && continue
    if [ "$best" = - ] || awk -v a="$m" -v b="$best" 'BEGIN { exit !(a + 0 < b + 0) }'; then best=$m; which=$alg; fi
  done
  r=${median[rpgnav,$map]} t=${median[rpgnav-tiles,$map]}
  echo "| $map | $r | $best | $which | $(ratio_to "$r" "$best") | $t | $(ratio_to "$t" "$best") |"
done

echo
header="| map | queries | rpgnav | rpgnav, tile path too"
rule="|---|---:|---:|---:"
for alg in "${algs[@]}"; do header+=" | $alg"; rule+="|---:"; done
echo "$header | wrong (rpgnav, with tiles, ${algs[*]}) |"
echo "$rule|---|"
for map in "${present[@]}"; do
  line="| $map | ${queries[rpgnav,$map]} | ${median[rpgnav,$map]} | ${median[rpgnav-tiles,$map]}"
  wrongs="${wrong[rpgnav,$map]}, ${wrong[rpgnav-tiles,$map]}"
  for alg in "${algs[@]}"; do line+=" | ${median[$alg,$map]}"; wrongs+=", ${wrong[$alg,$map]}"; done
  echo "$line | $wrongs |"
done

echo
echo "\`$command_line\`, $(date '+%Y-%m-%d %H:%M %Z'), rpgnav $rpgnav, warthog $warthog;" \
  "${rounds} round(s), each process ${pin[*]:-unpinned}. Figures: median over the queries of each query's fastest" \
  "round, in microseconds; ratio = rpgnav / best warthog. rpgnav: one findPath call timed from outside," \
  "returning the route's jump points (--jump-points-only); 'tile path too': the same call writing every tile" \
  "of the route (the default). warthog: its own nanos, the search loop alone (no start/goal conversion, no path" \
  "extraction — its path is the jump points —, and for jps+/jps2+ no jump-table preprocessing)." \
  "wrong: queries whose length differs from the scenario's optimum by more than 1e-4 (relative)" \
  "plus one unit of its last decimal."
