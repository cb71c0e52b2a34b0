"""Where text is read: what a voice says for a written text, before any audio is made.

Normalizing (amounts, dates, units in words: ``normalize`` and ``normalize_words``, ``spoken`` for English;
``normalize_romance`` for Spanish, French, Italian and Portuguese; ``normalize_signs`` for Hindi and
Japanese), reading a text for a voice (what is skipped, the lexicon: ``reading``), each language's phonemes
as the model was trained (``g2p``) and where each written word falls among them (``word_timing``). Nothing
here loads a model or serves a request.
"""
