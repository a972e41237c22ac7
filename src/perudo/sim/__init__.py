"""Simulation: playing whole games with bots (``match``) and many games at once (``batch``)."""
