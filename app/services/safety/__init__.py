"""A director's safety net (issue 22): undo resolutions in public, preview irreversible
actions, fork a private sandbox. See undo.py, sandbox.py and history.py."""
