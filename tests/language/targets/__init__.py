"""The language targets (rule sentences of the four rulebooks) stated in Meeplang as small games,
one test per target; docs/language-targets.md rates each."""
