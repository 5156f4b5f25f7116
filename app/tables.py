"""Every table of the service in one metadata, for the code that needs all of them at once
(the migrations' autogenerate target, the tests that empty the database).

The core tables are in app/models.py; the forum bridge's and the publishing tables live beside
their code and import ``Base`` from there. Importing their modules here registers them with
``Base.metadata``; app/models.py itself imports none of them, so the imports go one way.
"""

from __future__ import annotations

from sqlalchemy import MetaData

from app.accounts import models as _account_models  # noqa: F401
from app.bridge import models as _bridge_models  # noqa: F401
from app.chat import models as _chat_models  # noqa: F401
from app.models import Base
from app.publish import models as _publish_models  # noqa: F401
from app.services import signup_models as _signup_models  # noqa: F401

METADATA: MetaData = Base.metadata

__all__ = ["METADATA"]
