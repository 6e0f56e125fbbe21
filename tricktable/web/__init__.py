"""The web page (static HTML/CSS/JS, no build step), served by tricktable.server."""
