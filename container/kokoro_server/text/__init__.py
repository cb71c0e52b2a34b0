"""Where text is read: what a voice says for a written text, before any audio is made.

Normalizing (amounts, dates, units in words: ``normalize``, which splits the text into ``tokens``, finds what
each span is with the ``tagger`` and says it with the voice's verbalizer, ``say_english``, ``say_romance`` or
``say_signs``), reading a text for a voice (what is skipped, the lexicon: ``reading``), each language's phonemes
as the model was trained (``g2p``) and where each written word falls among them (``word_timing``). Nothing
here loads a model or serves a request.
"""
