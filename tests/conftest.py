"""Shared test settings.

Hypothesis runs derandomized (the same examples on every run), so a failure on CI
reproduces locally; property tests choose their own ``max_examples``.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "tricktable",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("tricktable")
