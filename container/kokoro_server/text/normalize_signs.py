"""The signs around numbers that a language's own reader leaves unsaid or says wrongly, in its words: for
Hindi (espeak-ng says its digits, but not "₹", reads "~" as "tilde" and "5-10" as "five ten") and Japanese
(misaki says its numbers in kana, but not "%", "~" or the dash of "5-10", and spells "km/h").

    "कीमत ₹500 है।" → "कीमत 500 रुपये है।"     "割引は50%です。" → "割引は50パーセントです。"

Each rule is one linear pass; the digits stay for the reader to say (a code's digits apart, so that it says
them one by one; a magnitude's digits in full, so that "10k" is "一万").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

_NUMBER = r"\d{1,15}(?:[.,]\d{1,6})*"
_SHORT = r"\d{1,4}(?:[.,]\d{1,2})?"
_RANGE = rf"(?<![\d.,-])(?P<a>{_SHORT})\s?[-–—~〜～]\s?(?P<b>{_SHORT})(?![\d.,-]|[-–—]\d)"
_CODE = (
    r"(?P<word>PIN|OTP|(?i:code)|कोड|ओटीपी|暗証番号|認証コード|確認コード|コード)(?P<between>\s*(?:है|は|:)?\s*)"
    r"(?P<code>\d{3,8}(?:[ -]\d{2,4}){0,3})(?!\d)"
)
_END = r"(?![A-Za-z0-9])"  # the end of a Latin word or number: kana and Devanagari are word characters too
_START = r"(?<![A-Za-z0-9])"
_SCALES = {"k": 1_000, "K": 1_000, "M": 1_000_000, "B": 1_000_000_000}
Replacement = str | Callable[[re.Match[str]], str]


def _spaced(match: re.Match[str]) -> str:
    return f"{match['word']}{match['between']}{' '.join(c for c in match['code'] if c.isdigit())}"


def _extension(word: str) -> Callable[[re.Match[str]], str]:
    return lambda match: f"{word} {' '.join(match['n'])}"


def _myriads(match: re.Match[str]) -> str:
    # Japanese counts by ten thousands: "10k" is "1万", "3.5M" "350万", "2.5B" "25億" (and misaki's reader
    # fails on a ten-digit number written out).
    value = Decimal(match["n"].replace(",", ".")) * _SCALES[match["scale"]]
    for unit, size in (("億", 10**8), ("万", 10**4)):
        if value >= size:
            return f"{format((value / size).normalize(), 'f')}{unit}"
    return format(value.normalize(), "f")


def _quarter(ordinals: str, noun: str) -> Callable[[re.Match[str]], str]:
    return lambda match: f"{ordinals.split()[int(match['n']) - 1]} {noun}"


_HI_SCALES = {"": "", "k": " हज़ार", "K": " हज़ार", "M": " मिलियन", "B": " बिलियन"}
# language → (pattern, replacement), in order
RULES: dict[str, tuple[tuple[re.Pattern[str], Replacement], ...]] = {
    "hi": tuple(
        (re.compile(pattern), replacement)
        for pattern, replacement in (
            (_CODE, _spaced),
            (rf"{_START}(?:ext\.?|x)\s?(?P<n>\d{{1,6}}){_END}", _extension("एक्सटेंशन")),
            (rf"(?:₹|Rs\.?|INR)\s?(?P<n>{_NUMBER})", r"\g<n> रुपये"),
            (
                rf"\$\s?(?P<n>{_NUMBER})(?:\s?(?P<scale>[kKMB]){_END})?",
                lambda m: f"{m['n']}{_HI_SCALES.get(m['scale'] or '', '')} डॉलर",
            ),
            (rf"(?P<n>{_NUMBER})\s?(?P<scale>[kKMB]){_END}", lambda m: f"{m['n']}{_HI_SCALES[m['scale']]}"),
            (rf"(?P<n>{_NUMBER})\s?%", r"\g<n> प्रतिशत"),
            (_RANGE, r"\g<a> से \g<b>"),
            (r"(?<![\w~])[~≈]\s?(?=[₹$]?\d)", "लगभग "),
            (rf"(?P<n>{_NUMBER})\s?[x×](?!\w)", r"\g<n> गुना"),
            (rf"(?P<n>{_NUMBER})\+(?!\w)", r"\g<n> से ज़्यादा"),
            (r"\s?°\s?C\b|\s?℃", " डिग्री सेल्सियस"),
            (rf"\s?°\s?F{_END}", " डिग्री फ़ारेनहाइट"),
            (r"(?<=\d)\s?°", " डिग्री"),
            (rf"(?<=\d)\s?km/h{_END}", " किलोमीटर प्रति घंटा"),
            (rf"(?<=\d)\s?MB/s{_END}", " एमबी प्रति सेकंड"),
            (rf"(?<=\d)\s?kWh{_END}", " किलोवाट घंटा"),
            (rf"(?<=\d)\s?km{_END}", " किलोमीटर"),
            (rf"(?<=\d)\s?kg{_END}", " किलो"),
            (rf"{_START}Q(?P<n>[1-4]){_END}", _quarter("पहली दूसरी तीसरी चौथी", "तिमाही")),
            (rf"{_START}H(?P<n>[12])(?=\s(?:19|20)\d\d{_END})", _quarter("पहली दूसरी", "छमाही")),
            (rf"{_START}FY\s?(?P<y>\d{{4}}){_END}", r"वित्त वर्ष \g<y>"),
            (r"#\s?(?=\d)", "नंबर "),
        )
    ),
    "ja": tuple(
        (re.compile(pattern), replacement)
        for pattern, replacement in (
            (_CODE, _spaced),
            (rf"(?:内線|ext\.?)\s?(?P<n>\d{{1,6}}){_END}", _extension("内線")),
            (rf"(?P<n>\d{{1,3}}(?:[.,]\d{{1,3}})?)\s?(?P<scale>[kKMB]){_END}", _myriads),
            (rf"(?P<n>{_NUMBER})\s?[%％]", r"\g<n>パーセント"),
            (rf"[¥￥]\s?(?P<n>{_NUMBER})", r"\g<n>円"),
            (rf"\$\s?(?P<n>{_NUMBER}[万億]?)", r"\g<n>ドル"),
            (rf"€\s?(?P<n>{_NUMBER}[万億]?)", r"\g<n>ユーロ"),
            (_RANGE, r"\g<a>から\g<b>"),
            (r"(?<![\d~〜～約])[~〜～≈]\s?(?=[$¥€]?\d)", "約"),
            (rf"(?P<n>{_NUMBER})\s?[x×]{_END}", r"\g<n>倍"),
            (rf"(?P<n>{_NUMBER})\s?°\s?F{_END}", r"華氏\g<n>度"),
            (r"\s?(?:°\s?C\b|℃|°)", "度"),
            (rf"(?P<n>{_NUMBER})\s?km/h{_END}", r"時速\g<n>キロ"),
            (rf"(?<=\d)\s?MB/s{_END}", "メガバイト毎秒"),
            (rf"(?<=\d)\s?kWh{_END}", "キロワット時"),
            (rf"(?<=\d)\s?km{_END}", "キロメートル"),
            (rf"(?<=\d)\s?kg{_END}", "キログラム"),
            (rf"(?<=\d)\s?GB{_END}", "ギガバイト"),
            (rf"(?<=\d)\s?MB{_END}", "メガバイト"),
            (rf"(?<=\d)\s?TB{_END}", "テラバイト"),
            (rf"(?<=\d)\s?GHz{_END}", "ギガヘルツ"),
            (rf"{_START}Q(?P<n>[1-4]){_END}", r"第\g<n>四半期"),
            (rf"{_START}FY\s?(?P<y>\d{{4}})(?!\d)", r"\g<y>年度"),
            (rf"{_START}H1\s?(?P<y>(?:19|20)\d\d)(?!\d)", r"\g<y>年上半期"),
            (rf"{_START}H2\s?(?P<y>(?:19|20)\d\d)(?!\d)", r"\g<y>年下半期"),
            (r"(?<=[A-Za-z])&(?=[A-Za-z])|\s&\s", "アンド"),
            (r"(?<![\w@])@(?=[A-Za-z_])", "アット"),
            (r"#\s?(?P<n>\d{1,6})", r"\g<n>番"),
        )
    ),
}


def normalize_signs(text: str, language: str) -> str:
    """``text`` with its signs in the words of ``language`` (hi, ja); others unchanged."""
    for pattern, replacement in RULES.get(language, ()):
        text = pattern.sub(replacement, text)
    return text
