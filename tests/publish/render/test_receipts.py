"""The receipt formula, with the README's worked example (so the README stays true)."""

from __future__ import annotations

import hashlib
import hmac

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
