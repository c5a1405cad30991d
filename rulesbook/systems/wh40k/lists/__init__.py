"""Army lists: a player's roster (BattleScribe, New Recruit) as a faction whose units the
calculators take (:mod:`.army`), and two lists against each other (:mod:`.matchup`)."""
