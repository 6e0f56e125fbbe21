"""The games' rules, one package per game or family, each below the computer players
and independent of the others; ``tricktable.catalog`` lists them."""
