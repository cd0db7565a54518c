"""Authoring: lesson scripts, building notebooks, releasing, stored self-check values, proofs."""
