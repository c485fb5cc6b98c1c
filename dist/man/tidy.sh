#!/bin/sh
# Tidies a page swift-argument-parser's generate-manual wrote, in place, so that
# `man --warnings -l PAGE` prints nothing: a blank line (mdoc warns "Empty input line") becomes
# a paragraph break (.Pp); the `help` subcommand the generator lists for every program is left
# out, and so is `subcommand` in the synopsis of a program that has no other.
set -eu
page=$1
others=$(grep -c '^\.It Em ' "$page" || true)
helps=$(grep -c '^\.It Em help$' "$page" || true)
awk -v only_help=$([ "$others" = "$helps" ] && echo 1 || echo 0) '
    /^\.It Em help$/ { skipping = 1; depth = 0; next }
    skipping {
        if ($0 ~ /^\.Bl/) depth++
        else if ($0 ~ /^\.El/ && --depth == 0) skipping = 0
        next
    }
    only_help && /^\.Ar subcommand$/ { next }
    /^[ \t]*$/ { print ".Pp"; next }
    { print }
' "$page" >"$page.tidy"
mv "$page.tidy" "$page"
