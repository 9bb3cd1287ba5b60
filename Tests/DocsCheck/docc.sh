#!/usr/bin/env bash
# make docs-check, DocC part: builds Sources/JournalMedia/JournalMedia.docc with the
# toolchain's own `docc`, warnings as errors, into .build/docs/JournalMedia.doccarchive.
# The symbol graphs come from `swift package dump-symbol-graph` over the debug build, so the
# package declares no swift-docc-plugin and its consumers resolve nothing more.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
DOCC=${DOCC:-$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/docc")}
out=.build/docs
rm -rf "$out/symbol-graphs" "$out/JournalMedia.doccarchive"
mkdir -p "$out/symbol-graphs"
# (It exits 1 because it cannot load the test modules, which it does not build; the library's
# graph is what matters and is checked below.)
log=$("$SWIFT" package dump-symbol-graph --minimum-access-level public 2>&1) || true
graphs=$(echo "$log" | sed -n 's/^Files written to //p' | tail -1)
[ -d "$graphs" ] || { echo "$log" >&2; echo "docs-check: no symbol graphs found" >&2; exit 1; }
# The JournalMedia module's graph (and its extensions of other modules' types): one module per catalog.
cp "$graphs"/JournalMedia.symbols.json "$graphs"/JournalMedia@*.symbols.json "$out/symbol-graphs/" 2>/dev/null || true
[ -e "$out/symbol-graphs/JournalMedia.symbols.json" ] || { echo "docs-check: JournalMedia.symbols.json missing in $graphs" >&2; exit 1; }
"$DOCC" convert Sources/JournalMedia/JournalMedia.docc \
  --additional-symbol-graph-dir "$out/symbol-graphs" \
  --fallback-display-name JournalMedia --fallback-bundle-identifier org.journalmedia.JournalMedia \
  --output-path "$out/JournalMedia.doccarchive" --warnings-as-errors
echo "docs-check: DocC archive in $out/JournalMedia.doccarchive"
