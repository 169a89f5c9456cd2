"""The checks of wies2021 (mission-map rows of the paper seprank.papers.wies2021)."""
