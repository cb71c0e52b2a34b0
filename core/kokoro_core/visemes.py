"""Visemes: the mouth shape of each phoneme the model speaks, for lip-sync and talking avatars.

The ids are Microsoft Azure Speech's 22 viseme ids (``VISEMES``), so an avatar rig made for Azure's
viseme events animates from ours unchanged. ``phoneme_groups`` cuts the model's tokens (one character
each) into the phonemes a listener hears, with the range of tokens each one covers: a stress mark joins
the phoneme after it, a length mark or modifier the one before, and a diphthong or affricate is one
phoneme. ``viseme_of`` gives a phoneme's viseme id; every symbol of the model's vocabulary has one, in
every language it speaks, and it never raises.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

# Azure's documented en-US viseme ids, each as "mouth shape: example phonemes" (docs/visemes.md shows them).
VISEMES: Mapping[int, str] = MappingProxyType(
    {
        0: "silence, mouth at rest: pauses, punctuation",
        1: "open, relaxed mouth: æ ə ʌ",
        2: "wide open jaw: ɑ a",
        3: "open, rounded lips: ɔ",
        4: "half open, slightly spread lips: ɛ ʊ e",
        5: "half open, r-coloured vowel: ɝ ɜ ɚ",
        6: "spread lips, nearly closed jaw: j i ɪ",
        7: "tight rounded lips: w u y",
        8: "rounded lips, half open: o ø",
        9: "open jaw closing to rounded lips: aʊ",
        10: "rounded lips opening to spread lips: ɔɪ",
        11: "open jaw closing to spread lips: aɪ",
        12: "open mouth, breath: h ʔ",
        13: "lips slightly rounded, tongue curled: ɹ ɻ",
        14: "tongue tip up behind the teeth: l ʎ",
        15: "teeth close together: s z ts",
        16: "lips pushed out, teeth close: ʃ tʃ dʒ ʒ",
        17: "tongue between the teeth: ð",
        18: "lower lip against the upper teeth: f v",
        19: "tongue tip on the gum ridge, jaw half open: d t n θ",
        20: "back of the tongue raised, jaw open: k g ŋ",
        21: "lips closed: p b m",
    }
)

# Every symbol a phoneme can be, by viseme: Azure's en-US phonemes first, then the symbols of the other
# languages, placed by where they are made and how the lips are shaped. The capitals are Kokoro's
# (misaki's) one-symbol forms: A eɪ, I aɪ, O oʊ, Q əʊ, W aʊ, Y ɔɪ, S a long s, T the American flap ɾ,
# and misaki 2.0's nasal vowels B œ̃, C ɔ̃, D ɑ̃, E ɛ̃, U ũ, V ʊ̃, X õ, Z ɐ̃.
_SYMBOLS_BY_VISEME = {
    1: "æ ə ʌ ɐ ᵊ ɤ ɘ Z",
    2: "ɑ a D",
    3: "ɔ ɒ œ ɶ ɞ B C",
    4: "ɛ ʊ e eɪ A E V",  # Azure says eɪ and ʊ with a half-open, spread mouth
    5: "ɝ ɜ ɚ",
    6: "j i ɪ ᵻ ɨ ɯ ʝ ç",  # ɯ (Japanese u) is unrounded; ç and ʝ are made where j is
    7: "w u y ʏ ʉ ɥ ʍ U",  # y and ɥ are rounded like u
    8: "o ø ɵ oʊ əʊ O Q X",
    9: "aʊ W",
    10: "ɔɪ Y",
    11: "aɪ I",
    12: "h ʔ ɦ ħ ʕ",  # made in the throat: the mouth keeps the shape of the vowels around them
    13: "ɹ ɻ",
    14: "l ʎ ɭ ɬ ɮ",
    15: "s z ts dz ʦ ʣ S",
    16: "ʃ ʒ tʃ dʒ ʧ ʤ ɕ ʑ tɕ dʑ ʨ ʥ ʂ ʐ ʈʂ ɖʐ ꭧ",  # every hushing sibilant, retroflex ones included
    17: "ð",
    18: "f v ʋ ɱ",
    19: "d t n θ ɾ r ɽ ɖ ʈ ɳ ɲ ɗ T",  # taps, trills and palatal ɲ: the tongue tip shows, the lips are open
    20: "k g ɡ ŋ c ɟ q ɴ ɢ x ɣ χ ʁ ʀ ɰ",  # made with the back of the tongue, French ʁ included
    21: "p b m β ɸ ɓ",  # bilabial: Spanish β and Japanese ɸ bring the lips together too
}
_VISEME_OF = {symbol: viseme for viseme, symbols in _SYMBOLS_BY_VISEME.items() for symbol in symbols.split()}

# A symbol nobody listed that is still a sound: a half-open, neutral mouth (the schwa's) fits any sound
# and never shows a wrong closure, where silence (0) would freeze the mouth while the voice speaks.
UNKNOWN_VISEME = 1

# Two symbols heard as one phoneme: the diphthongs and affricates espeak-ng writes in two symbols
# (tɕ dʑ ʈʂ ɖʐ are the two-symbol forms of the model's own ʨ ʥ ꭧ and of ʐ's affricate).
_JOINED = frozenset("aɪ aʊ eɪ oʊ ɔɪ əʊ tʃ dʒ ts dz tɕ dʑ ʈʂ ɖʐ".split())
STRESS_MARKS = frozenset("ˈˌ")  # primary and secondary stress: they sound as the phoneme after them
_AFTER = frozenset("ːˑʰʲʷˠˤᵝʼ\u0303")  # length and modifiers: they change the phoneme before them
_TIES = frozenset("\u0361\u035c")  # t͡ʃ: a tie bar makes the symbols on both sides one phoneme
_PAUSE, _PREFIX, _SUFFIX, _SYMBOL = range(4)


@dataclass(frozen=True, slots=True)
class PhonemeGroup:
    """One heard phoneme: its symbols without stress marks, and its first and last token (inclusive)."""

    phoneme: str
    first: int
    last: int


@cache
def _kind(token: str) -> int:
    if token in STRESS_MARKS:
        return _PREFIX
    if token in _AFTER or token in _TIES:
        return _SUFFIX
    if token in _VISEME_OF:
        return _SYMBOL
    category = unicodedata.category(token)
    if category[0] in "ZPSC":  # spaces, punctuation, symbols (the tone arrows) and controls are pauses
        return _PAUSE
    if category[0] == "M" or category == "Lm":  # combining marks and modifier letters modify, like ʰ
        return _SUFFIX
    return _SYMBOL


def _viseme_of_symbol(symbol: str) -> int | None:
    if symbol in _VISEME_OF:
        return _VISEME_OF[symbol]
    # A precomposed letter (é, ã, ü): its base letter's mouth. Not tried first, as ç decomposes to c.
    return _VISEME_OF.get(unicodedata.normalize("NFD", symbol)[0])


def viseme_of(phoneme: str) -> int:
    """The viseme id (a key of ``VISEMES``) of one phoneme, such as a ``PhonemeGroup.phoneme``.

    Stress marks, length marks and modifiers are ignored; a pause (space, punctuation) or an empty
    string is silence, 0. A phoneme made of symbols no table lists takes the viseme of its first known
    symbol (the shape the mouth starts in), and one with none known ``UNKNOWN_VISEME``.
    """
    sounds = "".join(token for token in phoneme if _kind(token) == _SYMBOL)
    if not sounds:
        return 0
    if sounds in _VISEME_OF:  # one symbol, or a diphthong or affricate
        return _VISEME_OF[sounds]
    for symbol in sounds:
        if (viseme := _viseme_of_symbol(symbol)) is not None:
            return viseme
    return UNKNOWN_VISEME


def phoneme_groups(tokens: str) -> list[PhonemeGroup]:
    """The heard phonemes of ``tokens`` (the model's tokens, one character each), in order.

    A stress mark joins the phoneme after it; a length mark or modifier joins the phoneme before it;
    a diphthong (aɪ aʊ eɪ oʊ ɔɪ əʊ) or affricate (tʃ dʒ ts dz tɕ dʑ ʈʂ ɖʐ) is one group. Spaces and
    punctuation are pauses and belong to no group. Marks with no phoneme on their side join the nearest
    phoneme of their word (a stress mark at a word's end joins the phoneme before it); a word of marks
    only, with no phoneme at all, is silent and belongs to no group either.
    """
    groups: list[PhonemeGroup] = []
    count = len(tokens)
    index = 0
    while index < count:
        if _kind(tokens[index]) == _PAUSE:
            index += 1
            continue
        word_groups = len(groups)
        waiting = -1  # the first of the marks waiting for the next phoneme of this word
        while index < count and (kind := _kind(tokens[index])) != _PAUSE:
            if kind != _SYMBOL:  # a stress mark, or a mark with no phoneme before it in this word
                waiting = index if waiting < 0 else waiting
                index += 1
                continue
            first = index if waiting < 0 else waiting
            end = index + 1
            if tokens[end : end + 1] in _TIES and end + 1 < count and _kind(tokens[end + 1]) == _SYMBOL:
                end += 2
            elif tokens[index : index + 2] in _JOINED:
                end += 1
            while end < count and _kind(tokens[end]) == _SUFFIX:  # length and modifiers: this phoneme's
                end += 1
            symbols = "".join(token for token in tokens[first:end] if token not in STRESS_MARKS)
            groups.append(PhonemeGroup(symbols, first, end - 1))
            waiting = -1
            index = end
        if waiting >= 0 and len(groups) > word_groups:  # marks at the end of the word: the phoneme before
            last = groups.pop()
            marks = "".join(token for token in tokens[waiting:index] if token not in STRESS_MARKS)
            groups.append(PhonemeGroup(last.phoneme + marks, last.first, index - 1))
    return groups
