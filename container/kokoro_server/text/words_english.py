"""What an English voice says for symbols and short forms: months, weekdays, currencies, units, abbreviations,
the words after which digits are a code, and the parts of an address.

Data only, so that adding a unit or an abbreviation is one line; the tagger (``tag_token``, ``tag_spans``,
``tag_cues_english``) reads what is written with it, the verbalizer (``say_english``) says it.
"""

from __future__ import annotations

MONTHS = "January February March April May June July August September October November December".split()
WEEKDAYS = {
    "Mon": "Monday", "Tue": "Tuesday", "Tues": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
    "Thur": "Thursday", "Thurs": "Thursday", "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday",
}  # fmt: skip
# ISO code -> (one, many, one of the hundredth, many of the hundredth)
CURRENCIES = {
    "USD": ("dollar", "dollars", "cent", "cents"),
    "EUR": ("euro", "euros", "cent", "cents"),
    "GBP": ("pound", "pounds", "penny", "pence"),
    "JPY": ("yen", "yen", "sen", "sen"),
    "CAD": ("Canadian dollar", "Canadian dollars", "cent", "cents"),
    "AUD": ("Australian dollar", "Australian dollars", "cent", "cents"),
    "NZD": ("New Zealand dollar", "New Zealand dollars", "cent", "cents"),
    "HKD": ("Hong Kong dollar", "Hong Kong dollars", "cent", "cents"),
    "SGD": ("Singapore dollar", "Singapore dollars", "cent", "cents"),
    "MXN": ("peso", "pesos", "centavo", "centavos"),
    "BRL": ("real", "reais", "centavo", "centavos"),
    "INR": ("rupee", "rupees", "paisa", "paise"),
    "CNY": ("yuan", "yuan", "fen", "fen"),
    "CHF": ("Swiss franc", "Swiss francs", "centime", "centimes"),
    "KRW": ("won", "won", "jeon", "jeon"),
}
# How each currency is written, before or after the amount; "US$" and "USD" are said "US dollars".
CURRENCY_SIGNS = {
    "$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "￥": "JPY", "₹": "INR", "Rs": "INR", "Rs.": "INR",
    "CA$": "CAD", "C$": "CAD", "AU$": "AUD", "A$": "AUD", "NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "MX$": "MXN",
    "R$": "BRL", "₩": "KRW", "CN¥": "CNY", "元": "CNY",
}  # fmt: skip
US_SAID = frozenset({"US$", "USD"})  # said with their country: "thirty US dollars"
CENT_SIGNS = {"¢": "USD", "p": "GBP"}  # "75¢", "99p": an amount in the hundredth
SCALES = {
    "k": "thousand", "K": "thousand", "thousand": "thousand", "m": "million", "M": "million", "mn": "million",
    "million": "million", "B": "billion", "b": "billion", "bn": "billion", "billion": "billion", "T": "trillion",
    "tn": "trillion", "trillion": "trillion", "lakh": "lakh", "lakhs": "lakh", "crore": "crore", "crores": "crore",
}  # fmt: skip
# unit -> (one, many); spelled the American way, with British spellings in BRITISH_SPELLINGS. Keys are as
# written; a unit of two letters or more is also read in any case ("KG", "Kg") where no other unit would be.
UNITS = {
    "mg": ("milligram", "milligrams"), "g": ("gram", "grams"), "kg": ("kilogram", "kilograms"),
    "mcg": ("microgram", "micrograms"), "µg": ("microgram", "micrograms"), "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"), "oz": ("ounce", "ounces"), "fl oz": ("fluid ounce", "fluid ounces"),
    "ml": ("milliliter", "milliliters"), "mL": ("milliliter", "milliliters"), "cl": ("centiliter", "centiliters"),
    "l": ("liter", "liters"), "L": ("liter", "liters"), "gal": ("gallon", "gallons"), "qt": ("quart", "quarts"),
    "tbsp": ("tablespoon", "tablespoons"), "tsp": ("teaspoon", "teaspoons"), "cc": ("cubic centimeter",
    "cubic centimeters"),
    "mm": ("millimeter", "millimeters"), "cm": ("centimeter", "centimeters"), "km": ("kilometer", "kilometers"),
    "µm": ("micrometer", "micrometers"), "ft": ("foot", "feet"), "yd": ("yard", "yards"), "yds": ("yard", "yards"),
    "mi": ("mile", "miles"), "sq ft": ("square foot", "square feet"), "ft²": ("square foot", "square feet"),
    "m²": ("square meter", "square meters"), "m2": ("square meter", "square meters"),
    "km²": ("square kilometer", "square kilometers"), "km2": ("square kilometer", "square kilometers"),
    "cm²": ("square centimeter", "square centimeters"), "m³": ("cubic meter", "cubic meters"),
    "cm³": ("cubic centimeter", "cubic centimeters"), "mph": ("mile per hour", "miles per hour"),
    "km/h": ("kilometer per hour", "kilometers per hour"), "kph": ("kilometer per hour", "kilometers per hour"),
    "kmh": ("kilometer per hour", "kilometers per hour"), "m/s": ("meter per second", "meters per second"),
    "°F": ("degree Fahrenheit", "degrees Fahrenheit"), "°C": ("degree Celsius", "degrees Celsius"),
    "°": ("degree", "degrees"), "℃": ("degree Celsius", "degrees Celsius"), "℉": ("degree Fahrenheit",
    "degrees Fahrenheit"),
    "KB": ("kilobyte", "kilobytes"), "MB": ("megabyte", "megabytes"), "GB": ("gigabyte", "gigabytes"),
    "TB": ("terabyte", "terabytes"), "PB": ("petabyte", "petabytes"), "ms": ("millisecond", "milliseconds"),
    "µs": ("microsecond", "microseconds"), "ns": ("nanosecond", "nanoseconds"), "sec": ("second", "seconds"),
    "secs": ("second", "seconds"), "min": ("minute", "minutes"), "mins": ("minute", "minutes"),
    "hr": ("hour", "hours"), "hrs": ("hour", "hours"), "h": ("hour", "hours"), "wk": ("week", "weeks"),
    "wks": ("week", "weeks"), "mo": ("month", "months"), "mos": ("month", "months"), "yr": ("year", "years"),
    "yrs": ("year", "years"), "pts": ("point", "points"),
    "bps": ("basis point", "basis points"), "Hz": ("hertz", "hertz"), "kHz": ("kilohertz", "kilohertz"),
    "MHz": ("megahertz", "megahertz"), "GHz": ("gigahertz", "gigahertz"), "kbps": ("kilobit per second",
    "kilobits per second"),
    "Kbps": ("kilobit per second", "kilobits per second"), "Mbps": ("megabit per second", "megabits per second"),
    "Gbps": ("gigabit per second", "gigabits per second"), "KB/s": ("kilobyte per second", "kilobytes per second"),
    "MB/s": ("megabyte per second", "megabytes per second"), "GB/s": ("gigabyte per second", "gigabytes per second"),
    "W": ("watt", "watts"), "kW": ("kilowatt", "kilowatts"), "MW": ("megawatt", "megawatts"),
    "Wh": ("watt-hour", "watt-hours"), "kWh": ("kilowatt-hour", "kilowatt-hours"), "MWh": ("megawatt-hour",
    "megawatt-hours"),
    "mAh": ("milliamp-hour", "milliamp-hours"), "mA": ("milliamp", "milliamps"), "V": ("volt", "volts"),
    "kV": ("kilovolt", "kilovolts"), "psi": ("pound per square inch", "pounds per square inch"),
    "kPa": ("kilopascal", "kilopascals"), "mmHg": ("millimeter of mercury", "millimeters of mercury"),
    "rpm": ("revolution per minute", "revolutions per minute"), "bpm": ("beat per minute", "beats per minute"),
    "fps": ("frame per second", "frames per second"), "dpi": ("dot per inch", "dots per inch"),
    "dB": ("decibel", "decibels"), "kcal": ("kilocalorie", "kilocalories"), "kJ": ("kilojoule", "kilojoules"),
    "MJ": ("megajoule", "megajoules"), "mol": ("mole", "moles"), "cal": ("calorie", "calories"),
    "mmol": ("millimole", "millimoles"), "′": ("foot", "feet"), "″": ("inch", "inches"),
    "stone": ("stone", "stone"), "ng": ("nanogram", "nanograms"), "mEq": ("milliequivalent", "milliequivalents"),
    "req": ("request", "requests"), "msg": ("message", "messages"), "reb": ("rebound", "rebounds"),
    "ast": ("assist", "assists"),
    "msgs": ("message", "messages"),
    # written in words, but glued to a number ("0.5inch", "2liters")
    "inch": ("inch", "inches"), "inches": ("inch", "inches"), "foot": ("foot", "feet"), "feet": ("foot", "feet"),
    "meter": ("meter", "meters"), "meters": ("meter", "meters"), "metre": ("meter", "meters"),
    "metres": ("meter", "meters"), "liter": ("liter", "liters"), "liters": ("liter", "liters"),
    "litre": ("liter", "liters"), "litres": ("liter", "liters"), "mile": ("mile", "miles"), "miles": ("mile", "miles"),
    # kitchen
    "Tbsp": ("tablespoon", "tablespoons"), "tbs": ("tablespoon", "tablespoons"), "tbl": ("tablespoon", "tablespoons"),
    "fl. oz": ("fluid ounce", "fluid ounces"), "doz": ("dozen", "dozen"),
    "qts": ("quart", "quarts"), "gals": ("gallon", "gallons"), "pint": ("pint", "pints"),
    # engineering and science
    "nm": ("nanometer", "nanometers"), "μm": ("micrometer", "micrometers"), "μg": ("microgram", "micrograms"),
    "μs": ("microsecond", "microseconds"), "Nm": ("newton meter", "newton meters"),
    "N·m": ("newton meter", "newton meters"), "kN": ("kilonewton", "kilonewtons"), "Pa": ("pascal", "pascals"),
    "hPa": ("hectopascal", "hectopascals"), "MPa": ("megapascal", "megapascals"), "GPa": ("gigapascal", "gigapascals"),
    "bar": ("bar", "bar"), "mbar": ("millibar", "millibars"), "atm": ("atmosphere", "atmospheres"),
    "ksi": ("kip per square inch", "kips per square inch"), "Ω": ("ohm", "ohms"), "kΩ": ("kilohm", "kilohms"),
    "MΩ": ("megohm", "megohms"), "µF": ("microfarad", "microfarads"), "μF": ("microfarad", "microfarads"),
    "uF": ("microfarad", "microfarads"), "nF": ("nanofarad", "nanofarads"), "pF": ("picofarad", "picofarads"),
    "mH": ("millihenry", "millihenries"), "µH": ("microhenry", "microhenries"), "kA": ("kiloamp", "kiloamps"),
    "Ah": ("amp-hour", "amp-hours"), "kVA": ("kilovolt-amp", "kilovolt-amps"),
    "GWh": ("gigawatt-hour", "gigawatt-hours"), "TWh": ("terawatt-hour", "terawatt-hours"),
    "hp": ("horsepower", "horsepower"), "BTU": ("BTU", "BTUs"), "cfm": ("cubic foot per minute",
    "cubic feet per minute"), "gpm": ("gallon per minute", "gallons per minute"), "mpg": ("mile per gallon",
    "miles per gallon"), "lm": ("lumen", "lumens"), "lx": ("lux", "lux"), "dBm": ("dBm", "dBm"),
    "dBA": ("decibel", "decibels"), "ppm": ("part per million", "parts per million"), "ppb": ("part per billion",
    "parts per billion"), "GiB": ("gibibyte", "gibibytes"), "MiB": ("mebibyte", "mebibytes"),
    "KiB": ("kibibyte", "kibibytes"), "TiB": ("tebibyte", "tebibytes"),
    "Tbps": ("terabit per second", "terabits per second"),
    "THz": ("terahertz", "terahertz"), "µL": ("microliter", "microliters"), "μL": ("microliter", "microliters"),
    "dL": ("deciliter", "deciliters"), "dl": ("deciliter", "deciliters"), "ft-lb": ("foot-pound", "foot-pounds"),
    "ft-lbs": ("foot-pound", "foot-pounds"), "lb-ft": ("pound-foot", "pound-feet"), "lbf": ("pound-force",
    "pounds-force"), "nmi": ("nautical mile", "nautical miles"), "kn": ("knot", "knots"), "kts": ("knot", "knots"),
    "mi/h": ("mile per hour", "miles per hour"), "ft/s": ("foot per second", "feet per second"),
    "m/s²": ("meter per second squared", "meters per second squared"),
    "m/s2": ("meter per second squared", "meters per second squared"),
    "sq in": ("square inch", "square inches"), "sq yd": ("square yard", "square yards"),
    "sq mi": ("square mile", "square miles"), "sq km": ("square kilometer", "square kilometers"),
    "sq m": ("square meter", "square meters"), "cu ft": ("cubic foot", "cubic feet"),
    "cu in": ("cubic inch", "cubic inches"), "cu yd": ("cubic yard", "cubic yards"),
    "cu m": ("cubic meter", "cubic meters"),
    "sq. ft": ("square foot", "square feet"), "sq.ft": ("square foot", "square feet"),
}  # fmt: skip
# A length's unit with a power, as a superscript, a caret or a digit after it: "km³", "m^2", "m2", "ft²", "in³".
_LENGTHS = {"mm": "millimeter", "cm": "centimeter", "m": "meter", "km": "kilometer", "in": "inch", "ft": "foot",
            "yd": "yard", "mi": "mile", "µm": "micrometer", "μm": "micrometer", "nm": "nanometer"}  # fmt: skip
_PLURALS = {"inch": "inches", "foot": "feet"}
for _short, _name in _LENGTHS.items():
    for _marks, _power in ((("²", "^2", "2"), "square"), (("³", "^3", "3"), "cubic")):
        for _mark in _marks if _short != "in" else _marks[:2]:  # "in2" is not an inch
            UNITS.setdefault(f"{_short}{_mark}", (f"{_power} {_name}", f"{_power} {_PLURALS.get(_name, _name + 's')}"))
# Units read only after a space: "25 m" is metres, but "25m" may be minutes or millions; "2 ha" hectares.
CUP = ("cup", "cups")  # "½ c. sugar", "2 c. flour": a recipe's cup, one and many
SPACED_UNITS = {"m": ("meter", "meters"), "ha": ("hectare", "hectares"), "s": ("second", "seconds"),
                "bd": ("bedroom", "bedrooms"), "br": ("bedroom", "bedrooms"), "ba": ("bathroom", "bathrooms"),
                "bdrm": ("bedroom", "bedrooms")}  # fmt: skip
# What a length glued to an "m" measures in meters ("the 100m final", "a 50m drop"); elsewhere "10m" may be
# minutes or millions.
METER_NOUNS = frozenset(
    "race sprint dash hurdles final finals record relay freestyle breaststroke backstroke butterfly medley world "
    "olympic title swim event drop fall high deep long wide tall away above below pool".split()
)
# Keys of a keyboard as said in a shortcut ("Ctrl+Alt+Del": control alt delete).
KEYS = {"Ctrl": "control", "Cmd": "command", "Alt": "alt", "Shift": "shift", "Del": "delete", "Esc": "escape",
        "Opt": "option", "Tab": "tab", "Enter": "enter", "Fn": "function", "Win": "windows", "PgUp": "page up",
        "PgDn": "page down", "Ins": "insert", "Space": "space", "Backspace": "backspace", "Return": "return",
        "Option": "option", "Command": "command", "Control": "control", "Delete": "delete"}  # fmt: skip
BRITISH_SPELLINGS = {"meter": "metre", "liter": "litre"}
# What may follow "/" in a rate, said in the singular after "per": "$29/mo" is "per month".
PER_WORDS = {
    "s": "second", "sec": "second", "min": "minute", "h": "hour", "hr": "hour", "d": "day", "day": "day",
    "wk": "week", "week": "week", "mo": "month", "mth": "month", "month": "month", "yr": "year", "y": "year",
    "year": "year", "night": "night", "person": "person", "pp": "person", "user": "user", "seat": "seat",
    "unit": "unit", "item": "item", "ea": "each", "serving": "serving", "dose": "dose", "visit": "visit",
}  # fmt: skip
# Abbreviations whose reading does not depend on what follows; TITLES come before a name, so their dot never
# ends a sentence.
ABBREVIATIONS = {
    "e.g.": "for example", "i.e.": "that is", "etc.": "et cetera", "vs.": "versus", "vs": "versus",
    "approx.": "approximately", "dept.": "department", "Mr.": "Mister", "Mrs.": "Missus", "Ms.": "Miz",
    "Dr.": "Doctor", "Prof.": "Professor", "Jr.": "Junior", "Sr.": "Senior", "Ave.": "Avenue", "Blvd.": "Boulevard",
    "Rd.": "Road", "St.": "Street", "Apt.": "Apartment", "Ln.": "Lane", "Ct.": "Court", "Cir.": "Circle",
    "Pl.": "Place", "Pkwy.": "Parkway", "Hwy.": "Highway", "&": "and", "Sen.": "Senator", "Rep.": "Representative",
    "Gov.": "Governor", "Gen.": "General", "Capt.": "Captain", "Lt.": "Lieutenant", "Sgt.": "Sergeant",
    "Mt.": "Mount", "Hon.": "Honorable", "acct.": "account", "incl.": "including", "excl.": "excluding",
    "pkg.": "package", "qty.": "quantity", "qty": "quantity", "w/": "with", "w/o": "without", "p.": "page",
    "pp.": "pages",
    "Ch.": "Chapter", "Vol.": "Volume", "vol.": "volume", "Fig.": "Figure", "fig.": "figure", "Hwy": "Highway",
    "hwy": "highway", "YoY": "year over year", "QoQ": "quarter over quarter", "MoM": "month over month",
    "int'l": "international", "nat'l": "national", "gov't": "government", "govt": "government",
    "dep't": "department", "add'l": "additional", "ass'n": "association", "cont'd": "continued",
    "req'd": "required", "mgmt": "management", "appt.": "appointment", "appt": "appointment", "Ft.": "Fort",
    "y/y": "year over year", "Y/Y": "year over year", "q/q": "quarter over quarter", "Q/Q": "quarter over quarter",
    "lvl": "level", "lvl.": "level", "Lvl": "Level", "b/c": "because", "B/c": "Because",
    "Cllr.": "Councillor", "π": "pi", "avg.": "average",
    # capitalized, they start a label ("Min. order: $25"); "5 min." is a measure's unit, read before this table
    "Min.": "Minimum", "Max.": "Maximum",
}  # fmt: skip
# Contractions typed with a curly apostrophe ("int’l") read as those with a straight one.
ABBREVIATIONS |= {key.replace("'", "’"): value for key, value in ABBREVIATIONS.items() if "'" in key}
# A sentence starts with one in capitals ("Approx. 200 guests"): the same word.
ABBREVIATIONS |= {key[0].upper() + key[1:]: value[0].upper() + value[1:] for key, value in ABBREVIATIONS.items()
                  if key[0].islower() and len(key) > 3}  # fmt: skip
BRITISH_ABBREVIATIONS = {"w/c": "week commencing"}  # "w/c 3 March": only Britain writes it
# Short forms said in full only before a number, since alone they are words ("Art. 15": Article fifteen; "modern
# art." stays).
NUMBERED_PARTS = {"Art": "Article", "Arts": "Articles", "Sec": "Section", "Secs": "Sections", "Para": "Paragraph",
                  "Paras": "Paragraphs", "Cl": "Clause", "Reg": "Regulation"}  # fmt: skip
TITLES = frozenset({"Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "Sen.", "Rep.", "Gov.", "Gen.", "Capt.", "Lt.", "Sgt.",
                    "Hon.", "Cllr."})  # fmt: skip
# Titles written without their dot, as Britain writes them: said in full only before a name ("Mr Jones"), since
# alone the letters may be a code's.
BARE_TITLES = {"Mr": "Mister", "Mrs": "Missus", "Ms": "Miz", "Dr": "Doctor", "Prof": "Professor", "Cllr": "Councillor"}
# Words after which a code of digits, letters and dashes is read character by character.
CODE_WORDS = (
    "order|confirmation|booking|reservation|reference|ref|ticket|case|tracking|invoice|account|policy"
    "|member|membership|claim|pin|code|zip|zip code|postcode|id|serial|model"
)
# Words before a code's word that make what follows an amount ("Min. order 25 units", "maximum order $500").
LIMIT_WORDS = frozenset({"min", "minimum", "max", "maximum"})
# Airlines' codes that are no other word, state, unit or letters of another kind ("AS", "VS", "AC", "AZ", "OZ", "NH"
# are left out, and "U2", a band): before a number, among a trip's words, they name a flight ("on DL 2214 departing
# ATL": D L twenty-two fourteen).
AIRLINES = frozenset(
    "AA DL UA WN B6 NK F9 G4 WS BA LH AF KL IB EK EY TK SQ CX QF JL LX AY SK EI FR AV TP KE CI MU CZ 6E".split()
)
TRIP_WORDS = frozenset(
    "flight flights flying fly flies depart departs departing departure arrive arrives arriving arrival gate seat "
    "seats board boarding boards terminal connection connecting connects layover airport booked booking rebooked "
    "itinerary nonstop lands landing takeoff trip fare ticket tickets".split()
)
# Codes to type, said digit by digit in their groups ("verification code 583 201").
CODE_NAMES = (
    r"(?:verification|security|access|confirmation|one-time|one time|login|sign-in|2FA)\s+code|OTP|passcode|PIN|code"
)
# Places said as people say them aloud: "room 1204" is "twelve oh four", "gate B12" "B twelve".
PLACES = (
    "room|rm|gate|seat|platform|terminal|table|track|pier|aisle|row|bus|route|stop|door|dock|bay|ward|bed|locker|train"
    "|coach|carriage|tram|ferry"
    "|cabin|berth|stand|hall|lot|level|highway|hwy|interstate|port|error|http|exit|suite|unit|building|bldg|wing"
)
FRACTION_DENOMINATORS = {
    2: ("half", "halves"), 3: ("third", "thirds"), 4: ("quarter", "quarters"), 6: ("sixth", "sixths"),
    8: ("eighth", "eighths"), 12: ("twelfth", "twelfths"), 16: ("sixteenth", "sixteenths"),
    32: ("thirty-second", "thirty-seconds"),
}  # fmt: skip  # others (a score out of 5, 10 or 100), and fractions of one or more: "8 out of 10"
POWER = "to the power of"  # "2^10": two to the power of ten
ROOTS = {"√": "square root of", "∛": "cube root of"}  # "the √49": the square root of forty-nine (the text's article)
# Signs said by name where they stand between words or inside a code.
SYMBOLS = {
    "&": "and", "+": "plus", "=": "equals", "@": "at", "#": "number", "%": "percent", "/": "slash", "\\": "backslash",
    "_": "underscore", "*": "star", "^": "caret", "|": "bar", "~": "tilde", "<": "less than", ">": "greater than",
    "≤": "at most", "≥": "at least", "≈": "approximately", "×": "times", "÷": "divided by", "°": "degrees",
    "−": "minus", "$": "dollar", "€": "euro", "£": "pound", "¥": "yen", "₩": "won", "₹": "rupee", "§": "section",
    "¶": "paragraph", "©": "copyright", "‰": "per mille", "±": "plus or minus",
    "®": "registered", "™": "trademark", "→": "to", "←": "from", "·": "dot", "²": "squared", "³": "cubed",
}  # fmt: skip
# Round numbers said as a plural ("100s of users", "1,000s of orders").
ROUND_PLURALS = {"100s": "hundreds", "1000s": "thousands", "1,000s": "thousands", "1000000s": "millions"}
# Determiners, and the nouns an amount before them describes ("the $5 bill", "this 10 km route").
DETERMINERS = frozenset("the this that each every your our their my his her its one another".split())
AMOUNT_NOUNS = frozenset(
    "bill bills note notes coin coins fee fees charge charges credit credits voucher vouchers coupon coupons "
    "deposit deposits bonus bonuses fine fines surcharge tip tips gift card cards plan plans subscription "
    "upgrade refund refunds discount discounts rebate ticket tickets limit budget minimum maximum balance "
    "payment payments donation donations stipend allowance increase raise cut run walk ride hike route drive "
    "trip loop race swim commute radius drop climb gain bag bags box boxes bottle bottles jar pack tank".split()
)
# A sign alone, not in a code: "press the # key", "§§ 3–5".
LONE_SIGNS = {"#": "pound", "§§": "sections"}
LONE_SIGNS_BRITISH = LONE_SIGNS | {"#": "hash"}
KEYPAD_KEYS = {"*": "star", "#": "pound"}  # a telephone keypad's: "*67", "*#06#"
KEYPAD_KEYS_BRITISH = KEYPAD_KEYS | {"#": "hash"}
# A variable compared with a number ("x ≤ 5": x is less than or equal to five).
COMPARISONS = {"<": "is less than", ">": "is greater than", "≤": "is less than or equal to",
               "<=": "is less than or equal to", "≥": "is greater than or equal to",
               ">=": "is greater than or equal to", "≠": "is not equal to", "!=": "is not equal to"}  # fmt: skip
# A sign before a quantity that qualifies it: "~$30" is "about thirty dollars".
QUALIFIERS = {"~": "about", "≈": "approximately", "<": "under", ">": "over", "≤": "at most", "≥": "at least",
              "<=": "at most", ">=": "at least", "±": "plus or minus"}  # fmt: skip
# The parts of an address.
STREET_TYPES = {
    "St": "Street", "Ave": "Avenue", "Av": "Avenue", "Blvd": "Boulevard", "Rd": "Road", "Ln": "Lane",
    "Ct": "Court", "Dr": "Drive", "Pl": "Place", "Pkwy": "Parkway", "Hwy": "Highway", "Ter": "Terrace",
    "Cir": "Circle", "Sq": "Square", "Way": "Way", "Street": "Street", "Avenue": "Avenue", "Road": "Road",
    "Drive": "Drive", "Lane": "Lane", "Boulevard": "Boulevard", "Court": "Court", "Place": "Place",
    "Terrace": "Terrace", "Circle": "Circle", "Square": "Square", "Loop": "Loop", "Parkway": "Parkway",
    "Highway": "Highway", "Fwy": "Freeway", "Tpke": "Turnpike", "Expy": "Expressway", "Freeway": "Freeway",
    "Turnpike": "Turnpike", "Expressway": "Expressway",
}  # fmt: skip
# Roads known by a number, in their short forms: "County Rd 12", "Hwy 101", "Rte 9"
NUMBERED_ROADS = {"Rd": "Road", "Hwy": "Highway", "Rte": "Route", "Rt": "Route", "Fwy": "Freeway", "Pkwy": "Parkway"}
COMPASS = {
    "N": "North", "S": "South", "E": "East", "W": "West",
    "NE": "Northeast", "NW": "Northwest", "SE": "Southeast", "SW": "Southwest",
}  # fmt: skip
ADDRESS_UNITS = {"Apt": "apartment", "Apartment": "apartment", "Suite": "suite", "Ste": "suite", "Unit": "unit",
                 "Bldg": "building", "Building": "building", "Fl": "floor", "Floor": "floor"}  # fmt: skip
STATES = {
    code: name.replace("_", " ")
    for code, name in (
        pair.split("=")
        for pair in (
            "AL=Alabama AK=Alaska AZ=Arizona AR=Arkansas CA=California CO=Colorado CT=Connecticut DE=Delaware "
            "FL=Florida GA=Georgia HI=Hawaii ID=Idaho IL=Illinois IN=Indiana IA=Iowa KS=Kansas KY=Kentucky "
            "LA=Louisiana ME=Maine MD=Maryland MA=Massachusetts MI=Michigan MN=Minnesota MS=Mississippi "
            "MO=Missouri MT=Montana NE=Nebraska NV=Nevada NH=New_Hampshire NJ=New_Jersey NM=New_Mexico "
            "NY=New_York NC=North_Carolina ND=North_Dakota OH=Ohio OK=Oklahoma OR=Oregon PA=Pennsylvania "
            "RI=Rhode_Island SC=South_Carolina SD=South_Dakota TN=Tennessee TX=Texas UT=Utah VT=Vermont "
            "VA=Virginia WA=Washington WV=West_Virginia WI=Wisconsin WY=Wyoming DC=D_C"
        ).split()
    )
}
# Words after which a four-digit number is a year: "in 1998", "since 2001".
YEAR_WORDS = frozenset("in since by until till during from year before after circa around of through to and or".split())
# Words after which "Q3" or "H1" alone is a period of the year, not a heading or a visa.
PERIOD_WORDS = frozenset("in for the of by during from to and our this last next".split())
# Words that follow a flat or a seat ("4B is free"), never a count ("10M users").
FUNCTION_WORDS = frozenset(
    "is was are were and or on in at to of for with will can has had have be the a an it by from as if so but "
    "not no please here there now today next first instead too again".split()
)
# Words after which a month and a day written in numbers are a date ("due 6/30", "as of 9/15", "Mon 6/30");
# after the AMBIGUOUS ones a common fraction stays one ("cut by 1/2").
DATE_CUES = (
    "on|due|until|till|til|thru|through|since|starting|effective|expires|expiring|expired|exp|expiry|expiration"
    "|dated|beginning|ending"
    "|ends|begins|starts|deadline|as of|valid until|valid through|week of|scheduled for|closed|reopens|opens|"
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
)
AMBIGUOUS_DATE_CUES = (
    "by|from|to|before|after|between|and|close|closes|closing|set for|slated for|planned for|rescheduled for|renews"
    "|arrives|departs|date"
)
# Words that change an amount: after one, "by 1/2" is a fraction ("cut by 1/2"); elsewhere a deadline ("by 3/4").
CHANGE_WORDS = frozenset(
    "cut cuts reduce reduced reduces reducing increase increased increases increasing decrease decreased decreases"
    " grow grew grown grows rise rose risen rises fall fell fallen falls drop dropped drops lower lowered raise"
    " raised boost boosted multiply multiplied divide divided shrink shrank shrunk scale scaled expand expanded"
    " slash slashed trim trimmed fill filled dilute diluted up down off more less larger smaller bigger".split()
)
# Words after which a time may be written with a dot, as in Britain ("at 15.30", "from 9.00 to 17.30").
DOTTED_TIME_CUES = "at|until|till|from|between|opens at|closes at"
# Words after which "21:34" is how long, not when ("finished in 21:34", "took 2:05:33", "a time of 3:59.4").
DURATION_CUES = (
    "in|took|takes|taking|lasted|lasts|lasting|ran|runs|clocked|timed|runtime|run time|duration|length|pace|split"
    "|splits|record|time of|a time of|record of|under|over"
)
DURATION_WORDS = {"hour": ("hour", "hours"), "minute": ("minute", "minutes"), "second": ("second", "seconds")}
# Short numbers said digit by digit when called ("Call 911"), and the words that call them or name them.
SERVICE_NUMBERS = {"en-us": frozenset("211 311 411 511 611 711 811 911 988".split()),
                   "en-gb": frozenset("999 111 112 101 105 119".split())}  # fmt: skip
CALL_WORDS = frozenset(
    "call calls called calling dial dials dialed dialing dialled dialling text texting ring phone".split()
)
SERVICE_NAMES = {"en-gb": frozenset({"nhs"})}  # "call NHS 111": the service's name between the call and its number
SERVICE_NOUNS = frozenset(
    "operator operators dispatcher dispatchers dispatch call calls line lines center centre service services "
    "emergency lifeline hotline helpline".split()
)
# Words before a temperature written "24C" or "75F" (not a seat, "24C", nor a grade).
TEMPERATURE_WORDS = (
    "reach|reaches|reaching|reached|high|highs|low|lows|hit|hits|around|near|temperatures|temps|about|to"
)
# What a price's short "per" names ("£12.50pp", "£1.2k pcm": a rent per calendar month).
PER_ABBREVIATIONS = {"pp": "person", "p.p.": "person", "pn": "night", "p.n.": "night", "pa": "year", "p.a.": "year",
                     "pcm": "month", "pw": "week"}  # fmt: skip
HOUR_CUES = frozenset("at by until till from before after".split())  # words a bare "0800" is a time after
AGE_BOUNDS = frozenset({"under", "over"})  # "under-16s", "over-65s": an age group
WEEK_LETTERS = {"M": "Monday", "F": "Friday", "Th": "Thursday", "Sa": "Saturday", "Su": "Sunday"}  # "M–F"
SIZES = {"XXS": "double extra small", "XS": "extra small", "S": "small", "M": "medium", "L": "large",
         "XL": "extra large", "XXL": "double extra large", "2XL": "double extra large", "3XL": "triple extra large",
         "XXXL": "triple extra large"}  # fmt: skip
