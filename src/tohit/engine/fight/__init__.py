"""Fights: whole encounters, state changed only by events, narrated, simulated in batches, exact for duels."""
