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
    "input.yes": ["s", "sì", "si"],
    "input.end": ["fine"],
    "input.skip": ["salta"],
    # Le parole del gioco.
    "word.dudo": "dubito",
    "word.calza": "calza",
    "word.palifico": "palifico",
    # Come etichette (pulsanti, titoli: la pagina web), dove una frase li dice come sopra.
    "word.label.dudo": "Dubito",
    "word.label.calza": "Calza",
    "word.label.palifico": "palifico",
    "word.aces": "teste d'Azteco",
    "word.star": "{f}★",
    # Posti.
    "seat.you": "Tu",
    "seat.you_subject": "tu",
    "seat.you_object": "te",
    "seat.you_mark": "(tu)",
    "seat.bot": "Bot {n}",
    "seat.generic": "Posto {n}",
    "name.bot": "Bot {level} {n}",
    "name.level.easy": "facile",
    "name.level.medium": "medio",
    "name.level.hard": "difficile",
    "name.level.expert": "esperto",
    # Puntate e azioni.
    "bid.face": "{q} × {f}",
    "bid.aces": "{q:testa d'Azteco/teste d'Azteco}",
    "bid.star": "{q} × {f}★",
    # Faces and bids as a screen reader says them on the web page ("three fives").
    "say.face.1": "uno",
    "say.face.2": "due",
    "say.face.3": "tre",
    "say.face.4": "quattro",
    "say.face.5": "cinque",
    "say.face.6": "sei",
    "say.face.7": "sette",
    "say.face.8": "otto",
    "say.face.9": "nove",
    "say.wild": "{face} (jolly)",
    "say.bid": "{q} × {faces}",
    "say.faces.1": "uno",
    "say.faces.2": "due",
    "say.faces.3": "tre",
    "say.faces.4": "quattro",
    "say.faces.5": "cinque",
    "say.faces.6": "sei",
    "say.faces.7": "sette",
    "say.faces.8": "otto",
    "say.faces.9": "nove",
    "say.bid_one": "1 × {face}",
    "act.dudo": "{dudo}!",
    "act.calza": "{calza}!",
    "act.pass": "passo",
    "act.aside": "da parte: {dice}",
    "act.choose_palifico": "giro {palifico}",
    "act.choose_normal": "giro normale",
    # L'inizio e i giri.
    "rolloff.throw": "Lancio iniziale: {dice}",
    "rolloff.opens": "Valore più alto: {who}, che apre il primo giro.",
    "start.from_record": "Si riprende una partita registrata dal giro {round}.",
    "round.header": "Giro {round} · {total} dadi in gioco",
    "round.header_memory": "Giro {round} · modalità memoria",
    "round.opens": "Apertura: {who}.",
    "palifico.announce": (
        "Giro palifico: {who:ha/hai} un solo dado. Le teste d'Azteco non sono jolly e il valore "
        "della prima puntata resta fisso."
    ),
    "palifico.open": (
        "Palifico: chi apre ({who}) può puntare su qualsiasi valore, teste d'Azteco comprese."
    ),
    "palifico.locked": (
        "Palifico: il valore resta {face}; solo chi ha un solo dado può cambiarlo."
    ),
    "palifico.choose": (
        "Hai un solo dado e apri quando siete in due: scegli un giro palifico (teste d'Azteco "
        "non jolly, valore fisso) o un giro normale. In entrambi i casi il palifico è usato."
    ),
    "palifico.chosen": "{who}: giro {palifico}.",
    "palifico.declined": "{who}: giro normale; il {palifico} è comunque usato.",
    # Il tavolo.
    "table.out": "fuori gioco",
    "table.shown": "scoperti: {dice}",
    "table.to_act": "di turno",
    "hand.title": "I tuoi dadi:",
    "hand.wild": "{mark} = {aces}: jolly, valgono come qualsiasi valore",
    "hand.not_wild": "Palifico: in questo giro le {aces} non sono jolly",
    "hand.shown": "↑ messi da parte scoperti: {dice}",
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
    "may.no_raise": "non c'è una puntata più alta",
    "may.pass": "passo",
    "may.aside": "scopri + dadi da mostrare, es. scopri 55",
    "may.normal": "normale",
    # Le domande.
    "turn.rule": "{who}: tocca a te",
    "turn.must_raise": "Hai messo da parte dei dadi e rilanciato: ora alza la puntata.",
    "prompt.turn": "Tocca a te> ",
    "prompt.calza": "Chiami {calza} su {bid}? ({calza} / Invio per continuare)> ",
    "calza.dice": "I tuoi dadi: {dice}.",
    "calza.help": "Scrivi {calza} se la puntata è esatta, oppure premi Invio per continuare.",
    "err.unknown": (
        "Non capisco: «{text}». Scrivi una puntata come 3x5 o 3 5, «3 {aces}», {dudo}, "
        "oppure aiuto."
    ),
    "err.aside": "«{text}»: scrivi i valori da mettere da parte, per esempio scopri 55.",
    "err.illegal": "Non consentito: {reason}",
    "err.encoding": (
        "Impossibile leggere la riga: l'input di questo terminale è {encoding}. Scrivi con "
        "lettere e cifre semplici (3x5, dudo, q), oppure usa una localizzazione UTF-8."
    ),
    "err.empty": "Scrivi una puntata come 3x5, oppure {dudo}, oppure aiuto.",
    "help.title": "Come si gioca:",
    "help.bid": "puntata: almeno tre 5 sul tavolo, jolly ({wild}) compresi",
    "help.bid_no_wild": "puntata: almeno tre 5 sul tavolo",
    "help.aces": "puntata sulle {wild} (come 3x1)",
    "help.star": "puntata sui {wild}, il valore jolly",
    "help.dudo": "sfida l'ultima puntata: chi perde la conta perde dadi",
    "help.calza": "l'ultima puntata è esatta",
    "help.palifico": "la scelta degli ultimi due giocatori, con un solo dado",
    "help.pass": "passa invece di alzare",
    "help.aside": "scopri i 5, rilancia gli altri dadi, poi alza la puntata",
    "help.commands": "questo aiuto · esci dalla partita",
    # La sfida.
    "reveal.title": "Verifica di {bid} (puntata: {who} · {call}: {caller})",
    "reveal.pass": (
        "Verifica di un passo (passo: {who} · dubito: {caller}): si mostrano i dadi di chi ha "
        "passato."
    ),
    "reveal.concede": (
        "{who:abbandona/abbandoni} la partita: il giro è annullato, nessuno mostra i dadi."
    ),
    "reveal.count": "{n:valido/validi} · totale {running}",
    "reveal.distinct": "{n:valore diverso/valori diversi}",
    "reveal.hidden": "Rimasti coperti, mai mostrati: {who}",
    "verdict.dudo_holds": "{count:trovato/trovati}: la puntata {bid} regge.",
    "verdict.dudo_fails": "Solo {count}: la puntata {bid} non regge.",
    "verdict.calza_exact": "Esattamente {count}: calza!",
    "verdict.calza_wrong": "{count}, non esattamente {bid}: la calza è sbagliata.",
    "verdict.pass_true": "Tutti diversi: il passo era vero.",
    "verdict.pass_false": "Non tutti diversi: il passo era falso.",
    "change.lose": "{who}: −1 dado",
    "change.lose_n": "{who}: −{n} dadi",
    "change.gain": "{who}: +1 dado",
    "change.capped": "{who}: già {max:dado/dadi}, nessun guadagno",
    "change.left": "({n:dado rimasto/dadi rimasti})",
    "change.now": "(ora {n:dado/dadi})",
    "elim.other": "Eliminato: {who}.",
    "elim.you": "Sei fuori dal gioco. I bot giocano fino alla fine.",
    "bot.thinking": "{who} sta pensando…",
    "rolloff.tie": "Pareggio sul valore più alto ({face}: {who}): tutti rilanciano.",
    "prompt.out": "Invio: guarda i bot · fine: vai al risultato · esci: esci> ",
    "out.skipping": "Si salta al risultato…",
    "out.help": "Premi Invio per guardare, scrivi fine per andare al risultato, o esci per uscire.",
    "elim.you_last": "Sei fuori dal gioco.",
    "save.exists": "{path} esiste già. Sostituirlo? (s/N) ",
    "save.again": "Prova un altro nome di file (Invio per saltare): ",
    "loss.short": (
        "La puntata superava di {n} i dadi trovati: {who:perde/perdi} {n:dado/dadi} (perdita "
        "per differenza)."
    ),
    "loss.short_capped": (
        "La puntata superava di {n} i dadi trovati: la perdita per differenza è di "
        "{n:dado/dadi}, ma {who:ha/hai} solo {had:dado/dadi} da perdere."
    ),
    "loss.over": (
        "C'erano {n:dado/dadi} in più della puntata: {who:perde/perdi} {n:dado/dadi} (perdita "
        "per differenza)."
    ),
    "loss.over_capped": (
        "C'erano {n:dado/dadi} in più della puntata: la perdita per differenza è di "
        "{n:dado/dadi}, ma {who:ha/hai} solo {had:dado/dadi} da perdere."
    ),
    "loss.exact": "La puntata era esatta: tutti tranne {who:obj} perdono un dado.",
    "next_opener": "Apertura del prossimo giro: {who}.",
    # La fine.
    "over.winner": "{who:vince/vinci} la partita!",
    "over.you_win": "Hai vinto la partita!",
    "bye": "Arrivederci!",
    "save.prompt": (
        "Salvare la registrazione della partita? Nome del file, "
        "o s per uno con la data (Invio per saltare): "
    ),
    "save.prompt_partial": (
        "Salvare la partita fin qui? Nome del file, "
        "o s per uno con la data (Invio per saltare): "
    ),
    "save.done": "Partita salvata in {path}.",
    "save.failed": "Impossibile salvare in {path}: {error}",
    # Rivedere.
    "replay.title": "Replay: {rules}, {players} giocatori, {moves:mossa/mosse}",
    "replay.seats": "Giocatori: {seats}",
    "replay.human": "{who} (persona)",
    "replay.bot": "{who} (bot, {level})",
    "replay.rules_dice": "{name} con {n:dado/dadi} a testa",
    "replay.rules_custom": "regole personalizzate",
    "level.easy": "facile",
    "level.medium": "medio",
    "level.hard": "difficile",
    "level.expert": "esperto",
    "replay.software": "Giocata con {software}.",
    "replay.not_text": "Impossibile leggere {path}: non è un file di testo (UTF-8).",
    "replay.unreadable": "Impossibile leggere {path}: {error}",
    "replay.bad": "Questa registrazione non può iniziare: {error}",
    "replay.bad_move": "La mossa {n} ({who}: {action}) non è valida: {error}",
    "replay.chance": "il caso",
    "replay.round": "Giro {round}",
    "replay.reroll": "{who:rilancia/rilanci}: {dice}",
    "replay.in_play": "giro non finito",
    "replay.revealed": "mostrati al tavolo (n. {n})",
    "replay.hidden": "mai mostrati al tavolo",
    "replay.next": "Invio: giro seguente · q: esci> ",
    "replay.help": "Invio mostra il giro seguente; q (o esci) si ferma.",
    "replay.unfinished": "La registrazione finisce prima della partita.",
    "replay.end": "Fine della registrazione.",
    # Rifiuti: perché una mossa non è consentita (perudo.i18n.refusal_text).
    "server.store_error": "Non è stato possibile salvare la partita. Riprova.",
    "server.not_your_seat": "Solo chi ha giocato a quel posto può vederne l'analisi.",
    "server.explain_people": (
        "Il pannello di spiegazione è solo per un tavolo dove tutti gli altri sono bot: "
        "tra persone sarebbe un aiuto che gli altri non hanno."
    ),
    "server.not_seated": "Solo chi è seduto qui può aprire il pannello di spiegazione.",
    "server.hands_hidden": (
        "Questo tavolo non ha scelto di mostrare tutte le mani alla fine: "
        "le mani che nessuno ha scoperto restano nascoste."
    ),
    "server.old_page": "Questa pagina non è aggiornata: ricaricala per dire dubito o calza.",
    "server.bot_tables": (
        "Questo account bot siede già a {n:tavolo/tavoli}, il massimo: lascia un tavolo che "
        "aspetta giocatori, o lascia finire prima una partita."
    ),
    # Gioca ora (perudo.server.play): i rifiuti e gli avvisi della coda.
    "server.pool_gone": (
        "Il tuo posto nella coda di Gioca ora si è perso mentre eri via. Premi di nuovo "
        "Gioca ora."
    ),
    "server.pool_failed": (
        "Non è stato possibile preparare un tavolo ora. Premi di nuovo Gioca ora."
    ),
    "server.pool_table_name": "Gioca ora con {name}",
    "server.pool_rated_signed_in": (
        "Gioca ora classificato è per chi ha fatto l'accesso: accedi prima."
    ),
    "server.pool_rated_bot_account": (
        "Un account bot aspetta solo nelle code di Gioca ora non classificate: le partite "
        "classificate sono tra persone."
    ),
    "server.pool_rated_bots": (
        "Una partita classificata non ha bot: scegli niente bot, o una partita non classificata."
    ),
    "server.pool_preset": "Queste regole non esistono.",
    "server.pool_seating": "Il tuo tavolo è in preparazione: è tardi per lasciare la coda.",
    "server.pool_other": "Sei già in attesa in un'altra coda di Gioca ora: lasciala prima.",
    "server.pool_not_waiting": "Non sei in attesa in una coda di Gioca ora.",
    "server.waiting_tables": (
        "Hai già {n:tavolo/tavoli} in attesa di giocatori: inizia una partita a uno di essi, "
        "o aspetta che scadano."
    ),
    "refusal.error": "Qualcosa non va.",
    "refusal.illegal": "Questa mossa non è consentita ora.",
    "refusal.notation": "Non si legge come una mossa.",
    "refusal.rolloff.empty": "Il lancio iniziale richiede almeno un lancio.",
    "refusal.rolloff.bad_throw": (
        "Il lancio iniziale n. {throw} deve essere un dado da 1 a {faces} per giocatore."
    ),
    "refusal.rolloff.tie": (
        "Solo l'ultimo lancio iniziale può avere un unico valore più alto: in caso di pareggio "
        "tutti rilanciano."
    ),
    "refusal.seat.unknown": "Non c'è un posto così a questo tavolo da {players}.",
    "refusal.game.over": "La partita è finita: ha vinto {winner}.",
    "refusal.chance.not_a_seat": "Non puoi tirare i dadi: li tira il tavolo.",
    "refusal.action.unknown": "Non è una mossa del Perudo.",
    "refusal.turn.chance": "Ora non gioca nessuno: si stanno tirando i dadi.",
    "refusal.seat.out": "Sei fuori dal gioco.",
    "refusal.turn.not_yours": "Tocca a {to_act}, non a te.",
    "refusal.palifico.choose_first": "Prima scegli un giro palifico o un giro normale.",
    "refusal.palifico.not_due": "Ora non c'è da scegliere il palifico.",
    "refusal.aside.must_raise": "Hai messo da parte dei dadi e rilanciato: ora alza la puntata.",
    "refusal.dudo.no_bid": "Non c'è ancora una puntata da dubitare: chi apre punta per primo.",
    "refusal.bid.refused": "Questa puntata non è consentita qui.",
    "refusal.bid.no_face": "Un dado a {faces} facce non ha il valore {face}.",
    "refusal.bid.too_many": "{bid} dice più dadi dei {total} in gioco.",
    "memory.refusal.bid.too_many": "{bid} dice più dadi di quanti ce ne siano in gioco.",
    "refusal.bid.open_on_wild": "Un giro non si può aprire sulle {wild}.",
    "refusal.bid.palifico_face": (
        "In un giro palifico il valore resta {face}: punta più dadi o dubita. Solo chi ha un "
        "solo dado può cambiarlo."
    ),
    "refusal.bid.more_than": "Dopo {prev} punta più di {quantity}.",
    "refusal.bid.to_wild": "Dopo {prev} una puntata sulle {wild} ne richiede almeno {need}.",
    "refusal.bid.from_wild": (
        "Dopo {prev} una puntata su un altro valore richiede almeno {need:dado/dadi}."
    ),
    "refusal.bid.monotone": (
        "{bid} non supera {prev}: né la quantità né il valore possono scendere, e uno dei due "
        "deve salire."
    ),
    "refusal.bid.not_raise": (
        "{bid} non supera {prev}: punta più dadi, o altrettanti di un valore più alto."
    ),
    "refusal.bid.illegal": "{bid} non è una puntata valida ora.",
    "refusal.deal.not_due": "Ora non si tirano i dadi del giro.",
    "refusal.deal.hands": "Si tira una mano per giocatore ({players}).",
    "refusal.deal.bad_hand": "{seat} tira {count:dado/dadi} da 1 a {faces}, non {hand}.",
    "refusal.reroll.not_due": "Ora non c'è da rilanciare.",
    "refusal.reroll.bad": "Il rilancio è di {count:dado/dadi} da 1 a {faces}, non {hand}.",
    "refusal.chance.not_due": "Ora non ci sono dadi da tirare.",
    "refusal.calza.off": "Con queste regole non si gioca la calza.",
    "refusal.calza.no_bid": "La calza richiede una puntata in corso.",
    "refusal.calza.on_pass": (
        "La calza si chiama su una puntata, non su un passo: alza, o dubita del passo."
    ),
    "refusal.calza.few_players": "La calza richiede almeno {min} giocatori in gioco.",
    "refusal.calza.own_bid": "Nessuno può chiamare calza sulla propria puntata.",
    "refusal.calza.next_player": (
        "Chi gioca subito dopo non può chiamare calza: alza la puntata, o dubita."
    ),
    "refusal.calza.only_to_act": "Con queste regole può chiamare calza solo chi è di turno.",
    "refusal.pass.off": "Con queste regole non si passa.",
    "refusal.pass.opening": "Chi apre deve puntare: il passo prende il posto di un rialzo.",
    "refusal.pass.after_pass": "Dopo un passo, alza la puntata precedente o dubita del passo.",
    "refusal.pass.already": "Hai già passato in questo giro.",
    "refusal.aside.off": "Con queste regole non si mettono dadi da parte.",
    "refusal.aside.palifico": "In un giro palifico non si mettono dadi da parte.",
    "refusal.aside.opening": (
        "I dadi si mettono da parte prima di un rialzo, non prima della puntata d'apertura."
    ),
    "refusal.aside.keep_one": "Almeno un dado resta nascosto sotto il bussolotto.",
    "refusal.aside.no_raise": "Dopo aver messo da parte dei dadi non resterebbe nessun rialzo.",
    "refusal.aside.not_held": "Non hai {count:dado nascosto/dadi nascosti} con il valore {face}.",
    "refusal.notation.positive": "{what} deve essere almeno 1, non {value}.",
    "word.what_quantity": "Il numero di dadi",
    "word.what_face": "Il valore",
    "word.what_die": "Un dado",
    "refusal.notation.bid": (
        "“{text}” non è una puntata: scrivi il numero di dadi e il valore, per esempio 3x5 "
        "(tre 5)."
    ),
    "refusal.notation.aside": "Metti da parte almeno un dado.",
    "refusal.notation.faces": "“{text}” non è una serie di valori come 1346.",
    "refusal.notation.not_text": "Una mossa si scrive come testo.",
    "refusal.notation.empty": "Scrivi una puntata come 3x5, o dubito.",
    "refusal.notation.action": (
        "“{text}” non è una mossa: scrivi una puntata come 3x5, o dubito, calza, passo, "
        "palifico, normale, scopri 55."
    ),
    "refusal.record.illegal_move": "La mossa {move} ({seat}: {action}) non è valida: {cause}",
    "refusal.record.not_json": "Non è la registrazione di una partita: non è JSON ({error}).",
    "refusal.record.not_object": "La registrazione di una partita è un oggetto JSON.",
    "refusal.record.format": (
        "Non è la registrazione di una partita: il formato non è perudo-record."
    ),
    "refusal.record.version": "Versione di registrazione sconosciuta: {version}.",
    "refusal.record.field": "Alla registrazione manca il campo “{field}”.",
    "refusal.record.rules": "Le regole della registrazione devono essere un oggetto.",
    "refusal.record.bad_rules": "Le regole della registrazione non sono valide: {error}",
    "refusal.record.players": "Il numero di giocatori della registrazione deve essere un intero.",
    "refusal.record.player_count": (
        "La registrazione ha {players:giocatore/giocatori}; le sue regole ne prevedono "
        "da {min} a {max}."
    ),
    "refusal.record.rolloff": (
        "Il lancio iniziale della registrazione deve essere una lista di lanci."
    ),
    "refusal.record.moves": "Le mosse della registrazione devono essere una lista.",
    "refusal.record.move": "La mossa {move} della registrazione non è un oggetto con un'azione.",
    "refusal.record.move_seat": (
        "Mossa {move} della registrazione: il posto deve essere un intero o null."
    ),
    "refusal.record.software": "Il software della registrazione deve essere un testo.",
    "refusal.record.memory": "La modalità memoria della registrazione deve essere true o false.",
    "refusal.record.seats": (
        "I posti della registrazione devono essere una lista di {players:posto/posti}."
    ),
    "refusal.record.seat": (
        "Il posto {number} della registrazione richiede un nome, un tipo (persona o bot) "
        "e un livello."
    ),
    "refusal.record.move_action": "Mossa {move} della registrazione: {cause}",
    "word.chance": "i dadi",
    # Accounts (perudo.server.accounts): refusals of the sign-up and sign-in forms.
    "account.name.length": "Un nome ha da 3 a 20 lettere o cifre.",
    "account.name.chars": "Un nome può contenere solo lettere, cifre, _ e - (niente spazi).",
    "account.name.invisible": (
        "Un nome non può contenere caratteri " "invisibili o che invertono il testo."
    ),
    "account.name.mixed": (
        "Un nome non può mescolare alfabeti che si " "somigliano (latino, greco, cirillico)."
    ),
    "account.name.reserved": "Quel nome è riservato al gioco (bot, spettatori). Scegline un altro.",
    "account.name.taken": "Quel nome, o uno che gli somiglia, è già preso. Scegline un altro.",
    "account.password.short": "Una password ha almeno 8 caratteri.",
    "account.password.long": "Una password ha al massimo 256 caratteri.",
    "account.password.is_name": "La password non può essere il tuo nome.",
    "account.sign_in.failed": "Nome o password sbagliati.",
    "account.sign_in.limited": "Troppi tentativi. Aspetta qualche minuto e riprova.",
    "account.busy": "Il server è occupato a verificare le password. Riprova tra un momento.",
    "account.signed_out": "Non hai effettuato l'accesso.",
    "account.forbidden": (
        "Questa richiesta non viene dalla pagina di " "questo sito. Ricarica la pagina."
    ),
    "account.no_session": "Questa sessione non esiste.",
    "account.password.exists": "Questo account ha già una password: cambiala invece.",
    "account.password.wrong": "Non è la tua password attuale.",
    "account.deleted": "account cancellato",
    "account.no_player": "Non c'è nessun giocatore con quel nome.",
    "account.no_variant": "Questa variante non esiste.",
    "account.passkey.expired": "La richiesta della passkey è scaduta o è già stata usata. Riprova.",
    "account.passkey.failed": "La passkey non è stata accettata. Riprova.",
    "account.passkey.sign_in_failed": "Questa passkey non è accettata qui.",
    "account.passkey.known": "Questa passkey è già su un account.",
    "account.passkey.last": (
        "È il tuo ultimo modo di accedere: aggiungi prima " "un'altra passkey o una password."
    ),
    "account.passkey.none": "Questa passkey non esiste.",
    # Account bot (perudo.server.accounts.botapi, docs/bot-api.md).
    "account.bot.no_sign_in": (
        "Questo è un account bot: gioca attraverso l'API dei bot con il suo token e non "
        "accede dalla pagina."
    ),
    "account.bot.played": (
        "Solo un account che non ha giocato nessuna partita e non siede a nessun tavolo può "
        "diventare un account bot."
    ),
    "account.bot.token_needed": (
        "L'API dei bot vuole il token di un account bot, nell'intestazione "
        '"Authorization: Bearer <token>"; una sessione di accesso non apre niente.'
    ),
    "account.bot.bad_token": (
        "Questo token bot non è valido: è stato " "revocato, o non è mai esistito."
    ),
    "account.bot.no_token": "Questo token non esiste.",
    "account.bot.too_many_tokens": (
        "Questo account bot ha già tutti i token che può avere: revocane prima uno."
    ),
    # Accounts: addresses confirmed and passwords reset by mail (accounts/recovery.py).
    "account.mail.off": (
        "Questo sito non invia posta, quindi qui la password non si "
        "può reimpostare per e-mail. Chiedi a chi gestisce il sito."
    ),
    "account.email.refused": "Questo non è un indirizzo e-mail.",
    "account.token.bad": (
        "Questo link è già stato usato, è scaduto o è sbagliato. " "Chiedine uno nuovo."
    ),
    "account.mail.limited": "Troppe e-mail richieste. Aspetta un'ora e riprova.",
    "account.forgot.sent": (
        "Se quel nome o indirizzo ha un indirizzo e-mail confermato, "
        "sta arrivando un link per scegliere una nuova password."
    ),
    "account.email.sent": (
        "Sta arrivando un link per confermare {address}. L'indirizzo " "sarà usato quando lo apri."
    ),
    "account.mail.confirm.subject": "Conferma il tuo indirizzo e-mail per Perudo",
    "account.mail.confirm.body": (
        "Ciao {name},\n\napri questo link per confermare che {address} "
        "è l'indirizzo del tuo account Perudo:\n\n{link}\n\nIl link "
        "funziona una volta sola, per 24 ore. Se non l'hai chiesto "
        "tu, ignora questa e-mail: non cambia niente."
    ),
    "account.mail.reset.subject": "Scegli una nuova password per Perudo",
    "account.mail.reset.body": (
        "Ciao {name},\n\nqualcuno, speriamo tu, ha chiesto di "
        "reimpostare la password dell'account Perudo {name}. Apri "
        "questo link per sceglierne una nuova:\n\n{link}\n\nIl link "
        "funziona una volta sola, per 30 minuti, e chiude ogni tua "
        "sessione. Se non l'hai chiesto tu, ignora questa e-mail: la "
        "password resta com'è."
    ),
    # perudo analyze (l'analisi di una partita finita).
    "analysis.title": "Analisi di una partita a {players} giocatori",
    "analysis.own": (
        "Giudicata dal punto di vista di {who}: i suoi dadi, ogni "
        "puntata e sfida, le mani scoperte al tavolo."
    ),
    "analysis.public": (
        "Giudicata da ciò che tutti hanno visto: i dadi di un " "posto solo se scoperti al tavolo."
    ),
    "analysis.progress": "Analisi in corso: {done} di {total}",
    "analysis.decision": "{who}: {action}",
    "analysis.holds": "{bid} è vera: {p} con questi dadi, {q} leggendo le puntate come l'esperto",
    "analysis.holds_public": "{bid} è vera: {p} dai dadi che tutti vedevano",
    "analysis.expert": "Esperto: {action}",
    "analysis.expert_mix": "L'esperto mescola: {mix}",
    "analysis.loss_exact": "Perdita: {round} del giro, {game} della partita (esatta, risolta)",
    "analysis.loss_estimate": (
        "Perdita: {round} del giro (intervallo al 95% da " "{low} a {high}, {n} simulazioni)"
    ),
    "analysis.not_judged": "Non giudicata: questi dadi non erano visti.",
    "analysis.loss_game": "Perdita: {game} della partita (esatta, risolta)",
    "analysis.same": "La stessa scelta dell'esperto.",
    "analysis.label.good": "buona",
    "analysis.label.inaccuracy": "imprecisione",
    "analysis.label.mistake": "errore",
    "analysis.label.blunder": "errore grave",
    "analysis.accuracy": "Precisione di {who}: {value}",
    "analysis.accuracy_none": "Precisione di {who}: nessuna decisione giudicata",
    "analysis.chart": "Probabilità di vincere la partita dopo ogni giro",
    "analysis.start": "inizio",
    "analysis.exact": "esatta",
    "analysis.estimate": "stima, {n} partite",
    "analysis.moments": "I momenti che hanno cambiato la partita",
    "analysis.moment": "Giro {round}: {who} {before} → {after}",
    "analysis.calls": "Sfide",
    "analysis.call_worked": "Giro {round}: {who} ha chiamato {kind} su {bid}: riuscita",
    "analysis.call_failed": "Giro {round}: {who} ha chiamato {kind} su {bid}: fallita",
    "analysis.bluffs": "Bluff",
    "analysis.bluff_worked": "Giro {round}: {who} ha puntato {bid} al {p}: non scoperto",
    "analysis.bluff_caught": "Giro {round}: {who} ha puntato {bid} al {p}: scoperto",
    "analysis.none": "nessuno",
    "analysis.bad_seat": "In questa partita non c'è il posto {n}: i posti vanno da 1 a {players}.",
    "analysis.loss_estimate_game": (
        "Perdita: {round} del giro (intervallo al 95% da {low} a {high}), {game} della "
        "partita (da {glow} a {ghigh}), {n} simulazioni"
    ),
    "analysis.true_count": "Con tutti i dadi noti: {count} (la puntata diceva {q})",
    "analysis.not_over": (
        "Tutte le mani si mostrano solo a partita finita, e questa non lo è: "
        "analizzala senza --every-hand."
    ),
    # Il rifiuto di una mossa registrata parla di chi l'ha fatta, non a chi legge.
    "of.refusal.turn.not_yours": "Tocca a {to_act}, non a {seat:obj}.",
    "of.refusal.seat.out": "{seat:è/sei} fuori dal gioco.",
    "of.refusal.pass.already": "{seat:ha/hai} già passato in questo giro.",
    "of.refusal.aside.not_held": (
        "{seat:non ha/non hai} {count:dado nascosto/dadi nascosti} con il valore {face}."
    ),
    # Friends and notices (perudo.server.social).
    "server.blocked": "Un giocatore a questo tavolo ti ha bloccato: non puoi sederti qui.",
    "account.social.yourself": "Sei tu.",
    "account.social.blocked_them": "Hai bloccato questo giocatore: prima sbloccalo.",
    "account.social.invite_blocked": "Questo giocatore non accetta i tuoi inviti.",
    "account.social.no_table": "Non c'è nessun tavolo così.",
    "account.social.not_seated": "Puoi invitare solo a un tavolo dove hai un posto.",
    "account.social.not_waiting": "La partita a questo tavolo è iniziata: ora nessuno può unirsi.",
    "account.social.no_invitation": "Questo invito non è più valido.",
    "account.social.push_service": "Il servizio push di questo browser non è uno di quelli usati.",
    "push.title": "Perudo",
    "push.turn": "Tocca a te a {table}.",
    "push.invite": "{from} ti invita a {table}.",
    "push.start": "La partita a {table} sta per iniziare.",
}
