"""The checks of levine2020 (mission-map rows of the paper seprank.papers.levine2020)."""
