"""tricktable: classic trick-taking games against three computer players."""

__version__ = "0.1.0"
