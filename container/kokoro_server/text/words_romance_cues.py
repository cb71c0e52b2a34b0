"""The Spanish, French, Italian and Brazilian Portuguese words that decide how what follows them is read
(``tag_cues_romance``, ``tag_cues_time``): after "código" digits are a code, after "sala" a number is a room's,
after "el" or "dal" a date, after "Luis" a numeral is a king's. The words that are said are ``words_romance``'s.
"""

from __future__ import annotations

from .words_romance import WEEKDAYS

# Words after which digits are a code to type, said one by one.
CODE_WORDS = {
    "es": "código|códigos|PIN|pin|clave|contraseña|referencia|pedido|localizador|reserva|OTP"
    "|terminada en|terminado en|acabada en|acabado en",  # a card's or an account's last digits
    "fr": "code|codes|PIN|référence|commande|réservation|dossier|OTP|se terminant par|terminant par|finissant par",
    "it": "codice|codici|PIN|riferimento|ordine|prenotazione|pratica|OTP|che termina con|che termina in"
    "|terminante in|che finisce con",
    "pt_BR": "código|códigos|PIN|senha|pedido|reserva|protocolo|CEP|OTP|terminado em|terminada em|com final",
}


# What kind of code: "código de verificación 583 201".
CODE_QUALIFIERS = {
    "es": "de verificación|de seguridad|de acceso|de confirmación|de un solo uso",
    "fr": "de vérification|de sécurité|d'accès|de confirmation|à usage unique",
    "it": "di verifica|di sicurezza|di accesso|di conferma",
    "pt_BR": "de verificação|de segurança|de acesso|de confirmação",
}


# Words a number after labels rather than counts ("página 21 línea 3", "la opción 1 cuesta"), in every language.
LABEL_WORDS = frozenset(
    "página pagina page sección section sezione seção paso étape passo opción option opzione opção nivel niveau "
    "livello nível número numéro numero punto point ponto artículo article articolo artigo calle rue via rua "
    "avenida avenue viale cliente client lote lot lotto modelo modèle modello plan tipo type grupo groupe gruppo "
    "fase phase etapa ejercicio exercice esercizio exercício lección leçon lezione lição parte partie capítulo "
    "chapitre capitolo paso pregunta question domanda pergunta jugador joueur giocatore jogador "
    "habitación chambre camera quarto puerta porte porta piso étage piano andar mesa table tavolo".split()
)


# Words after which "2.3" is a version, said with the dots' word ("versión 2.3": dos punto tres).
VERSION_WORDS = {"es": "versión|versiones", "fr": "version|versions", "it": "versione|versioni",
                 "pt_BR": "versão|versões"}  # fmt: skip


# Places said as a number, with a letter apart: "puerta B12" is "puerta B doce".
PLACE_WORDS = {
    "es": "habitación|puerta|asiento|andén|terminal|mesa|sala|planta|vía|fila|autobús|línea",
    "fr": "chambre|porte|siège|place|quai|terminal|table|salle|étage|voie|rang|bus|ligne",
    "it": "camera|stanza|gate|porta|posto|binario|terminal|tavolo|sala|piano|fila|autobus|linea",
    "pt_BR": "quarto|portão|assento|plataforma|terminal|mesa|sala|andar|fila|ônibus|linha",
}


# Short forms of two words, by their first word as written: "p. ej." is "por ejemplo", "c. à café" "cuillère
# à café", "c/ 8 h" "cada ocho horas".
PHRASES = {
    "es": (("p.", r"p\.\s?ej\.", "por ejemplo"), ("por", r"por\s?ej\.", "por ejemplo"), ("c/", r"c/(?=\s?\d)", "cada"),
           ("ej.", r"ej\.(?=\s?\d)", "ejercicio")),  # "ej. 3": an exercise; "p. ej.": for example
    "fr": (("p.", r"p\.\s?ex\.", "par exemple"), ("p.", r"p\.(?=\s?\d+[–-]\d)", "pages"),
           ("p.", r"p\.(?=\s?\d)", "page"),
           ("pp.", r"pp\.(?=\s?\d)", "pages"), ("c.", r"c\.\s?à\s?(?:c\.|café)", "cuillère à café"),
           ("c.", r"c\.\s?à\s?(?:s\.|soupe)", "cuillère à soupe")),
    "it": (("p.", r"p\.\s?es\.", "per esempio"),),
    "pt_BR": (("p.", r"p\.\s?ex\.", "por exemplo"),),
}  # fmt: skip


# Rulers' names, said with an ordinal after them ("Enrique VIII": octavo), and words that number a part.
RULERS = {
    "es": "Enrique Isabel Felipe Carlos Juan Pablo Alfonso Fernando Luis Jorge Eduardo Benedicto Pío León "
    "Gregorio Juan_Carlos Napoleón Pedro Jaime Sancho Ramiro Clemente Inocencio Alejandro Francisco",
    "fr": "Louis Henri François Charles Napoléon Élisabeth Elisabeth Jean Paul Benoît Léon Pie Philippe "
    "Guillaume Édouard George Georges Pierre Grégoire Clément Innocent Alexandre Frédéric Nicolas",
    "it": "Enrico Elisabetta Carlo Luigi Giovanni Paolo Benedetto Pio Leone Vittorio_Emanuele Umberto "
    "Federico Napoleone Francesco Filippo Giorgio Edoardo Gregorio Clemente Innocenzo Alessandro Pietro",
    "pt_BR": "Henrique Elizabeth Isabel Carlos Luís João Paulo Bento Pio Leão Pedro Manuel Filipe Jorge "
    "Eduardo Napoleão Afonso Sebastião Gregório Clemente Inocêncio Alexandre Francisco",
}


QUEENS = frozenset(
    "Isabel Isabella Elisabetta Elizabeth María Maria Victoria Vittoria Juana Caterina Catalina Ana".split()
)  # "Isabel II": segunda


PARTS = {
    "es": "capítulo Capítulo tomo Tomo volumen Volumen parte Parte acto Acto fase Fase nivel Nivel temporada",
    "fr": "chapitre Chapitre tome Tome partie Partie acte Acte livre Livre volume Volume phase Phase saison",
    "it": "capitolo Capitolo parte Parte atto Atto libro Libro volume Volume fase Fase stagione Stagione",
    "pt_BR": "capítulo Capítulo parte Parte ato Ato livro Livro volume Volume fase Fase temporada Temporada",
}


CENTURY = {"es": "siglo", "fr": "siècle", "it": "secolo", "pt_BR": "século"}


# Words after which a day and a month written in numbers are a date ("el 15/3": el quince de marzo); after the
# AMBIGUOUS ones a common fraction stays one ("el 3/4 de los clientes").
DATE_CUES = {
    "es": "hasta el|hasta|desde el|desde|antes del|después del|a partir del|para el|vence el|día|lunes|martes"
    "|miércoles|jueves|viernes|sábado|domingo",
    "fr": "jusqu'au|dès le|avant le|après le|à partir du|à compter du|échéance|lundi|mardi|mercredi|jeudi|vendredi"
    "|samedi|dimanche",
    "it": "entro il|fino al|a partire dal|dal|scadenza|giorno|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica",
    "pt_BR": "até|desde|a partir de|dia|vence em|vencimento|segunda|terça|quarta|quinta|sexta|sábado|domingo",
}
DATE_CUES = {lang: "|".join((cues, *WEEKDAYS[lang])) for lang, cues in DATE_CUES.items()}  # "lun. 15/12" too


AMBIGUOUS_DATE_CUES = {"es": "el|del|al", "fr": "le|du|au", "it": "il|al|del", "pt_BR": "em|de|a"}


# Words after which a time is written with a dot ("alle 15.30", "a las 9.00", "às 18.30").
DOTTED_TIME_CUES = {
    "es": "a las|las|desde las|hasta las|de las|a la",
    "fr": "à|vers|dès|jusqu'à",
    "it": "alle|dalle|ore|entro le|verso le|fino alle|alle ore|dalle ore",
    "pt_BR": "às|das|até as|até às|a partir das|as",
}


# Words that open a range of times written with dots, and what joins its ends ("de 9.00 a 14.00").
TIME_RANGE_CUES = {"es": "de|desde|entre", "fr": "de|entre", "it": "dalle|tra le|fra le", "pt_BR": "de|das|entre"}


TIME_RANGE_JOINS = {"es": "a|y|-|–", "fr": "à|et|-|–", "it": "alle|e|-|–", "pt_BR": "a|às|e|-|–"}


# Short numbers said digit by digit when called ("llame al 112"), and the words that call them.
SERVICE_NUMBERS = {"es": frozenset("112 091 092 061 016 024".split())}


CALL_WORDS = {"es": frozenset("al llame llama llamar llamen marque marca marcar teléfono".split())}
# Articles before a decade written in digits, which say "años", "années"... themselves: "los 1980s", "les années 80".
DECADE_ARTICLES = {"es": frozenset({"los"}), "fr": frozenset({"les", "des", "aux"}),
                   "it": frozenset({"gli", "negli", "degli", "agli", "dagli"}),
                   "pt_BR": frozenset({"os", "nos", "dos", "aos", "pelos"})}  # fmt: skip
COUNTRY = {"es": "ES", "fr": "FR", "it": "IT", "pt_BR": "BR"}  # whose national forms each language reads
BETWEEN = {"es": frozenset({"entre"}), "fr": frozenset({"entre"}), "it": frozenset({"tra", "fra"}),
           "pt_BR": frozenset({"entre"})}  # fmt: skip  # "entre 2 y 4": a range said with "y"
BETWEEN_ARTICLES = {"es": frozenset({"las", "los", "el", "la"}), "fr": frozenset({"les", "le", "la"}),
                    "it": frozenset({"i", "le", "la"}), "pt_BR": frozenset({"os", "as"})}  # fmt: skip
ORDINAL_DEGREE = frozenset({"it"})  # "il 3° posto": the degree sign typed for the ordinal's
ORDINAL_BEFORE_NOUN = frozenset({"es"})  # "el 1.º día": el primer día, the ordinal's short form before a noun
