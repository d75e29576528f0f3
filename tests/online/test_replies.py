"""The host's replies are typed (``wire/replies.py``): each says its kind, leaves out what
it omits, and the host writes no message to a client as a dict of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from solstis_tui.wire import replies

HOST = Path(replies.__file__).resolve().parent.parent / "host"
#: The host's own wire to its fleet gateway, and its status command's request, are not
#: messages to a client.
NOT_TO_CLIENTS = {"fleet.py", "fleet_gateway.py", "fleet_wire.py", "status_cli.py"}


def test_each_reply_says_its_kind_and_leaves_out_what_it_omits():
    assert replies.Left("t1").wire() == {"type": "left", "table": "t1"}
    assert replies.Left("t1", for_good=True).wire(7) == {"type": "left", "table": "t1",
                                                         "for_good": True, "id": 7}
    record = replies.Record("g1", 0, "text")
    assert "analysis" not in record.wire()
    assert replies.Record("g1", 0, "text", {"v": 1}).wire()["analysis"] == {"v": 1}
    page = {"tables": [], "offset": 0, "total": 0, "waiting": []}
    assert replies.Tables(page, "1500?").wire() == {"type": "tables", **page,
                                                    "rating": "1500?"}
    assert "game" not in replies.State("t1").wire()


def test_the_host_writes_no_message_to_a_client_as_a_dict_of_its_own():
    found = []
    for path in sorted(HOST.glob("*.py")):
        if path.name in NOT_TO_CLIENTS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value == "type" for k in node.keys):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_a_reply_is_read_back_once_into_its_type_and_a_wrong_one_is_refused():
    sent = replies.Left("t1", for_good=True)
    assert replies.parse_reply(sent.wire(3)) == sent
    page = {"tables": [], "offset": 0, "total": 0, "waiting": []}
    assert replies.parse_reply({"type": "tables", **page, "push": True}) == \
        replies.Tables({**page, "push": True})
    assert replies.parse_reply({"type": "news", "text": "hi"}) is None  # a later kind
    for wrong in ({"type": "joined", "seat": 0}, {"type": "joined", "table": 5, "seat": 0},
                  {"type": "state", "table": "t1", "seat": True},
                  {"type": "chat", "table": "t1", "name": {"a": 1}, "text": "hi"}):
        with pytest.raises(replies.ReplyError):
            replies.parse_reply(wrong)
