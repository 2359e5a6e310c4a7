# Sourced. for_each_line LIST FN: calls FN NAME ARGS... for every line
# "name | attncc flags" of a bench list (bench/*.txt), skipping blank lines
# and comments. Flags split on white space without globbing; a flag written
# '' is the empty string, as in --knobs ''.
for_each_line() {
  local list=$1 fn=$2 name flags i
  local -a args
  while IFS='|' read -r name flags; do
    case "$name" in ''|'#'*) continue ;; esac
    name=${name//[[:space:]]/}
    set -f
    # shellcheck disable=SC2206
    args=($flags)
    set +f
    for i in "${!args[@]}"; do [ "${args[i]}" = "''" ] && args[i]=""; done
    "$fn" "$name" "${args[@]}"
  done < "$list"
}
