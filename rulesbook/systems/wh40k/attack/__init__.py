"""The attack: one unit's weapons against one unit, exactly — the weapon and target profiles,
the rolls of one attack, the situation's weapon abilities, the allocation engine (a uniform unit,
a unit of several model groups), its floating-point twin and its cost model."""
