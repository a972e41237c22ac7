"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters over :mod:`perudo.core`.

Install with ``pip install perudo[research]``. Each adapter is a thin translation: legal
actions, transitions and outcomes come from the core (``legal_actions``, ``apply``), actions
are the dense ids of :mod:`perudo.core.encoding`, and observations are built from a seat's
:func:`perudo.core.view` only (P-70). See ``docs/research.md``.
"""
