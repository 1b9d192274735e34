"""What scoring tells the concerns above it, which it does not import.

``results_changed`` is sent, inside the write's transaction, when a match's result came,
changed or went (finished, reopened by an undo, deleted): history rebuilds the ratings
that the result fed (``matches.history.services``). Arguments: ``clubs``, the clubs whose
players sat at the match, and ``game``, the match's game.
"""

from django.dispatch import Signal

results_changed = Signal()
