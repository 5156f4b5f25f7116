"""The imperative shell: one function per use case, all inside the caller's transaction.

Services never commit; ``app.api.deps.run`` (requests) and ``app.scheduler`` (timers)
open the transaction and commit in one place.
"""
