#!/usr/bin/env bash
# Builds the DocC documentation of every library module with the toolchain's docc,
# warnings as errors. Output: .build/docs/<Module>.doccarchive (and, with
# --static-hosting, a folder a web server can serve as is).
#
#   Scripts/build-docs.sh                 # all modules
#   Scripts/build-docs.sh ListEngine      # one module
#   docc preview Sources/ListEngine/ListEngine.docc \
#        --additional-symbol-graph-dir .build/docs/symbol-graphs/ListEngine   # browse one at http://localhost:8080
#
# DOCS_PACKAGE names a nested package to document instead of the root one:
#   DOCS_PACKAGE=Integrations/ListEnginePostgres Scripts/build-docs.sh ListEnginePostgres
set -euo pipefail
cd "$(dirname "$0")/.."
cd "${DOCS_PACKAGE:-.}"

modules=("$@")
if [[ ${#modules[@]} -eq 0 ]]; then
    [[ -z ${DOCS_PACKAGE:-} ]] || { echo "build-docs: name the modules of $DOCS_PACKAGE" >&2; exit 2; }
    modules=(ListEngine ListPagination TerminalListRenderer WebListRenderer ListEngineTesting LeaderboardFixtures)
fi

docc=$(command -v docc || true)
if [[ -z $docc ]]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi

out=.build/docs
mkdir -p "$out/symbol-graphs"
status=0

# The dump builds the package, then writes one graph per module. It also tries the test
# products' modules, which exist only after a test build, and exits non-zero when they are
# missing: so the old graphs are removed first, and a module counts as dumped when its
# graph is there afterwards. Extension block symbols keep the members this package adds to
# other modules' types (such as the standard library's `Sequence`) in the documentation.
graphs=$(dirname "$(swift build --show-bin-path)")/symbolgraph
rm -rf "$graphs"
swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols \
    >"$out/dump-symbol-graph.log" 2>&1 || true

for module in "${modules[@]}"; do
    catalog=Sources/$module/$module.docc
    if [[ ! -d $catalog ]]; then
        echo "$module: no catalog at $catalog" >&2
        status=1
        continue
    fi
    if [[ ! -f $graphs/$module.symbols.json ]]; then
        tail -n 20 "$out/dump-symbol-graph.log" >&2
        echo "$module: no symbol graph in $graphs (see $out/dump-symbol-graph.log)" >&2
        status=1
        continue
    fi
    # Each module's own graphs (ModuleName.symbols.json and its extensions of other
    # modules, ModuleName@Other.symbols.json), apart from every other module's.
    rm -rf "$out/symbol-graphs/$module"
    mkdir -p "$out/symbol-graphs/$module"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$out/symbol-graphs/$module/" 2>/dev/null || true
    log=$out/$module.log
    if "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "listengine.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors >"$log" 2>&1; then
        warnings=$(grep -c 'warning:' "$log" || true)
        echo "$module: built, $warnings warnings ($out/$module.doccarchive)"
    else
        cat "$log" >&2
        echo "$module: FAILED" >&2
        status=1
    fi
done
exit $status
