"""levine2020's displayed equations, checked one by one: the proof of Theorem 3
(:mod:`~.thm3`), Theorem 4 (:mod:`~.thm4`), the residual theorems (:mod:`~.residual`)
and appendix B.2 (:mod:`~.b2`)."""
