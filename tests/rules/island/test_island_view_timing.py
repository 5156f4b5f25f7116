"""A player's or the public view never changes because someone else acted in secret: not even
the time of the last step (it would tell when a hidden order was posted)."""

from __future__ import annotations

from island_testkit import Game, local, settings

from app.rules.base import DIRECTOR_VIEWER, Viewer
from app.rules.island import RULESET


def test_hidden_orders_elsewhere_leave_other_views_identical() -> None:
    g = Game(settings(start_positions={"1": [1, 1], "2": [4, 4], "3": [4, 4]}), n=3)
    g.start(local(9))
    public = RULESET.view(g.state, Viewer(role="public"))
    outsider = g.view("p1")
    g.order("p2", {"type": "assassinate", "target": "p3"}, now=local(12))
    g.order("p3", {"type": "guard", "target": "p2"}, now=local(13))
    g.order("p3", {"type": "move", "direction": "up", "hidden": True}, now=local(14))
    assert RULESET.view(g.state, Viewer(role="public")) == public
    assert g.view("p1") == outsider
    # The director still sees when the game last changed.
    assert RULESET.view(g.state, DIRECTOR_VIEWER)["as_of"] == local(14).isoformat()
