"""Map of the bundled text of chapter7: its sections and numbered displays, by line.

Written by ``docs/paper_maps.py`` from ``tensors_for_dl_theory_chapter7.txt``
(389 lines); do not edit by hand (fix the script's ``FIXES`` and rerun it).
Facts only: section labels and headings, display numbers, line numbers (1-based,
inclusive). Used by citations (:meth:`seprank.paper_hooks.paper_record.Paper.locate`), never to read
the text.
"""

from seprank.paper_hooks.outline import Outline

__all__ = ["OUTLINE"]

OUTLINE = Outline.from_rows(
    'tensors_for_dl_theory_chapter7.txt',
    389,
    [  # (label, heading, first line, last line)
        ('7.1', 'Introduction', 9, 48),
        ('7.2', "Bounding a function's expressivity via tensorization", 49, 191),
        ('7.3', 'A case study: self-attention networks', 192, 389),
        ('7.3.1', 'The self-attention mechanism', 194, 306),
        ('7.3.2', 'Self-attention architecture expressivity questions', 307, 336),
        ('7.3.3', 'Results on the operation of self-attention', 337, 389),
    ],
    [  # (display number, first line, last line)
        ('7.5', 243, 243),
        ('7.6', 249, 249),
        ('7.7', 256, 256),
        ('7.8', 270, 270),
        ('7.9', 323, 323),
        ('7.10', 347, 347),
        ('7.11', 357, 357),
        ('7.12', 369, 369),
        ('7.13', 375, 375),
    ],
    digest='b0b49b1e25cec542',
)
