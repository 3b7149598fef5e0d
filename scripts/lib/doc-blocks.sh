# Shared by the doc generators: replace_block DOC MARKER FILE puts FILE's contents between the lines
# <!-- BEGIN MARKER --> and <!-- END MARKER --> of DOC, replacing what was there.
replace_block() {
  local doc=$1 marker=$2 table=$3
  awk -v begin="<!-- BEGIN $marker -->" -v end="<!-- END $marker -->" -v table="$table" '
    $0 == begin { print; while ((getline line < table) > 0) print line; skipping = 1; next }
    $0 == end   { skipping = 0 }
    !skipping   { print }' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
}

# latex_table NAME [REPORT OPTIONS] CERTIFICATE...: `tverify report --latex --wide` of the certificates, written to
# docs/latex/NAME.tex through a temporary file beside it (removed when report fails); docs/latex/claims.tex inputs
# every such table. Reads the caller's $root (the repository) and $tverify (the binary).
latex_table() {
  local name=$1; shift
  local table="$root/docs/latex/$name.tex"
  "$tverify" report --latex --wide "$@" > "$table.tmp" || { rm -f "$table.tmp"; return 1; }
  mv "$table.tmp" "$table"
}

# independent_table CERTIFICATE...: the independent checker's answer for each certificate (independent/confirm.py,
# which shares no code with tverify; scripts/lib/independent-table.py makes the table), under a line saying so, for
# the Markdown block of docs/claims.md; fails (the script stops) when the checker found a claim false. Reads $root.
independent_table() {
  echo
  echo "Each certificate above, checked by the independent checker (\`independent/confirm.py\`, which shares no code"
  echo "with tverify; [docs/trust.md](trust.md) says what it re-derives):"
  echo
  /usr/bin/python3 "$root/scripts/lib/independent-table.py" "$@"
}
