"""The fight contract: what a game writes to be fought (rules, state arrays, events), below the engine."""
