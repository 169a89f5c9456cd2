"""Map of the bundled text of amsel: its sections and numbered displays, by line.

Written by ``docs/paper_maps.py`` from ``amsel_benefits_of_rank_talk.txt``
(921 lines); do not edit by hand (fix the script's ``FIXES`` and rerun it).
Facts only: section labels and headings, display numbers, line numbers (1-based,
inclusive). Used by citations (:meth:`seprank.paper_hooks.paper_record.Paper.locate`), never to read
the text.
"""

from seprank.paper_hooks.outline import Outline

__all__ = ["OUTLINE"]

OUTLINE = Outline.from_rows(
    'amsel_benefits_of_rank_talk.txt',
    921,
    [  # (label, heading, first line, last line)
        ('', 'Benefits of Rank in Attention Layers', 3, 11),
        ('', 'Motivation', 12, 77),
        ('', 'Ancient History', 78, 173),
        ('', 'Singe-head Attention', 174, 215),
        ('', 'Multi-head Attention', 216, 293),
        ('', 'Back to Garg et al', 294, 317),
        ('', 'More Garg et al', 318, 323),
        ('', 'Theory papers assume full-rank', 324, 335),
        ('', 'Related Work', 336, 337),
        ('', 'Depth Separation for MLPs', 338, 373),
        ('', 'Separations in Expressive Power', 374, 388),
        ('', 'Another rank separation result', 389, 451),
        ('', 'Nearest Neighbor Function', 452, 490),
        ('', 'Target Function: Nearest Neighbor', 491, 506),
        ('', 'Upper Bound', 507, 516),
        ('', 'Lower Bound (Informal)', 517, 538),
        ('', 'Generalizing Attention', 539, 562),
        ('', 'Proof Sketch', 563, 566),
        ('', 'Reduction to Scalar Function on S^{d-1} x S^{d-1}', 567, 594),
        ('', 'Representing sgn(x^T y) using rank-1 features', 595, 647),
        ('', 'Spherical Harmonics', 648, 675),
        ('', 'Expansion of sgn(x^T y)', 676, 690),
        ('', 'Expansion of the head functions', 691, 701),
        ('', 'Combining', 702, 719),
        ('', 'Lower Bound', 720, 745),
        ('', 'Alternative Lower Bound', 746, 765),
        ('', 'What about more layers?', 766, 782),
        ('', 'Modified Attention Construction: L = 2, N = 2', 783, 832),
        ('', 'Experiments', 833, 834),
        ('', 'Experimental Setup', 835, 870),
        ('', 'What does full-rank attention learn?', 871, 888),
        ('', 'Modifying Attention', 889, 903),
        ('', 'Role of N', 904, 911),
        ('', 'Conclusion', 912, 915),
        ('', 'Open / in progress', 916, 921),
    ],
    [  # (display number, first line, last line)
    ],
    digest='cc73440731ba0568',
    name='Amsel (talk)',
    unit='slide',
)
