"""Team Battle's orders, one module per family, each order's checks and effects side by side;
``table.py`` finds them by type. What each order *is* (its phase, tier, cost, target) is
declared in :mod:`app.rules.team_battle.order_types`, which everything else reads."""
