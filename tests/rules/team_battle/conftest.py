"""Team Battle rule tests: pure, no database, no sleeping."""

import sys
from pathlib import Path

# The project is not installed into the virtualenv; make ``app`` importable however
# pytest is started (until pyproject gains ``pythonpath = ["."]``).
_ROOT = Path(__file__).resolve().parents[3]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))
