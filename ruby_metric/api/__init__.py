"""What a Python user calls: :class:`RubyScorer` (one pair, a corpus, a stream, explain) and the
:class:`Explanation` it returns. It ties the layers below together: tiers, batches, pages."""
