"""The harness against fake adapters, each broken in one way (see tests/fake_adapters/).

Every fault must surface as the right error class, quickly, with a message
that names the adapter command, the request and what was wrong; after a
fault, ``restart()`` must give a working adapter again.
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from machine import allowing_for_load

from scorpion_conformance.check_adapter import run_check
from scorpion_conformance.client import AdapterClient
from scorpion_conformance.errors import (
    AdapterCrashed,
    AdapterError,
    AdapterNotRunning,
    AdapterStartError,
    AdapterTimeout,
    InvalidResponse,
    MalformedResponse,
    OutOfStep,
    ProtocolVersionError,
    TooManyRestarts,
)

FAKES = Path(__file__).parent / "fake_adapters"
TIMEOUT = 1.0

EMPTY = {"down": [], "up": []}
POSITION = {
    "columns": [{"down": ["2C"], "up": ["9D"]}, {"down": [], "up": ["TD"]}] + [EMPTY] * 5,
    "stock": [],
    "removed": [],
}


def fake(name: str) -> list[str]:
    return [sys.executable, str(FAKES / f"{name}.py")]


@pytest.fixture
def open_client() -> Iterator[list[AdapterClient]]:
    """Clients made in a test, closed after it whatever happened."""
    clients: list[AdapterClient] = []
    yield clients
    for client in clients:
        client.close()


def client_for(clients: list[AdapterClient], name: str, **options: object) -> AdapterClient:
    client = AdapterClient(fake(name), timeout=TIMEOUT, **options)  # type: ignore[arg-type]
    clients.append(client)
    return client


def assert_names_everything(error: AdapterError, name: str, request_part: str | None) -> str:
    text = str(error)
    assert f"{name}.py" in text, text
    assert error.adapter.endswith(f"{name}.py")
    if request_part is not None:
        assert error.request is not None and request_part in error.request
        assert request_part in text
    return text


def assert_restart_gives_a_working_adapter(client: AdapterClient, broken: str) -> None:
    """After a fault: refused until restart, then a new game goes on (avoiding
    the one command, ``broken``, that this fake always gets wrong)."""
    with pytest.raises(AdapterNotRunning, match="call restart"):
        client.state()
    info = client.restart()
    assert info.implementation.name == "fake"
    state = client.start("standard", POSITION)
    assert state["columns"] == POSITION["columns"]
    if broken != "state":
        assert client.state()["status"] == "playing"
    if broken != "play":
        assert client.play({"type": "deal"}).ok
    if broken != "legal":
        assert client.legal() == [{"type": "deal"}]


# -- a working adapter ----------------------------------------------------------


def test_a_whole_conversation_with_a_working_adapter(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "good")
    info = client.hello()
    assert info.protocol == 1
    assert info.ruleset_names == ("standard",)
    assert info.offers("undo")
    assert client.start("standard", POSITION)["status"] == "playing"
    assert client.legal() == [{"type": "deal"}]
    refused = client.play({"type": "move", "card": "9D", "to": 2})
    assert not refused.ok
    assert refused.error is not None
    assert (refused.error.code, refused.error.reason) == ("illegal-action", "not-same-suit")
    assert client.play({"type": "deal"}).ok
    nothing = client.undo()
    assert nothing.error is not None and nothing.error.code == "nothing-to-undo"
    pid = client.pid
    assert client.quit() == 0
    assert not client.running
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # reaped


def test_the_convenience_methods_greet_first(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "good")
    assert client.start("standard", POSITION)["stock"] == []
    assert client.info is not None


def test_the_context_manager_stops_the_adapter() -> None:
    with AdapterClient(fake("good"), timeout=TIMEOUT) as client:
        client.hello()
        pid = client.pid
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(AdapterNotRunning, match="closed"):
        client.state()


def test_a_raw_line_gets_a_checked_answer(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "good")
    client.hello()
    body = client.send_raw("this is not JSON")
    assert body["error"]["code"] == "bad-request"
    with pytest.raises(ValueError, match="one line"):
        client.send_raw('{"cmd":"state"}\n{"cmd":"state"}')


def test_a_chatty_stderr_never_blocks_and_only_its_tail_is_kept(
    open_client: list[AdapterClient],
) -> None:
    client = client_for(open_client, "chatty_stderr", stderr_tail_lines=5)
    client.hello()
    client.start("standard", POSITION)
    for _ in range(3):
        assert client.state()["status"] == "playing"
    tail = client.stderr_tail()
    assert len(tail.splitlines()) == 5
    assert tail.splitlines()[-1].startswith("log line 04095 ")


# -- each fault -------------------------------------------------------------------


def test_a_command_that_does_not_exist_cannot_start(open_client: list[AdapterClient]) -> None:
    client = AdapterClient("/no/such/adapter --flag", timeout=TIMEOUT)
    open_client.append(client)
    with pytest.raises(AdapterStartError) as caught:
        client.hello()
    text = str(caught.value)
    assert "/no/such/adapter --flag" in text
    assert "No such file or directory" in text


def test_an_adapter_that_exits_at_once_cannot_start(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "exits_at_once")
    with pytest.raises(AdapterStartError) as caught:
        client.hello()
    error = caught.value
    assert error.exit_code == 3
    text = assert_names_everything(error, "exits_at_once", '"cmd":"hello"')
    assert "exited with status 3 before answering" in text
    assert "cannot load the engine library" in error.stderr_tail
    assert "cannot load the engine library" in text


def test_a_wrong_protocol_version_is_reported(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "wrong_version")
    with pytest.raises(ProtocolVersionError) as caught:
        client.hello()
    assert caught.value.got == 2
    text = assert_names_everything(caught.value, "wrong_version", '"cmd":"hello"')
    assert "protocol version 2" in text and "version 1" in text


def test_an_adapter_that_refuses_the_version_is_reported(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "refuses_version")
    with pytest.raises(ProtocolVersionError) as caught:
        client.hello()
    assert "version 7 only" in str(caught.value)


def test_a_hanging_adapter_times_out(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "hangs")
    client.start("standard", POSITION)
    began = time.monotonic()
    with pytest.raises(AdapterTimeout) as caught:
        client.legal()
    elapsed = time.monotonic() - began
    assert TIMEOUT <= elapsed < TIMEOUT + allowing_for_load(1.5)
    text = assert_names_everything(caught.value, "hangs", '"cmd":"legal"')
    assert "no answer within 1 s" in text
    assert "thinking about legal moves" in text
    assert_restart_gives_a_working_adapter(client, broken="legal")


def test_an_adapter_that_dies_mid_game_is_reported_with_its_status(
    open_client: list[AdapterClient],
) -> None:
    client = client_for(open_client, "crashes_mid_game")
    client.start("standard", POSITION)
    with pytest.raises(AdapterCrashed) as caught:
        client.play({"type": "move", "card": "9D", "to": 2})
    error = caught.value
    assert error.exit_code == 7
    text = assert_names_everything(error, "crashes_mid_game", '"card":"9D"')
    assert "exited with status 7" in text
    assert "IndexError: list index out of range" in text
    assert_restart_gives_a_working_adapter(client, broken="play")


def test_junk_on_stdout_is_a_malformed_response(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "junk_output")
    client.start("standard", POSITION)
    with pytest.raises(MalformedResponse) as caught:
        client.legal()
    text = assert_names_everything(caught.value, "junk_output", '"cmd":"legal"')
    assert "not JSON" in text and "DEBUG: computing legal moves" in text
    assert caught.value.line == b"DEBUG: computing legal moves"
    assert_restart_gives_a_working_adapter(client, broken="legal")


def test_an_answer_nobody_asked_for_is_a_malformed_response(
    open_client: list[AdapterClient],
) -> None:
    client = client_for(open_client, "extra_line")
    # The second answer to start is caught with the first if it has arrived, and
    # otherwise by its id, read in place of the answer to state: whatever the timing.
    with pytest.raises(OutOfStep, match=r"nobody asked for|carries the id 1"):
        client.start("standard", POSITION)
        client.state()


def test_json_of_the_wrong_shape_is_an_invalid_response(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "wrong_shape")
    client.start("standard", POSITION)
    with pytest.raises(InvalidResponse) as caught:
        client.legal()
    text = assert_names_everything(caught.value, "wrong_shape", '"cmd":"legal"')
    assert "'actions' is a required property" in text
    assert caught.value.response == {"ok": True, "moves": [{"type": "deal"}], "id": 2}
    with pytest.raises(InvalidResponse) as caught:
        client.state()
    assert "at $.state.columns[2].up[0]: '10D'" in str(caught.value)
    # The conversation is still in step: the adapter keeps running.
    assert client.running
    assert client.play({"type": "deal"}).ok


def test_a_huge_line_is_a_malformed_response_not_a_hang(open_client: list[AdapterClient]) -> None:
    client = AdapterClient(fake("huge_line"), timeout=5.0)
    open_client.append(client)
    client.start("standard", POSITION)
    began = time.monotonic()
    with pytest.raises(MalformedResponse) as caught:
        client.state()
    assert time.monotonic() - began < 2.0  # well before the 5 s timeout
    text = assert_names_everything(caught.value, "huge_line", '"cmd":"state"')
    assert "longer than the limit of 1048576 bytes" in text
    assert_restart_gives_a_working_adapter(client, broken="state")


def test_a_bad_exit_status_after_quit_is_reported(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "quit_nonzero")
    client.hello()
    with pytest.raises(AdapterCrashed, match="after quit the adapter exited with status 2"):
        client.quit()


# -- restarts -----------------------------------------------------------------------


def test_restarts_are_capped_when_nothing_works(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "exits_at_once", max_restarts=2)
    with pytest.raises(AdapterStartError):
        client.hello()
    for _ in range(2):
        with pytest.raises(AdapterStartError):
            client.restart()
    with pytest.raises(TooManyRestarts) as caught:
        client.restart()
    error = caught.value
    assert client.restarts == 2
    assert isinstance(error.last_error, AdapterStartError)
    text = str(error)
    assert "exits_at_once.py" in text
    assert "the adapter program itself, not the Scorpion implementation" in text
    assert "check-adapter" in text
    assert "exited with status 3" in text  # the last failure is shown


def test_a_game_that_starts_resets_the_restart_count(open_client: list[AdapterClient]) -> None:
    client = client_for(open_client, "crashes_mid_game", max_restarts=1)
    client.hello()
    for _ in range(3):
        client.start("standard", POSITION)
        with pytest.raises(AdapterCrashed):
            client.play({"type": "deal"})
        client.restart()
    assert client.restarts == 3


# -- the smoke check against fakes ---------------------------------------------------


def test_check_adapter_fails_a_wrong_adapter_in_plain_words() -> None:
    out = io.StringIO()
    status = run_check(" ".join(fake("good")), TIMEOUT, out)
    text = out.getvalue()
    assert status == 1
    assert "PASS  handshake" in text
    assert ("FAIL  legal: legal on position A: the adapter lists, the rules refuse: deal; "
            "the rules allow, the adapter does not list: 8♦ to column 1, 9♦ to column 2") in text
    assert "expected the reason not-one-rank-lower, got not-same-suit" in text


def test_check_adapter_reports_an_adapter_that_cannot_start() -> None:
    out = io.StringIO()
    status = run_check(" ".join(fake("exits_at_once")), TIMEOUT, out)
    assert status == 2
    assert "FAIL  handshake" in out.getvalue()
    assert "cannot load the engine library" in out.getvalue()


def test_check_adapter_goes_on_after_a_hang() -> None:
    out = io.StringIO()
    status = run_check(" ".join(fake("hangs")), 0.5, out)
    text = out.getvalue()
    assert status == 1
    assert "did not answer in time" in text
    assert "PASS  quit" in text  # the restart let the last check run


# -- the adapter template ------------------------------------------------------------

TEMPLATE = Path(__file__).parents[1] / "adapters" / "python" / "adapter.py"


def test_the_template_as_shipped_is_well_behaved_but_plays_nothing() -> None:
    out = io.StringIO()
    status = run_check(f"{sys.executable} {TEMPLATE}", 5.0, out)
    text = out.getvalue()
    assert status == 1
    assert "PASS  handshake: my-scorpion" in text
    assert "unsupported (this template has no engine yet)" in text
    assert "PASS  unknown rule set" in text
    assert "PASS  quit" in text


def test_the_template_with_an_engine_plugged_in_passes_the_smoke_check() -> None:
    out = io.StringIO()
    assert run_check(" ".join(fake("template_wired")), 5.0, out) == 0, out.getvalue()
