"""The checks of rank_collapse (mission-map rows of the paper seprank.papers.rank_collapse)."""
