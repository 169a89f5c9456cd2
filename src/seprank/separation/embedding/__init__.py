"""Separation ranks behind wies2021's input embeddings (vocabulary eq. (1), convolution
eq. (2)) at a finite N: the ``embedding`` route of the front door
(:data:`seprank.separation.embedding.route.ROUTE`; ``separation_rank(..., embedding=E)``,
or :func:`seprank.separation.embedding.route.embedded_separation_rank`).

The N -> infinity limit of the same networks is the moment route's
(:mod:`seprank.separation.moment.embedding`).
"""
