#!/usr/bin/env bash
# Regenerates docs/dialect.md and docs/passes.md from the ODS and pass definitions.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tblgen=/usr/lib/llvm-22/bin/mlir-tblgen
inc=(-I /usr/lib/llvm-22/include -I "$root")
{
  echo "# The monoid dialect"
  echo
  echo "Generated from ir/*.td by scripts/gen-docs.sh; edit the .td files, not this page."
  echo
  echo "## Attributes"
  "$tblgen" -gen-attrdef-doc "${inc[@]}" "$root/ir/MonoidAttrs.td" | sed '1d'
  echo
  echo "## Operations"
  "$tblgen" -gen-op-doc "${inc[@]}" "$root/ir/MonoidOps.td" | sed '1d'
} > "$root/docs/dialect.md"
{
  echo "# Passes"
  echo
  echo "Generated from passes/Passes.td by scripts/gen-docs.sh."
  echo
  "$tblgen" -gen-pass-doc "${inc[@]}" "$root/passes/Passes.td" | sed '1d'
} > "$root/docs/passes.md"
