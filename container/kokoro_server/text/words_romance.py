"""What Spanish, French, Italian and Brazilian Portuguese voices say for signs, units, short forms and
parts of an address (keyed by num2words' language code). Data only; the tagger reads with it
(``tag_cues_romance``), ``say_romance`` says it.
"""

from __future__ import annotations

import re

_UNIT_ENTRY = re.compile(r"(?P<unit>\S+)=(?P<one>[^=/]+)/(?P<many>[^=/]+?)(?=\s+\S+=|\s*$)")

# ISO code -> (singular, plural, cent singular, cent plural) per language
CURRENCIES = {
    "es": {
        "EUR": ("euro", "euros", "céntimo", "céntimos"),
        "USD": ("dólar", "dólares", "centavo", "centavos"),
        "GBP": ("libra", "libras", "penique", "peniques"),
        "BRL": ("real", "reales", "centavo", "centavos"),
        "MXN": ("peso mexicano", "pesos mexicanos", "centavo", "centavos"),
    },
    "fr": {
        "EUR": ("euro", "euros", "centime", "centimes"),
        "USD": ("dollar", "dollars", "cent", "cents"),
        "GBP": ("livre", "livres", "penny", "pence"),
        "BRL": ("réal", "réaux", "centavo", "centavos"),
        "MXN": ("peso mexicain", "pesos mexicains", "centavo", "centavos"),
    },
    "it": {
        "EUR": ("euro", "euro", "centesimo", "centesimi"),
        "USD": ("dollaro", "dollari", "centesimo", "centesimi"),
        "GBP": ("sterlina", "sterline", "penny", "pence"),
        "BRL": ("real", "real", "centavo", "centavos"),
        "MXN": ("peso messicano", "pesos messicani", "centavo", "centavos"),
    },
    "pt_BR": {
        "EUR": ("euro", "euros", "centavo", "centavos"),
        "USD": ("dólar", "dólares", "centavo", "centavos"),
        "GBP": ("libra", "libras", "pêni", "pence"),
        "BRL": ("real", "reais", "centavo", "centavos"),
        "MXN": ("peso mexicano", "pesos mexicanos", "centavo", "centavos"),
    },
}
# How each currency is written, before or after the amount (the names are in CURRENCIES, by ISO code).
CURRENCY_SIGNS = {"€": "EUR", "EUR": "EUR", "$": "USD", "US$": "USD", "USD": "USD", "£": "GBP", "GBP": "GBP",
                  "R$": "BRL", "BRL": "BRL", "MXN": "MXN", "MX$": "MXN"}  # fmt: skip
# A magnitude written after a number ("10k", "3,5M", "2,5 M€"), and the words for one that an amount of money
# takes before its currency ("R$ 4 bilhões": quatro bilhões de reais).
_WRITTEN_SCALES = {"k": "thousand", "K": "thousand", "M": "million", "B": "billion", "bn": "billion"}
WRITTEN_SCALES = {
    "es": _WRITTEN_SCALES
    | {
        "mil": "thousand",
        "millón": "million",
        "millones": "million",
        "mil millones": "billion",
        "billón": "trillion",
        "billones": "trillion",
    },
    "fr": _WRITTEN_SCALES
    | {
        "Md": "billion",
        "Mds": "billion",
        "Mrd": "billion",
        "mille": "thousand",
        "million": "million",
        "millions": "million",
        "milliard": "billion",
        "milliards": "billion",
    },
    "it": _WRITTEN_SCALES
    | {
        "mln": "million",
        "mld": "billion",
        "mila": "thousand",
        "milione": "million",
        "milioni": "million",
        "miliardo": "billion",
        "miliardi": "billion",
    },
    "pt_BR": _WRITTEN_SCALES
    | {
        "mi": "million",
        "bi": "billion",
        "tri": "trillion",
        "mil": "thousand",
        "milhão": "million",
        "milhões": "million",
        "bilhão": "billion",
        "bilhões": "billion",
        "trilhão": "trillion",
        "trilhões": "trillion",
    },
}
MONTHS = {
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "pt_BR": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
}
# Months' short forms that are no other word ("3 déc.", "15 ene."): "mar", "may", "juin" and the like are left out.
SHORT_MONTHS = {
    "es": {"ene": 1, "feb": 2, "abr": 4, "ago": 8, "sept": 9, "oct": 10, "nov": 11, "dic": 12},
    "fr": {"janv": 1, "févr": 2, "avr": 4, "juil": 7, "sept": 9, "oct": 10, "nov": 11, "déc": 12},
    "it": {"gen": 1, "feb": 2, "apr": 4, "mag": 5, "giu": 6, "lug": 7, "ago": 8, "sett": 9, "ott": 10, "nov": 11,
           "dic": 12},
    "pt_BR": {"jan": 1, "fev": 2, "abr": 4, "ago": 8, "set": 9, "out": 10, "nov": 11, "dez": 12},
}  # fmt: skip
# Weekdays' short forms -> the day's name ("lun. 15/12"); those that are also a month's ("mar") are left out.
WEEKDAYS = {
    "es": {"lun": "lunes", "mié": "miércoles", "jue": "jueves", "vie": "viernes", "sáb": "sábado", "dom": "domingo"},
    "fr": {"lun": "lundi", "mer": "mercredi", "jeu": "jeudi", "ven": "vendredi", "sam": "samedi", "dim": "dimanche"},
    "it": {"lun": "lunedì", "mer": "mercoledì", "gio": "giovedì", "ven": "venerdì", "sab": "sabato",
           "dom": "domenica"},
    "pt_BR": {"seg": "segunda", "qua": "quarta", "qui": "quinta", "sex": "sexta", "sáb": "sábado", "dom": "domingo"},
}  # fmt: skip
# Short forms of a weekday that are also words ("mar": the sea, "ter": to have): a weekday only before a date.
WEEKDAYS_BEFORE_DATE = {"es": {"mar": "martes"}, "fr": {"mar": "mardi"}, "it": {"mar": "martedì"},
                        "pt_BR": {"ter": "terça"}}  # fmt: skip
# What may follow "/" in a rate -> what is said for it ("12,99 €/mes": doce euros... al mes).
PER_WORDS = {
    "es": {"mes": "al mes", "año": "al año", "día": "al día", "semana": "a la semana", "h": "por hora",
           "hora": "por hora", "min": "por minuto", "noche": "por noche", "persona": "por persona", "kg": "por kilo",
           "km": "por kilómetro", "kWh": "por kilovatio hora", "mo": "al mes"},
    "fr": {"mois": "par mois", "an": "par an", "année": "par an", "jour": "par jour", "j": "par jour",
           "semaine": "par semaine", "h": "de l'heure", "heure": "de l'heure", "min": "par minute",
           "nuit": "par nuit", "personne": "par personne", "kg": "le kilo", "km": "par kilomètre",
           "kWh": "le kilowattheure", "mo": "par mois"},
    "it": {"mese": "al mese", "anno": "all'anno", "giorno": "al giorno", "settimana": "alla settimana",
           "h": "all'ora", "ora": "all'ora", "min": "al minuto", "notte": "a notte", "persona": "a persona",
           "kg": "al chilo", "km": "al chilometro", "kWh": "al chilowattora", "mo": "al mese"},
    "pt_BR": {"mês": "por mês", "ano": "por ano", "dia": "por dia", "semana": "por semana", "h": "por hora",
              "hora": "por hora", "min": "por minuto", "noite": "por noite", "pessoa": "por pessoa",
              "kg": "por quilo", "km": "por quilômetro", "kWh": "por quilowatt-hora", "mo": "por mês"},
}  # fmt: skip
# A fraction's denominator -> (one, many): "3/4" is "tres cuartos", "trois quarts", "tre quarti", "três quartos".
FRACTIONS = {
    "es": {2: ("medio", "medios"), 3: ("tercio", "tercios"), 4: ("cuarto", "cuartos"), 5: ("quinto", "quintos"),
           6: ("sexto", "sextos"), 8: ("octavo", "octavos"), 10: ("décimo", "décimos")},
    "fr": {2: ("demi", "demis"), 3: ("tiers", "tiers"), 4: ("quart", "quarts"), 5: ("cinquième", "cinquièmes"),
           6: ("sixième", "sixièmes"), 8: ("huitième", "huitièmes"), 10: ("dixième", "dixièmes")},
    "it": {2: ("mezzo", "mezzi"), 3: ("terzo", "terzi"), 4: ("quarto", "quarti"), 5: ("quinto", "quinti"),
           6: ("sesto", "sesti"), 8: ("ottavo", "ottavi"), 10: ("decimo", "decimi")},
    "pt_BR": {2: ("meio", "meios"), 3: ("terço", "terços"), 4: ("quarto", "quartos"), 5: ("quinto", "quintos"),
              6: ("sexto", "sextos"), 8: ("oitavo", "oitavos"), 10: ("décimo", "décimos")},
}  # fmt: skip
ONE = {"es": "un", "fr": "un", "it": "un", "pt_BR": "um"}  # "un cuarto", before a noun
PERCENT = {"es": "por ciento", "fr": "pour cent", "it": "per cento", "pt_BR": "por cento"}
JOIN = {"es": "con", "fr": "et", "it": "e", "pt_BR": "e"}  # "42 euros con 97 céntimos"
TIME_JOIN = {"es": "y", "fr": "heures", "it": "e", "pt_BR": "e"}  # "quince y treinta"
DECIMAL_WORD = {"es": "coma", "fr": "virgule", "it": "virgola", "pt_BR": "vírgula"}
MINUS = {"es": "menos", "fr": "moins", "it": "meno", "pt_BR": "menos"}
PI = {"es": "pi", "fr": "pi", "it": "pi greco", "pt_BR": "pi"}  # "πr²"
POINT = {"es": "punto", "fr": "point", "it": "punto", "pt_BR": "ponto"}  # "2.4.1": a version's dots
# What signs are called in an e-mail or web address, and in a code.
ADDRESS_SIGNS = {
    "es": {".": "punto", "-": "guion", "_": "guion bajo", "/": "barra", ":": "dos puntos", "@": "arroba",
           "+": "más", "?": "interrogación", "=": "igual", "&": "y", "#": "almohadilla"},
    "fr": {".": "point", "-": "tiret", "_": "tiret bas", "/": "slash", ":": "deux points", "@": "arobase",
           "+": "plus", "?": "point d'interrogation", "=": "égal", "&": "et", "#": "dièse"},
    "it": {".": "punto", "-": "trattino", "_": "trattino basso", "/": "barra", ":": "due punti", "@": "chiocciola",
           "+": "più", "?": "punto interrogativo", "=": "uguale", "&": "e", "#": "cancelletto"},
    "pt_BR": {".": "ponto", "-": "hífen", "_": "sublinhado", "/": "barra", ":": "dois pontos", "@": "arroba",
              "+": "mais", "?": "interrogação", "=": "igual", "&": "e", "#": "hashtag"},
}  # fmt: skip
# Signs of measures and mathematics, said by name wherever they stand ("3 × 10⁸", "≈ B", "70.7°C" in a code).
MATH_SIGNS = {
    "es": {"×": "por", "÷": "entre", "±": "más o menos", "≈": "aproximadamente", "~": "aproximadamente",
           "<": "menor que", ">": "mayor que", "≤": "menor o igual que", "≥": "mayor o igual que", "°": "grados",
           "‰": "por mil", "^": "elevado a", "\\": "barra invertida", "|": "barra vertical"},
    "fr": {"×": "fois", "÷": "divisé par", "±": "plus ou moins", "≈": "environ", "~": "environ",
           "<": "inférieur à", ">": "supérieur à", "≤": "inférieur ou égal à", "≥": "supérieur ou égal à",
           "°": "degrés", "‰": "pour mille", "^": "puissance", "\\": "antislash", "|": "barre verticale"},
    "it": {"×": "per", "÷": "diviso", "±": "più o meno", "≈": "circa", "~": "circa", "<": "minore di",
           ">": "maggiore di", "≤": "minore o uguale a", "≥": "maggiore o uguale a", "°": "gradi", "‰": "per mille",
           "^": "elevato a", "\\": "barra rovesciata", "|": "barra verticale"},
    "pt_BR": {"×": "vezes", "÷": "dividido por", "±": "mais ou menos", "≈": "aproximadamente", "~": "cerca de",
              "<": "menor que", ">": "maior que", "≤": "menor ou igual a", "≥": "maior ou igual a", "°": "graus",
              "‰": "por mil", "^": "elevado a", "\\": "barra invertida", "|": "barra vertical"},
}  # fmt: skip
SYMBOLS = {
    lang: {"&": words["&"], "+": words["+"], "=": words["="], "@": words["@"], "/": words["/"], "_": words["_"],
           "%": PERCENT[lang], "#": {"es": "número", "fr": "numéro", "it": "numero", "pt_BR": "número"}[lang],
           "−": MINUS[lang], "π": PI[lang],
           "*": {"es": "asterisco", "fr": "étoile", "it": "asterisco", "pt_BR": "asterisco"}[lang],
           "$": CURRENCIES[lang]["USD"][0], "€": CURRENCIES[lang]["EUR"][0],
           "£": "livre sterling" if lang == "fr" else CURRENCIES[lang]["GBP"][0],  # "livre L" is a book's part
           "§": {"es": "párrafo", "fr": "paragraphe", "it": "paragrafo", "pt_BR": "parágrafo"}[lang],
           "©": "copyright", "→": {"es": "a", "fr": "à", "it": "a", "pt_BR": "para"}[lang],
           "²": {"es": "al cuadrado", "fr": "au carré", "it": "al quadrato", "pt_BR": "ao quadrado"}[lang],
           "³": {"es": "al cubo", "fr": "au cube", "it": "al cubo", "pt_BR": "ao cubo"}[lang]}
    | MATH_SIGNS[lang]
    for lang, words in ADDRESS_SIGNS.items()
}  # fmt: skip
LONE_SIGNS = {"es": {"§§": "párrafos"}, "fr": {"§§": "paragraphes"}, "it": {"§§": "paragrafi"},
              "pt_BR": {"§§": "parágrafos"}}  # fmt: skip  # a sign alone, not in a code
DEGREE_UNITS = {
    "es": "°=un grado/grados °C=un grado centígrado/grados centígrados ºC=un grado centígrado/grados centígrados "
    "°F=un grado Fahrenheit/grados Fahrenheit",
    "fr": "°=un degré/degrés °C=un degré Celsius/degrés Celsius ºC=un degré Celsius/degrés Celsius "
    "°F=un degré Fahrenheit/degrés Fahrenheit",
    "it": "°=un grado/gradi °C=un grado centigrado/gradi centigradi ºC=un grado centigrado/gradi centigradi "
    "°F=un grado Fahrenheit/gradi Fahrenheit",
    "pt_BR": "°=um grau/graus °C=um grau Celsius/graus Celsius ºC=um grau Celsius/graus Celsius "
    "°F=um grau Fahrenheit/graus Fahrenheit",
}
TO = {"es": "a", "fr": "à", "it": "a", "pt_BR": "a"}  # "65-70 °F": sesenta y cinco a setenta grados
AND = {"es": "y", "fr": "et", "it": "e", "pt_BR": "e"}
DURATION_UNITS = {
    "es": {"hour": ("una hora", "horas"), "minute": ("un minuto", "minutos"), "second": ("un segundo", "segundos")},
    "fr": {"hour": ("une heure", "heures"), "minute": ("une minute", "minutes"), "second": ("une seconde", "secondes")},
    "it": {"hour": ("un'ora", "ore"), "minute": ("un minuto", "minuti"), "second": ("un secondo", "secondi")},
    "pt_BR": {"hour": ("uma hora", "horas"), "minute": ("um minuto", "minutos"), "second": ("um segundo", "segundos")},
}
OVER = {"es": "sobre", "fr": "sur", "it": "su", "pt_BR": "por"}  # "128/82": a reading, one number over another
KEYPAD_KEYS = {"es": {"*": "asterisco", "#": "almohadilla"}, "fr": {"*": "étoile", "#": "dièse"},
        "it": {"*": "asterisco", "#": "cancelletto"}, "pt_BR": {"*": "asterisco", "#": "jogo da velha"}}  # fmt: skip
POWER = {"es": "elevado a", "fr": "puissance", "it": "elevato a", "pt_BR": "elevado a"}  # "10⁸": diez elevado a ocho
PLUS = {"es": "más", "fr": "plus", "it": "più", "pt_BR": "mais"}
EQUALS = {"es": "igual a", "fr": "égale", "it": "uguale a", "pt_BR": "igual a"}
ABOUT = {"es": "aproximadamente", "fr": "environ", "it": "circa", "pt_BR": "aproximadamente"}
ROOTS = {
    "es": {"√": "raíz cuadrada de", "∛": "raíz cúbica de"},
    "fr": {"√": "racine carrée de", "∛": "racine cubique de"},
    "it": {"√": "radice quadrata di", "∛": "radice cubica di"},
    "pt_BR": {"√": "raiz quadrada de", "∛": "raiz cúbica de"},
}  # "√49": raíz cuadrada de cuarenta y nueve (the article is the text's: "la √49")
MORE_THAN = {"es": "más de", "fr": "plus de", "it": "più di", "pt_BR": "mais de"}
LESS_THAN = {"es": "menos de", "fr": "moins de", "it": "meno di", "pt_BR": "menos de"}
AT_SIGN = {"es": "arroba", "fr": "arobase", "it": "chiocciola", "pt_BR": "arroba"}
NUMBER_SIGN = {"es": "número", "fr": "numéro", "it": "numero", "pt_BR": "número"}
TIMES = {"es": "veces", "fr": "fois", "it": "volte", "pt_BR": "vezes"}
BY = {"es": "por", "fr": "par", "it": "per", "pt_BR": "por"}  # "1920x1080"
EXTENSION = {"es": "extensión", "fr": "poste", "it": "interno", "pt_BR": "ramal"}
# scale -> (one, many): "1M" is "un millón", "3M" "tres millones"
SCALES = {
    "es": {
        "k": ("mil", "mil"),
        "M": ("un millón", "millones"),
        "B": ("mil millones", "mil millones"),
        "T": ("un billón", "billones"),
    },
    "fr": {
        "k": ("mille", "mille"),
        "M": ("un million", "millions"),
        "B": ("un milliard", "milliards"),
        "T": ("un billion", "billions"),
    },
    "it": {
        "k": ("mille", "mila"),
        "M": ("un milione", "milioni"),
        "B": ("un miliardo", "miliardi"),
        "T": ("mille miliardi", "mila miliardi"),
    },
    "pt_BR": {
        "k": ("mil", "mil"),
        "M": ("um milhão", "milhões"),
        "B": ("um bilhão", "bilhões"),
        "T": ("um trilhão", "trilhões"),
    },
}
OF = {"es": "de", "fr": "de", "it": "di", "pt_BR": "de"}  # "3 millones de euros"
QUARTER = {"es": "trimestre", "fr": "trimestre", "it": "trimestre", "pt_BR": "trimestre"}
HALF = {"es": "semestre", "fr": "semestre", "it": "semestre", "pt_BR": "semestre"}
FISCAL_YEAR = {"es": "año fiscal", "fr": "exercice", "it": "anno fiscale", "pt_BR": "ano fiscal"}
OF_YEAR = {"es": " de", "fr": "", "it": " del", "pt_BR": " de"}  # "tercer trimestre de 2025"
# unit -> (one, many) per language; "una hora": the singular carries its own article-number
UNITS = {
    "es": "km=un kilómetro/kilómetros cm=un centímetro/centímetros mm=un milímetro/milímetros "
    "kg=un kilo/kilos g=un gramo/gramos mg=un miligramo/miligramos l=un litro/litros ml=un mililitro/mililitros "
    "km/h=un kilómetro por hora/kilómetros por hora mph=una milla por hora/millas por hora "
    "KB=un kilobyte/kilobytes MB=un megabyte/megabytes GB=un gigabyte/gigabytes TB=un terabyte/terabytes "
    "MB/s=un megabyte por segundo/megabytes por segundo Mbps=un megabit por segundo/megabits por segundo "
    "Gbps=un gigabit por segundo/gigabits por segundo GHz=un gigahercio/gigahercios MHz=un megahercio/megahercios "
    "kWh=un kilovatio hora/kilovatios hora kW=un kilovatio/kilovatios W=un vatio/vatios "
    "h=una hora/horas min=un minuto/minutos ms=un milisegundo/milisegundos ′=un pie/pies ″=una pulgada/pulgadas "
    "m=un metro/metros m²=un metro cuadrado/metros cuadrados m2=un metro cuadrado/metros cuadrados m³=un metro "
    "cúbico/metros cúbicos m3=un metro cúbico/metros cúbicos km²=un kilómetro cuadrado/kilómetros cuadrados "
    "cm²=un centímetro cuadrado/centímetros cuadrados cm³=un centímetro cúbico/centímetros cúbicos ha=una "
    "hectárea/hectáreas cl=un centilitro/centilitros seg=un segundo/segundos "
    "Mbit/s=un megabit por segundo/megabits por segundo Gbit/s=un gigabit por segundo/gigabits por segundo",
    "fr": "km=un kilomètre/kilomètres cm=un centimètre/centimètres mm=un millimètre/millimètres "
    "kg=un kilo/kilos g=un gramme/grammes mg=un milligramme/milligrammes l=un litre/litres "
    "ml=un millilitre/millilitres "
    "km/h=un kilomètre heure/kilomètres heure mph=un mile par heure/miles par heure "
    "Ko=un kilooctet/kilooctets Mo=un mégaoctet/mégaoctets Go=un gigaoctet/gigaoctets To=un téraoctet/téraoctets "
    "KB=un kilooctet/kilooctets MB=un mégaoctet/mégaoctets GB=un gigaoctet/gigaoctets TB=un téraoctet/téraoctets "
    "Mo/s=un mégaoctet par seconde/mégaoctets par seconde MB/s=un mégaoctet par seconde/mégaoctets par seconde "
    "Mbps=un mégabit par seconde/mégabits par seconde Gbps=un gigabit par seconde/gigabits par seconde "
    "GHz=un gigahertz/gigahertz MHz=un mégahertz/mégahertz kWh=un kilowattheure/kilowattheures "
    "kW=un kilowatt/kilowatts W=un watt/watts min=une minute/minutes ms=une milliseconde/millisecondes ′=un "
    "pied/pieds ″=un pouce/pouces m=un mètre/mètres m²=un mètre carré/mètres carrés m2=un mètre carré/mètres "
    "carrés m³=un mètre cube/mètres cubes m3=un mètre cube/mètres cubes km²=un kilomètre carré/kilomètres carrés "
    "cm²=un centimètre carré/centimètres carrés cm³=un centimètre cube/centimètres cubes ha=un hectare/hectares "
    "cl=un centilitre/centilitres j=un jour/jours "
    "Mbit/s=un mégabit par seconde/mégabits par seconde Gbit/s=un gigabit par seconde/gigabits par seconde",
    "it": "km=un chilometro/chilometri cm=un centimetro/centimetri mm=un millimetro/millimetri "
    "kg=un chilo/chili g=un grammo/grammi mg=un milligrammo/milligrammi l=un litro/litri ml=un millilitro/millilitri "
    "km/h=un chilometro orario/chilometri orari mph=un miglio orario/miglia orarie "
    "KB=un kilobyte/kilobyte MB=un megabyte/megabyte GB=un gigabyte/gigabyte TB=un terabyte/terabyte "
    "MB/s=un megabyte al secondo/megabyte al secondo Mbps=un megabit al secondo/megabit al secondo "
    "Gbps=un gigabit al secondo/gigabit al secondo GHz=un gigahertz/gigahertz MHz=un megahertz/megahertz "
    "kWh=un chilowattora/chilowattora kW=un chilowatt/chilowatt W=un watt/watt "
    "h=un'ora/ore min=un minuto/minuti ms=un millisecondo/millisecondi ′=un piede/piedi ″=un pollice/pollici m=un "
    "metro/metri m²=un metro quadrato/metri quadrati m2=un metro quadrato/metri quadrati mq=un metro "
    "quadrato/metri quadrati m³=un metro cubo/metri cubi m3=un metro cubo/metri cubi mc=un metro cubo/metri cubi "
    "km²=un chilometro quadrato/chilometri quadrati cm²=un centimetro quadrato/centimetri quadrati cm³=un "
    "centimetro cubo/centimetri cubi ha=un ettaro/ettari cl=un centilitro/centilitri "
    "sec=un secondo/secondi Mbit/s=un megabit al secondo/megabit al secondo "
    "Gbit/s=un gigabit al secondo/gigabit al secondo",
    "pt_BR": "km=um quilômetro/quilômetros cm=um centímetro/centímetros mm=um milímetro/milímetros "
    "kg=um quilo/quilos g=um grama/gramas mg=um miligrama/miligramas l=um litro/litros ml=um mililitro/mililitros "
    "km/h=um quilômetro por hora/quilômetros por hora mph=uma milha por hora/milhas por hora "
    "KB=um kilobyte/kilobytes MB=um megabyte/megabytes GB=um gigabyte/gigabytes TB=um terabyte/terabytes "
    "MB/s=um megabyte por segundo/megabytes por segundo Mbps=um megabit por segundo/megabits por segundo "
    "Gbps=um gigabit por segundo/gigabits por segundo GHz=um gigahertz/gigahertz MHz=um megahertz/megahertz "
    "kWh=um quilowatt-hora/quilowatts-hora kW=um quilowatt/quilowatts W=um watt/watts "
    "h=uma hora/horas min=um minuto/minutos ms=um milissegundo/milissegundos ′=um pé/pés ″=uma polegada/polegadas "
    "m=um metro/metros m²=um metro quadrado/metros quadrados m2=um metro quadrado/metros quadrados m³=um metro "
    "cúbico/metros cúbicos m3=um metro cúbico/metros cúbicos km²=um quilômetro quadrado/quilômetros quadrados "
    "cm²=um centímetro quadrado/centímetros quadrados cm³=um centímetro cúbico/centímetros cúbicos ha=um "
    "hectare/hectares cl=um centilitro/centilitros seg=um segundo/segundos "
    "Mbit/s=um megabit por segundo/megabits por segundo Gbit/s=um gigabit por segundo/gigabits por segundo",
}
# Units read only after a space: "30 s" is thirty seconds, "1980s" a decade.
SPACED_UNITS = {"es": "s=un segundo/segundos", "fr": "s=une seconde/secondes", "it": "s=un secondo/secondi",
                "pt_BR": "s=um segundo/segundos"}  # fmt: skip
SPACED_UNIT_KEYS = frozenset({"s"})
UNIT_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    lang: {
        entry["unit"]: (entry["one"], entry["many"])
        for entry in _UNIT_ENTRY.finditer(f"{table} {DEGREE_UNITS[lang]} {SPACED_UNITS[lang]}")
    }
    for lang, table in UNITS.items()
}
# Abbreviations in addresses and titles: "C/ Mayor" is "calle Mayor".
ADDRESS_WORDS = {
    "es": {"C/": "calle", "Avda.": "avenida", "Av.": "avenida", "Pza.": "plaza", "Pl.": "plaza", "n.º": "número",
           "nº": "número", "núm.": "número", "Dr.": "doctor", "Dra.": "doctora", "Sr.": "señor", "Sra.": "señora",
           "Ctra.": "carretera", "Pº": "paseo", "Edif.": "edificio", "dcha.": "derecha", "izq.": "izquierda"},
    "fr": {"bd": "boulevard", "bd.": "boulevard", "boul.": "boulevard", "av.": "avenue", "Av.": "avenue",
           "pl.": "place", "apt": "appartement", "apt.": "appartement", "n°": "numéro", "no.": "numéro",
           "M.": "monsieur", "Mme": "madame", "Dr": "docteur", "Dr.": "docteur", "bât.": "bâtiment"},
    "it": {"P.za": "piazza", "P.zza": "piazza", "C.so": "corso", "V.le": "viale", "int.": "interno",
           "n.": "numero", "Dott.": "dottor", "Sig.": "signor", "Sig.ra": "signora", "Avv.": "avvocato"},
    "pt_BR": {"R.": "Rua", "Av.": "Avenida", "nº": "número", "n.º": "número", "apto": "apartamento",
              "apto.": "apartamento", "ap.": "apartamento", "Sr.": "senhor", "Sra.": "senhora", "Dr.": "doutor",
              "Dra.": "doutora", "Rod.": "rodovia", "Pça.": "praça"},
}  # fmt: skip
# Short forms whose reading does not depend on what follows ("aprox.", "etc."); in capitals at a sentence's start too.
ABBREVIATIONS = {
    "es": {"aprox.": "aproximadamente", "etc.": "etcétera", "art.": "artículo", "tel.": "teléfono",
           "pág.": "página", "págs.": "páginas", "máx.": "máximo", "mín.": "mínimo", "Ud.": "usted",
           "Uds.": "ustedes", "ej.": "ejemplo", "dto.": "descuento", "Dña.": "doña", "Dª": "doña", "D.ª": "doña",
           "c/u": "cada uno", "incl.": "incluido", "máx": "máximo", "max.": "máximo", "cap.": "capítulo",
           "caps.": "capítulos", "izq.": "izquierda", "izda.": "izquierda"},
    "fr": {"etc.": "et cetera", "env.": "environ", "art.": "article", "tél.": "téléphone", "max.": "maximum",
           "c.-à-d.": "c'est-à-dire", "chap.": "chapitre", "incl.": "inclus"},
    "it": {"ecc.": "eccetera", "etc.": "eccetera", "dott.": "dottor", "dott.ssa": "dottoressa",
           "Dott.ssa": "dottoressa", "sig.": "signor", "sig.ra": "signora", "ca.": "circa", "art.": "articolo",
           "tel.": "telefono", "pag.": "pagina", "es.": "esempio", "prof.": "professor", "Prof.": "professor",
           "ing.": "ingegner", "Ing.": "ingegner", "avv.": "avvocato", "max.": "massimo", "incl.": "inclusa",
           "cap.": "capitolo", "pagg.": "pagine"},
    "pt_BR": {"aprox.": "aproximadamente", "etc.": "et cetera", "art.": "artigo", "tel.": "telefone",
              "pág.": "página", "máx.": "máximo", "mín.": "mínimo", "Prof.": "professor",
              "Profa.": "professora", "cap.": "capítulo", "incl.": "incluso", "máx": "máximo", "max.": "máximo"},
}  # fmt: skip
ABBREVIATIONS = {
    lang: table | {key[0].upper() + key[1:]: value[0].upper() + value[1:] for key, value in table.items()
                   if key[0].islower() and len(key) > 4}  # not "Max.", a name
    for lang, table in ABBREVIATIONS.items()
}  # fmt: skip
