"""Processes: serving in several workers, steering connections to them."""
