"""What the speech server, its clients and the deployment share: the protocol, the sentence segmenter and
chunk planner, what of a text is said (markdown, speakable), audio formats, options, the lexicon, metric names
and the model-cache contract. Standard library and pydantic only."""
