#!/usr/bin/env bash
# The bash completion the build wrote (bench completion bash), sourced in a plain bash as a
# user's shell would: `bench --conc` completes to --concurrency, `bench ` lists every
# subcommand --help lists, and every flag each command's --help lists completes after it (the
# check that fails when a flag is shown by --help but missing from the completion).
#   bash_completion.sh BENCH COMPLETION_FILE
set -euo pipefail
bench=$1
completion=$2
fail() { echo "bash_completion: $*" >&2; exit 1; }

# The words bash offers for the command line "$1" (the cursor at its end; a trailing space
# starts a new, empty word).
complete_line() {
  bash --norc --noprofile -c '
    source "$1"
    read -ra COMP_WORDS <<<"$2"
    [[ $2 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _bench
    printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$1"
}

# Flags and subcommands as --help prints them ("  -h,--help  description" and
# "  --name,--alias VALUE (default D)" lines, descriptions indented further; the subcommands
# under "Subcommands:").
help_flags() {
  "$bench" "$@" --help | awk '/^  -/ {print $1}' | tr ',' '\n' | sort -u
}
help_subcommands() {
  "$bench" --help | awk '/^Subcommands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}' | sort
}

[[ $(complete_line "bench --conc") == --concurrency ]] \
  || fail "'bench --conc' completes to: $(complete_line "bench --conc")"
[[ $(complete_line "bench search --conc") == --concurrency ]] \
  || fail "'bench search --conc' completes to: $(complete_line "bench search --conc")"
# The --sim-* flags, which --help names in one line (serve-sim's help lists them), complete too.
[[ $(complete_line "bench --sim-time-s") == --sim-time-scale ]] \
  || fail "'bench --sim-time-s' completes to: $(complete_line "bench --sim-time-s")"

subcommands=$(help_subcommands)
[[ -n $subcommands ]] || fail "no subcommands in bench --help"
offered=$(complete_line "bench " | sort)
[[ $offered == "$subcommands" ]] || fail "'bench ' offers [$offered], --help lists [$subcommands]"

# A flag's value completes as a file name: nothing offered by bench itself.
[[ -z $(complete_line "bench --dataset ") ]] || fail "'bench --dataset ' offers words"

for command in "" $subcommands; do
  shown=$(help_flags $command)
  [[ -n $shown ]] || fail "no flags in bench${command:+ $command} --help"
  offered=$(complete_line "bench ${command:+$command }-" | sort -u)
  missing=$(comm -23 <(echo "$shown") <(echo "$offered"))
  [[ -z $missing ]] || fail "bench${command:+ $command} --help lists flags the completion lacks: $missing"
done
