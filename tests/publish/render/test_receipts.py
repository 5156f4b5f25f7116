"""The receipt formula, with the README's worked example (so the README stays true)."""

from __future__ import annotations

import hashlib
import hmac
import re

from app.publish.receipts import canonical_orders, receipt, salt

ORDERS = [{"id": "7f3c2a", "type": "deploy", "body": {"type": "deploy", "troops": [4, 7, 8, 6, 5]}}]


def test_the_readme_example() -> None:
    s = salt("example-seed", "r0-deployment", "A")
    assert s == "767bb279d6c87288cef068dc38be5c7a40c8b0c750b3555aa48a653ce6729034"
    assert canonical_orders(ORDERS) == (
        '[{"body":{"troops":[4,7,8,6,5],"type":"deploy"},"id":"7f3c2a","type":"deploy"}]'
    )
    assert receipt(s, ORDERS) == "b7f5c35337afa30a91889d80202691eb0d903e95914cc12b800bf0adca6a6e53"


def test_salt_is_hmac_of_the_seed_and_receipt_is_salted_sha256() -> None:
    expected_salt = hmac.new(b"s33d", b"receipt|d2|p1", hashlib.sha256).hexdigest()
    assert salt("s33d", "d2", "p1") == expected_salt
    assert receipt(expected_salt, []) == hashlib.sha256(f"{expected_salt}:[]".encode()).hexdigest()


def test_no_orders_still_differ_per_owner_and_phase() -> None:
    """An empty receipt tells nothing: it differs for every owner and phase."""
    seen = {
        receipt(salt("s", key, owner), []) for key in ("r1-command", "r1-battle") for owner in "AB"
    }
    assert len(seen) == 4


def test_receipts_are_short_lines_at_the_end_of_each_close_with_the_details_folded() -> None:
    """A reader sees one line per close, at the end of that close's own post (a close adds
    no post), and where to check it: no JSON, no shell, no salts, the pages' word 收据;
    BBCode folds the full receipts, the others link /g/<id>."""
    from tests.publish.render.engine_runs import island_day, team_battle_game
    from tests.publish.render.golden_posts import game_posts

    for run in (team_battle_game(), island_day()):
        info = run.info()
        posts = game_posts(run, "zh")
        assert not [p for p in posts if p.kind == "receipts"]
        found = [p for p in posts if "封存为收据" in p.bodies["text"]]
        closes = sum(1 for b in run.batches for e in b.events if e.kind == "orders_sealed")
        assert len(found) == closes > 0
        for post in found:
            for name, body in post.bodies.items():
                receipts = body[body.index("收据") - 10 :]
                for bad in ("{", "sha256sum", "printf", "盐", "回执", "每一方"):
                    assert bad not in receipts, (name, bad, receipts)
                assert f"/g/{info.id}?verify=1" in receipts
                assert len(receipts.split("\n")) <= 12 or name == "bbcode"
            whole = re.compile(r"[0-9a-f]{64}")
            assert not whole.search(post.bodies["markdown"] + post.bodies["text"])
            outside = re.sub(r"\[spoiler=.*?\[/spoiler\]", "", post.bodies["bbcode"], flags=re.S)
            assert not whole.search(outside)
            assert not whole.search(post.bodies["bbcode"])  # in groups that wrap on a phone
