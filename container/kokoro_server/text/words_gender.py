"""The gender of a counted noun in Spanish, French, Italian and Portuguese, so that a number before it agrees:
"1 taza" is "una taza", "2 xícaras" "duas xícaras", "200 personas" "doscientas personas", "1 comprimido"
"un comprimido".

Without a dictionary of every noun, a noun's gender is known only where its form tells it: the common
countable nouns of agents' replies (doses, cups, days, pages, rooms) that are not also verbs, their plurals,
and endings that only feminine nouns have ("-ción", "-dade", "-zione", "-tion"; not "são", a verb). A word
that is not known stays unknown, and the number before it is said as before. A count is read so only where it
can be one: not after a label ("la opción 1 cuesta", "página 21 línea"), before a heading ("Parte 1
Introducción") or after a name ("Calle Mayor 1 puerta").
"""

from __future__ import annotations

from functools import cache

FEMININE = {
    "es": "taza cucharada cucharadita cuchara semana hora noche persona página pastilla cápsula tableta gota caja "
    "botella lata pieza bolsa tarjeta llamada entrada plaza cama maleta mesa silla puerta suite "
    "respuesta línea clase parada estrella foto hoja carta quincena jornada milla "
    "libra onza pulgada rebanada loncha barra vuelta cuota ración porción tienda oficina "
    "fila columna zona calle avenida manzana cebolla zanahoria patata naranja fresa galleta vez cerveza "
    "copa docena tonelada mujer imagen llave dosis unidad sucursal tarifa etapa pestaña aplicación camisa camiseta "
    "blusa falda chaqueta",
    "fr": "heure minute seconde semaine nuit journée année soirée matinée fois personne page chambre pièce "
    "étoile cuillère cuillerée tasse boîte bouteille tranche gousse pincée carte étape option "
    "tentative ligne adresse question réponse tonne goutte gélule pastille dose prise capsule valise table "
    "chose clé lettre photo vidéo salle fenêtre sortie entrée facture plainte séance "
    "leçon classe fiche unité mensualité échéance pomme carotte tomate banane "
    "noix douzaine centaine dizaine livraison",
    "it": "compressa capsula pastiglia goccia bustina fiala tazza tazzina cucchiaiata ora settimana notte volta "
    "persona pagina camera stanza stella bottiglia scatola lattina fetta foto carta linea risposta rata "
    "ricetta dose porzione sede lezione classe giornata mattina serata sera tappa fermata uscita entrata fila "
    "corsia richiesta telefonata chiamata chiave busta cartella mela carota patata arancia uova "
    "dozzina decina tonnellata libbra oncia suite camicia maglia borsa",
    "pt_BR": "xícara colher colherada semana hora noite pessoa página pílula cápsula gota caixa garrafa lata peça "
    "bolsa sacola fatia vez unidade mesa cadeira porta cama mala resposta linha aula parada estrela foto "
    "cópia folha carta quinzena jornada milha libra onça polegada parcela prestação cota porção "
    "receita loja fila coluna zona rua avenida maçã cebola cenoura batata laranja banana bolacha cerveja "
    "dúzia dezena centena tonelada mulher imagem chave dose taxa etapa aba mensagem viagem diária "
    "tentativa opção vaga camisa camiseta blusa calça saia meia",
}
MASCULINE = {
    "es": "día mes año minuto segundo kilo litro gramo metro huevo comprimido paquete billete viaje "
    "coche mensaje cliente usuario pedido producto artículo envío plazo punto paso nivel piso asiento vuelo "
    "tren autobús hotel plato vaso diente cigarro euro dólar peso céntimo centavo millón kilómetro centímetro "
    "milímetro mililitro miligramo grado problema programa sistema tema idioma mapa clima",
    "it": "giorno mese anno minuto secondo litro chilo etto grammo metro uovo pezzo pacco ordine cliente "
    "messaggio biglietto posto tavolo volo treno cucchiaio cucchiaino bicchiere euro dollaro centesimo sconto "
    "spazio zaino studente prodotto articolo utente punto passo livello piano",
}
# Endings that only feminine nouns have (plural forms included).
FEMININE_ENDINGS = {
    "es": ("ción", "ciones", "sión", "siones", "dad", "dades", "tad", "tades", "tud", "tudes", "umbre", "umbres",
           "ancia", "ancias", "encia", "encias"),
    "fr": ("tion", "tions", "sion", "sions", "ette", "ettes", "ière", "ières", "esse", "esses", "ité", "ités"),
    "it": ("zione", "zioni", "sione", "sioni", "ità", "tù"),
    "pt_BR": ("ção", "ções", "são", "sões", "dade", "dades", "agem", "agens", "ância", "âncias", "ência", "ências"),
}  # fmt: skip
# Words with a feminine ending that are verbs ("são": are, "agem": act).
_NOT_NOUNS = frozenset({"são", "agem"})


def _plurals(singular: str, lang: str) -> tuple[str, ...]:
    if lang == "it":
        return (
            {"a": singular[:-1] + "e", "o": singular[:-1] + "i", "e": singular[:-1] + "i"}.get(singular[-1], singular),
        )
    if lang == "fr":
        return (singular + "s", singular + "x") if not singular.endswith(("s", "x")) else (singular,)
    if singular.endswith("ción"):
        return (singular[:-4] + "ciones",)
    if singular.endswith(("z",)):
        return (singular[:-1] + "ces",)  # "vez": veces
    if singular.endswith("m") and lang == "pt_BR":
        return (singular[:-1] + "ns",)  # "imagem": imagens
    if singular.endswith("ão"):
        return (singular[:-2] + "ões",)
    if singular[-1] in "aeiouáéíóúêô":
        return (singular + "s",)
    return (singular + "es",)  # "mujer": mujeres, "colher": colheres


@cache
def _known(lang: str) -> dict[str, bool]:
    """Each listed noun and its plural -> whether it is feminine."""
    known: dict[str, bool] = {}
    for feminine, table in ((False, MASCULINE), (True, FEMININE)):
        for noun in table.get(lang, "").split():
            for form in (noun, *_plurals(noun, lang)):
                known.setdefault(form, feminine)
    return known


def feminine(noun: str, lang: str) -> bool | None:
    """Whether ``noun`` (as written after a count) is feminine; ``None`` where its form does not say for sure."""
    word = noun.lower()
    if (known := _known(lang).get(word)) is not None:
        return known
    if word.endswith(FEMININE_ENDINGS[lang]) and word not in _NOT_NOUNS:
        return True
    return None
