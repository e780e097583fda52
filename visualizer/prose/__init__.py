"""Rules as prose: sentences made from the Game model with one template per construct and
language (`en.py`, `fr.py`), for `meeplang explain` and the boxes of diagrams."""
from .document import FORMATS, Explanation, explain
from .sentences import Line, MissingTemplate, Sentences, TEMPLATES

__all__ = ["FORMATS", "Explanation", "Line", "MissingTemplate", "Sentences", "TEMPLATES", "explain"]
