"""Map of the bundled text of rank_collapse: its sections and numbered displays, by line.

Written by ``docs/paper_maps.py`` from ``rank_collapse_notes.txt``
(132 lines); do not edit by hand (fix the script's ``FIXES`` and rerun it).
Facts only: section labels and headings, display numbers, line numbers (1-based,
inclusive). Used by citations (:meth:`seprank.paper_hooks.paper_record.Paper.locate`), never to read
the text.
"""

from seprank.paper_hooks.outline import Outline

__all__ = ["OUTLINE"]

OUTLINE = Outline.from_rows(
    'rank_collapse_notes.txt',
    132,
    [  # (label, heading, first line, last line)
        ('', 'Contents', 9, 16),
        ('2', 'Bound of the "Losing Rank" Rate', 17, 132),
        ('2.1', 'Structure and Path Decomposing', 19, 65),
        ('2.2', 'Bound', 66, 83),
        ('2.3', 'Complexity of Self-Attention', 84, 107),
        ('2.4', 'Some Problem in the Papers', 108, 132),
    ],
    [  # (display number, first line, last line)
        ('6', 112, 113),
        ('7', 115, 116),
        ('8', 118, 119),
        ('9', 121, 122),
        ('10', 124, 125),
    ],
    digest='31dacf3124fc37ba',
    name='Xie 2021',
)
