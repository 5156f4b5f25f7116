"""Posts never depend on what the public may not know.

The same public orders are played with different hidden orders, deployments and private
actions: every post up to the moment the rules reveal something is byte-identical. The
only posts that differ are receipts, whose digests are commitments (a salted SHA-256 that
says nothing until its salt is published): they are compared with the digests masked.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from app.publish.render import PostDraft, posts_for_events
from tests.publish.render.engine_runs import (
    Run,
    island_day,
    island_private,
    tb_hidden_orders,
    team_battle_game,
)

# A receipt, whole or shortened for the thread: it changes with the orders (salted, so
# it tells nothing of them), so it is masked.
DIGEST = re.compile(r"[0-9a-f]{64}|[0-9a-f]{12}…|(?:[0-9a-f]{16} ){3}[0-9a-f]{16}")


def posts_until(run: Run, stop: set[str] | None = None) -> list[tuple[str, str, str]]:
    """(kind, format, body) of every post of every step before the first step whose
    public events include a kind in ``stop`` (all steps when ``stop`` is None)."""
    info = run.info(public_url="https://play.example.org")
    out: list[tuple[str, str, str]] = []
    for batch in run.batches:
        if stop and any(e.kind in stop for e in batch.events):
            break
        for post in posts_for_events(info, batch.events, batch.deadline):
            out.extend(_entries(post))
    return out


def _entries(post: PostDraft) -> list[tuple[str, str, str]]:
    return [(post.kind, fmt, body) for fmt, body in post.bodies.items()]


def masked(posts: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Receipt digests and order ids hidden: what a reader cannot tell apart anyway."""
    out = []
    for kind, fmt, body in posts:  # receipts end the posts of their closes
        body = DIGEST.sub("<digest>", body)
        body = re.sub(r'"id":"o\d+"', '"id":"<id>"', body)
        out.append((kind, fmt, body))
    return out


def plain_posts(posts: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The posts with their receipts blanked: a receipt is the one thing hidden orders
    change (into something no one can read without the salt); nothing else may differ."""
    return masked(posts)


BASE_TB = team_battle_game(hidden=tb_hidden_orders(0))
REVEALS = {"round_resolved", "game_over"}


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=1, max_value=40))
def test_hidden_orders_change_no_post_before_the_round_is_resolved(choice: int) -> None:
    """Counter, Blood Battle, Rest, Scout, Hold, Stand Firm, Spy, Battle Rest — or none:
    every post before the first resolution is the same, byte for byte."""
    other = team_battle_game(hidden=tb_hidden_orders(choice))
    base, seen = posts_until(BASE_TB, REVEALS), posts_until(other, REVEALS)
    assert plain_posts(seen) == plain_posts(base)
    assert masked(seen) == masked(base)
    # The start, the deployments revealed, four phases opened, each in three formats; the
    # closes' receipts in them.
    assert len(base) >= 18
    assert sum("封存为收据" in body for _kind, _fmt, body in base) >= 9


@settings(max_examples=6, deadline=None)
@given(
    # Four cut points split 30 troops into five slots of at least one (TB-10).
    st.lists(st.integers(min_value=1, max_value=29), min_size=4, max_size=4, unique=True).map(
        lambda cuts: [b - a for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), 30], strict=True)]
    )
)
def test_a_deployment_changes_no_post_until_deployments_are_revealed(troops: list[int]) -> None:
    """TB-10: deployments are secret until both are revealed together."""
    base = team_battle_game(deploy_b=[6, 6, 6, 6, 6])
    other = team_battle_game(deploy_b=troops)
    stop = {"deployment_revealed"}
    assert masked(posts_until(other, stop)) == masked(posts_until(base, stop))
    revealed = [e.data for b in other.batches for e in b.events if e.kind == "deployment_revealed"]
    assert revealed[0]["B"] == troops  # and then the post does show them


@settings(max_examples=4, deadline=None)
@given(st.integers(min_value=1, max_value=3))
def test_private_moves_explores_and_stamina_change_no_island_post(choice: int) -> None:
    """Hidden moves, explores and the stamina they spend are private: the PK result, the
    24:00 report and the end read the same (IS-10, IS-12, IS-55)."""
    base = island_day(private=island_private(0))
    other = island_day(private=island_private(choice))
    assert plain_posts(posts_until(other)) == plain_posts(posts_until(base))
    assert masked(posts_until(other)) == masked(posts_until(base))


def test_no_post_before_the_end_names_a_hidden_order() -> None:
    """Hidden orders' ids and bodies appear in posts only once the game reveals them
    (deployments are revealed, with their receipts opened, when deployment closes)."""
    run = team_battle_game()
    hidden_ids = {
        e.data["order_id"]
        for e, _ in run.all_events
        if e.kind == "order_submitted" and e.data["type"] in ("counter", "hold")
    }
    assert hidden_ids
    before_end = posts_until(run, {"game_over"})
    for _kind, _fmt, body in before_end:
        for order_id in hidden_ids:
            assert f'"id":"{order_id}"' not in body
    # The hidden Counter took effect in round 1: its result (not its id) is public then.
    assert any("反击" in body for kind, _f, body in before_end if kind == "round_result")


def test_island_posts_never_show_a_private_event() -> None:
    """Explores, hidden moves, night reports and assassination orders are not in any post
    until the end; stamina never is."""
    run = island_day(private=island_private(2))
    private_kinds = {e.kind for e, _ in run.all_events if "public" not in e.audience}
    assert {"explored", "night_report", "order_posted", "placed"} <= private_kinds
    before_end = posts_until(run, {"game_over"})
    assert before_end
    for _kind, _fmt, body in before_end:
        assert "assassinate" not in body and "guard" not in body
        assert "stamina" not in body.lower().replace("stamina per day", "")
