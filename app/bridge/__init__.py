"""The forum bridge: players' public orders read from the game's forum thread."""
