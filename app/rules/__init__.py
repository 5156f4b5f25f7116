"""The functional core: pure, deterministic rulesets. See base.py for the contract."""
