"""The reference adapter: a normal game through the harness client, and a hostile
stream of input it must answer with errors without ever dying.

One long-lived adapter process serves the hostile tests (module-scoped
fixture), so Hypothesis examples cost a round trip each, not a process start.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorpion_conformance import protocol
from scorpion_conformance.check_adapter import run_check
from scorpion_conformance.client import AdapterClient
from scorpion_ref import Game, deal_game, get_ruleset
from scorpion_ref.serial import action_from_json, position_to_json
from scorpion_shared.vocabulary import MAX_LINE_BYTES

ADAPTER = [sys.executable, "-m", "scorpion_ref.adapter"]
EMPTY: dict[str, list[str]] = {"down": [], "up": []}

#: A small position with a known answer: 9D onto TD, 8D onto 9D.
SMALL = {
    "columns": [
        {"down": [], "up": ["9D"]},
        {"down": ["2C"], "up": ["TD"]},
        {"down": [], "up": ["3H"]},
        {"down": [], "up": ["4S"]},
        {"down": [], "up": ["KC"]},
        {"down": [], "up": ["7C"]},
        {"down": [], "up": ["8D"]},
    ],
    "stock": [],
    "removed": [],
}

HOSTILE = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@pytest.fixture(scope="module")
def adapter() -> Iterator[AdapterClient]:
    """One reference adapter, greeted and with a game started, for the whole module
    (keeping all of its stderr, to look for tracebacks at the end)."""
    with AdapterClient(ADAPTER, timeout=10.0, stderr_tail_lines=100_000) as client:
        client.hello()
        client.start("standard", SMALL)
        pid = client.pid
        yield client
        assert client.pid == pid, "the adapter was restarted: it must never die"
        assert client.running


def still_answering(client: AdapterClient) -> None:
    info = client.hello()
    assert info.implementation.name == "scorpion-ref"
    assert client.state()["status"] in ("playing", "won", "lost")


def refused(body: Any, code: str = "bad-request") -> str:
    assert body["ok"] is False, body
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


# -- a normal game -------------------------------------------------------------------


def test_hello_offers_every_named_set_and_undo() -> None:
    with AdapterClient(ADAPTER, timeout=10.0) as client:
        info = client.hello()
        assert info.protocol == 1
        assert info.implementation.name == "scorpion-ref"
        assert info.implementation.language == "python"
        assert set(info.ruleset_names) == set(protocol.NAMED_RULESETS)
        assert info.offers("undo")
        assert info.rulesets_resolved()["classic"]["stock"] == "when-stuck"


@pytest.mark.parametrize("rules", ["standard", "classic", "aisleriot"])
def test_a_game_through_the_client_agrees_with_the_engine(rules: str) -> None:
    """Random play from deal 7, each answer checked against the engine itself."""
    rng = random.Random(rules)
    start = deal_game(7)
    game = Game(start, get_ruleset(rules))
    with AdapterClient(ADAPTER, timeout=10.0) as client:
        state = client.start(rules, position_to_json(start))
        assert state == {**position_to_json(start), "status": "playing"}
        for _ in range(40):
            actions = client.legal()
            assert sorted(map(json.dumps, actions)) == sorted(
                json.dumps(a) for a in (_to_json(x) for x in game.legal_actions())
            )
            if not actions:
                break
            action = rng.choice(actions)
            game.play(action_from_json(action))
            response = client.play(action)
            assert response.ok
            assert response.state == {
                **position_to_json(game.position),
                "status": game.status.value,
            }
        played = len(game.history)
        for _ in range(played):
            assert client.undo().ok
        assert client.state() == {**position_to_json(start), "status": "playing"}
        nothing = client.undo()
        assert nothing.error is not None and nothing.error.code == "nothing-to-undo"
        assert client.quit() == 0


def _to_json(action: Any) -> dict[str, Any]:
    from scorpion_ref.serial import action_to_json

    return action_to_json(action)


def test_the_smoke_check_passes_on_the_reference() -> None:
    out = io.StringIO()
    assert run_check(" ".join(ADAPTER), 10.0, out) == 0, out.getvalue()
    assert "FAIL" not in out.getvalue()


def test_an_illegal_action_carries_a_reason_and_changes_nothing(adapter: AdapterClient) -> None:
    before = adapter.start("standard", SMALL)
    response = adapter.play({"type": "move", "card": "3H", "to": 6})
    assert response.error is not None
    assert (response.error.code, response.error.reason) == ("illegal-action", "not-same-suit")
    assert adapter.state() == before


@pytest.mark.parametrize(
    ("action", "code", "reason"),
    [
        ({"type": "move", "card": "2C", "to": 3}, "illegal-action", "card-face-down"),
        ({"type": "move", "card": "AS", "to": 3}, "illegal-action", "card-not-in-play"),
        ({"type": "move", "card": "9D", "to": 1}, "illegal-action", "destination-is-source"),
        ({"type": "move", "card": "7C", "to": 5}, "illegal-action", "not-one-rank-lower"),
        ({"type": "deal"}, "illegal-action", "stock-empty"),
        ({"type": "move", "card": "9D", "to": 8}, "bad-request", None),
        ({"type": "move", "card": "9D", "to": "2"}, "bad-request", None),
        ({"type": "move", "card": "9D", "to": True}, "bad-request", None),
        ({"type": "move", "card": "9d", "to": 2}, "bad-request", None),
        ({"type": "move", "card": "9♦", "to": 2}, "bad-request", None),
        ({"type": "move", "card": 9, "to": 2}, "bad-request", None),
        ({"type": "move", "card": "9D"}, "bad-request", None),
        ({"type": "fly"}, "bad-request", None),
        ("deal", "bad-request", None),
    ],
)
def test_actions_the_rules_refuse_and_malformed_actions(
    adapter: AdapterClient, action: Any, code: str, reason: str | None
) -> None:
    adapter.start("standard", SMALL)
    response = adapter.send(protocol.Play(action), on_purpose=True)
    assert response.error is not None
    assert (response.error.code, response.error.reason) == (code, reason)


# -- hostile input -------------------------------------------------------------------


#: Lines of every wrong kind, each with the error code it gets.
WRONG_LINES = [
        (b"", "bad-request"),
        (b"   ", "bad-request"),
        (b"\xff\xfe{}", "bad-request"),
        (b'{"cmd":"state"', "bad-request"),
        (b"[]", "bad-request"),
        (b'"state"', "bad-request"),
        (b"null", "bad-request"),
        (b"{}", "bad-request"),
        (b'{"cmd":5}', "bad-request"),
        (b'{"cmd":null}', "bad-request"),
        (b'{"cmd":"STATE"}', "bad-request"),
        (b'{"cmd":"shuffle"}', "bad-request"),
        (b'{"cmd":"hello"}', "bad-request"),
        (b'{"cmd":"hello","protocol":"1"}', "bad-request"),
        (b'{"cmd":"hello","protocol":true}', "bad-request"),
        (b'{"cmd":"start"}', "bad-request"),
        (b'{"cmd":"start","rules":"standard"}', "bad-request"),
        (b'{"cmd":"start","position":{}}', "bad-request"),
        (b'{"cmd":"start","rules":5,"position":{}}', "bad-request"),
        (b'{"cmd":"start","rules":"mine","position":{}}', "unsupported"),
        (b'{"cmd":"start","rules":"standard","position":5}', "invalid-position"),
        (b'{"cmd":"start","rules":"standard","position":{}}', "invalid-position"),
        (
            b'{"cmd":"start","rules":"standard","position":{"columns":[],"stock":[],"removed":[]}}',
            "invalid-position",
        ),
        (b'{"cmd":"play"}', "bad-request"),
        (b'{"cmd":"play","action":null}', "bad-request"),
        (b'{"cmd":"play","action":{"type":"move","card":"9D","to":NaN}}', "bad-request"),
        (b'{"cmd":"play","action":{"type":"move","card":"9D","to":1e999}}', "bad-request"),
        (
            b'{"cmd":"play","action":{"type":"move","card":"9D","to":' + b"9" * 5000 + b"}}",
            "bad-request",
        ),
        (b'{"cmd":"play","action":{"type":"move","card":"9D","to":2.0}}', "bad-request"),
]


@pytest.mark.parametrize(("line", "code"), WRONG_LINES)
def test_wrong_lines_and_types_are_refused(adapter: AdapterClient, line: bytes, code: str) -> None:
    refused(adapter.send_raw(line), code)
    still_answering(adapter)


def bad_position(**changes: Any) -> dict[str, Any]:
    return {**SMALL, **changes}


@pytest.mark.parametrize(
    ("position", "words"),
    [
        (bad_position(stock=["9D"]), "9D appears more than once"),
        (bad_position(columns=[{"down": ["2C"], "up": []}] + [EMPTY] * 6), "face-down"),
        (bad_position(stock=["2H", "3H", "4H", "5H"]), "at most 3"),
        (bad_position(removed=["D"]), "collected"),
        (bad_position(removed=["X"]), "not a suit"),
        (bad_position(columns=[{"down": [], "up": ["td"]}] + [EMPTY] * 6), "not a card"),
        (bad_position(columns=[{"down": [], "up": ["10D"]}] + [EMPTY] * 6), "not a card"),
        (bad_position(columns=[{"up": ["9D"]}] + [EMPTY] * 6), "no down"),
        (bad_position(columns=[EMPTY] * 8), "7 columns"),
        ({"columns": SMALL["columns"], "stock": []}, "no removed"),
        (bad_position(extra=1), "no field"),
        (bad_position(stock="2C 3D"), "list"),
    ],
)
def test_invalid_positions_are_refused_and_the_old_game_survives(
    adapter: AdapterClient, position: Any, words: str
) -> None:
    before = adapter.start("standard", SMALL)
    body = adapter.send_raw(json.dumps({"cmd": "start", "rules": "standard", "position": position}))
    assert words in refused(body, "invalid-position")
    assert adapter.state() == before


def test_a_line_over_the_limit_is_refused_and_skipped(adapter: AdapterClient) -> None:
    huge = b'{"cmd":"state","pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}'
    assert "longer than" in refused(adapter.send_raw(huge))
    still_answering(adapter)


def test_a_line_just_under_the_limit_is_read(adapter: AdapterClient) -> None:
    line = b'{"cmd":"state","pad":"' + b"x" * (MAX_LINE_BYTES - 100) + b'"}'
    assert adapter.send_raw(line)["ok"] is True


@pytest.mark.parametrize("depth", [100, 2_000, 200_000])
def test_deeply_nested_json_is_refused(adapter: AdapterClient, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    for line in (
        nested,
        '{"cmd":"start","rules":"standard","position":' + nested + "}",
        '{"cmd":"play","action":{"type":"move","card":' + nested + ',"to":1}}',
        '{"cmd":"start","rules":"standard","position":{"columns":'
        + nested
        + ',"stock":[],"removed":[]}}',
    ):
        body = adapter.send_raw(line)
        assert body["ok"] is False
        assert body["error"]["code"] in ("bad-request", "invalid-position")
    still_answering(adapter)


def _is_exit_request(value: Any) -> bool:
    """quit ends the adapter, and so does hello with another version: keep them out."""
    return isinstance(value, dict) and value.get("cmd") in ("quit", "hello")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)

commands = st.sampled_from(["start", "legal", "play", "state", "undo", "", "Start", "redo"])

near_requests = st.fixed_dictionaries(
    {"cmd": commands},
    optional={
        "rules": st.sampled_from(list(protocol.NAMED_RULESETS)) | json_values,
        "position": st.fixed_dictionaries(
            {
                "columns": st.lists(
                    st.fixed_dictionaries(
                        {
                            "down": st.lists(st.text(max_size=3), max_size=3),
                            "up": st.lists(
                                st.sampled_from(["9D", "TD", "KC", "9d", ""]), max_size=3
                            ),
                        }
                    ),
                    min_size=6,
                    max_size=8,
                ),
                "stock": st.lists(st.text(max_size=3), max_size=4),
                "removed": st.lists(st.text(max_size=2), max_size=5),
            }
        )
        | json_values,
        "action": st.fixed_dictionaries(
            {"type": st.sampled_from(["move", "deal", "MOVE"]) | json_values},
            optional={
                "card": st.sampled_from(["9D", "8D", "2C", "ZZ"]) | json_values,
                "to": st.integers(-2, 9) | json_values,
            },
        )
        | json_values,
    },
)


def _check_answer(line: bytes, body: Any) -> None:
    try:
        sent = json.loads(line)
    except (ValueError, RecursionError):
        sent = None
    if isinstance(sent, dict) and sent.get("cmd") in protocol.COMMANDS:
        assert protocol.validate_response(sent["cmd"], body) is None
    else:
        refused(body)


@HOSTILE
@given(value=json_values)
def test_any_json_value_gets_an_answer(adapter: AdapterClient, value: Any) -> None:
    if _is_exit_request(value):
        return
    line = json.dumps(value).encode()
    _check_answer(line, adapter.send_raw(line))


@HOSTILE
@given(request=near_requests)
def test_requests_that_are_nearly_right_get_an_answer(adapter: AdapterClient, request: Any) -> None:
    line = json.dumps(request).encode()
    _check_answer(line, adapter.send_raw(line))


@HOSTILE
@given(data=st.binary(max_size=200))
def test_random_bytes_get_an_answer(adapter: AdapterClient, data: bytes) -> None:
    line = data.replace(b"\n", b" ")
    try:
        if _is_exit_request(json.loads(line)):
            return
    except (ValueError, RecursionError):
        pass
    _check_answer(line, adapter.send_raw(line))


def test_lone_surrogates_and_control_characters_are_answered(adapter: AdapterClient) -> None:
    refused(adapter.send_raw(r'{"cmd":"\ud800"}'))
    refused(adapter.send_raw(b'{"cmd":"state\x00"}'))
    body = adapter.send_raw(r'{"cmd":"play","action":{"type":"move","card":"\udfff","to":1}}')
    refused(body)


def _hostile_stream() -> list[bytes]:
    """Every wrong line above, lines too long and too deep, and random bytes from a fixed seed."""
    rng = random.Random(22)
    nested = "[" * 2_000 + "]" * 2_000
    noise = [rng.randbytes(rng.randrange(200)).replace(b"\n", b" ") for _ in range(300)]
    return [
        *(line for line, _ in WRONG_LINES),
        b'{"cmd":"state","pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}',
        nested.encode(), ('{"cmd":"play","action":{"type":"move","card":' + nested + ',"to":1}}').encode(),
        rb'{"cmd":"\ud800"}', b'{"cmd":"state\x00"}',
        *(line for line in noise if not _exits(line)),
    ]


def _exits(line: bytes) -> bool:
    try:
        return _is_exit_request(json.loads(line))
    except (ValueError, RecursionError):
        return False


def test_the_adapter_survived_the_hostile_stream() -> None:
    """An adapter of its own takes the whole stream, then still answers, in the same process,
    and every refusal came from its own checks, none from its catch-all (no traceback)."""
    with AdapterClient(ADAPTER, timeout=10.0, stderr_tail_lines=100_000) as client:
        client.hello()
        client.start("standard", SMALL)
        pid = client.pid
        for line in _hostile_stream():
            _check_answer(line, client.send_raw(line))
        still_answering(client)
        assert client.start("standard", SMALL)["status"] == "playing"
        assert client.pid == pid, "the adapter was restarted: it must never die"
        assert "Traceback" not in client.stderr_tail()


# -- beginnings and endings ----------------------------------------------------------


def run(lines: bytes, timeout: float = 10.0) -> tuple[list[Any], int]:
    done = subprocess.run(ADAPTER, input=lines, capture_output=True, timeout=timeout, check=False)
    return [json.loads(x) for x in done.stdout.splitlines()], done.returncode


def test_everything_but_hello_is_refused_before_hello() -> None:
    before = b"".join(
        json.dumps(r).encode() + b"\n"
        for r in (
            {"cmd": "start", "rules": "standard", "position": SMALL},
            {"cmd": "legal"},
            {"cmd": "state"},
            {"cmd": "undo"},
            {"cmd": "play", "action": {"type": "deal"}},
            {"cmd": "quit"},
        )
    )
    answers, status = run(before + b'{"cmd":"hello","protocol":1}\n{"cmd":"legal"}\n')
    assert [a["error"]["code"] for a in answers[:6]] == ["bad-request"] * 6
    assert answers[6]["ok"] is True
    assert answers[7]["error"]["code"] == "bad-request"  # no game yet
    assert status == 0  # the end of input ends it quietly


def test_another_protocol_version_is_unsupported_and_ends_the_adapter() -> None:
    answers, status = run(b'{"cmd":"hello","protocol":2}\n{"cmd":"state"}\n')
    assert len(answers) == 1
    assert answers[0]["error"]["code"] == "unsupported"
    assert status != 0


def test_quit_ends_the_adapter_with_status_zero() -> None:
    answers, status = run(b'{"cmd":"hello","protocol":1}\n{"cmd":"quit"}\n{"cmd":"state"}\n')
    assert answers[1] == {"ok": True}
    assert len(answers) == 2
    assert status == 0
