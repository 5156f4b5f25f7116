"""A toy game under ``tests/``: the proof that a game is a plug-in.

猜拳对决 / a rock-paper-scissors duel, registered at test time with
``app.rules.registry.register(RULESET, PRESENTATION)`` and played end to end without a line of
``app/`` knowing it. Its rules core is :mod:`tests.toy.engine`, its catalogue
:mod:`tests.toy.words`, its presentation :mod:`tests.toy.present`.
"""
