"""Factions as data: the typed values of a faction page, its file (read and written), a
variant's added entries, a datasheet's unit in the engine's terms, the rule pages of its
entries, and both sides' rules applied to one attack."""
