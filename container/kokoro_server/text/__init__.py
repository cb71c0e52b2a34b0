"""Where text is read: what a voice says for a written text, before any audio is made.

Normalizing (amounts, dates, units in words: ``normalize``, ``normalize_words``, ``spoken``), reading a
text for a voice (its language, what is skipped, its phonemes with the lexicon: ``reading``) and where
each written word falls among the phonemes (``word_timing``). Nothing here loads a model or serves a
request.
"""
