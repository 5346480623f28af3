"""The protocol's JSON Schema: valid itself, and right about hand-written examples."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scorpion_conformance import protocol
from scorpion_conformance.protocol import (
    COMMANDS,
    ERROR_CODES,
    NAMED_RULESETS,
    OPTIONS,
    Hello,
    HelloInfo,
    Legal,
    Play,
    Quit,
    Start,
    State,
    Undo,
    check,
    validate_request,
    validate_response,
    version_problem,
)

EMPTY = {"down": [], "up": []}

POSITION: dict[str, Any] = {
    "columns": [
        {"down": ["4S", "JC", "2D"], "up": ["9D", "KH", "4C"]},
        {"down": [], "up": ["TD"]},
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
    ],
    "stock": ["2C", "3D", "7S"],
    "removed": ["S"],
}
STATE = {**POSITION, "status": "playing"}


def changed(obj: Any, path: str, value: Any) -> Any:
    """A deep copy of ``obj`` with the item at a dotted path set (``DELETE`` removes it)."""
    result = copy.deepcopy(obj)
    *parents, last = path.split(".")
    target = result
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    key: Any = int(last) if isinstance(target, list) else last
    if value is DELETE:
        del target[key]
    else:
        target[key] = value
    return result


DELETE = object()


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(protocol.schema())


def test_the_schema_ships_in_the_package() -> None:
    from importlib import resources

    text = resources.files("scorpion_conformance").joinpath("schemas/protocol-v1.json")
    assert text.is_file()


def test_every_definition_compiles_and_resolves_its_references() -> None:
    for name in protocol.schema()["$defs"]:
        check(name, {})  # walking the instance follows every $ref reached


# -- the schema agrees with the module's own tables ------------------------------


def defs() -> dict[str, Any]:
    return dict(protocol.schema()["$defs"])


def test_error_codes_agree() -> None:
    assert tuple(defs()["error-code"]["enum"]) == ERROR_CODES


def test_commands_agree() -> None:
    assert tuple(defs()["request"]["properties"]["cmd"]["enum"]) == COMMANDS
    for cmd in COMMANDS:
        assert f"request-{cmd}" in defs() and f"response-{cmd}" in defs()


def test_options_agree() -> None:
    properties = defs()["option-values"]["properties"]
    assert {name: tuple(p["enum"]) for name, p in properties.items()} == dict(OPTIONS)


def test_named_rulesets_agree_with_the_schema() -> None:
    assert tuple(defs()["named-ruleset"]["enum"]) == tuple(NAMED_RULESETS)


def test_named_rulesets_agree_with_the_reference_engine() -> None:
    """The harness keeps its own table (it never imports the engine); they must agree."""
    from scorpion_ref import RULESETS

    for name, options in NAMED_RULESETS.items():
        assert RULESETS[name].options == dict(options), name


def test_the_named_set_table_spot_checks() -> None:
    assert dict(NAMED_RULESETS["aisleriot"]).items() >= {
        "runs": "stay",
        "stock": "any-time",
        "empty_column": "king",
        "whole_column_to_empty": "allowed",
        "win": "one-run-per-column",
        "finished_run_moves": "counted",
    }.items()
    assert NAMED_RULESETS["classic"]["stock"] == "when-stuck"
    assert NAMED_RULESETS["wasp"]["empty_column"] == "any"
    assert NAMED_RULESETS["pysolfc"]["whole_column_to_empty"] == "allowed"


# -- requests -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_",
    [
        Hello(),
        Start("standard", POSITION),
        Legal(),
        Play({"type": "move", "card": "9D", "to": 5}),
        Play({"type": "deal"}),
        State(),
        Undo(),
        Quit(),
    ],
    ids=repr,
)
def test_request_classes_make_valid_requests(request_: Any) -> None:
    assert validate_request(request_.to_json()) is None
    assert request_.to_line().endswith(b"\n")
    assert request_.to_line().count(b"\n") == 1


def test_request_lines_are_compact_ascii_json() -> None:
    assert Hello().to_line() == b'{"cmd":"hello","protocol":1}\n'
    assert Play({"type": "deal"}).to_line() == b'{"cmd":"play","action":{"type":"deal"}}\n'


def test_requests_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Hello().protocol = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ({"cmd": "dance"}, "$.cmd"),
        ({}, "$"),
        ({"cmd": "hello"}, "$"),
        ({"cmd": "hello", "protocol": "1"}, "$.protocol"),
        ({"cmd": "start", "rules": "standard"}, "$"),
        ({"cmd": "start", "rules": "", "position": POSITION}, "$.rules"),
        (
            {
                "cmd": "start",
                "rules": "standard",
                "position": changed(POSITION, "stock", ["2C", "3D", "7S", "5H"]),
            },
            "$.position.stock",
        ),
        ({"cmd": "play"}, "$"),
        ({"cmd": "play", "action": {"type": "move", "card": "9D", "to": 0}}, "$.action.to"),
        ({"cmd": "play", "action": {"type": "move", "card": "9D", "to": 5.5}}, "$.action.to"),
        ({"cmd": "play", "action": {"type": "move", "card": "10D", "to": 5}}, "$.action.card"),
        ({"cmd": "play", "action": {"type": "jump"}}, "$.action.type"),
        ({"cmd": "play", "action": {"type": "deal", "count": 3}}, "$.action"),
        ([], "$"),
    ],
)
def test_malformed_requests_are_rejected_with_their_path(request_: Any, where: str) -> None:
    problem = validate_request(request_)
    assert problem is not None
    assert problem.startswith(f"at {where}:"), problem


# -- responses ----------------------------------------------------------------------

HELLO = {
    "ok": True,
    "protocol": 1,
    "implementation": {
        "name": "scorpion-ref",
        "version": "0.1.0",
        "language": "python",
        "homepage": "https://example.org/scorpion",
    },
    "rulesets": [
        "standard",
        "classic",
        {
            "name": "mine",
            "options": {
                "runs": "collect",
                "stock": "any-time",
                "empty_column": "king",
                "whole_column_to_empty": "allowed",
                "win": "four-runs",
                "finished_run_moves": "ignored",
            },
        },
        {
            "name": "short",
            "options": {
                "runs": "stay",
                "stock": "when-stuck",
                "empty_column": "any",
                "whole_column_to_empty": "refused",
            },
        },
    ],
    "capabilities": ["undo"],
}

REFUSAL = {
    "ok": False,
    "error": {"code": "illegal-action", "reason": "not-same-suit", "message": "no"},
}

VALID = [
    ("hello", HELLO),
    ("hello", {**HELLO, "implementation": {"name": "x", "version": "", "language": "c"}}),
    ("hello", {**HELLO, "capabilities": [], "extra": "fields are allowed in envelopes"}),
    ("hello", {"ok": False, "error": {"code": "unsupported", "message": "version 2 only"}}),
    ("start", {"ok": True, "state": STATE}),
    ("start", {"ok": False, "error": {"code": "invalid-position", "message": "9D twice"}}),
    ("legal", {"ok": True, "actions": []}),
    ("legal", {"ok": True, "actions": [{"type": "move", "card": "9D", "to": 5}, {"type": "deal"}]}),
    ("play", {"ok": True, "state": {**STATE, "status": "won"}}),
    ("play", REFUSAL),
    ("play", {"ok": False, "error": {"code": "illegal-action", "message": "no reason is fine"}}),
    ("state", {"ok": True, "state": {**STATE, "status": "lost", "removed": ["S", "C"]}}),
    ("undo", {"ok": False, "error": {"code": "nothing-to-undo", "message": "at the start"}}),
    ("undo", {"ok": True, "state": STATE}),
    ("quit", {"ok": True}),
]


@pytest.mark.parametrize(("cmd", "response"), VALID)
def test_valid_responses_are_accepted(cmd: str, response: Any) -> None:
    assert validate_response(cmd, response) is None


INVALID = [
    ("hello", changed(HELLO, "protocol", "1"), "$.protocol"),
    ("hello", changed(HELLO, "implementation", DELETE), "$"),
    ("hello", changed(HELLO, "implementation.name", ""), "$.implementation.name"),
    ("hello", changed(HELLO, "rulesets", []), "$.rulesets"),
    ("hello", changed(HELLO, "rulesets.0", "scorpion"), "$.rulesets[0]"),
    ("hello", changed(HELLO, "rulesets.2.name", "standard"), "$.rulesets[2].name"),
    ("hello", changed(HELLO, "rulesets.2.options.runs", "vanish"), "$.rulesets[2].options.runs"),
    ("hello", changed(HELLO, "rulesets.2.options.colour", "red"), "$.rulesets[2].options"),
    ("hello", changed(HELLO, "rulesets.3.options.stock", DELETE), "$.rulesets[3].options"),
    ("hello", changed(HELLO, "capabilities", ["Undo Moves"]), "$.capabilities[0]"),
    ("hello", changed(HELLO, "capabilities", ["undo", "undo"]), "$.capabilities"),
    ("start", {"ok": True}, "$"),
    ("start", {"ok": True, "state": POSITION}, "$.state"),
    ("start", {"ok": True, "state": changed(STATE, "status", "over")}, "$.state.status"),
    (
        "start",
        {"ok": True, "state": changed(STATE, "columns.0.up.1", "KX")},
        "$.state.columns[0].up[1]",
    ),
    (
        "start",
        {"ok": True, "state": changed(STATE, "columns.0.up.1", "KH\n")},
        "$.state.columns[0].up[1]",
    ),
    ("start", {"ok": True, "state": changed(STATE, "columns.6", DELETE)}, "$.state.columns"),
    (
        "start",
        {"ok": True, "state": changed(STATE, "columns.1.down", DELETE)},
        "$.state.columns[1]",
    ),
    (
        "start",
        {"ok": True, "state": changed(STATE, "stock", ["2C", "3D", "7S", "8S"])},
        "$.state.stock",
    ),
    ("start", {"ok": True, "state": changed(STATE, "removed", ["S", "S"])}, "$.state.removed"),
    ("start", {"ok": True, "state": changed(STATE, "removed", ["spades"])}, "$.state.removed[0]"),
    ("start", {"ok": True, "state": changed(STATE, "trump", "S")}, "$.state"),
    ("legal", {"ok": True, "moves": []}, "$"),
    (
        "legal",
        {"ok": True, "actions": [{"type": "move", "card": "9D", "to": 8}]},
        "$.actions[0].to",
    ),
    ("legal", {"ok": True, "actions": [{"type": "move", "card": "9D"}]}, "$.actions[0]"),
    ("legal", {"ok": True, "actions": [{"type": "deal"}, {"type": "deal"}]}, "$.actions"),
    ("legal", {"ok": True, "actions": [{"type": "draw"}]}, "$.actions[0].type"),
    ("play", {"ok": False}, "$"),
    ("play", {"ok": False, "error": {"code": "illegal-action"}}, "$.error"),
    ("play", {"ok": False, "error": {"code": "nope", "message": "?"}}, "$.error.code"),
    (
        "play",
        {"ok": False, "error": {"code": "illegal-action", "message": "?", "reason": "Not Same"}},
        "$.error.reason",
    ),
    ("state", {"ok": "true", "state": STATE}, "$.ok"),
    ("quit", {"ok": True, "bye": 1, "error": 3}, None),  # extra envelope fields are allowed
    ("quit", ["ok"], "$"),
    ("quit", None, "$"),
]


@pytest.mark.parametrize(("cmd", "response", "where"), INVALID)
def test_invalid_responses_are_rejected_with_their_path(
    cmd: str, response: Any, where: str | None
) -> None:
    problem = validate_response(cmd, response)
    if where is None:
        assert problem is None
        return
    assert problem is not None
    assert problem.startswith(f"at {where}:"), problem


def test_problems_are_readable() -> None:
    problem = validate_response(
        "start", {"ok": True, "state": changed(STATE, "columns.0.up.1", "KX")}
    )
    assert problem is not None
    assert "'KX' does not match" in problem
    assert "a card: rank" in problem


def test_an_unknown_command_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no command 'dance'"):
        validate_response("dance", {"ok": True})


# -- versions, hello ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("got", "fine"), [(1, True), (2, False), (0, False), (True, False), ("1", False)]
)
def test_the_version_is_checked_in_one_place(got: object, fine: bool) -> None:
    assert (version_problem(got) is None) is fine


def test_hello_info_resolves_named_and_custom_rule_sets() -> None:
    info = HelloInfo.from_json(HELLO)
    assert info.ruleset_names == ("standard", "classic", "mine", "short")
    resolved = info.rulesets_resolved()
    assert resolved["standard"] == dict(NAMED_RULESETS["standard"])
    assert resolved["mine"]["whole_column_to_empty"] == "allowed"
    assert resolved["short"] == {
        "runs": "stay",
        "stock": "when-stuck",
        "empty_column": "any",
        "whole_column_to_empty": "refused",
        **protocol.OPTION_DEFAULTS,
    }
    assert resolved["short"]["win"] == "four-runs"
    assert resolved["short"]["finished_run_moves"] == "ignored"
    assert info.offers("undo") and not info.offers("hint")
    assert str(info.implementation) == "scorpion-ref 0.1.0 (python)"


def test_hello_info_refuses_a_name_declared_twice() -> None:
    twice = changed(HELLO, "rulesets.2.name", "classic")
    with pytest.raises(ValueError, match="'classic' more than once"):
        HelloInfo.from_json(twice)


# -- the fast path never accepts what the schema refuses -----------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from scorpion_conformance.validation import _quick_ok, _quick_request_ok  # noqa: E402

cardish = st.sampled_from(["9D", "TD", "KC", "AS", "2H", " 9D", "9d", "10D", "", "KX", "9D\n"]) | (
    st.integers(-1, 60) | st.none() | st.booleans()
)
columnish = st.one_of(
    st.fixed_dictionaries(
        {"down": st.lists(cardish, max_size=3), "up": st.lists(cardish, max_size=3)},
        optional={"x": st.just(1)},
    ),
    st.fixed_dictionaries({}, optional={"down": st.lists(cardish, max_size=2), "up": st.just([])}),
    cardish,
)
stateish = st.fixed_dictionaries(
    {
        "columns": st.lists(columnish, min_size=6, max_size=8),
        "stock": st.lists(cardish, max_size=4),
        "removed": st.lists(st.sampled_from(["C", "D", "H", "S", "X", "s", 1]), max_size=5),
        "status": st.sampled_from(["playing", "won", "lost", "over", None]),
    },
    optional={"extra": st.just(1)},
)
actionish = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "deal", "jump", None])},
    optional={
        "card": cardish,
        "to": st.integers(-1, 9) | st.sampled_from([2.0, 2.5, True, "2", None]),
        "x": st.just(0),
    },
)
errorish = st.fixed_dictionaries(
    {"code": st.sampled_from([*ERROR_CODES, "oops", 5])},
    optional={
        "message": st.text(max_size=5) | st.none(),
        "reason": st.sampled_from(["not-same-suit", "Bad Reason", "", "a-b", "x\n", "1a", 3]),
    },
)
bodies = st.fixed_dictionaries(
    {"ok": st.sampled_from([True, False, 1, 0, "true", None])},
    optional={
        "state": stateish,
        "actions": st.lists(actionish, max_size=4),
        "error": errorish,
        "extra": st.just("fine"),
        "id": st.integers(-2, 3) | st.sampled_from([True, "1", 1.0, None]),
    },
)


@settings(max_examples=600, deadline=None, database=None)
@given(cmd=st.sampled_from(["start", "legal", "play", "state", "undo", "quit"]), body=bodies)
def test_the_fast_path_accepts_nothing_the_schema_refuses(cmd: str, body: Any) -> None:
    if _quick_ok(cmd, body):
        assert check(f"response-{cmd}", body) is None, body


positionish = st.fixed_dictionaries(
    {
        "columns": st.lists(columnish, min_size=6, max_size=8),
        "stock": st.lists(cardish, max_size=4),
        "removed": st.lists(st.sampled_from(["C", "D", "H", "S", "X", "s", 1]), max_size=5),
    },
    optional={"status": st.just("playing"), "extra": st.just(1)},
)
requests = st.fixed_dictionaries(
    {"cmd": st.sampled_from(["hello", "start", "legal", "play", "state", "undo", "quit", "fly", 3])},
    optional={
        "id": st.integers(-2, 3) | st.sampled_from([True, "1", 1.0, None]),
        "rules": st.sampled_from(["standard", "", 5, None]),
        "position": positionish,
        "action": actionish,
        "protocol": st.sampled_from([1, 2, "1"]),
        "extra": st.just(0),
    },
)


@settings(max_examples=800, deadline=None, database=None)
@given(request=requests)
def test_the_request_fast_path_accepts_nothing_the_schema_refuses(request: Any) -> None:
    if _quick_request_ok(request):
        assert check("request", request) is None, request


def test_the_request_fast_path_takes_the_common_requests() -> None:
    position = {"columns": [{"down": ["2C"], "up": ["9D"]}] + [{"down": [], "up": []}] * 6,
                "stock": ["KS", "QS", "JS"], "removed": ["H"]}
    for request in ({"cmd": "legal", "id": 0}, {"cmd": "state"}, {"cmd": "undo", "id": 9},
                    {"cmd": "play", "action": {"type": "deal"}, "id": 3},
                    {"cmd": "start", "rules": "standard", "position": position, "id": 1}):
        assert _quick_request_ok(request), request


@pytest.mark.parametrize(
    ("cmd", "response"),
    [(c, r) for c, r in VALID if c in ("start", "legal", "play", "state", "undo")],
)
def test_the_fast_path_takes_the_common_answers(cmd: str, response: Any) -> None:
    assert _quick_ok(cmd, response)


HOT = [(c, r) for c, r in VALID if c in ("start", "legal", "play", "state", "undo")] + [
    (
        "legal",
        {
            "ok": True,
            "actions": [
                {"type": "move", "card": c, "to": t} for c, t in (("9D", 1), ("8C", 7), ("KH", 4))
            ]
            + [{"type": "deal"}],
        },
    ),
]
hostile = (
    cardish | st.sampled_from([[], {}, "S", "playing", 7, 8, 0, 1.0, "move"]) | st.text(max_size=3)
)


def _places(obj: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) inside ``obj``."""
    found: list[tuple[Any, Any]] = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            found.append((obj, key))
            found.extend(_places(value))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            found.append((obj, index))
            found.extend(_places(value))
    return found


@settings(max_examples=1500, deadline=None, database=None)
@given(data=st.data())
def test_mutated_answers_fast_path_never_disagrees_by_accepting(data: Any) -> None:
    cmd, body = data.draw(st.sampled_from(HOT))
    body = copy.deepcopy(body)
    for _ in range(data.draw(st.integers(1, 2))):
        places = _places(body)
        container, key = data.draw(st.sampled_from(places))
        how = data.draw(st.sampled_from(["replace", "delete", "add", "duplicate"]))
        if how == "replace":
            container[key] = data.draw(hostile)
        elif how == "delete":
            del container[key]
        elif how == "add" and isinstance(container, dict):
            container[data.draw(st.sampled_from(["x", "status", "reason", "to"]))] = data.draw(
                hostile
            )
        elif isinstance(container, list):
            container.append(copy.deepcopy(container[key]))
    if _quick_ok(cmd, body):
        assert check(f"response-{cmd}", body) is None, body


def test_the_protocol_and_the_engine_agree_on_the_named_rule_sets() -> None:
    """The harness keeps its own table (it never imports the engine): it must match."""
    import scorpion_ref

    assert {n: dict(o) for n, o in NAMED_RULESETS.items()} == {
        n: r.options for n, r in scorpion_ref.RULESETS.items()
    }
    assert dict(OPTIONS) == dict(scorpion_ref.OPTIONS)


# -- the handshake's fast path (a session that goes as expected never imports jsonschema) ----

HANDSHAKES = [
    {"ok": True, "protocol": 1, "rulesets": ["standard", "classic", "wasp", "pysolfc", "aisleriot"],
     "implementation": {"name": "scorpion-ref", "version": "0.1.0", "language": "python"},
     "capabilities": ["undo", "solve"], "id": 0},
    {**HELLO, "rulesets": ["wasp"], "capabilities": [], "extra": "allowed"},
]
implementationish = st.fixed_dictionaries(
    {}, optional={k: st.sampled_from(["", "x", 1, None, ["x"]]) for k in ("name", "version", "language",
                                                                          "homepage", "other")})
helloish = st.fixed_dictionaries(
    {"ok": st.sampled_from([True, True, False, 1])},
    optional={
        "protocol": st.sampled_from([1, 2, 0, -1, True, 1.0, "1", None]),
        "implementation": implementationish | st.sampled_from([None, "x", []]),
        "rulesets": st.lists(st.sampled_from(["standard", "wasp", "scorpion", "", 1, None, {}, ["wasp"],
                                              {"name": "mine", "options": {}}]), max_size=3)
        | st.sampled_from([None, "standard", {}]),
        "capabilities": st.lists(st.sampled_from(["undo", "solve", "Undo", "undo\n", "-x", "a b", "", 3,
                                                  None]), max_size=3) | st.sampled_from([None, "undo"]),
        "id": st.integers(-2, 3) | st.sampled_from([True, "1", 1.0, None]),
        "extra": st.just("fine"),
    },
)


@settings(max_examples=1500, deadline=None, database=None)
@given(body=helloish)
def test_the_handshake_fast_path_accepts_nothing_the_schema_refuses(body: Any) -> None:
    if _quick_ok("hello", body):
        assert check("response-hello", body) is None, body


@pytest.mark.parametrize("response", HANDSHAKES)
def test_the_fast_path_takes_the_common_handshakes(response: Any) -> None:
    assert _quick_ok("hello", response)
    assert _quick_ok("quit", {"ok": True, "id": 4})
    assert _quick_request_ok({"cmd": "hello", "protocol": 1, "id": 0})


def test_a_session_that_goes_as_expected_never_imports_jsonschema() -> None:
    """The handshake, some play and the goodbye of the reference adapter, in a fresh process."""
    import subprocess
    import sys

    code = ("import sys\nfrom scorpion_conformance.client import AdapterClient\n"
            "from scorpion_ref import deal_game\nfrom scorpion_ref.serial import position_to_json\n"
            "from scorpion_shared.vocabulary import DEFAULT_ADAPTER\n"
            "with AdapterClient(DEFAULT_ADAPTER) as client:\n    client.hello()\n"
            "    client.start('standard', position_to_json(deal_game(1)))\n"
            "    client.legal()\nprint('jsonschema' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stdout + done.stderr
