"""Meeplang: a declarative rules language for modern board games."""
__version__ = "0.1.0"
