"""What Hindi and Japanese voices say for signs and units. Their readers say digits themselves (espeak-ng in
Hindi, misaki's cutlet reader in Japanese, in kana), so numbers stay digits; the signs around them, which the
readers leave unsaid or say wrongly, are said here in the language's words (``say_signs``)."""

from __future__ import annotations

CURRENCY_SIGNS = {"₹": "INR", "Rs": "INR", "INR": "INR", "$": "USD", "USD": "USD", "¥": "JPY", "￥": "JPY",
                  "JPY": "JPY", "€": "EUR", "EUR": "EUR"}  # fmt: skip
WRITTEN_SCALES = {"k": "thousand", "K": "thousand", "M": "million", "B": "billion"}
# unit as written -> the language's words
UNITS = {
    "hi": {"km/h": "किलोमीटर प्रति घंटा", "MB/s": "एमबी प्रति सेकंड", "kWh": "किलोवाट घंटा", "km": "किलोमीटर",
           "kg": "किलो", "g": "ग्राम", "mg": "मिलीग्राम", "ml": "मिलीलीटर", "l": "लीटर", "cm": "सेंटीमीटर",
           "mm": "मिलीमीटर", "GB": "जीबी", "MB": "एमबी", "TB": "टीबी", "°C": "डिग्री सेल्सियस",
           "℃": "डिग्री सेल्सियस",
           "°F": "डिग्री फ़ारेनहाइट", "°": "डिग्री", "min": "मिनट", "h": "घंटे", "ms": "मिलीसेकंड"},
    "ja": {"km/h": "キロ毎時", "MB/s": "メガバイト毎秒", "kWh": "キロワット時", "km": "キロメートル",
           "kg": "キログラム", "g": "グラム", "mg": "ミリグラム", "ml": "ミリリットル", "mL": "ミリリットル",
           "l": "リットル", "L": "リットル",
           "cm": "センチメートル", "mm": "ミリメートル", "GB": "ギガバイト", "MB": "メガバイト", "TB": "テラバイト",
           "GHz": "ギガヘルツ", "°C": "度", "℃": "度", "°F": "度", "°": "度", "min": "分", "h": "時間",
           "ms": "ミリ秒"},
}  # fmt: skip
PER_WORDS = {
    "hi": {"माह": "माह", "महीना": "महीना", "महीने": "महीने", "साल": "साल", "वर्ष": "वर्ष", "दिन": "दिन",
           "घंटा": "घंटा",
           "mo": "महीना", "month": "महीना", "yr": "साल", "day": "दिन", "h": "घंटा", "kg": "किलो"},
    "ja": {"月": "月", "年": "年", "日": "日", "時間": "時間", "人": "人", "mo": "月", "month": "月", "yr": "年",
           "day": "日", "h": "時間", "kg": "キログラム"},
}  # fmt: skip
