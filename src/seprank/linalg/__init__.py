"""Linear algebra: the rank front door, its engines, certificates and verifier."""

from seprank.linalg.frontdoor import METHODS, rank
from seprank.linalg.kinds import KINDS
from seprank.linalg.planner import RankPlan, plan_rank
from seprank.linalg.result import RankResult
from seprank.linalg.verifier.verify import verify

__all__ = ["rank", "plan_rank", "RankPlan", "verify", "RankResult", "METHODS", "KINDS"]
