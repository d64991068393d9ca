#!/usr/bin/env bash
# Peer comparison (issue 5, "What must be shown" 4): retrygen against
# oapi-codegen v2.8.2 and ogen v1.24.0 (pinned by the tool directives of
# bench/go.mod) on every spec in ../shared/specs beside the checkout and on
# GitHub's REST API spec.
#
#   bash bench/compare.sh            # Markdown table on stdout and in bench/compare.md
#
# For each spec and generator: generation wall time and peak memory, lines of
# Go generated, wall time and peak memory of `go build` of the generated
# package, or "fails: REASON" (the error's first line).
#
# How each number is taken:
#   - every command runs under golden/rusage (the same as GNU
#     `/usr/bin/time -f '%e %M'`: wall seconds, wait4's ru_maxrss in KiB,
#     which for `go build` includes the compiler it runs);
#   - each generator writes into a package of its own temporary module:
#     retrygen's requires github.com/retrygen/retrygen replaced by this
#     checkout; oapi-codegen's requires github.com/oapi-codegen/runtime
#     $OAPI_RUNTIME; ogen's requires github.com/ogen-go/ogen v1.24.0;
#   - the build is measured with a fresh GOCACHE that already holds the
#     package's compiled dependencies (standard library, runtime library),
#     copied from one warm cache, so the number is the compile of the
#     generated package itself; GOMODCACHE is shared.
#
# Invocations (kept minimal):
#   retrygen generate -spec SPEC -out DIR -package gen
#   oapi-codegen -config oapi.yaml SPEC        (package gen, generate models + client;
#                                               when that fails, again with
#                                               output-options.resolve-type-name-collisions
#                                               and compatibility.always-prefix-enum-values)
#   ogen -config ogen.yaml -target DIR -package gen -clean SPEC
#     ogen.yaml enables only the client features (paths/client,
#     webhooks/client: no server, no OpenTelemetry, as the others generate) and
#     ignore_not_implemented: ["all"], without which ogen refuses any spec
#     with one unsupported construct (Box's text/html response).
# oapi-codegen refuses the AWS specs by default ("can not merge incompatible
# formats" on allOf: [{$ref}, {description}]); that is reported as is.
#
# Environment: SPECS_DIR (default ../shared/specs beside the checkout);
# RETRYGEN_CACHE (where the realspecs tier keeps GitHub's spec; fetched with
# `npm pack @octokit/openapi@23.0.2` when missing); SKIP_GITHUB=1 leaves
# GitHub's spec out; RESULTS (default bench/compare.md; bench/results.md holds the
# hand-measured before → after tables of issue 24) is the file written.
set -euo pipefail

bench="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$bench")"
specs_dir="${SPECS_DIR:-$(dirname "$root")/shared/specs}"
cache="${RETRYGEN_CACHE:-${HOME}/.cache/retrygen}"
OAPI_RUNTIME=v1.9.0
GITHUB_PACKAGE=@octokit/openapi@23.0.2

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bin="$work/bin"
warm="$work/gocache-warm"
mkdir -p "$bin" "$warm"

log() { printf '%s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------
log "building retrygen, oapi-codegen, ogen and rusage"
(cd "$bench" && go build -o "$bin/" tool)
(cd "$root" && go build -o "$bin/" ./cmd/retrygen ./golden/rusage)

cat >"$work/oapi.yaml" <<'EOF'
package: gen
output: gen.go
generate:
  models: true
  client: true
EOF
cat >"$work/oapi-opts.yaml" <<'EOF'
package: gen
output: gen.go
generate:
  models: true
  client: true
output-options:
  resolve-type-name-collisions: true
compatibility:
  always-prefix-enum-values: true
EOF
cat >"$work/ogen.yaml" <<'EOF'
generator:
  ignore_not_implemented: ["all"]
  features:
    disable_all: true
    enable: [paths/client, webhooks/client]
EOF

# --- temporary modules -------------------------------------------------------
# newmod TOOL IMPORT GO_MOD_EDIT_ARGS...: a module at $work/mod-TOOL whose
# pin.go imports IMPORT, so `go mod tidy` never drops the pinned requirement.
newmod() {
	local tool=$1 import=$2
	shift 2
	local dir="$work/mod-$tool"
	mkdir -p "$dir"
	(
		cd "$dir"
		go mod init "bench.local/$tool" >/dev/null 2>&1
		go mod edit "$@"
		printf 'package pin\n\nimport _ "%s"\n' "$import" >pin.go
		go mod tidy >/dev/null 2>&1
	)
}
newmod retrygen github.com/retrygen/retrygen/runtime \
	-require=github.com/retrygen/retrygen@v0.0.0-00010101000000-000000000000 -replace="github.com/retrygen/retrygen=$root"
newmod oapi github.com/oapi-codegen/runtime -require="github.com/oapi-codegen/runtime@$OAPI_RUNTIME"
newmod ogen github.com/ogen-go/ogen/validate -require=github.com/ogen-go/ogen@v1.24.0

# --- measuring ---------------------------------------------------------------
# measure FILE CMD...: run CMD under rusage; FILE gets "SECONDS KIB".
measure() { "$bin/rusage" "$@"; }

# generate TOOL SPEC DIR: run one generator; its output goes to $work/gen.log.
generate() {
	local tool=$1 spec=$2 dir=$3
	case $tool in
	retrygen) measure "$work/gen.time" "$bin/retrygen" generate -spec "$spec" -out "$dir" -package gen ;;
	oapi) mkdir -p "$dir" && (cd "$dir" && measure "$work/gen.time" "$bin/oapi-codegen" -config "$work/oapi.yaml" "$spec") ;;
	oapi-opts) mkdir -p "$dir" && (cd "$dir" && measure "$work/gen.time" "$bin/oapi-codegen" -config "$work/oapi-opts.yaml" "$spec") ;;
	ogen) measure "$work/gen.time" "$bin/ogen" -config "$work/ogen.yaml" -target "$dir" -package gen -clean "$spec" ;;
	esac >"$work/gen.log" 2>&1
}

# reason TOOL: the first line saying why generation failed, from gen.log.
reason() {
	local line
	case $1 in
	retrygen) line="$(grep -m1 '^retrygen generate:' "$work/gen.log" || true)" ;;
	oapi | oapi-opts) line="$(grep -m1 -i 'error' "$work/gen.log" || true)" ;;
	# ogen prints log lines, then an error chain whose last "- step:" is the cause.
	ogen) line="$(grep -v -E '^(INFO|WARN|DEBUG)|^[[:space:]]+(/|[[:alnum:]_./-]+\.[[:alnum:]_(*)]+$)' "$work/gen.log" | grep -E '^[[:space:]]*- ' | tail -1 | sed -E 's/^[[:space:]]*- //' || true)" ;;
	esac
	[ -n "$line" ] || line="$(grep -m1 . "$work/gen.log" || true)"
	clean "$line"
}

# clean LINE: one table cell: spec paths shortened, pipes escaped, at most
# 240 characters (the middle of a longer error chain is cut: its start says
# where, its end why).
clean() {
	local s=${1//"$specs_dir/"/}
	s=${s//"$work/"/}
	s=${s//|/\\|}
	[ ${#s} -le 240 ] || s="${s:0:90} … ${s: -147}"
	printf '%s' "$s"
}

# build TOOL PKG: measured `go build` of the generated package in a fresh
# GOCACHE holding its dependencies; output in $work/build.log.
build() {
	local mod="$work/mod-$1" pkg=$2 fresh="$work/gocache-fresh"
	(cd "$mod" && go mod tidy >/dev/null 2>&1 || true)
	local deps
	deps="$(cd "$mod" && GOCACHE="$warm" go list -e -deps -f '{{if .DepOnly}}{{.ImportPath}}{{end}}' "./$pkg")"
	# shellcheck disable=SC2086 # one package path per word
	(cd "$mod" && GOCACHE="$warm" go build $deps)
	rm -rf "$fresh" && cp -a "$warm" "$fresh"
	local rc=0
	(cd "$mod" && GOCACHE="$fresh" measure "$work/build.time" go build "./$pkg") >"$work/build.log" 2>&1 || rc=$?
	rm -rf "$fresh"
	return $rc
}

# row SPEC TOOL: one table row.
row() {
	local spec=$1 tool=$2 name pkg dir
	name="$(basename "$spec")"
	pkg="$(printf '%s' "$name" | tr -c '[:alnum:]' '_' | tr '[:upper:]' '[:lower:]')"
	dir="$work/mod-$tool/$pkg"
	local label=$tool
	[ "$tool" = oapi ] && label=oapi-codegen
	log "  $label"
	if ! generate "$tool" "$spec" "$dir"; then
		printf '| %s | %s | fails: %s | | | | |\n' "$name" "$label" "$(reason "$tool")"
		[ "$tool" = oapi ] || return
		# Its two options for name collisions (issue 24: with them it
		# builds Discord's spec); the module is the same.
		label="oapi-codegen (resolve-type-name-collisions, always-prefix-enum-values)"
		rm -rf "$dir"
		log "  $label"
		if ! generate oapi-opts "$spec" "$dir"; then
			printf '| %s | %s | fails: %s | | | | |\n' "$name" "$label" "$(reason oapi-opts)"
			return
		fi
	fi
	local gt gm lines
	read -r gt gm <"$work/gen.time"
	lines="$(cat "$dir"/*.go | wc -l)"
	if ! build "$tool" "$pkg"; then
		local err
		err="$(grep -v '^#' "$work/build.log" | grep -m1 . || true)"
		printf '| %s | %s | %s | %d | %d | fails to compile: %s | |\n' "$name" "$label" "$gt" $((gm / 1024)) "$lines" "$(clean "$err")"
		rm -rf "$dir"
		return
	fi
	local bt bm
	read -r bt bm <"$work/build.time"
	printf '| %s | %s | %s | %d | %d | %s | %d |\n' "$name" "$label" "$gt" $((gm / 1024)) "$lines" "$bt" $((bm / 1024))
	rm -rf "$dir"
}

# --- specs -------------------------------------------------------------------
github_spec() {
	local cached="$cache/octokit-openapi-23.0.2/api.github.com.json"
	if [ -f "$cached" ]; then
		printf '%s' "$cached"
		return
	fi
	log "fetching GitHub's spec: npm pack $GITHUB_PACKAGE"
	(cd "$work" && npm pack "$GITHUB_PACKAGE" --silent >/dev/null &&
		tar xzf octokit-openapi-23.0.2.tgz package/generated/api.github.com.json) >&2 || return 1
	printf '%s' "$work/package/generated/api.github.com.json"
}

specs=()
for f in "$specs_dir"/*.json "$specs_dir"/*.yaml "$specs_dir"/*.yml; do
	[ -f "$f" ] && specs+=("$f")
done
if [ ${#specs[@]} -eq 0 ]; then
	log "no specs in $specs_dir (set SPECS_DIR)"
	exit 1
fi
if [ "${SKIP_GITHUB:-}" = 1 ]; then
	log "GitHub's spec is left out: SKIP_GITHUB=1"
elif gh="$(github_spec)"; then
	specs+=("$gh")
else
	log "GitHub's spec is skipped: npm pack $GITHUB_PACKAGE failed (registry unreachable?)"
fi

{
	printf '# retrygen vs oapi-codegen v2.8.2 vs ogen v1.24.0\n\n'
	printf 'Generated by `bash bench/compare.sh` on %s: %s, %s CPUs, %s.\n' \
		"$(date -u +%Y-%m-%d)" "$(go version | cut -d' ' -f3-)" "$(nproc)" "$(git -C "$root" rev-parse --short HEAD)"
	printf 'Generate: wall time and peak RSS of the generator. Build: `go build` of the generated package alone\n'
	printf '(its dependencies precompiled in a fresh GOCACHE), wall time and peak RSS including the compiler.\n\n'
	printf '| spec | generator | generate s | generate MiB | lines | build s | build MiB |\n'
	printf '|---|---|---:|---:|---:|---:|---:|\n'
	for spec in "${specs[@]}"; do
		log "$(basename "$spec")"
		for tool in retrygen oapi ogen; do
			row "$spec" "$tool"
		done
	done
} | tee "${RESULTS:-$bench/compare.md}"
