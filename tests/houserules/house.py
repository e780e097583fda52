"""The three-change New Eden house rule the diff and the drawing tests share: an income (the
power plant's), a limit (its uses per round) and a points table (passing at 3 players)."""

HOUSE = """variant: house
extends: new-eden
tables:
  plant_income: 6
  passing_points: {3: [4, 2, 0]}
actions:
  power_plant:
    limit: {times: 2}
"""
