"""The effects language of 40k: what a declared effect is, each effect kind declared once, and
the rule texts recognised as effects."""
