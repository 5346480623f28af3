#!/usr/bin/env bash
# The one step of the composite action (action.yml at the top of the repository): install the
# suite, run it against the caller's adapter, turn the report into a page and a badge, and write
# the summary into the job's page. Tested by tests/test_action.py.
#
# Every input arrives in an environment variable (action.yml maps them; nothing of the caller's is
# pasted into a script), and is used as one quoted word, never evaluated:
#   SC_ADAPTER  the command that starts the adapter (required), given to `run --adapter` as it is
#   SC_INSTALL  what pip installs: a requirement such as `scorpion-conformance==0.1.0`, a
#               `git+https://...@REF` address, or a path; empty: the action's own checkout
#   SC_ARGS     more options of `run`, split as a shell splits words (quotes kept, nothing expanded)
#   SC_LABEL    the badge's label (empty: the report's default)
#   SC_OUTPUT   the folder of the files it writes (default: scorpion-conformance)
#   SC_PYTHON   the Python (3.11 or newer) that makes the suite's venv (default: python3)
#   SC_VENV     the suite's venv, made if it is not there, used again if it is (default:
#               $RUNNER_TEMP/scorpion-conformance-venv)
# and from the runner: GITHUB_ACTION_PATH, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP.
#
# The exit status is that of `run` (0: every scenario that ran passed; see docs/protocol.md), or
# 1 when the suite could not be installed, 2 for an input that cannot be used, and that of
# `report` or `summary` when one of them failed after a passing run.

set -uo pipefail

# A workflow command (::error::) with its data escaped as the runner reads it back.
annotate() {  # LEVEL MESSAGE
    local text=$2
    text=${text//'%'/%25}
    text=${text//$'\r'/%0D}
    text=${text//$'\n'/%0A}
    printf '::%s title=scorpion-conformance::%s\n' "$1" "$text"
}

stop() {  # MESSAGE STATUS
    annotate error "$1"
    write_output exit-code "$2"
    exit "$2"
}

write_output() {  # NAME VALUE (values are one line: the paths are checked for new lines)
    if [[ -n ${GITHUB_OUTPUT:-} ]]; then
        printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
    fi
}

# What the adapter says reaches the log as text: the runner reads no workflow command between
# ::stop-commands::TOKEN and ::TOKEN:: (an adapter's stderr line "::error::..." stays a line).
quoted() {  # COMMAND...
    local token
    token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    printf '::stop-commands::%s\n' "$token"
    "$@" 2>&1  # stderr too, in its place among the lines
    local status=$?
    printf '::%s::\n' "$token"
    return "$status"
}

adapter=${SC_ADAPTER:-}
[[ -n ${adapter//[[:space:]]/} ]] || stop "the input 'adapter' is empty: give the command that starts your adapter, such as: python3 my_adapter.py" 2

output=${SC_OUTPUT:-scorpion-conformance}
[[ $output != *$'\n'* && $output != *$'\r'* ]] || stop "the input 'output' holds a line break" 2
mkdir -p -- "$output" || stop "cannot make the folder '$output' (the input 'output')" 2
output=$(cd -- "$output" && pwd) || stop "cannot enter the folder of the input 'output'" 2

# More options of `run`: split into words by Python's shlex (as a shell splits them, quotes
# kept), so nothing in them is expanded or run.
python=${SC_PYTHON:-python3}
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
    || stop "'$python' is not Python 3.11 or newer (the input 'python'); add actions/setup-python before this step" 2
options=()
if [[ -n ${SC_ARGS:-} ]]; then
    words=$(mktemp) || stop "cannot make a temporary file" 1
    "$python" -c 'import shlex, sys; sys.stdout.write("".join(w + "\0" for w in shlex.split(sys.argv[1])))' \
        "$SC_ARGS" >"$words" 2>/dev/null || stop "the input 'args' cannot be split into words (an unclosed quote?)" 2
    mapfile -t -d '' options <"$words"
    rm -f -- "$words"
fi
for option in "${options[@]}"; do
    case $option in
        --adapter | --adapter=* | --report | --report=* | --junitxml | --junitxml=*)
            stop "the input 'args' gives $option, which the action sets itself (use the input 'adapter')" 2 ;;
    esac
done

install=${SC_INSTALL:-${GITHUB_ACTION_PATH:-}}
[[ -n $install ]] || stop "nothing to install: the input 'install' is empty and this is not run as an action" 2
[[ $install != -* ]] || stop "the input 'install' is a requirement or a path, not a pip option: $install" 2

# The suite's own venv, apart from the Python the adapter runs on.
venv=${SC_VENV:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/scorpion-conformance-venv}
if [[ ! -x $venv/bin/python ]]; then
    echo "Making the suite's venv in $venv"
    "$python" -m venv "$venv" || stop "'$python -m venv' could not make the suite's venv in $venv" 1
fi
echo "Installing the suite: pip install $install"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$install" \
    || stop "pip could not install '$install' (the input 'install')" 1
suite=$venv/bin/scorpion-conformance
[[ -x $suite ]] || stop "pip installed '$install', but it brought no command scorpion-conformance" 1

report=$output/report.jsonl
junit=$output/junit.xml
page=$output/page
rm -f -- "$report" "$junit"
write_output report "$report"
write_output junit "$junit"

quoted "$suite" run --adapter "$adapter" --report "$report" --junitxml "$junit" "${options[@]}"
status=$?
write_output exit-code "$status"

problem=""
if [[ -s $report ]]; then
    label=()
    [[ -z ${SC_LABEL:-} ]] || label=(--label "$SC_LABEL")
    quoted "$suite" report "$report" --html "$page" "${label[@]}"
    made=$?
    if ((made == 0)); then
        write_output page "$page"
        write_output badge "$page/badge.json"
    elif ((status == 0)); then
        status=$made
    fi
    # The summary in Markdown for the job's page: every value from the report is escaped by
    # `summary` itself. A page of the job holds at most 1 MiB: past that, the totals only.
    summary=$output/summary.md
    "$suite" summary "$report" --format markdown --show failures >"$summary"
    summarised=$?
    if ((summarised == 0)) && (($(wc -c <"$summary") > 900000)); then
        "$suite" summary "$report" --format markdown >"$summary"
        printf '\n\n(the failures are too many for this page: see the report in the artifact)\n' >>"$summary"
    fi
    if ((summarised == 0)); then
        if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
            { cat -- "$summary"; printf '\n'; } >>"$GITHUB_STEP_SUMMARY"
        fi
    elif ((status == 0)); then
        status=$summarised
    fi
    # Why a run could not use its adapter, or gave up on it: from the report's closing record.
    problem=$("$venv/bin/python" -c '
import json, sys
from scorpion_conformance.escaping import terminal_text
with open(sys.argv[1], encoding="utf-8") as lines:
    end = json.loads(lines.readlines()[-1])
why = end.get("problem") or end.get("gave_up") if isinstance(end, dict) else None
print(terminal_text(why.splitlines()[0]) if isinstance(why, str) and why.strip() else "", end="")
' "$report" 2>/dev/null) || problem=""
elif [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
    printf '## Scorpion conformance summary\n\nThe run wrote no report (exit status %s): see the log of this step.\n' \
        "$status" >>"$GITHUB_STEP_SUMMARY"
fi

case $status in
    0) echo "scorpion-conformance: every scenario that ran passed" ;;
    1) annotate error "scenarios failed or errored (or the run gave up on the adapter): they are listed in the job's summary${problem:+; $problem}" ;;
    2) annotate error "the suite refused its command line (exit 2): check the input 'args'" ;;
    3) annotate error "the adapter could not be started or greeted, so no scenario ran (exit 3)${problem:+: $problem}" ;;
    4) annotate error "the feature files have authoring problems (exit 4): see the log" ;;
    5) annotate error "no scenario matched the selection of the input 'args' (exit 5)" ;;
    130 | 143) annotate error "the run was interrupted (exit $status)" ;;
    *) annotate error "the suite ended with exit status $status: see the log" ;;
esac
exit "$status"
