"""One module per phase of a round (CON-03): legal actions and their effects."""
