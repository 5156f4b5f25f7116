"""Optional accounts (issue 21): passkeys only, gathering a person's seats across games.

Nothing in a game depends on an account: the per-game tokens and invite-born sessions stay
the base (bots and scripts use them). An account only remembers which seats its person holds
(``AccountSeat``), so "my games" follows them to a new device, and lets them act in all of
those games with one personal token.
"""
