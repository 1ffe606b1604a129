#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format, using .swift-format at the root:
#   Scripts/format.sh           # rewrites Sources, Tests, Fuzz and Package.swift in place
#   Scripts/format.sh --check   # changes nothing; lists the lines that are not formatted, exits 1
# .swift-format keeps only rules the formatter can apply itself, so formatting makes --check pass;
# the one exception is a trailing // comment pushed past the line limit, which must move by hand.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"  # swift-format finds .swift-format by walking up from each file; paths stay short
paths=(Sources Tests Fuzz Package.swift)

case "${1:-}" in
    "")
        swift format format --in-place --recursive --parallel "${paths[@]}"
        ;;
    --check)
        # --strict turns the findings (warnings) into errors, so the exit status is non-zero;
        # each finding is printed as file:line:column: rule and what to change.
        if ! swift format lint --strict --recursive --parallel "${paths[@]}"; then
            echo "afget: not formatted; run Scripts/format.sh" >&2
            exit 1
        fi
        ;;
    *)
        sed -n 3,4p "$0" >&2
        exit 2
        ;;
esac
