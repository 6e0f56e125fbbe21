"""The lab: the tools that measure the product (self-play statistics, the benches,
the arena of duplicate deals, decision times), for developers (``tricktable-lab``).

It imports the product and is never imported by it (``make test`` checks the layers
with import-linter); the product's package ships without it.
"""
