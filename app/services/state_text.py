"""A state as the text stored (and hashed): ``serialize_state``, re-exported by
``app.services.steps``."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from app.models import SerializedJSON


def serialize_state(state: Any) -> SerializedJSON:
    """The state as stored: key order kept (the engine's own), so what is read back and
    what replay computes are the same document.

    The text is ``json.dumps(state, ensure_ascii=False, separators=(",", ":"))``, byte for
    byte (the stored steps' hashes are of it). orjson writes the same text ten times
    faster except for what it refuses (an integer beyond 64 bits, a non-string key, a lone
    surrogate, anything not plain JSON) and for floats it spells otherwise (a one-digit
    exponent, ``0.00001`` for ``1e-05``). Those go the slow way, as does any text that
    merely looks like one. (NaN and infinities, which are not JSON and which
    PostgreSQL refuses, would be written ``null``.)"""
    try:
        fast = orjson.dumps(state, option=_ORJSON_STRICT)
    except TypeError:
        fast = None
    if fast is None or _SPELT_OTHERWISE.search(fast):
        return SerializedJSON(json.dumps(state, ensure_ascii=False, separators=(",", ":")))
    return SerializedJSON(fast.decode("utf-8"))


# Only plain JSON types: a datetime, dataclass or subclass of str/int/dict goes to json.
_ORJSON_STRICT = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
# Where orjson's text could differ from json's: a one-digit exponent (``1e-9``, json
# ``1e-09``) or a float between 1e-5 and 1e-4 (``0.00001``, json ``1e-05``).
_SPELT_OTHERWISE = re.compile(rb"e[-+][0-9](?![0-9])|\.0000")
