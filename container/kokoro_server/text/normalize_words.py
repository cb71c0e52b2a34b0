"""What the normalizer says for symbols and short forms: month names, currencies, units, abbreviations.

Data only, so that adding a unit or an abbreviation is one line; the rules are in ``normalize``.
"""

from __future__ import annotations

MONTHS = "January February March April May June July August September October November December".split()
WEEKDAYS = {
    "Mon": "Monday",
    "Tue": "Tuesday",
    "Tues": "Tuesday",
    "Wed": "Wednesday",
    "Thu": "Thursday",
    "Thur": "Thursday",
    "Thurs": "Thursday",
    "Fri": "Friday",
    "Sat": "Saturday",
    "Sun": "Sunday",
}
# symbol or code -> (one, many, one of the hundredth, many of the hundredth)
CURRENCIES = {
    "$": ("dollar", "dollars", "cent", "cents"),
    "US$": ("US dollar", "US dollars", "cent", "cents"),
    "USD": ("US dollar", "US dollars", "cent", "cents"),
    "€": ("euro", "euros", "cent", "cents"),
    "EUR": ("euro", "euros", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "GBP": ("pound", "pounds", "penny", "pence"),
    "¥": ("yen", "yen", "sen", "sen"),
    "JPY": ("yen", "yen", "sen", "sen"),
}
SCALES = {"k": "thousand", "K": "thousand", "m": "million", "M": "million", "bn": "billion", "B": "billion"}
# unit -> (one, many); spelled the American way, with British spellings in BRITISH_SPELLINGS
UNITS = {
    "mg": ("milligram", "milligrams"),
    "g": ("gram", "grams"),
    "kg": ("kilogram", "kilograms"),
    "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"),
    "oz": ("ounce", "ounces"),
    "ml": ("milliliter", "milliliters"),
    "mL": ("milliliter", "milliliters"),
    "l": ("liter", "liters"),
    "L": ("liter", "liters"),
    "mm": ("millimeter", "millimeters"),
    "cm": ("centimeter", "centimeters"),
    "km": ("kilometer", "kilometers"),
    "ft": ("foot", "feet"),
    "mi": ("mile", "miles"),
    "mph": ("mile per hour", "miles per hour"),
    "km/h": ("kilometer per hour", "kilometers per hour"),
    "kph": ("kilometer per hour", "kilometers per hour"),
    "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
    "°C": ("degree Celsius", "degrees Celsius"),
    "°": ("degree", "degrees"),
    "KB": ("kilobyte", "kilobytes"),
    "MB": ("megabyte", "megabytes"),
    "GB": ("gigabyte", "gigabytes"),
    "TB": ("terabyte", "terabytes"),
    "ms": ("millisecond", "milliseconds"),
    "sec": ("second", "seconds"),
    "min": ("minute", "minutes"),
    "mins": ("minute", "minutes"),
    "hr": ("hour", "hours"),
    "hrs": ("hour", "hours"),
    "h": ("hour", "hours"),
    "µs": ("microsecond", "microseconds"),
    "ns": ("nanosecond", "nanoseconds"),
    "mcg": ("microgram", "micrograms"),
    "µg": ("microgram", "micrograms"),
    "fl oz": ("fluid ounce", "fluid ounces"),
    "yd": ("yard", "yards"),
    "yds": ("yard", "yards"),
    "sq ft": ("square foot", "square feet"),
    "ft²": ("square foot", "square feet"),
    "m²": ("square meter", "square meters"),
    "km²": ("square kilometer", "square kilometers"),
    "PB": ("petabyte", "petabytes"),
    "Hz": ("hertz", "hertz"),
    "kHz": ("kilohertz", "kilohertz"),
    "MHz": ("megahertz", "megahertz"),
    "GHz": ("gigahertz", "gigahertz"),
    "kbps": ("kilobit per second", "kilobits per second"),
    "Kbps": ("kilobit per second", "kilobits per second"),
    "Mbps": ("megabit per second", "megabits per second"),
    "Gbps": ("gigabit per second", "gigabits per second"),
    "KB/s": ("kilobyte per second", "kilobytes per second"),
    "MB/s": ("megabyte per second", "megabytes per second"),
    "GB/s": ("gigabyte per second", "gigabytes per second"),
    "W": ("watt", "watts"),
    "kW": ("kilowatt", "kilowatts"),
    "MW": ("megawatt", "megawatts"),
    "Wh": ("watt-hour", "watt-hours"),
    "kWh": ("kilowatt-hour", "kilowatt-hours"),
    "mAh": ("milliamp-hour", "milliamp-hours"),
    "V": ("volt", "volts"),
    "psi": ("pound per square inch", "pounds per square inch"),
    "rpm": ("revolution per minute", "revolutions per minute"),
    "fps": ("frame per second", "frames per second"),
    "dpi": ("dot per inch", "dots per inch"),
}
# Units read only after a space: "25 m" is metres, but "25m" may be minutes or millions.
SPACED_UNITS = {"m": ("meter", "meters")}
BRITISH_SPELLINGS = {"meter": "metre", "liter": "litre"}
# Abbreviations whose reading does not depend on what follows.
ABBREVIATIONS = {
    "e.g.": "for example",
    "i.e.": "that is",
    "etc.": "et cetera",
    "vs.": "versus",
    "vs": "versus",
    "approx.": "approximately",
    "dept.": "department",
    "Mr.": "Mister",
    "Mrs.": "Missus",
    "Ms.": "Miz",
    "Dr.": "Doctor",
    "Prof.": "Professor",
    "Jr.": "Junior",
    "Sr.": "Senior",
    "Ave.": "Avenue",
    "Blvd.": "Boulevard",
    "Rd.": "Road",
    "Apt.": "Apartment",
    "Ln.": "Lane",
    "Pkwy.": "Parkway",
    "Hwy.": "Highway",
    "&": "and",
}
# Words after which a code of digits, letters and dashes is read character by character.
CODE_WORDS = (
    "order|confirmation|booking|reservation|reference|ref|ticket|case|tracking|invoice|account|policy"
    "|member|membership|claim|pin|code|zip|zip code|postcode|id|serial|model"
)
FRACTION_DENOMINATORS = {
    2: ("half", "halves"),
    3: ("third", "thirds"),
    4: ("quarter", "quarters"),
    8: ("eighth", "eighths"),
    16: ("sixteenth", "sixteenths"),
}  # others: "8 out of 10"
