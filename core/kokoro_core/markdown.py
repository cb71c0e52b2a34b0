"""Text written for reading, made into text for hearing: the one markdown rule of the client and the server.

Agents answer in markdown. Read as written, ``**bold**`` is said "asterisk asterisk bold", a link is
said with its URL and a code block is said symbol by symbol. So, on every route:

- fenced code blocks (```` ``` ```` or ``~~~``) are not read out (an unclosed one runs to the end);
  inline `code` loses its backticks;
- emphasis marks (``**bold**``, ``*italic*``, ``__x__``, ``_x_``) are dropped, keeping the words; a mark
  inside a word or between spaces is not emphasis (``snake_case``, ``2*3``, ``5 * 3`` stay as written), nor
  is the star of a keypad's code (``*67``);
- heading marks (``#``), bullets (``-``, ``*``, ``•``, ``+``) and quote marks (``>``) at the start of a line
  are dropped, nested ones together; numbered items keep their numbers; a ``>`` or a ``+`` before a number is
  a comparison or a sign, and stays (``>99% of calls``);
- a link ``[text](url)`` is read as its text; a bare URL as its host name ("example.com");
- table rules are dropped and table pipes become pauses.

Every step is one regular-expression pass with bounded look-around: linear in the text, whatever it holds. What
a reading gives of what an agent writes reads the same again (a property test holds it to this), so a sentence
the client read and the server reads again is said as the client read it.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.MULTILINE)
# A fenced block: from its opening line to its closing fence, or to the end of the text.
_FENCED_BLOCK = re.compile(r"^[ \t]*(```|~~~)[^\n]*(?:\n.*?^[ \t]*\1[ \t]*$|.*\Z)", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`((?:[^`\n]|\n(?!\n))*)`")  # it may wrap, as a sentence does, but not span a paragraph
_LINK = re.compile(r"\[([^\[\]\n]+)\]\([^()\s]+\)")
# A bare URL, its path up to (not including) the punctuation that ends the sentence around it.
_URL = re.compile(r"(?<![^\W_])(?:https?://|www\.)([A-Za-z0-9.-]*[A-Za-z0-9])(?:[/?#](?:[^\s)]*[^\s).,;:!?'\"])?)?")
# Keys of a telephone's keypad ("*67", "*#06#", "#31#"): a service code, whose star is no emphasis mark (nor is
# its hash a heading's), unless a closing star follows on its line: "*67*" and "*10 items* left" are emphasis.
KEYPAD = r"\*(?!\*)[*#\d]{0,11}\d[#\d]{0,11}|\*?#[*#\d]{0,11}\d[*#\d]{0,11}#"
# An emphasis mark opens before a word (not inside one) or closes after one; the run is at most three long.
CLOSING_STAR = r"[^*\n]{0,200}[^\s*]\*(?![\w*])"  # an emphasis's closing star, later on its line
_EMPHASIS = re.compile(
    rf"(?<![\w*])(?!(?:{KEYPAD})(?![\w*#])(?!{CLOSING_STAR}))[*_]{{1,3}}(?=[^\s*_])|(?<=[^\s*_])[*_]{{1,3}}(?![\w*])"
)
# Marks that open a line: a heading's, a bullet, a quote's, a table row's pipe. They nest ("> - item",
# "- > quote", "- | a | b |"), so a line's run of them goes at once. Before a number, ">" compares (">99% of
# calls", "- > 50 ms") and "+" adds ("- + 5 points"): they stay. Each mark is one character run, and only the
# space after it repeats: linear.
_LINE_MARKS = re.compile(
    r"^[ \t]*(?:(?:#{1,6}(?=[ \t]|$)|[-*•](?=[ \t]|$)|\+(?=[ \t]|$)(?![ \t]*\d)|>(?![ \t]*[\d=.$€£])|\|)[ \t]*)+",
    re.MULTILINE,
)
# A run of spaces before a pipe is matched from its start only ("(?<![ \t])"): a match tried inside it would scan
# it again.
_TABLE_RULE = re.compile(r"^[ \t]*(?:\|[ \t]*)?:?-{3,}[-:| \t]*$", re.MULTILINE)
_PIPES = re.compile(r"(?:(?<![ \t])[ \t]+)?\|[ \t]*")
_LAST_PIPE = re.compile(r"(?:(?<![ \t])[ \t]+)?\|[ \t]*$", re.MULTILINE)  # a row's first is a line mark
_SPACES = re.compile(r"[ \t\f\v]+")
_SPACED_LINE = re.compile(r"^ +| +$", re.MULTILINE)


def without_code_blocks(text: str) -> str:
    """``text`` without its fenced code blocks (an unclosed block runs to the end)."""
    return _FENCED_BLOCK.sub("", text)


def spoken_from_markdown(text: str) -> str:
    """A markdown text as the words to say: code blocks, marks and URLs gone, line breaks kept (each
    list item or heading stays its own sentence). May return ''."""
    return _spoken(without_code_blocks(text))


class CodeFences:
    """For text that arrives sentence by sentence: which parts lie outside fenced code blocks, a block
    possibly spanning many sentences (``without_code_blocks`` for a whole text)."""

    def __init__(self) -> None:
        self.inside = False  # the text so far left a block open

    def outside(self, sentence: str) -> list[str]:
        """The parts of ``sentence`` outside fenced code blocks, given the sentences before it."""
        pieces, position = [], 0
        for fence in _FENCE.finditer(sentence):
            if not self.inside:
                pieces.append(sentence[position : fence.start()])
            self.inside = not self.inside
            line_end = sentence.find("\n", fence.end())
            position = len(sentence) if line_end < 0 else line_end + 1  # the fence line names a language
        if not self.inside:
            pieces.append(sentence[position:])
        return pieces


def spoken_sentence(sentence: str) -> str:
    """One sentence (no code block in it) as the words to say, on one line. May return ''."""
    return " ".join(_spoken(sentence).split())


def _spoken(text: str) -> str:
    text = _LINK.sub(r"\1", text)
    text = _URL.sub(lambda m: m.group(1).removeprefix("www."), text)
    text = _INLINE_CODE.sub(r"\1", text)
    text = _TABLE_RULE.sub("", text)
    text = _EMPHASIS.sub("", text)
    text = _LAST_PIPE.sub("", text)
    text = _LINE_MARKS.sub("", text)  # after emphasis and a row's pipes, which may hide one ("*> quote*")
    text = _PIPES.sub(", ", text)
    return _SPACED_LINE.sub("", _SPACES.sub(" ", text)).strip()
