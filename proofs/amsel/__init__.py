"""The checks of amsel (mission-map rows of the paper seprank.papers.amsel)."""
