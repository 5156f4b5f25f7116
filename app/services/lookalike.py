"""One key for names that look alike, so nobody signs up twice as "Alice", "Ａｌｉｃｅ",
"alice", "Al ice" or "Аlice" (a Cyrillic А), nor takes a seat in another's name.

The key: NFKC, case folded, accents dropped, look-alike letters from other scripts and
digits that pass for letters mapped to one, and everything but letters and digits removed.
Chinese names pass through unchanged but for their width and spaces.
"""

from __future__ import annotations

import unicodedata

# Letters of other scripts (and digits) that pass for Latin letters.
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d",
        "ɡ": "g", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "0": "o", "1": "l", "|": "l",
        "5": "s", "$": "s", "@": "a", "ı": "i",
    }
)  # fmt: skip


def lookalike_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    text = text.translate(_CONFUSABLES).replace("i", "l")  # "I" / "l" / "1" alike
    kept = "".join(c for c in text if c.isalnum())
    return (kept or text.strip())[:100]
