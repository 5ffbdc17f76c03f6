"""Checks of the repository itself: document bounds and the include graph."""
