"""The calculators of the 40k system: the attack calculators and their one path, the datasheet
attack, the single-roll tests, morale after an attack, the Grenade Stratagem, moves and charges."""
