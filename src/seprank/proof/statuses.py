"""The two closed vocabularies of a check: its verdict and its steps' statuses.

A check's *verdict* judges the printed text (verified / refuted / inconclusive); a
step's *status* is passed / failed / inconclusive / error (``inconclusive`` is in
both). Their own module, because both the step framework
(:mod:`seprank.proof.framework`) and the claim rules (:mod:`seprank.proof.claims`)
speak them.

>>> VERDICTS, STEP_STATUSES
(('verified', 'refuted', 'inconclusive'), ('passed', 'failed', 'inconclusive', 'error'))
"""

__all__ = ["VERIFIED", "REFUTED", "INCONCLUSIVE", "VERDICTS", "PASSED", "FAILED", "ERROR",
           "STEP_STATUSES"]

# check verdicts
VERIFIED = "verified"
REFUTED = "refuted"
INCONCLUSIVE = "inconclusive"
VERDICTS = (VERIFIED, REFUTED, INCONCLUSIVE)

# step statuses (INCONCLUSIVE is shared between the two vocabularies)
PASSED = "passed"
FAILED = "failed"
ERROR = "error"
STEP_STATUSES = (PASSED, FAILED, INCONCLUSIVE, ERROR)
