"""Korean messages (한국어). The games' words follow the Korean rule text: 두도, 칼자, 팔라피코,
조커 (aces). Keys and placeholders match :mod:`perudo.i18n.en`."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str | list[str]]] = {
    # 입력할 수 있는 말 (모든 언어의 말을 어디서나 받습니다).
    "input.dudo": ["두도", "도전"],
    "input.calza": ["칼자"],
    "input.palifico": ["팔라피코"],
    "input.normal": ["일반", "보통"],
    "input.pass": ["패스"],
    "input.aside": ["내려놓기", "보여주기"],
    "input.aces": ["조커", "에이스"],
    "input.help": ["도움말", "도움"],
    "input.quit": ["종료", "그만"],
    "input.yes": ["예", "네", "응"],
    "input.end": ["끝"],
    "input.skip": ["아니", "아니요", "건너뛰기"],
    # 게임의 말.
    "word.dudo": "두도",
    "word.calza": "칼자",
    "word.palifico": "팔라피코",
    # 라벨(버튼, 제목: 웹 페이지)로 쓸 때.
    "word.label.dudo": "두도",
    "word.label.calza": "칼자",
    "word.label.palifico": "팔라피코",
    "word.aces": "조커",
    "word.star": "{f}★",
    # 자리.
    "seat.you": "나",
    "seat.you_subject": "나",
    "seat.you_object": "나",
    "seat.you_mark": "(나)",
    "seat.bot": "봇 {n}",
    "seat.generic": "{n}번 자리",
    "name.bot": "{level} 봇 {n}",
    "name.level.easy": "쉬운",
    "name.level.medium": "보통",
    "name.level.hard": "어려운",
    "name.level.expert": "전문가",
    # 비드와 행동.
    "bid.face": "{q} × {f}",
    "bid.aces": "조커 {q}개",
    "bid.star": "{q} × {f}★",
    # Faces and bids as a screen reader says them on the web page ("three fives").
    "say.face.1": "1",
    "say.face.2": "2",
    "say.face.3": "3",
    "say.face.4": "4",
    "say.face.5": "5",
    "say.face.6": "6",
    "say.face.7": "7",
    "say.face.8": "8",
    "say.face.9": "9",
    "say.wild": "{face} (조커)",
    "say.bid": "{faces:이/가} {q}개",
    "say.faces.1": "1",
    "say.faces.2": "2",
    "say.faces.3": "3",
    "say.faces.4": "4",
    "say.faces.5": "5",
    "say.faces.6": "6",
    "say.faces.7": "7",
    "say.faces.8": "8",
    "say.faces.9": "9",
    "say.bid_one": "{face:이/가} 1개",
    "act.dudo": "{dudo}!",
    "act.calza": "{calza}!",
    "act.pass": "패스",
    "act.aside": "내려놓기: {dice}",
    "act.choose_palifico": "{palifico} 라운드",
    "act.choose_normal": "일반 라운드",
    # 시작과 라운드.
    "rolloff.throw": "선 정하기: {dice}",
    "rolloff.opens": "가장 높은 눈: {who} — 첫 라운드를 시작합니다.",
    "start.from_record": "기록된 게임을 {round}라운드부터 이어갑니다.",
    "round.header": "{round}라운드 · 주사위 {total}개",
    "round.header_memory": "{round}라운드 · 기억 모드",
    "round.opens": "시작: {who}",
    "palifico.announce": (
        "팔라피코 라운드! {who:의} 주사위가 하나 남았습니다: 조커는 와일드가 아니고, "
        "첫 비드의 눈이 고정됩니다."
    ),
    "palifico.open": (
        "팔라피코: 시작하는 사람({who})은 조커를 포함해 어떤 눈으로도 비드할 수 있습니다."
    ),
    "palifico.locked": ("팔라피코: 눈 {face} 고정 — 주사위가 하나 남은 사람만 바꿀 수 있습니다."),
    "palifico.choose": (
        "주사위 하나로, 두 명이 남은 판에서 선을 잡았습니다: 팔라피코 라운드(조커 와일드 아님, "
        "눈 고정)나 일반 라운드를 고르세요. 어느 쪽이든 팔라피코를 쓴 것으로 칩니다."
    ),
    "palifico.chosen": "{who}: {palifico} 라운드.",
    "palifico.declined": "{who}: 일반 라운드. 그래도 {palifico:은/는} 사용한 것으로 칩니다.",
    # 테이블.
    "table.out": "탈락",
    "table.shown": "공개: {dice}",
    "table.to_act": "차례",
    "hand.title": "내 주사위:",
    "hand.wild": "{mark} = {aces}: 와일드, 어떤 눈으로도 셉니다",
    "hand.not_wild": "팔라피코: 이번 라운드에 {aces:은/는} 와일드가 아닙니다",
    "hand.shown": "↑ 공개해 둔 주사위: {dice}",
    "hand.rerolled": "다시 굴린 내 주사위:",
    "bids.title": "비드:",
    "bids.none": "아직 없음",
    "bid.opening": "아직 비드 없음 — 시작: {who}",
    "bid.current_label": "현재 비드:",
    "bid.by": "({who})",
    "hint.bid": (
        "참일 확률: {pct} · 내가 보는 해당 주사위: {mine}개 · 보이지 않는 주사위: {unseen}개 · "
        "전체 기대값: {expected}개"
    ),
    "hint.calza": "정확히 맞을 확률: {pct}",
    "may.title": "가능한 행동:",
    "may.bid": "비드 {bids} 이상",
    "may.wild": "{aces} {bid} 이상",
    "may.no_raise": "더 높은 비드 없음",
    "may.pass": "패스",
    "may.aside": "내려놓기 + 보여줄 주사위, 예: 내려놓기 55",
    "may.normal": "일반",
    # 묻기.
    "turn.rule": "{who:의} 차례",
    "turn.must_raise": "주사위를 내려놓고 다시 굴렸습니다: 이제 비드를 올리세요.",
    "prompt.turn": "내 차례> ",
    "prompt.calza": "{bid}에 {calza}? ({calza} / Enter: 계속)> ",
    "calza.dice": "내 주사위: {dice}.",
    "calza.help": "비드가 정확히 맞으면 {calza:을/를} 입력하고, 아니면 Enter를 눌러 계속하세요.",
    "err.unknown": (
        "알 수 없는 입력: “{text}”. 3x5나 3 5 같은 비드, “3 {aces}”, {dudo}, 도움말 중에서 "
        "입력하세요."
    ),
    "err.aside": "“{text}”: 내려놓을 눈을 적으세요. 예: 내려놓기 55.",
    "err.illegal": "허용되지 않음: {reason}",
    "err.encoding": (
        "입력한 줄을 읽을 수 없습니다: 이 터미널의 입력은 {encoding}입니다. 3x5, dudo, q처럼 "
        "영문자와 숫자로 입력하거나 UTF-8 로케일을 쓰세요."
    ),
    "err.empty": "3x5 같은 비드나 {dudo}, 도움말을 입력하세요.",
    "help.title": "하는 법:",
    "help.bid": "비드: 테이블 전체에 5가 적어도 세 개 ({wild} 포함)",
    "help.bid_no_wild": "비드: 테이블 전체에 5가 적어도 세 개",
    "help.aces": "{wild} 비드 (3x1과 같음)",
    "help.star": "와일드인 {wild} 비드",
    "help.dudo": "마지막 비드에 도전: 세어서 진 쪽이 주사위를 잃음",
    "help.calza": "마지막 비드가 정확히 맞음",
    "help.palifico": "주사위 하나로 두 명이 남았을 때의 선택",
    "help.pass": "비드를 올리는 대신 패스",
    "help.aside": "5를 공개해 내려놓고 나머지를 다시 굴린 뒤 비드를 올림",
    "help.commands": "이 도움말 · 게임에서 나가기",
    # 도전.
    "reveal.title": "{bid} 확인 (비드: {who} · {call}: {caller})",
    "reveal.pass": "{who:의} 패스 확인 (두도: {caller}): 주사위를 공개합니다.",
    "reveal.concede": "{who:이/가} 기권했습니다: 이번 라운드는 무효이고 아무도 공개하지 않습니다.",
    "reveal.count": "해당 {n}개 · 누적 {running}",
    "reveal.distinct": "서로 다른 눈 {n}개",
    "reveal.hidden": "끝까지 공개하지 않음: {who}",
    "verdict.dudo_holds": "{count}개: 비드 {bid} 성립.",
    "verdict.dudo_fails": "{count}개뿐: 비드 {bid} 실패.",
    "verdict.calza_exact": "정확히 {count}개: 칼자 성공!",
    "verdict.calza_wrong": "{count}개 — 정확히 {bid:이/가} 아님: 칼자 실패.",
    "verdict.pass_true": "모두 다른 눈: 패스는 참.",
    "verdict.pass_false": "같은 눈이 있음: 패스는 거짓.",
    "change.lose": "{who}: 주사위 −1",
    "change.lose_n": "{who}: 주사위 −{n}",
    "change.gain": "{who}: 주사위 +1",
    "change.capped": "{who}: 이미 {max}개라 더 얻지 못함",
    "change.left": "({n}개 남음)",
    "change.now": "(이제 {n}개)",
    "elim.other": "{who} 탈락.",
    "elim.you": "탈락했습니다. 봇들이 끝까지 계속합니다.",
    "bot.thinking": "{who:이/가} 생각하는 중…",
    "rolloff.tie": "가장 높은 눈 {face}에서 비겼습니다 ({who}): 모두 다시 굴립니다.",
    "prompt.out": "Enter: 계속 보기 · 끝: 결과로 건너뛰기 · 종료: 나가기> ",
    "out.skipping": "결과로 건너뜁니다…",
    "out.help": (
        "Enter를 누르면 계속 보고, 끝을 입력하면 결과로 건너뛰고, 종료를 입력하면 나갑니다."
    ),
    "elim.you_last": "탈락했습니다.",
    "save.exists": "{path:이/가} 이미 있습니다. 바꿀까요? (예/아니요) ",
    "save.again": "다른 파일 이름을 입력하세요 (건너뛰려면 Enter): ",
    "loss.short": "비드가 {n}개 많았으므로 {who:이/가} 주사위 {n}개를 잃습니다 (차이만큼 잃기).",
    "loss.over": (
        "비드보다 {n}개 더 있었으므로 {who:이/가} 주사위 {n}개를 잃습니다 (차이만큼 잃기)."
    ),
    "loss.short_capped": (
        "비드가 {n}개 많았으므로 차이만큼 주사위 {n}개를 잃어야 하지만, {who}에게 남은 주사위는 "
        "{had}개뿐입니다."
    ),
    "loss.over_capped": (
        "비드보다 {n}개 더 있었으므로 차이만큼 주사위 {n}개를 잃어야 하지만, {who}에게 남은 "
        "주사위는 {had}개뿐입니다."
    ),
    "loss.exact": "비드가 정확히 맞았으므로 {who}만 빼고 모두 주사위 하나를 잃습니다.",
    "next_opener": "다음 라운드 시작: {who}",
    # 끝.
    "over.winner": "승자: {who}!",
    "over.you_win": "승리했습니다!",
    "bye": "안녕히 가세요!",
    "save.prompt": (
        "게임 기록을 저장할까요? 파일 이름, " "날짜로 된 이름은 예 (건너뛰려면 Enter): "
    ),
    "save.prompt_partial": (
        "지금까지의 게임을 저장할까요? 파일 이름, " "날짜로 된 이름은 예 (건너뛰려면 Enter): "
    ),
    "save.done": "게임 기록을 {path}에 저장했습니다.",
    "save.failed": "{path}에 저장하지 못했습니다: {error}",
    # 다시 보기.
    "replay.title": "다시 보기: {rules}, {players}명, {moves}수",
    "replay.seats": "참가자: {seats}",
    "replay.human": "{who} (사람)",
    "replay.bot": "{who} (봇, {level})",
    "replay.rules_dice": "{name} (각자 주사위 {n}개)",
    "replay.rules_custom": "사용자 규칙",
    "level.easy": "쉬움",
    "level.medium": "보통",
    "level.hard": "어려움",
    "level.expert": "전문가",
    "replay.software": "{software:으로/로} 플레이했습니다.",
    "replay.not_text": "{path:을/를} 읽을 수 없습니다: 텍스트 파일(UTF-8)이 아닙니다.",
    "replay.unreadable": "{path:을/를} 읽을 수 없습니다: {error}",
    "replay.bad": "이 기록은 시작할 수 없습니다: {error}",
    "replay.bad_move": "{n}번째 수 ({who}: {action})가 규칙에 맞지 않습니다: {error}",
    "replay.chance": "주사위",
    "replay.round": "{round}라운드",
    "replay.reroll": "{who} 다시 굴림: {dice}",
    "replay.in_play": "끝나지 않은 라운드",
    "replay.revealed": "테이블에서 공개됨 ({n}번째)",
    "replay.hidden": "테이블에서 끝까지 공개되지 않음",
    "replay.next": "Enter: 다음 라운드 · q: 종료> ",
    "replay.help": "Enter를 누르면 다음 라운드, q(종료)를 누르면 멈춥니다.",
    "replay.unfinished": "게임이 끝나기 전에 기록이 끝납니다.",
    "replay.end": "기록의 끝.",
    # 거절: 왜 그 수를 둘 수 없는지 (perudo.i18n.refusal_text).
    "server.store_error": "게임을 저장하지 못했습니다. 다시 해 보세요.",
    "server.not_your_seat": "그 자리의 분석은 그 자리에서 게임한 사람만 볼 수 있습니다.",
    "server.explain_people": (
        "설명 패널은 다른 모든 자리가 봇인 테이블에서만 쓸 수 있습니다: "
        "사람들 사이에서는 다른 사람에게 없는 도움이 됩니다."
    ),
    "server.not_seated": "여기 앉은 사람만 설명 패널을 열 수 있습니다.",
    "server.hands_hidden": (
        "이 테이블은 끝난 뒤 모든 손을 보여 주기로 하지 않았습니다: "
        "아무도 공개하지 않은 손은 숨겨진 채로 남습니다."
    ),
    "server.old_page": (
        "이 페이지는 오래된 버전입니다. 두도나 칼자를 외치려면 페이지를 새로 고치세요."
    ),
    "server.bot_tables": (
        "이 봇 계정은 이미 {n}개 테이블에 앉아 있어, 더 앉을 수 없습니다. "
        "기다리는 테이블에서 나오거나, 먼저 게임 하나를 끝내세요."
    ),
    # 바로 플레이 (perudo.server.play): 대기열의 거절과 알림.
    "server.pool_gone": (
        "자리를 비운 사이에 바로 플레이 대기열의 자리가 사라졌습니다. 바로 플레이를 다시 누르세요."
    ),
    "server.pool_failed": "지금은 테이블을 만들 수 없었습니다. 바로 플레이를 다시 누르세요.",
    "server.pool_table_name": "{name}의 바로 플레이",
    "server.pool_rated_signed_in": "레이팅 바로 플레이는 로그인한 플레이어만 할 수 있습니다.",
    "server.pool_rated_bot_account": (
        "봇 계정은 비레이팅 바로 플레이 대기열에서만 기다릴 수 있습니다. "
        "레이팅 게임은 사람끼리 합니다."
    ),
    "server.pool_rated_bots": (
        "레이팅 게임에는 봇이 없습니다. 봇 없음이나 비레이팅 게임을 고르세요."
    ),
    "server.pool_preset": "그런 규칙은 없습니다.",
    "server.pool_seating": "테이블을 만드는 중이라 대기열에서 나갈 수 없습니다.",
    "server.pool_other": "이미 다른 바로 플레이 대기열에서 기다리고 있습니다. 먼저 나가세요.",
    "server.pool_not_waiting": "바로 플레이 대기열에서 기다리고 있지 않습니다.",
    "server.waiting_tables": (
        "플레이어를 기다리는 테이블이 이미 {n}개 있습니다. 그중 한 곳에서 게임을 시작하거나, "
        "테이블이 만료될 때까지 기다려 주세요."
    ),
    "refusal.error": "문제가 생겼습니다.",
    "refusal.illegal": "지금은 할 수 없는 행동입니다.",
    "refusal.notation": "행동으로 읽을 수 없습니다.",
    "refusal.rolloff.empty": "선 정하기에는 적어도 한 번의 굴림이 필요합니다.",
    "refusal.rolloff.bad_throw": (
        "선 정하기의 {throw}번째 굴림은 사람마다 1–{faces} 주사위 하나여야 합니다."
    ),
    "refusal.rolloff.tie": (
        "가장 높은 눈이 하나뿐인 굴림은 선 정하기의 마지막 굴림뿐입니다: 비기면 모두 다시 굴립니다."
    ),
    "refusal.seat.unknown": "{players}명 테이블에 그런 자리는 없습니다.",
    "refusal.game.over": "게임이 끝났습니다: {winner:이/가} 이겼습니다.",
    "refusal.chance.not_a_seat": "주사위는 테이블이 굴립니다.",
    "refusal.action.unknown": "페루도의 행동이 아닙니다.",
    "refusal.turn.chance": "지금은 아무도 행동하지 않습니다: 주사위를 굴리는 중입니다.",
    "refusal.seat.out": "이미 탈락했습니다.",
    "refusal.turn.not_yours": "지금은 내 차례가 아니라 {to_act}의 차례입니다.",
    "refusal.palifico.choose_first": "먼저 팔라피코 라운드나 일반 라운드를 고르세요.",
    "refusal.palifico.not_due": "지금은 팔라피코를 고를 때가 아닙니다.",
    "refusal.aside.must_raise": "주사위를 내려놓고 다시 굴렸으니 이제 비드를 올려야 합니다.",
    "refusal.dudo.no_bid": "아직 도전할 비드가 없습니다: 선이 먼저 비드합니다.",
    "refusal.bid.refused": "여기서는 그 비드를 할 수 없습니다.",
    "refusal.bid.no_face": "{faces}면 주사위에는 {face} 눈이 없습니다.",
    "refusal.bid.too_many": "{bid}: 테이블의 주사위 {total}개보다 많습니다.",
    "memory.refusal.bid.too_many": "{bid}: 남은 주사위보다 많습니다.",
    "refusal.bid.open_on_wild": "{wild:으로/로} 라운드를 시작할 수 없습니다.",
    "refusal.bid.palifico_face": (
        "팔라피코 라운드에서는 눈 {face} 고정입니다: 개수를 올리거나 두도를 외치세요. "
        "주사위가 하나 남은 사람만 눈을 바꿀 수 있습니다."
    ),
    "refusal.bid.more_than": "{prev} 다음에는 {quantity}개보다 많이 비드하세요.",
    "refusal.bid.to_wild": "{prev} 다음에 {wild} 비드는 적어도 {need}개여야 합니다.",
    "refusal.bid.from_wild": "{prev} 다음에 다른 눈의 비드는 적어도 {need}개여야 합니다.",
    "refusal.bid.monotone": (
        "{bid}: {prev}보다 높지 않습니다. 개수도 눈도 내릴 수 없고, 둘 중 하나는 올려야 합니다."
    ),
    "refusal.bid.not_raise": (
        "{bid}: {prev}보다 높지 않습니다. 개수를 늘리거나, 같은 개수로 더 높은 눈을 비드하세요."
    ),
    "refusal.bid.illegal": "{bid}: 지금 낼 수 없는 비드입니다.",
    "refusal.deal.not_due": "지금은 주사위를 굴릴 때가 아닙니다.",
    "refusal.deal.hands": "주사위는 사람마다 한 벌씩입니다 ({players}명).",
    "refusal.deal.bad_hand": (
        "{seat:은/는} 1–{faces} 주사위 {count}개를 굴립니다 ({hand:이/가} 아님)."
    ),
    "refusal.reroll.not_due": "지금은 다시 굴릴 때가 아닙니다.",
    "refusal.reroll.bad": (
        "다시 굴리는 주사위는 1–{faces} 주사위 {count}개입니다 ({hand:이/가} 아님)."
    ),
    "refusal.chance.not_due": "지금은 굴릴 주사위가 없습니다.",
    "refusal.calza.off": "이 규칙에는 칼자가 없습니다.",
    "refusal.calza.no_bid": "칼자는 비드가 있을 때만 외칠 수 있습니다.",
    "refusal.calza.on_pass": (
        "칼자는 패스가 아니라 비드에 외칩니다: 비드를 올리거나 패스에 두도를 외치세요."
    ),
    "refusal.calza.few_players": "칼자는 {min}명 이상 남아 있을 때만 외칠 수 있습니다.",
    "refusal.calza.own_bid": "자기 비드에는 칼자를 외칠 수 없습니다.",
    "refusal.calza.next_player": (
        "바로 다음 차례인 사람은 칼자를 외칠 수 없습니다: 비드를 올리거나 두도를 외치세요."
    ),
    "refusal.calza.only_to_act": "이 규칙에서는 차례인 사람만 칼자를 외칠 수 있습니다.",
    "refusal.pass.off": "이 규칙에는 패스가 없습니다.",
    "refusal.pass.opening": "선은 비드해야 합니다: 패스는 비드를 올리는 대신 하는 것입니다.",
    "refusal.pass.after_pass": "패스 다음에는 그 앞의 비드를 올리거나 패스에 두도를 외치세요.",
    "refusal.pass.already": "이번 라운드에 이미 패스했습니다.",
    "refusal.aside.off": "이 규칙에는 주사위 내려놓기가 없습니다.",
    "refusal.aside.palifico": "팔라피코 라운드에서는 주사위를 내려놓지 않습니다.",
    "refusal.aside.opening": "주사위는 첫 비드 전이 아니라 비드를 올리기 전에 내려놓습니다.",
    "refusal.aside.keep_one": "적어도 주사위 하나는 컵 안에 숨겨 두어야 합니다.",
    "refusal.aside.no_raise": "주사위를 내려놓은 뒤에 올릴 비드가 남아 있지 않습니다.",
    "refusal.aside.not_held": "숨긴 주사위에 {face} 눈이 {count}개 없습니다.",
    "refusal.notation.positive": "{what:은/는} 1 이상이어야 합니다 ({value:이/가} 아님).",
    "word.what_quantity": "개수",
    "word.what_face": "눈",
    "word.what_die": "주사위",
    "refusal.notation.bid": (
        "“{text}”: 비드가 아닙니다. 개수와 눈을 적으세요. 예: 3x5 (5가 세 개)."
    ),
    "refusal.notation.aside": "내려놓을 주사위를 적어도 하나 적으세요.",
    "refusal.notation.faces": "“{text}”: 1346 같은 눈의 나열이 아닙니다.",
    "refusal.notation.not_text": "행동은 글로 적습니다.",
    "refusal.notation.empty": "3x5 같은 비드나 두도를 적으세요.",
    "refusal.notation.action": (
        "“{text}”: 알 수 없는 행동입니다. 3x5 같은 비드나 두도, 칼자, 패스, 팔라피코, 일반, "
        "내려놓기 55를 적으세요."
    ),
    "refusal.record.illegal_move": (
        "{move}번째 수는 규칙에 맞지 않습니다 ({seat}: {action}): {cause}"
    ),
    "refusal.record.not_json": "게임 기록이 아닙니다: JSON이 아닙니다 ({error}).",
    "refusal.record.not_object": "게임 기록은 JSON 객체여야 합니다.",
    "refusal.record.format": "게임 기록이 아닙니다: 형식이 perudo-record가 아닙니다.",
    "refusal.record.version": "알 수 없는 게임 기록 버전입니다: {version}.",
    "refusal.record.field": "게임 기록에 “{field}” 항목이 없습니다.",
    "refusal.record.rules": "기록의 규칙은 객체여야 합니다.",
    "refusal.record.bad_rules": "기록의 규칙이 올바르지 않습니다: {error}",
    "refusal.record.players": "기록의 인원수는 정수여야 합니다.",
    "refusal.record.player_count": "기록의 인원은 {players}명인데, 그 규칙은 {min}–{max}명입니다.",
    "refusal.record.rolloff": "기록의 선 정하기는 굴림의 목록이어야 합니다.",
    "refusal.record.moves": "기록의 수는 목록이어야 합니다.",
    "refusal.record.move": "기록의 {move}번째 수에 행동이 없습니다.",
    "refusal.record.move_seat": "기록의 {move}번째 수: 자리는 정수나 null이어야 합니다.",
    "refusal.record.software": "기록의 소프트웨어 정보는 글이어야 합니다.",
    "refusal.record.memory": "기록의 기억 모드는 true나 false여야 합니다.",
    "refusal.record.seats": "기록의 자리 정보는 {players}개 자리의 목록이어야 합니다.",
    "refusal.record.seat": (
        "기록의 {number}번 자리에는 이름, 종류(사람 또는 봇), 수준이 있어야 합니다."
    ),
    "refusal.record.move_action": "기록의 {move}번째 수: {cause}",
    "word.chance": "주사위",
    # Accounts (perudo.server.accounts): refusals of the sign-up and sign-in forms.
    "account.name.length": "이름은 글자나 숫자 3~20자입니다.",
    "account.name.chars": "이름에는 글자, 숫자, _ 와 - 만 쓸 수 있습니다(띄어쓰기 불가).",
    "account.name.invisible": "이름에 보이지 않는 문자나 글의 방향을 바꾸는 문자는 쓸 수 없습니다.",
    "account.name.mixed": (
        "이름에 비슷하게 생긴 문자(라틴, 그리스, 키릴 문자)를 섞어 쓸 수 없습니다."
    ),
    "account.name.reserved": "게임이 쓰는 이름입니다(봇, 관전자). 다른 이름을 골라 주세요.",
    "account.name.taken": (
        "이미 쓰이는 이름이거나 그와 비슷해 보이는 이름입니다. 다른 이름을 골라 주세요."
    ),
    "account.password.short": "비밀번호는 8자 이상입니다.",
    "account.password.long": "비밀번호는 256자 이하입니다.",
    "account.password.is_name": "비밀번호는 이름과 달라야 합니다.",
    "account.sign_in.failed": "이름이나 비밀번호가 틀렸습니다.",
    "account.sign_in.limited": "시도가 너무 많습니다. 몇 분 뒤에 다시 해 주세요.",
    "account.busy": "서버가 비밀번호를 확인하느라 바쁩니다. 잠시 뒤에 다시 해 주세요.",
    "account.signed_out": "로그인하지 않았습니다.",
    "account.forbidden": "이 사이트의 페이지에서 온 요청이 아닙니다. 페이지를 새로 고쳐 주세요.",
    "account.no_session": "그런 세션은 없습니다.",
    "account.password.exists": "이 계정에는 이미 비밀번호가 있습니다. 비밀번호 바꾸기를 쓰세요.",
    "account.password.wrong": "현재 비밀번호가 아닙니다.",
    "account.deleted": "삭제된 플레이어",
    "account.no_player": "그런 이름의 플레이어는 없습니다.",
    "account.no_variant": "그런 변형 규칙은 없습니다.",
    "account.passkey.expired": (
        "패스키 요청이 만료되었거나 이미 사용되었습니다. " "다시 시도해 주세요."
    ),
    "account.passkey.failed": "패스키가 받아들여지지 않았습니다. 다시 시도해 주세요.",
    "account.passkey.sign_in_failed": "이 패스키는 여기서 받아들여지지 않았습니다.",
    "account.passkey.known": "이 패스키는 이미 계정에 등록되어 있습니다.",
    "account.passkey.last": "로그인할 마지막 방법입니다. 먼저 다른 패스키나 비밀번호를 추가하세요.",
    "account.passkey.none": "그런 패스키는 없습니다.",
    # 봇 계정 (perudo.server.accounts.botapi, docs/bot-api.md).
    "account.bot.no_sign_in": (
        "봇 계정입니다. 토큰으로 봇 API를 통해 플레이하며, " "페이지에 로그인하지 않습니다."
    ),
    "account.bot.played": (
        "게임을 한 번도 하지 않았고 어느 테이블에도 앉아 있지 않은 "
        "계정만 봇 계정이 될 수 있습니다."
    ),
    "account.bot.token_needed": (
        "봇 API에는 봇 계정의 토큰이 필요합니다. 헤더 "
        '"Authorization: Bearer <토큰>"으로 보내세요. 로그인 세션으로는 열리지 않습니다.'
    ),
    "account.bot.bad_token": "유효하지 않은 봇 토큰입니다. 취소되었거나 존재하지 않습니다.",
    "account.bot.no_token": "그런 토큰은 없습니다.",
    "account.bot.too_many_tokens": (
        "이 봇 계정은 가질 수 있는 토큰을 모두 가지고 있습니다. " "먼저 하나를 취소하세요."
    ),
    # Accounts: addresses confirmed and passwords reset by mail (accounts/recovery.py).
    "account.mail.off": (
        "이 사이트는 메일을 보내지 않아 메일로 비밀번호를 재설정할 "
        "수 없습니다. 사이트 운영자에게 문의해 주세요."
    ),
    "account.email.refused": "이메일 주소가 아닙니다.",
    "account.token.bad": "이미 쓰였거나 만료되었거나 잘못된 링크입니다. 새 링크를 요청해 주세요.",
    "account.mail.limited": "메일 요청이 너무 많습니다. 한 시간 뒤에 다시 해 주세요.",
    "account.forgot.sent": (
        "그 이름이나 주소에 확인된 이메일 주소가 있으면 새 "
        "비밀번호를 정하는 링크가 곧 도착합니다."
    ),
    "account.email.sent": "{address}(으)로 확인 링크를 보냈습니다. 링크를 열면 주소가 쓰입니다.",
    "account.mail.confirm.subject": "Perudo 이메일 주소를 확인해 주세요",
    "account.mail.confirm.body": (
        "{name} 님, 안녕하세요.\n\n{address}이(가) "
        "Perudo 계정의 주소임을 확인하려면 이 링크를 열어 "
        "주세요.\n\n{link}\n\n링크는 24시간 동안 한 번만 쓸 "
        "수 있습니다. 요청하지 않았다면 이 메일을 무시하세요. "
        "아무것도 바뀌지 않습니다."
    ),
    "account.mail.reset.subject": "Perudo 새 비밀번호 정하기",
    "account.mail.reset.body": (
        "{name} 님, 안녕하세요.\n\nPerudo 계정 "
        "{name}의 비밀번호 재설정 요청이 있었습니다. 새 "
        "비밀번호를 정하려면 이 링크를 열어 주세요.\n\n{link}\n\n"
        "링크는 30분 동안 한 번만 쓸 수 있고, 쓰면 모든 곳에서 "
        "로그아웃됩니다. 요청하지 않았다면 이 메일을 무시하세요. "
        "비밀번호는 그대로입니다."
    ),
    # perudo analyze (끝난 게임의 분석).
    "analysis.title": "{players}명 게임의 분석",
    "analysis.own": "{who}의 시점으로 판단: 자기 주사위, 모든 호출과 도전, 테이블에서 공개된 손.",
    "analysis.public": "모두가 본 것으로 판단: 테이블에서 공개된 주사위만.",
    "analysis.progress": "분석 중: {total} 중 {done}",
    "analysis.decision": "{who}: {action}",
    "analysis.holds": "{bid}이(가) 맞을 확률: 이 주사위로 {p}, 전문가처럼 호출을 읽으면 {q}",
    "analysis.holds_public": "{bid}이(가) 맞을 확률: 모두가 본 주사위로 {p}",
    "analysis.expert": "전문가: {action}",
    "analysis.expert_mix": "전문가의 혼합 전략: {mix}",
    "analysis.loss_exact": "손실: 라운드 승리 확률 {round}, 게임 승리 확률 {game} (정확, 풀이됨)",
    "analysis.loss_estimate": (
        "손실: 라운드 승리 확률 {round} " "(95% 구간 {low}~{high}, 시뮬레이션 {n}회)"
    ),
    "analysis.not_judged": "판단하지 않음: 이 주사위는 보이지 않았습니다.",
    "analysis.loss_game": "손실: 게임 승리 확률 {game} (정확, 풀이됨)",
    "analysis.same": "전문가와 같은 선택.",
    "analysis.label.good": "좋음",
    "analysis.label.inaccuracy": "부정확",
    "analysis.label.mistake": "실수",
    "analysis.label.blunder": "큰 실수",
    "analysis.accuracy": "{who}의 정확도: {value}",
    "analysis.accuracy_none": "{who}의 정확도: 판단한 결정 없음",
    "analysis.chart": "라운드마다 게임에서 이길 확률",
    "analysis.start": "시작",
    "analysis.exact": "정확",
    "analysis.estimate": "추정, 게임 {n}판",
    "analysis.moments": "게임을 바꾼 순간",
    "analysis.moment": "{round} 라운드: {who} {before} → {after}",
    "analysis.calls": "도전",
    "analysis.call_worked": "{round} 라운드: {who}이(가) {bid}에 {kind}: 성공",
    "analysis.call_failed": "{round} 라운드: {who}이(가) {bid}에 {kind}: 실패",
    "analysis.bluffs": "블러프",
    "analysis.bluff_worked": "{round} 라운드: {who}이(가) {p} 확률로 {bid} 호출: 들키지 않음",
    "analysis.bluff_caught": "{round} 라운드: {who}이(가) {p} 확률로 {bid} 호출: 들킴",
    "analysis.none": "없음",
    "analysis.bad_seat": "이 게임에 {n}번 자리는 없습니다: 자리는 1부터 {players}까지입니다.",
    "analysis.loss_estimate_game": (
        "손실: 라운드 승리 확률 {round} (95% 구간 {low}~{high}), 게임 승리 확률 {game} "
        "({glow}~{ghigh}), 시뮬레이션 {n}회"
    ),
    "analysis.true_count": "모든 주사위를 알면: {count}개 (호출은 {q}개)",
    "analysis.not_over": (
        "모든 손은 게임이 끝난 뒤에만 보여 줍니다. 이 게임은 끝나지 않았습니다: "
        "--every-hand 없이 분석하세요."
    ),
    # 기록된 수의 거절은 읽는 사람이 아니라 그 수를 둔 사람에 대해 말합니다.
    "of.refusal.turn.not_yours": "{to_act}의 차례입니다: {seat:은/는} 둘 차례가 아닙니다.",
    "of.refusal.seat.out": "{seat:은/는} 이미 탈락했습니다.",
    "of.refusal.pass.already": "{seat:은/는} 이번 라운드에 이미 패스했습니다.",
    "of.refusal.aside.not_held": "{seat:의} 숨긴 주사위에 {face} 눈이 {count}개 없습니다.",
    # Friends and notices (perudo.server.social).
    "server.blocked": "이 테이블의 한 플레이어가 당신을 차단했습니다. 여기에 앉을 수 없습니다.",
    "account.social.yourself": "본인입니다.",
    "account.social.blocked_them": "이 플레이어를 차단했습니다. 먼저 차단을 해제하세요.",
    "account.social.invite_blocked": "이 플레이어는 당신의 초대를 받지 않습니다.",
    "account.social.no_table": "그런 테이블은 없습니다.",
    "account.social.not_seated": "자리가 있는 테이블에만 초대할 수 있습니다.",
    "account.social.not_waiting": "이 테이블의 게임이 시작되었습니다. 지금은 참가할 수 없습니다.",
    "account.social.no_invitation": "이 초대는 더 이상 유효하지 않습니다.",
    "account.social.push_service": "이 브라우저의 푸시 서비스는 이 서버에서 사용하지 않습니다.",
    "push.title": "페루도",
    "push.turn": "{table}에서 당신 차례입니다.",
    "push.invite": "{from} 님이 {table}에 초대했습니다.",
    "push.start": "{table}의 게임이 시작됩니다.",
}
