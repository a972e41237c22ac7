"""Italian messages (italiano). The games' words follow the Italian rule sheet: dubito, calza,
palifico, teste d'Azteco (aces). Keys and placeholders match :mod:`perudo.i18n.en`."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str | list[str]]] = {
    # Parole che si possono scrivere (quelle di ogni lingua valgono ovunque).
    "input.dudo": ["dubito"],
    "input.calza": ["calza"],
    "input.palifico": ["palifico"],
    "input.normal": ["normale"],
    "input.pass": ["passo", "passa"],
    "input.aside": ["scopri", "mostra"],
    "input.aces": ["teste d'azteco", "testa d'azteco", "teste", "assi"],
    "input.help": ["aiuto"],
    "input.quit": ["esci"],
    "input.skip": ["salta"],
    # Le parole del gioco.
    "word.dudo": "dubito",
    "word.calza": "calza",
    "word.palifico": "palifico",
    "word.aces": "teste d'Azteco",
    # Posti.
    "seat.you": "Tu",
    "seat.you_mark": "(tu)",
    "seat.bot": "Bot {n}",
    "seat.generic": "Posto {n}",
    # Puntate e azioni.
    "bid.face": "{q} × {f}",
    "bid.aces": "{q} × teste d'Azteco",
    "act.dudo": "{dudo}!",
    "act.calza": "{calza}!",
    "act.pass": "passo",
    "act.aside": "da parte: {dice}",
    "act.choose_palifico": "giro {palifico}",
    "act.choose_normal": "giro normale",
    # L'inizio e i giri.
    "rolloff.throw": "Lancio iniziale (P-2): {dice}",
    "rolloff.opens": "Valore più alto: {who}, che apre il primo giro.",
    "start.from_record": "Si riprende una partita registrata dal giro {round}.",
    "round.header": "Giro {round} · {total} dadi in gioco",
    "round.header_memory": "Giro {round} · {total} dadi in gioco · modalità memoria (P-40)",
    "round.opens": "Apertura: {who}.",
    "palifico.announce": (
        "Giro palifico per {who}, rimasto con un solo dado: le teste d'Azteco non sono jolly e "
        "il valore della prima puntata resta fisso (P-30, P-31, P-32)."
    ),
    "palifico.open": (
        "Palifico: chi apre ({who}) può puntare su qualsiasi valore, teste d'Azteco comprese "
        "(P-32)."
    ),
    "palifico.locked": (
        "Palifico: il valore resta {face}; solo chi ha un solo dado può cambiarlo (P-32, P-33)."
    ),
    "palifico.choose": (
        "Hai un solo dado e apri quando siete in due: scegli un giro palifico (teste d'Azteco "
        "non jolly, valore fisso) o un giro normale. In entrambi i casi il palifico è usato "
        "(P-34)."
    ),
    "palifico.chosen": "{who}: giro {palifico} (P-34).",
    "palifico.declined": "{who}: giro normale; il {palifico} è comunque usato (P-34).",
    # Il tavolo.
    "table.out": "eliminato",
    "table.shown": "scoperti: {dice}",
    "table.to_act": "di turno",
    "hand.title": "I tuoi dadi:",
    "hand.wild": "{mark} = {aces}: jolly, valgono come qualsiasi valore (P-15)",
    "hand.not_wild": "Palifico: in questo giro le {aces} non sono jolly (P-31)",
    "hand.shown": "↑ messi da parte scoperti: {dice} (V-9)",
    "hand.rerolled": "I tuoi dadi dopo il rilancio:",
    "bids.title": "Puntate:",
    "bids.none": "nessuna finora",
    "bid.opening": "Nessuna puntata; apertura: {who}.",
    "bid.current_label": "Puntata attuale:",
    "bid.by": "({who})",
    "hint.bid": (
        "Probabilità che sia vera: {pct} · validi che vedi: {mine} · dadi coperti: {unseen} · "
        "attesi in tutto: {expected}"
    ),
    "hint.calza": "Probabilità che sia esatta: {pct}",
    "may.title": "Puoi:",
    "may.bid": "puntare {bids} o più",
    "may.wild": "{aces} {bid} o più",
    "may.no_raise": "non c'è una puntata più alta (P-16)",
    "may.pass": "passo (V-10)",
    "may.aside": "scopri + dadi da mostrare, es. scopri 55 (V-9)",
    "may.normal": "normale",
    # Le domande.
    "turn.rule": "{who}: tocca a te",
    "turn.must_raise": "Hai messo da parte dei dadi e rilanciato: ora alza la puntata (V-9).",
    "prompt.turn": "Tocca a te> ",
    "prompt.calza": "Chiami {calza} su {bid}? ({calza} / Invio per continuare)> ",
    "calza.dice": "I tuoi dadi: {dice}.",
    "err.unknown": (
        "Non capisco: «{text}». Scrivi una puntata come 3x5 o 3 5, «3 {aces}», {dudo}, "
        "oppure aiuto."
    ),
    "err.aside": "«{text}»: scrivi i valori da mettere da parte, per esempio scopri 55 (V-9).",
    "err.illegal": "Non consentito: {reason}",
    "err.empty": "Scrivi una puntata come 3x5, oppure {dudo}, oppure aiuto.",
    "help.text": (
        "Come si gioca:\n"
        "  3x5 o 3 5       puntata: almeno tre dadi sul tavolo mostrano 5 (le {aces} valgono "
        "come qualsiasi valore)\n"
        "  3 {aces}  puntata sulle {aces} (come 3x1)\n"
        "  {dudo}          sfida l'ultima puntata: chi perde la conta perde un dado\n"
        "  {calza}           l'ultima puntata è esatta (se le regole hanno la calza)\n"
        "  {palifico}, normale   la scelta in due (P-34)\n"
        "  passo, scopri 55   se le regole li prevedono (V-10, V-9)\n"
        "  aiuto, esci"
    ),
    # La sfida.
    "reveal.title": "Verifica di {bid} (puntata: {who} · {call}: {caller})",
    "reveal.pass": "Verifica del passo di {who} ({caller}: dubito): si mostrano i dadi (V-10).",
    "reveal.count": "{n} validi · totale {running}",
    "reveal.distinct": "{n} valori diversi",
    "reveal.hidden": "Rimasti coperti, mai mostrati (P-21): {who}",
    "verdict.dudo_holds": "{count} trovati: la puntata {bid} regge.",
    "verdict.dudo_fails": "Solo {count}: la puntata {bid} non regge.",
    "verdict.calza_exact": "Esattamente {count}: calza!",
    "verdict.calza_wrong": "{count}, non esattamente {bid}: la calza è sbagliata.",
    "verdict.pass_true": "Tutti diversi: il passo era vero.",
    "verdict.pass_false": "Non tutti diversi: il passo era falso.",
    "change.lose": "{who}: −1 dado",
    "change.lose_n": "{who}: −{n} dadi",
    "change.gain": "{who}: +1 dado",
    "change.capped": "{who}: già {max} dadi, nessun guadagno (P-51)",
    "change.left": "(ne restano {n})",
    "elim.other": "Eliminato: {who} (P-23).",
    "elim.you": "Sei eliminato (P-23). I bot giocano fino alla fine.",
    "next_opener": "Apertura del prossimo giro: {who}.",
    # La fine.
    "over.winner": "Vince la partita: {who}!",
    "over.you_win": "Hai vinto la partita!",
    "bye": "Arrivederci!",
    "save.prompt": "Salvare la registrazione della partita? Nome del file (Invio per saltare): ",
    "save.prompt_partial": "Salvare la partita fin qui? Nome del file (Invio per saltare): ",
    "save.done": "Partita salvata in {path}.",
    "save.failed": "Impossibile salvare in {path}: {error}",
    # Rivedere.
    "replay.title": "Replay: {rules}, {players} giocatori, {moves} mosse",
    "replay.unreadable": "Impossibile leggere {path}: {error}",
    "replay.bad": "Questa registrazione non può iniziare: {error}",
    "replay.bad_move": "La mossa {n} ({who}: {action}) non è valida: {error}",
    "replay.chance": "il caso",
    "replay.round": "Giro {round}",
    "replay.reroll": "{who} rilancia: {dice}",
    "replay.in_play": "giro non finito",
    "replay.revealed": "mostrati al tavolo (n. {n})",
    "replay.hidden": "mai mostrati al tavolo (P-21)",
    "replay.next": "Invio: giro seguente · q: esci> ",
    "replay.help": "Invio mostra il giro seguente; q (o esci) si ferma.",
    "replay.unfinished": "La registrazione finisce prima della partita.",
    "replay.end": "Fine della registrazione.",
}
