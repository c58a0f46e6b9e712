"""What to cite: the RUBY and CrystalBLEU papers, as BibTeX (``ruby-metric --cite``)."""

from __future__ import annotations

__all__ = ["BIBTEX"]

#: BibTeX entries of the two papers whose metrics ``ruby-metric`` implements.
BIBTEX = """\
@inproceedings{tran2019ruby,
  author    = {Tran, Ngoc and Tran, Hieu and Nguyen, Son and Nguyen, Hoan and Nguyen, Tien N.},
  title     = {Does {BLEU} Score Work for Code Migration?},
  booktitle = {Proceedings of the 27th IEEE/ACM International Conference on Program
               Comprehension (ICPC)},
  year      = {2019},
  publisher = {IEEE}
}

@inproceedings{eghbali2022crystalbleu,
  author    = {Eghbali, Aryaz and Pradel, Michael},
  title     = {{CrystalBLEU}: Precisely and Efficiently Measuring the Similarity of Code},
  booktitle = {37th IEEE/ACM International Conference on Automated Software Engineering
               (ASE '22)},
  year      = {2022},
  address   = {Rochester, MI, USA},
  publisher = {ACM},
  doi       = {10.1145/3551349.3556903}
}
"""
