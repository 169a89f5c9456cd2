"""The paper wings: one package per paper, over the generic core of seprank.

Each wing ``seprank.papers.<key>`` holds one paper's knowledge: its
:class:`~seprank.paper_hooks.paper_record.Paper` (``PAPER``, the full reference), its bounds,
the identities its proofs display, and the constructions only its checks use.
A wing may import the core (every module of ``seprank`` outside this package)
but never another wing, and the core never imports a wing: a wing declares its
hooks (``HOOKS``: hook name -> ``"module:function"``), and the core reaches
them through :mod:`seprank.paper_hooks`, which finds the wings by the
``seprank.papers`` entry-point group (see ``docs/extending.md``).

This package module imports nothing, so that loading one wing loads no other.
"""
