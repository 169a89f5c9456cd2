"""The checks of chapter7 (mission-map rows of the paper seprank.papers.chapter7)."""
