"""LANGUAGE-TARGETS.md sentences stated in Meeplang as small games, one test per target."""
