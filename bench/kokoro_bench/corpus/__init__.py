"""The bench's texts: the agent replies (the capacity package's, ``kokoro_capacity.corpus``, which drives
the same replies against an endpoint) and the sentences of the languages bench (``languages.json``)."""

from kokoro_capacity.corpus import AGENT_REPLIES, load_replies

__all__ = ["AGENT_REPLIES", "load_replies"]
